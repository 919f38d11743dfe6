"""The degenerate-input tables (golden/bad_input/*.json) row by row: every row has
examples and each example's oracle outcome is the one the row states; the docs
page is the rendering of the files; every oracle family has its table."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

import oracle
from conformance.casefiles import bad_input as B

TABLES = B.tables()
EXAMPLES = [pytest.param(ex, id=f"{t['family']}-{r}-{e}")
            for t in TABLES for r, row in enumerate(t["rows"]) for e, ex in enumerate(row["examples"])]


@pytest.mark.parametrize("example", EXAMPLES)
def test_row_example(example):
    problem = B.check(example)
    assert problem is None, problem


def test_docs_page_is_the_rendering_of_the_tables():
    assert B.DOC.read_text(encoding="utf-8") == B.render(TABLES), \
        "docs/bad-input.md is out of date: python -m conformance.casefiles.bad_input --write"


def test_every_metric_family_has_a_table():
    families = {t["family"] for t in TABLES}
    assert families == {"bleu", "qa", "perplexity", "tagging", "classification", "error_rates",
                        "ranking", "retrieval", "vqa", "cider", "score_ranking"}
    for t in TABLES:
        mod = importlib.import_module(t["module"])
        assert f"golden/bad_input/{t['family']}.json" in mod.__doc__, f"{t['module']} does not point to its table"


def test_size_and_magnitude_rows():
    # the issue asked for rows on size and magnitude: at least one per family that has them
    tagged = {t["family"] for t in TABLES for row in t["rows"] if row.get("kind") in ("size", "magnitude")}
    assert {"ranking", "perplexity", "error_rates", "bleu"} <= tagged


def test_a_wrong_expectation_is_reported():
    bad = {"metric": "wer", "inputs": {"references": ["a b"], "hypotheses": ["a"]}, "expect": {"value": "1/3"}}
    assert "expected" in B.check(bad)
    assert B.check(dict(bad, expect={"value": "1/2"})) is None
    assert "expected InputError" in B.check(dict(bad, expect={"error": "InputError"}))


def test_the_rows_become_cases_for_the_libraries():
    # every example but those of knob values (ConventionError) and of the input object's own
    # fields (rows marked "libraries"), each named for compare FILE#ID
    cases = B.cases()
    sent = sum(1 for t in TABLES for row in t["rows"] if "libraries" not in row and "stress" not in row
               for ex in row["examples"] if ex["expect"].get("error") != "ConventionError" and "libraries" not in ex)
    assert len(cases) == sent > 400
    stress = [c for c in B.cases(stress=True) if "stress" in c.tags]
    assert len(B.cases(stress=True)) == len(cases) + len(stress) and stress
    assert {c.id.rsplit(".", 1)[0] for c in stress} >= {"bad-input.error_rates.8", "bad-input.bleu.16"}
    assert not any(c.id.startswith("bad-input.tagging.0.") for c in cases)   # the object's fields
    c = B.find_case("bad_input/tagging.json#bad-input.tagging.3.0")
    assert c.metric == "token_accuracy" and c.expected["value"].startswith("error(InputError")


def test_a_library_that_accepts_a_refused_row_fails():
    # tagging rows[3]: pred[0] has 4 tags, gold[0] 5; seqeval's accuracy_score zips the
    # flattened lists (seqeval/metrics/sequence_labeling.py accuracy_score: sum(y_t == y_p for
    # y_t, y_p in zip(y_true, y_pred))) and returns 4 of 5 without a check of the lengths
    pytest.importorskip("seqeval")
    from conformance.casefiles.known import KnownIndex
    from conformance.resolve import load_adapter
    from conformance.engine.runner import run_case
    a = load_adapter("seqeval")
    r = run_case(a, B.find_case("#bad-input.tagging.3.0"), KnownIndex(a, []))
    assert r.outcome == "fail" and "accepts invalid input" in r.message, r.message
    assert r.library_value == 0.8


def test_every_run_sends_the_rows_and_the_stress_rows_when_asked():
    from conformance.resolve import load_adapter
    from conformance.engine.runner import plan_units
    a = load_adapter("jiwer")
    parts = [u.part for u in plan_units({"jiwer": a}, ["wer"], [])]
    assert parts.count("bad-input") == 1 and "stress" not in parts
    assert "stress" in {u.part for u in plan_units({"jiwer": a}, ["wer"], [], stress=True)}
    assert not {"bad-input", "stress"} & {u.part for u in plan_units({"jiwer": a}, ["wer"], [], bad_input=False)}
