"""Library calls in a worker process that can die without taking the run with it.

``isolated(adapter, limits)`` wraps an adapter so that each call into the library
(``run``, ``configure``, which imports and sets the library up, the defect models,
which call it to predict a value, and the defect classifiers, some of which ask it)
happens in a forked worker process that holds the adapter. The worker
is started on the first call and reused by later ones (a library's start-up cost,
a numba compilation say, is paid once per worker), and it is replaced after a death:
- an exit (``os._exit``, a C library's ``exit``) or a signal (a segfault, a kill) is
  ``LibraryDied`` naming the exit status or the signal;
- no answer within ``limits.timeout`` seconds is ``LibraryDied`` too (the worker is
  killed); so is a resident memory above ``limits.memory`` bytes beyond what the
  worker inherited from the engine at the fork (polled every 50 ms while the call
  runs: a worker forked from a 600 MB process starts at 600 MB resident, all of it
  the engine's pages);
- ``sys.exit`` in the library is ``LibraryDied`` too (the library ended its process;
  the worker survives it), and a value the pipe cannot carry back is ``CallFailed``;
- any exception the library raises comes back as raised by the call.
``CallFailed`` (and so ``LibraryDied``) is never a refusal: a refusal is an exception
raised by the library's own code on that input. Every such outcome is an ``error`` of
the call that caused it, and the run goes on.
The worker's standard output is its standard error, so that a library's prints never
mix into a report written to standard output.

Everything else an adapter does (profiles, tolerances, capabilities: declarations)
runs in the engine's process; so does a call whose arguments or value cannot be
pickled (it is made again in process). Forking is POSIX only: elsewhere, and with
``limits.enabled`` false, calls run in the engine's process as before.
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import time
from dataclasses import dataclass

from conformance.engine.processes import adopt, exit_with_parent, family_rss, kill_group, lead_group, rss

DEFAULT_TIMEOUT = 300.0           # seconds per library call
DEFAULT_MEMORY = 8 * 1024 ** 3    # resident bytes of the worker, beyond those it inherits


class CallFailed(Exception):
    """A library call that ended without the library's own value or exception (a death,
    an exit, a limit, a value that cannot be carried back): an ``error`` outcome, never a
    refusal of the input."""


class LibraryDied(CallFailed):
    """The library's worker process died, exited (``sys.exit`` included), or was killed for
    exceeding a limit."""


class LimitHit(LibraryDied):
    """The call outlasted ``--timeout`` or outgrew ``--memory``: an environment error (a
    loaded machine, a first call compiling), never a verdict on the library's value; its
    message carries the option's name (``hit_a_limit``)."""


ENVIRONMENT_ERROR = ("an environment error: the call hit the run's limit (--timeout or --memory), which says "
                     "nothing of the library's value; known --write does not record it")


def hit_a_limit(text: str) -> bool:
    """Whether a record's text is a ``LimitHit``'s (its message names --timeout or --memory)."""
    return "(--timeout)" in str(text) or "(--memory)" in str(text)


# What ends a library call without the library's own exception: its process died,
# exited (sys.exit, in a worker or in process) or hit a limit, or its value could not be
# carried back. Never a refusal: a refusal is an exception raised by the library's code.
NOT_REFUSALS = (CallFailed, SystemExit)


def not_a_refusal(e: BaseException) -> str:
    """Why ``e`` is not the library refusing its input (``NOT_REFUSALS``), or ''."""
    if isinstance(e, SystemExit):
        return f"the library called sys.exit({e.code!r})"
    if isinstance(e, CallFailed):
        return str(e)
    return ""


# Exceptions that say "this input is wrong" (a refusal) versus the ones that say the
# code fell over on it (an unrelated crash: an index past the end, a division by zero).
UNRELATED_CRASHES = (IndexError, KeyError, AttributeError, ZeroDivisionError, UnboundLocalError, NameError,
                     RecursionError, FloatingPointError, OverflowError, SystemError, MemoryError,
                     NotImplementedError)


def not_its_refusal(adapter, metric: str, e: BaseException) -> str:
    """Why the exception ``e`` the library raised on an input the spec refuses is not its
    refusal ('' when it is): an unrelated crash (``UNRELATED_CRASHES``), or a type outside
    the ones its adapter declares for refusing an input (``Adapter.refusal_types``)."""
    if isinstance(e, UNRELATED_CRASHES):
        return f"an unrelated {type(e).__name__}"
    declared = adapter.refusal_types(metric) if hasattr(adapter, "refusal_types") else ()
    if declared and not {c.__name__ for c in type(e).__mro__} & set(declared):
        article = "an" if type(e).__name__[:1] in "AEIOU" else "a"
        return (f"{article} {type(e).__name__}, which is not among the exception types {adapter.name} refuses an input "
                f"with ({', '.join(declared)})")
    return ""


@dataclass(frozen=True)
class Limits:
    timeout: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY
    enabled: bool = True


def _serve(conn, other_end, adapter) -> None:
    """The worker: run each (configured, inputs) it receives and send back the output or
    the exception (re-created by name when it cannot be pickled). It closes its copy of
    the engine's end of the pipe, so that it sees the pipe close when the engine dies."""
    other_end.close()
    lead_group()   # its own children are killed with it (``processes``)
    # the engine's handlers (SIGTERM and SIGHUP stop a run) are not the worker's: it ends
    # when it is told to, when its pipe closes, or by the signal's default action
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)
    exit_with_parent()
    os.dup2(2, 1)   # the library's prints go to standard error (C-level writes to fd 1 too)
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the engine decides when to stop
    gc.freeze()   # the engine's objects, inherited: no collection walks them (nor copies their pages)
    state: dict = {}
    while True:
        try:
            msg = conn.recv_bytes()
        except (EOFError, OSError):
            os._exit(0)
        if not msg:
            os._exit(0)
        op, args = pickle.loads(msg)
        if op == "many":   # (configured, [inputs, ...]): one reply per input, each sent when made
            configured, inputs = args
            for x in inputs:
                conn.send_bytes(_answer(adapter, "run", (configured, x), state))
        else:
            conn.send_bytes(_answer(adapter, op, args, state))


_OURS = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), d) + os.sep
              for d in ("conformance", "oracle", "adapters"))


def library_frame(e: BaseException) -> str:
    """Where in the library's own code ``e`` was raised: the innermost frame of its traceback
    outside this project and Python's standard library, as ``package/module.py:LINE in
    function`` ('' when there is none, or no traceback). A worker sets it on the exception
    it sends back (``e.library_frame``), since a traceback does not cross the pipe."""
    import sysconfig
    import traceback
    known = getattr(e, "library_frame", "")
    if known or e.__traceback__ is None:
        return known
    stdlib = sysconfig.get_paths()["stdlib"] + os.sep
    for f in reversed(traceback.extract_tb(e.__traceback__)):
        path = os.path.abspath(f.filename)
        if path.startswith(_OURS) or (path.startswith(stdlib) and "site-packages" not in path) or f.filename.startswith("<"):
            continue
        parts = path.split(os.sep)
        cut = max((i for i, p in enumerate(parts) if p in ("site-packages", "dist-packages")), default=len(parts) - 3)
        return f"{'/'.join(parts[cut + 1:])}:{f.lineno} in {f.name}"
    return ""


def _answer(adapter, op: str, args: tuple, state: dict) -> bytes:
    """The worker's reply to one call, pickled: ("ok", value), ("raise", exception),
    ("raise-named", (type name, text)) for a library exception that cannot be pickled,
    ("failed", (kind, text)) for a call that ended without the library's own answer
    (``sys.exit``, a BaseException, a value that cannot be pickled: ``_failure``), or
    ("unpicklable", None) where the engine should make the call itself."""
    try:
        if op == "run":
            value = adapter.run(*args)
        elif op == "configure":
            value = adapter.configure(*args)
        else:  # a defect model or classifier: ("model" or "classifier", (name, args))
            if op not in state:
                state[op] = adapter.defect_models() if op == "model" else adapter.defect_classifiers()
            value = state[op][args[0]](*args[1])
        reply = ("ok", value)
    except Exception as e:
        try:
            e.library_frame = library_frame(e)   # the traceback stays here; where it was raised goes back
        except Exception:
            pass
        reply = ("raise", e)
    except BaseException as e:   # sys.exit in the library is its call's outcome, not the engine's exit
        reply = ("failed", ("died", not_a_refusal(e)) if isinstance(e, SystemExit)
                 else ("call", f"the library raised {type(e).__name__}: {e}"))
    try:
        return pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        if op != "run" and reply[0] == "ok":
            return pickle.dumps(("unpicklable", None))   # the engine makes this call itself
        if reply[0] == "raise":   # the library's own exception, told by its name and text
            return pickle.dumps(("raise-named", (type(reply[1]).__name__, str(reply[1]))))
        what = type(getattr(reply[1], "value", reply[1])).__name__
        return pickle.dumps(("failed", ("call", f"the library's value (a {what}) cannot be carried back "
                                                "from its process")))


_REMOTE_TYPES: dict = {}


def _failure(kind: str, text: str) -> CallFailed:
    """The engine's exception for a call that the worker reports ended without the
    library's own answer: ``LibraryDied`` for an exit, ``CallFailed`` otherwise."""
    return LibraryDied(text) if kind == "died" else CallFailed(text)


def _named_exception(name: str, text: str) -> Exception:
    cls = _REMOTE_TYPES.get(name)
    if cls is None:
        cls = _REMOTE_TYPES[name] = type(name, (Exception,), {"__module__": "library"})
    return cls(text)


class Isolated:
    """An adapter whose library calls run in a worker process (see the module docstring);
    every other attribute is the adapter's own."""

    def __init__(self, adapter, limits: Limits):
        self._adapter = adapter
        self._limits = limits
        self._proc = None
        self._conn = None
        self._inherited = 0
        self._owner = os.getpid()
        self._configured: dict = {}   # (metric, settings) -> what configure gave in the live worker
        self._warm: set = set()   # the kinds of call (configure, run, ...) the live worker has made

    def __getattr__(self, name):
        return getattr(self._adapter, name)

    def _start(self) -> None:
        import multiprocessing
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child, parent, self._adapter), daemon=True)
        self._inherited = rss(os.getpid())   # resident in the child from its first moment
        self._proc.start()
        self._warm = set()
        adopt(self._proc.pid)
        child.close()
        self._conn = parent

    def close(self) -> None:
        if self._proc is not None and self._owner == os.getpid():
            try:
                self._conn.send_bytes(b"")
            except Exception:
                pass
            self._ended_within(1.0)
            kill_group(self._proc.pid)   # and whatever the library started that still runs
            self._proc.join()
        self._proc = self._conn = None
        self._configured.clear()

    def _died(self, why: str, limit: bool = False) -> LibraryDied:
        proc = self._proc
        kill_group(proc.pid)   # the worker, and whatever the library started
        proc.join()
        code = proc.exitcode
        self._proc = self._conn = None
        self._configured.clear()
        if why:
            return LimitHit(why) if limit else LibraryDied(why)
        if code is not None and code < 0:
            try:
                sig = signal.Signals(-code).name
            except ValueError:
                sig = f"signal {-code}"
            return LibraryDied(f"the library's process was killed by {sig}")
        return LibraryDied(f"the library's process exited with status {code}")

    def run(self, configured, inputs):
        return self._call("run", (configured, inputs), lambda: self._adapter.run(configured, inputs))

    def configure(self, metric, settings):
        """The adapter's configure, in the worker too (it imports and sets up the library);
        asked again at the same settings, what the live worker gave (every property and
        divergence search configures; a worker that dies takes these with it)."""
        try:
            key = pickle.dumps((metric, sorted(settings.items())), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            key = None
        if key is not None and key in self._configured and self._owner == os.getpid() and self._proc is not None:
            return pickle.loads(self._configured[key])   # a copy of its own, as from the worker
        value = self._call("configure", (metric, settings), lambda: self._adapter.configure(metric, settings))
        if key is not None and self._proc is not None:
            try:
                self._configured[key] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:
                pass
        return value

    def defect_models(self) -> dict:
        """The adapter's defect models, each called in the worker (models call the library)."""
        names = self._adapter.defect_models() if hasattr(self._adapter, "defect_models") else {}
        return {name: self._proxy("model", name, fn) for name, fn in names.items()}

    def defect_classifiers(self) -> dict:
        """The adapter's defect classifiers, each called in the worker: some call the library
        (ranx's asks it for its order of the documents), which must neither run in nor load
        its state into the engine's process (numba would compile there a second time)."""
        names = self._adapter.defect_classifiers() if hasattr(self._adapter, "defect_classifiers") else {}
        return {name: self._proxy("classifier", name, fn) for name, fn in names.items()}

    def _proxy(self, op, name, fn):
        def call(*args):
            return self._call(op, (name, args), lambda: fn(*args))
        return call

    def _call(self, op: str, args: tuple, local):
        """``local()`` made in the worker: its value, its exception, or LibraryDied. What
        the pipe cannot carry (arguments, or a configure or model value) is made in process."""
        try:
            payload = pickle.dumps((op, args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return local()   # options the pipe cannot carry: in process
        self._send(payload)
        kind, value = self._receive(op)
        if kind == "ok":
            return value
        if kind == "unpicklable":
            return local()
        if kind == "raise-named":
            raise _named_exception(*value)
        if kind == "failed":
            raise _failure(*value)
        raise value

    def run_many(self, configured, inputs: list) -> list | None:
        """``run(configured, x)`` for each ``x`` of ``inputs`` in the worker, sent in one
        message and answered one reply per input as each is made (the worker does not wait
        for the engine between calls: about 0.2 ms of each call's round trip here), each
        under the time and memory limits from the reply before it. A list of outcomes in
        order: ("ok", value) or ("raise", exception), ended early by ("died", LibraryDied)
        at the input the worker died on (the inputs after it are not run); None when the
        arguments cannot be pickled."""
        try:
            payload = pickle.dumps(("many", (configured, list(inputs))), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return None
        self._send(payload)
        out: list = []
        for _ in inputs:
            try:
                kind, value = self._receive()
            except LibraryDied as e:
                out.append(("died", e))
                break
            out.append(("ok", value) if kind == "ok" else
                       ("raise", _named_exception(*value) if kind == "raise-named" else
                        _failure(*value) if kind == "failed" else value))
        return out

    def _send(self, payload: bytes) -> None:
        if self._owner != os.getpid():
            # a forked copy of this wrapper (a pool worker): the worker belongs to the parent
            self._proc = self._conn = None
            self._owner = os.getpid()
            self._configured.clear()
        # (a worker that died between calls is found by ``_receive``: its end of the pipe is
        # closed, so the poll returns and the read fails)
        if self._proc is None:
            self._start()
        try:
            # pickled once, by plain pickle (the pipe's own pickler would pickle again, and it
            # hands torch tensors over by shared memory: slower for the small values of a call)
            self._conn.send_bytes(payload)
        except (BrokenPipeError, OSError):
            raise self._died(self._pipe_closed()) from None

    def _receive(self, op: str = "run") -> tuple:
        """The worker's next reply (kind, value), or LibraryDied: it died, or exceeded a limit."""
        t0 = time.monotonic()
        limits = self._limits
        # a fresh worker's first call of each kind imports and warms the library (numba
        # compiling, torch's first kernels): four times the limit, so a loaded machine is not
        # read as a hang
        first = op not in self._warm
        self._warm.add(op)
        timeout = limits.timeout * (4 if first else 1)
        polls, children = 0, 0
        while not self._conn.poll(0.05):
            if not self._proc.is_alive():
                raise self._died("")
            if time.monotonic() - t0 > timeout:
                raise self._died(f"no answer within {timeout:g} s (--timeout)"
                                 + (f"; a fresh worker's first {op} call has four times the limit" if first else "")
                                 + "; the library's process was killed", limit=True)
            polls += 1
            if polls % 10 == 0:   # the library's own processes, every half second (a walk of /proc)
                children = family_rss(self._proc.pid)
            if limits.memory and rss(self._proc.pid) + children - self._inherited > limits.memory:
                raise self._died(f"the library's process (with any it started) used more than "
                                 f"{limits.memory / 1024 ** 2:.0f} MB (--memory); it was killed", limit=True)
        try:
            return pickle.loads(self._conn.recv_bytes())
        except (EOFError, OSError):
            raise self._died(self._pipe_closed()) from None

    def _ended_within(self, seconds: float) -> bool:
        """Whether the worker ends by itself within ``seconds``, polled (not ``join(timeout)``:
        a process that closed its sentinel makes join's wait return at once into a blocking
        waitpid)."""
        deadline = time.monotonic() + seconds
        while self._proc.is_alive():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def _pipe_closed(self) -> str:
        """Why the pipe closed: '' when the process ended (its status says how), else the
        process closed its end while alive (a library that closes every file descriptor),
        which is said so, not reported as the kill that then ends it."""
        if self._ended_within(0.5):
            return ""
        return ("the library's process closed its pipe to the engine while running (it closed file descriptors "
                "it did not open); it was ended")


def isolated(adapter, limits: Limits | None = None):
    """``adapter`` with its library calls in a worker process, where the platform forks."""
    limits = limits or Limits()
    if not limits.enabled or sys.platform == "win32" or not hasattr(os, "fork") or isinstance(adapter, Isolated):
        return adapter
    return Isolated(adapter, limits)
