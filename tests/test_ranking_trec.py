"""trec_eval's further measures (oracle.ranking_trec): a worked example derived by hand
from the m_*.c sources, the double-arithmetic cutoffs, -c, and agreement with
pytrec_eval (which embeds trec_eval 9) per query on generated runs with ties, graded,
negative and unjudged judgements, missing queries and queries without relevant
documents."""
from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest

from oracle import compute
from oracle.certified import digits

# The worked example. q1 judges a (2), b (0), c (1), e (-1: in the pool, unjudged), z (1,
# not retrieved); the run scores b .9, e .7, a .5, d .3 (not judged: not in the pool), c .1.
# Ranks: 1 b (nonrelevant judged), 2 e (unjudged), 3 a (relevant), 4 d (nonpool), 5 c
# (relevant). N = 5, R = 3 (a, c, z), H_5 = 2, one nonrelevant judged document in the
# qrels (b). q2 judges x (1), y (0) and retrieves y (1.0), w (0.5): N = 2, R = 1, H = 0.
QRELS = {"q1": {"a": 2, "b": 0, "c": 1, "e": -1, "z": 1}, "q2": {"x": 1, "y": 0}}
RUN = {"q1": {"a": 0.5, "b": 0.9, "c": 0.1, "d": 0.3, "e": 0.7}, "q2": {"y": 1.0, "w": 0.5}}
INPUTS = {"qrels": QRELS, "run": RUN}

HAND = {
    # (metric, conventions): (q1, q2, summary), each derived from the ranks above
    ("num_retrieved", ()): ("5", "2", "7"),                     # sums: 5 + 2
    ("num_relevant", ()): ("3", "1", "4"),
    ("num_relevant_retrieved", ()): ("2", "0", "2"),
    ("num_nonrelevant_judged_retrieved", ()): ("1", "1", "2"),  # b; y
    ("set_precision", ()): ("2/5", "0", "1/5"),                 # H/N; mean (2/5 + 0)/2
    ("set_recall", ()): ("2/3", "0", "1/3"),
    # (x + 1) P R / (x P + R) with P = 2/5, R = 2/3, x = 1: 2 (4/15) / (16/15) = 1/2
    ("set_f", ()): ("1/2", "0", "1/4"),
    # x = 1/2: (3/2)(4/15) / (1/5 + 2/3) = (2/5) / (13/15) = 6/13
    ("set_f", (("x", "1/2"),)): ("6/13", "0", "3/13"),
    ("set_ap", ()): ("4/15", "0", "2/15"),                      # 2^2 / (5 * 3)
    ("set_relative_precision", ()): ("2/3", "0", "1/3"),        # 2 / min(5, 3)
    ("relative_precision_at_k", (("k", "2"),)): ("0", "0", "0"),  # H_2 = 0
    ("relative_precision_at_k", (("k", "3"),)): ("1/3", "0", "1/6"),  # H_3 / min(3, 3)
    # c = (long)(x R + 0.9): x = 0.6: (long) 2.7 = 2, H_2 / 2 = 0; x = 1.2: (long) 4.5 = 4,
    # H_4 / 4 = 1/4; x = 1.8: (long) 6.3 = 6 > N, H_5 / 6 = 1/3
    ("precision_at_r_multiple", (("multiple", "0.6"),)): ("0", "0", "0"),
    ("precision_at_r_multiple", (("multiple", "1.2"),)): ("1/4", "0", "1/8"),
    ("precision_at_r_multiple", (("multiple", "1.8"),)): ("1/3", "0", "1/6"),
    # P@3 = 1/3, P@4 = 1/4, P@5 = 2/5; recall 0: c = 0, max over ranks >= 3 = 2/5;
    # recall 0.8: c = (long) 3.3 = 3 > H_5 = 2: 0
    ("interpolated_precision", (("recall", "0"),)): ("2/5", "0", "1/5"),
    ("interpolated_precision", (("recall", "0.8"),)): ("0", "0", "0"),
    # eight levels (0.0 .. 0.7) at 2/5, three at 0: 16/5 / 11
    ("eleven_point_ap", ()): ("16/55", "0", "8/55"),
    # q1: b (nonrelevant) precedes both relevant: each term 1 - min(1, 3)/min(1, 3) = 0
    ("bpref", ()): ("0", "0", "0"),
    # q1: a at rank 3 (0-based j = 2): 1/3 + (2/3)(2/2)(0 + e)/(0 + 1 + 2e) = 1/3 + 2/300006;
    # c at rank 5 (j = 4): 1/5 + (4/5)(3/4)(1 + e)/(2 + 2e) = 1/2; sum / 3 = 5/18 + 1/450009
    ("infap", ()): ("250007/900018", "0", "250007/1800036"),
    ("utility", ()): ("-1", "-2", "-3/2"),                      # H - (N - H): 2 - 3; 0 - 2
    # a: two nonrelevant above, 1/log2(4) = 1/2; c: three, 1/log2(5); (1/2 + 1/log2 5) / 3
    ("bin_g", ()): ("1/6 + (1/3)*log(2)/log(5)", "0", "1/12 + (1/6)*log(2)/log(5)"),
    # AP q1 = (1/3 + 2/5) / 3 = 11/45; q2 0, floored at 1/100000: sqrt(11/45 / 100000)
    ("gm_ap", ()): ("11/45", "0", "(11/4500000)**(1/2)"),
    ("gm_bpref", ()): ("0", "0", "1/100000"),
    # gains: the grades; ideal [2, 1, 1] (a, c, z), IDCG@1 = 2, IDCG@3 = 2 + 1/log2(3) + 1/2.
    # G: costs max(I_t, 1) = 2, 1, 1, 1, 1; a at rank 3: 2/log2(2 + 4 - 2) = 1; c at rank 5:
    # 1/log2(2 + 6 - 3); over sum I = 4
    ("g", ()): ("1/4 + (1/4)*log(2)/log(5)", "0", "1/8 + (1/8)*log(2)/log(5)"),
    # Rndcg: the ideal gain changes after 1 and 3 documents, and N = 5 > 3 adds a point:
    # (0/2 + DCG@3/IDCG@3 + DCG@5/IDCG@3) / 3, DCG@3 = 2/log2(4) = 1, DCG@5 = 1 + 1/log2(6)
    ("rndcg", ()): ("(1/(5/2 + log(2)/log(3)) + (1 + log(2)/log(6))/(5/2 + log(2)/log(3)))/3", "0",
                    "(1/(5/2 + log(2)/log(3)) + (1 + log(2)/log(6))/(5/2 + log(2)/log(3)))/6"),
    # ndcg_rel: a at rank 3, DCG@3/IDCG@3; c at rank 5, DCG@5/IDCG@3; z not retrieved,
    # DCG@5/IDCG@3; over P = 3
    ("ndcg_rel", ()): ("(1 + 2*(1 + log(2)/log(6)))/(3*(5/2 + log(2)/log(3)))", "0",
                       "(1 + 2*(1 + log(2)/log(6)))/(6*(5/2 + log(2)/log(3)))"),
}


def _same(got, text: str) -> bool:
    from oracle.certified import same_value
    from oracle.parse import parse_exact
    return same_value(got, parse_exact(text))


@pytest.mark.parametrize("metric,conventions", list(HAND), ids=[f"{m}{dict(c)}" for m, c in HAND])
def test_the_worked_example(metric, conventions):
    q1, q2, summary = HAND[(metric, conventions)]
    r = compute(metric, INPUTS, dict(conventions))
    assert _same(r.value, summary), r.value
    assert _same(r.parts["per_query"]["q1"], q1)
    assert _same(r.parts["per_query"]["q2"], q2)


def test_num_queries_and_missing_queries_under_c():
    # q3 is judged and not retrieved: trec_eval -c averages it with every measure 0
    inputs = {"qrels": dict(QRELS, q3={"m": 1, "n": 1}), "run": RUN}
    assert compute("num_queries", inputs).value == 3
    assert compute("num_queries", inputs, {"missing": "skip"}).value == 2
    assert compute("set_precision", inputs).value == F(2, 5) / 3
    # num_rel under -c: te_calc_avg_num_rel counts the qrels' relevant judgements, q3's too
    assert compute("num_relevant", inputs).value == 6
    assert compute("gm_bpref", inputs).value == F(1, 100000)


def test_recall_cutoffs_follow_trec_eval_doubles():
    # R = 3, x = 0.7: 0.7 * 3 = 2.0999999999999996 in doubles, + 0.9 = 2.9999999999999996,
    # (long) 2; exact rationals would give 3 (> H_5 = 2, value 0). trec_eval: c = 2, the
    # second relevant document at rank 5: max P@5 = 2/5.
    r = compute("interpolated_precision", INPUTS, {"recall": "0.7"})
    assert r.parts["per_query"]["q1"] == F(2, 5)
    # trec_eval 10 rounds: lround(2.1) = 2, the same here; x = 0.5: lround(1.5) = 2 against
    # (long) 2.4 = 2; x = 0.1: lround(0.3) = 0 against (long) 1.2 = 1 (both rank 3: 2/5)
    assert compute("interpolated_precision", INPUTS, {"recall": "0.7", "recall_cutoff": "v10"}).value == F(1, 5)


def test_judged_only_drops_unjudged_documents():
    from oracle.trec import judged_only
    run = judged_only(RUN, QRELS)
    # q1 keeps b, e (judged -1 is in the qrels but unjudged: dropped), a, c -> b, a, c
    assert list(run["q1"]) == ["a", "b", "c"]
    assert compute("set_precision", {"qrels": QRELS, "run": run}).parts["per_query"]["q1"] == F(2, 3)


# ----------------------------------------------------------- against pytrec_eval

MEASURES = {
    # oracle metric, conventions -> pytrec_eval measure, its per-query key
    ("num_retrieved", ()): ("num_ret", "num_ret"),
    ("num_relevant", ()): ("num_rel", "num_rel"),
    ("num_relevant_retrieved", ()): ("num_rel_ret", "num_rel_ret"),
    ("num_nonrelevant_judged_retrieved", ()): ("num_nonrel_judged_ret", "num_nonrel_judged_ret"),
    ("set_precision", ()): ("set_P", "set_P"),
    ("set_recall", ()): ("set_recall", "set_recall"),
    ("set_f", ()): ("set_F", "set_F"),
    ("set_f", (("x", "0.25"),)): ("set_F.0.25", "set_F"),
    ("set_ap", ()): ("set_map", "set_map"),
    ("set_relative_precision", ()): ("set_relative_P", "set_relative_P"),
    ("relative_precision_at_k", (("k", "3"),)): ("relative_P.3", "relative_P_3"),
    ("relative_precision_at_k", (("k", "10"),)): ("relative_P.10", "relative_P_10"),
    ("precision_at_r_multiple", (("multiple", "0.2"),)): ("Rprec_mult.0.2", "Rprec_mult_0.20"),
    ("precision_at_r_multiple", (("multiple", "0.7"),)): ("Rprec_mult.0.7", "Rprec_mult_0.70"),
    ("precision_at_r_multiple", (("multiple", "1.4"),)): ("Rprec_mult.1.4", "Rprec_mult_1.40"),
    ("interpolated_precision", (("recall", "0"),)): ("iprec_at_recall.0.0", "iprec_at_recall_0.00"),
    ("interpolated_precision", (("recall", "0.3"),)): ("iprec_at_recall.0.3", "iprec_at_recall_0.30"),
    ("interpolated_precision", (("recall", "0.7"),)): ("iprec_at_recall.0.7", "iprec_at_recall_0.70"),
    ("interpolated_precision", (("recall", "1"),)): ("iprec_at_recall.1.0", "iprec_at_recall_1.00"),
    ("eleven_point_ap", ()): ("11pt_avg", "11pt_avg"),
    ("bpref", ()): ("bpref", "bpref"),
    ("infap", ()): ("infAP", "infAP"),
    ("utility", ()): ("utility", "utility"),
    ("bin_g", ()): ("binG", "binG"),
    ("gm_ap", ()): ("gm_map", "gm_map"),
    ("gm_bpref", ()): ("gm_bpref", "gm_bpref"),
    ("g", ()): ("G", "G"),
    ("rndcg", ()): ("Rndcg", "Rndcg"),
    ("ndcg_rel", ()): ("ndcg_rel", "ndcg_rel"),
}


GAIN_MEASURES = ("G", "Rndcg", "ndcg_rel")


def _generated(seed: int):
    """Qrels graded -1..3 (some queries without a relevant document), runs with tied
    scores (multiples of 1/4, exact in float32), unjudged documents, queries missing from
    the run and run queries without judgements."""
    r = random.Random(seed)
    docs = [f"d{i}" for i in range(14)]
    qrels, run = {}, {}
    for qi in range(r.randint(1, 5)):
        q = f"q{qi}"
        judged = r.sample(docs, r.randint(1, 9))
        qrels[q] = {d: r.choice([-1, 0, 0, 0, 1, 1, 2, 3]) for d in judged}
        if r.random() < 0.8:
            ranked = r.sample(docs, r.randint(1, 12))
            run[q] = {d: r.randint(0, 6) / 4 for d in ranked}
    if r.random() < 0.3:
        run["extra"] = {"d1": 1.0}
    if not run:
        run["q0"] = {"d0": 0.5}
    return qrels, run


@pytest.mark.parametrize("level", [1, 2])
def test_agrees_with_pytrec_eval_per_query(level):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    settings = {"queries": "both", "missing": "skip", "empty_judgments": "absent", "threshold": str(level)}
    checked = missed = 0
    for seed in range(150):
        qrels, run = _generated(seed)
        for (metric, conventions), (measure, key) in MEASURES.items():
            if measure in GAIN_MEASURES and any(q in run and max(j.values()) < 0 for q, j in qrels.items()):
                continue   # trec_eval reads stale gain levels there and can hang (adapters/pytrec_eval.py)
            got = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=level).evaluate(run)
            mine = compute(metric, {"qrels": qrels, "run": run}, dict(settings, **dict(conventions)))
            assert set(got) == set(mine.parts["per_query"]), (seed, metric)
            for q, v in got.items():
                ours = mine.parts["per_query"][q]
                if metric == "rndcg" and _rndcg_last_point_missed(qrels[q], run[q]):
                    # trec_eval's defect: its value is the oracle's on the ranking without its
                    # last document (m_Rndcg.c leaves its loop at i = N and skips the final point,
                    # whatever the gain there: a point of the mean is lost)
                    ours = compute(metric, {"qrels": {q: qrels[q]}, "run": {q: _without_last(run[q])}},
                                   settings).parts["per_query"][q]
                    missed += 1
                if metric.startswith("gm_"):   # pytrec_eval gives trec_eval's per-query log(max(v, 1e-5))
                    want = math.log(max(float(digits(ours, 20)), 1e-5))
                else:
                    want = float(digits(ours, 20))
                assert math.isclose(v[key], want, rel_tol=1e-12, abs_tol=1e-12), (seed, metric, conventions, q,
                                                                                   v[key], ours)
                checked += 1
    assert checked > 5000
    assert missed > 0


def _trec_order(ranking: dict) -> list:
    return sorted(ranking, key=lambda d: (ranking[d], d), reverse=True)


def _without_last(ranking: dict) -> dict:
    last = _trec_order(ranking)[-1]
    return {d: s for d, s in ranking.items() if d != last}


def _rndcg_last_point_missed(judged: dict, ranking: dict) -> bool:
    """N = (positive grades in the qrels) + 1, with a relevant document."""
    positive = sum(1 for g in judged.values() if g > 0)
    return len(ranking) == positive + 1 and positive > 0


def test_rndcg_counts_the_last_document_when_the_ideal_ends_one_before():
    # qrels a, b relevant (1); run x (not judged), a, b: the ideal [1, 1] ends at 2 and N = 3.
    # Points: 2 (DCG@2 / IDCG@2 = (1/log2 3) / (1 + 1/log2 3)) and N = 3 ((1/log2 3 + 1/2) /
    # (1 + 1/log2 3)). trec_eval 9.0.8 gives the first alone (0.3868...).
    inputs = {"qrels": {"q": {"a": 1, "b": 1}}, "run": {"q": {"x": 3, "a": 2, "b": 1}}}
    want = "((log(2)/log(3)) + (log(2)/log(3) + 1/2))/(2*(1 + log(2)/log(3)))"
    assert _same(compute("rndcg", inputs).value, want)


# ----------------------------------------------------------- score and audit

def _files(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, j in QRELS.items() for d, g in j.items()))
    run = tmp_path / "run"
    run.write_text("".join(f"{q} Q0 {d} {i} {s} r\n" for q, r in RUN.items()
                           for i, (d, s) in enumerate(sorted(r.items(), key=lambda x: -x[1]), start=1)))
    return str(qrels), str(run)


def test_score_takes_trec_eval_names_and_prints_per_query_rows(tmp_path, capsys):
    import json
    from conformance.cli import main
    qrels, run = _files(tmp_path)
    assert main(["score", "-m", "bpref", "infAP", "set_F.0.5", "Rprec_mult.1.2", "iprec_at_recall.0.70",
                 "num_ret", "-q", "--format", "json", qrels, run]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    rows = {(r["measure"], r["item"]): r["exact"] for r in lines if "measure" in r}
    # the hand values of the worked example (HAND above)
    assert rows[("set_F.0.5", "q1")] == "6/13"
    assert rows[("Rprec_mult.1.2", "q1")] == "1/4"
    assert rows[("iprec_at_recall.0.70", "q1")] == "2/5"
    assert rows[("num_ret", "all")] == "7"
    assert rows[("infAP", "all")] == "250007/1800036"


def _audit(capsys, *claim) -> dict:
    import json
    from conformance.cli import main
    main(["audit", "--json", *claim])
    return json.loads(capsys.readouterr().out.splitlines()[0])


def test_audit_reads_names_as_trec_eval_prints_them(tmp_path, capsys):
    qrels, run = _files(tmp_path)
    # iprec_at_recall_0.70 of the example: q1 2/5, q2 0, mean 1/5
    out = _audit(capsys, "iprec_at_recall_0.70 0.2000", f"qrels={qrels}", f"run={run}")
    assert out["metric"] == "interpolated_precision" and out["stated"]["recall"] == "7/10"
    assert out["verdict"] == "consistent", out["verdict"]
    # -J: q1 ranks b (0), a (2), c (1) without e and d: b precedes both relevant, bpref 0;
    # q2 ranks y (0) alone: 0. A figure of 0.5 is inconsistent, 0 consistent.
    assert _audit(capsys, "bpref 0.5000", f"qrels={qrels}", f"run={run}", "trec_eval=-m bpref -J")["verdict"] \
        == "inconsistent"
    assert _audit(capsys, "bpref 0.0000", f"qrels={qrels}", f"run={run}", "trec_eval=-m bpref -J")["verdict"] \
        == "consistent"


def _oracle_measure(key: str):
    """(oracle metric, conventions) of a per-query key pytrec_eval prints (P_5, ndcg_cut_10,
    iprec_at_recall_0.30, set_F, ...), with pytrec_eval's profile."""
    from adapters.pytrec_eval import PyTrecEval
    from conformance.audit.signatures import _TREC_MEASURES, trec_measure_name
    name, param = trec_measure_name(key)
    metric, knob, _ = _TREC_MEASURES[name]
    conventions = dict(PyTrecEval().profile(metric))
    if knob and param:
        conventions[knob] = param
    elif metric in ("hit_rate", "precision_at_k", "recall_at_k") and not param:
        raise AssertionError(key)
    if metric in ("average_precision", "ndcg", "reciprocal_rank") and not param:
        conventions["k"] = "none"
    return metric, conventions


def test_every_measure_of_trec_evals_standard_set_agrees_per_query():
    """Every numeric measure pytrec_eval (trec_eval 9's -m all_trec) prints, at its default
    parameters, on generated runs with graded and negative judgements, ties, missing
    queries and empty rankings: the oracle's value per query, except the recorded
    defects (an empty ranking's interpolated precision is NaN; Rndcg's lost last point)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    measures = sorted(pytrec_eval.supported_measures - {"runid", "relstring"})
    seen, checked = set(), 0
    for seed in range(40):
        qrels, run = _generated(1000 + seed)
        if seed % 3 == 0:
            run[next(iter(qrels))] = {}                       # an empty ranking
        negative = any(q in run and max(j.values()) < 0 for q, j in qrels.items())
        for measure in measures:
            if negative and measure in GAIN_MEASURES + ("ndcg", "ndcg_cut"):
                continue   # trec_eval reads stale gain levels there and can hang (adapters/pytrec_eval.py)
            got = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
            for q, values in got.items():
                for key, v in values.items():
                    metric, conventions = _oracle_measure(key)
                    seen.add(key)
                    ours = compute(metric, {"qrels": {q: qrels[q]}, "run": {q: run[q]}},
                                   dict(conventions, queries="both")).parts["per_query"][q]
                    if not run[q] and metric in ("interpolated_precision", "eleven_point_ap"):
                        assert math.isnan(v) or v == 0, (key, v)   # recorded: 0/0 when a cutoff is 0
                        continue
                    if metric == "rndcg" and _rndcg_last_point_missed(qrels[q], run[q]):
                        continue                                   # recorded: the lost final point
                    want = float(digits(ours, 20))
                    if metric.startswith("gm_"):
                        want = math.log(max(want, 1e-5))
                    assert math.isclose(v, want, rel_tol=1e-12, abs_tol=1e-12), (seed, key, q, v, ours)
                    checked += 1
    assert len(seen) >= 90 and checked > 5000   # 93 keys: every default cutoff and level
