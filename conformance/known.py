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

KNOWN_DIR = Path(__file__).resolve().parent.parent / "adapters" / "known_failures"
_override: Path | None = None


def set_directory(path) -> None:
    """Read and write known-failure lists in ``path`` instead of adapters/known_failures
    (the CLI's --known-dir: a user's own lists for their own adapters)."""
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

    def to_json(self) -> dict:
        d = {"id": self.id, "metric": self.metric, "kind": self.kind, "title": self.title,
             "conventions": self.conventions, "inputs": self.inputs, "exact": self.exact,
             "library_value": _json_number(self.library_value), "explanation": self.explanation}
        if self.knobs:
            d["knobs"] = self.knobs
        if self.classifier:
            d["classifier"] = self.classifier
        if self.cases:
            d["cases"] = self.cases
        if self.property:
            d["property"] = self.property
        d["upstream"] = self.upstream
        return d


_NON_FINITE = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def _number(v):
    """Library values are JSON numbers; NaN and infinities (not JSON) are stored as the
    strings "nan", "inf", "-inf", and structures keep their shape."""
    if isinstance(v, str) and v in _NON_FINITE:
        return _NON_FINITE[v]
    if isinstance(v, list):
        return [_number(x) for x in v]
    if isinstance(v, dict):
        return {k: _number(x) for k, x in v.items()}
    return v


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


def load_known(adapter: str, where: Path | None = None) -> list[KnownFailure]:
    path = known_path(adapter, where)
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = []
    for i, e in enumerate(data.get("entries", [])):
        try:
            out.append(KnownFailure(
                id=e["id"], adapter=adapter, metric=e["metric"], kind=e["kind"], title=e.get("title", ""),
                conventions=e.get("conventions", {}), inputs=e["inputs"], exact=e["exact"],
                library_value=_number(e.get("library_value")), explanation=e.get("explanation", ""),
                knobs=e.get("knobs", {}), classifier=e.get("classifier"), cases=e.get("cases", []),
                upstream=e.get("upstream"), property=e.get("property")))
        except KeyError as k:
            raise ValueError(f"{path}: entries[{i}] lacks {k}") from None
    return out


class KnownIndex:
    """Recognises findings as known failures of one adapter."""

    def __init__(self, adapter, entries: list[KnownFailure]):
        self.adapter = adapter
        self.entries = entries
        self.classifiers = adapter.defect_classifiers() if hasattr(adapter, "defect_classifiers") else {}

    def _settings_of(self, e: KnownFailure) -> dict:
        from oracle.registry import get_metric
        try:
            return get_metric(e.metric).settings({**getattr(self.adapter, "profiles", {}).get(e.metric, {}),
                                                  **e.conventions})
        except Exception:
            return {}

    def baseline_for(self, metric: str, prop: str, settings: Mapping) -> KnownFailure | None:
        """A baseline entry (written by `known --write`) saying that this property
        template, under these settings, is known to fail."""
        for e in self.entries:
            if e.metric == metric and e.property == prop and not e.classifier \
                    and self._settings_of(e) == dict(settings):
                return e
        return None

    def has_conventions(self, metric: str) -> bool:
        return any(e.metric == metric and e.kind == "convention" for e in self.entries)

    def for_case(self, case_id: str, metric: str) -> KnownFailure | None:
        for e in self.entries:
            if e.metric == metric and case_id in e.cases:
                return e
        return None

    def recognise(self, metric: str, settings: Mapping, inputs: Mapping,
                  reproducing: list[dict] | None, check=None) -> KnownFailure | None:
        """The known failure that explains this disagreement, if any.

        A convention entry matches when one of the knob settings that reproduce the
        library's value (``reproducing``) equals the entry's knobs; a defect entry
        matches when its classifier says the defect applies to this input; an entry
        without a classifier matches its own recorded input under its own settings
        (what `metric-conformance known --write` records; derandomized property runs
        find the same minimal input again)."""
        for e in self.entries:
            if e.metric != metric:
                continue
            if not e.classifier and e.inputs == inputs and self._settings_of(e) == dict(settings):
                return e
            if e.kind == "convention" and reproducing:
                if any(r == e.knobs for r in reproducing):
                    return e
            elif e.kind == "convention" and check is not None and e.knobs:
                # without a full explanation search: does this entry's knob setting reproduce it?
                if check(e.knobs):
                    return e
            elif e.kind == "defect" and e.classifier:
                pred = self.classifiers.get(e.classifier)
                if pred is not None:
                    try:
                        if pred(metric, settings, inputs):
                            return e
                    except Exception:
                        continue
        return None


def write_known(adapter_name: str, library: str, version: str, entries: list[KnownFailure],
                where: Path | None = None) -> Path:
    path = known_path(adapter_name, where)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"adapter": adapter_name, "library": library, "version": version,
            "entries": [e.to_json() for e in entries]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False, allow_nan=False)
        f.write("\n")
    return path
