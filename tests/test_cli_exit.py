"""The console script's exit (``conformance.cli.entry``): main's status, the standard
streams flushed and the reports whole, with the interpreter's teardown skipped."""
import json
import os
import subprocess
import sys

from conformance.cli_common import EXIT_OK, EXIT_USAGE


def _cli(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # standard output block-buffered
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600, env=env)


def test_a_run_exits_with_its_status_and_writes_everything(tmp_path):
    report = tmp_path / "r.jsonl"
    done = _cli("run", "--quiet", "--adapter", "jiwer",
                "--metric", "wer", "--jobs", "1", "--report", str(report), "--markdown", str(tmp_path / "r.md"),
                cwd=tmp_path)
    assert done.returncode == EXIT_OK, done.stderr[-2000:]
    lines = report.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "metric-conformance-report"
    assert len(lines) > 5 and all(json.loads(line) for line in lines)
    assert "jiwer" in (tmp_path / "r.md").read_text()
    # the summary, then the table, written to a pipe (block-buffered), arrive whole
    out = done.stdout.splitlines()
    assert out[0].startswith("Summary: ") and any(l.split()[:2] == ["adapter", "metric"] for l in out)
    assert "jiwer" in done.stdout and done.stderr.rstrip().endswith(str(tmp_path / "r.md"))


def test_a_usage_error_exits_with_its_status(tmp_path):
    done = _cli("run", "--metric", "no_such_metric", cwd=tmp_path)
    assert done.returncode == EXIT_USAGE
    assert "--metric no_such_metric: unknown metric" in done.stderr
