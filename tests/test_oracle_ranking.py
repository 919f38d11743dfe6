"""Ranking metrics: golden cases, an independent brute force, properties, bad input."""
from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from math import prod
from pathlib import Path

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies.ranking import COMMON_KNOBS, METRIC_KNOBS, ranking_inputs
from oracle import ConventionError, InputError, Undefined, compute, get_metric
from oracle.certified import digits
from oracle.exact import exact_str
from oracle.parse import parse_exact

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FILES = [GOLDEN / "documents" / "004_2f957d850e34831f.json", GOLDEN / "topics" / "ranking.json"]
CASES = [c for f in FILES for c in load_file(f)]
METRICS = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "r_precision",
           "dcg", "ndcg")
RATIONAL = METRICS[:6]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(case):
    assert rederive(case) == []


def test_golden_cases_cover_every_knob_choice():
    seen: dict = {}
    for c in CASES:
        for k, v in c.conventions.items():
            seen.setdefault((c.metric, k), set()).add(str(v))
    for name in METRICS:
        m = get_metric(name)
        for knob in m.knobs:
            if knob.kind != "enum":
                continue
            used = set().union(*(seen.get((n, knob.name), set()) for n in METRICS)) | {knob.default}
            missing = set(knob.choices) - used
            assert not missing, (name, knob.name, missing)


# ------------------------------------------------------ brute force


def _score(s) -> Fraction:
    return Fraction(s.strip()) if isinstance(s, str) else Fraction(s)


def brute_order(ranking: dict, rule: str) -> list:
    """Documents in rank order by an explicit sort (deterministic rules only)."""
    docs = list(ranking)
    if rule == "trec_eval":
        return sorted(docs, key=lambda d: (_score(ranking[d]), d), reverse=True)
    return sorted(docs, key=lambda d: _score(ranking[d]), reverse=True)  # stable: input order among ties


def all_orders(ranking: dict) -> list:
    """Every ranking obtained by ordering each group of tied documents in every way."""
    groups: dict = {}
    for d in ranking:
        groups.setdefault(_score(ranking[d]), []).append(d)
    keys = sorted(groups, reverse=True)
    out = []
    for combo in itertools.product(*(itertools.permutations(groups[k]) for k in keys)):
        out.append([d for part in combo for d in part])
    return out


def _gain(g, s):
    thr = int(s["threshold"])
    if s["gain"] == "binary":
        return Fraction(int(g >= thr))
    if g < 0 and s["negative"] == "zero":
        return Fraction(0)
    if g < thr and s["threshold_gains"] == "no":
        return Fraction(0)
    return Fraction(g) if s["gain"] == "linear" else Fraction(2) ** g - 1


def brute_query(metric: str, order: list, judged: dict, s: dict):
    """One query's value from its ranked list, straight from the definitions
    (rationals; DCG and NDCG as mpmath numbers at 50 digits)."""
    thr = int(s["threshold"])
    n = len(order)
    k = n if s.get("k", "none") == "none" else int(s["k"])
    rel = [int(judged.get(d, 0) >= thr and d in judged) for d in order]
    R = sum(1 for g in judged.values() if g >= thr)
    top = rel[:k]
    if metric == "hit_rate":
        return Fraction(int(any(top)))
    if metric == "reciprocal_rank":
        return next((Fraction(1, i + 1) for i, r in enumerate(top) if r), Fraction(0))
    if metric == "precision_at_k":
        if s["k"] == "none":
            return Fraction(sum(rel), n) if n else Fraction(0)
        den = k if s["precision_denominator"] == "k" else min(k, n)
        return Fraction(sum(top), den) if den else Fraction(0)
    if metric == "recall_at_k":
        return Fraction(sum(top), R) if R else Fraction(0)
    if metric == "r_precision":
        return Fraction(sum(rel[:R]), R) if R else Fraction(0)
    if metric == "average_precision":
        total = sum((Fraction(sum(top[:i + 1]), i + 1) for i, r in enumerate(top) if r), Fraction(0))
        rule = s["ap_denominator"]
        cap = R if s["k"] == "none" else min(k, R)  # no cutoff: K is unbounded, min(K, R) = R
        den = R if rule == "relevant" else (cap if rule == "min-k-relevant" else sum(top))
        return total / den if den else Fraction(0)
    mpmath.mp.dps = 50
    gains = [_gain(judged[d], s) if d in judged else Fraction(0) for d in order]
    dcg = mpmath.fsum(mpmath.mpf(g.numerator) / g.denominator / mpmath.log(i + 2, 2)
                      for i, g in enumerate(gains[:k]))
    if metric == "dcg":
        return dcg
    pool = [_gain(g, s) for d, g in judged.items() if s["ideal"] == "judged" or d in order]
    ideal = sorted((g for g in pool if g > 0), reverse=True)
    ideal = ideal if s["k"] == "none" else ideal[:k]
    idcg = mpmath.fsum(mpmath.mpf(g.numerator) / g.denominator / mpmath.log(i + 2, 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else mpmath.mpf(0)


def brute_values(metric: str, inputs: dict, s: dict) -> dict:
    """{query: value} over the averaged queries, every tie rule by brute force."""
    qrels, run = inputs["qrels"], inputs["run"]
    queries = list(qrels) if s["queries"] == "qrels" else list(run) if s["queries"] == "run" else \
        [q for q in qrels if q in run]
    out = {}
    for q in queries:
        judged = qrels.get(q, {})
        if metric in ("dcg", "ndcg"):
            has_rel = any(_gain(g, s) > 0 for g in judged.values())
        else:
            has_rel = any(g >= int(s["threshold"]) for g in judged.values())
        if not has_rel and s["no_relevant"] == "skip":
            continue
        if q not in run:
            if s["missing"] == "skip":
                continue
            ranking = {}
        else:
            ranking = run[q]
        rule = s["ties"]
        if rule in ("trec_eval", "input-order"):
            out[q] = brute_query(metric, brute_order(ranking, rule), judged, s)
            continue
        values = [brute_query(metric, o, judged, s) for o in all_orders(ranking)]
        if rule == "expected":
            out[q] = sum(values) / len(values)
            continue
        # relevant (then higher-gain) documents first / last within each tie
        thr = int(s["threshold"])

        def goodness(d):
            g = judged.get(d)
            return (g is not None and g >= thr, _gain(g, s) if g is not None and "gain" in s else Fraction(0))
        best = rule == "optimistic"
        order = sorted(ranking, key=lambda d: (_score(ranking[d]), goodness(d) if best else _neg(goodness(d))),
                       reverse=True)
        out[q] = brute_query(metric, order, judged, s)
        if not (metric == "average_precision" and s["ap_denominator"] == "retrieved-relevant"):
            # every other measure is monotone: the rule reaches the extreme over all orders
            assert out[q] == (max(values) if best else min(values))
    return out


def _neg(key):
    return (not key[0], -key[1])


def _close(exact_value, brute) -> bool:
    if isinstance(brute, Fraction):
        return exact_value == brute
    return abs(mpmath.mpf(digits(exact_value, 45)) - brute) < mpmath.mpf(10) ** -38


def _repeats(ranking) -> bool:
    return not isinstance(ranking, dict) and len({d for d, _ in ranking}) < len(ranking)


def _brute_dedupe(ranking, rule: str) -> dict:
    """A list-form ranking as {doc: score} by the duplicates rule of the module docstring:
    first keeps the first occurrence; max the occurrence with the highest score (the
    first of equal ones), each at the position of the occurrence kept."""
    if isinstance(ranking, dict):
        return ranking
    chosen: dict = {}
    for i, (d, sc) in enumerate(ranking):
        if d not in chosen or (rule == "max" and _score(sc) > _score(ranking[chosen[d]][1])):
            chosen[d] = i
    return {ranking[i][0]: ranking[i][1] for i in sorted(chosen.values())}


def _small(inputs) -> bool:
    return all(prod(len(list(itertools.permutations(g))) for g in _groups(r)) <= 720 for r in inputs["run"].values())


def _groups(ranking):
    g: dict = {}
    for d in ranking:
        g.setdefault(_score(ranking[d]), []).append(d)
    return g.values()


def _conventions(metric: str, common: dict, extra: dict) -> dict:
    names = {k.name for k in get_metric(metric).knobs}
    return {k: v for k, v in {**common, **extra}.items() if k in names}


@settings(deadline=None)
@given(ranking_inputs(max_len=6), st.sampled_from(METRICS), COMMON_KNOBS, METRIC_KNOBS)
def test_oracle_equals_brute_force(inputs, metric, common, extra):
    """Every rule, including the closed-form expected value, equals the explicit
    sort (or the average / max / min over every order of the tied documents)."""
    conv = _conventions(metric, common, extra)
    s = get_metric(metric).settings(conv)
    if any(_repeats(r) for r in inputs["run"].values()) and s["duplicates"] == "error":
        with pytest.raises(InputError, match="duplicate document"):
            compute(metric, inputs, conv)
        return
    inputs = {"qrels": inputs["qrels"],
              "run": {q: _brute_dedupe(r, s["duplicates"]) for q, r in inputs["run"].items()}}
    if not _small(inputs):
        return
    r = compute(metric, inputs, conv)
    brute = brute_values(metric, inputs, s)
    assert set(r.parts["per_query"]) == set(brute)
    for q, v in brute.items():
        assert _close(r.parts["per_query"][q], v), (q, exact_str(r.parts["per_query"][q]), v)
    if not brute:
        assert isinstance(r.value, Undefined)
    else:
        assert _close(r.value, sum(brute.values()) / len(brute))


@settings(deadline=None)
@given(ranking_inputs(lists=False), st.sampled_from(RATIONAL))
def test_trec_eval_rule_is_score_then_docno_descending(inputs, metric):
    r = compute(metric, inputs, {"ties": "trec_eval", "threshold": "1"})
    for q, ranks in r.parts["ranks"].items():
        if q not in inputs["run"]:
            assert ranks == {}
            continue
        order = sorted(inputs["run"][q], key=lambda d: (_score(inputs["run"][q][d]), d), reverse=True)
        for d, rank in ranks.items():
            assert order.index(d) + 1 == rank


def test_trec_eval_breaks_ties_by_descending_docno():
    """comp_sim_docno() returns strcmp(p2->docno, p1->docno): 'd2' before 'd10' before 'd1'."""
    inputs = {"qrels": {"q": {"d1": 1}}, "run": {"q": {"d1": 1, "d10": 1, "d2": 1}}}
    r = compute("reciprocal_rank", inputs)
    assert r.parts["ranks"] == {"q": {"d1": 3}} and r.value == Fraction(1, 3)
    r = compute("reciprocal_rank", inputs, {"ties": "input-order"})
    assert r.value == 1


@settings(deadline=None)
@given(ranking_inputs(lists=False), st.sampled_from(METRICS), COMMON_KNOBS, METRIC_KNOBS)
def test_values_lie_in_unit_interval(inputs, metric, common, extra):
    conv = _conventions(metric, common, dict(extra, negative="zero"))
    v = compute(metric, inputs, conv).value
    if isinstance(v, Undefined):
        return
    lo = Fraction(digits(v, 30)) if not isinstance(v, Fraction) else v
    assert lo >= 0
    if metric != "dcg":
        assert lo <= 1


@settings(deadline=None)
@given(ranking_inputs(lists=False), st.sampled_from(["linear", "exponential", "binary"]), st.sampled_from(["none", "1", "3"]),
       st.sampled_from(["judged", "retrieved"]))
def test_ideal_ranking_scores_one(inputs, gain, k, ideal):
    s = get_metric("ndcg").settings({"gain": gain, "k": k, "ideal": ideal})
    from oracle.ranking_query import gain_of
    for q, judged in inputs["qrels"].items():
        good = sorted((d for d in judged if gain_of(judged[d], s) > 0), key=lambda d: -judged[d])
        if not good:
            continue
        run = {q: {d: len(good) - i for i, d in enumerate(good)}}
        v = compute("ndcg", {"qrels": {q: judged}, "run": run}, {"gain": gain, "k": k, "ideal": ideal}).value
        assert v == 1 or digits(v, 40) == "1.000000000000000000000000000000000000000"


@settings(deadline=None)
@given(ranking_inputs(ties=False, lists=False), st.sampled_from(METRICS), st.randoms(use_true_random=False), COMMON_KNOBS)
def test_without_ties_document_order_and_names_do_not_matter(inputs, metric, rnd, common):
    conv = _conventions(metric, common, {})
    base = compute(metric, inputs, conv).value
    shuffled = {q: dict(rnd.sample(list(r.items()), len(r))) for q, r in inputs["run"].items()}
    assert compute(metric, {"qrels": inputs["qrels"], "run": shuffled}, conv).value == base
    names = sorted({d for r in inputs["run"].values() for d in r} | {d for j in inputs["qrels"].values() for d in j})
    new = dict(zip(names, rnd.sample([f"x{i:03d}" for i in range(len(names))], len(names))))
    renamed = {"qrels": {q: {new[d]: g for d, g in j.items()} for q, j in inputs["qrels"].items()},
               "run": {q: {new[d]: v for d, v in r.items()} for q, r in inputs["run"].items()}}
    assert compute(metric, renamed, conv).value == base


@settings(deadline=None)
@given(ranking_inputs(lists=False), st.sampled_from(["trec_eval", "input-order", "expected", "optimistic", "pessimistic"]))
def test_hit_rate_and_recall_never_decrease_with_k(inputs, ties):
    for metric in ("hit_rate", "recall_at_k"):
        values = [compute(metric, inputs, {"k": str(k), "ties": ties}).value for k in range(1, 9)]
        if isinstance(values[0], Undefined):
            continue
        assert all(a <= b for a, b in zip(values, values[1:])), (metric, values)


@settings(deadline=None)
@given(ranking_inputs(lists=False), st.sampled_from(RATIONAL), st.sampled_from(["none", "1", "3"]))
def test_expected_lies_between_pessimistic_and_optimistic(inputs, metric, k):
    conv = {"k": k} if metric != "r_precision" else {}
    vals = [compute(metric, inputs, dict(conv, ties=t)).value for t in ("pessimistic", "expected", "optimistic")]
    if isinstance(vals[0], Undefined):
        return
    assert vals[0] <= vals[1] <= vals[2]


def test_expected_tie_value_by_hand():
    """Three documents tied, one relevant: RR is (1 + 1/2 + 1/3)/3 = 11/18 over the 3 orders
    of where the relevant one lands (each 1/3)."""
    inputs = {"qrels": {"q": {"b": 1}}, "run": {"q": {"a": 5, "b": 5, "c": 5}}}
    assert compute("reciprocal_rank", inputs, {"ties": "expected"}).value == Fraction(11, 18)
    # hit@1: 1/3; P@2: 1/3 * 2 / 2 = 1/3 expected relevant in the top 2, over K = 2
    assert compute("hit_rate", inputs, {"ties": "expected", "k": "1"}).value == Fraction(1, 3)
    assert compute("precision_at_k", inputs, {"ties": "expected", "k": "2"}).value == Fraction(1, 3)


def test_exact_string_scores_are_not_rounded():
    """'0.1' and '0.10000000000000001' are different numbers (trec_eval's atof makes them equal)."""
    inputs = {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": "0.1", "b": "0.10000000000000001"}}}
    assert compute("reciprocal_rank", inputs).value == Fraction(1, 2)
    assert compute("reciprocal_rank", {"qrels": inputs["qrels"],
                                       "run": {"q": {"a": 0.1, "b": 0.10000000000000001}}}).value == Fraction(1, 2)
    # the floats are the same double: a tie, broken by docno descending ('b' first)
    assert compute("reciprocal_rank", {"qrels": inputs["qrels"], "run": {"q": {"a": 0.1, "b": 0.1}}}).value \
        == Fraction(1, 2)
    inputs2 = {"qrels": {"q": {"b": 1}}, "run": {"q": {"a": "0.1", "b": "0.10000000000000001"}}}
    assert compute("reciprocal_rank", inputs2).value == 1
    mixed = {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": "1/3", "b": 0.3333333333333333, "c": "0.33333333333333334"}}}
    # exactly: 0.33333333333333334 > 1/3 > 0.333333333333333314829616256247... (the double)
    assert compute("reciprocal_rank", mixed).value == Fraction(1, 2)


def test_closed_form_is_canonical_and_shares_denominators():
    inputs = {"qrels": {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}},
              "run": {"q1": {"x": 2, "a": 1}, "q2": {"x": 2, "y": 1.5, "b": 1}, "q3": {"c": 1}}}
    r = compute("ndcg", inputs)
    # ideals are all [1] -> IDCG 1; (1/log2(3) + 1/2 + 1)/3
    assert r.value == parse_exact("(1/3)*log(2)*log(3)**(-1) + 1/2")
    assert r.stats["ideal_classes"] == 1
    assert exact_str(r.parts["per_query"]["q2"]) == "1/2"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("inputs, fragment", [
    ({"qrels": {"q": {"a": 1}}, "run": {"q": [["a", 1], ["a", 2]]}}, "run['q'][1]: duplicate document 'a'"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": float("nan")}}}, "run['q']['a']: score nan is not a finite"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": float("inf"), "b": 1.0}}}, "run['q']['a']: score inf"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": "nan"}}}, "run['q']['a']: score 'nan'"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": "high"}}}, "run['q']['a']: score 'high'"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": True}}}, "run['q']['a']: expected a number"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": None}}}, "run['q']['a']: expected a number"),
    ({"qrels": {"q": {"a": "1"}}, "run": {"q": {"a": 1}}}, "qrels['q']['a']: expected an integer grade, got str"),
    ({"qrels": {"q": {"a": 1.0}}, "run": {"q": {"a": 1}}}, "qrels['q']['a']: expected an integer grade, got float"),
    ({"qrels": {"q": {"a": True}}, "run": {"q": {"a": 1}}}, "qrels['q']['a']: expected an integer grade, got bool"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": "a"}}, "run['q']: expected an object"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": [["a"]]}}, "run['q'][0]: expected a [document, score] pair"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": [[1, 1]]}}, "run['q'][0]: document id 1 is not a string"),
    ({"qrels": {"q": {"a": 1}}}, "inputs: missing field 'run'"),
    ({"qrels": {}, "run": {}, "extra": 1}, "inputs: unknown field 'extra'"),
    ({"qrels": [], "run": {}}, "qrels: expected an object"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {"a": Decimal("NaN")}}}, "run['q']['a']: score Decimal('NaN')"),
    ({"qrels": {"q": {"a": 1}}, "run": {"q": {7: 1.0}}}, "run['q']: document id 7 is not a string"),
    ({"qrels": {"q": {"a": 1}}, "run": {3: {"a": 1.0}}}, "run: query id 3 is not a string"),
    ({"qrels": {3: {"a": 1}}, "run": {}}, "qrels: query id 3 is not a string"),
    ({"qrels": {"q": {5: 1}}, "run": {}}, "qrels['q']: document id 5 is not a string"),
])
def test_bad_input_is_a_typed_error_naming_the_item(inputs, fragment):
    for metric in METRICS:
        with pytest.raises(InputError) as e:
            compute(metric, inputs)
        assert fragment in str(e.value), (metric, str(e.value))


def test_k_below_one_and_unknown_choices_are_convention_errors():
    inputs = {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": 1}}}
    with pytest.raises(ConventionError, match="below the minimum 1"):
        compute("precision_at_k", inputs, {"k": 0})
    with pytest.raises(ConventionError, match="not a choice"):
        compute("ndcg", inputs, {"ties": "random"})
    with pytest.raises(ConventionError, match="unknown knob"):
        compute("hit_rate", inputs, {"gain": "linear"})


def test_degenerate_inputs_get_defined_values():
    q1 = {"q1": {"a": 1}}
    # empty run: the qrels query is missing -> 0, or nothing to average
    assert compute("ndcg", {"qrels": q1, "run": {}}).value == 0
    assert compute("ndcg", {"qrels": q1, "run": {}}, {"missing": "skip"}).value == Undefined("no queries to average")
    # empty qrels
    assert isinstance(compute("hit_rate", {"qrels": {}, "run": {"q1": {"a": 1}}}).value, Undefined)
    # a query in the run only: averaged only under queries=run, where it has no relevant document
    both = {"qrels": q1, "run": {"q1": {"a": 1}, "q2": {"b": 1}}}
    assert compute("reciprocal_rank", both).value == 1
    assert compute("reciprocal_rank", both, {"queries": "run"}).value == Fraction(1, 2)
    assert compute("reciprocal_rank", both, {"queries": "run", "no_relevant": "skip"}).value == 1
    # an empty ranking retrieved nothing: 0 even under missing=skip
    assert compute("recall_at_k", {"qrels": q1, "run": {"q1": {}}}, {"missing": "skip"}).value == 0
    assert compute("average_precision", {"qrels": q1, "run": {"q1": []}}).value == 0
    # negative grades are never relevant
    neg = {"qrels": {"q1": {"a": -1, "b": 1}}, "run": {"q1": {"a": 2, "b": 1}}}
    assert compute("reciprocal_rank", neg).value == Fraction(1, 2)
    # duplicates: first keeps the first line, max the best one
    dup = {"qrels": q1, "run": {"q1": [["a", 1], ["b", 2], ["a", 3]]}}
    assert compute("reciprocal_rank", dup, {"duplicates": "first"}).value == Fraction(1, 2)
    assert compute("reciprocal_rank", dup, {"duplicates": "max"}).value == 1


def test_signatures_name_every_knob():
    s = get_metric("ndcg").signature({"k": 10})
    assert s.startswith("ndcg|k:10|ties:trec_eval|ideal:judged|rcount:judged|gain:linear|tg:yes|neg:zero|rel:1|norel:zero|")
    assert get_metric("precision_at_k").signature() != get_metric("precision_at_k").signature(
        {"precision_denominator": "retrieved"})


def test_duplicates_max_keeps_the_first_of_equal_highest_scores():
    # [a 1, b 1, a 1], a relevant, ties=input-order: keeping a's first occurrence gives the
    # ranking a, b (tied, input order) and RR 1; keeping the last would give b, a and RR 1/2
    inputs = {"qrels": {"q": {"a": 1}}, "run": {"q": [["a", 1], ["b", 1], ["a", 1]]}}
    assert compute("reciprocal_rank", inputs, {"duplicates": "max", "ties": "input-order"}).value == 1
    # a strictly higher later score moves a to its own (later) position: b 1, a 2 -> a first by score
    inputs["run"]["q"] = [["a", 1], ["b", 3], ["a", 2]]
    assert compute("reciprocal_rank", inputs, {"duplicates": "max", "ties": "input-order"}).value == Fraction(1, 2)


def test_no_relevant_one_and_error():
    # By hand: q1 ranks its relevant a second; q2 has no relevant document.
    # one: P@5 = (1/5 + 1)/2 = 3/5, RR = (1/2 + 1)/2 = 3/4; error: an InputError naming q2;
    # dcg has no maximum to score q2 at: a ConventionError.
    from fractions import Fraction
    from oracle.conventions import ConventionError, InputError
    inputs = {"qrels": {"q1": {"a": 1}, "q2": {"b": 0}}, "run": {"q1": {"x": 2, "a": 1}, "q2": {"b": 1}}}
    assert compute("precision_at_k", inputs, {"no_relevant": "one"}).value == Fraction(3, 5)
    assert compute("reciprocal_rank", inputs, {"no_relevant": "one"}).value == Fraction(3, 4)
    with pytest.raises(InputError, match=r"qrels\['q2'\]"):
        compute("reciprocal_rank", inputs, {"no_relevant": "error"})
    with pytest.raises(ConventionError, match="no maximum|has none"):
        compute("dcg", inputs, {"no_relevant": "one"})


# ------------------------------------------------------------ score_precision

def _struct_float32(x: float) -> float:
    """The float32 nearest a double, by the C library's own cast (independent of NumPy)."""
    import struct
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


@given(st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from(
           [1.0, 1.00000001, 1.0000001, 0.5, 0.50000001, 2.0, 1e-8, 1.5e-8, 3.4e38, 3.5e38]), min_size=1),
       st.sets(st.sampled_from("abcdefgh")),
       st.sampled_from(("reciprocal_rank", "average_precision", "precision_at_k", "ndcg", "bpref")))
def test_float32_scores_are_the_scores_rounded_to_float32(ranking, relevant, metric):
    # an independent formulation: the run with every score replaced by its float32 (struct's
    # cast), read exactly, gives the value score_precision=float32 gives on the run itself
    qrels = {"q": {d: 1 for d in relevant} or {"x": 1}}
    # +inf (beyond float32's range) is above every finite score: written as 10**40 here
    held = {d: _struct_float32(s) if _struct_float32(s) != float("inf") else 10 ** 40 for d, s in ranking.items()}
    want = compute(metric, {"qrels": qrels, "run": {"q": held}}, {})
    got = compute(metric, {"qrels": qrels, "run": {"q": ranking}}, {"score_precision": "float32"})
    assert str(got.value) == str(want.value)


def test_scores_one_double_holds_alike_tie_under_float64():
    # z: 0.1, a: 0.1000000000000000001 (exactly 10**-19 more): exact, a ranks first and the relevant
    # z second: RR 1/2; both texts round to the same double, so under float64 (and float32) they
    # tie, and trec_eval's tie rule (docno descending) puts z first: RR 1
    inputs = {"qrels": {"q": {"z": 1}}, "run": {"q": {"z": "0.1", "a": "0.1000000000000000001"}}}
    assert compute("reciprocal_rank", inputs, {}).value == Fraction(1, 2)
    assert compute("reciprocal_rank", inputs, {"score_precision": "float64"}).value == 1
    assert compute("reciprocal_rank", inputs, {"score_precision": "float32"}).value == 1
    # 1.0 and 1.00000001 are two doubles but one float32 (its spacing at 1 is 2**-23 ~ 1.2e-7)
    floats = {"qrels": {"q": {"z": 1}}, "run": {"q": {"z": 1.0, "a": 1.00000001}}}
    assert compute("reciprocal_rank", floats, {"score_precision": "float64"}).value == Fraction(1, 2)
    assert compute("reciprocal_rank", floats, {"score_precision": "float32"}).value == 1
