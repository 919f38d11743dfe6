"""The admissible insertion counts and the unit-cost tie rules' alignments of long pairs,
over the cells of minimum-cost paths only (``PrunedBand``).

The cells of minimum-cost paths are those with F + G = d (F of the
prefixes, G of the suffixes; Hirschberg 1975); G comes from one banded sweep of
the reversed pair, kept at checkpoint columns. A DP from column 0 carries F and
the insertion-count sets, keeping only the cells with F + lb <= d, lb a lower bound
on G read from the next checkpoint column; every cell of a minimum-cost path passes
that test, so the DP is exact on them. When it would visit too many cells (highly
repetitive pairs, where most of the band ties) ``solve`` says so and the caller
sweeps the band instead (``oracle.alignment_walks.LinearBand``).

Memory: the kept columns of G (the band's width in bits each) and the cells the DP
keeps (a few per column on natural text) with their sets."""
from __future__ import annotations

from array import array
from functools import reduce
from operator import or_

import numpy as np

from .alignment_bits import INF, BandedColumns, band_of, unpack


def _reversed_band(n: int, m: int, kmin: int, kmax: int) -> tuple[int, int]:
    """The band of the reversed pair: cell (i, j) is (n - i, m - j) there, diagonal
    k is (m - n) - k."""
    return (m - n) - kmax, (m - n) - kmin


class PrunedBand:
    """The admissible-set DP of a long pair over the cells that can lie on a
    minimum-cost path, with d and the columns of G at checkpoints from one banded
    sweep of the reversed pair (``solve``); ``insertion_set`` and, when the cells were
    stored, ``walk`` answer what ``oracle.alignment.Band`` answers.

    S(i, j) = S(i-1, j-1) [diagonal, when optimal] | S(i-1, j) [deletion] |
    S(i, j-1) << 1 [insertion], over the cells kept: dp(i, j) + lb <= d, where lb,
    over the diagonal k = j - i, is G(J - k, J) at the next checkpoint column J (G is
    1-Lipschitz along a column, so this is min_s G(s, J) + |k - (J - s)|, a lower
    bound on G(i, j)); at each checkpoint column only the cells with dp + G = d are
    kept. dp >= F everywhere and dp = F on every cell of a minimum-cost path (each
    of its predecessors on the path is kept, by induction), so those cells, and
    their sets, are exact. The walks test only optimal predecessors of such cells,
    which are such cells themselves; a cell not kept reads as infinite."""

    def __init__(self, a, b, upper: int, spacing: int = 64, budget: int = 12, store: str | None = "sets",
                 share: bool = True):
        """``store``: what the walks will read: "sets" (every rule), "costs" (F only:
        diagonal-first and rapidfuzz), None (no walk, the admissible set only).
        ``share``: sweep every cell of the reversed band and keep it as ``unit`` for
        sclite's bound (``oracle.alignment_weighted``); otherwise the sweep keeps only
        the cells of paths of cost <= ``upper`` (``BandedColumns.run_pruned``)."""
        self.a, self.b = a, b
        self.spacing, self.budget, self.store, self.share = spacing, budget, store, share
        n, m = len(a), len(b)
        kmin, kmax = band_of(n, m, upper)
        self.kmin, self.kmax = min(kmin, m - n - 1), max(kmax, m - n + 1)   # the reversed band holds -1..1 too
        self.upper = upper
        self.d = None
        self.unit = None
        self.iset = None
        self.columns: list = []

    def solve(self) -> bool:
        """Run the sweep and the DP; False when the DP would visit more than
        ``budget`` * (n + m) cells (the caller then sweeps the band instead)."""
        a, b = self.a, self.b
        n, m = len(a), len(b)
        kmin, kmax = self.kmin, self.kmax
        marks = list(range(0, m, self.spacing)) + [m]
        rev = BandedColumns(a[::-1], b[::-1], *_reversed_band(n, m, kmin, kmax))
        if self.share:                    # every cell of the band (sclite's bound reads them)
            d, rkept = rev.run([m - j for j in marks])
            self.unit = (rev, rkept, self.upper, kmin, kmax, self.spacing)
        else:                             # only the cells of paths of cost <= upper
            d, rkept = rev.run_pruned(self.upper, [m - j for j in marks])
        self.d = d
        limit = self.budget * (n + m)
        visited = 0
        width = kmax - kmin + 1
        store = self.columns if self.store else None
        pack = self._packed if self.store == "sets" else self._costs
        offset = 0                            # the sets are kept shifted down by offset (small ints)
        cur_lo, cur_c, cur_s = 0, [], []
        for mi, J in enumerate(marks):
            g0r, gvr = rev.column(m - J, rkept[m - J])
            gv = gvr[::-1]                    # reversed row n - i' ascends as i descends
            g0 = n - (g0r + len(gvr) - 1)
            if mi == 0:                       # column 0: F(i, 0) = i, no insertion
                f = np.arange(g0, g0 + len(gv))
                rows = (np.flatnonzero(f + gv == d) + g0).tolist()
                cur_lo = rows[0]
                cur_c = [INF] * (rows[-1] - rows[0] + 1)
                cur_s = [0] * len(cur_c)
                for r in rows:
                    cur_c[r - cur_lo] = r
                    cur_s[r - cur_lo] = 1
                if store is not None:
                    store.append(pack(cur_lo, cur_c, cur_s, offset))
                continue
            # lb[t], t = k - kmin: G(J - k, J), extended past the column's rows by slope 1;
            # row r is at t = J - r - kmin, so the reversed column gvr is G by ascending t
            ta = J - kmin - (g0 + len(gv) - 1)
            cut_lo, cut_hi = max(0, -ta), max(0, ta + len(gv) - width)   # rows outside the band
            fill = _lipschitz_fill(gvr[cut_lo:len(gvr) - cut_hi])
            ta += cut_lo
            # the segment's cells lie at rows >= cur_lo, so t <= J - kmin - cur_lo; the
            # list covers the diagonals down to a margin below the current cells, ``_far``
            # the rest (rarely read)
            t1 = min(width, J - kmin - cur_lo + 1)
            t0 = max(0, marks[mi - 1] + 1 - kmin - (cur_lo + len(cur_c)) - 2 * self.spacing)
            far = (fill, ta)
            lb = (_lb_range(fill, ta, t0, t1), t0, t1, far)
            cur_lo, cur_c, cur_s, seen = _columns(a, b, n, d, kmin, width, lb, marks[mi - 1] + 1, J, cur_lo,
                                                  cur_c, cur_s, store, pack, offset)
            visited += seen
            # the checkpoint J: the cells with dp + G = d only
            cur_lo, cur_c, cur_s = _tight_only(cur_lo, cur_c, cur_s, g0, gv, d)
            every = reduce(or_, cur_s)
            low = (every & -every).bit_length() - 1
            if low > 0:
                cur_s = [x >> low for x in cur_s]
                offset += low
            if store is not None:
                store[-1] = pack(cur_lo, cur_c, cur_s, offset)
            if visited > limit:
                self.columns = []
                return False
        self.iset = cur_s[n - cur_lo] << offset
        return True

    @staticmethod
    def _packed(lo: int, c: list, s: list, offset: int):
        """One column as the walks read it: (first row, F, base, the sets shifted
        down by base), base the least insertion count in the column (``s`` is
        shifted down by ``offset`` already)."""
        every = reduce(or_, s)
        base = (every & -every).bit_length() - 1
        return lo, array("q", c), base + offset, [x >> base for x in s]

    @staticmethod
    def _costs(lo: int, c: list, s: list, offset: int):
        return lo, array("q", c)

    def insertion_set(self) -> int:
        return self.iset

    def walk(self, rule: str) -> list[tuple]:
        """The alignment a unit-cost tie rule picks (``oracle.alignment_rules``,
        ``oracle.alignment_walks``), over the stored cells (solved again with the
        sets when a preference rule asks for them and only costs were stored)."""
        from .alignment_rules import diagonal_first, finish, rapidfuzz
        from .alignment_walks import _walk
        if rule in ("diagonal-first", "rapidfuzz"):
            if not self.columns:
                self.store = "costs"
                self.solve()
            f = _cost_reader(self.columns)
            return finish((diagonal_first if rule == "diagonal-first" else rapidfuzz)(self.a, self.b, f))
        if self.store != "sets":
            self.store = "sets"
            self.columns = []
            self.solve()
        view = _Cells(self.columns, greatest=(rule == "prefer-deletion-insertion"))
        return finish(_walk(self.a, self.b, view, rule))


def _cost_reader(columns: list):
    """F(i, j) over stored columns (first row, costs, ...); infinite off them."""
    def f(i: int, j: int) -> int:
        if j < 0:
            return INF
        col = columns[j]
        t = i - col[0]
        c = col[1]
        return c[t] if 0 <= t < len(c) else INF
    return f


class _Cells:
    """The stored columns read as the walks of ``oracle.alignment_walks`` read rows:
    f(i, j), ins(i, j) (the least, or greatest, insertion count of the cell); ``lo``
    -1: every row is there."""

    lo = -1

    def __init__(self, columns: list, greatest: bool):
        self.columns = columns
        self.greatest = greatest
        self.f = _cost_reader(columns)

    def ins(self, i: int, j: int) -> int:
        lo, _, base, sets = self.columns[j]
        x = sets[i - lo]
        return base + (x.bit_length() - 1 if self.greatest else (x & -x).bit_length() - 1)


def _columns(a, b, n: int, d: int, kmin: int, width: int, lb, j0: int, j1: int, p_lo: int, pc: list, ps: list,
             store, pack, offset: int):
    """Columns j0 .. j1 of the pruned DP from column j0 - 1 (rows p_lo .. of ``pc``, ``ps``):
    (first row, costs, sets of column j1, cells visited); each column is stored (``pack``)
    when ``store`` is a list. lb is (a list of the bound over t0 <= t < t1, t0, t1, the
    whole array), t = j - kmin - r. Row r's predecessors are carried from row r - 1's
    step: (r - 1, j - 1) is what row r - 1 read as (r - 1, j - 1)'s right neighbour,
    (r - 1, j) the cell just made. One call per segment between checkpoints (a call per
    column was a fifth of the DP's time)."""
    part, t0, t1, far = lb
    visited = 0
    for j in range(j0, j1 + 1):
        y = b[j - 1]
        base = j - kmin
        nc: list = []
        ns: list = []
        add_c, add_s = nc.append, ns.append
        lo_r = -1
        npc = len(pc)
        dc, ds = INF, 0           # (r - 1, j - 1)
        uc, us = INF, 0           # (r - 1, j)
        r, q = p_lo, 0            # q = r - p_lo: (r, j - 1) is pc[q]
        while r <= n:
            if q < npc:
                hc, hs = pc[q], ps[q]
            else:
                hc, hs = INF, 0
            if dc < INF:
                c, st = dc + (a[r - 1] != y), ds
            else:
                c, st = INF, 0
            if hc < INF:
                v = hc + 1
                if v < c:
                    c, st = v, hs << 1
                elif v == c:
                    st |= hs << 1
            if uc < INF:
                v = uc + 1
                if v < c:
                    c, st = v, us
                elif v == c:
                    st |= us
            if c < INF:
                t = base - r
                if t < 0 or t >= width or c + (part[t - t0] if t0 <= t < t1 else _far(far, t)) > d:
                    c = INF
            if c < INF:
                if lo_r < 0:
                    lo_r = r
                add_c(c)
                add_s(st)
                uc, us = c, st
            else:
                if q >= npc:      # past the previous column's rows: only deletions reach further
                    break
                if lo_r >= 0:
                    add_c(INF)
                    add_s(0)
                uc, us = INF, 0
            dc, ds = hc, hs
            r += 1
            q += 1
        if lo_r < 0:
            raise AssertionError("a column holds no cell of a minimum-cost path")
        while nc[-1] >= INF:
            nc.pop()
            ns.pop()
        visited += r - p_lo
        p_lo, pc, ps = lo_r, nc, ns
        if store is not None:
            store.append(pack(p_lo, pc, ps, offset))
    return p_lo, pc, ps, visited


def _tight_only(lo: int, c: list, s: list, g0: int, gv: np.ndarray, d: int):
    """The cells of a checkpoint column with dp + G = d (G's rows start at g0)."""
    rows = [lo + t for t, v in enumerate(c) if v < INF and 0 <= lo + t - g0 < len(gv) and v + int(gv[lo + t - g0]) == d]
    if not rows:
        raise AssertionError("a checkpoint column holds no cell of a minimum-cost path")
    first = rows[0]
    kc = [INF] * (rows[-1] - first + 1)
    ks = [0] * len(kc)
    for r in rows:
        kc[r - first] = c[r - lo]
        ks[r - first] = s[r - lo]
    return first, kc, ks


def _far(far: tuple, t: int) -> int:
    """The bound at diagonal index t from (fill, ta): the 1-Lipschitz fill of a
    column's G over ta .. ta + len(fill) - 1, extended by slope 1 on either side
    (min_t' x[t'] + |t - t'| with every t' inside the range)."""
    fill, ta = far
    if not len(fill):
        return INF
    if t < ta:
        return int(fill[0]) + ta - t
    tb = ta + len(fill) - 1
    return int(fill[-1]) + t - tb if t > tb else int(fill[t - ta])


def _lb_range(fill: np.ndarray, ta: int, t0: int, t1: int) -> list:
    """``_far`` over t0 <= t < t1, as a list: slope-1 ranges left of ta and right of the
    fill's last index, the fill's own values between."""
    if not len(fill):
        return [INF] * max(0, t1 - t0)
    tb = ta + len(fill) - 1
    f0, f1 = int(fill[0]), int(fill[-1])
    left = list(range(f0 + ta - t0, f0 + ta - min(t1, ta), -1))            # t0 <= t < min(t1, ta)
    mid = fill[max(t0, ta) - ta:max(0, min(t1, tb + 1) - ta)].tolist()
    right = list(range(f1 + max(t0, tb + 1) - tb, f1 + t1 - tb))            # max(t0, tb + 1) <= t < t1
    return left + mid + right


def _lipschitz_fill(x: np.ndarray, slope: int = 1) -> np.ndarray:
    """min_t' x[t'] + slope |t - t'|: the cells left INF take the nearest value plus the
    distance times the slope."""
    t = slope * np.arange(len(x), dtype=np.int64)
    left = np.minimum.accumulate(x - t) + t
    right = (np.minimum.accumulate((x + t)[::-1]))[::-1] - t
    return np.minimum(left, right)
