"""Hypothesis strategies for sequence labelling (token accuracy, entity P/R/F).

Independent random tag sequences almost never share an entity, so a
property test over them checks nothing but the zero branch. Here gold
sequences are written from random entity spans (over a small type set that
includes a hyphenated type, ARGM-LOC), and predictions are made by editing
the gold spans (change a type, move a boundary, drop an entity, insert one)
and then, sometimes, the tags themselves (turn a first B- into I-, so an
I- follows O or another type; swap a prefix for another of the scheme), so
that matches are common and invalid sequences occur. Words come from a
small vocabulary, so equal surface texts recur (which pooled type-text
matching over-counts).
"""
from __future__ import annotations

from fractions import Fraction

from conformance.strategies._st import st

TYPES = ("PER", "LOC", "ARGM-LOC")
WORDS = ("Budi", "Siti", "Bandung", "Jakarta", "PT", "Maju", "di", "ke", ".")
SCHEME_PREFIXES = {"iob1": "BI", "iob2": "BI", "ioe1": "IE", "ioe2": "IE", "iobes": "BIES", "bilou": "BILU"}

METRICS = ("token_accuracy", "entity_f1", "entity_precision", "entity_recall", "entity_report",
           "ner_schema_precision", "ner_schema_recall", "ner_schema_f1", "ner_schema_report")
_REPORTS = ("entity_report", "ner_schema_report")   # values keyed by type names; supports are counts


def write_tag(prefix: str, typ: str, fmt: str) -> str:
    return f"{prefix}-{typ}" if fmt == "prefix-type" else f"{typ}-{prefix}"


def encode(spans, n: int, scheme: str, fmt: str = "prefix-type") -> list[str]:
    """The valid tag sequence of ``n`` tokens holding exactly ``spans`` [(start, end, type)]."""
    tags = ["O"] * n
    by_end = {e: t for s, e, t in spans}
    by_start = {s: t for s, e, t in spans}
    for s, e, t in spans:
        prefixes = ["I"] * (e - s)
        if scheme == "iob2" or (scheme == "iob1" and by_end.get(s) == t):
            prefixes[0] = "B"
        elif scheme == "ioe2" or (scheme == "ioe1" and by_start.get(e) == t):
            prefixes[-1] = "E"
        elif scheme in ("iobes", "bilou"):
            single, first, last = ("S", "B", "E") if scheme == "iobes" else ("U", "B", "L")
            if e - s == 1:
                prefixes[0] = single
            else:
                prefixes[0], prefixes[-1] = first, last
        for k, p in zip(range(s, e), prefixes):
            tags[k] = write_tag(p, t, fmt)
    return tags


@st.composite
def span_sets(draw, n: int, types=TYPES):
    """Non-overlapping spans [(start, end, type)] over ``n`` tokens (adjacent ones allowed)."""
    spans, i = [], 0
    while i < n:
        if draw(st.integers(0, 2)) == 0:
            i += 1
            continue
        length = draw(st.integers(1, min(3, n - i)))
        spans.append((i, i + length, draw(st.sampled_from(types))))
        i += length
    return spans


@st.composite
def edited_spans(draw, spans, n: int, types=TYPES, max_edits: int = 2):
    """``spans`` after up to ``max_edits`` edits: change a type, move a boundary, drop, insert."""
    out = list(spans)
    for _ in range(draw(st.integers(0, max_edits))):
        op = draw(st.sampled_from(("type", "boundary", "drop", "insert")))
        if op == "insert" or not out:
            s = draw(st.integers(0, n - 1))
            e = draw(st.integers(s + 1, min(n, s + 3)))
            out = [x for x in out if x[1] <= s or x[0] >= e] + [(s, e, draw(st.sampled_from(types)))]
        else:
            k = draw(st.integers(0, len(out) - 1))
            s, e, t = out[k]
            if op == "type":
                out[k] = (s, e, draw(st.sampled_from(types)))
            elif op == "drop":
                del out[k]
            else:
                lo = max([x[1] for x in out if x[1] <= s], default=0)
                hi = min([x[0] for x in out if x[0] >= e], default=n)
                s2 = draw(st.integers(lo, s))
                e2 = draw(st.integers(max(e, s2 + 1), hi)) if draw(st.booleans()) else max(s2 + 1, e - 1)
                out[k] = (s2, e2, t)
    return sorted(out)


@st.composite
def corrupted(draw, tags: list, scheme: str, fmt: str):
    """``tags`` with at most one tag-level corruption: a first B-/S-/U- turned into I-
    (an I- after O or another type), or a prefix swapped for another of the scheme."""
    out = list(tags)
    entity_positions = [i for i, x in enumerate(out) if x != "O"]
    if not entity_positions or draw(st.integers(0, 2)) != 0:
        return out
    i = draw(st.sampled_from(entity_positions))
    tag = out[i]
    typ = tag.split("-", 1)[1] if fmt == "prefix-type" else tag.rsplit("-", 1)[0]
    prefix = draw(st.sampled_from(SCHEME_PREFIXES[scheme]))
    out[i] = write_tag(prefix, typ, fmt)
    return out


@st.composite
def tagging_inputs(draw, scheme: str = "iob2", fmt: str = "prefix-type", max_sentences: int = 4,
                   max_len: int = 7, types=TYPES):
    """Inputs ``{"gold", "pred", "tokens"}`` of the tagging metrics, valid under ``scheme``
    and ``fmt`` (predictions may hold invalid sequences)."""
    gold, pred, tokens = [], [], []
    # now and then a corpus with no gold entity at all (a weighted average without weight);
    # the last value, so that shrinking (towards 0) leaves it
    no_gold = draw(st.integers(0, 5)) == 5
    for _ in range(draw(st.integers(1, max_sentences))):
        n = draw(st.integers(0, max_len))
        words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
        spans = [] if no_gold or not n else draw(span_sets(n, types))
        pspans = (draw(span_sets(n, types)) if no_gold else draw(edited_spans(spans, n, types))) if n else []
        gold.append(encode(spans, n, scheme, fmt))
        pred.append(draw(corrupted(encode(pspans, n, scheme, fmt), scheme, fmt)))
        tokens.append(words)
    return {"gold": gold, "pred": pred, "tokens": tokens}


@st.composite
def long_entity(draw, scheme: str = "iob2", fmt: str = "prefix-type"):
    """One sentence of 100 to 130 tokens holding one long gold entity and a prediction that
    overlaps it by a few tokens: a share of the gold entity below 1/100 (nervaluate's default
    overlap threshold) or above it."""
    n = draw(st.integers(100, 130))
    typ = draw(st.sampled_from(TYPES))
    start = draw(st.integers(0, 2))
    width = draw(st.integers(1, 3))
    pstart = draw(st.integers(max(start, n - width - 3), n - width))
    gold = encode([(start, n, typ)], n, scheme, fmt)
    pred = encode([(pstart, pstart + width, draw(st.sampled_from((typ,) + TYPES)))], n, scheme, fmt)
    return {"gold": [gold], "pred": [pred], "tokens": [["x"] * n]}


def for_settings(settings) -> st.SearchStrategy:
    inputs = tagging_inputs(settings.get("scheme", "iob2"), settings.get("tag_format", "prefix-type"))
    if "min_overlap" in settings:   # the SemEval schemas: an overlap threshold matters on long entities
        return st.one_of(inputs, long_entity(settings.get("scheme", "iob2"), settings.get("tag_format", "prefix-type")))
    return inputs


# ------------------------------------------------------------------ plan pieces

def _split(tag: str):
    """(prefix, type, format) of a tag written by this module (types are never one letter)."""
    if len(tag) > 2 and tag[1] == "-":
        return tag[0], tag[2:], "prefix-type"
    typ, prefix = tag.rsplit("-", 1)
    return prefix, typ, "type-prefix"


def rename_type(inputs, data):
    """Rename one type consistently in gold and prediction to a fresh name (sorting
    elsewhere among the types). Assumes labels=all."""
    seen = sorted({_split(t)[1] for sents in (inputs["gold"], inputs["pred"]) for s in sents for t in s if t != "O"})
    if not seen:
        return inputs
    old = data.draw(st.sampled_from(seen), label="type renamed")
    new = data.draw(st.sampled_from([x for x in ("AAA", "Z-Z", "MISC") if x not in seen]), label="new name")

    def rename(tag):
        if tag == "O":
            return tag
        prefix, typ, fmt = _split(tag)
        return write_tag(prefix, new if typ == old else typ, fmt)

    out = dict(inputs)
    for key in ("gold", "pred"):
        out[key] = [[rename(t) for t in s] for s in inputs[key]]
    return out


def _permute_sentences(inputs, data):
    n = len(inputs["gold"])
    order = data.draw(st.permutations(range(n)), label="sentence order")
    return {k: ([v[i] for i in order] if isinstance(v, list) else v) for k, v in inputs.items()}


def upper(metric: str):
    def bound(settings):
        if metric in _REPORTS or settings.get("matching") == "pooled-type-text":
            return None  # supports are counts; pooled matching over-counts (recall above 1)
        return Fraction(1)
    return bound


def invariances(metric: str) -> dict:
    out = {"sentence-order": _permute_sentences}
    if metric not in ("token_accuracy",) + _REPORTS:  # the report's keys are the type names
        out["type-renaming"] = rename_type
    return out


def perfect_prediction(metric: str):
    """Prediction = gold: token accuracy 1 when there is a token; entity scores 1 when
    the gold has an entity and labels=all."""
    if metric in _REPORTS:
        return None

    def identity(inputs, settings):
        new = dict(inputs, pred=[list(s) for s in inputs["gold"]])
        if metric == "token_accuracy":
            return (new, Fraction(1)) if any(inputs["gold"]) else None
        if settings.get("labels", "all") != "all":
            return None
        if not any(t != "O" for s in inputs["gold"] for t in s):
            return None
        return new, Fraction(1)
    return identity
