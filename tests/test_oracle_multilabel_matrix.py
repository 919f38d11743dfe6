"""The multilabel confusion matrix (``oracle.multilabel``) against second derivations: on
single-label data each class's 2 x 2 matrix read off the K x K confusion matrix; on indicator
rows the per-sample matrices' tp, fp and fn summing to the per-label ones, and every matrix
summing to its samples (labels)."""
from __future__ import annotations

import random

import pytest

from oracle import InputError, compute


def test_one_vs_rest_is_read_off_the_confusion_matrix():
    rng = random.Random(4)
    for _ in range(300):
        n, k = rng.randint(1, 12), rng.randint(1, 4)
        x = {"y_true": [rng.randrange(k) for _ in range(n)], "y_pred": [rng.randrange(k) for _ in range(n)]}
        cm = compute("confusion_matrix", x).value
        got = compute("multilabel_confusion_matrix", x).value
        for c, m in enumerate(got):
            tp = cm[c][c]
            fp = sum(cm[r][c] for r in range(len(cm))) - tp
            fn = sum(cm[c]) - tp
            assert m == [[n - tp - fp - fn, fp], [fn, tp]]


def test_samplewise_counts_add_up_to_the_labels():
    rng = random.Random(5)
    for _ in range(300):
        n, width = rng.randint(1, 8), rng.randint(2, 5)
        x = {"y_true": [[rng.randint(0, 1) for _ in range(width)] for _ in range(n)],
             "y_pred": [[rng.randint(0, 1) for _ in range(width)] for _ in range(n)]}
        per_label = compute("multilabel_confusion_matrix", x).value
        per_sample = compute("multilabel_confusion_matrix", x, {"samplewise": "yes"}).value
        for i, j in ((0, 1), (1, 0), (1, 1), (0, 0)):
            assert sum(m[i][j] for m in per_label) == sum(m[i][j] for m in per_sample)
        assert all(sum(map(sum, m)) == n for m in per_label)
        assert all(sum(map(sum, m)) == width for m in per_sample)


def test_samplewise_matrices_of_a_list_of_labels_are_refused():
    with pytest.raises(InputError, match="samplewise"):
        compute("multilabel_confusion_matrix", {"y_true": [0, 1], "y_pred": [1, 1]}, {"samplewise": "yes"})
