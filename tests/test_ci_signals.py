"""CI signals agree: under --strict a known failure that passes is a JUnit failure as it
is a failing exit status, and a run that tests nothing exits non-zero with the reason."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.cli import main
from conformance.reports import writers as R
from conformance.reports.records import Record


def _records():
    return [Record("jiwer", "jiwer", "3", "wer", "known", "jiwer-0001", "pass"),
            Record("jiwer", "jiwer", "3", "wer", "golden", "abcd0001", "pass")]


def test_a_fixed_known_failure_is_a_junit_failure_under_strict():
    strict = ET.fromstring(R.junit(_records(), R.header([], [], {"strict": True})).split("\n", 1)[1])
    assert strict.find(".//testsuite").get("failures") == "1"
    assert "now passes (--strict)" in strict.find(".//failure").get("message")
    relaxed = ET.fromstring(R.junit(_records(), R.header([], [], {"strict": False})).split("\n", 1)[1])
    assert relaxed.find(".//testsuite").get("failures") == "0" and relaxed.find(".//failure") is None


def test_a_run_that_tests_nothing_fails_with_the_reason(tmp_path, capsys):
    rc = main(["run", "--adapter", "jiwer", "--metric", "bleu", "--quiet", "--report", str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert rc == 2 and "no tests ran: jiwer implements none of bleu (it implements cer, " in err


def test_a_known_failure_folder_never_shadows_the_package(tmp_path, monkeypatch, capsys):
    # the old README recipe's --known-dir conformance/known created ./conformance/, which is
    # imported instead of this package once the working directory is on the import path
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--adapter", "jiwer", "--known-dir", "conformance/known", "--quiet"]) == 2
    assert "shadows the package 'conformance'" in capsys.readouterr().err
    assert not (tmp_path / "conformance").exists()
