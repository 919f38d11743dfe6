"""Reading tag sequences into entities (chunks): the input shapes, tag parsing, the
seqeval and conlleval.pl readings and the valid-only readings of IOB1, IOB2 and IOBES
(BILOU read as IOBES), and entity extraction (definitions and sources in ``oracle.tagging``'s
docstring)."""
from __future__ import annotations

from itertools import chain, compress

from .conventions import InputError


# the prefixes each tagging scheme allows
SCHEMES = {
    "iob1": ("B", "I"),
    "iob2": ("B", "I"),
    "ioe1": ("I", "E"),
    "ioe2": ("I", "E"),
    "iobes": ("B", "I", "E", "S"),
    "bilou": ("B", "I", "L", "U"),
}


def transitions() -> list[tuple[str, str]]:
    """The tag pairs (previous, current) on which a reading or a scheme decides whether a
    chunk ends or starts: every previous tag of O, B-, I-, E-, S- (type X) before every
    current tag of B-, I-, E-, S- of the same type X and of another type Y, and BILOU's L-
    and U- in their places. ``oracle/separators/tagging.py`` makes one probe of each."""
    out = [("O", f"{p}-X") for p in "BIES"]
    out += [(f"{a}-X", f"{b}-{t}") for a in "BIES" for b in "BIES" for t in "XY"]
    return out + [("B-X", "L-X"), ("O", "U-X"), ("U-X", "U-X"), ("L-X", "I-X")]


# ------------------------------------------------------------------ inputs

def _plain_shape(fields: dict) -> bool:
    """True when every field is a list or tuple of lists or tuples of exact ``str``
    items, no tag is empty and every sentence has gold's length: the per-item checks
    of ``_shape`` would all pass. Done with C-level passes (types and distinct tags,
    not one Python step per token); on False the per-item checks run and name the
    first bad item."""
    gold = fields["gold"]
    for name, sents in fields.items():
        if type(sents) not in (list, tuple) or not set(map(type, sents)) <= _SEQUENCE_TYPES:
            return False
        if not set(map(type, chain.from_iterable(sents))) <= _STR_TYPE:
            return False
        if name != "tokens" and "" in set(chain.from_iterable(sents)):
            return False
        if name != "gold" and (len(sents) != len(gold) or list(map(len, sents)) != list(map(len, gold))):
            return False
    return True


_SEQUENCE_TYPES = {list, tuple}
_STR_TYPE = {str}


def _shape(inputs, need_tokens: bool) -> tuple[list, list, list | None, bool]:
    """(gold, pred, tokens or None) after the shape checks (a typed error naming the first
    bad item), and whether the input is plain (see ``_plain_shape``): every tag an exact
    ``str``, so the fast entity reader may look tags up in a dict."""
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with gold and pred, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - {"gold", "pred", "tokens"})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are gold, pred, tokens", item=unknown[0])
    for name in ("gold", "pred"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
    fields = {"gold": inputs["gold"], "pred": inputs["pred"]}
    if inputs.get("tokens") is not None:
        fields["tokens"] = inputs["tokens"]
    elif need_tokens:
        raise InputError("tokens: matching=pooled-type-text compares surface texts and needs the tokens field",
                         item="tokens")
    plain = _plain_shape(fields)
    for name, sents in ([] if plain else fields.items()):
        if not isinstance(sents, (list, tuple)):
            raise InputError(f"{name}: expected a list of sentences, got {type(sents).__name__}", item=name)
        for i, sent in enumerate(sents):
            if not isinstance(sent, (list, tuple)):
                what = "tags" if name != "tokens" else "tokens"
                raise InputError(f"{name}[{i}]: expected a list of {what}, got {type(sent).__name__}",
                                 item=f"{name}[{i}]")
            for j, x in enumerate(sent):
                if not isinstance(x, str):
                    raise InputError(f"{name}[{i}][{j}]: expected a string, got {type(x).__name__}",
                                     item=f"{name}[{i}][{j}]")
                if x == "" and name != "tokens":
                    raise InputError(f"{name}[{i}][{j}]: an empty tag", item=f"{name}[{i}][{j}]")
    gold = fields["gold"]
    for name in ([] if plain else [n for n in fields if n != "gold"]):
        other = fields[name]
        if len(other) != len(gold):
            raise InputError(f"{name}: {len(other)} sentences but gold has {len(gold)}", item=name)
        for i, (g, o) in enumerate(zip(gold, other)):
            if len(o) != len(g):
                what = "tags" if name != "tokens" else "tokens"
                raise InputError(f"{name}[{i}]: {len(o)} {what} but gold[{i}] has {len(g)}", item=f"{name}[{i}]")
    return list(gold), list(fields["pred"]), (list(fields["tokens"]) if "tokens" in fields else None), plain


_OUT = ("O", "")


def parse_tag(tag: str, scheme: str, fmt: str, where: str) -> tuple[str, str]:
    """(prefix, type) of a tag; ("O", "") for O. prefix-type splits at the first
    hyphen, type-prefix at the last."""
    if tag == "O":
        return _OUT
    allowed = SCHEMES[scheme]
    if "-" not in tag:
        raise InputError(f"{where}: tag {tag!r} has no prefix; scheme {scheme} writes O or "
                         f"{'/'.join(allowed)} and a type joined by '-' ({fmt})", item=where)
    if fmt == "prefix-type":
        prefix, typ = tag.split("-", 1)
    else:
        typ, prefix = tag.rsplit("-", 1)
    if prefix not in allowed:
        raise InputError(f"{where}: tag {tag!r}: prefix {prefix!r} is not one of scheme {scheme}'s prefixes "
                         f"({', '.join(allowed)}; tag format {fmt})", item=where)
    if typ == "":
        raise InputError(f"{where}: tag {tag!r} has no type", item=where)
    return prefix, typ


_BILOU_AS_IOBES = {"L": "E", "U": "S"}


def _seqeval_end(prev: tuple, cur: tuple) -> bool:
    """seqeval's end_of_chunk (conlleval.pl's endOfChunk with S and an E-then-B or S boundary):
    the chunk open at prev ends before cur."""
    pp, pt = prev
    cp, ct = cur
    if pp == "O":
        return False
    if pp in ("E", "S"):
        return True
    if cp in ("B", "S", "O"):
        return True
    return pt != ct


# the mirror image of _seqeval_end (seqeval and conlleval keep the two apart; so does this module)
def _seqeval_start(prev: tuple, cur: tuple) -> bool:
    """seqeval's start_of_chunk (conlleval.pl's startOfChunk with S added): a chunk starts at cur."""
    pp, pt = prev
    cp, ct = cur
    if cp == "O":
        return False
    if cp in ("B", "S"):
        return True
    if pp in ("E", "S", "O"):
        return True
    return pt != ct


_PERL_END = {("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O")}
_PERL_START = {("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E")}


def _read_conlleval(tags: list) -> list:
    """conlleval.pl's endOfChunk/startOfChunk as written (its tags B, I, E, O; any other
    prefix, such as S, L or U, only by the type-change rules), with O before and after."""
    chunks, start, prev = [], None, _OUT
    for i, cur in enumerate(tags + [_OUT]):
        pair = (prev[0], cur[0])
        if start is not None and (pair in _PERL_END or (prev[0] != "O" and prev[1] != cur[1])):
            chunks.append((start, i, prev[1]))
            start = None
        if pair in _PERL_START or (cur[0] != "O" and prev[1] != cur[1]):
            start = i
        prev = cur
    return chunks


def _read_seqeval(tags: list) -> list:
    chunks, start, prev = [], None, _OUT
    for i, cur in enumerate(tags + [_OUT]):
        if start is not None and _seqeval_end(prev, cur):
            chunks.append((start, i, prev[1]))
            start = None
        if _seqeval_start(prev, cur):
            start = i
        prev = cur
    return chunks


def _strict_iob2(tags: list) -> list:
    chunks, i, n = [], 0, len(tags)
    while i < n:
        prefix, typ = tags[i]
        if prefix == "B":
            j = i + 1
            while j < n and tags[j] == ("I", typ):
                j += 1
            chunks.append((i, j, typ))
            i = j
        else:
            i += 1
    return chunks


def _strict_iobes(tags: list) -> list:
    chunks, i, n = [], 0, len(tags)
    while i < n:
        prefix, typ = tags[i]
        if prefix == "S":
            chunks.append((i, i + 1, typ))
            i += 1
        elif prefix == "B":
            j = i + 1
            while j < n and tags[j] == ("I", typ):
                j += 1
            if j < n and tags[j] == ("E", typ):
                chunks.append((i, j + 1, typ))
                i = j + 1
            else:
                i = j
        else:
            i += 1
    return chunks


def _strict_iob1(tags: list) -> list:
    chunks, start, open_type = [], None, None
    for i, (prefix, typ) in enumerate(tags):
        continues_open = start is not None and open_type == typ
        if prefix == "I" and continues_open:
            continue
        if start is not None:
            chunks.append((start, i, open_type))
        start, open_type = None, None
        if prefix == "I" or (prefix == "B" and continues_open):
            start, open_type = i, typ
    if start is not None:
        chunks.append((start, len(tags), open_type))
    return chunks


def _mirrored(read, tags: list) -> list:
    """Chunks of an IOE sequence read as the IOB mirror image (reverse, E as B)."""
    n = len(tags)
    flipped = [("B", t) if p == "E" else (p, t) for p, t in reversed(tags)]
    return sorted((n - e, n - s, t) for s, e, t in read(flipped))


def read_chunks(tags: list, scheme: str, reading: str) -> list[tuple[int, int, str]]:
    """The chunks (start, end exclusive, type) of one sentence of parsed tags
    [(prefix, type), ...] under a scheme and a reading (see the module docstring)."""
    if reading == "conlleval":   # the Perl script knows nothing of BILOU's L and U either
        return _read_conlleval(tags)
    if scheme == "bilou":
        tags = [(_BILOU_AS_IOBES.get(p, p), t) for p, t in tags]
        scheme = "iobes"
    if reading == "seqeval":
        return _read_seqeval(tags)
    if scheme == "iob2":
        return _strict_iob2(tags)
    if scheme == "iobes":
        return _strict_iobes(tags)
    if scheme == "iob1":
        return _strict_iob1(tags)
    if scheme == "ioe2":
        return _mirrored(_strict_iob2, tags)
    if scheme == "ioe1":
        return _mirrored(_strict_iob1, tags)
    raise AssertionError(scheme)


def extract_entities(sentences: list, name: str, settings: dict) -> list[tuple[int, int, int, str]]:
    """All entities (sentence, start, end exclusive, type) of a corpus of tag lists."""
    out = []
    for i, sent in enumerate(sentences):
        parsed = [parse_tag(tag, settings["scheme"], settings["tag_format"], f"{name}[{i}][{j}]")
                  for j, tag in enumerate(sent)]
        out.extend((i, s, e, t) for s, e, t in read_chunks(parsed, settings["scheme"], settings["reading"]))
    return out


def _tag_info(tag: str, settings: dict, where: str) -> tuple[str, bool, bool]:
    """(type, begins, ends) of a non-O tag for the seqeval reading: ``begins`` when
    its prefix is B or S (a chunk starts here whatever precedes), ``ends`` when it is
    E or S (the chunk ends after it); bilou's L and U read as E and S."""
    prefix, typ = parse_tag(tag, settings["scheme"], settings["tag_format"], where)
    prefix = _BILOU_AS_IOBES.get(prefix, prefix) if settings["scheme"] == "bilou" else prefix
    return typ, prefix in ("B", "S"), prefix in ("E", "S")


def _extract_seqeval(sentences: list, name: str, settings: dict, info: dict) -> list[tuple[int, int, int, str]]:
    """``extract_entities`` for reading=seqeval on plain input (every tag an exact
    ``str``), the same entities in the same order and the same error for the first bad
    tag. ``info`` caches ``_tag_info`` per distinct tag (shared by gold and pred).

    Derived from ``_seqeval_end``/``_seqeval_start``: an O ends the open chunk and starts
    none, so only the non-O tokens are visited. A non-O token j with prev = O (a gap
    before it, or the sentence start) starts a chunk. With prev a non-O token the two
    rules coincide: both hold iff j begins (B, S), or prev ends (E, S), or the types
    differ; else j continues prev's chunk. So the chunk open at the last visited token
    ``last`` always ends at last + 1 (at the O after it, at the sentence end, or at a
    token starting the next chunk), and after any non-O token a chunk is open."""
    out = []
    for i, sent in enumerate(sentences):
        last, start, prev_type, prev_ends = -2, -1, None, False
        for j in compress(range(len(sent)), map(_NOT_O, sent)):
            tag = sent[j]
            try:
                typ, begins, ends = info[tag]
            except KeyError:
                typ, begins, ends = info[tag] = _tag_info(tag, settings, f"{name}[{i}][{j}]")
            if j != last + 1 or begins or prev_ends or typ != prev_type:
                if start >= 0:
                    out.append((i, start, last + 1, prev_type))
                start = j
            last, prev_type, prev_ends = j, typ, ends
        if start >= 0:
            out.append((i, start, last + 1, prev_type))
    return out


_NOT_O = "O".__ne__


def _extract_both(gold_s: list, pred_s: list, settings: dict, plain: bool) -> tuple[list, list]:
    """The entities of gold, then of pred (so a bad tag in gold is reported first):
    the fast seqeval reader on plain input, else ``extract_entities``."""
    if plain and settings["reading"] == "seqeval":
        info: dict = {}
        return (_extract_seqeval(gold_s, "gold", settings, info),
                _extract_seqeval(pred_s, "pred", settings, info))
    return extract_entities(gold_s, "gold", settings), extract_entities(pred_s, "pred", settings)
