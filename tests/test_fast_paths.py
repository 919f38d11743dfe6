"""The oracle's hot-path shortcuts agree with the straightforward paths.

- ``oracle.exact.power`` / ``product``: against the plain forms they replaced
  (copied below as references), on canonical and non-canonical factors;
- ``oracle.bleu.segment_bleu`` (sentence BLEU): against ``corpus_bleu`` on a
  corpus of one segment, under every knob;
- ``Metric.compute``'s memoized signature: against ``Metric.signature``.
"""
import math
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from oracle.bleu import SENTENCE_BLEU, SMOOTHING_DEFAULTS, corpus_bleu, segment_bleu
from oracle.conventions import ORACLE_VERSION, Knob, Metric, Result
from oracle.exact import (Add, Exp, Log, Mul, Pow, Rat, Undefined, _rational_power, _simplify_out,
                          as_expr, exact_str, exp, log, power, product, total)


# ------------------------------------------------- reference power / product

# oracle.exact.power as it was before its fast paths, kept here on purpose as the slow
# reference the fast paths are tested against (so it repeats the shared branches)
def reference_power(x, e):
    """x**e, the plain form: no shortcut for 0 < e < 1."""
    e = Fraction(e)
    x = as_expr(x)
    if e == 0:
        return Fraction(1)
    if e == 1:
        return _simplify_out(x)
    if isinstance(x, Rat):
        if x.q == 0:
            if e < 0:
                raise ZeroDivisionError("0 to a negative power")
            return Fraction(0)
        r = _rational_power(x.q, e)
        if r is not None:
            return r
        whole = math.floor(e)
        frac = e - whole
        if whole != 0:
            return product([Rat(x.q ** whole), Pow(Rat(x.q), frac)])
        return Pow(x, e)
    if isinstance(x, Pow):
        return reference_power(x.base, x.exponent * e)
    if isinstance(x, Exp):
        return exp(product([Rat(e), x.arg]))
    if isinstance(x, Mul):
        return product([reference_power(f, e) for f in x.factors])
    return Pow(x, e)


def reference_product(factors):
    """The plain product: Fraction-keyed powers, every exp() argument summed by ``total``."""
    coeff = Fraction(1)
    exp_args, pows, order, others = [], {}, [], []
    stack = [as_expr(f) for f in factors]
    while stack:
        f = stack.pop(0)
        if isinstance(f, Rat):
            coeff *= f.q
        elif isinstance(f, Mul):
            stack = list(f.factors) + stack
        elif isinstance(f, Exp):
            exp_args.append(f.arg)
        elif isinstance(f, Pow) and isinstance(f.base, Rat):
            b = f.base.q
            if b not in pows:
                order.append(b)
                pows[b] = Fraction(0)
            pows[b] += f.exponent
        else:
            others.append(f)
    if coeff == 0:
        return Fraction(0)
    out = []
    for b in order:
        v = reference_power(Rat(b), pows[b])
        if isinstance(v, Fraction):
            coeff *= v
        elif isinstance(v, Mul):
            for g in v.factors:
                if isinstance(g, Rat):
                    coeff *= g.q
                else:
                    out.append(g)
        else:
            out.append(v)
    if exp_args:
        e = exp(total(exp_args))
        if isinstance(e, Fraction):
            coeff *= e
        else:
            out.insert(0, e)
    out.extend(others)
    if not out:
        return coeff
    if coeff != 1:
        out.insert(0, Rat(coeff))
    if len(out) == 1:
        return _simplify_out(out[0])
    return Mul(tuple(out))


def same(a, b):
    """The same exact value in the same form (type, structure and text)."""
    return type(a) is type(b) and a == b and exact_str(a) == exact_str(b)


def outcome(fn, *args):
    try:
        return fn(*args)
    except ZeroDivisionError:
        return "ZeroDivisionError"


PERFECT = [Fraction(4, 9), Fraction(8, 27), Fraction(16), Fraction(1, 16), Fraction(1), Fraction(0)]
RATIONAL = st.one_of(st.fractions(min_value=-20, max_value=20, max_denominator=12), st.sampled_from(PERFECT))
EXPONENT = st.fractions(min_value=-3, max_value=3, max_denominator=4)
POSITIVE = st.fractions(min_value=Fraction(1, 12), max_value=20, max_denominator=12)


@st.composite
def factor(draw):
    """A factor as the oracle builds them, or a raw (possibly non-canonical) node."""
    kind = draw(st.integers(0, 6))
    q = draw(RATIONAL)
    if kind == 0:
        return q
    if kind == 1:
        return Rat(q)
    if kind == 2:
        return exp(q)
    if kind == 3:
        return outcome(power, abs(q), draw(EXPONENT))
    if kind == 4:
        return Pow(Rat(draw(st.sampled_from(PERFECT[:4]))), draw(EXPONENT))  # not simplified
    if kind == 5:
        return log(draw(POSITIVE))
    return Mul((Rat(draw(POSITIVE)), Exp(Rat(q))))


FACTORS = st.lists(factor(), max_size=5).filter(lambda fs: "ZeroDivisionError" not in fs)


@given(st.one_of(RATIONAL, factor()), EXPONENT)
def test_power_agrees_with_the_plain_form(x, e):
    if x == "ZeroDivisionError":
        return
    a, b = outcome(power, x, e), outcome(reference_power, x, e)
    assert a == b if isinstance(a, str) or isinstance(b, str) else same(a, b)


@given(FACTORS)
def test_product_agrees_with_the_plain_form(factors):
    a, b = outcome(product, factors), outcome(reference_product, factors)
    assert a == b if isinstance(a, str) or isinstance(b, str) else same(a, b)


def test_product_merges_powers_of_one_base_given_in_two_forms():
    # 2**(1/3) * 2**(2/3) = 2, with the base once a Fraction and once an int inside Rat
    assert same(product([Pow(Rat(Fraction(2)), Fraction(1, 3)), Pow(Rat(2), Fraction(2, 3))]), Fraction(2))
    # exp(-1/5) * (3/4)**(1/2): the BLEU shape
    value = product([exp(Fraction(-1, 5)), power(Fraction(3, 4), Fraction(1, 2))])
    assert exact_str(value) == "exp(-1/5)*(3/4)**(1/2)"


# ---------------------------------------------------- sentence BLEU fast path

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "A", "b."]), max_size=8).map(" ".join)


@st.composite
def bleu_settings(draw):
    order = draw(st.integers(1, 5))
    conv = {"tokenizer": draw(st.sampled_from(["none", "13a", "char"])),
            "case": draw(st.sampled_from(["mixed", "lower"])),
            "order": order,
            "ref_length": draw(st.sampled_from(["closest-shorter", "closest-first", "shortest", "average"])),
            "smoothing": draw(st.sampled_from(sorted(SMOOTHING_DEFAULTS))),
            "effective_order": draw(st.sampled_from(["no", "yes"])),
            "scale": draw(st.sampled_from(["fraction", "percent"]))}
    if draw(st.booleans()):
        raw = draw(st.lists(st.integers(0, 3), min_size=order, max_size=order).filter(any))
        conv["weights"] = ",".join(str(Fraction(w, sum(raw))) for w in raw)
    return SENTENCE_BLEU.settings(conv)


def same_result(a: Result, b: Result):
    assert type(a.value) is type(b.value) and a.value == b.value
    assert a.stats == b.stats and list(a.stats) == list(b.stats)
    assert list(a.parts) == list(b.parts)
    for k in a.parts:
        assert type(a.parts[k]) is type(b.parts[k]) and a.parts[k] == b.parts[k], k


@given(WORDS, st.lists(WORDS, min_size=1, max_size=3), bleu_settings())
def test_segment_bleu_is_corpus_bleu_of_one_segment(hyp, refs, settings):
    same_result(segment_bleu(hyp, refs, settings), corpus_bleu([hyp], [refs], settings))


def test_segment_bleu_keeps_undefined_reasons():
    s = SENTENCE_BLEU.settings({"tokenizer": "none"})
    a, b = segment_bleu("", [""], s), corpus_bleu([""], [[""]], s)
    assert isinstance(a.value, Undefined) and a.value.reason == b.value.reason


# ------------------------------------------------------- memoized signature

@pytest.mark.parametrize("conv", [{}, {"tokenizer": "none"}, {"smoothing": "floor"},
                                  {"smoothing": "add-k", "smoothing_value": "2"}, {"order": 2}])
def test_compute_signature_is_the_signature_of_the_settings(conv):
    inputs = {"hypothesis": "a b c", "references": ["a b d"]}
    for _ in range(2):  # the second call reads the memo
        assert SENTENCE_BLEU.compute(inputs, conv).signature == SENTENCE_BLEU.signature(conv)


def test_signature_memo_belongs_to_the_metric_object():
    def fn(inputs, settings):
        return Result(Fraction(0))
    name = "fast-path-toy"  # two metric objects of one name, with different signature keys
    one = Metric(name, "toy", "toy", (Knob("k", "a knob", "x", choices=("x", "y"), key="k"),), {}, fn)
    other = Metric(name, "toy", "toy", (Knob("k", "a knob", "x", choices=("x", "y"), key="kk"),), {}, fn)
    assert one.compute({}, {}).signature == f"{name}|k:x|oracle:{ORACLE_VERSION}"
    assert other.compute({}, {}).signature == f"{name}|kk:x|oracle:{ORACLE_VERSION}"
