"""A unit's memo of library calls (``Remembered``), shared by the properties of one
setting."""
from __future__ import annotations

import pickle

from conformance.engine.isolation import LibraryDied


class Remembered:
    """The adapter, with ``run`` answered from ``memo`` when the same input was run at the
    same settings before in this unit. The properties at one setting draw their inputs from
    one seed and one strategy (``PROPERTY_SEED``), so bounds, invariance and statistics
    meet oracle-equal's inputs again: a deterministic library gives what it gave. A raise is
    not remembered (the call is made again: hypothesis tells failures apart by where they
    were raised), nor are inputs that cannot be pickled, except the isolation's
    ``LibraryDied`` (a crash, an exit, a time or memory limit): raised again at once, so
    that a library that hangs on an input costs the unit one time limit, not one per
    property (and per walk recording, which asks the adapter first)."""

    def __init__(self, adapter, memo: dict, setting: str):
        self._adapter, self._memo, self._setting = adapter, memo, setting

    def __getattr__(self, name):
        return getattr(self._adapter, name)

    def prefetch(self, configured, inputs: list) -> None:
        """Run the inputs not yet remembered in one message to the library's worker
        (``Isolated.run_many``), ahead of the calls that will ask for them: values are
        remembered, a raise is kept for the next call on that input only (a raise is not
        remembered, above), a death as ``run`` keeps it. Nothing without isolation."""
        many = getattr(self._adapter, "run_many", None)
        if many is None:
            return
        keys, todo = {}, []
        for x in inputs:
            try:
                key = (self._setting, pickle.dumps(x, protocol=4))
            except Exception:
                continue
            if key not in self._memo and key not in keys:
                keys[key] = None
                todo.append(x)
        if len(todo) < 2:
            return
        out = many(configured, todo)
        for key, (kind, value) in zip(keys, out or ()):
            self._memo[key] = value if kind == "ok" else _Died(value) if kind == "died" else _Raised(value)

    def run(self, configured, inputs):
        try:
            key = (self._setting, pickle.dumps(inputs, protocol=4))
        except Exception:
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
    """A remembered ``LibraryDied``."""

    def __init__(self, error):
        self.error = error


class _Raised:
    """A prefetched raise, kept for one call."""

    def __init__(self, error):
        self.error = error
