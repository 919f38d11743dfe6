"""``metric-conformance witnesses``: write the witnesses again (divergences' separating
inputs and failing properties' shrunk examples,
``conformance.engine.witnesses``) from a whole run that reads neither them nor the
store of searches, or check that the shipped ones are what that run finds."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from conformance.cli_common import EXIT_OK, EXIT_UNEXPECTED


def add_parser(sub) -> None:
    w = sub.add_parser("witnesses", help="write the witnesses shipped with the adapters again (divergence searches' "
                                         "separating inputs, failing properties' shrunk examples), from a run that "
                                         "searches everything (or --check them)")
    w.add_argument("--output", help="directory of the witness files (default: adapters/witnesses)")
    w.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 when the shipped witnesses differ from what the searches find")
    w.add_argument("--jobs", type=int, default=2,
                   help="processes of the run (default 2, as the shipped witnesses were written: a worker reuses "
                        "an input another search of the same family found in its process, so which searches run "
                        "depends on the split)")
    w.set_defaults(fn=cmd_witnesses)


def _files(where: Path) -> dict:
    """{file name: its witnesses, None when unreadable} of a witness directory."""
    from conformance.engine.witnesses import read
    return {p.name: read(p) for p in sorted(where.glob("*.json"))} if where.is_dir() else {}


def cmd_witnesses(args) -> int:
    from conformance.engine import store, witnesses
    target = Path(args.output) if args.output else witnesses.WITNESS_DIR
    with tempfile.TemporaryDirectory(prefix="mc-witnesses-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "METRIC_CONFORMANCE_NO_CACHE"}
        env.update(METRIC_CONFORMANCE_CACHE=tmp, METRIC_CONFORMANCE_NO_WITNESSES="1")
        cmd = [sys.executable, "-m", "conformance", "run", "--quiet", "--report", os.path.join(tmp, "run.jsonl")]
        if args.jobs > 0:
            cmd += ["--jobs", str(args.jobs)]
        print("searching every divergence (a whole run with no store and no witnesses) ...", file=sys.stderr)
        # the libraries' own warnings go to a file, shown only when the run fails
        with open(os.path.join(tmp, "run.stderr"), "w+", encoding="utf-8", errors="replace") as err:
            done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
            err.seek(0)
            tail = err.read()[-4000:]
        if done.returncode not in (0, 1):   # 1: the run found failures, which is no reason not to write
            sys.stderr.write(tail)
            print(f"\nthe run exited with status {done.returncode}: nothing written", file=sys.stderr)
            return done.returncode
        # the divergence searches' shrunk separating inputs and the failing properties' shrunk
        # examples (``conformance.engine.findings``)
        found = store.entries("separating", Path(tmp) / "searches") + store.entries("finding", Path(tmp) / "searches")
        if not found or not os.path.isfile(os.path.join(tmp, "run.jsonl")):
            # (a run that crashed also exits 1: without its report, or without any finding, the
            # witnesses on disk stay as they are)
            sys.stderr.write(tail)
            print("\nthe run wrote no report or found no separating input: nothing written", file=sys.stderr)
            return EXIT_UNEXPECTED
        out = Path(tmp) / "witnesses" if args.check else target
        counts = witnesses.write(found, out)
        if args.check:
            new, old = _files(out), _files(target)
            differ = sorted(set(new) ^ set(old) | {n for n in set(new) & set(old) if new[n] != old[n]})
            if differ:
                print("the witnesses differ from what the searches find: " + ", ".join(differ), file=sys.stderr)
                return EXIT_UNEXPECTED
            print(f"the {sum(counts.values())} witnesses are what the searches find", file=sys.stderr)
            return EXIT_OK
    print(f"{sum(counts.values())} witnesses written to {target} ("
          + ", ".join(f"{n}: {c}" for n, c in sorted(counts.items())) + ")", file=sys.stderr)
    return EXIT_OK
