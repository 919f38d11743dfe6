"""Witnesses shipped with the adapters: the separating inputs a divergence search found
and shrank (and the failing properties' shrunk examples, ``conformance.engine.findings``),
kept as data beside the adapter
(``adapters/witnesses/<adapter>.json``; the searches run without the library's
agreement, which name no adapter, in ``_oracle.json``).

A divergence search (``conformance.engine.divergence.separating_input``) runs hypothesis
``find`` and shrinks what it finds; on a first run that is most of a divergence's time
(a whole run's divergence records: 89 s of work with nothing kept, 12 s reading the
searches an earlier run kept). The store of searches (``conformance.engine.store``)
keeps them for a later run of the same code on the same machine; the witnesses are a
corpus committed with the code (as a fuzzer's seed corpus, or hypothesis's example
database checked into version control), so a fresh clone's first run reads them too.

A witness is never taken on trust: the run checks it as it checks a stored input: it
still separates the two settings under the oracle and the library, called again at
its profile, still follows the profile there and is told apart from the canonical
value. One that fails (a new release of the library, a changed oracle) is searched for
again. Its key is the search's own (the metric, both settings, the strategy's settings,
the search's budget, the adapter and its profile), without the library's version, so a
witness serves every release it still holds on. Where the search has changed since the
witnesses were written (a new strategy), the run's input is the witness, not
necessarily what the new search would shrink to: ``metric-conformance witnesses``
writes them again from a run with neither the witnesses nor the store, and
``run --no-cache`` (``METRIC_CONFORMANCE_NO_CACHE=1``) reads neither.

A failing property's shrunk example is kept the same way, under a key that names the
library's version (``conformance.engine.findings``): it is used only where this run's
own walk fails the property, and only when the example, judged again, still fails.

The files are JSON: an input is kept only when it reads back as the same Python value
(plain dicts, lists, strings, ints, finite floats, None), so reading one runs no code.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

WITNESS_DIR = Path(__file__).resolve().parents[2] / "adapters" / "witnesses"
FORMAT = 1
ORACLE = "_oracle"          # the file of searches without the library's agreement
_MAX_BYTES = 16 * 1024 ** 2
_loaded: dict = {}


def enabled() -> bool:
    return not os.environ.get("METRIC_CONFORMANCE_NO_CACHE") and not os.environ.get("METRIC_CONFORMANCE_NO_WITNESSES")


def key(stored) -> tuple[str, str] | None:
    """(file, key text) of a search's store key ``(search, identity)``: identity
    ``(adapter, library, version, metric, profile)`` or None; the version left out."""
    try:
        search, identity = stored
        if identity is None:
            return ORACLE, repr((search, None))
        name, library, _version, metric, profile = identity
        return str(name), repr((search, (name, library, metric, profile)))
    except (TypeError, ValueError):
        return None


def _named(name: str) -> bool:
    """Whether ``name`` can name a file of the witness directory (no path in it)."""
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")


def read(path: Path) -> dict | None:
    """{key text: input} of a witness file; None when it cannot be read (missing, too large,
    not JSON, another format)."""
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("witnesses"), list):
        return None
    return {w["key"]: w["input"] for w in data["witnesses"]
            if isinstance(w, dict) and isinstance(w.get("key"), str) and "input" in w}


def _read(name: str) -> dict:
    if name not in _loaded:   # unreadable: as if there were none (the searches run)
        _loaded[name] = (read(WITNESS_DIR / f"{name}.json") if _named(name) else None) or {}
    return _loaded[name]


def load(stored):
    """The witness of the search ``stored`` (a store key), or None."""
    if not enabled():
        return None
    k = key(stored)
    if k is None:
        return None
    return _read(k[0]).get(k[1])


def plain(x) -> bool:
    """Whether ``x`` reads back from JSON as itself (type for type)."""
    def same(a, b) -> bool:
        if type(a) is not type(b):
            return False
        if isinstance(a, dict):
            return list(a) == list(b) and all(type(k) is str for k in a) and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list):
            return len(a) == len(b) and all(map(same, a, b))
        if isinstance(a, float):
            return math.isfinite(a) and a.hex() == b.hex()
        return a == b and isinstance(a, (str, int, type(None)))
    try:
        return same(x, json.loads(json.dumps(x, allow_nan=False)))
    except (TypeError, ValueError, RecursionError):
        return False


def write(entries, where: Path | None = None) -> dict[str, int]:
    """Write ``[(store key, input)]`` as the witness files (each file's entries sorted by
    key, so that a change reads as a diff); returns {file: witnesses written}. An input
    that does not read back from JSON as itself is left out (that search runs)."""
    where = Path(where) if where else WITNESS_DIR
    by_file: dict = {}
    for stored, x in entries:
        k = key(stored)
        if k is not None and _named(k[0]) and plain(x):
            by_file.setdefault(k[0], {})[k[1]] = x
    where.mkdir(parents=True, exist_ok=True)
    for stale in where.glob("*.json"):   # an adapter whose searches no longer find anything
        if stale.stem not in by_file:
            stale.unlink()
    for name, found in sorted(by_file.items()):
        data = {"format": FORMAT,
                "about": "witnesses: the separating inputs the divergence searches found and shrank, and the "
                         "examples the failing properties' searches shrank to (conformance/engine/findings.py), "
                         "checked again by every run before use (conformance/engine/witnesses.py); written by "
                         "`metric-conformance witnesses`",
                "witnesses": [{"key": k, "input": found[k]} for k in sorted(found)]}
        tmp = where / f".{name}.json.tmp"
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
        os.replace(tmp, where / f"{name}.json")
    _loaded.clear()
    return {name: len(found) for name, found in by_file.items()}
