"""Sample weights of the score-ranking family (oracle/score_weights.py): against scikit-learn,
whose sample_weight the family follows, on random weighted inputs; against a second
formulation (integer weights = repeated samples); and the refusals."""
import random
import warnings

import pytest

from oracle.conventions import InputError
from oracle.registry import compute


def _inputs(rng: random.Random, graded: bool = False):
    n, width = rng.randint(2, 6), rng.randint(2, 4)
    y_true = [[rng.randint(0, 3 if graded else 1) for _ in range(width)] for _ in range(n)]
    y_score = [[rng.randint(0, 3) / 4 for _ in range(width)] for _ in range(n)]   # ties on purpose
    weights = [rng.choice([0, 1, 2, 3, 0.5, 0.25]) for _ in range(n)]
    if not any(weights):
        weights[0] = 1
    return y_true, y_score, weights


def test_agrees_with_scikit_learn():
    np = pytest.importorskip("numpy")
    sk = pytest.importorskip("sklearn.metrics")
    rng = random.Random(4)
    compared = 0
    for _ in range(150):
        yt, ys, w = _inputs(rng)
        cases = [("score_average_precision", {"average": a, "no_relevant": "zero"},
                  lambda a=a: sk.average_precision_score(np.array(yt), np.array(ys), average=a, sample_weight=w))
                 for a in ("macro", "micro", "weighted", "samples")]
        cases.append(("label_ranking_average_precision", {"no_relevant": "one"},
                      lambda: sk.label_ranking_average_precision_score(np.array(yt), np.array(ys), sample_weight=w)))
        g, _, _ = _inputs(random.Random(rng.random()), graded=True)
        g = [row[:len(ys[0])] + [0] * (len(ys[0]) - len(row)) for row in g][:len(ys)]
        g += [[0] * len(ys[0])] * (len(ys) - len(g))
        for k in (None, 2):
            kk = {"k": "none" if k is None else str(k)}
            cases.append(("score_ndcg", kk, lambda k=k: sk.ndcg_score(np.array(g), np.array(ys), k=k, sample_weight=w)))
            cases.append(("score_dcg", kk, lambda k=k: sk.dcg_score(np.array(g), np.array(ys), k=k, sample_weight=w)))
        for metric, conv, lib in cases:
            truth = g if metric in ("score_ndcg", "score_dcg") else yt
            exact = compute(metric, {"y_true": truth, "y_score": ys, "sample_weight": w}, conv).value
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = lib()
            assert float(exact) == pytest.approx(expected, rel=1e-12, abs=1e-12), (metric, conv, truth, ys, w)
            compared += 1
    assert compared >= 1200


def test_integer_weights_repeat_the_samples():
    """A weight of 2 counts a row twice: the mean over samples and the weighted thresholds of AP
    equal those of the input with the row written twice (and a weight 0 drops the row)."""
    rng = random.Random(9)
    for _ in range(100):
        yt, ys, _ = _inputs(rng)
        w = [rng.choice([0, 1, 2, 3]) for _ in yt]
        if not any(w):
            w[0] = 2
        rep_t = [r for r, k in zip(yt, w) for _ in range(k)]
        rep_s = [r for r, k in zip(ys, w) for _ in range(k)]
        for metric, conv in (("label_ranking_average_precision", {"no_relevant": "one"}),
                             ("score_average_precision", {"average": "micro", "no_relevant": "zero"}),
                             ("score_average_precision", {"average": "samples", "no_relevant": "zero"})):
            a = compute(metric, {"y_true": yt, "y_score": ys, "sample_weight": w}, conv).value
            b = compute(metric, {"y_true": rep_t, "y_score": rep_s}, conv).value
            assert a == b, (metric, conv, yt, ys, w)


def test_refusals_and_the_empty_weight():
    inputs = {"y_true": [1, 0], "y_score": [0.9, 0.1]}
    with pytest.raises(InputError, match=r"sample_weight\[1\]"):
        compute("score_average_precision", {**inputs, "sample_weight": [1, -2]}, {})
    with pytest.raises(InputError, match="1 weights but y_true has 2"):
        compute("score_average_precision", {**inputs, "sample_weight": [1]}, {})
    with pytest.raises(InputError, match="ties=step"):
        compute("score_average_precision", {**inputs, "sample_weight": [1, 1]}, {"ties": "expected"})
    assert "sum to 0" in str(compute("top_k_accuracy", {"y_true": [0, 1, 2], "y_score": [[3, 2, 1]] * 3,
                                                        "sample_weight": [0, 0, 0]}, {"k": "1"}).value)
