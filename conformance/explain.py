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
