"""Alignment of long sequences in linear memory: the cells of minimum-cost paths
("tight" cells), found by a forward and a backward banded sweep, and nothing else.

A cell (i, j) lies on a minimum-cost alignment iff F(i, j) + G(i, j) = d, where F
is the cost of aligning the prefixes a[:i], b[:j], G the cost of aligning the
suffixes a[i:], b[j:], and d = F(n, m) (the classical forward-backward argument
behind Hirschberg 1975). Every predecessor a backtrace can step to from a tight cell
along an optimal move is tight too (F(p) + cost = F(c) and G(p) <= cost + G(c)),
so a backtrace and the admissible (S, D, I) sets need the tight cells only.

The sweeps run row by row over the band of diagonals that minimum-cost paths can
use (``oracle.alignment.Band``), one NumPy integer vector per row: the diagonal and
deletion candidates elementwise, then the insertion chain F[t] = min_{t' <= t}
(C[t'] + w_ins (t - t')) as cummin(C - w_ins t) + w_ins t. G is the forward sweep of
the reversed sequences; its rows are wanted in the opposite order, so the backward
sweep keeps every K-th row (K ~ sqrt(n)) and recomputes one block of K rows at a
time: memory O(sqrt(n) * width) for the sweeps, plus the tight cells (about one
per row for similar sequences) with their F values and insertion-count sets.

All values are exact integers (int64; the largest is (n + m) times the largest
weight). ``TightBand`` answers the same questions as ``Band`` (``c``, ``s``,
``insertion_set``), so ``oracle.alignment.backtrace`` runs on it unchanged;
``sclite_walk`` follows sclite's back pointers through the tight cells."""
from __future__ import annotations

import math

import numpy as np

INF = 1 << 60
STORED_INF = np.iinfo(np.int32).max  # rows kept for later are stored as int32


def _codes(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Tokens as integers (equal tokens, equal codes)."""
    table: dict = {}
    ca = np.fromiter((table.setdefault(t, len(table)) for t in a), dtype=np.int64, count=len(a))
    cb = np.fromiter((table.setdefault(t, len(table)) for t in b), dtype=np.int64, count=len(b))
    return ca, cb


def band_limits(n: int, m: int, d: int) -> tuple[int, int]:
    """(kmin, width) of the diagonals k = j - i with |k| + |(m - n) - k| <= d."""
    delta = m - n
    kmin = -((d - delta) // 2)
    return kmin, (delta + d) // 2 - kmin + 1


class Sweep:
    """The banded forward DP of one pair of code vectors with weights (sub, del, ins):
    row i holds F(i, i + kmin + t) for t in range(width), INF outside 0 <= j <= m."""

    def __init__(self, ca: np.ndarray, cb: np.ndarray, kmin: int, width: int, weights: tuple[int, int, int]):
        self.ca, self.n, self.m = ca, len(ca), len(cb)
        self.kmin, self.width = kmin, width
        self.ws, self.wd, self.wi = weights
        # b padded so that row i's tokens b[j - 1] (j = i + kmin + t) are one slice
        self.pad = width + abs(kmin) + 2
        self.bp = np.concatenate([np.full(self.pad, -1, np.int64), cb, np.full(self.pad, -1, np.int64)])
        self.t = np.arange(width, dtype=np.int64)
        self.wit = self.wi * self.t

    def _valid(self, i: int) -> tuple[int, int]:
        base = i + self.kmin
        return max(0, -base), min(self.width, self.m - base + 1)

    def first(self) -> np.ndarray:
        row = np.full(self.width, INF, np.int64)
        t0, t1 = self._valid(0)
        if t0 < t1:
            row[t0:t1] = self.wi * (self.kmin + self.t[t0:t1])
        return row

    def next(self, i: int, prev: np.ndarray) -> np.ndarray:
        """Row i from row i - 1."""
        lo = self.pad + i + self.kmin - 1
        mismatch = self.bp[lo:lo + self.width] != self.ca[i - 1]
        cand = prev + self.ws * mismatch
        np.minimum(cand[:-1], prev[1:] + self.wd, out=cand[:-1])
        t0, t1 = self._valid(i)
        cand[:t0] = INF
        cand[t1:] = INF
        if i + self.kmin <= 0 < i + self.kmin + self.width:  # the cell j = 0: i deletions
            cand[-(i + self.kmin)] = self.wd * i
        cand -= self.wit
        np.minimum.accumulate(cand, out=cand)
        cand += self.wit
        cand[t1:] = INF
        cand[:t0] = INF
        return cand

    def rows_descending(self):
        """(i, row i) for i = n, ..., 0, keeping every K-th row and recomputing blocks."""
        n = self.n
        k = max(1, math.isqrt(n + 1))
        marks = {}
        row = self.first()
        marks[0] = _store(row)
        for i in range(1, n + 1):
            row = self.next(i, row)
            if i % k == 0:
                marks[i] = _store(row)
        start = (n // k) * k
        while start >= 0:
            row = _load(marks.pop(start))
            block = [_store(row)]
            for i in range(start + 1, min(start + k, n + 1)):
                row = self.next(i, row)
                block.append(_store(row))
            for off in range(len(block) - 1, -1, -1):
                yield start + off, _load(block[off])
            block = None
            start -= k


def _store(row: np.ndarray) -> np.ndarray:
    """A row as int32 (INF as STORED_INF; finite values are below 4 (n + m) < 2**31)."""
    return np.minimum(row, STORED_INF).astype(np.int32)


def _load(row: np.ndarray) -> np.ndarray:
    out = row.astype(np.int64)
    out[out == STORED_INF] = INF
    return out


class TightBand:
    """The tight cells of the pair (a, b) under weights (sub, del, ins) in the band of
    cost bound ``bound``: per row, {j: F(i, j)}; with unit weights also the set of
    insertion counts (an int bit set) of the minimum-cost alignments of each prefix
    pair that ends in a tight cell. The same interface as ``oracle.alignment.Band``."""

    def __init__(self, a, b, d: int, weights: tuple[int, int, int] = (1, 1, 1), bound: int | None = None):
        self.a, self.b, self.d = a, b, d
        n, m = len(a), len(b)
        assert 4 * (n + m) < STORED_INF, "a pair this long does not fit the int32 rows"
        kmin, width = band_limits(n, m, d if bound is None else bound)
        ca, cb = _codes(a, b)
        fwd = Sweep(ca, cb, kmin, width, weights)
        rev = Sweep(ca[::-1].copy(), cb[::-1].copy(), kmin, width, weights)
        ws, wd, wi = weights
        unit = weights == (1, 1, 1)
        cost: list[dict] = []
        sets: list[dict] = []
        back = rev.rows_descending()  # reversed row n - i is G of row i, read backwards
        row = None
        total = None
        for i in range(n + 1):
            row = fwd.first() if i == 0 else fwd.next(i, row)
            ri, grow = next(back)
            assert ri == n - i
            both = row + grow[::-1]
            if total is None:  # every path crosses row 0: its least F + G is the optimum
                total = int(both.min())
            idx = np.flatnonzero(both == total).tolist()
            base = i + kmin
            fvals = row[idx].tolist()
            rc = {}
            rs = {}
            if unit:
                pc = cost[i - 1] if i else {}
                ps = sets[i - 1] if i else {}
                x = a[i - 1] if i else None
                for t, f in zip(idx, fvals):
                    j = base + t
                    if i == 0 and j == 0:
                        s = 1
                    else:
                        s = 0
                        if i and j and pc.get(j - 1, INF) + (x != b[j - 1]) == f:
                            s = ps[j - 1]
                        if pc.get(j, INF) + 1 == f:
                            s |= ps[j]
                        if rc.get(j - 1, INF) + 1 == f:
                            s |= rs[j - 1] << 1
                    rc[j] = f
                    rs[j] = s
            else:
                rc = {base + t: f for t, f in zip(idx, fvals)}
            cost.append(rc)
            sets.append(rs)
        self.total, self.weights = total, weights
        self.cost, self.sets = cost, sets

    def c(self, i: int, j: int) -> int:
        if i < 0 or j < 0:
            return INF
        return self.cost[i].get(j, INF)

    def s(self, i: int, j: int) -> int:
        if i < 0 or j < 0:
            return 0
        return self.sets[i].get(j, 0)

    def insertion_set(self) -> int:
        return self.s(len(self.a), len(self.b))

    def cells(self) -> int:
        return sum(map(len, self.cost))


def sclite_walk(a, b, tb: TightBand) -> list[tuple]:
    """sclite's back pointers followed from (n, m) through the tight cells of the
    weighted DP: at a cell of cost f, the diagonal if it reaches f (sub <= del and
    sub <= ins), else the insertion if it reaches f (del < ins fails exactly when the
    insertion is optimal), else the deletion; see ``oracle.alignment.sclite_alignment``."""
    i, j = len(a), len(b)
    ops: list[tuple] = []
    c = tb.c
    w_sub, wd, wi = tb.weights
    while i > 0 or j > 0:
        f = c(i, j)
        if i > 0 and j > 0 and c(i - 1, j - 1) + (0 if a[i - 1] == b[j - 1] else w_sub) == f:
            ops.append(("C" if a[i - 1] == b[j - 1] else "S", a[i - 1], b[j - 1]))
            i, j = i - 1, j - 1
        elif j > 0 and c(i, j - 1) + wi == f:
            ops.append(("I", None, b[j - 1]))
            j -= 1
        else:
            assert c(i - 1, j) + wd == f
            ops.append(("D", a[i - 1], None))
            i -= 1
    ops.reverse()
    return ops
