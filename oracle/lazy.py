"""Mappings whose contents are computed on first use.

An oracle result can carry parts that cost far more than its value (the five
tie rules' alignments of a corpus, beside its admissible set): ``Lazy`` computes
them once, when something reads them, and ``LazyParts`` holds such entries
beside plain ones, its keys known up front (``k in parts`` computes nothing).
Both pickle and deep-copy as the plain dicts they stand for."""

from __future__ import annotations

from collections.abc import Mapping


class Once:
    """A computation run at most once: ``Once(fn, *args)()`` is ``fn(*args)``,
    remembered (``fn`` a module-level function, so that it pickles)."""

    __slots__ = ("fn", "args", "value", "done")

    def __init__(self, fn, *args):
        self.fn, self.args, self.value, self.done = fn, args, None, False

    def __call__(self):
        if not self.done:
            self.value = self.fn(*self.args)
            self.done, self.args = True, ()
        return self.value


class Lazy(Mapping):
    """The mapping ``once()[key]`` (``once()`` itself when key is None), computed on first use."""

    def __init__(self, once: Once, key: str | None = None):
        self._once, self._key = once, key

    def _data(self) -> Mapping:
        d = self._once()
        return d if self._key is None else d[self._key]

    def __getitem__(self, k):
        return self._data()[k]

    def __iter__(self):
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __repr__(self) -> str:
        return f"Lazy({dict(self._data())!r})"

    def __reduce__(self):
        return dict, (dict(self._data()),)


class LazyParts(Mapping):
    """Plain entries and entries computed on first read (``lazy``: {key: Mapping})."""

    def __init__(self, plain: dict, lazy: dict):
        self._plain, self._lazy = dict(plain), dict(lazy)

    def __getitem__(self, k):
        if k in self._plain:
            return self._plain[k]
        return self._lazy[k]

    def __iter__(self):
        yield from self._plain
        yield from (k for k in self._lazy if k not in self._plain)

    def __len__(self) -> int:
        return len(self._plain.keys() | self._lazy.keys())

    def __contains__(self, k) -> bool:
        return k in self._plain or k in self._lazy

    def __repr__(self) -> str:
        return f"LazyParts({dict(self)!r})"

    def __reduce__(self):
        return dict, ({k: (dict(v) if isinstance(v, Lazy) else v) for k, v in self.items()},)
