"""Explain a disagreement: which knob settings make the oracle reproduce the
library's value on the failing input.

The search varies one knob at a time over its choices, then pairs of knobs,
within a budget of oracle evaluations; a setting "reproduces" the library
when the comparison agrees under the adapter's tolerance. An empty answer
means no setting does: a defect.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Mapping

from oracle.compare import Tolerance, compare_value
from oracle.conventions import ConventionError, InputError
from oracle.registry import get_metric

# extra values tried for parametric knobs
PARAMETRIC_TRIES = {
    "int": ["1", "2", "3", "4", "5", "6"],
    "rational": ["1/10", "1", "1/100", "1/1000", "5", "1/2", "0"],
}


def candidate_values(knob) -> list[str]:
    if knob.kind == "enum":
        return list(knob.choices)
    return list(getattr(knob, "special", ())) + list(PARAMETRIC_TRIES.get(knob.kind, []))


def reproduces(metric: str, settings: Mapping, inputs: Mapping, library_value, tol: Tolerance) -> bool:
    try:
        r = get_metric(metric).compute(inputs, settings)
    except (ConventionError, InputError, ZeroDivisionError, ValueError):
        return False
    try:
        return compare_value(library_value, r.value, tol).agrees
    except Exception:
        return False


def explain(metric: str, settings: Mapping, inputs: Mapping, library_value, tol: Tolerance,
            budget: int = 600, max_knobs: int = 2) -> list[dict]:
    """Knob changes (relative to ``settings``) under which the oracle reproduces
    ``library_value``; the smallest changes first. [] when none does."""
    m = get_metric(metric)
    base = m.settings(settings)
    found: list[dict] = []
    seen: set = set()
    evaluations = 0
    knobs = [k for k in m.knobs if candidate_values(k)]
    for size in range(1, max_knobs + 1):
        for combo in itertools.combinations(knobs, size):
            if found and size > 1 and any(set(f) <= {k.name for k in combo} for f in found):
                continue
            for values in itertools.product(*(candidate_values(k) for k in combo)):
                change = {k.name: v for k, v in zip(combo, values) if base[k.name] != v}
                if len(change) != size:
                    continue
                trial = dict(base)
                trial.update(change)
                try:
                    canon = m.settings(trial)
                except ConventionError:
                    continue
                key = tuple(sorted(canon.items()))
                if key in seen:
                    continue
                seen.add(key)
                evaluations += 1
                if evaluations > budget:
                    return found
                if reproduces(metric, canon, inputs, library_value, tol):
                    found.append({k: canon[k] for k in change})
        if found:
            return found
    return found


def describe(found: list[dict]) -> str:
    if not found:
        return "no knob setting reproduces the library's value: a defect"
    alts = ["; ".join(f"{k}={v}" for k, v in f.items()) for f in found[:4]]
    more = f" (+{len(found) - 4} more)" if len(found) > 4 else ""
    return "reproduced by " + " | ".join(alts) + more


# ------------------------------------------------------- arithmetic signatures

FLOAT_MIN = 2.2250738585072014e-308   # sys.float_info.min


def _float32(x: float) -> float:
    import struct
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return x


def arithmetic_signatures(library_value, exact, stats: Mapping | None = None) -> list[str]:
    """Recognise the usual fingerprints of a library's arithmetic in a disagreement:
    float32 rounding, percent or fraction scale, a sys.float_info.min sentinel (or a
    power of it) where the value is 0, a small epsilon added somewhere, an integer
    where a rate was due. Each hit is one sentence; [] when none applies."""
    import math
    from fractions import Fraction
    from oracle.exact import Undefined, interval, is_structured, to_float
    if is_structured(exact) or isinstance(exact, Undefined) or isinstance(library_value, bool) \
            or not isinstance(library_value, (int, float)):
        return []
    v = float(library_value)
    if math.isnan(v) or math.isinf(v):
        return []
    out = []
    x = to_float(exact)
    if x != 0 and v != x:
        if _float32(x) == v or (abs(v - x) <= abs(x) * 2.0 ** -23 and _float32(v) == v):
            out.append("float32 arithmetic: the library's value is the exact value rounded to single precision")
        if math.isclose(v, 100 * x, rel_tol=1e-12):
            out.append("percent scale: the library's value is 100 times the exact value")
        elif math.isclose(v * 100, x, rel_tol=1e-12):
            out.append("fraction scale: the library's value is the exact value divided by 100")
        rel = abs(v - x) / abs(x)
        if 1e-15 < rel < 1e-6 and not out:
            out.append(f"a small epsilon: the library is off by a relative {rel:.1e}, the fingerprint of a "
                       "tiny constant added to counts or denominators (e.g. 1e-9, 1e-15)")
    if x == 0 and 0 < v < 1e-30:
        ratio = math.log(v) / math.log(FLOAT_MIN)
        q = Fraction(ratio).limit_denominator(16)
        if abs(float(q) - ratio) < 1e-9:
            power = "" if q == 1 else f"**({q})"
            out.append(f"a sentinel: sys.float_info.min{power} = {v!r} where the exact value is 0 "
                       "(a zero replaced by the smallest float before a log or a geometric mean)")
        else:
            out.append(f"a tiny positive value {v!r} where the exact value is 0 (an underflowing sentinel)")
    if float(v).is_integer() and x != v and not float(x).is_integer():
        named = [k for k, s in (stats or {}).items() if isinstance(s, int) and s == int(v)]
        which = f" (equal to the statistic {', '.join(named)})" if named else ""
        out.append(f"an integer {int(v)} where a rate was due{which}")
    return out


def explanation(found: list[dict], library_value, exact, stats: Mapping | None = None) -> str:
    """The knob settings that reproduce the library's value and, when none does, the
    arithmetic fingerprints recognised in the difference."""
    text = describe(found)
    if not found:
        sigs = arithmetic_signatures(library_value, exact, stats)
        if sigs:
            text += "; recognised: " + "; ".join(sigs)
    return text
