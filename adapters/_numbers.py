"""The number texts of an input ("1/3", "2.5e-7", "1e-999999999") read the way an adapter
passes them to a library, without ever expanding an exponent.

``Fraction("1e-999999999")`` builds 10**999999999: minutes of work and gigabytes for one
probability of a bad-input row or one hostile score. A decimal text is read as a
``Decimal`` instead (exact, compared exactly with ints, floats and Fractions, its exponent
kept as a number), a text "a/b" as a ``Fraction`` (its two integers written out, nothing to
expand); a double is Python's correctly rounded ``float`` of either.
"""
from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation, localcontext
from fractions import Fraction


def exact_number(v):
    """The exact value of a number or of its text: "a/b" as a Fraction, any other text as a
    Decimal ("inf" and "nan" included); numbers unchanged. ValueError on a text that is no
    number."""
    if isinstance(v, str):
        s = v.strip()
        if "/" in s:
            return Fraction(s)
        try:
            return Decimal(s)
        except InvalidOperation:
            raise ValueError(f"not a number: {v!r}") from None
    return v


def as_float(v) -> float:
    """The double nearest the number or its text (correctly rounded: ``float`` of a decimal
    text, ``float`` of a Fraction); beyond the double range ±inf, below it ±0.0."""
    x = exact_number(v)
    if isinstance(x, (Fraction, int)):
        try:
            return float(x)
        except OverflowError:
            return math.inf if x > 0 else -math.inf
    return float(x)


def ln(v) -> float:
    """ln of a number in [0, inf) as a double, whatever its exponent (-inf at 0): ``math.log``
    of its double where that is a normal double, else the Decimal's own ln at 40 digits, or
    ln of the Fraction's numerator minus ln of its denominator."""
    x = exact_number(v)
    if x == 0:
        return -math.inf
    if isinstance(x, Fraction):
        f = as_float(x)
        if 2.2250738585072014e-308 <= f < math.inf:
            return math.log(f)
        return math.log(x.numerator) - math.log(x.denominator)
    if isinstance(x, (int, float)):
        return math.log(x)
    with localcontext() as c:
        c.prec = 40
        return float(x.ln())


def ln_complement(v) -> float:
    """ln(1 - p) as a double for p in [0, 1] (-inf at 1), exact in the Decimal or Fraction
    before the one rounding."""
    x = exact_number(v)
    if isinstance(x, float):
        x = Fraction(x)
    if isinstance(x, Decimal):
        with localcontext() as c:
            c.prec = 40
            return ln(1 - x)
    return ln(1 - x)


def setting_double(knob: str, value: str, library: str) -> float:
    """A numeric knob value as the double a library that takes a float is given; ``Skip``
    when the value has none (beyond the doubles, or a nonzero value below them: the library
    would be judged at inf or 0, another setting)."""
    from conformance.protocol import Skip
    f = as_float(value)
    if math.isinf(f) or (f == 0 and exact_number(value) != 0):
        text = str(value)
        shown = text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"
        raise Skip(f"{knob}={shown} has no double, and {library} takes {knob} as a float")
    return f
