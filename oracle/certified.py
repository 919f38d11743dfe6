"""Certified evaluation of exact values: intervals, digits, rounding, equality.

Decimal digits are certified: ``digits(x, n)`` evaluates the closed form in
interval arithmetic (mpmath's ``iv`` context, imported lazily) and raises the
working precision until both ends of the interval round to the same n
significant digits. Rationals are rounded exactly. ``TermMean`` is the mean of
many closed forms (sentence-level BLEU over a test set) with certified bounds
from integer fixed-point arithmetic.
"""
from __future__ import annotations

import math
from fractions import Fraction

from .exact import (Add, Admissible, CertificationError, Composite, Exp, Expr, Log, Mul, Pow, Rat, Undefined,
                    _iroot_newton, as_expr, exact_json, exact_str, exp, is_rational, is_structured, power, product,
                    rational_value, total)

__all__ = ["interval", "digits", "places", "to_float", "fraction_of", "round_fraction_sig",
           "round_fraction_places", "same_value", "digits_json", "to_sympy", "TermMean", "fixed_bounds"]


# ------------------------------------------------------- certified evaluation

def _iv():
    from mpmath import iv  # lazy: keeps `import oracle` cheap
    return iv


def _eval_iv(x: Expr, iv):
    if isinstance(x, Rat):
        return iv.mpf(x.q.numerator) / iv.mpf(x.q.denominator)
    if isinstance(x, Exp):
        return iv.exp(_eval_iv(x.arg, iv))
    if isinstance(x, Log):
        return iv.log(_eval_iv(x.arg, iv))
    if isinstance(x, Add):
        s = iv.mpf(0)
        for t in x.terms:
            s = s + _eval_iv(t, iv)
        return s
    if isinstance(x, Mul):
        s = iv.mpf(1)
        for f in x.factors:
            s = s * _eval_iv(f, iv)
        return s
    if isinstance(x, Pow):
        b = _eval_iv(x.base, iv)
        e = x.exponent
        if e.denominator == 1:
            return b ** int(e.numerator)
        return iv.exp(iv.log(b) * (iv.mpf(e.numerator) / iv.mpf(e.denominator)))
    if isinstance(x, Composite):
        lo, hi = x.bounds(iv.prec)
        a = iv.mpf(lo.numerator) / iv.mpf(lo.denominator)
        b = iv.mpf(hi.numerator) / iv.mpf(hi.denominator)
        return iv.mpf([a.a, b.b])
    raise TypeError(f"cannot evaluate {x!r}")


# bounds below 2**-TINY_BITS in magnitude are widened to 0 or +-2**-TINY_BITS: far below
# the doubles (2**-1074) and the digits' own path (log10 bounds), and without it the
# rational of exp(-10**15) needs a 10**15-bit denominator (MemoryError)
TINY_BITS = 1 << 16
_TINY_BOUND = Fraction(1, 1 << TINY_BITS)
HUGE_BITS = 1 << 20   # magnitudes beyond 2**HUGE_BITS are not turned into fractions


def _mpf_fraction(raw, upper: bool = False) -> Fraction:
    from mpmath import libmp
    if raw in (libmp.finf, libmp.fninf, libmp.fnan):
        raise CertificationError("interval arithmetic produced a non-finite bound")
    sign, man, exp_, bc = raw
    if man and exp_ + bc < -TINY_BITS:
        # a valid bound still: 0 above a negative or below a positive tiny value
        if upper:
            return Fraction(0) if sign else Fraction(1, 1 << TINY_BITS)
        return Fraction(-1, 1 << TINY_BITS) if sign else Fraction(0)
    if man and exp_ + bc > HUGE_BITS:
        # a bound with more than HUGE_BITS integer bits (exp(10**9) has 1.4 billion): no rational
        # form of reasonable size; callers that need digits take them from log10 instead
        raise OverflowError(f"|x| is above 2**{HUGE_BITS}")
    p, q = libmp.to_rational(raw)
    return Fraction(p, q)


def interval(x, prec_bits: int) -> tuple[Fraction, Fraction]:
    """Rational lower and upper bounds of x, from interval arithmetic at prec_bits."""
    if isinstance(x, (int, Fraction)) or isinstance(x, Rat):
        q = rational_value(x)
        return q, q
    if isinstance(x, Composite):
        return x.bounds(prec_bits)
    iv = _iv()
    old = iv.prec
    iv.prec = prec_bits
    try:
        r = _eval_iv(x, iv)
        lo, hi = r._mpi_
        return _mpf_fraction(lo), _mpf_fraction(hi, upper=True)
    finally:
        iv.prec = old


def round_fraction_sig(q: Fraction, n: int) -> tuple[int, int]:
    """q rounded half-even to n significant digits, as (integer mantissa, exponent10)."""
    if q == 0:
        return 0, 0
    a = abs(q)
    # estimate floor(log10(a)) from bit lengths (str() of a huge integer is refused past
    # 4300 digits, and bounds of exp(-500000) have millions of bits), then correct it
    e = math.floor((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    while Fraction(10) ** e > a:
        e -= 1
    while Fraction(10) ** (e + 1) <= a:
        e += 1
    # now 10**e <= a < 10**(e+1)
    m = _round_scaled(a, n - 1 - e)
    if m >= 10 ** n:
        e += 1
        m = _round_scaled(a, n - 1 - e)
    return (m if q > 0 else -m), e - n + 1


def _round_scaled(a: Fraction, t: int) -> int:
    """round(a * 10**t), half-even, in integers (no gcd of huge numbers)."""
    num, den = a.numerator, a.denominator
    if t >= 0:
        num *= 10 ** t
    else:
        den *= 10 ** -t
    m, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and m % 2):
        m += 1
    return m


def round_fraction_places(q: Fraction, k: int) -> str:
    """q rounded half-even to k decimal places, fixed-point text."""
    m = round(q * 10 ** k)
    s = str(abs(m)).rjust(k + 1, "0")
    body = s if k == 0 else f"{s[:-k]}.{s[-k:]}"
    return ("-" if m < 0 else "") + body


def _sig_text(m: int, e10: int) -> str:
    if m == 0:
        return "0"
    sign = "-" if m < 0 else ""
    digits_ = str(abs(m))
    n = len(digits_)
    point = n + e10  # position of decimal point from the left of digits
    if -6 < point <= 40:
        if point <= 0:
            return f"{sign}0.{'0' * (-point)}{digits_}"
        if point >= n:
            return f"{sign}{digits_}{'0' * (point - n)}"
        return f"{sign}{digits_[:point]}.{digits_[point:]}"
    return f"{sign}{digits_[0]}.{digits_[1:]}e{point - 1}"


def _certify(x, round_fn, start_bits: int, max_bits: int = 1 << 16):
    bits = start_bits
    while bits <= max_bits:
        lo, hi = interval(x, bits)
        a, b = round_fn(lo), round_fn(hi)
        if a == b:
            return a
        if max(abs(lo), abs(hi)) <= _TINY_BOUND:   # widened bounds (TINY_BITS): more bits will not help
            raise OverflowError(f"|x| is below 2**-{TINY_BITS}")
        bits *= 2
    raise CertificationError(f"could not certify {exact_str(x)} within {max_bits} bits")


def digits(x, n: int = 30) -> str:
    """n certified significant digits of x (correctly rounded), as decimal text."""
    if n < 1:
        raise ValueError("n must be >= 1")
    if isinstance(x, Undefined):
        return str(x)
    if isinstance(x, Admissible):
        import json
        return "{" + ", ".join(json.dumps(digits_json(v, n)) if is_structured(v) else digits(v, n)
                               for v in x.values) + "}"
    if is_rational(x):
        return _sig_text(*round_fraction_sig(rational_value(x), n))
    try:
        m_e = _certify(x, lambda q: round_fraction_sig(q, n), int(n * 3.33) + 32)
    except (OverflowError, MemoryError):
        # a magnitude whose bounds have no rational form of reasonable size (exp(10**308)):
        # the digits from certified bounds of log10(|x|) instead
        m_e = _digits_by_log10(x, n)
    return _sig_text(*m_e)


def _digits_by_log10(x, n: int, max_bits: int = 1 << 14) -> tuple[int, int]:
    """(mantissa, exponent10) of x to n significant digits from interval bounds of
    L = log10(|x|): the exponent floor(L) and the mantissa 10**(L - floor(L)) must each
    round the same way at both ends of the interval (the precision is raised until they
    do, as in ``_certify``)."""
    iv = _iv()
    old = iv.prec
    bits = int(n * 3.33) + 64
    try:
        while bits <= max_bits:
            iv.prec = bits
            v = _eval_iv(x, iv)
            lo, hi = v._mpi_
            from mpmath import libmp
            neg = libmp.mpf_sign(hi) < 0
            if libmp.mpf_sign(lo) != libmp.mpf_sign(hi) or libmp.mpf_sign(lo) == 0:
                bits *= 2
                continue
            L = iv.log10(-v if neg else v)
            a, b = (_mpf_fraction(e) for e in L._mpi_)
            e10 = math.floor(a)
            if math.floor(b) == e10:
                ma = _round_scaled_mantissa(iv, a - e10, n)
                mb = _round_scaled_mantissa(iv, b - e10, n)
                if ma == mb and ma is not None:
                    m = ma
                    if m >= 10 ** n:
                        m //= 10
                        e10 += 1
                    return (-m if neg else m), e10 - n + 1
            bits *= 2
    finally:
        iv.prec = old
    raise CertificationError(f"could not certify the digits of {exact_str(x)[:80]} within {max_bits} bits")


def _round_scaled_mantissa(iv, frac: Fraction, n: int):
    """round(10**(frac + n - 1)) when certain at the current precision, else None."""
    t = iv.mpf(10) ** (iv.mpf(frac.numerator) / frac.denominator + (n - 1))
    lo, hi = (_mpf_fraction(e) for e in t._mpi_)
    a, b = round(lo), round(hi)
    return a if a == b else None


def places(x, k: int) -> str:
    """x rounded to k decimal places, certified (ties half-even for rationals)."""
    if is_rational(x):
        return round_fraction_places(rational_value(x), k)
    lo, hi = interval(x, 64)
    mag = max(abs(lo), abs(hi), Fraction(1))
    start = int(k * 3.33 + mag.numerator.bit_length() - mag.denominator.bit_length()) + 32
    return _certify(x, lambda q: round_fraction_places(q, k), start)


def to_float(x) -> float:
    """The double nearest to x (certified); beyond the largest double, an infinity of x's
    sign (IEEE 754 round-to-nearest: a value of magnitude 2**1024 or more rounds to inf)."""
    if isinstance(x, Undefined):
        raise ValueError(f"{x} has no float value")
    try:
        if is_rational(x):
            return float(rational_value(x))
        return _certify(x, float, 96)
    except OverflowError:
        if is_rational(x):
            positive = rational_value(x) > 0
        else:   # the sign of the interval's lower end, read as an mpf (no rational of 2**(10**k))
            iv = _iv()
            old = iv.prec
            iv.prec = 64
            try:
                positive = _eval_iv(x, iv).a > 0
            finally:
                iv.prec = old
        return float("inf") if positive else float("-inf")


def fraction_of(x, bits: int = 200) -> tuple[Fraction, Fraction]:
    """Rational bounds of x (exact for rationals)."""
    return interval(x, bits)



# ------------------------------------------------------ values and symbols

def to_sympy(x):
    """The closed form as a sympy expression (sympy imported only here)."""
    import sympy
    if isinstance(x, (int, Fraction)):
        q = Fraction(x)
        return sympy.Rational(q.numerator, q.denominator)
    if isinstance(x, Rat):
        return sympy.Rational(x.q.numerator, x.q.denominator)
    if isinstance(x, Exp):
        return sympy.exp(to_sympy(x.arg), evaluate=False)
    if isinstance(x, Log):
        return sympy.log(to_sympy(x.arg), evaluate=False)
    if isinstance(x, Add):
        return sympy.Add(*[to_sympy(t) for t in x.terms], evaluate=False)
    if isinstance(x, Mul):
        return sympy.Mul(*[to_sympy(f) for f in x.factors], evaluate=False)
    if isinstance(x, Pow):
        e = x.exponent
        return sympy.Pow(to_sympy(x.base), sympy.Rational(e.numerator, e.denominator), evaluate=False)
    if isinstance(x, Composite):
        return to_sympy(x.expand())
    raise TypeError(f"no symbolic form for {x!r}")


def same_value(a, b, n: int = 60) -> bool:
    """Exact equality for rationals and Undefined; for closed forms, equality of
    n certified significant digits (equality of transcendental forms is not
    decidable in general; structural equality is tried first). Lists and dicts
    (structured values) are equal when their shapes and every leaf are; admissible
    sets when they hold the same values."""
    if isinstance(a, Admissible) or isinstance(b, Admissible):
        return (isinstance(a, Admissible) and isinstance(b, Admissible) and len(a.values) == len(b.values)
                and all(any(same_value(x, y, n) for y in b.values) for x in a.values)
                and all(any(same_value(x, y, n) for x in a.values) for y in b.values))
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(same_value(x, y, n) for x, y in zip(a, b)))
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and set(map(str, a)) == set(map(str, b))
                and all(same_value(a[k], {str(kk): v for kk, v in b.items()}[str(k)], n) for k in a))
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        return isinstance(a, Undefined) and isinstance(b, Undefined)
    if is_rational(a) and is_rational(b):
        return rational_value(a) == rational_value(b)
    if as_expr(a) == as_expr(b):
        return True
    return digits(a, n) == digits(b, n)


def digits_json(x, n: int = 30):
    """Certified digits of a value, keeping the structure of lists and dicts."""
    if isinstance(x, Admissible):
        return {"admissible": [digits_json(v, n) for v in x.values]}
    if isinstance(x, (list, tuple)):
        return [digits_json(v, n) for v in x]
    if isinstance(x, dict):
        return {str(k): digits_json(v, n) for k, v in x.items()}
    return digits(x, n) if not isinstance(x, Undefined) else str(x)



# ---------------------------------------------- fixed point: the mean of many closed forms

def _floor_root(n: int, k: int) -> int:
    """floor(n ** (1/k)) for an integer n >= 0."""
    if n < 2:
        return n
    if k == 1:
        return n
    if k == 2:
        return math.isqrt(n)
    if k == 4:
        return math.isqrt(math.isqrt(n))  # floor(sqrt(floor(sqrt(n)))) = floor(n ** (1/4))
    r = _iroot_newton(n, k)
    while r ** k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


_EXP_BOUNDS: dict = {}


def _exp_fixed(a: Fraction, P: int) -> tuple[int, int]:
    """Integers lo <= exp(a) * 2**P <= hi (interval arithmetic, cached per (a, P))."""
    key = (a, P)
    got = _EXP_BOUNDS.get(key)
    if got is None:
        lo, hi = interval(Exp(Rat(a)), P + 24)
        got = ((lo.numerator << P) // lo.denominator, -((-hi.numerator << P) // hi.denominator))
        if len(_EXP_BOUNDS) < 200000:
            _EXP_BOUNDS[key] = got
    return got


def _root_fixed(num: int, den: int, k: int, P: int) -> tuple[int, int]:
    """Integers lo <= (num/den) ** (1/k) * 2**P <= hi."""
    scaled = num << (k * P)
    lo = _floor_root(scaled // den, k)
    return lo, (lo if lo ** k * den == scaled else lo + 1)


def fixed_bounds(x, P: int) -> tuple[int, int]:
    """Integers lo <= x * 2**P <= hi for a nonnegative term: a rational, a closed form
    (fast paths for exp(rational), rational**(a/b) and their products), or a
    segment form ``(a, num, den, k)`` = exp(a) * (num/den) ** (1/k) (a None: no exp factor)."""
    if type(x) is tuple:
        a, num, den, k = x
        lo, hi = _root_fixed(num, den, k, P)
        if a is None:
            return lo, hi
        elo, ehi = _exp_fixed(a, P)
        return (lo * elo) >> P, -((-(hi * ehi)) >> P)
    if type(x) is Fraction or isinstance(x, int):
        q = Fraction(x)
        lo = (q.numerator << P) // q.denominator
        return lo, (lo if (lo * q.denominator) == (q.numerator << P) else lo + 1)
    if isinstance(x, Rat):
        return fixed_bounds(x.q, P)
    if isinstance(x, Pow) and isinstance(x.base, Rat) and x.exponent > 0 and x.base.q >= 0:
        q, e = x.base.q, x.exponent
        return _root_fixed(q.numerator ** e.numerator, q.denominator ** e.numerator, e.denominator, P)
    if isinstance(x, Exp) and isinstance(x.arg, Rat):
        return _exp_fixed(x.arg.q, P)
    if isinstance(x, Mul):
        bounds = [fixed_bounds(f, P) for f in x.factors]
        if all(b[0] >= 0 for b in bounds):
            lo, hi = bounds[0]
            for a, b in bounds[1:]:
                lo = (lo * a) >> P
                hi = -((-(hi * b)) >> P)
            return lo, hi
    lo, hi = interval(x, P + 24)
    return (lo.numerator << P) // lo.denominator, -((-hi.numerator << P) // hi.denominator)


def _term_expr(t):
    if type(t) is tuple:
        a, num, den, k = t
        root = power(Fraction(num, den), Fraction(1, k))
        return root if a is None else product([exp(a), root])
    return t


class TermMean(Composite):
    """factor * (1/n) * (t_1 + ... + t_n) for many nonnegative terms (exact values, or
    segment forms ``(a, num, den, k)`` = exp(a) * (num/den)**(1/k)), with certified bounds
    from integer fixed-point arithmetic (each term rounded outward)."""

    __slots__ = ("terms", "n", "factor", "_cache", "_expanded")

    def __init__(self, terms, factor=Fraction(1), cache=None):
        self.terms = tuple(terms)
        self.n = len(self.terms)
        self.factor = Fraction(factor)
        self._cache = cache if cache is not None else {}
        self._expanded = None

    def scaled(self, k) -> "TermMean":
        return TermMean(self.terms, self.factor * k, self._cache)

    def key(self):
        return ("mean", self.factor) + tuple(exact_str(_term_expr(t)) for t in self.terms)

    def expand(self):
        if self._expanded is None:
            self._expanded = product([total([_term_expr(t) for t in self.terms]), Fraction(self.factor, self.n)])
        return self._expanded

    def bounds(self, prec_bits: int):
        got = self._cache.get("sum")
        if got is None or got[0] < prec_bits:
            P = prec_bits + self.n.bit_length() + 8
            lo = hi = 0
            for t in self.terms:
                a, b = fixed_bounds(t, P)
                lo += a
                hi += b
            got = self._cache["sum"] = (prec_bits, P, lo, hi)
        _, P, lo, hi = got
        den = self.n << P
        return Fraction(lo, den) * self.factor, Fraction(hi, den) * self.factor



def exact_texts(value) -> tuple[str, str]:
    """(exact text, certified digits) of a value, as a report shows them: JSON for a
    structured value (12 digits per leaf), 30 significant digits otherwise."""
    import json
    if is_structured(value):
        return (json.dumps(exact_json(value), ensure_ascii=False),
                json.dumps(digits_json(value, 12), ensure_ascii=False))
    return exact_str(value), (digits(value, 30) if not isinstance(value, Undefined) else str(value))


Expr._to_float = to_float
