"""The back-pointer walks of two tie rules, written once for both alignment paths: the
full band (``oracle.alignment.backtrace``, every row at hand) and the linear-memory one
(``oracle.alignment_walks``, rows arriving last to first). Each walk is a generator
that yields while ``wait(i)`` says row i - 1 is not there yet and returns the ops
(kind, reference token or None, hypothesis token or None); ``c(i, j)`` is the cost
of aligning a[:i] with b[:j] (definitions and sources in ``oracle.error_rates``)."""
from __future__ import annotations

from .affix import common_affix


DIAGONAL, DELETION, INSERTION = 0, 1, 2


def step(a, b, i: int, j: int, move: int, ops: list) -> tuple[int, int]:
    """Append the op of ``move`` from cell (i, j) (the diagonal: a match C or a
    substitution S; a deletion D; an insertion I) and return the cell it leads to."""
    if move == DIAGONAL:
        ops.append(("C" if a[i - 1] == b[j - 1] else "S", a[i - 1], b[j - 1]))
        return i - 1, j - 1
    if move == DELETION:
        ops.append(("D", a[i - 1], None))
        return i - 1, j
    ops.append(("I", None, b[j - 1]))
    return i, j - 1


def no_wait(i: int):
    """Every row is there (the full band)."""
    return iter(())


def finish(walk) -> list[tuple]:
    """The ops of a walk that never waits."""
    try:
        next(walk)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("a walk over the full band waited for a row")


def diagonal_first(a, b, c, wait=no_wait):
    """From (n, m): the diagonal if it is optimal, else the deletion, else the insertion."""
    i, j = len(a), len(b)
    ops: list[tuple] = []
    while i > 0 or j > 0:
        yield from wait(i)
        cur = c(i, j)
        if i > 0 and j > 0 and c(i - 1, j - 1) + (a[i - 1] != b[j - 1]) == cur:
            i, j = step(a, b, i, j, DIAGONAL, ops)
        elif i > 0 and c(i - 1, j) + 1 == cur:
            i, j = step(a, b, i, j, DELETION, ops)
        else:
            i, j = step(a, b, i, j, INSERTION, ops)
    ops.reverse()
    return ops


def rapidfuzz(a, b, c, wait=no_wait):
    """RapidFuzz's editops order: common prefix and suffix matched first; on the rest,
    from the end: a deletion if optimal, else on equal tokens an insertion if optimal or
    the match, else a substitution if optimal, else an insertion."""
    ops: list[tuple] = []
    p, s = common_affix(a, b)
    for k in range(s):
        ops.append(("C", a[len(a) - 1 - k], b[len(b) - 1 - k]))
    i, j = len(a) - s, len(b) - s
    while i > p and j > p:
        yield from wait(i)
        cur = c(i, j)
        if c(i - 1, j) + 1 == cur:
            ops.append(("D", a[i - 1], None))
            i -= 1
        elif a[i - 1] == b[j - 1]:
            if c(i, j - 1) + 1 == cur:
                ops.append(("I", None, b[j - 1]))
                j -= 1
            else:
                ops.append(("C", a[i - 1], b[j - 1]))
                i, j = i - 1, j - 1
        elif c(i - 1, j - 1) + 1 == cur:
            ops.append(("S", a[i - 1], b[j - 1]))
            i, j = i - 1, j - 1
        else:
            ops.append(("I", None, b[j - 1]))
            j -= 1
    while i > p:
        ops.append(("D", a[i - 1], None))
        i -= 1
    while j > p:
        ops.append(("I", None, b[j - 1]))
        j -= 1
    for k in range(p - 1, -1, -1):
        ops.append(("C", a[k], b[k]))
    ops.reverse()
    return ops
