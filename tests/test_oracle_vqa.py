"""VQA accuracy: golden cases, the official rule against its definition, processing quirks, bad input."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies.multimodal import vqa_items
from oracle import ConventionError, InputError, compute, get_metric
from oracle.certified import places
from oracle.vqa import process_answer, process_punctuation

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = load_file(GOLDEN / "topics" / "vqa.json") + [
    c for c in load_file(GOLDEN / "documents" / "001_e6f299f74aa61acb.json") if c.metric == "vqa_accuracy"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(case):
    assert rederive(case) == []


DOC = {"predictions": ["dua", "kereta", "putih", "tidak", "ya", "sepeda"],
       "answers": [["dua"] * 7 + ["2"] * 3, ["kereta"] * 5 + ["ka"] * 4 + ["krl"],
                   ["putih"] * 4 + ["abu"] * 4 + ["perak"] * 2, ["tidak"] * 6 + ["bukan"] * 4,
                   ["ya"] * 2 + ["ada"] * 5 + ["ada ikan"] * 3, ["sepeda motor"] * 6 + ["motor"] * 4]}


def test_document_001_part2_printed_figures():
    """Printed: 7/10 5/10 4/10 6/10 2/10 0/10; strict 0.500, loose 0.833; official 'between' them."""
    strict = compute("vqa_accuracy", DOC, {"rule": "majority", "normalization": "none"})
    loose = compute("vqa_accuracy", DOC, {"rule": "any", "normalization": "none"})
    official = compute("vqa_accuracy", DOC, {"normalization": "none"})
    assert strict.stats["matches"] == [7, 5, 4, 6, 2, 0]
    assert places(strict.value, 3) == "0.500" and places(loose.value, 3) == "0.833"
    assert strict.value < official.value < loose.value
    # the official processing changes nothing on these Indonesian answers
    assert compute("vqa_accuracy", DOC).value == official.value


def _leave_one_out(pred: str, answers: list) -> Fraction:
    """The official definition written out: every subset of n-1 annotators, by position."""
    accs = []
    for j in range(len(answers)):
        others = answers[:j] + answers[j + 1:]
        accs.append(min(Fraction(sum(1 for a in others if a == pred), 3), Fraction(1)))
    return sum(accs, Fraction(0)) / len(accs)


@settings(deadline=None)
@given(vqa_items())
def test_official_closed_form_matches_the_subsets(inputs):
    r = compute("vqa_accuracy", inputs, {"normalization": "none"})
    want = [_leave_one_out(p, a) for p, a in zip(inputs["predictions"], inputs["answers"])]
    assert r.parts["question_accuracy"] == want


@settings(deadline=None)
@given(vqa_items(), st.sampled_from(["official", "none"]), st.sampled_from(["official-2021", "official-2016", "both", "prediction", "answers"]))
def test_official_lies_between_majority_and_any(inputs, norm, side):
    conv = {"normalization": norm, "normalize_side": side}
    per = {rule: compute("vqa_accuracy", inputs, dict(conv, rule=rule)).parts["question_accuracy"]
           for rule in ("official", "majority", "any", "at-least-3")}
    for maj, off, loose, short in zip(per["majority"], per["official"], per["any"], per["at-least-3"]):
        assert maj <= off <= loose
        assert off <= short  # leaving an annotator out never adds a match


@pytest.mark.parametrize("m, want", [(0, "0"), (1, "3/10"), (2, "3/5"), (3, "9/10"), (4, "1"), (10, "1")])
def test_official_values_with_ten_annotators(m, want):
    inputs = {"predictions": ["x"], "answers": [["x"] * m + ["y"] * (10 - m)]}
    assert compute("vqa_accuracy", inputs).value == Fraction(want)


def test_processing_quirks_of_the_script():
    # the period pattern is a lookahead (?!<=\d): a period before a digit stays, others go
    assert process_punctuation("2.5 m.") == "2.5 m"
    # re.UNICODE (32) is passed as the count: only 32 periods are deleted
    assert process_punctuation("." * 40) == "." * 8
    # a mark next to a space is deleted, elsewhere replaced by a space
    assert process_punctuation("black/white") == "black white"
    assert process_punctuation("black / white") == "black  white"
    assert process_answer(" The  Dog's\tball ") == "dog's ball"
    assert process_answer("dont") == "don't" and process_answer("two") == "2"


def test_side_official_2016_processes_only_disagreeing_answers():
    old = {"normalize_side": "official-2016"}
    inputs = {"predictions": ["yes"], "answers": [["yes!"] * 10]}
    assert compute("vqa_accuracy", inputs, old).value == 0  # unanimous: the answers stay 'yes!'
    inputs = {"predictions": ["yes"], "answers": [["yes."] * 9 + ["no"]]}
    assert compute("vqa_accuracy", inputs, old).value == 1  # not unanimous: 'yes.' -> 'yes'
    # processPunctuation alone turns 'yes!' into 'yes ' (a space, never stripped on this side)
    inputs = {"predictions": ["yes"], "answers": [["yes!"] * 9 + ["no"]]}
    assert compute("vqa_accuracy", inputs, old).value == 0
    assert compute("vqa_accuracy", inputs, {"normalize_side": "both"}).value == 1


def test_side_official_2021_processes_both_sides_or_neither():
    """vqaEval.py at a013f00: strip everything; if the answers disagree, process the
    answers and the prediction fully, else neither."""
    # unanimous: neither processed; 'yes!' stays, so does the prediction 'Yes'
    assert compute("vqa_accuracy", {"predictions": ["yes"], "answers": [["yes!"] * 10]}).value == 0
    assert compute("vqa_accuracy", {"predictions": ["Yes"], "answers": [["yes"] * 10]}).value == 0
    # stripped before the unanimity test and the comparison
    assert compute("vqa_accuracy", {"predictions": ["yes "], "answers": [["\tyes"] * 10]}).value == 1
    # disagreeing: 'yes!' -> 'yes ' -> 'yes' (processDigitArticle splits and joins), 'no' stays: M = 9
    assert compute("vqa_accuracy", {"predictions": ["YES"], "answers": [["yes!"] * 9 + ["no"]]}).value == 1


def test_signature_marks_side_unused_without_normalization():
    m = get_metric("vqa_accuracy")
    assert "side:-" in m.signature({"normalization": "none", "normalize_side": "both"})
    assert "side:official-2021" in m.signature({})


BAD = [
    ({"predictions": ["a"], "answers": [[]]}, {}, InputError, "answers[0]: no human answers"),
    ({"predictions": ["a"], "answers": [["a"]]}, {}, InputError, "answers[0]: the official rule needs at least 2"),
    ({"predictions": ["a", "b"], "answers": [["a"] * 10]}, {}, InputError, "predictions: 2 items but answers has 1"),
    ({"predictions": [None], "answers": [["a"] * 10]}, {}, InputError, "predictions[0]: expected a string"),
    ({"predictions": ["a"], "answers": [["a"] * 9 + [3]]}, {}, InputError, "answers[0][9]"),
    ({"predictions": ["a"], "answers": ["a"]}, {}, InputError, "answers[0]: expected a list"),
    ({"predictions": ["a"]}, {}, InputError, "missing field 'answers'"),
    ({"predictions": ["a"], "answers": [["a"] * 10], "extra": 1}, {}, InputError, "unknown field 'extra'"),
    ({"predictions": ["a"], "answers": [["a"] * 10]}, {"rule": "strict"}, ConventionError, "rule"),
]


@pytest.mark.parametrize("inputs, conv, error, message", BAD)
def test_bad_input(inputs, conv, error, message):
    with pytest.raises(error) as e:
        compute("vqa_accuracy", inputs, conv)
    assert message in str(e.value)


def test_defined_degenerate_inputs():
    assert compute("vqa_accuracy", {"predictions": ["b"], "answers": [["b"]]}, {"rule": "any"}).value == 1
    # "a" is an article: under the 2016 revision the prediction processes to "" while unanimous
    # answers stay "a"; since 2021 unanimous answers leave both sides unprocessed: "a" == "a"
    ten_a = {"predictions": ["a"], "answers": [["a"] * 10]}
    assert compute("vqa_accuracy", ten_a, {"normalize_side": "official-2016"}).value == 0
    assert compute("vqa_accuracy", ten_a).value == 1
    three = {"predictions": ["c"], "answers": [["c", "c", "b"]]}
    assert compute("vqa_accuracy", three, {"rule": "majority"}).value == 1  # 2*2 >= 3
    assert compute("vqa_accuracy", {"predictions": [""], "answers": [[""] * 10]}).value == 1
