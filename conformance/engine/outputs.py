"""A library's output as the properties read it: whether it can be compared with an exact
value, taken exactly, and two outputs of one library compared with each other."""
from __future__ import annotations

import math
from fractions import Fraction

from oracle.compare import _paths, as_number, compare_value
from oracle.exact import Undefined


def numeric(v) -> bool:
    """A library value that can be compared: a number (NumPy and torch scalars included),
    or a list/dict of numbers."""
    v = as_number(v)
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float, Fraction)):
        return True
    if isinstance(v, (list, tuple, dict)):
        return all(x is None or (isinstance(as_number(x), (int, float, Fraction)) and not isinstance(x, bool))
                   for _, x in _paths(v))
    return False


def as_exact(v):
    """A library's value taken exactly (floats at their binary value), keeping structure."""
    if isinstance(v, (list, tuple)):
        return [as_exact(x) for x in v]
    if isinstance(v, dict):
        return {k: as_exact(x) for k, x in v.items()}
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return Undefined("library gave no value")
    return Fraction(v)


def same_output(value, value2, tol) -> bool:
    """The library's two outputs agree: equal within ``tol`` where both are finite
    numbers; otherwise identical (an infinity, a NaN or a non-number the same in both
    places)."""
    try:
        return compare_value(value2, as_exact(value), tol).agrees
    except (OverflowError, ValueError, TypeError):
        return shape(value) == shape(value2)


def shape(v):
    """A library output with its non-finite floats named (NaN == NaN here)."""
    v = as_number(v) if not isinstance(v, (list, tuple, dict)) else v
    if isinstance(v, (list, tuple)):
        return [shape(x) for x in v]
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


def finite(x) -> bool:
    return not isinstance(x, float) or math.isfinite(x)
