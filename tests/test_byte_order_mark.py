"""A UTF-8 byte-order mark at the start of a file is stripped by every reader of a
structured file (a BOM left in would rename the first query); a segment file keeps it
or not as its reading says (``conformance.readings``: sacrebleu and jiwer keep it,
``plain`` strips it)."""
from __future__ import annotations

import json

from conformance import formats as F
from conformance.casefiles.cases import load_file
from oracle import compute
from oracle.trec import read_qrels, read_run

BOM = "\ufeff"


def _both(tmp_path, name, text):
    plain, marked = tmp_path / f"plain-{name}", tmp_path / f"bom-{name}"
    plain.write_text(text, encoding="utf-8")
    marked.write_text(BOM + text, encoding="utf-8")
    return plain, marked


def test_qrels_and_run_files(tmp_path):
    q0, q1 = _both(tmp_path, "qrels", "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n")
    r0, r1 = _both(tmp_path, "run", "q1 Q0 d2 1 2 s\nq1 Q0 d1 2 1 s\nq2 Q0 d3 1 1 s\n")
    assert read_qrels(q1) == read_qrels(q0) and "q1" in read_qrels(q1)
    assert read_run(r1) == read_run(r0) and "q1" in read_run(r1)
    # the measure the issue names: MAP over the two queries, (1/2 + 1) / 2 = 3/4 by hand
    inputs = {"qrels": read_qrels(q1), "run": read_run(r1)}
    assert compute("average_precision", inputs).value == compute("average_precision",
                                                               {"qrels": read_qrels(q0), "run": read_run(r0)}).value
    assert str(compute("average_precision", inputs).value) == "3/4"


def test_text_and_json_readers(tmp_path):
    h0, h1 = _both(tmp_path, "hyp.txt", "the cat\n")
    f0, f1 = _both(tmp_path, "ref.txt", "the cat\n")
    plain = {"hypotheses": ["the cat"], "references": [["the cat"]]}
    assert F.read_text(h1, [f1], reading="plain") == F.read_text(h0, [f0]) == plain
    # as sacrebleu reads it (BLEU's default): the mark is part of the first token
    assert F.read_text(h1, [f1]) == {"hypotheses": [BOM + "the cat"], "references": [[BOM + "the cat"]]}
    c0, c1 = _both(tmp_path, "cases.json", json.dumps({"cases": [
        {"id": "bom-1", "description": "d", "source": "s", "tags": [], "metric": "accuracy",
         "inputs": {"y_true": [1], "y_pred": [1]}, "expected": {"value": "1"}}]}))
    assert [c.id for c in load_file(c1, validate=False)] == [c.id for c in load_file(c0, validate=False)] == ["bom-1"]
