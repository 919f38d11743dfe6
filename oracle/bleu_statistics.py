"""BLEU from its sufficient statistics: the score of given pooled counts, as sacrebleu's
``BLEU.compute_bleu(correct, total, sys_len, ref_len, ...)`` and NLTK's
``corpus_bleu`` internals compute it, without the texts.

Inputs: ``matches`` m_1..m_N and ``totals`` t_1..t_N (non-negative integers, m_n <=
t_n), ``hyp_len`` c (an integer >= 0) and ``ref_len`` r (a rational >= 0: the
``average`` reference length is one); for smoothing cc5 and cc7, ``next_order_matches``
m_{N+1}. The score is ``oracle.bleu``'s (Papineni et al. 2002 eq. 1-2 on pooled
counts, with the same smoothing, no-match, effective-order, weights and scale knobs);
the tokenizer, case, reference-length rule and level act before the statistics exist,
so they are not knobs here.

Statistics no text can give are refused with the offending item named: m_n > t_n,
t_1 != c (every token is a unigram), t_{n+1} > t_n (at most one n-gram starts at each
token, at every segment and so in the sum).
"""
from __future__ import annotations

from fractions import Fraction

from .bleu import _check_fields, _knobs, _normalize
from .bleu_stats import _scaled, bleu_from_stats
from .conventions import InputError, Metric, Result

_FIELDS = ("matches", "totals", "hyp_len", "ref_len")
_OPTIONAL = ("next_order_matches", "next_order_totals")


def _count(x, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise InputError(f"{where}: expected a non-negative integer, got {type(x).__name__} {x!r}", item=where)
    if x < 0:
        raise InputError(f"{where}: expected a non-negative integer, got {x}", item=where)
    return x


def _length(x, where: str):
    if isinstance(x, str):
        try:
            x = Fraction(x)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{where}: expected a non-negative rational, got {x!r}", item=where) from None
    if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
        raise InputError(f"{where}: expected a non-negative integer or rational (as text, '7/2'), "
                         f"got {type(x).__name__} {x!r}", item=where)
    if x < 0:
        raise InputError(f"{where}: expected a non-negative length, got {x}", item=where)
    return x.numerator if isinstance(x, Fraction) and x.denominator == 1 else x


def read_statistics(inputs, order: int) -> tuple:
    """(matches, totals, c, r, next_match) of a ``bleu_statistics`` input, checked."""
    _check_fields(inputs, _FIELDS, _OPTIONAL)
    lists = {}
    for f in ("matches", "totals"):
        v = inputs[f]
        if isinstance(v, str) or not isinstance(v, (list, tuple)):
            raise InputError(f"{f}: expected a list of {order} counts, got {type(v).__name__}", item=f)
        if len(v) != order:
            raise InputError(f"{f}: {len(v)} counts for order {order}; give one per order 1..{order}", item=f)
        lists[f] = [_count(x, f"{f}[{i}]") for i, x in enumerate(v)]
    m, t = lists["matches"], lists["totals"]
    for i in range(order):
        if m[i] > t[i]:
            raise InputError(f"matches[{i}]: {m[i]} matched {i + 1}-grams of only {t[i]} (totals[{i}])",
                             item=f"matches[{i}]")
    c = _count(inputs["hyp_len"], "hyp_len")
    r = _length(inputs["ref_len"], "ref_len")
    if t[0] != c:
        raise InputError(f"totals[0]: {t[0]} unigrams but {c} hypothesis tokens (hyp_len); every token is a "
                         "unigram", item="totals[0]")
    for i in range(1, order):
        if t[i] > t[i - 1]:
            raise InputError(f"totals[{i}]: {t[i]} {i + 1}-grams but only {t[i - 1]} {i}-grams (totals[{i - 1}])",
                             item=f"totals[{i}]")
    nxt = inputs.get("next_order_matches", 0)
    nxt = _count(nxt, "next_order_matches")
    nxt_t = _count(inputs.get("next_order_totals", 0), "next_order_totals")
    if "next_order_totals" in inputs:
        if nxt > nxt_t:
            raise InputError(f"next_order_matches: {nxt} matched {order + 1}-grams of only {nxt_t} "
                             "(next_order_totals)", item="next_order_matches")
        if nxt_t > t[-1]:
            raise InputError(f"next_order_totals: {nxt_t} {order + 1}-grams but only {t[-1]} {order}-grams "
                             f"(totals[{order - 1}])", item="next_order_totals")
    return m, t, c, r, nxt, nxt_t


def _compute(inputs, settings) -> Result:
    N = int(settings["order"])
    m, t, c, r, nxt, nxt_t = read_statistics(inputs, N)
    method = settings["smoothing"]
    if method in ("cc5", "cc7", "nltk5", "nltk7") and "next_order_matches" not in inputs:
        raise InputError(f"next_order_matches: smoothing {method} averages with the order-{N + 1} "
                         "match count; give it", item="next_order_matches")
    if method in ("nltk5", "nltk7") and "next_order_totals" not in inputs:
        raise InputError(f"next_order_totals: smoothing {method} averages with the order-{N + 1} "
                         "precision; give its total", item="next_order_totals")
    value, parts, extra = bleu_from_stats(m, t, c, r, settings, nxt, nxt_t)
    stats = {"matches": m, "totals": t, "hyp_len": c, "ref_len": r, **extra}
    return Result(_scaled(value, settings), stats, parts)


_TEXT_KNOBS = ("tokenizer", "case", "ref_length")
_KNOBS = tuple(k for k in _knobs(False) if k.name not in _TEXT_KNOBS)

BLEU_STATISTICS = Metric(
    name="bleu_statistics", family="bleu",
    summary="BLEU of given sufficient statistics (pooled matches, totals, hypothesis and reference lengths)",
    knobs=_KNOBS,
    inputs={"matches": "m_1..m_N, clipped n-gram matches", "totals": "t_1..t_N, hypothesis n-grams",
            "hyp_len": "c, hypothesis tokens", "ref_len": "r, reference length (an integer, or a rational as text)",
            "next_order_matches": "m_{N+1} (smoothing cc5 and cc7 only)"},
    compute_fn=_compute, normalize_fn=_normalize)
