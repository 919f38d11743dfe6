"""compute_batch: many inputs under one setting give, item by item, what compute gives;
a bad item is named by its position; a bad setting is refused before any input is read."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import ConventionError, InputError, Refused, compute, compute_batch
from conformance.engine.plans import plan_for


def _same(a, b):
    assert a.value == b.value
    assert a.stats == b.stats and a.parts == b.parts
    assert (a.signature, a.metric, a.settings) == (b.signature, b.metric, b.settings)


@pytest.mark.parametrize("metric, conventions", [
    ("sentence_bleu", {"tokenizer": "13a", "smoothing": "exp", "effective_order": "yes"}),
    ("sentence_bleu", {"tokenizer": "none"}),
    ("sentence_chrf", {}),
    ("wer", {"tokenize": "jiwer"}),
    ("cer", {}),
    ("ndcg", {"k": "10"}),
    ("squad_f1", {}),
])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_each_item_is_what_compute_gives(metric, conventions, data):
    from oracle.registry import get_metric
    strategy = plan_for(metric).inputs(get_metric(metric).settings(conventions))
    items = data.draw(st.lists(strategy, min_size=0, max_size=4))
    one_by_one = []
    for x in items:
        try:
            one_by_one.append(compute(metric, x, conventions))
        except InputError as e:
            one_by_one.append(e)
    if any(isinstance(r, InputError) for r in one_by_one):
        batch = compute_batch(metric, items, conventions, refused=True)
        for b, r in zip(batch, one_by_one):
            if isinstance(r, InputError):
                assert isinstance(b, Refused) and str(r) in b.message
            else:
                _same(b, r)
        return
    batch = compute_batch(metric, items, conventions)
    assert len(batch) == len(items)
    for b, r in zip(batch, one_by_one):
        _same(b, r)


def test_values_derived_by_hand():
    # a hypothesis equal to its reference: every p_n = 1, BP = 1, BLEU = 1; "a c" against
    # "a b c": one deletion over 3 reference words, WER 1/3; "y z" against "x": one
    # substitution and one insertion over 1 word, WER 2
    bleu = compute_batch("sentence_bleu", [{"hypothesis": "a b c d", "references": ["a b c d"]}])
    assert bleu[0].value == 1
    wer = compute_batch("wer", [{"references": ["a b c"], "hypotheses": ["a c"]},
                                {"references": ["x"], "hypotheses": ["y z"]}])
    assert [r.value for r in wer] == [Fraction(1, 3), Fraction(2)]


def test_a_bad_item_is_named_by_its_position():
    items = [{"hypothesis": "a", "references": ["a"]}, {"hypothesis": 3, "references": ["a"]}]
    with pytest.raises(InputError) as e:
        compute_batch("sentence_bleu", items)
    assert str(e.value).startswith("inputs[1]: hypothesis:")
    assert e.value.item == "inputs[1].hypothesis"
    out = compute_batch("sentence_bleu", items, refused=True)
    assert out[0].value == compute("sentence_bleu", items[0]).value
    assert isinstance(out[1], Refused) and out[1].message.startswith("inputs[1]: hypothesis:")


def test_a_bad_setting_is_refused_before_any_input_is_read():
    def never():
        raise AssertionError("an input was read")
        yield  # pragma: no cover

    with pytest.raises(ConventionError):
        compute_batch("sentence_bleu", never(), {"smoothing": "no-such-method"})


@pytest.mark.parametrize("bad", ["a b", {"hypothesis": "a"}, b"x"])
def test_the_batch_itself_must_be_a_list(bad):
    with pytest.raises(InputError, match="expected a list of inputs"):
        compute_batch("sentence_bleu", bad)


def test_each_result_has_its_own_settings():
    a, b = compute_batch("sentence_bleu", [{"hypothesis": "a", "references": ["a"]}] * 2)
    a.settings["tokenizer"] = "changed"
    assert b.settings["tokenizer"] == "13a"
