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
from oracle.alignment_linear import TightBand, sclite_walk

from tests.test_oracle_error_rates import brute_force

ROOT = Path(__file__).resolve().parents[1]
RULES = ("diagonal-first", "rapidfuzz", "prefer-substitution", "prefer-deletion-insertion")
small = st.lists(st.sampled_from("abcd"), max_size=6)
# longer pairs over a skewed vocabulary: several checkpoint blocks, long ties
skewed = st.lists(st.sampled_from("aaaabbbcd"), max_size=40)


@given(small, small)
def test_tight_cells_give_the_brute_force_sets(a, b):
    d, found = brute_force(a, b)
    tb = TightBand(a, b, d)
    assert tb.total == d
    got = {A.counts_from_insertions(d, len(a), len(b), k) for k in A._bits(tb.insertion_set())}
    assert got == found


@given(small, small)
def test_sclite_walk_is_a_minimum_weighted_alignment(a, b):
    best, _ = brute_force(a, b, (A.SCLITE_SUB, A.SCLITE_DEL, A.SCLITE_INS))
    d = A.levenshtein(a, b)
    tb = TightBand(a, b, d, (A.SCLITE_SUB, A.SCLITE_DEL, A.SCLITE_INS), bound=(4 * d) // 3)
    assert tb.total == best
    h, s, dl, i = A.counts_of(sclite_walk(a, b, tb))
    assert 4 * s + 3 * (dl + i) == best


@given(skewed, skewed)
def test_tight_band_agrees_with_the_full_band(a, b):
    d = A.levenshtein(a, b)
    full, tight = A.Band(a, b, d), TightBand(a, b, d)
    assert tight.insertion_set() == full.insertion_set()
    for rule in RULES:
        assert A.backtrace(tight, rule) == A.backtrace(full, rule), rule
    weighted = TightBand(a, b, d, (A.SCLITE_SUB, A.SCLITE_DEL, A.SCLITE_INS), bound=(4 * d) // 3)
    assert sclite_walk(a, b, weighted) == A.sclite_alignment(a, b, d)


def test_long_pairs_take_the_linear_path():
    a = ["w%d" % (k % 37) for k in range(600)]
    b = ["w%d" % (k % 41) for k in range(580)]
    d = A.levenshtein(a, b)
    assert A._band_cells(len(a), len(b), d) > A.LINEAR_CELLS
    assert isinstance(A.make_band(a, b, d), TightBand)
    assert isinstance(A.make_band(a[:20], b[:20], A.levenshtein(a[:20], b[:20])), A.Band)


_MEASURE = textwrap.dedent("""
    import json, random, resource, sys, time
    sys.path.insert(0, sys.argv[1])
    from oracle import compute
    n, rate = int(sys.argv[2]), float(sys.argv[3])
    r = random.Random(7)
    words = ["w%d" % k for k in range(5000)]
    weights = [1 / (k + 1) for k in range(5000)]   # Zipf vocabulary
    ref = r.choices(words, weights, k=n)
    if rate >= 1:
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
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.time()
    res = compute("error_counts", {"references": [" ".join(ref)], "hypotheses": [" ".join(hyp)]}, {"tie": "any"})
    print(json.dumps({"seconds": time.time() - t0, "before_kb": before,
                      "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "sets": len(res.parts["admissible_counts"])}))
""")


def _measure(n: int, rate: float) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(ROOT), str(n), str(rate)],
                         capture_output=True, text=True, timeout=900, check=True)
    return json.loads(out.stdout)


def test_alignment_memory_is_linear_on_unrelated_texts():
    # 8,000 unrelated tokens: the full band holds 8,001 x ~8,000 cells, about 9 GB
    # at the full DP's ~150 bytes a cell; the tight cells and int32 checkpoints need
    # a few tens of MB.
    got = _measure(8000, 1.0)
    assert got["sets"] >= 1
    assert (got["peak_kb"] - got["before_kb"]) < 300 * 1024


@pytest.mark.slow
def test_a_100000_token_pair_within_500_mb():
    got = _measure(100_000, 0.1)
    assert got["sets"] >= 1
    assert got["peak_kb"] < 500 * 1024
