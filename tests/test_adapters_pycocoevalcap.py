"""The pycocoevalcap adapter (``Cider`` -> cider_d, ``Bleu`` -> bleu): agreement with the
oracle on hand-checked inputs, unsupported settings, and the recorded known failures."""
from __future__ import annotations

import inspect

import pytest

pytest.importorskip("pycocoevalcap.cider.cider")

from adapters import BUILTIN, load_adapter  # noqa: E402
from conformance.casefiles.known import KnownIndex, load_known  # noqa: E402
from conformance.protocol import Configured, Skip, Unsupported  # noqa: E402
from oracle.compare import compare  # noqa: E402
from oracle.exact import Undefined, exact_str
from oracle.parse import parse_exact
from oracle.certified import same_value  # noqa: E402
from oracle.registry import get_metric  # noqa: E402
from tests.adapter_helpers import (configure as _configure, run as _run, known_file, is_invalid_entry,
                                   check_invalid_entry, defect_is_recorded, exact_from_table,
                                   on_bad_input_rows)  # noqa: E402



@pytest.fixture(scope="module")
def a():
    return load_adapter("pycocoevalcap")


# ----------------------------------------------------------------- registry and profiles

def test_registered_as_a_builtin_adapter(a):
    assert BUILTIN["pycocoevalcap"] == "adapters.pycocoevalcap:PyCocoEvalCap"
    assert a.name == "pycocoevalcap" and a.library == "pycocoevalcap"
    assert a.available() == (True, "")
    assert set(a.metrics()) == {"cider_d", "bleu"}


def test_profiles_are_the_library_defaults(a):
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider

    sig = inspect.signature(Cider.__init__).parameters
    assert sig["n"].default == 4 and sig["sigma"].default == 6.0
    assert inspect.signature(Bleu.__init__).parameters["n"].default == 4
    # Cider is CIDEr-D with the paper's constants: the oracle's cider_d defaults
    assert a.profile("cider_d") == get_metric("cider_d").settings({})
    prof = a.profile("bleu")
    assert (prof["tokenizer"], prof["order"], prof["ref_length"], prof["smoothing"], prof["level"],
            prof["scale"]) == ("none", "4", "closest-shorter", "coco", "corpus", "fraction")


# ------------------------------------------------- agreement on hand-checked inputs

W = [f"w{i}" for i in range(5000)]
LONG = " ".join(W[:4000])


def _p(m: int, t: int) -> str:
    """coco-caption's precision (m + 10^-15)/(t + 10^-9), times 10^15 above and below."""
    return f"({m * 10 ** 15 + 1}/{t * 10 ** 15 + 10 ** 6})"


def _bp(c: int, r: int) -> str:
    """exp(1 - (r + 10^-9)/(c + 10^-15)), its argument over the common denominator c 10^15 + 1."""
    return f"exp({(c - r) * 10 ** 15 + 1 - 10 ** 6}/{c * 10 ** 15 + 1})"


def _coco4(n: int, r: int) -> str:
    """BLEU-4 of n distinct words, all matched, against a reference of r >= n words."""
    return f"{_bp(n, r)}*({'*'.join(_p(n - k, n - k) for k in range(4))})**(1/4)"

# (metric, conventions over the library's profile, inputs, exact value by hand)
AGREE = [
    # N = 2 images, df(cat) = df(dog) = 1, weight log(2/1) = w. Image 1: order 1 vectors {cat: w}
    # on both sides, clipped numerator min(w, w) * w = w^2 over |w| |w|: 1; orders 2-4 empty: 0;
    # delta 0, penalty 1; 10 * (1 + 0 + 0 + 0)/4 = 5/2. Image 2 alike: mean 5/2.
    ("cider_d", {}, {"candidates": ["cat", "dog"], "references": [["cat"], ["dog"]]}, "5/2"),
    # sigma 1 (passed to Cider): image 1 'cat cat' vs 'cat': order 1 {cat: 2w} vs {cat: w}:
    # min(2w, w) * w / (2w * w) = 1/2; order 2 {(cat, cat): w} (df 0 -> weight log 2) against an
    # empty reference vector: 0; delta = 2 - 1 = 1 word (1 - 0 bigrams in the library):
    # exp(-1/(2 * 1^2)) = exp(-1/2); 10/4 * (1/2) exp(-1/2) = (5/4) exp(-1/2). Image 2: 5/2.
    # Mean: 5/4 + (5/8) exp(-1/2) = (5/4)(1 + (1/2) exp(-1/2)).
    ("cider_d", {"sigma": "1"}, {"candidates": ["cat cat", "dog"], "references": [["cat"], ["dog"]]},
     "(5/4)*(1 + (1/2)*exp(-1/2))"),
    # duplicated references each count: N = 2, every n-gram has df 1 (weight w). Image 1,
    # 'a b' against 'a b' (twice): orders 1 and 2 identical vectors, similarity 1 each, so 2 per
    # copy; against 'c d': 0. Mean over 3 refs of the order sums (2 + 2 + 0)/3 = 4/3, times 10/4:
    # 10/3. Image 2 'e' vs 'e': 10/4 = 5/2. Mean (10/3 + 5/2)/2 = 35/12.
    ("cider_d", {}, {"candidates": ["a b", "e"], "references": [["a b", "a b", "c d"], ["e"]]}, "35/12"),
    # one image: every weight is log(1/1) = 0, all vectors zero, score 0
    ("cider_d", {}, {"candidates": ["a man rides a horse"], "references": [["a man rides a horse"]]}, "0"),
    # BLEU under the profile's smoothing=coco (bleu_scorer.py:201-257): p_n = (m_n + 10^-15)/
    # (t_n + 10^-9), written below with 10^15 multiplied in above and below (_p); the ratio
    # (c + 10^-15)/(r + 10^-9) < 1 gives BP = exp(1 - (r + 10^-9)/(c + 10^-15))
    # = exp(((c - r) 10^15 + 1 - 10^6)/(c 10^15 + 1)) (_bp); BLEU-4 = BP (p_1 p_2 p_3 p_4)^(1/4).
    # An empty hypothesis against 'a b': m = t = 0, every p_n = 10^-15/10^-9 = 10^-6, so the
    # root is 10^-6; c = 0, r = 2: BP = exp((-2 10^15 + 1 - 10^6)/1) (0.0 as a double)
    ("bleu", {}, {"hypotheses": [""], "references": [["a b"]]}, f"(1/1000000)*{_bp(0, 2)}"),
    # 4,000 distinct words equal to the reference: m = t = (4000, 3999, 3998, 3997), c = r:
    # BP = exp(-999999/(4 10^18 + 1)); about 1 - 7.7e-10 in all
    ("bleu", {}, {"hypotheses": [LONG], "references": [[LONG]]}, _coco4(4000, 4000)),
    # the first 3,000 of those words against all 4,000: m = t = (3000, ..., 2997), c = 3000,
    # r = 4000: BP = exp((-10^18 + 1 - 10^6)/(3 10^18 + 1)), about exp(-1/3)
    ("bleu", {}, {"hypotheses": [" ".join(W[:3000])], "references": [[LONG]]}, _coco4(3000, 4000)),
    # order 1: 4,000 words, the reference keeps the first 2,000 and replaces the rest by other
    # words: m_1 = 2000, t_1 = 4000, c = r = 4000: BP p_1, about 1/2
    ("bleu", {"order": "1"},
     {"hypotheses": [LONG], "references": [[" ".join(W[:2000] + [f"z{i}" for i in range(2000)])]]},
     f"{_bp(4000, 4000)}*{_p(2000, 4000)}"),
    # sentence-mean (the mean of the library's per-image BLEU-4): the two values above
    ("bleu", {"level": "sentence-mean"},
     {"hypotheses": [LONG, " ".join(W[:3000])], "references": [[LONG], [LONG]]},
     f"(1/2)*({_coco4(4000, 4000)} + {_coco4(3000, 4000)})"),
]


@pytest.mark.parametrize("metric,conv,inputs,exact", AGREE, ids=[f"{m}-{i}" for i, (m, *_r) in enumerate(AGREE)])
def test_adapter_agrees_with_the_oracle(a, metric, conv, inputs, exact):
    cfg, out, res = _run(a, metric, conv, inputs)
    assert same_value(res.value, parse_exact(exact)), (exact_str(res.value), exact)
    assert compare(out.value, res.value, a.tolerance(metric)).agrees, (out.value, exact)


def test_bleu_statistics_are_the_library_s_own(a):
    # 'a b c d' vs refs 'a b x' (3 words) and 'a b c d e' (5): clipped matches [3, 2, 1, 0] of
    # totals [4, 3, 2, 1]; c = 4 is 1 from both 3 and 5: ties to the shorter, r = 3
    _, out, res = _run(a, "bleu", {}, {"hypotheses": ["a b c d"], "references": [["a b c e f", "a b x"]]})
    assert out.stats == {"matches": [3, 2, 1, 0], "totals": [4, 3, 2, 1], "hyp_len": 4, "ref_len": 3}
    assert {k: res.stats[k] for k in out.stats} == out.stats


def test_bleu_level_sentence_mean_uses_the_per_image_scores(a):
    # image 1 equals its reference, image 2 has no match: the library's per-image BLEU-4 are
    # about 1 and about 1e-4 (zero-count epsilon); the adapter's value is their plain mean
    _, out, _ = _run(a, "bleu", {"level": "sentence-mean"},
                     {"hypotheses": ["a b c d", "x y z w"], "references": [["a b c d"], ["a b c d"]]})
    per_image = out.raw[3]
    assert len(per_image) == 2 and out.value == (per_image[0] + per_image[1]) / 2


def test_coco_smoothing_follows_the_library_where_unsmoothed_bleu_does_not(a):
    """Zero counts, an empty hypothesis and reference, a hypothesis shorter than 4 words: the
    library's values are the oracle's under smoothing=coco (its profile), and the
    unsmoothed value of each differs."""
    plain = dict(a.profile("bleu"), smoothing="none")
    for inputs in ({"hypotheses": ["a b c d"], "references": [["a b c e"]]},
                   {"hypotheses": [""], "references": [[""]]},
                   {"hypotheses": ["a b", "c d e f g"], "references": [["a b c"], ["c d e f x", "c"]]},
                   {"hypotheses": ["x y"], "references": [["a b"]]}):
        cfg, out, res = _run(a, "bleu", {}, inputs)
        assert compare(out.value, res.value, a.tolerance("bleu")).agrees, (inputs, out.value)
        other = get_metric("bleu").compute(inputs, plain).value
        assert isinstance(other, Undefined) or not compare(out.value, other, a.tolerance("bleu")).agrees


def test_cider_per_image_scores_are_kept(a):
    # per image: 5/2 and 0 (the candidate 'x' shares no n-gram with 'dog')
    _, out, _ = _run(a, "cider_d", {}, {"candidates": ["cat", "x"], "references": [["cat"], ["dog"]]})
    assert out.raw == [pytest.approx(2.5, rel=1e-15), 0.0] and out.value == pytest.approx(1.25, rel=1e-15)


def test_no_images_is_skipped_with_a_reason(a):
    cfg = _configure(a, "cider_d", {})
    with pytest.raises(Skip, match="no images"):
        a.run(cfg, {"candidates": [], "references": []})


# ------------------------------------------------------------------ unsupported settings

UNSUPPORTED = [
    ("cider_d", {"tf": "normalized"}, "tf"),
    ("cider_d", {"penalty": "none"}, "penalty"),
    ("cider_d", {"clip": "no"}, "clip"),
    ("cider_d", {"factor": "1"}, "factor"),
    ("cider_d", {"df": "corpus"}, "df"),
    ("cider_d", {"duplicates": "collapse"}, "duplicates"),
    ("cider_d", {"sigma": "1/3"}, "sigma"),  # not a binary float: Cider would use another sigma
    ("bleu", {"tokenizer": "13a"}, "tokenizer"),
    ("bleu", {"case": "lower"}, "case"),
    ("bleu", {"weights": "1/4,3/4", "order": "2"}, "weights"),
    ("bleu", {"ref_length": "shortest"}, "ref_length"),
    ("bleu", {"smoothing": "exp"}, "smoothing"),
    ("bleu", {"effective_order": "yes"}, "effective_order"),
    ("bleu", {"scale": "percent"}, "scale"),
]


@pytest.mark.parametrize("metric,conv,knob", UNSUPPORTED, ids=[f"{m}-{k}" for m, _c, k in UNSUPPORTED])
def test_unsupported_settings_name_the_knob(a, metric, conv, knob):
    cfg = a.configure(metric, get_metric(metric).settings({**a.profiles[metric], **conv}))
    assert isinstance(cfg, Unsupported) and cfg.reason.startswith(f"{knob}=")


def test_plain_cider_is_not_offered(a):
    assert isinstance(a.configure("cider", {}), Unsupported)


def test_supported_sigma_is_passed_to_the_library(a):
    assert _configure(a, "cider_d", {"sigma": "3/2"}).options == {"sigma": 1.5}


# ------------------------------------------------------------------ known failures

def _entries():
    data = known_file("pycocoevalcap")
    return data, data["entries"]


ENTRIES = _entries()[1]


def test_known_failure_file_is_well_formed(a):
    data, entries = _entries()
    assert (data["adapter"], data["library"]) == ("pycocoevalcap", "pycocoevalcap")
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids))
    for e in entries:
        # an entry of bad-input rows is matched by its case ids, its exact value the table's
        assert e["kind"] == "defect" and (exact_from_table(e) if on_bad_input_rows(e) else e["classifier"] in a.defect_classifiers())
        assert e["explanation"].startswith("By hand:")
    assert len(load_known("pycocoevalcap")) == len(entries)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_known_failure_reproduces(a, entry):
    data, _ = _entries()
    if data["version"] != a.version():
        pytest.skip(f"recorded against pycocoevalcap {data['version']}, installed {a.version()}")
    if is_invalid_entry(entry):
        return check_invalid_entry(a, entry)
    cfg = _configure(a, entry["metric"], entry["conventions"])
    res = get_metric(entry["metric"]).compute(entry["inputs"], cfg.settings)
    exact = entry["exact"]
    if exact.startswith("undefined("):
        assert isinstance(res.value, Undefined)
    else:
        assert same_value(res.value, parse_exact(exact)), (res.value, exact)
    assert exact == exact_str(res.value)
    recorded = entry["library_value"]
    if isinstance(recorded, str) and recorded.startswith("raised "):
        with pytest.raises(Exception) as info:
            a.run(cfg, entry["inputs"])
        assert f"raised {type(info.value).__name__}: {info.value}" == recorded
    else:
        out = a.run(cfg, entry["inputs"])
        # the library still returns the recorded value, bit for bit, and it disagrees
        assert out.value == recorded and type(out.value) is type(recorded)
        assert not compare(out.value, res.value, a.tolerance(entry["metric"])).agrees
    if entry.get("classifier"):
        assert a.defect_classifiers()[entry["classifier"]](entry["metric"], cfg.settings, entry["inputs"])


# an input each classifier must not fire on, under the entry's settings, where the library
# agrees with the oracle
CLEAN = {
    "cider_d": {"candidates": ["cat", "dog"], "references": [["cat"], ["dog"]]},
    "bleu": {"hypotheses": [LONG], "references": [[LONG]]},
}


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.get("classifier")],
                         ids=[e["id"] for e in ENTRIES if e.get("classifier")])
def test_classifier_does_not_fire_on_a_clean_input(a, entry):
    metric = entry["metric"]
    conv = entry["conventions"]
    if entry["classifier"] == "order-above-4":
        conv = {}  # every input raises at order 5: the clean one is at the default order 4
    cfg = _configure(a, metric, conv)
    clean = CLEAN[metric]
    out = a.run(cfg, clean)
    assert compare(out.value, get_metric(metric).compute(clean, cfg.settings).value, a.tolerance(metric)).agrees
    assert not a.defect_classifiers()[entry["classifier"]](metric, cfg.settings, clean)


def test_classifiers_of_one_metric_leave_the_other_alone(a):
    bleu_settings = a.profile("bleu")
    cider_settings = a.profile("cider_d")
    empty_refs = {"candidates": ["a"], "references": [[""]]}
    assert not any(f("cider_d", cider_settings, empty_refs) for k, f in a.defect_classifiers().items()
                   if k != "no-reference-words")
    assert not a.defect_classifiers()["no-reference-words"]("bleu", bleu_settings, CLEAN["bleu"])


def test_engine_recognises_every_entry(a):
    index = KnownIndex(a, load_known("pycocoevalcap"))
    for e in index.entries:
        settings = get_metric(e.metric).settings({**a.profiles[e.metric], **e.conventions})
        found = index.recognise(e.metric, settings, e.inputs, None, library_value=e.library_value)
        assert found is not None and found.classifier == e.classifier, (e.id, found and found.id)
