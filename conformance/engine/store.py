"""What a run's searches generated, kept on disk for the next run of the same code.

A property's walk and a divergence search's walk are fixed by the code that draws
them (the strategies, the filters' verdicts) and by hypothesis's version
(``conformance.engine.draws``): a later run of the same code on the same
interpreter generates them again, example by example. This store keeps them
between runs, as hypothesis's example database keeps failing examples:

- a trace (every example of a walk with the verdict of the filter that made it),
  by its strategy's shape: read back as the in-process traces are, so it is used
  only where this run's filter accepts and refuses each of its examples as the
  recording did (checked, example by example, by ``draws._refiltered``);
- the walk of a divergence search whose condition never held (``draws.find_walk``);
- a divergence search's shrunk separating input (``divergence.separating_input``):
  used only after it is checked again (it still separates the two settings, and the
  library, called again, still follows the profile); and the searches in which no
  generated input separated the two settings at all (the oracle's verdict alone).

Every entry lives under a namespace: a digest of the source of ``conformance``,
``oracle`` and ``adapters``, hypothesis's, NumPy's and Python's versions. A change
to any of them starts a new namespace (the older ones are removed, the newest few
kept). The directory is ``$METRIC_CONFORMANCE_CACHE/searches`` or
``~/.cache/metric-conformance/searches``; ``METRIC_CONFORMANCE_NO_CACHE=1`` (the
CLI's ``run --no-cache``) turns the store off. Entries are pickles: the directory
must be writable by its user alone, as any cache of pickles. An entry that cannot
be read (truncated, foreign, of another format) is ignored and written again.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import shutil
import sys
import tempfile
from pathlib import Path

FORMAT = 1
_KEEP_NAMESPACES = 3      # namespaces kept beside the current one's (older trees, other venvs)
_TRACES_PER_SHAPE = 12    # traces kept on disk per strategy shape (the oldest go first)
_state: dict = {}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def enabled() -> bool:
    return not os.environ.get("METRIC_CONFORMANCE_NO_CACHE")


def _base() -> Path:
    base = os.environ.get("METRIC_CONFORMANCE_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "metric-conformance") / "searches"


def namespace() -> str:
    """The digest of everything a stored search depends on besides its key."""
    if "namespace" not in _state:
        import hypothesis
        import numpy
        h = hashlib.sha256(f"{FORMAT}|{sys.version}|{hypothesis.__version__}|{numpy.__version__}".encode())
        root = Path(__file__).resolve().parents[2]
        for package in ("conformance", "oracle", "adapters"):
            for p in sorted((root / package).rglob("*.py")):
                h.update(str(p.relative_to(root)).encode() + b"\0")
                h.update(p.read_bytes() + b"\0")
        _state["namespace"] = h.hexdigest()[:24]
    return _state["namespace"]


def _dir() -> Path | None:
    """This namespace's directory (made, and the stale namespaces pruned, once a process);
    None where the store is off or cannot be made."""
    if not enabled():
        return None
    if "dir" in _state:
        return _state["dir"]
    d = None
    try:
        base = _base()
        d = base / namespace()
        d.mkdir(parents=True, exist_ok=True)
        os.utime(d)
        _prune(base, d)
    except Exception:   # no home directory, a read-only one, a file in the way: no store
        d = None
    _state["dir"] = d
    return d


def _prune(base: Path, current: Path) -> None:
    others = []
    for p in base.iterdir():
        if p != current and p.is_dir():
            try:
                others.append((p.stat().st_mtime, p))
            except OSError:
                pass
    for _, p in sorted(others)[:-_KEEP_NAMESPACES or None]:
        shutil.rmtree(p, ignore_errors=True)


def digest(key) -> str:
    """A file name for ``key`` (a tuple of plain values: its repr is stable across processes)."""
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


def storable(key) -> bool:
    """Whether ``key``'s repr names it in another process too (no object addresses in it)."""
    return _ADDRESS.search(repr(key)) is None


def _read(path: Path):
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:   # a truncated or foreign entry: as if there were none
        return None


def _write(path: Path, value) -> None:
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=4)
        os.replace(tmp, path)   # whole or not at all: two workers may write one entry
    except Exception:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def load(kind: str, key):
    """The value stored under ``key`` (None: none, or unreadable)."""
    d = _dir()
    if d is None or not storable(key):
        return None
    got = _read(d / kind / digest(key))
    return got[1] if isinstance(got, tuple) and len(got) == 2 and got[0] == repr(key) else None


def save(kind: str, key, value) -> None:
    d = _dir()
    if d is not None and storable(key):
        _write(d / kind / digest(key), (repr(key), value))


def load_traces(shape) -> list:
    """The traces stored for a strategy shape, oldest first: [(entries, unsatisfiable)]."""
    d = _dir()
    if d is None or not storable(shape):
        return []
    folder = d / "traces" / digest(shape)
    try:
        files = sorted(folder.iterdir(), key=lambda p: (p.stat().st_mtime, p.name))
    except OSError:
        return []
    out = []
    for p in files:
        if not p.name.startswith("."):
            got = _read(p)
            if isinstance(got, tuple) and len(got) == 3 and got[0] == repr(shape):
                out.append((got[1], got[2]))
    return out


def save_trace(shape, entries: list, unsatisfiable: bool) -> None:
    d = _dir()
    if d is None or not storable(shape):
        return
    folder = d / "traces" / digest(shape)
    name = hashlib.sha256(pickle.dumps(entries, protocol=4)).hexdigest()[:32]
    _write(folder / name, (repr(shape), entries, unsatisfiable))
    try:
        files = sorted((p for p in folder.iterdir() if not p.name.startswith(".")),
                       key=lambda p: p.stat().st_mtime)
        for p in files[:-_TRACES_PER_SHAPE]:
            p.unlink()
    except OSError:
        pass


def entries(kind: str, base: Path | None = None) -> list:
    """[(key, value)] of this namespace's entries of ``kind`` under ``base`` (default: the
    store's directory), each key read back from its repr as a literal (``ast.literal_eval``:
    no code runs); an entry whose key does not read back is left out."""
    import ast
    d = (Path(base) / namespace()) if base else _dir()
    out = []
    if d is None:
        return out
    try:
        files = sorted((d / kind).iterdir())
    except OSError:
        return out
    for p in files:
        got = _read(p)
        if isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], str):
            try:
                out.append((ast.literal_eval(got[0]), got[1]))
            except (ValueError, SyntaxError, RecursionError, MemoryError):
                pass
    return out
