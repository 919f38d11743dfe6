"""The ranking measures' shortcuts give the Results of the general way.

- ``compute_many`` (inputs checked once, rankings and query profiles shared, the
  rational measures' profiles taken from the gain measures') equals one ``compute``
  per measure;
- the no-ties shortcuts (``oracle.ranking_query._SHORTCUTS``: ranks by bisection,
  AP over one common denominator, RR and H_K from the relevant ranks) equal the
  tie-group code they skip;
- a run read from a file keeps the floats of its scores (``ScoreTexts``) only
  while it is unchanged, and gives the Results of the same run as plain dicts;
- the garbage collector pause restores the collector's state.
"""
from __future__ import annotations

import copy
import gc
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.strategies.ranking import COMMON_KNOBS, METRIC_KNOBS, ranking_inputs
from oracle import InputError, get_metric
from oracle import ranking as R
from oracle import ranking_query as Q
from oracle.gcpause import paused_gc
from oracle.trec import ScoreTexts, read_run, write_run

METRICS = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "r_precision",
           "dcg", "ndcg")

conventions = st.tuples(COMMON_KNOBS, METRIC_KNOBS).map(lambda kv: {**kv[0], **kv[1]})


def _own(metric: str, conv: dict) -> dict:
    names = {k.name for k in get_metric(metric).knobs}
    return {k: v for k, v in conv.items() if k in names}


def _key(result):
    """Everything a Result says, types included (Fraction vs int, closed forms)."""
    return repr((result.value, result.stats, result.parts, result.signature))


def _general(metric, inputs, conv, monkeypatch=None):
    old = Q._SHORTCUTS
    Q._SHORTCUTS = False
    try:
        return get_metric(metric).compute(inputs, conv)
    finally:
        Q._SHORTCUTS = old


@settings(deadline=None, max_examples=150)
@given(ranking_inputs(max_len=7, lists=False), st.lists(st.tuples(st.sampled_from(METRICS), conventions), min_size=1,
                                             max_size=6))
def test_compute_many_equals_one_compute_per_measure(inputs, measures):
    measures = [(m, _own(m, c)) for m, c in measures]
    many = R.compute_many(inputs, measures)
    assert [_key(r) for r in many] == [_key(get_metric(m).compute(inputs, c)) for m, c in measures]


@settings(deadline=None, max_examples=150)
@given(ranking_inputs(max_len=7, lists=False), conventions, st.permutations(METRICS))
def test_rational_profiles_taken_from_the_gain_profiles_equal_their_own(inputs, conv, order):
    """Under one threshold, tie rule and duplicates rule, compute_many makes the gain
    measures' profiles first and takes the rational measures' from them (trec_eval,
    input-order, expected): every Result, parts and ranks included, is the one a compute
    of its own gives."""
    measures = [(m, _own(m, conv)) for m in order]
    many = R.compute_many(inputs, measures)
    assert [_key(r) for r in many] == [_key(get_metric(m).compute(inputs, c)) for m, c in measures]


@settings(deadline=None, max_examples=300)
@given(ranking_inputs(max_len=7, lists=False), st.sampled_from(METRICS), conventions)
def test_shortcuts_equal_the_tie_group_code(inputs, metric, conv):
    conv = _own(metric, conv)
    assert _key(get_metric(metric).compute(inputs, conv)) == _key(_general(metric, inputs, conv))


@settings(deadline=None, max_examples=100)
@given(ranking_inputs(max_len=7, ties=False, lists=False), st.sampled_from(METRICS), conventions)
def test_shortcuts_equal_the_tie_group_code_without_ties(inputs, metric, conv):
    conv = _own(metric, conv)
    assert _key(get_metric(metric).compute(inputs, conv)) == _key(_general(metric, inputs, conv))


def _random_run(rng: random.Random, n_queries: int, depth: int, ties: bool):
    qrels, run = {}, {}
    for i in range(n_queries):
        q = f"q{i}"
        docs = [f"d{j}" for j in rng.sample(range(5000), depth)]
        pool = [rng.choice((0.5, 1.0, 2.25)) for _ in range(depth)] if ties else None
        run[q] = {d: (pool[j] if ties else rng.uniform(-5, 5)) for j, d in enumerate(docs)}
        judged = {}
        for _ in range(rng.randint(1, depth // 2)):
            d = rng.choice(docs) if rng.random() < 0.8 else f"u{rng.randrange(100)}"
            judged[d] = rng.choice((-1, 0, 1, 2, 3))
        qrels[q] = judged
    return {"qrels": qrels, "run": run}


_NEAR = ("1.0", "1.00000000000000000001", "0.99999999999999999999", "2.25", "2.2500000000000000001", "0.5")


def test_tied_keys_of_different_exact_scores_equal_the_tie_group_code():
    """Decimal texts that round to one double (1.0, 1 + 1e-20, 1 - 1e-20): their documents
    share a sort key, the tie is broken by the exact scores first, then by the tie rule
    (trec_eval: docno descending; input-order); the shortcut gives the tie-group code's
    Results, in one compute and in compute_many."""
    rng = random.Random(11)
    for trial in range(4):
        inputs = _random_run(rng, 5, 120, True)
        inputs["run"] = {q: {d: rng.choice(_NEAR) for d in r} for q, r in inputs["run"].items()}
        for metric in METRICS:
            for conv in ({}, {"k": "10"}, {"ties": "input-order"}, {"ties": "input-order", "k": "5"}):
                conv = _own(metric, conv)
                assert _key(get_metric(metric).compute(inputs, conv)) == _key(_general(metric, inputs, conv)), \
                    (metric, conv)
        many = R.compute_many(inputs, [("ndcg", {"k": "10"}), ("average_precision", {}), ("reciprocal_rank", {})])
        assert [_key(r) for r in many] == [_key(_general(m, inputs, c)) for m, c in
                                           [("ndcg", {"k": "10"}), ("average_precision", {}), ("reciprocal_rank", {})]]


@pytest.mark.parametrize("ties", [False, True])
def test_shortcuts_on_long_rankings_with_many_relevant_documents(ties):
    """AP over one common denominator with ranks up to 300 (lcm of many ranks)."""
    rng = random.Random(7 if ties else 8)
    inputs = _random_run(rng, 6, 300, ties)
    for metric in METRICS:
        for conv in ({}, {"k": "10"}, {"ties": "input-order"}, {"ties": "expected", "k": "7"},
                     {"ties": "pessimistic", "threshold": "2"}):
            conv = _own(metric, conv)
            assert _key(get_metric(metric).compute(inputs, conv)) == _key(_general(metric, inputs, conv))
    many = R.compute_many(inputs, [("average_precision", {}), ("ndcg", {"k": "10"}), ("reciprocal_rank", {})])
    assert [r.value for r in many] == [get_metric(m).compute(inputs, c).value
                                       for m, c in [("average_precision", {}), ("ndcg", {"k": "10"}),
                                                    ("reciprocal_rank", {})]]


def test_ap_without_ties_by_hand():
    """Relevant documents at ranks 1, 3, 6 of 6, R = 4 (one relevant not retrieved):
    AP = (1/1 + 2/3 + 3/6) / 4 = (6/6 + 4/6 + 3/6) / 4 = 13/24; AP@3 = (1 + 2/3) / 4 = 5/12;
    RR = 1; R@3 = 2/4."""
    run = {"q": {"a": 6.0, "b": 5.0, "c": 4.0, "d": 3.0, "e": 2.0, "f": 1.0}}
    qrels = {"q": {"a": 1, "c": 2, "f": 1, "z": 1, "b": 0}}
    inputs = {"qrels": qrels, "run": run}
    ap, ap3, rr, r3 = R.compute_many(inputs, [("average_precision", {}), ("average_precision", {"k": "3"}),
                                              ("reciprocal_rank", {}), ("recall_at_k", {"k": "3"})])
    assert (ap.value, ap3.value, rr.value, r3.value) == (Fraction(13, 24), Fraction(5, 12), 1, Fraction(1, 2))
    assert all(type(r.value) is Fraction for r in (ap, ap3, rr, r3))


def test_ap_over_the_kept_common_denominator_by_hand():
    """Twenty relevant documents at ranks 2, 4, ..., 40 of 40 (the sum over lcm(1..64), kept):
    the j-th adds j / (2j) = 1/2, so AP = 20 * (1/2) / 20 = 1/2; with R = 25 (five relevant not
    retrieved) AP = 10/25 = 2/5; AP@10 (ranks 2..10: five terms of 1/2) = (5/2) / 20 = 1/8.
    Relevant at every rank 1..20 of 20: AP = 1."""
    docs = [f"d{i:02d}" for i in range(1, 41)]
    run = {"q": {d: float(100 - i) for i, d in enumerate(docs)}}   # d01 first
    judged = {d: (1 if i % 2 == 0 else 0) for i, d in enumerate(docs, start=1)}
    ap, ap10 = R.compute_many({"qrels": {"q": judged}, "run": run},
                              [("average_precision", {}), ("average_precision", {"k": "10"})])
    assert (ap.value, ap10.value) == (Fraction(1, 2), Fraction(1, 8))
    more = {**judged, **{f"x{i}": 1 for i in range(5)}}
    assert get_metric("average_precision").compute({"qrels": {"q": more}, "run": run}, {}).value == Fraction(2, 5)
    first = {"q": {d: 1 for d in docs[:20]}}
    assert get_metric("average_precision").compute(
        {"qrels": first, "run": {"q": {d: run["q"][d] for d in docs[:20]}}}, {}).value == 1


def test_compute_many_rejects_other_families_and_reports_bad_input():
    with pytest.raises(ValueError, match="not a ranking measure"):
        R.compute_many({"qrels": {}, "run": {}}, [("accuracy", {})])
    with pytest.raises(InputError, match=r"run\['q'\]\['d'\]"):
        R.compute_many({"qrels": {"q": {"d": 1}}, "run": {"q": {"d": float("nan")}}}, [("ndcg", {})])


# ---------------------------------------------------------------- run files


def _write(tmp_path, run, name="run.txt"):
    path = tmp_path / name
    write_run(path, run)
    return path


def test_read_run_keeps_the_floats_of_its_scores(tmp_path):
    run = {"q1": {"a": "0.1", "b": "0.10000000000000001", "c": "0.05"}, "q2": {"x": "-2.5e-3"}}
    got = read_run(_write(tmp_path, run))
    assert got == run
    for q, ranking in got.items():
        assert type(ranking) is ScoreTexts
        assert ranking.floats() == {d: float(s) for d, s in run[q].items()}
    # the exact texts still decide: 0.1 < 0.10000000000000001 though both round to the same float
    r = get_metric("reciprocal_rank").compute({"qrels": {"q1": {"b": 1}}, "run": got}, {})
    assert r.value == 1


@pytest.mark.parametrize("change", [
    lambda r: r.__setitem__("a", "5"), lambda r: r.__delitem__("a"), lambda r: r.pop("a"),
    lambda r: r.popitem(), lambda r: r.update({"a": "5"}), lambda r: r.setdefault("n", "9"),
    lambda r: r.clear(), lambda r: r.__ior__({"a": "5"})])
def test_any_change_drops_the_floats(tmp_path, change):
    got = read_run(_write(tmp_path, {"q": {"a": "1", "b": "2", "c": "0.5"}}))
    ranking = got["q"]
    change(ranking)
    assert ranking.floats() is None
    qrels = {"q": {"a": 1, "c": 1, "n": 1}}
    plain = {"q": dict(ranking)}
    for m in METRICS:
        assert _key(get_metric(m).compute({"qrels": qrels, "run": got}, {})) == \
            _key(get_metric(m).compute({"qrels": qrels, "run": plain}, {}))


def test_copies_and_pickles_stay_consistent(tmp_path):
    got = read_run(_write(tmp_path, {"q": {"a": "1", "b": "2"}}))["q"]
    back = pickle.loads(pickle.dumps(got))
    assert back == got and type(back) is ScoreTexts and back.floats() in (None, {"a": 1.0, "b": 2.0})
    deep = copy.deepcopy(got)
    assert deep == got and deep.floats() in (None, {"a": 1.0, "b": 2.0})
    assert type(got.copy()) is dict


def test_a_query_split_over_two_blocks_is_one_ranking(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 a 1 3 t\nq2 Q0 x 1 1 t\nq1 Q0 b 2 2 t\n# note\n\nq1 Q0 c 3 5 t\n")
    got = read_run(path)
    assert got == {"q1": {"a": "3", "b": "2", "c": "5"}, "q2": {"x": "1"}}
    assert got["q1"].floats() is None  # extended after its first block: the floats were dropped
    r = get_metric("reciprocal_rank").compute({"qrels": {"q1": {"a": 1}}, "run": got}, {})
    assert r.value == Fraction(1, 2)  # c (5) ranks above a (3)


@settings(deadline=None, max_examples=60)
@given(ranking_inputs(max_len=7, negative=False, lists=False), st.sampled_from(METRICS), conventions)
def test_a_run_read_from_a_file_gives_the_results_of_the_plain_run(tmp_path_factory, inputs, metric, conv):
    conv = _own(metric, conv)
    path = tmp_path_factory.mktemp("run") / "run.txt"
    run = {q: r for q, r in inputs["run"].items() if r}
    write_run(path, run)
    got = read_run(path)
    plain = {q: {d: s for d, s in r.items()} for q, r in got.items()}
    assert all(type(r) is ScoreTexts for r in got.values())
    a = get_metric(metric).compute({"qrels": inputs["qrels"], "run": got}, conv)
    b = get_metric(metric).compute({"qrels": inputs["qrels"], "run": plain}, conv)
    assert _key(a) == _key(b)


# ------------------------------------------------------------------ the pause


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_state_is_restored(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with paused_gc():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(KeyError):
            with paused_gc():
                raise KeyError("x")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


# ------------------------------------------------------------ DCG closed forms


def _reference_form(pairs) -> dict:
    """{b: sum of c / e over (rank, c) with rank + 1 = b**e}: the DCG form as first written."""
    acc: dict = {}
    for rank, c in pairs:
        b, e = Q._base_exp(rank + 1)
        acc[b] = acc.get(b, Fraction(0)) + c / e
    return {b: c for b, c in acc.items() if c}


def _reference_expr(form: dict):
    from oracle.exact import log, power, product, total
    terms = [c if b == 2 else product([c, log(Fraction(2)), power(log(Fraction(b)), -1)]) for b, c in
             sorted(form.items())]
    return total(terms) if terms else Fraction(0)


coefficients = st.one_of(st.sampled_from([Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 2)]),
                         st.fractions(min_value=-50, max_value=50, max_denominator=12))


@settings(deadline=None, max_examples=200)
@given(st.dictionaries(st.integers(2, 300), coefficients, max_size=8))
def test_form_expr_builds_the_closed_form_of_its_definition(form):
    from oracle.exact import exact_str
    got, want = Q._form_expr(form), _reference_expr(form)
    assert got == want and exact_str(got) == exact_str(want) and type(got) is type(want)


@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(st.integers(1, 200), coefficients), max_size=12))
def test_discounted_sums_equal_their_definition(pairs):
    acc: dict = {}
    for rank, c in pairs:
        Q._add_discounted(acc, rank, c)
    assert {b: c for b, c in acc.items() if c} == _reference_form(pairs)
    assert all(type(c) is Fraction for c in acc.values())
    ideal = tuple(sorted((c for _, c in pairs if c > 0), reverse=True))
    for k in (1, 3, 10, 1000):
        assert Q._ideal_form(ideal, k) == _reference_form(enumerate(ideal[:k], start=1))
    merged: dict = {}
    Q._add_form(merged, _reference_form(pairs))
    Q._add_form(merged, _reference_form(pairs), Fraction(-1, 3))
    assert {b: c for b, c in merged.items() if c} == {b: c * Fraction(2, 3) for b, c in _reference_form(pairs).items()}


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_a_non_finite_score_is_named_where_the_arrays_are_made_at_the_check(bad):
    # a query with 32 judged documents or more gets its NumPy arrays when its ranking is
    # checked (finiteness read from the array): the error names the score as elsewhere
    from oracle.conventions import InputError
    run = {"q1": {f"d{j}": float(j) for j in range(60)}}
    run["q1"]["d17"] = bad
    qrels = {"q1": {f"d{j}": j % 3 for j in range(40)}}
    for few in (qrels, {"q1": {"d1": 1}}):          # the array path and the sum path
        with pytest.raises(InputError) as e:
            R.compute_many({"qrels": few, "run": run}, [("average_precision", {})])
        assert "d17" in str(e.value) and "run" in str(e.value)
