"""Old names keep working: a knob value renamed since a setting, a report or a
known-failure list was written is read under its new name, with a one-line notice
(oracle.conventions.Knob.renamed)."""
from __future__ import annotations

import json
import warnings

import pytest

from conformance.cli import main
from conformance.reports.records import Record
from conformance.reports.tracking import changes_since
from oracle.conventions import RenamedValueWarning
from oracle.registry import modern_names
from oracle.registry import get_metric, metric_names

# the renames, from the commits that made them (values unchanged by each rename)
RENAMES = [("entity_f1", "reading", "strict", "valid-only"),          # bda6dfd
           ("entity_f1", "no_weight", "sklearn", "zero-if-predicted"),  # c64faa0
           ("vqa_accuracy", "normalize_side", "official", "official-2016")]  # 37b6a93


@pytest.mark.parametrize("metric,knob,old,new", RENAMES)
def test_an_old_name_reads_as_its_new_name_with_a_notice(metric, knob, old, new):
    m = get_metric(metric)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = m.knob(knob).canonical(old, metric)
    assert got == new
    assert [w.category for w in seen] == [RenamedValueWarning]
    assert f"{knob}={old} is now named {new}" in str(seen[0].message)


def test_an_old_name_gives_the_new_names_value_and_signature():
    m = get_metric("entity_f1")
    x = {"gold": [["O", "I-PER", "I-PER"]], "pred": [["O", "B-PER", "I-PER"]]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RenamedValueWarning)
        old = m.compute(x, m.settings({"reading": "strict", "scheme": "iob2"}))
        sig = m.signature({"reading": "strict"})
    new = m.compute(x, m.settings({"reading": "valid-only", "scheme": "iob2"}))
    assert old.value == new.value and "read:valid-only" in sig


def test_a_renamed_value_is_never_a_choice_of_its_own():
    for name in metric_names():
        for k in get_metric(name).knobs:
            for old, new in k.renamed.items():
                assert old not in k.choices and new in k.choices, (name, k.name, old)


def test_the_cli_reads_an_old_name_with_one_line_of_notice(capsys, monkeypatch):
    import oracle.conventions
    monkeypatch.setattr(oracle.conventions, "_SETTINGS_CACHE", {})   # a fresh process's memo
    rc = main(["oracle", "--metric", "entity_f1", "--inputs",
               json.dumps({"gold": [["B-PER"]], "pred": [["B-PER"]]}), "--conventions", '{"reading": "strict"}'])
    out, err = capsys.readouterr()
    assert rc == 0 and json.loads(out)["signature"].count("read:valid-only") == 1
    notices = [line for line in err.splitlines() if "notice" in line]
    assert notices == ["metric-conformance oracle: notice: entity_f1.reading=strict is now named valid-only: "
                       "read as reading=valid-only"]


def test_a_report_written_under_an_old_name_is_tracked_under_the_new_one(tmp_path):
    old = Record(adapter="seqeval", library="seqeval", version="1.2.2", metric="entity_f1", kind="property",
                 test="oracle-equal[reading=strict]", outcome="pass")
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps({"format": "metric-conformance-report", "version": 1}) + "\n"
                    + json.dumps(old.to_json()) + "\n")
    now = Record(adapter="seqeval", library="seqeval", version="1.2.2", metric="entity_f1", kind="property",
                 test="oracle-equal[reading=valid-only]", outcome="pass")
    assert changes_since(str(path), [now]) == []
    assert modern_names("entity_f1|read:strict|x") == "entity_f1|read:valid-only|x"
    assert modern_names("reading=strictly") == "reading=strictly"
