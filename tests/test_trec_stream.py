"""A run evaluated in chunks of queries (oracle.trec_stream) gives the whole run's values,
per-query values and counts, for every ranking measure and the query-set knobs; a run file
is streamed with memory that does not grow with its length; interleaved queries are
refused by the stream (and read whole by ``score``)."""
from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from oracle import compute
from oracle.certified import same_value
from oracle.conventions import ConventionError
from oracle.registry import get_metric, ranking_metrics
from oracle.trec import read_run, write_qrels, write_run
from oracle.trec_stream import Interleaved, compute_streamed, iter_run_chunks

ROOT = Path(__file__).resolve().parents[1]

SETTINGS = [{}, {"missing": "skip"}, {"queries": "run"}, {"no_relevant": "skip"}, {"ties": "expected"}]


def _inputs(seed: int):
    """Graded qrels (some queries judged only, some unjudged in the run, one without a
    relevant document), tied scores, a query with an empty ranking."""
    r = random.Random(seed)
    qrels, run = {}, {}
    for q in range(7):
        docs = [f"d{i}" for i in range(r.randint(0, 9))]
        if q != 3:
            qrels[f"q{q}"] = {d: r.choice([-1, 0, 0, 1, 2, 3]) for d in r.sample(docs, len(docs) // 2)} or {"x": 1}
        if q != 5:
            run[f"q{q}"] = {d: str(r.choice([0, 1, 1, 2, 5]) / 4) for d in docs}
    qrels["q6"] = {"d0": 0}      # no relevant document
    return qrels, run


def _chunks(run: dict, size: int):
    items = list(run.items())
    for i in range(0, len(items), size):
        yield dict(items[i:i + size])


def _same(a, b) -> bool:
    if a is None or b is None or type(a).__name__ == "Undefined" or type(b).__name__ == "Undefined":
        return type(a) is type(b)
    return same_value(a, b, 30)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("size", [1, 2])
def test_chunks_give_the_whole_runs_values(seed, size):
    qrels, run = _inputs(seed)
    for extra in SETTINGS:
        measures = []
        for m in ranking_metrics():
            try:
                get_metric(m).settings(extra)
            except ConventionError:   # a knob the measure does not have (ties=expected)
                continue
            measures.append((m, extra))
        got = compute_streamed(qrels, _chunks(run, size), measures)
        for (m, conv), r in zip(measures, got):
            whole = compute(m, {"qrels": qrels, "run": run}, conv)
            where = f"{m} {conv} seed {seed} chunks of {size}"
            assert _same(r.value, whole.value), where
            assert r.stats["queries"] == whole.stats["queries"], where
            per, whole_per = r.parts["per_query"], whole.parts["per_query"]
            assert set(per) == set(whole_per), where
            assert all(_same(per[q], whole_per[q]) for q in per), where


def test_a_run_file_streams_in_chunks_of_whole_queries(tmp_path):
    qrels, run = _inputs(7)
    path = tmp_path / "run.txt"
    write_run(path, run)
    chunks = list(iter_run_chunks(path, chunk_lines=3))
    assert all(len(c) >= 1 for c in chunks) and len(chunks) > 1
    merged = {q: dict(rk) for c in chunks for q, rk in c.items()}
    assert merged == {q: dict(rk) for q, rk in read_run(path).items()}


def test_interleaved_queries_are_refused_by_the_stream(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 a 1 1.0 t\nq2 Q0 b 1 1.0 t\nq1 Q0 c 2 0.5 t\n")
    with pytest.raises(Interleaved) as e:
        list(iter_run_chunks(path, chunk_lines=1))
    assert e.value.query == "q1"
    # within one chunk the blocks of a query are joined (as read_run joins them)
    assert list(iter_run_chunks(path, chunk_lines=10)) == [{"q1": {"a": "1.0", "c": "0.5"}, "q2": {"b": "1.0"}}]


def test_score_streams_and_reads_interleaved_runs_whole(tmp_path):
    qrels, run = _inputs(11)
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    write_qrels(qp, qrels)
    write_run(rp, run)
    lines = rp.read_text().splitlines()
    shuffled = tmp_path / "shuffled.txt"
    shuffled.write_text("\n".join(random.Random(1).sample(lines, len(lines))) + "\n")

    def score(path, *extra):
        out = subprocess.run([sys.executable, "-m", "conformance", "score", "-q", "-m", "map", "ndcg_cut.5",
                              "P.5", "num_q", *extra, str(qp), str(path)],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout

    whole = score(rp)
    assert score(rp, "--chunk-lines", "1") == whole
    assert score(shuffled, "--chunk-lines", "1") == whole


_MEASURE = textwrap.dedent("""
    import resource, sys
    sys.path.insert(0, sys.argv[1])
    from oracle.trec import read_qrels
    from oracle.trec_stream import compute_streamed, iter_run_chunks
    qrels = read_qrels(sys.argv[2])
    [r] = compute_streamed(qrels, iter_run_chunks(sys.argv[3], chunk_lines=20_000), [("average_precision", {})])
    print(r.stats["queries"], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
""")


def _peak_mb(qrels, run) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(ROOT), str(qrels), str(run)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    q, mb = out.stdout.split()
    return int(q), int(mb)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kB")
def test_streamed_memory_does_not_grow_with_the_run(tmp_path):
    """Ten times the lines (100 vs 1,000 queries of 1,000 documents): the peak memory of the
    streamed evaluation grows by far less than the 90 MB or so that 900,000 more lines
    take when held (about 100 bytes a line at the least)."""
    r = random.Random(5)
    peaks = []
    for n in (100, 1000):
        qp, rp = tmp_path / f"qrels{n}.txt", tmp_path / f"run{n}.txt"
        with open(qp, "w") as fq, open(rp, "w") as fr:
            for q in range(n):
                for d in r.sample(range(1000), 20):
                    fq.write(f"q{q} 0 doc{d} {r.choice([0, 1, 2])}\n")
                for k in range(1000):
                    fr.write(f"q{q} Q0 doc{k} {k + 1} {r.random() * 20:.4f} bm25\n")
        got, mb = _peak_mb(qp, rp)
        assert got == n
        peaks.append(mb)
    assert peaks[1] - peaks[0] < 40, peaks
