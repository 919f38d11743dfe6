"""Explain a disagreement: which knob settings make the oracle reproduce the
library's value on the failing input.

The search varies one knob at a time over its choices, then pairs of knobs,
within a budget of oracle evaluations; a setting "reproduces" the library
when the comparison agrees under the adapter's tolerance. An empty answer
means no setting does: a defect.
"""
from __future__ import annotations

import itertools
from typing import Mapping

from oracle.compare import Tolerance, compare_value
from oracle.conventions import ConventionError, InputError, candidate_values
from oracle.registry import get_metric

# Arithmetic a library may apply on top of a knob setting: the key of a candidate
# ({"smoothing": "exp", ARITHMETIC: "float32"}) naming the transformation of the
# oracle's exact value that reproduces the library.
ARITHMETIC = "@arithmetic"
FINGERPRINTS = ("float32", "percent", "fraction")


def _float32_agrees(library_value, exact) -> bool:
    """The library's value is the exact value in single precision (a float32 number
    within 4 float32 ULPs of it); for an admissible set, of one of its values."""
    import math
    from oracle.exact import Admissible
    from oracle.certified import to_float
    if isinstance(exact, Admissible):
        return any(_float32_agrees(library_value, v) for v in exact.values)
    if isinstance(library_value, bool) or not isinstance(library_value, (int, float)):
        return False
    try:
        v, x = float(library_value), to_float(exact)
    except Exception:
        return False
    if not (math.isfinite(v) and math.isfinite(x)) or _float32(v) != v:
        return False
    return abs(v - x) <= 4 * 2.0 ** -24 * max(abs(x), 2.0 ** -126)


def _scaled(exact, fingerprint: str):
    from fractions import Fraction
    from oracle.exact import Admissible, Undefined, is_structured
    if isinstance(exact, (Undefined, Admissible)) or is_structured(exact):
        return None
    factor = Fraction(100) if fingerprint == "percent" else Fraction(1, 100)
    try:
        return exact * factor
    except TypeError:
        return None


def value_agrees(library_value, exact, tol: Tolerance, fingerprint: str | None = None) -> bool:
    """The library's value against an exact value, through an arithmetic fingerprint."""
    try:
        if fingerprint is None:
            return compare_value(library_value, exact, tol).agrees
        if fingerprint == "float32":
            return _float32_agrees(library_value, exact)
        scaled = _scaled(exact, fingerprint)
        return scaled is not None and compare_value(library_value, scaled, tol).agrees
    except Exception:
        return False


def reproduces(metric: str, settings: Mapping, inputs: Mapping, library_value, tol: Tolerance,
               fingerprint: str | None = None) -> bool:
    knobs = {k: v for k, v in settings.items() if k != ARITHMETIC}
    fingerprint = fingerprint or settings.get(ARITHMETIC)
    try:
        r = get_metric(metric).compute(inputs, knobs)
    except (ConventionError, InputError, ZeroDivisionError, ValueError):
        return False
    return value_agrees(library_value, r.value, tol, fingerprint)


def agrees(metric: str, settings: Mapping, inputs: Mapping, library_value, tol: Tolerance) -> bool:
    """The library's value agrees with the oracle under ``settings`` as it stands."""
    return reproduces(metric, settings, inputs, library_value, tol)


def explain(metric: str, settings: Mapping, inputs: Mapping, library_value, tol: Tolerance,
            budget: int = 600, max_knobs: int = 2) -> list[dict]:
    """Knob changes (relative to ``settings``), each possibly with an arithmetic
    fingerprint (``ARITHMETIC``: float32, percent, fraction), under which the oracle
    reproduces ``library_value`` on this one input; fewest changes first (a fingerprint
    counts as one change). [] when none does. A candidate found on one input is not yet
    an explanation: ``prove`` tests it on neighbouring inputs."""
    m = get_metric(metric)
    base = m.settings(settings)
    found: list[dict] = []
    seen: set = set()
    evaluations = 0
    # a metric with a scale knob states percent and fraction by the knob, not as arithmetic;
    # the scale is a unit, converted at every step of the search (a percent value needs no
    # knob of the budget): the library's value against 100 (or 1/100) times each value
    # (the fingerprint of a unit has the unit's name)
    unit = {"fraction": "percent", "percent": "fraction"}.get(base.get("scale"))
    # (scale stays a knob of the search too: float32 arithmetic on a percent value is found
    # as a one-knob change with its fingerprint)
    knobs = [k for k in m.knobs if candidate_values(k)]
    prints = [fp for fp in FINGERPRINTS if fp == "float32" or "scale" not in base]
    alone = set()
    for fp in prints:   # arithmetic alone, under the settings as they are
        if reproduces(metric, base, inputs, library_value, tol, fp):
            found.append({ARITHMETIC: fp})
            alone.add(fp)
    if unit and reproduces(metric, base, inputs, library_value, tol, unit):
        found.append({"scale": unit})
        unit = None   # the unit alone does it: a knob change on top of it explains nothing more
    for size in range(1, max_knobs + 1):
        for combo in itertools.combinations(knobs, size):
            if found and size > 1 and any(set(f) - {ARITHMETIC, "scale"} <= {k.name for k in combo} for f in found):
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
                    return _ranked(found)
                try:
                    value = m.compute(inputs, canon).value
                except (ConventionError, InputError, ZeroDivisionError, ValueError):
                    continue
                knob_change = {k: canon[k] for k in change}
                if value_agrees(library_value, value, tol):
                    found.append(knob_change)
                elif unit and value_agrees(library_value, value, tol, unit):
                    found.append({**knob_change, "scale": unit})
                elif size == 1:
                    # a knob with arithmetic, where the arithmetic alone does not do it
                    for fp in prints:
                        if fp not in alone and value_agrees(library_value, value, tol, fp):
                            found.append({**knob_change, ARITHMETIC: fp})
        if found:
            return _ranked(found)
    return _ranked(found)


def _ranked(found: list[dict]) -> list[dict]:
    """Candidates by the number of knobs changed (a fingerprint counts as one), each once
    (the unit is found both as a conversion and as the scale knob)."""
    seen, out = set(), []
    for f in sorted(found, key=len):
        key = tuple(sorted(f.items()))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def explain_leaves(metric: str, settings: Mapping, inputs: Mapping, library_value, tol: Tolerance,
                   budget: int = 300) -> dict:
    """For a structured value (a report, per-class values): {leaf path: candidates} for
    each leaf where the library differs from the oracle, searched leaf by leaf."""
    from oracle.compare import _lookup, _path_text, _paths
    m = get_metric(metric)
    try:
        exact = m.compute(inputs, settings).value
    except (ConventionError, InputError):
        return {}
    out = {}
    for keys, leaf in _paths(exact):
        try:
            lib = _lookup(library_value, list(keys))
        except (KeyError, IndexError, TypeError):
            continue
        if value_agrees(lib, leaf, tol):
            continue
        found = []
        base = m.settings(settings)
        for k in m.knobs:
            for v in candidate_values(k):
                if v == base[k.name]:
                    continue
                try:
                    trial = m.settings({**base, k.name: v})
                    value = _lookup(m.compute(inputs, trial).value, list(keys))
                except Exception:
                    continue
                if value_agrees(lib, value, tol):
                    found.append({k.name: v})
        out[_path_text(keys)] = found
        if len(out) >= 8:
            break
    return out


def neighbours(metric: str, settings: Mapping, count: int) -> list[dict]:
    """Deterministic generated inputs of ``metric`` (the property strategies under
    ``settings``) that the oracle accepts: the family an explanation must hold on."""
    from hypothesis import given
    from conformance.engine.plans import plan_for
    from conformance.engine.search import search_settings
    plan = plan_for(metric)
    if plan is None:
        return []
    m = get_metric(metric)
    out: list = []

    @search_settings(count * 3)
    @given(plan.inputs(settings))
    def collect(x):
        if len(out) < count * 2:
            try:
                m.compute(x, settings)
            except (ConventionError, InputError):
                return
            out.append(x)

    try:
        collect()
    except Exception:
        pass
    return out


def prove(adapter, metric: str, settings: Mapping, inputs: Mapping, candidates: list[dict],
          tol: Tolerance, need: int = 20) -> tuple[list[dict], list[dict], int]:
    """Test each candidate on ``need`` or more neighbouring inputs the library scores,
    including inputs that separate the candidates from the settings and from each other.
    Returns (proven candidates, rejections [{candidate, input, library, exact}], number of
    neighbours tested). A candidate survives only if it reproduces the library on every
    neighbour tested."""
    from conformance.engine.divergence import separating_input
    from conformance.protocol import Skip, Unsupported
    if not candidates:
        return [], [], 0
    m = get_metric(metric)
    base = m.settings(settings)
    configured = adapter.configure(metric, base)
    if isinstance(configured, Unsupported):
        return [], [], 0
    pool = []
    knob_sets = [{**base, **{k: v for k, v in c.items() if k != ARITHMETIC}} for c in candidates]
    for ks in knob_sets:   # inputs where a candidate's knobs change the value
        if ks != base:
            x = separating_input(metric, ks, base, 10, strategy_settings=base)
            if x is not None:
                pool.append(x)
    separators: dict = {}   # (i, j) -> an input on which candidates i and j give different values
    for i in range(len(knob_sets)):
        for j in range(i + 1, min(len(knob_sets), 6)):
            if knob_sets[i] != knob_sets[j]:
                x = _separating(metric, knob_sets[i], knob_sets[j], base)
                if x is not None:
                    pool.append(x)
                    separators[i, j] = x
    pool += neighbours(metric, base, need)
    alive = list(candidates)
    rejected: list = []
    tested = 0
    for x in pool:
        if x == inputs:
            continue
        try:
            value = adapter.run(configured, x).value
        except (Skip, Exception):
            continue
        if value is None or isinstance(value, bool):
            continue
        tested += 1
        for c in list(alive):
            ks = {**base, **{k: v for k, v in c.items() if k != ARITHMETIC}}
            if not reproduces(metric, ks, x, value, tol, c.get(ARITHMETIC)):
                alive.remove(c)
                try:
                    ex = exact_text(m.compute(x, ks).value)
                except Exception:
                    ex = "refused"
                rejected.append({"candidate": c, "input": x, "library": value, "exact": ex})
        if tested >= need and (not alive or tested >= need):
            break
    if tested < need:
        # too few neighbours the library scores: nothing is proven
        return [], rejected, tested
    # rivals: two candidates still alive that some input tells apart (the library did not score
    # it) are not an explanation: either could be the cause, so neither is proven
    index = {id(c): i for i, c in enumerate(candidates)}
    for a, b in itertools.combinations(alive, 2):
        pair = tuple(sorted((index[id(a)], index[id(b)])))
        if pair in separators:
            rejected.append({"candidate": a, "rival": b, "input": separators[pair], "library": None,
                             "exact": ""})
    if any("rival" in r for r in rejected):
        return [], rejected, tested
    return alive, rejected, tested


def _separating(metric: str, a: Mapping, b: Mapping, base: Mapping):
    """An input on which settings ``a`` and ``b`` give different values: drawn as for the
    library's settings, else as for ``a`` or ``b`` (a strategy that draws what their knobs
    act on: punctuation for punctuation=remove, say)."""
    from conformance.engine.divergence import separating_input
    from conformance.engine.plans import plan_for
    plan = plan_for(metric)
    tried = []
    for strategy in (base, b, a):
        shape = repr(plan.inputs(strategy)) if plan is not None else ""
        if shape in tried:
            continue
        tried.append(shape)
        x = separating_input(metric, a, b, 10, strategy_settings=strategy)
        if x is not None:
            return x
    return None


def exact_text(value) -> str:
    import json
    from oracle.exact import exact_json, exact_str, is_structured
    return json.dumps(exact_json(value)) if is_structured(value) else exact_str(value)


def describe(found: list[dict], proven: bool = True) -> str:
    if not found:
        return "no knob setting reproduces the library's value: a defect"
    alts = ["; ".join(_change_text(k, v) for k, v in f.items()) for f in found[:4]]
    more = f" (+{len(found) - 4} more)" if len(found) > 4 else ""
    verb = "explained by" if proven else "reproduced on this input by"
    return verb + " " + " | ".join(alts) + more


def _change_text(k: str, v: str) -> str:
    return f"{v} arithmetic" if k == ARITHMETIC else f"{k}={v}"


# ------------------------------------------------------- arithmetic signatures

FLOAT_MIN = 2.2250738585072014e-308   # sys.float_info.min


def _brief(x, n: int = 90) -> str:
    import json
    t = json.dumps(x, ensure_ascii=False)
    return t if len(t) <= n else t[:n - 3] + "..."


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
    from oracle.exact import Admissible, Undefined, is_structured
    from oracle.certified import interval, to_float
    if is_structured(exact) or isinstance(exact, (Undefined, Admissible)) or isinstance(library_value, bool) \
            or not isinstance(library_value, (int, float)):
        return []
    try:
        v = float(library_value)
    except OverflowError:   # an integer beyond the double range has no arithmetic fingerprint
        return []
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


def explanation(found: list[dict], library_value, exact, stats: Mapping | None = None,
                rejected: list | None = None, tested: int | None = None) -> str:
    """The knob settings that reproduce the library's value and, when none does, the
    arithmetic fingerprints recognised in the difference. With ``tested``, ``found`` are
    the candidates that held on that many neighbouring inputs, and ``rejected`` those
    that failed on one (each named with its counterexample)."""
    text = describe(found)
    if found and tested:
        text += f" (held on {tested} neighbouring inputs)"
    if rejected:
        seen = set()
        notes = []
        for rj in rejected:
            key = tuple(sorted(rj["candidate"].items()))
            if key in seen:
                continue
            seen.add(key)
            c = "; ".join(_change_text(k, v) for k, v in rj["candidate"].items())
            if "rival" in rj:   # two candidates remain: the input that separates them is not scored
                r = "; ".join(_change_text(k, v) for k, v in rj["rival"].items())
                notes.append(f"two candidates remain, {c} and {r}: both hold on every neighbour the library "
                             f"scores, and it does not score {_brief(rj['input'])}, which tells them apart")
                continue
            notes.append(f"{c} reproduces this input but not the neighbour {_brief(rj['input'])} "
                         f"(library {rj['library']!r}, exact {rj['exact'][:40]})")
        text += "; rejected: " + "; ".join(notes[:3])
    if not found:
        sigs = arithmetic_signatures(library_value, exact, stats)
        if sigs:
            text += "; recognised: " + "; ".join(sigs)
    return text
