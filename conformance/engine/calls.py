"""A unit's library calls (``LibraryCalls``): each corpus input run once per setting, the
corpus sent to the library's worker in one message, shared by the properties of that
setting (oracle-equal, statistics, bounds and identity judge the same inputs)."""
from __future__ import annotations

from conformance.engine.corpus import key_text
from conformance.engine.isolation import LibraryDied


class LibraryCalls:
    """The adapter, with ``run`` answered from ``memo`` when the same input was run at the
    same settings before in this unit (a deterministic library gives what it gave). A raise
    is not kept (the call is made again), except the isolation's ``LibraryDied`` (a crash,
    an exit, a time or memory limit): raised again at once, so that a library that hangs on
    an input costs the unit one time limit, not one per property."""

    def __init__(self, adapter, memo: dict, setting: str):
        self._adapter, self._memo, self._setting = adapter, memo, setting

    def __getattr__(self, name):
        return getattr(self._adapter, name)

    def _key(self, inputs):
        try:
            return self._setting, key_text(inputs)
        except (TypeError, ValueError):
            return None

    def prefetch(self, configured, inputs: list) -> None:
        """Run the inputs not yet answered in one message to the library's worker
        (``Isolated.run_many``): values are kept, a raise is kept for the next call on that
        input only, a death as ``run`` keeps it. Nothing without isolation."""
        many = getattr(self._adapter, "run_many", None)
        if many is None:
            return
        keys, todo = {}, []
        for x in inputs:
            key = self._key(x)
            if key is not None and key not in self._memo and key not in keys:
                keys[key] = None
                todo.append(x)
        if len(todo) < 2:
            return
        out = many(configured, todo)
        for key, (kind, value) in zip(keys, out or ()):
            self._memo[key] = value if kind == "ok" else _Died(value) if kind == "died" else _Raised(value)

    def run(self, configured, inputs):
        key = self._key(inputs)
        if key is None:
            return self._adapter.run(configured, inputs)
        out = self._memo.get(key)
        if isinstance(out, _Raised):   # a prefetched raise: this call's outcome, then forgotten
            del self._memo[key]
            raise out.error
        if out is None:
            try:
                out = self._memo[key] = self._adapter.run(configured, inputs)
            except LibraryDied as e:
                self._memo[key] = _Died(e)
                raise
        elif isinstance(out, _Died):
            raise out.error
        return out


class _Died:
    """A kept ``LibraryDied``."""

    def __init__(self, error):
        self.error = error


class _Raised:
    """A prefetched raise, kept for one call."""

    def __init__(self, error):
        self.error = error
