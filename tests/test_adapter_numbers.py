"""adapters._numbers: number texts read without expanding an exponent (a bad-input row's
probability "1e-999999999" made ``Fraction`` build 10**999999999 and hung the run)."""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest

from adapters._numbers import as_float, exact_number, ln, ln_complement


def test_texts_read_exactly():
    assert exact_number("1/3") == Fraction(1, 3)
    assert exact_number(" 2.5e-7 ") == Decimal("2.5e-7")
    assert exact_number("1e-999999999") > 0          # exact: not rounded to 0
    assert exact_number("1e-999999999") < Fraction(1, 10 ** 300)
    assert exact_number(3) == 3
    with pytest.raises(ValueError):
        exact_number("x")


def test_doubles_correctly_rounded_and_saturated():
    assert as_float("1/3") == 1 / 3
    assert as_float("0.1") == 0.1
    assert as_float("1e-999999999") == 0.0           # below the doubles
    assert as_float("-1e999999999") == -math.inf     # beyond them
    assert as_float("10" + "0" * 400 + "/3") == math.inf


def test_logs_at_any_exponent():
    # ln(10**-999999999) = -999999999 ln 10, ln 10 = 2.302585092994045684...
    assert ln("1e-999999999") == pytest.approx(-999999999 * 2.302585092994045684, rel=1e-15)
    assert ln("1/2") == -math.log(2)
    assert ln(0) == -math.inf
    assert ln_complement("1e-999999999") == 0.0      # ln(1 - 1e-999999999) rounds to -0.0
    assert ln_complement("1") == -math.inf
    assert ln_complement("1/4") == math.log(3 / 4)
    assert ln_complement(0.5) == -math.log(2)


def test_a_knob_value_without_a_double_is_not_a_setting_the_library_can_take():
    from adapters._numbers import setting_double
    from conformance.protocol import Skip
    assert setting_double("smoothing_value", "1/10", "lib") == 0.1
    assert setting_double("smoothing_value", "0", "lib") == 0.0
    for value in ("1" + "0" * 4000, "1e-1000"):
        with pytest.raises(Skip, match="has no double"):
            setting_double("smoothing_value", value, "lib")
