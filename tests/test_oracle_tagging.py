"""Token accuracy and entity-level P/R/F: golden cases, second implementations, properties, bad input.

The second implementations here are written from the published rules, not
from oracle/tagging.py: a literal port of conlleval.pl's main loop (its
startOfChunk/endOfChunk tables and its inCorrect counting, which never forms
span sets), the same tables extended with S, seqeval's strict pattern tables
(start/inside/end patterns with its forward scan), and for IOB1/IOE1 strict
"blank the invalid B-/E-, then read as conlleval".
"""
from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies import tagging as ST
from oracle import ConventionError, InputError, Undefined, compute, get_metric
from oracle.certified import places, same_value
from oracle.chunks import SCHEMES, parse_tag, read_chunks

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = load_file(GOLDEN / "topics" / "tagging.json") + [
    c for c in load_file(GOLDEN / "documents" / "000_28a8cb91ddee40ec.json")
    if c.metric in ("token_accuracy", "entity_f1", "entity_precision", "entity_recall", "entity_report")]
ENTITY_METRICS = ("entity_f1", "entity_precision", "entity_recall")


# ------------------------------------------------------------ golden cases

def test_golden_cases_are_well_formed():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    for c in CASES:
        assert re.fullmatch(r"[0-9a-f]{8}", c.id)
        assert c.metric in ("token_accuracy", "entity_report") + ENTITY_METRICS
        assert "document" in c.source or len(c.expected.get("derivation", "")) > 40, c.id


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden_case(case):
    assert rederive(case) == []


DOC = {
    "tokens": [["Budi", "pergi", "ke", "Bandung", "."],
               ["Siti", "bekerja", "di", "PT", "Maju", "Jaya", "."],
               ["Rapat", "diadakan", "di", "Jakarta", "pada", "12", "Maret", "."]],
    "gold": [["B-PER", "O", "O", "B-LOC", "O"],
             ["B-PER", "O", "O", "B-ORG", "I-ORG", "I-ORG", "O"],
             ["O", "O", "O", "B-LOC", "O", "B-DATE", "I-DATE", "O"]],
    "pred": [["B-PER", "O", "O", "B-PER", "O"],
             ["B-PER", "O", "O", "B-ORG", "I-ORG", "O", "O"],
             ["O", "O", "O", "B-LOC", "O", "B-DATE", "I-DATE", "O"]],
}


@pytest.mark.parametrize("matching", ["pooled-type-text", "span"])
def test_document_part1_table(matching):
    """The printed table of document 000 part 1 (both matchings coincide on it)."""
    printed = {"DATE": ("1.000", "1.000", "1.000"), "LOC": ("1.000", "0.500", "0.667"),
               "ORG": ("0.000", "0.000", "0.000"), "PER": ("0.667", "1.000", "0.800"),
               "micro avg": ("0.667", "0.667", "0.667")}
    r = compute("entity_report", DOC, {"matching": matching})
    for row, texts in printed.items():
        got = tuple(places(r.value[row][k], 3) for k in ("precision", "recall", "f1"))
        assert got == texts, row
    assert compute("token_accuracy", DOC).value == Fraction(18, 20)


# ------------------------------------------- second implementation: conlleval.pl

CONLL_END = {("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O")}
CONLL_START = {("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E")}
# the same tables with S, as the IOBES variants of conlleval and seqeval's end_of_chunk/start_of_chunk have them
S_END = CONLL_END | {("B", "S"), ("I", "S"), ("E", "S"), ("E", "B"), ("S", "E"), ("S", "I"), ("S", "O"), ("S", "S"),
                     ("S", "B")}
S_START = CONLL_START | {("S", "B"), ("E", "B"), ("B", "S"), ("I", "S"), ("O", "S"), ("S", "S"), ("E", "S"),
                         ("S", "I"), ("S", "E")}


def _conll_split(tag):
    m = re.match(r"^([^-]*)-(.*)$", tag)
    return (m.group(1), m.group(2)) if m else (tag, "")


def conlleval_port(gold, pred, end_table=CONLL_END, start_table=CONLL_START):
    """conlleval.pl's main loop: (correctChunk, foundCorrect, foundGuessed) per type,
    correctTags, tokenCounter. A boundary line (O O) follows every sentence."""
    def end_of(pt, t, ptype, typ):
        return (pt, t) in end_table or (pt != "O" and pt != "." and ptype != typ)

    def start_of(pt, t, ptype, typ):
        return (pt, t) in start_table or (t != "O" and t != "." and ptype != typ)

    lines = []
    for g, p in zip(gold, pred):
        lines += [(False, a, b) for a, b in zip(g, p)] + [(True, "O", "O")]
    correct_chunk, found_correct, found_guessed = Counter(), Counter(), Counter()
    correct_tags = tokens = 0
    in_correct = False
    last_c, last_g, last_ct, last_gt = "O", "O", "", ""
    for boundary, gtag, ptag in lines:
        c, ct = _conll_split(gtag)
        g, gt = _conll_split(ptag)
        if boundary:
            g = "O"
        if in_correct:
            ec, eg = end_of(last_c, c, last_ct, ct), end_of(last_g, g, last_gt, gt)
            if ec and eg and last_gt == last_ct:
                in_correct = False
                correct_chunk[last_ct] += 1
            elif ec != eg or gt != ct:
                in_correct = False
        sc, sg = start_of(last_c, c, last_ct, ct), start_of(last_g, g, last_gt, gt)
        if sc and sg and gt == ct:
            in_correct = True
        if sc:
            found_correct[ct] += 1
        if sg:
            found_guessed[gt] += 1
        if not boundary:
            correct_tags += c == g and gt == ct
            tokens += 1
        last_g, last_c, last_gt, last_ct = g, c, gt, ct
    if in_correct:
        correct_chunk[last_ct] += 1
    return correct_chunk, found_correct, found_guessed, correct_tags, tokens


def _to_iobes(tag):
    return re.sub(r"^L-", "E-", re.sub(r"^U-", "S-", tag))


def _port_for(scheme, gold, pred):
    if scheme in ("iobes", "bilou"):
        gold = [[_to_iobes(t) for t in s] for s in gold]
        pred = [[_to_iobes(t) for t in s] for s in pred]
        return conlleval_port(gold, pred, S_END, S_START)
    return conlleval_port(gold, pred)


def _nonzero(d):
    return {k: v for k, v in d.items() if v}


def _assert_matches_conlleval(scheme, gold, pred):
    inputs = {"gold": gold, "pred": pred}
    r = compute("entity_f1", inputs, {"scheme": scheme, "reading": "seqeval"})
    tp, found_c, found_g, _, _ = _port_for(scheme, gold, pred)
    assert _nonzero(r.stats["tp"]) == dict(+tp), (gold, pred)
    assert _nonzero(r.stats["gold"]) == dict(+found_c), (gold, pred)
    assert _nonzero(r.stats["pred"]) == dict(+found_g), (gold, pred)
    # reading=conlleval is the Perl script as written, whatever the scheme (no S, L, U rules)
    perl = compute("entity_f1", inputs, {"scheme": scheme, "reading": "conlleval"})
    tp, found_c, found_g, _, _ = conlleval_port(gold, pred)
    assert _nonzero(perl.stats["tp"]) == dict(+tp), (gold, pred)
    assert _nonzero(perl.stats["gold"]) == dict(+found_c), (gold, pred)
    assert _nonzero(perl.stats["pred"]) == dict(+found_g), (gold, pred)


def _all_tags(scheme, types="XY"):
    return ["O"] + [f"{p}-{t}" for p in SCHEMES[scheme] for t in types]


@pytest.mark.parametrize("scheme", ["iob1", "iob2", "ioe1", "ioe2", "iobes", "bilou"])
def test_counts_equal_conlleval_on_every_short_pair(scheme):
    """Every (gold, pred) pair of equal length <= 3 (<= 2 for the four-prefix schemes)."""
    tags = _all_tags(scheme)
    top = 3 if len(SCHEMES[scheme]) == 2 else 2
    for n in range(1, top + 1):
        seqs = [list(s) for s in itertools.product(tags, repeat=n)]
        for g in seqs:
            for p in seqs:
                _assert_matches_conlleval(scheme, [g], [p])


@settings(deadline=None)
@given(st.sampled_from(sorted(SCHEMES)), st.data())
def test_counts_equal_conlleval_on_random_corpora(scheme, data):
    tags = _all_tags(scheme, ("X", "Y-Z"))
    n_sent = data.draw(st.integers(1, 3))
    gold, pred = [], []
    for _ in range(n_sent):
        n = data.draw(st.integers(0, 7))
        gold.append(data.draw(st.lists(st.sampled_from(tags), min_size=n, max_size=n)))
        pred.append(data.draw(st.lists(st.sampled_from(tags), min_size=n, max_size=n)))
    _assert_matches_conlleval(scheme, gold, pred)
    tp, fc, fg, correct_tags, tokens = _port_for(scheme, gold, pred)
    acc = compute("token_accuracy", {"gold": gold, "pred": pred})
    assert acc.stats == {"correct": correct_tags, "total": tokens}


# ---------------------------------------------- second implementation: spans

def conll_spans(tags, end_table, start_table):
    """Chunks (start, end, type) by conlleval's tables, read with a begin offset."""
    out, begin, prev = [], None, ("O", "")
    for i, tag in enumerate(list(tags) + ["O"]):
        cur = _conll_split(tag)
        ended = (prev[0], cur[0]) in end_table or (prev[0] != "O" and prev[1] != cur[1])
        started = (prev[0], cur[0]) in start_table or (cur[0] != "O" and prev[1] != cur[1])
        if ended and begin is not None:
            out.append((begin, i, prev[1]))
            begin = None
        if started:
            begin = i
        prev = cur
    return out


# seqeval.scheme pattern tables: (previous prefixes, current prefixes, type condition)
ANY = "BIOES"
SEQEVAL = {
    "iob2": dict(start=[(ANY, "B", "any")], inside=[("B", "I", "same"), ("I", "I", "same")],
                 end=[("I", "O", "any"), ("I", "I", "diff"), ("I", "B", "any"), ("B", "O", "any"),
                      ("B", "I", "diff"), ("B", "B", "any")]),
    "ioe2": dict(start=[("O", "I", "any"), ("O", "E", "any"), ("E", "I", "any"), ("E", "E", "any"),
                        ("I", "I", "diff"), ("I", "E", "diff")],
                 inside=[("I", "E", "same"), ("I", "I", "same")], end=[("E", ANY, "any")]),
    "iobes": dict(start=[(ANY + "S", "B", "any"), (ANY + "S", "S", "any")],
                  inside=[("B", "I", "same"), ("B", "E", "same"), ("I", "I", "same"), ("I", "E", "same")],
                  end=[("S", ANY + "S", "any"), ("E", ANY + "S", "any")]),
}


def seqeval_strict_port(tags, table):
    split = [("O", "") if t == "O" else _conll_split(t) for t in tags] + [("O", "")]

    def match(prev, cur, patterns):
        return any(prev[0] in pp and cur[0] in cp and
                   (cond == "any" or (cond == "same") == (prev[1] == cur[1])) for pp, cp, cond in patterns)

    out, i, prev = [], 0, ("O", "")
    while i < len(split):
        tok = split[i]
        if match(prev, tok, table["start"]):
            j, p = i + 1, tok
            while j < len(split) and match(p, split[j], table["inside"]):
                p = split[j]
                j += 1
            if match(split[j - 1], split[j], table["end"]):
                out.append((i, j, tok[1]))
            i = j
        else:
            i += 1
        prev = split[i - 1]
    return out


def blank_then_read(tags, scheme):
    """IOB1/IOE1 strict, stated another way: blank each B- (left to right) not
    directly after a token of its type, or each E- (right to left) not directly
    before one; then read the rest with conlleval's tables."""
    out = list(tags)
    order = range(len(out)) if scheme == "iob1" else reversed(range(len(out)))
    mark, step = ("B", -1) if scheme == "iob1" else ("E", 1)
    for i in order:
        p, t = _conll_split(out[i])
        if p == mark:
            j = i + step
            nb = _conll_split(out[j]) if 0 <= j < len(out) else ("O", "")
            if nb[0] == "O" or nb[1] != t:
                out[i] = "O"
    return conll_spans(out, CONLL_END, CONLL_START)


def strict_second(tags, scheme):
    if scheme in ("iob1", "ioe1"):
        return blank_then_read(tags, scheme)
    if scheme == "bilou":
        return seqeval_strict_port([_to_iobes(t) for t in tags], SEQEVAL["iobes"])
    return seqeval_strict_port(tags, SEQEVAL[scheme])


def _oracle_chunks(tags, scheme, reading):
    parsed = [parse_tag(t, scheme, "prefix-type", "x") for t in tags]
    return sorted(read_chunks(parsed, scheme, reading))


def encode_independently(spans, n, scheme):
    """Tags of ``spans`` in ``scheme``, written from the scheme's definition."""
    tags = ["O"] * n
    for s, e, t in spans:
        after_same = any(e2 == s and t2 == t for _, e2, t2 in spans)
        before_same = any(s2 == e and t2 == t for s2, _, t2 in spans)
        inner = [f"I-{t}"] * (e - s)
        if scheme == "iob1" and after_same or scheme == "iob2":
            inner[0] = f"B-{t}"
        if scheme == "ioe1" and before_same or scheme == "ioe2":
            inner[-1] = f"E-{t}"
        if scheme in ("iobes", "bilou"):
            one, first, last = ("S", "B", "E") if scheme == "iobes" else ("U", "B", "L")
            inner = [f"{one}-{t}"] if e - s == 1 else [f"{first}-{t}"] + inner[1:-1] + [f"{last}-{t}"]
        tags[s:e] = inner
    return tags


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_readings_equal_second_implementations_on_every_short_sequence(scheme):
    """All sequences of length <= 4 over O and the scheme's prefixes with two types."""
    if scheme in ("iobes", "bilou"):
        table = (S_END, S_START)
    else:
        table = (CONLL_END, CONLL_START)
    for n in range(0, 5):
        for seq in itertools.product(_all_tags(scheme), repeat=n):
            seq = list(seq)
            iobes_seq = [_to_iobes(t) for t in seq] if scheme == "bilou" else seq
            conll = _oracle_chunks(seq, scheme, "seqeval")
            perl = _oracle_chunks(seq, scheme, "conlleval")
            assert perl == sorted(conll_spans(seq, CONLL_END, CONLL_START)), seq  # the script as written
            strict = _oracle_chunks(seq, scheme, "valid-only")
            assert conll == sorted(conll_spans(iobes_seq, *table)), seq
            assert strict == sorted(strict_second(seq, scheme)), seq
            if encode_independently(conll, n, scheme) == seq or encode_independently(strict, n, scheme) == seq:
                assert conll == strict, seq  # a valid sequence: the readings agree


# -------------------------------------------------------------- properties

def _span_sets(max_len=8, types=("PER", "LOC", "ARGM-LOC")):
    @st.composite
    def draw_spans(draw):
        n = draw(st.integers(0, max_len))
        cuts = sorted(draw(st.sets(st.integers(0, n), max_size=2 * n)))
        spans = []
        for a, b in zip(cuts[::2], cuts[1::2]):
            if a < b and draw(st.booleans()):
                # split [a, b) into adjacent spans, sometimes of the same type
                k = draw(st.integers(a + 1, b))
                spans.append((a, k, draw(st.sampled_from(types))))
                if k < b:
                    spans.append((k, b, draw(st.sampled_from(types))))
        return n, spans
    return draw_spans()


def _as_type_prefix(tags):
    return ["O" if t == "O" else f"{t.split('-', 1)[1]}-{t.split('-', 1)[0]}" for t in tags]


@settings(deadline=None)
@given(_span_sets(), st.sampled_from(sorted(SCHEMES)), st.sampled_from(["prefix-type", "type-prefix"]))
def test_spans_written_as_tags_read_back(nspans, scheme, fmt):
    n, spans = nspans
    tags = encode_independently(spans, n, scheme)
    if fmt == "type-prefix":
        tags = _as_type_prefix(tags)
    for reading in ("seqeval", "valid-only"):   # conlleval.pl merges adjacent IOBES chunks of one type
        conv = {"scheme": scheme, "reading": reading, "tag_format": fmt}
        r = compute("entity_f1", {"gold": [tags], "pred": [tags]}, conv)
        assert sorted(tuple(e[1:]) for e in r.parts["gold_entities"]) == sorted(spans)


def _knobs():
    return st.fixed_dictionaries({
        "scheme": st.sampled_from(sorted(SCHEMES)),
        "reading": st.sampled_from(["seqeval", "conlleval", "valid-only"]),
        "average": st.sampled_from(["micro", "macro", "weighted"]),
        "zero_division": st.sampled_from(["zero", "one", "undefined", "exclude"]),
        "beta": st.sampled_from(["1", "2", "1/2"]),
        "matching": st.sampled_from(["span", "pooled-type-text"]),
        "tag_format": st.sampled_from(["prefix-type", "type-prefix"]),
    })


@st.composite
def _case(draw):
    conv = draw(_knobs())
    inputs = draw(ST.tagging_inputs(conv["scheme"], conv["tag_format"]))
    return conv, inputs


@settings(deadline=None)
@given(_case(), st.randoms(use_true_random=False))
def test_sentence_order_does_not_matter(case, rnd):
    conv, inputs = case
    order = list(range(len(inputs["gold"])))
    rnd.shuffle(order)
    shuffled = {k: [v[i] for i in order] for k, v in inputs.items()}
    for metric in ENTITY_METRICS + ("entity_report", "token_accuracy"):
        c = {} if metric == "token_accuracy" else {k: v for k, v in conv.items()
                                                    if metric != "entity_report" or k != "average"}
        a, b = compute(metric, inputs, c), compute(metric, shuffled, c)
        assert same_value(a.value, b.value) and a.stats == b.stats


def _rename(inputs, old, new, fmt):
    def one(tag):
        if tag == "O":
            return tag
        if fmt == "prefix-type":
            p, t = tag.split("-", 1)
            return f"{p}-{new if t == old else t}"
        t, p = tag.rsplit("-", 1)
        return f"{new if t == old else t}-{p}"
    return dict(inputs, gold=[[one(t) for t in s] for s in inputs["gold"]],
                pred=[[one(t) for t in s] for s in inputs["pred"]])


@settings(deadline=None)
@given(_case(), st.sampled_from(["PER", "LOC", "ARGM-LOC"]), st.sampled_from(["A", "ZZ-TOP", "MISC"]))
def test_renaming_a_type_consistently_does_not_matter(case, old, new):
    conv, inputs = case
    renamed = _rename(inputs, old, new, conv["tag_format"])
    for metric in ENTITY_METRICS:
        a, b = compute(metric, inputs, conv), compute(metric, renamed, conv)
        assert same_value(a.value, b.value)
        assert sorted(a.stats["tp"].values()) == sorted(b.stats["tp"].values())
    conv_r = {k: v for k, v in conv.items() if k != "average"}
    ra, rb = compute("entity_report", inputs, conv_r).value, compute("entity_report", renamed, conv_r).value
    assert same_value({(new if k == old else k): v for k, v in ra.items()}, rb)


@settings(deadline=None)
@given(_case())
def test_true_positives_bounded_by_counts(case):
    conv, inputs = case
    r = compute("entity_f1", inputs, conv)
    for t in r.stats["tp"]:
        assert r.stats["tp"][t] <= r.stats["pred"][t]
        if conv["matching"] == "span":
            assert r.stats["tp"][t] <= r.stats["gold"][t]
    if conv["matching"] == "span":
        for v in (r.value, r.parts["precision_avg"], r.parts["recall_avg"]):
            assert isinstance(v, Undefined) or 0 <= v <= 1


@settings(deadline=None)
@given(_case())
def test_token_accuracy_by_a_second_count(case):
    _, inputs = case
    flat_gold = [t for s in inputs["gold"] for t in s]
    flat_pred = [t for s in inputs["pred"] for t in s]
    wrong = sum(1 for g, p in zip(flat_gold, flat_pred) if g != p)
    r = compute("token_accuracy", inputs)
    if not flat_gold:
        assert isinstance(r.value, Undefined)
    else:
        assert r.value == 1 - Fraction(wrong, len(flat_gold))


@settings(deadline=None)
@given(_case())
def test_f_is_from_counts_and_micro_pools_them(case):
    conv, inputs = case
    conv = dict(conv, average="micro", zero_division="zero")
    r = compute("entity_f1", inputs, conv)
    tp, pred, gold = r.stats["tp_total"], r.stats["pred_total"], r.stats["gold_total"]
    b2 = Fraction(conv["beta"]) ** 2
    assert r.value == ((1 + b2) * tp / (b2 * gold + pred) if b2 * gold + pred else 0)
    p, rec = r.parts["precision_avg"], r.parts["recall_avg"]
    if p and rec:
        assert r.value == (1 + b2) * p * rec / (b2 * p + rec)


def test_pooled_matching_over_counts_repeated_texts():
    """Gold has Budi once as PER, the prediction tags both Budis: the document's
    count gives cocok 2 of 1 gold (recall 2); spans give 1 of 1."""
    inputs = {"tokens": [["Budi", "dan", "Budi"]], "gold": [["B-PER", "O", "O"]], "pred": [["B-PER", "O", "B-PER"]]}
    pooled = compute("entity_recall", inputs, {"matching": "pooled-type-text"})
    span = compute("entity_recall", inputs)
    assert pooled.value == 2 and span.value == 1


def test_signatures_separate_every_knob_value():
    m = get_metric("entity_f1")
    assert m.signature() == ("entity_f1|scheme:iob2|read:seqeval|fmt:prefix-type|avg:micro|beta:1|zd:zero"
                             "|nowt:zero-if-predicted|labels:all|match:span|oracle:1")
    variants = [{"scheme": s} for s in SCHEMES] + [{"reading": "valid-only"}, {"reading": "conlleval"},
                                                     {"tag_format": "type-prefix"},
                                                     {"average": "macro"}, {"average": "weighted"}, {"beta": "2"},
                                                     {"zero_division": "one"}, {"zero_division": "undefined"},
                                                     {"zero_division": "exclude"}, {"labels": "PER,LOC"},
                                                     {"no_weight": "zero-division"},
                                                     {"matching": "pooled-type-text"}]
    sigs = {m.signature(v) for v in variants}
    assert len(sigs) == len(variants)
    assert m.signature({"labels": " PER , LOC,PER"}) == m.signature({"labels": "LOC,PER"})
    assert get_metric("token_accuracy").signature() == "token_accuracy|oracle:1"


# --------------------------------------------------------------- bad input

G = [["B-PER", "O"], ["O"]]
BAD = [
    ("not-a-dict", [G, G], {}, "inputs"),
    ("missing-pred", {"gold": G}, {}, "pred"),
    ("unknown-field", {"gold": G, "pred": G, "words": G}, {}, "words"),
    ("gold-not-list", {"gold": "B-PER", "pred": G}, {}, "gold"),
    ("sentence-not-list", {"gold": G, "pred": [["B-PER", "O"], "O"]}, {}, "pred[1]"),
    ("sentence-count", {"gold": G, "pred": G[:1]}, {}, "pred: 1 sentences but gold has 2"),
    ("sentence-length", {"gold": G, "pred": [["B-PER", "O"], ["O", "O"]]}, {}, "pred[1]: 2 tags but gold[1] has 1"),
    ("tag-not-string", {"gold": G, "pred": [["B-PER", 3], ["O"]]}, {}, "pred[0][1]: expected a string, got int"),
    ("tag-none", {"gold": [[None, "O"], ["O"]], "pred": G}, {}, "gold[0][0]"),
    ("empty-tag", {"gold": G, "pred": [["", "O"], ["O"]]}, {}, "pred[0][0]: an empty tag"),
    ("prefix-not-in-iob2", {"gold": G, "pred": [["E-PER", "O"], ["O"]]}, {}, "pred[0][0]"),
    ("prefix-not-in-iob2-conlleval", {"gold": [["O", "S-PER"], ["O"]], "pred": G}, {"reading": "seqeval"},
     "gold[0][1]"),
    ("prefix-not-in-iob2-strict", {"gold": G, "pred": [["B-PER", "L-PER"], ["O"]]}, {"reading": "valid-only"},
     "pred[0][1]"),
    ("b-under-ioe2", {"gold": [["I-PER", "E-PER"], ["O"]], "pred": G}, {"scheme": "ioe2"}, "pred[0][0]"),
    ("no-prefix", {"gold": G, "pred": [["PER", "O"], ["O"]]}, {}, "pred[0][0]: tag 'PER' has no prefix"),
    ("no-type", {"gold": G, "pred": [["B-", "O"], ["O"]]}, {}, "pred[0][0]: tag 'B-' has no type"),
    ("o-with-type", {"gold": G, "pred": [["O-PER", "O"], ["O"]]}, {}, "pred[0][0]"),
    ("wrong-format", {"gold": G, "pred": G}, {"tag_format": "type-prefix"}, "gold[0][0]"),
    ("lowercase-prefix", {"gold": G, "pred": [["b-PER", "O"], ["O"]]}, {}, "pred[0][0]"),
    ("pooled-without-tokens", {"gold": G, "pred": G}, {"matching": "pooled-type-text"}, "tokens"),
    ("tokens-length", {"gold": G, "pred": G, "tokens": [["a", "b"], ["c", "d"]]}, {}, "tokens[1]: 2 tokens"),
    ("token-not-string", {"gold": G, "pred": G, "tokens": [["a", 1], ["c"]]}, {}, "tokens[0][1]"),
]


@pytest.mark.parametrize("metric", ENTITY_METRICS + ("entity_report",))
@pytest.mark.parametrize("label,inputs,conv,where", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_item(metric, label, inputs, conv, where):
    with pytest.raises(InputError) as err:
        compute(metric, inputs, conv)
    assert where in str(err.value)


SCHEME_FREE_BAD = [b for b in BAD if b[0] not in (
    "prefix-not-in-iob2", "prefix-not-in-iob2-conlleval", "prefix-not-in-iob2-strict", "b-under-ioe2", "no-prefix",
    "no-type", "o-with-type", "wrong-format", "lowercase-prefix", "pooled-without-tokens")]


@pytest.mark.parametrize("label,inputs,conv,where", SCHEME_FREE_BAD, ids=[b[0] for b in SCHEME_FREE_BAD])
def test_token_accuracy_bad_input(label, inputs, conv, where):
    with pytest.raises(InputError) as err:
        compute("token_accuracy", inputs)
    assert where in str(err.value)


def test_token_accuracy_takes_any_tag_set():
    """POS tags have no prefix: token accuracy compares strings and needs no scheme."""
    inputs = {"gold": [["NN", "VBZ", "E-PER"]], "pred": [["NN", "VBD", "E-PER"]]}
    assert compute("token_accuracy", inputs).value == Fraction(2, 3)


@pytest.mark.parametrize("metric", ENTITY_METRICS + ("entity_report", "token_accuracy"))
def test_no_sentences_is_undefined(metric):
    r = compute(metric, {"gold": [], "pred": []})
    assert isinstance(r.value, Undefined)


def test_empty_sentences_are_allowed_and_zero_division_decides():
    inputs = {"gold": [[], []], "pred": [[], []]}
    assert isinstance(compute("token_accuracy", inputs).value, Undefined)
    assert compute("entity_f1", inputs).value == 0
    assert compute("entity_f1", inputs, {"zero_division": "one"}).value == 1
    assert isinstance(compute("entity_f1", inputs, {"zero_division": "undefined"}).value, Undefined)
    assert isinstance(compute("entity_f1", inputs, {"zero_division": "exclude"}).value, Undefined)
    with_sentence = {"gold": [[], ["B-PER"]], "pred": [[], ["B-PER"]]}
    assert compute("entity_f1", with_sentence).value == 1


def test_types_outside_the_label_list_are_ignored():
    inputs = {"gold": [["B-PER", "B-LOC"]], "pred": [["B-PER", "B-ORG"]]}
    r = compute("entity_precision", inputs, {"labels": "PER"})
    assert r.value == 1 and r.stats["pred_total"] == 1 and r.stats["pred"]["ORG"] == 1


@pytest.mark.parametrize("conv,word", [({"scheme": "bio"}, "scheme"), ({"reading": "lenient"}, "reading"),
                                       ({"beta": "0"}, "beta"), ({"beta": "-1"}, "beta"), ({"beta": 0.5}, "beta"),
                                       ({"labels": ""}, "labels"), ({"labels": "PER,,LOC"}, "labels"),
                                       ({"labels": "all,PER"}, "labels"), ({"average": "samples"}, "average"),
                                       ({"zero_division": "warn"}, "zero_division"),
                                       ({"matching": "text"}, "matching")])
def test_bad_knob_is_a_convention_error(conv, word):
    with pytest.raises(ConventionError, match=word):
        compute("entity_f1", {"gold": [["O"]], "pred": [["O"]]}, conv)


def test_report_has_no_average_knob():
    with pytest.raises(ConventionError, match="average"):
        compute("entity_report", {"gold": [["O"]], "pred": [["O"]]}, {"average": "micro"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from(["O", "B-PER", "I-PER", "E-X", "", "B-"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["gold", "pred", "tokens"]),
                                                                inner, max_size=2),
    max_leaves=10)


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["gold", "pred", "tokens"]), json_values, max_size=3))
def test_arbitrary_json_gives_a_value_or_an_input_error(inputs):
    for metric in ("token_accuracy", "entity_f1", "entity_report"):
        try:
            r = compute(metric, inputs)
        except InputError:
            continue
        assert isinstance(r.value, (Fraction, Undefined, dict))


def test_weighted_average_without_gold_follows_scikit_learn_by_default():
    """Types none of which has a gold entity: weights sum to 0. scikit-learn's and seqeval's
    branch (no_weight=zero-if-predicted): P = F = 0 when something is predicted, R = zero_division,
    and all three zero_division when nothing is predicted; no_weight=zero-division settles
    the empty mean's 0/0 by zero_division for all three."""
    predicted = {"gold": [["O", "O"]], "pred": [["B-PER", "O"]]}
    nothing = {"gold": [["O", "O"]], "pred": [["O", "O"]]}
    conv = {"average": "weighted", "zero_division": "one", "labels": "PER"}
    got = {k: compute(k, predicted, conv).value for k in ("entity_precision", "entity_recall", "entity_f1")}
    assert got == {"entity_precision": 0, "entity_recall": 1, "entity_f1": 0}
    assert all(compute(k, nothing, conv).value == 1 for k in ("entity_precision", "entity_recall", "entity_f1"))
    own = dict(conv, no_weight="zero-division")
    assert all(compute(k, predicted, own).value == 1 for k in ("entity_precision", "entity_recall", "entity_f1"))
    # a gold entity anywhere gives the mean a weight: the rule does not enter
    some_gold = {"gold": [["B-LOC", "O"]], "pred": [["B-PER", "O"]]}
    assert compute("entity_precision", some_gold, {"average": "weighted"}).value == \
        compute("entity_precision", some_gold, {"average": "weighted", "no_weight": "zero-division"}).value
