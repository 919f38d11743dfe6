"""Comparison of a library's float with an exact value.

The difference is computed exactly (the float is taken as its exact binary
value); the relative error is |f - x| / |x|; the ULP distance counts the
doubles between f and the double nearest to x. A verdict classifies the
difference against a declared tolerance.
"""
from __future__ import annotations

import math
import numbers
import struct
from dataclasses import dataclass
from fractions import Fraction

from .exact import Undefined, is_rational, rational_value, total, product
from .certified import digits, interval, to_float


@dataclass(frozen=True)
class Tolerance:
    """Accept |f - x| <= abs, or |f - x| <= rel * |x|, or at most ``ulps`` doubles apart, or
    (a single-precision library) |f - x| <= ``ulps32`` float32 ULPs of x, counted as
    ulps32 * 2**-23 * max(|x|, 2**-126) (a float32 ULP near x is at most 2**-23 |x|)."""

    abs: Fraction = Fraction(0)
    rel: Fraction = Fraction(0)
    ulps: int = 0
    ulps32: int = 0

    def __str__(self) -> str:
        parts = []
        if self.ulps:
            parts.append(f"ulps<={self.ulps}")
        if self.ulps32:
            parts.append(f"float32 ulps<={self.ulps32}")
        if self.rel:
            parts.append(f"rel<={float(self.rel):.1e}")
        if self.abs:
            parts.append(f"abs<={float(self.abs):.1e}")
        return " or ".join(parts) or "exact"

    def to_json(self) -> dict:
        d = {"abs": str(self.abs), "rel": str(self.rel), "ulps": self.ulps}
        if self.ulps32:
            d["ulps32"] = self.ulps32
        return d

    def float32_bound(self, x: Fraction) -> Fraction:
        """The absolute error ``ulps32`` float32 ULPs of a value of magnitude |x| allow."""
        return self.ulps32 * Fraction(1, 2 ** 23) * max(abs(x), Fraction(1, 2 ** 126))


def _ordinal(f: float) -> int:
    i = struct.unpack("<q", struct.pack("<d", f))[0]
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def ulp_distance(a: float, b: float) -> int:
    return abs(_ordinal(a) - _ordinal(b))


@dataclass(frozen=True)
class Comparison:
    verdict: str           # "equal", "within", "outside", "undefined-mismatch"
    library: float | None
    exact_nearest: float | None
    abs_err: str           # certified decimal text of |f - x|
    rel_err: str
    ulps: int | None
    tolerance: Tolerance
    path: str = ""          # for structured values: the leaf this comparison is about

    @property
    def agrees(self) -> bool:
        return self.verdict in ("equal", "within", "both-undefined")

    def to_json(self) -> dict:
        d = {"verdict": self.verdict, "library": self.library, "exact_nearest_double": self.exact_nearest,
             "abs_err": self.abs_err, "rel_err": self.rel_err, "ulps": self.ulps,
             "tolerance": str(self.tolerance)}
        if self.path:
            d["path"] = self.path
        return d


def _abs_fraction_bounds(x, f) -> tuple[Fraction, Fraction]:
    d = total([Fraction(f), product([Fraction(-1), x])])
    lo, hi = interval(d, 256)
    lo, hi = abs(lo), abs(hi)
    return (min(lo, hi), max(lo, hi)) if not (lo <= 0 <= hi) else (Fraction(0), max(lo, hi))


def as_number(v):
    """A library's scalar as a Python number: a NumPy or torch scalar, or a 0-d array or
    tensor, at its binary value (exactly); ints, floats and Fractions as they are;
    anything else unchanged (duck-typed: this module imports no library)."""
    if v is None or isinstance(v, (bool, int, float, Fraction)):
        return v
    if getattr(v, "shape", None) == () and callable(getattr(v, "item", None)):
        try:
            v = v.item()
        except Exception:
            return v
    if not isinstance(v, (bool, int, float, Fraction)) and isinstance(v, numbers.Real):
        v = float(v)
    return v


def not_a_number(value) -> str:
    """'' when ``value`` is what a metric returns (a number, None for no value, or lists and
    dicts of them); otherwise what it is instead, naming the type and where."""
    for where, v in _leaves(value):
        n = as_number(v)
        if n is not None and (isinstance(n, bool) or not isinstance(n, (int, float, Fraction))):
            return f"{where or 'the value'} is a {type(v).__module__}.{type(v).__qualname__}, not a number"
    return ""


def compare(library_value, exact, tol: Tolerance) -> Comparison:
    """Classify a library's value against an exact value under ``tol``."""
    if isinstance(exact, Undefined):
        lib_undef = library_value is None or (isinstance(library_value, float) and math.isnan(library_value))
        n = as_number(library_value)
        shown = float(n) if isinstance(n, (int, float, Fraction)) and not isinstance(n, bool) else None
        return Comparison("both-undefined" if lib_undef else "undefined-mismatch", shown, None, "-", "-", None, tol)
    library_value = as_number(library_value)
    if library_value is None or not isinstance(library_value, (int, float, Fraction)) or isinstance(library_value, bool):
        return Comparison("undefined-mismatch", None, to_float(exact), "-", "-", None, tol)
    try:
        f = float(library_value)
    except OverflowError:   # an int or Fraction beyond the double range: far outside any tolerance
        return Comparison("outside", math.inf if library_value > 0 else -math.inf, to_float(exact), "inf", "inf", None, tol)
    if math.isinf(f) and _rounds_to_infinity(exact, f, tol):
        # the exact value lies beyond the largest double (or float32, for a float32 library)
        # on the library's side: round-to-nearest gives this infinity, the one value a
        # library computing in that type can return
        return Comparison("within", f, to_float(exact), "inf", "inf", 0, tol)
    if math.isnan(f) or math.isinf(f):
        return Comparison("outside", f, to_float(exact), "inf", "inf", None, tol)
    nearest = to_float(exact)
    ulps = ulp_distance(f, nearest)
    q_lib = library_value if isinstance(library_value, Fraction) else Fraction(f)   # exact: a rational library
    if is_rational(exact):
        q = rational_value(exact)
        err = abs(q_lib - q)
        err_hi = err
        rel = (err / abs(q)) if q != 0 else None
    else:
        try:
            err, err_hi = _abs_fraction_bounds(exact, q_lib)
            lo, hi = interval(exact, 256)
        except OverflowError:   # |exact| above 2**HUGE_BITS: no double is anywhere near it
            return Comparison("outside", f, nearest, "inf", "inf", None, tol)
        mag = min(abs(lo), abs(hi))
        rel = (err_hi / mag) if mag else None
    abs_txt = digits(err_hi, 3) if err_hi else "0"
    rel_txt = (digits(rel, 3) if rel else "0") if rel is not None else ("0" if err_hi == 0 else "inf")
    if err_hi == 0:
        verdict = "equal"
    elif (ulps <= tol.ulps or err_hi <= tol.abs
          or (rel is not None and rel <= tol.rel)
          or (tol.ulps32 and math.isfinite(nearest) and err_hi <= tol.float32_bound(Fraction(nearest)))):
        verdict = "within"
    else:
        verdict = "outside"
    return Comparison(verdict, f, nearest, abs_txt, rel_txt, ulps, tol)


#: float32's largest finite value plus half its last ulp: round-to-nearest makes anything at
#: or beyond it an infinity (IEEE 754 binary32: 2**128 - 2**104, then the half ulp 2**103)
_FLOAT32_OVERFLOW = Fraction(2 ** 128 - 2 ** 103)


def _rounds_to_infinity(exact, inf: float, tol: Tolerance) -> bool:
    """The exact value's correctly rounded double is ``inf`` (the same sign), or, for a
    library that computes in float32 (``tol.ulps32``), its float32 is."""
    if isinstance(exact, Undefined):
        return False
    if to_float(exact) == inf:
        return True
    if not tol.ulps32:
        return False
    lo, hi = interval(exact, 64)
    return (lo >= _FLOAT32_OVERFLOW) if inf > 0 else (hi <= -_FLOAT32_OVERFLOW)


def _leaves(x, path=""):
    if isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _leaves(v, f"{path}[{i}]")
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _leaves(v, f"{path}[{str(k)!r}]")
    else:
        yield path, x


def _lookup(x, exact_container_path: list):
    for key in exact_container_path:
        if isinstance(x, (list, tuple)) and isinstance(key, int):
            if key >= len(x):
                raise KeyError(key)
            x = x[key]
        elif isinstance(x, dict):
            norm = {str(k): v for k, v in x.items()}
            x = norm[str(key)]
        else:
            raise KeyError(key)
    return x


def _paths(x, keys=()):
    if isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _paths(v, keys + (i,))
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, keys + (k,))
    else:
        yield keys, x


def _path_text(keys) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f"[{str(k)!r}]" for k in keys)


def _size(x) -> int:
    return sum(1 for _ in _paths(x))


def compare_value(library_value, exact, tol: Tolerance) -> Comparison:
    """``compare`` for scalars; for structured values (lists, dicts) leaf by leaf:
    the result is the first leaf that disagrees (with its path), or an agreeing
    summary (the largest ULP distance over the leaves)."""
    from .exact import Admissible, is_structured
    if isinstance(exact, Admissible):
        # the library agrees when its value agrees with one admissible value
        tried = [compare_value(library_value, v, tol) for v in exact.values]
        return next((c for c in tried if c.agrees), tried[0])
    if not is_structured(exact):
        return compare(library_value, exact, tol)
    if _size(library_value if is_structured(library_value) else [library_value]) != _size(exact) \
            and not isinstance(library_value, dict):
        return Comparison("shape-mismatch", None, None, "-", "-", None, tol,
                          path=f"library gives {_size(library_value) if is_structured(library_value) else 'a scalar'}"
                               f" values, the oracle {_size(exact)}")
    worst = None
    any_within = False
    for keys, leaf in _paths(exact):
        try:
            lib = _lookup(library_value, list(keys))
        except (KeyError, IndexError, TypeError):
            return Comparison("shape-mismatch", None, None, "-", "-", None, tol,
                              path=f"{_path_text(keys)} is missing from the library's value")
        c = compare(lib, leaf, tol)
        if not c.agrees:
            return Comparison(c.verdict, c.library, c.exact_nearest, c.abs_err, c.rel_err, c.ulps, tol,
                              path=_path_text(keys))
        any_within = any_within or c.verdict == "within"
        if c.ulps is not None and (worst is None or c.ulps > worst.ulps):
            worst = c
    if worst is None:
        return Comparison("both-undefined", None, None, "0", "0", 0, tol)
    return Comparison("within" if any_within else "equal", worst.library, worst.exact_nearest, worst.abs_err,
                      worst.rel_err, worst.ulps, tol, path=_path_text([]))
