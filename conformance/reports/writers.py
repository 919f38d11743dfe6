"""Reports: console table, JSON lines (with a header line), Markdown, JUnit XML.

Every disagreement carries: case id and source, the case's signature beside
the library's with differing knobs marked, the first differing statistic,
the exact value with certified digits, the library's value, absolute,
relative and ULP distance, the tolerance, the explanation, the shrunk input
and a one-line reproduction command. Files are written whole (to a temporary
name, then renamed), never partially.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from datetime import datetime, timezone
from pathlib import Path

from oracle.conventions import ORACLE_VERSION

from conformance.reports.paths import STDOUT, check_output
from conformance.reports.records import Record, encode_values, fixed_known, json_line

FORMAT = "metric-conformance-report"
FORMAT_VERSION = 1

# control characters a library's message may carry (an ANSI colour, a NUL): shown escaped in
# every human-readable report, where a terminal would obey them and XML cannot hold them
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x09), 0x0b, 0x0c, *range(0x0e, 0x20), *range(0x7f, 0xa0)]}
_CONTROLS.update({c: f"\\u{c:04x}" for c in (0x2028, 0x2029, 0xfeff, *range(0xfff9, 0xfffc), 0xfffe, 0xffff)})
_CONTROLS.update({c: f"\\x{c:02x}" for c in (0x0d,)})   # a carriage return rewrites a terminal line


def printable(text: str) -> str:
    """``text`` with control characters (and those XML 1.0 cannot hold) written as escapes;
    tabs and line breaks kept. Lone surrogates are escaped too."""
    text = str(text).translate(_CONTROLS)
    if any(0xd800 <= ord(c) <= 0xdfff for c in text):
        text = "".join(f"\\u{ord(c):04x}" if 0xd800 <= ord(c) <= 0xdfff else c for c in text)
    return text


def brief(text: str, limit: int = 1000) -> str:
    """``text`` kept to about ``limit`` characters for a reader: a message naming a 5 MB
    item (a knob name, a case id, a token) shows its start and end and says how long it
    is; the JSONL report keeps every field whole."""
    text = str(text)
    if len(text) <= limit:
        return text
    head, tail = text[:limit * 3 // 4], text[-(limit // 8):]
    return f"{head} [... {len(text) - len(head) - len(tail):,} characters not shown ...] {tail}"


def _md_text(text: str) -> str:
    """Text outside a code block of a Markdown report: printable, and read as text (no HTML
    tag, entity, link or image of a library's message is rendered)."""
    import html
    out = html.escape(printable(text).replace("\n", "\\n").replace("\t", " "), quote=False)
    for ch in "[]`*_":
        out = out.replace(ch, "\\" + ch)
    return out


def _md_code(line: str) -> str:
    """A line inside a fenced code block: printable, and no run of three backticks (which
    would close the block and let the rest render)."""
    line = printable(line)
    while "```" in line:
        line = line.replace("```", "`\u200b`\u200b`")
    return line


def header(adapters_info: list[dict], unavailable: list, args: dict) -> dict:
    return {"format": FORMAT, "version": FORMAT_VERSION, "oracle_version": ORACLE_VERSION,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "python": platform.python_version(), "adapters": adapters_info,
            "unavailable": [{"adapter": n, "reason": r} for n, r in unavailable], "arguments": args}


def _atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (``-``: standard output); never a path
    that names anything but a regular file (checked again at write time)."""
    if str(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    check_output(path, "report")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)   # mkstemp makes it 0600; a report is as readable as any new file
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def jsonl_text(head: dict, records: list[Record]) -> str:
    """The JSON lines report: the header, then one record per line, strict JSON."""
    return "\n".join([json_line(head)] + [json_line(r.to_json()) for r in records]) + "\n"


def write_jsonl(path, head: dict, records: list[Record]) -> None:
    _atomic_write(path, jsonl_text(head, records))


def read_jsonl(path) -> tuple[dict, list[Record]]:
    with open(path, encoding="utf-8-sig") as f:
        lines = [l for l in f if l.strip()]
    if not lines:
        raise ValueError(f"{path}: empty report")
    try:
        head = json.loads(lines[0])
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise ValueError(f"{path}: line 1 is not a {FORMAT} header")
        return head, [Record.from_json(json.loads(l)) for l in lines[1:]]
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON lines: {e.msg}") from None
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply") from None


def counts_table(records: list[Record]) -> list[list[str]]:
    """Rows: adapter, metric, one column per outcome."""
    cells: dict = defaultdict(Counter)
    for r in records:
        cells[(r.adapter, r.metric)][r.outcome] += 1
    from conformance.protocol import OUTCOMES
    rows = [["adapter", "metric"] + list(OUTCOMES)]
    for (a, m), c in sorted(cells.items()):
        rows.append([a, m] + [str(c.get(o, 0)) for o in OUTCOMES])
    return rows


def _format_table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for j, row in enumerate(rows):
        out.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _mark_signature(case_sig: str, lib_sig: str) -> str:
    if not case_sig or case_sig == lib_sig:
        return case_sig
    a, b = case_sig.split("|"), lib_sig.split("|")
    return "|".join(f"*{x}*" if x not in b else x for x in a)


def _pairs(d: dict, fmt: str) -> str:
    return ", ".join(fmt.format(k=k, a=v[0], b=v[1]) for k, v in d.items())


# the lines of a disagreement after its head, in order: (label, field, text of its value)
_LINES = (
    ("what", "description", str),
    ("source", "source", str),
    ("signature", "case_signature", None),   # marked against the adapter's, below
    ("differs", "differing_knobs", lambda d: _pairs(d, "{k}: case {a} / library default {b}")),
    ("material", "material", lambda d: _pairs(d, "{k}: canonical or case {a} / library {b}")),
    ("immaterial", "immaterial", lambda d: _pairs(d, "{k} ({a} / {b}: same value on this input)")),
    ("converted", "converted", lambda d: _pairs(d, "{k} {a} -> {b}")),
    ("canonical", "case_exact", str),
    ("statistic", "first_differing_statistic", str),
    ("exact", "exact", str),
    ("digits", "digits", str),
    ("library", "library_value", repr),
    ("distance", "comparison", None),
    ("explanation", "explanation", str),
    ("known", "known_title", str),
    ("note", "message", str),
    ("input", "inputs", lambda x: json.dumps(encode_values(x), ensure_ascii=False, default=str)),
    ("reproduce", "reproduce", str),
)


def describe_record(r: Record, whole: bool = False) -> list[str]:
    """The lines of a disagreement, for the console and Markdown (``whole``: long fields
    uncut, for the Markdown writer, which moves a long line to its side file)."""
    lines = [f"{r.outcome.upper()} {r.adapter} {r.version} {r.metric} {r.kind} {r.test}"
             + (f" [{r.known_failure}]" if r.known_failure else "")]
    for label, name, text in _LINES:
        value = getattr(r, name)
        if value is None or (not value and name not in ("library_value", "inputs")):
            continue
        if name == "case_signature":
            lines.append(f"  {'signature:':<13}{_mark_signature(value, r.adapter_signature)}")
            if r.adapter_signature and r.adapter_signature != value:
                lines.append(f"  {'library' + chr(39) + 's:':<13}{r.adapter_signature}")
        elif name == "comparison":
            lines.append(f"  {'distance:':<13}abs {value.get('abs_err')}  rel {value.get('rel_err')}  "
                         f"ulps {value.get('ulps')}  tolerance {r.tolerance}")
        else:   # an input or a reproduce line may be long (a witness); its whole text is in the JSONL
            shown = text(value) if whole else brief(text(value), 20000 if name in ("inputs", "reproduce") else 1000)
            lines.append(f"  {label + ':':<13}{shown}")
    return lines


def notable(records: list[Record]) -> list[Record]:
    return [r for r in records if r.outcome in ("fail", "error", "known-failure") or fixed_known(r)]


def divergence_lines(r: Record) -> list[str]:
    """A divergence from the canonical definition, in a few lines."""
    (knob, (canon, lib)), = list(r.material.items())[:1] or [("?", ("?", "?"))]
    if (r.verdicts or {}).get("divergence") == "unspecified":   # the sources leave the knob open
        head = f"UNSPECIFIED {r.adapter} {r.metric} {knob}: library {lib}, shown against {canon}"
    else:
        head = f"DIVERGENCE {r.adapter} {r.metric} {knob}: library {lib}, canonical {canon}"
    lines = [head + (f" ({r.message})" if r.message else "")]
    if r.inputs is not None:
        lines.append(f"  input:     {json.dumps(encode_values(r.inputs), ensure_ascii=False, default=str)[:300]}")
    lines.append(f"  exact:     {r.exact} under {knob}={lib}; {r.case_exact} under {knob}={canon}; "
                 f"library {r.library_value!r}")
    if r.source:
        lines.append(f"  source:    {r.source}")
    if r.reproduce:
        lines.append(f"  reproduce: {r.reproduce}")
    return lines


def console(records: list[Record], head: dict, verbose: bool = False) -> str:
    """The summary first (``reports.summary``: per library, the unexpected failures, the
    worst known defect, the divergences by knob), the outcome table, then the unexpected
    failures in full; divergences and known failures in full with ``verbose``."""
    from conformance.reports.summary import summary_lines
    if not records:
        return printable("no tests ran")
    out = summary_lines(records)
    out += [f"not run: {u['adapter']}: {u['reason']}" for u in head.get("unavailable", [])]
    out += ["", _format_table(counts_table(records))]
    shown = [r for r in notable(records) if verbose or r.outcome in ("fail", "error") or fixed_known(r)]
    if shown:
        out.append("")
        for r in shown:
            out.extend(describe_record(r))
            out.append("")
    found = [r for r in records if r.kind == "divergence" and r.outcome == "divergence"]
    if found and verbose:
        out += ["", "Divergences from the canonical definition (the library does what its profile says; "
                "this is how that differs from the spec):"]
        for r in found:
            out.extend(divergence_lines(r))
    kf = [r for r in records if r.outcome == "known-failure"]
    diverging = [r for r in records if r.outcome == "divergence"]
    if (diverging or kf) and not verbose:
        out.append(f"{len(diverging)} divergence(s) and {len(kf)} known failure(s) in full: in the report, or "
                   "--verbose prints them here")
    return printable("\n".join(out))


def markdown(records: list[Record], head: dict, long_texts: dict | None = None) -> str:
    from conformance.reports.summary import summary_lines
    lines = summary_lines(records) if records else ["Summary: no tests ran"]
    out = ["# metric-conformance report", "", f"**{_md_text(lines[0])}**", ""]
    out += [f"- {_md_text(l.strip())}" for l in lines[1:]]
    out += ["", f"Created {head.get('created')} with oracle version {head.get('oracle_version')}, "
                f"Python {head.get('python')}; the libraries are listed at the end."]
    rows = counts_table(records)
    out += ["", "## Outcomes", "", "| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(_md_text(c).replace("|", "\\|") for c in r) + " |" for r in rows[1:]]
    shown = sorted(notable(records), key=lambda r: r.outcome == "known-failure")   # the unexpected first
    if shown:
        out += ["", "## Disagreements", "", "Unexpected failures first, then the known failures.", ""]
        for r in shown:
            lines = describe_record(r, whole=long_texts is not None)
            out.append(f"### {_md_text(lines[0])}")
            out.append("")
            out.append("```")
            out.extend(_md_code(_short_line(l.strip(), long_texts)) for l in lines[1:])
            out.append("```")
            out.append("")
    found = [r for r in records if r.outcome == "divergence"]
    if found:
        out += ["", "## Divergences from the canonical definition", "",
                "The library does what its profile says, and that differs from the canonical definition "
                "(or from a golden case's setting) on the input shown.", ""]
        for r in found:
            if r.kind == "divergence":
                out += ["```"] + [_md_code(_short_line(l.rstrip(), long_texts)) for l in divergence_lines(r)] \
                    + ["```", ""]
            else:
                out.append(_md_text(_short_line(f"- {r.adapter} {r.metric} golden {r.test}: "
                           + ", ".join(f"{k} case {v[0]} / library {v[1]}" for k, v in r.material.items())
                           + f": exact {r.case_exact[:60]} under the case, {r.exact[:60]} under the library's "
                             f"setting; library {r.library_value!r}", long_texts)))
        out.append("")
    out += ["", "## Adapters", ""]
    for a in head.get("adapters", []):
        out.append(f"- **{_md_text(a['name'])}**: {_md_text(a['library'])} {_md_text(a['version'])} "
                   f"({_md_text(a['homepage'])})")
    for u in head.get("unavailable", []):
        out.append(f"- {_md_text(u['adapter'])}: not run ({_md_text(u['reason'])})")
    return "\n".join(out) + "\n"


MD_LINE = 400   # a longer line of a Markdown report (a whole input inline) goes to the side file


def _short_line(line: str, long_texts: dict | None) -> str:
    """``line``, or its start and a digest under which ``long_texts`` keeps it whole."""
    if long_texts is None or len(line) <= MD_LINE:
        return line
    import hashlib
    digest = hashlib.sha256(line.encode("utf-8")).hexdigest()[:12]
    long_texts[digest] = line
    return f"{line[:200]} ... [{len(line)} characters; whole in the side file under {digest}]"


def markdown_with_side(records: list[Record], head: dict) -> tuple[str, dict]:
    """The Markdown report with lines of at most MD_LINE characters, and {digest: whole
    line} for the lines cut (written beside the report as FILE.long.json)."""
    long_texts: dict = {}
    return markdown(records, head, long_texts), long_texts


def _strict_failure(r: Record, strict: bool) -> bool:
    """Under --strict, a known failure whose replay passes fails the run: a JUnit failure too."""
    return strict and fixed_known(r)


def junit(records: list[Record], head: dict) -> str:
    strict = bool((head.get("arguments") or {}).get("strict"))
    suites = ET.Element("testsuites", name="metric-conformance")
    groups: dict = defaultdict(list)
    for r in records:
        groups[(r.adapter, r.metric)].append(r)
    for (a, m), recs in sorted(groups.items()):
        s = ET.SubElement(suites, "testsuite", name=printable(f"{a}.{m}"), tests=str(len(recs)),
                          failures=str(sum(r.outcome == "fail" or _strict_failure(r, strict) for r in recs)),
                          errors=str(sum(r.outcome == "error" for r in recs)),
                          skipped=str(sum(r.outcome in ("skipped", "not-applicable", "known-failure") for r in recs)))
        for r in recs:
            tc = ET.SubElement(s, "testcase", classname=printable(f"{a}.{m}.{r.kind}"), name=printable(r.test),
                               time=f"{r.seconds:.3f}")
            text = printable("\n".join(describe_record(r)))
            if r.outcome == "fail":
                ET.SubElement(tc, "failure", message=printable(r.message or r.explanation or "disagreement")).text = text
            elif _strict_failure(r, strict):
                ET.SubElement(tc, "failure", message=f"known failure {r.test} now passes (--strict): "
                                                     "remove it from the known-failure list").text = text
            elif r.outcome == "error":
                ET.SubElement(tc, "error", message=printable(r.message or "error")).text = text
            elif r.outcome in ("skipped", "not-applicable"):
                ET.SubElement(tc, "skipped", message=printable(f"{r.outcome}: {r.message}"))
            elif r.outcome == "known-failure":
                ET.SubElement(tc, "skipped", message=printable(f"known-failure {r.known_failure}: {r.known_title}"))
            elif r.outcome == "divergence":
                # not a failure, never invisible: a passed test case carrying the divergence
                props = ET.SubElement(tc, "properties")
                ET.SubElement(props, "property", name="verdict", value="divergence")
                ET.SubElement(tc, "system-out").text = text
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_all(records: list[Record], head: dict, jsonl=None, md=None, junit_path=None, html=None) -> None:
    """Render every requested format first, then write them, so a failure while
    rendering leaves no partial report behind."""
    rendered = []
    if html:
        from conformance.reports.html import matrix
        rendered.append((html, matrix(records, head)))
    if md:
        text, side = markdown_with_side(records, head)
        rendered.append((md, text))
        if side and str(md) != STDOUT:
            rendered.append((f"{md}.long.json", json.dumps(side, ensure_ascii=False, indent=1) + "\n"))
    if junit_path:
        rendered.append((junit_path, junit(records, head)))
    if jsonl:
        rendered.append((jsonl, jsonl_text(head, records)))
    for path, text in rendered:
        _atomic_write(Path(path), text)
