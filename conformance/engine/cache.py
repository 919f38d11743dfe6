"""The cache: what a run makes once and the next run of the same code reads, as plain
JSON that reading cannot turn into code and that never decides a verdict by itself.

- ``corpus``: the inputs of one corpus (``conformance.engine.corpus``), read back through
  JSON when made too, so that a stored corpus and a fresh one are the same items;

Every entry lives under a namespace: a digest of the source of ``conformance``,
``oracle`` and ``adapters``, hypothesis's, NumPy's and Python's versions; a change to
any of them starts a new namespace (the older ones are removed, the newest few kept).
The directory is ``$METRIC_CONFORMANCE_CACHE/corpus`` or
``~/.cache/metric-conformance/corpus``, made with mode 0700; ``METRIC_CONFORMANCE_NO_CACHE=1``
(the CLI's ``run --no-cache``) turns the cache off. A cache directory another user owns
or can write is not used (one line on standard error says so). An entry is a JSON
object with its namespace, kind, key, value and the SHA-256 of those four: one that
cannot be read, is too large, names another namespace, kind or key, or whose digest
does not match (truncated, edited) is ignored and written again.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path

FORMAT = 2
KINDS = ("corpus",)   # the kinds of entry kept on disk
_KEEP_NAMESPACES = 3      # namespaces kept beside the current one's (older trees, other venvs)
_MAX_BYTES = 32 * 1024 ** 2
_state: dict = {}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def enabled() -> bool:
    return not os.environ.get("METRIC_CONFORMANCE_NO_CACHE")


def _base() -> Path:
    base = os.environ.get("METRIC_CONFORMANCE_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "metric-conformance") / "corpus"


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


def unsafe(path: Path) -> str:
    """Why the directory ``path`` must not hold this user's cache ('' when it may): owned
    by another user, or writable by the group or others (anyone who can write there can
    plant an entry)."""
    try:
        st = path.stat()
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "is owned by another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by other users"
    return ""


def _made(path: Path) -> Path:
    """``path`` made (mode 0700) if it is missing; raises if it is unsafe."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    why = unsafe(path)
    if why:
        raise PermissionError(f"{path} {why}")
    return path


def _dir() -> Path | None:
    """This namespace's directory (made, and the stale namespaces pruned, once a process);
    None where the store is off, unsafe or cannot be made."""
    if not enabled():
        return None
    if "dir" in _state:
        return _state["dir"]
    d = None
    try:
        base = _made(_base())
        d = _made(base / namespace())
        os.utime(d)
        _prune(base, d)
    except PermissionError as e:   # another user's, or a world-writable, cache: not used
        print(f"metric-conformance: the cache is not used: {e}", file=sys.stderr)
        d = None
    except Exception:   # no home directory, a read-only one, a file in the way: no store
        d = None
    _state["dir"] = d
    return d


def _prune(base: Path, current: Path) -> None:
    others = []
    for p in base.iterdir():
        if p != current and p.is_dir() and not p.is_symlink():
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


def _sealed(ns: str, kind: str, key_text: str, value) -> str:
    body = json.dumps([ns, kind, key_text, value], sort_keys=True, ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(body.encode()).hexdigest()


def read_entry(path: Path, kind: str, key_text: str | None = None, ns: str | None = None):
    """(key text, value) of the entry file ``path`` when it is whole and its own (the
    namespace, the kind, the key when given, and its digest match); else None."""
    try:
        if path.is_symlink() or path.stat().st_size > _MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError, UnicodeDecodeError):
        return None
    ns = ns or namespace()
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("namespace") != ns \
            or data.get("kind") != kind or not isinstance(data.get("key"), str) or "value" not in data:
        return None
    if key_text is not None and data["key"] != key_text:
        return None
    try:
        if data.get("digest") != _sealed(ns, kind, data["key"], data["value"]):
            return None
    except (TypeError, ValueError):
        return None
    return data["key"], data["value"]


def write_entry(path: Path, kind: str, key_text: str, value) -> None:
    """Write one entry whole (a temporary file, then a rename: two workers may write one)."""
    try:   # only what reads back from JSON as itself
        if json.loads(json.dumps(value, allow_nan=False)) != value:
            return
    except (TypeError, ValueError, RecursionError):
        return
    ns = namespace()
    data = {"format": FORMAT, "namespace": ns, "kind": kind, "key": key_text, "value": value,
            "digest": _sealed(ns, kind, key_text, value)}
    tmp = None
    try:
        _made(path.parent)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, allow_nan=False)
        os.replace(tmp, path)
    except Exception:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def load(kind: str, key):
    """The value stored under ``key`` (None: none, unreadable, or a kind not kept)."""
    d = _dir()
    if d is None or kind not in KINDS or not storable(key):
        return None
    got = read_entry(d / kind / digest(key), kind, repr(key))
    return None if got is None else got[1]


def save(kind: str, key, value) -> None:
    d = _dir()
    if d is not None and kind in KINDS and storable(key):
        write_entry(d / kind / digest(key), kind, repr(key), value)
