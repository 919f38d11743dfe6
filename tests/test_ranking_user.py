"""RBP with its residual, ERR@k and Judged@k (oracle.ranking_user): a worked example
derived by hand, the refusals, and agreement with ir_measures (Judged's own provider,
gdeval.pl for ERR, cwl_eval for RBP) on generated runs with graded and negative
judgements, unjudged documents, missing queries and ties."""
from __future__ import annotations

import random
import warnings
from fractions import Fraction

import pytest

from oracle import InputError
from oracle.registry import compute

# q1 ranks a (grade 2), x (not in the qrels), c (1), b (0), e (-1: in the qrels, unjudged)
EXAMPLE = {"qrels": {"q1": {"a": 2, "b": 0, "c": 1, "e": -1}}, "run": {"q1": {"a": 5, "x": 4, "c": 3, "b": 2, "e": 1}}}


def test_rbp_and_its_residual_by_hand():
    # p = 4/5, relevant (grade >= 1) at ranks 1 and 3: RBP = (1/5)(1 + (4/5)^2) = 41/125.
    # Unknown: x at rank 2, (1/5)(4/5) = 4/25, and e at rank 5, (1/5)(4/5)^4 = 256/3125;
    # past the end p^5 = 1024/3125: residual (500 + 256 + 1024)/3125 = 356/625
    r = compute("rbp", EXAMPLE)
    assert r.value == Fraction(41, 125)
    assert r.parts["residual"] == Fraction(356, 625) and r.parts["upper"] == Fraction(41, 125) + Fraction(356, 625)
    # p = 1/2: (1/2)(1 + 1/4) = 5/8; residual 1/4 + 1/32 + 1/32 = 5/16
    r = compute("rbp", EXAMPLE, {"p": "1/2"})
    assert (r.value, r.parts["residual"]) == (Fraction(5, 8), Fraction(5, 16))


def test_err_by_hand():
    # R = (2^g - 1)/16: a 3/16, x 0, c 1/16, b 0. ERR@3 = 3/16 + 0 + (1/3)(1/16)(1 - 3/16)
    # = 144/768 + 13/768 = 157/768; ERR@1 = 3/16
    assert compute("err", EXAMPLE, {"k": "3"}).value == Fraction(157, 768)
    assert compute("err", EXAMPLE, {"k": "1"}).value == Fraction(3, 16)
    # max_grade 2: R_a = 3/4, R_c = 1/4: ERR@3 = 3/4 + (1/3)(1/4)(1/4) = 3/4 + 1/48 = 37/48
    assert compute("err", EXAMPLE, {"k": "3", "max_grade": "2"}).value == Fraction(37, 48)


def test_judged_at_k_by_hand():
    # top 3: a, x, c: a and c in the qrels: 2/3; top 5 adds b and e (e's grade -1 is in the
    # qrels too): 4/5; k = 10 > N = 5 divides by 5
    assert compute("judged_at_k", EXAMPLE, {"k": "3"}).value == Fraction(2, 3)
    assert compute("judged_at_k", EXAMPLE, {"k": "5"}).value == Fraction(4, 5)
    assert compute("judged_at_k", EXAMPLE, {"k": "10"}).value == Fraction(4, 5)


def test_a_missing_query_and_an_empty_ranking():
    # q2 has a relevant document and is absent from the run: 0 (trec_eval -c), residual 1;
    # mean over q1, q2
    inputs = {"qrels": {**EXAMPLE["qrels"], "q2": {"z": 1}}, "run": EXAMPLE["run"]}
    r = compute("rbp", inputs)
    assert r.value == Fraction(41, 250) and r.parts["residual_per_query"]["q2"] == 1
    empty = {"qrels": {"q1": {"a": 1}}, "run": {"q1": {}}}
    assert compute("judged_at_k", empty).value == 0
    assert compute("rbp", empty).parts["residual"] == 1


def test_refusals():
    with pytest.raises(InputError, match="strictly between 0 and 1"):
        compute("rbp", EXAMPLE, {"p": "1"})
    with pytest.raises(InputError, match="above max_grade=1"):
        compute("err", EXAMPLE, {"k": "3", "max_grade": "1"})


# ------------------------------------------------------------------ ir_measures

def _runs(seed: int, ties: bool):
    rng = random.Random(seed)
    for _ in range(120):
        qrels, run = {}, {}
        for q in range(1, rng.randint(1, 4) + 1):
            docs = [f"d{i}" for i in range(rng.randint(1, 12))]
            qrels[str(q)] = {d: rng.choice([-1, 0, 0, 1, 2, 3, 4]) for d in rng.sample(docs, rng.randint(1, len(docs)))}
            if rng.random() < 0.85:
                ranked = rng.sample(docs + ["u0", "u1", "u2"], rng.randint(1, len(docs) + 3))
                run[str(q)] = {d: (float(rng.randint(0, 3)) if ties else len(ranked) - i + 0.5)
                               for i, d in enumerate(ranked)}
        yield qrels, run, rng.choice([1, 3, 5, 10, 20]), rng.choice([0.5, 0.8, 0.95])


@pytest.mark.parametrize("ties", [False, True])
def test_agrees_with_ir_measures(ties):
    """Judged@k and ERR@k (gdeval.pl) order ties as trec_eval does for ERR (score, then
    document id descending) and by document id ascending for Judged; RBP (cwl_eval) keeps
    tied documents in input order. Without ties all three agree exactly (ERR to gdeval's
    five printed decimals); with ties ERR under ties=trec_eval and RBP under ties=input-order."""
    im = pytest.importorskip("ir_measures")
    pytest.importorskip("cwl")
    import logging
    logging.getLogger("cwl").disabled = True
    compared = 0
    for qrels, run, k, p in _runs(7 if ties else 3, ties):
        inputs = {"qrels": qrels, "run": run}
        checks = [(im.ERR @ k, "err", {"k": str(k)}, 6e-6), (im.RBP(rel=1, p=p), "rbp",
                                                              {"p": str(p), "ties": "input-order"}, 1e-12)]
        if not ties:
            checks.append((im.Judged @ k, "judged_at_k", {"k": str(k)}, 1e-12))
        for measure, metric, conv, tol in checks:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lib = im.calc_aggregate([measure], qrels, run)[measure]
            exact = compute(metric, inputs, conv).value
            assert abs(float(exact) - lib) <= tol, (metric, conv, qrels, run, lib, exact)
            compared += 1
    assert compared >= 200
