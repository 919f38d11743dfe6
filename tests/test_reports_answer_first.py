"""Every report answers first: who is wrong where, by how much. The console, the Markdown
report and the HTML page open with one line per library (its unexpected failures, its
worst known defect with the distance, its divergences by knob); a page written with
--html never replaces another report."""
from __future__ import annotations

from conformance.reports import html as H
from conformance.reports import writers as R
from conformance.reports.records import Record


def _records() -> list[Record]:
    base = dict(library="lib", version="1.0", metric="wer")
    return [
        Record(adapter="lib", kind="golden", test="ok1", outcome="pass", **base),
        Record(adapter="lib", kind="golden", test="bad1", outcome="fail", exact="1/2", library_value=0.6, **base),
        Record(adapter="lib", kind="golden", test="k-near", outcome="known-failure", exact="1", library_value=0.99,
               known_failure="lib-wer-0001", known_title="near", comparison={"rel_err": "0.01", "abs_err": "0.01"},
               **base),
        Record(adapter="lib", kind="golden", test="k-far", outcome="known-failure", exact="0", library_value=1.5,
               known_failure="lib-wer-0002", known_title="far", comparison={"rel_err": "inf", "abs_err": "1.5"},
               **base),
        Record(adapter="lib", kind="golden", test="d1", outcome="divergence", material={"case": ["lower", "mixed"]},
               **base),
        Record(adapter="other", library="other", version="2.0", metric="wer", kind="golden", test="ok1",
               outcome="pass"),
    ]


def _head() -> dict:
    return R.header([{"name": "lib", "library": "lib", "version": "1.0", "homepage": ""},
                     {"name": "other", "library": "other", "version": "2.0", "homepage": ""}], [],
                    {"examples": 1, "metrics": None, "strict": False})


def test_the_console_opens_with_the_answer():
    lines = R.console(_records(), _head()).splitlines()
    assert lines[0] == "Summary: 1 unexpected failure(s) across 2 libraries"
    lib = lines[1]
    assert "1 UNEXPECTED: wer golden bad1 (fail)" in lib
    assert "2 known failure(s), the worst wer golden k-far (library 1.5, exact 0, |error| 1.5)" in lib
    assert "divergences by knob: case 1" in lib
    assert "other (other 2.0): no unexpected failure;" in lines[2] and "no divergence" in lines[2]


def test_the_markdown_reports_first_screen_is_the_answer():
    first = R.markdown(_records(), _head()).splitlines()[:8]
    assert "**Summary: 1 unexpected failure(s) across 2 libraries**" in first
    assert any("UNEXPECTED: wer golden bad1" in l and "the worst wer golden k-far" in l for l in first)


def test_the_html_page_opens_with_a_grid_of_worst_findings():
    page = H.matrix(_records(), _head())
    grid, rest = page.split("<h2>Every check</h2>", 1)
    assert '<table class="grid">' in grid and "width:100%" in page
    assert "1 unexpected: golden bad1 (library 0.6, exact 1/2)" in grid
    assert "<b>pass</b> 1 checks pass" in grid


def test_a_page_without_report_writes_its_jsonl_beside_it(tmp_path, monkeypatch):
    from conformance.cli import main
    monkeypatch.chdir(tmp_path)
    main(["run", "--adapter", "jiwer", "--metric", "wer", "--examples", "1", "--no-bad-input", "--quiet",
          "--html", "page.html"])
    assert (tmp_path / "page.jsonl").is_file() and not (tmp_path / "reports" / "conformance.jsonl").exists()
