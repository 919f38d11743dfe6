"""Shared by the BLEU adapters: reading the oracle's input shapes and knob texts."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping


def bleu_profiles(tokenizer: str, smoothing: str, scale: str, sentence_effective_order: str = "no",
                  no_match: str = "smooth") -> dict:
    """The ``bleu`` and ``sentence_bleu`` profiles of a BLEU library: order 4, uniform
    weights, closest reference length (ties to the shorter), mixed case, the given
    tokenizer, smoothing, no-match rule and scale; corpus BLEU without effective order."""
    base = {"tokenizer": tokenizer, "case": "mixed", "order": "4", "weights": "uniform",
            "ref_length": "closest-shorter", "smoothing": smoothing, "no_match": no_match, "scale": scale}
    return {"bleu": {**base, "effective_order": "no", "level": "corpus"},
            "sentence_bleu": {**base, "effective_order": sentence_effective_order}}


def bleu_inputs(inputs: Mapping) -> tuple[list, list]:
    """(hypotheses, references) of a ``bleu`` input; references[i] lists the refs of hypothesis i."""
    return list(inputs["hypotheses"]), [list(r) for r in inputs["references"]]


def sentence_inputs(inputs: Mapping) -> tuple[str, list]:
    """(hypothesis, references) of a ``sentence_bleu`` input."""
    return inputs["hypothesis"], list(inputs["references"])


def segments(metric: str, inputs: Mapping) -> tuple[list, list]:
    """Both metrics as a corpus: ([hypothesis...], [[reference...]...])."""
    if metric == "sentence_bleu":
        hyp, refs = sentence_inputs(inputs)
        return [hyp], [refs]
    return bleu_inputs(inputs)


def weight_list(value: str, order: int) -> list[Fraction]:
    """The N weights a ``weights`` knob text stands for."""
    if value == "uniform":
        return [Fraction(1, order)] * order
    return [Fraction(w) for w in value.split(",")]


def uniform_weights(value: str, order) -> bool:
    """True when the weights are 1/N for each of the N orders."""
    n = int(order)
    if value == "uniform":
        return True
    try:
        ws = weight_list(value, n)
    except (ValueError, ZeroDivisionError):
        return False
    return len(ws) == n and all(w == Fraction(1, n) for w in ws)
