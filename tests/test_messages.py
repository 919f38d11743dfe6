"""Messages a user meets first: unsupported metrics are said to be unsupported (no false
did-you-mean), unknown adapters get a did-you-mean, knob values the field writes in
either case are one value, and a closed pipe ends a command without a traceback."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from oracle import ConventionError, compute, get_metric

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name, wrong", [("bertscore", "did you mean"), ("COMET", "'ter'"), ("meteor", "did you mean")])
def test_an_unsupported_metric_is_said_unsupported(name, wrong):
    with pytest.raises(ConventionError) as e:
        compute(name, {})
    assert "not supported; the oracle has bleu" in str(e.value) and wrong not in str(e.value)


def test_a_metric_written_in_the_fields_case_points_to_its_name():
    with pytest.raises(ConventionError, match="did you mean 'chrf'\\? names and values are case-sensitive"):
        compute("chrF", {})


def test_a_misspelt_metric_gets_a_suggestion(capsys):
    with pytest.raises(ConventionError, match="did you mean 'ndcg'"):
        compute("ndgc", {})
    with pytest.raises(ConventionError, match="did you mean 'wer'\\? names and values are case-sensitive"):
        compute("WER", {})
    with pytest.raises(ConventionError, match="did you mean 'rouge_[nls]"):
        compute("rouge", {})


def test_an_unknown_adapter_gets_a_suggestion(capsys):
    assert main(["run", "--adapter", "jiwr", "--metric", "wer", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown adapter 'jiwr' (did you mean 'jiwer'?)" in err and '"' not in err


def test_knob_values_written_in_either_case_are_one_value():
    m = get_metric("entity_f1")
    assert m.settings({"scheme": "IOBES"})["scheme"] == m.settings({"scheme": "iobes"})["scheme"] == "iobes"
    assert compute("entity_f1", {"gold": [["S-PER"]], "pred": [["S-PER"]]}, {"scheme": "IOBES"}).value == 1
    with pytest.raises(ConventionError, match="not a choice"):
        m.settings({"scheme": "IOBESX"})


def test_a_closed_pipe_ends_quietly():
    cmd = f"{sys.executable} -m conformance list | head -1"
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.stdout.strip() and "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr
