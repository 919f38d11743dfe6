"""The order of a run's units among the engine workers (conformance.engine.schedule and
pool._AffinityQueue): longest adapters and units first, estimates from the previous
report at the same path, a bad or absent report read as no estimate."""
from __future__ import annotations

import json

from conformance.engine.pool import _AffinityQueue
from conformance.engine.runner import Unit
from conformance.engine.schedule import DEFAULT, estimator, previous_seconds


def _report(path, rows, header=True):
    with open(path, "w", encoding="utf-8") as f:
        if header:
            f.write(json.dumps({"format": "metric-conformance-report"}) + "\n")
        for r in rows:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")


def test_previous_seconds_sums_the_records_of_each_adapter_metric_and_kind(tmp_path):
    p = tmp_path / "r.jsonl"
    _report(p, [{"adapter": "a", "metric": "wer", "kind": "property", "seconds": 1.5},
                {"adapter": "a", "metric": "wer", "kind": "property", "seconds": 2.0},
                {"adapter": "a", "metric": "wer", "kind": "golden", "seconds": 0.25},
                {"adapter": "b", "metric": "bleu", "kind": "divergence", "seconds": 4}])
    assert previous_seconds(str(p)) == {("a", "wer", "property"): 3.5, ("a", "wer", "golden"): 0.25,
                                        ("b", "bleu", "divergence"): 4}


def test_a_missing_or_bad_previous_report_is_no_estimate(tmp_path):
    assert previous_seconds(str(tmp_path / "absent.jsonl")) == {}
    assert previous_seconds("-") == {}
    assert previous_seconds(str(tmp_path)) == {}                       # a folder
    bad = tmp_path / "bad.jsonl"
    _report(bad, ["{not json"])
    assert previous_seconds(str(bad)) == {}
    deep = tmp_path / "deep.jsonl"
    _report(deep, ["[" * 100000 + "]" * 100000])
    assert previous_seconds(str(deep)) == {}
    odd = tmp_path / "odd.jsonl"                                       # fields of the wrong type are skipped
    _report(odd, [{"adapter": "a", "metric": "m", "kind": "golden", "seconds": "9"},
                  {"adapter": "a", "metric": "m", "kind": "golden", "seconds": -1},
                  {"adapter": "a", "metric": "m", "kind": "golden", "seconds": True},
                  {"adapter": "a", "metric": "m", "kind": "golden", "seconds": 2}])
    assert previous_seconds(str(odd)) == {("a", "m", "golden"): 2}


class _Weighted:
    schedule_weight = 8.0


def test_estimates_come_from_the_previous_report_else_the_part_times_the_weight():
    est = estimator({("a", "wer", "property"): 7.0, ("a", "wer", "divergence"): 2.0,
                     ("a", "cer", "divergence"): 3.0}, {"a": object(), "slow": _Weighted()})
    assert est(Unit("a", "wer", "properties")) == 7.0
    assert est(Unit("a", "2 metrics", "divergence", ("wer", "cer"))) == 5.0   # summed over its metrics
    assert est(Unit("a", "cer", "golden")) == DEFAULT["golden"]             # not in the report
    assert est(Unit("slow", "ap", "properties")) == 8.0 * DEFAULT["properties"]


def test_the_queue_takes_the_longest_adapter_and_its_longest_unit_first():
    units = [Unit("many", f"m{i}", "properties") for i in range(6)] + \
            [Unit("few", "x", "golden"), Unit("few", "ap", "properties"), Unit("few", "y", "golden")]
    secs = {("many", f"m{i}", "properties"): 1.0 for i in range(6)}
    secs.update({("few", "x", "golden"): 0.5, ("few", "ap", "properties"): 50.0, ("few", "y", "golden"): 0.2})

    def est(u):
        return secs[(u.adapter, u.metric, u.part)]
    q = _AffinityQueue(units, est)
    first = q.next_for(None, set())
    assert (first.adapter, first.metric) == ("few", "ap")       # 50.7 s of work against 6 s
    second = q.next_for(None, {"few"})
    assert second.adapter == "many"
    # a worker keeps its adapter while it has units
    assert q.next_for("few", {"many"}).metric == "x"
    assert q.next_for("few", {"many"}).metric == "y"
    # every adapter held: the free worker shares the one with the most work left, its shortest unit
    assert q.next_for(None, {"many"}).adapter == "many"
    assert len(q) == 4


def test_without_estimates_the_divergence_unit_goes_first():
    units = [Unit("a", "wer", "golden"), Unit("a", "wer", "properties"), Unit("a", "2 metrics", "divergence")]
    q = _AffinityQueue(units)
    assert [q.next_for("a", set()).part for _ in range(3)] == ["divergence", "golden", "properties"]
