"""The CI recipe's pieces a team leans on: --known-dir adds the team's list to the shipped
ones, a timeout is an environment error that known --write never records (and a fresh
worker's first call gets four times the limit), and --track says when a library's
version changed even if no outcome did."""
from __future__ import annotations

import json

from conformance.cli import main
from conformance.engine.isolation import Limits
from conformance.engine.runner import run_all
from conformance.reports.writers import read_jsonl

CASES = {"format": "metric-conformance-cases", "version": 1, "title": "t", "cases": [
    {"id": f"0000000{n}", "description": f"By hand: input {n}.", "source": {"reference": "by hand"},
     "tags": ["accuracy"], "metric": "accuracy", "inputs": {"y_true": y, "y_pred": p}, "expected": {"value": v}}
    for n, (y, p, v) in enumerate([([1, 0, 1], [1, 1, 1], "2/3"), ([7, 7, 7], [7, 7, 7], "1"),
                                   ([8, 8, 8], [8, 8, 8], "1")])]}


def _outcomes(path) -> dict:
    return {r.key: r.outcome for r in read_jsonl(path)[1]}


def test_known_dir_adds_to_the_shipped_lists(tmp_path):
    """With an empty --known-dir, jiwer's shipped known failures still hold (they were
    replaced: the team's baseline run failed on every shipped entry)."""
    common = ["run", "--adapter", "jiwer", "--metric", "wer", "--examples", "2", "--no-bad-input", "--quiet"]
    main(common + ["--report", str(tmp_path / "a.jsonl")])
    (tmp_path / "mine").mkdir()
    main(common + ["--known-dir", str(tmp_path / "mine"), "--report", str(tmp_path / "b.jsonl")])
    a, b = _outcomes(tmp_path / "a.jsonl"), _outcomes(tmp_path / "b.jsonl")
    assert "known-failure" in a.values()
    assert a == b


def test_a_timeout_is_an_environment_error_that_known_write_does_not_record(tmp_path, capsys):
    cases = tmp_path / "c.json"
    cases.write_text(json.dumps(CASES))
    report = tmp_path / "r.jsonl"
    main(["run", "--adapter", "tests.inhouse_unreliable:exits_and_hangs", "--cases", str(cases), "--metric",
          "accuracy", "--examples", "1", "--timeout", "1", "--no-bad-input", "--quiet", "--report", str(report)])
    golden = {r.test: r for r in read_jsonl(report)[1] if r.kind == "golden"}
    assert golden["00000002"].outcome == "error" and "(--timeout)" in golden["00000002"].message
    assert "environment error" in golden["00000002"].explanation
    assert main(["known", "--adapter", "tests.inhouse_unreliable:exits_and_hangs", "--report", str(report),
                 "--known-dir", str(tmp_path / "k"), "--write"]) == 0
    assert "environment error(s) (--timeout, --memory) not recorded" in capsys.readouterr().err
    entries = json.loads(next((tmp_path / "k").glob("*.json")).read_text())["entries"]
    assert entries and not any("--timeout" in json.dumps(e) for e in entries)
    assert any(e["inputs"] == {"y_true": [7, 7, 7], "y_pred": [7, 7, 7]} for e in entries)   # the exit: a defect


def test_a_fresh_workers_first_call_gets_four_times_the_limit(tmp_path):
    """A library whose first call takes 2.5 s (numba compiling under load) under a 1 s
    limit: the first call may take 4 s, the later ones 1 s (it was a 'defect' before)."""
    from tests.inhouse_unreliable import slow_first_call
    cases = tmp_path / "c.json"
    cases.write_text(json.dumps({**CASES, "cases": CASES["cases"][:1]}))
    records = run_all({"slow-first-call": slow_first_call.adapter}, {}, metrics=["accuracy"], examples=1, jobs=1,
                      case_paths=[str(cases)], limits=Limits(timeout=1), bad_input=False)
    golden = [r for r in records if r.kind == "golden"]
    assert golden and all(r.outcome == "pass" for r in golden), [(r.test, r.outcome, r.message) for r in golden]


def test_track_names_a_version_change_that_changes_no_outcome(tmp_path, capsys):
    base, now = tmp_path / "base.jsonl", tmp_path / "now.jsonl"
    common = ["run", "--adapter", "jiwer", "--metric", "wer", "--examples", "2", "--no-bad-input", "--quiet"]
    main(common + ["--report", str(base)])
    lines = base.read_text().splitlines()
    version = json.loads(lines[1])["version"]
    base.write_text("\n".join([lines[0]] + [json.dumps({**json.loads(l), "version": "0.0.1"}) for l in lines[1:]])
                    + "\n")
    capsys.readouterr()
    assert main(common + ["--report", str(now), "--track", str(base)]) == 0
    out = capsys.readouterr().out
    assert f"version  jiwer (jiwer): 0.0.1 -> {version}" in out
    assert f"no change since {base} in any outcome" in out


def test_known_checks_its_paths_before_any_work(tmp_path, capsys):
    """A --known-dir that cannot be made, or is a file, and a --report that is missing or a
    folder: a one-line message naming it (tracebacks before)."""
    (tmp_path / "afile").write_text("")
    report = tmp_path / "r.jsonl"
    report.write_text("{}\n")
    for args, said in ((["--report", str(report), "--known-dir", "/proc/nope/k", "--write"], "cannot be made"),
                       (["--report", str(report), "--known-dir", str(tmp_path / "afile"), "--write"],
                        "is a file, not a folder"),
                       (["--report", str(tmp_path / "missing.jsonl")], "no such file"),
                       (["--report", str(tmp_path)], "is a folder, not a file")):
        assert main(["known", "--adapter", "jiwer", *args]) == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, err
