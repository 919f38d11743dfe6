"""Transcripts as the error-rate metrics read them (``oracle.error_rates``): the checked
inputs, and the word and character tokens under the case, punctuation, whitespace,
tokenize and unit knobs."""
from __future__ import annotations

import re
import unicodedata

from .conventions import InputError
from .graphemes import graphemes

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
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with references and hypotheses, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - {"references", "hypotheses"})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are references, hypotheses", item=unknown[0])
    for name in ("references", "hypotheses"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
        if not isinstance(inputs[name], (list, tuple)):
            raise InputError(f"{name}: expected a list of strings, got {type(inputs[name]).__name__}", item=name)
    refs, hyps = list(inputs["references"]), list(inputs["hypotheses"])
    if len(refs) != len(hyps):
        raise InputError(f"hypotheses: {len(hyps)} items but references has {len(refs)}", item="hypotheses")
    for name, items in (("references", refs), ("hypotheses", hyps)):
        for i, x in enumerate(items):
            if not isinstance(x, str):
                raise InputError(f"{name}[{i}]: expected a string, got {type(x).__name__}", item=f"{name}[{i}]")
    return refs, hyps
