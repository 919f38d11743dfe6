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


def _in_a_subprocess(code: str) -> str:
    """``code``'s printed output, run in a fresh interpreter bounded to 60 s: the forms below
    took minutes and gigabytes (a hang, not a slowness) before their bounds."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=True).stdout.strip()


def test_digits_of_exp_of_a_billion_come_from_its_logarithm():
    """exp(10**9)'s interval bounds have 1.4 billion integer bits; turned into fractions they
    hung ``check`` (``HUGE_BITS``). By hand, with the decimal module: log10(e**(10**9)) =
    10**9 / ln 10, whose integer part is the exponent and whose fraction f gives the
    mantissa 10**f."""
    from decimal import Decimal, getcontext
    getcontext().prec = 50
    l10 = Decimal(10 ** 9) / Decimal(10).ln()
    exponent = int(l10)
    mantissa = (Decimal(10) ** (l10 - exponent)).quantize(Decimal("1.00000000000"))
    got = _in_a_subprocess("from oracle.parse import parse_exact; from oracle.certified import digits; "
                           "print(digits(parse_exact('exp(10**9)'), 12))")
    assert got == f"{mantissa}e{exponent}"


def test_a_root_of_a_billionth_degree_is_not_built_as_a_power_of_two():
    """(1/2)**(1/10**9) asked whether 2 is the billionth power of an integer by computing
    2**(10**9) (5 s, 450 MB; 74 s on a slower machine). By hand with the decimal module:
    exp(-ln 2 / 10**9)."""
    from decimal import Decimal, getcontext
    getcontext().prec = 50
    want = (-(Decimal(2).ln()) / Decimal(10 ** 9)).exp().quantize(Decimal("1." + "0" * 20))   # 20 significant digits after "0."
    got = _in_a_subprocess("import tracemalloc; tracemalloc.start(); "
                           "from oracle.parse import parse_exact; from oracle.certified import digits; "
                           "print(digits(parse_exact('(1/2)**(1/10**9)'), 20), tracemalloc.get_traced_memory()[1])")
    value, peak = got.split()
    assert Decimal(value) == want
    assert int(peak) < 16 * 2 ** 20, f"{int(peak) / 2 ** 20:.0f} MB at the peak"   # 2**(10**9) alone is 119 MB


def test_a_double_against_an_exact_value_beyond_any_double_is_outside():
    from oracle.compare import compare
    from conformance.protocol import Tolerance
    assert compare(1e300, Exp(Rat(Fraction(10 ** 9))), Tolerance()).verdict == "outside"
