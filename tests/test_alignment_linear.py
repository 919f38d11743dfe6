"""Alignment in linear memory (oracle.alignment_linear): the tight-cell DP gives the
admissible sets, every tie rule's alignment and sclite's alignment exactly as the
full banded DP does, and its memory stays linear on long pairs (issue: a 5,000-token
pair used to take 3.8 GB, a 100,000-token one was killed at 23.8 GB)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle import alignment as A
from oracle import alignment_linear as L
from oracle import alignment_walks as W

from tests.test_oracle_error_rates import brute_force

ROOT = Path(__file__).resolve().parents[1]
RULES = ("diagonal-first", "rapidfuzz", "prefer-substitution", "prefer-deletion-insertion")
small = st.lists(st.sampled_from("abcd"), max_size=6)
# longer pairs over a skewed vocabulary: several checkpoint stretches, long ties
skewed = st.lists(st.sampled_from("aaaabbbcd"), max_size=40)


def _full_band_sclite(a, b, d, monkeypatch):
    monkeypatch.setattr(A, "LINEAR_CELLS", 1 << 62)
    return A.sclite_alignment(a, b, d)


@given(small, small)
def test_tight_cells_give_the_brute_force_sets(a, b):
    d, found = brute_force(a, b)
    got = {A.counts_from_insertions(d, len(a), len(b), k) for k in A._bits(L.admissible_insertions(a, b, d))}
    assert got == found


@given(small, small)
def test_sclite_walk_is_a_minimum_weighted_alignment(a, b):
    best, _ = brute_force(a, b, (A.SCLITE_SUB, A.SCLITE_DEL, A.SCLITE_INS))
    h, s, dl, i = A.counts_of(W.sclite_walk(a, b, A.levenshtein(a, b)))
    assert 4 * s + 3 * (dl + i) == best


@pytest.mark.parametrize("levels", [1, 2, 3, 5])
@given(a=skewed, b=skewed)
def test_the_linear_path_agrees_with_the_full_band(levels, a, b):
    d = A.levenshtein(a, b)
    old = (L.levels_for, W.levels_for)
    L.levels_for = W.levels_for = lambda n, width: levels   # every depth of the checkpointed reversal
    try:
        full = A.Band(a, b, d)
        assert L.admissible_insertions(a, b, d) == full.insertion_set()
        got = W.walks(a, b, d)
        for rule in RULES:
            assert got[rule] == A.backtrace(full, rule), rule
        weighted = W.sclite_walk(a, b, d)
    finally:
        L.levels_for, W.levels_for = old
    saved = A.LINEAR_CELLS
    A.LINEAR_CELLS = 1 << 62
    try:
        assert weighted == A.sclite_alignment(a, b, d)
    finally:
        A.LINEAR_CELLS = saved


def test_descending_rows_are_the_forward_rows_reversed():
    a, b = list("abcabcbbac" * 7), list("bcaacbbcab" * 6)
    d = A.levenshtein(a, b)
    kmin, width = L.band_limits(len(a), len(b), d)
    ca, cb = L._codes(a, b)
    sweep = L.Sweep(ca, cb, kmin, width, (1, 1, 1))
    rows = [sweep.first()]
    for i in range(1, len(a) + 1):
        rows.append(sweep.next(i, rows[-1]))
    for levels in (1, 2, 3, 4):
        got = list(sweep.rows_descending(levels))
        assert [i for i, _ in got] == list(range(len(a), -1, -1))
        assert all((row == rows[i]).all() for i, row in got)
    # the last row's cell (n, m) is the distance
    assert int(rows[-1][len(b) - len(a) - kmin]) == d


def test_long_pairs_take_the_linear_path():
    a = ["w%d" % (k % 37) for k in range(600)]
    b = ["w%d" % (k % 41) for k in range(580)]
    d = A.levenshtein(a, b)
    assert A._band_cells(len(a), len(b), d) > A.LINEAR_CELLS
    assert isinstance(A.make_band(a, b, d), W.LinearBand)
    assert isinstance(A.make_band(a[:20], b[:20], A.levenshtein(a[:20], b[:20])), A.Band)


_MEASURE = textwrap.dedent("""
    import json, random, resource, sys, time
    sys.path.insert(0, sys.argv[1])
    from oracle import compute
    n, rate = int(sys.argv[2]), float(sys.argv[3])
    tie = sys.argv[4]
    r = random.Random(7)
    words = ["w%d" % k for k in range(5000)]
    weights = [1 / (k + 1) for k in range(5000)]   # Zipf vocabulary
    ref = r.choices(words, weights, k=n)
    if rate < 0:                                   # one word repeated: every cell of the band is tight
        ref, hyp = ["a"] * n, ["a"] * (2 * n)
    elif rate >= 1:
        hyp = r.choices(words, weights, k=n)       # unrelated texts: the widest band
    else:
        hyp = []
        for t in ref:
            u = r.random()
            if u < rate / 3:
                hyp.append(r.choices(words, weights)[0])
            elif u < 2 * rate / 3:
                pass
            elif u < rate:
                hyp += [t, r.choices(words, weights)[0]]
            else:
                hyp.append(t)
    def peak_kb():
        # VmHWM: the peak RSS of this address space, which exec replaces; ru_maxrss can carry
        # the parent's peak over a vfork-and-exec (a pytest process of 1.4 GB showed through)
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    before = peak_kb()
    t0 = time.time()
    res = compute("error_counts", {"references": [" ".join(ref)], "hypotheses": [" ".join(hyp)]}, {"tie": tie})
    print(json.dumps({"seconds": time.time() - t0, "before_kb": before, "peak_kb": peak_kb(),
                      "sets": len(res.parts.get("admissible_counts", [res.value]))}))
""")


def _measure(n: int, rate: float, tie: str = "any") -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(ROOT), str(n), str(rate), tie],
                         capture_output=True, text=True, timeout=900, check=True)
    return json.loads(out.stdout)


def test_alignment_memory_is_linear_on_unrelated_texts():
    # 8,000 unrelated tokens: the full band holds 8,001 x ~8,000 cells, about 9 GB
    # at the full DP's ~150 bytes a cell; the tight cells and int32 checkpoints need
    # a few tens of MB.
    got = _measure(8000, 1.0)
    assert got["sets"] >= 1
    assert (got["peak_kb"] - got["before_kb"]) < 300 * 1024


@pytest.mark.parametrize("tie", ["any", "prefer-substitution", "sclite"])
def test_alignment_memory_is_linear_when_every_cell_ties(tie):
    # "a" x 3,000 against "a" x 6,000: every cell of the band lies on a minimum-cost path;
    # keeping those cells took 4.4 GB (tie=any) and 3.4 GB (prefer-substitution)
    got = _measure(3000, -1.0, tie)
    assert (got["peak_kb"] - got["before_kb"]) < 200 * 1024


@pytest.mark.slow
def test_a_100000_token_pair_within_500_mb():
    got = _measure(100_000, 0.1)
    assert got["sets"] >= 1
    assert got["peak_kb"] < 500 * 1024
