"""The witnesses shipped with the adapters (conformance.engine.witnesses): divergence
searches' separating inputs and failing properties' shrunk examples
(conformance.engine.findings), well-formed, used only after the run checks them again,
and giving the records of a run that searches."""
import ast
import json

import pytest

from conformance.engine import divergence, properties, store, witnesses
from conformance.engine.divergence import run_divergences
from conformance.engine.known import KnownIndex, load_known
from oracle.registry import metric_names


_FILES = sorted(witnesses.WITNESS_DIR.glob("*.json"))


def _fresh():
    divergence._FOUND.clear()
    divergence._NEVER.clear()
    store._state.clear()
    witnesses._loaded.clear()


def test_the_shipped_witnesses_are_well_formed():
    assert _FILES, "adapters/witnesses holds the witnesses of the built-in adapters"
    from conformance.engine.resolve import builtin_adapters
    names = {a.name for a in builtin_adapters()[0]} | {n for n, _ in builtin_adapters()[1]}
    seen = findings_seen = 0
    for p in _FILES:
        data = json.loads(p.read_text(encoding="utf-8"))
        assert data["format"] == witnesses.FORMAT
        assert p.stem == witnesses.ORACLE or p.stem in names, p.name
        keys = [w["key"] for w in data["witnesses"]]
        assert keys == sorted(set(keys)), f"{p.name}: keys sorted, each once"
        for w in data["witnesses"]:
            search, identity = ast.literal_eval(w["key"])
            if search[0] == "property":   # a failing property's shrunk example
                _, metric, settings, prop, budget, version = search
                assert metric in metric_names() and isinstance(budget, int) and isinstance(ast.literal_eval(settings), list)
                assert p.stem != witnesses.ORACLE and identity[0] == p.stem and identity[2] == metric, p.name
                assert properties._kind(prop) in properties._REPLAYED, prop
                x = w["input"]
                assert set(x) == {"args", "examples", "seen"} and x["args"][0] in ("examine", "invalid")
                assert len(x["args"]) == 3 and x["examples"] > 0 and isinstance(x["seen"], dict)
                assert witnesses.plain(x)
                findings_seen += 1
                continue
            metric, ours, theirs, strategy, budget = search
            assert metric in metric_names() and isinstance(budget, int)
            assert ast.literal_eval(ours) != ast.literal_eval(theirs)
            if p.stem == witnesses.ORACLE:
                assert identity is None
            else:
                assert identity[0] == p.stem and identity[2] == metric
            assert witnesses.plain(w["input"])
            seen += 1
    # most divergences are shown on a declared separator (oracle.separators) and need no
    # search, so no witness: 28 separating witnesses remain (281 before the separators)
    assert seen >= 20 and findings_seen >= 50


def test_every_shipped_witness_separates_its_two_settings_under_the_oracle():
    """What the run checks first (the oracle's half of ``separates``); the library's
    half is the run's, at the library's installed version."""
    for p in _FILES:
        for w in json.loads(p.read_text(encoding="utf-8"))["witnesses"]:
            search, _ = ast.literal_eval(w["key"])
            if search[0] == "property":   # a property's example: judged again by the run (test_kept_findings)
                continue
            metric, ours, theirs, _s, _b = search
            a = divergence.exact_value(metric, w["input"], dict(ast.literal_eval(ours)))
            b = divergence.exact_value(metric, w["input"], dict(ast.literal_eval(theirs)))
            assert not (isinstance(a, tuple) and isinstance(b, tuple)) and divergence.differs(a, b), \
                (p.name, metric, w["input"])


@pytest.fixture
def pytrec(monkeypatch, tmp_path):
    pytest.importorskip("pytrec_eval")
    from conformance.engine.resolve import resolve_adapter
    a = resolve_adapter("pytrec_eval")
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path))   # an empty store
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE", raising=False)
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_WITNESSES", raising=False)
    _fresh()
    yield a, KnownIndex(a, load_known("pytrec_eval"))
    _fresh()


# pytrec_eval divergences that still take a search: no declared separator shows them where the
# library follows its profile (score_precision of P@k, the query-set knobs of R-precision)
def _records(a, known, metrics=("precision_at_k", "r_precision")):
    _fresh()
    out = []
    for m in metrics:
        out += run_divergences(a, m, known, 50)   # the default budget: the witnesses' keys
    return [{k: v for k, v in vars(r).items() if k != "seconds"} for r in out]


def _searched(a, known, monkeypatch):
    """The records of the searches themselves (the witnesses not read)."""
    monkeypatch.setenv("METRIC_CONFORMANCE_NO_WITNESSES", "1")
    out = _records(a, known)
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_WITNESSES")
    return out


def _count_finds(monkeypatch):
    n = {"finds": 0}
    real = divergence.find

    def find(*a, **k):
        n["finds"] += 1
        return real(*a, **k)
    monkeypatch.setattr(divergence, "find", find)
    return n


def test_a_run_with_the_witnesses_gives_the_records_of_a_run_that_searches(pytrec, monkeypatch):
    a, known = pytrec
    n = _count_finds(monkeypatch)
    monkeypatch.setenv("METRIC_CONFORMANCE_NO_WITNESSES", "1")
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(store._base().parent / "other"))
    searched = _records(a, known)
    assert n["finds"] > 0
    assert sum(r["outcome"] == "divergence" and r["inputs"] is not None for r in searched) >= 2
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_WITNESSES")
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(store._base().parent / "third"))   # empty again
    n["finds"] = 0
    shipped = _records(a, known)
    assert shipped == searched
    assert n["finds"] == 0          # every separating input came from a witness, checked


def test_a_witness_that_no_longer_holds_is_searched_again(pytrec, monkeypatch, tmp_path):
    a, known = pytrec
    searched = _searched(a, known, monkeypatch)
    # the witnesses of those searches, each made into an input on which nothing separates
    bad = tmp_path / "witnesses"
    inert = {"qrels": {"q1": {"d1": 1}}, "run": {"q1": {"d1": 1.0}}}
    entries = []
    for p in _FILES:
        for w in json.loads(p.read_text(encoding="utf-8"))["witnesses"]:
            search, identity = ast.literal_eval(w["key"])
            if identity is not None:   # the store's identity holds a version; the witness key drops it
                name, library, metric, profile = identity
                identity = (name, library, "any version", metric, profile)
            entries.append(((search, identity), inert))
    assert witnesses.write(entries, bad)
    monkeypatch.setattr(witnesses, "WITNESS_DIR", bad)
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path / "empty"))
    n = _count_finds(monkeypatch)
    real_load, tried = witnesses.load, []

    def load(stored):
        x = real_load(stored)
        tried.append(x is not None)
        return x
    monkeypatch.setattr(witnesses, "load", load)
    assert _records(a, known) == searched
    assert any(tried)                # the bad witnesses were read, checked, and refused
    assert n["finds"] > 0


def test_unreadable_witness_files_are_ignored(pytrec, monkeypatch, tmp_path):
    a, known = pytrec
    searched = _searched(a, known, monkeypatch)
    bad = tmp_path / "w"
    bad.mkdir()
    (bad / "pytrec_eval.json").write_bytes(b"\xff\xfe{not json")
    (bad / "_oracle.json").write_text('{"format": 1, "witnesses": [7, {"key": 3}, {"key": "x"}]}')
    (bad / "sklearn.json").write_text('{"format": 1, "witnesses": 7}')
    assert [witnesses.read(bad / n) for n in ("pytrec_eval.json", "_oracle.json", "sklearn.json")] == [None, {}, None]
    monkeypatch.setattr(witnesses, "WITNESS_DIR", bad)
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path / "empty"))
    assert _records(a, known) == searched


def test_only_inputs_that_read_back_as_themselves_are_written(tmp_path):
    search = ("hit_rate", "[]", "[('k', '1')]", "[]", 150)
    ok = {"qrels": {"q1": {"d1": 1}}, "run": {"q1": [["d1", 0.5], ["d2", -0.0]]}}
    for x in ({"a": (1, 2)}, {"a": float("nan")}, {1: "a"}, {"a": 1.5j}, {"a": True, "b": [None]}):
        assert witnesses.plain(x) is (x == {"a": True, "b": [None]})
    counts = witnesses.write([((search, None), ok), (("m", "[]", "[]", "[]", 1), {"t": (1,)}),
                              ((search, ("../x", "lib", "1", "hit_rate", "[]")), ok)], tmp_path)
    assert counts == {witnesses.ORACLE: 1}
    data = json.loads((tmp_path / "_oracle.json").read_text())
    assert data["witnesses"][0]["input"] == ok
    assert repr(data["witnesses"][0]["input"]["run"]["q1"][1][1]) == "-0.0"


@pytest.mark.slow
def test_the_shipped_witnesses_are_what_the_searches_find_now(tmp_path):
    """Nightly: a whole run that searches every divergence (no store, no witnesses) finds
    exactly the shipped witnesses; after a change to the strategies or the search,
    ``metric-conformance witnesses`` writes them again."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith("METRIC_CONFORMANCE_")}
    # two engine workers, as the witnesses were written (a worker reuses, within its process,
    # an input another search of the family found: which searches run depends on the split)
    done = subprocess.run([sys.executable, "-m", "conformance", "witnesses", "--check", "--jobs", "2"], env=env,
                          capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_run_that_fails_leaves_the_witnesses_as_they_are(monkeypatch, tmp_path, capsys):
    """``metric-conformance witnesses``: a run that crashes (exit 1, as a run with failures)
    or finds nothing writes nothing."""
    import sys
    from conformance.cli import main
    out = tmp_path / "w"
    out.mkdir()
    (out / "kept.json").write_text("{}")
    crash = tmp_path / "crash.py"
    crash.write_text("import sys; sys.stderr.write('boom'); sys.exit(1)\n")
    python = tmp_path / "crash-python"   # what the command runs as its Python: a run that crashes
    python.write_text(f"#!/bin/sh\nexec {sys.executable} {crash}\n")
    python.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(python))
    assert main(["witnesses", "--output", str(out)]) == 1
    assert (out / "kept.json").read_text() == "{}"
    err = capsys.readouterr().err
    assert "nothing written" in err and "boom" in err   # the run's own stderr is shown
