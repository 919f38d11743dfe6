"""Banded bit-parallel columns and the pruned admissible-set DP (oracle.alignment_bits, oracle.alignment_pruned)
against independent formulations: the plain Wagner-Fischer DP restricted to the band
(cell by cell), brute-force enumeration of every alignment, and the full banded DP
with its back-pointer walks (oracle.alignment.Band, backtrace)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle import alignment as A
from oracle import alignment_bits as B
from oracle import alignment_pruned as P
from oracle import alignment_walks as W

from tests.test_oracle_error_rates import brute_force

RULES = ("diagonal-first", "rapidfuzz", "prefer-substitution", "prefer-deletion-insertion")
tokens = st.lists(st.sampled_from("abcd"), min_size=1, max_size=6)
# skewed vocabulary: long runs of ties between the tie rules
skewed = st.lists(st.sampled_from("aaaabbbcd"), min_size=1, max_size=40)


def _restricted_dp(a, b, kmin, kmax):
    """D(i, j) of the DP with every cell outside kmin <= j - i <= kmax infinite."""
    n, m = len(a), len(b)
    inf = float("inf")
    D = [[inf] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if not kmin <= j - i <= kmax:
                continue
            if i == 0 or j == 0:
                D[i][j] = i + j
                continue
            D[i][j] = min(D[i - 1][j - 1] + (a[i - 1] != b[j - 1]), D[i - 1][j] + 1, D[i][j - 1] + 1)
    return D


@given(skewed, skewed, st.integers(0, 6))
def test_banded_columns_hold_the_band_restricted_dp(a, b, slack):
    d = A.levenshtein_dp(a, b)
    kmin, kmax = B.band_of(len(a), len(b), d + slack)
    cols = B.BandedColumns(a, b, kmin, kmax)
    got, kept = cols.run(range(len(b) + 1))
    assert got == d                                   # the band holds every optimal path
    D = _restricted_dp(a, b, kmin, kmax)
    for j in range(len(b) + 1):
        lo, vals = cols.column(j, kept[j])
        assert vals.tolist() == [D[lo + r][j] for r in range(len(vals))]


@given(skewed, skewed, st.integers(0, 6), st.integers(0, 4))
def test_pruned_columns_are_exact_on_every_minimum_cost_path(a, b, slack, extra):
    # run_pruned drops rows whose value plus the least cost left exceeds ``upper``: D(n, m)
    # stays exact, every value it keeps is the cost of a real path (>= the DP), and every
    # cell with F + G = d (F of the prefixes, G of the suffixes) is kept, with its value F
    d = A.levenshtein_dp(a, b)
    kmin, kmax = B.band_of(len(a), len(b), d + slack)
    cols = B.BandedColumns(a, b, kmin, kmax)
    got, kept = cols.run_pruned(d + extra, range(len(b) + 1))
    assert got == d
    F = _restricted_dp(a, b, -len(a), len(b))
    G = _restricted_dp(a[::-1], b[::-1], -len(a), len(b))
    n, m = len(a), len(b)
    for j in range(m + 1):
        lo, vals = cols.column(j, kept[j])
        rows = {lo + r: v for r, v in enumerate(vals.tolist())}
        assert all(v >= F[i][j] for i, v in rows.items())
        for i in range(n + 1):
            if F[i][j] + G[n - i][m - j] == d:
                assert rows.get(i) == F[i][j], (i, j)


@given(skewed, skewed)
def test_pruned_columns_below_the_distance_give_a_path_cost_or_refuse(a, b):
    # upper < d: every value kept is still a real path's cost, so the answer is >= d, or
    # row n has left the window and the sweep says so
    d = A.levenshtein_dp(a, b)
    kmin, kmax = B.band_of(len(a), len(b), d)
    for upper in range(d):
        try:
            got, _ = B.BandedColumns(a, b, kmin, kmax).run_pruned(upper)
        except ValueError as e:
            assert "below the distance" in str(e)
        else:
            assert got >= d


def test_pruned_columns_refuse_a_bound_far_below_the_distance():
    # a..h against h..a: d = 8; with upper 0 only the cells of cost-0 paths could stay
    # (none past the first column), so row 8 leaves the window
    a, b = list("abcdefgh"), list("hgfedcba")
    assert A.levenshtein_dp(a, b) == 8
    with pytest.raises(ValueError, match="below the distance"):
        B.BandedColumns(a, b, *B.band_of(8, 8, 8)).run_pruned(0)


@given(skewed, skewed, st.integers(0, 5))
def test_a_band_for_the_set_alone_gives_the_full_bands_set(a, b, slack):
    d = A.levenshtein_dp(a, b)
    band = P.PrunedBand(a, b, d + slack, spacing=3, budget=1 << 30, store=None, share=False)
    assert band.solve() and band.d == d and band.unit is None
    assert band.insertion_set() == A.Band(a, b, d).insertion_set()


def test_a_band_too_narrow_gives_an_upper_bound():
    # a = a..j p q r, b = p q r a..j: d = 6 (insert p q r, delete p q r), a path along
    # diagonal 3; the band -1..1 holds no such path, so its value is a larger upper bound
    a, b = list("abcdefghij") + ["p", "q", "r"], ["p", "q", "r"] + list("abcdefghij")
    d = A.levenshtein_dp(a, b)
    assert d == 6
    got, _ = B.BandedColumns(a, b, -1, 1).run()
    assert got > d
    assert B.banded_distance(a, b) == d


@given(tokens, tokens)
def test_pruned_sets_equal_brute_force(a, b):
    d, found = brute_force(a, b)
    band = P.PrunedBand(a, b, d, spacing=2, budget=1 << 30)
    assert band.solve() and band.d == d
    got = {A.counts_from_insertions(d, len(a), len(b), k) for k in A._bits(band.insertion_set())}
    assert got == found


@pytest.mark.parametrize("spacing", [1, 3, 64])
@given(a=skewed, b=skewed, slack=st.integers(0, 5))
def test_pruned_band_agrees_with_the_full_band(spacing, a, b, slack):
    d = A.levenshtein_dp(a, b)
    full = A.Band(a, b, d)
    for share in (True, False):        # the reversed sweep over the whole band, or pruned
        band = P.PrunedBand(a, b, d + slack, spacing=spacing, budget=1 << 30, share=share)  # any upper bound will do
        assert band.solve() and band.d == d
        assert band.insertion_set() == full.insertion_set()
        for rule in RULES:
            assert band.walk(rule) == A.backtrace(full, rule), (rule, share)


def test_long_natural_pairs_take_the_pruned_band_and_repetitive_ones_the_sweep():
    r = random.Random(3)
    words = ["w%d" % k for k in range(300)]
    weights = [1 / (k + 1) for k in range(300)]        # Zipf vocabulary
    a = r.choices(words, weights, k=3000)
    b = [t if r.random() > 0.1 else r.choice(words) for t in a if r.random() > 0.03]
    band = A.make_band(a, b)
    assert isinstance(band, P.PrunedBand) and band.d == A.levenshtein(a, b)
    linear = W.LinearBand(a, b, band.d)
    assert band.insertion_set() == linear.insertion_set()
    for rule in RULES:
        assert band.walk(rule) == linear.walk(rule), rule
    # "a" x 600 against "a" x 1,200: every cell of the band ties; the pruned DP gives up
    rep = A.make_band(["a"] * 600, ["a"] * 1200)
    assert isinstance(rep, W.LinearBand) and rep.d == 600


def test_the_budget_is_reported_not_exceeded():
    a, b = ["a"] * 400, ["a"] * 800
    band = P.PrunedBand(a, b, 400, budget=2)
    assert band.solve() is False and band.d == 400 and band.columns == []


def test_a_100000_token_pair_by_a_unit_rule_within_500_mb():
    # the size test of issue 16 on the pruned path (tie=any, which adds sclite's weighted
    # sweep, runs in the nightly profile: tests/test_alignment_linear.py)
    from tests.test_alignment_linear import _measure
    got = _measure(100_000, 0.1, "rapidfuzz")
    assert got["sets"] == 1
    assert got["peak_kb"] < 500 * 1024


def _lcs_restricted(a, b, kmin, kmax):
    """L(i, j) of the LCS DP with every cell outside kmin <= j - i <= kmax at minus infinity."""
    n, m = len(a), len(b)
    neg = float("-inf")
    L = [[neg] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if not kmin <= j - i <= kmax:
                continue
            if i == 0 or j == 0:
                L[i][j] = 0
                continue
            L[i][j] = max(L[i - 1][j], L[i][j - 1], L[i - 1][j - 1] + (a[i - 1] == b[j - 1]))
    return L


@given(skewed, skewed, st.integers(0, 30))
def test_banded_lcs_holds_the_band_restricted_lcs(a, b, t):
    from oracle.alignment_weighted import BandedLCS
    kmin, kmax = B.band_of(len(a), len(b), abs(len(b) - len(a)) + t)
    cols = BandedLCS(a, b, kmin, kmax)
    got, kept = cols.run(range(len(b) + 1))
    L = _lcs_restricted(a, b, kmin, kmax)
    assert got == L[len(a)][len(b)]
    for j in range(len(b) + 1):
        lo, vals = cols.column(j, kept[j])
        assert vals.tolist() == [L[lo + r][j] for r in range(len(vals))]


@pytest.mark.parametrize("spacing", [1, 3, 64])
@given(a=skewed, b=skewed, lcs_slack=st.sampled_from([0.0, 0.5]))
def test_pruned_sclite_walk_is_the_full_band_walk(spacing, a, b, lcs_slack):
    from oracle.alignment_weighted import sclite_pruned
    d = A.levenshtein_dp(a, b)
    saved = A.LINEAR_CELLS
    A.LINEAR_CELLS = 1 << 62
    try:
        want = A.sclite_alignment(a, b, d)
    finally:
        A.LINEAR_CELLS = saved
    assert sclite_pruned(a, b, d, spacing=spacing, budget=1 << 30, lcs_slack=lcs_slack) == want
    band = P.PrunedBand(a, b, d + 2, spacing=spacing, budget=1 << 30)   # its reversed sweep, reused
    assert band.solve()
    assert sclite_pruned(a, b, d, spacing=spacing, budget=1 << 30, unit=band.unit) == want
    # and the indel bound d + (fewest substitutions) that alignment() derives from the band's set
    h, s, dl, i = A.counts_from_insertions(d, len(a), len(b), band.insertion_set().bit_length() - 1)
    lcs = _lcs_restricted(a, b, -len(a), len(b))[len(a)][len(b)]
    assert len(a) + len(b) - 2 * lcs <= d + s          # the bound holds: each substitution is a deletion and an insertion
    assert sclite_pruned(a, b, d, spacing=spacing, budget=1 << 30, unit=band.unit, indel_upper=d + s) == want


@given(tokens, tokens)
def test_pruned_sclite_walk_has_the_least_weight(a, b):
    from oracle.alignment_weighted import sclite_pruned
    best, _ = brute_force(a, b, (A.SCLITE_SUB, A.SCLITE_DEL, A.SCLITE_INS))
    h, s, dl, i = A.counts_of(sclite_pruned(a, b, A.levenshtein_dp(a, b), spacing=2, budget=1 << 30))
    assert 4 * s + 3 * (dl + i) == best


@given(a=skewed, b=skewed)
def test_a_band_keeping_costs_only_walks_as_the_full_band(a, b):
    d = A.levenshtein_dp(a, b)
    full = A.Band(a, b, d)
    band = P.PrunedBand(a, b, d, spacing=3, budget=1 << 30, store="costs")
    assert band.solve() and band.insertion_set() == full.insertion_set()
    for rule in RULES:   # the preference rules solve again, keeping the sets
        assert band.walk(rule) == A.backtrace(full, rule), rule
    bare = P.PrunedBand(a, b, d, spacing=3, budget=1 << 30, store=None)
    assert bare.solve() and bare.columns == [] and bare.walk("rapidfuzz") == A.backtrace(full, "rapidfuzz")


@pytest.mark.parametrize("seed,vocab,shape", [(1, 3, "edits"), (2, 2000, "edits"), (3, 10, "unrelated"),
                                              (4, 100, "deletion")])
def test_medium_pairs_agree_with_the_linear_sweeps(seed, vocab, shape):
    # pairs of ~800 tokens, where the hypothesis tests' 40 do not reach: the pruned DP and
    # sclite's pruned walk against the band sweeps of oracle.alignment_walks (independent code)
    from oracle.alignment_weighted import sclite_pruned
    r = random.Random(seed)
    a = [r.randrange(vocab) for _ in range(800)]
    if shape == "unrelated":
        b = [r.randrange(vocab) for _ in range(700)]
    elif shape == "deletion":
        b = a[250:]
    else:
        b = []
        for t in a:
            u = r.random()
            if u < 0.03:
                continue
            b.extend([r.randrange(vocab)] if u < 0.06 else ([t, r.randrange(vocab)] if u < 0.1 else [t]))
    d = A.levenshtein(a, b)
    linear = W.LinearBand(a, b, d)
    band = P.PrunedBand(a, b, d + 7, budget=1 << 30)
    assert band.solve() and band.d == d
    assert band.insertion_set() == linear.insertion_set()
    for rule in RULES:
        assert band.walk(rule) == linear.walk(rule), rule
    want = W.sclite_walk(a, b, d)
    assert sclite_pruned(a, b, d, budget=1 << 30) == want
    assert sclite_pruned(a, b, d, budget=1 << 30, unit=band.unit) == want


def _banded_dp_numpy(a, b, kmin, kmax, at):
    """{j: D(., j) over rows 0..n} for j in ``at``, of the DP restricted to the band (cells
    outside it infinite), column by column with NumPy: the diagonal and horizontal moves
    elementwise, the vertical ones by a running minimum (D(i) = min over i' <= i of
    C(i') + i - i')."""
    import numpy as np
    n = len(a)
    big = 1 << 40
    rows = np.arange(n + 1)
    ai = np.array([hash(t) for t in a], dtype=np.int64)
    prev = np.where(rows <= -kmin, rows, big)             # column 0: D(i, 0) = i inside the band
    out = {0: prev} if 0 in at else {}
    for j in range(1, len(b) + 1):
        c = np.full(n + 1, big, np.int64)
        c[0] = j
        c[1:] = np.minimum(prev[:-1] + (ai != hash(b[j - 1])), prev[1:] + 1)
        cur = np.minimum.accumulate(c - rows) + rows
        k = j - rows
        cur = np.where((k >= kmin) & (k <= kmax), np.minimum(cur, big), big)
        prev = cur
        if j in at:
            out[j] = cur
    return out


@pytest.mark.parametrize("half", [24, 700])
def test_windows_that_cross_row_blocks_hold_the_band_restricted_dp(half):
    # a window's match bits are read from two row blocks of at least 4,096 rows; pairs
    # of 5,000 tokens slide the window across a block boundary (with width 1,506 about
    # a third of the columns read both blocks). Zipf-like vocabulary: the frequent
    # tokens' blocks are dense ints
    r = random.Random(11)
    words = ["w%d" % k for k in range(200)]
    weights = [1 / (k + 1) for k in range(200)]
    a = r.choices(words, weights, k=5000)
    b = [t if r.random() > 0.08 else r.choice(words) for t in a if r.random() > 0.02]
    kmin, kmax = min(0, len(b) - len(a)) - half, max(0, len(b) - len(a)) + half
    at = set(range(0, len(b) + 1, 97)) | {len(b)}
    ref = _banded_dp_numpy(a, b, kmin, kmax, at)
    cols = B.BandedColumns(a, b, kmin, kmax)
    assert cols.block == 4096
    got, kept = cols.run(at)
    assert got == int(ref[len(b)][len(a)])
    for j in sorted(at):
        lo, vals = cols.column(j, kept[j])
        assert vals.tolist() == ref[j][lo:lo + len(vals)].tolist(), j
    # the pruned sweep at the banded value: the same D(n, m), and every kept value a
    # real path's cost inside the band (>= the band-restricted DP)
    pgot, pkept = B.BandedColumns(a, b, kmin, kmax).run_pruned(got, at)
    assert pgot == got
    for j in sorted(at):
        lo, vals = cols.column(j, pkept[j])
        assert (vals >= ref[j][lo:lo + len(vals)]).all(), j


def test_the_bound_over_a_range_is_the_bound_at_each_diagonal():
    # _lb_range (slope-1 ranges either side of the fill, its values between) against _far
    # one diagonal at a time, for ranges left of, across, inside and right of the fill
    import numpy as np
    fill = np.array([5, 4, 4, 5, 6, 6, 7], dtype=np.int64)
    for ta in (0, 3, 10):
        for t0 in range(0, 22):
            for t1 in range(t0 - 1, 24):
                assert P._lb_range(fill, ta, t0, t1) == [P._far((fill, ta), t) for t in range(t0, t1)], (ta, t0, t1)
    assert P._lb_range(np.array([], dtype=np.int64), 0, 2, 5) == [B.INF] * 3
