"""Compare a run with a stored report: what changed since then (a knob value renamed
since the report was written is read under its new name)."""
from __future__ import annotations

import json

from conformance.reports.records import Record, encode_values, shorten
from conformance.reports.writers import read_jsonl


def changes_since(path, records: list[Record]) -> list[str]:
    """Lines for every test whose outcome differs from the stored report, and
    for tests that appeared or disappeared."""
    from oracle.registry import modern_names
    _, old = read_jsonl(path)
    # a report written before a knob value was renamed names its tests by the old name
    before = {modern_names(r.key): r for r in old}
    now = {r.key: r for r in records}
    lines = versions_changed(old, records)
    for k, r in now.items():
        o = before.get(k)
        if o is None:
            lines.append(f"new      {k}: {r.outcome}")
            lines += _details(r)
        elif o.outcome != r.outcome:
            lines.append(f"changed  {k}: {o.outcome} -> {r.outcome}")
            lines += _details(r)
    for k, o in before.items():
        if k not in now:
            lines.append(f"gone     {k}: was {o.outcome}")
    return lines


def versions_changed(old: list[Record], records: list[Record]) -> list[str]:
    """A line for each adapter whose library's version differs from the stored report's
    (an upgrade that changes no outcome is still said)."""
    was = {r.adapter: (r.library, r.version) for r in old}
    lines = []
    for adapter, (library, version) in {r.adapter: (r.library, r.version) for r in records}.items():
        if adapter in was and was[adapter][1] != version:
            lines.append(f"version  {adapter} ({library}): {was[adapter][1]} -> {version}")
    return lines


def _details(r: Record) -> list[str]:
    """Why a tracked test is what it is now, and on which input: indented lines."""
    out = []
    why = r.explanation or r.message or (f"known failure {r.known_failure}: {r.known_title}"
                                          if r.outcome == "known-failure" else "")
    if why:
        out.append("         why: " + shorten(" ".join(str(why).split()), 300))
    if r.exact or r.library_value is not None:
        out.append(f"         exact: {shorten(str(r.exact), 120)}  library: {shorten(str(r.library_value), 120)}")
    if r.inputs:
        out.append("         input: " + shorten(json.dumps(encode_values(r.inputs), ensure_ascii=False, default=str), 300))
    if r.reproduce:
        out.append("         reproduce: " + shorten(r.reproduce, 400))
    return out
