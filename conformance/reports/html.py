"""The conformance matrix as one static HTML page (``run --html FILE``): no server, no
script, no external asset. Libraries are the columns; each metric is a group of rows,
its golden cases first, then properties, invalid-input checks, known-failure replays
and divergences. A cell is coloured by outcome and opens (an HTML ``<details>``) on
the check's exact value, certified digits, library value, explanation, minimal input
and the command that replays it."""
from __future__ import annotations

import json
from collections import defaultdict
from html import escape

from conformance.reports.records import Record, encode_values, shorten

KIND_ORDER = {"golden": 0, "property": 1, "invalid": 2, "known": 3, "divergence": 4}
OUTCOMES = ("pass", "fail", "error", "known-failure", "divergence", "skipped", "not-applicable")
_SHORT = {"pass": "pass", "fail": "FAIL", "error": "ERROR", "known-failure": "known", "divergence": "diverges",
          "skipped": "skip", "not-applicable": "n/a"}

CSS = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#1b1b1b}
h1{font-size:1.4em;margin:0 0 .3em} .meta{color:#555;margin-bottom:1em}
table{border-collapse:collapse} th,td{border:1px solid #d0d0d0;padding:2px 6px;vertical-align:top}
thead th{position:sticky;top:0;background:#f4f4f4;z-index:1}
tr.metric th{background:#e8eef8;text-align:left;font-size:1.05em}
td.check{max-width:34em;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
td.check .desc{font-family:system-ui,sans-serif;color:#555}
td.cell{min-width:6em;text-align:center} td.cell details{text-align:left}
td.cell summary{cursor:pointer;text-align:center;font-weight:600}
.o-pass{background:#dff3e0} .o-fail{background:#f9c9c4} .o-error{background:#e79a93}
.o-known-failure{background:#fde3b5} .o-divergence{background:#e3d5f5}
.o-skipped,.o-not-applicable{background:#eeeeee;color:#666} .o-none{background:#fafafa;color:#bbb}
.d{font-size:12px;max-width:40em;white-space:normal} .d dt{font-weight:600;margin-top:.3em}
.d dd{margin:0;font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
.legend span{display:inline-block;padding:1px 8px;margin-right:4px;border:1px solid #ccc}
table.grid{width:100%;table-layout:fixed;margin-bottom:1.5em} table.grid td{font-size:12px;word-break:break-word}
table.grid th.m{width:11em;text-align:left} ul.summary{margin:.2em 0 1em}
"""


def _kind(r: Record) -> str:
    if r.kind == "property" and r.test.startswith("invalid"):
        return "invalid"
    return r.kind


def _details(r: Record) -> str:
    rows = [("check", f"{r.kind} {r.test}"), ("description", r.description)]
    rows += [("exact", r.exact), ("digits", r.digits)]
    if r.library_value is not None:
        rows.append(("library", repr(r.library_value) if not isinstance(r.library_value, str) else r.library_value))
    if r.outcome == "known-failure":
        rows.append(("known failure", f"{r.known_failure}: {r.known_title}"))
    rows.append(("explanation", r.explanation or r.message))
    if r.inputs is not None:
        rows.append(("input", shorten(json.dumps(encode_values(r.inputs), ensure_ascii=False, default=str), 2000)))
    rows.append(("reproduce", r.reproduce))
    body = "".join(f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in rows if v not in (None, ""))
    return f'<dl class="d">{body}</dl>'


def _cell(r: Record | None) -> str:
    if r is None:
        return '<td class="cell o-none">&middot;</td>'
    o = r.outcome if r.outcome in OUTCOMES else "error"
    return (f'<td class="cell o-{o}"><details><summary>{escape(_SHORT.get(o, o))}</summary>'
            f"{_details(r)}</details></td>")


_RANK = {"fail": 0, "error": 0, "known-failure": 2, "divergence": 3, "pass": 4, "skipped": 5, "not-applicable": 6}


def _worst_cell(recs: list[Record]) -> str:
    """A summary grid cell: the worst finding of one library on one metric, in words."""
    from conformance.reports.summary import divergence_knobs, unexpected, worst_known
    bad = unexpected(recs)
    if bad:
        r = bad[0]
        o = r.outcome if r.outcome in ("fail", "error") else "fail"
        what = f"{len(bad)} unexpected: {r.kind} {r.test}"
        if r.exact or r.library_value is not None:
            what += f" (library {shorten(str(r.library_value), 40)}, exact {shorten(str(r.exact), 40)})"
        return f'<td class="o-{o}"><b>{escape(_SHORT[o])}</b> {escape(what)}</td>'
    worst = worst_known(recs)
    if worst is not None:
        c = worst.comparison or {}
        dist = f", |error| {c.get('abs_err')}" if c.get("abs_err") not in (None, "-") else ""
        n = sum(r.outcome == "known-failure" for r in recs)
        return (f'<td class="o-known-failure"><b>known {n}</b> worst {escape(worst.kind)} {escape(worst.test)}: '
                f"{escape(shorten(worst.known_title or '', 80))}{escape(dist)}</td>")
    knobs = divergence_knobs(recs)
    if knobs:
        return f'<td class="o-divergence"><b>diverges</b> {escape(", ".join(knobs))}</td>'
    best = min(recs, key=lambda r: _RANK.get(r.outcome, 9)).outcome
    n = sum(r.outcome == "pass" for r in recs)
    return f'<td class="o-{best}"><b>{escape(_SHORT.get(best, best))}</b> {n} checks pass</td>'


def summary(records: list[Record], adapters: list[str]) -> list[str]:
    """The page's first screen: the summary lines, then a metrics x libraries grid using
    the page's width, each cell its worst finding."""
    from conformance.reports.summary import summary_lines
    lines = summary_lines(records)
    out = [f"<h2>{escape(lines[0])}</h2>", '<ul class="summary">']
    out += [f"<li>{escape(l.strip())}</li>" for l in lines[1:]]
    out.append("</ul>")
    cells: dict = defaultdict(list)
    for r in records:
        cells[(r.metric, r.adapter)].append(r)
    out.append('<table class="grid"><thead><tr><th class="m">metric</th>'
               + "".join(f"<th>{escape(a)}</th>" for a in adapters) + "</tr></thead><tbody>")
    for m in sorted({r.metric for r in records}):
        out.append(f'<tr><th class="m"><a href="#m-{escape(m)}">{escape(m)}</a></th>' + "".join(
            _worst_cell(cells[(m, a)]) if cells.get((m, a)) else '<td class="o-none">&middot;</td>'
            for a in adapters) + "</tr>")
    out.append("</tbody></table>")
    return out


def matrix(records: list[Record], head: dict) -> str:
    """The page, as text."""
    adapters = [a["name"] for a in head.get("adapters", [])]
    for r in records:
        if r.adapter not in adapters:
            adapters.append(r.adapter)
    versions = {a["name"]: f"{a.get('library', '')} {a.get('version', '')}" for a in head.get("adapters", [])}
    by_metric: dict = defaultdict(dict)   # metric -> (kind, test) -> adapter -> record
    described: dict = {}
    for r in records:
        key = (KIND_ORDER.get(_kind(r), 9), _kind(r), r.test)
        by_metric[r.metric].setdefault(key, {})[r.adapter] = r
        described.setdefault((r.metric, key), r.description)
    counts = {a: defaultdict(int) for a in adapters}
    for r in records:
        counts[r.adapter][r.outcome] += 1
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           "<title>metric-conformance matrix</title>", f"<style>{CSS}</style>", "</head>", "<body>",
           "<h1>metric-conformance: the conformance matrix</h1>",
           f'<p class="meta">Created {escape(str(head.get("created", "")))}, oracle version '
           f'{escape(str(head.get("oracle_version", "")))}, Python {escape(str(head.get("python", "")))}. '
           f"{len(records)} checks. Click a cell for the exact value, the library's value, the explanation, "
           "the minimal input and the command that replays it.</p>",
           '<p class="legend">' + "".join(f'<span class="o-{o}">{escape(_SHORT[o])}</span>' for o in OUTCOMES)
           + '<span class="o-none">&middot; not run</span></p>']
    for u in head.get("unavailable", []):
        out.append(f'<p class="meta">not run: {escape(str(u.get("adapter")))}: {escape(str(u.get("reason")))}</p>')
    if records:   # the answer first: right under the title
        at = out.index("<h1>metric-conformance: the conformance matrix</h1>") + 1
        out[at:at] = summary(records, adapters) + ["<h2>Every check</h2>"]
    out.append('<p class="meta">Metrics: ' + " &middot; ".join(
        f'<a href="#m-{escape(m)}">{escape(m)}</a>' for m in sorted(by_metric)) + "</p>")
    out.append("<table>")
    out.append("<thead><tr><th>metric / check</th>" + "".join(
        f"<th>{escape(a)}<br><small>{escape(versions.get(a, ''))}</small><br><small>"
        + escape(", ".join(f"{counts[a][o]} {_SHORT[o]}" for o in OUTCOMES if counts[a][o])) + "</small></th>"
        for a in adapters) + "</tr></thead>")
    out.append("<tbody>")
    for metric in sorted(by_metric):
        out.append(f'<tr class="metric"><th colspan="{len(adapters) + 1}" id="m-{escape(metric)}">'
                   f"{escape(metric)}</th></tr>")
        for key in sorted(by_metric[metric]):
            _, kind, test = key
            desc = described.get((metric, key)) or ""
            label = (f"{escape(kind)} {escape(test)}"
                     + (f'<br><span class="desc">{escape(shorten(desc, 140))}</span>' if desc else ""))
            cells = by_metric[metric][key]
            out.append(f'<tr><td class="check">{label}</td>' + "".join(_cell(cells.get(a)) for a in adapters)
                       + "</tr>")
    out += ["</tbody>", "</table>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
