"""sclite's weighted alignment of long pairs over the cells that can lie on a
minimum-weight path (weights, back-pointer rule and source in
``oracle.alignment.sclite_alignment``).

A lower bound on G_w, the weighted cost 4S + 3(D + I) of aligning the suffixes:
4S + 3D + 3I = 2(S + D + I) + (2S + D + I), and each term is at least its minimum
over all alignments, so G_w >= 2 G_u + G_id, with G_u the Levenshtein distance of
the suffixes and G_id their indel distance (n' + m' - 2 LCS). Both come from one
banded bit-parallel sweep each of the reversed pair (``BandedColumns`` of
``oracle.alignment_bits``, ``BandedLCS`` here), kept at checkpoint columns. A band
value may exceed the true value when every optimal path of that cell leaves the
band; such a path costs more than t - |k| (t the band's bound, k = j - i), so
min(band value, t + 1 - |k|) is a lower bound in every case. Between checkpoints a
diagonal shift costs at least 3 (one deletion or insertion).

The DP from (0, 0) keeps the cells with dp + lb <= U for an upper bound U; every
cell of a minimum-weight path passes (dp = F_w there, by induction), so if (n, m) is
reached with dp <= U, dp(n, m) is the weighted distance and the back pointers of
the walk, which compare the candidates of such cells only through which of them
are minimal, are those of the full band. U starts at the bound of (0, 0) plus a
small slack and grows when the DP empties."""
from __future__ import annotations

from array import array

import numpy as np

from .alignment_bits import INF, BandedColumns, band_of, unpack
from .alignment_pruned import _cost_reader, _lipschitz_fill, _reversed_band

SUB, DEL, INS = 4, 3, 3


class BandedLCS(BandedColumns):
    """The banded LCS DP, L(i, j) = max(L(i-1, j), L(i, j-1), L(i-1, j-1) + [a_i = b_j]),
    column by column (Allison and Dix 1986; Hyyrö 2004: U = V & M, V' = (V + U) | (V - U),
    a bit of V set where L does not grow down the column), over the same sliding window
    of rows as ``BandedColumns``. A cell just outside the band takes its in-band
    neighbour's value (vertical delta 0 at the bottom, horizontal delta 0 at the
    top), which never beats that neighbour's diagonal move: the band-restricted DP."""

    def run(self, keep=()):
        """Sweep every column; return (L(n, m), {j: (top, v)} for j in ``keep``)."""
        kmin, kmax, m = self.kmin, self.kmax, self.m
        keep = set(keep)
        width = -kmin
        mask = (1 << width) - 1
        v, top = mask, 0                  # column 0: L(i, 0) = 0
        kept = {}
        if 0 in keep:
            kept[0] = (top, v)
        get = self.rows.get
        b = self.b
        block = self.block
        slide_from = kmax + 2
        for j in range(1, m + 1):
            sliding = j >= slide_from
            lo = j - kmax if sliding else 1
            if sliding:                   # top: L(lo - 1, j) = L(lo - 1, j - 1), the old top
                v >>= 1
            else:
                width += 1
                mask = (mask << 1) | 1
            v |= 1 << (width - 1)         # the row entering at the bottom: delta 0
            row = get(b[j - 1])
            bi, off = divmod(lo - 1, block)
            eq = ((row[bi] >> off) | (row[bi + 1] << (block - off))) & mask if row is not None else 0
            u = v & eq
            v = ((v + u) | (v - u)) & mask
            top = (top if sliding else 0) + (0 if v & 1 else 1)
            if j in keep:
                kept[j] = (top, v)
        r = self.n - self.lo(m)
        sel = (1 << (r + 1)) - 2
        return top + r - (v & sel).bit_count(), kept

    def column(self, j: int, state) -> tuple[int, np.ndarray]:
        """(first row, L values) of column j, as ``BandedColumns.column``."""
        top, v = state
        lo = self.lo(j)
        hi = min(self.n, j - self.kmin)
        grow = 1 - unpack(v, hi - lo + 1)
        grow[0] = 0
        vals = top + np.cumsum(grow)
        if j <= self.kmax:
            return 0, np.concatenate([[0], vals])
        return lo, vals


def _bound_column(n: int, m: int, J: int, unit, lcs, tu: int, tid: int, width: int, kmin: int) -> np.ndarray:
    """lb over the diagonals t = k - kmin for the cells before column J:
    min_s 2 lbu(s) + lbid(s) + 3 |k - (J - s)|, with lbu, lbid the capped band values
    (``unit``, ``lcs``: the reversed columns m - J, as (first row, values))."""
    (u0, uv), (l0, lv) = unit, lcs
    # reversed row i' is original row n - i'; the LCS band is the wider, rows r0 .. r1
    r1 = n - l0
    r0 = r1 - len(lv) + 1
    rows = np.arange(r0, r1 + 1)
    gid = (n - rows) + (m - J) - 2 * lv[::-1]
    gu = np.full(len(rows), INF, np.int64)
    ru = n - (u0 + np.arange(len(uv)))            # descending
    gu[ru - r0] = uv
    k = J - rows
    ak = np.abs(k)
    trivial = np.abs((m - n) - k)             # any suffix path shifts the diagonal to m - n
    lbu = np.maximum(np.minimum(gu, tu + 1 - ak), trivial)
    lbid = np.maximum(np.minimum(gid, tid + 1 - ak), trivial)
    t = k - kmin
    ok = (t >= 0) & (t < width)
    out = np.full(width, INF, np.int64)
    out[t[ok]] = (2 * lbu + lbid)[ok]
    return _lipschitz_fill(out, slope=DEL)   # a diagonal shift costs a deletion or an insertion


def _wcolumn(a, y, n: int, U: int, base: int, width: int, lb: list, p_lo: int, pc: list):
    """Column j of the pruned weighted DP from column j - 1: (first row, costs, cells
    visited), or (None, None, visited) when no cell passes; base is j - kmin."""
    nc: list = []
    lo_r = None
    npc = len(pc)
    p_hi = p_lo + npc - 1
    r = p_lo
    while r <= n:
        c = INF
        q = r - 1 - p_lo
        if q >= 0 and q < npc and r >= 1:
            v = pc[q]
            if v < INF:
                c = v if a[r - 1] == y else v + SUB
        q += 1
        if q < npc:
            v = pc[q] + INS
            if v < c:
                c = v
        if nc:
            v = nc[-1] + DEL
            if v < c:
                c = v
        t = base - r
        if c < INF and (t >= width or t < 0 or c + lb[t] > U):
            c = INF
        if c < INF:
            if lo_r is None:
                lo_r = r
            nc.append(c)
        elif lo_r is not None:
            if r > p_hi:
                break
            nc.append(INF)
        elif r > p_hi:
            break
        r += 1
    if lo_r is None:
        return None, None, r - p_lo
    while nc[-1] >= INF:
        nc.pop()
    return lo_r, nc, r - p_lo


def sclite_pruned(a, b, d: int, spacing: int = 256, budget: int = 24, lcs_slack: float = 0.5, slack: int = 8,
                  unit=None, indel_upper: int | None = None):
    """sclite's alignment (ops) of a long pair, or None when the DP would visit more
    than ``budget`` * (n + m) cells (the caller sweeps the band instead). ``unit``: the
    reversed unit-cost sweep of a ``PrunedBand`` of the same pair (``PrunedBand.unit``),
    reused instead of sweeping again (when ``spacing`` is a multiple of its own; the
    default 256 against its 64: fewer bound columns, measured faster on 100,000-token
    pairs than 64 or 128). ``indel_upper``: an upper bound on the indel
    distance (d + the fewest substitutions of a minimum-cost alignment), which sets
    t_id at once.

    The LCS band's bound t_id starts at (1 + lcs_slack) d; when the indel distance it
    finds is within 512 of t_id (the caps would bite near the start) it is swept again
    with t_id = that distance + 512."""
    n, m = len(a), len(b)
    if unit is not None and spacing % unit[5] == 0:   # the reversed unit sweep of a PrunedBand (its
        # checkpoint columns, every unit[5], hold every spacing-th column)
        urev, ukept, tu, kmin, kmax, _ = unit
    else:
        urev = None
        tu = d
        kmin, kmax = band_of(n, m, tu)
        kmin, kmax = min(kmin, m - n - 1), max(kmax, m - n + 1)
    tid = min(n + m, indel_upper + 512 if indel_upper is not None else int(d * (1 + lcs_slack)) + 64)
    # the DP's band: every path of weighted cost <= 4d (the unit-optimal paths' bound) lies in
    # band_of(4d / 3), since each diagonal step off costs 3; the LCS sweep's band is as wide
    wmin, wmax = band_of(n, m, (4 * d) // 3)
    lmin, lmax = band_of(n, m, tid)
    lmin, lmax = min(lmin, kmin, wmin), max(lmax, kmax, wmax)
    marks = list(range(0, m, spacing)) + [m]
    ra, rb = (urev.a, urev.b) if urev is not None else (a[::-1], b[::-1])
    if urev is None:
        urev = BandedColumns(ra, rb, *_reversed_band(n, m, kmin, kmax))
        du, ukept = urev.run([m - j for j in marks])
        if du != d:
            raise AssertionError(f"banded distance {du}, expected {d}")
    while True:
        lcs = BandedLCS(ra, rb, *_reversed_band(n, m, lmin, lmax), share=urev)
        lval, lkept = lcs.run([m - j for j in marks])
        did = n + m - 2 * lval                # an upper bound on the indel distance
        if did + 512 <= tid or tid >= n + m:
            break
        tid = min(n + m, did + 512)
        lmin, lmax = band_of(n, m, tid)
        lmin, lmax = min(lmin, kmin, wmin), max(lmax, kmax, wmax)
    width = lmax - lmin + 1

    def bound(J: int) -> np.ndarray:        # computed per segment: all of them would take width * 8 bytes each
        return _bound_column(n, m, J, urev.column(m - J, ukept[m - J]), lcs.column(m - J, lkept[m - J]),
                             tu, tid, width, lmin)

    lb0 = int(bound(0)[0 - lmin])             # the bound at (0, 0): the weighted distance is at least this
    limit = budget * (n + m)
    visited = 0
    while True:
        U = lb0 + slack
        columns, seen = _weighted_dp(a, b, n, m, U, marks, bound, lmin, width, limit - visited)
        visited += seen
        if columns is not None:
            lo, c = columns[m]
            if 0 <= n - lo < len(c) and c[n - lo] <= U:
                return _walk(a, b, columns)
        if visited > limit or U >= 4 * d:    # 4d: the weighted cost of any unit-optimal path
            return None
        slack = max(8, slack * 4)


def _weighted_dp(a, b, n: int, m: int, U: int, marks: list, bound, kmin: int, width: int, limit: int):
    """The pruned DP's columns [(first row, costs)], or None when a column empties
    (U is below the weighted distance) or more than ``limit`` cells are visited;
    ``bound(J)`` is the lower bound of the cells before checkpoint column J."""
    cur = [3 * i for i in range(n + 1) if 3 * i <= U]
    lb = bound(0).tolist()
    keep = [v if (-r - kmin) in range(width) and v + lb[-r - kmin] <= U else INF for r, v in enumerate(cur)]
    while keep and keep[-1] >= INF:
        keep.pop()
    if not keep:
        return None, 0
    columns = [(0, array("q", keep))]
    p_lo, pc = 0, keep
    visited = 0
    for mi in range(1, len(marks)):
        J = marks[mi]
        lb = bound(J).tolist()
        for j in range(marks[mi - 1] + 1, J + 1):
            p_lo, pc, seen = _wcolumn(a, b[j - 1], n, U, j - kmin, width, lb, p_lo, pc)
            visited += seen
            if pc is None:
                return None, visited
            columns.append((p_lo, array("q", pc)))
        if visited > limit:
            return None, visited
    return columns, visited


def _walk(a, b, columns: list) -> list[tuple]:
    """sclite's back pointers followed from (n, m): the diagonal if it costs no more than
    the deletion and the insertion, else the deletion if strictly cheaper than the
    insertion, else the insertion (``oracle.alignment.sclite_alignment``)."""
    from .alignment_rules import DELETION, DIAGONAL, INSERTION, step

    f = _cost_reader(columns)   # infinite off the kept cells (and for i or j below 0)

    i, j = len(a), len(b)
    ops: list = []
    while i > 0 or j > 0:
        sub = f(i - 1, j - 1) + (0 if i and j and a[i - 1] == b[j - 1] else SUB)
        dele = f(i - 1, j) + DEL
        ins = f(i, j - 1) + INS
        if sub <= dele and sub <= ins:
            move = DIAGONAL
        elif dele < ins:
            move = DELETION
        else:
            move = INSERTION
        i, j = step(a, b, i, j, move, ops)
    ops.reverse()
    return ops
