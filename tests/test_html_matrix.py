"""The conformance matrix page (run --html): one static, well-formed HTML page with no
script and no external asset, one column per library, a group of rows per metric, each
cell coloured by outcome and opening on the check's details."""
from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from conformance.cli import main

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "source", "wbr"}


class _Strict(HTMLParser):
    """Every non-void element closed in order; no script, no external reference."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.tags = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self.problems.append("a script")
        for k, v in attrs:
            if k in ("src", "href") and v and not v.startswith("#"):
                self.problems.append(f"an external reference {v}")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "matrix.html"
    rc = main(["run", "--adapter", "tests.inhouse_text:bleu2_without_clipping", "--adapter",
               "tests.inhouse_text:document_bleu2", "--metric", "bleu", "--examples", "10", "--quiet",
               "--html", str(out), "--report", str(out.with_suffix(".jsonl"))])
    assert rc == 1   # both in-house functions have defects
    return out


def test_the_page_is_well_formed_and_self_contained(page):
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>")
    p = _Strict()
    p.feed(text)
    p.close()
    assert not p.problems and not p.stack, (p.problems[:5], p.stack[-5:])


def test_libraries_are_columns_and_cells_open_on_details(page):
    text = page.read_text()
    header = re.search(r"<thead>(.*?)</thead>", text, re.S).group(1)
    assert "bleu2-without-clipping" in header and "document-bleu2" in header
    assert '<tr class="metric"><th colspan="3" id="m-bleu">bleu</th></tr>' in text
    # the clipping defect: a failing property cell carrying its minimal input and replay command
    fail = re.search(r'<td class="cell o-fail"><details><summary>FAIL</summary>(.*?)</details></td>', text, re.S)
    assert fail and "<dt>input</dt>" in fail.group(1) and "metric-conformance compare" in fail.group(1)
    assert text.count("<tr>") >= 5 and 'class="cell o-pass"' in text


@pytest.mark.skipif(not (shutil.which("chromium") or shutil.which("chromium-browser")),
                    reason="headless Chromium is not installed (apt-get install chromium)")
def test_the_page_renders_in_a_headless_browser(page, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    shot = tmp_path / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                    "--window-size=1200,800", page.as_uri()], capture_output=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 10_000


def test_markdown_lines_stay_short_with_the_whole_text_beside(tmp_path):
    """A Markdown report inlined whole inputs (jiwer's was 97 KB with 8,000-character
    lines): a line past 400 characters is cut, and kept whole in FILE.long.json."""
    import json
    from conformance.reports import writers as R
    from conformance.reports.records import Record
    long_input = {"references": ["word " * 2000], "hypotheses": ["word " * 1999]}
    r = Record("jiwer", "jiwer", "4.0.0", "wer", "golden", "abcd0001", "fail", exact="1/2000",
               library_value=0.0005, inputs=long_input)
    md = tmp_path / "r.md"
    R.write_all([r], R.header([], [], {}), md=md)
    lines = md.read_text().splitlines()
    assert max(map(len, lines)) < 400
    whole = json.loads((tmp_path / "r.md.long.json").read_text())
    (digest, text), = whole.items()
    assert any(digest in l for l in lines) and text == "input:       " + json.dumps(long_input, ensure_ascii=False)


def test_divergence_lines_of_the_markdown_report_stay_short(tmp_path):
    import json
    from conformance.reports import writers as R
    from conformance.reports.records import Record
    r = Record("seqeval", "seqeval", "1.2.2", "entity_report", "golden", "01414523", "divergence",
               exact="{...}", case_exact="{...}", library_value={"ORG%d" % k: {"f1": 0.5} for k in range(40)},
               material={"matching": ["pooled-type-text", "span"]})
    md = tmp_path / "r.md"
    R.write_all([r], R.header([], [], {}), md=md)
    assert max(map(len, md.read_text().splitlines())) < 400
    assert json.loads((tmp_path / "r.md.long.json").read_text())

