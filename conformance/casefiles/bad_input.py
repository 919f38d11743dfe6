"""The degenerate-input tables: one data file per metric family,
``golden/bad_input/<family>.json``, the only place a table lives. ``docs/bad-input.md``
is rendered from them (``python -m conformance.casefiles.bad_input --write``), and the
tests walk every row: each row carries examples, each an oracle call with the
outcome the row states, derived by hand.

A file:

    {"format": "metric-conformance-bad-input", "version": 1, "order": 3,
     "family": "error_rates", "module": "oracle.error_rates",
     "title": "Word, character and match error rates (`wer`, ...)",
     "preamble": "markdown before the table (optional)",
     "columns": ["input", "result"],
     "rows": [{"input": "...", "result": "...", "libraries": "why no library is given
               this row (optional: the input object's own fields, which no library sees)",
               "stress": "what takes minutes on this row (optional: a size row, sent to
               the libraries by ``run --stress`` only)",
               "examples": [{"metric": "wer", "inputs": {...}, "conventions": {...},
                             "expect": ..., "why": "the derivation", "libraries": "why
                             no library is given this example (optional: a refusal that is
                             the oracle's own bound on exact work, not an invalid input)"}]}],
     "note": "markdown after the table (optional)"}

``expect`` is one of ``{"error": "InputError" | "ConventionError", "names": "text
the message contains"}``, ``{"undefined": "text the reason contains"}`` (or
``true``), ``{"value": <exact text, or a JSON structure of them>}``. In inputs,
``{"$float": "nan" | "inf" | "-inf"}`` is that float, ``{"$decimal": "1e-5000"}`` a
``decimal.Decimal``, ``{"$repeat": [x, n]}`` the text or list x repeated n times
(size rows)."""
from __future__ import annotations

import sys
from pathlib import Path

from oracle import ConventionError, InputError, Undefined, compute
from oracle.certified import same_value
from oracle.conventions import _jsonable

from conformance.reports.records import decode_values

from .cases import Case, _same_json, parse_expected, read_json_file

ROOT = Path(__file__).resolve().parents[2] / "golden" / "bad_input"
DOC = Path(__file__).resolve().parents[2] / "docs" / "bad-input.md"
FORMAT = "metric-conformance-bad-input"
_ERRORS = {"InputError": InputError, "ConventionError": ConventionError}

HEADER = """# Bad input: what every metric does with degenerate and invalid inputs

Every row is a defined value or a typed error that names the offending item
(`InputError` for inputs, `ConventionError` for knobs): never NaN, never a
traceback from deep inside. The command line turns `InputError` and
`ConventionError` into a one-line message and exit status 2; a malformed case
file is a `CaseFileError` naming the file, line or JSON path.

This page is generated from `golden/bad_input/*.json` (one file per metric
family, the only place a table lives; `python -m conformance.casefiles.bad_input
--write` renders it). Each row there carries examples, oracle calls with the
outcome the row states, and `tests/test_bad_input_tables.py` runs every one.
"""


LIBRARY_NOTE = """
The last column says, per library that implements the row's metric, what counts: on a
row the spec refuses, the exception types that are the library's refusal (declared by
its adapter, `refusals`, with the library's source; any other exception, an exit, a
signal, a hang or a memory kill is an `error`, never a refusal); on a row without a
value, how the library represents it (`raise`, the canonical one; `nan` or `none`, a
divergence its adapter declares). `metric-conformance run` sends every example of every row (but those of
knob values, `ConventionError`, whose options an adapter sets only from valid settings, the
rows of the input object's own fields, which an adapter translates into a call, and the stress
rows, where a library takes minutes, which `--stress` adds; `--no-bad-input` leaves them all
out) to each library that implements its metric, as a golden case
`bad-input.<family>.<row>.<example>`
(`metric-conformance compare golden/bad_input/<family>.json#<id> --adapter NAME` replays one).
"""


class TableError(ValueError):
    """A malformed table file (names the file and the JSON path)."""


def files() -> list[Path]:
    return sorted(ROOT.glob("*.json"))


def load(path: Path) -> dict:
    data = read_json_file(path)
    where = path.name
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
        raise TableError(f"{where}: not a {FORMAT} version 1 file")
    for key in ("family", "module", "title", "columns", "rows", "order"):
        if key not in data:
            raise TableError(f"{where}: missing {key!r}")
    for r, row in enumerate(data["rows"]):
        for key in ("input", "result", "examples"):
            if key not in row:
                raise TableError(f"{where}: rows[{r}] has no {key!r}")
        if "stress" in row and not (isinstance(row["stress"], str) and row["stress"]):
            raise TableError(f"{where}: rows[{r}].stress must say what takes long")
        if not row["examples"]:
            raise TableError(f"{where}: rows[{r}] ({row['input']}) has no example")
        for e, ex in enumerate(row["examples"]):
            if not {"metric", "inputs", "expect"} <= set(ex):
                raise TableError(f"{where}: rows[{r}].examples[{e}] needs metric, inputs and expect")
    return data


def tables() -> list[dict]:
    return sorted((load(p) for p in files()), key=lambda d: d["order"])


def check(example: dict) -> str | None:
    """None when the oracle's outcome is the one the example expects, else why not."""
    expect = example["expect"]
    try:
        result = compute(example["metric"], decode_values(example["inputs"]), example.get("conventions"))
    except (InputError, ConventionError) as e:
        want = expect.get("error")
        if want is None:
            return f"{type(e).__name__}: {e}"
        if not isinstance(e, _ERRORS[want]):
            return f"expected {want}, got {type(e).__name__}: {e}"
        if expect.get("names", "") not in str(e):
            return f"the message does not name {expect['names']!r}: {e}"
        return None
    value = result.value
    if "error" in expect:
        return f"expected {expect['error']}, the oracle gives {_jsonable(value)!r}"
    if "undefined" in expect:
        if not isinstance(value, Undefined):
            return f"expected Undefined, the oracle gives {_jsonable(value)!r}"
        want = expect["undefined"]
        if isinstance(want, str) and want not in value.reason:
            return f"the reason does not say {want!r}: {value.reason}"
        return None
    want = expect["value"]
    if isinstance(want, str):
        ok = same_value(parse_expected(want), value)
    else:
        ok = _same_json(want, _jsonable(value))
    return None if ok else f"expected {want!r}, the oracle gives {_jsonable(value)!r}"


def case_id(family: str, r: int, e: int) -> str:
    return f"bad-input.{family}.{r}.{e}"


def cases(metric: str | None = None, stress: bool = False) -> list[Case]:
    """Every example of every row as a golden case, sent to each library that implements its
    metric: a refusal the library must make with one of the exception types its adapter
    declares, an undefined value it must represent as its adapter declares, a value it
    must give. Not sent: the examples of knob values the spec refuses (``ConventionError``),
    since a library's options are set by its adapter from a valid setting, and the rows
    marked ``libraries`` (the input object's own fields, which no library sees); the rows
    marked ``stress`` (a library call or the judgement takes minutes: 20,000-word WER in
    torchmetrics, 250 s) only with ``stress``. The case's
    inputs are the oracle's (``decode_values``), ``written_inputs`` the table's; its file,
    ``bad_input/<family>.json``, and id, ``bad-input.<family>.<row>.<example>``, name it for
    ``compare FILE#ID``."""
    out = []
    for t in tables():
        for r, row in enumerate(t["rows"]):
            if "libraries" in row or ("stress" in row and not stress):   # not given, and why
                continue
            for e, ex in enumerate(row["examples"]):
                if metric and ex["metric"] != metric or ex["expect"].get("error") == "ConventionError" \
                        or "libraries" in ex:   # an example of the spec's own bounds, and why
                    continue
                expect = ex["expect"]
                if "error" in expect:
                    value = f"error({expect['error']}: {expect.get('names', '')})"
                elif "undefined" in expect:
                    value = f"undefined({expect['undefined'] if isinstance(expect['undefined'], str) else ''})"
                else:
                    value = expect["value"]
                out.append(Case(case_id(t["family"], r, e), row["input"],
                                {"reference": f"golden/bad_input/{t['family']}.json rows[{r}]: {ex.get('why', '')}"},
                                ["bad-input"] + (["stress"] if "stress" in row else []), ex["metric"], ex.get("conventions") or {}, decode_values(ex["inputs"]),
                                {"value": value}, f"bad_input/{t['family']}.json", ex["inputs"]))
    return out


def find_case(ref: str) -> Case | None:
    """The bad-input case ``[path/]<family>.json#bad-input.<family>.<row>.<example>`` (a
    stress row's too)."""
    _, _, cid = ref.partition("#")
    return next((c for c in cases(stress=True) if c.id == cid), None)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


LIBRARIES = "by library"


def _libraries() -> list:
    """(name, adapter) of the shipped adapters whose metrics are known without their library
    (an adapter whose metrics come from its library's modules, such as `evaluate`, has none)."""
    from conformance.resolve import adapter_names, load_adapter
    out = []
    for name in adapter_names(include_third_party=False):
        try:
            a = load_adapter(name)
        except Exception:
            continue
        if a.capabilities:
            out.append((name, a))
    return out


def library_cell(row: dict, libraries: list) -> str:
    """What counts for each library on this row: on a row the spec refuses, the exception
    types that are its refusal (``Adapter.refusal_types``: anything else is a crash); on a row
    without a value, how it represents it (``Adapter.undefined_as``: raise, nan, none). Only
    the libraries that implement one of the row's metrics."""
    if "libraries" in row:
        return row["libraries"]
    if "stress" in row:
        return f"{_library_cell(row, libraries)} (sent by `run --stress` only: {row['stress']})"
    return _library_cell(row, libraries)


def _library_cell(row: dict, libraries: list) -> str:
    metrics = sorted({ex["metric"] for ex in row["examples"]})
    refused = any("error" in ex["expect"] for ex in row["examples"])
    undefined = any("undefined" in ex["expect"] for ex in row["examples"])
    if not (refused or undefined):
        return "(a value)"
    parts = []
    for name, a in libraries:
        served = [m for m in metrics if m in a.capabilities]
        if not served:
            continue
        if refused:
            types = a.refusal_types(served[0])
            parts.append(f"{name}: {', '.join(types) if types else 'any but an unrelated crash'}")
        else:
            parts.append(f"{name}: {'/'.join(a.undefined_as(served[0]))}")
    return "; ".join(parts) or "(no library implements it)"


def render(data: list[dict]) -> str:
    libraries = _libraries()
    out = [HEADER + LIBRARY_NOTE]
    for t in data:
        out.append(f"## {t['title']}\n")
        out.append(f"Source of truth: `golden/bad_input/{t['family']}.json` (module `{t['module']}`).\n")
        if t.get("preamble"):
            out.append(t["preamble"].rstrip() + "\n")
        cols = list(t["columns"]) + [LIBRARIES]
        out.append("| " + " | ".join(cols) + " |")
        out.append("| " + " | ".join("---" for _ in cols) + " |")
        for row in t["rows"]:
            out.append(f"| {_cell(row['input'])} | {_cell(row['result'])} | {_cell(library_cell(row, libraries))} |")
        out.append("")
        if t.get("note"):
            out.append(t["note"].rstrip() + "\n")
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str]) -> int:
    text = render(tables())
    if argv[:1] == ["--write"]:
        DOC.write_text(text, encoding="utf-8")
        return 0
    if argv[:1] == ["--check"]:
        if DOC.read_text(encoding="utf-8") != text:
            print("docs/bad-input.md is out of date: python -m conformance.casefiles.bad_input --write")
            return 1
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
