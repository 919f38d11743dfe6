"""trec_eval's gain measures over one query (``oracle.ranking_trec.Judged``): binG, G,
Rndcg and ndcg_rel (trec_eval 9.0.8 m_binG.c, m_G.c, m_Rndcg.c, m_ndcg_rel.c), as
closed forms: a DCG-like form {b: c} stands for sum_b c / log2(b).

Gains are trec_eval's defaults (gain_init.c setup_gains: relevance level i has gain i;
a document not in the pool, or in it unjudged, has gain 0); the ideal gains are the
qrels' positive grades in descending order."""
from __future__ import annotations

from fractions import Fraction

from .exact import product, total
from .ranking_query import _add_discounted, _form_expr, _form_quotient


def _bin_g(j, s=None) -> dict:
    """binG = (1/R) sum_{relevant at rank i} 1/log2(2 + i - H_i) (trec_eval m_binG.c), as
    a form {b: c} (sum c / log2 b)."""
    acc: dict = {}
    if not j.relevant:
        return acc
    share, h = Fraction(1, j.relevant), 0
    for i, f in enumerate(j.flags, start=1):
        if f:
            h += 1
            _add_discounted(acc, i - h + 1, share)   # 1/log2(2 + (i - h)): the discount of rank i - h + 1
    return acc


# the gain measures: default gains (setup_gains in gain_init.c: level i has gain i; a
# document not in the pool or unjudged has gain 0); the ideal is the qrels' positive
# grades in descending order


def _gains(j) -> list:
    return [c if c > 0 else 0 for c in j.codes]


def _dcg(gains: list, k: int) -> dict:
    acc: dict = {}
    for i, g in enumerate(gains[:k], start=1):
        if g:
            _add_discounted(acc, i, Fraction(g))
    return acc


def _ndcg_point(gains: list, ideal: tuple, k_run: int, k_ideal: int):
    den = _dcg(list(ideal), k_ideal)
    return _form_quotient(_dcg(gains, k_run), den, _form_expr(den))


def _mean_of(values: list, n: int | None = None):
    """sum(values) / n (n = len(values)), a rational when every value is one."""
    n = len(values) if n is None else n
    if all(type(v) is Fraction for v in values):
        return sum(values, Fraction(0)) / n
    return product([Fraction(1, n), total(values)])


def _rndcg(j, s=None):
    """Rndcg = the mean of DCG@min(c, N) / IDCG@c over the cutoffs c at which the ideal
    gain changes (the cumulative counts of the positive grades, descending), with N added
    when the ideal ends before N ("a final implied R-level change at num_retrieved");
    0 when R = 0 (trec_eval m_Rndcg.c). trec_eval's loop misses that last point when N
    is exactly one more than the ideal's length (it leaves the loop at i = N and the test
    ``if (i < res_rels.num_ret)`` fails): the mean loses that point, and a gain at rank N
    counts nowhere; a trec_eval defect (tests/test_ranking_trec.py)."""
    ideal = j.ideal
    if not j.relevant or not ideal:
        return Fraction(0)
    cuts, t = [], 0
    for i, g in enumerate(ideal):
        t += 1
        if i + 1 == len(ideal) or ideal[i + 1] != g:
            cuts.append(t)
    n = len(j.codes)
    if n > cuts[-1]:
        cuts.append(n)
    gains = _gains(j)
    return _mean_of([_ndcg_point(gains, ideal, min(c, n), c) for c in cuts])


def _ndcg_rel(j, s=None):
    """ndcg_rel = (1/P) (sum over retrieved documents of positive gain at rank i of
    DCG@i / IDCG@min(i, P) + (P - those) DCG@N / IDCG@P), P the qrels' documents of
    positive grade; 0 when none is retrieved (trec_eval m_ndcg_rel.c; 'relevant is
    defined as expected gain > 0', whatever the threshold)."""
    ideal = j.ideal
    gains = _gains(j)
    big_p, n = len(ideal), len(gains)
    points = [_ndcg_point(gains, ideal, i, min(i, big_p)) for i, g in enumerate(gains, start=1) if g > 0]
    if not points:
        return Fraction(0)
    if big_p > len(points):
        points.append(product([Fraction(big_p - len(points)), _ndcg_point(gains, ideal, n, big_p)]))
    return _mean_of(points, big_p)


def _g(j, s=None) -> dict:
    """G = (1/sum I) sum over retrieved documents of gain g_i > 0 of g_i / log2(2 +
    sum_{t <= i} max(I_t, 1) - sum_{t <= i} g_t), I the ideal gains (0 past their end)
    (trec_eval m_G.c, min_cost 1.0); 0 when the ideal is empty. The argument is an
    integer >= 2 (the ideal prefix sums bound the run's), so each term has DCG's form."""
    ideal = j.ideal
    whole = sum(ideal)
    acc: dict = {}
    if not whole:
        return acc
    cost = got = 0
    for i, g in enumerate(_gains(j)):
        cost += max(ideal[i] if i < len(ideal) else 0, 1)
        got += g
        if g:
            _add_discounted(acc, 1 + cost - got, Fraction(g, whole))
    return acc
