"""Separating probes of ROUGE-N, ROUGE-L and ROUGE-Lsum (``oracle.rouge``)."""
from __future__ import annotations

_ALL = ("rouge_n", "rouge_l", "rouge_lsum", "rouge_s")


def _one(hyp: str, refs: list[str]) -> dict:
    return {"hypotheses": [hyp], "references": [list(refs)]}


PROBES = [
    # precision 1, recall 2/3: the measures and every alpha differ
    ("unequal-lengths", _one("a b", ["a b c"]), _ALL),
    # KELVIN SIGN lowercases to 'k' under str.lower() (rouge-score) and is a separator to
    # the script's ASCII-only reading; 'The' and 'cat.' are other tokens to str.split()
    ("kelvin-sign", _one("\u212a The cat.", ["k the cat"]), _ALL),
    # one reference of recall 1 and F 2/7, another of recall 1/2 and F 4/7: pooled 10/21,
    # best-recall 2/7, best-f 4/7, average 3/7
    ("two-references", _one("a b c d e f", ["a", "a b c d x y z w"]), _ALL),
    # two segments of different lengths: the mean of their values is not their pooled value
    ("two-segments", {"hypotheses": ["a b c d", "a"], "references": [["a b"], ["a x y"]]}, _ALL),
    # three summaries of values 1, 0, 0: ROUGE-1.5.5's 1000 seeded resamples draw the first
    # 1002 times in 3000, so the bootstrap average is 167/500, not the mean 1/3
    ("three-segments", {"hypotheses": ["the", "", ""], "references": [["the"], [""], [""]]}, _ALL),
    # one token of eight replaced: 7/8 of the unigrams match, 5/7 of the bigrams ... 1/3 of the 6-grams
    ("orders", _one("a b c d e f g h", ["a b c d e f x h"]), ("rouge_n",)),
    # the reference sentence 'a b' and the hypothesis sentence 'b a' have two LCS ('a' or
    # 'b'); the second hypothesis sentence 'a' matches 'a': the union holds one token when
    # the first LCS is 'a' (up), two when it is 'b' (left)
    ("two-lcs", _one("b a\na", ["a b"]), ("rouge_lsum",)),
    # the pairs (f, f) of the reference lie 0, 1 and 2 words apart, and their counts clip the
    # hypothesis' one pair differently at every skip distance (found by a search over small strings)
    ("skip-gaps", _one("f f", ["h b f f f a e b b"]), ("rouge_s",)),
    # unigrams: skip-bigrams match 2 of 3 (none); with the unigrams but the last ones
    # (the script's -u) 3 of 5; with every unigram 5 of 6
    ("last-unigram", _one("a b c", ["a c b"]), ("rouge_s",)),
]
