"""Hypothesis strategies for scores against binary relevance (``score_average_precision``,
``label_ranking_average_precision``): indicator rows with per-label prevalence, and
scores that tie often (a few levels, halves and tenths) with a signal toward the
relevant entries now and then, as classifier scores do."""
from __future__ import annotations

from conformance.strategies._st import st

_LEVELS = (0, 0.1, 0.25, 0.5, 0.75, 0.9, 1)


@st.composite
def _score(draw, relevant: int, signal: int):
    kind = draw(st.integers(0, 9))
    if kind <= 5:
        x = draw(st.sampled_from(_LEVELS))
    elif kind <= 7:
        x = draw(st.integers(-2, 3))
    else:
        x = draw(st.floats(-1, 1, allow_nan=False, allow_infinity=False, width=32))
    # the signal: relevant entries raised now and then (scores are informative, not noise)
    return x + 1 if relevant and signal and draw(st.integers(0, 2)) == 0 else x


@st.composite
def score_rows(draw, max_samples: int = 8, max_labels: int = 5, binary: bool | None = None):
    """``{"y_true", "y_score"}``: rows (n x L), or one binary problem (``binary``: a list
    of 0/1 and a list of scores), drawn at random when ``binary`` is None."""
    if binary is None:
        binary = draw(st.integers(0, 3)) == 0
    n = draw(st.integers(1, max_samples), label="samples")
    width = 1 if binary else draw(st.integers(2, max_labels), label="labels")
    prevalence = [draw(st.sampled_from((0, 1, 3, 5, 9))) for _ in range(width)]   # in tenths
    signal = draw(st.integers(0, 1))
    rel = [[1 if draw(st.integers(0, 9)) < prevalence[j] else 0 for j in range(width)] for _ in range(n)]
    scores = [[draw(_score(r[j], signal)) for j in range(width)] for r in rel]
    if binary:
        return {"y_true": [r[0] for r in rel], "y_score": [s[0] for s in scores]}
    return {"y_true": rel, "y_score": scores}


@st.composite
def graded_rows(draw, max_samples: int = 5, max_items: int = 6, negative: bool = False):
    """``{"y_true", "y_score"}`` for DCG and NDCG: rows of integer grades (mostly 0, a few
    high; negative now and then where allowed) and scores that tie often."""
    n = draw(st.integers(1, max_samples), label="samples")
    width = draw(st.integers(2, max_items), label="items")
    low = -1 if negative else 0
    grades = [[draw(st.sampled_from((0, 0, 0, 1, 1, 2, 3, low))) for _ in range(width)] for _ in range(n)]
    signal = draw(st.integers(0, 1))
    scores = [[draw(_score(g > 0, signal)) for g in row] for row in grades]
    return {"y_true": grades, "y_score": scores}


@st.composite
def class_scores(draw, max_samples: int = 8):
    """``{"y_true", "y_score"[, "labels"]}`` for top-k accuracy: 3 to 5 int classes, one row
    of scores per sample (tied often), the true class's score raised now and then; the
    sorted labels given, or every class present in y_true (as scikit-learn needs)."""
    width = draw(st.integers(3, 5), label="classes")
    n = draw(st.integers(1, max_samples), label="samples")
    declare = draw(st.booleans(), label="declare labels")
    if not declare:
        n = max(n, width)
    y_true = [draw(st.integers(0, width - 1)) for _ in range(n)]
    if not declare:
        y_true[:width] = list(draw(st.permutations(range(width))))
    signal = draw(st.integers(0, 1))
    y_score = [[draw(_score(j == t, signal)) for j in range(width)] for t in y_true]
    out = {"y_true": y_true, "y_score": y_score}
    if declare:
        out["labels"] = list(range(width))
    return out


def for_settings(metric: str):
    def strategy(settings):
        if metric in ("top_k_accuracy", "label_reciprocal_rank"):
            return class_scores()
        if metric in ("score_dcg", "score_ndcg"):
            return graded_rows(negative=metric == "score_dcg")
        return score_rows(binary=False if metric == "label_ranking_average_precision" else None)
    return strategy


def weighted_forms(metric: str) -> dict:
    """The weighted input form (``Plan.forms``): the metric's inputs with one sample weight per
    sample (``oracle.score_weights``), under ties=step (weights with ties=expected are refused)."""
    if metric not in ("score_average_precision", "label_ranking_average_precision", "score_dcg", "score_ndcg",
                      "top_k_accuracy"):
        return {}
    from .classification import draw_weights

    def fits(settings) -> bool:   # AP and LRAP's ties=expected takes no weights (top-k's ties is another knob)
        return metric not in ("score_average_precision", "label_ranking_average_precision") or \
            settings.get("ties") != "expected"

    def weighted_for(settings):
        plain = for_settings(metric)(settings)   # (held, not the settings: see classification._weighted_for)

        @st.composite
        def weighted(draw):
            inputs = draw(plain)
            return {**inputs, "sample_weight": draw_weights(draw, len(inputs["y_true"]))}
        return weighted()
    return {"weighted": (fits, weighted_for)}


def permute_samples(inputs, data):
    """Rows (or the binary problem's entries) in another order: AP and LRAP do not depend
    on it (AP ranks by score, LRAP averages over samples)."""
    n = len(inputs["y_true"])
    order = data.draw(st.permutations(range(n)), label="sample order")
    return {**inputs, **{k: [inputs[k][i] for i in order] for k in ("y_true", "y_score", "sample_weight")
                         if k in inputs}}


def permute_labels(inputs, data):
    """Label columns in another order: LRAP, and AP under macro, micro, weighted and samples,
    do not depend on it (the invariance runs at the profile's average; ``none`` lists the
    columns in order and is not a profile here)."""
    if not isinstance(inputs["y_true"][0], list):
        return inputs
    width = len(inputs["y_true"][0])
    order = data.draw(st.permutations(range(width)), label="label order")
    return {**inputs, **{k: [[row[j] for j in order] for row in inputs[k]] for k in ("y_true", "y_score")}}


def invariances(metric: str) -> dict:
    if metric in ("top_k_accuracy", "label_reciprocal_rank"):   # the columns follow the sorted classes: only samples move
        return {"sample-order": permute_samples}
    return {"sample-order": permute_samples, "label-order": permute_labels}
