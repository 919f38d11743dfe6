"""Each adapter on one old release whose behaviour differs from the pinned one's: installed
into a cached environment (``conformance.venvs``, once per machine and CI run), judged
there by ``metric-conformance versions``. The adapter must map that era's API (no error
is an adapter mismatch), a defect recorded for the old release must show as a known
failure there, and a defect recorded for later releases must be absent (its replay
passes). Skipped, with the reason, only when pip cannot reach the package index."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from conformance.reports.writers import read_jsonl

# adapter: (old release, metric, {known-failure id: expected outcome there})
OLD = {
    # 1.5.1 has no #141 early return (2.0.0: no_match=zero), so an empty hypothesis and
    # reference score 0 only through its break, and it drops empty references (1.5.0-2.1)
    # 0009 holds before 1.5.0 only: 1.5.1 refuses the empty reference with its own EOFError, the
    # canonical representation of an undefined value (its replay there passes, as recorded)
    "sacrebleu": ("1.5.1", "sentence_bleu", {"sacrebleu-sentence_bleu-0009": "pass",
                                             "sacrebleu-sentence_bleu-0020": "known-failure",
                                             "sacrebleu-sentence_bleu-0017": "not-applicable"}),   # order 2: 1.x has 4 only
    # 3.0.0 refuses empty references (empty_reference=error) and has process_words
    "jiwer": ("3.0.0", "wer", {"jiwer-wer-0101": "known-failure", "jiwer-wer-0102": "known-failure"}),
    # 1.0.0: score functions without average, mode or zero_division
    "seqeval": ("1.0.0", "entity_f1", {"seqeval-entity_f1-0101": "known-failure",
                                       "seqeval-entity_f1-0104": "pass"}),
    # 0.3.8: make_comparable leaves the run unsorted (fixed in 0.3.9)
    "ranx": ("0.3.8", "precision_at_k", {"ranx-precision_at_k-0101": "known-failure",
                                         "ranx-precision_at_k-0102": "pass"}),
    # 3.5: method2 smooths the unigrams too (fixed in 3.6); method4 divides by log(hyp_len)
    "nltk": ("3.5", "sentence_bleu", {"nltk-sentence_bleu-0101": "known-failure",
                                      "nltk-sentence_bleu-0018": "known-failure"}),
    # 1.3.0: F1 set to zero_division where P = R = 0 (fixed in 1.4.0)
    "sklearn": ("1.3.0", "f1", {"sklearn-f1-0101": "known-failure", "sklearn-f1-0102": "known-failure"}),
}


def _judge(name: str, tmp) -> tuple[int, str, list]:
    version, metric, _ = OLD[name]
    report = tmp / f"{name}.jsonl"
    proc = subprocess.run([sys.executable, "-m", "conformance", "versions", "--adapter", name, "--versions", version,
                           "--metric", metric, "--examples", "10", "--jobs", "1", "--report", str(report), "--quiet"],
                          capture_output=True, text=True, timeout=1500, env={**os.environ, "PYTHONHASHSEED": "0"})
    records = read_jsonl(report)[1] if report.exists() else []
    return proc.returncode, proc.stdout + proc.stderr, records


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    from conformance.venvs import index_reachable
    ok, why = index_reachable()
    if not ok:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("versions")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(_judge, name, tmp) for name in OLD}
        return {name: f.result() for name, f in futures.items()}


@pytest.mark.parametrize("name", sorted(OLD))
def test_old_release_is_judged_with_its_own_api(judged, name):
    rc, out, records = judged[name]
    version, metric, _ = OLD[name]
    assert records, f"{name} {version} was not judged:\n{out[-3000:]}"
    assert {r.version for r in records} == {version}
    errors = [f"{r.kind} {r.test}: {r.message[:300]}" for r in records if r.outcome == "error"]
    assert not errors, f"{name} {version}: errors (an API the adapter does not map?):\n" + "\n".join(errors)


@pytest.mark.parametrize("name", sorted(OLD))
def test_historical_defects_show_where_they_were(judged, name):
    rc, out, records = judged[name]
    version, metric, expected = OLD[name]
    got = {r.test: r for r in records if r.kind == "known"}
    for entry, outcome in expected.items():
        assert entry in got, f"{name} {version}: {entry} was not replayed\n{out[-2000:]}"
        r = got[entry]
        assert r.outcome == outcome, f"{name} {version}: {entry} {r.outcome} ({r.message}), expected {outcome}"
        if outcome == "pass":   # the later release's defect is absent here, and that is no fix
            assert (r.verdicts or {}).get("versions") == "outside"


def test_matrix_reports_an_uninstallable_release_and_goes_on(tmp_path):
    """A release that does not exist is an n.a. column with pip's reason; the others are
    judged (the installed one here, without an install)."""
    from conformance.resolve import load_adapter
    installed = load_adapter("sacrebleu").version()
    report = tmp_path / "m.jsonl"
    proc = subprocess.run([sys.executable, "-m", "conformance", "versions", "--adapter", "sacrebleu", "--versions",
                           f"1.4.99,{installed}", "--metric", "sentence_bleu", "--examples", "5", "--report",
                           str(report), "--cache", str(tmp_path / "cache"), "--quiet"],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "n.a. sacrebleu 1.4.99: cannot be installed" in proc.stdout
    head, records = read_jsonl(report)
    assert head["matrix"] and head["releases"] == ["1.4.99", installed]
    assert [u["version"] for u in head["unavailable"]] == ["1.4.99"]
    assert records and {r.version for r in records} == {installed}


def test_outside_the_adapter_range_is_not_applicable(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "conformance", "versions", "--adapter", "sacrebleu", "--versions",
                           "1.3.7", "--json", "--quiet", "--cache", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    mat = json.loads(proc.stdout)
    assert mat["unavailable"]["1.3.7"].startswith("not-applicable: version 1.3.7 is outside this adapter's range")
    assert not list(tmp_path.iterdir())   # nothing was installed for it
