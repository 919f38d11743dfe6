"""Hostile numbers never hang the oracle: each of these ran for minutes or without end
before (expanding 10**999999999 or 2**10**10 exactly); now each ends at once, with a
typed error naming the offending item, or with its value."""
from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from oracle import InputError, compute
from oracle.parse import parse_exact
from oracle.trec import TrecFormatError, read_run


@contextmanager
def seconds(n: int):
    def fail(*_):
        raise AssertionError(f"still running after {n} s")
    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(n)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("score", ["1e999999999", "1e-999999999", "-1E+99999", "2.5e4001"])
def test_a_score_with_an_absurd_exponent_is_refused(score):
    with seconds(5), pytest.raises(InputError, match=r"run\['q'\]\['a'\]: score .* decimal exponent beyond"):
        compute("ndcg", {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": score, "b": "0"}}})


def test_scores_within_the_bound_are_still_exact():
    # 1e-300 > 0 = b's score: a is ranked first, NDCG 1 (by hand); 1e4000 is beyond a double
    # and still read exactly
    with seconds(5):
        assert compute("ndcg", {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": "1e-300", "b": "0"}}}).value == 1
        assert compute("ndcg", {"qrels": {"q": {"b": 1}}, "run": {"q": {"a": "1e4000", "b": "1e3999"}}}).value != 1


def test_a_run_file_with_such_a_score_names_the_line(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q Q0 b 1 0 s\nq Q0 a 2 1e-999999999 s\n")
    with seconds(5), pytest.raises(TrecFormatError, match=r"run.txt:2: score '1e-999999999' has a decimal exponent"):
        read_run(path)


def test_an_exponential_gain_of_a_huge_grade_is_refused():
    with seconds(5), pytest.raises(InputError, match="grade 1000000000: the exponential gain"):
        compute("ndcg", {"qrels": {"q": {"a": 1000000000}}, "run": {"q": {"a": "1"}}}, {"gain": "exponential"})
    # linear gains of the same grade are fine: one document, NDCG 1
    assert compute("ndcg", {"qrels": {"q": {"a": 1000000000}}, "run": {"q": {"a": "1"}}}).value == 1


@pytest.mark.parametrize("text,why", [("2**10**10", "power too large"), ("(10**1000)**2000", "power too large"),
                                      ("(" * 5000 + "1" + ")" * 5000, "nested"), ("1+" * 60000 + "1", "longer than")])
def test_an_absurd_expected_value_is_refused(text, why):
    with seconds(5), pytest.raises(ValueError, match=why):
        parse_exact(text)


def test_ordinary_expected_values_still_parse():
    assert str(parse_exact("2**100")) == str(2 ** 100)
    assert str(parse_exact("exp(-1/5)*(3/4)**(1/2)")) == "exp(-1/5)*(3/4)**(1/2)"


def test_knob_validation_does_not_depend_on_call_history():
    from oracle import ConventionError, get_metric
    m = get_metric("ndcg")
    assert m.settings({"k": 1})["k"] == "1"
    for bad in (True, 1.0):          # equal to 1 in Python, not an integer cutoff
        with pytest.raises(ConventionError, match="is not an integer"):
            m.settings({"k": bad})


def test_an_exact_value_past_the_integer_text_limit_prints():
    from oracle.exact import exact_str
    # perplexity of one token of probability 10**-5000 is 10**5000, a 5001-digit integer
    value = compute("perplexity", {"probs": [["1e-5000"]]}).value
    text = exact_str(value)
    assert len(text) == 5001 and text == "1" + "0" * 5000


def test_deeply_nested_json_is_a_clear_error(tmp_path, capsys):
    from conformance.cli import main
    from conformance.casefiles.cases import CaseFileError, load_file
    deep = "[" * 100000 + "]" * 100000
    path = tmp_path / "deep.json"
    path.write_text(deep)
    with pytest.raises(CaseFileError, match="nested too deeply"):
        load_file(path)
    assert main(["oracle", "--metric", "accuracy", "--inputs", deep]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_a_malformed_known_failure_file_is_named_before_the_run(tmp_path, capsys):
    from conformance.cli import main
    (tmp_path / "jiwer.json").write_text('{"entries": [')
    assert main(["run", "--adapter", "jiwer", "--known-dir", str(tmp_path), "--quiet"]) == 2
    assert f"{tmp_path / 'jiwer.json'}: line 1" in capsys.readouterr().err


def test_digits_of_an_astronomically_large_value_are_certified():
    """exp(10**308) (the perplexity of one token of log-probability -1e308): its bounds
    have no rational form of reasonable size; the digits come from bounds of log10.
    Checked against mpmath at 450 decimal digits (enough for a 309-digit exponent)."""
    import mpmath
    from oracle.certified import digits
    from oracle.exact import exp
    from fractions import Fraction
    with seconds(30):
        got = digits(exp(Fraction(10 ** 308)), 12)
        value = compute("perplexity", {"logprobs": [[-1e308]]}).value
        assert digits(value, 12).count("e") == 1
    with mpmath.workdps(450):
        want = mpmath.nstr(mpmath.exp(mpmath.mpf(10) ** 308), 12).replace("e+", "e")
    assert got == want


@pytest.mark.parametrize("metric, inputs, item", [
    ("perplexity", {"probs": [["1/2", "1e-999999999"]]}, "probs[0][1]"),
    ("perplexity", {"logprobs": [["-1e999999999"]]}, "logprobs[0][0]"),
    ("cross_modal_recall_at_k", {"similarity": [["1", "0"], ["0", "1e999999999"]]}, "similarity[1][1]"),
])
def test_probabilities_and_similarities_with_absurd_exponents_are_refused(metric, inputs, item):
    # these expanded 10**999999999 before (Fraction of the text): a hang
    with seconds(5):
        with pytest.raises(InputError, match=item.replace("[", r"\[")):
            compute(metric, inputs)


@pytest.mark.parametrize("beta", ["1e5000", "1e-999999999", "1" * 5000])
def test_a_setting_of_absurd_size_is_a_convention_error(beta):
    # "1e5000" ended in a raw ValueError (the 4,300-digit limit of int-to-text conversion)
    from oracle import ConventionError
    with seconds(5):
        with pytest.raises(ConventionError, match="out of range for a setting"):
            compute("f1", {"y_true": [1, 0], "y_pred": [1, 1]}, {"beta": beta, "average": "binary"})


def test_a_score_text_beyond_4000_characters_is_refused(tmp_path):
    # 5,001 zeros tied with 0 crashed the exact tie comparison with a raw ValueError (Python's
    # 4,300-digit limit); untied, the text was never read exactly
    long = "0" * 5001
    for run in ({"q": {"a": long, "b": 0}}, {"q": {"a": long, "b": "1"}}):
        with pytest.raises(InputError, match=r"run\['q'\]\['a'\]: score '0{40}\.\.\.' is a text of 5001 characters"):
            compute("reciprocal_rank", {"qrels": {"q": {"a": 1}}, "run": run})
    path = tmp_path / "run.txt"
    path.write_text(f"q Q0 a 1 {long} t\nq Q0 b 2 0 t\n")
    with pytest.raises(TrecFormatError, match=f"{path}:1: score .* is a text of 5001 characters"):
        read_run(path)
