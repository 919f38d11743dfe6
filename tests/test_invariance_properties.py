"""Invariance properties apply their transformation and judge the library on it.

(Since the input forms came in, the engine read an invariance property's kind as
``invariance:<name>`` and never reached its branch: the library was called once,
the transformation never; these tests fail on that engine.)"""
from conformance.casefiles.known import KnownIndex
from conformance.engine.properties import run_property
from conformance.functions import implementation


@implementation("accuracy", conventions={}, name="accuracy-even-positions")
def accuracy_even_positions(inputs):
    """Accuracy over the samples at even positions only: right on one sample, and on any
    input whose odd positions happen to agree with the even ones, but its value
    depends on the order of the samples."""
    yt, yp = list(inputs["y_true"]), list(inputs["y_pred"])
    if len(yt) != len(yp) or not yt:
        raise ValueError("y_true and y_pred must be non-empty and of equal length")
    pairs = list(zip(yt, yp))[::2]
    return sum(t == p for t, p in pairs) / len(pairs)


@implementation("accuracy", conventions={}, name="accuracy-plain")
def accuracy_plain(inputs):
    yt, yp = list(inputs["y_true"]), list(inputs["y_pred"])
    if len(yt) != len(yp) or not yt:
        raise ValueError("y_true and y_pred must be non-empty and of equal length")
    return sum(t == p for t, p in zip(yt, yp)) / len(yt)


def _run(fn, prop):
    a = fn.adapter
    return run_property(a, "accuracy", prop, KnownIndex(a, []), 50)


def test_an_order_dependent_value_fails_sample_order():
    r = _run(accuracy_even_positions, "invariance:sample-order")
    assert r.outcome == "fail", r.message
    assert r.message.startswith("sample-order: the value changes from"), r.message
    # shrunk to one wrong sample (a permutation moves it between an even and an odd
    # position, which changes the value); the transformed input is in the message
    yt, yp = r.inputs["y_true"], r.inputs["y_pred"]
    assert sum(t != p for t, p in zip(yt, yp)) == 1, r.inputs
    assert "on the transformed input" in r.message


def test_an_order_independent_value_passes_both_invariances():
    for prop in ("invariance:sample-order", "invariance:label-order"):
        r = _run(accuracy_plain, prop)
        assert r.outcome == "pass", (prop, r.message)
        assert r.examples > 0
