"""Every pair of values of every knob of every metric is separated by a declared probe
(``oracle.separators``), or documented as never differing; a documented pair is never
separated by any probe; and the divergence check tries the separators first."""
from __future__ import annotations

import pytest

from oracle.conventions import candidate_values
from oracle.registry import get_metric, metric_names
from oracle.separators import (PRESENTATION, contexts, differ, never, probes, separates, separators, valid,
                               value, variants)


def _pairs():
    for name in metric_names():
        m = get_metric(name)
        for k in m.knobs:
            if k.name in PRESENTATION:
                continue
            vals = [v for v in candidate_values(k) if valid(name, k.name, v)]
            for i, a in enumerate(vals):
                for b in vals[i + 1:]:
                    if m.settings({k.name: a}) != m.settings({k.name: b}):
                        yield name, k.name, a, b


def test_every_pair_of_knob_values_is_separated_or_documented():
    missing = [p for p in _pairs() if not never(*p) and not separators(*p)]
    assert not missing, f"{len(missing)} pairs without a separator or a documented reason: {missing[:20]}"


def test_the_separators_found_do_separate():
    """The separators' own check, read back: each one gives two different exact values."""
    for metric, knob, a, b in [("reciprocal_rank", "score_precision", "exact", "float32"),
                               ("sentence_bleu", "tokenizer", "none", "13a"),
                               ("f1", "no_weight", "unweighted", "undefined"),
                               ("entity_f1", "scheme", "ioe1", "ioe2"),
                               ("precision_at_r_multiple", "multiple", "1/1000", "1/100")]:
        found = separators(metric, knob, a, b)
        assert found, (metric, knob, a, b)
        m = get_metric(metric)
        for _, x, ctx in found:
            assert differ(value(metric, x, m.settings({**ctx, knob: a})), value(metric, x, m.settings({**ctx, knob: b})))


@pytest.mark.parametrize("family_metric", ["hit_rate", "wer", "f1", "entity_f1", "sentence_bleu", "cider_d", "mer"])
def test_a_documented_pair_is_separated_by_no_probe(family_metric):
    """A pair documented as never differing must not be told apart by any probe under any
    context tried: the documentation would be false."""
    m = get_metric(family_metric)
    for name, knob, a, b in _pairs():
        if name != family_metric or not never(name, knob, a, b):
            continue
        for ctx in contexts(name, knob)[:12]:
            for pname, x in probes(name):
                assert not separates(name, knob, a, b, x, ctx), (name, knob, a, b, ctx, pname)
    assert m is not None


def test_two_scores_one_float32_apart_separate_score_precision_by_hand():
    """By hand: run {a: 1.00000001, b: 1}, only b relevant. Exactly, a ranks first: RR = 1/2.
    In float32 both are 1.0 (float32 spacing at 1 is 2**-23 ~ 1.19e-7), a tie that trec_eval's
    rule breaks by document id descending: b first, RR = 1."""
    from fractions import Fraction
    x = dict(probes("reciprocal_rank"))["equal-in-float32"]
    m = get_metric("reciprocal_rank")
    assert value("reciprocal_rank", x, m.settings({})) == Fraction(1, 2)
    assert value("reciprocal_rank", x, m.settings({"score_precision": "float32"})) == 1
    assert value("reciprocal_rank", x, m.settings({"score_precision": "float64"})) == Fraction(1, 2)


def test_numeric_query_id_variants():
    x = {"qrels": {"q": {"a": 1}}, "run": {"q": {"a": 1}}}
    out = variants("reciprocal_rank", x)
    assert out[0] == x and out[1] == {"qrels": {"1": {"a": 1}}, "run": {"1": {"a": 1}}}


def test_divergence_tries_the_declared_separators_first():
    """The search is never reached where a declared separator separates: the input found is
    a declared probe (or its variant)."""
    from conformance.engine.divergence import separating_input
    m = get_metric("reciprocal_rank")
    ours, theirs = m.settings({"score_precision": "float32"}), m.settings({})
    x = separating_input("reciprocal_rank", ours, theirs, examples=1)
    declared = [v for _, p in probes("reciprocal_rank") for v in variants("reciprocal_rank", p)]
    assert x in declared


def test_a_refusal_kind_is_read_without_the_items_it_names():
    from conformance.casefiles.known import _refusal_kind
    a = "error(InputError: y_true[5]: label 1002 is not among the declared labels [0, 1, 2] (outside=drop))"
    b = "error(InputError: y_true[0]: label 'x' is not among the declared labels ['a', 'b'] (outside=drop))"
    c = "error(InputError: y_pred: 2 items but y_true has 3)"
    assert _refusal_kind(a) == _refusal_kind(b)
    assert _refusal_kind(a) != _refusal_kind(c)
