"""The answer first: who is wrong where, and by how much. One line per library (its
unexpected failures, its worst known defect with the distance, its divergences by knob)
opens the console, the Markdown report and the HTML page; the details follow."""
from __future__ import annotations

from conformance.reports.records import Record, fixed_known


def _distance(r: Record) -> tuple[float, float]:
    """(relative, absolute) error of a record's comparison, as numbers for ranking ('inf'
    is infinite; a record without a numeric comparison, a raise, ranks last)."""
    c = r.comparison or {}

    def num(text) -> float:
        try:
            return float(text)
        except (TypeError, ValueError):
            return -1.0
    return num(c.get("rel_err")), num(c.get("abs_err"))


def _value(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    text = str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(r: Record) -> str:
    return f"{r.metric} {r.kind} {r.test}"


def worst_known(records: list[Record]) -> Record | None:
    """The known failure farthest from the exact value (a numeric distance before a raise)."""
    known = [r for r in records if r.outcome == "known-failure"]
    return max(known, key=_distance) if known else None


def unexpected(records: list[Record]) -> list[Record]:
    """Failures and errors no known-failure entry explains, and known failures that now pass."""
    return [r for r in records if r.outcome in ("fail", "error") or fixed_known(r)]


def divergence_knobs(records: list[Record]) -> dict[str, int]:
    """How many divergence records each knob accounts for."""
    out: dict[str, int] = {}
    for r in records:
        if r.outcome != "divergence":
            continue
        knobs = list(r.material) if r.material else [r.test.split("[")[0]]
        for k in knobs:
            out[k] = out.get(k, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def library_line(adapter: str, recs: list[Record]) -> str:
    first = recs[0]
    bad = unexpected(recs)
    parts = [f"{adapter} ({first.library} {first.version}):"]
    if bad:
        shown = ", ".join(f"{_where(r)} ({'known failure now passes' if fixed_known(r) else r.outcome})"
                          for r in bad[:3])
        parts.append(f"{len(bad)} UNEXPECTED: {shown}" + (" ..." if len(bad) > 3 else "") + ";")
    else:
        parts.append("no unexpected failure;")
    known = [r for r in recs if r.outcome == "known-failure"]
    worst = worst_known(recs)
    if worst is not None:
        c = worst.comparison or {}
        how = (f"library {_value(worst.library_value)}, exact {_value(worst.exact)}"
               + (f", |error| {c.get('abs_err')}" if c.get("abs_err") not in (None, "-") else ""))
        parts.append(f"{len(known)} known failure(s), the worst {_where(worst)} ({how});")
    knobs = divergence_knobs(recs)
    if knobs:
        parts.append("divergences by knob: " + ", ".join(f"{k} {n}" for k, n in knobs.items()))
    else:
        parts.append("no divergence")
    return " ".join(parts)


def summary_lines(records: list[Record]) -> list[str]:
    """The summary: a headline, then one line per library."""
    by: dict[str, list[Record]] = {}
    for r in records:
        by.setdefault(r.adapter, []).append(r)
    bad = unexpected(records)
    head = (f"{len(bad)} unexpected failure(s)" if bad else "no unexpected failure") + \
        f" across {len(by)} librar{'y' if len(by) == 1 else 'ies'}"
    return [f"Summary: {head}"] + [f"  {library_line(a, rs)}" for a, rs in by.items()]
