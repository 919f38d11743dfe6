"""A failing property's shrunk example, kept between runs (conformance.engine.findings):
a run that reads it gives the record of a run that searches, without searching; a kept
example that no longer fails is searched again; a property whose own walk passes is not
failed by one; the witness files serve a run with an empty store."""
import functools

import pytest

import conformance.engine.properties as P
from conformance.engine import divergence, draws, findings, store, witnesses
from conformance.engine.known import KnownIndex
from conformance.engine.properties import run_property
from conformance.functions import implementation

_NAME = "accuracy-first-twice"
_PROPS = ("oracle-equal", "invariance:sample-order", "invalid:unequal-length")


@implementation("accuracy", conventions={}, name=_NAME)
def first_twice(inputs):
    """Accuracy with the first sample counted twice, and samples paired by ``zip`` (a
    shorter side is not refused): wrong on [0, 1] / [0, 0] (2/3, not 1/2), changed by
    the samples' order, and accepting unequal lengths."""
    yt, yp = list(inputs["y_true"]), list(inputs["y_pred"])
    if not yt:
        raise ValueError("no samples")
    return (sum(t == p for t, p in zip(yt, yp)) + (yt[0] == yp[0])) / (len(yt) + 1)


@implementation("accuracy", conventions={}, name=_NAME)
def right(inputs):
    """Accuracy, refusing what the spec refuses (the same adapter name: the same key)."""
    yt, yp = list(inputs["y_true"]), list(inputs["y_pred"])
    if len(yt) != len(yp) or not yt:
        raise ValueError("y_true and y_pred must be non-empty and of equal length")
    return sum(t == p for t, p in zip(yt, yp)) / len(yt)


def _fresh_process_state():
    for kept in (draws._CACHE, draws._TRACES, draws._FINDS, divergence._FOUND):
        kept.clear()
    divergence._NEVER.clear()
    store._state.clear()
    witnesses._loaded.clear()


@pytest.fixture
def searches(monkeypatch, tmp_path):
    """Counts the examples the properties' hypothesis searches run (``test()`` in ``run_property``)."""
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE", raising=False)
    monkeypatch.setenv("METRIC_CONFORMANCE_NO_WITNESSES", "1")
    n = [0]
    real = P.given

    def given(*a, **k):
        decorate = real(*a, **k)

        def counted(check):
            @functools.wraps(check)
            def counting(*args, **kwargs):
                n[0] += 1
                return check(*args, **kwargs)
            return decorate(counting)
        return counted
    monkeypatch.setattr(P, "given", given)
    _fresh_process_state()
    yield n
    _fresh_process_state()


def _record(fn, prop):
    _fresh_process_state()
    a = fn.adapter
    r = run_property(a, "accuracy", prop, KnownIndex(a, []), 20)
    return {k: v for k, v in vars(r).items() if k != "seconds"}


@pytest.mark.parametrize("prop", _PROPS)
def test_a_kept_finding_gives_the_searched_record_without_searching(prop, searches, monkeypatch, tmp_path):
    monkeypatch.setenv("METRIC_CONFORMANCE_NO_CACHE", "1")
    searched = _record(first_twice, prop)
    assert searched["outcome"] in ("fail", "error") and searched["examples"] > 0, searched
    assert searches[0] > 0
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE")
    assert _record(first_twice, prop) == searched            # searches, and keeps what it ended on
    assert list(tmp_path.glob("cache/searches/*/finding/*"))
    searches[0] = 0
    assert _record(first_twice, prop) == searched
    assert searches[0] == 0


def test_a_kept_finding_that_no_longer_fails_is_searched_again(searches, tmp_path):
    searched = _record(first_twice, "oracle-equal")
    kept = list(tmp_path.glob("cache/searches/*/finding/*"))
    assert len(kept) == 1
    key, value = store.read_entry(kept[0], "finding")
    # one sample, predicted right: accuracy 1 under both definitions
    store.write_entry(kept[0], "finding", key, dict(value, args=["examine", {"y_true": [1], "y_pred": [1]}, None]))
    searches[0] = 0
    assert _record(first_twice, "oracle-equal") == searched
    assert searches[0] > 0


def test_a_kept_finding_does_not_fail_a_property_whose_walk_passes(searches, tmp_path):
    assert _record(first_twice, "oracle-equal")["outcome"] == "fail"
    assert list(tmp_path.glob("cache/searches/*/finding/*"))
    assert findings.key(first_twice.adapter, "accuracy", {}, "oracle-equal", 20) == \
        findings.key(right.adapter, "accuracy", {}, "oracle-equal", 20)
    assert _record(right, "oracle-equal")["outcome"] == "pass"


def test_the_witness_files_serve_an_empty_store(searches, monkeypatch, tmp_path):
    searched = {p: _record(first_twice, p) for p in _PROPS}
    kept = store.entries("finding")
    assert len(kept) == len(_PROPS)
    counts = witnesses.write(kept, tmp_path / "witnesses")
    assert counts == {_NAME: len(_PROPS)}
    monkeypatch.setattr(witnesses, "WITNESS_DIR", tmp_path / "witnesses")
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_WITNESSES")
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path / "empty"))
    searches[0] = 0
    assert {p: _record(first_twice, p) for p in _PROPS} == searched
    assert searches[0] == 0
    assert not list(tmp_path.glob("empty/searches/*/finding/*"))   # nothing searched, nothing kept
