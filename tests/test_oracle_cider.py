"""CIDEr and CIDEr-D: golden cases, a second derivation in mpmath from the published
formula, certified bounds of the compact closed form, properties, bad input."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies.multimodal import caption_inputs
from oracle import ConventionError, InputError, compute
from oracle.cider_sum import CiderSum
from oracle.certified import digits, interval, same_value
from oracle.exact import exact_str
from oracle.parse import parse_exact

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = load_file(GOLDEN / "topics" / "cider.json")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(case):
    assert rederive(case) == []


def _published(cands, refs, clip, penalty, sigma, factor, tf, dps=50):
    """CIDEr / CIDEr-D straight from Vedantam et al. 2015 (and pycocoevalcap's choices:
    df over the references, log(max(1, df)), zero-norm cosine 0), in mpmath at dps digits."""
    import mpmath
    with mpmath.workdps(dps):
        return _published_at(cands, refs, clip, penalty, sigma, factor, tf, mpmath.mp)


def _published_at(cands, refs, clip, penalty, sigma, factor, tf, mp):

    def grams(s):
        w = s.split()
        return [Counter(tuple(w[i:i + n]) for i in range(len(w) - n + 1)) for n in range(1, 5)], len(w)

    n_img = len(cands)
    df = Counter()
    for rs in refs:
        df.update({g for r in rs for c in grams(r)[0] for g in c})

    def vec(counts):
        total = sum(sum(c.values()) for c in counts)
        out = []
        for c in counts:
            v = {}
            for g, h in c.items():
                tfv = mp.mpf(h) / total if tf == "normalized" else mp.mpf(h)
                v[g] = tfv * (mp.log(n_img) - mp.log(max(1, df[g])))
            out.append(v)
        return out

    scores = []
    for cand, rs in zip(cands, refs):
        cc, cl = grams(cand)
        vc = vec(cc)
        s = mp.mpf(0)
        for r in rs:
            rc, rl = grams(r)
            vr = vec(rc)
            pen = mp.e ** (-mp.mpf((cl - rl) ** 2) / (2 * mp.mpf(sigma) ** 2)) if penalty else 1
            for n in range(4):
                num = sum((min(x, vr[n].get(g, 0)) if clip else x) * vr[n].get(g, 0) for g, x in vc[n].items())
                na = mp.sqrt(sum(x * x for x in vc[n].values()))
                nb = mp.sqrt(sum(x * x for x in vr[n].values()))
                s += pen * num / (na * nb) / 4 if na != 0 and nb != 0 else 0
        scores.append(factor * s / len(rs))
    return sum(scores) / n_img


KNOBS = st.fixed_dictionaries({"clip": st.sampled_from(["yes", "no"]), "penalty": st.sampled_from(["gaussian", "none"]),
                               "tf": st.sampled_from(["raw", "normalized"])})


@settings(deadline=None, max_examples=40)
@given(caption_inputs(), KNOBS)
def test_second_derivation_in_mpmath(inputs, knobs):
    r = compute("cider_d", inputs, knobs)
    want = _published(inputs["candidates"], inputs["references"], knobs["clip"] == "yes",
                      knobs["penalty"] == "gaussian", 6, 10, knobs["tf"])
    lo, hi = interval(r.value, 200)
    import mpmath
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(lo.numerator) / lo.denominator - want) < mpmath.mpf(10) ** -40
    assert hi - lo < Fraction(1, 10 ** 50)


@settings(deadline=None, max_examples=30)
@given(caption_inputs())
def test_plain_cider_is_the_unclipped_unpenalized_cider_d_over_ten(inputs):
    plain = compute("cider", inputs).value
    other = compute("cider_d", inputs, {"clip": "no", "penalty": "none", "factor": "1"}).value
    assert same_value(plain, other, 40)


@settings(deadline=None, max_examples=30)
@given(caption_inputs(), st.sampled_from(["raw", "normalized"]))
def test_clipping_never_raises_a_score(inputs, tf):
    clipped = compute("cider_d", inputs, {"tf": tf}).parts["image_scores"]
    plain = compute("cider_d", inputs, {"clip": "no"}).parts["image_scores"]
    for a, b in zip(clipped, plain):
        assert interval(a, 120)[0] <= interval(b, 120)[1]
        assert interval(a, 120)[1] <= 10 + Fraction(1, 10 ** 30)


def test_candidate_equal_to_all_references_scores_ten():
    cands = ["a man rides a horse", "two dogs play in the snow", "a red bus"]
    r = compute("cider_d", {"candidates": cands, "references": [[c] * 5 for c in cands]})
    # "a" is in two of three images: weight log(3/2) > 0; every order has a nonzero vector
    # except order 4 of "a red bus" (three words): its cosine counts 0
    assert r.value == (10 + 10 + Fraction(15, 2)) / 3 == Fraction(55, 6)
    assert r.parts["image_scores"] == [10, 10, Fraction(15, 2)]


def test_one_image_scores_zero():
    r = compute("cider_d", {"candidates": ["a cat"], "references": [["a cat", "the cat"]]})
    assert r.value == 0


def test_compact_form_matches_its_expansion_and_certifies():
    inputs = {"candidates": ["a b c", "c d", "e a"], "references": [["a b", "b c d"], ["c", "d d e"], ["e a b", "a"]]}
    v = compute("cider_d", inputs).value
    assert isinstance(v, CiderSum)
    expanded = v.expand()
    assert digits(v, 40) == digits(expanded, 40)
    assert same_value(parse_exact(exact_str(v)), v, 40)
    lo, hi = v.bounds(300)
    assert lo <= hi and hi - lo < Fraction(1, 2 ** 250)


@settings(deadline=None, max_examples=20)
@given(caption_inputs(), st.data())
def test_image_and_reference_order_do_not_matter(inputs, data):
    from conformance.strategies.multimodal import permute_images_cider, permute_references_cider
    a = compute("cider_d", inputs).value
    b = compute("cider_d", permute_references_cider(permute_images_cider(inputs, data), data)).value
    assert digits(a, 40) == digits(b, 40)


BAD = [
    ({"candidates": ["a"], "references": [[]]}, {}, InputError, "references[0]: no references"),
    ({"candidates": ["a", "b"], "references": [["a"]]}, {}, InputError, "candidates: 2 items but references has 1"),
    ({"candidates": [1], "references": [["a"]]}, {}, InputError, "candidates[0]: expected a string"),
    ({"candidates": ["a"], "references": [["a", None]]}, {}, InputError, "references[0][1]"),
    ({"candidates": ["a"], "references": ["a"]}, {}, InputError, "references[0]: expected a list"),
    ({"candidates": ["a"], "references": [["a"]]}, {"df": "corpus"}, InputError, "no df_corpus"),
    ({"candidates": ["a"], "references": [["a"]], "df_corpus": [["a"]]}, {}, InputError, "df_corpus: given"),
    ({"candidates": ["a"], "references": [["a"]], "df_corpus": []}, {"df": "corpus"}, InputError, "df_corpus"),
    ({"candidates": ["a"], "references": [["a"]]}, {"sigma": "0"}, ConventionError, "sigma"),
    ({"candidates": ["a"], "references": [["a"]]}, {"tf": "log"}, ConventionError, "tf"),
]


@pytest.mark.parametrize("inputs, conv, error, message", BAD)
def test_bad_input(inputs, conv, error, message):
    with pytest.raises(error) as e:
        compute("cider_d", inputs, conv)
    assert message in str(e.value)


def test_empty_texts_are_defined():
    r = compute("cider_d", {"candidates": ["", "b"], "references": [["", "a"], ["b"]]})
    assert r.parts["image_scores"][0] == 0 and r.parts["image_scores"][1] == Fraction(5, 2)


def test_signatures_mark_unused_knobs():
    from oracle import get_metric
    assert "sigma:-" in get_metric("cider").signature({}) and "tf:-" in get_metric("cider").signature({})
    assert "sigma:6" in get_metric("cider_d").signature({}) and "tf:raw" in get_metric("cider_d").signature({})
    assert get_metric("cider_d").signature({"penalty": "none", "sigma": "3"}) == \
        get_metric("cider_d").signature({"penalty": "none"})
