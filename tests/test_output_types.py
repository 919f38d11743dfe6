"""Values as libraries return them are classified, never a crash of the engine: Python
Fractions and big integers exactly, NumPy scalars and 0-d arrays of every width at
their binary value, and a non-number as an error naming its type."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from conformance.engine.judge import judge
from conformance.functions import implementation
from oracle.compare import Tolerance, compare_value, not_a_number

INPUTS = {"y_true": [1, 0, 1, 1], "y_pred": [1, 0, 0, 1]}   # accuracy 3/4, by hand


def _verdict(value):
    fn = implementation("accuracy")(lambda inputs: value)
    a = fn.adapter
    return judge(a, "accuracy", a.profile("accuracy"), INPUTS, explain_it=False)


@pytest.mark.parametrize("value", [Fraction(3, 4), 0.75, np.float64(0.75), np.float32(0.75), np.float16(0.75),
                                   np.array(0.75), np.longdouble(0.75)])
def test_numbers_equal_to_three_quarters_agree(value):
    assert _verdict(value).status == "agree"


@pytest.mark.parametrize("value", [Fraction(3, 5), 10 ** 400, -(10 ** 400), np.int64(1), np.float32(1.0)])
def test_numbers_that_differ_disagree(value):
    assert _verdict(value).status == "disagree"


@pytest.mark.parametrize("value,kind", [(object(), "builtins.object"), ("0.75", "builtins.str"),
                                        (True, "builtins.bool"), ([0.75, "x"], "builtins.str"),
                                        (1 + 0j, "builtins.complex")])
def test_a_non_number_is_an_error_naming_its_type(value, kind):
    v = _verdict(value)
    assert v.status == "error" and kind in v.message and "not a number" in v.message


def test_compare_takes_big_integers_and_zero_d_arrays():
    tol = Tolerance(ulps=8)
    assert compare_value(10 ** 400, Fraction(3, 4), tol).verdict == "outside"
    assert compare_value(np.array(0.75), Fraction(3, 4), tol).agrees
    assert not_a_number({"a": [1, None, np.int32(2)]}) == ""
    assert "['a'][1]" in not_a_number({"a": [1, "two"]})


def test_a_float32_one_is_within_the_bounds_property():
    from conformance.casefiles.known import KnownIndex
    from conformance.engine.properties import run_property
    fn = implementation("accuracy", name="float32-accuracy")(
        lambda inputs: np.float32(sum(t == p for t, p in zip(inputs["y_true"], inputs["y_pred"]))
                                  / max(len(inputs["y_true"]), 1)))
    r = run_property(fn.adapter, "accuracy", "bounds", KnownIndex(fn.adapter, []), 30)
    assert r.outcome == "pass", (r.message, r.inputs)


def test_sample_weights_go_only_to_a_function_that_reads_them():
    weighted = {**INPUTS, "sample_weight": [1, 1, 2, 0]}   # correct weight 1 + 1 = 2 of 4: 1/2, by hand
    plain = implementation("accuracy")(lambda inputs: 0.75).adapter
    v = judge(plain, "accuracy", plain.profile("accuracy"), weighted, explain_it=False)
    assert v.status == "not-applicable" and "sample weights" in v.message
    reads = implementation("accuracy", forms=("weighted",))(lambda inputs: 0.5).adapter
    assert judge(reads, "accuracy", reads.profile("accuracy"), weighted, explain_it=False).status == "agree"
    wrong = implementation("accuracy", forms=("weighted",))(lambda inputs: 0.75).adapter   # ignores the weights
    assert judge(wrong, "accuracy", wrong.profile("accuracy"), weighted, explain_it=False).status == "disagree"


def test_infinity_is_within_where_the_exact_value_is_beyond_the_type():
    from oracle.compare import Tolerance, compare
    import math
    # 10**400 > the largest double (1.797...e308): round-to-nearest gives inf, the one value
    # a library computing in doubles can return; 10**300 is a double's range, so inf is wrong
    assert compare(math.inf, Fraction(10) ** 400, Tolerance(ulps=4)).verdict == "within"
    assert compare(-math.inf, -Fraction(10) ** 400, Tolerance(ulps=4)).verdict == "within"
    assert compare(math.inf, Fraction(10) ** 300, Tolerance(ulps=4)).verdict == "outside"
    assert compare(math.inf, -Fraction(10) ** 400, Tolerance(ulps=4)).verdict == "outside"
    # float32 (tolerance in float32 ulps): its largest value is 2**128 - 2**104 and anything
    # from 2**128 - 2**103 (half an ulp above it) rounds to inf; 10**39 is beyond, 10**38 not
    assert compare(math.inf, Fraction(10) ** 39, Tolerance(ulps32=4)).verdict == "within"
    assert compare(math.inf, Fraction(2 ** 128 - 2 ** 103), Tolerance(ulps32=4)).verdict == "within"
    assert compare(math.inf, Fraction(2 ** 128 - 2 ** 103 - 1), Tolerance(ulps32=4)).verdict == "outside"
    assert compare(math.inf, Fraction(10) ** 38, Tolerance(ulps32=4)).verdict == "outside"
