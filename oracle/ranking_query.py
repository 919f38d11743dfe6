"""One query of a ranking metric: its documents grouped by score under the tie rule
(``_profile``), the profile the per-query measures read (``oracle.ranking_measures``;
formulas and sources in ``oracle.ranking``'s docstring)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import chain, compress, repeat, takewhile
from operator import and_, itemgetter

from .conventions import InputError
from .ranking_forms import (_add_discounted, _add_form, _as_form, _base_exp, _discount, _form_expr,  # noqa: F401
                            _form_quotient, _form_ratio, _fraction_sum, _ideal_form)
from .ranking_inputs import _Ranking, _exact

# Shortcuts taken when no interesting document shares its score (the usual case):
# the same exact values by a shorter way. Tests turn them off to compare.
_SHORTCUTS = True


# ---------------------------------------------------------- query profile


# the largest |grade| whose exponential gain 2**g - 1 is computed (an integer of about
# 4096 bits; graded judgements in use stay below 10)
MAX_EXPONENTIAL_GRADE = 4096


def gain_of(grade: int, settings: dict) -> Fraction:
    """Gain of a grade: linear g, exponential 2^g - 1, binary [g >= threshold];
    0 for g < 0 under negative=zero and for g < threshold under threshold_gains=no."""
    thr = int(settings["threshold"])
    mode = settings.get("gain", "binary")
    if mode == "binary":
        return Fraction(int(grade >= thr))
    if grade < 0 and settings["negative"] == "zero":
        return Fraction(0)
    if grade < thr and settings["threshold_gains"] == "no":
        return Fraction(0)
    if mode == "linear":
        return Fraction(grade)
    if abs(grade) > MAX_EXPONENTIAL_GRADE:
        raise InputError(f"qrels: grade {grade}: the exponential gain 2**g - 1 is computed exactly only for "
                         f"|g| <= {MAX_EXPONENTIAL_GRADE}", item="qrels")
    return Fraction(2) ** grade - 1


def _groups(rk: _Ranking, members: list, rule: str):
    """Tie groups holding the interesting documents ``members`` = [(doc, rel, gain)].

    Returns ([(start, size, relevant_count, gain_sum)] in rank order, {doc: rank} or None).
    Under a deterministic rule every group is a single rank (members without ties
    take the shortcut of ``_untied_profile``)."""
    keys, n_all = rk.keys, len(rk.keys)
    asc = rk.asc
    if not rk.rounded and rule in ("trec_eval", "input-order"):
        # float keys are the exact scores: a member's rank is 1 + the documents scored
        # above it + those of its tie group placed before it (trec_eval: larger docno
        # first; input-order: earlier first), one group of one rank per member
        placed = []
        for d, rel, g in members:
            s = keys[d]
            lo, hi = bisect_left(asc, s), bisect_right(asc, s)
            t = n_all - hi + 1
            if hi - lo > 1:
                docs = rk.sharing(s)
                t += sum(map(d.__lt__, docs)) if rule == "trec_eval" else docs.index(d)
            placed.append((t, d, int(rel), g))
        placed.sort()
        return [(t, 1, r, g) for t, _, r, g in placed], {d: t for t, d, _, _ in placed}
    found: dict = {}
    for d, rel, g in members:
        s = keys[d]
        lo, hi = bisect_left(asc, s), bisect_right(asc, s)
        t, n, docs = n_all - hi + 1, hi - lo, None
        if n > 1 and (rk.rounded or rule in ("trec_eval", "input-order")):
            docs = rk.sharing(s)
            if rk.rounded:
                ex = {x: _exact(rk.scores[x]) for x in docs}
                e = ex[d]
                t += sum(1 for x in docs if ex[x] > e)
                docs = [x for x in docs if ex[x] == e]
                n = len(docs)
        entry = found.get(t)
        if entry is None:
            found[t] = entry = (t, n, docs, [])
        entry[3].append((d, rel, g))
    groups, ranks = [], ({} if rule != "expected" else None)
    for t in sorted(found):
        _, n, docs, mem = found[t]
        if rule == "expected" or n == 1:
            groups.append((t, n, sum(1 for m in mem if m[1]), sum((m[2] for m in mem), Fraction(0))))
            if n == 1 and ranks is not None:
                ranks[mem[0][0]] = t
            continue
        if rule in ("optimistic", "pessimistic"):
            zero = (False, Fraction(0))
            ordered = sorted(mem, key=lambda m: (m[1], m[2]), reverse=True)
            better = [m for m in ordered if (m[1], m[2]) > zero]
            worse = [m for m in ordered if (m[1], m[2]) < zero]
            seq = better + [None] * (n - len(mem)) + worse
            if rule == "pessimistic":
                seq.reverse()
            placed = [(t + i, m) for i, m in enumerate(seq) if m is not None]
        else:
            order = sorted(docs, reverse=True) if rule == "trec_eval" else docs
            at = {x: i for i, x in enumerate(order)}
            placed = sorted((t + at[m[0]], m) for m in mem)
        for rank, m in placed:
            groups.append((rank, 1, int(m[1]), m[2]))
            ranks[m[0]] = rank
    groups.sort()
    return groups, ranks


class _Profile:
    """One query: N ranked, R relevant, the ideal gains, the tie groups of the
    interesting documents, their ranks. ``top`` is set when every group is a
    single rank: the ranks of the relevant documents, ascending (the measures then
    take shortcuts that give the same exact values).

    ``members`` (the untied profiles of ``_untied_profile``): (ranks, docs, grades,
    gains or None, threshold, whether ranks are kept) of the members in input order;
    the groups and ranks are then made from them when first read (a TREC-DL-sized
    query has a few hundred members, and NDCG@10 reads the groups of the top ten); a
    relevant part's are (the whole profile's members, threshold) until first read."""
    __slots__ = ("n", "relevant", "ideal", "_groups", "_ranks", "top", "_members")

    def __init__(self, n, relevant, ideal, groups, ranks, top=None, members=None):
        self.n, self.relevant, self.ideal, self._groups, self._ranks = n, relevant, ideal, groups, ranks
        self.top, self._members = top, members
        if top is None and members is None and _SHORTCUTS and (not groups or max(map(itemgetter(1), groups)) == 1):
            self.top = [t for t, _, r, _ in groups if r]

    @property
    def groups(self) -> list:
        if self._members is not None:
            self._place()
        return self._groups

    @property
    def ranks(self):
        if self._members is not None:
            self._place()
        return self._ranks

    def _lists(self) -> tuple:
        """The members tuple, a relevant part's lists made now (``relevant_part``)."""
        m = self._members
        if len(m) == 2:   # (the whole profile's members, threshold): keep the relevant ones
            (rs, ds, gs, _, _, keep_ranks), thr = m
            rel = list(map(thr.__le__, gs))
            m = self._members = (list(compress(rs, rel)), list(compress(ds, rel)), list(compress(gs, rel)), None, thr,
                                 keep_ranks)
        return m

    def _place(self) -> None:
        rs, ds, gs, gain, thr, keep_ranks = self._lists()
        placed = sorted(zip(rs, ds, gs))
        ts = list(map(itemgetter(0), placed))
        if gain is None:
            self._groups = list(zip(ts, repeat(1), repeat(1), repeat(Fraction(0))))
        else:
            gs = list(map(itemgetter(2), placed))
            self._groups = list(zip(ts, repeat(1), map(int, map(thr.__le__, gs)), map(gain.__getitem__, gs)))
        self._ranks = dict(zip(map(itemgetter(1), placed), ts)) if keep_ranks else None
        self._members = None

    def head(self, k: int) -> list:
        """The groups that start at a rank <= k, in rank order."""
        if self._members is None:
            return list(takewhile(lambda g: g[0] <= k, self._groups))
        rs, _, gs, gain, thr, _ = self._lists()
        within = sorted(compress(zip(rs, gs), map(k.__ge__, rs)))
        if gain is None:
            return [(t, 1, 1, Fraction(0)) for t, _ in within]
        return [(t, 1, int(thr <= g), gain[g]) for t, g in within]

    def relevant_part(self, thr: int):
        """The untied profile of the relevant members only (gain 0), or None when this
        profile is not an untied one."""
        if self._members is None:
            return None
        # its member lists are made when first read (MAP reads only ``top``, the relevant ranks)
        return _Profile(self.n, self.relevant, (), None, None, self.top, (self._lists(), thr))


def _profile(rk: _Ranking | None, judged: dict, settings: dict, with_gains: bool) -> _Profile:
    thr = int(settings["threshold"])
    graded = Counter(judged.values())   # {grade: how many documents}; grades are ints
    relevant = sum(c for g, c in graded.items() if g >= thr)
    scores = rk.scores if rk is not None else {}
    members, ideal = [], ()
    table = rk.table(judged) if _SHORTCUTS and rk is not None else None
    if with_gains:
        # one gain per distinct grade; the ideal vector from the count of each positive gain
        # (an integral gain held as an int: the ideal vectors hash fast; the forms made
        # from them divide with Fraction)
        gain = {g: _whole_gain(g, gain_rule(settings)) for g in graded}
        if settings.get("ideal", "judged") == "judged":
            counts = graded
        else:
            counts = Counter(g for d, g in judged.items() if d in scores)
        per_gain = Counter()
        for g, c in counts.items():
            if gain[g] > 0:
                per_gain[gain[g]] += c
        ideal = tuple(chain.from_iterable(repeat(v, per_gain[v]) for v in sorted(per_gain, reverse=True)))
        if settings.get("negative") == "ideal":
            if any(v > 0 for v in gain.values()):   # a relevant document (else no_relevant decides)
                ideal += _ideal_tail(counts, gain, len(scores), settings.get("ideal", "judged"))
        wanted = {g for g, v in gain.items() if v != 0 or g >= thr}
        if table is not None:
            p = _untied_profile(len(scores), relevant, ideal, table, judged, wanted.__contains__, gain, thr,
                                settings["ties"], rk)
            if p is not None:
                return p
        members = [(d, g >= thr, gain[g]) for d, g in judged.items() if g in wanted and d in scores]
    else:
        zero = Fraction(0)
        if table is not None:
            p = _untied_profile(len(scores), relevant, ideal, table, judged, thr.__le__, None, thr, settings["ties"],
                                rk)
            if p is not None:
                return p
        members = [(d, True, zero) for d, g in judged.items() if g >= thr and d in scores]
    if not members:
        return _Profile(len(scores), relevant, ideal, [], {} if settings["ties"] != "expected" else None)
    groups, ranks = _groups(rk, members, settings["ties"])
    return _Profile(len(scores), relevant, ideal, groups, ranks)


def gain_rule(settings: dict) -> tuple:
    """The settings ``gain_of`` reads: (threshold, gain, negative, threshold_gains)."""
    return (settings["threshold"], settings.get("gain", "binary"), settings.get("negative"),
            settings.get("threshold_gains"))


@lru_cache(maxsize=4096)
def _whole_gain(grade: int, rule: tuple):
    """``gain_of(grade)`` under (threshold, gain, negative, threshold_gains), an int when
    it is whole."""
    thr, gain, negative, threshold_gains = rule
    v = gain_of(grade, {"threshold": thr, "gain": gain, "negative": negative, "threshold_gains": threshold_gains})
    return v.numerator if v.denominator == 1 else v


def _ideal_tail(counts: Counter, gain: dict, retrieved: int, ideal_set: str) -> tuple:
    """Under negative=ideal, what follows the positive gains in the ideal ranking: the zero
    gains (each a place) and then the negative gains, in descending order; empty when no gain
    is negative (the zeros then change nothing). The ideal set is the judged documents
    (ideal=judged) or the retrieved ones (ideal=retrieved, an unjudged one of gain 0). Called
    for a query with a positive gain among its judgements only: one without is the no_relevant
    knob's, as under the other values."""
    negative = Counter()
    nonzero = 0
    for g, c in counts.items():
        if gain[g] < 0:
            negative[gain[g]] += c
        if gain[g] != 0:
            nonzero += c
    if not negative:
        return ()
    zeros = (sum(c for g, c in counts.items() if gain[g] == 0) if ideal_set == "judged"
             else retrieved - nonzero)
    return (Fraction(0),) * zeros + tuple(chain.from_iterable(repeat(v, negative[v])
                                                              for v in sorted(negative, reverse=True)))


def ideal_sign(form: dict) -> int:
    """The sign of sum_b c_b / log2(b) (an ideal DCG with negative terms), decided on
    intervals of growing precision; an InputError if 4096 bits do not separate it from 0."""
    if all(c > 0 for c in form.values()):
        return 1
    if all(c < 0 for c in form.values()):
        return -1
    from .certified import interval
    x = _form_expr(form)
    bits = 64
    while bits <= 4096:
        lo, hi = interval(x, bits)
        if lo > 0:
            return 1
        if hi < 0:
            return -1
        bits *= 4
    raise InputError("negative=ideal: the ideal DCG's sign is not decided at 4096 bits (is it 0?)",
                     item="qrels")


def _untied_profile(n, relevant, ideal, table, judged, wanted, gain, thr, rule, rk) -> _Profile | None:
    """The profile of a query when every member (a retrieved judged document whose
    grade is ``wanted``) has a rank of its own: none shares its sort key (see
    ``_Ranking.table``), or the rule breaks ties by document (trec_eval: the larger
    docno first; input-order: the earlier first), a tied member's rank then being its
    table rank plus the documents of its tie group placed before it (``_tie_broken``);
    else None. What ``_groups`` gives, one single-rank group per
    member in rank order, built by C-level passes. ``gain`` None: the members are the
    relevant documents, with gain 0 (the rational measures)."""
    docs, ranks, sizes, grades = table
    sel = list(map(wanted, grades))
    if sizes is not None and max(compress(sizes, sel), default=1) != 1:
        if rule not in ("trec_eval", "input-order"):
            return None
        ranks = _tie_broken(rk, docs, ranks, sizes, sel, rule)
    rs, gs = list(compress(ranks, sel)), list(compress(grades, sel))
    top = sorted(rs) if gain is None else sorted(compress(rs, map(thr.__le__, gs)))
    return _Profile(n, relevant, ideal, None, None, top,
                    (rs, list(compress(docs, sel)), gs, gain, thr, rule != "expected"))


def _tie_broken(rk: _Ranking, docs: list, ranks: list, sizes: list, sel: list, rule: str) -> list:
    """The table's ranks (1 + the documents whose sort key is larger) with each tied member
    moved down past the documents of its tie group placed before it: under trec_eval those
    with a larger docno (m_*.c sort by score, then docno descending), under input-order
    those earlier in the input; the rank ``_groups`` gives it. Where the keys are rounded
    (scores read as decimal texts), the documents sharing a member's key are told apart by
    their exact scores first: those above it come before it, and only those equal to it
    form its tie group (a larger key is a larger score: rounding is monotone)."""
    ranks = list(ranks)
    keys, scores = rk.keys, rk.scores
    tied = list(compress(range(len(sizes)), map(and_, map((1).__lt__, sizes), sel)))   # tied members
    groups = rk.sharing_each({keys[docs[i]] for i in tied})
    for i in tied:
        d = docs[i]
        group = groups[keys[d]]
        if rk.rounded:
            ex = {x: _exact(scores[x]) for x in group}
            e = ex[d]
            ranks[i] += sum(1 for x in group if ex[x] > e)
            group = [x for x in group if ex[x] == e]
        ranks[i] += sum(map(d.__lt__, group)) if rule == "trec_eval" else group.index(d)
    return ranks
