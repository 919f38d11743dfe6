"""Replayed property inputs (conformance.engine.draws) give the record the search gives.

Each property is judged twice in one process: by its own hypothesis search (replay off)
and by replaying the inputs recorded for its setting; everything but the time must be
equal, including the number of examples and the known failures seen."""
import pytest

import conformance.engine.properties as P
from conformance.engine.draws import _CACHE
from conformance.engine.known import KnownIndex, load_known
from conformance.engine.properties import property_names, run_property
from conformance.functions import implementation
from conformance.protocol import Skip


def _fields(r):
    d = dict(vars(r))
    d.pop("seconds", None)
    return d


def _both(a, metric, prop, known, monkeypatch):
    _CACHE.clear()
    monkeypatch.setattr(P, "_REPLAYED", ())
    searched = run_property(a, metric, prop, known, 30)
    monkeypatch.undo()
    replayed = run_property(a, metric, prop, known, 30)
    return searched, replayed


@implementation("accuracy", conventions={}, name="accuracy-skips-long")
def accuracy_skips_long(inputs):
    """Right, but skips inputs of more than three samples (an adapter's Skip: the search
    rejects them and walks on differently, so the replay must hand over to it)."""
    yt, yp = list(inputs["y_true"]), list(inputs["y_pred"])
    if len(yt) > 3:
        raise Skip("more than three samples")
    if len(yt) != len(yp) or not yt:
        raise ValueError("y_true and y_pred must be non-empty and of equal length")
    return sum(t == p for t, p in zip(yt, yp)) / len(yt)


@implementation("accuracy", conventions={}, name="accuracy-skips-all")
def accuracy_skips_all(inputs):
    """Skips every input: each search ends without an accepted example (Unsatisfiable)."""
    raise Skip("this adapter takes no input")


@pytest.mark.parametrize("prop", ["oracle-equal", "bounds", "identity", "invariance:sample-order",
                                  "invariance:label-order", "invalid:unequal-length", "invalid:unknown-label"])
@pytest.mark.parametrize("fn", [accuracy_skips_long, accuracy_skips_all])
def test_a_skipping_adapter_gets_the_searched_record(fn, prop, monkeypatch):
    a = fn.adapter
    searched, replayed = _both(a, "accuracy", prop, KnownIndex(a, []), monkeypatch)
    assert searched.examples > 0
    if fn is accuracy_skips_all:
        assert searched.outcome == "skipped", searched.message
    assert _fields(searched) == _fields(replayed)


def test_every_property_of_a_library_gets_the_searched_record(monkeypatch):
    pytest.importorskip("sklearn")
    from conformance.engine.resolve import resolve_adapter
    a = resolve_adapter("sklearn")
    known = KnownIndex(a, load_known("sklearn"))
    judged = 0
    for metric in ("f1", "confusion_matrix", "accuracy"):
        for prop in property_names(a, metric):
            searched, replayed = _both(a, metric, prop, known, monkeypatch)
            assert _fields(searched) == _fields(replayed), (metric, prop)
            judged += searched.examples
    assert judged > 500


def test_a_walk_is_shared_across_ranking_measures_and_gives_the_searched_record(monkeypatch):
    pytest.importorskip("pytrec_eval")
    from conformance.engine import draws
    from conformance.engine.resolve import resolve_adapter
    a = resolve_adapter("pytrec_eval")
    known = KnownIndex(a, load_known("pytrec_eval"))
    draws._TRACES.clear()
    recorded = []
    real = draws._keep

    def keep(key, walk):
        recorded.append(key)
        return real(key, walk)
    monkeypatch.setattr(draws, "_keep", keep)
    metrics = ("reciprocal_rank", "precision_at_k", "average_precision", "ndcg")
    for metric in metrics:
        draws._CACHE.clear()
        replayed = run_property(a, metric, "oracle-equal", known, 30)
        with monkeypatch.context() as m:
            m.setattr(P, "_REPLAYED", ())
            searched = run_property(a, metric, "oracle-equal", known, 30)
        assert _fields(searched) == _fields(replayed), metric
    # four walks were kept, from fewer traces: the others were verified and shared
    assert len(recorded) == len(metrics)
    assert sum(len(v) for v in draws._TRACES.values()) < len(metrics)


def test_a_divergence_search_reads_the_recorded_walk_as_find_would_walk_it():
    import pickle as _pickle
    from hypothesis import find
    from hypothesis.errors import NoSuchExample
    from conformance.engine import draws
    from conformance.engine.divergence import _find
    from conformance.engine.plans import plan_for
    from conformance.engine.search import search_settings
    strategy, hs = plan_for("ndcg").inputs({}), search_settings(40)
    draws._FINDS.clear()
    seen_find, seen_replay = [], []

    def never(into):
        return lambda x: into.append(_pickle.dumps(x)) or False
    with pytest.raises(NoSuchExample):
        find(strategy, never(seen_find), settings=hs)
    with pytest.raises(NoSuchExample):
        _find(strategy, never(seen_replay), hs)   # records the walk, then reads it
    seen_again = []
    with pytest.raises(NoSuchExample):
        _find(strategy, never(seen_again), hs)    # reads the recorded walk only
    assert seen_find and seen_again == seen_find

    # a condition that first holds somewhere in the walk: find's shrunk example
    def two_queries(x):
        return len(x["qrels"]) >= 2 and any(len(r) >= 3 for r in x["run"].values())
    assert _find(strategy, two_queries, hs) == find(strategy, two_queries, settings=hs)


def test_an_overrun_marker_is_read_by_value(monkeypatch):
    """jiwer's utterance-order walk holds examples whose transformation overran (the search
    draws none for them). A walk whose marker is a copy of the string (as a walk written to
    a file and read back holds) replays to the searched record: the replay once compared the
    marker by identity and sent the copy to the library as an input, three invariance
    "disagreements" that the search never saw."""
    pytest.importorskip("jiwer")
    from conformance.engine import draws
    from conformance.engine.resolve import resolve_adapter
    a = resolve_adapter("jiwer")
    known = KnownIndex(a, load_known("jiwer"))
    prop = "invariance:utterance-order"
    searched, _ = _both(a, "wer", prop, known, monkeypatch)
    copies = 0
    for key, walk in draws._CACHE.items():
        for i, (blob, payload, other, status) in enumerate(walk):
            if other == draws.OVERRUN:
                walk[i] = (blob, payload, "".join(["over", "run"]), status)
                copies += 1
    assert copies
    replayed = run_property(a, "wer", prop, known, 30)
    assert _fields(searched) == _fields(replayed)


@pytest.mark.parametrize("metric", ["precision", "score_average_precision"])
def test_weighted_inputs_of_settings_that_draw_alike_have_one_walk_shape(metric):
    """The weighted form's composite holds the strategies it draws from, not the settings:
    two settings that differ only in a knob no strategy reads (zero_division; AP's
    no_relevant) share one recorded walk (``shape_key``); an average that changes what is
    drawn (binary labels) does not."""
    from conformance.engine.draws import shape_key
    from conformance.engine.plans import plan_for
    from conformance.engine.search import search_settings
    from oracle.registry import get_metric
    m, plan, hs = get_metric(metric), plan_for(metric), search_settings(50)

    def shape(**knobs):
        settings = m.settings(knobs)
        return shape_key(plan.forms["weighted"][1](settings), "weighted", "inputs", None, hs, 0)
    if metric == "precision":
        assert shape(average="macro", zero_division="zero") == shape(average="macro", zero_division="one")
        assert shape(average="macro") != shape(average="binary")
    else:
        assert shape(no_relevant="zero") == shape(no_relevant="undefined")
    assert shape() is not None


def _trace(n):
    import pickle
    from conformance.engine.draws import Walk
    return Walk([(pickle.dumps({"x": i}, protocol=4), True, pickle.dumps(None, protocol=4), None)
                 for i in range(n)])


class _Filter:
    """A filter with its library part apart (as ``with_adapter`` makes one for an adapter
    behind isolation): the library refuses inputs from ``refuse_from`` on, and every
    input prefetched is counted."""

    def __init__(self, refuse_from):
        self.refuse_from, self.prefetched = refuse_from, []

    def inner(self, x):
        return True, None

    def library(self, x, ok, payload):
        return (x["x"] < self.refuse_from), payload

    def prefetch(self, pairs):
        self.prefetched.extend(x["x"] for x, _ in pairs)

    def __call__(self, x):
        return self.library(x, *self.inner(x))


def test_a_trace_the_filter_leaves_early_costs_few_library_calls():
    # a trace recorded under another adapter's filter: this one refuses its sixth example,
    # so the trace is not this filter's walk; the library was asked for the first few
    # examples only (messages of 4, 8, ...), not for all 200 (256 calls of 80 ms each for
    # ir_measures' cwl_eval AP, where its own walk needed 47)
    from conformance.engine.draws import _refiltered
    f = _Filter(refuse_from=5)
    assert _refiltered(_trace(200), f, ("key", "left-early")) is None
    assert f.prefetched == list(range(12))
    # a trace the filter walks as recorded: every example asked for once, in order
    g = _Filter(refuse_from=10 ** 9)
    walk = _refiltered(_trace(200), g, ("key", "kept"))
    assert walk is not None and len(walk) == 200
    assert g.prefetched == list(range(200))
