"""Named-entity evaluation with partial matches: the SemEval-2013 task 9.1 schemas.

Inputs: as the tagging metrics (``{"gold": [[tag, ...], ...], "pred": [[tag,
...], ...]}``); entities are read from the tags with the same ``scheme``,
``reading`` and ``tag_format`` knobs (oracle.tagging, oracle.chunks).

Source: Segura-Bedmar, Martinez and Herrero-Zazo 2013, "SemEval-2013 Task 9:
Extraction of Drug-Drug Interactions from Biomedical Texts", section 4.1
(evaluation of task 9.1, drug name recognition), after Chinchor and Sundheim
1993 (MUC-5, "MUC-5 evaluation metrics"). Each predicted and gold entity
falls in one of five categories: correct (COR), incorrect (INC), partial
(PAR), missing (MIS, a gold entity no prediction is paired with) and spurious
(SPU, a prediction paired with no gold entity). With POS = COR + INC + PAR +
MIS (the gold entities) and ACT = COR + INC + PAR + SPU (the predictions):

| ``schema`` | COR when paired entities | else, overlapping: | P | R |
| --- | --- | --- | --- | --- |
| strict | have the same boundaries and type | INC | COR / ACT | COR / POS |
| exact | have the same boundaries (any type) | INC | COR / ACT | COR / POS |
| partial | have the same boundaries (any type) | PAR | (COR + PAR/2) / ACT | (COR + PAR/2) / POS |
| type | overlap and have the same type | INC | COR / ACT | COR / POS |

F1 = 2 P R / (P + R) (0 when P + R = 0). (In the type schema PAR is always 0,
so the partial formula that nervaluate applies to it gives the same value.)

Overlap: two entities overlap when they share at least one token and the
shared tokens are at least ``min_overlap`` of the gold entity's tokens
(``min_overlap`` is a rational in [0, 1]; 0, the default, is SemEval's "some
overlap"; nervaluate's ``min_overlap_percentage=1.0``, its default, is 1/100
here: with gold entities of at most 100 tokens it is the same rule).

Pairing (the paper does not say how a prediction that overlaps several gold
entities is paired; this is the one-to-one greedy rule of nervaluate 1.x,
``nervaluate/strategies.py``, adopted as this project's rule): within each
sentence the predictions are taken in order of (start, end, type); each is
paired with at most one gold entity not yet paired, and each gold entity
with at most one prediction. A prediction is paired with the first such gold
entity (in order of (start, end, type)) that meets the schema's COR
condition, except that under ``type`` the COR candidate with the smallest
|start difference| + |end difference| is taken (the first on a tie); failing
that, with the first such gold entity it overlaps (INC, or PAR under
``partial``); failing that it is SPU. Gold entities left unpaired are MIS.
Counts are summed over sentences; P, R and F1 are computed from the sums.

``zero_division`` (zd): what P, R or F1 is when its denominator is 0: ``zero``
(default; nervaluate's ``if self.actual > 0 else 0``), ``one``, ``undefined``.

Per type (``ner_schema_report``): the rows of type t are computed by the same
rule on the gold and predicted entities of type t alone (as nervaluate's
``evaluate()['entities']``), so under ``exact`` and ``partial`` a prediction is
never paired with a gold entity of another type there, while the overall row
pairs across types.

Degenerate and invalid inputs: as the tagging metrics (golden/bad_input/tagging.json);
no sentence gives an Undefined value.
"""
from __future__ import annotations

from fractions import Fraction

from .chunks import _extract_both, _shape
from .conventions import ConventionError, Knob, Metric, Result
from .exact import Undefined
from .tagging import READING, SCHEME, TAG_FORMAT, reading_inert

_SEMEVAL = "Segura-Bedmar et al. 2013, SemEval-2013 Task 9, section 4.1 (task 9.1 evaluation)"
_NERVALUATE = "nervaluate 1.2 (nervaluate/strategies.py, entities.py)"

SCHEMA = Knob(
    "schema", "when a prediction counts as correct (SemEval-2013 task 9.1)", "strict",
    choices=("strict", "exact", "partial", "type"),
    sources={"strict": f"{_SEMEVAL}: exact boundary match and type; {_NERVALUATE} 'strict'",
             "exact": f"{_SEMEVAL}: exact boundary match over the surface string, regardless of type; "
                      f"{_NERVALUATE} 'exact'",
             "partial": f"{_SEMEVAL}: partial boundary match, regardless of type, partial matches count half; "
                        f"{_NERVALUATE} 'partial'",
             "type": f"{_SEMEVAL}: some overlap and the type; {_NERVALUATE} 'ent_type'"})
MIN_OVERLAP = Knob(
    "min_overlap", "the least share of a gold entity's tokens an overlap must cover (0: any shared token)",
    "0", kind="rational", minimum=0,
    sources={"*": f"{_SEMEVAL} ('some overlap': 0); {_NERVALUATE} min_overlap_percentage / 100, "
                  "overlap tokens / gold tokens * 100 >= min_overlap_percentage (default 1.0)"},
    key="ovl")
ZERO_DIVISION = Knob(
    "zero_division", "what P, R or F1 is when its denominator is 0", "undefined",
    choices=("zero", "one", "undefined"),
    sources={"zero": f"{_NERVALUATE} compute_metrics: 'if self.actual > 0 else 0' (P, R and F1)",
             "one": "1 (scikit-learn's zero_division=1, for comparison)",
             "undefined": f"{_SEMEVAL}: P = COR/ACT and R = COR/POS have no value when ACT (or POS) is 0; the "
                          "paper gives no 0/0 rule (the oracle's Undefined)"},
    key="zd")

_CATEGORIES = ("correct", "incorrect", "partial", "missed", "spurious")


def _overlap(p, g, min_overlap: Fraction) -> bool:
    """p, g = (start, end, type), end exclusive: shared tokens >= 1 and >= min_overlap * |g|."""
    shared = min(p[1], g[1]) - max(p[0], g[0])
    return shared >= 1 and shared >= min_overlap * (g[1] - g[0])


def pair_sentence(gold: list, pred: list, schema: str, min_overlap: Fraction) -> dict:
    """The five counts of one sentence (``gold``, ``pred``: sorted (start, end, type) lists)."""
    counts = dict.fromkeys(_CATEGORIES, 0)
    paired = [False] * len(gold)
    for p in pred:
        cor = None
        best = None
        other = None
        for i, g in enumerate(gold):
            if paired[i]:
                continue
            ov = _overlap(p, g, min_overlap)
            if schema == "type":
                if ov and p[2] == g[2]:
                    d = abs(p[0] - g[0]) + abs(p[1] - g[1])
                    if best is None or d < best:
                        cor, best = i, d
                elif ov and other is None:
                    other = i
                continue
            same_span = p[0] == g[0] and p[1] == g[1]
            if same_span and (schema != "strict" or p[2] == g[2]):
                cor = i
                break
            if ov and other is None:
                other = i
        if cor is not None:
            paired[cor] = True
            counts["correct"] += 1
        elif other is not None:
            paired[other] = True
            counts["partial" if schema == "partial" else "incorrect"] += 1
        else:
            counts["spurious"] += 1
    counts["missed"] = paired.count(False)
    return counts


def _by_sentence(entities: list, n: int, keep=None) -> list:
    out = [[] for _ in range(n)]
    for i, s, e, t in entities:
        if keep is None or t == keep:
            out[i].append((s, e, t))
    for x in out:
        x.sort()
    return out


def _resolve(num: Fraction, den: int, zd: str, what: str):
    if den:
        return num / den
    if zd == "undefined":
        return Undefined(f"{what}: 0/0")
    return Fraction(0) if zd == "zero" else Fraction(1)


def scores(counts: dict, schema: str, zd: str) -> dict:
    """The counts with possible, actual, precision, recall and f1 (SemEval-2013 section 4.1)."""
    c = dict(counts)
    c["possible"] = c["correct"] + c["incorrect"] + c["partial"] + c["missed"]
    c["actual"] = c["correct"] + c["incorrect"] + c["partial"] + c["spurious"]
    hits = Fraction(c["correct"]) + (Fraction(c["partial"], 2) if schema == "partial" else 0)
    p = _resolve(hits, c["actual"], zd, "precision")
    r = _resolve(hits, c["possible"], zd, "recall")
    if isinstance(p, Undefined) or isinstance(r, Undefined):
        f = Undefined("f1: precision or recall is undefined")
    elif p + r == 0:
        f = _resolve(Fraction(0), 0, zd, "f1")
    else:
        f = 2 * p * r / (p + r)
    c.update(precision=p, recall=r, f1=f)
    return c


def _total(gold_by: list, pred_by: list, schema: str, min_overlap: Fraction) -> dict:
    total = dict.fromkeys(_CATEGORIES, 0)
    for g, p in zip(gold_by, pred_by):
        for k, v in pair_sentence(g, p, schema, min_overlap).items():
            total[k] += v
    return total


def _rows(inputs, settings: dict, per_type: bool):
    gold_s, pred_s, _, plain = _shape(inputs, False)
    gold_e, pred_e = _extract_both(gold_s, pred_s, settings, plain)
    if not gold_s:
        return None
    schema, zd = settings["schema"], settings["zero_division"]
    mo = Fraction(settings["min_overlap"])
    n = len(gold_s)
    rows = {"overall": scores(_total(_by_sentence(gold_e, n), _by_sentence(pred_e, n), schema, mo), schema, zd)}
    if per_type:
        for t in sorted({e[3] for e in gold_e} | {e[3] for e in pred_e}):
            counts = _total(_by_sentence(gold_e, n, t), _by_sentence(pred_e, n, t), schema, mo)
            rows[t] = scores(counts, schema, zd)
    return rows


def _stats(row: dict) -> dict:
    return {k: row[k] for k in _CATEGORIES + ("possible", "actual")}


def _one(which: str):
    def compute(inputs, settings: dict) -> Result:
        rows = _rows(inputs, settings, False)
        if rows is None:
            return Result(Undefined("no sentences"), stats={}, parts={})
        row = rows["overall"]
        return Result(row[which], stats=_stats(row), parts={})
    compute.__doc__ = (f"SemEval-2013 task 9.1 {which} under ``schema``: see the module docstring "
                       "(P = (COR [+ PAR/2]) / ACT, R = (COR [+ PAR/2]) / POS, F1 = 2PR/(P+R)).")
    return compute


def compute_report(inputs, settings: dict) -> Result:
    """nervaluate's evaluate() for one schema as exact values: {"overall": row, type: row},
    each row the five counts, possible, actual, precision, recall and f1."""
    rows = _rows(inputs, settings, True)
    if rows is None:
        return Result(Undefined("no sentences"), stats={}, parts={})
    return Result(rows, stats=_stats(rows["overall"]), parts={})


def _normalize(settings: dict, given: set) -> dict:
    if "min_overlap" in settings and Fraction(settings["min_overlap"]) > 1:
        raise ConventionError(f"min_overlap: {settings['min_overlap']} must be at most 1 (a share of the gold "
                              "entity's tokens)")
    return settings


_INPUTS = {"gold": "list of sentences, each a list of gold tags",
           "pred": "list of sentences, each a list of predicted tags (same lengths as gold)",
           "tokens": "optional list of sentences of words (same shape); not read"}
_KNOBS = (SCHEME, READING, TAG_FORMAT, SCHEMA, MIN_OVERLAP, ZERO_DIVISION)


def _metric(name: str, what: str, fn) -> Metric:
    return Metric(name=name, family="tagging", summary=f"SemEval-2013 task 9.1 {what} (strict, exact, partial, "
                  "type schemas) over entities read from tags", knobs=_KNOBS, inputs=_INPUTS, compute_fn=fn,
                  normalize_fn=_normalize, inert_fn=reading_inert)


NER_SCHEMA_PRECISION = _metric("ner_schema_precision", "precision", _one("precision"))
NER_SCHEMA_RECALL = _metric("ner_schema_recall", "recall", _one("recall"))
NER_SCHEMA_F1 = _metric("ner_schema_f1", "F1", _one("f1"))
NER_SCHEMA_REPORT = _metric("ner_schema_report", "counts and scores, overall and per type", compute_report)
