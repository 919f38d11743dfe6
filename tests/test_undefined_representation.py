"""Undefined values have a representation the adapter declares (Adapter.undefined): an
exception of the library's own code is the canonical one (the definition has no value);
NaN or None conform only where declared, and are then shown as a divergence from 'raise';
an undeclared NaN is a defect, and a crash (ZeroDivisionError...) stays an error."""
from __future__ import annotations

import copy

from conformance.engine.judge import judge_case
from conformance.functions import implementation

EMPTY = {"y_true": [], "y_pred": []}   # accuracy = correct/N = 0/0: no value


def _accuracy(inputs):
    n = len(inputs["y_true"])
    return sum(t == p for t, p in zip(inputs["y_true"], inputs["y_pred"])) / n


@implementation("accuracy", name="accuracy-nan")
def accuracy_nan(inputs):
    return float("nan") if not inputs["y_true"] else _accuracy(inputs)


@implementation("accuracy", name="accuracy-refuses")
def accuracy_refuses(inputs):
    if not inputs["y_true"]:
        raise ValueError("no samples: accuracy has no value")
    return _accuracy(inputs)


@implementation("accuracy", name="accuracy-crashes")
def accuracy_crashes(inputs):
    return _accuracy(inputs)   # ZeroDivisionError on no samples


def _declared(fn, representations):
    a = copy.copy(fn.adapter)
    a.undefined = {"accuracy": representations}
    return a


def test_an_exception_of_the_library_is_the_canonical_representation():
    v = judge_case(accuracy_refuses.adapter, "accuracy", {}, EMPTY)
    assert v.status == "agree" and v.library_value.startswith("raised ValueError")


def test_an_undeclared_nan_where_the_value_is_undefined_is_a_defect():
    v = judge_case(accuracy_nan.adapter, "accuracy", {}, EMPTY)
    assert v.status == "disagree" and "undeclared representation" in v.explanation


def test_a_declared_nan_conforms_and_is_shown_as_a_divergence_from_raise():
    v = judge_case(_declared(accuracy_nan, ("nan",)), "accuracy", {}, EMPTY)
    assert v.status == "divergence" and v.material["undefined"] == ["raise", "nan"]
    # an adapter that declares NaN only: its library's exception is no longer what it says
    w = judge_case(_declared(accuracy_refuses, ("nan",)), "accuracy", {}, EMPTY)
    assert w.status == "error"


def test_a_crash_is_never_the_representation_of_an_undefined_value():
    v = judge_case(accuracy_crashes.adapter, "accuracy", {}, EMPTY)
    assert v.status == "error" and "ZeroDivisionError" in v.library_value


def test_the_same_libraries_agree_where_the_value_is_defined():
    x = {"y_true": [1, 0], "y_pred": [1, 1]}
    for fn in (accuracy_nan, accuracy_refuses, accuracy_crashes):
        assert judge_case(fn.adapter, "accuracy", {}, x).status == "agree"
