"""The closed forms of DCG: sum_b c_b / log2(b) = sum_b c_b log(2) / log(b) held as
{b: c_b} with b not a perfect power (log2(b**e) = e log2(b)), their sums and quotients
(formulas and sources in ``oracle.ranking``'s docstring)."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm

from .exact import Mul, Rat, log, power, product, total

@lru_cache(maxsize=65536)   # bounded: a run of a million documents without a cutoff
def _base_exp(x: int) -> tuple[int, int]:
    """x = b**e with b not a perfect power (e maximal)."""
    for e in range(x.bit_length(), 1, -1):
        b = round(x ** (1.0 / e))
        for c in (b - 1, b, b + 1):
            if c >= 2 and c ** e == x:
                return _base_exp(c)[0], e * _base_exp(c)[1]
    return x, 1


def _add_discounted(acc: dict, rank: int, c) -> None:
    """acc += c / log2(rank + 1), stored as {b: coefficient of 1/log2(b)} (rank + 1 = b**e
    adds c / e to b's); an int c stays an int where e = 1 (``_as_form`` makes the
    coefficients Fractions)."""
    b, e = _base_exp(rank + 1)
    v = c if e == 1 else Fraction(c, e)
    prev = acc.get(b)
    acc[b] = v if prev is None else prev + v


def _as_form(acc: dict) -> dict:
    """The non-zero coefficients of ``acc`` as Fractions."""
    return {b: (c if type(c) is Fraction else Fraction(c)) for b, c in acc.items() if c}


def _ideal_form(ideal: tuple, k: int) -> dict:
    acc: dict = {}
    for i, g in enumerate(ideal[:k], start=1):
        _add_discounted(acc, i, g)
    return _as_form(acc)


@lru_cache(maxsize=4096)
def _discount(b: int):
    """log(2) / log(b), i.e. 1/log2(b), in closed form."""
    return product([log(Fraction(2)), power(log(Fraction(b)), -1)])


def _form_expr(form: dict):
    """sum_b c_b / log2(b) = sum_b c_b * log(2) / log(b); rational for b = 2."""
    terms = []
    for b in sorted(form):
        c = form[b]
        if b == 2:
            terms.append(c)
            continue
        d = _discount(b)
        if c != 0 and c != 1 and type(d) is Mul and not any(type(f) is Rat for f in d.factors):
            # what product([c, d]) builds: the coefficient first, then d's factors
            terms.append(Mul((Rat(c),) + d.factors))
        else:
            terms.append(product([c, d]))
    return total(terms) if terms else Fraction(0)


def _fraction_sum(values: list) -> Fraction:
    """The exact sum of Fractions, over their least common denominator as one integer
    sum (a Fraction addition reduces by a gcd each time)."""
    if len(values) == 1:
        return values[0]
    den = lcm(*{v.denominator for v in values})
    return Fraction(sum([v.numerator * (den // v.denominator) for v in values]), den)


def _add_form(acc: dict, form: dict, scale: Fraction = Fraction(1)) -> None:
    one = scale == 1
    for b, c in form.items():
        v = c if one else c * scale
        if type(v) is not Fraction:
            v = Fraction(v)
        prev = acc.get(b)
        acc[b] = v if prev is None else prev + v


def _form_ratio(num: dict, den: dict):
    """num/den as a rational when the two sums are proportional term by term, else None."""
    if not num:
        return Fraction(0)
    if num.keys() != den.keys():
        return None
    ratios = {num[b] / den[b] for b in den}
    return ratios.pop() if len(ratios) == 1 else None


def _form_quotient(num: dict, den: dict, den_expr):
    """The closed form of num/den (den != 0), rational when it is."""
    q = _form_ratio(num, den)
    if q is not None:
        return q
    return product([_form_expr(num), power(den_expr, -1)])
