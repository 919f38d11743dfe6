"""Alignment of long sequences in memory linear in their lengths: banded NumPy sweeps
that keep a few rows, never the matrix.

The sweeps run row by row over the band of diagonals that minimum-cost paths can
use (``oracle.alignment.Band``), one int64 vector per row: the diagonal and deletion
candidates elementwise, then the insertion chain F[t] = min_{t' <= t} (C[t'] +
w_ins (t - t')) as cummin(C - w_ins t) + w_ins t. ``Sweep.rows_descending`` gives the
rows last to first by checkpointed reversal (Bennett 1989's time-memory trade: a few
kept rows per level, one forward sweep per level).

- The admissible (S, D, I) counts (``admissible_insertions``) need only the cells of
  minimum-cost paths: (i, j) lies on one iff F(i, j) + G(i, j) = d, with F the cost of
  the prefixes and G of the suffixes (the forward-backward argument of Hirschberg
  1975); G is the sweep of the reversed sequences, read backwards. The insertion-count
  sets are carried from one row of such cells to the next.
- The tie rules' alignments (``oracle.alignment_walks``) follow back pointers from
  (n, m), which need the rows in reverse order: F and, for the two preference rules,
  the least or greatest insertion count of an optimal prefix alignment, swept as one
  integer key F * BIG + I (or F * BIG - I), compared lexicographically.

Memory: O(levels * (n + 1)**(1/levels) * width) for a sweep's kept rows, plus two
rows of tight cells; all values are exact integers."""
from __future__ import annotations

import math

import numpy as np

INF = 1 << 60


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

    def rows_descending(self, levels: int = 3):
        """(i, row i) for i = n, ..., 0 in O(levels * B) rows of memory, B = (n + 1)**(1/levels):
        the range is swept forward keeping B evenly spaced rows, then each stretch between
        two kept rows is done the same way, last stretch first (a checkpointed reversal:
        ``levels`` forward sweeps in all)."""
        n = self.n
        b = max(2, math.ceil((n + 1) ** (1 / levels)))
        yield from self._descending(0, self.first(), n, b)

    def _descending(self, start: int, first: np.ndarray, end: int, b: int):
        count = end - start + 1
        if count <= b:
            rows = [first]
            for i in range(start + 1, end + 1):
                rows.append(self.next(i, rows[-1]))
            for k in range(count - 1, -1, -1):
                yield start + k, rows[k]
                rows[k] = None
            return
        step = -(-count // b)
        marks = [(start, first)]
        row = first
        for i in range(start + 1, end + 1):
            row = self.next(i, row)
            if (i - start) % step == 0:
                marks.append((i, row))
        row = None
        e = end
        for k in range(len(marks) - 1, -1, -1):
            s, first_row = marks[k]
            marks[k] = None
            yield from self._descending(s, first_row, e, b)
            e = s - 1


def levels_for(n: int, width: int) -> int:
    """Two levels of checkpoints (two sweeps) while their 2 sqrt(n) rows take at most
    64 MB, else three (three sweeps, 3 n**(1/3) rows)."""
    return 2 if 2 * math.isqrt(n + 1) * width * 8 <= 64 * 2 ** 20 else 3


def admissible_insertions(a, b, d: int) -> int:
    """The set of insertion counts (an int bit set) of the minimum-cost alignments of a
    with b, over the tight cells only: G's rows come from the reversed sweep read
    backwards, F's from the forward sweep, and the prefix sets of one row at a time:
    S(i, j) = S(i-1, j-1) [diagonal at cost F] | S(i-1, j) [deletion] | S(i, j-1) << 1
    [insertion], each term only when that predecessor is tight and the move is optimal."""
    n, m = len(a), len(b)
    kmin, width = band_limits(n, m, d)
    ca, cb = _codes(a, b)
    fwd = Sweep(ca, cb, kmin, width, (1, 1, 1))
    rev = Sweep(ca[::-1].copy(), cb[::-1].copy(), kmin, width, (1, 1, 1))
    back = rev.rows_descending(levels_for(n, width))  # reversed row n - i is G of row i, read backwards
    row = None
    pc: dict = {}
    ps: dict = {}
    for i in range(n + 1):
        row = fwd.first() if i == 0 else fwd.next(i, row)
        ri, grow = next(back)
        assert ri == n - i
        both = row + grow[::-1]
        idx = np.flatnonzero(both == d).tolist()
        base = i + kmin
        rc: dict = {}
        rs: dict = {}
        x = a[i - 1] if i else None
        for t, f in zip(idx, row[idx].tolist()):
            j = base + t
            if i == 0 and j == 0:
                st = 1
            else:
                st = 0
                if i and j and pc.get(j - 1, INF) + (x != b[j - 1]) == f:
                    st = ps[j - 1]
                if pc.get(j, INF) + 1 == f:
                    st |= ps[j]
                if rc.get(j - 1, INF) + 1 == f:
                    st |= rs[j - 1] << 1
            rc[j] = f
            rs[j] = st
        pc, ps = rc, rs
    return ps.get(m, 0)
