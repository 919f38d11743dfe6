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
