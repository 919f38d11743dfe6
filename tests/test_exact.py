"""The exact core: simplification, certified digits, parsing, comparison."""
from fractions import Fraction as F
import math

import pytest
from hypothesis import given, strategies as st

from oracle.compare import Tolerance, compare, ulp_distance
from oracle.exact import Undefined, exact_str, exp, log, power, product, total
from oracle.parse import parse_exact
from oracle.certified import digits, places, same_value, to_float, to_sympy

# Published constants (OEIS A001113, A002162, A002193), independent of this code.
E_50 = "2.7182818284590452353602874713526624977572470937000"
LN2_40 = "0.6931471805599453094172321214581765680755"
SQRT2_40 = "1.414213562373095048801688724209698078570"


def test_certified_digits_match_published_constants():
    assert digits(exp(1), 50) == E_50
    assert digits(log(2), 40) == LN2_40
    assert digits(power(2, F(1, 2)), 40) == SQRT2_40


def test_rational_simplification():
    assert power(F(1, 4), F(1, 2)) == F(1, 2)
    assert power(F(8), F(2, 3)) == 4
    assert exp(0) == 1 and log(1) == 0
    assert exp(log(F(3, 7))) == F(3, 7)
    # (1/2 * 1/4 * 1/2 * 1)**(-1/4) = (1/16)**(-1/4) = 2: the document's model A perplexity
    assert power(product([F(1, 2), F(1, 4), F(1, 2), F(1)]), F(-1, 4)) == 2
    assert product([exp(F(1, 3)), exp(F(-1, 3))]) == 1
    assert total([F(1, 2), F(1, 3)]) == F(5, 6)


def test_closed_form_text_round_trips():
    b = product([exp(F(1) - F(6, 5)), power(F(3, 4), F(1, 2))])
    assert exact_str(b) == "exp(-1/5)*(3/4)**(1/2)"
    assert parse_exact(exact_str(b)) == b
    assert parse_exact("sqrt(1/2)") == power(F(1, 2), F(1, 2))


@pytest.mark.parametrize("bad", ["", "0.5", "x + 1", "exp(1, 2)", "2**x", "1/0", "__import__('os')"])
def test_parse_rejects(bad):
    with pytest.raises(ValueError):
        parse_exact(bad)


def test_places_rounds_half_even_for_rationals_and_certifies_closed_forms():
    assert places(F(1, 8), 2) == "0.12"      # 0.125 -> half-even
    assert places(F(3, 8), 2) == "0.38"
    assert places(F(2, 3), 3) == "0.667"
    assert places(exp(F(-1, 5)), 4) == "0.8187"  # exp(-0.2) = 0.818730753...


def test_to_float_is_correctly_rounded():
    x = product([exp(F(-1, 5)), power(F(3, 4), F(1, 2))])
    f = to_float(x)
    lo, hi = F(f) - F(math.ulp(f)) / 2, F(f) + F(math.ulp(f)) / 2
    from oracle.certified import interval
    a, b = interval(x, 200)
    assert lo <= a and b <= hi


@given(st.fractions(min_value=F(1, 1000), max_value=F(1000), max_denominator=1000), st.integers(1, 25))
def test_rational_digits_are_exact_rounding(q, n):
    text = digits(q, n)
    # the text is within half a unit in the n-th significant digit
    v = F(text)
    e = math.floor(math.log10(abs(q)))
    assert abs(v - q) <= F(10) ** (e - n + 1) / 2 + F(10) ** (e - n + 1) / 10 ** 6


def test_same_value_and_undefined():
    assert same_value(parse_exact("4*log(2)"), parse_exact("log(16)"))
    assert not same_value(parse_exact("log(2)"), F(693147, 1000000))
    assert same_value(Undefined("0/0"), Undefined("other reason"))
    assert not same_value(Undefined("x"), F(0))


def test_to_sympy_agrees():
    import sympy
    x = parse_exact("exp(-1/5)*(3/4)**(1/2)")
    assert sympy.N(to_sympy(x), 30) == sympy.N(sympy.exp(sympy.Rational(-1, 5)) * sympy.sqrt(sympy.Rational(3, 4)), 30)


def test_compare_ulps_and_verdicts():
    one_up = math.nextafter(1.0, 2.0)
    assert ulp_distance(1.0, one_up) == 1
    assert ulp_distance(-0.0, 0.0) == 0
    assert compare(0.5, F(1, 2), Tolerance()).verdict == "equal"
    c = compare(one_up, F(1), Tolerance(ulps=1))
    assert c.verdict == "within" and c.ulps == 1
    assert compare(one_up, F(1), Tolerance()).verdict == "outside"
    assert compare(float("nan"), F(1), Tolerance(ulps=10)).verdict == "outside"
    assert compare(None, Undefined("0/0"), Tolerance()).verdict == "both-undefined"
    assert compare(0.0, Undefined("0/0"), Tolerance()).verdict == "undefined-mismatch"


def test_import_oracle_does_not_import_sympy_or_mpmath():
    """Import time itself is measured by `metric-conformance bench`; here, the laziness."""
    import subprocess, sys
    code = ("import oracle, oracle.registry, sys; "
            "print(sorted(m for m in ('sympy', 'mpmath', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_structured_values_compare_leaf_by_leaf():
    from oracle.compare import compare_value
    exact = [[F(3), F(1)], [F(0), F(2)]]
    assert compare_value([[3, 1], [0, 2]], exact, Tolerance()).verdict == "equal"
    c = compare_value([[3, 1], [1, 2]], exact, Tolerance())
    assert c.verdict == "outside" and c.path == "[1][0]"
    assert compare_value([[3, 1]], exact, Tolerance()).verdict == "shape-mismatch"
    d = {"PER": F(2, 3), "LOC": Undefined("no samples")}
    assert compare_value({"PER": 2 / 3, "LOC": None}, d, Tolerance(ulps=1)).agrees
    assert compare_value({"PER": 2 / 3}, d, Tolerance(ulps=1)).verdict == "shape-mismatch"
    assert same_value({"a": [F(1, 2)]}, {"a": [parse_exact("1/2")]})
    assert not same_value({"a": [F(1, 2)]}, {"a": [F(1, 3)]})
