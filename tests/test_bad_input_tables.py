"""The degenerate-input tables (golden/bad_input/*.json) row by row: every row has
examples and each example's oracle outcome is the one the row states; the docs
page is the rendering of the files; every oracle family has its table."""
from __future__ import annotations

import importlib
import pkgutil

import pytest

import oracle
from conformance.engine import bad_input as B

TABLES = B.tables()
EXAMPLES = [pytest.param(ex, id=f"{t['family']}-{r}-{e}")
            for t in TABLES for r, row in enumerate(t["rows"]) for e, ex in enumerate(row["examples"])]


@pytest.mark.parametrize("example", EXAMPLES)
def test_row_example(example):
    problem = B.check(example)
    assert problem is None, problem


def test_docs_page_is_the_rendering_of_the_tables():
    assert B.DOC.read_text(encoding="utf-8") == B.render(TABLES), \
        "docs/bad-input.md is out of date: python -m conformance.engine.bad_input --write"


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
