"""Separating probes of the score-ranking measures (``oracle.score_ranking``, ``oracle.class_ranks``)."""
from __future__ import annotations

from .classification import ranked_at

PROBES = [
    # tied scores across relevant and nonrelevant items (ties=step against expected)
    ("binary-ties", {"y_true": [1, 0, 1, 0], "y_score": [0.9, 0.9, 0.8, 0.1]}, ("score_average_precision",)),
    # label rows: tied scores, a row with no relevant label, graded relevance (DCG's gains),
    # the relevant labels at ranks 1..7 (k)
    ("rows", {"y_true": [[3, 2, 0, 1, 0, 1, 1, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 2, 0, 0, 1]],
              "y_score": [[8, 7, 7, 5, 4, 3, 2, 1], [1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 2]]},
     ("score_ndcg", "score_dcg")),
    # label rows with ties between relevant and nonrelevant labels
    ("label-ties", {"y_true": [[1, 0, 1, 0], [0, 1, 0, 1]], "y_score": [[2, 2, 1, 1], [3, 2, 2, 1]]},
     ("label_ranking_average_precision",)),
    ("label-rows", {"y_true": [[1, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 1, 0, 0, 0]],
                    "y_score": [[8, 7, 7, 5, 4, 3, 2, 1], [1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 2]]},
     ("label_ranking_average_precision", "score_average_precision")),
    # the true class at rank 1..8 of its row, one row with a tie at the true class
    ("classes", {"y_true": list(range(8)),
                 "y_score": [ranked_at(t, 8) for t in range(8)]},
     ("top_k_accuracy", "label_reciprocal_rank")),
    ("classes-tied", {"y_true": [0, 1, 2], "y_score": [[1, 1, 0], [2, 1, 1], [3, 2, 3]]},
     ("top_k_accuracy", "label_reciprocal_rank")),
]
