"""One line of a conformance report: what was run, the outcome, and for a
disagreement everything DESIGN.md's Reports section asks for."""
from __future__ import annotations

import json
import re
import shlex
import tempfile
from dataclasses import asdict, dataclass, field
from decimal import Decimal


@dataclass
class Record:
    adapter: str
    library: str
    version: str
    metric: str
    kind: str                 # golden | property | known | divergence
    test: str                 # case id, property name, or known-failure id
    outcome: str              # pass fail error skipped known-failure not-applicable
    description: str = ""
    source: str = ""
    case_signature: str = ""
    adapter_signature: str = ""
    differing_knobs: dict = field(default_factory=dict)   # knob -> [case value, library profile value]
    exact: str = ""
    digits: str = ""
    library_value: object = None
    comparison: dict = field(default_factory=dict)
    first_differing_statistic: str = ""
    explanation: str = ""
    reproducing_knobs: list = field(default_factory=list)
    known_failure: str = ""
    known_title: str = ""
    inputs: dict | None = None
    conventions: dict = field(default_factory=dict)
    reproduce: str = ""
    message: str = ""
    tolerance: str = ""
    seconds: float = 0.0
    examples: int = 0
    known_seen: list = field(default_factory=list)
    immaterial: dict = field(default_factory=dict)   # knob -> [case, library]: cannot change the value here
    converted: dict = field(default_factory=dict)    # presentation knob -> [case, library]: converted
    material: dict = field(default_factory=dict)     # knob -> [case or canonical, library]: changes it here
    case_exact: str = ""                             # exact value under the case's (or canonical) setting
    run_settings: dict = field(default_factory=dict)  # the full setting the library ran at (golden cases)
    verdicts: dict = field(default_factory=dict)     # conformance / divergence, for reports
    # a property's other corpus inputs that failed unexplained: [{"inputs", "library_value"}]
    also_failing: list = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.adapter}::{self.metric}::{self.kind}::{self.test}"

    def to_json(self) -> dict:
        """The record as strict JSON data: a non-finite float (a NaN score, a library's
        NaN) as {"$float": "nan"}."""
        d = encode_values(asdict(self))
        d["key"] = self.key
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Record":
        d = {k: decode_values(v) for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**d)


_NON_FINITE = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}
REPEAT_LIMIT = 50_000_000   # items or characters a {"$repeat": [x, n]} may make


def encode_values(v):
    """``v`` as strict JSON (RFC 8259 has no NaN, no Decimal): every non-finite float as
    {"$float": "nan" | "inf" | "-inf"}, every ``Decimal`` as {"$decimal": its text}."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return {"$float": "nan" if v != v else ("inf" if v > 0 else "-inf")}
    if isinstance(v, Decimal):
        return {"$decimal": str(v)}
    if isinstance(v, (list, tuple)):
        return [encode_values(x) for x in v]
    if isinstance(v, dict):
        return {k: encode_values(x) for k, x in v.items()}
    return v


def decode_values(v):
    """The inverse of ``encode_values``, the one reading of the project's JSON values (reports,
    known failures, corpora, ``compare --inputs``, the bad-input tables): {"$float": text} is
    that float (``float(text)``), {"$decimal": text} a ``Decimal``, {"$repeat": [x, n]} the
    text or list x repeated n times (at most ``REPEAT_LIMIT`` items or characters, else
    ``ValueError``)."""
    if isinstance(v, dict):
        if len(v) == 1:
            (k, x), = v.items()
            if k == "$float" and isinstance(x, str):
                return _NON_FINITE[x] if x in _NON_FINITE else float(x)
            if k == "$decimal" and isinstance(x, str):
                return Decimal(x)
            if k == "$repeat" and isinstance(x, list) and len(x) == 2 and isinstance(x[0], (str, list)) \
                    and isinstance(x[1], int) and not isinstance(x[1], bool) and x[1] >= 0:
                part, times = decode_values(x[0]), x[1]
                if len(part) * times > REPEAT_LIMIT:
                    raise ValueError(f"{{\"$repeat\": [..., {times}]}} makes {len(part) * times:,} items, more than "
                                     f"{REPEAT_LIMIT:,}")
                return part * times
        return {k: decode_values(x) for k, x in v.items()}
    if isinstance(v, list):
        return [decode_values(x) for x in v]
    return v


def json_line(obj) -> str:
    """One line of strict JSON (non-finite floats encoded; other objects as their str)."""
    return json.dumps(encode_values(obj), ensure_ascii=False, default=str, allow_nan=False)


def reproduce_command(adapter, metric: str, conventions: dict, inputs: dict | None,
                      case_ref: str | None = None) -> str:
    """The command that replays one check: ``adapter`` is a name or an adapter, whose
    ``spec`` (the ``module:object`` it was loaded from) is used when it has one."""
    if not isinstance(adapter, str):
        adapter = getattr(adapter, "spec", None) or adapter.name
    adapter = shlex.quote(adapter)
    if case_ref:
        return f"metric-conformance compare {shlex.quote(case_ref)} --adapter {adapter}"
    parts = ["metric-conformance", "compare", "--adapter", adapter, "--metric", metric,
             "--inputs", shlex.quote(json.dumps(encode_values(inputs), ensure_ascii=False, separators=(",", ":"),
                                                default=str))]
    if conventions:
        parts += ["--conventions", shlex.quote(json.dumps(conventions, separators=(",", ":")))]
    return " ".join(parts)


# tempfile's names: "tmp" and eight characters of [a-z0-9_], in the temporary folder
_TEMP_NAME = re.compile(re.escape(tempfile.gettempdir().rstrip("/")) + r"/tmp[a-z0-9_]{8}")


def without_temp_names(text: str) -> str:
    """``text`` with every temporary file's path written ``<temp file>`` (a tool run on
    temporary files names new ones on every call)."""
    return _TEMP_NAME.sub("<temp file>", text)


def shorten(text: str, n: int = 80) -> str:
    """``text`` cut to ``n`` characters with an ellipsis."""
    return text if len(text) <= n else text[:n - 3] + "..."


def changed_known(r) -> bool:
    """A known failure whose replay still fails, with another library value than the recorded
    one: under --strict as unexpected as a fixed one (the entry no longer says what happens)."""
    return r.kind == "known" and r.outcome == "known-failure" and (r.verdicts or {}).get("library_value") == "changed"


def fixed_known(r) -> bool:
    """A known failure whose replay now passes (fixed): not an entry recorded for other
    releases, whose replay passing means the defect is absent, as recorded."""
    return r.kind == "known" and r.outcome == "pass" and (r.verdicts or {}).get("versions") != "outside"
