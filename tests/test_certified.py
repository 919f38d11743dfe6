"""Certified conversions at the edges of the double range."""
from fractions import Fraction

from oracle.certified import to_float
from oracle.exact import Exp, Rat


def test_to_float_beyond_the_largest_double_is_an_infinity():
    # IEEE 754 round-to-nearest: a magnitude of 2**1024 or more rounds to inf; the perplexity
    # of one token of probability 5e-324 (2**-1074) is 2**1074 (it raised OverflowError)
    assert to_float(Fraction(2 ** 1074)) == float("inf")
    assert to_float(Fraction(-(2 ** 1100), 3)) == float("-inf")
    assert to_float(Fraction(2 ** 1023)) == 2.0 ** 1023
    assert to_float(Exp(Rat(Fraction(800)))) == float("inf")   # e**800 > 2**1154


def test_to_float_of_a_closed_form_far_beyond_the_double_range():
    # exp(10**7): its 64-bit interval's ends have exponents of about 1.4e7 bits, whose rationals
    # mpmath refuses to build ("too many digits in integer"); the sign decides
    assert to_float(Exp(Rat(Fraction(10 ** 7)))) == float("inf")
