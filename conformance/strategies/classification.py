"""Hypothesis strategies for classification inputs (label pairs, and multilabel
indicator rows).

Labels come from a small set (ints or strings) so that classes repeat. The
predictions are made by perturbing the truth, sample by sample: kept
(a diagonal cell), replaced by another class (an off-diagonal cell), or
replaced by a class that is sometimes absent from the truth (a column
without a row: precision defined, recall not). Declared label lists come in
a shuffled order, sometimes with a class that never occurs; with
``outside=True`` some samples carry a label outside the declared list.
"""
from __future__ import annotations

from conformance.strategies._st import st

INT_LABELS = (0, 1, 2, 3)
STR_LABELS = ("bird", "cat", "dog", "fish")
OUTSIDE_LABELS = {int: (7, 9), str: ("owl", "zebra")}


@st.composite
def classification_inputs(draw, max_samples: int = 12, min_samples: int = 1, declare: bool | None = None,
                          outside: bool = False, binary: bool = False):
    """Inputs of the classification metrics: ``y_true``, ``y_pred`` and, when
    declared (always with ``outside``), ``labels``. With ``binary`` there are
    two classes; int classes are 0 and 1 (the default pos_label 1), string
    classes get an explicit ``pos_label``."""
    pool = draw(st.sampled_from((INT_LABELS, STR_LABELS)), label="label kind")
    if binary:
        classes = [0, 1] if pool is INT_LABELS else list(draw(st.permutations(pool)))[:2]
    else:
        classes = list(draw(st.permutations(pool)))[:draw(st.integers(2, len(pool)))]
    # occasionally the last class never occurs in the truth (it may still be predicted)
    truth_classes = classes[:-1] if draw(st.integers(0, 3)) == 0 else classes
    n = draw(st.integers(min_samples, max_samples), label="samples")
    y_true = [draw(st.sampled_from(truth_classes)) for _ in range(n)]
    y_pred = []
    for t in y_true:
        op = draw(st.integers(0, 4))
        if op <= 1:
            y_pred.append(t)
        elif op == 2:
            y_pred.append(draw(st.sampled_from([c for c in classes if c != t])))
        else:
            y_pred.append(draw(st.sampled_from(classes)))
    out = {"y_true": y_true, "y_pred": y_pred}
    if outside and n:
        extra = OUTSIDE_LABELS[type(classes[0])]
        if draw(st.integers(0, 5)) == 0:
            # now and then no true label is among the declared ones (an edge libraries refuse,
            # and where a weighted average has no weight: no_weight)
            out["y_true"] = [draw(st.sampled_from(extra)) for _ in range(n)]
        for i in draw(st.lists(st.integers(0, n - 1), max_size=max(1, n // 3), unique=True)):
            which = draw(st.sampled_from(("y_true", "y_pred", "both")))
            for key in (("y_true", "y_pred") if which == "both" else (which,)):
                out[key][i] = draw(st.sampled_from(extra))
    if outside or (declare if declare is not None else draw(st.booleans(), label="declare labels")):
        labels = list(draw(st.permutations(classes)))
        if not binary and len(labels) < len(pool) and draw(st.integers(0, 3)) == 0:
            labels.append(next(c for c in pool if c not in labels))  # a class that never occurs
        out["labels"] = labels
    if binary and isinstance(classes[0], str):
        out["pos_label"] = draw(st.sampled_from(classes))
    return out


@st.composite
def multilabel_inputs(draw, max_samples: int = 10, max_labels: int = 5, declare: bool | None = None,
                      outside: bool = False):
    """Multilabel indicator inputs: n rows of L 0/1 indicators. Each label has its own
    prevalence (some labels rare, one now and then never true), and each prediction is
    the truth kept, flipped, or drawn at the label's prevalence; now and then a row is
    all 0 (a sample with no label) or copied exactly. Declared columns (always with
    ``outside``, which leaves the others out) come in a shuffled order, a subset under
    ``outside``."""
    n = draw(st.integers(0 if draw(st.integers(0, 9)) == 0 else 1, max_samples), label="samples")
    width = draw(st.integers(2, max_labels), label="labels")
    prevalence = [draw(st.sampled_from((0, 1, 2, 5, 8))) for _ in range(width)]   # in tenths
    y_true, y_pred = [], []
    for _ in range(n):
        row = [1 if draw(st.integers(0, 9)) < prevalence[j] else 0 for j in range(width)]
        if draw(st.integers(0, 7)) == 0:
            row = [0] * width
        mode = draw(st.integers(0, 5))
        pred = []
        for j, x in enumerate(row):
            op = draw(st.integers(0, 4))
            if mode == 0 or op <= 2:
                pred.append(x)
            elif op == 3:
                pred.append(1 - x)
            else:
                pred.append(1 if draw(st.integers(0, 9)) < prevalence[j] else 0)
        y_true.append(row)
        y_pred.append(pred)
    out = {"y_true": y_true, "y_pred": y_pred}
    if n and (outside or (declare if declare is not None else draw(st.booleans(), label="declare labels"))):
        cols = list(draw(st.permutations(range(width))))
        if outside:
            cols = cols[:draw(st.integers(1, width))]
        out["labels"] = cols
    return out


def _multilabel_fits(settings) -> bool:
    """Multilabel input has no single positive class (average=binary); ``samples`` is
    drawn as multilabel by ``for_settings`` itself."""
    return settings.get("average") not in ("binary", "samples")


def _multilabel_for(settings) -> st.SearchStrategy:
    return multilabel_inputs(outside=settings.get("outside") in ("drop", "keep"),
                             declare=True if settings.get("label_set") == "declared" else None)


# weights a float holds exactly (what a library receives is then the oracle's rational),
# 0 (the sample counts for nothing) among them
WEIGHTS = (0, 1, 1, 2, 3, 0.5, 0.25, 1.5, 10)


def _weighted_fits(settings) -> bool:
    return True


def _weighted_for(settings, multilabel: bool = False) -> st.SearchStrategy:
    """The inputs ``for_settings`` draws (rows of indicators under average=samples), now and
    then indicator rows for a metric that takes them (``multilabel``), with one weight each.
    The composite holds the two strategies, not the settings."""
    plain = for_settings(settings)
    indicator_rows = _multilabel_for(settings) if multilabel and _multilabel_fits(settings) else None

    @st.composite
    def weighted(draw):
        rows = indicator_rows is not None and draw(st.integers(0, 3)) == 0
        inputs = draw(indicator_rows if rows else plain)
        return {**inputs, "sample_weight": draw_weights(draw, len(inputs["y_true"]))}
    return weighted()


def draw_weights(draw, n: int) -> list:
    """n sample weights from WEIGHTS (0 and fractions among them); now and then one weight for
    all (a scaling, which changes no weighted mean)."""
    if draw(st.integers(0, 5)) == 0:
        return [draw(st.sampled_from(WEIGHTS[1:]))] * n
    return [draw(st.sampled_from(WEIGHTS)) for _ in range(n)]


# scores with many ties (a tie at the k-th place decides a top-k prediction) and some distinct
SCORES = (0, 0.25, 0.5, 0.5, 0.75, 1, 0.1, 0.3, 0.7, 2.5)


def _scores_fits(settings) -> bool:
    return settings.get("average") not in ("binary", "samples") and settings.get("outside", "error") == "error" \
        and settings.get("label_set", "auto") != "union"


def _scores_for(settings) -> st.SearchStrategy:
    """Score rows (``y_score``) over 3 or 4 declared classes (ints 0..C-1 or strings, the
    columns in the declared order); a true label is now and then the top-scored class,
    often tied with others."""
    @st.composite
    def scores(draw):
        pool = draw(st.sampled_from((INT_LABELS, STR_LABELS)), label="label kind")
        c = draw(st.integers(3, len(pool)))
        classes = list(range(c)) if pool is INT_LABELS else list(draw(st.permutations(pool)))[:c]
        n = draw(st.integers(1, 10), label="samples")
        y_true = [draw(st.sampled_from(classes)) for _ in range(n)]
        rows = []
        for t in y_true:
            row = [draw(st.sampled_from(SCORES)) for _ in range(c)]
            if draw(st.integers(0, 3)) == 0:          # the true class on top (maybe tied)
                row[classes.index(t)] = max(row)
            rows.append(row)
        return {"y_true": y_true, "y_score": rows, "labels": classes}
    return scores()


def multilabel_for(settings) -> st.SearchStrategy:
    """Indicator rows that fit ``settings`` (the public name of the multilabel form)."""
    return _multilabel_for(settings)


def forms(metric: str) -> dict:
    """The other input shapes a metric takes (``Plan.forms``): sample weights for every
    metric; multilabel indicator rows and rows of class scores (``y_score``, read under
    ``top_k``) for precision, recall, F and accuracy."""
    rows = metric in ("precision", "recall", "f1", "accuracy")
    out = {"weighted": (_weighted_fits, lambda settings: _weighted_for(settings, multilabel=rows))}
    if rows:
        out["multilabel"] = (_multilabel_fits, _multilabel_for)
        out["scores"] = (_scores_fits, _scores_for)
    return out


def for_settings(settings) -> st.SearchStrategy:
    """The strategy that fits a metric's settings: outside labels only where the
    ``outside`` policy accepts them, two classes under ``average=binary``, a
    declared list under ``label_set=declared``, multilabel rows under ``average=samples``."""
    if settings.get("average") == "samples":
        return _multilabel_for(settings)
    return classification_inputs(
        outside=settings.get("outside") in ("drop", "keep"),
        binary=settings.get("average") == "binary",
        declare=True if settings.get("label_set") == "declared" else None)


# ------------------------------------------------------------ plan pieces

METRICS = ("confusion_matrix", "accuracy", "per_class_accuracy", "precision", "recall", "f1",
           "balanced_accuracy", "classification_report")


def permute_samples(inputs, data):
    """The same samples in another order: y_true and y_pred permuted alike (labels untouched)."""
    order = data.draw(st.permutations(range(len(inputs["y_true"]))), label="sample order")
    return {**inputs, "y_true": [inputs["y_true"][i] for i in order], "y_pred": [inputs["y_pred"][i] for i in order]}


def permute_labels(inputs, data):
    """The declared labels in another order (changes the matrix layout, no value keyed by label)."""
    if "labels" not in inputs:
        return inputs
    return {**inputs, "labels": data.draw(st.permutations(inputs["labels"]), label="label order")}


def _class_set(inputs, settings) -> list:
    if "labels" in inputs and settings.get("label_set", "auto") != "union":
        return list(inputs["labels"])
    return sorted(set(inputs["y_true"]) | set(inputs["y_pred"]))


def perfect_prediction(metric: str):
    """Identity: y_pred replaced by y_true. Accuracy, balanced accuracy and micro
    P/R/F are then 1; macro, weighted, binary and per-class P/R/F are 1 when every
    class of the label set occurs in y_true (else a zero division decides)."""
    if metric not in ("accuracy", "balanced_accuracy", "precision", "recall", "f1"):
        return None

    def identity(inputs, settings):
        from fractions import Fraction
        y = list(inputs["y_true"])
        if not y or "y_pred" not in inputs or isinstance(y[0], list):
            return None   # scores (top-k) or indicator rows: another identity
        new = {**inputs, "y_pred": y}
        classes = _class_set(new, settings)
        if any(t not in classes for t in y):
            return None  # outside labels: drop/keep change what is counted
        if metric == "accuracy":
            return new, Fraction(1)
        if metric == "balanced_accuracy":
            return (new, Fraction(1)) if settings.get("adjusted") != "yes" or len(set(y)) > 1 else None
        average = settings.get("average")
        if average != "micro" and set(classes) - set(y):
            return None
        if average == "binary" and inputs.get("pos_label", 1) not in y:
            return None  # the positive class never occurs: its P, R, F divide by zero
        if average == "none":
            return new, {c: Fraction(1) for c in classes}
        return new, Fraction(1)
    return identity


def upper(metric: str):
    """1 for rates; none for counts (the matrix, the report's support)."""
    from fractions import Fraction
    if metric in ("confusion_matrix", "classification_report"):
        return lambda s: None
    return lambda s: Fraction(1)


def invariances(metric: str) -> dict:
    out = {"sample-order": permute_samples}
    if metric != "confusion_matrix":
        out["label-order"] = permute_labels
    return out
