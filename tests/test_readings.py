"""A reading is how a tool reads a text file into segments (conformance.readings): the
byte-order mark, the line breaks and the whitespace at a line's ends. Each reading by
hand from its tool's source, then ``score`` and ``audit`` against the anchors' own
command lines on the same files."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conformance.cli import main
from conformance.readings import READINGS, segments

# a mark, a CRLF, a line of one character, spaces at both ends, a lone \r inside a line
TEXT = "\ufeffthe cat\r\nx\r\n  two  words \t\nlone\rcarriage\n"


def test_sacrebleu_keeps_the_mark_splits_at_newline_and_strips_the_right():
    # open(newline="\n") splits at \n only; line.rstrip() takes the \r, spaces and the tab
    assert segments(TEXT, READINGS["sacrebleu"]) == (["\ufeffthe cat", "x", "  two  words", "lone\rcarriage"], [])


def test_jiwer_keeps_the_mark_reads_universal_newlines_strips_both_ends_and_drops_short_lines():
    # open("r"): \r\n and a lone \r are line breaks; ln.strip(); len(ln.strip()) > 1 keeps a line
    assert segments(TEXT, READINGS["jiwer"]) == (["\ufeffthe cat", "two  words", "lone", "carriage"], [2])


def test_plain_drops_the_mark_and_the_crlf_and_keeps_the_rest():
    assert segments(TEXT, READINGS["plain"]) == (["the cat", "x", "  two  words \t", "lone\rcarriage"], [])


@pytest.fixture
def bom_files(tmp_path):
    # the reference starts with a byte-order mark, as sacrebleu's WMT17 reference files do
    (tmp_path / "ref.txt").write_bytes("\ufeffThe cat sat on the mat .\r\nHello world  \n".encode())
    (tmp_path / "hyp.txt").write_bytes(b"The cat sat on a mat .\nhello world\n")
    return tmp_path


def _value(capsys, *argv) -> str:
    assert main(["score", *argv]) == 0
    return [l for l in capsys.readouterr().out.splitlines() if l and not l.startswith("#")][0].split("\t")[2]


@pytest.mark.skipif(shutil.which("sacrebleu") is None and not __import__("importlib").util.find_spec("sacrebleu"),
                    reason="sacrebleu is not installed")
def test_score_prints_what_the_sacrebleu_command_prints_on_a_file_with_a_mark(bom_files, capsys):
    """sacrebleu's README's first command, ``sacrebleu REF -i HYP -m bleu -b -w 4``, against
    ``score`` with sacrebleu's smoothing on the same files: the same figure (with the mark
    stripped, BLEU is 45.9150 under no smoothing; the mark makes "The" of the first
    reference "\\ufeffThe", which the hypothesis does not match)."""
    ref, hyp = str(bom_files / "ref.txt"), str(bom_files / "hyp.txt")
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-m", "bleu", "-b", "-w", "4"],
                            capture_output=True, text=True, check=True).stdout.strip()
    ours = _value(capsys, "-m", "bleu", "-r", ref, "-i", hyp, "--digits", "4", "--conventions",
                  '{"smoothing": "exp"}')
    assert ours == theirs
    plain = _value(capsys, "-m", "bleu", "-r", ref, "-i", hyp, "--digits", "4", "--conventions",
                   '{"smoothing": "exp"}', "--reading", "plain")
    assert plain != theirs


@pytest.mark.skipif(not __import__("importlib").util.find_spec("jiwer"), reason="jiwer is not installed")
def test_score_prints_what_the_jiwer_command_prints(tmp_path, capsys):
    """jiwer's command line, ``jiwer -r REF -h HYP``: a mark, CRLF, spaces at the ends and a
    one-character line (which jiwer's reader drops from each file)."""
    (tmp_path / "r.txt").write_bytes("\ufeffthe cat sat\r\na\r\n  hello world  \r\nfoo bar\n".encode())
    (tmp_path / "h.txt").write_bytes(b"the cat sit\nb\nhello word\nfoo bar baz\n")
    r, h = str(tmp_path / "r.txt"), str(tmp_path / "h.txt")
    theirs = subprocess.run([sys.executable, "-c", "from jiwer.cli import cli; cli()", "-r", r, "-h", h],
                            capture_output=True, text=True, check=True).stdout.strip()
    ours = _value(capsys, "-m", "wer", "-r", r, "-h", h, "--digits", "16")
    assert ours == theirs   # 4/7: the 7 reference words of the three lines kept; 4 errors


def test_score_flags_where_its_default_differs_from_the_anchors(bom_files, capsys):
    assert main(["score", "-m", "bleu", "-r", str(bom_files / "ref.txt"), "-i", str(bom_files / "hyp.txt")]) == 0
    out = capsys.readouterr().out
    assert "files read as sacrebleu reads them" in out
    assert "smoothing=none (the canonical default) where sacrebleu 2.x's default is smoothing=exp" in out


def test_audit_names_the_reading_that_reproduces_a_figure(bom_files):
    """45.9150 is BLEU with the mark stripped (no smoothing: 45.9150); read as sacrebleu reads
    the files it is 0, so only the undeclared reading=plain reproduces it."""
    from conformance.audit import audit, parse_claim
    a = audit(parse_claim(["BLEU", "45.9150", f"hyp={bom_files / 'hyp.txt'}", f"ref={bom_files / 'ref.txt'}"]))
    assert a.verdict == "consistent only under undeclared settings"
    assert [r.differs for r in a.reproducing] == [{"reading": "plain"}]
    stated = audit(parse_claim(["BLEU", "45.9150", f"hyp={bom_files / 'hyp.txt'}", f"ref={bom_files / 'ref.txt'}",
                                "reading=plain"]))
    assert stated.verdict == "consistent"
