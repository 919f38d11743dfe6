"""Exact values: rationals, closed forms over rationals, Undefined, admissible sets.

Every oracle value is one of
- ``fractions.Fraction``: rational metrics (accuracy, EM, WER, ...);
- ``Expr``: a closed form over rationals built from ``exp``, ``log``, sums,
  products and rational powers (BLEU, perplexity, DCG, ...);
- ``Undefined(reason)``: where a definition gives no value (never NaN);
- ``Admissible``: the set of values a definition allows, with the value
  under each named tie rule.

Certified digits, intervals, rounding and equality of values live beside this
core in ``oracle.certified``.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Union


__all__ = [
    "Undefined", "Expr", "Rat", "Exp", "Log", "Add", "Mul", "Pow", "Composite", "Admissible",
    "Exact", "as_expr", "exp", "log", "power", "product", "total", "is_rational", "rational_value",
    "exact_str", "exact_json", "is_structured", "CertificationError",
]


class CertificationError(ArithmeticError):
    """Raised when digits cannot be certified within the precision budget."""


@dataclass(frozen=True)
class Undefined:
    """A metric value the definition leaves undefined (0/0, empty corpus...)."""

    reason: str

    def __str__(self) -> str:
        return f"undefined({self.reason})"


# ---------------------------------------------------------------- expressions

class Expr:
    """A closed form over rationals. Build with the helpers below, which simplify."""

    __slots__ = ()

    def key(self) -> tuple:  # structural identity, used for hashing/equality
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expr) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __str__(self) -> str:
        return exact_str(self)

    def __repr__(self) -> str:
        return f"Expr({exact_str(self)!r})"

    # float(expr): the nearest double, certified (installed by oracle.certified, which
    # the oracle package imports; the arithmetic core does not import it back)
    _to_float = None

    def __float__(self) -> float:
        return type(self)._to_float(self)

    # arithmetic sugar (exact)
    def __mul__(self, other): return product([self, as_expr(other)])
    def __rmul__(self, other): return product([as_expr(other), self])
    def __add__(self, other): return total([self, as_expr(other)])
    def __radd__(self, other): return total([as_expr(other), self])
    def __neg__(self): return product([Rat(Fraction(-1)), self])
    def __sub__(self, other): return total([self, -as_expr(other)])
    def __truediv__(self, other): return product([self, power(as_expr(other), Fraction(-1))])


@dataclass(frozen=True, eq=False)
class Rat(Expr):
    q: Fraction

    def key(self): return ("rat", self.q)


@dataclass(frozen=True, eq=False)
class Exp(Expr):
    arg: Expr

    def key(self): return ("exp", self.arg.key())


@dataclass(frozen=True, eq=False)
class Log(Expr):
    arg: Expr

    def key(self): return ("log", self.arg.key())


@dataclass(frozen=True, eq=False)
class Add(Expr):
    terms: tuple

    def key(self): return ("add",) + tuple(t.key() for t in self.terms)


@dataclass(frozen=True, eq=False)
class Mul(Expr):
    factors: tuple

    def key(self): return ("mul",) + tuple(f.key() for f in self.factors)


@dataclass(frozen=True, eq=False)
class Pow(Expr):
    base: Expr
    exponent: Fraction

    def key(self): return ("pow", self.base.key(), self.exponent)


class Composite(Expr):
    """A closed form kept in a compact structure (thousands of terms sharing a few
    logs, e.g. CIDEr over a test set) and evaluated by its own certified method.
    A subclass gives ``key()``, ``expand()`` (the same value as an ordinary Expr,
    built on demand for printing) and ``bounds(prec_bits)`` (rational lower and
    upper bounds whose width shrinks like 2**-prec_bits)."""

    __slots__ = ()

    def expand(self) -> "Exact":
        raise NotImplementedError

    def bounds(self, prec_bits: int) -> tuple:
        raise NotImplementedError


Exact = Union[Fraction, Expr]


def as_expr(x) -> Expr:
    if isinstance(x, Expr):
        return x
    if type(x) is Fraction:
        return Rat(x)
    if isinstance(x, bool):
        raise TypeError("booleans are not exact values")
    if isinstance(x, (int, Fraction)):
        return Rat(Fraction(x))
    raise TypeError(f"not an exact value: {x!r} (floats must be converted with Fraction(x) on purpose)")


def is_rational(x) -> bool:
    return isinstance(x, (int, Fraction)) or isinstance(x, Rat)


def rational_value(x) -> Fraction:
    if isinstance(x, Rat):
        return x.q
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    raise TypeError(f"{x!r} is not rational")


def _simplify_out(e: Expr) -> Exact:
    return e.q if isinstance(e, Rat) else e


def _iroot(n: int, k: int) -> int | None:
    """Exact integer k-th root of n >= 0, or None."""
    if n < 0:
        return None
    if n in (0, 1):
        return n
    if k >= n.bit_length():   # 1 < root < 2: no integer (and 2**k would be built to find it out)
        return None
    r = int(round(n ** (1.0 / k))) if n.bit_length() < 1000 else _iroot_newton(n, k)
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == n:
            return c
    return None


def _iroot_newton(n: int, k: int) -> int:
    # start just above the root (from log2 of the leading 64 bits), not at a power of two:
    # from 2**ceil(bits/k) Newton needs about k steps for large k
    shift = max(0, n.bit_length() - 64)
    e = (math.log2(n >> shift) + shift) / k
    low = max(0, int(e) - 60)
    x = max(1, (int(2.0 ** (e - low) * (1 + 2.0 ** -20)) + 1) << low)
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def _rational_power(q: Fraction, e: Fraction) -> Fraction | None:
    """q**e when it is rational, else None (q >= 0)."""
    if e.denominator == 1:
        if q == 0 and e < 0:
            raise ZeroDivisionError("0 to a negative power")
        return q ** e.numerator
    if q.numerator < 0:
        return None
    num = _iroot(q.numerator, e.denominator)
    if num is None:
        return None
    den = _iroot(q.denominator, e.denominator)
    if den is None:
        return None
    return Fraction(num, den) ** e.numerator


def exp(x) -> Exact:
    """exp(x), simplified: exp(0) = 1, exp(log(y)) = y."""
    x = as_expr(x)
    if isinstance(x, Rat) and x.q == 0:
        return Fraction(1)
    if isinstance(x, Log):
        return _simplify_out(x.arg)
    return Exp(x)


def log(x) -> Exact:
    """Natural log, simplified: log(1) = 0, log(exp(y)) = y."""
    x = as_expr(x)
    if isinstance(x, Rat):
        if x.q <= 0:
            raise ValueError(f"log of a non-positive number {x.q}")
        if x.q == 1:
            return Fraction(0)
    if isinstance(x, Exp):
        return _simplify_out(x.arg)
    return Log(x)


def power(x, e) -> Exact:
    """x**e for a rational exponent e, exact when the root is rational."""
    if type(e) is not Fraction:
        e = Fraction(e)
    x = as_expr(x)
    a, b = e.numerator, e.denominator
    if a == 0:
        return Fraction(1)
    if a == 1 and b == 1:
        return _simplify_out(x)
    if isinstance(x, Rat):
        if x.q.numerator == 0:
            if a < 0:
                raise ZeroDivisionError("0 to a negative power")
            return Fraction(0)
        r = _rational_power(x.q, e)
        if r is not None:
            return r
        if 0 < a < b:  # 0 < e < 1: no integer part to pull out
            return Pow(x, e)
        # pull out the integer part of the exponent: q**(a/b) = q**floor * q**frac
        whole = math.floor(e)
        frac = e - whole
        if whole != 0:
            return product([Rat(x.q ** whole), Pow(Rat(x.q), frac)])
        return Pow(x, e)
    if isinstance(x, Pow):
        return power(x.base, x.exponent * e)
    if isinstance(x, Exp):
        return exp(product([Rat(e), x.arg]))
    if isinstance(x, Mul):
        return product([power(f, e) for f in x.factors])
    return Pow(x, e)


_ONE = Fraction(1)


def product(factors: Iterable) -> Exact:
    """Exact product: rationals multiplied, exp() factors merged, powers of equal bases merged."""
    coeff = _ONE
    exp_args: list = []
    pows: dict = {}  # (numerator, denominator) of a base -> [base, summed exponent], in order of appearance
    others: list = []
    stack = [as_expr(f) for f in factors]
    stack.reverse()
    while stack:
        f = stack.pop()
        if isinstance(f, Rat):
            coeff *= f.q
        elif isinstance(f, Mul):
            stack.extend(reversed(f.factors))
        elif isinstance(f, Exp):
            exp_args.append(f.arg)
        elif isinstance(f, Pow) and isinstance(f.base, Rat):
            b = f.base.q
            k = (b.numerator, b.denominator)
            if k in pows:
                pows[k][1] += f.exponent
            else:
                pows[k] = [f.base, f.exponent]
        else:
            others.append(f)
    if coeff == 0:
        return Fraction(0)
    out: list = []
    for base, e in pows.values():
        v = power(base, e)
        if isinstance(v, Fraction):
            coeff *= v
        elif isinstance(v, Mul):
            for g in v.factors:
                if isinstance(g, Rat):
                    coeff *= g.q
                else:
                    out.append(g)
        else:
            out.append(v)
    if exp_args:
        e = exp(exp_args[0] if len(exp_args) == 1 and isinstance(exp_args[0], Rat) else total(exp_args))
        if isinstance(e, Fraction):
            coeff *= e
        else:
            out.insert(0, e)
    out.extend(others)
    if not out:
        return coeff
    if coeff != 1:
        out.insert(0, Rat(coeff))
    if len(out) == 1:
        return _simplify_out(out[0])
    return Mul(tuple(out))


def total(terms: Iterable) -> Exact:
    """Exact sum: rationals added, nested sums flattened."""
    const = Fraction(0)
    rest: list = []
    stack = [as_expr(t) for t in terms]
    while stack:
        t = stack.pop(0)
        if isinstance(t, Rat):
            const += t.q
        elif isinstance(t, Add):
            stack = list(t.terms) + stack
        else:
            rest.append(t)
    if not rest:
        return const
    if const != 0:
        rest.append(Rat(const))
    if len(rest) == 1:
        return _simplify_out(rest[0])
    return Add(tuple(rest))


# ------------------------------------------------------------------ printing

def _int_str(n: int) -> str:
    """Decimal text of an integer, also past Python's 4300-digit conversion limit (up to a
    million bits; a value that large stays exact but is not printed digit by digit)."""
    if n.bit_length() <= 14000:
        return str(n)
    if n.bit_length() > 1 << 20:
        raise CertificationError(f"an exact integer of {n.bit_length()} bits is too large to print")
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    try:
        if limit:
            sys.set_int_max_str_digits(0)
        return str(n)
    finally:
        if limit:
            sys.set_int_max_str_digits(limit)


def _frac_str(q: Fraction) -> str:
    return _int_str(q.numerator) if q.denominator == 1 else f"{_int_str(q.numerator)}/{_int_str(q.denominator)}"


def exact_str(x) -> str:
    """Canonical text of an exact value: '23/30', 'exp(-1/5)*(3/4)**(1/2)'."""
    if isinstance(x, Undefined):
        return str(x)
    if isinstance(x, Admissible):
        return str(x)
    if isinstance(x, (int, Fraction)):
        return _frac_str(Fraction(x))
    if isinstance(x, Rat):
        return _frac_str(x.q)
    if isinstance(x, Exp):
        return f"exp({exact_str(x.arg)})"
    if isinstance(x, Log):
        return f"log({exact_str(x.arg)})"
    if isinstance(x, Pow):
        b = x.base
        bs = exact_str(b)
        if not (isinstance(b, Rat) and b.q.denominator == 1 and b.q >= 0) and not isinstance(b, (Exp, Log)):
            bs = f"({bs})"
        es = _frac_str(x.exponent)
        if x.exponent.denominator != 1 or x.exponent < 0:
            es = f"({es})"
        return f"{bs}**{es}"
    if isinstance(x, Mul):
        parts = []
        for f in x.factors:
            s = exact_str(f)
            if isinstance(f, Add) or (isinstance(f, Rat) and (f.q.denominator != 1 or f.q < 0)):
                s = f"({s})"
            parts.append(s)
        return "*".join(parts)
    if isinstance(x, Add):
        out = exact_str(x.terms[0])
        for t in x.terms[1:]:
            s = exact_str(t)
            out += f" - {s[1:]}" if s.startswith("-") and not isinstance(t, Add) else f" + {s}"
        return out
    if isinstance(x, Composite):
        return exact_str(x.expand())
    raise TypeError(f"not an exact value: {x!r}")


# ---------------------------------------------------------- admissible sets

@dataclass(frozen=True)
class Admissible:
    """The values a definition admits (e.g. several minimum-cost alignments),
    with the value each named tie rule picks."""

    values: tuple
    by_rule: dict = field(default_factory=dict, hash=False, compare=False)

    def __str__(self) -> str:
        import json
        return "{" + ", ".join(json.dumps(exact_json(v), ensure_ascii=False) if is_structured(v) else exact_str(v)
                               for v in self.values) + "}"

    def contains_rational(self, q: Fraction) -> bool:
        return any(is_rational(v) and rational_value(v) == q for v in self.values)


def exact_json(x):
    """Exact text of a value, keeping the structure of lists and dicts
    (an admissible set as {"admissible": [...]})."""
    if isinstance(x, Admissible):
        return {"admissible": [exact_json(v) for v in x.values]}
    if isinstance(x, (list, tuple)):
        return [exact_json(v) for v in x]
    if isinstance(x, dict):
        return {str(k): exact_json(v) for k, v in x.items()}
    return exact_str(x)


def is_structured(x) -> bool:
    return isinstance(x, (list, tuple, dict))


# names of release 0.1 that moved to oracle.certified; importable from here, with a
# DeprecationWarning, until the next release (a runtime alias, not a dependency)
_MOVED_TO_CERTIFIED = ("digits", "places", "interval", "to_float", "fraction_of", "round_fraction_sig",
                       "round_fraction_places", "same_value", "digits_json", "to_sympy")


def __getattr__(name: str):
    if name == "parse_exact":
        import importlib
        import warnings
        warnings.warn("oracle.exact.parse_exact moved to oracle.parse.parse_exact", DeprecationWarning, stacklevel=2)
        return importlib.import_module("oracle.parse").parse_exact
    if name in _MOVED_TO_CERTIFIED:
        import importlib
        import warnings
        warnings.warn(f"oracle.exact.{name} moved to oracle.certified.{name}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("oracle.certified"), name)
    raise AttributeError(f"module 'oracle.exact' has no attribute {name!r}")
