"""A run file larger than the memory the process may use is a one-line TrecFormatError
naming the file, how far it got and the limit, never a raw MemoryError (issue: a
228 MB run file under an 800 MB cap ended in a MemoryError traceback)."""
from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_READ = textwrap.dedent("""
    import resource, sys
    sys.path.insert(0, sys.argv[1])
    import oracle.trec as T
    resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[3]) * 2**20, resource.RLIM_INFINITY))
    try:
        run = T.read_run(sys.argv[2])
    except T.TrecFormatError as e:
        print("error:", e)
    else:
        print("read", len(run), sum(map(len, run.values())))
""")


@pytest.fixture(scope="module")
def big_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("large") / "run.txt"
    r = random.Random(3)
    with open(path, "w") as f:
        for q in range(800):
            for k, d in enumerate(r.sample(range(10_000_000), 1000)):
                f.write(f"q{q} Q0 doc{d} {k + 1} {r.random() * 30:.6f} bm25\n")
    return path


def _read(path, cap_mb: int) -> str:
    out = subprocess.run([sys.executable, "-c", _READ, str(ROOT), str(path), str(cap_mb)],
                         capture_output=True, text=True, timeout=300)
    assert "Traceback" not in out.stderr, out.stderr
    return out.stdout.strip()


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS semantics")
def test_a_run_beyond_the_memory_limit_is_a_clear_error(big_run):
    got = _read(big_run, 120)
    assert got.startswith(f"error: {big_run}: the run does not fit in memory"), got
    assert "address-space limit: 120 MB" in got and "queries were read" in got


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS semantics")
def test_the_same_run_within_the_limit_is_read(big_run):
    assert _read(big_run, 1000) == "read 800 800000"
