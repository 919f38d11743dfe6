"""Word and character alignment for the error rates: Levenshtein distance (a banded
dynamic program with common prefixes and suffixes stripped), the admissible
(S, D, I) counts of every minimum-cost alignment, the alignment each tie rule
picks, and sclite's weighted alignment (definitions and sources in
``oracle.error_rates``'s docstring).

Pairs whose band has more than ``LINEAR_CELLS`` cells go to
``oracle.alignment_linear`` and ``oracle.alignment_walks``, which sweep the band
keeping a few rows, never the matrix (memory linear in the lengths instead of
their product); both give the same sets and the same alignments
(tests/test_alignment_linear.py)."""
from __future__ import annotations

from .affix import common_affix as _common_affix
from .alignment_rules import DELETION, DIAGONAL, INSERTION, diagonal_first, finish, rapidfuzz, step


# ------------------------------------------------------------ edit distance

def levenshtein_dp(a, b) -> int:
    """Levenshtein distance by the plain dynamic program (Wagner and Fischer 1974):
    D[i][j] = min(D[i-1][j-1] + [a_i != b_j], D[i-1][j] + 1, D[i][j-1] + 1)."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j - 1] + (x != y), prev[j] + 1, cur[j - 1] + 1))
        prev = cur
    return prev[-1]




BANDED_TOKENS = 10_000   # measured: the banded columns pay from about 5,000 tokens at 10% edits


def levenshtein(a, b) -> int:
    """Levenshtein distance, bit-parallel (Myers 1999; Hyyrö 2003 formulation as in
    rapidfuzz): one column of vertical deltas packed in a Python int, updated per
    token of ``b``; the common prefix and suffix are removed first. Pairs whose
    shorter side has BANDED_TOKENS tokens or more take the banded columns of
    ``oracle.alignment_bits`` (vectors as wide as the band, not as the sequence)."""
    if a == b:
        return 0
    p, s = _common_affix(a, b)
    if p or s:
        a = a[p:len(a) - s]
        b = b[p:len(b) - s]
    if len(a) < len(b):
        a, b = b, a
    n = len(a)
    if not b:
        return n
    if len(b) >= BANDED_TOKENS:
        from .alignment_bits import banded_distance
        return banded_distance(a, b)
    peq: dict = {}
    bit = 1
    for t in a:
        peq[t] = peq.get(t, 0) | bit
        bit <<= 1
    full = bit - 1
    last = bit >> 1
    vp, vn, dist = full, 0, n
    get = peq.get
    for t in b:
        x = get(t, 0) | vn
        d0 = (((x & vp) + vp) ^ vp) | x
        hp = vn | ~(d0 | vp)
        hn = vp & d0
        if hp & last:
            dist += 1
        elif hn & last:
            dist -= 1
        hp = (hp << 1) | 1
        vp = ((hn << 1) | ~(d0 | hp)) & full
        vn = hp & d0
    return dist


# --------------------------------------------------- admissible alignments

LINEAR_CELLS = 50_000


def _band_cells(n: int, m: int, d: int) -> int:
    delta = m - n
    return (n + 1) * ((delta + d) // 2 + (d - delta) // 2 + 1)


def make_band(a, b, d: int | None = None, rules=None):
    """The admissible-set DP of ``a`` with ``b`` (distance ``d``; computed when None,
    and then read off the band itself for long pairs): ``Band`` for small pairs; past
    LINEAR_CELLS cells, ``alignment_pruned.PrunedBand`` (the cells of minimum-cost paths
    only), or ``alignment_walks.LinearBand`` (sweeps of the whole band in linear
    memory) when those cells are too many (highly repetitive pairs). Each has ``d``.
    ``rules``: the tie rules whose walks will be asked (None: any), which decides what
    a PrunedBand keeps."""
    upper = d
    if d is None:
        if min(len(a), len(b)) >= BANDED_TOKENS:
            from .alignment_bits import upper_bound
            upper = upper_bound(a, b)[0]
        else:
            d = upper = levenshtein(a, b)
    if d is not None and _band_cells(len(a), len(b), d) <= LINEAR_CELLS:
        return Band(a, b, d)
    if a and b:
        from .alignment_pruned import PrunedBand
        prefer = rules is None or any(r.startswith("prefer-") for r in rules)
        unit = rules is None or any(r in ("diagonal-first", "rapidfuzz") for r in rules)
        share = rules is None or "sclite" in rules
        band = PrunedBand(a, b, upper, store="sets" if prefer else ("costs" if unit else None), share=share)
        if band.solve():
            return band
        d = band.d
    from .alignment_walks import LinearBand
    return LinearBand(a, b, d)

class Band:
    """The DP restricted to the diagonals k = j - i that minimum-cost paths can use
    (|k| + |(m - n) - k| <= d): the cost D and the set of insertion counts (an int
    bit set) of the minimum-cost alignments of each prefix pair."""

    __slots__ = ("a", "b", "d", "kmin", "width", "cost", "sets", "inf")

    def __init__(self, a, b, d: int):
        self.a, self.b, self.d = a, b, d
        n, m = len(a), len(b)
        delta = m - n
        kmin = -((d - delta) // 2)
        width = (delta + d) // 2 - kmin + 1
        inf = n + m + 2
        self.kmin, self.width, self.inf = kmin, width, inf
        row_c = [inf] * width
        row_s = [0] * width
        for t in range(max(0, -kmin), min(width, m - kmin + 1)):
            row_c[t] = kmin + t
            row_s[t] = 1 << (kmin + t)
        cost, sets = [row_c], [row_s]
        for i in range(1, n + 1):
            pc, ps = row_c, row_s
            row_c = [inf] * width
            row_s = [0] * width
            x = a[i - 1]
            base = i + kmin
            t0 = max(0, -base)
            t1 = min(width, m - base + 1)
            for t in range(t0, t1):
                j = base + t
                if j == 0:
                    row_c[t] = i
                    row_s[t] = 1
                    continue
                c = pc[t] + (x != b[j - 1])
                st = ps[t]
                if t + 1 < width:
                    u = pc[t + 1] + 1
                    if u < c:
                        c, st = u, ps[t + 1]
                    elif u == c:
                        st |= ps[t + 1]
                if t > t0:
                    v = row_c[t - 1] + 1
                    if v < c:
                        c, st = v, row_s[t - 1] << 1
                    elif v == c:
                        st |= row_s[t - 1] << 1
                row_c[t] = c
                row_s[t] = st
            cost.append(row_c)
            sets.append(row_s)
        self.cost, self.sets = cost, sets

    def c(self, i: int, j: int) -> int:
        t = j - i - self.kmin
        if i < 0 or j < 0 or t < 0 or t >= self.width:
            return self.inf
        return self.cost[i][t]

    def s(self, i: int, j: int) -> int:
        t = j - i - self.kmin
        if i < 0 or j < 0 or t < 0 or t >= self.width:
            return 0
        return self.sets[i][t]

    def insertion_set(self) -> int:
        return self.s(len(self.a), len(self.b))


def backtrace(band: Band, rule: str) -> list[tuple]:
    """The alignment a named tie rule picks among the minimum-cost alignments, as
    ops (kind, reference token or None, hypothesis token or None), kind in C S D I."""
    a, b = band.a, band.b
    c = band.c
    if rule == "diagonal-first":
        return finish(diagonal_first(a, b, c))
    if rule == "rapidfuzz":
        return finish(rapidfuzz(a, b, c))
    i, j = len(a), len(b)
    ops: list[tuple] = []
    if rule in ("prefer-substitution", "prefer-deletion-insertion"):
        iset = band.insertion_set()
        target = (iset & -iset).bit_length() - 1 if rule == "prefer-substitution" else iset.bit_length() - 1
        s_ = band.s
        while i > 0 or j > 0:
            cur = c(i, j)
            if i > 0 and j > 0 and c(i - 1, j - 1) + (a[i - 1] != b[j - 1]) == cur and s_(i - 1, j - 1) >> target & 1:
                i, j = step(a, b, i, j, DIAGONAL, ops)
            elif i > 0 and c(i - 1, j) + 1 == cur and s_(i - 1, j) >> target & 1:
                i, j = step(a, b, i, j, DELETION, ops)
            else:
                i, j = step(a, b, i, j, INSERTION, ops)
                target -= 1
    else:
        raise AssertionError(rule)
    ops.reverse()
    return ops


SCLITE_INS, SCLITE_DEL, SCLITE_SUB = 3, 3, 4


def sclite_alignment(a, b, d: int | None = None, unit=None, indel_upper: int | None = None) -> list[tuple]:
    """sclite's alignment: minimum of 4S + 3(D + I) (correct 0), each cell keeping one
    back pointer: the diagonal if it costs no more than the deletion and the
    insertion, else the deletion if strictly cheaper than the insertion, else the
    insertion (SCTK net_dp.c calculate_internal_cells); followed back from the end.
    The DP runs in the band |k| + |(m - n) - k| <= floor(4d/3): 3 per step off the
    diagonal and a weighted optimum of at most 4d keep every optimal path inside.
    Long pairs go to ``oracle.alignment_weighted`` (the cells that can lie on a
    minimum-weight path) or, when those are too many, ``oracle.alignment_walks``."""
    n, m = len(a), len(b)
    if d is None:
        d = levenshtein(a, b)
    w = (4 * d) // 3
    if _band_cells(n, m, w) > LINEAR_CELLS:
        if a and b:
            from .alignment_weighted import sclite_pruned
            ops = sclite_pruned(a, b, d, unit=unit, indel_upper=indel_upper)
            if ops is not None:
                return ops
        from .alignment_walks import sclite_walk
        return sclite_walk(a, b, d, SCLITE_SUB, SCLITE_DEL, SCLITE_INS)
    delta = m - n
    kmin = -((w - delta) // 2)
    width = (delta + w) // 2 - kmin + 1
    inf = 4 * (n + m) + 8
    cost = []
    back = []
    row_c = [inf] * width
    row_b = [2] * width
    for t in range(max(0, -kmin), min(width, m - kmin + 1)):
        row_c[t] = 3 * (kmin + t)
    cost.append(row_c)
    back.append(row_b)
    # the banded sweep of Band with sclite's weights and one back pointer per cell instead
    # of admissible sets: kept apart so that Band's unit-cost loop stays as it is
    for i in range(1, n + 1):
        pc = row_c
        row_c = [inf] * width
        row_b = [0] * width
        x = a[i - 1]
        base = i + kmin
        t0 = max(0, -base)
        t1 = min(width, m - base + 1)
        for t in range(t0, t1):
            j = base + t
            if j == 0:
                row_c[t] = 3 * i
                row_b[t] = 1
                continue
            sub = pc[t] + (0 if x == b[j - 1] else SCLITE_SUB)
            dele = (pc[t + 1] if t + 1 < width else inf) + SCLITE_DEL
            ins = (row_c[t - 1] if t > 0 else inf) + SCLITE_INS
            if sub <= dele and sub <= ins:
                row_c[t], row_b[t] = sub, 0
            elif dele < ins:
                row_c[t], row_b[t] = dele, 1
            else:
                row_c[t], row_b[t] = ins, 2
        cost.append(row_c)
        back.append(row_b)
    ops = []
    i, j = n, m
    while i > 0 or j > 0:   # back pointers: 0 the diagonal, 1 the deletion, 2 the insertion
        i, j = step(a, b, i, j, back[i][j - i - kmin], ops)
    ops.reverse()
    return ops


def counts_of(ops) -> tuple[int, int, int, int]:
    """(H, S, D, I) of an alignment."""
    h = s = d = i = 0
    for kind, _, _ in ops:
        if kind == "C":
            h += 1
        elif kind == "S":
            s += 1
        elif kind == "D":
            d += 1
        else:
            i += 1
    return h, s, d, i


def counts_from_insertions(d: int, n: int, p: int, ins: int) -> tuple[int, int, int, int]:
    """(H, S, D, I) of a minimum-cost alignment with ``ins`` insertions:
    D = I + N - P, S = d - I - D, H = N - S - D."""
    dele = ins + n - p
    sub = d - ins - dele
    return n - sub - dele, sub, dele, ins


def admissible_counts(a, b) -> list[tuple[int, int, int, int]]:
    """Every (H, S, D, I) of a minimum-cost alignment of ``a`` with ``b``, by increasing I."""
    d = levenshtein(a, b)
    iset = make_band(a, b, d).insertion_set()
    return [counts_from_insertions(d, len(a), len(b), k) for k in _bits(iset)]


def _bits(mask: int) -> list[int]:
    out = []
    k = 0
    while mask:
        if mask & 1:
            out.append(k)
        mask >>= 1
        k += 1
    return out


def alignment(a, b, rule: str, d: int | None = None, band: Band | None = None) -> list[tuple]:
    """The alignment ``rule`` picks (a tie rule name, or 'sclite')."""
    if d is None:
        d = levenshtein(a, b)
    if rule == "sclite":
        unit = getattr(band, "unit", None)
        indel_upper = None
        if unit is not None and band.iset:   # d + the fewest substitutions of a minimum-cost alignment
            indel_upper = d + counts_from_insertions(d, len(a), len(b), band.iset.bit_length() - 1)[1]
        return sclite_alignment(a, b, d, unit, indel_upper)
    band = band or make_band(a, b, d)
    if hasattr(band, "walk"):
        return band.walk(rule)
    return backtrace(band, rule)
