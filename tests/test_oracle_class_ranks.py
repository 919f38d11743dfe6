"""The reciprocal rank of the true class (oracle.class_ranks) against brute-force
enumeration: every order of the classes that sorts the scores descending, the true
class's position read off each; the tie rules are the mean, the best, the worst and the
reversed-stable order."""
from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from oracle.class_ranks import reciprocal_rank_of
from oracle.registry import compute

rows = st.lists(st.integers(0, 3), min_size=1, max_size=5)


def _positions(row, true):
    """The 1-based position of ``true`` in every descending order of the scores."""
    out = []
    for order in permutations(range(len(row))):
        if all(row[order[i]] >= row[order[i + 1]] for i in range(len(order) - 1)):
            out.append(order.index(true) + 1)
    return out


@given(rows, st.data(), st.one_of(st.none(), st.integers(1, 5)))
def test_tie_rules_against_every_order(row, data, k):
    true = data.draw(st.integers(0, len(row) - 1))
    pos = _positions(row, true)
    rr = [Fraction(1, p) if k is None or p <= k else Fraction(0) for p in pos]
    assert reciprocal_rank_of(row, true, k, "expected") == sum(rr, Fraction(0)) / len(rr)
    assert reciprocal_rank_of(row, true, k, "optimistic") == max(rr)
    assert reciprocal_rank_of(row, true, k, "pessimistic") == min(rr)
    # a stable sort of the scores ascending, reversed: among ties the higher index first
    stable = sorted(range(len(row)), key=lambda j: row[j])[::-1]
    p = stable.index(true) + 1
    assert reciprocal_rank_of(row, true, k, "reverse-label-order") == (Fraction(1, p) if k is None or p <= k else 0)


def test_the_mean_over_samples_and_two_classes():
    # two classes, true classes 1 and 0: sample 0 [0.2, 0.8] ranks class 1 first (1);
    # sample 1 [0.5, 0.5] ties: positions 1 or 2, expected (1 + 1/2) / 2 = 3/4; mean 7/8
    r = compute("label_reciprocal_rank", {"y_true": [1, 0], "y_score": [[0.2, 0.8], [0.5, 0.5]]}, {})
    assert r.value == Fraction(7, 8) and r.parts["per_sample"] == ["1", "3/4"]
