"""The SemEval-2013 task 9.1 schemas (oracle.ner_schemas) against independent formulations:

- strict P, R and F1 are the entity-level micro P, R and F1 of oracle.tagging (span matching):
  with one-to-one pairing COR is the number of gold entities a prediction reproduces exactly,
  ACT the predictions and POS the gold entities, whatever the pairing order;
- exact: COR is the size of the intersection of the gold and predicted boundary sets (entities
  read from tags do not overlap within a sentence, so a boundary pair occurs once);
- every schema: COR + INC + PAR + MIS is the number of gold entities and COR + INC + PAR + SPU
  the number of predictions (the pairing is one-to-one); INC + PAR is at most the number of
  (prediction, gold) overlapping pairs;
- a brute-force pairing by enumeration of the greedy rule's choices on tiny inputs;
- under min_overlap 0 and 1/100 the values are the same when no gold entity exceeds 100 tokens.
"""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings as hsettings, strategies as st

from conformance.strategies.tagging import encode, tagging_inputs
from oracle.chunks import extract_entities
from oracle.ner_schemas import pair_sentence
from oracle.registry import compute

SCHEMAS = ("strict", "exact", "partial", "type")


def _entities(inputs):
    s = {"scheme": "iob2", "reading": "seqeval", "tag_format": "prefix-type"}
    return extract_entities(inputs["gold"], "gold", s), extract_entities(inputs["pred"], "pred", s)


@given(tagging_inputs())
@hsettings(max_examples=150)
def test_strict_is_entity_level_micro(inputs):
    for which in ("precision", "recall", "f1"):
        # under the same 0/0 rule: conlleval.pl's 0 (entity_*'s canonical), not the SemEval undefined
        ours = compute(f"ner_schema_{which}", inputs, {"schema": "strict", "zero_division": "zero"}).value
        span = compute(f"entity_{which}", inputs, {}).value
        assert ours == span, (which, ours, span)


@given(tagging_inputs())
@hsettings(max_examples=150)
def test_exact_correct_is_the_boundary_intersection(inputs):
    gold, pred = _entities(inputs)
    expected = len({(i, s, e) for i, s, e, _ in gold} & {(i, s, e) for i, s, e, _ in pred})
    for schema in ("exact", "partial"):
        assert compute("ner_schema_f1", inputs, {"schema": schema}).stats["correct"] == expected


@given(tagging_inputs())
@hsettings(max_examples=150)
def test_counts_add_up(inputs):
    gold, pred = _entities(inputs)
    overlapping = sum(1 for gi, gs, ge, _ in gold for pi, ps, pe, _ in pred
                      if gi == pi and min(ge, pe) > max(gs, ps))
    for schema in SCHEMAS:
        c = compute("ner_schema_report", inputs, {"schema": schema}).value["overall"]
        assert c["correct"] + c["incorrect"] + c["partial"] + c["missed"] == len(gold) == c["possible"]
        assert c["correct"] + c["incorrect"] + c["partial"] + c["spurious"] == len(pred) == c["actual"]
        assert c["incorrect"] + c["partial"] <= overlapping
        if schema != "partial":
            assert c["partial"] == 0
        hits = c["correct"] + Fraction(c["partial"], 2)
        if c["actual"]:
            assert c["precision"] == hits / c["actual"]
        if c["possible"]:
            assert c["recall"] == hits / c["possible"]


def _brute(gold, pred, schema):
    """The greedy rule written as a search: for each prediction in order, the candidates are
    the unpaired gold entities; COR candidates first (the type schema takes the minimum
    boundary distance, the earliest on a tie), then overlapping ones (the earliest)."""
    paired = set()
    out = dict.fromkeys(("correct", "incorrect", "partial", "missed", "spurious"), 0)
    for p in pred:
        free = [(i, g) for i, g in enumerate(gold) if i not in paired]
        over = [(i, g) for i, g in free if len(set(range(*p[:2])) & set(range(*g[:2]))) > 0]
        if schema == "type":
            cor = sorted((abs(p[0] - g[0]) + abs(p[1] - g[1]), i) for i, g in over if g[2] == p[2])
            cor = [i for _, i in cor[:1]]
        else:
            cor = [i for i, g in free if g[:2] == p[:2] and (schema != "strict" or g[2] == p[2])][:1]
        if cor:
            paired.add(cor[0])
            out["correct"] += 1
            continue
        rest = [i for i, g in over if schema != "type" or g[2] != p[2]]
        if rest:
            paired.add(rest[0])
            out["partial" if schema == "partial" else "incorrect"] += 1
        else:
            out["spurious"] += 1
    out["missed"] = len(gold) - len(paired)
    return out


spans = st.lists(st.tuples(st.integers(0, 5), st.integers(1, 3), st.sampled_from("AB")), max_size=4)


def _sentence(raw):
    """Non-overlapping (start, end, type) spans from raw (start, length, type) draws."""
    out, taken = [], set()
    for s, n, t in raw:
        cells = set(range(s, s + n))
        if not cells & taken:
            taken |= cells
            out.append((s, s + n, t))
    return sorted(out)


@given(spans, spans, st.sampled_from(SCHEMAS))
@hsettings(max_examples=300)
def test_pairing_matches_brute_force(g, p, schema):
    gold, pred = _sentence(g), _sentence(p)
    assert pair_sentence(gold, pred, schema, Fraction(0)) == _brute(gold, pred, schema)


@given(tagging_inputs(), st.sampled_from(SCHEMAS))
@hsettings(max_examples=100)
def test_min_overlap_one_percent_is_inert_on_short_entities(inputs, schema):
    a = compute("ner_schema_report", inputs, {"schema": schema}).value
    b = compute("ner_schema_report", inputs, {"schema": schema, "min_overlap": "1/100"}).value
    assert a == b


def test_min_overlap_one_percent_separates_on_a_long_entity():
    # gold PER over 101 tokens, a one-token prediction at its end: 1/101 < 1/100 of the gold
    # entity is covered, so under 1/100 there is no overlap (SPU + MIS), under 0 there is (PAR).
    n = 101
    inputs = {"gold": [encode([(0, n, "PER")], n, "iob2")], "pred": [encode([(n - 1, n, "PER")], n, "iob2")]}
    assert compute("ner_schema_report", inputs, {"schema": "partial"}).value["overall"]["partial"] == 1
    c = compute("ner_schema_report", inputs, {"schema": "partial", "min_overlap": "1/100"}).value["overall"]
    assert (c["partial"], c["spurious"], c["missed"]) == (0, 1, 1)
