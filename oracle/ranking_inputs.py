"""Ranking inputs: qrels and runs checked, scores read exactly (see ``oracle.ranking``'s
docstring for the input forms and the ``duplicates`` knob)."""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from decimal import Decimal
from fractions import Fraction
from itertools import compress, repeat
from operator import countOf, sub

from .conventions import InputError
from .trec import MAX_SCORE_TEXT, ScoreTexts, _beyond, _exponent_ok


# ------------------------------------------------------------- validation


def _where(q, d) -> str:
    return f"run[{q!r}][{d!r}]"


def _bad_score(where: str, s) -> InputError:
    if isinstance(s, float) or isinstance(s, Decimal):
        return InputError(f"{where}: score {s!r} is not a finite number", item=where)
    if isinstance(s, str):
        return InputError(f"{where}: score {s!r} is not a finite number (write '0.25', '1/3', '-2')", item=where)
    return InputError(f"{where}: expected a number or a numeric string as score, got {type(s).__name__}",
                      item=where)


def _too_large(where: str, s) -> InputError:
    shown = s if not isinstance(s, str) or len(s) <= 60 else s[:40] + "..."
    return InputError(f"{where}: score {shown!r} {_beyond(s)}", item=where)


def _exact(s) -> Fraction:
    """The exact value of a validated score."""
    if isinstance(s, str):
        return Fraction(s.strip())
    return Fraction(s)


def _check_score(s, where: str) -> None:
    """Raise InputError unless s is a finite number or an exact numeric string."""
    t = type(s)
    if t is float:
        if not math.isfinite(s):
            raise _bad_score(where, s)
        return
    if isinstance(s, Decimal):
        if not s.is_finite():
            raise _bad_score(where, s)
        if not _exponent_ok(s):
            raise _too_large(where, s)
        return
    if t is int or isinstance(s, Fraction):
        return
    if isinstance(s, str):
        if "_" in s or not s.isascii():   # Python's float() reads '1_0' and fullwidth '１'; atof does not
            raise _bad_score(where, s)
        if not _exponent_ok(s):
            raise _too_large(where, s)
        try:
            if math.isfinite(float(s)):
                return
        except ValueError:
            pass
        try:
            Fraction(s.strip())  # '1/3', or a decimal too large for a float
        except (ValueError, ZeroDivisionError):
            raise _bad_score(where, s) from None
        return
    raise _bad_score(where, s)


def _rounded(s) -> float:
    """A primary sort key: the float nearest to the score (+-inf beyond the float
    range). Rounding is monotone, so it never inverts an order; documents whose
    keys are equal are then told apart by their exact values."""
    if isinstance(s, str):
        try:
            return float(s)
        except ValueError:  # '1/3'
            s = Fraction(s.strip())
    try:
        return float(s)
    except OverflowError:
        return math.inf if s > 0 else -math.inf


_NUMPY_TABLE = 32   # judged documents from which a table is searched by NumPy (its calls cost more
                    # than bisection on a few: MS MARCO's one or two judged documents a query)


class _Ranking:
    """One query's ranking: docs in input order with their scores, sort keys and
    (for non-float scores) exact values on demand."""

    __slots__ = ("scores", "keys", "rounded", "_asc", "_table", "_tied", "_sorted", "_floats", "_array", "_distinct",
                 "_docs")

    def __init__(self, scores: dict, keys: dict, rounded: bool, floats: bool | None = None):
        """``floats``: every key is a Python float (None: not known yet)."""
        self.scores, self.keys, self.rounded, self._asc, self._table = scores, keys, rounded, None, None
        self._tied = self._sorted = self._array = self._distinct = self._docs = None
        self._floats = floats

    def _keys_array(self):
        """(the keys in input order, the keys ascending) as float64 arrays, made by NumPy
        when every key is a Python float (keys read from decimal texts are; an int key
        may lie beyond the double range or its exactness), else None."""
        if self._array is None:
            vals = self.keys.values()
            if self._floats is None:
                self._floats = bool(vals) and set(map(type, vals)) == {float}
            if not self._floats:
                self._array = False
                return None
            import numpy as np
            arr = np.fromiter(vals, np.float64, len(self.keys))
            self._array = (arr, np.sort(arr))
        return self._array or None

    def _float_order(self):
        """The input positions stably sorted by key (NumPy's stable argsort of the float
        keys: ``sorted(range(n), key=keys)``, ties in their input order), or None when
        the keys are not all floats."""
        if self._sorted is None:
            ka = self._keys_array()
            if ka is None:
                self._sorted = False
            else:
                import numpy as np
                self._sorted = np.argsort(ka[0], kind="stable")
        return None if self._sorted is False else self._sorted

    def sharing(self, key) -> list:
        """The documents whose sort key is ``key``, in input order: a slice of the input
        positions stably sorted by key (made once per ranking, when a tie is first asked
        for), found by bisection in ``asc``."""
        if self._tied is None:
            order = self._float_order()
            if order is not None:
                order = order.tolist()
            else:
                vals = list(self.keys.values())
                order = sorted(range(len(vals)), key=vals.__getitem__)
            self._tied = (self._docs or list(self.keys), order)
        docs, order = self._tied
        asc = self.asc
        return list(map(docs.__getitem__, order[bisect_left(asc, key):bisect_right(asc, key)]))

    def sharing_each(self, keys: set) -> dict:
        """{key: ``sharing(key)``} for a few keys: where the keys are floats, the documents
        of those keys found by NumPy's exact comparison with each (no stable sort of the
        whole ranking, which ``sharing`` makes once for many keys)."""
        ka = self._keys_array() if len(keys) <= 32 else None
        if ka is None or self._tied is not None:
            return {k: self.sharing(k) for k in keys}
        import numpy as np
        arr = ka[0]
        if len(keys) <= 12:   # one vectorised comparison per key (a search of few keys mispredicts)
            it = iter(keys)
            hit = arr == next(it)
            for k in it:
                hit |= arr == k
            pos = np.flatnonzero(hit)
        else:
            wanted = np.fromiter(sorted(keys), np.float64, len(keys))
            at = np.searchsorted(wanted, arr)     # each key's place among the wanted ones
            np.minimum(at, len(keys) - 1, out=at)
            pos = np.flatnonzero(wanted[at] == arr)
        docs = self._docs or list(self.keys)
        out: dict = {}
        for p, k in zip(pos.tolist(), arr[pos].tolist()):   # input order
            group = out.get(k)
            if group is None:
                out[k] = [docs[p]]
            else:
                group.append(docs[p])
        return out

    @property
    def asc(self) -> list:
        if self._asc is None:
            ka = self._array   # NumPy's sort when a table or a tie made it already
            self._asc = ka[1].tolist() if ka else sorted(self.keys.values())
        return self._asc

    def table(self, judged: dict) -> tuple[list, list, list | None, list]:
        """(docs, ranks, sizes, grades) of the judged documents this ranking holds, in
        the order of ``judged``: rank = 1 + the number of documents with a larger sort
        key, size = the number of documents sharing the key (sizes None: no two keys
        of the ranking are equal, every size is 1), grade = the judgement. A document of size 1 is
        untied: the rounded order is the exact order there (rounding is monotone) and
        its rank is its rank under every tie rule. Kept for the last ``judged`` asked,
        so the measures of one ``compute_many`` find it once. Float keys are searched
        by NumPy (``searchsorted`` on the sorted keys: the same counts as bisection)."""
        kept = self._table
        if kept is not None and kept[0] is judged:
            return kept[1]
        keys = self.keys
        held = list(map(keys.__contains__, judged))
        docs, grades = list(compress(judged, held)), list(compress(judged.values(), held))
        n = len(docs)
        ka = self._keys_array() if n >= _NUMPY_TABLE else None
        if ka is not None:
            import numpy as np
            asc = ka[1]
            ss = np.fromiter(map(keys.__getitem__, docs), np.float64, n)
            his = asc.searchsorted(ss, "right")
            if self._distinct is None:   # no two keys equal: every size is 1 (one search, not two)
                self._distinct = not (asc[1:] == asc[:-1]).any()
            sizes = None if self._distinct else (his - asc.searchsorted(ss, "left")).tolist()
            out = (docs, (len(keys) + 1 - his).tolist(), sizes, grades)
        else:
            asc = self.asc
            ss = list(map(keys.__getitem__, docs))
            his = list(map(bisect_right, repeat(asc, n), ss))
            sizes = list(map(sub, his, map(bisect_left, repeat(asc, n), ss)))
            out = (docs, list(map(sub, repeat(len(keys) + 1, n), his)), sizes, grades)
        self._table = (judged, out)
        return out


def _prepare_ranking(q, ranking, dup: str, judged: dict | None = None) -> _Ranking:
    """``judged``: q's judgements in the qrels (from ``_NUMPY_TABLE`` of them on, a ranking
    of floats gets its NumPy arrays and its table of judged documents (``_Ranking.table``)
    here, while its scores and documents are in the processor's cache: made later, for a
    TREC-DL-sized run, the same lookups and searches took twice as long)."""
    if type(ranking) is ScoreTexts:
        floats = ranking.floats()
        if floats is not None:  # read from a run file and checked there: decimal texts, finite floats
            return _Ranking(ranking, floats, True, True)
    if isinstance(ranking, dict):
        docs = list(ranking)
        try:
            "".join(docs)   # every document id a string (one C-level pass)
        except TypeError:
            d = next(d for d in ranking if not isinstance(d, str))
            raise InputError(f"run[{q!r}]: document id {d!r} is not a string", item=f"run[{q!r}]") from None
        scores = ranking
        vals = ranking.values()
        if countOf(map(type, vals), float) == len(ranking) and ranking:
            # every score a Python float (one C-level pass, no set); a ranking searched by
            # NumPy (``_Ranking.table``) gets its array now, which checks finiteness too
            rk = _Ranking(ranking, ranking, False, True)
            if judged is not None and len(judged) >= _NUMPY_TABLE:
                import numpy as np
                if np.isfinite(rk._keys_array()[0]).all():
                    rk._docs = docs   # the list join made (a tie's group reads documents by position)
                    rk.table(judged)
                    return rk
            elif math.isfinite(sum(vals)):
                return rk
            for d, s in ranking.items():
                if not math.isfinite(s):
                    raise _bad_score(_where(q, d), s)
            return rk   # finite scores whose sum overflowed
        types = set(map(type, vals))
        if types <= {float, int}:
            try:
                ok = math.isfinite(sum(ranking.values())) if float in types else True
            except OverflowError:
                ok = False
            if not ok:
                for d, s in ranking.items():
                    if type(s) is float and not math.isfinite(s):
                        raise _bad_score(_where(q, d), s)
            return _Ranking(ranking, ranking, False, types == {float})
        if types == {str}:
            # decimal text: one map(float) checks the whole ranking; exact values only for ties
            texts = list(ranking.values())
            try:
                rounded = list(map(float, texts))
                joined = "".join(texts)
                ok = math.isfinite(sum(rounded)) and joined.isascii() and "_" not in joined and \
                    max(map(len, texts)) <= MAX_SCORE_TEXT and (
                    ("e" not in joined and "E" not in joined) or all(map(_exponent_ok, texts)))
            except (ValueError, OverflowError):
                ok = False
            if ok:
                return _Ranking(ranking, dict(zip(ranking, rounded)), True, True)
        for d, s in ranking.items():
            _check_score(s, _where(q, d))
    elif isinstance(ranking, (list, tuple)):
        scores = _dedupe(q, ranking, dup)
    else:
        raise InputError(f"run[{q!r}]: expected an object {{document: score}} or a list of [document, score] "
                         f"pairs, got {type(ranking).__name__}", item=f"run[{q!r}]")
    types = set(map(type, scores.values()))
    if types <= {float, int}:
        return _Ranking(scores, scores, False)
    return _Ranking(scores, {d: _rounded(s) for d, s in scores.items()}, True)


def _dedupe(q, pairs, dup: str) -> dict:
    kept: dict = {}
    for i, item in enumerate(pairs):
        where = f"run[{q!r}][{i}]"
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise InputError(f"{where}: expected a [document, score] pair, got {item!r}", item=where)
        d, s = item
        if not isinstance(d, str):
            raise InputError(f"{where}: document id {d!r} is not a string", item=where)
        _check_score(s, where)
        if d in kept:
            j, prev = kept[d]
            if dup == "error":
                raise InputError(f"{where}: duplicate document {d!r} (also at run[{q!r}][{j}])", item=where)
            if dup == "max" and _exact(s) > _exact(prev):
                kept[d] = (i, s)
            continue
        kept[d] = (i, s)
    return {d: s for d, (i, s) in sorted(kept.items(), key=lambda kv: kv[1][0])}


def _check_qrels(qrels) -> None:
    if not isinstance(qrels, dict):
        raise InputError(f"qrels: expected an object {{query: {{document: grade}}}}, got {type(qrels).__name__}",
                         item="qrels")
    for q, judged in qrels.items():
        if not isinstance(q, str):
            raise InputError(f"qrels: query id {q!r} is not a string", item="qrels")
        if not isinstance(judged, dict):
            raise InputError(f"qrels[{q!r}]: expected an object {{document: grade}}, got {type(judged).__name__}",
                             item=f"qrels[{q!r}]")
        if countOf(map(type, judged), str) != len(judged):
            d = next(d for d in judged if type(d) is not str)
            raise InputError(f"qrels[{q!r}]: document id {d!r} is not a string", item=f"qrels[{q!r}]")
        if countOf(map(type, judged.values()), int) != len(judged):
            d, g = next((d, g) for d, g in judged.items() if type(g) is not int)
            where = f"qrels[{q!r}][{d!r}]"
            raise InputError(f"{where}: expected an integer grade, got {type(g).__name__} {g!r}", item=where)


def held(prepared: dict, precision: str) -> dict:
    """The checked rankings with every score replaced by the value ``precision`` holds
    (``score_precision``): "exact" leaves them; "float64" takes the double nearest each
    score; "float32" the float32 nearest that double (+-inf beyond float32's range). Ties
    the rounding creates are then settled by the tie rule like any other."""
    if precision == "exact":
        return prepared
    import numpy as np
    out = {}
    with np.errstate(over="ignore"):
        for q, r in prepared.items():
            if r.rounded:   # the keys are the nearest doubles already (exact values are kept for ties)
                doubles = {d: float(r.keys[d]) for d in r.scores}
            else:           # floats and ints (an int beyond the double range is +-inf)
                doubles = {d: _rounded(s) for d, s in r.scores.items()}
            if precision == "float32":
                doubles = {d: float(np.float32(x)) for d, x in doubles.items()}
            out[q] = _Ranking(doubles, doubles, False)
    return out


def _check_inputs(inputs, dup: str, precision: str = "exact"):
    """(qrels, {query: prepared ranking}) checked, the scores as ``precision`` holds them."""
    qrels, prepared = _check_exact(inputs, dup)
    return qrels, held(prepared, precision)


def _check_exact(inputs, dup: str):
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with qrels and run, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - {"qrels", "run"})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are qrels, run", item=unknown[0])
    for name in ("qrels", "run"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
    qrels, run = inputs["qrels"], inputs["run"]
    _check_qrels(qrels)
    if not isinstance(run, dict):
        raise InputError(f"run: expected an object {{query: {{document: score}}}}, got {type(run).__name__}",
                         item="run")
    prepared = {}
    for q, ranking in run.items():
        if not isinstance(q, str):
            raise InputError(f"run: query id {q!r} is not a string", item="run")
        prepared[q] = _prepare_ranking(q, ranking, dup, qrels.get(q))
    return qrels, prepared
