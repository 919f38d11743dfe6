"""A pause of Python's cyclic garbage collector around a long computation.

The ranking measures and the TREC readers build millions of objects (score
floats, per-line field lists, Fractions) that never form reference cycles, so
reference counting frees them all; with a large run in memory, every full
collection the allocations trigger walks all of it again (about a third of a
second for a 7-million-entry run). Pausing the collector during the call
avoids that work and frees nothing later than it would be freed anyway. The
collector's previous state is restored on exit, also on an error."""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def paused_gc():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
