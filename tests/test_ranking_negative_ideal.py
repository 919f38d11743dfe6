"""nDCG under negative=ideal (a negative grade's gain in the DCG and in the ideal ranking, below
the zeros): against a direct float formulation written here, and against torchmetrics, whose
retrieval_normalized_dcg sorts every retrieved target into its ideal (the rule the knob names)."""
import math
import random

import pytest

from oracle.registry import compute


def _direct(qrels: dict, run: dict, k: int | None, ideal_set: str) -> float:
    """Mean over the judged queries of DCG@k / IDCG@k, linear gains, 1/log2(i + 1) at rank i,
    the ranking by score descending (distinct scores here), the ideal ranking every gain of the
    ideal set sorted descending (negatives included), 0 for a query without a positive grade or
    with an ideal DCG of 0; a judged query absent from the run ranks nothing."""
    values = []
    for q, judged in qrels.items():
        ranking = sorted(run.get(q, {}), key=lambda d: -run[q][d])
        if not any(g > 0 for g in judged.values()):
            values.append(0.0)
            continue
        cut = len(ranking) if k is None else k
        dcg = sum(judged.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranking[:cut]))
        pool = list(judged.values()) if ideal_set == "judged" else [judged.get(d, 0) for d in ranking]
        ideal = sorted(pool, reverse=True)
        cut_i = len(ideal) if k is None else k
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:cut_i]))
        values.append(0.0 if idcg == 0 else dcg / idcg)
    return sum(values) / len(values)


def _inputs(rng: random.Random):
    qrels, run = {}, {}
    for q in range(rng.randint(1, 3)):
        docs = [f"d{i}" for i in range(rng.randint(1, 7))]
        qrels[f"q{q}"] = {d: rng.choice([-3, -2, -1, -1, 0, 1, 1, 2, 3]) for d in rng.sample(docs, rng.randint(1, len(docs)))}
        if rng.random() < 0.9:
            ranked = rng.sample(docs + ["u0", "u1"], rng.randint(1, len(docs) + 2))
            scores = rng.sample(range(100), len(ranked))
            run[f"q{q}"] = {d: s for d, s in zip(ranked, scores)}
    return qrels, run


@pytest.mark.parametrize("ideal_set", ["judged", "retrieved"])
def test_agrees_with_the_direct_formulation(ideal_set):
    rng = random.Random(11 if ideal_set == "judged" else 12)
    compared = 0
    for _ in range(300):
        qrels, run = _inputs(rng)
        k = rng.choice([None, 1, 2, 3, 5])
        expected = _direct(qrels, run, k, ideal_set)
        settings = {"negative": "ideal", "ideal": ideal_set, "k": "none" if k is None else str(k)}
        value = float(compute("ndcg", {"qrels": qrels, "run": run}, settings).value)
        assert value == pytest.approx(expected, rel=1e-12, abs=1e-12), (qrels, run, k)
        compared += 1
    assert compared == 300


def test_keep_and_ideal_differ_only_where_a_negative_gain_enters_the_ideal_cut():
    # by hand: the run ranks a (1), b (-2), c (0): DCG@2 = DCG@3 = 1 - 2/log2(3). The ideal
    # sorts the judged gains 1, 0, -2: with k = 2 the -2 is outside the cut (IDCG 1, as under
    # keep, whose ideal is [1]); with k = 3 it is inside: IDCG = 1 + 0 - 2/log2(4) = 0, which
    # gives nDCG 0, where keep gives 1 - 2/log2(3)
    inputs = {"qrels": {"q": {"a": 1, "b": -2, "c": 0}}, "run": {"q": {"a": 3, "b": 2, "c": 1}}}
    for k in ("2", "3"):
        keep = compute("ndcg", inputs, {"negative": "keep", "k": k}).value
        assert float(keep) == pytest.approx(1 - 2 / math.log2(3))
    assert compute("ndcg", inputs, {"negative": "ideal", "k": "2"}).value == compute(
        "ndcg", inputs, {"negative": "keep", "k": "2"}).value
    assert compute("ndcg", inputs, {"negative": "ideal", "k": "3"}).value == 0


def test_reproduces_torchmetrics_where_every_query_has_a_positive_target_sum():
    """torchmetrics (functional/retrieval/ndcg.py) on queries whose retrieved targets sum above
    0 (a zero sum is an empty query there: the defect torchmetrics-ndcg-0005 records) and
    distinct float32 scores: the oracle under negative=ideal and the adapter's profile
    (ideal=retrieved, queries=run) gives the library's value."""
    pytest.importorskip("torchmetrics")
    from adapters import _torchmetrics_retrieval as R
    rng = random.Random(21)
    compared = 0
    for _ in range(600):
        qrels, run = _inputs(rng)
        run = {q: r for q, r in run.items() if sum(qrels.get(q, {}).get(d, 0) for d in r) > 0}
        if not run or not any(g < 0 for q in run for d, g in qrels.get(q, {}).items() if d in run[q]):
            continue
        k = rng.choice([None, 2, 3])
        settings = {"k": "none" if k is None else str(k), "no_relevant": "zero"}
        lib = R.call("ndcg", R.options("ndcg", settings), {"qrels": qrels, "run": run}).value
        # the profile's threshold_gains=no zeroes every gain below the threshold, negatives
        # included; the library's own gains are the targets as given
        profile = dict(R.PROFILES["ndcg"], **settings, negative="ideal", threshold_gains="yes")
        exact = compute("ndcg", {"qrels": qrels, "run": run}, profile).value
        assert float(exact) == pytest.approx(lib, rel=2 ** -18, abs=2 ** -20), (qrels, run, k)
        compared += 1
    assert compared >= 40
