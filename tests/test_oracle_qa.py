"""Exact match and SQuAD F1: hand-derived golden cases, properties, bad input."""
from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import ConventionError, InputError, Undefined, compute, get_metric
from oracle.certified import digits
from oracle.qa import normalize, token_f1
from tests.exact_helpers import same

TOPICS = Path(__file__).resolve().parent.parent / "golden" / "topics"


# ------------------------------------------------------------ golden cases

def _load(name):
    doc = json.loads((TOPICS / name).read_text(encoding="utf-8"))
    assert doc["format"] == "metric-conformance-cases" and doc["version"] == 1
    return doc["cases"]




QA_CASES = _load("exact_match.json") + _load("squad_f1.json")


def test_golden_files_are_well_formed():
    ids = [c["id"] for c in QA_CASES]
    assert len(ids) == len(set(ids))
    for c in QA_CASES:
        assert re.fullmatch(r"[0-9a-f]{8}", c["id"]), c["id"]
        assert c["metric"] in ("exact_match", "squad_f1")
        assert c["description"] and c["tags"] and c["source"]
        assert isinstance(c["expected"]["value"], str)
        assert len(c["expected"]["derivation"]) > 20
        get_metric(c["metric"]).settings(c["conventions"])  # knobs exist


@pytest.mark.parametrize("case", QA_CASES, ids=[c["id"] for c in QA_CASES])
def test_golden_case(case):
    result = compute(case["metric"], case["inputs"], case["conventions"]).to_json()
    exp = case["expected"]
    assert same(exp["value"], result["value"]), (exp["value"], result["value"])
    for key, want in exp.get("stats", {}).items():
        assert same(want, result["stats"][key]), (key, want, result["stats"][key])
    for key, want in exp.get("parts", {}).items():
        assert same(want, result["parts"][key]), (key, want, result["parts"][key])


def test_document_part2_exact_match():
    """Source document 000 part 2 prints 'exact match = 2/4 = 0.500' under its normalisasi()."""
    inputs = {"predictions": ["Thomas Edison.", "Jakarta", "November", "lima"],
              "references": [["thomas edison"], ["jakarta"], ["oktober"], ["5"]]}
    r = compute("exact_match", inputs, {"normalization": "document"})
    assert r.value == Fraction(2, 4)
    assert r.parts["verdicts"] == [True, True, False, False]
    assert digits(r.value, 3) == "0.500"


# -------------------------------------------------------------- properties

WORDS = ["the", "The", "a", "an", "cat", "Cat", "sat", "sat.", "new", "york", "York!", "go", "", " ", "U.S.", "-"]
answer = st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join)
items = st.lists(st.tuples(st.one_of(st.none(), answer), st.lists(answer, min_size=1, max_size=3)), max_size=6)
knobs = st.fixed_dictionaries({"normalization": st.sampled_from(["none", "document", "squad"]),
                               "missing": st.sampled_from(["zero", "skip"]),
                               "rule": st.sampled_from(["v1.1", "v2.0"])})


def _inputs(pairs):
    return {"predictions": [p for p, _ in pairs], "references": [r for _, r in pairs]}


@settings(deadline=None)
@given(items, knobs)
def test_em_and_f1_lie_in_unit_interval(pairs, conv):
    for metric in ("exact_match", "squad_f1"):
        v = compute(metric, _inputs(pairs), conv).value
        if isinstance(v, Undefined):
            assert all(p is None for p, _ in pairs) and (conv["missing"] == "skip" or not pairs)
        else:
            assert 0 <= v <= 1


@settings(deadline=None)
@given(items, knobs)
def test_f1_at_least_em_per_item_under_v2(pairs, conv):
    conv = dict(conv, rule="v2.0")
    em = compute("exact_match", _inputs(pairs), conv)
    f1 = compute("squad_f1", _inputs(pairs), conv)
    for verdict, score in zip(em.parts["verdicts"], f1.parts["item_scores"]):
        if verdict is None:
            assert score is None
        else:
            assert score >= (1 if verdict else 0)


def test_f1_below_em_under_v11_on_empty_answers():
    """v1.1's f1_score returns 0 when num_same == 0, even for two empty token lists that EM calls equal."""
    inputs = {"predictions": ["the"], "references": [["An"]]}
    assert compute("exact_match", inputs, {"rule": "v1.1"}).value == 1
    assert compute("squad_f1", inputs, {"rule": "v1.1"}).value == 0


@settings(deadline=None)
@given(items, knobs, st.randoms(use_true_random=False))
def test_permutation_invariance(pairs, conv, rnd):
    shuffled = list(pairs)
    rnd.shuffle(shuffled)
    for metric in ("exact_match", "squad_f1"):
        a = compute(metric, _inputs(pairs), conv)
        b = compute(metric, _inputs(shuffled), conv)
        assert a.value == b.value and a.stats == b.stats


@settings(deadline=None)
@given(items, knobs)
def test_skip_and_zero_share_the_numerator(pairs, conv):
    zero = compute("squad_f1", _inputs(pairs), dict(conv, missing="zero"))
    skip = compute("squad_f1", _inputs(pairs), dict(conv, missing="skip"))
    assert zero.stats["f1_sum"] == skip.stats["f1_sum"]
    assert zero.stats["total"] - skip.stats["total"] == sum(p is None for p, _ in pairs)


@settings(deadline=None)
@given(st.lists(st.sampled_from(["a1", "b2", "c3", "d4"]), min_size=1, max_size=6),
       st.lists(st.sampled_from(["a1", "b2", "c3", "d4"]), min_size=1, max_size=6))
def test_token_f1_closed_form(pred, gold):
    """F1 = 2PR/(P+R) = 2c/(|pred| + |gold|), with c the multiset intersection counted by hand."""
    remaining = list(gold)
    c = 0
    for tok in pred:
        if tok in remaining:
            remaining.remove(tok)
            c += 1
    for rule in ("v1.1", "v2.0"):
        assert token_f1(pred, gold, rule) == Fraction(2 * c, len(pred) + len(gold))
    if sorted(pred) == sorted(gold):
        assert token_f1(pred, gold, "v2.0") == 1


def test_squad_normalization_steps():
    assert normalize("The  Quick,  brown FOX!", "squad") == "quick brown fox"
    assert normalize("an-apple", "squad") == "anapple"  # punctuation removed before articles
    assert normalize("Theory of a thing", "squad") == "theory of thing"
    assert normalize("  Wow!?  ", "document") == "wow"
    assert normalize("  Wow!?  ", "none") == "  Wow!?  "


def test_signatures_name_every_knob():
    for name in ("exact_match", "squad_f1"):
        m = get_metric(name)
        assert m.signature() == f"{name}|norm:squad|missing:zero|rule:v2.0|oracle:1"
        sigs = {m.signature({"normalization": n, "missing": x, "rule": r})
                for n in ("none", "document", "squad") for x in ("zero", "skip") for r in ("v1.1", "v2.0")}
        assert len(sigs) == 12


# --------------------------------------------------------------- bad input

BAD = [
    ("not-a-dict", ["x"], "inputs"),
    ("missing-field", {"predictions": ["x"]}, "references"),
    ("unknown-field", {"predictions": [], "references": [], "ids": []}, "ids"),
    ("predictions-not-list", {"predictions": "x", "references": [["x"]]}, "predictions"),
    ("length-mismatch", {"predictions": ["x", "y"], "references": [["x"]]}, "predictions"),
    ("prediction-int", {"predictions": ["x", 3], "references": [["x"], ["y"]]}, "predictions[1]"),
    ("references-string", {"predictions": ["x"], "references": ["x"]}, "references[0]"),
    ("gold-not-string", {"predictions": ["x"], "references": [["x", None]]}, "references[0][1]"),
]


@pytest.mark.parametrize("metric", ["exact_match", "squad_f1"])
@pytest.mark.parametrize("label,inputs,where", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_item(metric, label, inputs, where):
    with pytest.raises(InputError) as err:
        compute(metric, inputs)
    assert where in str(err.value)


@pytest.mark.parametrize("metric", ["exact_match", "squad_f1"])
def test_an_empty_gold_list_has_no_value_under_v11(metric):
    """Item 1 has no gold: under v1.1 its score is the max over no gold answer, which has no
    value (the v1.1 script's max() of an empty sequence): the mean is undefined, naming
    references[1], not refused. Under v2.0 the gold is [''], which '' matches: (1 + 1)/2 = 1."""
    inputs = {"predictions": ["x", ""], "references": [["x"], []]}
    v = compute(metric, inputs, {"rule": "v1.1"}).value
    assert isinstance(v, Undefined) and "references[1]" in v.reason
    assert compute(metric, inputs, {"rule": "v2.0"}).value == 1


@pytest.mark.parametrize("conv,word", [({"normalization": "lower"}, "normalization"),
                                       ({"missing": "drop"}, "missing"),
                                       ({"rule": "2.0"}, "rule"),
                                       ({"tokenizer": "13a"}, "tokenizer")])
def test_bad_knob_is_a_convention_error(conv, word):
    with pytest.raises(ConventionError, match=word):
        compute("squad_f1", {"predictions": [], "references": []}, conv)


@pytest.mark.parametrize("metric", ["exact_match", "squad_f1"])
def test_empty_data_is_undefined(metric):
    r = compute(metric, {"predictions": [], "references": []})
    assert isinstance(r.value, Undefined)
    assert r.stats["total"] == 0


def test_randomized_items_never_crash():
    rnd = random.Random(7)
    for _ in range(200):
        pairs = [(rnd.choice([None] + WORDS), [rnd.choice(WORDS) for _ in range(rnd.randint(0, 3))])
                 for _ in range(rnd.randint(0, 4))]
        for metric in ("exact_match", "squad_f1"):
            r = compute(metric, _inputs(pairs), {"rule": "v2.0"})
            assert isinstance(r.value, (Fraction, Undefined))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=True) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["predictions", "references", "x"]),
                                                                inner, max_size=2),
    max_leaves=8)


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["predictions", "references"]), json_values, max_size=2))
def test_arbitrary_json_gives_a_value_or_an_input_error(inputs):
    for metric in ("exact_match", "squad_f1"):
        try:
            r = compute(metric, inputs)
        except InputError:
            continue
        assert isinstance(r.value, (Fraction, Undefined))
