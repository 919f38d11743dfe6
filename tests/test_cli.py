"""The command line: exit statuses, JSON outputs, reports."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
SEED = "000_28a8cb91ddee40ec.json"


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def _seed_case(metric, order=None):
    data = json.load(open(ROOT / "golden" / "documents" / SEED))
    for c in data["cases"]:
        if c["metric"] == metric and (order is None or c["conventions"].get("order") == order):
            return c


def test_oracle_prints_the_closed_form_and_30_certified_digits(tmp_path):
    case = _seed_case("bleu", "2")
    p = tmp_path / "case.json"
    p.write_text(json.dumps(case))
    out = cli("oracle", str(p), "--digits", "35")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["value"] in ("exp(-1/5)*(3/4)**(1/2)", "(3/4)**(1/2)*exp(-1/5)")
    # exp(-1/5) * sqrt(3)/2, digits from independent constants: exp(-0.2) = 0.818730753077981858669935508619...,
    # sqrt(3)/2 = 0.866025403784438646763723170752...; the product agrees to the 30 digits compared here
    assert res["digits"].startswith("0.709041631025096773589656011197")
    assert len(res["digits"].replace("0.", "", 1)) >= 30
    assert res["signature"].startswith("bleu|tok:none|")
    assert res["stats"]["matches"] == [5, 3]


def test_oracle_accepts_a_golden_reference_and_inline_inputs():
    case = _seed_case("exact_match")
    out = cli("oracle", f"{SEED}#{case['id']}")
    assert out.returncode == 0 and json.loads(out.stdout)["value"] in ("0", "1")
    out = cli("oracle", "--metric", "perplexity", "--inputs", '{"probs": [["1/2", "1/2"]]}')
    assert out.returncode == 0 and json.loads(out.stdout)["value"] == "2"


def test_compare_a_user_function_exit_statuses():
    case = _seed_case("bleu", "2")
    ok = cli("compare", f"{SEED}#{case['id']}", "--adapter", "tests.inhouse_text:document_bleu2")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert json.loads(ok.stdout)["verdict"] == "agree"
    bad = cli("compare", "--adapter", "tests.inhouse_text:bleu2_without_clipping", "--metric", "bleu",
              "--conventions", '{"tokenizer": "none", "order": "2"}',
              "--inputs", '{"hypotheses": ["a b a b"], "references": [["a b c"]]}')  # clipped sqrt(1/6), unclipped sqrt(2/3)
    v = json.loads(bad.stdout)
    assert bad.returncode == 1 and v["verdict"] == "disagree"
    assert v["explanation"].endswith("a defect")


def test_usage_and_configuration_errors_exit_2():
    assert cli("run", "--metric", "bleuu").returncode == 2
    r = cli("oracle", "--metric", "bleu", "--inputs", '{"hypotheses": ["a"], "references": [["a"]]}',
            "--conventions", '{"smoothing": "flor"}')
    assert r.returncode == 2 and "floor" in r.stderr
    r = cli("oracle", "--metric", "bleu", "--inputs", '{"hypotheses": ["a", "b"], "references": [["a"]]}')
    assert r.returncode == 2 and "bad input" in r.stderr
    assert cli("compare", "nope.json", "--adapter", "nltk").returncode == 2
    assert cli("frobnicate").returncode == 2


def test_check_passes_on_the_golden_files():
    out = cli("check")
    assert out.returncode == 0, out.stdout
    assert out.stdout.startswith("ok:")


def test_run_writes_every_report_and_fails_on_a_defect(tmp_path):
    out = cli("run", "--adapter", "tests.inhouse_text:bleu2_without_clipping", "--examples", "20",
              "--report", str(tmp_path / "r.jsonl"), "--markdown", str(tmp_path / "r.md"),
              "--junit", str(tmp_path / "r.xml"), "--jobs", "2", "--quiet")
    assert out.returncode == 1, out.stderr
    assert "FAIL bleu2-without-clipping" in out.stdout and "reproduce:" in out.stdout
    for name in ("r.jsonl", "r.md", "r.xml"):
        assert (tmp_path / name).stat().st_size > 0
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["format"] == "metric-conformance-report"


def test_list_json_names_metrics_knobs_and_adapters():
    out = cli("list", "--json")
    data = json.loads(out.stdout)
    names = {m["name"] for m in data["metrics"]}
    assert {"bleu", "sentence_bleu", "exact_match", "squad_f1", "perplexity"} <= names
    bleu = next(m for m in data["metrics"] if m["name"] == "bleu")
    assert any(k["name"] == "smoothing" and "exp" in k["choices"] for k in bleu["knobs"])


@pytest.mark.parametrize("argv", [["oracle", "--metric", "wer", "--inputs", "{}", "--digits", "0"],
                                  ["oracle", "--metric", "wer", "--inputs", "{}", "--digits", "100000000"],
                                  ["run", "--examples", "0"], ["run", "--jobs", "-1"],
                                  ["score", "-m", "wer", "--digits", "-1"], ["explain", "--budget", "0"]])
def test_a_count_out_of_range_is_a_usage_error_naming_the_option(argv, capsys):
    """--digits 0 gave a ValueError traceback from oracle/certified.py, --digits 10**8 ran for
    minutes, --examples 0 judged no corpus input and passed: each is refused before any work,
    in one line that names the option."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {argv[-2]}" in err and "Traceback" not in err
