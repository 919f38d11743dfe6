"""Long alignments by banded bit-parallel columns: the Levenshtein distance and the
admissible insertion counts of pairs of thousands of tokens, in time about
n * d / 64 word operations plus the cells of the minimum-cost paths.

- ``BandedColumns``: Myers' (1999) bit-vector column update, in Hyyrö's (2003)
  formulation, over a window of the rows of the band of diagonals
  kmin <= k = j - i <= kmax, the window sliding one row down per column. A cell just
  outside the band is given the value of its in-band neighbour plus 1 (a vertical
  delta +1 for the row entering at the bottom, a horizontal delta +1 entering at the
  top): a move from it costs at least 2 and never beats the diagonal move of the same
  neighbour, so the window holds exactly the DP restricted to the band (cells outside
  it infinite), which is the DP itself on every cell of a path inside the band
  (Ukkonen 1985). The columns at a few checkpoints are kept as bit vectors.
- ``banded_distance``: the distance with Ukkonen's certificate: a band holding every
  diagonal with |k| + |(m - n) - k| <= t and a banded value <= t is exact (any path
  leaving the band costs more than t). A narrow band gives an upper bound first.
- ``PrunedBand`` (``oracle.alignment_pruned``) reads these columns for the admissible
  insertion counts and the unit-cost tie rules' alignments.

Memory: the band's width in bits per kept column."""
from __future__ import annotations

import numpy as np

INF = 1 << 60


class BandedColumns:
    """The banded DP of a (rows 1..n) against b (columns 0..m), diagonals in
    [kmin, kmax] (kmin < 0 < kmax required), column by column as bit vectors.

    Column j covers rows lo(j) = max(1, j - kmax) .. j - kmin (rows past n are padding
    that never matches and never feeds rows <= n); ``top`` is the value at row lo(j)."""

    def __init__(self, a, b, kmin: int, kmax: int, share=None):
        """``share``: a sweep over the same ``a`` whose match bits are reused when its
        row blocks are the same size."""
        if not (kmin < 0 < kmax) or not a or not b or len(b) - len(a) > kmax or len(b) - len(a) < kmin:
            raise ValueError("the band must hold the diagonals -1, 0, 1 and m - n, of two non-empty sequences")
        self.a, self.b = a, b
        self.n, self.m = len(a), len(b)
        self.kmin, self.kmax = kmin, kmax
        width = kmax - kmin + 1
        self.block = block = 1 << max(12, (width - 1).bit_length())
        if share is not None and share.a is a and share.block == block:
            self.rows = share.rows
            return
        nblocks = -(-self.n // block) + 1
        rows: dict = {}                   # token -> [bits of the rows of a equal to it, per row block; 0]
        for blk in range(0, self.n, block):
            bi = blk // block
            where: dict = {}              # token -> its positions in the block
            for p, t in enumerate(a[blk:blk + block]):
                ps = where.get(t)
                if ps is None:
                    where[t] = [p]
                else:
                    ps.append(p)
            for t, ps in where.items():   # one int per token and block (an OR per position
                row = rows.get(t)         # costs the block's width each)
                if row is None:
                    rows[t] = row = [0] * (nblocks + 1)
                if len(ps) == 1:
                    row[bi] = 1 << ps[0]
                else:
                    buf = bytearray((ps[-1] >> 3) + 1)
                    for p in ps:
                        buf[p >> 3] |= 1 << (p & 7)
                    row[bi] = int.from_bytes(buf, "little")
        self.rows = rows                  # a window's bits are two shifted blocks

    def lo(self, j: int) -> int:
        return max(1, j - self.kmax)

    def run(self, keep=()):
        """Sweep every column; return (D(n, m), {j: (top, vp, vn)} for j in ``keep``)."""
        kmin, kmax, m = self.kmin, self.kmax, self.m
        keep = set(keep)
        width = -kmin
        mask = (1 << width) - 1
        vp, vn, top = mask, 0, 1          # column 0: D(i, 0) = i, every vertical delta +1
        kept = {}
        if 0 in keep:
            kept[0] = (top, vp, vn)
        get = self.rows.get
        b = self.b
        block = self.block
        slide_from = kmax + 2             # the first column whose window top is row 2
        bottom = 0
        off, bi = 0, 0                    # row lo - 1 = bi * block + off
        for j in range(1, m + 1):
            if j >= slide_from:           # the window moves one row down
                top += 1 if vp & 2 else (-1 if vn & 2 else 0)
                vp = (vp >> 1) | bottom   # the row entering at the bottom: delta +1
                vn >>= 1
                off += 1
                if off == block:
                    off, bi = 0, bi + 1
            else:                         # the window grows by one row at the bottom (top row 1)
                width += 1
                mask = (mask << 1) | 1
                bottom = 1 << (width - 1)
                vp |= bottom
            row = get(b[j - 1])
            if row is None:
                eq = 0
            elif off + width > block:     # the window reaches into the next block
                eq = ((row[bi] >> off) | ((row[bi + 1] & ((1 << (off + width - block)) - 1)) << (block - off)))
            else:
                eq = (row[bi] >> off) & mask
            # one column of Myers' bit-vector update (Hyyro 2003, fig. 3), inlined (a call per
            # column was a tenth of a sweep): the match bits eq and the previous column's
            # vertical deltas (vp, vn) give this column's, and the horizontal delta of its top
            # row (+1, 0, -1), the row above the window entering with horizontal delta +1.
            # ~x & mask is written (x ^ mask) & mask (no negative ints); hp may keep a carry
            # bit above the window, which only meets & mask and & xv
            xv = eq | vn
            xh = (((eq & vp) + vp) ^ vp) | eq
            hp = vn | (xh | vp) ^ mask
            hn = vp & xh
            top += 1 if hp & 1 else (-1 if hn & 1 else 0)
            hp = (hp << 1) | 1
            vp, vn = ((hn << 1) | (xv | hp) ^ mask) & mask, hp & xv
            if j in keep:
                kept[j] = (top, vp, vn)
        r = self.n - self.lo(m)
        sel = (1 << (r + 1)) - 2          # the vertical deltas of rows lo + 1 .. n
        return top + (vp & sel).bit_count() - (vn & sel).bit_count(), kept

    def run_pruned(self, upper: int, keep=()):
        """``run`` over the cells that can lie on a path of cost <= ``upper``: after each
        column, a top or bottom row whose value D plus |(m - n) - k| (the least cost
        left from diagonal k to (n, m)) exceeds ``upper`` leaves the window for good.
        Every cell of a minimum-cost path stays (its predecessors on the path stayed,
        so D is exact there, and D + |(m - n) - k| <= d <= upper), so D(n, m) is exact
        when upper >= d; every value is still the cost of a real path, so D >= the
        unrestricted DP everywhere: with upper < d the answer is some path's cost (>= d),
        or row n has left the window (ValueError). Kept states are (top, vp, vn, first
        row, rows)."""
        kmax, m, n = self.kmax, self.m, self.n
        delta = m - n
        keep = set(keep)
        width = -self.kmin
        mask = (1 << width) - 1
        vp, vn, top, lo = mask, 0, 1, 1
        bw = entering = 0                 # entering: the bit of the bottom row for a window of bw rows
        kept = {}
        if 0 in keep:
            kept[0] = (top, vp, vn, lo, width)
        get = self.rows.get
        b = self.b
        block = self.block
        off, bi = 0, 0                    # row lo - 1 = bi * block + off
        for j in range(1, m + 1):
            if j - kmax >= 2:             # the window's top diagonal kmax: the top row leaves
                if width != bw:
                    bw, entering = width, 1 << (width - 1)
                # the row entering at the bottom has delta +1 (with one row, it is the row below the top)
                top += 1 if vp & 2 or width == 1 else (-1 if vn & 2 else 0)
                vp = (vp >> 1) | entering
                vn >>= 1
                lo += 1
                off += 1
                if off == block:
                    off, bi = 0, bi + 1
            else:
                width += 1
                mask = (1 << width) - 1
                vp |= 1 << (width - 1)
            row = get(b[j - 1])
            if row is None:
                eq = 0
            elif off + width > block:
                eq = ((row[bi] >> off) | ((row[bi + 1] & ((1 << (off + width - block)) - 1)) << (block - off)))
            else:
                eq = (row[bi] >> off) & mask
            # Myers' column update, as in ``run``
            xv = eq | vn
            xh = (((eq & vp) + vp) ^ vp) | eq
            hp = vn | (xh | vp) ^ mask
            hn = vp & xh
            top += 1 if hp & 1 else (-1 if hn & 1 else 0)
            hp = (hp << 1) | 1
            vp, vn = ((hn << 1) | (xv | hp) ^ mask) & mask, hp & xv
            cut = width
            while j > kmax and width > 1 and top + abs(delta - (j - lo)) > upper:   # the top row (once row 0,
                # D(0, j) = j, has left the band: no cell of the column lies above it)
                top += 1 if vp & 2 else (-1 if vn & 2 else 0)
                vp >>= 1
                vn >>= 1
                lo += 1
                off += 1
                if off == block:
                    off, bi = 0, bi + 1
                width -= 1
                kmax = j - lo             # the top diagonal from here on
            hi = lo + width - 1
            while width > 1 and hi > n:   # padding rows feed no real row
                width -= 1
                hi -= 1
            # the bottom row's test needs two popcounts of the window: every eighth column
            # (pruning later is only slower, never wrong), and whenever the width changed
            if width < cut or (hi <= n and not j & 7):
                vp &= (1 << width) - 1
                vn &= (1 << width) - 1
                bottom = top + vp.bit_count() - (vp & 1) - vn.bit_count() + (vn & 1)
                while width > 1 and bottom + abs(delta - (j - hi)) > upper:   # the bottom row
                    bit = 1 << (width - 1)
                    bottom -= 1 if vp & bit else (-1 if vn & bit else 0)
                    vp &= ~bit
                    vn &= ~bit
                    width -= 1
                    hi -= 1
                mask = (1 << width) - 1
            if j in keep:
                kept[j] = (top, vp, vn, lo, width)
        if not lo <= n <= lo + width - 1:
            raise ValueError(f"upper bound {upper} is below the distance: row {n} left the window")
        sel = (1 << (n - lo + 1)) - 2
        return top + (vp & sel).bit_count() - (vn & sel).bit_count(), kept

    def column(self, j: int, state) -> tuple[int, np.ndarray]:
        """(first row, values) of column j from its kept state: the rows lo(j) ..
        min(n, j - kmin), and row 0 (value j) first when row 1 is the first (and j <=
        kmax); a ``run_pruned`` state names its own rows."""
        if len(state) == 5:
            top, vp, vn, lo, count = state
            hi = min(self.n, lo + count - 1)
        else:
            top, vp, vn = state
            lo = self.lo(j)
            hi = min(self.n, j - self.kmin)
        count = hi - lo + 1
        delta = unpack(vp, count) - unpack(vn, count)
        delta[0] = 0
        vals = top + np.cumsum(delta)
        if j <= self.kmax and lo == 1:    # row 0 is in the band
            return 0, np.concatenate([[j], vals])
        return lo, vals


def unpack(bits: int, count: int) -> np.ndarray:
    """The low ``count`` bits of an int as an int64 array of 0s and 1s, lowest first."""
    raw = (bits & ((1 << count) - 1)).to_bytes((count + 7) // 8, "little")
    return np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:count].astype(np.int64)


def band_of(n: int, m: int, t: int) -> tuple[int, int]:
    """(kmin, kmax): the diagonals k with |k| + |(m - n) - k| <= t, widened to hold -1..1."""
    delta = m - n
    return min(-1, -((t - delta) // 2)), max(1, (delta + t) // 2)


def upper_bound(a, b) -> tuple[int, bool]:
    """(U, exact): the cost U of the best alignment inside a band of about 1,000
    diagonals around 0..m - n (an upper bound on the distance), and whether that band
    holds the band of U, which makes U the distance (Ukkonen's certificate)."""
    n, m = len(a), len(b)
    delta = m - n
    kmin, kmax = min(-1, min(0, delta) - 500), max(1, max(0, delta) + 500)
    u, _ = BandedColumns(a, b, kmin, kmax).run()
    k2 = band_of(n, m, u)
    return u, k2[0] >= kmin and k2[1] <= kmax


def banded_distance(a, b) -> int:
    """The Levenshtein distance by banded columns: ``upper_bound`` U, then the band of
    U, in which every path of cost <= U lies (Ukkonen's certificate)."""
    n, m = len(a), len(b)
    if not n or not m:
        return n + m
    delta = m - n
    u, exact = upper_bound(a, b)
    if exact:
        return u
    d, _ = BandedColumns(a, b, *band_of(n, m, u)).run()
    if not abs(delta) <= d <= u:
        raise AssertionError(f"banded distance {d} outside [{abs(delta)}, {u}]")
    return d
