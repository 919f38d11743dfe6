"""Perplexity: hand-derived golden cases, properties (sympy as a second derivation), bad input."""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import ConventionError, InputError, Undefined, compute, get_metric, parse_exact
from oracle.certified import digits, interval
from tests.exact_helpers import same

TOPICS = Path(__file__).resolve().parent.parent / "golden" / "topics"


# ------------------------------------------------------------ golden cases



CASES = json.loads((TOPICS / "perplexity.json").read_text(encoding="utf-8"))["cases"]


def test_golden_file_is_well_formed():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    for c in CASES:
        assert re.fullmatch(r"[0-9a-f]{8}", c["id"]) and c["metric"] == "perplexity"
        assert c["description"] and c["tags"] and c["source"]
        assert isinstance(c["expected"]["value"], str)
        assert len(c["expected"]["derivation"]) > 20
        get_metric("perplexity").settings(c["conventions"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_case(case):
    result = compute("perplexity", case["inputs"], case["conventions"]).to_json()
    exp = case["expected"]
    assert same(exp["value"], result["value"]), (exp["value"], result["value"])
    for key, want in exp.get("stats", {}).items():
        assert same(want, result["stats"][key]), (key, want, result["stats"][key])
    for key, want in exp.get("parts", {}).items():
        assert same(want, result["parts"][key]), (key, want, result["parts"][key])


def test_document_part4_models():
    """Source document 000 part 4 prints perplexity 2.0000 (model A) and 4.0000 (model B)."""
    a = compute("perplexity", {"probs": [[0.5, 0.25, 0.5, 1.0]]})
    b = compute("perplexity", {"probs": [[0.25, 0.25, 0.25, 0.25]]})
    assert a.value == 2 and b.value == 4
    assert digits(a.parts["nll_sum"], 5) == "2.7726" and digits(a.parts["nll_mean"], 4) == "0.6931"
    assert digits(b.parts["nll_sum"], 5) == "5.5452" and digits(b.parts["nll_mean"], 5) == "1.3863"


# ---------------------------------------------------- sympy second derivation

def _inside(value, expr) -> bool:
    """The sympy value lies within the certified interval of the oracle value (1e-40 slack)."""
    lo, hi = interval(value, 256) if not isinstance(value, Fraction) else (value, value)
    s = Fraction(str(sympy.N(expr, 60)))
    return lo - Fraction(1, 10**40) <= s <= hi + Fraction(1, 10**40)


def _sympy_ppl_from_logits(logits, targets):
    nll, n = 0, 0
    for zs, ts in zip(logits, targets):
        for z, t in zip(zs, ts):
            p = sympy.exp(sympy.Rational(z[t])) / sum(sympy.exp(sympy.Rational(v)) for v in z)
            nll -= sympy.log(p)
            n += 1
    return sympy.exp(nll / n)


small_logit = st.integers(-3, 3).map(Fraction) | st.sampled_from([Fraction(1, 2), Fraction(-3, 2)])


@st.composite
def logit_texts(draw, vocab=st.integers(1, 3)):
    v = draw(vocab)
    texts = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    logits = [[[draw(small_logit) for _ in range(v)] for _ in range(n)] for n in texts]
    targets = [[draw(st.integers(0, v - 1)) for _ in range(n)] for n in texts]
    return logits, targets


@settings(deadline=None, max_examples=40)
@given(logit_texts())
def test_logits_agree_with_sympy_softmax(data):
    logits, targets = data
    inputs = {"logits": [[[str(z) for z in pos] for pos in text] for text in logits], "targets": targets}
    value = compute("perplexity", inputs).value
    assert _inside(value, _sympy_ppl_from_logits(logits, targets))


@st.composite
def masked_logits(draw):
    """Logits equal to c or -inf: the softmax is exactly 1/k over the k finite entries."""
    v = draw(st.integers(1, 4))
    c = draw(small_logit)
    texts = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    logits, targets, probs = [], [], []
    for n in texts:
        lt, tt, pt = [], [], []
        for _ in range(n):
            t = draw(st.integers(0, v - 1))
            finite = draw(st.lists(st.booleans(), min_size=v, max_size=v))
            finite[t] = True
            lt.append([str(c) if f else "-inf" for f in finite])
            tt.append(t)
            pt.append(f"1/{sum(finite)}")
        logits.append(lt), targets.append(tt), probs.append(pt)
    return logits, targets, probs


@settings(deadline=None)
@given(masked_logits(), st.sampled_from(["corpus-token", "mean-per-text"]))
def test_logits_equal_probs_of_the_same_exact_softmax(data, agg):
    logits, targets, probs = data
    a = compute("perplexity", {"logits": logits, "targets": targets}, {"aggregate": agg})
    b = compute("perplexity", {"probs": probs}, {"aggregate": agg})
    assert a.value == b.value
    sym = [[sympy.exp(sympy.Rational(pos[t])) / sum(sympy.exp(sympy.Rational(z)) for z in pos if z != "-inf")
            for pos, t in zip(text, ts)] for text, ts in zip(logits, targets)]
    assert [[Fraction(str(p)) for p in row] for row in sym] == [[Fraction(p) for p in row] for row in probs]


# -------------------------------------------------------------- properties

prob = st.integers(1, 16).map(lambda k: Fraction(k, 16)) | st.sampled_from([Fraction(1, 3), Fraction(2, 7), Fraction(1)])
prob_texts = st.lists(st.lists(prob, min_size=1, max_size=4), min_size=1, max_size=3)


def _probs(texts):
    return {"probs": [[str(p) for p in t] for t in texts]}


@settings(deadline=None)
@given(prob_texts, st.sampled_from(["corpus-token", "mean-per-text"]))
def test_perplexity_of_probabilities_is_at_least_one(texts, agg):
    v = compute("perplexity", _probs(texts), {"aggregate": agg}).value
    lo, _ = interval(v, 128)
    assert lo >= 1 - Fraction(1, 2**100)


@settings(deadline=None)
@given(st.integers(1, 50), st.lists(st.integers(1, 5), min_size=1, max_size=3),
       st.sampled_from(["corpus-token", "mean-per-text"]))
def test_uniform_probabilities_give_the_vocabulary_size(v, lengths, agg):
    texts = [[Fraction(1, v)] * n for n in lengths]
    assert compute("perplexity", _probs(texts), {"aggregate": agg}).value == v
    logits = {"logits": [[["7/3"] * v for _ in range(n)] for n in lengths], "targets": [[v - 1] * n for n in lengths]}
    assert compute("perplexity", logits, {"aggregate": agg}).value == v


@settings(deadline=None)
@given(prob_texts)
def test_corpus_token_is_the_pooled_formula(texts):
    """corpus-token PPL = exp(-(1/T) sum over all tokens of ln p), checked with sympy, and equals the
    perplexity of one text holding all the tokens."""
    r = compute("perplexity", _probs(texts))
    flat = [p for t in texts for p in t]
    expr = sympy.exp(-sum(sympy.log(sympy.Rational(p.numerator, p.denominator)) for p in flat) / len(flat))
    assert _inside(r.value, expr)
    pooled = compute("perplexity", _probs([flat])).value
    assert digits(pooled, 40) == digits(r.value, 40)
    assert r.stats["tokens"] == len(flat)


@settings(deadline=None)
@given(prob_texts)
def test_mean_per_text_is_the_mean_of_text_perplexities(texts):
    r = compute("perplexity", _probs(texts), {"aggregate": "mean-per-text"})
    each = [sympy.exp(-sum(sympy.log(sympy.Rational(p.numerator, p.denominator)) for p in t) / len(t))
            for t in texts]
    assert _inside(r.value, sum(each) / len(texts))


@settings(deadline=None)
@given(prob_texts, st.randoms(use_true_random=False))
def test_text_order_does_not_matter(texts, rnd):
    shuffled = list(texts)
    rnd.shuffle(shuffled)
    for agg in ("corpus-token", "mean-per-text"):
        a = compute("perplexity", _probs(texts), {"aggregate": agg}).value
        b = compute("perplexity", _probs(shuffled), {"aggregate": agg}).value
        assert digits(a, 30) == digits(b, 30)


@settings(deadline=None)
@given(prob_texts)
def test_value_is_exp_of_nll_mean(texts):
    from oracle.exact import exp
    r = compute("perplexity", _probs(texts))
    assert digits(exp(r.parts["nll_mean"]), 40) == digits(r.value, 40)


def test_logprobs_give_exp_of_the_mean():
    r = compute("perplexity", {"logprobs": [["-1/3", "-2/3"], [0]]})
    assert r.value == parse_exact("exp(1/3)")


def test_signature_names_every_knob():
    m = get_metric("perplexity")
    assert m.signature() == "perplexity|agg:corpus-token|ignore:none|shift:none|lprec:exact|oracle:1"
    assert m.signature({"ignore_index": -100}) == \
        "perplexity|agg:corpus-token|ignore:-100|shift:none|lprec:exact|oracle:1"
    assert m.settings({"ignore_index": "None"})["ignore_index"] == "none"


# ----------------------------------------------------- degenerate, defined

def test_probability_zero_is_undefined_and_named():
    r = compute("perplexity", {"probs": [["1/2"], ["1/4", 0.0]]})
    assert isinstance(r.value, Undefined) and "probs[1][1]" in r.value.reason
    assert r.parts["text_perplexities"][0] == 2
    assert isinstance(r.parts["text_perplexities"][1], Undefined)


def test_logprob_minus_infinity_is_undefined():
    for lp in ("-inf", -math.inf):
        r = compute("perplexity", {"logprobs": [[-1, lp]]})
        assert isinstance(r.value, Undefined) and "logprobs[0][1]" in r.value.reason


def test_target_logit_minus_infinity_is_undefined():
    r = compute("perplexity", {"logits": [[[0, "-inf"]]], "targets": [[1]]})
    assert isinstance(r.value, Undefined) and "logits[0][0][1]" in r.value.reason


def test_masked_non_target_logit_is_left_out():
    r = compute("perplexity", {"logits": [[[0, "-inf", 0]]], "targets": [[2]]})
    assert r.value == 2


def test_no_texts_and_no_tokens():
    for agg in ("corpus-token", "mean-per-text"):
        r = compute("perplexity", {"probs": []}, {"aggregate": agg})
        assert isinstance(r.value, Undefined) and r.value.reason == "no texts"
    r = compute("perplexity", {"probs": [[], []]})
    assert isinstance(r.value, Undefined) and r.value.reason == "no tokens to score"
    r = compute("perplexity", {"probs": [[None]]}, {"ignore_index": 0})
    assert isinstance(r.value, Undefined) and r.stats["tokens"] == 0


def test_single_position_under_causal_shift_scores_nothing():
    inputs = {"logits": [[[0, 0]], [[0, 0], [0, 0]]], "targets": [[0], [0, 1]]}
    r = compute("perplexity", inputs, {"shift": "causal"})
    assert r.value == 2 and r.stats["text_tokens"] == [0, 1]
    r = compute("perplexity", inputs, {"shift": "causal", "aggregate": "mean-per-text"})
    assert isinstance(r.value, Undefined) and "logits[0]" in r.value.reason


def test_numpy_arrays_are_read_exactly():
    np = pytest.importorskip("numpy")
    r = compute("perplexity", {"probs": np.array([[0.5, 0.25]], dtype=np.float32)})
    assert r.value == parse_exact("8**(1/2)")
    r = compute("perplexity", {"logits": np.zeros((1, 2, 4)), "targets": np.array([[0, 3]])})
    assert r.value == 4


# --------------------------------------------------------------- bad input

BAD = [
    ("prob-above-one", {"probs": [["1/2", 1.5]]}, {}, "probs[0][1]"),
    ("prob-negative", {"probs": [["-1/2"]]}, {}, "probs[0][0]"),
    ("prob-minus-inf", {"probs": [["-inf"]]}, {}, "probs[0][0]"),
    ("prob-nan", {"probs": [[0.5, math.nan]]}, {}, "probs[0][1]"),
    ("prob-inf", {"probs": [[math.inf]]}, {}, "probs[0][0]"),
    ("prob-nan-string", {"probs": [["nan"]]}, {}, "probs[0][0]"),
    ("prob-not-a-number", {"probs": [["half"]]}, {}, "probs[0][0]"),
    ("prob-bool", {"probs": [[True]]}, {}, "probs[0][0]"),
    ("prob-null-without-ignore", {"probs": [["1/2", None]]}, {}, "probs[0][1]"),
    ("text-not-a-list", {"probs": [["1/2"], "1/2"]}, {}, "probs[1]"),
    ("probs-not-a-list", {"probs": "1/2"}, {}, "probs"),
    ("logprob-positive", {"logprobs": [[-1, "1/10"]]}, {}, "logprobs[0][1]"),
    ("logprob-plus-inf", {"logprobs": [[math.inf]]}, {}, "logprobs[0][0]"),
    ("logits-ragged", {"logits": [[[0, 0], [0, 0, 0]]], "targets": [[0, 0]]}, {}, "logits[0][1]"),
    ("logits-ragged-across-texts", {"logits": [[[0, 0]], [[0]]], "targets": [[0], [0]]}, {}, "logits[1][0]"),
    ("logits-empty-vocabulary", {"logits": [[[]]], "targets": [[0]]}, {}, "logits[0][0]"),
    ("logit-nan", {"logits": [[[0, math.nan]]], "targets": [[0]]}, {}, "logits[0][0][1]"),
    ("logit-plus-inf", {"logits": [[["inf", 0]]], "targets": [[1]]}, {}, "logits[0][0][0]"),
    ("target-out-of-range", {"logits": [[[0, 0], [0, 0]]], "targets": [[0, 2]]}, {}, "targets[0][1]"),
    ("target-negative", {"logits": [[[0, 0]]], "targets": [[-100]]}, {}, "targets[0][0]"),
    ("target-float", {"logits": [[[0, 0]]], "targets": [[1.0]]}, {}, "targets[0][0]"),
    ("target-bool", {"logits": [[[0, 0]]], "targets": [[True]]}, {}, "targets[0][0]"),
    ("target-count", {"logits": [[[0, 0], [0, 0]]], "targets": [[0]]}, {}, "targets[0]"),
    ("text-count", {"logits": [[[0, 0]]], "targets": [[0], [0]]}, {}, "targets"),
    ("two-kinds", {"probs": [[1]], "logprobs": [[0]]}, {}, "probs and logprobs"),
    ("no-kind", {}, {}, "exactly one"),
    ("targets-without-logits", {"probs": [[1]], "targets": [[0]]}, {}, "targets"),
    ("logits-without-targets", {"logits": [[[0]]]}, {}, "targets"),
    ("unknown-field", {"probs": [[1]], "mask": [[1]]}, {}, "mask"),
    ("not-a-dict", [[0.5]], {}, "inputs"),
]


@pytest.mark.parametrize("label,inputs,conv,where", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_position(label, inputs, conv, where):
    with pytest.raises(InputError) as err:
        compute("perplexity", inputs, conv)
    assert where in str(err.value)


def test_ignored_target_may_lie_outside_the_vocabulary():
    r = compute("perplexity", {"logits": [[[0, 0]]], "targets": [[-100]]}, {"ignore_index": -100})
    assert isinstance(r.value, Undefined) and r.stats["tokens"] == 0


@pytest.mark.parametrize("conv,word", [({"shift": "causal"}, "shift"),
                                       ({"ignore_index": "pad"}, "ignore_index"),
                                       ({"ignore_index": True}, "ignore_index"),
                                       ({"aggregate": "mean"}, "aggregate"),
                                       ({"base": "2"}, "base")])
def test_bad_convention_is_a_convention_error(conv, word):
    with pytest.raises(ConventionError, match=word):
        compute("perplexity", {"probs": [["1/2"]]}, conv)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats() | st.sampled_from(["1/2", "-inf", "x", "0.25"]),
    lambda inner: st.lists(inner, max_size=3), max_leaves=10)


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["probs", "logprobs", "logits", "targets"]), json_values, min_size=1, max_size=2),
       st.sampled_from([{}, {"ignore_index": -100}, {"shift": "causal"}, {"aggregate": "mean-per-text"}]))
def test_arbitrary_json_gives_a_value_or_a_typed_error(inputs, conv):
    try:
        r = compute("perplexity", inputs, conv)
    except (InputError, ConventionError):
        return
    assert r.value is not None
    if not isinstance(r.value, Undefined):
        assert digits(r.value, 10)


def test_float32_logit_beyond_the_doubles_is_refused_by_name():
    # 1e400 has no double; under logit_precision=float32 it is beyond float32's range like
    # any logit above 3.4e38: an InputError naming the logit, not an OverflowError from float()
    with pytest.raises(InputError, match=r"logits\[0\]\[0\]\[0\]"):
        compute("perplexity", {"logits": [[["1e400", "0"]]], "targets": [[0]]}, {"logit_precision": "float32"})
    # far below float32's range: a probability of 0 for that word (ln 0 = -inf logit), so a
    # target on the other word has probability 1 and perplexity exactly 1 (e**0)
    assert compute("perplexity", {"logits": [[["-1e400", "0"]]], "targets": [[1]]},
                   {"logit_precision": "float32"}).value == 1
