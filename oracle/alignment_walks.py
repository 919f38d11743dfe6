"""The alignment each tie rule picks, for long pairs, by walking back pointers from
(n, m) over rows swept in reverse (``oracle.alignment_linear``): the same moves, in
the same order of preference, as ``oracle.alignment.backtrace`` and
``oracle.alignment.sclite_alignment`` make on the full band (definitions and sources
in ``oracle.error_rates``'s docstring).

The rows are integer keys. For diagonal-first, rapidfuzz and prefer-substitution the
key is F * BIG + I, the cost F of aligning the prefixes and the least insertion count
I among their optimal alignments (BIG > m): the unit-cost DP with weights (BIG, BIG,
BIG + 1) minimizes it lexicographically. For prefer-deletion-insertion it is
F * BIG - I with the greatest I (weights (BIG, BIG, BIG - 1)). A preference rule keeps
its target insertion count on the walk: with t the least (greatest) count of the
current cell, an optimal diagonal or deletion predecessor p carries t iff its own
least (greatest) count is t, and otherwise the insertion predecessor carries t - 1 (the
full band's test ``t in S(p)`` reduces to that, since t bounds S(p) from below (above)).
sclite's walk runs on its weighted costs (4, 3, 3)."""
from __future__ import annotations

from .alignment_linear import INF, Sweep, _codes, band_limits, levels_for
from .alignment_rules import DELETION, DIAGONAL, INSERTION, diagonal_first, rapidfuzz, step

WALK_RULES = ("diagonal-first", "rapidfuzz", "prefer-substitution", "prefer-deletion-insertion")


class _Rows:
    """The two lowest rows a descending sweep has yielded, read as (F, I) per cell."""

    def __init__(self, kmin: int, width: int, big: int, sign: int):
        self.kmin, self.width, self.big, self.sign = kmin, width, big, sign
        self.lo = None
        self.rows: dict = {}

    def push(self, i: int, row) -> None:
        self.rows[i] = row
        self.rows.pop(i + 2, None)
        self.lo = i

    def key(self, i: int, j: int) -> int:
        t = j - i - self.kmin
        if i < 0 or j < 0 or t < 0 or t >= self.width:
            return INF
        return int(self.rows[i][t])

    def f(self, i: int, j: int) -> int:
        k = self.key(i, j)
        if k >= INF // 2:
            return INF
        return k // self.big if self.sign > 0 else -(-k // self.big)

    def ins(self, i: int, j: int) -> int:
        k = self.key(i, j)
        return k % self.big if self.sign > 0 else -k % self.big


def _wait(r: _Rows, i: int):
    """Yield until row i - 1 is swept (nothing to wait for in row 0)."""
    while i > 0 and (r.lo is None or r.lo > i - 1):
        yield


def _walk(a, b, r: _Rows, rule: str):
    """One tie rule's walk, a generator that yields while it waits for a row; its
    return value is the ops list (kind, reference token or None, hypothesis token or None)."""
    c = r.f
    if rule == "rapidfuzz":
        return (yield from rapidfuzz(a, b, c, lambda i: _wait(r, i)))
    if rule == "diagonal-first":
        return (yield from diagonal_first(a, b, c, lambda i: _wait(r, i)))
    i, j = len(a), len(b)
    ops: list[tuple] = []
    # prefer-substitution (least insertions) or prefer-deletion-insertion (most)
    ins = r.ins
    yield from _wait(r, i)
    target = ins(i, j)
    while i > 0 or j > 0:
        yield from _wait(r, i)
        cur = c(i, j)
        if i > 0 and j > 0 and c(i - 1, j - 1) + (a[i - 1] != b[j - 1]) == cur and ins(i - 1, j - 1) == target:
            i, j = step(a, b, i, j, DIAGONAL, ops)
        elif i > 0 and c(i - 1, j) + 1 == cur and ins(i - 1, j) == target:
            i, j = step(a, b, i, j, DELETION, ops)
        else:
            i, j = step(a, b, i, j, INSERTION, ops)
            target -= 1
    ops.reverse()
    return ops


def _run_walks(a, b, sweep: Sweep, rows: _Rows, rules) -> dict:
    """Drive each rule's walk over one descending sweep; {rule: ops}."""
    return _drive(sweep, rows, {rule: _walk(a, b, rows, rule) for rule in rules})


def _drive(sweep: Sweep, rows: _Rows, walks: dict) -> dict:
    """Feed the rows of one descending sweep to the walks (generators that yield while
    they wait for a row) until each has returned; {name: its return value}."""
    done: dict = {}
    for i, row in sweep.rows_descending(levels_for(sweep.n, sweep.width)):
        rows.push(i, row)
        for rule in list(walks):
            try:
                next(walks[rule])
            except StopIteration as stop:
                done[rule] = stop.value
                del walks[rule]
        if not walks:
            break
    return done


class LinearBand:
    """What ``oracle.alignment.Band`` answers, for a long pair, without its matrix: the
    admissible insertion counts and each tie rule's alignment, computed when first asked."""

    def __init__(self, a, b, d: int):
        self.a, self.b, self.d = a, b, d
        self._iset = None
        self._ops: dict = {}

    def insertion_set(self) -> int:
        if self._iset is None:
            from .alignment_linear import admissible_insertions
            self._iset = admissible_insertions(self.a, self.b, self.d)
        return self._iset

    def walk(self, rule: str) -> list[tuple]:
        if rule not in self._ops:
            group = [rule] if rule == "prefer-deletion-insertion" else \
                [r for r in WALK_RULES if r != "prefer-deletion-insertion"]
            self._ops.update(walks(self.a, self.b, self.d, group))
        return self._ops[rule]


def walks(a, b, d: int, rules=WALK_RULES) -> dict:
    """{rule: the alignment the rule picks} for the unit-cost tie rules in ``rules``."""
    n, m = len(a), len(b)
    kmin, width = band_limits(n, m, d)
    ca, cb = _codes(a, b)
    big = m + 2
    out: dict = {}
    least = [r for r in rules if r != "prefer-deletion-insertion"]
    if least:
        sweep = Sweep(ca, cb, kmin, width, (big, big, big + 1))
        out.update(_run_walks(a, b, sweep, _Rows(kmin, width, big, +1), least))
    if "prefer-deletion-insertion" in rules:
        sweep = Sweep(ca, cb, kmin, width, (big, big, big - 1))
        out.update(_run_walks(a, b, sweep, _Rows(kmin, width, big, -1), ["prefer-deletion-insertion"]))
    return out


def sclite_walk(a, b, d: int, w_sub: int = 4, w_del: int = 3, w_ins: int = 3) -> list[tuple]:
    """sclite's back pointers from (n, m) over its weighted costs: the diagonal if it costs
    no more than the deletion and the insertion, else the deletion if strictly cheaper
    than the insertion, else the insertion (``oracle.alignment.sclite_alignment``), in
    the band of weighted bound floor(4d/3)."""
    n, m = len(a), len(b)
    kmin, width = band_limits(n, m, (4 * d) // 3)
    ca, cb = _codes(a, b)
    sweep = Sweep(ca, cb, kmin, width, (w_sub, w_del, w_ins))
    rows = _Rows(kmin, width, 1, +1)

    def walk():
        i, j = n, m
        ops: list[tuple] = []
        c = rows.f
        while i > 0 or j > 0:
            yield from _wait(rows, i)
            if j == 0 or i == 0:
                i, j = step(a, b, i, j, DELETION if j == 0 else INSERTION, ops)
                continue
            sub = c(i - 1, j - 1) + (0 if a[i - 1] == b[j - 1] else w_sub)
            dele = c(i - 1, j) + w_del
            ins = c(i, j - 1) + w_ins
            move = DIAGONAL if sub <= dele and sub <= ins else (DELETION if dele < ins else INSERTION)
            i, j = step(a, b, i, j, move, ops)
        ops.reverse()
        return ops

    return _drive(sweep, rows, {"sclite": walk()})["sclite"]
