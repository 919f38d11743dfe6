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
    """(hypotheses, references) of a ``bleu`` input; references[i] lists the refs of hypothesis i
    (a text where the list belongs is kept a text, for the library to see the mistake)."""
    return list(inputs["hypotheses"]), [r if isinstance(r, str) else list(r) for r in inputs["references"]]


def sentence_inputs(inputs: Mapping) -> tuple[str, list]:
    """(hypothesis, references) of a ``sentence_bleu`` input (references given as one text
    where the list belongs stay that text, the library's to refuse)."""
    refs = inputs["references"]
    return inputs["hypothesis"], refs if isinstance(refs, str) else list(refs)


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


def oracle_on_texts(metric, settings, inputs, change):
    """The oracle's value with every text passed through ``change`` first."""
    from oracle.registry import compute
    new = dict(inputs)
    for key in ("hypotheses", "references", "hypothesis"):
        if key not in inputs:
            continue
        v = inputs[key]
        if isinstance(v, str):
            new[key] = change(v)
        elif key == "references" and "hypotheses" in inputs:
            new[key] = [[change(r) for r in rs] for rs in v]
        else:
            new[key] = [change(x) for x in v]
    return compute(metric, new, settings).value


def all_texts(metric, inputs) -> list:
    hyps, refs = segments(metric, inputs)
    return list(hyps) + [r for rs in refs for r in rs]


V14_ENTITIES = ("&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>")


def intl_entities(metric, settings, inputs) -> bool:
    """sacrebleu's TokenizerV14International (and torchmetrics' copy of it) skips mteval-v14's
    ``<skipped>`` removal and entity unescaping (sacrebleu's docstring, issue #138).
    Applies: tokenizer intl and a text holding one of &quot; &amp; &lt; &gt; &apos;
    <skipped> (after lowercasing, when case=lower)."""
    if settings.get("tokenizer") != "intl":
        return False
    for text in all_texts(metric, inputs):
        if settings.get("case") == "lower":
            text = text.lower()
        if any(e in text for e in V14_ENTITIES):
            return True
    return False


# & (Po), < and > (Sm) replaced by characters of the same Unicode classes, which
# mteval-v14's international tokenization splits alike and never unescapes or deletes
_STAND_INS = {"&": "\u00b6", "<": "\u2213", ">": "\u2214"}


def intl_without_entities(metric, settings, inputs):
    """The value without mteval-v14's entity unescaping and ``<skipped>`` removal: the
    oracle's on texts whose ``&``, ``<`` and ``>`` are stand-ins of the same Unicode class
    (pilcrow, Po; minus-or-plus and dot-plus, Sm), so that the tokenizer splits them as it
    splits the originals and no entity or ``<skipped>`` is left to rewrite. None where a
    text already holds a stand-in."""
    if any(ch in t for t in all_texts(metric, inputs) for ch in _STAND_INS.values()):
        return None
    table = str.maketrans(_STAND_INS)
    return oracle_on_texts(metric, settings, inputs, lambda t: t.translate(table))
