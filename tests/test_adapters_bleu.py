"""The sacrebleu and NLTK adapters: configuration, agreement with the oracle on
hand-checked inputs, unsupported settings, and the recorded known failures."""
from __future__ import annotations

import warnings
from fractions import Fraction

import pytest

from adapters import BUILTIN, builtin_adapters, load_adapter
from conformance.engine.judge import judge  # noqa: E402
from conformance.casefiles.known import KnownIndex, load_known
from conformance.versions import in_range
from conformance.protocol import Configured, Skip, Unsupported
from oracle.compare import compare
from oracle.exact import Undefined, exact_str
from oracle.parse import parse_exact
from oracle.certified import same_value
from oracle.registry import get_metric
from tests.adapter_helpers import (configure as _configure, run as _run, known_file, is_invalid_entry,
                                   check_invalid_entry, defect_is_recorded)  # noqa: E402



def _adapter(name):
    pytest.importorskip({"sacrebleu": "sacrebleu", "nltk": "nltk.translate.bleu_score"}[name])
    return load_adapter(name)


# ----------------------------------------------------------------- registry

def test_registry_names_the_builtin_adapters():
    assert BUILTIN["sacrebleu"] == "adapters.sacrebleu:SacreBLEU" and BUILTIN["nltk"] == "adapters.nltk:NLTK"
    ready, missing = builtin_adapters(include_entry_points=False)
    names = {a.name for a in ready} | {n for n, _ in missing}
    assert names == set(BUILTIN)
    from conformance.protocol import Adapter
    for name, reason in missing:
        cls = load_adapter(name).__class__
        # the protocol's own check says 'not importable'; an adapter with its own check (the
        # ir_measures ranx provider: a trial call) gives its reason
        assert reason and ("not importable" in reason or cls.available is not Adapter.available), (name, reason)


def test_unknown_adapter_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown adapter 'sacreblue'"):
        load_adapter("sacreblue")


def test_adapter_can_be_loaded_by_module_path():
    pytest.importorskip("sacrebleu")
    assert load_adapter("adapters.sacrebleu:SacreBLEU").name == "sacrebleu"


# ------------------------------------------------- agreement on hand-checked inputs

# (adapter, metric, conventions over the library's profile, inputs, exact value by hand)
AGREE = [
    # 13a tokens: hyp [the cat sat on the mat], ref [the cat is on the mat]; m = [5,3,1,0],
    # t = [6,5,4,3]; exp smoothing: p_4 = 1/(2*3); (5/6 * 3/5 * 1/4 * 1/6) = 1/48; BP = 1.
    ("sacrebleu", "bleu", {}, {"hypotheses": ["the cat sat on the mat"],
                               "references": [["the cat is on the mat"]]}, "100*(1/48)**(1/4)"),
    # 13a lowercased: [hello , world !] against [hello world !]: m = [3,1], t = [4,3];
    # (3/4 * 1/3)**(1/2) = 1/2; c = 4 >= r = 3.
    ("sacrebleu", "sentence_bleu", {"case": "lower", "order": "2", "smoothing": "none"},
     {"hypothesis": "Hello, World!", "references": ["hello world !"]}, "50"),
    # tokenizer none, order 3, floor 1/10: seg 1 m = [2,1,0], t = [3,2,1]; seg 2 m = [2,1,0],
    # t = [2,1,0]; pooled m = [4,2,0], t = [5,3,1]; t_3 > 0 so all 3 orders stay;
    # p = 4/5, 2/3, (1/10)/1; product 4/75; c = r = 5.
    ("sacrebleu", "bleu", {"tokenizer": "none", "order": "3", "smoothing": "floor", "effective_order": "yes"},
     {"hypotheses": ["a b c", "d e"], "references": [["a b x"], ["d e"]]}, "100*(4/75)**(1/3)"),
    # a variable number of references (None-padded streams); order 1: seg 1 m = t = 3, r = 4;
    # seg 2 [c c] clipped by the max count 3 -> 2, refs of length 3 and 1 tie at distance 1,
    # the shorter wins: r = 1; c = 5 = r; p_1 = 1.
    ("sacrebleu", "bleu", {"tokenizer": "none", "order": "1", "smoothing": "none"},
     {"hypotheses": ["a b c", "c c"], "references": [["a b c d"], ["c c c", "c"]]}, "100"),
    # intl: l'été, 2,5€ -> [l ' été , 2,5 €] (the comma between digits stays, € is a symbol),
    # the same 6 tokens as the reference.
    ("sacrebleu", "sentence_bleu", {"tokenizer": "intl", "order": "1", "smoothing": "none"},
     {"hypothesis": "l'été, 2,5€", "references": ["l ' été , 2,5 €"]}, "100"),
    # char: [a b d] against [a b c]: p_1 = 2/3, bigrams ab|bd against ab|bc: p_2 = 1/2.
    ("sacrebleu", "sentence_bleu", {"tokenizer": "char", "order": "2", "smoothing": "none"},
     {"hypothesis": "abd", "references": ["abc"]}, "100*(1/3)**(1/2)"),
    # add-k 1 with effective order off: m = [1,0,0,0], t = [2,1,0,0]: p = 1/2, 1/2, 1, 1.
    ("sacrebleu", "sentence_bleu", {"smoothing": "add-k", "effective_order": "no"},
     {"hypothesis": "a b", "references": ["a c"]}, "100*(1/4)**(1/4)"),
    # hyp [the cat sat on the mat], ref [the cat sat on a mat]: m = [5,3,2,1], t = [6,5,4,3]:
    # 5/6 * 3/5 * 2/4 * 1/3 = 1/12; BP = 1.
    ("nltk", "bleu", {}, {"hypotheses": ["the cat sat on the mat"],
                          "references": [["the cat sat on a mat"]]}, "(1/12)**(1/4)"),
    # weights 3/4, 1/4: p_1 = 3/4, bigrams ab|bc|cd against ab|bx|xd: p_2 = 1/3.
    ("nltk", "sentence_bleu", {"order": "2", "weights": "3/4,1/4"},
     {"hypothesis": "a b c d", "references": ["a b x d"]}, "(3/4)**(3/4)*(1/3)**(1/4)"),
    # floor 1/5: p_1 = 3/3, no bigram of [a b c] in [a c b]: p_2 = (1/5)/2.
    ("nltk", "sentence_bleu", {"order": "2", "smoothing": "floor", "smoothing_value": "1/5"},
     {"hypothesis": "a b c", "references": ["a c b"]}, "(1/10)**(1/2)"),
    # exp: m = [3,2,1,0], t = [4,3,2,1]: p_4 = 1/(2*1); 3/4 * 2/3 * 1/2 * 1/2 = 1/8.
    ("nltk", "bleu", {"smoothing": "exp"}, {"hypotheses": ["a b c d"], "references": [["a b c x"]]},
     "(1/8)**(1/4)"),
    # add-k 1 (method2): p_1 = 3/4, p_n = (m+1)/(t+1): 3/4, 2/3, 1/2; product 3/16.
    ("nltk", "sentence_bleu", {"smoothing": "add-k", "smoothing_value": "1"},
     {"hypothesis": "a b c d", "references": ["a b c x"]}, "(3/16)**(1/4)"),
    # cc6, alpha 5: p_1 = 3/4, p_2 = 2/3; prior_3 = p_2^2/p_1 = 16/27, p_3 = (1 + 80/27)/(2 + 5)
    # = 107/189; prior_4 = p_3^2/p_2 = 11449/23814, p_4 = (0 + 5*11449/23814)/(1 + 5)
    # = 57245/142884; product = 1/2 * 107/189 * 57245/142884.
    ("nltk", "sentence_bleu", {"smoothing": "cc6"}, {"hypothesis": "a b c d", "references": ["a b c x"]},
     "(107*57245/(2*189*142884))**(1/4)"),
    # auto_reweigh as effective order: [a b] against [a c], T = 2 < 4: weights 1/2, 1/2;
    # p_1 = 1/2, p_2 = 0 -> exp 1/(2*1); (1/4)**(1/2).
    ("nltk", "sentence_bleu", {"effective_order": "yes", "smoothing": "exp"},
     {"hypothesis": "a b", "references": ["a c"]}, "1/2"),
]


@pytest.mark.parametrize("adapter,metric,conv,inputs,exact", AGREE,
                         ids=[f"{a}-{m}-{i}" for i, (a, m, *_r) in enumerate(AGREE)])
def test_adapter_agrees_with_the_oracle(adapter, metric, conv, inputs, exact):
    a = _adapter(adapter)
    cfg, out, res = _run(a, metric, conv, inputs)
    assert same_value(res.value, parse_exact(exact)), (res.value, exact)
    c = compare(out.value, res.value, a.tolerance(metric))
    assert c.agrees, c.to_json()
    lib_stats = dict(res.stats, **STATS_OVERRIDE.get((adapter, inputs.get("hypothesis")), {}))
    for key in ("matches", "totals", "hyp_len", "ref_len"):
        assert out.stats[key] == lib_stats[key], key


# NLTK's own statistics keep max(1, 0) = 1 as the total of an order the hypothesis is too
# short for (modified_precision); the orders dropped by auto_reweigh do not reach the value.
STATS_OVERRIDE = {("nltk", "a b"): {"totals": [2, 1, 1, 1]}}


def test_sacrebleu_add_k_reports_raw_statistics():
    # compute_bleu adds k to the counts it keeps; the adapter reports the library's raw ones:
    # [a b] against [a c]: m = [1,0,0,0], t = [2,1,0,0].
    a = _adapter("sacrebleu")
    _, out, _ = _run(a, "sentence_bleu", {"smoothing": "add-k", "effective_order": "no"},
                     {"hypothesis": "a b", "references": ["a c"]})
    assert out.stats == {"matches": [1, 0, 0, 0], "totals": [2, 1, 0, 0], "hyp_len": 2, "ref_len": 2}
    assert out.raw.counts != out.stats["matches"]


def test_profiles_are_the_library_defaults():
    sb = _adapter("sacrebleu")
    assert sb.profile("bleu")["smoothing"] == "exp" and sb.profile("bleu")["effective_order"] == "no"
    assert sb.profile("sentence_bleu")["effective_order"] == "yes"
    assert sb.profile("bleu")["scale"] == "percent" and sb.profile("bleu")["tokenizer"] == "13a"
    nl = _adapter("nltk")
    assert nl.profile("bleu")["smoothing"] == "none" and nl.profile("bleu")["tokenizer"] == "none"
    assert nl.profile("sentence_bleu")["scale"] == "fraction"


# ------------------------------------------------------------ unsupported settings

UNSUPPORTED = [
    ("sacrebleu", "bleu", {"order": "2", "weights": "3/4,1/4"}, "weights"),
    ("sacrebleu", "bleu", {"ref_length": "closest-first"}, "ref_length"),
    ("sacrebleu", "bleu", {"level": "sentence-mean"}, "level"),
    ("sacrebleu", "sentence_bleu", {"scale": "fraction"}, "scale"),
    ("sacrebleu", "sentence_bleu", {"smoothing": "cc5"}, "smoothing"),
    ("nltk", "bleu", {"tokenizer": "13a"}, "tokenizer"),
    ("nltk", "bleu", {"case": "lower"}, "case"),
    ("nltk", "bleu", {"effective_order": "yes"}, "effective_order"),
    ("nltk", "sentence_bleu", {"effective_order": "yes", "order": "3"}, "effective_order"),
    ("nltk", "sentence_bleu", {"smoothing": "add-k", "smoothing_value": "2"}, "smoothing"),
    ("nltk", "sentence_bleu", {"smoothing": "cc6", "order": "2"}, "smoothing"),
    ("nltk", "sentence_bleu", {"scale": "percent"}, "scale"),
]


@pytest.mark.parametrize("adapter,metric,conv,knob", UNSUPPORTED,
                         ids=[f"{a}-{m}-{k}" for a, m, _c, k in UNSUPPORTED])
def test_unsupported_settings_name_the_knob(adapter, metric, conv, knob):
    a = _adapter(adapter)
    cfg = a.configure(metric, {**a.profiles[metric], **conv})
    assert isinstance(cfg, Unsupported)
    assert cfg.reason.startswith(f"{knob}="), cfg.reason


@pytest.mark.parametrize("adapter", ["sacrebleu", "nltk"])
def test_a_segment_without_references_is_skipped_with_a_reason(adapter):
    a = _adapter(adapter)
    cfg = _configure(a, "bleu", {})
    with pytest.raises(Skip, match=r"references\[1\]"):
        a.run(cfg, {"hypotheses": ["a", "b"], "references": [["a"], []]})


# ----------------------------------------------------------------- known failures

def _entries(adapter):
    data = known_file(adapter)
    return data, data["entries"]


ALL_ENTRIES = [(ad, e) for ad in ("sacrebleu", "nltk") for e in _entries(ad)[1]]


def test_known_failure_files_are_well_formed():
    for adapter in ("sacrebleu", "nltk"):
        data, entries = _entries(adapter)
        assert data["adapter"] == adapter and data["library"] == adapter
        ids = [e["id"] for e in entries]
        assert len(ids) == len(set(ids))
        for e in entries:
            assert e["kind"] in ("convention", "defect")
            assert (e["kind"] == "convention") == bool(e.get("knobs"))
            assert e["kind"] != "defect" or defect_is_recorded(e)
            assert e["explanation"].startswith("By hand:")
        assert len(load_known(adapter)) == len(entries)


@pytest.mark.parametrize("adapter,entry", ALL_ENTRIES, ids=[e["id"] for _a, e in ALL_ENTRIES])
def test_known_failure_reproduces(adapter, entry):
    a = _adapter(adapter)
    data, _ = _entries(adapter)
    if data["version"] != a.version():
        pytest.skip(f"recorded against {adapter} {data['version']}, installed {a.version()}")
    if not in_range(a.version(), entry.get("versions")):
        pytest.skip(f"holds for {adapter}{entry['versions']}: tests/test_versions.py replays it there")
    if is_invalid_entry(entry):
        return check_invalid_entry(a, entry)
    cfg, out, res = _run(a, entry["metric"], entry["conventions"], entry["inputs"])
    # the library still returns the recorded value, bit for bit
    assert out.value == entry["library_value"] and type(out.value) is type(entry["library_value"])
    # the oracle's value is the hand-derived one
    exact = entry["exact"]
    if exact.startswith("undefined("):
        assert isinstance(res.value, Undefined)
    else:
        assert same_value(res.value, parse_exact(exact)), (res.value, exact)
    # stored in the oracle's canonical text, which the runner's replay compares verbatim
    assert exact == exact_str(res.value)
    # and they disagree: in value, or (a short segment's denominator) in a sufficient statistic
    assert judge(a, entry["metric"], cfg.settings, entry["inputs"], explain_it=False).status == "disagree"
    if entry["kind"] == "convention":
        alt = get_metric(entry["metric"]).compute(entry["inputs"], {**cfg.settings, **entry["knobs"]})
        assert compare(out.value, alt.value, a.tolerance(entry["metric"])).agrees
    elif entry.get("classifier"):
        assert a.defect_classifiers()[entry["classifier"]](entry["metric"], cfg.settings, entry["inputs"])


# an input each classifier must not fire on, under the entry's settings, where the library
# agrees with the oracle (a five-word exact match unless the defect always applies to it)
CLEAN = {
    "bleu": {"hypotheses": ["a b c d e"], "references": [["a b c d e"]]},
    "sentence_bleu": {"hypothesis": "a b c d e", "references": ["a b c d e"]},
    # the statistics of that segment: five tokens, every n-gram matched, r = 5
    "bleu_statistics": {"matches": [5, 4, 3, 2], "totals": [5, 4, 3, 2], "hyp_len": 5, "ref_len": 5},
}
CLEAN_FOR: dict = {}   # classifier -> its own clean inputs, where the five-word match will not do


@pytest.mark.parametrize("adapter,entry", [(a, e) for a, e in ALL_ENTRIES if e.get("classifier")],
                         ids=[e["id"] for _a, e in ALL_ENTRIES if e.get("classifier")])
def test_classifier_does_not_fire_on_a_clean_input(adapter, entry):
    a = _adapter(adapter)
    metric = entry["metric"]
    clean = CLEAN_FOR.get(entry["classifier"], CLEAN)[metric]
    cfg, out, res = _run(a, metric, entry["conventions"], clean)
    assert compare(out.value, res.value, a.tolerance(metric)).agrees
    assert not a.defect_classifiers()[entry["classifier"]](metric, cfg.settings, clean)


@pytest.mark.parametrize("adapter", ["sacrebleu", "nltk"])
def test_engine_recognises_every_entry(adapter):
    a = _adapter(adapter)
    index = KnownIndex(a, load_known(adapter))
    for e in index.entries:   # the installed release's (tests/test_versions.py: the others)
        settings = get_metric(e.metric).settings({**a.profiles[e.metric], **e.conventions})
        found = index.recognise(e.metric, settings, e.inputs, [e.knobs] if e.kind == "convention" else None,
                                library_value=e.library_value)
        assert found is not None, e.id
        assert (found.classifier, found.knobs) == (e.classifier, e.knobs), (e.id, found.id)


def test_classifiers_in_entries_exist():
    for adapter, e in ALL_ENTRIES:
        if e.get("classifier"):
            assert e["classifier"] in _adapter(adapter).defect_classifiers()


def test_sacrebleu_effective_order_is_sacrebleu_s_sentence_default():
    # compat.sentence_bleu(use_effective_order=True) and compat.corpus_bleu(use_effective_order=False)
    pytest.importorskip("sacrebleu")
    import inspect

    from sacrebleu import compat

    assert inspect.signature(compat.sentence_bleu).parameters["use_effective_order"].default is True
    assert inspect.signature(compat.corpus_bleu).parameters["use_effective_order"].default is False
    assert inspect.signature(compat.corpus_bleu).parameters["smooth_method"].default == "exp"


def test_floor_value_is_passed_to_the_library():
    # floor 1/2 (not the library's 0.1): [a b] against [a c], effective order 2:
    # p = 1/2, (1/2)/1 -> (1/4)**(1/2) = 1/2, in percent 50.
    a = _adapter("sacrebleu")
    cfg, out, res = _run(a, "sentence_bleu", {"smoothing": "floor", "smoothing_value": "1/2"},
                         {"hypothesis": "a b", "references": ["a c"]})
    assert cfg.options["smooth_value"] == 0.5
    assert res.value == Fraction(50) and compare(out.value, res.value, a.tolerance("sentence_bleu")).agrees
