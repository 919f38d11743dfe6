"""Property inputs drawn once per setting and replayed to every property and adapter
that would draw the same ones.

A property's search is derandomized from one pinned seed (``PROPERTY_SEED``), and
what hypothesis generates next depends only on what the test drew so far and how
each example ended (passed or rejected), not on the wall clock or on the test's
code. So every test that draws a setting's strategy once (the same strategy object
for the same metric, input form and settings) and rejects exactly what the oracle
refuses walks the same sequence of inputs: oracle-equal, statistics, bounds and
identity at the library's profile, under any adapter with that profile; an
invariance property draws its transformation after the inputs, the same way for
every adapter.

``recorded`` runs that walk once, with a test that draws and filters and does
nothing else, and keeps the inputs (pickled, so that each replay gets its own
copy). A property then replays them through its own check, which is what
hypothesis would have run it on, and falls back to the search itself the moment an
example would make that search walk differently: a finding (hypothesis shrinks
it), a rejection (an adapter's ``Skip``), a library error before an invariance's
transformation is drawn. A clean replay is the record the search would have made;
only the time differs (a whole run: hypothesis's generation was about 40% of its
work, repeated for every property and adapter).
"""
from __future__ import annotations

import pickle
from collections import OrderedDict

from hypothesis import given, reject, seed, strategies as st

from oracle.conventions import ConventionError, InputError

_CACHE: OrderedDict = OrderedDict()
_LIMIT = 4096          # walks kept per process (a few KB each)


OVERRUN = "overrun"    # the example ended while its transformation was drawn


class Diverged(Exception):
    """Raised inside a replay where the search would walk differently from the recording."""


def replayable(hs) -> bool:
    """Whether searches under the hypothesis settings ``hs`` walk a fixed sequence
    (derandomized, no example database, the engine's phases)."""
    from conformance.engine.search import PHASES
    return bool(hs.derandomize) and hs.database is None and tuple(hs.phases) == PHASES


def recorded(key, m, settings: dict, strategy, hs, pinned_seed: int, transform=None) -> list | None:
    """The examples a search under ``hs`` from ``pinned_seed`` walks when it draws
    ``strategy`` and rejects what ``m.compute(inputs, settings)`` refuses, as pickled
    ``(inputs, transformed)`` pairs; ``transform(inputs, data)`` (an invariance's
    transformation) is drawn after each accepted input, else ``transformed`` is None.
    None when the walk cannot be recorded (the oracle raised something other than a
    refusal, an input cannot be pickled): the caller then searches as before."""
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    out: list = []

    def walk(data):
        inputs = data.draw(strategy, label="inputs")
        try:
            m.compute(inputs, settings)
        except (InputError, ConventionError):
            reject()
        out.append((pickle.dumps(inputs, protocol=4), OVERRUN if transform is not None else None))
        if transform is not None:
            # the search calls the library on the inputs, then draws this; a draw that ends
            # the example (the choice buffer overruns, a filter gives up) leaves OVERRUN
            out[-1] = (out[-1][0], pickle.dumps(transform(inputs, data), protocol=4))

    test = hs(given(st.data())(walk))
    test = seed(pinned_seed)(test)
    try:
        test()
    except Exception:
        return None
    _CACHE[key] = out
    while len(_CACHE) > _LIMIT:
        _CACHE.popitem(last=False)
    return out


def walk_key(metric: str, settings: dict, form, what: str, hs) -> tuple:
    return (metric, repr(sorted(settings.items())), form, what, hs.max_examples)
