"""The performance targets the bench checks (the README's table; issue "Fast on data it
has not seen"), and the state of the machine a bench ran on.

A ratio target bounds the ratio of an oracle contender to the fastest peer doing the
same work (``measure``'s ``... / fastest peer doing the same work (...)``): for the
oracle given Python lists, scikit-learn given arrays, its fastest input. A seconds
target bounds a contender's median. Every target holds for both generators: a
workload named ``...-shaped`` (or ``...-shaped-files``) has its first generator's.

The absolute times of a shared machine move with its load (this project's 2-core
machine ran the loop below in 0.65 s on its quietest days and up to 1.9 s on others),
so a bench also times a fixed pure-Python loop before and after its workloads; the
suite's own wall-time targets (``run-suite``, ``explain-value``) are read against it.
"""
from __future__ import annotations

import statistics
import time

RATIO = {
    "corpus-bleu-1ref": {"oracle tok:13a": 1.0},
    "corpus-bleu-4ref": {"oracle tok:13a": 1.0},
    "sentence-bleu-1ref": {"oracle tok:13a": 0.8, "oracle compute_batch tok:13a": 0.8, "oracle tok:none": 1.0},
    "sentence-bleu-4ref": {"oracle tok:13a": 1.0},
    "wer-librispeech": {"oracle corpus WER": 1.0, "oracle S/D/I sets": 3.0},
    "wer-long-utterance": {"oracle counts tie=any": 2.0},
    "cider-d-coco": {"oracle cider_d (exact + 30 digits)": 0.75},
    "entity-f1-conll2003": {"oracle entity_f1 (micro)": 0.5},
    "classification-imagenet": {"oracle confusion_matrix (arrays)": 0.8, "oracle f1 macro (arrays)": 0.8,
                                "oracle confusion_matrix (lists)": 1.0, "oracle f1 macro (lists)": 1.0},
    "recall-at-k-flickr30k": {"oracle recall@1,5,10 (3 calls, array compared in NumPy)": 1.1},
    "ranking-msmarco": {"oracle": 0.8},
    "ranking-msmarco-files": {"oracle (oracle.trec + compute)": 1.1},
    "ranking-trec-dl": {"oracle": 1.0},
}
SECONDS = {
    "audit-bleu-newstest": {"oracle audit": 60.0},
    "audit-wer-librispeech": {"oracle audit": 60.0},
    "audit-ndcg-msmarco": {"oracle audit": 60.0},
    "import-oracle": {"oracle": 0.1},
    "explain-value": {"metric-conformance": 2.0},
    "run-suite": {"metric-conformance": 120.0},
    "run-suite-kept": {"metric-conformance": 120.0},
}


def first_generator(name: str) -> str:
    """The workload of the first generator that ``name`` is the second one's of."""
    if name.endswith("-shaped"):
        return name[:-len("-shaped")]
    if name.endswith("-shaped-files"):
        return name[:-len("-shaped-files")] + "-files"
    return name


def verdicts(result: dict) -> list[dict]:
    """[{contender, kind (ratio or seconds), value, max, met}] for the targets of one
    result of ``measure`` (or of the suite's timings)."""
    base = first_generator(result["workload"])
    out = []
    for contender, bound in RATIO.get(base, {}).items():
        key = next((k for k in result.get("ratios", {})
                    if k.startswith(f"{contender} / fastest peer doing the same work")), None)
        if key is None:   # the peer is not installed: nothing to hold the oracle to
            continue
        value = result["ratios"][key]
        out.append({"contender": contender, "kind": "ratio", "value": value, "max": bound, "met": value <= bound})
    for contender, bound in SECONDS.get(base, {}).items():
        value = result.get("median_s", {}).get(contender)
        if value is not None:
            out.append({"contender": contender, "kind": "seconds", "value": value, "max": bound,
                        "met": value <= bound})
    return out


_LOOP = compile("s = 0\nfor i in range(10_000_000):\n    s += i\n", "<machine loop>", "exec")


def python_loop_seconds(repeat: int = 3) -> float:
    """The median time of a fixed pure-Python loop (10,000,000 additions at module level,
    as ``python3 -c`` runs it: the figure docs/bench.md gives for each day): how fast
    this machine runs the interpreter right now."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        exec(_LOOP, {})
        times.append(time.perf_counter() - t)
    return statistics.median(times)
