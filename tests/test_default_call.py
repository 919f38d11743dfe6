"""The call as people make it (issue: "a setting offered is a setting judged, and so is the
default call"): each entry point is also called with no optional argument and judged
against the profile its adapter declares for that call; an adapter that always passes an
option explicitly cannot hide a change of the library's default.

Expected values are derived by hand beside each case."""
from __future__ import annotations

from fractions import Fraction

import pytest

from conformance.casefiles.cases import Case
from conformance.engine.defaults import run_default_call
from conformance.protocol import Adapter, LibraryOutput, Skip
from oracle.conventions import InputError
from oracle.registry import compute


def _case(cid: str, metric: str, inputs: dict) -> Case:
    return Case(id=cid, description="", source={}, tags=(), metric=metric, conventions={}, inputs=inputs,
                expected={}, file="test")


def _accuracy(inputs) -> float:
    pairs = list(zip(inputs["y_true"], inputs["y_pred"]))
    return sum(t == p for t, p in pairs) / len(pairs)


class _Library(Adapter):
    """An in-house 'library' of accuracy with one option, ``count_first``: when False, the
    first sample is left out (a made-up default). The adapter always passes
    count_first=True, so its configured calls are right whatever the default is."""
    name = "inhouse-defaults"
    library = "inhouse-defaults"
    capabilities = {"accuracy": {}}
    profiles = {"accuracy": {}}
    default_count_first = True

    def available(self):
        return True, ""

    def version(self) -> str:
        return "1"

    def options(self, metric, settings):
        return {"count_first": True}

    def _library(self, inputs, count_first):
        if not count_first:
            inputs = {"y_true": inputs["y_true"][1:], "y_pred": inputs["y_pred"][1:]}
        return _accuracy(inputs)

    def call(self, metric, options, inputs):
        return LibraryOutput(self._library(inputs, options["count_first"]))

    def call_bare(self, metric, inputs):
        return LibraryOutput(self._library(inputs, self.default_count_first))


class _ChangedDefault(_Library):
    default_count_first = False    # "the next release" changed the default


class _NoBareCall(_Library):
    call_bare = Adapter.call_bare


# y_true [0, 1, 1], y_pred [1, 1, 1]: accuracy 2/3 with every sample; without the first, 2/2 = 1
CASES = [_case("three", "accuracy", {"y_true": [0, 1, 1], "y_pred": [1, 1, 1]}),
         # y_true [0, 1], y_pred [0, 1]: 1 with or without the first sample (it cannot separate them)
         _case("two", "accuracy", {"y_true": [0, 1], "y_pred": [0, 1]})]


def test_a_default_that_follows_the_profile_passes():
    r = run_default_call(_Library(), "accuracy", CASES)
    assert r.outcome == "pass" and r.kind == "defaults" and r.examples == 2, r.message


def test_a_changed_default_is_a_failure_with_its_input():
    r = run_default_call(_ChangedDefault(), "accuracy", CASES)
    assert r.outcome == "fail"
    assert r.inputs == CASES[0].inputs          # the input that separates (the other cannot)
    assert r.exact == "2/3" and r.library_value == 1.0
    assert "1 of 2 golden inputs" in r.message and "agrees with it" in r.message


def test_an_adapter_without_a_bare_call_says_so():
    r = run_default_call(_NoBareCall(), "accuracy", CASES)
    assert r.outcome == "skipped"
    assert "declares no call of accuracy without optional arguments" in r.message


def test_queries_equal_refuses_unequal_query_sets_and_is_qrels_otherwise():
    """queries=equal (ranx's make_comparable=False): q2 is judged but not ranked, so the
    sets differ and the input is refused naming q2; with equal sets, RR of q1 (relevant a at
    rank 2: 1/2) and q2 (relevant b at rank 1: 1) average to 3/4, as under queries=qrels."""
    unequal = {"qrels": {"q1": {"a": 1}, "q2": {"b": 1}}, "run": {"q1": {"x": 2, "a": 1}}}
    with pytest.raises(InputError, match="q2"):
        compute("reciprocal_rank", unequal, {"queries": "equal"})
    equal = {"qrels": {"q1": {"a": 1}, "q2": {"b": 1}}, "run": {"q1": {"x": 2, "a": 1}, "q2": {"b": 1}}}
    assert compute("reciprocal_rank", equal, {"queries": "equal"}).value == Fraction(3, 4)
    assert compute("reciprocal_rank", equal, {"queries": "qrels"}).value == Fraction(3, 4)


def test_ranx_default_call_refuses_unequal_query_sets_as_declared():
    """ranx.evaluate without make_comparable asserts equal query sets; its adapter passes
    make_comparable=True and declares queries=equal for the bare call. Undeclared, the same
    bare call is a failure: the refusal where the profile (queries=qrels) scores 1/2."""
    pytest.importorskip("ranx")
    from adapters.ranx import Ranx
    # q1: relevant a at rank 2 (RR 1/2); q2 judged, not ranked: RR 0 under missing=zero
    unequal = _case("unequal", "reciprocal_rank",
                    {"qrels": {"q1": {"a": 1}, "q2": {"b": 1}}, "run": {"q1": {"x": 2, "a": 1}}})
    r = run_default_call(Ranx(), "reciprocal_rank", [unequal])
    assert r.outcome == "pass", r.message

    class Undeclared(Ranx):
        bare_profiles = {}
    r = run_default_call(Undeclared(), "reciprocal_rank", [unequal])
    assert r.outcome == "fail" and "AssertionError" in str(r.library_value), r.message
    assert r.exact == "1/4"     # (1/2 + 0) / 2 over the qrels' two queries


def test_torchmetrics_accuracy_called_bare_is_balanced_accuracy():
    """multiclass_accuracy(preds, target, num_classes) averages per class by default: on
    y_true [0, 0, 0, 1], y_pred [0, 0, 0, 0] accuracy is 3/4 and the mean per-class recall
    (1 + 0) / 2 = 1/2. The record is a divergence naming balanced_accuracy."""
    pytest.importorskip("torchmetrics")
    from adapters.torchmetrics import TorchMetrics
    case = _case("skewed", "accuracy", {"y_true": [0, 0, 0, 1], "y_pred": [0, 0, 0, 0]})
    r = run_default_call(TorchMetrics(), "accuracy", [case])
    assert r.outcome == "divergence", r.message
    assert "computes balanced_accuracy" in r.explanation
    assert r.exact == "3/4" and r.library_value == "1/2"


def test_every_builtin_adapter_declares_its_bare_calls_or_why_not():
    """Per adapter and metric, the bare call either runs or its skip names why (never the
    protocol's generic 'declares no call' for a builtin adapter that takes options)."""
    from adapters import BUILTIN
    from conformance.resolve import resolve_adapter
    missing = []
    for name, spec in BUILTIN.items():
        a = resolve_adapter(spec)
        if type(a).call_bare is Adapter.call_bare:
            missing.append(name)
    assert missing == [], f"builtin adapters without call_bare: {missing}"


def test_skip_reasons_are_named():
    with pytest.raises(Skip, match="declares no call"):
        _NoBareCall().call_bare("accuracy", CASES[0].inputs)
