"""Ranking measures of a run file too large to hold: the run is read in chunks of whole
queries and each chunk evaluated as it is read, so that memory holds one chunk, the
qrels and one value per query and measure, not the run.

Every ranking measure of the oracle is a summary of per-query values that depend on
that query's judgements and ranking only (trec_eval evaluates query by query too:
trec_eval.c calls te_calc_meas per query, then te_calc_avg). A chunk's Result is
therefore the summary over its queries, and the run's summary is made from the
chunks' (``Metric.aggregate``):
- mean: value = sum_c (n_c / N) v_c, n_c the chunk's averaged queries, N = sum_c n_c;
- sum and count: value = sum_c v_c;
- geometric: value = prod_c v_c^(n_c / N).
The queries of the qrels that the run does not list form a last chunk with an empty
run, so ``missing`` (trec_eval -c) and ``queries`` treat them as the whole run would.
Exact values are combined exactly: the result equals the whole run's (tested on
random runs, one query per chunk).

A run file is read in blocks of consecutive lines of one query (``oracle.trec``); a
chunk is closed at the first query change after ``chunk_lines`` lines. A query whose
lines are not consecutive (a block of it after another query's) cannot be streamed:
``Interleaved`` is raised and the caller reads the run whole (trec_eval sorts the
whole run, so such files are legal; the files trec_eval, Anserini and Pyserini
write list each query's lines together).
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from .conventions import Result
from .exact import Undefined, power, product, total

__all__ = ["Interleaved", "iter_run_chunks", "compute_streamed"]

CHUNK_LINES = 500_000


class Interleaved(Exception):
    """A query's lines are not consecutive in the run file (it cannot be streamed)."""

    def __init__(self, query: str):
        self.query = query
        super().__init__(f"the lines of query {query!r} are not consecutive")


def iter_run_chunks(path, chunk_lines: int = CHUNK_LINES, duplicates: str = "error", scores: str = "text"):
    """The run file as a sequence of runs {qid: ranking} (as ``oracle.trec.read_run`` reads
    them), each of whole queries and about ``chunk_lines`` lines; ``Interleaved`` when a
    query comes back after another query's lines."""
    from .trec import _add_block, _blocks
    if chunk_lines < 1:
        raise ValueError(f"chunk_lines: {chunk_lines} must be at least 1")
    run: dict = {}
    done: set = set()
    lines = 0
    as_float = scores == "float"
    for q, docs, vals in _blocks(path):
        if q in done:
            raise Interleaved(q)
        if q not in run and lines >= chunk_lines:
            yield run
            done.update(run)
            run, lines = {}, 0
        _add_block(path, run, q, docs, vals, as_float, duplicates)
        lines += len(docs)
    yield run


def compute_streamed(qrels: dict, chunks, measures, transform=None) -> list:
    """The Results of ``measures`` ([(metric or name, conventions), ...]) over the run given
    as ``chunks`` (an iterable of runs of disjoint query sets), each chunk evaluated by
    ``oracle.ranking.compute_many`` and dropped; ``transform(run, qrels)`` may rewrite each
    chunk first (trec_eval -M, -J: per-query transforms). The value, ``stats`` counts,
    ``parts["per_query"]`` (and the other per-query parts) are those of the whole run."""
    from .ranking import compute_many
    from .registry import get_metric
    metrics = [(get_metric(m) if isinstance(m, str) else m, c) for m, c in measures]
    pieces: list = [[] for _ in metrics]     # per measure: [(queries averaged, Result)]
    seen: set = set()
    for run in _with_missing(qrels, chunks, seen):
        sub = {q: qrels[q] for q in run if q in qrels} if run else {q: j for q, j in qrels.items() if q not in seen}
        if transform is not None:
            run = transform(run, sub)
        for i, r in enumerate(compute_many({"qrels": sub, "run": run}, metrics)):
            pieces[i].append((int(r.stats.get("queries", 0)), r))
    order = {q: i for i, q in enumerate(qrels)}
    out = []
    for (m, conventions), p in zip(metrics, pieces):
        r = _combine(m.aggregate, p)
        if m.settings(conventions)["queries"] != "run":   # the whole run's order: the qrels'
            r.parts.update({k: dict(sorted(v.items(), key=lambda kv: order.get(kv[0], len(order))))
                            for k, v in r.parts.items() if k.endswith("per_query")})
        out.append(r)
    return out


def _with_missing(qrels: dict, chunks, seen: set):
    """The chunks, then an empty run standing for the qrels' queries that no chunk listed."""
    for run in chunks:
        if run:
            seen.update(run)
            yield run
    yield {}


def _combine(aggregate: str, pieces: list) -> Result:
    """One Result from the chunks' (see the module docstring)."""
    n = sum(k for k, _ in pieces)
    stats: dict = {}
    parts: dict = {}
    for _, r in pieces:
        for key, v in r.stats.items():
            if type(v) is int:
                stats[key] = stats.get(key, 0) + v
        for key, v in r.parts.items():
            if isinstance(v, Mapping):
                parts.setdefault(key, {}).update(v)
    counted = [(k, r) for k, r in pieces if k]
    if aggregate in ("sum", "count"):
        value = total([r.value for _, r in counted]) if counted else Fraction(0)
    elif not n:
        value = Undefined("no queries to average")
    elif aggregate == "geometric":
        value = product([power(r.value, Fraction(k, n)) for k, r in counted])
    else:
        value = _mean(counted, n, "value")
        for key in ("residual", "upper"):   # RBP's interval, averaged like the value
            if all(key in r.parts for _, r in counted):
                parts[key] = _mean(counted, n, key)
    return Result(value, stats=stats, parts=parts)


def _mean(counted: list, n: int, key: str):
    values = [(k, r.value if key == "value" else r.parts[key]) for k, r in counted]
    if all(type(v) is Fraction for _, v in values):
        return sum((k * v for k, v in values), Fraction(0)) / n
    return total([product([Fraction(k, n), v]) for k, v in values])
