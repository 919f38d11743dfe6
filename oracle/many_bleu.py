"""Corpus and sentence BLEU under many settings at once (``oracle.many``).

N-grams (orders 1..N+1) are counted once per (tokenizer, case); every
smoothing, reference-length rule, effective order and level is derived from
those statistics with ``oracle.bleu.bleu_from_stats`` (Papineni et al. 2002,
eq. 1-2; smoothing as in ``oracle.bleu``). A mean of many segment values is a
``TermMean`` (``oracle.certified``).
"""
from __future__ import annotations

from fractions import Fraction

from .bleu import _check_corpus, bleu_from_stats, reference_length, segment_stats
from .certified import TermMean
from .exact import Undefined
from .tokenizers import TOKENIZERS


def fast_segment_term(m, t, c, r, s):
    """The sentence BLEU of one segment from its statistics, as a segment form
    ``(a, num, den, k)`` = exp(a) * (num/den)**(1/k) or a Fraction, for the smoothing
    methods none, floor, add-k and exp with uniform weights (the oracle's
    ``bleu_from_stats`` formulas, kept in integers); None for every other case
    (the caller asks ``bleu_from_stats``)."""
    method = s["smoothing"]
    if method not in ("none", "floor", "add-k", "exp") or s["weights"] != "uniform" or c == 0:
        return None
    N = int(s["order"])
    used = N
    if s["effective_order"] == "yes":
        used = sum(1 for x in t[:N] if x > 0)
        if used == 0:
            return None
    value = None if s["smoothing_value"] == "-" else Fraction(s["smoothing_value"])
    num = den = 1
    inv = 1
    for n in range(used):
        mn, tn = m[n], t[n]
        if method == "none" or (method == "add-k" and n == 0):
            if mn == 0:
                return Fraction(0)
            num *= mn
            den *= tn
        elif method == "floor":
            if tn == 0:
                return None
            if mn:
                num *= mn
                den *= tn
            else:
                num *= value.numerator
                den *= value.denominator * tn
        elif method == "add-k":
            num *= mn * value.denominator + value.numerator
            den *= tn * value.denominator + value.numerator
        else:  # exp
            if tn == 0:
                continue
            if mn == 0:
                inv *= 2
                den *= inv * tn
            else:
                num *= mn
                den *= tn
    a = None if c >= r else 1 - Fraction(r) / c
    return (a, num, den, used)


def bleu_values(inputs, settings_list: list) -> list:
    """Corpus BLEU under every setting from n-gram statistics counted once per (tokenizer, case)."""
    hyps, refs = _check_corpus(inputs)
    stats_cache: dict = {}
    seg_cache: dict = {}
    value_cache: dict = {}
    out = []
    for s in settings_list:
        N = int(s["order"])
        tc = (s["tokenizer"], s["case"], N)
        st = stats_cache.get(tc)
        if st is None:
            tok = TOKENIZERS[s["tokenizer"]]
            lower = s["case"] == "lower"
            segs = []
            for h, rs in zip(hyps, refs):
                if lower:
                    h, rs = h.lower(), [r.lower() for r in rs]
                segs.append(segment_stats(tok(h), [tok(r) for r in rs], N + 1))
            M = [sum(sg[0][n] for sg in segs) for n in range(N + 1)]
            T = [sum(sg[1][n] for sg in segs) for n in range(N + 1)]
            C = sum(sg[2] for sg in segs)
            st = stats_cache[tc] = {"segs": segs, "M": M, "T": T, "C": C, "R": {}, "r": {}}
        rule = s["ref_length"]
        if rule not in st["r"]:
            st["r"][rule] = [reference_length(sg[2], sg[3], rule) for sg in st["segs"]]
            R = sum(st["r"][rule], Fraction(0))
            st["R"][rule] = R.numerator if R.denominator == 1 else R
        smooth_key = (s["smoothing"], s["smoothing_value"], s["weights"])
        if s["level"] == "corpus":
            eff = s["effective_order"] if any(t == 0 for t in st["T"][:N]) else "-"
            key = (tc, st["R"][rule], smooth_key, eff, "corpus")
            v = value_cache.get(key)
            if v is None:
                v, _, _ = bleu_from_stats(st["M"][:N], st["T"][:N], st["C"], st["R"][rule], s, st["M"][N], st["T"][N])
                value_cache[key] = v
            out.append(v)
            continue
        rs = st["r"][rule]
        short = any(sg[2] < N for sg in st["segs"])
        key = (tc, tuple(rs), smooth_key,
               s["effective_order"] if short else "-", "mean")
        v = value_cache.get(key)
        if v is None:
            terms = []
            for i, sg in enumerate(st["segs"]):
                eff = s["effective_order"] if sg[2] < N else "-"
                k2 = (tc, i, rs[i], smooth_key, eff)
                t = seg_cache.get(k2)
                if t is None:
                    t = fast_segment_term(sg[0], sg[1], sg[2], rs[i], s)
                    if t is None:
                        t, _, _ = bleu_from_stats(sg[0][:N], sg[1][:N], sg[2], rs[i], s, sg[0][N], sg[1][N])
                    seg_cache[k2] = t
                terms.append(t)
            bad = next((i for i, t in enumerate(terms) if isinstance(t, Undefined)), None)
            if bad is not None:
                v = Undefined(f"segment {bad}: {terms[bad].reason}")
            elif all(type(t) is Fraction for t in terms):
                v = sum(terms, Fraction(0)) / len(terms)
            else:
                v = TermMean(terms)
            value_cache[key] = v
        out.append(v)
    return out
