"""Average precision of scores against binary relevance, as scikit-learn defines it
for classifiers' scores: ``average_precision_score`` (per column of labels, or
of one binary problem) and ``label_ranking_average_precision_score`` (LRAP, per
sample over its labels).

Inputs. ``score_average_precision``: ``{"y_true": [0, 1, ...], "y_score":
[0.3, 0.9, ...]}`` (one binary problem), or rows: ``y_true`` n x L indicators
(0/1, as in ``oracle.multilabel``) and ``y_score`` n x L scores.
``label_ranking_average_precision``: rows only. A score is an int, a finite
float (its exact binary value), a Fraction, or a numeric string ('1/3',
'0.25'); NumPy arrays are read as the lists they hold.

Step AP (scikit-learn's definition, sklearn/metrics/_ranking.py
``average_precision_score``: "AP = sum_n (R_n - R_{n-1}) P_n where P_n and R_n
are the precision and recall at the nth threshold"): the thresholds are the
distinct scores, from the highest down. Items with equal scores form one group,
scored at one threshold: with R relevant items in all, a group holding r_g
relevant items, and cum_r, cum_n the relevant and all items scoring at least
the group's score,

    AP_step = (1/R) sum_g r_g * cum_r / cum_n.

LRAP (scikit-learn ``label_ranking_average_precision_score``; Tsoumakas,
Katakis and Vlahavas 2010, "Mining multi-label data"): per sample i with
relevant labels Y_i, (1/|Y_i|) sum_{j in Y_i} |{k in Y_i: f_ik >= f_ij}| /
|{k: f_ik >= f_ij}|, then the mean over the samples. Each relevant label's
ratio is taken at the end of its tie group, so a sample's LRAP is its AP_step
over its labels; only the no-relevant rule differs between the two metrics.

Knobs
- ``ties``: ``step`` (default: the definitions above, scikit-learn) or
  ``expected`` (the mean over all orderings of the tied items of the AP of the
  ranking, McSherry and Najork 2008, "Computing information retrieval
  performance measures efficiently in the presence of tied scores", ECIR;
  computed by ``oracle.ranking``'s ``average_precision`` with ``ties=expected``).
- ``no_relevant``, a problem (column, sample, or the one binary problem) with
  no relevant item, where R = 0 and AP is 0/0: ``undefined`` (default: the
  definitions divide by R) or the library's value: ``zero`` for
  ``score_average_precision`` (scikit-learn ``precision_recall_curve``: "No
  positive class found in y_true, recall is set to one for all thresholds",
  so every recall step is 0 and AP = 0; and a weighted average with no
  support is 0, ``_average_binary_score``), ``one`` for LRAP (scikit-learn:
  "If all labels are relevant or unrelevant, the score is also equal to 1").
- ``average`` (score_average_precision on rows; scikit-learn's choices):
  ``macro`` (default: the mean over the label columns), ``micro`` (all entries
  as one binary problem), ``weighted`` (columns weighted by their number of
  relevant entries), ``samples`` (the mean over the rows), ``none`` (the list
  per column). On one binary problem there is nothing to average over.

Every metric here takes an optional ``sample_weight`` (one non-negative rational per
sample), as scikit-learn's functions do: ``oracle.score_weights`` says what it weighs.

Degenerate and invalid inputs
-----------------------------
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/score_ranking.json (rendered in
docs/bad-input.md; every row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

from fractions import Fraction

from .conventions import InputError, Knob, Metric, Result
from .exact import Undefined
from .multilabel import _rows
from .score_values import exact_number as _score
from .score_weights import refuse_with_expected, sample_weights, weighted_mean, weighted_step_ap

_SK = "scikit-learn sklearn/metrics/_ranking.py"
_SW = "optional: one non-negative rational per sample (oracle.score_weights)"
_NO_RELEVANT = "no relevant item: AP divides by R = 0"


def _listed(xs, name: str):
    if hasattr(xs, "tolist") and not isinstance(xs, (list, tuple)):
        xs = xs.tolist()
    if not isinstance(xs, (list, tuple)):
        raise InputError(f"{name}: expected a list, got {type(xs).__name__}", item=name)
    return list(xs)


def _fields(inputs, optional: tuple = ()) -> tuple[list, list]:
    """(y_true, y_score) as lists, after the checks every metric here makes: an object with
    y_true and y_score (and the ``optional`` fields), y_true not empty, one y_score per
    y_true item."""
    allowed = ("y_true", "y_score") + optional
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with y_true and y_score, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - set(allowed))
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are {', '.join(allowed)}", item=unknown[0])
    for name in ("y_true", "y_score"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
    yt, ys = _listed(inputs["y_true"], "y_true"), _listed(inputs["y_score"], "y_score")
    if not yt:
        raise InputError("y_true: no samples", item="y_true")
    return yt, ys


def _read(inputs, rows_only: bool):
    """(relevance rows, score rows, one binary problem?) checked: equal shapes."""
    yt, ys = _fields(inputs, ("sample_weight",))
    binary = not isinstance(yt[0], (list, tuple))
    if binary and rows_only:
        raise InputError("y_true: expected rows of 0/1 indicators (samples x labels), got a list of labels",
                         item="y_true")
    if binary:
        yt, ys = [yt], [ys]
        for j, x in enumerate(yt[0]):
            if x is not True and x is not False and not (type(x) is int and x in (0, 1)):
                raise InputError(f"y_true[{j}]: {x!r} is not a binary label; y_true is 0/1", item=f"y_true[{j}]")
        rel = [[int(x) for x in yt[0]]]
    else:
        rel = _rows(yt, "y_true")
    if len(ys) != len(rel):
        raise InputError(f"y_score: {len(ys)} {'scores' if binary else 'rows'} but y_true has {len(rel)}",
                         item="y_score")
    scores = []
    for i, row in enumerate(ys):
        where = "y_score" if binary else f"y_score[{i}]"
        row = _listed(row, where) if not binary else row
        if len(row) != len(rel[i]):
            raise InputError(f"{where}: {len(row)} scores but y_true{'' if binary else f'[{i}]'} has "
                             f"{len(rel[i])}", item=where)
        scores.append([_score(x, f"{where}[{j}]") for j, x in enumerate(row)])
    if not binary:
        width = len(rel[0])
        for i, r in enumerate(rel):
            if len(r) != width:
                raise InputError(f"y_true[{i}]: {len(r)} indicators, but y_true[0] has {width}", item=f"y_true[{i}]")
    return rel, scores, binary


def step_ap(rel: list, scores: list):
    """AP_step = (1/R) sum_g r_g cum_r / cum_n over the tie groups from the highest
    score down (module docstring); None when R = 0."""
    R = sum(rel)
    if R == 0:
        return None
    groups: dict = {}
    for r, s in zip(rel, scores):
        g = groups.setdefault(s, [0, 0])
        g[0] += 1
        g[1] += r
    total = Fraction(0)
    cum_n = cum_r = 0
    for s in sorted(groups, reverse=True):
        n_g, r_g = groups[s]
        cum_n += n_g
        cum_r += r_g
        if r_g:
            total += Fraction(r_g * cum_r, cum_n)
    return total / R


def expected_ap(rel: list, scores: list):
    """The mean AP over the orderings of tied items (oracle.ranking, ties=expected); None when R = 0."""
    if sum(rel) == 0:
        return None
    from .registry import compute
    docs = [f"d{j}" for j in range(len(rel))]
    inputs = {"qrels": {"q": dict(zip(docs, rel))}, "run": {"q": dict(zip(docs, scores))}}
    return compute("average_precision", inputs, {"ties": "expected"}).value


def _ap(settings):
    return expected_ap if settings["ties"] == "expected" else step_ap


def _settled(v, settings, where: str):
    if v is not None:
        return v
    if settings["no_relevant"] == "zero":
        return Fraction(0)
    if settings["no_relevant"] == "one":
        return Fraction(1)
    return Undefined(f"{where}: {_NO_RELEVANT}")


def _mean(values: list, weights: list | None = None):
    bad = next((v for v in values if isinstance(v, Undefined)), None)
    if bad is not None:
        return bad
    if weights is None:
        return sum(values, Fraction(0)) / len(values)
    return weighted_mean(values, weights)


def compute_average_precision(inputs, settings: dict) -> Result:
    """scikit-learn ``average_precision_score`` exactly (module docstring); ``sample_weight``
    as ``oracle.score_weights`` says."""
    rel, scores, binary = _read(inputs, rows_only=False)
    w = sample_weights(inputs, len(rel[0]) if binary else len(rel))
    refuse_with_expected(w, settings)
    ap = _ap(settings)   # ties=step wherever there are weights (refused above otherwise)

    def ap_of(r, s, ws):
        return ap(r, s) if ws is None else weighted_step_ap(r, s, ws)
    if binary:
        v = _settled(ap_of(rel[0], scores[0], w), settings, "y_true")
        return Result(v, stats={"relevant": sum(rel[0]), "n": len(rel[0])})
    average = settings["average"]
    width = len(rel[0])
    support = [sum(r[j] if w is None else r[j] * w[i] for i, r in enumerate(rel)) for j in range(width)]
    stats = {"support": support, "n": len(rel)}
    if average == "micro":
        flat_r = [x for r in rel for x in r]
        flat_s = [x for s in scores for x in s]
        flat_w = None if w is None else [wi for wi in w for _ in range(width)]
        return Result(_settled(ap_of(flat_r, flat_s, flat_w), settings, "y_true (micro)"), stats=stats)
    if average == "samples":
        values = [_settled(ap(r, s), settings, f"y_true[{i}]") for i, (r, s) in enumerate(zip(rel, scores))]
        return Result(_mean(values) if w is None else weighted_mean(values, w), stats=stats,
                      parts={"per_sample": values})
    values = [_settled(ap_of([r[j] for r in rel], [s[j] for s in scores], w), settings, f"label {j}")
              for j in range(width)]
    parts = {"per_label": values}
    if average == "none":
        return Result(values, stats=stats, parts=parts)
    if average == "weighted":
        if sum(support) == 0:
            return Result(_settled(None, settings, "weighted average: no label has a relevant item"),
                          stats=stats, parts=parts)
        kept = [(v, w) for v, w in zip(values, support) if w]
        return Result(_mean([v for v, _ in kept], [w for _, w in kept]), stats=stats, parts=parts)
    return Result(_mean(values), stats=stats, parts=parts)


def compute_lrap(inputs, settings: dict) -> Result:
    """LRAP: the mean over samples of each sample's AP over its labels (module docstring), the
    weighted mean under ``sample_weight``."""
    rel, scores, _ = _read(inputs, rows_only=True)
    w = sample_weights(inputs, len(rel))
    refuse_with_expected(w, settings)
    ap = _ap(settings)
    values = [_settled(ap(r, s), settings, f"y_true[{i}]") for i, (r, s) in enumerate(zip(rel, scores))]
    return Result(_mean(values) if w is None else weighted_mean(values, w),
                  stats={"n": len(rel), "relevant": [sum(r) for r in rel]}, parts={"per_sample": values})


def _graded(inputs, allow_negative: bool):
    """(grade rows, score rows) of dcg/ndcg input: rows of integer grades (y_true) and scores."""
    yt, ys = _fields(inputs, ("sample_weight",))
    if len(ys) != len(yt):
        raise InputError(f"y_score: {len(ys)} rows but y_true has {len(yt)}", item="y_score")
    grades, scores = [], []
    width = None
    for i, (rt, rs) in enumerate(zip(yt, ys)):
        rt, rs = _listed(rt, f"y_true[{i}]"), _listed(rs, f"y_score[{i}]")
        if width is None:
            width = len(rt)
            if width < 1:
                # a row of one document is a ranking like any other (Jarvelin and Kekalainen 2002:
                # DCG of a list of any length; its ideal is itself); none is no ranking at all
                raise InputError(f"y_true[{i}]: no documents; a row ranks one or more", item=f"y_true[{i}]")
        if len(rt) != width:
            raise InputError(f"y_true[{i}]: {len(rt)} grades, but y_true[0] has {width}", item=f"y_true[{i}]")
        if len(rs) != width:
            raise InputError(f"y_score[{i}]: {len(rs)} scores but y_true[{i}] has {width}", item=f"y_score[{i}]")
        row = []
        for j, g in enumerate(rt):
            if hasattr(g, "item") and not isinstance(g, (list, tuple, str)):
                g = g.item()
            if isinstance(g, bool) or not isinstance(g, int):
                raise InputError(f"y_true[{i}][{j}]: {g!r} is not an integer grade (this oracle's graded "
                                 "relevance is integer)", item=f"y_true[{i}][{j}]")
            if g < 0 and not allow_negative:
                raise InputError(f"y_true[{i}][{j}]: a negative grade {g}; NDCG's ideal ranking assumes gains "
                                 "of 0 or more (scikit-learn: 'ndcg_score should not be used on negative y_true "
                                 "values')", item=f"y_true[{i}][{j}]")
            row.append(g)
        grades.append(row)
        scores.append([_score(x, f"y_score[{i}][{j}]") for j, x in enumerate(rs)])
    return grades, scores


def _as_queries(grades, scores) -> dict:
    """Each sample as a query of the ranking family: its items as documents d0, d1, ..."""
    return {"qrels": {f"s{i}": {f"d{j}": g for j, g in enumerate(r)} for i, r in enumerate(grades)},
            "run": {f"s{i}": {f"d{j}": x for j, x in enumerate(r)} for i, r in enumerate(scores)}}


def _graded_settings(settings) -> dict:
    """The ranking family's settings for scikit-learn's DCG: ties averaged (McSherry and
    Najork), the grade as gain, every sample a query, none left out."""
    return {"k": settings["k"], "ties": "expected", "gain": "linear", "threshold_gains": "yes",
            "negative": "keep", "threshold": "1", "no_relevant": "zero", "missing": "zero", "queries": "qrels"}


def compute_dcg(inputs, settings: dict) -> Result:
    """scikit-learn ``dcg_score``: per sample sum_r gain_r / log_B(r + 1) over the ranking by
    score (ties averaged, top k), the mean over samples (oracle.ranking's dcg, ties=expected)."""
    from .registry import compute
    grades, scores = _graded(inputs, allow_negative=True)
    s = dict(_graded_settings(settings), log_base=settings["log_base"])
    r = compute("dcg", _as_queries(grades, scores), s)
    return Result(_weighted(r, inputs, len(grades)), stats={"n": len(grades)}, parts=r.parts)


def _weighted(r: Result, inputs, n: int):
    """The ranking family's mean over the samples, or their weighted mean under sample_weight."""
    w = sample_weights(inputs, n)
    if w is None:
        return r.value
    per = r.parts["per_query"]
    return weighted_mean([per[f"s{i}"] for i in range(n)], w)


def compute_ndcg(inputs, settings: dict) -> Result:
    """scikit-learn ``ndcg_score``: per sample DCG / IDCG (ideal: the grades sorted), 0 where
    IDCG = 0, the mean over samples (oracle.ranking's ndcg, ties=expected)."""
    from .registry import compute
    grades, scores = _graded(inputs, allow_negative=False)
    # no grade is negative here (refused above): negative=zero and keep are the same
    r = compute("ndcg", _as_queries(grades, scores), dict(_graded_settings(settings), ideal="judged",
                                                          negative="zero"))
    return Result(_weighted(r, inputs, len(grades)), stats={"n": len(grades)}, parts=r.parts)


def _top_k_inputs(inputs, min_classes: int = 3):
    """(true class indices, score rows, classes) of top_k_accuracy input, checked
    (``min_classes``: 3 for scikit-learn's top-k accuracy, which reads two classes as a
    binary problem)."""
    from .tally import _label
    yt, ys = _fields(inputs, ("labels", "sample_weight"))
    if len(ys) != len(yt):
        raise InputError(f"y_score: {len(ys)} rows but y_true has {len(yt)}", item="y_score")
    yt = [_label(x, f"y_true[{i}]") for i, x in enumerate(yt)]
    if "labels" in inputs:
        classes = [_label(x, f"labels[{j}]") for j, x in enumerate(_listed(inputs["labels"], "labels"))]
        if len(set(classes)) != len(classes) or classes != sorted(classes, key=lambda c: (str(type(c)), c)):
            raise InputError("labels: the classes must be distinct and in sorted order (the columns of y_score "
                             "follow it; scikit-learn: 'Parameter 'labels' must be ordered')", item="labels")
        index = {c: j for j, c in enumerate(classes)}
        stray = next((i for i, x in enumerate(yt) if x not in index), None)
        if stray is not None:
            raise InputError(f"y_true[{stray}]: {yt[stray]!r} is not among the labels {classes!r}",
                             item=f"y_true[{stray}]")
    else:
        try:
            classes = sorted(set(yt))
        except TypeError:
            raise InputError("y_true: int and string labels mixed; use one kind", item="y_true") from None
        index = {c: j for j, c in enumerate(classes)}
    if len(classes) < min_classes:
        raise InputError(f"y_true: {len(classes)} classes; top-k accuracy ranks three or more (scikit-learn reads "
                         "two as a binary problem with one score per sample)", item="y_true")
    rows = []
    for i, r in enumerate(ys):
        r = _listed(r, f"y_score[{i}]")
        if len(r) != len(classes):
            raise InputError(f"y_score[{i}]: {len(r)} scores for {len(classes)} classes {classes!r}"
                             + ("" if "labels" in inputs else "; give labels when y_true lacks a class"),
                             item=f"y_score[{i}]")
        rows.append([_score(x, f"y_score[{i}][{j}]") for j, x in enumerate(r)])
    return [index[x] for x in yt], rows, classes


def _top_k_hit(row: list, true: int, k: int, ties: str) -> Fraction:
    """The chance that class ``true`` is among the k highest scores of ``row``: with a
    classes above it and t tied with it (itself included), 0 if a >= k, 1 if a + t <= k,
    else by the tie rule."""
    s = row[true]
    above = sum(1 for x in row if x > s)
    tied = sum(1 for x in row if x == s)
    if above >= k:
        return Fraction(0)
    if above + tied <= k:
        return Fraction(1)
    if ties == "expected":
        return Fraction(k - above, tied)
    if ties == "optimistic":
        return Fraction(1)
    if ties == "pessimistic":
        return Fraction(0)
    # reverse-label-order: the tied classes of higher index come first
    later = sum(1 for j, x in enumerate(row) if x == s and j > true)
    return Fraction(1 if above + later + 1 <= k else 0)


def compute_top_k_accuracy(inputs, settings: dict) -> Result:
    """The fraction of samples whose true class is among the k highest-scored classes
    (scikit-learn ``top_k_accuracy_score``; Russakovsky et al. 2015, ILSVRC top-5), a tie
    at the k-th place settled by ``ties``."""
    true, rows, classes = _top_k_inputs(inputs)
    k = int(settings["k"])
    hits = [_top_k_hit(r, t, k, settings["ties"]) for r, t in zip(rows, true)]
    w = sample_weights(inputs, len(hits))
    value = sum(hits, Fraction(0)) / len(hits) if w is None else weighted_mean(hits, w)
    return Result(value, stats={"n": len(hits), "classes": classes, "hits": sum(hits, Fraction(0))})


TOP_K = Knob("k", "the number of highest-scored classes that count", "5", kind="int", minimum=1,
             sources={"5": "Russakovsky et al. 2015, ImageNet Large Scale Visual Recognition Challenge, IJCV "
                           "(top-5 error)", "*": f"{_SK} top_k_accuracy_score(k=2)"})
TOP_K_TIES = Knob("ties", "classes whose score ties the true class's at the k-th place", "expected",
                  choices=("expected", "optimistic", "pessimistic", "reverse-label-order"),
                  sources={"expected": "the chance over the orders of the tied classes (McSherry and Najork 2008): "
                                       "(k - above) / tied",
                           "optimistic": "the true class first among its ties",
                           "pessimistic": "the true class last among its ties",
                           "reverse-label-order": f"{_SK} top_k_accuracy_score: 'np.argsort(y_score, axis=1, "
                                                  "kind=\"mergesort\")[:, ::-1]', a stable sort reversed: among "
                                                  "tied classes the later label first"})
TOP_K_ACCURACY = Metric(
    name="top_k_accuracy", family="score_ranking",
    summary="Fraction of samples whose true class is among the k highest-scored classes",
    knobs=(TOP_K, TOP_K_TIES),
    inputs={"y_true": "the true labels", "y_score": "rows of one score per class, in sorted class order",
            "labels": "optional: the classes, sorted (when y_true lacks some)", "sample_weight": _SW},
    compute_fn=compute_top_k_accuracy)


K = Knob("k", "only the top k ranks count ('none': all)", "none", kind="int", minimum=1, special=("none",),
         sources={"none": "trec_eval 9.0 m_ndcg.c (ndcg: the whole ranking); Jarvelin and Kekalainen 2002 (DCG "
                          "over the whole ranking)",
                  "*": f"{_SK} dcg_score, ndcg_score k"})
LOG_BASE = Knob("log_base", "the base B of the discount 1/log_B(rank + 1)", "2", kind="int", minimum=2,
                key="logb", sources={"*": "trec_eval 9.0 m_ndcg.c: gain / log2(rank + 1); "
                                          f"{_SK} dcg_score(log_base=2)"})

TIES = Knob("ties", "items with equal scores", "step", choices=("step", "expected"),
            sources={"step": f"{_SK} average_precision_score (precision_recall_curve: one threshold per distinct "
                             "score), label_ranking_average_precision_score (rankdata 'max')",
                     "expected": "McSherry and Najork 2008, Computing information retrieval performance measures "
                                 "efficiently in the presence of tied scores, ECIR: the mean over tie orderings"},
            unspecified="AP (Manning, Raghavan and Schuetze 2008, ch. 8) and label-ranking AP (Schapire and Singer "
                        "2000, BoosTexter) assume a strict ranking; grouping tied scores into one step is "
                        "scikit-learn's, the mean over tie orders McSherry and Najork's")
_UNDEF = "the definition divides by R = 0: no value"
AP_NO_RELEVANT = Knob("no_relevant", "a problem without a relevant item (R = 0)", "undefined", key="norel",
                      choices=("undefined", "zero"),
                      sources={"undefined": _UNDEF,
                               "zero": f"{_SK} precision_recall_curve: 'No positive class found in y_true, recall is "
                                       "set to one for all thresholds' (AP = 0); sklearn/metrics/_base.py "
                                       "_average_binary_score: a weighted average with no support 'return 0'"})
LRAP_NO_RELEVANT = Knob("no_relevant", "a sample without a relevant label (R = 0)", "undefined", key="norel",
                        choices=("undefined", "one"),
                        sources={"undefined": _UNDEF,
                                 "one": f"{_SK} label_ranking_average_precision_score: 'If all labels are "
                                        "relevant or unrelevant, the score is also equal to 1'"})
AVERAGE = Knob("average", "how the label columns' AP are combined (rows only)", "macro",
               choices=("macro", "micro", "weighted", "samples", "none"), key="avg",
               sources={"macro": f"{_SK} average_precision_score(average='macro') (its default)",
                        "micro": f"{_SK} average='micro': every entry as one binary problem",
                        "weighted": f"{_SK} average='weighted': weighted by each label's support",
                        "samples": f"{_SK} average='samples': the mean over the samples",
                        "none": f"{_SK} average=None: one AP per label"},
               unspecified="how the label columns' AP are combined is the user's choice; no publication fixes it")


SCORE_AVERAGE_PRECISION = Metric(
    name="score_average_precision", family="score_ranking",
    summary="AP of scores against binary relevance, sum_n (R_n - R_{n-1}) P_n over the thresholds "
            "(scikit-learn average_precision_score)",
    knobs=(TIES, AP_NO_RELEVANT, AVERAGE),
    inputs={"y_true": "0/1 labels, or rows of 0/1 indicators (samples x labels)",
            "y_score": "the scores, of the same shape", "sample_weight": _SW},
    compute_fn=compute_average_precision)
LABEL_RANKING_AVERAGE_PRECISION = Metric(
    name="label_ranking_average_precision", family="score_ranking",
    summary="LRAP: per sample, the mean over its relevant labels of the fraction of labels scored at least as "
            "high that are relevant; the mean over samples",
    knobs=(TIES, LRAP_NO_RELEVANT),
    inputs={"y_true": "rows of 0/1 indicators (samples x labels)", "y_score": "rows of scores",
            "sample_weight": _SW},
    compute_fn=compute_lrap)

SCORE_DCG = Metric(
    name="score_dcg", family="score_ranking",
    summary="Mean over samples of DCG of the items ranked by score, ties averaged (scikit-learn dcg_score)",
    knobs=(K, LOG_BASE),
    inputs={"y_true": "rows of integer grades (samples x items)", "y_score": "rows of scores",
            "sample_weight": _SW},
    compute_fn=compute_dcg)
SCORE_NDCG = Metric(
    name="score_ndcg", family="score_ranking",
    summary="Mean over samples of DCG / ideal DCG, ties averaged, 0 without gain (scikit-learn ndcg_score)",
    knobs=(K,),
    inputs={"y_true": "rows of non-negative integer grades (samples x items)", "y_score": "rows of scores",
            "sample_weight": _SW},
    compute_fn=compute_ndcg)
