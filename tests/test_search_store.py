"""The store of searches kept between runs (conformance.engine.store): a run that reads it
gives the records of a run that generates everything again, field by field; what it
cannot read it ignores; its entries are named the same way in every process. (What it
cannot turn against its user: tests/test_store_safety.py.)"""
import os
import subprocess
import sys
import time

import pytest

from conformance.engine import divergence, draws, store
from conformance.engine.divergence import run_divergences
from conformance.engine.known import KnownIndex, load_known
from conformance.engine.properties import run_property


_PROPS = ("oracle-equal", "bounds", "invariance:document-order", "invalid:duplicate-id")
# pytrec_eval metrics whose divergences still take a search (no declared separator shows them
# where the library follows its profile), so that the store has searches to keep
_METRICS = ("precision_at_k", "r_precision")


def _fresh_process_state():
    """As a new process starts: no walk, trace, find walk or divergence finding in memory."""
    for kept in (draws._CACHE, draws._TRACES, draws._FINDS, divergence._FOUND):
        kept.clear()
    divergence._NEVER.clear()
    store._state.clear()


def _records(a, known):
    _fresh_process_state()
    out = []
    for metric in _METRICS:
        out += [run_property(a, metric, p, known, 20) for p in _PROPS]
        out += run_divergences(a, metric, known, 20)
    return [{k: v for k, v in vars(r).items() if k != "seconds"} for r in out]


@pytest.fixture
def pytrec(monkeypatch, tmp_path):
    pytest.importorskip("pytrec_eval")
    from conformance.engine.resolve import resolve_adapter
    a = resolve_adapter("pytrec_eval")
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path))
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE", raising=False)   # (the test suite turns it off)
    yield a, KnownIndex(a, load_known("pytrec_eval"))
    _fresh_process_state()


def _generations(monkeypatch):
    """Counts of what hypothesis generates: recorded walks and divergence searches."""
    n = {"walks": 0, "finds": 0}
    real_given, real_find = draws.given, divergence.find

    def given(*a, **k):
        n["walks"] += 1
        return real_given(*a, **k)

    def find(*a, **k):
        n["finds"] += 1
        return real_find(*a, **k)
    monkeypatch.setattr(draws, "given", given)
    monkeypatch.setattr(divergence, "find", find)
    return n


def test_a_run_that_reads_the_store_gives_the_records_of_one_that_does_not(pytrec, monkeypatch, tmp_path):
    a, known = pytrec
    monkeypatch.setenv("METRIC_CONFORMANCE_NO_CACHE", "1")
    generated = _records(a, known)
    assert not any(tmp_path.iterdir())                 # the store is off: nothing written
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE")
    n = _generations(monkeypatch)
    writing = _records(a, known)
    assert n["walks"] > 0 and n["finds"] > 0
    assert writing == generated
    assert list(tmp_path.glob("searches/*/separating/*"))
    assert not list(tmp_path.glob("searches/*/traces")) and not list(tmp_path.glob("searches/*/never"))
    finds = n["finds"]
    n["walks"] = n["finds"] = 0
    reading = _records(a, known)
    assert reading == generated
    # the walks are drawn again (nothing a run cannot check again is kept); the separating
    # inputs are read back and checked, so fewer searches run
    assert n["walks"] > 0 and n["finds"] < finds
    assert sum(r["outcome"] == "divergence" for r in reading) >= 2


def test_a_stored_input_the_library_no_longer_follows_is_searched_again(pytrec, monkeypatch):
    a, known = pytrec
    first = _records(a, known)
    # the stored separating inputs, each made into one that separates no two settings
    plain = {"qrels": {"q1": {"d1": 1}}, "run": {"q1": {"d1": 1.0}}}
    kept = list(store._dir().glob("separating/*"))
    assert kept
    for p in kept:
        store.write_entry(p, "separating", store.read_entry(p, "separating")[0], plain)
    n = _generations(monkeypatch)
    again = _records(a, known)
    assert again == first
    assert n["finds"] > 0


def test_entries_that_cannot_be_read_are_ignored(pytrec, monkeypatch):
    a, known = pytrec
    first = _records(a, known)
    files = [p for p in store._dir().rglob("*") if p.is_file()]
    assert files
    for i, p in enumerate(files):
        p.write_bytes(b"" if i % 3 == 0 else b"\x80\x04garbage" if i % 3 == 1 else os.urandom(64))
    assert _records(a, known) == first


def test_stale_namespaces_are_removed_and_the_newest_kept(monkeypatch, tmp_path):
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path))
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE", raising=False)
    base = tmp_path / "searches"
    old = []
    for i in range(6):
        d = base / f"old{i}"
        d.mkdir(parents=True)
        os.utime(d, (time.time() - 1000 + i, time.time() - 1000 + i))
        old.append(d.name)
    store._state.clear()
    try:
        current = store._dir()
    finally:
        store._state.clear()
    left = sorted(p.name for p in base.iterdir())
    assert current.name == store.namespace()
    assert left == sorted([current.name] + old[-store._KEEP_NAMESPACES:])


def test_the_namespace_follows_the_versions_it_depends_on(monkeypatch):
    import hypothesis
    store._state.clear()
    before = store.namespace()
    monkeypatch.setattr(hypothesis, "__version__", hypothesis.__version__ + ".post1")
    store._state.clear()
    try:
        assert store.namespace() != before
    finally:
        store._state.clear()


def test_a_code_object_is_named_by_what_it_reads():
    # the same bytecode on the same line, reading different names: two different strategies
    f, g = (lambda st: st.integers()), (lambda st: st.floats())
    assert f.__code__.co_code == g.__code__.co_code
    assert draws._code(f.__code__) != draws._code(g.__code__)
    h, k = (lambda: 1), (lambda: 2)        # and different constants
    assert draws._code(h.__code__) != draws._code(k.__code__)


def test_a_strategy_shape_is_named_alike_in_two_processes():
    code = ("from conformance.engine.draws import shape_key\n"
            "from conformance.engine.plans import plan_for\n"
            "from conformance.engine.search import search_settings\n"
            "print(repr(shape_key(plan_for('ndcg').inputs({}), None, 'inputs', None, search_settings(50), 1)))\n")
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert outs[0] == outs[1] and outs[0].startswith("(")
    assert store.storable(eval(outs[0]))      # no object address in it


def test_a_walk_does_not_depend_on_the_modules_loaded_before_it(tmp_path, monkeypatch):
    """Hypothesis draws constants from the source of the local modules loaded so far; the
    engine pins them (``conformance.engine.search``), so importing a module with new
    constants changes no walk."""
    import importlib
    from hypothesis import given, strategies as st
    from conformance.engine.search import search_settings

    def walk():
        seen = []

        @search_settings(200)
        @given(st.integers(0, 10 ** 9), st.text(max_size=8))
        def t(n, s):
            seen.append((n, s))
        t()
        return seen
    before = walk()
    # a local module full of constants, as a newly imported module of this project would be
    (tmp_path / "constants_probe_mod.py").write_text(
        "".join(f"C{i} = {v!r}\n" for i, v in enumerate([123456789, 987654321, 5550123, 31337, 4242424,
                                                          "zqxjv", "probe", "mmmm", "x1y2"])))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("constants_probe_mod")
    try:
        assert walk() == before
    finally:
        sys.modules.pop("constants_probe_mod", None)
