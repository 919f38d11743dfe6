"""Separating probes of BLEU (``oracle.bleu``, ``oracle.tokenizers``, ``oracle.bleu_statistics``)."""
from __future__ import annotations

_TEXT = ("bleu", "sentence_bleu")


def _pair(name: str, hyp: str, refs: list[str]):
    """One segment, as corpus BLEU and as sentence BLEU take it."""
    return [(name, {"hypotheses": [hyp], "references": [list(refs)]}, ("bleu",)),
            (name, {"hypothesis": hyp, "references": list(refs)}, ("sentence_bleu",))]


def _rule_probes():
    """One segment per rule of each tokenizer (``oracle.tokenizers.RULE_TEXTS``): the rule's
    text inside a sentence, against a reference that is the sentence as that tokenizer
    splits it (the same tokens under it, other tokens under a tokenizer without the rule)."""
    from oracle.tokenizers import RULE_TEXTS, tokenize
    out = []
    for name, rules in RULE_TEXTS.items():
        for rule, text in rules:
            hyp = f"we saw {text} there today"
            out += _pair(f"tokenizer-{name}-{rule}", hyp, [" ".join(tokenize(hyp, name))])
    return out


PROBES = [
    *_rule_probes(),
    # clipping (Papineni et al. 2002, section 2.1): each n-gram counts at most as often as the
    # reference holds it: "the" 3 times against 2 in the reference counts 2, "the cat" 3
    # times against 1 counts 1 (unigrams 3/6 clipped, 6/6 not; bigrams 1/5, 3/5)
    *_pair("clipping", "the cat the cat the cat", ["the cat is on the mat"]),
    # clipping against several references: an n-gram counts at most its largest count in any
    # one reference (Papineni et al. 2002, sec. 2.1, "the maximum number of times a word occurs
    # in any single reference translation"), not the sum over them. By hand: "a" and "b" twice in
    # the hypothesis, once in each reference: unigrams 4/6 (summed: 6/6), bigrams ab ab ba bc cd
    # 3/5 (summed 4/5), trigrams 2/4, 4-grams 1/3, BP 1: BLEU = (1/15)**(1/4)
    *_pair("clipping-references", "a b a b c d", ["a b c d x y", "a b c d z w"]),
    # every n-gram order up to 7 matches partly: each order N a different precision product
    *_pair("long-match", "a b c d e f g h x", ["a b c d e f g h y z"]),
    # 13a splits ASCII punctuation off words ("world," -> "world ,"), none does not, intl also
    # splits the Unicode punctuation and symbols (the guillemets), char splits every character
    *_pair("punctuation", "Hello, «world»: it costs $3.50, ok?", ["Hello , « world » : it costs $ 3.50 , ok ?"]),
    # case: lower folds É and W; lower-ascii folds only A-Z (mteval's tr/[A-Z]/[a-z]/)
    *_pair("case", "École Was here ok now", ["école was here ok now"]),
    # ref_length: references of 6 and 4 tokens around a 5-token hypothesis (closest tie: the
    # shorter 4 or the first listed 6; shortest 4; average 5)
    *_pair("ref-length-tie", "a b c d e", ["a b c d e f", "a b c d"]),
    # the closest reference (5 tokens) is not the shortest (2) nor the average (3.5)
    *_pair("ref-length-closest", "a b c d", ["a b c d e", "a b"]),
    # the closest reference (4) against the average (6)
    *_pair("ref-length-average", "a b c d", ["a b c d", "a b c d e f g h"]),
    # no 4-gram matches: every smoothing differs
    *_pair("zero-4gram", "a b c x", ["a b c d"]),
    # no 3- or 4-gram matches, and 2 of 3 bigrams
    *_pair("zero-3gram", "a b x c d", ["a b y c d"]),
    # no unigram matches at all: no_match=zero gives 0 before any smoothing
    *_pair("no-match", "x y z w", ["a b c d"]),
    # an empty hypothesis against an empty reference (c = r = 0): no_match=zero gives 0 before
    # anything else is computed (sacrebleu >= 2.0 'if not any(correct)', nltk), smooth leaves BP
    # and every precision 0/0, undefined; under smoothing none and add-k (which smooths the
    # orders above 1 only), the only input where the two differ
    *_pair("empty-pair", "", [""]),
    # two tokens: no 3-grams and 4-grams in the hypothesis (effective_order drops them)
    *_pair("short", "a b", ["a b"]),
    # two segments of different lengths and quality: the corpus pools, the sentence mean does not
    ("two-segments", {"hypotheses": ["a b c d e f", "x b"], "references": [["a b c d e f"], ["a b"]]}, ("bleu",)),
    ("two-segments-zero", {"hypotheses": ["a b c d e", "x y z w"], "references": [["a b c d x"], ["a b c d"]]},
     ("bleu",)),
    # statistics: every order partly matched, the hypothesis shorter than the reference
    ("statistics", {"matches": [5, 3, 2, 1], "totals": [6, 5, 4, 3], "hyp_len": 6, "ref_len": 8},
     ("bleu_statistics",)),
    ("statistics-zero", {"matches": [3, 1, 0, 0], "totals": [4, 3, 2, 1], "hyp_len": 4, "ref_len": 5},
     ("bleu_statistics",)),
    ("statistics-no-match", {"matches": [0, 0, 0, 0], "totals": [4, 3, 2, 1], "hyp_len": 4, "ref_len": 5},
     ("bleu_statistics",)),
    ("statistics-short", {"matches": [2, 1, 0, 0], "totals": [2, 1, 0, 0], "hyp_len": 2, "ref_len": 2},
     ("bleu_statistics",)),
    # N = 1..6 orders (the input's length is its order), with the counts of order N + 1 that
    # cc5, cc7, nltk5 and nltk7 read, one order of them zero
    *[(f"statistics-order-{n}", {"matches": [5, 3, 2, 0, 1, 1, 1][:n], "totals": [7, 6, 5, 4, 3, 2, 1][:n],
                                 "hyp_len": 7, "ref_len": 9, "next_order_matches": [5, 3, 2, 0, 1, 1, 1][n],
                                 "next_order_totals": [7, 6, 5, 4, 3, 2, 1][n]}, ("bleu_statistics",))
      for n in range(1, 7)],
]

CONTEXTS = {
    "smoothing_value": [{"smoothing": "floor"}, {"smoothing": "add-k"}, {"smoothing": "cc6"}],
    "no_match": [{"smoothing": "floor"}, {"smoothing": "add-k", "smoothing_value": "1"}],
}


def never(metric: str, knob: str, a: str, b: str) -> str | None:
    if metric == "bleu_statistics" and knob in ("tokenizer", "case", "ref_length"):
        return (f"bleu_statistics scores given counts and lengths: {knob} acts on the text before they are "
                "counted")
    return None
