"""A failing property's shrunk example, kept for the next run of the same search.

A property whose walk meets a failure no known-failure entry predicts runs hypothesis's
whole search: generation up to that example, then shrinking it to a minimal one. The
walk is replayed within a run (``conformance.engine.draws``, in memory), the shrinking is
not: a whole run's 150 failing properties took 40 s of work on every run. Both the search and its shrinking are fixed by the code, hypothesis's version and
the library's answers, so what they ended on is kept, as a divergence search's shrunk
input is (``conformance.engine.store``, kind ``finding``; and shipped with the adapters
as witnesses, ``conformance.engine.witnesses``, written by ``metric-conformance
witnesses``).

A kept finding is used only when all of these hold, else the search runs:
- this run's own replay of the walk met a failure (``properties._replay`` says FOUND):
  a kept finding never makes a property fail that this run's walk does not fail;
- its key matches: the metric, the settings, the property, the search's budget, the
  adapter, its library and the library's version, its profile (so a new release of the
  library searches again); the store's namespace adds this project's source;
- the final example, judged again now (the library called again, the oracle computing
  again), still fails in a way no entry predicts. The record's values, comparison,
  explanation and known-failure match are all made from that judgement in this run.

The record's ``examples`` and ``known_seen`` are the search's own (how many examples it
judged while generating and shrinking, and which known failures it saw): they are kept
with the finding, since the search is not run again.
"""
from __future__ import annotations

from conformance.engine import store, witnesses

FOUND = "found"        # ``_replay``: the walk met an unexplained failure


def key(adapter, metric: str, settings: dict, prop: str, max_examples: int):
    """The store (and witness) key of a property's search: ((search), identity), the
    library's version in both (witness files leave the identity's out)."""
    version = str(adapter.version())
    search = ("property", metric, repr(sorted(settings.items())), prop, max_examples, version)
    profile = repr(sorted(adapter.profile(metric).items()))
    return search, (adapter.name, adapter.library, version, metric, profile)


def load(k) -> dict | None:
    """The kept finding of the search ``k``: {"args", "examples", "seen"}, or None."""
    got = store.load("finding", k)
    if got is None:
        got = witnesses.load(k)
    if not (isinstance(got, dict) and isinstance(got.get("args"), list) and type(got.get("examples")) is int
            and isinstance(got.get("seen"), dict)):
        return None
    return got


def save(k, args, examples: int, seen: dict) -> None:
    if args is not None:
        store.save("finding", k, {"args": list(args), "examples": examples, "seen": dict(seen)})


def judge_kept(k, base: str, finding, examine, check_invalid, count, seen, skipped) -> None:
    """The kept finding of the search ``k`` judged again by the property's own
    ``examine`` (or ``check_invalid``; ``base`` the property's kind): raises its
    ``finding`` exception (with the search's count of examples and the known failures it
    saw) when the example still fails unexplained; returns when there is none or it no
    longer fails (the search then runs)."""
    kept = load(k)
    if kept is None or len(kept["args"]) != 3 or kept["args"][0] not in ("examine", "invalid"):
        return
    how, x, y = kept["args"]
    try:
        if how == "invalid" and base == "invalid":
            check_invalid(x, y, replaying=True)
        elif how == "examine" and base != "invalid":
            examine(x, None, base, True, y)
    except finding:
        count[0] = kept["examples"]
        seen.clear()
        seen.update(kept["seen"])
        skipped.clear()
        raise
    except Exception:   # Diverged (the search would reject it now), a Skip, a failing adapter
        return
