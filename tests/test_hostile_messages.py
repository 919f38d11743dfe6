"""A library's message is text to show, never markup or terminal control: every report
format holds a hostile message (an ANSI colour, a NUL, a carriage return, HTML, a
javascript: link, a Markdown fence) as inert text, and the JUnit XML still parses (it
did not with a NUL or an escape character; pytest's own --junitxml copes)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance.reports import writers as R
from conformance.reports.records import Record

HOSTILE = "\x1b[31mred\x1b[0m\x00nul\rback <script>alert(1)</script> [x](javascript:alert(1)) ```\n# heading"


def _records() -> list[Record]:
    fail = Record(adapter="evil", library="evil", version="1.0", metric="wer", kind="golden", test="t1",
                  outcome="fail", message=HOSTILE, explanation=HOSTILE, library_value=HOSTILE,
                  inputs={"references": [HOSTILE], "hypotheses": ["a"]}, exact="1")
    err = Record(adapter="evil", library="evil", version="1.0", metric="wer", kind="property", test="t2",
                 outcome="error", message=HOSTILE, library_value=HOSTILE)
    div = Record(adapter="evil", library="evil", version="1.0", metric="wer", kind="divergence", test="case",
                 outcome="divergence", message=HOSTILE, material={"case": ["lower", "mixed"]},
                 inputs={"references": [HOSTILE], "hypotheses": ["a"]}, exact="1", case_exact="0",
                 library_value=HOSTILE, source=HOSTILE)
    return [fail, err, div]


def _head() -> dict:
    return R.header([{"name": "evil", "library": "evil", "version": "1.0", "homepage": HOSTILE}],
                    [("other", HOSTILE)], {"examples": 1, "metrics": None, "strict": False})


def test_console_has_no_control_character():
    text = R.console(_records(), _head(), verbose=True)
    assert "\x1b" not in text and "\x00" not in text and "\r" not in text
    assert "\\x1b[31mred" in text   # shown, escaped


def test_junit_parses_and_keeps_the_message_readable():
    xml = R.junit(_records(), _head())
    root = ET.fromstring(xml.split("\n", 1)[1])
    failure = root.find(".//failure")
    assert failure is not None and "\\x1b[31mred" in failure.get("message") and "\\x00nul" in failure.get("message")


def test_markdown_renders_no_html_link_or_escaped_fence():
    md = R.markdown(_records(), _head())
    assert "\x1b" not in md and "\x00" not in md
    outside, inside = [], False
    for ln in md.splitlines():
        if ln.startswith("```"):
            assert ln == "```"   # a fence line is the report's own: no library text on it
            inside = not inside
            continue
        (outside if not inside else []).append(ln)
    assert not inside   # every block closed
    text = "\n".join(outside)
    import re
    assert "<script>" not in text
    assert not re.search(r"(?<!\\)\]\(javascript:", text)   # an escaped \] starts no link
    # headings are the report's own: no library text starts one
    assert [ln for ln in outside if ln.startswith("#")] == \
        [ln for ln in outside if ln.startswith(("# metric-conformance", "## ", "### "))]
    assert "\n# heading" not in text


def _case_file(tmp_path, **changes) -> str:
    import json
    case = {"id": "00000000", "description": "By hand: two of three agree.", "source": {"reference": "by hand"},
            "tags": ["accuracy"], "metric": "accuracy", "inputs": {"y_true": [1, 0, 1], "y_pred": [1, 1, 1]},
            "expected": {"value": "2/3", "derivation": "2 of 3"}}
    case.update(changes)
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"format": "metric-conformance-cases", "version": 1, "title": "t", "cases": [case]}))
    return str(path)


BIG = "k" * 5_000_000


def test_a_5_mb_item_is_named_not_echoed_by_check_and_run(tmp_path, capsys):
    """A 5 MB knob name or case id was printed whole in the error naming it (5 MB on the
    console); the message names its start and its length."""
    from conformance.cli import main
    for changes in ({"conventions": {BIG: "x"}}, {"id": BIG}):
        path = _case_file(tmp_path, **changes)
        assert main(["check", path]) != 0
        main(["run", "--adapter", "sklearn", "--cases", path, "--metric", "accuracy", "--no-bad-input",
              "--examples", "1", "--quiet", "--report", str(tmp_path / "r.jsonl")])
        out = capsys.readouterr()
        text = out.out + out.err
        assert len(text) < 20_000 and "kkkk" in text, len(text)
        assert "characters not shown" in text
