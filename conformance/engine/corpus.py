"""One corpus of inputs per metric and strategy: what the properties judge every library on.

A corpus is made once per (strategy, the transformations drawn after each input, size,
seed) and shared by every adapter, every setting and every property that draws from
that strategy (the 35 ranking measures draw from one):

1. the family's separators (``oracle.separators.probes``): small inputs built by hand,
   each named for the rule it exercises (a character two tokenizers split differently,
   two scores one float32 apart, a type name with a hyphen inside it), so that every
   corpus holds what a random walk may never draw;
2. ``size`` inputs drawn from the strategy by a seeded hypothesis walk (``PROPERTY_SEED``),
   each followed by the transformations of the metric's invariances, drawn in the same
   walk (a permutation of segments, of queries, of references).

Nothing filters the walk: each setting judges the inputs its oracle defines (the others
are counted out, never replaced by other draws), so the inputs do not depend on the
library, the setting or what an earlier property found.

Every item is read back from JSON before it is used, and stored as plain JSON in the
cache (``conformance.engine.cache``, kind ``corpus``): an empty and a warm cache give the
same items, and a tampered or truncated entry is ignored and made again.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import given, seed, strategies as st

from conformance.engine import cache
from conformance.reports.records import decode_values, encode_values

# The seed of every corpus walk, and of the searches that shrink what fails on a corpus
# input (``properties.run_property``).
PROPERTY_SEED = int("12479741052367454855641191890422948383467267959725262000152698815565739908385057528224"
                    "788571125350010492860816590124")
VERSION = 1          # the items' layout; a change makes new corpora
_MEMORY: dict = {}   # this process's corpora, by key


@dataclass(frozen=True)
class Item:
    """One corpus input; ``transformed``: its transformation by each invariance (absent
    where the walk could not draw it); ``probe``: the separator's name, or ''."""
    inputs: object
    transformed: dict = field(default_factory=dict)
    probe: str = ""


def plain(x) -> object:
    """``x`` as JSON reads it back (NaN and infinities as ``{"$float": ...}`` on disk):
    tuples become lists. The corpus holds only this form, so that a fresh walk and a
    stored one give the same items."""
    return decode_values(json.loads(json.dumps(encode_values(x), ensure_ascii=False, allow_nan=False)))


def key_text(x) -> str:
    """A canonical text of a plain input (a dictionary key for it)."""
    return json.dumps(encode_values(x), sort_keys=True, ensure_ascii=False, allow_nan=False)


def items(metric: str, strategy, invariances: dict, size: int) -> list[Item]:
    """The corpus of ``metric`` drawn from ``strategy``, with ``invariances`` (name ->
    ``(inputs, data) -> inputs``) drawn after each input."""
    key = _key(metric, strategy, invariances, size)
    if key in _MEMORY:
        return _MEMORY[key]
    stored = cache.load("corpus", key) if key is not None else None
    got = _read(stored) if stored is not None else None
    if got is None:
        walk = _walk(strategy, invariances, size)
        got = _fitting(_probes(metric), walk) + walk
        if key is not None:
            cache.save("corpus", key, [_write(i) for i in got])
    if key is not None:
        _MEMORY[key] = got
    return got


def _key(metric: str, strategy, invariances: dict, size: int):
    """What a corpus depends on: the family (its probes), the strategy by its repr, the
    invariances by name and function, the size, the seed. None where the strategy's repr
    names an object by its address (then it is made in each process, not stored)."""
    from oracle.registry import get_metric
    k = (VERSION, get_metric(metric).family, repr(strategy),
         tuple((n, f.__module__, f.__qualname__) for n, f in sorted(invariances.items())), size, PROPERTY_SEED)
    return k if cache.storable(k) else None


def _probes(metric: str) -> list[Item]:
    from oracle.separators import probes
    out = []
    for name, x in probes(metric):
        try:
            out.append(Item(plain(x), {}, name))
        except (TypeError, ValueError):
            continue
    return out


def _depth(v) -> int:
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    return 0


def _shape(x) -> dict:
    """{field: nesting depth} of an input (a scalar field: 0)."""
    return {k: _depth(v) for k, v in x.items()} if isinstance(x, dict) else {}


def _fitting(probes: list[Item], walk: list[Item]) -> list[Item]:
    """The probes of the shape the strategy draws: every field one that its inputs have, at
    a depth they have it at (a family's top-k scores probe is not an input of labels, nor
    an indicator-row probe one of single labels)."""
    depths: dict = {}
    for i in walk:
        for k, d in _shape(i.inputs).items():
            depths.setdefault(k, set()).add(d)
    out = []
    for p in probes:
        shape = _shape(p.inputs)
        if shape and all(k in depths and (d in depths[k] or d < min(depths[k])) for k, d in shape.items()):
            out.append(p)
    return out


def _walk(strategy, invariances: dict, size: int) -> list[Item]:
    """``size`` draws of ``strategy`` by a seeded walk, each with its transformations;
    an input that JSON cannot hold is left out."""
    from conformance.engine.search import search_settings
    out: list[Item] = []

    def walk(data):
        x = data.draw(strategy, label="inputs")
        try:
            x = plain(x)
        except (TypeError, ValueError):
            return
        item = Item(x, {})
        out.append(item)
        for name, f in sorted(invariances.items()):
            y = f(x, data)   # a draw that ends the example leaves the rest undrawn
            try:
                item.transformed[name] = plain(y)
            except (TypeError, ValueError):
                pass

    test = seed(PROPERTY_SEED)(search_settings(size)(given(st.data())(walk)))
    test()
    return out


def _write(i: Item) -> dict:
    return {"inputs": encode_values(i.inputs), "transformed": encode_values(i.transformed),
            "probe": i.probe}


def _read(value) -> list[Item] | None:
    """The stored items, or None when the entry is not a list of items."""
    if not isinstance(value, list):
        return None
    out = []
    for d in value:
        if not (isinstance(d, dict) and "inputs" in d and isinstance(d.get("transformed"), dict)
                and isinstance(d.get("probe"), str)):
            return None
        out.append(Item(decode_values(d["inputs"]), decode_values(d["transformed"]), d["probe"]))
    return out
