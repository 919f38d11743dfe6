"""The seqeval adapter: configuration, agreement with the oracle on hand-checked inputs,
unsupported settings, the reading equivalences the profile rests on, and the recorded
known failures."""
from __future__ import annotations

import itertools
import json

from conformance.casefiles.known import _number  # NaN and infinities are stored as strings
import math
import warnings

import pytest

pytest.importorskip("seqeval")

from adapters import BUILTIN, load_adapter  # noqa: E402
from adapters.seqeval import library_entities  # noqa: E402
from conformance.casefiles.known import KnownIndex, load_known  # noqa: E402
from conformance.protocol import Configured, Unsupported  # noqa: E402
from oracle.compare import compare_value  # noqa: E402
from oracle.conventions import InputError, _jsonable  # noqa: E402
from oracle.exact import Undefined, exact_json, exact_str
from oracle.parse import parse_exact
from oracle.certified import same_value  # noqa: E402
from oracle.registry import get_metric  # noqa: E402
from oracle.chunks import SCHEMES, parse_tag, read_chunks  # noqa: E402
from tests.adapter_helpers import known_file, is_invalid_entry, check_invalid_entry, defect_is_recorded, in_installed_range  # noqa: E402



@pytest.fixture(scope="module")
def a():
    return load_adapter("seqeval")


def _settings(a, metric, conventions):
    return get_metric(metric).settings({**a.profiles[metric], **conventions})


def _run(a, metric, conventions, inputs):
    cfg = a.configure(metric, _settings(a, metric, conventions))
    assert isinstance(cfg, Configured), getattr(cfg, "reason", cfg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = a.run(cfg, inputs)
    return cfg, out, get_metric(metric).compute(inputs, cfg.settings)


def _parse(text):
    if isinstance(text, dict):
        return {k: _parse(v) for k, v in text.items()}
    return parse_exact(text)


# ----------------------------------------------------------------- registry and profile

def test_registry_names_the_adapter(a):
    assert BUILTIN["seqeval"] == "adapters.seqeval:SeqEval"
    assert a.name == "seqeval" and a.available() == (True, "")
    assert set(a.metrics()) == {"token_accuracy", "entity_f1", "entity_precision", "entity_recall", "entity_report"}


def test_profiles_are_the_library_defaults(a):
    import inspect

    from seqeval import metrics as M

    for fn in (M.f1_score, M.precision_score, M.recall_score):
        p = inspect.signature(fn).parameters
        assert (p["average"].default, p["mode"].default, p["suffix"].default, p["zero_division"].default) == \
            ("micro", None, False, "warn")
    p = inspect.signature(M.classification_report).parameters
    assert (p["mode"].default, p["suffix"].default, p["zero_division"].default) == (None, False, "warn")
    prof = a.profile("entity_f1")
    assert (prof["reading"], prof["scheme"], prof["tag_format"], prof["average"], prof["zero_division"],
            prof["labels"], prof["matching"], prof["beta"]) == \
        ("seqeval", "iob2", "prefix-type", "micro", "zero", "all", "span", "1")
    assert "average" not in a.profile("entity_report")


# ------------------------------------------------- agreement on hand-checked inputs

SEQEVAL_DOC = {"gold": [["O", "O", "B-MISC", "I-MISC", "B-MISC", "O", "O"], ["B-PER", "I-PER", "O"]],
               "pred": [["O", "O", "B-MISC", "I-MISC", "B-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]}

# (metric, conventions over the library's profile, inputs, exact value by hand)
AGREE = [
    # 4 tags: B-PER = B-PER, I-PER != O, O = O, B-LOC = B-LOC: 3 of 4.
    ("token_accuracy", {}, {"gold": [["B-PER", "I-PER", "O"], ["B-LOC"]], "pred": [["B-PER", "O", "O"], ["B-LOC"]]},
     "3/4"),
    # seqeval's docstring example: gold MISC[2,4) MISC[4,5) PER[0,2); pred MISC[2,4) MISC[4,6)
    # PER[0,2): tp 2, pred 3, gold 3: micro F1 2/3.
    ("entity_f1", {}, SEQEVAL_DOC, "2/3"),
    # macro: MISC F 1/2 (tp 1 of 2 and 2), PER F 1: (1/2 + 1)/2 = 3/4.
    ("entity_f1", {"average": "macro"}, SEQEVAL_DOC, "3/4"),
    # weighted by gold counts 2 (MISC) and 1 (PER): (2*1/2 + 1*1)/3 = 2/3.
    ("entity_f1", {"average": "weighted"}, SEQEVAL_DOC, "2/3"),
    # conlleval reading: I-PER after O starts a chunk: pred PER[0,2) = gold: F1 1.
    ("entity_f1", {}, {"gold": [["B-PER", "I-PER"]], "pred": [["I-PER", "I-PER"]]}, "1"),
    # strict IOB2: the I- run without B- is dropped: tp 0, pred 0, gold 1: F1 = 0/(1 + 0) = 0.
    ("entity_f1", {"reading": "valid-only"}, {"gold": [["B-PER", "I-PER"]], "pred": [["I-PER", "I-PER"]]}, "0"),
    # IOB1, conlleval: gold I-PER I-PER B-PER = PER[0,2) PER[2,3); pred PER[0,2): tp 1, pred 1,
    # gold 2: F1 2/3.
    ("entity_f1", {"scheme": "iob1"}, {"gold": [["I-PER", "I-PER", "B-PER"]], "pred": [["I-PER", "I-PER", "O"]]},
     "2/3"),
    # IOE1, conlleval: gold I-LOC E-LOC I-LOC = LOC[0,2) LOC[2,3) (a chunk ends after E);
    # pred LOC[0,2): recall 1/2.
    ("entity_recall", {"scheme": "ioe1"}, {"gold": [["I-LOC", "E-LOC", "I-LOC"]], "pred": [["I-LOC", "E-LOC", "O"]]},
     "1/2"),
    # IOE2 strict: gold PER[0,2) LOC[2,3); pred I-PER E-PER = PER[0,2): recall 1/2.
    ("entity_recall", {"scheme": "ioe2", "reading": "valid-only"},
     {"gold": [["I-PER", "E-PER", "E-LOC"]], "pred": [["I-PER", "E-PER", "O"]]}, "1/2"),
    # IOBES strict: pred B-PER I-PER has no E-PER: dropped; S-LOC matches: tp 1, pred 1, gold 2: 2/3.
    ("entity_f1", {"scheme": "iobes", "reading": "valid-only"},
     {"gold": [["B-PER", "E-PER", "S-LOC"]], "pred": [["B-PER", "I-PER", "S-LOC"]]}, "2/3"),
    # the same under the conlleval reading: B-PER I-PER is closed by S-LOC: both match, F1 1.
    ("entity_f1", {"scheme": "iobes"}, {"gold": [["B-PER", "E-PER", "S-LOC"]], "pred": [["B-PER", "I-PER", "S-LOC"]]},
     "1"),
    # BILOU strict: pred B-LOC I-LOC has no L-LOC: dropped; U-PER matches: precision 1/1.
    ("entity_precision", {"scheme": "bilou", "reading": "valid-only"},
     {"gold": [["U-PER", "B-LOC", "L-LOC"]], "pred": [["U-PER", "B-LOC", "I-LOC"]]}, "1"),
    # BILOU strict, F1: tp 1, pred 1, gold 2: 2/3.
    ("entity_f1", {"scheme": "bilou", "reading": "valid-only"},
     {"gold": [["U-PER", "B-LOC", "L-LOC"]], "pred": [["U-PER", "B-LOC", "I-LOC"]]}, "2/3"),
    # type-prefix (suffix=True): gold PER[0,2) ARGM-LOC[2,3); pred PER[0,1) ARGM-LOC[2,3)
    # (an I- after O starts a chunk): macro precision (0/1 for PER + 1/1 for ARGM-LOC)/2 = 1/2.
    ("entity_precision", {"tag_format": "type-prefix", "average": "macro"},
     {"gold": [["PER-B", "PER-I", "ARGM-LOC-B"]], "pred": [["PER-B", "O", "ARGM-LOC-I"]]}, "1/2"),
    # type-prefix strict: pred ARGM-LOC[0,2) matches, PER-I after it is dropped: F1 1.
    ("entity_f1", {"tag_format": "type-prefix", "reading": "valid-only"},
     {"gold": [["ARGM-LOC-B", "ARGM-LOC-I", "O"]], "pred": [["ARGM-LOC-B", "ARGM-LOC-I", "PER-I"]]}, "1"),
    # hyphenated type, prefix-type: gold ARGM-LOC[0,2) PER[2,3); pred ARGM-LOC[0,2) ARGM-LOC[2,3).
    # ARGM-LOC: tp 1, pred 2, gold 1: F 2/3; PER: F 0; weights 1, 1: (2/3 + 0)/2 = 1/3.
    ("entity_f1", {"average": "weighted"},
     {"gold": [["B-ARGM-LOC", "I-ARGM-LOC", "B-PER"]], "pred": [["B-ARGM-LOC", "I-ARGM-LOC", "B-ARGM-LOC"]]}, "1/3"),
    # zero_division 1: no prediction, P = 0/0 -> 1.
    ("entity_precision", {"zero_division": "one"}, {"gold": [["B-PER"]], "pred": [["O"]]}, "1"),
    # macro recall, zero_division 1: LOC has gold 0 (R 0/0 -> 1), PER R 1/1: mean 1.
    ("entity_recall", {"average": "macro", "zero_division": "one"},
     {"gold": [["B-PER", "O"]], "pred": [["B-PER", "B-LOC"]]}, "1"),
    # ... and with zero_division 0: (0 + 1)/2 = 1/2.
    ("entity_recall", {"average": "macro"}, {"gold": [["B-PER", "O"]], "pred": [["B-PER", "B-LOC"]]}, "1/2"),
    # beta 2 (precision_recall_fscore_support): tp 1, pred 1, gold 2: 5*1/(4*2 + 1) = 5/9.
    ("entity_f1", {"beta": "2"}, {"gold": [["B-PER", "O", "B-LOC"]], "pred": [["B-PER", "O", "O"]]}, "5/9"),
    # beta 1/2, strict IOBES: tp 1, pred 1, gold 2: (5/4)*1/((1/4)*2 + 1) = 5/6.
    ("entity_f1", {"beta": "1/2", "scheme": "iobes", "reading": "valid-only"},
     {"gold": [["S-PER", "O", "S-LOC"]], "pred": [["S-PER", "O", "O"]]}, "5/6"),
    # the report: gold PER[0,1) LOC[2,3); pred PER[0,1) PER[2,3). LOC: tp 0, pred 0, gold 1:
    # P 0/0 -> 0, R 0, F 0. PER: tp 1, pred 2, gold 1: P 1/2, R 1, F 2/3. micro: 1/2, 1/2, 1/2;
    # macro: 1/4, 1/2, 1/3; weighted (1, 1): the same as macro; supports 1, 1, 2.
    ("entity_report", {}, {"gold": [["B-PER", "O", "B-LOC"]], "pred": [["B-PER", "O", "B-PER"]]},
     {"LOC": {"precision": "0", "recall": "0", "f1": "0", "support": "1"},
      "PER": {"precision": "1/2", "recall": "1", "f1": "2/3", "support": "1"},
      "micro avg": {"precision": "1/2", "recall": "1/2", "f1": "1/2", "support": "2"},
      "macro avg": {"precision": "1/4", "recall": "1/2", "f1": "1/3", "support": "2"},
      "weighted avg": {"precision": "1/4", "recall": "1/2", "f1": "1/3", "support": "2"}}),
    # the report in strict IOE2 mode: pred I-X I-X has no E-X: dropped. X: P 0/0 -> 0, R 0, F 0.
    ("entity_report", {"scheme": "ioe2", "reading": "valid-only"},
     {"gold": [["I-X", "E-X", "O"]], "pred": [["I-X", "I-X", "O"]]},
     {"X": {"precision": "0", "recall": "0", "f1": "0", "support": "1"},
      "micro avg": {"precision": "0", "recall": "0", "f1": "0", "support": "1"},
      "macro avg": {"precision": "0", "recall": "0", "f1": "0", "support": "1"},
      "weighted avg": {"precision": "0", "recall": "0", "f1": "0", "support": "1"}}),
]


@pytest.mark.parametrize("metric,conv,inputs,exact", AGREE, ids=[f"{m}-{i}" for i, (m, *_r) in enumerate(AGREE)])
def test_adapter_agrees_with_the_oracle(a, metric, conv, inputs, exact):
    cfg, out, res = _run(a, metric, conv, inputs)
    expected = _parse(exact)
    if isinstance(expected, dict):
        assert json.dumps(exact_json(res.value)) == json.dumps(exact_json(expected))
    else:
        assert same_value(res.value, expected), (res.value, exact)
    c = compare_value(out.value, res.value, a.tolerance(metric))
    assert c.agrees, c.to_json()
    if metric != "token_accuracy":
        assert out.stats == _jsonable(res.stats)


def test_the_report_maps_seqeval_s_columns(a):
    _, out, _ = _run(a, "entity_report", {}, {"gold": [["B-PER"]], "pred": [["B-PER"]]})
    assert out.value == {row: {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 1}
                         for row in ("PER", "micro avg", "macro avg", "weighted avg")}
    assert "f1-score" in out.raw["PER"] and type(out.value["PER"]["support"]) is int


def test_strict_mode_always_passes_the_scheme(a):
    # without a scheme, f1_score(mode='strict') silently uses the default mode (1.0 here)
    inputs = {"gold": [["B-PER", "I-PER"]], "pred": [["I-PER", "I-PER"]]}
    _, strict, _ = _run(a, "entity_f1", {"reading": "valid-only"}, inputs)
    _, default, _ = _run(a, "entity_f1", {}, inputs)
    assert (strict.value, default.value) == (0.0, 1.0)
    from seqeval.metrics import f1_score
    assert f1_score(inputs["gold"], inputs["pred"], mode="strict") == 1.0


# ------------------------------------------------------------ unsupported settings

UNSUPPORTED = [
    ("entity_f1", {"labels": "PER"}, "labels"),
    ("entity_f1", {"matching": "pooled-type-text"}, "matching"),
    ("entity_precision", {"zero_division": "undefined"}, "zero_division"),
    ("entity_recall", {"average": "macro", "zero_division": "exclude"}, "zero_division"),
    ("entity_report", {"beta": "2"}, "beta"),
    ("entity_report", {"labels": "LOC,PER"}, "labels"),
]


@pytest.mark.parametrize("metric,conv,knob", UNSUPPORTED, ids=[f"{m}-{k}" for m, _c, k in UNSUPPORTED])
def test_unsupported_settings_name_the_knob(a, metric, conv, knob):
    cfg = a.configure(metric, {**a.profiles[metric], **conv})
    assert isinstance(cfg, Unsupported)
    assert cfg.reason.startswith(f"{knob}="), cfg.reason


# ------------------------------- the readings, on every short sequence of two types

def _sequences(scheme, max_len=4):
    alphabet = ["O"] + [f"{p}-{t}" for p in SCHEMES[scheme] for t in ("X", "Y")]
    for n in range(max_len + 1):
        yield from itertools.product(alphabet, repeat=n)


def _oracle(seq, scheme, reading):
    parsed = [parse_tag(t, scheme, "prefix-type", "t") for t in seq]
    return sorted(read_chunks(parsed, scheme, reading))


def _library(seq, scheme, reading):
    opts = {"strict": reading == "valid-only", "scheme": scheme, "suffix": False}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sorted((s, e, t) for _, s, e, t in library_entities(opts, [list(seq)]))


@pytest.mark.parametrize("scheme,reading", [(s, "seqeval") for s in ("iob1", "iob2", "ioe1", "ioe2", "iobes")]
                         + [(s, "valid-only") for s in ("iob2", "ioe2", "iobes", "bilou")])
def test_seqeval_reads_every_short_sequence_as_the_oracle(scheme, reading):
    """The profile's claim: the default mode is the conlleval reading for every scheme but
    BILOU, and strict mode is the valid-only reading for IOB2, IOE2, IOBES and BILOU."""
    for seq in _sequences(scheme):
        assert _oracle(seq, scheme, reading) == _library(seq, scheme, reading), seq


@pytest.mark.parametrize("scheme,reading,classifier", [("bilou", "seqeval", "bilou-default-mode"),
                                                       ("iob1", "valid-only", "iob1-strict-raw-previous-tag"),
                                                       ("ioe1", "valid-only", "ioe1-strict-patterns")])
def test_reading_classifiers_fire_exactly_when_seqeval_reads_differently(a, scheme, reading, classifier):
    pred = a.defect_classifiers()[classifier]
    settings = _settings(a, "entity_f1", {"scheme": scheme, "reading": reading})
    differing = 0
    for seq in _sequences(scheme):
        differs = _oracle(seq, scheme, reading) != _library(seq, scheme, reading)
        differing += differs
        inputs = {"gold": [list(seq)], "pred": [["O"] * len(seq)]}
        assert pred("entity_f1", settings, inputs) == differs, seq
    assert differing > 0


@pytest.mark.parametrize("scheme,reading", [("bilou", "seqeval"), ("iob1", "valid-only"), ("ioe1", "valid-only")])
def test_no_oracle_setting_reads_as_seqeval_does_where_it_differs(scheme, reading):
    """The known failures are defects, not conventions: every scheme and reading of the
    oracle refuses, or reads differently from seqeval, some short sequence seqeval reads
    (for the settings that accept the same prefixes, a sequence it reads differently)."""
    from oracle.conventions import InputError

    for scheme2, reading2 in itertools.product(SCHEMES, ("seqeval", "conlleval", "valid-only")):
        same_prefixes = set(SCHEMES[scheme2]) >= set(SCHEMES[scheme])
        contradicted = False
        for seq in _sequences(scheme):
            try:
                ours = _oracle(seq, scheme2, reading2)
            except InputError:
                assert not same_prefixes
                contradicted = True
                break
            if ours != _library(seq, scheme, reading):
                contradicted = True
                break
        assert contradicted, (scheme2, reading2)


# ----------------------------------------------------------------- known failures

def _entries():
    data = known_file("seqeval")
    return data, data["entries"]


ENTRIES = _entries()[1]
HERE = [e for e in ENTRIES if in_installed_range("seqeval", e)]


def test_known_failure_file_is_well_formed(a):
    data, entries = _entries()
    assert data["adapter"] == "seqeval" and data["library"] == "seqeval"
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids))
    for e in entries:
        assert e["kind"] == "defect" and (e.get("classifier") in a.defect_classifiers() or defect_is_recorded(e))
        assert e["explanation"].startswith("By hand")
        assert "seqeval" in e["explanation"]  # cites the library's source
    assert len(load_known("seqeval")) == len(entries)
    # every classifier is used by some entry
    assert {e["classifier"] for e in entries if e.get("classifier")} == set(a.defect_classifiers())


def _same_library_value(x, y) -> bool:
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(_same_library_value(x[k], y[k]) for k in x)
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
        return True
    return x == y and type(x) is type(y)


@pytest.mark.parametrize("entry", HERE, ids=[e["id"] for e in HERE])
def test_known_failure_reproduces(a, entry):
    data, _ = _entries()
    if data["version"] != a.version():
        pytest.skip(f"recorded against seqeval {data['version']}, installed {a.version()}")
    metric = entry["metric"]
    if is_invalid_entry(entry):
        return check_invalid_entry(a, entry)
    cfg = a.configure(metric, _settings(a, metric, entry["conventions"]))
    assert isinstance(cfg, Configured)
    res = get_metric(metric).compute(entry["inputs"], cfg.settings)
    # the oracle's value is the hand-derived one, in the canonical text the replay compares
    if isinstance(res.value, dict):
        assert json.dumps(exact_json(res.value), ensure_ascii=False) == entry["exact"]
    else:
        assert exact_str(res.value) == entry["exact"]
        if entry["exact"].startswith("undefined("):
            assert isinstance(res.value, Undefined)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = a.run(cfg, entry["inputs"]).value
        except Exception as e:  # the library raised: recorded as such
            assert entry["library_value"] == f"raised {type(e).__name__}: {e}"
            value = None
    if value is not None:
        # the library still returns the recorded value, bit for bit, and it disagrees
        assert _same_library_value(value, _number(entry["library_value"])), (value, entry["library_value"])
        assert not compare_value(value, res.value, a.tolerance(metric)).agrees
    if entry.get("classifier"):
        assert a.defect_classifiers()[entry["classifier"]](metric, cfg.settings, entry["inputs"])


# an input each classifier must not fire on, valid under the entry's scheme, where the
# library agrees with the oracle
CLEAN = {
    # L and U that seqeval happens to read right: a type change closes the L chunk
    "bilou-default-mode": {"gold": [["B-PER", "L-PER", "U-LOC"]], "pred": [["B-PER", "L-PER", "O"]]},
    # B after B, both valid: I-PER B-PER B-PER is PER[0,1) PER[1,2) PER[2,3) in both readings
    "iob1-strict-raw-previous-tag": {"gold": [["I-PER", "B-PER", "B-PER"]], "pred": [["I-PER", "B-PER", "O"]]},
    # E-PER between I-PER and I-PER: a valid chunk end both read alike
    "ioe1-strict-patterns": {"gold": [["I-PER", "E-PER", "I-PER"]], "pred": [["I-PER", "E-PER", "I-PER"]]},
    "strict-strips-type-hyphens": {"gold": [["B-X"]], "pred": [["B-X"]]},
    "no-tokens-raises": {"gold": [["O"]], "pred": [["O"]]},
    "macro-average-of-no-type": {"gold": [["B-PER"]], "pred": [["O"]]},
}


@pytest.mark.parametrize("entry", [e for e in HERE if e.get("classifier")],
                         ids=[e["id"] for e in HERE if e.get("classifier")])
def test_classifier_does_not_fire_on_a_clean_input(a, entry):
    metric = entry["metric"]
    clean = CLEAN[entry["classifier"]]
    try:
        get_metric(metric).compute(clean, _settings(a, metric, entry["conventions"]))
    except InputError as e:
        pytest.skip(f"the clean input is not valid under this entry's settings: {e}")
    cfg, out, res = _run(a, metric, entry["conventions"], clean)
    assert compare_value(out.value, res.value, a.tolerance(metric)).agrees
    assert not a.defect_classifiers()[entry["classifier"]](metric, cfg.settings, clean)


@pytest.mark.parametrize("metric,prop,classifier", [
    ("entity_f1", "oracle-equal[scheme=bilou]", "bilou-default-mode"),
    ("entity_precision", "oracle-equal[average=macro]", "macro-average-of-no-type"),
    ("token_accuracy", "oracle-equal", "no-tokens-raises"),
])
def test_property_tests_find_the_recorded_defects_on_their_own(a, metric, prop, classifier):
    """With an empty known-failure list the property finds a disagreement by itself, shrinks
    it, and the expected classifier identifies that minimal input; the recorded list
    recognises it where the adapter's model of the defect predicts the library's value (a
    classifier alone does not make a finding known)."""
    from conformance.engine.properties import run_property

    r = run_property(a, metric, prop, KnownIndex(a, []), 60)
    assert r.outcome in ("fail", "error"), r
    assert r.inputs is not None and r.reproduce
    full = KnownIndex(a, load_known("seqeval"))
    settings = _settings(a, metric, r.conventions)
    assert a.defect_classifiers()[classifier](metric, settings, r.inputs), r.inputs
    if classifier in a.defect_models():
        found = full.recognise(metric, settings, r.inputs, r.reproducing_knobs, library_value=r.library_value)
        assert found is not None and found.classifier == classifier, r.inputs


def test_engine_recognises_every_entry(a):
    index = KnownIndex(a, load_known("seqeval"))
    for e in index.entries:
        found = index.recognise(e.metric, _settings(a, e.metric, e.conventions), e.inputs, None, library_value=e.library_value)
        assert found is not None and found.classifier == e.classifier, e.id
