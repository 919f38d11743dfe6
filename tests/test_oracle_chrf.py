"""chrF and chrF++ (oracle.chrf): the golden cases are derived by hand in
golden/topics/chrf.json; here the oracle is checked against sacrebleu's CHRF (the
implementation the definitions follow) on random corpora over every knob, and its
statistics against a direct count."""
from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from oracle import compute
from oracle.registry import get_metric

WORDS = ["the", "cat", "sat", "on", "a", "mat", "(hi)", "dog,", "Ein", "Hund", "x", ".", "naïve", "ä", "!", "THE"]


def _sentence(r: random.Random) -> str:
    return " ".join(r.choice(WORDS) for _ in range(r.randint(0, 8)))


def test_agrees_with_sacrebleu_on_random_corpora():
    sacrebleu = pytest.importorskip("sacrebleu.metrics")
    r = random.Random(3)
    checked = 0
    for _ in range(300):
        n, nref = r.randint(1, 4), r.randint(1, 3)
        hyps = [_sentence(r) for _ in range(n)]
        refs = [[_sentence(r) for _ in range(nref)] for _ in range(n)]
        nc, nw, beta = r.choice([6, 6, 3, 1]), r.choice([0, 2, 1]), r.choice([2, 1, 3])
        ws, lc, eps = r.random() < 0.3, r.random() < 0.3, r.random() < 0.4
        sb = sacrebleu.CHRF(char_order=nc, word_order=nw, beta=beta, whitespace=ws, lowercase=lc, eps_smoothing=eps)
        conventions = {"char_order": nc, "word_order": nw, "beta": beta, "whitespace": "yes" if ws else "no",
                       "case": "lower" if lc else "mixed", "smoothing": "eps" if eps else "effective-order",
                       "scale": "percent"}
        got = sb.corpus_score(hyps, [list(x) for x in zip(*refs)]).score
        mine = compute("chrf", {"hypotheses": hyps, "references": refs}, conventions).value
        assert math.isclose(got, float(mine), rel_tol=1e-12, abs_tol=1e-12), (hyps, refs, conventions)
        got = sb.sentence_score(hyps[0], refs[0]).score
        mine = compute("sentence_chrf", {"hypothesis": hyps[0], "references": refs[0]}, conventions).value
        assert math.isclose(got, float(mine), rel_tol=1e-12, abs_tol=1e-12), (hyps[0], refs[0], conventions)
        checked += 2
    assert checked == 600


def test_statistics_are_the_character_ngram_counts():
    # 'a b a' without spaces is 'aba': unigrams a, b, a; bigrams ab, ba. Against 'ab':
    # unigram matches min(2, 1) + min(1, 1) = 2, bigram match 1
    r = compute("sentence_chrf", {"hypothesis": "a b a", "references": ["ab"]}, {"char_order": "2"})
    assert r.stats == {"hyp": [3, 2], "ref": [2, 1], "match": [2, 1]}
    hyp = Counter("aba"), Counter(["ab", "ba"])
    assert [sum(c.values()) for c in hyp] == r.stats["hyp"]
    # P1 = 2/3, R1 = 1, P2 = 1/2, R2 = 1: chrP = 7/12, chrR = 1, F2 = 5 (7/12) / (4 (7/12) + 1) = 35/40
    assert r.value == Fraction(7, 8)


def test_bad_inputs_are_named():
    from oracle.conventions import InputError
    with pytest.raises(InputError, match="references\\[0\\]: no references"):
        compute("chrf", {"hypotheses": ["a"], "references": [[]]})
    with pytest.raises(InputError, match="empty corpus"):
        compute("chrf", {"hypotheses": [], "references": []})
    with pytest.raises(InputError, match="hypotheses has 2 segments but references has 1"):
        compute("chrf", {"hypotheses": ["a", "b"], "references": [["a"]]})
    assert {k.name for k in get_metric("chrf").knobs} == {"char_order", "word_order", "beta", "whitespace", "case",
                                                          "smoothing", "scale"}
