"""Known failures: each adapter's recorded disagreements with the oracle.

Stored as data beside the adapter (``adapters/known_failures/<adapter>.json``):
the minimal input, the conventions it was run under, the exact value, the
library's value, and the explanation: ``kind: convention`` with the knob
settings that reproduce the library's value, or ``kind: defect`` with the
adapter's classifier that recognises the defect on other inputs.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from conformance.protocol import profile_overrides
from conformance.reports.records import decode_values, encode_values, without_temp_names

KNOWN_DIR = Path(__file__).resolve().parents[2] / "adapters" / "known_failures"
_override: Path | None = None


def set_directory(path) -> None:
    """Write known-failure lists in ``path``, and read them there besides the shipped ones
    in adapters/known_failures (the CLI's --known-dir: a user's own lists, for their own
    adapters or added to a shipped adapter's; an id in both is the user's entry)."""
    global _override
    _override = Path(path) if path else None


def directory() -> Path:
    return _override or KNOWN_DIR


@dataclass
class KnownFailure:
    id: str
    adapter: str
    metric: str
    kind: str
    title: str
    conventions: dict
    inputs: dict
    exact: str
    library_value: object
    explanation: str
    knobs: dict = field(default_factory=dict)
    classifier: str | None = None
    cases: list = field(default_factory=list)
    upstream: str | None = None
    property: str | None = None   # a baseline entry: this property template is known to fail
    versions: str | None = None   # the library versions it holds for (PEP 440 range; None: all)
    versions_source: str | None = None   # the changelog entry or commit that bounds the range
    # a baseline entry's other inputs of the same property that failed the same run:
    # [{"inputs": ..., "library_value": ...}], each matched as the entry's own input is
    also: list = field(default_factory=list)

    def to_json(self) -> dict:
        d = {"id": self.id, "metric": self.metric, "kind": self.kind, "title": self.title,
             "conventions": self.conventions, "inputs": encode_values(self.inputs), "exact": self.exact,
             "library_value": _json_number(self.library_value), "explanation": self.explanation}
        if self.knobs:
            d["knobs"] = self.knobs
        if self.classifier:
            d["classifier"] = self.classifier
        if self.cases:
            d["cases"] = self.cases
        if self.property:
            d["property"] = self.property
        if self.versions:
            d["versions"] = self.versions
        if self.versions_source:
            d["versions_source"] = self.versions_source
        if self.also:
            d["also"] = [{"inputs": encode_values(a["inputs"]), "library_value": _json_number(a["library_value"])}
                         for a in self.also]
        d["upstream"] = self.upstream
        return d


_NON_FINITE = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def _number(v):
    """Library values are JSON numbers; NaN and infinities (not JSON) are stored as the
    strings "nan", "inf", "-inf" (or as reports write them, {"$float": "nan"}), and
    structures keep their shape."""
    if isinstance(v, dict) and len(v) == 1 and "$float" in v:
        return decode_values(v)
    if isinstance(v, str) and v in _NON_FINITE:
        return _NON_FINITE[v]
    if isinstance(v, list):
        return [_number(x) for x in v]
    if isinstance(v, dict):
        return {k: _number(x) for k, x in v.items()}
    return v


def same_inputs(a, b) -> bool:
    """Equal inputs, a NaN equal to a NaN (a recorded NaN score is the same input)."""
    return a == b or encode_values(a) == encode_values(b)


def _json_number(v):
    if isinstance(v, float) and v != v:
        return "nan"
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, list):
        return [_json_number(x) for x in v]
    if isinstance(v, dict):
        return {k: _json_number(x) for k, x in v.items()}
    return v


def known_path(adapter: str, where: Path | None = None) -> Path:
    return (where or directory()) / f"{adapter}.json"


def load_known(adapter: str, where: Path | None = None, shipped: bool = True) -> list[KnownFailure]:
    """The known failures of ``adapter``: from ``where``; else the shipped list with the
    --known-dir list's entries added (``shipped=False``: the --known-dir list alone, as
    ``known --write`` rewrites it)."""
    if where is None and _override is not None:
        own = _load_list(adapter, _override)
        if not shipped:
            return own
        mine = {e.id for e in own}
        return [e for e in _load_list(adapter, KNOWN_DIR) if e.id not in mine] + own
    return _load_list(adapter, where)


def _load_list(adapter: str, where: Path | None) -> list[KnownFailure]:
    path = known_path(adapter, where)
    if not path.exists():
        return []
    from conformance.casefiles.cases import read_json_file
    data = read_json_file(path, ValueError)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected an object with 'entries', got {type(data).__name__}")
    out = []
    for i, e in enumerate(data.get("entries", [])):
        try:
            out.append(KnownFailure(
                id=e["id"], adapter=adapter, metric=e["metric"], kind=e["kind"], title=e.get("title", ""),
                conventions=e.get("conventions", {}), inputs=decode_values(e["inputs"]), exact=e["exact"],
                library_value=_number(e.get("library_value")), explanation=e.get("explanation", ""),
                knobs=e.get("knobs", {}), classifier=e.get("classifier"), cases=e.get("cases", []),
                upstream=e.get("upstream"), property=e.get("property"), versions=e.get("versions"),
                versions_source=e.get("versions_source"),
                also=[{"inputs": decode_values(a["inputs"]), "library_value": _number(a.get("library_value"))}
                      for a in e.get("also", []) if isinstance(a, dict) and "inputs" in a]))
        except KeyError as k:
            raise ValueError(f"{path}: entries[{i}] lacks {k}") from None
        if out[-1].versions:
            from conformance.versions import VersionRangeError, specifier
            try:
                specifier(out[-1].versions)
            except VersionRangeError as err:
                raise ValueError(f"{path}: entries[{i}] ({out[-1].id}) versions: {err}") from None
    return out


_MISSING = object()


def _raised_type(value) -> str | None:
    """'ValueError' for a recorded or observed 'raised ValueError: ...', else None. A qualified
    name is read by its last part ('raised subprocess.CalledProcessError: ...' is a
    CalledProcessError: golden judging records the qualified name, properties the bare one)."""
    if isinstance(value, str) and value.startswith("raised "):
        return value[len("raised "):].split(":", 1)[0].strip().rsplit(".", 1)[-1]
    return None


def same_library_value(a, b, raise_text: bool = False) -> bool:
    """The library gave the same value (NaN equals NaN: the same recorded behaviour; a
    raise equals a raise of the same exception type, or with ``raise_text`` the same text,
    a temporary file's name being any temporary file's)."""
    said = ("raised ", "died")
    if raise_text and isinstance(a, str) and isinstance(b, str) and a.startswith(said) and b.startswith(said):
        return without_temp_names(a) == without_temp_names(b)
    ta, tb = _raised_type(a), _raised_type(b)
    if ta or tb:
        return ta == tb
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_library_value(x, y, raise_text) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        bb = {str(k): v for k, v in b.items()}
        return set(map(str, a)) == set(bb) and all(same_library_value(a[k], bb[str(k)], raise_text) for k in a)
    try:
        x, y = float(a), float(b)
    except (TypeError, ValueError):
        return a == b
    return x == y or (x != x and y != y)


class KnownIndex:
    """Recognises findings as known failures of one adapter.

    A recorded entry matches a new finding only when it predicts the library's value on
    the new input: a convention entry by the oracle under its knobs; a defect entry by
    the adapter's model of the defect (``defect_models``), or, for a recorded raise, a
    raise of the same type; an accepts-invalid-input entry by a value where the spec
    refuses an input of the same kind (the same ``invalid:`` property); and a defect entry
    only while its replay on its own stored input still fails the recorded way. An entry
    with no prediction matches its stored input alone. So one recorded defect cannot stand
    for a different one."""

    def __init__(self, adapter, entries: list[KnownFailure]):
        from conformance.versions import split_entries
        self.adapter = adapter
        # an entry recorded for other releases explains nothing here; its replay checks
        # that the defect is absent (``out_of_range``)
        version = adapter.version() if hasattr(adapter, "version") else ""
        self.entries, self.out_of_range = split_entries(entries, version)
        self.classifiers = adapter.defect_classifiers() if hasattr(adapter, "defect_classifiers") else {}
        self.models = adapter.defect_models() if hasattr(adapter, "defect_models") else {}
        self._replay_cache: dict = {}

    def _settings_of(self, e: KnownFailure) -> dict:
        from oracle.registry import get_metric
        try:
            return get_metric(e.metric).settings({**profile_overrides(self.adapter, e.metric),
                                                  **e.conventions})
        except Exception:
            return {}

    def library_value(self, metric: str, settings: Mapping, inputs: Mapping):
        """The library's value on ``inputs`` (or 'raised T: ...'); _MISSING if it cannot run."""
        from conformance.protocol import Skip, Unsupported
        try:
            configured = self.adapter.configure(metric, settings)
        except Exception:
            return _MISSING
        if isinstance(configured, Unsupported):
            return _MISSING
        try:
            return self.adapter.run(configured, inputs).value
        except Skip:
            return _MISSING
        except Exception as ex:
            return f"raised {type(ex).__name__}: {ex}"

    def still_fails_as_recorded(self, e: KnownFailure) -> bool:
        """The replay of ``e`` on its stored input gives the recorded library value."""
        if e.id not in self._replay_cache:
            got = self.library_value(e.metric, self._settings_of(e), e.inputs)
            self._replay_cache[e.id] = got is not _MISSING and same_library_value(got, e.library_value)
        return self._replay_cache[e.id]

    def predicts(self, e: KnownFailure, metric: str, settings: Mapping, inputs: Mapping, library_value) -> bool:
        """Does ``e``'s model of the defect give ``library_value`` on ``inputs``?"""
        if library_value is _MISSING:
            return False
        model = self.models.get(e.classifier) if e.classifier else None
        if model is not None:
            try:
                predicted = model(metric, settings, inputs)
            except Exception:
                return False
            if predicted is None:
                return False
            if isinstance(predicted, str) and predicted == "no value":
                return library_value is None or (isinstance(library_value, float) and library_value != library_value)
            if _raised_type(predicted) or _raised_type(library_value):
                return same_library_value(predicted, library_value)
            from oracle.compare import compare_value
            from fractions import Fraction
            if isinstance(predicted, float) or isinstance(library_value, (dict, list)):
                return same_library_value(predicted, library_value) or _close(library_value, predicted,
                                                                             self.adapter, metric)
            try:
                return compare_value(library_value, Fraction(predicted) if isinstance(predicted, int) else predicted,
                                     self.adapter.tolerance(metric)).agrees
            except Exception:
                return False
        if _raised_type(e.library_value):
            return same_library_value(e.library_value, library_value)
        return False

    def has_conventions(self, metric: str) -> bool:
        return any(e.metric == metric and e.kind == "convention" for e in self.entries)

    def for_case(self, case_id: str, metric: str) -> KnownFailure | None:
        for e in self.entries:
            if e.metric == metric and case_id in e.cases:
                return e
        return None

    def stored(self, metric: str, settings: Mapping, inputs: Mapping, library_value=_MISSING) -> KnownFailure | None:
        """The entry recorded on exactly this input under these settings, while the library
        still gives the recorded value on it."""
        for e in self.entries:
            if e.metric != metric:
                continue
            for x, lib in [(e.inputs, e.library_value)] + [(a["inputs"], a["library_value"]) for a in e.also]:
                if same_inputs(x, inputs) and self._settings_of(e) == dict(settings) \
                        and (library_value is _MISSING or same_library_value(library_value, lib)):
                    return e
        return None

    def accepted_refusal(self, metric: str, settings: Mapping, refusal: str, library_value) -> KnownFailure | None:
        """The entry recording that the library returns a value where the spec refuses an
        input of the same kind: an ``invalid:`` property's entry under these settings whose
        refusal reads as ``refusal`` with its numbers, quoted texts and bracketed lists left
        out ("y_true[0]: label 0 is not among the declared labels [1, 2]"), while its own
        replay still fails as recorded. Any value on another input of that kind is the same
        defect (a raise is not: it is no value)."""
        if library_value is _MISSING or _raised_type(library_value) or not isinstance(refusal, str):
            return None
        for e in self.entries:
            if e.metric == metric and (e.property or "").startswith("invalid:") and str(e.exact).startswith("error(") \
                    and _refusal_kind(e.exact) == _refusal_kind(refusal) and self._settings_of(e) == dict(settings) \
                    and self.still_fails_as_recorded(e):
                return e
        return None

    def recognise(self, metric: str, settings: Mapping, inputs: Mapping,
                  reproducing: list[dict] | None, check=None, library_value=_MISSING,
                  status: str | None = None, stored: bool = True, prop: str | None = None) -> KnownFailure | None:
        """The known failure that explains this disagreement, if any.

        An entry matches its own recorded input under its own settings when the library
        still gives the recorded value there; a convention entry matches when its knob
        setting reproduces the library's value (``reproducing`` from a full explanation,
        or ``check(knobs)``); a defect entry matches when its classifier says the defect
        applies to this input, its replay still fails the recorded way, and its model
        predicts the library's value here."""
        if stored:
            hit = self.stored(metric, settings, inputs, library_value)
            if hit is not None:
                return hit
        for e in self.entries:
            if e.metric != metric or (same_inputs(e.inputs, inputs) and self._settings_of(e) == dict(settings)):
                continue
            if e.kind == "convention" and reproducing:
                if any(r == e.knobs for r in reproducing):
                    return e
            elif e.kind == "convention" and check is not None and e.knobs:
                # without a full explanation search: does this entry's knob setting reproduce it?
                if check(e.knobs):
                    return e
            elif prop and prop.startswith("invalid:") and e.property == prop and str(e.exact).startswith("error(") \
                    and library_value is not _MISSING and not _raised_type(library_value) \
                    and self._settings_of(e) == dict(settings):
                # "accepts this kind of invalid input" predicts a value where the spec refuses:
                # any value the library returns on another input of the kind is that defect
                if self.still_fails_as_recorded(e):
                    return e
            elif e.kind == "defect" and e.classifier:
                pred = self.classifiers.get(e.classifier)
                if pred is None:
                    continue
                try:
                    applies = pred(metric, settings, inputs)
                except Exception:
                    continue
                if applies and self.predicts(e, metric, settings, inputs, library_value) \
                        and self.still_fails_as_recorded(e):
                    return e
        return None


def _refusal_kind(text: str) -> str:
    """A refusal's words without the items it names: numbers, quoted texts and bracketed
    lists removed."""
    import re
    t = re.sub(r"\[[^\]]*\]|'[^']*'|\"[^\"]*\"|-?\d+(\.\d+)?", "", str(text))
    return " ".join(t.split())


def _close(library_value, predicted, adapter, metric) -> bool:
    """A float prediction (a model of the library's float arithmetic) against the library's
    value, within the adapter's tolerance."""
    import math
    from fractions import Fraction
    from oracle.compare import compare_value
    if isinstance(predicted, float) and not math.isfinite(predicted):
        return same_library_value(predicted, library_value)
    try:
        # an exact or structured prediction (a set of admissible counts, say) is compared as it is
        exact = Fraction(predicted) if isinstance(predicted, (int, float)) else predicted
        return compare_value(library_value, exact, adapter.tolerance(metric)).agrees
    except Exception:
        return False


def write_known(adapter_name: str, library: str, version: str, entries: list[KnownFailure],
                where: Path | None = None) -> Path:
    path = known_path(adapter_name, where)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"adapter": adapter_name, "library": library, "version": version,
            "entries": [e.to_json() for e in entries]}
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"   # whole, before writing
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
