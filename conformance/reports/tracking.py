"""Compare a run with a stored report: what changed since then."""
from __future__ import annotations

from conformance.reports.records import Record
from conformance.reports.writers import read_jsonl


def changes_since(path, records: list[Record]) -> list[str]:
    """Lines for every test whose outcome differs from the stored report, and
    for tests that appeared or disappeared."""
    _, old = read_jsonl(path)
    before = {r.key: r for r in old}
    now = {r.key: r for r in records}
    lines = []
    for k, r in now.items():
        o = before.get(k)
        if o is None:
            lines.append(f"new      {k}: {r.outcome}")
        elif o.outcome != r.outcome:
            lines.append(f"changed  {k}: {o.outcome} -> {r.outcome}")
    for k, o in before.items():
        if k not in now:
            lines.append(f"gone     {k}: was {o.outcome}")
    return lines
