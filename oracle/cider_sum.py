"""CIDEr's closed form over a test set: the shared logarithms of document
frequencies (``_Shared``) and ``CiderSum``, the mean of the per-image cosine
similarities with certified bounds from fixed-point arithmetic (definitions and
sources in ``oracle.cider``'s docstring)."""
from __future__ import annotations

import math
from operator import mul
from fractions import Fraction

from .exact import Composite, exp, log, power, product, total


# ------------------------------------------------------------ the closed form

def _fixed(x, p: int) -> tuple[int, int]:
    """floor and ceil of x * 2**p for an mpmath interval x."""
    from mpmath import libmp
    a, b = x._mpi_
    lo = libmp.to_rational(a)
    hi = libmp.to_rational(b)
    return (lo[0] << p) // lo[1], -((-(hi[0] << p)) // hi[1])


class _Shared:
    """What the closed forms of one computation share: N (the log arguments are
    N/d), the linear forms sum_d C_d log(N/d)^2 (integer C_d, as dicts {d: C_d})
    by id, and the fixed-point bounds of logs, forms and exponentials per precision."""

    def __init__(self, n: int):
        self.n = n
        self.forms: list[tuple] = []
        self._forms_at: dict[int, tuple[list, list]] = {}
        self._exp_at: dict[tuple, tuple[Fraction, Fraction]] = {}

    def add_form(self, form: dict) -> int:
        """The id of a new form ({d: C_d})."""
        self.forms.append(form)
        return len(self.forms) - 1

    def form_bounds(self, p: int) -> tuple[list, list]:
        got = self._forms_at.get(p)
        if got is not None:
            return got
        from mpmath import iv
        old = iv.prec
        iv.prec = p + 32
        try:
            sq = {}
            for d in set().union(*self.forms):
                x = iv.log(iv.mpf(self.n) / iv.mpf(d))
                sq[d] = _fixed(x * x, p)
        finally:
            iv.prec = old
        # each squared log is known within [lo_d, lo_d + w_d] (units of 2**-p), so a form
        # sum_d C_d log^2 lies within [sum C_d lo_d, that + max(w) * sum C_d] (C_d >= 0)
        low = {d: b[0] for d, b in sq.items()}.__getitem__
        width = max((b[1] - b[0] for b in sq.values()), default=0)
        lo, hi = [], []
        for form in self.forms:
            v = sum(map(mul, form.values(), map(low, form)))
            lo.append(v)
            hi.append(v + width * sum(form.values()))
        self._forms_at[p] = (lo, hi)
        return lo, hi

    def exp_bounds(self, e: Fraction, prec: int) -> tuple[Fraction, Fraction]:
        """Rational bounds of exp(e) with relative width about 2**-prec (exp(-500000) too: a
        value that small is still certified). Where e < -2**22 (exp(e) below 2**-6,000,000)
        and exp(e) lies below 2**-(prec + 64), the bounds (0, 2**-(prec + 64)): exact bounds
        would be fractions of about -e/ln 2 bits (a sigma of 1/1000 and a length difference
        of 10 words: e = -5e7, 72 million bits, minutes of arithmetic), and such a value is
        far below what certification can reach in any case (it raises, it does not stall)."""
        key = (e, prec)
        got = self._exp_at.get(key)
        if got is None and e < -(1 << 22) and e < -(prec + 64) * Fraction(7, 10):   # ln 2 > 7/10
            got = self._exp_at[key] = (Fraction(0), Fraction(1, 1 << (prec + 64)))
        if got is None:
            from mpmath import iv, libmp
            old = iv.prec
            iv.prec = prec + 32
            try:
                a, b = iv.exp(iv.mpf(e.numerator) / iv.mpf(e.denominator))._mpi_
            finally:
                iv.prec = old
            got = self._exp_at[key] = (Fraction(*libmp.to_rational(a)), Fraction(*libmp.to_rational(b)))
        return got

    def form_expr(self, i: int):
        return total([c * power(log(Fraction(self.n, d)), 2) for d, c in sorted(self.forms[i].items())])


# term kinds: coef * exp(e) * (1 | F_num / F_a | F_num / sqrt(F_a * F_b))
_CONST, _DIV, _SQRT = 0, 1, 2


class CiderSum(Composite):
    """scale * sum of terms (kind, cn, cd, e, num, a, b, order): coefficient cn/cd,
    penalty exp(e), and a ratio of linear forms in squared logs (see _CONST.._SQRT)."""

    __slots__ = ("shared", "terms", "scale", "_key", "_bounds")

    def __init__(self, shared: _Shared, terms: list, scale: Fraction):
        self.shared, self.terms, self.scale = shared, terms, scale
        self._key = None
        self._bounds: dict[int, tuple] = {}

    def key(self):
        if self._key is None:
            f = self.shared.forms
            self._key = ("cider-sum", self.shared.n, self.scale) + tuple(
                (k, cn, cd, e, tuple(sorted(f[num].items())) if num >= 0 else (),
                 tuple(sorted(f[a].items())) if a >= 0 else (), tuple(sorted(f[b].items())) if b >= 0 else ())
                for k, cn, cd, e, num, a, b, _ in self.terms)
        return self._key

    def expand(self):
        sh = self.shared
        out = []
        for k, cn, cd, e, num, a, b, _ in self.terms:
            fs = [Fraction(cn, cd), exp(e)]
            if k == _DIV:
                fs += [sh.form_expr(num), power(sh.form_expr(a), -1)]
            elif k == _SQRT:
                fs += [sh.form_expr(num), power(sh.form_expr(a), Fraction(-1, 2)),
                       power(sh.form_expr(b), Fraction(-1, 2))]
            out.append(product(fs))
        return product([self.scale, total(out)])

    def bounds(self, prec_bits: int) -> tuple[Fraction, Fraction]:
        got = self._bounds.get(prec_bits)
        if got is not None:
            return got
        p = prec_bits + len(self.terms).bit_length() + 16
        while True:
            got = self._bounds_at(p)
            if got is not None:
                break
            p *= 2
        self._bounds[prec_bits] = got
        return got

    def _bounds_at(self, p: int):
        """Bounds at fixed point 2**-p of the penalty-free sums S_e (one per penalty exponent e),
        then sum_e exp(e) * S_e with exp(e) bounded in relative precision."""
        sh = self.shared
        flo, fhi = sh.form_bounds(p)
        isqrt = math.isqrt
        sums: dict = {}
        for k, cn, cd, e, num, a, b, _ in self.terms:
            if k == _CONST:
                lo, hi = (cn << p) // cd, -((-cn << p) // cd)
            else:
                if k == _DIV:
                    dlo, dhi = flo[a], fhi[a]
                else:
                    dlo, dhi = isqrt(flo[a] * flo[b]), isqrt(fhi[a] * fhi[b]) + 1
                if dlo <= 0:
                    return None  # a denominator not yet bounded away from 0: more bits
                lo = ((cn * flo[num]) << p) // (cd * dhi)
                hi = -((-(cn * fhi[num]) << p) // (cd * dlo))
            acc = sums.get(e)
            if acc is None:
                sums[e] = [lo, hi]
            else:
                acc[0] += lo
                acc[1] += hi
        low = high = Fraction(0)
        for e, (lo, hi) in sums.items():
            elo, ehi = sh.exp_bounds(e, p) if e else (1, 1)
            low += elo * lo
            high += ehi * hi
        one = 1 << p
        return low / one * self.scale, high / one * self.scale


def _ratio(f: dict, g: dict) -> Fraction | None:
    """mu with f = mu * g (same keys, proportional coefficients), else None."""
    if len(f) != len(g) or not g:
        return None
    mu = None
    for d, c2 in g.items():
        c1 = f.get(d)
        if c1 is None:
            return None
        if mu is None:
            mu = Fraction(c1, c2)
        elif c1 * mu.denominator != c2 * mu.numerator:
            return None
    return mu


def _value(shared: _Shared, terms: list, scale: Fraction):
    """The closed form of scale * sum(terms): a Fraction or an ordinary Expr when
    every term is a coefficient times exp(e) (grouped by e), else a CiderSum."""
    if not terms:
        return Fraction(0)
    if all(t[0] == _CONST for t in terms):
        by_e: dict = {}
        for _, cn, cd, e, *_ in terms:
            by_e[e] = by_e.get(e, Fraction(0)) + Fraction(cn, cd)
        return product([scale, total([product([c, exp(e)]) for e, c in sorted(by_e.items(), reverse=True)])])
    return CiderSum(shared, terms, scale)
