"""chrF and chrF++, exactly: character n-gram F-score (Popović 2015, "chrF: character
n-gram F-score for automatic MT evaluation", WMT) and its word n-gram extension
(Popović 2017, "chrF++: words helping character n-grams", WMT), as sacrebleu 2.x
computes them (sacrebleu/metrics/chrf.py, helpers.py).

Segment statistics. With whitespace removed (``whitespace=no``: ``''.join(s.split())``)
or kept, the character n-grams of orders 1..C (``char_order``, default 6) are the
substrings of length n; with ``word_order`` W > 0 (2: chrF++) the word n-grams of
orders 1..W are taken over the words of ``s.split()`` with one leading or trailing
punctuation character split off a word longer than one character (chrF++.py;
sacrebleu ``_remove_punctuation``: '(hi)' gives '(hi' and ')'). For each order and
reference: hyp = the hypothesis n-grams (counted as 0 when the reference has none of
that order: sacrebleu "Don't count hits if no reference exists for that n-gram"),
ref = the reference n-grams, match = sum over n-grams of min(hyp count, ref count).
With several references the segment takes the statistics of the reference with the
highest segment F (the first of equal ones; sacrebleu ``_compute_segment_statistics``).

Corpus statistics are the sums over segments; then, with beta (default 2) and per
order n: P_n = match/hyp, R_n = match/ref,

- ``smoothing=effective-order`` (sacrebleu's default since 2.0): over the orders with
  hyp > 0 and ref > 0, chrP = mean P_n, chrR = mean R_n, and chrF = (1 + beta^2) chrP
  chrR / (beta^2 chrP + chrR) (Popović 2015, eq. 1: the F-score of the averaged
  precision and recall); 0 when no order qualifies or chrP + chrR = 0.
- ``smoothing=eps`` (sacrebleu ``eps_smoothing=True``, "similar to reference chrF++.py,
  NLTK and Moses"): P_n = e when hyp = 0, R_n = e when ref = 0, F_n = (1 + beta^2) P_n
  R_n / (beta^2 P_n + R_n) (e when the denominator is 0), chrF = the mean of F_n over
  all C + W orders; e = 1/10**16 (sacrebleu's ``eps = 1e-16``, read as the decimal).

``sentence_chrf`` is one segment. ``case=lower`` lowercases (str.lower) first;
``scale=percent`` multiplies by 100 (sacrebleu's score). Values are rationals.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from .bleu import _check_corpus, _check_fields, _check_refs, _check_string
from .conventions import Knob, Metric, Result

POPOVIC = "Popović 2015, chrF: character n-gram F-score for automatic MT evaluation (WMT)"
POPOVIC17 = "Popović 2017, chrF++: words helping character n-grams (WMT)"
SB = "sacrebleu 2.x metrics/chrf.py"
CHRFPP = "chrF++.py (m-popovic/chrF, the author's script for Popović 2015 and 2017)"
EPS = Fraction(1, 10 ** 16)
_PUNCTS = set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def _knobs() -> tuple:
    return (
        Knob("char_order", "maximum character n-gram order C", "6", kind="int", minimum=1, key="nc",
             sources={"*": f"{POPOVIC} (n = 6); {SB} CHAR_ORDER = 6"}),
        Knob("word_order", "maximum word n-gram order W (0: chrF, 2: chrF++)", "0", kind="int", minimum=0,
             key="nw", sources={"*": f"{POPOVIC17} (word 2-grams); {SB} WORD_ORDER = 0"}),
        Knob("beta", "weight of recall against precision", "2", kind="int", minimum=1, key="beta",
             sources={"*": f"{POPOVIC} (beta = 3 in 2015; 2 from WMT16, W16-2341); {SB} BETA = 2"}),
        Knob("whitespace", "whether spaces are characters of the n-grams", "no", choices=("no", "yes"),
             key="space", sources={"no": f"{CHRFPP} separate_characters(): line.strip().replace(' ', '') (spaces "
                                         f"are no characters); {SB} whitespace=False: ''.join(line.split())",
                                   "yes": f"{SB} whitespace=True"}),
        Knob("case", "lower: str.lower() on every segment first", "mixed", choices=("mixed", "lower"),
             key="case", sources={"mixed": f"{CHRFPP}: characters compared as given (no case folding)",
                                  "lower": f"{SB} lowercase=True"}),
        Knob("smoothing", "orders without n-grams: left out of the averages, or smoothed with 1e-16",
             "effective-order", choices=("effective-order", "eps"), key="smooth",
             sources={"effective-order": f"{SB} eps_smoothing=False (the default since 2.0)",
                      "eps": f"{CHRFPP} ngram_precrecf / computeChrF: an order without n-grams gets P = R = 1e-16; "
                             f"{SB} eps_smoothing=True (NLTK, Moses alike)"},
             unspecified=f"{POPOVIC} averages chrP and chrR over the orders and says nothing of an order without "
                         "n-grams; the author's chrF++.py smooths it with 1e-16, sacrebleu 2.x leaves it out"),
        Knob("scale", "fraction (0..1) or percent (0..100)", "fraction", choices=("fraction", "percent"),
             key="scale", sources={"fraction": POPOVIC, "percent": "sacrebleu score"}),
    )


# ----------------------------------------------------------------- n-grams


def _words(s: str) -> list:
    out = []
    for w in s.split():
        if len(w) == 1:
            out.append(w)
        elif w[-1] in _PUNCTS:
            out += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


def _ngrams(s: str, settings: dict) -> list:
    """Counters of the character orders 1..C, then the word orders 1..W."""
    if settings["case"] == "lower":
        s = s.lower()
    line = s if settings["whitespace"] == "yes" else "".join(s.split())
    out = [Counter(line[i:i + n] for i in range(len(line) - n + 1)) for n in range(1, int(settings["char_order"]) + 1)]
    w = int(settings["word_order"])
    if w:
        words = _words(s)
        out += [Counter(" ".join(words[i:i + n]) for i in range(len(words) - n + 1)) for n in range(1, w + 1)]
    return out


def _stats(hyp: list, ref: list) -> list:
    """[(hyp, ref, match)] per order."""
    out = []
    for h, r in zip(hyp, ref):
        match = sum(min(c, r[g]) for g, c in h.items() if g in r)
        out.append((sum(h.values()) if r else 0, sum(r.values()), match))
    return out


def f_score(stats: list, settings: dict) -> Fraction:
    """chrF of summed statistics (the module docstring's two smoothings), as a fraction."""
    b2 = Fraction(int(settings["beta"])) ** 2
    if settings["smoothing"] == "eps":
        total = Fraction(0)
        for h, r, m in stats:
            p = Fraction(m, h) if h else EPS
            rec = Fraction(m, r) if r else EPS
            den = b2 * p + rec
            total += (1 + b2) * p * rec / den if den else EPS
        return total / len(stats)
    used = [(Fraction(m, h), Fraction(m, r)) for h, r, m in stats if h and r]
    if not used:
        return Fraction(0)
    p = sum((x for x, _ in used), Fraction(0)) / len(used)
    rec = sum((y for _, y in used), Fraction(0)) / len(used)
    return (1 + b2) * p * rec / (b2 * p + rec) if p + rec else Fraction(0)


def segment_stats(hypothesis: str, references, settings: dict) -> tuple[list, int]:
    """(statistics of the best reference, its index): the highest segment F, the first of equals."""
    hyp = _ngrams(hypothesis, settings)
    best, best_f, best_i = None, None, 0
    for i, ref in enumerate(references):
        st = _stats(hyp, _ngrams(ref, settings))
        f = f_score(st, settings)
        if best_f is None or f > best_f:
            best, best_f, best_i = st, f, i
    return best, best_i


def _result(stats: list, settings: dict, chosen: list) -> Result:
    value = f_score(stats, settings)
    if settings["scale"] == "percent":
        value *= 100
    parts = {"chosen_reference": chosen}
    for n, (h, r, m) in enumerate(stats, start=1):
        parts[f"precision_{n}"] = Fraction(m, h) if h else None
        parts[f"recall_{n}"] = Fraction(m, r) if r else None
    parts = {k: v for k, v in parts.items() if v is not None}
    return Result(value, stats={"hyp": [h for h, _, _ in stats], "ref": [r for _, r, _ in stats],
                                "match": [m for _, _, m in stats]}, parts=parts)


def _compute_corpus(inputs, settings) -> Result:
    """chrF of a corpus: the segments' best-reference statistics summed, then F."""
    hyps, refs = _check_corpus(inputs, "chrF")
    orders = int(settings["char_order"]) + int(settings["word_order"])
    total = [[0, 0, 0] for _ in range(orders)]
    chosen = []
    for h, rs in zip(hyps, refs):
        st, i = segment_stats(h, rs, settings)
        chosen.append(i)
        for acc, s in zip(total, st):
            for j in range(3):
                acc[j] += s[j]
    return _result([tuple(t) for t in total], settings, chosen)


def _compute_sentence(inputs, settings) -> Result:
    """chrF of one hypothesis against its references."""
    _check_fields(inputs, ("hypothesis", "references"))
    _check_string(inputs["hypothesis"], "hypothesis")
    _check_refs(inputs["references"], "references")
    st, i = segment_stats(inputs["hypothesis"], inputs["references"], settings)
    return _result(st, settings, [i])


CHRF = Metric(
    name="chrf", family="chrf",
    summary="Corpus chrF (chrF++ with word_order=2): F-beta of character (and word) n-gram precision and recall",
    knobs=_knobs(),
    inputs={"hypotheses": "list of hypothesis strings, one per segment",
            "references": "references[i]: the list (>= 1) of reference strings of hypotheses[i]"},
    compute_fn=_compute_corpus)

SENTENCE_CHRF = Metric(
    name="sentence_chrf", family="chrf",
    summary="chrF (chrF++) of one hypothesis against its references",
    knobs=_knobs(),
    inputs={"hypothesis": "the hypothesis string", "references": "list (>= 1) of reference strings"},
    compute_fn=_compute_sentence)
