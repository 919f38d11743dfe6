"""The oracle's nltk4, nltk5 and nltk7 smoothing values against NLTK's own
SmoothingFunction methods 4, 5 and 7 (the canonical tool for them, where it is
installed), and the statistics path that needs the next order's total.
The hand-derived values are golden cases in golden/topics/bleu.json."""
import random
import warnings
from fractions import Fraction

import pytest

from oracle.bleu_statistics import BLEU_STATISTICS
from oracle.conventions import InputError
from oracle.certified import digits
from oracle.registry import compute


def _float(v) -> float:
    return float(v) if isinstance(v, (int, Fraction)) else float(digits(v, 25))


def _pairs(seed: int, count: int):
    """Random token sequences over Zipf-like small vocabularies (repeats and partial matches)."""
    rng = random.Random(seed)
    for _ in range(count):
        vocab = ["a", "b", "c", "d", "e", "f"][:rng.randint(2, 6)]
        weights = [1 / (i + 1) for i in range(len(vocab))]
        hyp = rng.choices(vocab, weights, k=rng.randint(1, 10))
        refs = [rng.choices(vocab, weights, k=rng.randint(1, 10)) for _ in range(rng.randint(1, 3))]
        yield hyp, refs, rng


@pytest.mark.parametrize("method", ["nltk4", "nltk5", "nltk7"])
def test_sentence_level_matches_nltk(method):
    nb = pytest.importorskip("nltk.translate.bleu_score")
    checked = 0
    for hyp, refs, rng in _pairs({"nltk4": 4, "nltk5": 5, "nltk7": 7}[method], 400):
        k = rng.choice([1, 3, 5])
        eff = rng.random() < 0.3
        conv = {"tokenizer": "none", "smoothing": method, "no_match": "zero",
                "effective_order": "yes" if eff else "no"}
        if method != "nltk5":
            conv["smoothing_value"] = str(k)
        exact = compute("sentence_bleu", {"hypothesis": " ".join(hyp), "references": [" ".join(r) for r in refs]},
                        conv).value
        smoothing = getattr(nb.SmoothingFunction(k=k), "method" + method[-1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib = nb.sentence_bleu(refs, hyp, smoothing_function=smoothing, auto_reweigh=eff)
        assert abs(_float(exact) - lib) <= 1e-12 * max(1.0, abs(lib)), (hyp, refs, conv, exact, lib)
        checked += 1
    assert checked == 400


def test_corpus_nltk4_matches_nltk_on_long_segments():
    # segments of 5 tokens or more: NLTK's pooled denominators (sums of max(1, t_n)) are the oracle's
    nb = pytest.importorskip("nltk.translate.bleu_score")
    rng = random.Random(7)
    for _ in range(200):
        hyps = [rng.choices("abcde", k=rng.randint(5, 9)) for _ in range(rng.randint(1, 3))]
        refs = [[rng.choices("abcde", k=rng.randint(1, 9))] for _ in hyps]
        exact = compute("bleu", {"hypotheses": [" ".join(h) for h in hyps],
                                 "references": [[" ".join(r) for r in rs] for rs in refs]},
                        {"tokenizer": "none", "smoothing": "nltk4", "no_match": "zero"}).value
        lib = nb.corpus_bleu(refs, hyps, smoothing_function=nb.SmoothingFunction().method4)
        assert abs(_float(exact) - lib) <= 1e-12 * max(1.0, abs(lib)), (hyps, refs, exact, lib)


def test_nltk4_is_not_chen_and_cherry_method_4():
    # a b x c d / a b y c d: zero orders 3 and 4; Chen and Cherry (ln5/5)^k / t_n, NLTK ln5/(5 2^k t_n)
    inputs = {"hypothesis": "a b x c d", "references": ["a b y c d"]}
    ours = compute("sentence_bleu", inputs, {"tokenizer": "none", "smoothing": "nltk4"})
    cc = compute("sentence_bleu", inputs, {"tokenizer": "none", "smoothing": "cc4"})
    assert abs(_float(ours.value) - 0.171418) < 1e-6   # (1/3000)^(1/4) (ln 5)^(1/2)
    assert abs(_float(cc.value) - 0.171418) > 1e-3


def test_statistics_need_the_next_total_for_nltk5_and_nltk7():
    base = {"matches": [5, 4, 3, 2], "totals": [5, 4, 3, 2], "hyp_len": 5, "ref_len": 5, "next_order_matches": 1}
    for method in ("nltk5", "nltk7"):
        with pytest.raises(InputError, match="next_order_totals"):
            BLEU_STATISTICS.compute(base, {"smoothing": method})
    with pytest.raises(InputError, match="next_order_matches: 2 matched 5-grams of only 1"):
        BLEU_STATISTICS.compute({**base, "next_order_matches": 2, "next_order_totals": 1}, {"smoothing": "nltk5"})
    with pytest.raises(InputError, match="next_order_totals: 3 5-grams but only 2"):
        BLEU_STATISTICS.compute({**base, "next_order_totals": 3}, {"smoothing": "nltk5"})
    # cc5 reads only the matches: the total may be left out
    assert BLEU_STATISTICS.compute(base, {"smoothing": "cc5"}).value == 1


def test_nltk7_at_order_1000_is_a_flat_sum_and_matches_nltk():
    # method 5's running mean over N orders once nested N levels deep (a RecursionError after
    # 25 s at N = 1000, in the explanation search of a bad-input row); a 3-token hypothesis has
    # no n-gram of order 4 or more, so NLTK's fixed 5-gram extra order (method5's
    # modified_precision(references, hypothesis, 5)) is 0 as the oracle's order N + 1 is, and
    # method 4's 2**incvnt stays below 2**997 (a float)
    nb = pytest.importorskip("nltk.translate.bleu_score")
    n = 1000
    exact = compute("sentence_bleu", {"hypothesis": "a b c", "references": ["a b c"]},
                    {"tokenizer": "none", "smoothing": "nltk7", "smoothing_value": "5", "order": str(n),
                     "no_match": "zero"}).value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib = nb.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], weights=[1 / n] * n,
                               smoothing_function=nb.SmoothingFunction(k=5).method7)
    assert abs(_float(exact) - lib) <= 1e-9 * abs(lib), (exact, lib)
