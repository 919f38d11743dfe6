"""The jiwer adapter: configuration, agreement with the oracle on hand-checked inputs,
unsupported settings, the transforms against the oracle's tokenizers, and the recorded
known failures with their classifier."""
from __future__ import annotations

import itertools
import pytest
from hypothesis import given, strategies as st

pytest.importorskip("jiwer")

import jiwer  # noqa: E402

from adapters import BUILTIN, load_adapter  # noqa: E402
from adapters.jiwer import JiWER, alignment_ops, char_transform, hirschberg_applies, word_transform  # noqa: E402
from conformance.engine.judge import judge, judge_case  # noqa: E402
from conformance.versions import in_range  # noqa: E402
from conformance.casefiles.known import load_known, same_library_value  # noqa: E402
from conformance.protocol import Configured, Skip, Unsupported  # noqa: E402
from oracle.compare import compare_value  # noqa: E402
from oracle.error_rates import characters, words  # noqa: E402
from oracle.parse import parse_exact
from oracle.certified import same_value  # noqa: E402
from oracle.registry import get_metric  # noqa: E402


@pytest.fixture(scope="module")
def a():
    return load_adapter("jiwer")


def _settings(a, metric, conventions):
    return get_metric(metric).settings({**a.profiles[metric], **conventions})


def _run(a, metric, conventions, inputs):
    settings = _settings(a, metric, conventions)
    cfg = a.configure(metric, settings)
    assert isinstance(cfg, Configured), getattr(cfg, "reason", cfg)
    return a.run(cfg, inputs), get_metric(metric).compute(inputs, settings)


def test_registered_and_loadable():
    assert BUILTIN["jiwer"] == "adapters.jiwer:JiWER"
    assert load_adapter("jiwer").name == "jiwer"


def test_profiles_use_the_library_defaults(a):
    from jiwer.transformations import cer_default, wer_default
    assert a.options("wer", a.profile("wer"))["transform"] is wer_default
    assert a.options("cer", a.profile("cer"))["transform"] is cer_default
    for metric in ("wer", "mer", "wil", "wip", "error_counts"):
        prof = a.profile(metric)
        # the README's whitespace tokenization (wer_default's lone-tab gluing is a known defect)
        # and any minimum-cost alignment (rapidfuzz's tie-break is not documented)
        assert prof["tokenize"] == "whitespace" and prof["case"] == "mixed" and prof["punctuation"] == "keep"
        assert prof["tie"] == "any"
    assert a.profile("cer")["whitespace"] == "strip" and a.profile("cer")["unit"] == "codepoint"
    assert a.profile("wer")["empty_reference"] == "insertions" and a.profile("wer")["aggregate"] == "corpus"


# --------------------------------------------------- agreement on hand-checked inputs

P = {"references": ["a b"], "hypotheses": ["c a"]}
SITI = {"references": ["siti makan nasi", "kucing hitam"], "hypotheses": ["siti minum nasi", "kucing hitam besar"]}
BUDI = {"references": ["Budi pergi, ke pasar!"], "hypotheses": ["budi pergi ke pasar"]}

# (metric, conventions over the profile, inputs, exact value by hand)
AGREE = [
    # wer_default (tokenize=jiwer): a single U+00A0 is not "\s\s+" and split(" ") keeps it: ref
    # [a\xa0b] (N = 1), hyp [a, b]: one substitution and one insertion: 2/1.
    ("wer", {"tokenize": "jiwer"}, {"references": ["a\u00a0b"], "hypotheses": ["a b"]}, "2"),
    # tokenize=spaces: "a \tb".split(" ") = [a, \tb] against [a, b]: one substitution / 2.
    ("wer", {"tokenize": "spaces"}, {"references": ["a \tb"], "hypotheses": ["a b"]}, "1/2"),
    # tokenize=jiwer: " \t" is a run of two whitespace characters -> " ": [a, b]: 0.
    ("wer", {"tokenize": "jiwer"}, {"references": ["a \tb"], "hypotheses": ["a b"]}, "0"),
    # the profile (whitespace) on the same run: [a, b] again: 0.
    ("wer", {}, {"references": ["a \tb"], "hypotheses": ["a b"]}, "0"),
    # rapidfuzz on [a b] / [c a]: D(2,2) = 2; the backtrace takes the deletion of b
    # (D(1,2) + 1 = 2), then a = a matches (D(1,1) + 1 = 2 != 1 rules out the insertion), then
    # inserts c: H = 1, d = 2: MER = 2 / (1 + 2).
    ("mer", {"tie": "rapidfuzz"}, P, "2/3"),
    # tie=any: the admissible MERs are 1 (S S, H = 0) and 2/3; jiwer's 2/3 is one of them.
    ("mer", {"tie": "any"}, P, "admissible"),
    # WIP = H^2/(N P) = 1/(2*2) with H = 1; WIL = 3/4.
    ("wip", {"tie": "rapidfuzz"}, P, "1/4"),
    ("wil", {"tie": "rapidfuzz"}, P, "3/4"),
    # corpus: H = 2 + 2, N = 3 + 2, P = 3 + 3: WIP = 16/30 = 8/15, WIL = 7/15, WER = 2/5,
    # MER = 2 / (4 + 2) = 1/3.
    ("wip", {}, SITI, "8/15"),
    ("wil", {}, SITI, "7/15"),
    ("wer", {}, SITI, "2/5"),
    ("mer", {}, SITI, "1/3"),
    # case and punctuation: [Budi pergi, ke pasar!] against [budi pergi ke pasar]:
    # as given 3 substitutions / 4; lower 2 / 4; punctuation removed 1 / 4; both 0.
    ("wer", {}, BUDI, "3/4"),
    ("wer", {"case": "lower"}, BUDI, "1/2"),
    ("wer", {"punctuation": "remove"}, BUDI, "1/4"),
    ("wer", {"case": "lower", "punctuation": "remove"}, BUDI, "0"),
    # RemovePunctuation deletes category P only: $ (Sc) stays, « » (Pi, Pf) and - (Pd) go:
    # [harga $5 murah ab] against [harga 5 murah ab]: 1/4.
    ("wer", {"punctuation": "remove"}, {"references": ["harga $5 «murah» a-b"],
                                         "hypotheses": ["harga 5 murah ab"]}, "1/4"),
    # empty references (process.py:233-244): no reference word: WER = I = 2, MER 1, WIP 0;
    # nothing on either side: MER 0, WIP 1; no utterance at all is one empty utterance: WER 0.
    ("wer", {}, {"references": [""], "hypotheses": ["x y"]}, "2"),
    ("mer", {}, {"references": [""], "hypotheses": ["x y"]}, "1"),
    ("wip", {}, {"references": [""], "hypotheses": ["x y"]}, "0"),
    ("mer", {}, {"references": [" "], "hypotheses": [""]}, "0"),
    ("wip", {}, {"references": [""], "hypotheses": [""]}, "1"),
    ("wer", {}, {"references": [], "hypotheses": []}, "0"),
    # an empty reference inside a corpus adds its insertions: (2 + 0) / 1.
    ("wer", {}, {"references": ["", "a"], "hypotheses": ["x y", "a"]}, "2"),
    # cer_default strips: "a  b" (4) against "a b" (3): one deletion: 1/4; keep: " a  b " (6):
    # three deletions: 1/2; collapse: "a b": 0; remove: "ab" = "ab": 0.
    ("cer", {}, {"references": [" a  b "], "hypotheses": ["a b"]}, "1/4"),
    ("cer", {"whitespace": "keep"}, {"references": [" a  b "], "hypotheses": ["a b"]}, "1/2"),
    ("cer", {"whitespace": "collapse"}, {"references": [" a  b "], "hypotheses": ["a b"]}, "0"),
    ("cer", {"whitespace": "remove"}, {"references": ["a b"], "hypotheses": ["ab"]}, "0"),
    # code points: "cafe\u0301" (5) against "cafe" (4): one deletion: 1/5.
    ("cer", {}, {"references": ["cafe\u0301"], "hypotheses": ["cafe"]}, "1/5"),
    # "A,b" -> lower "a,b" -> no punctuation "ab": 0.
    ("cer", {"case": "lower", "punctuation": "remove"}, {"references": ["A,b"], "hypotheses": ["ab"]}, "0"),
]


@pytest.mark.parametrize("metric,conv,inputs,exact", AGREE, ids=[f"{m}-{i}" for i, (m, *_r) in enumerate(AGREE)])
def test_agrees_with_the_oracle(a, metric, conv, inputs, exact):
    out, res = _run(a, metric, conv, inputs)
    if exact == "admissible":
        assert {str(v) for v in res.value.values} == {"1", "2/3"}
    else:
        assert same_value(res.value, parse_exact(exact)), (res.value, exact)
    assert compare_value(out.value, res.value, a.tolerance(metric)).agrees
    for k, v in out.stats.items():
        if k in res.stats:
            assert res.stats[k] == v, k


# rapidfuzz alignments, derived above: [a b]/[c a] -> I c, C a, D b; [a b]/[b c]: D(2,2) = 2,
# the deletion needs D(1,2) + 1 = 3: no; b != c and D(1,1) + 1 = 2: substitute; then a -> b:
# S S, no hit. [a b]/[a b b]: the common prefix [a b] matches first, then b is inserted.
COUNTS = [
    (P, {"hits": 1, "substitutions": 0, "deletions": 1, "insertions": 1},
     [["I", None, "c"], ["C", "a", "a"], ["D", "b", None]]),
    ({"references": ["a b"], "hypotheses": ["b c"]}, {"hits": 0, "substitutions": 2, "deletions": 0, "insertions": 0},
     [["S", "a", "b"], ["S", "b", "c"]]),
    ({"references": ["a b"], "hypotheses": ["a b b"]}, {"hits": 2, "substitutions": 0, "deletions": 0, "insertions": 1},
     [["C", "a", "a"], ["C", "b", "b"], ["I", None, "b"]]),
]


@pytest.mark.parametrize("inputs,counts,ops", COUNTS)
def test_error_counts_and_alignment(a, inputs, counts, ops):
    out, res = _run(a, "error_counts", {"tie": "rapidfuzz"}, inputs)
    assert out.value == counts
    assert {k: int(v) for k, v in res.value.items()} == counts
    assert alignment_ops(out.raw) == [ops] == res.parts["alignments"]["rapidfuzz"]
    # under tie=any jiwer's counts are one admissible split
    out2, res2 = _run(a, "error_counts", {"tie": "any"}, inputs)
    assert compare_value(out2.value, res2.value, a.tolerance("error_counts")).agrees


# ------------------------------------------------------------------ unsupported

@pytest.mark.parametrize("metric,conv,knob", [
    ("cer", {"unit": "grapheme"}, "unit=grapheme"),
    ("cer", {"unit": "nfc-codepoint"}, "unit=nfc-codepoint"),
    ("wer", {"aggregate": "mean"}, "aggregate=mean"),
    ("cer", {"aggregate": "mean"}, "aggregate=mean"),
    ("mer", {"tie": "sclite"}, "tie=sclite"),
    ("error_counts", {"tie": "diagonal-first"}, "tie=diagonal-first"),
    ("wip", {"tie": "prefer-substitution"}, "tie=prefer-substitution"),
])
def test_unsupported_settings_name_the_knob(a, metric, conv, knob):
    cfg = a.configure(metric, _settings(a, metric, conv))
    assert isinstance(cfg, Unsupported)
    assert cfg.reason.startswith(knob), cfg.reason


def test_empty_reference_policies_jiwer_cannot_take_are_not_offered(a):
    """A setting offered is a setting judged: jiwer 4 has one empty-reference rule and no
    option, so undefined and error are not offered (and never skipped where they bite)."""
    for policy in ("undefined", "error"):
        cfg = a.configure("wer", _settings(a, "wer", {"empty_reference": policy}))
        assert isinstance(cfg, Unsupported) and cfg.reason.startswith("empty_reference="), cfg


# -------------------------------------------- the transforms are the oracle's tokenizers

TEXT = st.lists(st.sampled_from(list("aAbİß,.-«»$ ") + ["\t", "\n", "\u00a0", "\u2003", "\x1c", "\u3000",
                                                       "e\u0301"]), max_size=16).map("".join)
WORD_SETTINGS = [dict(zip(("tokenize", "case", "punctuation"), v)) for v in
                 itertools.product(("jiwer", "spaces", "whitespace"), ("mixed", "lower"), ("keep", "remove"))]
CHAR_SETTINGS = [dict(zip(("whitespace", "case", "punctuation", "unit"), v + ("codepoint",))) for v in
                 itertools.product(("strip", "keep", "collapse", "remove"), ("mixed", "lower"), ("keep", "remove"))]


@given(TEXT)
def test_word_transforms_tokenize_as_the_oracle(text):
    for s in WORD_SETTINGS:
        if s["tokenize"] == "whitespace" and s["case"] == "mixed" and s["punctuation"] == "keep":
            # the profile runs the library's own wer_default, which the oracle's tokenize=jiwer
            # models (a lone tab glues two words: the known defect), not what the README says
            assert word_transform(s)([text]) == [words(text, dict(s, tokenize="jiwer"))], s
            continue
        assert word_transform(s)([text]) == [words(text, s)], s


@given(TEXT)
def test_char_transforms_split_as_the_oracle(text):
    for s in CHAR_SETTINGS:
        assert char_transform(s)([text]) == [characters(text, s)], s


def test_remove_punctuation_is_the_oracles_punctuation_set():
    from jiwer.transforms import _get_punctuation_characters
    import sys
    import unicodedata
    oracle_set = {chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i))[0] == "P"}
    assert _get_punctuation_characters() == oracle_set
    assert "$" not in oracle_set and "«" in oracle_set  # Sc kept, Pi removed


# ------------------------------------------------------------ known failures

ALL_KNOWN = load_known("jiwer")
# the entries of the installed release (the others are replayed by the version matrix)
KNOWN = [e for e in ALL_KNOWN if in_range(JiWER().version(), e.versions)]


def test_known_failures_are_recorded():
    assert {e.metric for e in KNOWN} == {"wer", "mer", "wil", "wip", "error_counts", "cer"}
    for e in ALL_KNOWN:
        assert e.kind == "defect"
        assert e.classifier in ("single-whitespace-glues-words", "sentences-concatenated") \
            or e.exact.startswith("error(")
        assert (e.versions is None) == (e.versions_source is None), e.id   # a range cites its change


@pytest.mark.parametrize("entry", KNOWN, ids=[e.id for e in KNOWN])
def test_known_failure_reproduces(a, entry):
    settings = _settings(a, entry.metric, entry.conventions)
    v = judge_case(a, entry.metric, settings, entry.inputs, explain_it=False)
    assert v.exact == entry.exact and same_library_value(v.library_value, entry.library_value)
    if entry.classifier == "sentences-concatenated":
        raise AssertionError("jiwer 2.2's defect: its entries hold before 2.3.0 only")
    if entry.classifier:
        # a lone tab glues two words: the oracle's tokenize=jiwer (the defect's model) gives jiwer's value
        assert v.status == "disagree" and a.defect_classifiers()[entry.classifier](entry.metric, settings,
                                                                                   entry.inputs)
        glued = get_metric(entry.metric).compute(entry.inputs, dict(settings, tokenize="jiwer"))
        assert compare_value(v.library_value, glued.value, a.tolerance(entry.metric)).agrees
    else:
        assert v.status == "accepts-invalid"


def test_hirschberg_split_is_admissible(a):
    """Above 2048 x 2048 tokens rapidfuzz aligns by Hirschberg's split: its counts leave the
    oracle's tie=rapidfuzz rule, but stay a minimum-cost alignment, so the profile's tie=any
    (any minimum-cost alignment) accepts them."""
    import json
    from pathlib import Path
    data = json.loads((Path(__file__).parent / "data" / "hirschberg_error_counts.json").read_text())
    settings = _settings(a, "error_counts", {})
    assert settings["tie"] == "any"
    v = judge(a, "error_counts", settings, data["inputs"], explain_it=False)
    assert v.status == "agree" and v.library_value == data["library_value"]
    strict = judge(a, "error_counts", dict(settings, tie="rapidfuzz"), data["inputs"], explain_it=False)
    assert strict.status == "disagree" and a.defect_classifiers()["rapidfuzz-hirschberg-split"](
        "error_counts", dict(settings, tie="rapidfuzz"), data["inputs"])


def test_classifier_threshold_is_rapidfuzzs():
    # 2 * n * m / 8 >= 1024 * 1024 after the common affix, n >= 65, m >= 10
    ref, hyp = ["a", "b"] * 1024, ["b", "a"] * 1024
    assert hirschberg_applies(ref, hyp)                 # 2048 x 2048: 1048576 bytes
    assert not hirschberg_applies(ref[:-1], hyp)        # 2047 x 2048: 1048064
    assert not hirschberg_applies(["c"] + ref, ["c"] + hyp[:-1])  # the common prefix does not count
    assert not hirschberg_applies(["a"] * 64, ["b"] * 100000)     # reference below 65 tokens
    assert hirschberg_applies(["a"] * 65, ["b"] * 64528)           # 2 * 65 * 64528 // 8 = 1048580


def test_classifier_is_silent_below_the_threshold(a):
    # the recorded word input, one hypothesis word shorter: rapidfuzz keeps the full matrix,
    # and jiwer's alignment is the oracle's tie=rapidfuzz alignment again
    import json
    from pathlib import Path
    data = json.loads((Path(__file__).parent / "data" / "hirschberg_error_counts.json").read_text())
    hyp = data["inputs"]["hypotheses"][0].split(" ")
    inputs = {"references": data["inputs"]["references"], "hypotheses": [" ".join(hyp[:-1])]}
    settings = _settings(a, "error_counts", {"tie": "rapidfuzz"})
    assert not a.defect_classifiers()["rapidfuzz-hirschberg-split"]("error_counts", settings, inputs)
    assert judge(a, "error_counts", settings, inputs, explain_it=False).status == "agree"
