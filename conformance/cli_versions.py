"""``metric-conformance versions``: one adapter judged on several releases of its library.

Each release is installed into its own cached virtual environment
(``conformance.venvs``) and judged there by ``metric-conformance run`` (the same
golden cases, properties, divergences and known-failure replays); the records are
gathered into a matrix (``conformance.reports.matrix``): releases as columns.
A release that cannot be installed, or lies outside the adapter's range, is a column
of n.a. with the reason; the others go on.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conformance.cli_common import EXIT_OK, EXIT_UNEXPECTED, UsageError, bounded_int


def add_parser(sub) -> None:
    v = sub.add_parser("versions", help="judge one adapter on several releases of its library (a version matrix)")
    v.add_argument("--adapter", required=True, help="adapter name")
    v.add_argument("--versions", help="comma-separated releases (default: the adapter's notable releases and "
                                      "the installed one)")
    v.add_argument("--metric", action="append", help="only this metric (repeatable)")
    v.add_argument("--examples", type=bounded_int(1, 100_000), default=50,
                   help="hypothesis examples per property (default 50)")
    v.add_argument("--report", help="JSON lines: a header, then every release's records")
    v.add_argument("--markdown", help="also write the matrix as Markdown")
    v.add_argument("--json", action="store_true", help="print the matrix as JSON instead of a table")
    v.add_argument("--cache", help="where the environments live (default $METRIC_CONFORMANCE_CACHE/venvs or "
                                   "~/.cache/metric-conformance/venvs)")
    v.add_argument("--timeout", type=float, default=900, help="seconds each install or run may take (default 900)")
    v.add_argument("--jobs", type=bounded_int(0, 1024), default=0, help="processes for each run (default: all cores)")
    v.add_argument("--quiet", action="store_true", help="no progress lines")
    v.set_defaults(fn=cmd_versions)


def _requested(adapter, text: str | None) -> list[str]:
    from conformance.versions import parse_version, sort_versions
    if text:
        wanted = [v.strip() for v in text.split(",") if v.strip()]
        if not wanted:
            raise UsageError("--versions: no release named")
    else:
        wanted = list(getattr(adapter, "matrix_versions", ()) or ())
        installed = adapter.version()
        if parse_version(installed) is not None and installed not in wanted:
            wanted.append(installed)
        if not wanted:
            raise UsageError(f"--versions: {adapter.name} declares no releases to try; name some")
    bad = [v for v in wanted if parse_version(v) is None]
    if bad:
        raise UsageError(f"--versions: {', '.join(bad)} is not a release number (e.g. 1.5.1)")
    seen = []
    for v in wanted:
        if v not in seen:
            seen.append(v)
    return sort_versions(seen)


def extra_requirements(adapter, version: str) -> list[str]:
    """What a release needs beside itself on this Python (``version_requirements``: an
    old release built against NumPy 1, say)."""
    from conformance.versions import in_range
    out = []
    for spec, reqs in getattr(adapter, "version_requirements", ()) or ():
        if in_range(version, spec):
            out.extend(reqs)
    return out


def _check_outputs(args) -> None:
    """The report paths and the cache folder, before any install (the run command's rules:
    a FIFO, a device, a folder or a symbolic link is refused, a folder that cannot be made
    too)."""
    from conformance.reports.paths import check_folder, check_output
    try:
        for flag, path in (("--report", args.report), ("--markdown", args.markdown)):
            check_output(path, flag)
        outs = [str(p) for p in (args.report, args.markdown) if p and str(p) != "-"]
        if len(set(outs)) < len(outs):
            raise ValueError("--report and --markdown name the same file")
        if args.cache:
            check_folder(Path(args.cache), "--cache: the folder")
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_versions(args) -> int:
    from conformance import venvs
    from conformance.reports import matrix as M
    from conformance.resolve import resolve_adapter
    if args.examples < 0 or args.timeout <= 0:
        raise UsageError("--examples must be >= 0 and --timeout positive")
    try:
        adapter = resolve_adapter(args.adapter)
    except (ImportError, AttributeError, ValueError, KeyError, TypeError) as e:
        raise UsageError(f"--adapter {args.adapter}: {e.args[0] if isinstance(e, KeyError) and e.args else e}") from None
    if ":" in args.adapter:
        raise UsageError("--adapter: the version matrix takes a built-in or installed adapter name")
    versions = _requested(adapter, args.versions)
    _check_outputs(args)
    root = Path(args.cache) / "venvs" if args.cache else None
    say = (lambda msg: None) if args.quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
    t0 = time.perf_counter()
    columns, heads = [], {}
    installed = adapter.version()
    from conformance.versions import in_range
    for v in versions:
        col = {"version": v, "records": None, "reason": ""}
        columns.append(col)
        if adapter.versions and not in_range(v, adapter.versions):
            col["reason"] = f"not-applicable: version {v} is outside this adapter's range ({adapter.library}{adapter.versions})"
            say(f"{adapter.library} {v}: {col['reason']}")
            continue
        if v == installed:
            python = sys.executable
            say(f"{adapter.library} {v}: the installed release, judged here")
        else:
            try:
                t1 = time.perf_counter()
                env = venvs.ensure(adapter.library, v, extra_requirements(adapter, v), root=root,
                                   log=lambda m: say(f"{adapter.library} {v}: {m}"), timeout=args.timeout)
                python = str(env.python)
                say(f"{adapter.library} {v}: environment ready ({time.perf_counter() - t1:.0f} s)")
            except venvs.InstallError as e:
                col["reason"] = f"cannot be installed: {e}"
                say(f"{adapter.library} {v}: {col['reason']}")
                continue
        t1 = time.perf_counter()
        head, recs, why = _judge(python, args, v, say)
        if recs is None:
            col["reason"] = why
            say(f"{adapter.library} {v}: {why}")
            continue
        col["records"], heads[v] = recs, head
        say(f"{adapter.library} {v}: {len(recs)} records in {time.perf_counter() - t1:.0f} s")
    seconds = time.perf_counter() - t0
    mat = M.build(columns)
    mat["seconds"] = round(seconds, 1)
    if args.json:
        print(json.dumps(mat, indent=2, default=str))
    else:
        print(M.text(mat, adapter.library))
        print(f"{len(versions)} releases in {seconds:.0f} s", file=sys.stderr)
    if args.report:
        _write_jsonl(args.report, adapter, columns, heads, mat, args)
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(M.markdown(mat, adapter.library, seconds), encoding="utf-8")
    written = [p for p in (args.report, args.markdown) if p]
    if written:
        print("written: " + ", ".join(written), file=sys.stderr)
    unexpected = any(r.outcome in ("fail", "error") for c in columns for r in (c["records"] or []))
    return EXIT_UNEXPECTED if unexpected else EXIT_OK


def _judge(python: str, args, version: str, say):
    """(header, records, '') of a run of the adapter under ``python``; (None, None, why)."""
    from conformance.reports.writers import read_jsonl
    fd, out = tempfile.mkstemp(prefix="mc-versions-", suffix=".jsonl")
    os.close(fd)
    cmd = [python, "-m", "conformance", "run", "--adapter", args.adapter, "--report", out, "--quiet",
           "--examples", str(args.examples)]
    for m in args.metric or []:
        cmd += ["--metric", m]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.unlink(out)
        return None, None, f"the run took more than {args.timeout:g} s"
    try:
        if proc.returncode not in (0, 1):
            tail = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()][-3:]
            return None, None, "not judged: " + (" | ".join(tail) or f"exit {proc.returncode}")
        try:
            head, recs = read_jsonl(out)
        except (OSError, ValueError) as e:
            return None, None, f"no report: {e}"
        got = next((a.get("version") for a in head.get("adapters", []) if a.get("name") == args.adapter), None)
        from conformance.versions import parse_version
        if got != version and (parse_version(str(got)) is None or parse_version(str(got)) != parse_version(version)):
            return None, None, f"the environment judged version {got}, not {version}"
        return head, recs, ""
    finally:
        try:
            os.unlink(out)
        except OSError:
            pass


def _write_jsonl(path, adapter, columns, heads, mat, args) -> None:
    from conformance.reports.writers import FORMAT, FORMAT_VERSION
    from conformance.reports.records import json_line
    from oracle.conventions import ORACLE_VERSION
    head = {"format": FORMAT, "version": FORMAT_VERSION, "oracle_version": ORACLE_VERSION, "matrix": True,
            "adapter": adapter.name, "library": adapter.library, "releases": [c["version"] for c in columns],
            "unavailable": [{"adapter": adapter.name, "version": v, "reason": why}
                            for v, why in mat["unavailable"].items()],
            "adapters": [a for h in heads.values() for a in h.get("adapters", [])],
            "seconds": mat["seconds"], "arguments": {"examples": args.examples, "metrics": args.metric}}
    lines = [json.dumps(head, ensure_ascii=False)]
    for c in columns:
        for r in c["records"] or []:
            lines.append(json_line(r.to_json()))
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
