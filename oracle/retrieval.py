"""Cross-modal retrieval recall@K (image-to-text, text-to-image), exactly.

Inputs: ``{"similarity": [[s_ij, ...], ...], "matches": [[j, ...], ...]}``.
``similarity[i][j]`` scores image i against text j (rows are images, columns
texts). ``matches`` (optional) lists, for each image i, the indices of its
correct texts (five captions per image in COCO and Flickr30k); without it the
matrix must be square and image i matches text i (the diagonal convention of
source document 001 part 1). Text-to-image reads the same relation from the
text side: the correct images of text j are the images whose list holds j.
Similarities are integers, floats (taken at their exact binary value: IEEE
comparisons are exact) or strings read exactly (``"1/3"``, ``"0.25"``).

recall@K = (1/Q) * sum over the Q queries of hit(q), where hit(q) says whether
a correct candidate is among the K highest-scored candidates of query q
(hit if any of several correct items is; source document 001 recall_at_k();
conventions.md "several correct items per query: hit if any").

Ties. For query q let s* be the best score of a correct candidate, a the
number of candidates scored above s* (all incorrect), t the number scored
exactly s*, and c the number of correct ones among those t. The tied block
fills ranks a+1 .. a+t. Knob ``ties`` (ties):
- ``expected`` (default): the probability of a hit when the tied block is put
  in a uniformly random order (McSherry and Najork 2008, ECIR, "Computing
  information retrieval performance measures efficiently in the presence of
  tied scores": a tie-aware metric is the mean over all orders of the ties).
  With r = K - a slots left for the block: hit = 0 if r <= 0, 1 if r >= t, else
  1 - C(t - c, r) / C(t, r) (the r first places of the block are a uniformly
  random r-subset of it; a miss is an r-subset drawn from the t - c incorrect
  ones: hypergeometric with zero successes). It is the tie-agnostic value:
  between the two bounds, equal to both when no tie straddles the cutoff,
  and the value a library with an arbitrary (unstable) sort gets on average.
- ``optimistic``: correct candidates first in the block: hit iff a < K.
- ``pessimistic``: incorrect candidates first: hit iff a + t - c < K.
- ``index-order``: the block in increasing candidate index (a stable sort by
  decreasing score, as ``sorted`` and ``np.argsort(kind="stable")`` give).
Optimistic and pessimistic values are always in ``parts``, so a library
whose sort breaks ties arbitrarily can be judged against the interval.

A 2-D NumPy array of finite floats (float16/32/64) is not converted to lists:
a, t, c, the index-order rank and the top-K lists are counted in NumPy by
IEEE comparisons, which are exact, so the result is the one of
``similarity.tolist()`` (``_recall_numpy``; any other input, or an array with
NaN or infinity, takes the general path and its errors).

Other knobs: ``direction`` (dir): ``image-to-text`` (default; rows are the
queries) or ``text-to-image`` (columns are the queries); ``k`` (k): integer
>= 1, default 1.

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/retrieval.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

import heapq
import math
import operator
import sys
from fractions import Fraction
from itertools import chain, repeat
from math import comb

from .conventions import InputError, Knob, Metric, Result
from .exact import Undefined
from .magnitude import SCORE_EXPONENT, exponent_problem

_DOC = "source document 001_e6f299f74aa61acb.txt part 1, recall_at_k()"

DIRECTION = Knob(
    "direction", "which side queries: images (rows) or texts (columns)", "image-to-text",
    choices=("image-to-text", "text-to-image"),
    sources={"image-to-text": f"{_DOC}: recall_at_k(skor, K)", "text-to-image": f"{_DOC}: recall_at_k(skor.T, K)"},
    key="dir",
    unspecified="both directions are standard and reported side by side (Karpathy and Fei-Fei 2015, CVPR, "
                "Table 1: image annotation and image search)")
K = Knob("k", "cutoff: a query hits when a correct candidate is among its K best", "1", kind="int", minimum=1,
         sources={"*": f"{_DOC}: i in peringkat[i, :k]"})
TIES = Knob(
    "ties", "how candidates with equal similarity are ordered", "expected",
    choices=("expected", "optimistic", "pessimistic", "index-order"),
    sources={"expected": "McSherry and Najork 2008 (ECIR), mean over all orders of the tied candidates",
             "optimistic": "correct candidates ranked first among equals",
             "pessimistic": "correct candidates ranked last among equals",
             "index-order": "equals in increasing candidate index (stable sort by decreasing score)"})


def _number(x, where: str):
    """An exactly comparable number: int, float (finite) or Fraction; strings parsed exactly."""
    if isinstance(x, bool) or x is None:
        raise InputError(f"{where}: expected a number, got {'null' if x is None else 'a bool'}", item=where)
    if isinstance(x, float):
        if math.isnan(x):
            raise InputError(f"{where}: NaN is not a similarity", item=where)
        if math.isinf(x):
            raise InputError(f"{where}: an infinite similarity ({x}) is not allowed", item=where)
        return x
    if isinstance(x, (int, Fraction)):
        return x
    if isinstance(x, str):
        why = exponent_problem(x.strip(), SCORE_EXPONENT)
        if why:
            raise InputError(f"{where}: {x!r}: {why}", item=where)
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{where}: {x!r} is not an exact number (write '0.25' or '1/4')", item=where) from None
    if hasattr(x, "item") and not hasattr(x, "__len__"):  # a NumPy scalar, read without importing NumPy
        return _number(x.item(), where)
    raise InputError(f"{where}: expected a number, got {type(x).__name__}", item=where)


def _plain_finite(row) -> bool:
    """True when every item is a plain float or int (no bool) and none is NaN or infinite
    (their sum is then finite; an overflowing sum only sends the row to the item-by-item check)."""
    if not set(map(type, row)) <= {float, int}:
        return False
    try:
        return math.isfinite(sum(row))
    except OverflowError:
        return False


def _similarity_field(inputs):
    """The ``similarity`` input, after the checks of the input fields."""
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with similarity (and matches), got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - {"similarity", "matches"})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are similarity, matches", item=unknown[0])
    if "similarity" not in inputs:
        raise InputError("inputs: missing field 'similarity'", item="similarity")
    return inputs["similarity"]


def _read(inputs) -> tuple[list, list | None]:
    sim = _similarity_field(inputs)
    if hasattr(sim, "tolist"):
        sim = sim.tolist()
    if not isinstance(sim, (list, tuple)):
        raise InputError(f"similarity: expected a list of rows, got {type(sim).__name__}", item="similarity")
    rows = []
    width = None
    for i, row in enumerate(sim):
        if hasattr(row, "tolist"):
            row = row.tolist()
        if not isinstance(row, (list, tuple)):
            raise InputError(f"similarity[{i}]: expected a row (list), got {type(row).__name__}",
                             item=f"similarity[{i}]")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InputError(f"similarity[{i}]: {len(row)} columns, but row 0 has {width} (ragged matrix)",
                             item=f"similarity[{i}]")
        if _plain_finite(row):
            rows.append(list(row))
        else:
            rows.append([_number(x, f"similarity[{i}][{j}]") for j, x in enumerate(row)])
    return rows, _read_matches(inputs.get("matches"), len(rows), width or 0)


def _read_matches(matches, n_img: int, n_txt: int) -> list | None:
    """The checked ``matches`` (None: the diagonal) of an n_img x n_txt similarity matrix."""
    if matches is None:
        if n_img != n_txt:
            raise InputError(f"similarity: {n_img} x {n_txt} is not square; give 'matches' (the correct texts "
                             f"of each image)", item="similarity")
        return None
    if not isinstance(matches, (list, tuple)):
        raise InputError(f"matches: expected a list (per image, its correct text indices), got "
                         f"{type(matches).__name__}", item="matches")
    if len(matches) != n_img:
        raise InputError(f"matches: {len(matches)} lists but similarity has {n_img} images (rows)", item="matches")
    out = []
    for i, js in enumerate(matches):
        if not isinstance(js, (list, tuple)):
            raise InputError(f"matches[{i}]: expected a list of text indices, got {type(js).__name__}",
                             item=f"matches[{i}]")
        seen = set()
        for p, j in enumerate(js):
            where = f"matches[{i}][{p}]"
            if isinstance(j, bool) or not isinstance(j, int):
                raise InputError(f"{where}: expected a text index (integer), got {j!r}", item=where)
            if not 0 <= j < n_txt:
                raise InputError(f"{where}: text index {j} is outside 0..{n_txt - 1}", item=where)
            if j in seen:
                raise InputError(f"{where}: text {j} is listed twice for image {i}", item=where)
            seen.add(j)
        out.append(list(js))
    return out


def _correct_lists(matches, n_img: int, n_txt: int, direction: str) -> list[list[int]]:
    """The correct candidate indices of each query, in query order; InputError for the
    first query without one."""
    if direction == "image-to-text":
        if matches is None:
            return [[i] for i in range(n_img)]
        for i, js in enumerate(matches):
            if not js:
                raise InputError(f"matches[{i}]: image {i} has no correct text (every query needs one)",
                                 item=f"matches[{i}]")
        return matches
    if matches is None:
        return [[j] for j in range(n_txt)]
    by_text: list[list[int]] = [[] for _ in range(n_txt)]
    for i, js in enumerate(matches):
        for j in js:
            by_text[j].append(i)
    for j in range(n_txt):
        if not by_text[j]:
            raise InputError(f"matches: text {j} is listed by no image (every text query needs a correct image)",
                             item="matches")
    return by_text


def _queries(rows, matches, direction: str):
    """(query name, candidate scores, correct candidate indices) per query."""
    n_img = len(rows)
    n_txt = len(rows[0]) if rows else 0
    correct = _correct_lists(matches, n_img, n_txt, direction)
    if direction == "image-to-text":
        for i in range(n_img):
            yield f"image {i}", rows[i], correct[i]
        return
    for j in range(n_txt):
        yield f"text {j}", [rows[i][j] for i in range(n_img)], correct[j]


def tie_counts(scores: list, correct: list) -> tuple[int, int, int]:
    """(a, t, c): candidates above the best correct score, candidates equal to it,
    correct candidates equal to it."""
    best = max(scores[j] for j in correct)
    above = int(sum(map(operator.lt, repeat(best), scores)))  # int(): a NumPy float subclass compares to np.bool_
    tied = int(sum(map(operator.eq, repeat(best), scores)))
    cset = set(correct)
    tied_correct = sum(1 for j in cset if scores[j] == best)
    return above, tied, tied_correct


def expected_hit(above: int, tied: int, tied_correct: int, k: int) -> Fraction:
    """P(a correct candidate in the top k) when the tied block is in uniformly random order:
    1 - C(t - c, r) / C(t, r) with r = k - a places left for the block."""
    r = k - above
    if r <= 0:
        return Fraction(0)
    if r >= tied:
        return Fraction(1)
    return 1 - Fraction(comb(tied - tied_correct, r), comb(tied, r))


def _index_order_rank(scores: list, correct: list) -> int:
    best = max(scores[j] for j in correct)
    first = min(j for j in correct if scores[j] == best)
    return 1 + sum(1 for j, s in enumerate(scores) if s > best or (s == best and j < first))


def _float_matrix(sim):
    """``sim`` as a float64 matrix when the NumPy path applies, else None: a plain 2-D
    ``numpy.ndarray`` of floats (at most 64 bits: converting them to float64 is exact, and
    ``.tolist()`` gives these same Python floats), with at least one row and one column and
    no NaN or infinity (those inputs take the general path, which reports them)."""
    np = sys.modules.get("numpy")  # an ndarray input means NumPy is already imported
    if np is None or type(sim) is not np.ndarray:
        return None
    if sim.ndim != 2 or 0 in sim.shape or sim.dtype.kind != "f" or sim.dtype.itemsize > 8:
        return None
    m = sim.astype(np.float64, copy=False)
    rows = _block_rows(m.shape[1])
    isfinite = np.isfinite
    for lo in range(0, m.shape[0], rows):
        if not isfinite(m[lo:lo + rows]).all():
            return None
    return m


def _block_rows(n: int) -> int:
    """Rows of an n-column float64 matrix read per block (about 64,000 scores, 512 KB): the
    comparisons of a block with its rows' thresholds stay in the processor's cache, and their
    temporary arrays are small enough to be reused from the allocator's free memory (one
    comparison of a whole 1,000 x 5,000 matrix made a 5 MB temporary, whose first touch cost
    page faults that depended on the process's past: the same call took 115 ms or 160 ms)."""
    return max(1, 65536 // max(1, n))


def _top_k_lists(q, k: int, block: int | None = None) -> list:
    """Per row of the float64 matrix q, its min(k, n) best [index, Fraction(score)] in decreasing
    score, ties in increasing index: ``heapq.nlargest(k, range(n), key=row.__getitem__)``.

    Only a superset of each row's top min(k, n) is read into Python: with the row cut in blocks
    of ``block`` columns, the k-th largest block maximum t is at most the k-th largest score v
    (the k largest block maxima are k scores >= t), so every score >= v is >= t; nlargest over
    the scores >= t, kept in increasing index, is nlargest over the whole row."""
    import numpy as np
    m, n = q.shape
    kk = min(k, n)
    block = block or max(1, n // (8 * kk))
    maxima = np.maximum.reduceat(q, np.arange(0, n, block), axis=1)
    nb = maxima.shape[1]
    cut = np.partition(maxima, nb - kk, axis=1)[:, nb - kk] if kk <= nb else q.min(axis=1)
    rows_per = _block_rows(n)
    flat = np.concatenate([np.flatnonzero(q[lo:lo + rows_per] >= cut[lo:lo + rows_per, None]) + lo * n
                           for lo in range(0, m, rows_per)])  # row-major: by row, then increasing index
    rows, cols = np.divmod(flat, n)
    scores = q[rows, cols].tolist()
    cols = cols.tolist()
    bounds = np.searchsorted(rows, np.arange(m + 1)).tolist()
    top = []
    for lo, hi in zip(bounds, bounds[1:]):
        vs, cs = scores[lo:hi], cols[lo:hi]
        order = sorted(range(hi - lo), key=vs.__getitem__, reverse=True)[:kk]  # = nlargest (stable)
        top.append([[cs[p], Fraction(vs[p])] for p in order])
    return top


def _recall_numpy(sim, correct: list, k: int, rule: str, direction: str) -> Result:
    """compute_recall_at_k on a finite float64 matrix (``_float_matrix``): the same counts
    (a, t, c), index-order ranks and top-K lists, by exact float comparisons in NumPy."""
    import numpy as np
    q = sim if direction == "image-to-text" else np.ascontiguousarray(sim.T)
    m, n = q.shape
    lengths = np.fromiter(map(len, correct), dtype=np.intp, count=m)
    cand = np.fromiter(chain.from_iterable(correct), dtype=np.intp, count=int(lengths.sum()))
    starts = np.zeros(m, dtype=np.intp)
    np.cumsum(lengths[:-1], out=starts[1:])
    owner = np.repeat(np.arange(m), lengths)
    vals = q[owner, cand]
    best = np.maximum.reduceat(vals, starts)  # every query has a correct candidate
    is_best = vals == best[owner]
    # a: the scores above the best correct one, t: those equal to it (index-order: those of them
    # at a lower index than the first correct candidate scored best), counted a block of rows at a time
    above, tied = np.empty(m, np.intp), np.empty(m, np.intp)
    if rule == "index-order":
        first = np.minimum.reduceat(np.where(is_best, cand, n), starts)
        before, columns = np.empty(m, np.intp), np.arange(n)
    rows = _block_rows(n)
    for lo in range(0, m, rows):
        hi = lo + rows
        block, b = q[lo:hi], best[lo:hi, None]
        above[lo:hi] = np.count_nonzero(block > b, axis=1)
        equal = block == b
        tied[lo:hi] = np.count_nonzero(equal, axis=1)
        if rule == "index-order":
            before[lo:hi] = np.count_nonzero(equal & (columns < first[lo:hi, None]), axis=1)
    tied_correct = np.add.reduceat(is_best.astype(np.intp), starts)
    beyond = above + tied - tied_correct  # the pessimistic rank - 1
    opt_hit, pes_hit = above < k, beyond < k
    if rule == "expected":
        hits = [expected_hit(a, t, c, k) for a, t, c in zip(above.tolist(), tied.tolist(), tied_correct.tolist())]
    else:
        if rule == "optimistic":
            hit = opt_hit
        elif rule == "pessimistic":
            hit = pes_hit
        else:  # index-order: the first (lowest index) correct candidate scored best, after every higher
            # score and every equal score at a lower index
            hit = 1 + above + before <= k
        one, zero = Fraction(1), Fraction(0)
        hits = [one if h else zero for h in hit.tolist()]
    return Result(sum(hits, Fraction(0)) / m,
                  stats={"queries": m, "rank_optimistic": (above + 1).tolist(),
                         "rank_pessimistic": (beyond + 1).tolist()},
                  parts={"hits": hits, "optimistic": Fraction(int(np.count_nonzero(opt_hit)), m),
                         "pessimistic": Fraction(int(np.count_nonzero(pes_hit)), m),
                         "top_k": _top_k_lists(q, k)})


def compute_recall_at_k(inputs, settings: dict) -> Result:
    """recall@K = mean over queries of hit(q) under the tie rule (module docstring)."""
    k = int(settings["k"])
    rule = settings["ties"]
    array = _float_matrix(_similarity_field(inputs))
    if array is not None:  # same result, counted in NumPy
        correct = _correct_lists(_read_matches(inputs.get("matches"), *array.shape), *array.shape,
                                 settings["direction"])
        return _recall_numpy(array, correct, k, rule, settings["direction"])
    rows, matches = _read(inputs)
    hits, opt, pes, r_opt, r_pes, top = [], [], [], [], [], []
    for _, scores, correct in _queries(rows, matches, settings["direction"]):
        a, t, c = tie_counts(scores, correct)
        r_opt.append(a + 1)
        r_pes.append(a + t - c + 1)
        opt.append(Fraction(int(a < k)))
        pes.append(Fraction(int(a + t - c < k)))
        if rule == "expected":
            hits.append(expected_hit(a, t, c, k))
        elif rule == "optimistic":
            hits.append(opt[-1])
        elif rule == "pessimistic":
            hits.append(pes[-1])
        else:
            hits.append(Fraction(int(_index_order_rank(scores, correct) <= k)))
        # decreasing score, ties in increasing index: nlargest is sorted(..., reverse=True)[:k], a stable sort
        order = heapq.nlargest(k, range(len(scores)), key=scores.__getitem__)
        top.append([[j, Fraction(scores[j])] for j in order])
    if not hits:
        empty = Undefined("no queries")
        return Result(empty, stats={"queries": 0, "rank_optimistic": [], "rank_pessimistic": []},
                      parts={"hits": [], "optimistic": empty, "pessimistic": empty, "top_k": []})
    n = len(hits)
    return Result(sum(hits, Fraction(0)) / n,
                  stats={"queries": n, "rank_optimistic": r_opt, "rank_pessimistic": r_pes},
                  parts={"hits": hits, "optimistic": sum(opt, Fraction(0)) / n,
                         "pessimistic": sum(pes, Fraction(0)) / n, "top_k": top})


RECALL_AT_K = Metric(
    name="cross_modal_recall_at_k", family="retrieval",
    summary="Fraction of queries (images or texts) with a correct candidate among their K most similar",
    knobs=(DIRECTION, K, TIES),
    inputs={"similarity": "similarity[i][j] scores image i against text j (numbers, or exact strings)",
            "matches": "optional: matches[i] lists the correct text indices of image i "
                       "(default: image i matches text i, square matrix)"},
    compute_fn=compute_recall_at_k)
