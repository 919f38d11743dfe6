"""The common prefix and suffix of two token sequences (the alignments match them first)."""
from __future__ import annotations


def common_affix(a, b) -> tuple[int, int]:
    """(p, s): the lengths of the longest common prefix of a and b and of the longest
    common suffix of what remains."""
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p, s
