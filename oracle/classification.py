"""Classification from label pairs: the confusion matrix, accuracy, per-class
accuracy, precision, recall, F-beta, balanced accuracy and the report.

Inputs: ``{"y_true": [label, ...], "y_pred": [label, ...]}`` with optional
``"labels": [label, ...]`` (the declared classes, in order) and ``"pos_label"``
(the positive class of ``average=binary``, default 1). A label is an int or a
string; all labels of one input (y_true, y_pred, labels, pos_label) are of one
kind. Sample i is the pair (y_true[i], y_pred[i]).

Instead of y_pred, ``"y_score": [[s_1, ..., s_C], ...]``: a row of class scores per
sample, the columns being ``labels`` in order (or the ints 0..C-1 without labels). The
prediction of sample i is its highest-scored class (the first column among equal
scores, as ``argmax`` documents it in NumPy and torch); under ``top_k`` = k (accuracy,
precision, recall, F), its true label when that label is among its k highest-scored
classes (equal scores again by column), else its highest-scored class (torchmetrics
``top_k``, functional/classification/stat_scores.py ``_refine_preds_oh``). Top-k
accuracy is then the share of samples whose label is among their k best. The scores are
read exactly (``oracle.score_ranking``); k above C is an InputError.

Optional ``"sample_weight": [w, ...]`` (single-label input): one non-negative
rational per sample (an int, a float read as its exact binary value, a Fraction
or a text '1/3'); every count below becomes the sum of the weights of the
samples it counts, N the total weight (scikit-learn's ``sample_weight`` of
``confusion_matrix``, ``accuracy_score``, ``precision_recall_fscore_support``,
``balanced_accuracy_score`` and ``classification_report``: "sample_weight :
array-like of shape (n_samples,), default=None. Sample weights."; its
``confusion_matrix`` adds each sample's weight to its cell, and the other
figures are computed from those weighted counts). A weight of 0 leaves the
sample's counts but not its labels (the label set under ``union`` still has
them); a total weight of 0 is "no samples". Negative, infinite or NaN weights
are refused (a count cannot be negative). Without the field every weight is 1.

The confusion matrix (source document 003, "Confusion matrix dengan operasi
torch murni"; sklearn ``confusion_matrix``): C[i][j] = #{samples with true
label c_i and predicted label c_j} over the ordered classes c_1..c_K; rows are
the true label, columns the prediction; counting is per pair, so a pair
repeated r times adds r (the document's duplicate-index pitfall). Per class k:
tp_k = C_kk, support_k = #{true = c_k}, predicted_k = #{pred = c_k},
fp_k = predicted_k - tp_k, fn_k = support_k - tp_k.

Formulas (N = samples counted)
- accuracy = sum_k C_kk / N.
- per-class accuracy a_k = C_kk / sum_j C_kj (document 003: "a_k = C_kk /
  sum_j C_kj"; "Akurasi per kelas identik dengan recall"); a class with no
  samples is not measured: Undefined, never 0 or NaN (document 003, third
  common mistake).
- P_k = tp_k / (tp_k + fp_k); R_k = tp_k / (tp_k + fn_k);
  F_beta,k = (1 + b^2) tp_k / ((1 + b^2) tp_k + b^2 fn_k + fp_k), which is the
  harmonic form (1 + b^2) P R / (b^2 P + R) wherever P and R are defined
  (van Rijsbergen 1979; sklearn ``precision_recall_fscore_support``).
- averages: micro pools tp, fp, fn over the classes, then divides; macro is
  the unweighted mean of the per-class values; weighted is their mean weighted
  by support over the classes with support > 0 (a class with no support has
  weight 0 and does not enter the sum); binary is the value of the class
  pos_label (at most two classes).
- balanced accuracy = mean of R_k over the classes with support > 0
  (Brodersen et al. 2010; sklearn ``balanced_accuracy_score``); adjusted:
  (score - 1/K) / (1 - 1/K), K = number of classes with support.
- the report is sklearn's ``classification_report(output_dict=True)`` layout:
  {str(label): {"precision", "recall", "f1-score", "support"}, then
  "accuracy": micro P when every kept sample's labels are classes (a weight-0
  sample's labels too, as sklearn decides by the labels present; else
  "micro avg": {...}), "macro avg": {...}, "weighted avg": {...}}, where the
  averages' support is the sum of the classes' supports.

Knobs
- ``label_set`` (labels): ``auto`` (default: ``declared`` when inputs.labels
  is given, else ``union``), ``declared`` (inputs.labels in its order; an
  InputError without it), ``union`` (the sorted union of the labels seen in
  y_true and y_pred; inputs.labels, if given, is validated but not used).
- ``outside`` (outside), for a sample whose true or predicted label is not a
  class of a declared set: ``error`` (default; InputError naming the first
  such index), ``drop`` (the sample leaves every count and N, as sklearn's
  ``confusion_matrix(labels=...)`` does), ``keep`` (P/R/F and the report
  only: the sample stays, an outside prediction of a class-k sample is a
  false negative of k and a class-k prediction of an outside sample a false
  positive of k, the outside classes are just not reported or averaged, as
  sklearn's ``precision_recall_fscore_support(labels=...)`` does).
- ``average`` (avg): ``macro`` (default), ``micro``, ``weighted``, ``none``
  (a dict {label: value}), ``binary``. Macro is the default because it is
  the reporting choice that shows what the document warns about: every class
  weighs the same, so a failed minority class is visible, while micro equals
  accuracy on single-label data. (sklearn's default, binary, refuses
  multiclass data.)
- ``zero_division`` (zd), for a per-class value whose denominator is 0
  (P_k of a class never predicted, R_k of a class without samples, F_k of a
  class neither present nor predicted) and for a pooled micro denominator of
  0: ``zero`` (default; value 0, as sklearn's "warn" and 0, torchmetrics and
  seqeval), ``one`` (value 1), ``undefined`` (the per-class value and any
  average over it are Undefined), ``exclude`` (the per-class value is
  Undefined and the class leaves macro and weighted averages, as sklearn's
  ``zero_division=np.nan``; micro with a zero pooled denominator is Undefined).
- ``no_weight`` (nowt), a weighted average whose classes all have support 0:
  ``undefined`` (default: the weighted mean is 0/0), ``unweighted`` (sklearn >=
  1.3 ``_nanaverage``: the plain mean of the values left), ``zero-if-predicted``
  (sklearn 0.22-1.2 and seqeval: P and F 0 when something is predicted, R, and
  all three when nothing is, the zero_division value).
- ``beta`` (beta), f1 only: rational >= 0, default 1 (beta = 0 gives P), or
  ``inf`` (recall: scikit-learn's ``fbeta_score(beta=np.inf)``, the limit).
- ``adjusted`` (adj), balanced accuracy only: ``no`` (default) or ``yes``.
- ``ignore_index`` (ign): ``none`` (default) or a label: the samples whose TRUE label is that
  label are left out before anything is counted, as if they were not in the input (torchmetrics
  ``ignore_index``: "Specifies a target value that is ignored and does not contribute to the
  metric calculation", functional/classification/stat_scores.py ``idx = target !=
  ignore_index``; the -100 of token classification). The label set is then read from what is
  left (``union``) or declared, without the ignored label, which is no class: it is never
  averaged over nor reported (torchmetrics' own documentation; its macro averages that keep
  it as a 0 are its tracker's issues 1691 and 2441). A sample of another true label predicted
  as the ignored label is a miss of its true class and no class's prediction. An int
  label is written as its decimal text (``-100``); a string label as itself (the string
  ``none`` cannot be ignored). Single-label input only.

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/classification.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

import math
from fractions import Fraction

from .conventions import InputError, Metric, Result
from .exact import Undefined
from .multilabel import indicator_tally, is_multilabel, subset_accuracy
from .tally import Tally, tally
from .classification_knobs import (ADJUSTED, AVERAGE, BETA, IGNORE_INDEX, LABEL_SET, NORMALIZE,  # noqa: F401
                                  NO_WEIGHT, OUTSIDE, OUTSIDE_PRF, TOP_K, ZERO_DIVISION, IgnoreKnob)


# --------------------------------------------------------- ratios and averages

class _ZeroDivision:
    """A ratio whose denominator is 0, with the reason, before the policy applies."""

    def __init__(self, reason: str):
        self.reason = reason


def _ratio(num, den, reason: str):
    if den == 0:
        return _ZeroDivision(reason)
    if type(num) is int and type(den) is int:
        return Fraction(num, den)
    return Fraction(num) / den


def _weighted_sum(pairs) -> Fraction:
    """sum(v * w) of Fractions v and integer weights w (1, or a class's support), exactly:
    numerators are summed per denominator, then over one common denominator (the lcm of
    the distinct ones), so that 1,000 per-class values cost one normalisation instead of
    1,000 additions of growing fractions. The same rational as the plain sum."""
    by_den: dict = {}
    for v, w in pairs:
        by_den[v.denominator] = by_den.get(v.denominator, 0) + v.numerator * w
    if not by_den:
        return Fraction(0)
    common = math.lcm(*by_den)
    return Fraction(sum(n * (common // d) for d, n in by_den.items()), common)


def _settle(x, zd: str):
    """A per-class value under the zero_division policy (exclude and undefined: Undefined)."""
    if not isinstance(x, _ZeroDivision):
        return x
    if zd == "zero":
        return Fraction(0)
    if zd == "one":
        return Fraction(1)
    return Undefined(x.reason + (" (zero_division=exclude)" if zd == "exclude" else ""))


_NEVER = {"class": "it is never predicted", "label": "it is never predicted",
          "sample": "no label is predicted for it"}
_NONE = {"class": "it has no samples", "label": "no sample has it", "sample": "it has no true label"}


def _per_class(t: Tally, which: str, beta2: Fraction = Fraction(1)) -> list:
    if type(beta2) is Fraction and beta2.denominator == 1:
        beta2 = beta2.numerator   # integer counts stay integers: one Fraction per class
    out = []
    for c, tp, fp, fn in zip(t.classes, t.tp, t.fp, t.fn):
        if which == "precision":
            out.append(_ratio(tp, tp + fp, f"precision of {t.unit} {c!r}: {_NEVER[t.unit]} (tp + fp = 0)"))
        elif which == "recall":
            out.append(_ratio(tp, tp + fn, f"recall of {t.unit} {c!r}: {_NONE[t.unit]} (tp + fn = 0)"))
        else:
            out.append(_ratio((1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp,
                              f"F of {t.unit} {c!r}: its denominator (1+b^2)tp + b^2 fn + fp is 0"))
    return out


def _settled_terms(pairs: list, zd: str, what: str):
    """The (value, weight) pairs with each 0/0 value settled by ``zd``: left out under
    exclude; under undefined the whole is Undefined (``what`` names the average)."""
    kept = []
    for v, w in pairs:
        if isinstance(v, _ZeroDivision):
            if zd == "undefined":
                return Undefined(v.reason + f"; {what} over it is undefined")
            if zd == "exclude":
                continue
            v = _settle(v, zd)
        kept.append((v, w))
    return kept


def _average(t: Tally, values: list, average: str, zd: str, micro, no_weight: str = "undefined",
             which: str = "", unit_weights: list | None = None):
    """Combine per-class values (possibly _ZeroDivision) under ``average``;
    ``micro`` is the pooled ratio (or _ZeroDivision); ``no_weight`` settles a weighted
    average with no weight left (``which``: precision, recall or f1)."""
    if average == "weighted" and no_weight == "zero-if-predicted" and sum(t.support) == 0:
        predicted = sum(t.tp) + sum(t.fp) > 0
        if predicted and which != "recall":
            return Fraction(0)
        return _settle(_ZeroDivision(f"weighted {which}: no class has support"), zd) \
            if zd in ("zero", "one") else Undefined(f"weighted {which}: no class has support (zero_division={zd})")
    if average == "micro":
        if isinstance(micro, _ZeroDivision):
            return _settle(micro, zd) if zd in ("zero", "one") else Undefined(micro.reason)
        return micro
    if average == "none":
        return {c: _settle(v, zd) for c, v in zip(t.classes, values)}
    pairs = list(zip(values, [1] * len(values) if average == "macro" else t.support))
    if unit_weights is not None:   # the samples' own weights (average=samples under sample_weight)
        pairs = [(v, w) for v, w in zip(values, unit_weights) if w > 0]
    elif average == "weighted":
        pairs = [(v, w) for v, w in pairs if w > 0]
    kept = _settled_terms(pairs, zd, f"the {average} average")
    if isinstance(kept, Undefined):
        return kept
    weight = Fraction(sum(w for _, w in kept))
    if weight == 0 and average == "weighted" and no_weight == "unweighted":
        # sklearn's _nanaverage: the values left (not NaN), each counted once
        left = _settled_terms([(v, Fraction(1)) for v in values], zd, "the unweighted fallback")
        if isinstance(left, Undefined):
            return left
        if left:
            return _weighted_sum((v, 1) for v, _ in left) / len(left)
    if weight == 0:
        return Undefined(f"no class left to average ({average})")
    return _weighted_sum(kept) / weight


def _micro(t: Tally, which: str, beta2: Fraction = Fraction(1)):
    tp, fp, fn = sum(t.tp), sum(t.fp), sum(t.fn)
    if which == "precision":
        return _ratio(tp, tp + fp, "micro precision: no prediction of any class (sum of tp + fp = 0)")
    if which == "recall":
        return _ratio(tp, tp + fn, "micro recall: no sample of any class (sum of tp + fn = 0)")
    return _ratio((1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp, "micro F: every pooled count is 0")


_NO_SAMPLES = "no samples"


def _prf(which: str):
    def compute(inputs, settings: dict) -> Result:
        average = settings["average"]
        if is_multilabel(inputs):
            t, pos_label = indicator_tally(inputs, settings, "sample" if average == "samples" else "label"), None
        elif average == "samples":
            raise InputError("average=samples averages over the samples of multilabel indicator input (rows of "
                             "0/1); y_true is a list of labels (scikit-learn: 'Sample-based precision, recall, "
                             "fscore is not meaningful outside multilabel classification')", item="y_true")
        else:
            t, pos_label = tally(inputs, settings, with_matrix=False)
        # F_inf: the limit of (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp) is R
        what = "recall" if which == "f1" and settings.get("beta") == "inf" else which
        beta2 = Fraction(settings.get("beta", "1")) ** 2 if what == "f1" else Fraction(1)
        values = _per_class(t, what, beta2)
        per_class = {c: _settle(v, settings["zero_division"]) for c, v in zip(t.classes, values)}
        parts = {"per_sample" if t.unit == "sample" else "per_class": per_class}
        if average == "samples":
            if t.n == 0:
                return Result(Undefined(_NO_SAMPLES), stats=t.stats(), parts=parts)
            return Result(_average(t, values, "macro", settings["zero_division"], None,
                                   unit_weights=t.unit_weights), stats=t.stats(), parts=parts)
        if t.n == 0:
            return Result(Undefined(_NO_SAMPLES), stats=t.stats(), parts=parts)
        if average == "binary":
            if len(t.classes) > 2:
                raise InputError(f"average=binary needs at most two classes; the classes are {t.classes!r}",
                                 item="y_true")
            value = per_class[pos_label]
        else:
            value = _average(t, values, average, settings["zero_division"], _micro(t, what, beta2),
                             settings["no_weight"], what)
        return Result(value, stats=t.stats(), parts=parts)
    return compute


def _single_label(inputs, metric: str, note: str = "") -> None:
    if is_multilabel(inputs):
        raise InputError(f"y_true: rows of indicators (multilabel input); {metric} is defined here for "
                         f"single-label data, a list of labels{note}", item="y_true")


def compute_confusion_matrix(inputs, settings: dict) -> Result:
    """C[i][j] = #{samples with true label c_i and predicted label c_j}, counted pair by pair
    (document 003: cm[label, pred] += 1 per pair; sklearn confusion_matrix); under
    ``normalize`` divided by its row sums (true), column sums (pred) or the total (all),
    a 0/0 entry 0 (sklearn: nan_to_num after the division)."""
    _single_label(inputs, "confusion_matrix", " (scikit-learn: multilabel_confusion_matrix)")
    t, _ = tally(inputs, settings)
    parts = {"labels": list(t.classes)}
    how = settings.get("normalize", "none")
    if how == "none":
        return Result(t.matrix, stats=t.stats(), parts=parts)
    m = t.matrix
    if how == "true":
        sums = [sum(row) for row in m]
        out = [[Fraction(x, sums[i]) if sums[i] else Fraction(0) for x in row] for i, row in enumerate(m)]
    elif how == "pred":
        sums = [sum(col) for col in zip(*m)] if m else []
        out = [[Fraction(x, sums[j]) if sums[j] else Fraction(0) for j, x in enumerate(row)] for row in m]
    else:
        n = sum(map(sum, m))
        out = [[Fraction(x, n) if n else Fraction(0) for x in row] for row in m]
    parts["counts"] = m
    return Result(out, stats=t.stats(), parts=parts)


def compute_accuracy(inputs, settings: dict) -> Result:
    """accuracy = trace(C) / N (document 003: cm.diagonal().sum() / cm.sum()); on
    multilabel indicator input, subset accuracy (``oracle.multilabel``)."""
    if is_multilabel(inputs):
        value, stats = subset_accuracy(inputs, settings)
        return Result(value if value is not None else Undefined(_NO_SAMPLES), stats=stats)
    t, _ = tally(inputs, settings, with_matrix=False)
    correct = sum(t.tp)
    value = Fraction(correct, t.n) if t.n else Undefined(_NO_SAMPLES)
    return Result(value, stats={**t.stats(), "correct": correct})


def compute_per_class_accuracy(inputs, settings: dict) -> Result:
    """a_k = C_kk / sum_j C_kj (document 003); a class with no samples is Undefined (not measured).
    Its statistics keep the matrix: document 003 derives the value from it."""
    _single_label(inputs, "per_class_accuracy")
    t, _ = tally(inputs, settings)
    value = {}
    for c, tp, s in zip(t.classes, t.tp, t.support):
        value[c] = Fraction(tp, s) if s else Undefined(f"class {c!r} has no samples: not measured")
    return Result(value, stats=t.stats(), parts={f"class[{c}]": v for c, v in value.items()})


def compute_balanced_accuracy(inputs, settings: dict) -> Result:
    """Mean of R_k over the classes with support; adjusted: (score - 1/K)/(1 - 1/K)
    with K the number of those classes (sklearn balanced_accuracy_score)."""
    _single_label(inputs, "balanced_accuracy", " (scikit-learn: 'multilabel-indicator is not supported')")
    t, _ = tally(inputs, settings, with_matrix=False)
    recalls = {c: Fraction(tp, s) for c, tp, s in zip(t.classes, t.tp, t.support) if s}
    parts = {"per_class_recall": recalls}
    if t.n == 0 or not recalls:
        return Result(Undefined(_NO_SAMPLES), stats=t.stats(), parts=parts)
    score = sum(recalls.values(), Fraction(0)) / len(recalls)
    parts["balanced"] = score
    if settings["adjusted"] == "yes":
        k = len(recalls)
        if k == 1:
            return Result(Undefined("adjusted balanced accuracy needs two classes with samples (chance 1/K = 1)"),
                          stats=t.stats(), parts=parts)
        chance = Fraction(1, k)
        parts["chance"] = chance
        score = (score - chance) / (1 - chance)
    return Result(score, stats=t.stats(), parts=parts)


def compute_classification_report(inputs, settings: dict) -> Result:
    """sklearn classification_report(output_dict=True) layout with exact values."""
    _single_label(inputs, "classification_report")
    t, _ = tally(inputs, settings)
    if t.n == 0:
        return Result(Undefined(_NO_SAMPLES), stats=t.stats())
    zd = settings["zero_division"]
    cols = {w: _per_class(t, w) for w in ("precision", "recall", "f1")}
    report: dict = {}
    for j, c in enumerate(t.classes):
        report[str(c)] = {"precision": _settle(cols["precision"][j], zd), "recall": _settle(cols["recall"][j], zd),
                          "f1-score": _settle(cols["f1"][j], zd), "support": Fraction(t.support[j])}
    total = Fraction(sum(t.support))
    rows = {}
    for average in ("micro", "macro", "weighted"):
        nw = settings["no_weight"]
        rows[average] = {"precision": _average(t, cols["precision"], average, zd, _micro(t, "precision"), nw,
                                               "precision"),
                         "recall": _average(t, cols["recall"], average, zd, _micro(t, "recall"), nw, "recall"),
                         "f1-score": _average(t, cols["f1"], average, zd, _micro(t, "f1"), nw, "f1"),
                         "support": total}
    if t.all_inside:
        report["accuracy"] = rows["micro"]["precision"]
    else:
        report["micro avg"] = rows["micro"]
    report["macro avg"] = rows["macro"]
    report["weighted avg"] = rows["weighted"]
    return Result(report, stats=t.stats())


def _prf_inert(knob: str, a: str, b: str, settings) -> str | None:
    """no_weight settles a weighted average with no weight left: under any other average
    it is never read (``_average``)."""
    if knob == "no_weight" and settings.get("average") != "weighted":
        return f"average={settings.get('average')}: no_weight applies to the weighted average only"
    return None


_INPUTS = {"y_true": "list of true labels (ints or strings)",
           "y_pred": "list of predicted labels, y_pred[i] for sample i",
           "labels": "optional: the declared classes, in order",
           "pos_label": "optional: the positive class of average=binary (default 1)"}

CONFUSION_MATRIX = Metric(
    name="confusion_matrix", family="classification",
    summary="K x K counts: rows are the true label, columns the prediction",
    knobs=(LABEL_SET, OUTSIDE, NORMALIZE, IGNORE_INDEX), inputs=_INPUTS, compute_fn=compute_confusion_matrix)
ACCURACY = Metric(
    name="accuracy", family="classification", summary="Fraction of samples whose prediction equals the truth",
    knobs=(LABEL_SET, OUTSIDE, IGNORE_INDEX, TOP_K), inputs=_INPUTS, compute_fn=compute_accuracy)
PER_CLASS_ACCURACY = Metric(
    name="per_class_accuracy", family="classification",
    summary="Per class: the diagonal cell over its row sum (= per-class recall); no samples: not measured",
    knobs=(LABEL_SET, OUTSIDE, IGNORE_INDEX), inputs=_INPUTS, compute_fn=compute_per_class_accuracy)
PRECISION = Metric(
    name="precision", family="classification", summary="tp / (tp + fp), per class or averaged",
    knobs=(LABEL_SET, OUTSIDE_PRF, AVERAGE, ZERO_DIVISION, NO_WEIGHT, IGNORE_INDEX, TOP_K), inputs=_INPUTS,
    compute_fn=_prf("precision"),
    inert_fn=_prf_inert)
RECALL = Metric(
    name="recall", family="classification", summary="tp / (tp + fn), per class or averaged",
    knobs=(LABEL_SET, OUTSIDE_PRF, AVERAGE, ZERO_DIVISION, NO_WEIGHT, IGNORE_INDEX, TOP_K), inputs=_INPUTS,
    compute_fn=_prf("recall"),
    inert_fn=_prf_inert)
F1 = Metric(
    name="f1", family="classification",
    summary="F-beta = (1+b^2) tp / ((1+b^2) tp + b^2 fn + fp), per class or averaged",
    knobs=(LABEL_SET, OUTSIDE_PRF, AVERAGE, ZERO_DIVISION, NO_WEIGHT, BETA, IGNORE_INDEX, TOP_K), inputs=_INPUTS,
    compute_fn=_prf("f1"), inert_fn=_prf_inert)
BALANCED_ACCURACY = Metric(
    name="balanced_accuracy", family="classification",
    summary="Mean per-class recall over the classes with samples (optionally chance-adjusted)",
    knobs=(LABEL_SET, OUTSIDE, ADJUSTED, IGNORE_INDEX), inputs=_INPUTS, compute_fn=compute_balanced_accuracy)
CLASSIFICATION_REPORT = Metric(
    name="classification_report", family="classification",
    summary="Per-class precision, recall, F1 and support with accuracy (or micro), macro and weighted averages",
    knobs=(LABEL_SET, OUTSIDE_PRF, ZERO_DIVISION, NO_WEIGHT, IGNORE_INDEX), inputs=_INPUTS,
    compute_fn=compute_classification_report)
