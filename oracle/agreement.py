"""Agreement beyond chance from label pairs: the Matthews correlation coefficient and
Cohen's kappa (unweighted, linear, quadratic), both functions of the confusion matrix
(``oracle.tally``; inputs, label sets, sample weights and ``ignore_index`` as in
``oracle.classification``).

With C the K x K matrix (rows true, columns predicted), s = sum of C, c = trace(C),
t_k = row sums (true counts), p_k = column sums (predicted counts):

- MCC (Matthews 1975; Gorodkin 2004, "Comparing two K-category assignments by a
  K-category correlation coefficient", Computational Biology and Chemistry 28, the R_K
  statistic): (c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2)); for K = 2
  it is (tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn)). A closed form
  (a rational times the square root of a rational). The denominator is 0 when all
  samples are in one true class or all predictions one class: the value is then 0/0
  (``zero_denominator``: ``undefined``, the definition; ``zero``, scikit-learn's
  ``matthews_corrcoef``: "if cov_ypyp_ytyt == 0: return 0.0").
- Cohen's kappa (Cohen 1960, "A coefficient of agreement for nominal scales"; weighted:
  Cohen 1968, "Weighted kappa", with disagreement weights w_ij): kappa = 1 - sum w_ij C_ij /
  sum w_ij E_ij, E_ij = t_i p_j / s, with w_ij = 1 - [i = j] (``weights=none``: then kappa =
  (p_o - p_e)/(1 - p_e), p_o = c/s, p_e = sum_k t_k p_k / s^2), |i - j| (``linear``) or
  (i - j)^2 (``quadratic``; Fleiss and Cohen 1973) over the classes' order (the label
  set's: sorted, or as declared). Undefined when sum w E is 0 (chance agreement is
  certain: one class on both sides) or when there are no samples.
"""
from __future__ import annotations

from fractions import Fraction

from .classification_knobs import IGNORE_INDEX, LABEL_SET, OUTSIDE
from .conventions import InputError, Knob, Metric, Result
from .exact import Undefined, power, product
from .multilabel import is_multilabel
from .tally import tally

_NO_SAMPLES = "no samples: the statistic is 0/0"

ZERO_DENOMINATOR = Knob(
    "zero_denominator", "MCC when a margin is constant (the denominator is 0)", "undefined",
    choices=("undefined", "zero"), key="zden",
    sources={"undefined": "the definition: Matthews 1975 and Gorodkin 2004 divide by sqrt(...) = 0 there (0/0)",
             "zero": "scikit-learn sklearn.metrics.matthews_corrcoef: 'if cov_ypyp_ytyt == 0: return 0.0'"})
WEIGHTS = Knob(
    "weights", "disagreement weights of kappa over the ordered classes", "none",
    choices=("none", "linear", "quadratic"), key="w",
    sources={"none": "Cohen 1960, A coefficient of agreement for nominal scales (unweighted)",
             "linear": "Cohen 1968, Weighted kappa: w_ij = |i - j|",
             "quadratic": "Fleiss and Cohen 1973: w_ij = (i - j)^2 (equivalent to the intraclass correlation)"})


def _matrix(inputs, settings: dict, metric: str):
    if is_multilabel(inputs):
        raise InputError(f"y_true: rows of indicators (multilabel input); {metric} is defined here for "
                         "single-label data, a list of labels", item="y_true")
    t, _ = tally(inputs, settings)
    return t


def compute_mcc(inputs, settings: dict) -> Result:
    """(c s - sum p_k t_k) / sqrt((s^2 - sum p_k^2)(s^2 - sum t_k^2)) (Gorodkin 2004)."""
    t = _matrix(inputs, settings, "matthews_corrcoef")
    m = t.matrix
    s = sum(sum(r) for r in m)
    true = [sum(r) for r in m]
    pred = [sum(col) for col in zip(*m)] if m else []
    c = sum(m[k][k] for k in range(len(m)))
    cov_tp = c * s - sum(a * b for a, b in zip(true, pred))
    cov_pp = s * s - sum(b * b for b in pred)
    cov_tt = s * s - sum(a * a for a in true)
    stats = {**t.stats(), "cov_true_pred": Fraction(cov_tp), "cov_pred_pred": Fraction(cov_pp),
             "cov_true_true": Fraction(cov_tt)}
    if s == 0:
        return Result(Undefined(_NO_SAMPLES), stats=stats)
    den = Fraction(cov_pp) * Fraction(cov_tt)
    if den == 0:
        if settings["zero_denominator"] == "zero":
            return Result(Fraction(0), stats=stats)
        return Result(Undefined("every sample is in one true class or predicted as one class: "
                                "MCC is 0/0"), stats=stats)
    return Result(product([Fraction(cov_tp), power(den, Fraction(-1, 2))]), stats=stats)


def compute_kappa(inputs, settings: dict) -> Result:
    """1 - sum w_ij C_ij / sum w_ij E_ij, E_ij = t_i p_j / s (Cohen 1960, 1968)."""
    t = _matrix(inputs, settings, "cohen_kappa")
    m = t.matrix
    k = len(m)
    s = sum(sum(r) for r in m)
    if s == 0:
        return Result(Undefined(_NO_SAMPLES), stats=t.stats())
    true = [sum(r) for r in m]
    pred = [sum(col) for col in zip(*m)]
    how = settings["weights"]

    def w(i, j):
        if how == "none":
            return 0 if i == j else 1
        return abs(i - j) if how == "linear" else (i - j) ** 2

    observed = sum((w(i, j) * m[i][j] for i in range(k) for j in range(k)), Fraction(0))
    expected = sum((Fraction(w(i, j) * true[i] * pred[j], s) for i in range(k) for j in range(k)), Fraction(0))
    stats = {**t.stats(), "weighted_observed": observed, "weighted_expected": expected}
    if expected == 0:
        return Result(Undefined("chance disagreement is 0 (one class on both sides): kappa is 0/0"), stats=stats)
    return Result(1 - observed / expected, stats=stats)


_INPUTS = {"y_true": "list of true labels (first annotator)", "y_pred": "list of predicted labels (second annotator)",
           "labels": "optional: the declared classes, in order"}

MATTHEWS_CORRCOEF = Metric(
    name="matthews_corrcoef", family="classification",
    summary="Matthews correlation coefficient (Gorodkin's K-class R_K): the correlation of true and predicted labels",
    knobs=(LABEL_SET, OUTSIDE, ZERO_DENOMINATOR, IGNORE_INDEX), inputs=_INPUTS, compute_fn=compute_mcc)
COHEN_KAPPA = Metric(
    name="cohen_kappa", family="classification",
    summary="Cohen's kappa: agreement beyond chance, unweighted or with linear or quadratic weights",
    knobs=(LABEL_SET, OUTSIDE, WEIGHTS, IGNORE_INDEX), inputs=_INPUTS, compute_fn=compute_kappa)
