"""SIGTERM, SIGHUP and SIGINT stop a run at once: its workers are gone, the finished units
are written as a report marked incomplete beside (never over) the previous report, and
the exit status is 128 + the signal number."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _descendants(pid: int) -> set[int]:
    out, frontier = set(), [pid]
    while frontier:
        p = frontier.pop()
        kids = []
        for task in Path(f"/proc/{p}/task").glob("*"):   # a child is listed under the thread that forked it
            try:
                kids += (task / "children").read_text().split()
            except OSError:
                continue
        for k in map(int, kids):
            out.add(k)
            frontier.append(k)
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig,jobs", [(signal.SIGTERM, "2"), (signal.SIGHUP, "2"), (signal.SIGINT, "1")])
def test_a_signal_stops_the_run_and_leaves_an_incomplete_report(tmp_path, sig, jobs):
    report = tmp_path / "r.jsonl"
    report.write_text("the previous report\n")
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "run", "--adapter", "sklearn", "--jobs", jobs,
                             "--quiet", "--report", str(report)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not _descendants(proc.pid) and time.monotonic() < deadline:   # the run has started its workers
        time.sleep(0.2)
    time.sleep(4)
    family = _descendants(proc.pid)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + int(sig), err[-500:]
    assert report.read_text() == "the previous report\n"
    lines = (tmp_path / "r.jsonl.incomplete").read_text().splitlines()
    head = json.loads(lines[0])
    assert head["incomplete"]["signal"] == sig.name and head["incomplete"]["units_done"] < head["incomplete"]["units"]
    time.sleep(1)
    alive = [p for p in family if Path(f"/proc/{p}").exists()
             and "zombie" not in Path(f"/proc/{p}/status").read_text().lower()]
    assert not alive, f"left running: {alive}"
    assert f"stopped by {sig.name}" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_sigkill_of_the_main_process_leaves_no_worker_running(tmp_path):
    """No handler sees SIGKILL: the workers notice their parent is gone (pool workers and
    library workers alike, ``processes.exit_with_parent``); five processes were left running
    23 s later before."""
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "run", "--adapter", "sklearn", "--adapter", "jiwer",
                             "--jobs", "2", "--quiet", "--report", str(tmp_path / "r.jsonl")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(_descendants(proc.pid)) < 3 and time.monotonic() < deadline:   # pool and library workers
        time.sleep(0.2)
    time.sleep(2)
    family = _descendants(proc.pid)
    assert len(family) >= 3, family
    proc.kill()
    proc.wait(timeout=10)
    time.sleep(2)
    alive = [p for p in family if Path(f"/proc/{p}").exists()
             and "zombie" not in Path(f"/proc/{p}/status").read_text().lower()]
    for p in alive:   # leave nothing behind whatever the verdict
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    assert not alive, f"left running 2 s after SIGKILL of the main process: {alive}"


def _alive(pids) -> list[int]:
    return [p for p in pids if Path(f"/proc/{p}").exists()
            and "zombie" not in Path(f"/proc/{p}/status").read_text().lower()]


def _kill_left(pids) -> None:
    for p in pids:   # leave nothing behind whatever the verdict
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


HANGING = ["--adapter", "tests.inhouse_unreliable:hangs_always",
           "--adapter", "tests.inhouse_unreliable:spins_holding_the_gil"]


def _start_hanging_run(tmp_path, *extra):
    """Two libraries that never answer (one asleep, one spinning in C with the GIL held),
    two engine workers, and the run's whole family once every library worker has started."""
    cases = tmp_path / "c.json"
    cases.write_text(json.dumps({"format": "metric-conformance-cases", "version": 1, "title": "t", "cases": [
        {"id": "00000000", "description": "by hand: 2 of 3 agree", "source": {"reference": "by hand"},
         "tags": ["accuracy"], "metric": "accuracy", "inputs": {"y_true": [1, 0, 1], "y_pred": [1, 1, 1]},
         "expected": {"value": "2/3"}}]}))
    proc = subprocess.Popen([sys.executable, "-m", "conformance", "run", *HANGING, "--metric", "accuracy",
                             "--cases", str(cases), "--jobs", "2", "--timeout", "120", "--quiet",
                             "--report", str(tmp_path / "r.jsonl"), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(_descendants(proc.pid)) < 4 and time.monotonic() < deadline:   # 2 engine + 2 library workers
        time.sleep(0.2)
    time.sleep(1)
    return proc, _descendants(proc.pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_during_hanging_calls_with_two_jobs_ends_everything_within_two_seconds(tmp_path):
    """The main process waited forever in the pool's shutdown: a library worker, forked by
    an engine worker, holds copies of the pool's pipes, and one holding the GIL never
    notices its parent is gone (``processes.kill_family`` now kills the family first)."""
    proc, family = _start_hanging_run(tmp_path)
    if len(family) < 4:
        _kill_left(family | {proc.pid})
        pytest.fail(f"the run did not start its four workers: {family}")
    proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    took = time.monotonic() - t0
    left = _alive(family | {proc.pid})
    _kill_left(left)
    assert proc.returncode == 128 + signal.SIGTERM and took < 2, took
    assert not left, f"left running: {left}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_during_a_call_holding_the_gil_leaves_no_process(tmp_path):
    """A library worker spinning in C cannot run its own parent watch; its engine worker
    kills its process group when the main process is gone."""
    proc, family = _start_hanging_run(tmp_path)
    proc.kill()
    proc.wait(timeout=10)
    time.sleep(2)
    left = _alive(family)
    _kill_left(left)
    assert not left, f"left running 2 s after SIGKILL of the main process: {left}"
