"""Separating probes of chrF and chrF++ (``oracle.chrf``)."""
from __future__ import annotations


def _pair(name: str, hyp: str, refs: list[str]):
    return [(name, {"hypotheses": [hyp], "references": [list(refs)]}, ("chrf",)),
            (name, {"hypothesis": hyp, "references": list(refs)}, ("sentence_chrf",))]


PROBES = [
    # character n-grams of every order 1..7 partly matched, precision and recall unequal (every
    # beta a different F), word bigrams partly matched (chrF++), one uppercase letter (case)
    *_pair("orders", "The cat sat on the mat", ["the cat sat on a hat today"]),
    # a space inside the n-grams (whitespace=yes) changes which n-grams match
    *_pair("spaces", "ab cd", ["abc d"]),
    # one-character words: no character bigram at all (an order without n-grams: smoothing)
    *_pair("short", "a", ["a b"]),
    # two segments, one without any match: the corpus statistics pool them
    ("two-segments", {"hypotheses": ["abcdefg", "xy"], "references": [["abcdefh"], ["zw"]]}, ("chrf",)),
]
