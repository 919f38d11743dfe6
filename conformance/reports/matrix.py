"""The version matrix: one library's conformance across its releases.

Columns are releases (in release order), rows are what was judged: for each metric a
summary row per kind of test (golden, property, invalid-input, divergence), then every
recorded known failure, then every test whose outcome differs between releases. A cell
is one of pass, fail, error, known, divergence, skipped, n.a.: so the release in which
a defect appeared, or was fixed, can be read off a row. A known failure's row reads
"pass" in a release outside the entry's versions where the defect is absent, and "other"
where the input still disagrees, as another entry of that release records.
"""
from __future__ import annotations

from collections import Counter, defaultdict

CELL = {"pass": "pass", "fail": "fail", "error": "error", "known-failure": "known", "divergence": "divergence",
        "skipped": "skipped", "not-applicable": "n.a."}
# the cell a summary row shows: its worst outcome
SEVERITY = ("error", "fail", "known-failure", "divergence", "pass", "skipped", "not-applicable")


def _kind(r) -> str:
    if r.kind == "property" and str(r.test).startswith("invalid:"):
        return "invalid-input"
    return r.kind


def build(columns: list[dict]) -> dict:
    """``columns``: [{"version", "records" (list of Record) or None, "reason"}] in release
    order. Returns {"versions", "unavailable": {version: reason}, "rows": [{"metric", "row",
    "kind", "title", "cells": {version: cell}, "detail": {version: text}}]}."""
    versions = [c["version"] for c in columns]
    unavailable = {c["version"]: c.get("reason", "") for c in columns if c.get("records") is None}
    judged = [c for c in columns if c.get("records") is not None]
    by_test: dict = defaultdict(dict)       # (metric, kind, test) -> {version: record}
    summary: dict = defaultdict(lambda: defaultdict(Counter))   # (metric, kind) -> version -> outcomes
    titles: dict = {}
    for c in judged:
        for r in c["records"]:
            k = _kind(r)
            by_test[(r.metric, k, r.test)][c["version"]] = r
            summary[(r.metric, k)][c["version"]][r.outcome] += 1
            titles.setdefault((r.metric, k, r.test), r.known_title or r.description)
    rows = []
    metrics = sorted({m for m, _ in summary})
    order = {"golden": 0, "property": 1, "invalid-input": 2, "divergence": 3, "known": 4}
    for m in metrics:
        for k in sorted((k for mm, k in summary if mm == m), key=lambda k: order.get(k, 9)):
            if k == "known":
                continue
            cells, detail = {}, {}
            for v in versions:
                if v in unavailable:
                    cells[v] = "n.a."
                    continue
                counts = summary[(m, k)].get(v, Counter())
                worst = next((o for o in SEVERITY if counts.get(o)), None)
                cells[v] = CELL[worst] if worst else "n.a."
                detail[v] = ", ".join(f"{n} {CELL.get(o, o)}" for o, n in sorted(counts.items()))
            rows.append({"metric": m, "row": f"{k} (all)", "kind": k, "title": "", "cells": cells, "detail": detail})
        for (mm, k, t) in sorted(by_test, key=lambda x: (order.get(x[1], 9), x[2])):
            if mm != m:
                continue
            seen = by_test[(mm, k, t)]
            cells = {v: ("n.a." if v in unavailable or v not in seen else _cell(seen[v])) for v in versions}
            differs = len({cells[v] for v in versions if v not in unavailable and cells[v] != "n.a."}) > 1
            if k != "known" and not differs:
                continue
            detail = {v: _detail(seen[v]) for v in seen}
            rows.append({"metric": m, "row": t, "kind": k, "title": titles.get((mm, k, t), "") if k in ("known", "golden") else "",
                         "cells": cells, "detail": detail})
    return {"versions": versions, "unavailable": unavailable, "rows": rows}


def _cell(r) -> str:
    """A record's cell; the replay of an entry outside its versions that another entry of
    the release explains is 'other' (this defect absent, another one present)."""
    if r.kind == "known" and (r.verdicts or {}).get("versions") == "outside" and r.outcome == "known-failure":
        return "other"
    return CELL.get(r.outcome, r.outcome)


def _detail(r) -> str:
    parts = [CELL.get(r.outcome, r.outcome)]
    if r.exact:
        parts.append(f"exact {r.exact}")
    if r.library_value is not None:
        parts.append(f"library {r.library_value!r}")
    if r.message:
        parts.append(r.message)
    return "; ".join(parts)[:300]


def text(matrix: dict, library: str) -> str:
    """The matrix as a fixed-width table, with the unavailable releases' reasons below."""
    versions = matrix["versions"]
    head = ["metric", "row"] + versions
    body = [[r["metric"], _short(r)] + [r["cells"][v] for v in versions] for r in matrix["rows"]]
    rows = [head] + body
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    out = [f"{library}: {len(versions)} releases, {len(body)} rows"]
    for j, row in enumerate(rows):
        out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    for v, why in matrix["unavailable"].items():
        out.append(f"n.a. {library} {v}: {why}")
    return "\n".join(out)


def _short(r: dict, width: int = 60) -> str:
    name = r["row"] if r["kind"] not in ("known",) else f"known {r['row']}"
    if r["kind"] not in ("known",) and not name.endswith("(all)"):
        name = f"{r['kind']} {name}"
    return name if len(name) <= width else name[:width - 3] + "..."


def markdown(matrix: dict, library: str, seconds: float | None = None) -> str:
    versions = matrix["versions"]
    out = [f"# {library}: conformance across releases", ""]
    if seconds is not None:
        out += [f"{len(versions)} releases in {seconds:.0f} s (installs included).", ""]
    out.append("| metric | row | " + " | ".join(versions) + " |")
    out.append("|---|---|" + "---|" * len(versions))
    for r in matrix["rows"]:
        label = _short(r, 80).replace("|", "\\|")
        if r["title"]:
            label += f" ({r['title'][:80]})".replace("|", "\\|")
        out.append(f"| {r['metric']} | {label} | " + " | ".join(r["cells"][v] for v in versions) + " |")
    if matrix["unavailable"]:
        out.append("")
        for v, why in matrix["unavailable"].items():
            out.append(f"- n.a. {library} {v}: {why.replace('|', '/')[:300]}")
    changed = [r for r in matrix["rows"] if len({c for c in r["cells"].values() if c != "n.a."}) > 1]
    if changed:
        out += ["", "## Where a release changed the outcome", ""]
        for r in changed:
            out.append(f"- **{r['metric']} {_short(r, 100)}**")
            for v in versions:
                if v in r["detail"]:
                    out.append(f"  - {v}: {r['detail'][v].replace(chr(10), ' ')[:300]}")
    return "\n".join(out) + "\n"
