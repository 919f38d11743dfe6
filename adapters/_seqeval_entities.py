"""How seqeval reads entities: its own extraction, as its scores use it (the default
mode's ``get_entities`` over the corpus, strict mode's ``Tokens``), and the era bounds
of its API. Shared by the adapter (``adapters/seqeval.py``) and the models of its old
releases' defects (``adapters/_seqeval_history.py``)."""
from __future__ import annotations

import warnings
from typing import Mapping

_NO_MODE = "<1.2.0"      # score functions without mode, scheme, zero_division (average ignored)
_NO_SCHEME = "<1.0.0"    # no seqeval.scheme, no v1, a text-only classification_report

SCHEME_CLASSES = {"iob1": "IOB1", "iob2": "IOB2", "ioe1": "IOE1", "ioe2": "IOE2", "iobes": "IOBES",
                  "bilou": "BILOU"}
_SCORE = {"entity_precision": 0, "entity_recall": 1, "entity_f1": 2}


def _scheme_class(scheme: str):
    from seqeval import scheme as S
    return getattr(S, SCHEME_CLASSES[scheme])


def library_entities(options: Mapping, sentences: list) -> list[tuple[int, int, int, str]]:
    """The entities (sentence, start, end exclusive, type) seqeval's scores count: in the
    default mode ``get_entities`` over the corpus joined with an ``O`` after each sentence
    (its own flattening), in strict mode ``Tokens(...).entities`` sentence by sentence."""
    from seqeval.metrics.sequence_labeling import get_entities

    sentences = [list(s) for s in sentences]
    out = []
    if options["strict"]:
        from seqeval.scheme import Tokens
        cls = _scheme_class(options["scheme"])
        for i, s in enumerate(sentences):
            out.extend((i, e.start, e.end, e.tag) for e in Tokens(s, cls, suffix=options["suffix"]).entities)
        return out
    starts, pos = [], 0
    for s in sentences:
        starts.append(pos)
        pos += len(s) + 1
    for typ, start, end in get_entities(sentences, options["suffix"]) if sentences else []:
        i = max(k for k, p in enumerate(starts) if p <= start)
        out.append((i, start - starts[i], end + 1 - starts[i], typ))
    return out


def library_stats(options: Mapping, y_true: list, y_pred: list) -> dict:
    """Per-type tp, pred and gold counts of seqeval's own entity sets, and their totals
    (the oracle's statistic names)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold = set(library_entities(options, y_true))
        pred = set(library_entities(options, y_pred))
    types = sorted({e[3] for e in gold | pred})
    tp = {t: sum(1 for e in pred & gold if e[3] == t) for t in types}
    np_ = {t: sum(1 for e in pred if e[3] == t) for t in types}
    ng = {t: sum(1 for e in gold if e[3] == t) for t in types}
    return {"tp": tp, "pred": np_, "gold": ng, "tp_total": sum(tp.values()), "pred_total": sum(np_.values()),
            "gold_total": sum(ng.values())}


def _sentences(inputs: Mapping) -> list:
    return [list(s) for k in ("gold", "pred") for s in inputs.get(k, ())]


def _library_options(settings: Mapping) -> dict:
    """The options ``library_entities`` reads, from a knob setting."""
    return {"strict": settings.get("reading") == "valid-only", "scheme": settings.get("scheme", "iob2"),
            "suffix": settings.get("tag_format") == "type-prefix"}
