"""The bench's target checks (conformance/bench/targets.py) and its report of them.

Timing itself is what ``metric-conformance bench`` does; here, that the targets name
real workloads and contenders, and that a result is judged against its bound."""
from __future__ import annotations

import json
import types

import pytest

from conformance import bench
from conformance.bench import targets


def test_the_second_generators_workloads_share_the_first_ones_targets():
    assert targets.first_generator("ranking-trec-dl-shaped") == "ranking-trec-dl"
    assert targets.first_generator("ranking-msmarco-shaped-files") == "ranking-msmarco-files"
    assert targets.first_generator("ranking-msmarco-files") == "ranking-msmarco-files"
    assert targets.first_generator("classification-imagenet") == "classification-imagenet"


def test_every_target_names_a_workload_and_one_of_its_oracle_contenders():
    by_name = {w.name: w for w in bench.workloads()}
    for base, bounds in targets.RATIO.items():
        assert base in by_name, base
        for contender in bounds:
            assert contender in by_name[base].oracle, (base, contender)
            shaped = by_name.get(base.replace("-files", "") + "-shaped" + ("-files" if base.endswith("-files")
                                                                          else ""))
            assert shaped is not None and contender in shaped.oracle, (base, contender)
    suite = {"import-oracle", "explain-value", "run-suite", "run-suite-kept"}
    for base, bounds in targets.SECONDS.items():
        assert base in by_name or base in suite, base
        if base in by_name:
            assert set(bounds) <= set(by_name[base].oracle), base


def test_a_ratio_is_held_to_the_fastest_peer_and_a_missing_peer_is_no_verdict():
    result = {"workload": "classification-imagenet-shaped", "median_s": {}, "ratios": {
        "oracle confusion_matrix (lists) / sklearn confusion_matrix (arrays)": 1.05,
        "oracle confusion_matrix (lists) / fastest peer doing the same work (sklearn confusion_matrix (arrays))": 1.05,
        "oracle f1 macro (arrays) / fastest peer doing the same work (sklearn f1_score macro (arrays))": 0.8}}
    got = {v["contender"]: (v["value"], v["max"], v["met"]) for v in targets.verdicts(result)}
    # 1.05 > 1.0 (lists): missed; 0.8 <= 0.8 (arrays): met, the bound included; the two
    # contenders without a ratio (their peer missing) get no verdict
    assert got == {"oracle confusion_matrix (lists)": (1.05, 1.0, False),
                   "oracle f1 macro (arrays)": (0.8, 0.8, True)}


def test_a_seconds_target_reads_the_median():
    result = {"workload": "run-suite", "median_s": {"metric-conformance": 121.0}, "ratios": {}}
    assert targets.verdicts(result) == [{"contender": "metric-conformance", "kind": "seconds", "value": 121.0,
                                         "max": 120.0, "met": False}]
    result = {"workload": "audit-wer-librispeech-shaped", "median_s": {"oracle audit": 7.5}, "ratios": {}}
    assert [v["met"] for v in targets.verdicts(result)] == [True]


def test_the_bench_reports_the_machine_and_its_verdicts(tmp_path, monkeypatch, capsys):
    pytest.importorskip("seqeval")
    monkeypatch.setattr(targets, "python_loop_seconds", lambda repeat=3: 0.5)
    out = tmp_path / "b.json"
    args = types.SimpleNamespace(workload=["entity-f1-conll2003"], repeat=1, output=str(out))
    assert bench.main(args) == 0
    data = json.loads(out.read_text())
    assert data["machine"]["python_loop_s"] == {"before": 0.5, "after": 0.5}
    (result,) = data["results"]
    (v,) = result["targets"]
    assert v["contender"] == "oracle entity_f1 (micro)" and v["max"] == 0.5 and v["kind"] == "ratio"
    assert v["met"] == (v["value"] <= 0.5)
    printed = capsys.readouterr().out
    assert f"targets: {int(v['met'])} of 1 met" in printed and "loop (10,000,000 additions) took 0.50 s" in printed
