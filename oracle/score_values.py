"""Reading a number given as a score or a weight exactly (score rows, sample weights,
class-score inputs): one reader, so every family refuses the same things the same way."""
from __future__ import annotations

import math
from fractions import Fraction

from .conventions import InputError


def exact_number(x, where: str) -> Fraction:
    """A score (or a weight) as an exact rational: an int, a float at its binary value, a
    Fraction, or a text ('0.25', '1/3', '-2', at most 100 characters, exponent within +-400);
    a bool, a non-finite float or anything else is an InputError naming ``where``."""
    if isinstance(x, bool):
        raise InputError(f"{where}: a boolean score ({x}); scores are numbers", item=where)
    if hasattr(x, "item") and not isinstance(x, (list, tuple, str)):
        x = x.item()
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InputError(f"{where}: score {x!r} is not a finite number", item=where)
        return Fraction(x)
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, str):
        t = x.strip()
        if len(t) > 100 or "_" in t:
            raise InputError(f"{where}: score {x[:40]!r} is not a number of at most 100 characters", item=where)
        exponent = t.lower().split("e")[1] if "e" in t.lower() else "0"
        if exponent.lstrip("+-").isdigit() and abs(int(exponent)) > 400:
            raise InputError(f"{where}: score {x!r} has an exponent beyond 400", item=where)
        try:
            if not t.isascii():   # Fraction() reads fullwidth and Arabic-Indic digits
                raise ValueError(t)
            return Fraction(t)
        except (ValueError, ZeroDivisionError, IndexError):
            raise InputError(f"{where}: score {x!r} is not a number (write '0.25', '1/3', '-2')", item=where) \
                from None
    raise InputError(f"{where}: expected a number as score, got {type(x).__name__}", item=where)
