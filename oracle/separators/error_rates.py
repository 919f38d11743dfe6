"""Separating probes of the error rates (``oracle.error_rates``)."""
from __future__ import annotations

_RATES = ("wer", "cer", "mer", "wil", "wip", "error_counts")

PROBES = [
    # case and punctuation: "Hello," against "hello"; a tab and a double space between words
    # (tokenize: str.split against splitting on single spaces); leading and trailing spaces
    # (whitespace strip/keep/collapse/remove for the characters)
    ("case-punctuation", {"references": ["  Hello,  world\tnow "], "hypotheses": ["hello world now"]}),
    # case alone: under punctuation=keep, "Hello," is another word than "hello" whatever the case
    ("case", {"references": ["Hello world"], "hypotheses": ["hello world"]}),
    # punctuation alone, the case equal
    ("punctuation", {"references": ["hello, world"], "hypotheses": ["hello world"]}),
    # two utterances of different lengths: the corpus sums, the mean averages, contiguous aligns
    # the concatenation (the deletion at the first one's end meets the insertion at the next's start)
    ("two-utterances", {"references": ["a b c", "d"], "hypotheses": ["a b", "c d e f"]}),
    # an empty reference beside a non-empty one
    ("empty-reference", {"references": ["", "a b"], "hypotheses": ["x", "a b"]}),
    ("only-empty-reference", {"references": [""], "hypotheses": ["x"]}),
    ("both-empty", {"references": [""], "hypotheses": [""]}),
    # two tabs between words (jiwer collapses a run of 2+ whitespace to one space, splitting there;
    # split(' ') does not), and a space followed by a tab
    ("tabs", {"references": ["a\t\tb c \td"], "hypotheses": ["a b c d"]}),
    # "a b" against "b a": two substitutions, or a deletion and an insertion around a hit (the
    # same cost 2): tie rules pick different S, D, I
    ("swap", {"references": ["a b"], "hypotheses": ["b a"]}),
    # pairs on which the named tie rules' walks part (found by enumerating short pairs over a
    # three- and four-word vocabulary, the smallest kept): rapidfuzz's and sclite's walks against
    # the preference rules
    ("tie-walk-1", {"references": ["a c"], "hypotheses": ["c b"]}),
    ("tie-walk-2", {"references": ["c a c"], "hypotheses": ["b b c a"]}),
    ("tie-walk-3", {"references": ["b a a d a d b"], "hypotheses": ["d a c c b d"]}),
    # tie rules: "a b" against "b a" has minimum-cost alignments of 2 substitutions or of one
    # deletion and one insertion, which give different S, D, I (and MER, WIL)
    ("tied-alignments", {"references": ["a b c", "x y"], "hypotheses": ["b c d", "y"]}),
    ("tied-alignments-2", {"references": ["a b a b c"], "hypotheses": ["b a b a"]}),
    # unit: e + combining acute is one grapheme, two code points, and one NFC code point
    ("combining", {"references": ["cafe\u0301 x"], "hypotheses": ["café y"]}),
    ("emoji", {"references": ["👍🏽 ok"], "hypotheses": ["👍 ok"]}),
]


def never(metric: str, knob: str, a: str, b: str) -> str | None:
    if metric in ("wer", "cer") and knob == "tie" and "sclite" not in (a, b):
        return (f"{metric} is (S + D + I) / N, and S + D + I is the minimum edit cost, the same for every "
                "minimum-cost alignment: these tie rules only split it differently (sclite's walk minimises "
                "its own weighted cost, which need not be a minimum-unit-cost alignment)")
    return None
