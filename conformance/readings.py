"""How a tool reads a text file into segments: a reading is a convention of each reader,
and the anchors read differently.

A byte-order mark, a carriage return and trailing whitespace are part of a file's text
or not depending on who reads it; a figure computed from the same files differs with
the reading (on sacrebleu's WMT17 online-A files, whose reference starts with a mark,
BLEU is 20.7965 read as sacrebleu reads, 20.7967 with the mark stripped). Each
reading names its source:

| reading | bytes | line breaks | each line | source |
| --- | --- | --- | --- | --- |
| ``sacrebleu`` | UTF-8, a leading byte-order mark kept (part of the first token) | ``\\n`` only (a ``\\r`` stays in the line) | trailing whitespace removed (``str.rstrip``: ``\\r``, spaces, tabs, Unicode spaces) | sacrebleu 2.x ``utils.smart_open`` (``open(..., encoding='utf-8', newline='\\n')``) and ``sacrebleu.py``'s ``line.rstrip()`` for references and system output |
| ``jiwer`` | UTF-8, the mark kept | ``\\n``, ``\\r\\n`` and ``\\r`` (universal newlines) | whitespace removed at both ends (``str.strip``); a line of at most one character after that is dropped | jiwer 3.x/4.x ``cli.py``: ``[ln.strip() for ln in f.readlines() if len(ln.strip()) > 1]`` |
| ``plain`` | UTF-8, a leading mark removed | ``\\n``, and ``\\r\\n`` as one break | as written | this project's reading of a segment file: the text, nothing else |

``score`` reads text files as the anchor of the measure reads them (BLEU and chrF:
sacrebleu; the error rates: jiwer's command line) unless ``--reading`` says otherwise,
and says which reading it used; ``audit`` tries every reading the claim does not rule
out and says which one reproduces the figure.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    name: str
    keep_bom: bool
    universal_newlines: bool
    strip: str            # "none", "right" or "both"
    drop_short: bool      # jiwer: a line of at most one character (after the strip) is not a segment
    summary: str
    source: str


READINGS = {
    "sacrebleu": Reading("sacrebleu", True, False, "right", False,
                         "UTF-8 with a byte-order mark kept, lines split at \\n, trailing whitespace removed",
                         "sacrebleu 2.x utils.smart_open (newline='\\n') and sacrebleu.py line.rstrip()"),
    "jiwer": Reading("jiwer", True, True, "both", True,
                     "UTF-8 with a byte-order mark kept, universal newlines, whitespace removed at both ends, "
                     "lines of at most one character dropped",
                     "jiwer cli.py: [ln.strip() for ln in f.readlines() if len(ln.strip()) > 1]"),
    "rouge-score": Reading("rouge-score", True, True, "none", False,
                           "UTF-8 with a byte-order mark kept, universal newlines, one summary per line, nothing "
                           "stripped",
                           "rouge-score io.py _record_gen: open(filename).read().split('\\n'), the empty record after "
                           "the final newline dropped"),
    "plain": Reading("plain", False, False, "none", False,
                     "UTF-8 with a leading byte-order mark removed, lines split at \\n or \\r\\n, nothing stripped",
                     "the file's text as written"),
}

# the anchor tool whose reading ``score`` imitates, per measure
ANCHOR = {"bleu": "sacrebleu", "sentence_bleu": "sacrebleu", "chrf": "sacrebleu", "ter": "sacrebleu",
          "wer": "jiwer", "cer": "jiwer", "mer": "jiwer", "wil": "jiwer", "wip": "jiwer",
          "rouge_n": "rouge-score", "rouge_l": "rouge-score", "rouge_lsum": "rouge-score"}


def default_reading(metric: str) -> str:
    """The reading of the tool ``score`` imitates for ``metric`` (``plain`` for the others)."""
    return ANCHOR.get(metric, "plain")


def reading(name: str) -> Reading:
    from oracle.conventions import InputError, nearest
    if name not in READINGS:
        raise InputError(f"reading: unknown reading {name!r}; readings are {', '.join(READINGS)}"
                         + nearest(name, READINGS), item="reading")
    return READINGS[name]


def segments(text: str, how: Reading) -> tuple[list[str], list[int]]:
    """The segments of a decoded file's ``text`` under the reading ``how``, and the
    (1-based) numbers of the lines it dropped. A final line break ends the last line
    (it does not start an empty one), as every reader above has it."""
    if text.startswith("\ufeff") and not how.keep_bom:
        text = text[1:]
    if how.universal_newlines:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not how.universal_newlines and how.strip == "none":
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if how.strip == "right":
        lines = [ln.rstrip() for ln in lines]
    elif how.strip == "both":
        lines = [ln.strip() for ln in lines]
    dropped: list[int] = []
    if how.drop_short:
        kept = []
        for i, ln in enumerate(lines, 1):
            (kept.append(ln) if len(ln) > 1 else dropped.append(i))
        lines = kept
    return lines, dropped
