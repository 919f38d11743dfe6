"""Report paths are checked before a run starts, a report never replaces what a
non-file path names, ``-`` writes to standard output, and reports are strict JSON."""
from __future__ import annotations

import json
import math
import os
import stat
import time

import pytest

from conformance.cli import main
from conformance.reports.paths import check_output
from conformance.reports.records import Record, decode_values, json_line
from conformance.reports.writers import read_jsonl, write_jsonl


def _refused(capsys, *argv) -> str:
    t0 = time.perf_counter()
    rc = main(["run", "--adapter", "jiwer", "--metric", "wer", "--examples", "2", "--quiet", *argv])
    assert rc == 2
    assert time.perf_counter() - t0 < 5       # refused before any library call
    return capsys.readouterr().err


def test_a_device_is_refused_up_front_and_left_alone(capsys):
    before = os.stat("/dev/null")
    err = _refused(capsys, "--report", "/dev/null")
    assert "--report /dev/null: is a character device" in err
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_fifo_a_folder_and_a_symlink_are_refused(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "is a FIFO" in _refused(capsys, "--report", str(fifo))
    assert "is a folder" in _refused(capsys, "--markdown", str(tmp_path))
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert "is a symbolic link" in _refused(capsys, "--junit", str(link))
    assert target.read_text() == "keep me" and link.is_symlink()


def test_a_missing_track_file_and_two_outputs_on_one_file_are_refused(tmp_path, capsys):
    assert "--track" in _refused(capsys, "--track", str(tmp_path / "nope.jsonl"))
    same = str(tmp_path / "r.out")
    assert "name the same file" in _refused(capsys, "--report", same, "--markdown", same)


def test_a_track_file_that_does_not_read_is_refused_before_the_run(tmp_path, capsys):
    """It was read after the run, and its ValueError traceback lost the finished run's reports."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{bad\n")
    assert "--track" in _refused(capsys, "--track", str(bad))
    headed = tmp_path / "headed.jsonl"
    headed.write_text('{"format": "metric-conformance-report", "version": 1}\n{"x": 1}\n')
    err = _refused(capsys, "--track", str(headed))
    assert "--track" in err and "not a report of this tool" in err and "Traceback" not in err


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc here")
def test_a_folder_that_cannot_be_made_is_refused_before_the_run(capsys):
    """/proc lets root 'write'; a folder under it cannot be made: a traceback after the run."""
    assert "cannot be made" in _refused(capsys, "--report", "/proc/nope/x.jsonl")


def test_the_side_files_are_checked_too(tmp_path, capsys):
    """FILE.md.long.json and FILE.incomplete are written beside the reports: a symlink there
    had its target overwritten after the run."""
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    (tmp_path / "r.md.long.json").symlink_to(target)
    (tmp_path / "r.jsonl.incomplete").symlink_to(target)
    err = _refused(capsys, "--markdown", str(tmp_path / "r.md"))
    assert "r.md.long.json: is a symbolic link" in err
    err = _refused(capsys, "--report", str(tmp_path / "r.jsonl"))
    assert "r.jsonl.incomplete: is a symbolic link" in err
    assert target.read_text() == "keep me"


def test_versions_checks_its_outputs_before_any_install(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    for argv, said in ((["--markdown", str(fifo)], "is a FIFO"), (["--report", str(link)], "is a symbolic link")):
        t0 = time.perf_counter()
        rc = main(["versions", "--adapter", "jiwer", "--versions", "3.0.0", "--metric", "wer", "--quiet", *argv])
        assert rc == 2 and time.perf_counter() - t0 < 5
        assert said in capsys.readouterr().err
    assert target.read_text() == "keep me"


def test_an_unwritable_folder_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root)")
        with pytest.raises(ValueError, match="not writable"):
            check_output(locked / "r.jsonl", "--report")
    finally:
        locked.chmod(0o700)


def test_a_report_on_standard_output(capsys):
    rc = main(["run", "--adapter", "jiwer", "--metric", "wer", "--examples", "2", "--quiet", "--report", "-"])
    out, err = capsys.readouterr()
    lines = [json.loads(l) for l in out.splitlines() if l.strip()]
    assert rc == 0 and lines[0]["format"] == "metric-conformance-report" and len(lines) > 1
    assert "wer" in err          # the summary table went to standard error


def test_reports_are_strict_json_and_keep_non_finite_values(tmp_path):
    r = Record(adapter="a", library="l", version="1", metric="ndcg", kind="property", test="oracle-equal",
               outcome="fail", library_value=float("nan"),
               inputs={"qrels": {"q": {"d": 1}}, "run": {"q": {"d": float("inf")}}})
    line = json_line(r.to_json())
    assert "NaN" not in line and "Infinity" not in line
    json.loads(line, parse_constant=lambda c: pytest.fail(f"bare {c} in a report"))
    path = tmp_path / "r.jsonl"
    write_jsonl(path, {"format": "metric-conformance-report"}, [r])
    _, (back,) = read_jsonl(path)
    assert math.isnan(back.library_value) and back.inputs["run"]["q"]["d"] == math.inf
    assert decode_values({"$float": "-inf"}) == -math.inf


def test_a_reproduce_command_reproduces_values_json_has_no_literal_for(capsys):
    """A Decimal label and a NaN score are written {"$decimal": "1"} and {"$float": "nan"} in
    reports and in reproduce commands; compare --inputs reads them back as a Decimal and a
    NaN (it read them as dicts, and the oracle refused 'a dict', not the Decimal)."""
    import shlex
    from decimal import Decimal
    from conformance.cli import main
    from conformance.reports.records import reproduce_command
    cmd = reproduce_command("sklearn", "accuracy", {}, {"y_true": [Decimal("1")], "y_pred": [1]})
    assert '{"$decimal":"1"}' in cmd
    args = shlex.split(cmd)[1:]
    main(args)
    out = json.loads(capsys.readouterr().out)
    assert "got Decimal" in out["exact"], out["exact"]
    # the bad-input tables' {"$repeat": [x, n]} is read the same way, within a bound
    assert decode_values({"$repeat": ["ab", 3]}) == "ababab"
    assert decode_values({"y": {"$repeat": [[0], 2]}}) == {"y": [0, 0]}
    with pytest.raises(ValueError, match="more than"):
        decode_values({"$repeat": [[0], 10 ** 12]})
