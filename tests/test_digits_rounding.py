"""Certified digits round half to even on exact ties (oracle.certified.digits): pinned on
values whose decimal expansion ends exactly at the half (a gap a mutation analysis found)."""
from fractions import Fraction

import pytest

from oracle.certified import digits


@pytest.mark.parametrize("x, n, want", [
    (Fraction(1, 8), 2, "0.12"),    # 0.125 -> the even neighbour 0.12 (half up would give 0.13)
    (Fraction(3, 8), 2, "0.38"),    # 0.375 -> 0.38 (8 is even)
    (Fraction(5, 2), 1, "2"),       # 2.5 -> 2
    (Fraction(7, 2), 1, "4"),       # 3.5 -> 4
    (Fraction(-5, 2), 1, "-2"),     # the sign does not change the rule
    (Fraction(1251, 10000), 2, "0.13"),  # just above the half: up
])
def test_half_to_even(x, n, want):
    assert digits(x, n) == want
