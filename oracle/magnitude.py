"""Bounds on the decimal exponent of exact numbers read from text or Decimal, so that
an absurd exponent is a typed error naming the item instead of an integer of a
billion digits (``Fraction("1e999999999")`` expands 10**999999999 and never ends).

The limits, by what a number means:
- ``SCORE_EXPONENT`` (4000): ranking scores and similarities; 10**4000 is far beyond
  every float format (10**308, 10**4932 for x87 long doubles) and still a small
  Fraction (the same bound as ``oracle.trec.MAX_SCORE_EXPONENT``);
- ``PROBABILITY_EXPONENT`` (100000): probabilities, log-probabilities and logits, whose
  exact perplexities of tiny probabilities (10**5000 for p = 1e-5000) are still
  printed with certified digits;
- ``SETTING_EXPONENT`` (4000): rational knob values (beta, epsilons, weights)."""
from __future__ import annotations

import re
from decimal import Decimal

SCORE_EXPONENT = 4000
PROBABILITY_EXPONENT = 100_000
SETTING_EXPONENT = 4000

_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)\s*$")


def decimal_exponent(x) -> int | None:
    """The exponent written in a number's text (``"2.5e-7"`` -> -7) or a Decimal's
    adjusted exponent; None when there is none. Huge exponent texts count as huge."""
    if isinstance(x, Decimal):
        return x.adjusted() if x.is_finite() else None
    m = _EXPONENT.search(x)
    if m is None:
        return None
    digits = m.group(1).lstrip("+-").lstrip("0")
    if len(digits) > 9:
        return -10 ** 9 if m.group(1).startswith("-") else 10 ** 9
    return int(m.group(1))


def exponent_problem(x, limit: int) -> str | None:
    """Why ``x`` (a text or a Decimal) is not read exactly, or None."""
    e = decimal_exponent(x)
    if e is not None and abs(e) > limit:
        return f"its decimal exponent {e} is beyond +-{limit}, which is not read exactly"
    return None


_DIGITS = re.compile(r"\d+")


def longest_digit_run(text: str) -> int:
    """The length of the longest run of decimal digits in ``text``."""
    return max(map(len, _DIGITS.findall(text)), default=0)
