"""Golden case files: loading, validation and re-derivation by the oracle.

A case file (format ``metric-conformance-cases``, version 1) holds cases with
a stable opaque id, a present-tense description, a source, tags from the
registry (``golden/tags.json``), the metric, its conventions, the inputs and
the expected exact value (with statistics, parts, printed text and the hand
derivation). ``check_cases`` lints every file: schema, unique ids, known tags,
valid conventions, and every expected value re-derived by the oracle.
"""
from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from oracle.conventions import ConventionError, InputError, _jsonable
from oracle.exact import Undefined
from oracle.parse import parse_exact
from oracle.certified import places, same_value
from oracle.registry import get_metric

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
SCHEMA = GOLDEN / "schema" / "case-file.schema.json"
TAGS = GOLDEN / "tags.json"


class CaseFileError(ValueError):
    """A case file that does not parse or does not validate; names file and case."""


@dataclass
class Case:
    id: str
    description: str
    source: dict
    tags: list
    metric: str
    conventions: dict
    inputs: dict
    expected: dict
    file: str = ""
    # the inputs as the file writes them, where they differ from the oracle's (a bad-input
    # row's {"$repeat": ...} and {"$float": ...}): what a report shows
    written_inputs: dict | None = None

    @property
    def where(self) -> str:
        return f"{self.file}#{self.id}"

    def expected_value(self):
        return parse_expected(self.expected["value"])

    def to_json(self) -> dict:
        return {"id": self.id, "description": self.description, "source": self.source, "tags": self.tags,
                "metric": self.metric, "conventions": self.conventions, "inputs": self.inputs,
                "expected": self.expected}


def parse_expected(text):
    """An expected value: exact text, or a list/dict of them (structured values);
    ``{"admissible": [v, ...]}`` is an admissible set (several minimum-cost alignments)."""
    if isinstance(text, dict) and set(text) == {"admissible"} and isinstance(text["admissible"], list):
        from oracle.exact import Admissible
        return Admissible(values=tuple(parse_expected(v) for v in text["admissible"]))
    if isinstance(text, list):
        return [parse_expected(v) for v in text]
    if isinstance(text, dict):
        return {k: parse_expected(v) for k, v in text.items()}
    t = text.strip()
    if t.startswith("undefined(") and t.endswith(")"):
        return Undefined(t[len("undefined("):-1])
    return parse_exact(t)


def case_files(root: Path | None = None) -> list[Path]:
    root = root or GOLDEN
    return sorted(p for sub in ("documents", "topics") for p in (root / sub).glob("*.json"))


def _schema_validator():
    import jsonschema
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    return jsonschema.Draft202012Validator(schema)


def read_json_file(path: Path, error=None):
    """The JSON of a file (a byte-order mark at its start stripped); ``error`` (default
    CaseFileError) naming the file, and the line, when it cannot be read."""
    error = error or CaseFileError
    try:
        with open(path, encoding="utf-8-sig") as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise error(f"{path}: line {e.lineno} column {e.colno}: not JSON: {e.msg}") from None
    except RecursionError:
        raise error(f"{path}: JSON nested too deeply") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{path}: {getattr(e, 'strerror', None) or e}") from None



# (path, mtime, size, validate) -> the file's cases: a run reads every case file once per
# metric it judges, and validating one against the schema costs more than judging its cases
_LOADED: dict = {}


def load_file(path: Path, validate: bool = True, metric: str | None = None) -> list[Case]:
    """The cases of one golden file (of ``metric`` only, when given), each a fresh copy."""
    try:
        st = os.stat(path)
        key = (str(Path(path).resolve()), st.st_mtime_ns, st.st_size, validate)
    except OSError:
        key = None
    if key is not None and key in _LOADED:
        kept = _LOADED[key]
        # a copy: a case's inputs reach library code, which may change what it is given; only
        # the metric's cases are copied (a golden unit asks for one metric of every file)
        return copy.deepcopy([c for c in kept if c.metric == metric] if metric else list(kept))
    cases = _load_file(path, validate)
    if key is not None and len(_LOADED) < 4096:
        _LOADED[key] = copy.deepcopy(tuple(cases))
    return [c for c in cases if c.metric == metric] if metric else cases


def _load_file(path: Path, validate: bool) -> list[Case]:
    data = read_json_file(path)
    if validate:
        errors = sorted(_schema_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            e = errors[0]
            loc = "/".join(str(p) for p in e.absolute_path) or "(top level)"
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise CaseFileError(f"{path}: at {loc}: {e.message}{more}")
    name = path.name
    return [Case(c["id"], c["description"], c["source"], c["tags"], c["metric"], c.get("conventions", {}),
                 c["inputs"], c["expected"], name) for c in data["cases"]]


def load_cases(paths=None, metric: str | None = None) -> list[Case]:
    cases: list[Case] = []
    for p in (paths or case_files()):
        cases.extend(load_file(Path(p), metric=metric))
    return cases


def load_case_json(path: Path) -> Case:
    """A single case written as JSON (as `oracle CASE.json` and `compare` take), or a
    one-case file."""
    data = read_json_file(path)
    if isinstance(data, dict) and "cases" in data:
        if len(data["cases"]) != 1:
            raise CaseFileError(f"{path}: holds {len(data['cases'])} cases; give one (or use `run`)")
        data = data["cases"][0]
    if not isinstance(data, dict) or "metric" not in data or "inputs" not in data:
        raise CaseFileError(f"{path}: a case needs at least 'metric' and 'inputs'")
    return Case(data.get("id", "adhoc"), data.get("description", ""), data.get("source", {}), data.get("tags", []),
                data["metric"], data.get("conventions", {}), data["inputs"], data.get("expected", {}), path.name)


def load_tags() -> dict:
    with open(TAGS, encoding="utf-8") as f:
        return json.load(f)["tags"]


@dataclass
class CheckProblem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def rederive(case: Case) -> list[str]:
    """Problems found when the oracle re-derives the case's expected values."""
    problems: list[str] = []
    try:
        result = get_metric(case.metric).compute(case.inputs, case.conventions)
    except (InputError, ConventionError) as e:
        exp = case.expected.get("value", "")
        if isinstance(exp, str) and exp.startswith("error("):
            return _refusal_problems(exp, e)
        return [f"oracle refused the case: {type(e).__name__}: {e}"]
    exp_text = case.expected["value"]
    if isinstance(exp_text, str) and exp_text.startswith("error("):
        return [f"value: expected {exp_text}, but the oracle accepts the case and derives "
                f"{json.dumps(result.to_json(12)['value'])}"]
    try:
        expected = parse_expected(exp_text)
    except (ValueError, AttributeError) as e:
        return [f"expected.value: {e}"]
    if not same_value(expected, result.value):
        problems.append(f"value: expected {json.dumps(exp_text)}, oracle derives {json.dumps(result.to_json(12)['value'])}")
    elif isinstance(expected, Undefined) and expected.reason and expected.reason not in result.value.reason:
        problems.append(f"value: expected the reason {expected.reason!r}, the oracle says {result.value}")
    stats = _jsonable(result.stats)
    for k, v in case.expected.get("stats", {}).items():
        if k not in stats:
            problems.append(f"stats.{k}: the oracle has no such statistic (has {', '.join(stats)})")
        elif not _same_json(v, stats[k]):
            problems.append(f"stats.{k}: expected {v!r}, oracle derives {stats[k]!r}")
    for k, v in case.expected.get("parts", {}).items():
        if k not in result.parts:
            problems.append(f"parts.{k}: the oracle has no such part (has {', '.join(result.parts)})")
            continue
        got = result.parts[k]
        if isinstance(v, str):
            try:
                ok = same_value(parse_expected(v), got)
            except (ValueError, TypeError) as e:
                problems.append(f"parts.{k}: {e}")
                continue
            if not ok:
                problems.append(f"parts.{k}: expected {v}, oracle derives {_jsonable(got)}")
        elif not _same_json(v, _jsonable(got)):
            problems.append(f"parts.{k}: expected {v!r}, oracle derives {_jsonable(got)!r}")
    for k, text in case.expected.get("printed", {}).items():
        x = result.value if k == "value" else result.parts.get(k)
        if x is None:
            problems.append(f"printed.{k}: no such value or part")
            continue
        ndp = len(text.split(".")[1]) if "." in text else 0
        if not printed_matches(x, text, ndp):
            problems.append(f"printed.{k}: the document prints {text}, the exact value rounds to {places(x, ndp)}")
    return problems


_ERROR_TEXT = re.compile(r"^error\((?:(\w+Error): )?(.*)\)$", re.S)


def _refusal_problems(expected: str, e: Exception) -> list[str]:
    """A golden ``error(Class: reason)`` case: the oracle must refuse with that class and a
    message containing that reason (``error(reason)`` checks the reason only)."""
    m = _ERROR_TEXT.match(expected)
    if m is None:
        return [f"value: {expected!r} is not error(Class: reason)"]
    cls, reason = m.groups()
    problems = []
    if cls and type(e).__name__ != cls:
        problems.append(f"value: expected a {cls}, the oracle raises {type(e).__name__}: {e}")
    if reason and reason not in str(e):
        problems.append(f"value: expected the reason {reason!r}, the oracle says {type(e).__name__}: {e}")
    return problems


def printed_matches(x, text: str, ndp: int) -> bool:
    """True when |x - printed| <= half a unit in the last printed place (a printed
    half-way value may have been rounded either way by the printing float code)."""
    if places(x, ndp) == text:
        return True
    from oracle.certified import interval
    lo, hi = interval(x, 256)
    p = Fraction(text)
    half = Fraction(1, 2 * 10 ** ndp)
    return abs(lo - p) <= half and abs(hi - p) <= half


def _same_json(a, b) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        try:
            return same_value(parse_expected(a), parse_expected(b))
        except (ValueError, TypeError):
            return a == b
    if isinstance(a, (int,)) and isinstance(b, str) or isinstance(a, str) and isinstance(b, int):
        try:
            return Fraction(str(a)) == Fraction(str(b))
        except ValueError:
            return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return a == b


def check_cases(paths=None) -> list[CheckProblem]:
    """Lint the golden files: schema, unique ids, registered tags, known metrics and
    knobs, and every expected value re-derived by the oracle."""
    problems: list[CheckProblem] = []
    tags = load_tags()
    seen: dict[str, str] = {}
    for p in (paths or case_files()):
        p = Path(p)
        try:
            cases = load_file(p)
        except CaseFileError as e:
            problems.append(CheckProblem(p.name, str(e)))
            continue
        for c in cases:
            if c.id in seen:
                problems.append(CheckProblem(c.where, f"id {c.id} is already used in {seen[c.id]}"))
            seen[c.id] = c.where
            for t in c.tags:
                if t not in tags:
                    problems.append(CheckProblem(c.where, f"tag {t!r} is not in golden/tags.json"))
            if not c.description[:1].isupper() or not c.description.rstrip().endswith("."):
                problems.append(CheckProblem(c.where, "description: one sentence, capitalised, ending with '.'"))
            try:
                get_metric(c.metric).settings(c.conventions)
            except ConventionError as e:
                problems.append(CheckProblem(c.where, str(e)))
                continue
            why = _self_citation(c.source)
            if why:
                problems.append(CheckProblem(c.where, why))
            if "derivation" not in c.expected and "document" not in c.source:
                problems.append(CheckProblem(c.where, "expected.derivation: a case not printed in a document needs its hand derivation"))
            for msg in rederive(c):
                problems.append(CheckProblem(c.where, msg))
    return problems


_SELF = ("the oracle's", "this oracle", "oracle/", "the oracle ")


def _self_citation(source: dict) -> str:
    """'' unless the case's source cites this project's oracle as the authority for its value.
    A value the field defines is cited from the field; a value of the project's own
    (no published definition) says so in those words."""
    text = " ".join(str(v) for v in source.values()).lower()
    if any(s in text for s in _SELF):
        return ("source: cites the oracle itself; name the published definition or peer convention, or "
                "write \"this project's rule\" with what the field does instead")
    return ""
