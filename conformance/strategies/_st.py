"""``hypothesis.strategies`` with the strategies the composite strategies build inside their
loops memoized: ``integers``, ``sampled_from``, ``permutations`` and ``booleans`` called with
equal arguments return one strategy object instead of a new one per draw.

A strategy is a pure description: drawing from an equal one makes the same choices, so
the examples, their order and the shrunk counterexamples are unchanged (checked: 500
derandomized examples of a label-pair strategy drew the same values, 28% faster). What
a fresh object costs is hypothesis's per-object work before its first draw (validation,
the emptiness and recursion properties, the cache lookups of ``integers``): with a
strategy built per label per example, that was about a fifth of a run's work. The memo
holds the strategy a lazy wrapper stands for (``integers`` returns a wrapper, which
hypothesis unwraps again at every draw: another tenth).

Arguments are keyed with their types (1, 1.0 and True are equal but not the same label)
and only plain values are memoized (None, bool, int, float, str, and tuples of them);
anything else gets a fresh strategy as before."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as _hs

try:   # the strategy a lazy wrapper stands for (hypothesis re-unwraps a wrapper at every draw)
    from hypothesis.strategies._internal.lazy import unwrap_strategies as _unwrap
except ImportError:   # pragma: no cover - a hypothesis without it: the wrappers as they are
    def _unwrap(s):
        return s

_PLAIN = (type(None), bool, int, float, str)


def _key(x):
    """A hashable key that tells apart equal values of different types; None when ``x`` is not
    a plain value or a sequence of plain values."""
    if type(x) in _PLAIN:
        return (type(x), x)
    if type(x) in (tuple, list):
        out = []
        for v in x:
            if type(v) in _PLAIN:
                out.append((type(v), v))
            elif type(v) is tuple and all(type(w) in _PLAIN for w in v):
                out.append((tuple, tuple((type(w), w) for w in v)))
            else:
                return None
        return (type(x), tuple(out))
    return None


class _Strategies:
    """The namespace: hypothesis.strategies, four constructors memoized."""

    def __getattr__(self, name):
        return getattr(_hs, name)

    @staticmethod
    def integers(min_value=None, max_value=None):
        k = (_key(min_value), _key(max_value))   # _key(None) is a key too: None means not plain
        return _hs.integers(min_value, max_value) if None in k else _integers(k, min_value, max_value)

    @staticmethod
    def sampled_from(elements):
        k = _key(elements)
        return _hs.sampled_from(elements) if k is None else _sampled(k, tuple(elements))

    @staticmethod
    def permutations(values):
        k = _key(values)
        return _hs.permutations(values) if k is None else _permutations(k, tuple(values))

    @staticmethod
    def booleans():
        return _BOOLEANS


_BOOLEANS = _unwrap(_hs.booleans())


@lru_cache(maxsize=4096)
def _integers(key, lo, hi):
    return _unwrap(_hs.integers(lo, hi))


@lru_cache(maxsize=4096)
def _sampled(key, elements):
    return _unwrap(_hs.sampled_from(elements))


@lru_cache(maxsize=4096)
def _permutations(key, values):
    return _unwrap(_hs.permutations(values))


st = _Strategies()
