"""Sequence labelling: token accuracy and entity-level precision, recall and F-beta.

Inputs: ``{"gold": [[tag, ...], ...], "pred": [[tag, ...], ...]}``, one list
of tags per sentence, plus an optional ``"tokens": [[word, ...], ...]`` of the
same shape (needed only by ``matching=pooled-type-text``).

Token accuracy (conlleval.pl ``correctTags / tokenCounter``; source document
000 part 1 ``benar_token / total_token``): the number of positions whose
predicted tag equals the gold tag, over all positions, O included. Tags are
compared as strings; no knob applies (a POS tag set works as well as a BIO one).

Entities
--------
A tag is ``O`` or a prefix and a type joined by ``-``. ``tag_format``
(fmt) ``prefix-type`` (default) splits at the FIRST hyphen (``B-ARGM-LOC`` ->
prefix B, type ARGM-LOC; conlleval.pl since 2004-01-26: ``/^([^-]*)-(.*)$/``),
``type-prefix`` at the LAST one (``ARGM-LOC-B``; seqeval ``suffix=True``).
The prefixes of each ``scheme`` (Tjong Kim Sang and Veenstra 1999, "Representing
text chunks", EACL; Ratinov and Roth 2009 for BILOU):

| scheme | prefixes | a chunk is written |
| --- | --- | --- |
| iob1 | B I | I-X I-X*, or B-X I-X* directly after a chunk of type X |
| iob2 (default) | B I | B-X I-X* |
| ioe1 | I E | I-X* I-X, or I-X* E-X directly before a chunk of type X |
| ioe2 | I E | I-X* E-X |
| iobes | B I E S | S-X, or B-X I-X* E-X |
| bilou | B I L U | U-X, or B-X I-X* L-X |

``reading`` (read) says which chunks a sequence holds:

- ``seqeval`` (default): seqeval's ``get_entities`` (``end_of_chunk`` /
  ``start_of_chunk``, mode None, "compatible with conlleval.pl" on IOB2): a chunk
  starts at token i when (prev = token i-1, O before the first token): the tag is
  B or S; or the tag is I or E and prev is O, E or S; or the tag is not O and
  prev's type differs. The open chunk ends before token i when prev is E or S;
  or prev is B or I and the tag is B, S or O; or prev is not O and the types
  differ. A sentence ends with O. This repairs invalid sequences: an I- after O
  or after another type starts a chunk; under iobes a B-X I-X without its E-X is
  a chunk. bilou is read as iobes with L = E, U = S. On B, I and O tags this is
  conlleval.pl's rule; the S tag and the boundary between an E-X and a B-X or
  S-X after it are seqeval's additions (conlleval.pl has neither).
- ``conlleval``: conlleval.pl's own ``endOfChunk``/``startOfChunk`` (version
  2004-01-26), as written. With prev and cur the (tag, type) of tokens i-1 and i
  (O and no type before the first token and after the last): the open chunk ends
  before i when (prev, cur) is (B, B), (B, O), (I, B), (I, O), (E, E), (E, I) or
  (E, O), or prev is not O and the types differ; a chunk starts at i when (prev,
  cur) is (B, B), (I, B), (O, B), (O, I), (E, E), (E, I) or (O, E), or cur is not O
  and the types differ. The script knows no S, L or U, and no boundary after an
  E before a B: on IOBES input B-X E-X B-X E-X is one chunk, and S-X S-X too
  (so papers that ran conlleval.pl on IOBES files can be reproduced).
- ``valid-only``: only chunks written as the scheme says count; the invalid
  pieces are dropped (read as O). Precisely: iob2: a chunk is B-X and the
  I-X that follow it; an I- that does not continue one is dropped. iobes: S-X
  is a chunk; B-X, the I-X after it and an E-X right after them are a chunk;
  a B-X I-X* not followed by E-X is dropped whole, as is any other I- or E-.
  bilou: iobes with L = E, U = S. iob1 (left to right): I-X continues an open
  chunk of type X, else starts one; B-X directly after a token of an open
  chunk of type X starts a new chunk, and any other B-X is dropped (read as
  O, so an I-X after it starts a chunk). ioe1 and ioe2 are the mirror images
  of iob1 and iob2: reverse the sentence, read E as B, read, reverse the
  chunks. For iob2, ioe2, iobes and bilou this is seqeval's strict mode
  (``seqeval.scheme.Tokens.entities``); for iob1 and ioe1 seqeval differs on
  some invalid sequences (its IOE1 class is marked "Todo: hasn't yet been
  able to handle some cases"), and the rule above is the one used here. The
  value was called ``strict`` until the golden-file audit: the name evoked
  seqeval's strict mode, which it is not on IOB1 and IOE1, so it is named for
  what it does; the seqeval adapter maps it to ``mode='strict'``.
  On a valid sequence (the writing of its own chunks) both readings agree.

``matching`` (match):

- ``span`` (default): an entity is (sentence, start, end, type), end
  exclusive; per type, tp = |gold entities & predicted entities| (sets),
  as conlleval.pl (a chunk is correct when both start and end agree and the
  types are equal) and seqeval.
- ``pooled-type-text``: source document 000 part 1. An entity is (type,
  surface text = its tokens joined by a space), pooled over the corpus; per
  type, tp = the number of predicted entities whose text is among the gold
  texts of that type (``cocok = sum(1 for n in pred_j if n in emas_j)``).
  A repeated text is counted once per prediction, so tp can exceed the gold
  count (recall above 1), and a prediction in the wrong place matches a gold
  entity elsewhere with the same text. Kept to reproduce the document and to
  show its flaw; it is not an entity-level metric.

Scores per type t, with tp_t, pred_t (predicted entities) and gold_t:
P_t = tp_t / pred_t, R_t = tp_t / gold_t,
F_t = (1 + beta^2) tp_t / (beta^2 gold_t + pred_t) (= (1+beta^2) P R /
(beta^2 P + R) when both are defined; van Rijsbergen's F-beta, conlleval FB1
for beta 1). ``beta`` (beta) is a rational > 0, default 1.

``average`` (avg) over the label set L: ``micro`` (default; conlleval's
overall line, seqeval ``average='micro'``): P = sum tp / sum pred,
R = sum tp / sum gold, F from the sums as above; ``macro``: the mean over L
of P_t, R_t, F_t; ``weighted``: the mean weighted by gold_t (seqeval and
scikit-learn ``average='weighted'``); types with gold_t = 0 have weight 0
and do not enter it.

``no_weight`` (nowt): a weighted average over types none of which has a gold
entity has total weight 0. ``zero-if-predicted`` (default; scikit-learn
0.22-1.2's and seqeval's rule, the classification value of the same name): P
and F are 0 when something is predicted (every prediction is wrong), R is the
zero_division value, and all three are when nothing is predicted either; ``zero-division`` (this project's rule, no published definition): the
empty weighted mean is a 0/0 for P, R and F alike.

``zero_division`` (zd): what a 0/0 becomes: ``zero`` (default; conlleval.pl
prints 0, seqeval's default), ``one`` (seqeval ``zero_division=1``),
``undefined`` (the value is Undefined, and so is an average with an
undefined term), ``exclude`` (the term is left out of a macro or weighted
average; a micro 0/0, or an average with no term left, is Undefined).

``labels`` (labels): ``all`` (default; the union of the types found in gold
and prediction) or a comma-separated list of types: the averages run over
exactly those types. A listed type that occurs nowhere has 0/0 scores (see
zero_division). Entities of types not listed are ignored by every average,
micro included (as scikit-learn's ``labels``), but still counted in the
statistics. ``all`` cannot name a type called "all".

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/tagging.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter

from .conventions import ConventionError, Knob, Metric, Result
from .exact import Undefined
from .chunks import SCHEMES, _extract_both, _shape

_CONLLEVAL = "conlleval.pl (CoNLL-2000 shared task, version 2004-01-26), startOfChunk/endOfChunk"
_SEQEVAL = "seqeval 1.2.2"
_DOCUMENT = "source document 000_28a8cb91ddee40ec.txt part 1, ekstrak_entitas() and the per-type loop"

SCHEME = Knob(
    "scheme", "the tagging scheme: which prefixes exist and how a chunk is written", "iob2",
    choices=tuple(SCHEMES),
    sources={"iob1": "Ramshaw and Marcus 1995; Tjong Kim Sang and Veenstra 1999 (EACL), IOB1",
             "iob2": "Tjong Kim Sang and Veenstra 1999, IOB2 (B- on every chunk's first token)",
             "ioe1": "Tjong Kim Sang and Veenstra 1999, IOE1",
             "ioe2": "Tjong Kim Sang and Veenstra 1999, IOE2",
             "iobes": "IOBES (S- single, E- last token); seqeval.scheme.IOBES",
             "bilou": "Ratinov and Roth 2009, BILOU; seqeval.scheme.BILOU"})
READING = Knob(
    "reading", "how chunks are read from a sequence, invalid ones included", "seqeval",
    choices=("seqeval", "conlleval", "valid-only"),
    sources={"seqeval": f"{_SEQEVAL} metrics.sequence_labeling get_entities, end_of_chunk/start_of_chunk "
                        "(mode=None): conlleval.pl's rule on B, I, O, with S and an E-then-B boundary added",
             "conlleval": f"{_CONLLEVAL}, as written: no S, L or U, no boundary between E-X and B-X",
             "valid-only": "this project's rule (no published definition for invalid tags): only chunks written "
                           "as the scheme says count, an invalid tag is read as O; for iob2, ioe2, iobes and bilou "
                           f"the same chunks as {_SEQEVAL} mode='strict' (seqeval.scheme.Tokens.entities), for iob1 "
                           "and ioe1 not (seqeval's IOB1 and IOE1 classes read some invalid sequences otherwise)"},
    key="read", renamed={"strict": "valid-only"},
    unspecified="conlleval.pl (reading=conlleval) reads invalid IOB tags its way but knows no S, E, L or U tag, "
                "and no canonical tool reads invalid IOBES or BILOU; on B, I and O tags the representative "
                "seqeval reading gives conlleval.pl's chunks")   # renamed in commit bda6dfd
TAG_FORMAT = Knob(
    "tag_format", "where the prefix is written", "prefix-type",
    choices=("prefix-type", "type-prefix"),
    sources={"prefix-type": "B-PER; split at the first hyphen as conlleval.pl /^([^-]*)-(.*)$/",
             "type-prefix": "PER-B; split at the last hyphen as seqeval suffix=True"},
    key="fmt")
AVERAGE = Knob(
    "average", "how per-type scores are combined", "micro",
    choices=("micro", "macro", "weighted"),
    sources={"micro": f"{_CONLLEVAL} overall line (counts pooled over the types)",
             "macro": f"{_SEQEVAL} average='macro' (unweighted mean over types)",
             "weighted": f"{_SEQEVAL} average='weighted' (mean weighted by gold count)"},
    key="avg")
BETA = Knob(
    "beta", "F-beta's beta (> 0); 1 gives F1", "1", kind="rational", minimum=0,
    sources={"*": "van Rijsbergen 1979 F-beta; conlleval.pl FB1; seqeval beta"})
ZERO_DIVISION = Knob(
    "zero_division", "what a 0/0 precision, recall or F becomes", "zero",
    choices=("zero", "one", "undefined", "exclude"),
    sources={"zero": f"{_CONLLEVAL} (scores default to 0.0); {_SEQEVAL} zero_division='warn'/0",
             "one": f"{_SEQEVAL} zero_division=1",
             "undefined": "the value is Undefined (scikit-learn zero_division=np.nan)",
             "exclude": "the term is left out of a macro or weighted average"},
    key="zd")
NO_WEIGHT = Knob(
    "no_weight", "a weighted average over types that all have no gold entity (weights sum to 0)",
    "zero-if-predicted", choices=("zero-if-predicted", "zero-division"),
    sources={"zero-if-predicted": "scikit-learn precision_recall_fscore_support average='weighted', weights.sum() == 0 "
                        "(sklearn/metrics/_classification.py: 'precision is zero_division if there are no positive "
                        "predictions, recall is zero_division if there are no positive labels, fscore is "
                        "zero_division if all labels AND predictions are negative'); seqeval 1.x metrics/v1.py:"
                        "174-185 alike: P and F are 0 when something is predicted, R is zero_division",
             "zero-division": "this project's rule (no published definition): the weighted mean of no weight "
                              "is a 0/0, which zero_division settles for P, R and F alike"},
    key="nowt", renamed={"sklearn": "zero-if-predicted"},
    unspecified="a gold-count-weighted mean over types that have no gold entity is a 0/0; conlleval.pl has no "
                "weighted average and no publication gives it a value")   # renamed in commit c64faa0
MATCHING = Knob(
    "matching", "what makes a predicted entity correct", "span",
    choices=("span", "pooled-type-text"),
    sources={"span": f"{_CONLLEVAL} (same start, end and type); {_SEQEVAL} (sent_id, tag, start, end) sets",
             "pooled-type-text": f"{_DOCUMENT}: cocok = sum(1 for n in pred_j if n in emas_j)"},
    key="match")


@dataclass(frozen=True)
class LabelsKnob(Knob):
    """``all`` or a comma-separated list of types; canonical text: sorted, without repeats."""

    def canonical(self, value, metric: str = "") -> str:
        where = f"{metric}.{self.name}" if metric else self.name
        items = list(value) if isinstance(value, (list, tuple)) else str(value).split(",")
        items = [str(v).strip() for v in items]
        if items == ["all"]:
            return "all"
        if not items or any(v == "" for v in items):
            raise ConventionError(f"{where}: {value!r}: write 'all' or a comma-separated list of types, none empty")
        for v in items:
            if v == "all" or "|" in v:
                raise ConventionError(f"{where}: {v!r} cannot be a listed type ('all' stands alone; no '|')")
        return ",".join(sorted(set(items)))


LABELS = LabelsKnob(
    "labels", "the types the averages run over", "all", kind="labels",
    sources={"all": "the union of the types in gold and prediction (conlleval.pl)",
             "*": "a declared list (scikit-learn labels=...): other types are ignored by the averages"})


# ------------------------------------------------------------------ scores

class _ZeroDivision:
    """A 0/0 term, resolved by the zero_division knob."""


_ZD = _ZeroDivision()


def _ratio(num: int, den: int):
    return _ZD if den == 0 else Fraction(num, den)


def _resolve(x, zd: str, what: str):
    if x is not _ZD:
        return x
    if zd == "zero":
        return Fraction(0)
    if zd == "one":
        return Fraction(1)
    return Undefined(f"{what} is 0/0")


def _f_ratio(tp, pred, gold, beta2: Fraction):
    den = beta2 * gold + pred
    return _ZD if den == 0 else (1 + beta2) * tp / den


def _scores(tp: int, pred: int, gold: int, beta2: Fraction) -> dict:
    return {"precision": _ratio(tp, pred), "recall": _ratio(tp, gold), "f1": _f_ratio(tp, pred, gold, beta2)}


def _average(kind: str, terms: list, weights: list, zd: str, what: str):
    """Macro (weights None) or weighted mean of per-type terms (Fractions or 0/0)."""
    if weights is None:
        weights = [1] * len(terms)
    kept = [(t, w) for t, w in zip(terms, weights) if w != 0]
    if zd == "exclude":
        kept = [(t, w) for t, w in kept if t is not _ZD]
    elif zd == "undefined":
        if any(t is _ZD for t, _ in kept):
            return Undefined(f"{what}: a term of the {kind} average is 0/0")
    else:
        kept = [(_resolve(t, zd, what), w) for t, w in kept]
    total_w = sum(w for _, w in kept)
    if total_w == 0:
        return _resolve(_ZD, zd if zd in ("zero", "one") else "undefined", f"{what} ({kind} average with no term)")
    return sum((Fraction(w) * t for t, w in kept), Fraction(0)) / total_w


@dataclass
class _Counts:
    labels: list
    tp: dict
    pred: dict
    gold: dict
    gold_entities: list
    pred_entities: list


def _count(inputs, settings: dict) -> _Counts | None:
    pooled = settings["matching"] == "pooled-type-text"
    gold_s, pred_s, tokens, plain = _shape(inputs, pooled)
    gold_e, pred_e = _extract_both(gold_s, pred_s, settings, plain)
    if not gold_s:
        return None
    types = sorted({e[3] for e in gold_e} | {e[3] for e in pred_e})
    labels = types if settings["labels"] == "all" else settings["labels"].split(",")
    keys = sorted(set(types) | set(labels))
    tp = {t: 0 for t in keys}
    pred = {t: 0 for t in keys}
    gold = {t: 0 for t in keys}
    if pooled:
        g_items = [(t, " ".join(tokens[i][s:e])) for i, s, e, t in gold_e]
        p_items = [(t, " ".join(tokens[i][s:e])) for i, s, e, t in pred_e]
        gold_texts = set(g_items)
        for t, _ in g_items:
            gold[t] += 1
        for t, text in p_items:
            pred[t] += 1
            if (t, text) in gold_texts:
                tp[t] += 1
        return _Counts(labels, tp, pred, gold, [list(x) for x in g_items], [list(x) for x in p_items])
    gold_set, pred_set = set(gold_e), set(pred_e)
    for counts, entities in ((gold, gold_set), (pred, pred_set), (tp, gold_set & pred_set)):
        for t, n in Counter(map(_TYPE, entities)).items():
            counts[t] += n
    return _Counts(labels, tp, pred, gold, list(map(list, gold_e)), list(map(list, pred_e)))


_TYPE = itemgetter(3)


def _stats(c: _Counts | None) -> dict:
    if c is None:
        return {"tp": {}, "pred": {}, "gold": {}, "tp_total": 0, "pred_total": 0, "gold_total": 0}
    return {"tp": dict(c.tp), "pred": dict(c.pred), "gold": dict(c.gold),
            "tp_total": sum(c.tp[t] for t in c.labels), "pred_total": sum(c.pred[t] for t in c.labels),
            "gold_total": sum(c.gold[t] for t in c.labels)}


def _averages(c: _Counts, settings: dict, beta2: Fraction, kinds=("micro", "macro", "weighted")) -> dict:
    """{'micro'|'macro'|'weighted': {'precision', 'recall', 'f1'}}, for the averages in
    ``kinds`` (a metric's value needs one; the report all three)."""
    zd = settings["zero_division"]
    tp = sum(c.tp[t] for t in c.labels)
    pred = sum(c.pred[t] for t in c.labels)
    gold = sum(c.gold[t] for t in c.labels)
    out: dict = {}
    if "micro" in kinds:
        out["micro"] = {k: _resolve(v, "undefined" if zd == "exclude" else zd, f"micro {k}")
                        for k, v in _scores(tp, pred, gold, beta2).items()}
    if "macro" not in kinds and "weighted" not in kinds:
        return out
    per = {t: _scores(c.tp[t], c.pred[t], c.gold[t], beta2) for t in c.labels}
    old_sklearn = gold == 0 and settings.get("no_weight", "zero-if-predicted") == "zero-if-predicted"
    for kind in ("macro", "weighted"):
        if kind in kinds:
            out[kind] = {}
    for k in ("precision", "recall", "f1"):
        terms = [per[t][k] for t in c.labels]
        if "macro" in kinds:
            out["macro"][k] = _average("macro", terms, None, zd, f"macro {k}")
        if "weighted" not in kinds:
            continue
        if old_sklearn and k != "recall" and pred > 0:
            out["weighted"][k] = Fraction(0)      # something predicted, nothing to find
        elif old_sklearn:
            out["weighted"][k] = _resolve(_ZD, zd if zd in ("zero", "one") else "undefined",
                                          f"weighted {k} (no gold entity: no weight)")
        else:
            out["weighted"][k] = _average("weighted", terms, [c.gold[t] for t in c.labels], zd, f"weighted {k}")
    return out


def _per_type(c: _Counts, settings: dict, beta2: Fraction) -> dict:
    zd = settings["zero_division"]
    zd_row = "undefined" if zd == "exclude" else zd
    return {t: {k: _resolve(v, zd_row, f"{t} {k}") for k, v in _scores(c.tp[t], c.pred[t], c.gold[t], beta2).items()}
            for t in c.labels}


def _beta2(settings: dict) -> Fraction:
    return Fraction(settings["beta"]) ** 2


def _entity_result(inputs, settings: dict, which: str) -> Result:
    c = _count(inputs, settings)
    if c is None:
        return Result(Undefined("no sentences"), stats=_stats(None), parts={})
    beta2 = _beta2(settings)
    avg = _averages(c, settings, beta2, (settings["average"],))[settings["average"]]
    rows = _per_type(c, settings, beta2)
    parts = {k: {t: rows[t][k] for t in c.labels} for k in ("precision", "recall", "f1")}
    parts.update({f"{k}_avg": avg[k] for k in ("precision", "recall", "f1")})
    parts.update({"labels": list(c.labels), "gold_entities": c.gold_entities, "pred_entities": c.pred_entities})
    return Result(avg[which], stats=_stats(c), parts=parts)


def compute_entity_f1(inputs, settings: dict) -> Result:
    """F-beta over entities: per type (1+b^2) tp / (b^2 gold + pred), combined by
    ``average`` (micro: from the summed counts; macro/weighted: mean of per-type F)."""
    return _entity_result(inputs, settings, "f1")


def compute_entity_precision(inputs, settings: dict) -> Result:
    """Precision over entities: per type tp / pred, combined by ``average``."""
    return _entity_result(inputs, settings, "precision")


def compute_entity_recall(inputs, settings: dict) -> Result:
    """Recall over entities: per type tp / gold, combined by ``average``."""
    return _entity_result(inputs, settings, "recall")


def compute_entity_report(inputs, settings: dict) -> Result:
    """seqeval's classification_report as exact values: per type and for the
    micro, macro and weighted averages, precision, recall, F-beta ("f1") and
    support (gold count; the sum over the label set for the average rows)."""
    c = _count(inputs, settings)
    if c is None:
        return Result(Undefined("no sentences"), stats=_stats(None), parts={})
    beta2 = _beta2(settings)
    rows = _per_type(c, settings, beta2)
    value = {t: dict(rows[t], support=c.gold[t]) for t in c.labels}
    support = sum(c.gold[t] for t in c.labels)
    for kind, avg in _averages(c, settings, beta2).items():
        value[f"{kind} avg"] = dict(avg, support=support)
    return Result(value, stats=_stats(c), parts={"labels": list(c.labels), "gold_entities": c.gold_entities,
                                                 "pred_entities": c.pred_entities})


def compute_token_accuracy(inputs, settings: dict) -> Result:
    """Token accuracy = sum_i sum_j [pred_ij == gold_ij] / sum_i |gold_i| (conlleval.pl
    correctTags/tokenCounter; document 000 part 1 benar_token/total_token)."""
    gold, pred, _, _ = _shape(inputs, False)
    correct = sum(g == p for gs, ps in zip(gold, pred) for g, p in zip(gs, ps))
    total = sum(len(gs) for gs in gold)
    value = Fraction(correct, total) if total else Undefined("no tokens")
    return Result(value, stats={"correct": correct, "total": total}, parts={})


def _normalize(settings: dict, given: set) -> dict:
    if "beta" in settings and Fraction(settings["beta"]) <= 0:
        raise ConventionError(f"beta: {settings['beta']} must be greater than 0")
    return settings


_INPUTS = {"gold": "list of sentences, each a list of gold tags",
           "pred": "list of sentences, each a list of predicted tags (same lengths as gold)",
           "tokens": "optional list of sentences of words (same shape); needed by matching=pooled-type-text"}
_ENTITY_KNOBS = (SCHEME, READING, TAG_FORMAT, AVERAGE, BETA, ZERO_DIVISION, NO_WEIGHT, LABELS, MATCHING)

def reading_inert(knob: str, a: str, b: str, settings) -> str | None:
    """reading=seqeval and reading=conlleval read the same chunks from B, I and O tags (the
    module docstring: on B, I and O tags seqeval's rule is conlleval.pl's; S, E and the E-then-B
    boundary are where they part), and schemes iob1 and iob2 accept no other prefix."""
    if knob == "reading" and {a, b} == {"seqeval", "conlleval"} and settings.get("scheme") in ("iob1", "iob2"):
        return ("under scheme=iob1 or iob2 only B, I and O tags are accepted, and on them seqeval's get_entities "
                "is conlleval.pl's endOfChunk/startOfChunk rule (checked on every sequence of up to six tags over "
                "two types: tests/test_oracle_tagging_readings.py)")
    return None


TOKEN_ACCURACY = Metric(
    name="token_accuracy", family="tagging",
    summary="Fraction of tokens whose predicted tag equals the gold tag (O included)",
    knobs=(), inputs=_INPUTS, compute_fn=compute_token_accuracy)

ENTITY_F1 = Metric(
    name="entity_f1", family="tagging",
    summary="Entity-level F-beta (chunks read from tags), micro/macro/weighted over types",
    knobs=_ENTITY_KNOBS, inputs=_INPUTS, compute_fn=compute_entity_f1, normalize_fn=_normalize,
    inert_fn=reading_inert)

ENTITY_PRECISION = Metric(
    name="entity_precision", family="tagging",
    summary="Entity-level precision (chunks read from tags), micro/macro/weighted over types",
    knobs=_ENTITY_KNOBS, inputs=_INPUTS, compute_fn=compute_entity_precision, normalize_fn=_normalize,
    inert_fn=reading_inert)

ENTITY_RECALL = Metric(
    name="entity_recall", family="tagging",
    summary="Entity-level recall (chunks read from tags), micro/macro/weighted over types",
    knobs=_ENTITY_KNOBS, inputs=_INPUTS, compute_fn=compute_entity_recall, normalize_fn=_normalize,
    inert_fn=reading_inert)

ENTITY_REPORT = Metric(
    name="entity_report", family="tagging",
    summary="Per-type and averaged entity precision, recall, F-beta and support (a classification report)",
    knobs=tuple(k for k in _ENTITY_KNOBS if k is not AVERAGE), inputs=_INPUTS,
    compute_fn=compute_entity_report, normalize_fn=_normalize, inert_fn=reading_inert)
