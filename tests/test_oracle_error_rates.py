"""Word, character and match error rates: golden cases, brute-force alignments,
bit-parallel distance, sclite's weighted DP, tie rules, bad input."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies.speech import edited_tokens, transcript_pairs
from oracle import Admissible, ConventionError, InputError, Undefined, compute, get_metric
from oracle import alignment as A
from oracle import error_rates as E
from oracle.graphemes import graphemes
from oracle.compare import Tolerance, compare_value

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
ERROR_METRICS = ("wer", "cer", "mer", "wil", "wip", "error_counts")
FILES = [GOLDEN / "documents" / "001_e6f299f74aa61acb.json", GOLDEN / "topics" / "error_rates.json"]
CASES = [c for f in FILES for c in load_file(f) if c.metric in ERROR_METRICS]
METRICS = ("wer", "cer", "mer", "wil", "wip", "error_counts")

tokens = st.lists(st.sampled_from("abcd"), max_size=6)


# ------------------------------------------------------------ golden cases

@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(case):
    assert rederive(case) == []


def test_golden_cases_cover_every_metric_and_tie_rule():
    assert {c.metric for c in CASES} == set(METRICS)
    assert {c.conventions.get("tie", "any") for c in CASES} == {"any"} | set(E.RULES)
    assert any(isinstance(c.expected["value"], dict) and "admissible" in c.expected["value"] for c in CASES)


def test_document_trace_pairs_and_corpus():
    """Document 001 part 3 prints S/D/I per pair and 'WER korpus (gabungan): 3/9 = 0.333'."""
    refs = ["siti makan nasi", "budi pergi ke pasar", "kucing hitam"]
    hyps = ["siti minum nasi", "budi ke pasar", "kucing hitam besar"]
    printed = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    for r, h, sdi in zip(refs, hyps, printed):
        res = compute("wer", {"references": [r], "hypotheses": [h]}, {"tie": "diagonal-first"})
        assert (res.stats["substitutions"], res.stats["deletions"], res.stats["insertions"]) == sdi
    assert compute("wer", {"references": refs, "hypotheses": hyps}).value == Fraction(3, 9)


# ------------------------------------------------------ brute force alignments

def all_alignments(a, b):
    """Every alignment of a with b, enumerated explicitly as op sequences."""
    if not a and not b:
        yield []
        return
    if a and b:
        for rest in all_alignments(a[1:], b[1:]):
            yield [("C" if a[0] == b[0] else "S", a[0], b[0])] + rest
    if a:
        for rest in all_alignments(a[1:], b):
            yield [("D", a[0], None)] + rest
    if b:
        for rest in all_alignments(a, b[1:]):
            yield [("I", None, b[0])] + rest


def brute_force(a, b, weights=(1, 1, 1)):
    """(minimum cost, set of (H, S, D, I) at that cost) over every alignment;
    weights = (substitution, deletion, insertion)."""
    best, found = None, set()
    for ops in all_alignments(a, b):
        c = A.counts_of(ops)
        cost = weights[0] * c[1] + weights[1] * c[2] + weights[2] * c[3]
        if best is None or cost < best:
            best, found = cost, {c}
        elif cost == best:
            found.add(c)
    return best, found


def test_brute_force_enumerates_known_pair():
    # ref [a b] vs hyp [b c]: two minimum-cost splits (derived by hand in the topic file)
    assert brute_force(list("ab"), list("bc")) == (2, {(0, 2, 0, 0), (1, 0, 1, 1)})
    assert sum(1 for _ in all_alignments(list("ab"), list("bc"))) == 13  # Delannoy number D(2, 2)


@given(tokens, tokens)
def test_admissible_set_equals_brute_force(a, b):
    d, found = brute_force(a, b)
    assert A.levenshtein(a, b) == d
    got = A.admissible_counts(a, b)
    assert set(got) == found and len(got) == len(found)
    for h, s, dl, i in got:
        assert s + dl + i == d and h + s + dl == len(a) and h + s + i == len(b)


@given(tokens, tokens)
def test_every_tie_rule_is_a_minimum_cost_alignment(a, b):
    d, found = brute_force(a, b)
    band = A.Band(a, b, d)
    for rule in ("prefer-substitution", "prefer-deletion-insertion", "diagonal-first", "rapidfuzz"):
        ops = A.backtrace(band, rule)
        assert [x for _, x, _ in ops if x is not None] == a
        assert [y for _, _, y in ops if y is not None] == b
        assert A.counts_of(ops) in found, rule
    counts = sorted(found, key=lambda c: c[3])
    assert A.counts_of(A.backtrace(band, "prefer-substitution")) == counts[0]
    assert A.counts_of(A.backtrace(band, "prefer-deletion-insertion")) == counts[-1]


@given(st.lists(st.tuples(tokens, tokens), min_size=1, max_size=3))
def test_corpus_admissible_set_is_the_sum_of_utterance_sets(pairs):
    refs = [" ".join(a) for a, _ in pairs]
    hyps = [" ".join(b) for _, b in pairs]
    per = [brute_force(a, b)[1] for a, b in pairs]
    sums = {tuple(map(sum, zip(*combo))) for combo in itertools.product(*per)}
    value = compute("error_counts", {"references": refs, "hypotheses": hyps}).value
    got = value.values if isinstance(value, Admissible) else (value,)
    assert {(int(v["hits"]), int(v["substitutions"]), int(v["deletions"]), int(v["insertions"])) for v in got} == sums
    mer = compute("mer", {"references": refs, "hypotheses": hyps}).value
    rates = {Fraction(s + d + i, h + s + d + i) if h + s + d + i else None for h, s, d, i in sums}
    if None not in rates:
        assert set(mer.values if isinstance(mer, Admissible) else (mer,)) == rates


# ----------------------------------------------------------- edit distance

@given(tokens, tokens)
def test_bit_parallel_distance_equals_plain_dp(a, b):
    assert A.levenshtein(a, b) == A.levenshtein_dp(a, b)


def test_bit_parallel_distance_on_long_sequences():
    rnd = random.Random(7)
    for _ in range(40):
        a = [rnd.choice("abcdefgh") for _ in range(rnd.randint(60, 300))]
        b = [x for x in a if rnd.random() > 0.1]
        b = [rnd.choice("abcdefghij") if rnd.random() < 0.1 else x for x in b]
        assert A.levenshtein(a, b) == A.levenshtein_dp(a, b)
        assert A.levenshtein(b, a) == A.levenshtein_dp(b, a)


@given(tokens)
def test_wer_of_a_text_with_itself_is_zero(a):
    text = " ".join(a) or "x"
    for metric in ("wer", "cer", "mer", "wil"):
        assert compute(metric, {"references": [text], "hypotheses": [text]}).value == 0
    assert compute("wip", {"references": [text], "hypotheses": [text]}).value == 1


@given(transcript_pairs(min_len=1))
def test_corpus_wer_is_the_ratio_of_sums(inputs):
    res = compute("wer", inputs)
    errs = sum(A.levenshtein_dp(r.split(), h.split()) for r, h in zip(inputs["references"], inputs["hypotheses"]))
    n = sum(len(r.split()) for r in inputs["references"])
    assert res.value == Fraction(errs, n)
    assert (res.stats["errors"], res.stats["reference_length"]) == (errs, n)
    mean = compute("wer", inputs, {"aggregate": "mean"}).value
    assert mean == sum((Fraction(A.levenshtein_dp(r.split(), h.split()), len(r.split()))
                        for r, h in zip(inputs["references"], inputs["hypotheses"])), Fraction(0)) / len(inputs["references"])


@given(transcript_pairs(min_len=1))
def test_named_rules_agree_on_wer_and_lie_in_the_admissible_sets(inputs):
    wer = compute("wer", inputs).value
    mer = compute("mer", inputs).value
    admissible = set(mer.values) if isinstance(mer, Admissible) else {mer}
    for rule in ("prefer-substitution", "prefer-deletion-insertion", "diagonal-first", "rapidfuzz"):
        assert compute("wer", inputs, {"tie": rule}).value == wer
        assert compute("mer", inputs, {"tie": rule}).value in admissible
    if isinstance(mer, Admissible):
        assert set(mer.by_rule) == set(E.RULES)
        assert mer.by_rule["prefer-substitution"] == max(admissible)
        assert mer.by_rule["prefer-deletion-insertion"] == min(admissible)


# ------------------------------------------------------------------ sclite

def weighted_dp_alignment(a, b):
    """sclite's net_dp.c on a full matrix: one back pointer per cell, diagonal when
    <= both, else deletion when < insertion, else insertion."""
    n, m = len(a), len(b)
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    back = [[None] * (m + 1) for _ in range(n + 1)]
    for j in range(1, m + 1):
        cost[0][j], back[0][j] = 3 * j, "I"
    for i in range(1, n + 1):
        cost[i][0], back[i][0] = 3 * i, "D"
        for j in range(1, m + 1):
            sub = cost[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 4)
            dele, ins = cost[i - 1][j] + 3, cost[i][j - 1] + 3
            if sub <= dele and sub <= ins:
                cost[i][j], back[i][j] = sub, "diag"
            elif dele < ins:
                cost[i][j], back[i][j] = dele, "D"
            else:
                cost[i][j], back[i][j] = ins, "I"
    ops, i, j = [], n, m
    while i or j:
        p = back[i][j]
        if p == "diag":
            ops.append(("C" if a[i - 1] == b[j - 1] else "S", a[i - 1], b[j - 1]))
            i, j = i - 1, j - 1
        elif p == "D":
            ops.append(("D", a[i - 1], None))
            i -= 1
        else:
            ops.append(("I", None, b[j - 1]))
            j -= 1
    return ops[::-1], cost[n][m]


@given(tokens, tokens)
def test_sclite_rule_equals_a_direct_weighted_dp(a, b):
    ops, weighted = weighted_dp_alignment(a, b)
    assert A.sclite_alignment(a, b) == ops
    best, found = brute_force(a, b, weights=(4, 3, 3))
    assert weighted == best and A.counts_of(ops) in found


def test_sclite_rule_on_long_sequences():
    rnd = random.Random(11)
    for _ in range(30):
        a = [rnd.choice("abcdef") for _ in range(rnd.randint(20, 80))]
        b = [rnd.choice("abcdefg") if rnd.random() < 0.2 else x for x in a if rnd.random() > 0.1]
        assert A.sclite_alignment(a, b) == weighted_dp_alignment(a, b)[0]


def test_sclite_can_count_more_errors_than_the_edit_distance():
    a, b = "a b c d e".split(), "x y z a b".split()
    assert A.levenshtein(a, b) == 5
    assert A.counts_of(A.sclite_alignment(a, b)) == (2, 0, 3, 3)


# --------------------------------------------------------------- rapidfuzz

def test_rapidfuzz_rule_reproduces_rapidfuzz_editops():
    """The rule named after RapidFuzz matches its editops (the oracle never imports it)."""
    Levenshtein = pytest.importorskip("rapidfuzz.distance.Levenshtein")
    rnd = random.Random(3)
    for _ in range(3000):
        a = [rnd.choice("abc") for _ in range(rnd.randint(0, 9))]
        b = [rnd.choice("abcd") for _ in range(rnd.randint(0, 9))]
        ops = A.backtrace(A.Band(a, b, A.levenshtein(a, b)), "rapidfuzz")
        mine, i, j = [], 0, 0
        for kind, _, _ in ops:
            if kind != "C":
                mine.append(({"S": "replace", "D": "delete", "I": "insert"}[kind], i, j))
            i += kind in "CSD"
            j += kind in "CSI"
        assert mine == [(e.tag, e.src_pos, e.dest_pos) for e in Levenshtein.editops(a, b)], (a, b)


# --------------------------------------------------------------- graphemes

GRAPHEME_SAMPLES = ["cafe\u0301", "\U0001F469\u200d\U0001F4BB", "\U0001F1EE\U0001F1E9\U0001F1EF\U0001F1F5\U0001F1EE",
                    "\u1112\u1161\u11ab\ud55c\u1100\u1161", "a\r\nb\n\r", "\U0001F44D\U0001F3FD!", "x\u200dy",
                    "\U0001F3F3\ufe0f\u200d\U0001F308", "\u0915\u093f", "a\u0300\u0301b", "\t\u0301"]


@pytest.mark.parametrize("text", GRAPHEME_SAMPLES)
def test_graphemes_agree_with_regex_X(text):
    regex = pytest.importorskip("regex")
    assert graphemes(text) == regex.findall(r"\X", text)


def test_grapheme_examples_by_hand():
    assert graphemes("cafe\u0301") == ["c", "a", "f", "e\u0301"]
    assert graphemes("\U0001F469\u200d\U0001F4BB") == ["\U0001F469\u200d\U0001F4BB"]
    assert len(graphemes("\U0001F1EE\U0001F1E9\U0001F1EF\U0001F1F5\U0001F1EE")) == 3
    assert graphemes("\u1112\u1161\u11ab") == ["\u1112\u1161\u11ab"]
    assert graphemes("a\r\n") == ["a", "\r\n"]


# ----------------------------------------------------------- preprocessing

def test_tokenizers():
    s = {"case": "mixed", "punctuation": "keep"}
    assert E.words("a \tb\u00a0c  d", {**s, "tokenize": "whitespace"}) == ["a", "b", "c", "d"]
    assert E.words("a \tb\u00a0c  d", {**s, "tokenize": "spaces"}) == ["a", "\tb\u00a0c", "d"]
    assert E.words("a \tb\u00a0c  d", {**s, "tokenize": "jiwer"}) == ["a", "b\u00a0c", "d"]


def test_punctuation_is_unicode_category_p():
    s = {"case": "mixed", "punctuation": "remove", "tokenize": "whitespace"}
    assert E.words("don't U.S. \u00abya\u00bb \u00bfqu\u00e9? a_b $5 1+1 ^ ` | ~ <x>", s) == \
        ["dont", "US", "ya", "qu\u00e9", "ab", "$5", "1+1", "^", "`", "|", "~", "<x>"]


def test_jiwer_transforms_if_installed():
    """tokenize=jiwer and whitespace=strip reproduce jiwer's default transforms."""
    jiwer = pytest.importorskip("jiwer")
    texts = ["a \tb\u00a0c  d", " x  y ", "\u3000a\u3000\u3000b", "a\tb", ""]
    for t in texts:
        assert jiwer.transformations.wer_default([t]) in ([E.words(t, {"case": "mixed", "punctuation": "keep",
                                                                        "tokenize": "jiwer"})], [[]])
        assert jiwer.transformations.cer_default([t]) == [E.characters(t, {
            "case": "mixed", "punctuation": "keep", "whitespace": "strip", "unit": "codepoint"})]


# ----------------------------------------------------------- values, knobs

def test_tie_any_returns_admissible_with_every_rule():
    v = compute("mer", {"references": ["a b"], "hypotheses": ["b c"]}).value
    assert isinstance(v, Admissible) and v.values == (Fraction(2, 3), Fraction(1))
    assert v.by_rule == {"prefer-substitution": 1, "prefer-deletion-insertion": Fraction(2, 3),
                         "diagonal-first": 1, "rapidfuzz": 1, "sclite": Fraction(2, 3)}
    assert compare_value(2 / 3, v, Tolerance(ulps=1)).agrees
    assert compare_value(1.0, v, Tolerance()).agrees
    assert not compare_value(0.5, v, Tolerance(ulps=4)).agrees


def test_mean_with_too_many_admissible_values_asks_for_a_tie_rule(monkeypatch):
    monkeypatch.setattr(E, "MEAN_SET_LIMIT", 2)
    inputs = {"references": ["a b", "a b"], "hypotheses": ["b c", "b c"]}
    with pytest.raises(ConventionError, match="choose a tie rule"):
        compute("mer", inputs, {"aggregate": "mean"})
    assert compute("mer", inputs, {"aggregate": "mean", "tie": "sclite"}).value == Fraction(2, 3)


def test_signatures_name_every_knob():
    for metric in METRICS:
        m = get_metric(metric)
        sig = m.signature()
        for k in m.knobs:
            assert f"{k.sig_key}:" in sig
    assert get_metric("wer").signature() != get_metric("wer").signature({"tie": "sclite"})


def test_settings_that_score_differently_have_different_signatures():
    inputs = {"references": ["a b c d e", " Budi,  x"], "hypotheses": ["x y z a b", "budi x"]}
    m = get_metric("wer")
    seen = {}
    for knob in m.knobs:
        for choice in knob.choices:
            s = m.settings({knob.name: choice})
            v = str(m.compute(inputs, s).value)
            seen.setdefault(m.signature(s), set()).add(v)
    assert all(len(v) == 1 for v in seen.values())


def test_empty_reference_policies():
    inp = {"references": ["", "a"], "hypotheses": ["x y", "a"]}
    assert compute("wer", inp).value == 2
    assert isinstance(compute("wer", inp, {"aggregate": "mean"}).value, Undefined)
    assert compute("wer", inp, {"aggregate": "mean", "empty_reference": "insertions"}).value == 1
    with pytest.raises(InputError, match=r"references\[0\]: empty reference"):
        compute("wer", inp, {"empty_reference": "error"})
    # jiwer: wer = number of insertions when no reference has a word
    assert compute("cer", {"references": [" "], "hypotheses": ["ab"]}, {"empty_reference": "insertions"}).value == 2
    assert compute("error_counts", {"references": [], "hypotheses": []}).value == {
        "hits": 0, "substitutions": 0, "deletions": 0, "insertions": 0}


# ---------------------------------------------------------------- bad input

BAD = [
    ("a list", ["a"], r"inputs: expected an object"),
    ("missing field", {"references": ["a"]}, r"inputs: missing field 'hypotheses'"),
    ("unknown field", {"references": ["a"], "hypotheses": ["a"], "weights": 1}, r"unknown field 'weights'"),
    ("string not list", {"references": "a b", "hypotheses": "a b"}, r"references: expected a list of strings, got str"),
    ("unequal lengths", {"references": ["a", "b"], "hypotheses": ["a"]}, r"hypotheses: 1 items but references has 2"),
    ("non-string hypothesis", {"references": ["a", "b"], "hypotheses": ["a", 3]}, r"hypotheses\[1\]: expected a string, got int"),
    ("non-string reference", {"references": [None], "hypotheses": ["a"]}, r"references\[0\]: expected a string, got NoneType"),
]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("name,inputs,message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_rows(metric, name, inputs, message):
    with pytest.raises(InputError, match=message):
        compute(metric, inputs)


@pytest.mark.parametrize("metric", ("wer", "cer", "mer", "wil", "wip"))
def test_empty_corpus_row(metric):
    empty = {"references": [], "hypotheses": []}
    assert isinstance(compute(metric, empty).value, Undefined)
    assert compute(metric, empty, {"empty_reference": "insertions"}).value == {"wip": 1}.get(metric, 0)
    with pytest.raises(InputError, match="references: empty corpus"):
        compute(metric, empty, {"empty_reference": "error"})


def test_empty_hypothesis_row():
    assert compute("wer", {"references": ["a b"], "hypotheses": [""]}).value == 1
    assert compute("wip", {"references": ["a b"], "hypotheses": [""]}).value == 0


def test_unknown_knob_value_is_a_convention_error():
    with pytest.raises(ConventionError, match="tie"):
        compute("wer", {"references": ["a"], "hypotheses": ["a"]}, {"tie": "levenshtein"})


# --------------------------------------------------------------- strategies

@given(st.data())
def test_strategy_edits_stay_within_the_rate(data):
    ref = data.draw(st.lists(st.sampled_from("abc"), min_size=1, max_size=8))
    hyp = data.draw(edited_tokens(ref, rate=Fraction(0)))
    assert A.levenshtein(ref, hyp) <= 1  # rate 0: at most the one extra insertion


GRAPHEME_POOL = ("a", "e", "\u0301", "\u200d", "\U0001F469", "\U0001F4BB", "\U0001F1EE", "\U0001F1E9", "\u1112",
                 "\u1161", "\u11ab", "\ud55c", "\r", "\n", "\t", "\U0001F3FD", "\ufe0f", "\u093f", " ", "\u00e9")


@given(st.lists(st.sampled_from(GRAPHEME_POOL), max_size=10))
def test_graphemes_agree_with_regex_X_on_random_strings(pieces):
    regex = pytest.importorskip("regex")
    text = "".join(pieces)
    assert graphemes(text) == regex.findall(r"\X", text)
