"""The per-query ranking measures on a query's profile (``oracle.ranking_query``): hit,
reciprocal rank, P@K, recall, R-precision, AP, and the DCG form (the forms' algebra is
``oracle.ranking_forms``; formulas and sources in ``oracle.ranking``'s docstring)."""
from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from operator import mul
from typing import TYPE_CHECKING

from .ranking_forms import _add_discounted, _as_form

if TYPE_CHECKING:
    from .ranking_query import _Profile


# ------------------------------------------------- per-query measures


def _cut(k: str, n: int) -> int:
    return n if k == "none" else int(k)


def _in_top(t: int, n: int, k: int) -> int:
    """How many ranks of the group t..t+n-1 lie within the top k."""
    return max(0, min(n, k - t + 1))


def _hits(p: _Profile, k: int) -> Fraction:
    """E[H_k] = sum_g r_g * m_g / n_g (without ties: the relevant ranks up to k)."""
    if p.top is not None:
        return Fraction(bisect_right(p.top, k))
    return sum((Fraction(r * _in_top(t, n, k), n) for t, n, r, _ in p.groups if r), Fraction(0))


def _hit(p: _Profile, s: dict):
    k = _cut(s["k"], p.n)
    for t, n, r, _ in p.groups:
        if not r:
            continue
        m = _in_top(t, n, k)
        if m == 0:
            return Fraction(0)
        if m == n:
            return Fraction(1)
        return 1 - Fraction(comb(n - r, m), comb(n, m))
    return Fraction(0)


def _rr(p: _Profile, s: dict):
    k = _cut(s["k"], p.n)
    if p.top is not None:
        return Fraction(1, p.top[0]) if p.top and p.top[0] <= k else Fraction(0)
    for t, n, r, _ in p.groups:
        if not r:
            continue
        acc = Fraction(0)
        for j in range(1, n - r + 2):
            if t + j - 1 > k:
                break
            acc += Fraction(comb(n - j, r - 1), t + j - 1)
        return acc / comb(n, r)
    return Fraction(0)


def _precision(p: _Profile, s: dict):
    if s["k"] == "none":
        return _hits(p, p.n) / p.n if p.n else Fraction(0)
    k = int(s["k"])
    den = k if s["precision_denominator"] == "k" else min(k, p.n)
    return _hits(p, k) / den if den else Fraction(0)


def _recall(p: _Profile, s: dict):
    return _hits(p, _cut(s["k"], p.n)) / p.relevant if p.relevant else Fraction(0)


def _r_precision(p: _Profile, s: dict):
    return _hits(p, p.relevant) / p.relevant if p.relevant else Fraction(0)


def _harmonic(t: int, m: int) -> tuple[Fraction, Fraction]:
    """(sum_{a<m} 1/(t+a), sum_{a<m} a/(t+a))."""
    h = sum((Fraction(1, t + a) for a in range(m)), Fraction(0))
    w = sum((Fraction(a, t + a) for a in range(1, m)), Fraction(0))
    return h, w


def _ap_terms(t: int, n: int, r: int, m: int, before: int) -> Fraction:
    """E[sum over the group's first m ranks i of rel_i * H_i / i] with `before`
    relevant documents ranked above the group: rank t+a holds a relevant document
    with probability r/n, and a relevant one together with a given earlier rank
    of the group with probability r(r-1)/(n(n-1))."""
    if r == 0 or m == 0:
        return Fraction(0)
    h, w = _harmonic(t, m)
    out = Fraction(r * (before + 1), n) * h
    if n > 1 and r > 1:
        out += Fraction(r * (r - 1), n * (n - 1)) * w
    return out


@lru_cache(maxsize=16)
def _rank_multiples(bound: int) -> tuple[int, list]:
    """(L, [L // t for t = 0..bound]) with L = lcm(1..bound) (index 0 unused): the common
    denominator of the AP terms j / t_j of a query whose ranks are at most ``bound``."""
    den = lcm(*range(1, bound + 1))
    return den, [0] + [den // t for t in range(1, bound + 1)]


def _ap_untied(top: list, k: int) -> tuple[int, int, int]:
    """(numerator, denominator, hits) of the AP sum without ties, not reduced: the j-th
    relevant document at rank t_j <= k adds j / t_j; the sum is one integer over a common
    denominator L: lcm(t_1..t_m), or for many ranks lcm(1..B), B the power of two (64 to
    1024) at or above the last rank, whose multiples L // t are kept (no lcm per query)."""
    m = bisect_right(top, k)
    if not m:
        return 0, 1, 0
    ts = top[:m]
    last = ts[-1]
    if m >= 16 and last <= 1024:
        den, multiples = _rank_multiples(max(64, 1 << (last - 1).bit_length()))
        return sum(map(mul, range(1, m + 1), map(multiples.__getitem__, ts))), den, m
    den = lcm(*ts)
    return sum(map(mul, range(1, m + 1), map(den.__floordiv__, ts))), den, m


def _ap_denominator(p: _Profile, s: dict, k: int, hits):
    """D of AP = (1/D) sum_{i<=K} rel_i H_i / i under ``ap_denominator``: R (relevant),
    min(K, R) (min-k-relevant; R without a cutoff), or the relevant documents retrieved
    within the cut (retrieved-relevant, ``hits``)."""
    rule = s["ap_denominator"]
    if rule == "relevant":
        return p.relevant
    if rule == "min-k-relevant":
        return min(k, p.relevant) if s["k"] != "none" else p.relevant
    return hits


def _ap(p: _Profile, s: dict):
    k = _cut(s["k"], p.n)
    if p.top is not None:
        # (sum / den) / D as one Fraction (the sum is not reduced first)
        num, sden, hits = _ap_untied(p.top, k)
        d = _ap_denominator(p, s, k, hits)
        return Fraction(num, sden * d) if d and num else Fraction(0)
    straddle = None
    before, num, hits = 0, Fraction(0), Fraction(0)
    for t, n, r, _ in p.groups:
        m = _in_top(t, n, k)
        if r and m:
            if m < n and s["ap_denominator"] == "retrieved-relevant":
                straddle = (t, n, r, m, before)
            else:
                num += _ap_terms(t, n, r, m, before)
                hits += Fraction(r * m, n)
        before += r
    if straddle is None:
        d = _ap_denominator(p, s, k, hits)
        return num / d if d else Fraction(0)
    t, n, r, m, before = straddle
    out = Fraction(0)
    for x in range(max(0, m - (n - r)), min(r, m) + 1):
        px = Fraction(comb(r, x) * comb(n - r, m - x), comb(n, m))
        h = hits + x
        if h:
            # given x relevant among the group's m ranks within the cut, they are uniform over those m
            out += px * (num + _ap_terms(t, m, x, m, before)) / h
    return out


# ------------------------------------------------------------ DCG forms


def _dcg_form(p: _Profile, k: int) -> dict:
    """{b: c_b}: DCG@k = sum_b c_b / log2(b), each rank's gain share discounted
    (``_add_discounted``)."""
    acc: dict = {}
    for t, n, _, g in p.head(k):
        if not g:
            continue
        if n == 1:   # a rank of its own (every group of an untied profile)
            _add_discounted(acc, t, g)
            continue
        share = Fraction(g, n)
        for i in range(t, t + _in_top(t, n, k)):
            _add_discounted(acc, i, share)
    return _as_form(acc)
