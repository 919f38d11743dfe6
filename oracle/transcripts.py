"""Transcripts as the error-rate metrics read them (``oracle.error_rates``): the checked
inputs, and the word and character tokens under the case, punctuation, whitespace,
tokenize and unit knobs."""
from __future__ import annotations

import re
import unicodedata

from .graphemes import graphemes
from .input_checks import parallel_lists, strings

# ------------------------------------------------------------------ text

_WS_RUNS = re.compile(r"\s\s+")


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "P"


def _transform(text: str, settings: dict) -> str:
    if settings["case"] == "lower":
        text = text.lower()
    if settings["punctuation"] == "remove":
        text = "".join(ch for ch in text if not _is_punct(ch))
    return text


def words(text: str, settings: dict) -> list[str]:
    """The word tokens of ``text`` under the case, punctuation and tokenize knobs."""
    text = _transform(text, settings)
    tok = settings["tokenize"]
    if tok == "whitespace":
        return text.split()
    if tok == "spaces":
        return [w for w in text.split(" ") if w]
    return [w for w in _WS_RUNS.sub(" ", text).strip().split(" ") if w]


def characters(text: str, settings: dict) -> list[str]:
    """The character tokens of ``text`` under case, punctuation, whitespace and unit."""
    text = _transform(text, settings)
    ws = settings["whitespace"]
    if ws == "strip":
        text = text.strip()
    elif ws == "collapse":
        text = " ".join(text.split())
    elif ws == "remove":
        text = "".join(ch for ch in text if not ch.isspace())
    unit = settings["unit"]
    if unit == "nfc-codepoint":
        return list(unicodedata.normalize("NFC", text))
    if unit == "grapheme":
        return graphemes(text)
    return list(text)


# ------------------------------------------------------------ inputs

def _check_inputs(inputs) -> tuple[list, list]:
    refs, hyps = parallel_lists(inputs, ("references", "hypotheses"), "hypotheses",
                                kinds=("a list of strings", "a list of strings"))
    strings(refs, "references")
    strings(hyps, "hypotheses")
    return refs, hyps
