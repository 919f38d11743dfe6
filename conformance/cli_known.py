"""``metric-conformance known``: a run's disagreements of one adapter written as its
known-failure list (a baseline), with --known-dir the user's own list beside the shipped
ones; environment errors (--timeout, --memory) are never recorded."""
from __future__ import annotations

import json
import sys

from conformance.cli_common import EXIT_OK, UsageError, _known_dir, _load_adapters
from conformance.reports.records import fixed_known


def cmd_known(args) -> int:
    _known_dir(args)
    from conformance.casefiles.known import KnownFailure, directory, load_known, write_known
    from conformance.reports.paths import check_folder, check_input
    from conformance.reports.writers import read_jsonl
    try:   # the paths first: a bad folder is said before any work, never a traceback after it
        check_input(args.report, "--report")
        if args.write:
            check_folder(directory(), "--known-dir" if args.known_dir else "the known-failure folder")
    except ValueError as e:
        raise UsageError(str(e)) from None
    adapters, _, unavailable = _load_adapters([args.adapter])
    if not adapters:
        raise UsageError(f"--adapter {args.adapter}: {unavailable[0][1] if unavailable else 'unavailable'}")
    a = next(iter(adapters.values()))
    try:
        _, records = read_jsonl(args.report)
    except (OSError, ValueError) as e:
        raise UsageError(f"--report {args.report}: {e}") from None
    from conformance.engine.isolation import hit_a_limit
    entries = load_known(a.name, shipped=False)   # the list --write rewrites (with --known-dir: the user's own)
    fixed = {r.test for r in records if r.adapter == a.name and fixed_known(r)}
    entries = [e for e in entries if e.id not in fixed]
    taken = {e.id for e in load_known(a.name)}   # the shipped list's ids and the user's (a fixed one's too)
    added = environment = 0
    for r in records:
        if r.adapter != a.name or r.outcome not in ("fail", "error") or r.inputs is None \
                or (r.verdicts or {}).get("versions") == "outside":   # an entry's range to mend by hand
            continue
        if hit_a_limit(f"{r.message} {r.library_value} {r.explanation}"):
            environment += 1   # a timeout or memory limit says nothing of the library's value
            continue
        n = 1
        while f"{a.name}-{r.metric}-{n:04d}" in taken:
            n += 1
        eid = f"{a.name}-{r.metric}-{n:04d}"
        taken.add(eid)
        kind = "convention" if r.reproducing_knobs else "defect"
        entries.append(KnownFailure(
            id=eid, adapter=a.name, metric=r.metric, kind=kind,
            title=(r.message or r.explanation)[:120], conventions=_profile_overrides(a, r),
            inputs=r.inputs, exact=r.exact, library_value=r.library_value,
            explanation=r.explanation or r.message, knobs=r.reproducing_knobs[0] if r.reproducing_knobs else {},
            cases=[r.test] if r.kind == "golden" else [],
            property=r.test if r.kind == "property" else None,
            also=list(r.also_failing) if r.kind == "property" else []))
        added += 1
    print(f"{a.name}: {added} new, {len(fixed)} fixed and removed, {len(entries)} in the list"
          + (f"; {environment} environment error(s) (--timeout, --memory) not recorded: run again, or raise the limit"
             if environment else ""), file=sys.stderr)
    if args.write:
        path = write_known(a.name, a.library, a.version(), entries)
        print(f"written: {path}", file=sys.stderr)
    else:
        print(json.dumps([e.to_json() for e in entries], indent=2, ensure_ascii=False))
    return EXIT_OK


def _profile_overrides(adapter, record) -> dict:
    """The record's settings as overrides of the adapter's profile."""
    from oracle.registry import get_metric
    m = get_metric(record.metric)
    # a golden case ran at the library's nearest setting: that is the setting to replay
    full = m.settings(record.run_settings or record.conventions)
    prof = adapter.profile(record.metric)
    return {k: v for k, v in full.items() if prof.get(k) != v}


