"""CI regression checking, both ways: strict mode and --track see a new failure and
a fixed one; `known --write` records the current failures; `explain` from the
command line."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FN = "tests.inhouse_text:bleu2_without_clipping"


def cli(*args, fixed=False):
    env = dict(os.environ)
    env["INHOUSE_FIXED"] = "1" if fixed else "0"
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=600)


def test_strict_mode_and_track_both_ways(tmp_path):
    known = tmp_path / "known"
    run = ("run", "--adapter", FN, "--metric", "bleu", "--examples", "20", "--jobs", "1", "--quiet",
           "--known-dir", str(known))
    # 1. a new failure: strict (and plain) runs fail
    first = cli(*run, "--report", str(tmp_path / "r1.jsonl"), "--strict")
    assert first.returncode == 1 and "FAIL bleu2-without-clipping" in first.stdout
    # 2. record the current failures as the adapter's known-failure list
    rec = cli("known", "--adapter", FN, "--report", str(tmp_path / "r1.jsonl"), "--known-dir", str(known), "--write")
    assert rec.returncode == 0, rec.stderr
    entries = json.loads((known / "bleu2-without-clipping.json").read_text())["entries"]
    assert {e["kind"] for e in entries} == {"defect"} and len(entries) >= 2
    # 3. the same failures are now known: strict passes; --track shows what changed
    second = cli(*run, "--report", str(tmp_path / "r2.jsonl"), "--strict", "--track", str(tmp_path / "r1.jsonl"))
    assert second.returncode == 0, second.stdout + second.stderr
    assert "changed" in second.stdout and "fail -> known-failure" in second.stdout
    # 4. the library fixes its defect: a known failure that passes fails strict mode, not a plain run
    third = cli(*run, "--report", str(tmp_path / "r3.jsonl"), "--strict", "--track", str(tmp_path / "r2.jsonl"),
                fixed=True)
    assert third.returncode == 1
    assert "known-failure -> pass" in third.stdout
    plain = cli(*run, "--report", str(tmp_path / "r4.jsonl"), fixed=True)
    assert plain.returncode == 0, plain.stdout
    assert "now passes" in plain.stdout


def test_third_run_uses_the_fixed_library(tmp_path):
    # (guard for the test above: the fixed variant really agrees with the oracle)
    out = cli("compare", "--adapter", FN, "--metric", "bleu", "--conventions", '{"tokenizer": "none", "order": "2"}',
              "--inputs", '{"hypotheses": ["a b a b"], "references": [["a b c"]]}', fixed=True)
    assert json.loads(out.stdout)["verdict"] == "agree"


def test_explain_recognises_knobs_and_arithmetic():
    out = cli("explain", "--metric", "bleu", "--conventions", '{"tokenizer": "none"}',
              "--inputs", '{"hypotheses": ["a b c d e"], "references": [["a b c d f"]]}',
              "--value", "66.87403049764218")   # 100 * (1/5)**(1/4): BLEU on a percent scale
    v = json.loads(out.stdout)
    assert {"scale": "percent"} in v["reproducing_knobs"]
    out = cli("explain", "--metric", "bleu", "--conventions", '{"tokenizer": "none", "order": "2"}',
              "--inputs", '{"hypotheses": ["b a"], "references": [["a b"]]}', "--value", "1.491668146240062e-154")
    v = json.loads(out.stdout)
    assert v["reproducing_knobs"] == [] and "sys.float_info.min**(1/2)" in v["explanation"]
    bad = cli("explain", "--metric", "bleu", "--inputs", '{"hypotheses": ["a"], "references": [["a"]]}',
              "--value", "abc")
    assert bad.returncode == 2 and "--value" in bad.stderr
