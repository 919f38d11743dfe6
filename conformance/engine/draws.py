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
nothing else (an invalid property's filter also makes the changed input), and
keeps the inputs (pickled, so that each replay gets its own copy). A property
then replays them through its own check, which is what hypothesis would have run
it on, and falls back to the search itself the moment an example would make that
search walk differently: a finding (hypothesis shrinks it), a rejection (an
adapter's ``Skip``), a library error before an invariance's transformation is
drawn. A clean replay is the record the search would have made;
only the time differs (a whole run: hypothesis's generation was about 40% of its
work, repeated for every property and adapter).
"""
from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict

from hypothesis import given, reject, seed, strategies as st
from hypothesis.errors import Unsatisfiable

from oracle.conventions import ConventionError, InputError

_CACHE: OrderedDict = OrderedDict()
_LIMIT = 4096          # walks kept per process (a few KB each)
_TRACES: dict = {}     # shape_key -> the last walks of that shape, every example with its status
_TRACES_PER_SHAPE = 6


OVERRUN = "overrun"    # the example ended while its transformation was drawn (compared by value)


class Diverged(Exception):
    """Raised inside a replay where the search would walk differently from the recording."""


def replayable(hs) -> bool:
    """Whether searches under the hypothesis settings ``hs`` walk a fixed sequence
    (derandomized, no example database, the engine's phases)."""
    from conformance.engine.search import PHASES
    return bool(hs.derandomize) and hs.database is None and tuple(hs.phases) == PHASES


def oracle_filter(m, settings: dict):
    """The filter every property applies first: the oracle must define the input."""
    def accept(inputs):
        try:
            m.compute(inputs, settings)
        except (InputError, ConventionError):
            return False, None
        return True, None
    return accept


def recorded(key, accept, strategy, hs, pinned_seed: int, transform=None, shape=None) -> list | None:
    """The examples a search under ``hs`` from ``pinned_seed`` walks when it draws
    ``strategy`` and rejects what ``accept(inputs)`` refuses (``(False, _)``, or
    ``("skip", _)`` for an example the property counts before the adapter skips it), as
    ``(inputs, payload, transformed, status)``, pickled: ``payload`` what ``accept``
    made of an accepted input (an invalid property's changed input and its refusal),
    ``transformed`` what ``transform(inputs, data)`` (an invariance's transformation)
    drew after it (None without one), ``status`` True or "skip" (then ``payload`` is
    what the filter made of the skip: an invalid property keeps the adapter's message).
    A search in which no example is accepted ends in hypothesis's Unsatisfiable: the
    walk says so (``Walk.unsatisfiable``). None when the walk cannot be recorded (the
    filter raised, an input cannot be pickled): the caller then searches as before.

    ``shape`` (``shape_key``): what the walk depends on besides the filter. A walk
    recorded under another metric or setting of the same shape is the walk here when
    this filter accepts and rejects every example it met exactly as that one did
    (hypothesis saw the same choices end the same way, so it made the same next ones):
    checked by the filter on each example, far cheaper than generating them again (the
    35 ranking measures draw from one strategy)."""
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    for trace in _TRACES.get(shape, ()) if shape is not None else ():
        walk = _refiltered(trace, accept, key)
        if walk is not None:
            return walk
    trace = Walk()

    def walk(data):
        inputs = data.draw(strategy, label="inputs")
        blob = pickle.dumps(inputs, protocol=4)
        ok, payload = accept(inputs)
        if ok is not True:
            trace.append((blob, ok, pickle.dumps(payload, protocol=4) if ok else None, None))
            reject()
        payload = pickle.dumps(payload, protocol=4)
        trace.append((blob, True, payload, OVERRUN if transform is not None else None))
        if transform is not None:
            # the search calls the library on the inputs, then draws this; a draw that ends
            # the example (the choice buffer overruns, a filter gives up) leaves OVERRUN
            trace[-1] = (blob, True, payload, pickle.dumps(transform(inputs, data), protocol=4))

    test = hs(given(st.data())(walk))
    test = seed(pinned_seed)(test)
    try:
        test()
    except Unsatisfiable:
        trace.unsatisfiable = True
    except Exception:
        return None
    if shape is not None:
        kept = _TRACES.setdefault(shape, [])
        kept.append(trace)
        del kept[:-_TRACES_PER_SHAPE]
        while len(_TRACES) > _LIMIT // 8:
            _TRACES.pop(next(iter(_TRACES)))
    return _refiltered(trace, None, key)


class Walk(list):
    """A recorded walk (or trace); ``unsatisfiable``: the search accepted no example."""

    def __init__(self, items=(), unsatisfiable: bool = False):
        super().__init__(items)
        self.unsatisfiable = unsatisfiable


def _keep(key, walk: list) -> list:
    _CACHE[key] = walk
    while len(_CACHE) > _LIMIT:
        _CACHE.popitem(last=False)
    return walk


def _refiltered(trace: list, accept, key) -> list | None:
    """The walk of ``trace`` (kept under ``key``): its accepted and skipped examples as
    ``(inputs, payload, transformed, status)``. With ``accept``, only when that filter
    accepts and refuses the trace's examples as the recording did (a raise: not the
    same), with the payloads it makes; else None."""
    out = Walk([], trace.unsatisfiable)
    inner: list = []
    ahead, chunk = 0, 4   # the trace's examples prefetched so far; how many the next message holds
    if getattr(accept, "prefetch", None) is not None:
        # the filter before the library: where it accepts and refuses as the trace did, the
        # library's calls on what it accepted go out a few messages (``Remembered.prefetch``),
        # each twice as long as the one before: a trace this filter leaves at its k-th example
        # costs about k calls, not one per example of the trace (a trace recorded for another
        # adapter, whose skips made it longer: 256 calls of 80 ms for cwl_eval's AP, 47 needed)
        for blob, ok, payload, other in trace:
            x = pickle.loads(blob)
            try:
                inner.append((x, accept.inner(x)))
            except Exception:
                return None
            if (inner[-1][1][0] is True) != (ok is not False):
                return None
    for i, (blob, ok, payload, other) in enumerate(trace):
        if inner and i >= ahead:
            batch = []
            while ahead < len(inner) and len(batch) < chunk:
                x, (accepted, made) = inner[ahead]
                if accepted is True:
                    batch.append((x, made))
                ahead += 1
            accept.prefetch(batch)
            chunk = min(2 * chunk, 256)
        if accept is not None:
            try:
                accepted, made = accept.library(inner[i][0], *inner[i][1]) if inner else accept(pickle.loads(blob))
            except Exception:
                return None
            if accepted != ok:
                return None
            payload = pickle.dumps(made, protocol=4) if ok else None
        if ok:
            out.append((blob, payload, other, ok))
    return _keep(key, out)


def shape_key(strategy, form, what: str, transform, hs, pinned_seed: int):
    """What a walk depends on besides its filter: the strategy, the input form, what is
    drawn after the inputs (an invariance's transformation), the number of examples and
    the seed. A strategy is read by its repr (the strategy functions with their
    arguments) and by every function it holds, by code and by the values it closes over
    (a composite defined inside a function can close over the settings, which its repr
    does not show). None where something cannot be read so (a closure over an object):
    such walks are shared by exact key only."""
    try:
        parts = _fingerprint(strategy) + (_fingerprint(transform) if transform is not None else ())
    except _Opaque:
        return None
    return (repr(strategy), parts, form, what, hs.max_examples, pinned_seed)


class _Opaque(Exception):
    pass


def _code(code) -> tuple:
    """A code object by what it is, the same in every process of one source tree (not by
    its address, which a later code object can take once this one is freed): where it
    starts, its bytecode, the names it reads, its plain constants and the code objects
    among its constants (its lambdas and inner functions), the same way."""
    consts = tuple(_code(c) if hasattr(c, "co_code") else repr(c) for c in code.co_consts
                   if hasattr(c, "co_code") or isinstance(c, _PLAIN))
    return (code.co_name, code.co_firstlineno, hashlib.sha256(code.co_code).hexdigest()[:16], code.co_names,
            consts)


_PLAIN = (bool, int, float, str, bytes, type(None))


def _fingerprint(obj, depth: int = 0, seen: set | None = None) -> tuple:
    """The functions a strategy holds (module, qualified name, code object) and the plain
    values their closures capture; ``_Opaque`` where a captured value is not plain."""
    import types
    if depth > 30:
        raise _Opaque("too deep")
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return ()
    seen.add(id(obj))
    if isinstance(obj, _PLAIN):
        return (repr(obj),)
    if isinstance(obj, (tuple, list, frozenset, set)):
        return tuple(x for v in obj for x in _fingerprint(v, depth + 1, seen))
    if isinstance(obj, dict):
        return tuple(x for k, v in sorted(obj.items(), key=lambda kv: repr(kv[0]))
                     for x in (repr(k),) + _fingerprint(v, depth + 1, seen))
    if isinstance(obj, types.FunctionType):
        out = (obj.__module__, obj.__qualname__) + _code(obj.__code__)
        for cell in obj.__closure__ or ():
            try:
                out += _fingerprint(cell.cell_contents, depth + 1, seen)
            except ValueError:   # an empty cell
                out += ("<empty>",)
        return out
    if isinstance(obj, (types.BuiltinFunctionType, type)):
        return (getattr(obj, "__module__", ""), getattr(obj, "__qualname__", repr(obj)))
    from hypothesis.strategies import SearchStrategy
    if isinstance(obj, SearchStrategy):
        from hypothesis.strategies._internal.lazy import LazyStrategy
        if isinstance(obj, LazyStrategy):
            # its function is the public strategy function (or a composite's wrapper); what
            # it builds holds the definition and the arguments
            return _fingerprint(obj.wrapped_strategy, depth + 1, seen)
        return (type(obj).__qualname__,) + tuple(
            x for k, v in sorted(vars(obj).items()) if not k.startswith("_") or k == "_transformations"
            for x in _fingerprint(v, depth + 1, seen))
    raise _Opaque(type(obj).__qualname__)


_FINDS: OrderedDict = OrderedDict()


def find_walk(strategy, hs) -> list | None:
    """The examples ``hypothesis.find(strategy, condition, settings=hs)`` walks while the
    condition does not hold, pickled (recorded once per strategy shape with a condition
    that never holds); None where the strategy's shape cannot be read or the walk cannot
    be recorded."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample
    key = shape_key(strategy, None, "find", None, hs, 0)
    if key is None:
        return None
    if key in _FINDS:
        _FINDS.move_to_end(key)
        return _FINDS[key]
    out: list = []

    def never(x) -> bool:
        out.append(pickle.dumps(x, protocol=4))
        return False
    try:
        find(strategy, never, settings=hs)
    except NoSuchExample:
        _FINDS[key] = out
        while len(_FINDS) > _LIMIT // 8:
            _FINDS.popitem(last=False)
        return out
    except Exception:
        return None
    return None


def walk_key(metric: str, settings: dict, form, what: str, hs, adapter: str = "") -> tuple:
    return (metric, repr(sorted(settings.items())), form, what, hs.max_examples, adapter)


def with_adapter(accept, adapter, configured, skip_type, on_payload: bool = False):
    """``accept``, then the adapter on the accepted input (``on_payload``: on the first
    item of the filter's payload, an invalid property's changed input): an adapter that
    skips it (``skip_type``) makes the search count the example and reject it ("skip",
    with the skip's message under ``on_payload``). The adapter's value is what the
    property asks for next (a unit's memo keeps it)."""
    def library(inputs, ok, payload):
        """The adapter's part, after ``accept`` said ``ok, payload``."""
        if ok is not True:
            return ok, payload
        try:
            adapter.run(configured, payload[0] if on_payload else inputs)
        except skip_type as e:
            return "skip", (str(e) if on_payload else None)
        except Exception:
            pass          # the property judges the error itself
        return True, payload

    def both(inputs):
        return library(inputs, *accept(inputs))
    if hasattr(adapter, "prefetch"):
        # (``_refiltered``: the filter over a whole trace first, then the library's calls in a few messages)
        both.inner, both.library = accept, library
        both.prefetch = lambda pairs: adapter.prefetch(configured, [p[0] if on_payload else x for x, p in pairs])
    return both


def replay_inputs(walk, base: str, plan, settings: dict) -> list:
    """The inputs a replay of ``walk`` will run through the library, in order (those after
    a divergence included: the search that takes over asks for them too)."""
    out = []
    for blob, payload, other, status in walk:
        if status == "skip":
            continue
        if base == "invalid":
            out.append(pickle.loads(payload)[0])
            continue
        inputs = pickle.loads(blob)
        out.append(inputs)
        if base == "invariance" and other is not None and other != OVERRUN:
            out.append(pickle.loads(other))
        elif base == "identity":
            got = plan.identity(inputs, settings)
            if got is not None:
                out.append(got[0])
    return out
