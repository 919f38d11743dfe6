"""Explanations proven against their rivals: a knob setting explains a library only when
it holds on the neighbours that separate it from every rival that also fits the minimal
input; where the library does not score such a neighbour, both candidates remain, and the
verdict is a defect naming them (conformance.explain.prove)."""
from __future__ import annotations

from conformance.explain import explanation, prove
from conformance.functions import implementation
from conformance.protocol import Skip
from oracle.compare import Tolerance
from oracle.registry import compute

MINIMAL = {"references": ["a"], "hypotheses": ["A"]}   # WER 1 as written, 0 with case folded


def _lowercased_wer(inputs):
    return float(compute("wer", inputs, {"case": "lower"}).value)


@implementation("wer", name="wer-lower-equal-lengths")
def wer_lower_equal_lengths(inputs):
    """Folds case; refuses (skips) every input whose references differ in length, so no scored
    input can tell 'case folded' (pooled counts) from 'case folded, the mean of the utterance
    rates': with N words in every reference, sum E / (k N) is the mean of E / N."""
    if len({len(r.split()) for r in inputs["references"]}) > 1:
        raise Skip("this stand-in library is given references of one length")
    return _lowercased_wer(inputs)


@implementation("wer", name="wer-lower")
def wer_lower(inputs):
    return _lowercased_wer(inputs)


def _prove(fn, candidates, need=20):
    a = fn.adapter
    return prove(a, "wer", a.profile("wer"), MINIMAL, candidates, Tolerance(), need=need)


def test_two_candidates_an_unscored_input_separates_are_both_unproven():
    lower, both = {"case": "lower"}, {"case": "lower", "aggregate": "mean"}
    # (the stand-in scores fewer neighbours than a library does: 3 are asked, not 20)
    proven, rejected, tested = _prove(wer_lower_equal_lengths, [lower, both], need=3)
    assert proven == [] and tested >= 3
    rivals = [r for r in rejected if "rival" in r]
    assert rivals and {tuple(rivals[0]["candidate"]), tuple(rivals[0]["rival"])} == {("case",), ("case", "aggregate")}
    assert len(rivals[0]["input"]["references"]) > 1   # the separating input: the library skips it
    text = explanation(proven, 0.0, 1, None, rejected, tested)
    assert "a defect" in text and "two candidates remain, case=lower and case=lower; aggregate=mean" in text


def test_a_library_scored_on_the_separating_input_keeps_the_candidate_it_follows():
    lower, both = {"case": "lower"}, {"case": "lower", "aggregate": "mean"}
    proven, rejected, tested = _prove(wer_lower, [lower, both])
    assert proven == [lower] and tested >= 20
    assert [r["candidate"] for r in rejected if "rival" not in r] == [both]
