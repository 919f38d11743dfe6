"""Separating probes of cross-modal recall@K (``oracle.retrieval``)."""
from __future__ import annotations

PROBES = [
    # 7 images, 7 texts: image i's text is ranked i-th in its row (recall@K differs for every K),
    # a tie between a correct and an incorrect text (ties), and the columns differ (direction)
    ("ladder", {"similarity": [[9 - abs(i - j) * (1 if j >= i else 2) - (3 if j == (i + 1) % 7 and i < 3 else 0)
                                for j in range(7)] for i in range(7)],
                "matches": [[(i + i) % 7] for i in range(7)]}),
    ("tie", {"similarity": [[1, 1, 0], [2, 1, 1], [0, 0, 1]]}),
]
