"""The engine's worker processes: one single-process pool per worker, each kept to one
adapter at a time (``_AffinityQueue``), a dead worker replaced and its unit reported."""
from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor


def _ignore_sigint() -> None:
    """A pool worker: SIGINT is the main process's to handle, SIGTERM and SIGHUP end it
    (the main process's handlers, inherited by the fork, are not its own); the inherited
    objects are frozen (``gc.freeze``); it ends when the main process does
    (``processes.exit_with_parent``)."""
    import gc
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the main process's objects, inherited by the fork (a pytest session's are many): frozen,
    # no collection in the worker walks them again (a unit beside a 3-million-object heap: 21 s
    # unfrozen, 18 s frozen)
    gc.freeze()
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)
    from conformance.engine.processes import exit_with_parent
    exit_with_parent()   # a SIGKILL of the main process takes the workers with it


def _init_spawned(specs: dict, init_worker) -> None:
    _ignore_sigint()
    init_worker(specs)


def _kill_pool(pool) -> None:
    """Kill the pool's worker processes now, with their library workers and whatever those
    started (``processes.kill_family``: a library worker holds copies of the pool's pipes,
    and the pool's manager thread waits until every copy is closed), then let the
    manager thread end."""
    from conformance.engine.processes import kill_family
    procs = list((getattr(pool, "_processes", None) or {}).values())
    kill_family([p.pid for p in procs if p.pid is not None])
    for proc in procs:
        proc.join(5)
    pool.shutdown(wait=True, cancel_futures=True)


class _AffinityQueue:
    """The units, handed out so that each engine worker stays with one adapter while
    that adapter has units left: a library's warm-up (imports, numba's compilation,
    torch's first calls) happens in one library worker instead of one per engine worker
    (ranx alone: 56 s of work spread over two workers, 43 s in one). A free worker
    takes the adapter with the most estimated work left that no other worker holds;
    when every remaining adapter is held, it shares the one with the most work left,
    taking its shortest unit. Within an adapter the units go longest first
    (``conformance.engine.schedule``; without estimates, the divergence unit first)."""

    def __init__(self, units, estimate=None):
        self.estimate = estimate or (lambda u: 1.0 + (u.part == "divergence"))
        self.left: dict[str, list] = {}
        for u in units:
            self.left.setdefault(u.adapter, []).append(u)
        for us in self.left.values():
            us.sort(key=lambda u: -self.estimate(u))   # stable: plan order among equals
        self.work = {a: sum(map(self.estimate, us)) for a, us in self.left.items()}

    def __len__(self) -> int:
        return sum(len(v) for v in self.left.values())

    def next_for(self, current: str | None, held: set):
        if current in self.left:
            return self._pop(current)
        if not self.left:
            return None
        free = [a for a in self.left if a not in held]
        pick = max(free or self.left, key=self.work.__getitem__)
        return self._pop(pick) if free else self._pop(pick, last=True)

    def _pop(self, adapter: str, last: bool = False):
        us = self.left[adapter]
        u = us.pop() if last else us.pop(0)
        self.work[adapter] -= self.estimate(u)
        if not us:
            del self.left[adapter]
        return u


def run_pooled(units, adapters, specs, jobs, examples, case_paths, limits, records, note, engine,
               estimate=None) -> None:
    """The units in ``jobs`` worker processes, one single-process pool each, fed by
    ``_AffinityQueue``. A worker that dies (an engine bug, the kernel's OOM killer)
    costs the unit it ran an error record and is replaced; the other workers go on.
    On an interrupt the workers are killed at once."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool
    # the runner's pieces (``engine``: a namespace holding them; imported by the runner, not here)
    _ADAPTERS, _base_record, _check_stop, run_unit = engine.ADAPTERS, engine.base_record, engine.check_stop, \
        engine.run_unit

    def new_pool():
        if sys.platform.startswith("linux"):
            # forked workers inherit the adapters as they are (including ones built in code)
            _ADAPTERS.clear()
            _ADAPTERS.update(adapters)
            return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_ignore_sigint)
        return ProcessPoolExecutor(max_workers=1, initializer=_init_spawned, initargs=(specs, engine.init_worker))

    queue = _AffinityQueue(units, estimate)
    pools = [new_pool() for _ in range(max(1, min(jobs, len(units))))]
    current: list = [None] * len(pools)
    running: dict = {}

    def feed(i: int) -> None:
        held = {current[k] for k in range(len(pools)) if k != i}
        u = queue.next_for(current[i], held)
        if u is not None:
            current[i] = u.adapter
            running[pools[i].submit(run_unit, u, examples, case_paths, None, limits)] = (i, u)

    try:
        for i in range(len(pools)):
            feed(i)
        while running:
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for f in done:
                i, u = running.pop(f)
                try:
                    recs = f.result()
                except BrokenProcessPool:
                    _kill_pool(pools[i])
                    pools[i], current[i] = new_pool(), None
                    r = _base_record(adapters[u.adapter], u.metric, u.part, "(unit)")
                    r.outcome = "error"
                    r.message = "the engine's worker process died while running this unit"
                    recs = [r]
                records.extend(recs)
                note(u, recs)
                feed(i)
            _check_stop()
    except BaseException:
        for pool in pools:
            _kill_pool(pool)
        raise
    for pool in pools:
        pool.shutdown()
