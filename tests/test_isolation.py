"""A library that exits, hangs, calls sys.exit, allocates without bound or prints is an
outcome of the call that did it: the run goes on, reports it as an error naming what
happened, and judges everything else (conformance.engine.isolation)."""
from __future__ import annotations

import json
import sys
import time

import pytest

from conformance.cli import main
from conformance.engine.isolation import Limits
from conformance.engine.runner import run_all
from tests.inhouse_unreliable import allocates, exits_and_hangs, slow_allocates

# accuracy of each input, by hand: [1, 0, 1] against [1, 1, 1] is 2/3
CASES = {"format": "metric-conformance-cases", "version": 1, "title": "reliability", "cases": [
    {"id": f"0000000{n}", "description": f"input {n}", "source": {"reference": "by hand"}, "tags": ["accuracy"],
     "metric": "accuracy", "inputs": {"y_true": y, "y_pred": p}, "expected": {"value": v}}
    for n, (y, p, v) in enumerate([([1, 0, 1], [1, 1, 1], "2/3"), ([7, 7, 7], [7, 7, 7], "1"),
                                   ([8, 8, 8], [8, 8, 8], "1"), ([9, 9, 9], [9, 8, 9], "2/3"),
                                   ([6, 6, 6], [6, 6, 6], "1"), ([2, 2], [2, 3], "1/2")])]}


@pytest.fixture
def case_file(tmp_path):
    path = tmp_path / "reliability.json"
    path.write_text(json.dumps(CASES))
    return str(path)


def _golden(adapter, case_file, limits):
    t0 = time.perf_counter()
    records = run_all({adapter.name: adapter}, {}, metrics=["accuracy"], examples=3, jobs=1,
                      case_paths=[case_file], limits=limits, bad_input=False)
    return {r.test: r for r in records if r.kind == "golden"}, time.perf_counter() - t0


def test_an_exit_a_hang_and_sys_exit_are_errors_and_the_rest_is_judged(case_file):
    got, seconds = _golden(exits_and_hangs.adapter, case_file, Limits(timeout=2))
    assert got["00000001"].outcome == "error" and "exited with status 1" in got["00000001"].library_value
    # a fresh worker (the exit before ended the last one): its first call may take 4 x 2 s
    assert got["00000002"].outcome == "error" and "no answer within 8 s (--timeout)" in got["00000002"].library_value
    assert got["00000003"].outcome == "error" and "sys.exit(3)" in got["00000003"].library_value
    assert got["00000000"].outcome == "pass" and got["00000005"].outcome == "pass"
    assert seconds < 60


def test_unbounded_allocation_is_killed_at_the_memory_limit(case_file):
    got, _ = _golden(allocates.adapter, case_file, Limits(timeout=60, memory=512 * 1024 ** 2))
    assert got["00000004"].outcome == "error" and "more than 512 MB" in got["00000004"].library_value
    assert got["00000000"].outcome == "pass" and got["00000005"].outcome == "pass"


def test_the_memory_limit_counts_what_the_worker_adds_not_what_it_inherits(case_file):
    """A worker forked from an engine process already larger than the limit (a pytest worker
    late in a test run, say) starts resident at the engine's size: only what it allocates
    beyond that counts (it was killed at its set-up, every case lost to one unit error)."""
    ballast = b"\x01" * (640 * 1024 ** 2)   # written, so resident (a zeroed allocation need not be)
    try:
        got, _ = _golden(slow_allocates.adapter, case_file, Limits(timeout=60, memory=512 * 1024 ** 2))
    finally:
        del ballast
    assert set(got) == {f"0000000{n}" for n in range(6)}, sorted(got)
    assert got["00000004"].outcome == "error" and "more than 512 MB" in got["00000004"].library_value
    assert got["00000000"].outcome == "pass" and got["00000005"].outcome == "pass"


def test_the_cli_run_finishes_with_a_complete_report(case_file, tmp_path, capsys):
    report = tmp_path / "r.jsonl"
    rc = main(["run", "--adapter", "tests.inhouse_unreliable:exits_and_hangs", "--cases", case_file,
               "--metric", "accuracy", "--examples", "3", "--timeout", "2", "--quiet", "--no-bad-input",
               "--report", str(report)])
    lines = [json.loads(l) for l in report.read_text().splitlines()]
    golden = {r["test"]: r["outcome"] for r in lines[1:] if r["kind"] == "golden"}
    assert rc == 1 and golden == {"00000000": "pass", "00000001": "error", "00000002": "error", "00000003": "error",
                                  "00000004": "pass", "00000005": "pass"}


def test_prints_of_a_library_stay_off_a_report_on_standard_output(case_file, capfd):
    rc = main(["run", "--adapter", "tests.inhouse_unreliable:prints", "--cases", case_file, "--metric", "accuracy",
               "--examples", "3", "--quiet", "--report", "-"])
    out, err = capfd.readouterr()
    assert all(json.loads(l) for l in out.splitlines() if l.strip())   # every line of standard output is JSON
    assert "garbage on standard output" in err and rc in (0, 1)


def test_a_library_set_up_that_exits_is_an_error_and_the_run_goes_on(case_file):
    from tests.inhouse_unreliable import configure_exits
    records = run_all({configure_exits.name: configure_exits}, {}, metrics=["accuracy"], examples=3, jobs=1,
                      case_paths=[case_file], limits=Limits(timeout=10), bad_input=False)
    assert records and all(r.outcome == "error" for r in records)
    assert all("exited with status 4" in r.library_value for r in records)


def test_defect_models_and_classifiers_run_in_the_worker():
    """Models and classifiers may call the library (ranx's classifier asks it for its
    order of the documents): in the worker, where a death is LibraryDied, not the run's end."""
    import os
    from conformance.engine.isolation import LibraryDied, isolated
    from tests.inhouse_unreliable import configure_exits
    wrapped = isolated(configure_exits, Limits(timeout=10))
    try:
        assert wrapped.defect_models()["pid"]("accuracy", {}, {}) != os.getpid()
        assert wrapped.defect_classifiers()["pid"]("accuracy", {}, {}) != os.getpid()
        with pytest.raises(LibraryDied, match="status 5"):
            wrapped.defect_classifiers()["exits"]("accuracy", {}, {})
        assert wrapped.defect_classifiers()["pid"]("accuracy", {}, {}) != os.getpid()   # a new worker
    finally:
        wrapped.close()


def test_many_calls_in_one_message_keep_each_calls_outcome_and_limits():
    """``run_many`` (the prefetch of a replay's library calls): a value, a raise, sys.exit
    and a hang are each their input's outcome, the hang under the per-call time limit; the
    batch ends at the death, and the next call gets a fresh worker."""
    from conformance.engine.isolation import LibraryDied, isolated
    a = exits_and_hangs.adapter
    wrapped = isolated(a, Limits(timeout=2))
    configured = wrapped.configure("accuracy", a.profile("accuracy"))
    xs = [{"y_true": [1, 0, 1], "y_pred": [1, 1, 1]}, {"y_true": [9, 9, 9], "y_pred": [9, 8, 9]},
          {"y_true": [2, 2], "y_pred": [2, 3]}, {"y_true": [8, 8, 8], "y_pred": [8, 8, 8]},
          {"y_true": [1], "y_pred": [1]}]
    try:
        t0 = time.perf_counter()
        out = wrapped.run_many(configured, xs)
        assert time.perf_counter() - t0 < 30
        assert [k for k, _ in out] == ["ok", "raise", "ok", "died"]   # nothing run after the hang
        assert out[0][1].value == 2 / 3 and out[2][1].value == 1 / 2
        assert "sys.exit(3)" in str(out[1][1])
        assert isinstance(out[3][1], LibraryDied) and "no answer within 2 s" in str(out[3][1])
        assert wrapped.run(configured, xs[4]).value == 1.0
        exit_batch = wrapped.run_many(configured, [{"y_true": [7, 7, 7], "y_pred": [7, 7, 7]}, xs[0]])
        assert [k for k, _ in exit_batch] == ["died"] and "exited with status 1" in str(exit_batch[0][1])
    finally:
        wrapped.close()


def test_configure_at_the_same_settings_is_asked_of_the_worker_once_per_worker(monkeypatch):
    from conformance.engine.isolation import Isolated, isolated
    asked = []
    real = Isolated._call

    def counting(self, op, args, local):
        asked.append(op)
        return real(self, op, args, local)
    monkeypatch.setattr(Isolated, "_call", counting)
    a = exits_and_hangs.adapter
    wrapped = isolated(a, Limits(timeout=5))
    try:
        settings = a.profile("accuracy")
        first = wrapped.configure("accuracy", settings)
        second = wrapped.configure("accuracy", dict(settings))
        assert asked.count("configure") == 1 and second is not first and second.metric == first.metric
        with pytest.raises(Exception):
            wrapped.run(first, {"y_true": [7, 7, 7], "y_pred": [7, 7, 7]})   # the worker exits
        wrapped.configure("accuracy", settings)                                # a new worker sets up again
        assert asked.count("configure") == 2
    finally:
        wrapped.close()


def _hogs() -> list[int]:
    from pathlib import Path
    out = []
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and b"bytearray(600" in (d / "cmdline").read_bytes():
                out.append(int(d.name))
        except OSError:
            continue
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_librarys_own_process_counts_against_the_memory_limit_and_ends_with_it(case_file):
    """A library that starts a 600 MB process of its own: its memory is the library's (it
    escaped ``--memory`` before), and the process is killed with the library's worker
    (it outlived the run, holding its standard output open)."""
    import os
    import signal
    from tests.inhouse_unreliable import forks_a_hog
    before = set(_hogs())
    try:
        got, _ = _golden(forks_a_hog.adapter, case_file, Limits(timeout=30, memory=300 * 1024 ** 2))
        time.sleep(0.5)
        left = set(_hogs()) - before
    finally:
        for p in set(_hogs()) - before:
            os.kill(p, signal.SIGKILL)
    assert got["00000000"].outcome == "error" and "more than 300 MB" in got["00000000"].library_value
    assert not left, f"the library's own processes outlived the run: {left}"
