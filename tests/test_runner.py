"""The engine finds defects by itself: property templates against in-house functions."""
import json

from conformance.casefiles.known import KnownIndex
from conformance.engine.properties import property_names, run_property
from conformance.engine.runner import run_all
from conformance.reports import writers as R
from tests.inhouse_text import bleu2_without_clipping, document_bleu2


def _prop(fn, name, examples=150):
    a = fn.adapter
    return run_property(a, "bleu", name, KnownIndex(a, []), examples)


def test_missing_clipping_is_found_with_a_minimal_counterexample():
    r = _prop(bleu2_without_clipping, "oracle-equal")
    assert r.outcome == "fail"
    hyp = r.inputs["hypotheses"][0].split()
    ref = r.inputs["references"][0][0].split()
    # the defect needs a hypothesis n-gram occurring more often than in the reference
    from collections import Counter
    ch, cr = Counter(hyp), Counter(ref)
    bigrams_h = Counter(zip(hyp, hyp[1:]))
    bigrams_r = Counter(zip(ref, ref[1:]))
    assert any(ch[w] > cr[w] > 0 for w in ch) or any(bigrams_h[g] > bigrams_r[g] > 0 for g in bigrams_h)
    assert len(hyp) <= 4, r.inputs            # shrunk
    assert "defect" in r.explanation
    assert r.reproduce.startswith("metric-conformance compare --adapter tests.inhouse_text:bleu2_without_clipping --metric bleu")


def test_the_documents_script_crashes_on_a_hypothesis_without_bigrams():
    r = _prop(document_bleu2, "oracle-equal")
    assert r.outcome == "error"
    assert len(r.inputs["hypotheses"][0].split()) < 2     # P2 = 0/0 in the script
    assert "ZeroDivisionError" in str(r.library_value)


def test_run_all_and_every_report_format(tmp_path):
    adapters = {a.name: a for a in (document_bleu2.adapter, bleu2_without_clipping.adapter)}
    records = run_all(adapters, {n: n for n in adapters}, metrics=["bleu"], examples=30, jobs=1)
    outcomes = {(r.adapter, r.kind, r.test): r.outcome for r in records}
    # the document's own printed BLEU-2 cases pass on the document's own script
    golden = [r for r in records if r.adapter == "document-bleu2" and r.kind == "golden" and r.outcome == "pass"]
    assert len(golden) >= 2
    assert outcomes[("bleu2-without-clipping", "property", "oracle-equal")] == "fail"
    head = R.header([a.info().to_json() for a in adapters.values()], [], {})
    paths = dict(jsonl=tmp_path / "r.jsonl", md=tmp_path / "r.md", junit_path=tmp_path / "r.xml")
    R.write_all(records, head, **paths)
    h, back = R.read_jsonl(paths["jsonl"])
    assert h["format"] == "metric-conformance-report" and len(back) == len(records)
    md = paths["md"].read_text()
    assert "bleu2-without-clipping" in md and "reproduce:" in md and "exact:" in md
    import xml.etree.ElementTree as ET
    tree = ET.parse(paths["junit_path"])
    assert tree.getroot().tag == "testsuites"
    assert tree.getroot().find(".//failure") is not None
    text = R.console(records, head)
    assert text.splitlines()[0].startswith("Summary: ") and "FAIL bleu2-without-clipping" in text
    assert any(l.startswith("adapter") for l in text.splitlines())
