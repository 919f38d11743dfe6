"""The engine finds, by itself, that the document's pooled (type, text) entity scoring
is not the span-based entity F1 it declares, and names the knob that reproduces it."""
from fractions import Fraction

from conformance.reports import writers as R
from conformance.casefiles.known import KnownIndex
from conformance.engine.properties import run_property
from conformance.engine.runner import run_all
from oracle.compare import compare
from oracle.registry import get_metric
from tests.inhouse_tagging import DECLARED, ekstrak_entitas, entity_f1_pooled_type_text

ADAPTER = entity_f1_pooled_type_text.adapter


def _spans(tags):
    """(start, end, type) of a strictly read IOB2 sentence (B-X I-X*), written out here
    independently of the oracle."""
    out, start, typ = [], None, None
    for i, tag in enumerate(list(tags) + ["O"]):
        if start is not None and tag != f"I-{typ}":
            out.append((start, i, typ))
            start = None
        if tag.startswith("B-"):
            start, typ = i, tag[2:]
    return out


def _misplaced_match(inputs) -> bool:
    """A predicted entity that is not a gold span but has the (type, text) of a gold entity."""
    gold_spans = {(i, s, e, t) for i, g in enumerate(inputs["gold"]) for s, e, t in _spans(g)}
    gold_texts = {(t, " ".join(inputs["tokens"][i][s:e])) for i, s, e, t in gold_spans}
    for i, p in enumerate(inputs["pred"]):
        for s, e, t in _spans(p):
            if (i, s, e, t) not in gold_spans and (t, " ".join(inputs["tokens"][i][s:e])) in gold_texts:
                return True
    return False


def test_the_function_is_the_documents_scoring():
    # Document 000 part 1 prints micro P 4/6, R 4/6, F1 0.667 for its three sentences
    # (gold PER Budi, LOC Bandung, PER Siti, ORG PT Maju Jaya, LOC Jakarta, DATE 12 Maret;
    # predicted PER Budi, PER Bandung, PER Siti, ORG PT Maju, LOC Jakarta, DATE 12 Maret:
    # 4 of 6 predicted texts are gold texts of their type).
    inputs = {
        "tokens": [["Budi", "pergi", "ke", "Bandung", "."],
                   ["Siti", "bekerja", "di", "PT", "Maju", "Jaya", "."],
                   ["Rapat", "diadakan", "di", "Jakarta", "pada", "12", "Maret", "."]],
        "gold": [["B-PER", "O", "O", "B-LOC", "O"], ["B-PER", "O", "O", "B-ORG", "I-ORG", "I-ORG", "O"],
                 ["O", "O", "O", "B-LOC", "O", "B-DATE", "I-DATE", "O"]],
        "pred": [["B-PER", "O", "O", "B-PER", "O"], ["B-PER", "O", "O", "B-ORG", "I-ORG", "O", "O"],
                 ["O", "O", "O", "B-LOC", "O", "B-DATE", "I-DATE", "O"]]}
    assert ekstrak_entitas(inputs["tokens"][1], inputs["pred"][1]) == [("PER", "Siti"), ("ORG", "PT Maju")]
    assert compare(entity_f1_pooled_type_text(inputs), Fraction(2, 3), ADAPTER.tolerance("entity_f1")).agrees


def test_pooled_matching_credits_a_misplaced_entity():
    # By hand: gold has PER "Budi" in sentence 2 only; the prediction tags "Budi" as PER in
    # both sentences. Span matching: pred 2, gold 1, tp 1: P 1/2, R 1, F1 2/3. Pooled
    # matching: both predicted texts are a gold PER text: tp 2, P 2/2, R 2/1, F1 = 2*2/(1+2) = 4/3.
    inputs = {"gold": [["O"], ["B-PER"]], "pred": [["B-PER"], ["B-PER"]], "tokens": [["Budi"], ["Budi"]]}
    value = entity_f1_pooled_type_text(inputs)
    tol = ADAPTER.tolerance("entity_f1")
    assert compare(value, Fraction(4, 3), tol).agrees
    m = get_metric("entity_f1")
    assert m.compute(inputs, m.settings(DECLARED)).value == Fraction(2, 3)


def test_the_property_runner_finds_the_defect_by_itself():
    r = run_property(ADAPTER, "entity_f1", "oracle-equal", KnownIndex(ADAPTER, []), 60)
    assert r.outcome == "fail", (r.outcome, r.message)
    inputs = r.inputs
    # minimal: two one-token sentences (or one short sentence) where a predicted entity in
    # the wrong place has the same type and text as a gold entity elsewhere
    assert sum(len(s) for s in inputs["gold"]) <= 3, inputs
    assert len(inputs["gold"]) <= 2, inputs
    assert _misplaced_match(inputs), inputs
    # the explanation search names the knob that reproduces the function's value
    assert r.reproducing_knobs == [{"matching": "pooled-type-text"}], r.reproducing_knobs
    assert r.explanation == "explained by matching=pooled-type-text (held on 20 neighbouring inputs)"
    m = get_metric("entity_f1")
    pooled = m.compute(inputs, m.settings({**DECLARED, "matching": "pooled-type-text"})).value
    assert compare(r.library_value, pooled, ADAPTER.tolerance("entity_f1")).agrees
    assert not compare(r.library_value, m.compute(inputs, m.settings(DECLARED)).value,
                       ADAPTER.tolerance("entity_f1")).agrees
    assert r.reproduce.startswith("metric-conformance compare --adapter tests.inhouse_tagging:entity_f1_pooled_type_text --metric entity_f1")


def test_run_all_reports_the_defect(tmp_path):
    adapters = {ADAPTER.name: ADAPTER}
    records = run_all(adapters, {n: n for n in adapters}, metrics=["entity_f1"], examples=60, jobs=1)
    by_test = {(r.kind, r.test): r for r in records}
    found = by_test[("property", "oracle-equal")]
    assert found.outcome == "fail" and "matching=pooled-type-text" in found.explanation
    # the golden cases are judged where the function's fixed conventions give their exact
    # value (or reported as divergences where they do not); the ones without tokens are
    # skipped with the reason
    golden = [r for r in records if r.kind == "golden"]
    assert golden and {r.outcome for r in golden} <= {"not-applicable", "skipped", "pass", "fail", "divergence"}
    assert all("tokens" in r.message for r in golden if r.outcome == "skipped")
    assert any(r.outcome == "divergence" and r.material for r in golden)
    head = R.header([ADAPTER.info().to_json()], [], {})
    text = R.console(records, head)
    assert "FAIL document-pooled-entity-f1" in text and "matching=pooled-type-text" in text
    md_path = tmp_path / "r.md"
    R.write_all(records, head, md=md_path)
    md = md_path.read_text()
    assert "document-pooled-entity-f1" in md and "matching=pooled-type-text" in md


def test_without_tokens_the_function_skips_with_a_reason():
    import pytest
    from conformance.protocol import Skip

    with pytest.raises(Skip, match="tokens"):
        entity_f1_pooled_type_text({"gold": [["B-PER"]], "pred": [["B-PER"]]})
