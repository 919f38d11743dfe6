"""The entity metrics' fast path (oracle/tagging.py) agrees with the general path.

- ``_plain_shape`` (C-level shape checks): the metrics give the same results and
  the same errors (message and item) as with it switched off, so that every
  sentence and tag goes through the per-item checks;
- ``_extract_seqeval`` (reading=seqeval on plain input, O tokens skipped):
  the same entities, in the same order, and the same error for the first bad tag
  as ``extract_entities`` (``parse_tag`` + ``read_chunks`` per sentence), under
  every scheme and tag format;
- ``_count``'s per-type counting: the same stats and parts as the pair-by-pair
  formulation, via the whole results.

Inputs are small random corpora (seeded): invalid sequences, empty sentences,
no sentences, repeated and multi-hyphen types, bad tags of every kind.
"""
from __future__ import annotations

import random

import pytest

from oracle import chunks as tagging
from oracle.conventions import InputError
from oracle.registry import get_metric
from oracle.chunks import SCHEMES, extract_entities

FORMATS = ("prefix-type", "type-prefix")
METRICS = ("entity_f1", "entity_precision", "entity_recall", "entity_report", "token_accuracy")
BAD_TAGS = ("", "PER", "B-", "-B", "X-A", "O-A", 3, None, ["B-A"])


def outcome(fn, *args):
    try:
        r = fn(*args)
    except InputError as e:
        return ("error", str(e), e.item)
    if hasattr(r, "value"):
        return ("ok", repr(r.value), type(r.value), repr(r.stats), repr(r.parts))
    return ("ok", repr(r))


def random_tag(rng: random.Random, scheme: str, fmt: str, bad: float) -> object:
    r = rng.random()
    if r < bad:
        return rng.choice(BAD_TAGS)
    if r < 0.45:
        return "O"
    prefix = rng.choice(SCHEMES[scheme] + (("B", "I", "E", "S") if rng.random() < 0.05 else ()))
    typ = rng.choice(("A", "B", "LOC", "ARG-X"))
    return f"{prefix}-{typ}" if fmt == "prefix-type" else f"{typ}-{prefix}"


def random_corpus(rng: random.Random, scheme: str, fmt: str, bad: float) -> list:
    return [[random_tag(rng, scheme, fmt, bad) for _ in range(rng.choice((0, 1, 2, 3, 5, 9)))]
            for _ in range(rng.choice((0, 1, 2, 4)))]


def random_inputs(rng: random.Random, scheme: str, fmt: str, bad: float) -> dict:
    gold = random_corpus(rng, scheme, fmt, bad)
    pred = [[random_tag(rng, scheme, fmt, bad) for _ in sent] for sent in gold]
    if rng.random() < 0.05 and pred:
        pred[rng.randrange(len(pred))].append("O")
    if rng.random() < 0.03:
        pred.append([])
    if rng.random() < 0.05:
        pred = tuple(tuple(s) for s in pred)
    if rng.random() < 0.03 and gold:
        gold[0] = "B-A"
    inputs = {"gold": gold, "pred": pred}
    if rng.random() < 0.3:
        inputs["tokens"] = [[rng.choice(("w", "x", "y z", 4 if rng.random() < 0.02 else "")) for _ in s]
                            for s in gold]
    return inputs


def random_conventions(rng: random.Random, scheme: str, fmt: str) -> dict:
    return {"scheme": scheme, "tag_format": fmt, "reading": rng.choice(("seqeval", "seqeval", "conlleval", "valid-only")),
            "average": rng.choice(("micro", "macro", "weighted")),
            "zero_division": rng.choice(("zero", "one", "undefined", "exclude")),
            "matching": rng.choice(("span", "span", "pooled-type-text")),
            "labels": rng.choice(("all", "all", "A", "A,LOC,Z"))}


@pytest.mark.parametrize("seed", range(8))
def test_conlleval_reader_is_extract_entities(seed):
    rng = random.Random(seed)
    for _ in range(400):
        scheme, fmt = rng.choice(tuple(SCHEMES)), rng.choice(FORMATS)
        settings = {"scheme": scheme, "tag_format": fmt, "reading": "seqeval"}
        bad = rng.choice((0, 0, 0.02))
        sents = [[t for t in s if isinstance(t, str) and t != ""] for s in random_corpus(rng, scheme, fmt, bad)]
        want = outcome(extract_entities, sents, "gold", settings)
        assert outcome(tagging._extract_seqeval, sents, "gold", settings, {}) == want, (sents, settings)
        # a cache already filled by another corpus changes nothing
        info: dict = {}
        outcome(tagging._extract_seqeval, random_corpus(rng, scheme, fmt, 0), "pred", settings, info)
        assert outcome(tagging._extract_seqeval, sents, "gold", settings, info) == want


@pytest.mark.parametrize("seed", range(8))
def test_metrics_agree_with_the_per_item_checks(seed):
    rng = random.Random(100 + seed)
    metrics = {name: get_metric(name) for name in METRICS}
    for _ in range(250):
        scheme, fmt = rng.choice(tuple(SCHEMES)), rng.choice(FORMATS)
        inputs = random_inputs(rng, scheme, fmt, rng.choice((0, 0, 0.01, 0.05)))
        conv = random_conventions(rng, scheme, fmt)
        for name, metric in metrics.items():
            settings = metric.settings({k: v for k, v in conv.items() if k in metric.settings()})
            fast = outcome(metric.compute_fn, inputs, settings)
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(tagging, "_plain_shape", lambda fields: False)
                slow = outcome(metric.compute_fn, inputs, settings)
            assert fast == slow, (name, inputs, settings)


def test_plain_shape_accepts_exactly_the_valid_plain_inputs():
    assert tagging._plain_shape({"gold": [["O", "B-A"], []], "pred": ([["I-A", "O"], ()])})
    assert tagging._plain_shape({"gold": [], "pred": []})
    assert tagging._plain_shape({"gold": [["O"]], "pred": [["O"]], "tokens": [[""]]})
    for fields in ({"gold": [["O", ""]], "pred": [["O", "O"]]},
                   {"gold": [["O"]], "pred": [["O", "O"]]},
                   {"gold": [["O"]], "pred": [["O"], ["O"]]},
                   {"gold": [["O"]], "pred": [["O"]], "tokens": [[1]]},
                   {"gold": [["O"]], "pred": [["O"]], "tokens": [["a", "b"]]},
                   {"gold": [("O",)], "pred": ["O"]},
                   {"gold": [["O"]], "pred": {0: ["O"]}},
                   {"gold": [[None]], "pred": [["O"]]}):
        assert not tagging._plain_shape(fields), fields


class Tag(str):
    """A str subclass: not plain, so the general path reads it."""


def test_str_subclass_tags_take_the_general_path_with_the_same_result():
    gold = [["B-A", "I-A", "O", "B-B"], ["O", "I-A"]]
    pred = [["B-A", "I-A", "O", "I-B"], ["B-A", "I-A"]]
    metric = get_metric("entity_f1")
    plain = metric.compute({"gold": gold, "pred": pred})
    wrapped = metric.compute({"gold": [[Tag(t) for t in s] for s in gold], "pred": pred})
    assert (plain.value, plain.stats, plain.parts) == (wrapped.value, wrapped.stats, wrapped.parts)


def test_first_bad_tag_is_reported_in_gold_before_pred():
    metric = get_metric("entity_f1")
    with pytest.raises(InputError) as e:
        metric.compute({"gold": [["O", "B-A"], ["O", "E-A"]], "pred": [["X-A", "O"], ["O", "O"]]})
    assert e.value.item == "gold[1][1]" and "prefix 'E'" in str(e.value)
    with pytest.raises(InputError) as e:
        metric.compute({"gold": [["O", "B-A"], ["O", "I-A"]], "pred": [["O", "B-"], ["A", "O"]]})
    assert e.value.item == "pred[0][1]" and "has no type" in str(e.value)


def test_conll2003_sized_corpus_agrees():
    from conformance.bench import conll2003_like
    data = conll2003_like(n_sentences=400, n_tokens=5400)
    for conv in ({}, {"average": "macro"}, {"scheme": "iobes"}, {"reading": "valid-only"}):
        for name in ("entity_f1", "entity_report"):
            metric = get_metric(name)
            settings = metric.settings({k: v for k, v in conv.items() if k in metric.settings()})
            fast = outcome(metric.compute_fn, data, settings)
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(tagging, "_plain_shape", lambda fields: False)
                assert outcome(metric.compute_fn, data, settings) == fast
