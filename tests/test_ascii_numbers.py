"""Numbers written as text are read in ASCII only. Python's float(), int() and Fraction()
read fullwidth ('１') and Arabic-Indic ('٣') digits; trec_eval's atof and atoi read none
(atof('１.0') is 0), and no metric's source writes them. A score, probability or setting
in other digits is refused with a message naming it; a file's undecodable byte is
reported at its own line (the text layer decodes blocks of lines: line 692 was named
for a bad byte on line 900)."""
from __future__ import annotations

import pytest

from oracle import compute
from oracle.conventions import ConventionError, InputError


@pytest.mark.parametrize("score", ["１.0", "٣", "1\u0660"])
def test_a_score_in_other_digits_is_refused(score):
    with pytest.raises(InputError, match=r"run\['q'\]\['d'\]"):
        compute("precision_at_k", {"qrels": {"q": {"d": 1}}, "run": {"q": {"d": score}}})
    with pytest.raises(InputError, match="score"):
        compute("score_average_precision", {"y_true": [1, 0], "y_score": [score, "0.5"]})


def test_ascii_scores_still_read():
    # by hand: d is the only document and it is relevant, P@5 = 1/5
    assert compute("precision_at_k", {"qrels": {"q": {"d": 1}}, "run": {"q": {"d": "1.0"}}}).value == \
        compute("precision_at_k", {"qrels": {"q": {"d": 1}}, "run": {"q": {"d": 1.0}}}).value


def test_a_probability_and_a_setting_in_other_digits_are_refused():
    with pytest.raises(InputError):
        compute("perplexity", {"probs": [["１/2"]]})
    with pytest.raises(ConventionError):
        compute("entity_f1", {"gold": [["B-X"]], "pred": [["B-X"]]}, {"beta": "１"})


def test_run_and_qrels_files(tmp_path):
    from oracle.trec import read_qrels, read_run
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 １.0 r\n", encoding="utf-8")
    with pytest.raises(InputError, match="ASCII"):
        read_run(run)
    bad = tmp_path / "qrels.txt"
    bad.write_bytes("".join(f"q1 0 d{i} 1\n" for i in range(899)).encode() + b"q1 0 d\xff 1\n")
    with pytest.raises(InputError, match=r"qrels.txt:900: not UTF-8"):
        read_qrels(bad)
    badrun = tmp_path / "badrun.txt"
    badrun.write_bytes("".join(f"q1 Q0 d{i} 1 1.0 r\n" for i in range(899)).encode() + b"q1 Q0 d\xff 1 1.0 r\n")
    with pytest.raises(InputError, match=r"badrun.txt:900: not UTF-8"):
        read_run(badrun)
