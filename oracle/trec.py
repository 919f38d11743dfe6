"""Readers (and writers) for TREC qrels and run files, and for the JSON input form.

Formats (trec_eval's get_qrels.c and get_trec_results.c):
- qrels: ``qid iter docno rel`` per line, exactly four whitespace-separated
  fields; iter is ignored; rel is an integer (negative allowed).
- run: ``qid Q0 docno rank score tag`` per line, exactly six fields; Q0,
  rank and tag are ignored (trec_eval ranks by score, then docno); the score
  is a number, kept as its text so the oracle reads it exactly ("0.1" is
  1/10), or converted with ``float()`` (``scores="float"``, what trec_eval's
  ``atof`` does).
- blank lines and lines whose first non-blank character is ``#`` are skipped,
  whatever their number of fields (trec_eval 9.0.8: get_trec_results.c skips
  blanks, then a line at ``#``; get_qrels.c te_get_qrels skips a line whose very
  first character is ``#``, ``if (*ptr == '#') ptr = index(ptr, '\n') + 1;``, so
  an indented ``#`` line is a comment here and a query named ``#`` there); a UTF-8 byte-order
  mark at the start of a file is stripped (every reader of this project does so:
  left in, it would become part of the first query id).
- JSON: ``{"qrels": {...}, "run": {...}}`` as the ranking metrics take it.

Differences from trec_eval, on purpose: trec_eval reads a run line with more
than six fields (ignores the rest) and takes any text as a score or grade
(``atof``/``atol`` give 0 for "abc"); these readers reject both, naming the
file and line. trec_eval stops at a blank qrels line; these readers skip it.

Duplicates: a qrels file listing a (query, document) pair twice is an error
(trec_eval: "duplicate docs"). A run listing a document twice for a query is
an error by default (trec_eval: "duplicate docs"); ``duplicates="first"``
keeps the first line, ``"max"`` the line with the highest score, ``"keep"``
returns every line as a list of [docno, score] pairs per query (the ranking
metrics then apply their own ``duplicates`` knob).

Errors are ``TrecFormatError(path, line, message)`` (an ``InputError``).
Only the standard library is used; a line is read with one ``str.split()``.
"""
from __future__ import annotations

from array import array

import json
import math
import re
from decimal import Decimal
from fractions import Fraction

from .conventions import InputError
from .gcpause import paused_gc

__all__ = ["TrecFormatError", "ScoreTexts", "read_qrels", "read_run", "read_json", "write_qrels", "write_run",
           "truncate_run"]

class ScoreTexts(dict):
    """One query's ranking as ``read_run`` returns it: a dict {docno: score text}
    that also remembers ``float(text)`` of each score, computed once when its block
    was read and checked (finite, no "_"), so that the ranking metrics need not
    convert the texts again for every measure. The floats are only the primary
    sort key (exact values still decide between texts that round to the same
    float). Any change to the dict drops them; a copy is a plain dict."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._floats = None

    def floats(self):
        """{docno: float(text)} when still valid, else None (built on each call from the
        floats kept in an array in the dict's order: 8 bytes a line held, not a second
        dict of float objects)."""
        return None if self._floats is None else dict(zip(self, self._floats))

    def _drop(self):
        self._floats = None

    def __setitem__(self, key, value):
        self._drop()
        super().__setitem__(key, value)

    def __delitem__(self, key):
        self._drop()
        super().__delitem__(key)

    def __ior__(self, other):
        self._drop()
        return super().__ior__(other)

    def clear(self):
        self._drop()
        super().clear()

    def pop(self, *args):
        self._drop()
        return super().pop(*args)

    def popitem(self):
        self._drop()
        return super().popitem()

    def setdefault(self, key, default=None):
        self._drop()
        return super().setdefault(key, default)

    def update(self, *args, **kwargs):
        self._drop()
        super().update(*args, **kwargs)


class TrecFormatError(InputError):
    """A malformed line of a TREC or JSON file; names the file and the line."""

    def __init__(self, path, line: int | None, message: str):
        self.path, self.line = str(path), line
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}", item=where)


def _open(path):
    from .input_checks import device_kind
    kind = device_kind(path)
    if kind:
        raise TrecFormatError(path, None, f"{kind}, not a file: not read (it may never end)")
    try:
        return open(path, "r", encoding="utf-8-sig", newline=None)
    except OSError as e:
        raise TrecFormatError(path, None, f"cannot read: {e.strerror}") from None


def _lines(path):
    """(line number, line) pairs; a decoding error is reported at its line."""
    f = _open(path)
    lineno = 0
    try:
        with f:
            for line in f:
                lineno += 1
                yield lineno, line
    except UnicodeDecodeError as e:
        # the text layer decodes a block of lines at a time: the line is found again in bytes
        raise TrecFormatError(path, _undecodable_line(path) or lineno + 1, f"not UTF-8 text ({e.reason})") from None


def _undecodable_line(path) -> int | None:
    """The number of the first line of ``path`` that is not UTF-8, or None."""
    try:
        with open(path, "rb") as f:
            for n, raw in enumerate(f, 1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError:
                    return n
    except OSError:
        return None
    return None


def _parse_grade(text: str):
    if not text.isascii() or "_" in text:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def read_qrels(path) -> dict:
    """{qid: {docno: grade}} from a qrels file ``qid iter docno rel``."""
    qrels: dict = {}
    first_line: dict = {}
    last_q, cur = None, None
    for lineno, line in _lines(path):
        parts = line.split()
        if not parts or parts[0].startswith("#"):  # a comment, whatever its fields (trec_eval)
            continue
        if len(parts) != 4:
            raise TrecFormatError(path, lineno, f"expected 4 fields 'qid iter docno rel', found {len(parts)}")
        q, _, d, rel = parts
        if q != last_q:
            cur = qrels.get(q)
            if cur is None:
                qrels[q] = cur = {}
            last_q = q
        g = _parse_grade(rel)
        if g is None:
            raise TrecFormatError(path, lineno, f"relevance {rel!r} is not an integer")
        if d in cur:
            prev = first_line.get((q, d), "?")
            raise TrecFormatError(path, lineno, f"duplicate judgement of document {d!r} for query {q!r} "
                                                f"(first at line {prev})")
        cur[d] = g
        first_line[(q, d)] = lineno
    return qrels


# the largest decimal exponent a score is read with exactly: 10**4000 is far beyond the
# double range (10**308) and still a small Fraction; beyond it, an InputError (expanding
# 1e999999999 into an integer of a billion digits would never finish)
MAX_SCORE_EXPONENT = 4000
MAX_SCORE_TEXT = 4000   # characters: Python reads at most 4,300 digits of an integer from text
_EXPONENT = re.compile(r"[eE]([+-]?\d+)\s*$")


def _exponent_ok(s) -> bool:
    """Whether a score's decimal exponent is within MAX_SCORE_EXPONENT (a text or a Decimal)
    and a score text within MAX_SCORE_TEXT characters."""
    if isinstance(s, Decimal):
        return abs(s.adjusted()) <= MAX_SCORE_EXPONENT and len(s.as_tuple().digits) <= MAX_SCORE_TEXT
    if len(s) > MAX_SCORE_TEXT:
        return False
    m = _EXPONENT.search(s)
    return m is None or len(m.group(1)) <= 6 and abs(int(m.group(1))) <= MAX_SCORE_EXPONENT


def _beyond(s) -> str:
    """Why a score is not read exactly (it failed _exponent_ok)."""
    if isinstance(s, str) and len(s) > MAX_SCORE_TEXT:
        return f"is a text of {len(s)} characters, beyond {MAX_SCORE_TEXT}, which is not read exactly"
    return f"has a decimal exponent beyond +-{MAX_SCORE_EXPONENT}, which is not read exactly"


def _score_value(text: str, as_float: bool):
    """The score as text (validated) or as a float; None when it is not a finite number
    (written in ASCII: Python's float() reads '１.0', fullwidth, as 1.0, trec_eval's atof
    as 0)."""
    if not text.isascii():
        return None
    try:
        f = float(text)
    except ValueError:
        return None
    if not _exponent_ok(text):
        return None
    if f - f != 0 or "_" in text:  # nan, inf, or a huge exact number that overflows a float
        if "_" in text:
            return None
        try:
            Fraction(text)
        except (ValueError, ZeroDivisionError):
            return None
        return None if as_float else text
    return f if as_float else text


def read_run(path, duplicates: str = "error", scores: str = "text") -> dict:
    """{qid: {docno: score}} from a run file ``qid Q0 docno rank score tag``.

    ``scores``: "text" keeps each score's text (exact), "float" converts it with
    float(). ``duplicates``: "error", "first", "max" or "keep" (lists of pairs).
    Documents stay in file order (the input order of the ranking metrics).
    Each line is read with one ``str.split()``; lines are gathered per block of
    one query and checked per block (scores through one ``map(float, ...)``,
    duplicates by the size of the block's dict); only a failing block is examined
    line by line. Under scores="text" a query's ranking is a ``ScoreTexts`` dict,
    which keeps the floats of its checked block for the ranking metrics."""
    if duplicates not in ("error", "first", "max", "keep"):
        raise ValueError(f"duplicates: {duplicates!r} is not one of error, first, max, keep")
    if scores not in ("text", "float"):
        raise ValueError(f"scores: {scores!r} is not one of text, float")
    as_float = scores == "float"
    run: dict = {}
    out_of_memory = None
    blocks = _blocks(path)
    try:
        for q, docs, vals in blocks:
            _add_block(path, run, q, docs, vals, as_float, duplicates)
    except MemoryError:  # raised below, once the frames that hold the partial run are gone
        out_of_memory = (len(run), blocks.last)
    if out_of_memory:
        run = docs = vals = blocks = None
        raise TrecFormatError(path, None, _out_of_memory(*out_of_memory))
    return run


class _blocks:
    """The run file's blocks of consecutive lines of one query, as (qid, [docno], [score
    text]), comment lines skipped; each line read with one ``str.split()`` (the hot loop of
    every run reader). ``last`` is the query of the block being read."""

    def __init__(self, path):
        self.path, self.last = path, None

    def __iter__(self):
        path = self.path
        q_cur, docs, vals = None, [], []
        add_doc, add_val = docs.append, vals.append
        f = _open(path)
        try:
            with f, paused_gc():  # millions of strings and 7,000 dicts, no cycles (see oracle.gcpause)
                for line in f:
                    try:
                        q, _, d, _, sc, _ = line.split()
                    except ValueError:
                        parts = line.split()
                        if not parts or parts[0].startswith("#"):
                            continue
                        lineno = _locate_malformed(path, 6)
                        raise TrecFormatError(path, lineno, f"expected 6 fields 'qid Q0 docno rank score tag', "
                                                            f"found {len(parts)}") from None
                    if q != q_cur:
                        if q_cur is not None and not q_cur.startswith("#"):
                            yield q_cur, docs, vals
                        q_cur, docs, vals = q, [], []
                        add_doc, add_val = docs.append, vals.append
                        self.last = q
                    add_doc(d)
                    add_val(sc)
            if q_cur is not None and not q_cur.startswith("#"):
                yield q_cur, docs, vals
        except UnicodeDecodeError as e:
            raise TrecFormatError(path, _undecodable_line(path), f"not UTF-8 text ({e.reason})") from None


def _out_of_memory(queries: int, last) -> str:
    """The message of a run too large for the memory this process may use (naming the limit)."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        limit = "unlimited" if soft == resource.RLIM_INFINITY else f"{soft // 2**20} MB"
    except (ImportError, OSError, ValueError):
        limit = "unknown"
    return (f"the run does not fit in memory: {queries} queries were read (the last {last!r}) when "
            f"memory ran out (address-space limit: {limit}); it holds about 200 bytes per line")


def _add_block(path, run: dict, q: str, docs: list, vals: list, as_float: bool, duplicates: str) -> None:
    """Add one query's consecutive lines to ``run``."""
    try:
        fv = list(map(float, vals))
        joined = "".join(vals)
        ok = math.isfinite(sum(fv)) and joined.isascii() and "_" not in joined and max(map(len, vals)) <= MAX_SCORE_TEXT and (
            ("e" not in joined and "E" not in joined) or all(map(_exponent_ok, vals)))
    except ValueError:
        ok = False
    if not ok:
        fv = []
        for d, s in zip(docs, vals):
            v = _score_value(s, True)
            if v is None and _score_value(s, as_float) is None:
                why = ("is not written in ASCII (trec_eval's atof reads no other digits)" if not s.isascii()
                       else "is not a finite number" if _exponent_ok(s) else _beyond(s))
                shown = s if len(s) <= 60 else s[:40] + "..."
                raise TrecFormatError(path, _locate(path, q, d, s), f"score {shown!r} {why}")
            fv.append(v)
    values = fv if as_float else vals
    if duplicates == "keep":
        run.setdefault(q, []).extend([d, v] for d, v in zip(docs, values))
        return
    block = dict(zip(docs, values)) if as_float or not ok else ScoreTexts(zip(docs, values))
    if len(block) == len(docs) and q not in run:
        if not as_float and ok:
            block._floats = array("d", fv)
        run[q] = block
        return
    cur = run.setdefault(q, {})
    for d, v in zip(docs, values):
        if d in cur:
            if duplicates == "error":
                first = _locate(path, q, d)
                raise TrecFormatError(path, _locate(path, q, d, nth=2),
                                      f"duplicate document {d!r} for query {q!r} (first at line {first})")
            if duplicates == "max" and _exact(v) > _exact(cur[d]):
                del cur[d]
                cur[d] = v
            continue
        cur[d] = v


def _exact(v) -> Fraction:
    return Fraction(v) if isinstance(v, float) else Fraction(v.strip())


def _locate_malformed(path, fields: int) -> int | None:
    """Line of the first non-blank, non-comment line without ``fields`` fields: errors only."""
    with _open(path) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if parts and not parts[0].startswith("#") and len(parts) != fields:
                return lineno
    return None


def _locate(path, q: str, d: str, score: str | None = None, nth: int = 1) -> int | None:
    """Line of the nth run line for (q, d) (with that score text, if given): errors only."""
    seen = 0
    with _open(path) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) == 6 and parts[0] == q and parts[2] == d and (score is None or parts[4] == score):
                seen += 1
                if seen == nth:
                    return lineno
    return None


def read_json(path) -> dict:
    """{"qrels": ..., "run": ...} from a JSON file (checked by the metrics themselves)."""
    f = _open(path)
    try:
        with f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise TrecFormatError(path, e.lineno, f"column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise TrecFormatError(path, None, "JSON nested too deeply") from None
    except UnicodeDecodeError as e:
        raise TrecFormatError(path, None, f"not UTF-8 text ({e.reason})") from None
    if not isinstance(data, dict) or not {"qrels", "run"} <= set(data):
        raise TrecFormatError(path, 1, "expected an object with 'qrels' and 'run'")
    return data


def _score_text(v) -> str:
    if isinstance(v, bool):
        raise ValueError(f"score {v!r} is not a number")
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"score {v!r} is not finite")
        return repr(v)
    if isinstance(v, (int, str)):
        return str(v)
    q = Fraction(v)
    d = q.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        raise ValueError(f"score {q} has no finite decimal form")
    digits = 0
    while (q * 10 ** digits).denominator != 1:
        digits += 1
    n = q * 10 ** digits
    sign = "-" if n < 0 else ""
    body = str(abs(n.numerator)).rjust(digits + 1, "0")
    return sign + (body if not digits else f"{body[:-digits]}.{body[-digits:]}")


def write_qrels(path, qrels: dict) -> None:
    """Write {qid: {docno: grade}} as a qrels file."""
    with open(path, "w", encoding="utf-8") as f:
        for q, judged in qrels.items():
            for d, g in judged.items():
                f.write(f"{q} 0 {d} {int(g)}\n")


def write_run(path, run: dict, tag: str = "oracle") -> None:
    """Write {qid: {docno: score}} (or lists of pairs) as a run file, in the given
    order, rank = position; floats as repr (they read back to the same float)."""
    with open(path, "w", encoding="utf-8") as f:
        for q, ranking in run.items():
            pairs = ranking.items() if isinstance(ranking, dict) else ranking
            for i, (d, s) in enumerate(pairs, start=1):
                f.write(f"{q} Q0 {d} {i} {_score_text(s)} {tag}\n")


def truncate_run(run: dict, depth: int) -> dict:
    """trec_eval ``-M depth``: each query keeps the first ``depth`` documents of its ranking in
    trec_eval's order (score descending, then docno descending: get_trec_results.c sorts by
    sim, then docno), scores compared exactly. Rankings given as [doc, score] lists keep
    their first ``depth`` pairs in that order as well."""
    if depth < 1:
        raise ValueError(f"-M {depth}: the depth must be at least 1")
    out = {}
    for q, ranking in run.items():
        pairs = ranking.items() if isinstance(ranking, dict) else [tuple(p) for p in ranking]
        order = sorted(pairs, key=lambda ds: (_exact(ds[1]) if isinstance(ds[1], (str, float)) else Fraction(ds[1]),
                                              ds[0]), reverse=True)
        kept = order[:depth]
        out[q] = dict(kept) if isinstance(ranking, dict) else [list(p) for p in kept]
    return out



def judged_only(run: dict, qrels: dict) -> dict:
    """trec_eval ``-J``: each query's ranking keeps only the documents its qrels judge
    (grade >= 0; form_res_rels.c keeps ``docno_info[i].rel >= 0`` and ranks them in their
    original order, so ties keep their docno order). A document the qrels list with a
    negative grade is in the pool but unjudged, and is dropped too."""
    out = {}
    for q, ranking in run.items():
        judged = qrels.get(q, {})
        keep = [(d, s) for d, s in (ranking.items() if isinstance(ranking, dict) else ranking)
                if judged.get(d, -1) >= 0]
        out[q] = dict(keep) if isinstance(ranking, dict) else [list(p) for p in keep]
    return out
