"""Shared scaffolding of the adapter tests: configure an adapter to its profile plus
some knob changes, and run it beside the oracle."""
import warnings

from conformance.protocol import Configured
from oracle.registry import get_metric


def configure(a, metric, conventions):
    """The adapter configured to its declared profile overridden by ``conventions``."""
    settings = get_metric(metric).settings({**a.profiles[metric], **conventions})
    cfg = a.configure(metric, settings)
    assert isinstance(cfg, Configured), getattr(cfg, "reason", cfg)
    return cfg


def run(a, metric, conventions, inputs):
    """(configuration, the library's output, the oracle's result) on ``inputs``."""
    cfg = configure(a, metric, conventions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = a.run(cfg, inputs)
    return cfg, out, get_metric(metric).compute(inputs, cfg.settings)


def known_file(adapter: str) -> dict:
    """The adapter's known-failure file (adapters/known_failures/<adapter>.json) as JSON."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "adapters" / "known_failures" / f"{adapter}.json"
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def is_invalid_entry(entry) -> bool:
    """A known failure recorded on an input the spec refuses (its exact value is error(...))."""
    e = entry if isinstance(entry, dict) else entry.__dict__
    return str(e["exact"]).startswith("error(")


def on_bad_input_rows(entry) -> bool:
    """An entry matched by the ids of bad-input cases (golden/bad_input), not by a classifier."""
    return any(c.startswith("bad-input.") for c in entry.get("cases") or [])


def exact_from_table(entry) -> bool:
    """An entry recorded on bad-input rows (``cases``) takes its exact value from the table's
    first case, derived by hand there (golden/bad_input/<family>.json, each example's
    ``why``): the refusal the table names, or the table's value."""
    from conformance.casefiles.bad_input import find_case
    from conformance.casefiles.cases import parse_expected
    from oracle.certified import same_value
    cases = [c for c in entry.get("cases") or [] if c.startswith("bad-input.")]
    if not cases:
        return False
    case = find_case("#" + cases[0])
    want = case.expected["value"]
    if isinstance(want, str) and want.startswith("error("):
        names = want[len("error("):-1].split(": ", 1)
        return entry["exact"].startswith(f"error({names[0]}") and (len(names) < 2 or names[1] in entry["exact"])
    got = entry["exact"]
    try:
        import json
        got = json.loads(got) if got[:1] in "[{" else got
    except ValueError:
        pass
    from conformance.casefiles.cases import _same_json
    if isinstance(want, str) and isinstance(got, str):
        return same_value(parse_expected(want), parse_expected(got))
    return _same_json(want, got)


def check_invalid_entry(a, entry) -> None:
    """An accepts-invalid-input entry: the oracle refuses the stored input, with the recorded
    reason, and the library still returns the recorded value for it (a value, not a refusal)."""
    import pytest
    from conformance.casefiles.known import same_library_value
    from conformance.reports.records import decode_values as _decode_inputs
    from oracle.conventions import InputError
    inputs = _decode_inputs(entry["inputs"])
    settings = get_metric(entry["metric"]).settings({**a.profiles[entry["metric"]], **entry["conventions"]})
    with pytest.raises(InputError) as refused:
        get_metric(entry["metric"]).compute(inputs, settings)
    assert str(refused.value) in entry["exact"]
    cfg = a.configure(entry["metric"], settings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = a.run(cfg, inputs).value
        except Exception as e:   # a crash recorded as such ("raised Type: message"), not a refusal
            assert entry["library_value"] == f"raised {type(e).__name__}: {e}", (e, entry["library_value"])
            return
    assert same_library_value(value, entry["library_value"]), (value, entry["library_value"])


def defect_is_recorded(e) -> bool:
    """A defect entry is recognised by its classifier (with the adapter's model) or recorded
    on its own input (a golden case, or the minimal input of a property)."""
    return bool(e.get("classifier") or e.get("property") or e.get("cases"))


def in_installed_range(library: str, entry) -> bool:
    """The known-failure entry holds for the installed release of ``library`` (the others
    are replayed in their own releases by tests/test_versions.py)."""
    import importlib.metadata
    from conformance.versions import in_range
    versions = entry.get("versions") if isinstance(entry, dict) else getattr(entry, "versions", None)
    try:
        return in_range(importlib.metadata.version(library), versions)
    except importlib.metadata.PackageNotFoundError:
        return versions is None
