"""MCC and Cohen's kappa (``oracle.agreement``) against second derivations: MCC as the
Pearson correlation of the one-hot indicator matrices (Gorodkin 2004's definition of R_K)
and, for two classes, Matthews' tp/tn form; unweighted kappa as (p_o - p_e)/(1 - p_e);
weighted kappa symmetric in the two raters."""
from __future__ import annotations

import random
from fractions import Fraction

from oracle import compute
from oracle.certified import interval
from oracle.exact import Undefined


def _square(x) -> Fraction:
    """x^2 of an oracle value exactly: a rational, or q * r**(1/2) read from its interval."""
    if isinstance(x, Fraction):
        return x * x
    lo, hi = interval(x, 200)
    return lo * lo if lo > 0 else hi * hi   # squared bounds: both within 2**-190 of x^2


def _sign(x) -> int:
    if isinstance(x, Fraction):
        return (x > 0) - (x < 0)
    lo, hi = interval(x, 200)
    return 1 if lo > 0 else -1 if hi < 0 else 0


def _pearson_squared_and_sign(y_true, y_pred):
    """cov(X, Y)^2 / (cov(X, X) cov(Y, Y)) over one-hot indicators X (true) and Y (pred)."""
    classes = sorted(set(y_true) | set(y_pred))
    n = len(y_true)
    X = [[Fraction(int(t == c)) for c in classes] for t in y_true]
    Y = [[Fraction(int(p == c)) for c in classes] for p in y_pred]
    mx = [sum(r[k] for r in X) / n for k in range(len(classes))]
    my = [sum(r[k] for r in Y) / n for k in range(len(classes))]

    def cov(A, ma, B, mb):
        return sum((a[k] - ma[k]) * (b[k] - mb[k]) for a, b in zip(A, B) for k in range(len(classes)))
    cxy, cxx, cyy = cov(X, mx, Y, my), cov(X, mx, X, mx), cov(Y, my, Y, my)
    if cxx * cyy == 0:
        return None
    return cxy * cxy / (cxx * cyy), (cxy > 0) - (cxy < 0)


def _label_pairs(seed: int, count: int, classes: int = 4):
    """``count`` random (y_true, y_pred) of 1 to 10 samples over 1 to ``classes`` classes."""
    rng = random.Random(seed)
    for _ in range(count):
        n, k = rng.randint(1, 10), rng.randint(1, classes)
        yield [rng.randrange(k) for _ in range(n)], [rng.randrange(k) for _ in range(n)]


def test_mcc_is_the_correlation_of_the_indicator_matrices():
    for yt, yp in _label_pairs(3, 300):
        v = compute("matthews_corrcoef", {"y_true": yt, "y_pred": yp}).value
        want = _pearson_squared_and_sign(yt, yp)
        if want is None:
            assert isinstance(v, Undefined)
            continue
        sq, sign = want
        assert _sign(v) == sign
        assert abs(_square(v) - sq) < Fraction(1, 2 ** 180), (yt, yp, v)


def test_binary_mcc_is_matthews_tp_tn_form():
    rng = random.Random(4)
    for _ in range(300):
        n = rng.randint(2, 12)
        yt = [rng.randrange(2) for _ in range(n)]
        yp = [rng.randrange(2) for _ in range(n)]
        tp = sum(t == p == 1 for t, p in zip(yt, yp))
        tn = sum(t == p == 0 for t, p in zip(yt, yp))
        fp = sum(t == 0 and p == 1 for t, p in zip(yt, yp))
        fn = sum(t == 1 and p == 0 for t, p in zip(yt, yp))
        den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        v = compute("matthews_corrcoef", {"y_true": yt, "y_pred": yp, "labels": [0, 1]}).value
        if den == 0:
            assert isinstance(v, Undefined)
        else:
            num = tp * tn - fp * fn
            assert _sign(v) == (num > 0) - (num < 0)
            assert abs(_square(v) - Fraction(num * num, den)) < Fraction(1, 2 ** 180)


def test_unweighted_kappa_is_observed_against_chance_agreement():
    for yt, yp in _label_pairs(5, 300):
        n = len(yt)
        classes = sorted(set(yt) | set(yp))
        po = Fraction(sum(a == b for a, b in zip(yt, yp)), n)
        pe = sum(Fraction(yt.count(c) * yp.count(c), n * n) for c in classes)
        v = compute("cohen_kappa", {"y_true": yt, "y_pred": yp}).value
        if pe == 1:
            assert isinstance(v, Undefined)
        else:
            assert v == (po - pe) / (1 - pe)


def test_kappa_is_symmetric_in_the_raters_under_every_weighting():
    for yt, yp in _label_pairs(6, 200, classes=5):
        for w in ("none", "linear", "quadratic"):
            a = compute("cohen_kappa", {"y_true": yt, "y_pred": yp}, {"weights": w}).value
            b = compute("cohen_kappa", {"y_true": yp, "y_pred": yt}, {"weights": w}).value
            assert a == b or (isinstance(a, Undefined) and isinstance(b, Undefined))
