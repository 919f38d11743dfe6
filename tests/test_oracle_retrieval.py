"""Cross-modal recall@K: document 001's printed table, tie rules against enumeration, properties, bad input."""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies.multimodal import permute_candidates, similarity_inputs
from oracle import ConventionError, InputError, compute
from oracle.certified import places

METRIC = "cross_modal_recall_at_k"
GOLDEN = Path(__file__).resolve().parent.parent / "golden"
DOC_FILE = GOLDEN / "documents" / "001_e6f299f74aa61acb.json"
CASES = load_file(GOLDEN / "topics" / "retrieval.json") + [c for c in load_file(DOC_FILE) if c.metric == METRIC]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(case):
    assert rederive(case) == []


def _doc_matrix():
    return next(c for c in load_file(DOC_FILE) if c.metric == METRIC and "similarity" in c.inputs
                and len(c.inputs["similarity"]) == 20).inputs["similarity"]


def test_document_001_part1_table_and_query_3():
    """Printed: recall@1 0.55/0.55, @5 0.95/1.00, @10 1.00/1.00; query 3: top-3 [8, 3, 4],
    t8=0.699 t3=0.689 t4=0.507."""
    sim = _doc_matrix()
    printed = {(1, "image-to-text"): "0.55", (1, "text-to-image"): "0.55", (5, "image-to-text"): "0.95",
               (5, "text-to-image"): "1.00", (10, "image-to-text"): "1.00", (10, "text-to-image"): "1.00"}
    for (k, d), text in printed.items():
        r = compute(METRIC, {"similarity": sim}, {"k": k, "direction": d})
        assert places(r.value, 2) == text, (k, d)
        assert r.parts["optimistic"] == r.parts["pessimistic"] == r.value  # no tie decides anything
    top = compute(METRIC, {"similarity": sim}, {"k": 3}).parts["top_k"][3]
    assert [j for j, _ in top] == [8, 3, 4]
    assert [places(s, 3) for _, s in top] == ["0.699", "0.689", "0.507"]
    assert all(isinstance(x, str) and "/" in x for row in sim for x in row)  # exact binary fractions


def _hits_by_enumeration(sim, matches, k, direction):
    """The average over every order of the candidates (a uniform order of each tie block)
    of the index-order hit: the definition of the expected value, enumerated."""
    n_txt = len(sim[0])
    total = Fraction(0)
    perms = list(itertools.permutations(range(n_txt if direction == "image-to-text" else len(sim))))
    for perm in perms:
        if direction == "image-to-text":
            where = {old: new for new, old in enumerate(perm)}
            inp = {"similarity": [[row[j] for j in perm] for row in sim],
                   "matches": [[where[j] for j in js] for js in matches]}
        else:
            inp = {"similarity": [sim[i] for i in perm], "matches": [matches[i] for i in perm]}
        total += compute(METRIC, inp, {"k": k, "direction": direction, "ties": "index-order"}).value
    return total / len(perms)


@settings(deadline=None, max_examples=40)
@given(similarity_inputs(max_images=3, max_texts=4), st.integers(1, 4),
       st.sampled_from(["image-to-text", "text-to-image"]))
def test_expected_equals_the_average_over_all_orders(inputs, k, direction):
    sim = inputs["similarity"]
    matches = inputs.get("matches") or [[i] for i in range(len(sim))]
    want = _hits_by_enumeration(sim, matches, k, direction)
    got = compute(METRIC, {"similarity": sim, "matches": matches}, {"k": k, "direction": direction}).value
    assert got == want


@settings(deadline=None)
@given(similarity_inputs(), st.sampled_from(["expected", "optimistic", "pessimistic", "index-order"]),
       st.sampled_from(["image-to-text", "text-to-image"]))
def test_recall_never_decreases_with_k(inputs, ties, direction):
    values = [compute(METRIC, inputs, {"k": k, "ties": ties, "direction": direction}).value for k in range(1, 7)]
    assert values == sorted(values)
    assert values[-1] == 1  # K = 6 >= every candidate count drawn


@settings(deadline=None)
@given(similarity_inputs(), st.integers(1, 4), st.sampled_from(["image-to-text", "text-to-image"]))
def test_tie_rules_are_ordered(inputs, k, direction):
    conv = {"k": k, "direction": direction}
    r = compute(METRIC, inputs, conv)
    idx = compute(METRIC, inputs, dict(conv, ties="index-order")).value
    assert r.parts["pessimistic"] <= r.value <= r.parts["optimistic"]
    assert r.parts["pessimistic"] <= idx <= r.parts["optimistic"]
    assert compute(METRIC, inputs, dict(conv, ties="optimistic")).value == r.parts["optimistic"]


@settings(deadline=None)
@given(st.data(), st.sampled_from(["expected", "optimistic", "pessimistic", "index-order"]), st.integers(1, 4))
def test_permuting_candidates_changes_nothing_without_ties(data, ties, k):
    inputs = data.draw(similarity_inputs(tie_free=ties == "index-order"))
    moved = permute_candidates(inputs, data)
    conv = {"k": k, "ties": ties}
    assert compute(METRIC, inputs, conv).value == compute(METRIC, moved, conv).value


def test_floats_compare_exactly():
    a = 0.1 + 0.2  # 0.30000000000000004
    sim = [[0.3, a], [a, 0.3]]
    r = compute(METRIC, {"similarity": sim})
    assert r.parts["hits"] == [0, 0]  # 0.3 < 0.1 + 0.2 in binary
    assert r.parts["top_k"][0] == [[1, Fraction(a)]]


def test_k_beyond_the_candidates_hits_everything():
    assert compute(METRIC, {"similarity": [[0, 5], [5, 0]]}, {"k": 3}).value == 1


BAD = [
    ({"similarity": [[1, float("nan")], [0, 1]]}, {}, InputError, "similarity[0][1]: NaN"),
    ({"similarity": [[1, 0], [float("inf"), 1]]}, {}, InputError, "similarity[1][0]: an infinite"),
    ({"similarity": [[1, 0], [0]]}, {}, InputError, "similarity[1]: 1 columns, but row 0 has 2"),
    ({"similarity": [[1, 0, 2], [0, 1, 2]]}, {}, InputError, "not square"),
    ({"similarity": [[1, "x"], [0, 1]]}, {}, InputError, "similarity[0][1]: 'x' is not an exact number"),
    ({"similarity": [[1, True], [0, 1]]}, {}, InputError, "similarity[0][1]"),
    ({"similarity": [[1, 0], [0, 1]], "matches": [[0], []]}, {}, InputError, "matches[1]: image 1 has no correct"),
    ({"similarity": [[1, 0], [0, 1]], "matches": [[0, 1], [0]]}, {"direction": "text-to-image"}, None, None),
    ({"similarity": [[1, 0], [0, 1]], "matches": [[0], [0]]}, {"direction": "text-to-image"}, InputError,
     "text 1 is listed by no image"),
    ({"similarity": [[1, 0], [0, 1]], "matches": [[0, 0], [1]]}, {}, InputError, "matches[0][1]: text 0 is listed twice"),
    ({"similarity": [[1, 0], [0, 1]], "matches": [[2], [1]]}, {}, InputError, "matches[0][0]: text index 2"),
    ({"similarity": [[1, 0], [0, 1]], "matches": [[0]]}, {}, InputError, "matches: 1 lists"),
    ({"similarity": [[1]]}, {"k": 0}, ConventionError, "below the minimum"),
    ({"similarity": [[1]], "scores": 1}, {}, InputError, "unknown field 'scores'"),
    ({"similarity": [[]]}, {}, InputError, "not square"),
]


@pytest.mark.parametrize("inputs, conv, error, message", BAD)
def test_bad_input(inputs, conv, error, message):
    if error is None:
        compute(METRIC, inputs, conv)  # defined: text 0 has two correct images
        return
    with pytest.raises(error) as e:
        compute(METRIC, inputs, conv)
    assert message in str(e.value)


def test_empty_matrix_is_undefined():
    r = compute(METRIC, {"similarity": []})
    assert str(r.value) == "undefined(no queries)"
    assert json.dumps(r.to_json())
