"""Separators: inputs built by hand, per metric family, on which the values of a knob
give different exact values.

A divergence is shown only on an input that separates the library's value of a knob
from the canonical one; a random search finds such an input only where its strategy
happens to reach the knob's effect (two scores that are equal in float32 and distinct
in float64, a graded judgement of 2 or more, a character two tokenizers split
differently). Each family module here holds ``PROBES``: small inputs, each named for
the rule it exercises, and ``CONTEXTS``: the settings of other knobs under which a
knob matters at all (``smoothing_value`` only under a smoothing that reads it).
``NEVER`` documents the pairs of values that give the same value on every input (with
the reason, read from the definition); such a pair is one value, and a divergence
between them is reported as never differing, with that reason.

``separators(metric, knob, a, b)`` gives the probes (with the context they need) on
which ``knob=a`` and ``knob=b`` differ, smallest first: a refusal under one value and
a value under the other counts, two refusals do not. ``tests/test_separators.py``
checks that every pair of values of every knob of every metric has one, or a reason
in ``NEVER`` (or in the metric's own ``inert``).
"""
from __future__ import annotations

import importlib
import json
from functools import lru_cache

from oracle.conventions import PRESENTATION_KNOBS as PRESENTATION, ConventionError, InputError, candidate_values

_MODULES = {
    "bleu": "bleu", "chrf": "chrf", "qa": "qa", "language-model": "perplexity", "error_rates": "error_rates",
    "ranking": "ranking", "tagging": "tagging", "classification": "classification",
    "score_ranking": "score_ranking", "vqa": "vqa", "retrieval": "retrieval", "captioning": "captioning",
    "rouge": "rouge", "ter": "ter",
}


def _family(metric: str):
    from oracle.registry import get_metric
    fam = get_metric(metric).family
    name = _MODULES.get(fam)
    return importlib.import_module(f"oracle.separators.{name}") if name else None


def probes(metric: str) -> list[tuple[str, object]]:
    """The family's probes that fit ``metric`` (name, inputs), smallest first."""
    mod = _family(metric)
    if mod is None:
        return []
    out = [(name, x) for name, x, fits in _entries(mod) if fits is None or metric in fits]
    return sorted(out, key=lambda p: len(json.dumps(p[1], default=str)))


def _entries(mod):
    for p in mod.PROBES:
        if len(p) == 2:
            yield p[0], p[1], None
        else:
            yield p


def contexts(metric: str, knob: str) -> list[dict]:
    """The settings of other knobs tried, in order, for ``knob``: none first, then the
    family's named contexts for it (where another knob must take a value for this one to
    matter), then every other knob at each of its candidate values, one at a time."""
    from oracle.registry import get_metric
    mod = _family(metric)
    named = list(getattr(mod, "CONTEXTS", {}).get(knob, ())) if mod else []
    m = get_metric(metric)
    generic = [{k.name: v} for k in m.knobs if k.name != knob and k.name not in PRESENTATION
               for v in candidate_values(k)]
    return [{}] + named + generic


def named_contexts(metric: str, knob: str) -> list[dict]:
    """The family's named contexts of ``knob`` (settings of other knobs under which it matters)."""
    mod = _family(metric)
    return [dict(c) for c in getattr(mod, "CONTEXTS", {}).get(knob, ())] if mod else []


def never(metric: str, knob: str, a: str, b: str) -> str | None:
    """The documented reason why ``knob=a`` and ``knob=b`` give the same value of
    ``metric`` on every input, or None."""
    mod = _family(metric)
    table = getattr(mod, "NEVER", {}) if mod else {}
    for key in ((metric, knob, a, b), (metric, knob, b, a), (None, knob, a, b), (None, knob, b, a)):
        if key in table:
            return table[key]
    fn = getattr(mod, "never", None) if mod else None
    return fn(metric, knob, a, b) if fn else None


def value(metric: str, inputs, settings: dict):
    """The exact value, or ("refused", message) where the definition refuses the input."""
    from oracle.registry import get_metric
    try:
        return get_metric(metric).compute(inputs, settings).value
    except (InputError, ConventionError) as e:
        return ("refused", f"{type(e).__name__}: {e}")


def differ(x, y) -> bool:
    """Two exact values (or refusals) differ: a refusal and a value do; two refusals do not.
    Closed forms differ when their intervals at 16384 bits at most are disjoint (equal
    closed forms are never proven equal by intervals: the bound keeps that finite)."""
    rx, ry = isinstance(x, tuple), isinstance(y, tuple)
    if rx or ry:
        return rx != ry
    return _apart(x, y)


def _apart(a, b) -> bool:
    from oracle.exact import Admissible, Undefined
    from oracle.certified import interval
    from oracle.exact import is_rational, rational_value
    if isinstance(a, Admissible) or isinstance(b, Admissible):
        if not (isinstance(a, Admissible) and isinstance(b, Admissible)):
            return True
        return any(all(_apart(u, v) for v in b.values) for u in a.values) or \
            any(all(_apart(u, v) for u in a.values) for v in b.values)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))) or len(a) != len(b):
            return True
        return any(_apart(u, v) for u, v in zip(a, b))
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)):
            return True
        sa, sb = {str(k): v for k, v in a.items()}, {str(k): v for k, v in b.items()}
        return set(sa) != set(sb) or any(_apart(sa[k], sb[k]) for k in sa)
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        return not (isinstance(a, Undefined) and isinstance(b, Undefined))
    if is_rational(a) and is_rational(b):
        return rational_value(a) != rational_value(b)
    from oracle.exact import as_expr
    try:
        if as_expr(a) == as_expr(b):
            return False
    except Exception:
        pass
    # 16384 bits tell apart values as small as exp(-5000) (CIDEr-D's length penalty at sigma 1/100)
    for bits in (64, 256, 16384):
        la, ua = interval(a, bits)
        lb, ub = interval(b, bits)
        if ua < lb or ub < la:
            return True
    return False


def separates(metric: str, knob: str, a: str, b: str, inputs, context: dict | None = None) -> bool:
    """Whether ``inputs`` separates ``knob=a`` from ``knob=b`` under ``context``."""
    pair = _pair(metric, knob, a, b, context)
    return pair is not None and differ(value(metric, inputs, pair[0]), value(metric, inputs, pair[1]))


def _pair(metric: str, knob: str, a: str, b: str, context: dict | None):
    """The full settings (``knob=a``, ``knob=b``) under ``context``, or None where either is
    not a setting or the two are one."""
    from oracle.registry import get_metric
    m = get_metric(metric)
    try:
        sa = m.settings({**(context or {}), knob: a})
        sb = m.settings({**(context or {}), knob: b})
    except ConventionError:
        return None
    return None if sa == sb else (sa, sb)


_ENOUGH = 3   # separating probes kept per pair: the smallest ones


def valid(metric: str, knob: str, value: str) -> bool:
    """Whether ``value`` is a value of ``knob`` at all (a candidate below a knob's minimum
    is not)."""
    from oracle.registry import get_metric
    try:
        get_metric(metric).settings({knob: value})
    except ConventionError:
        return False
    return True


@lru_cache(maxsize=4096)
def _found(metric: str, knob: str, a: str, b: str) -> tuple:
    out = []
    ps = probes(metric)
    for ctx in contexts(metric, knob):
        pair = _pair(metric, knob, a, b, ctx)
        if pair is None:
            continue
        for name, x in ps:
            if differ(value(metric, x, pair[0]), value(metric, x, pair[1])):
                out.append((name, json.dumps(x), json.dumps(ctx)))
                if len(out) == _ENOUGH:
                    break
        if out:
            return tuple(out)   # the first context under which some probe separates: its probes
    mod = _family(metric)
    for name, make in getattr(mod, "LARGE", {}).get(knob, ()) if mod else ():
        x = make()
        for ctx in [{}] + list(getattr(mod, "CONTEXTS", {}).get(knob, ())):
            if separates(metric, knob, a, b, x, ctx):
                return ((name, json.dumps(x), json.dumps(ctx)),)
    return tuple(out)


def separators(metric: str, knob: str, a: str, b: str) -> list[tuple[str, object, dict]]:
    """The probes that separate ``knob=a`` from ``knob=b``: (name, inputs, context), smallest
    first, under the first context (``contexts``) where any does."""
    return [(name, json.loads(x), json.loads(ctx)) for name, x, ctx in _found(metric, knob, str(a), str(b))]


def variants(metric: str, inputs) -> list:
    """``inputs`` and its variants that keep what it exercises while changing what a library
    may not accept (query ids that are numbers, for a tool that reads them as numbers)."""
    mod = _family(metric)
    fn = getattr(mod, "variants", None) if mod else None
    return [inputs] + (list(fn(inputs)) if fn else [])
