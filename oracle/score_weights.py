"""Sample weights for the score-ranking family (``oracle.score_ranking``): scikit-learn's
``sample_weight`` of ``average_precision_score``, ``label_ranking_average_precision_score``,
``dcg_score``, ``ndcg_score`` and ``top_k_accuracy_score``.

``"sample_weight": [w, ...]``: one non-negative finite rational per sample (a row of rows
input, an item of one binary problem), read as ``oracle.tally`` reads the classification
weights (an InputError naming the weight otherwise). What a weight does, per metric
(scikit-learn 1.9 sklearn/metrics/_ranking.py and _base.py):

- a per-sample value (LRAP, DCG, NDCG, a top-k hit, AP under ``average=samples``) enters the
  mean with its sample's weight: sum_i w_i v_i / sum_i w_i (``np.average(..., weights=
  sample_weight)``; LRAP: ``aux * sample_weight[i]`` summed, then ``/= np.sum(sample_weight)``);
  a total weight of 0 leaves the mean undefined (0/0);
- step AP of one binary problem (``_binary_clf_curve``: ``tps = stable_cumsum(y_true *
  weight)``, ``fps = stable_cumsum((1 - y_true) * weight)``): the counts of the thresholds are
  sums of weights, AP = (1/R_w) sum_g r_g cum_r / cum_n with r_g, cum_r, cum_n and R_w weighted;
  no weighted relevant item (R_w = 0) is the no_relevant case;
- ``average=micro`` repeats each sample's weight over its labels (``np.repeat(score_weight,
  y_true.shape[1])``); ``macro`` and ``none`` weigh each column's items; ``weighted`` weighs
  the columns by their weighted support sum_i w_i y_ij (``np.sum(np.multiply(y_true,
  np.reshape(score_weight, (-1, 1))), axis=0)``); ``samples`` takes each row's AP unweighted
  and the weighted mean of the rows.

Weights with ``ties=expected`` (the mean over tie orders) are refused: scikit-learn has no such
rule and this project defines none.
"""
from __future__ import annotations

from fractions import Fraction

from .conventions import InputError
from .exact import Undefined, product, total


def sample_weights(inputs, n: int) -> list | None:
    """The checked weights of ``inputs`` (None without the field), one per sample of n."""
    if "sample_weight" not in inputs:
        return None
    from .tally import _weights
    return _weights(inputs["sample_weight"], n)


def refuse_with_expected(weights, settings) -> None:
    if weights is not None and settings.get("ties") == "expected":
        raise InputError("sample_weight: weights are defined for ties=step (scikit-learn's thresholds), not for "
                         "the mean over tie orders", item="sample_weight")


def weighted_step_ap(rel: list, scores: list, weights: list):
    """Step AP with weighted counts (module docstring); None when no weighted item is relevant."""
    groups: dict = {}
    R = Fraction(0)
    for r, s, w in zip(rel, scores, weights):
        g = groups.setdefault(s, [Fraction(0), Fraction(0)])
        g[0] += w
        if r:
            g[1] += w
            R += w
    if R == 0:
        return None
    value, cum_n, cum_r = Fraction(0), Fraction(0), Fraction(0)
    for s in sorted(groups, reverse=True):
        n_g, r_g = groups[s]
        cum_n += n_g
        cum_r += r_g
        if r_g:
            value += r_g * cum_r / cum_n
    return value / R


def weighted_mean(values: list, weights: list):
    """sum_i w_i v_i / sum_i w_i of exact values (Fractions or closed forms); an undefined
    value with a positive weight is the mean's; undefined when the weights sum to 0."""
    W = sum(weights, Fraction(0))
    if W == 0:
        return Undefined("the sample weights sum to 0: no weighted mean")
    kept = [(v, w) for v, w in zip(values, weights) if w]
    bad = next((v for v, _ in kept if isinstance(v, Undefined)), None)
    if bad is not None:
        return bad
    if all(isinstance(v, (int, Fraction)) for v, _ in kept):
        return sum((v * w for v, w in kept), Fraction(0)) / W
    return total([product([w / W, v]) for v, w in kept])
