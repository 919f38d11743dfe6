"""The ranking metrics' inputs as float-scored dictionaries, for ranx and pytrec_eval.

Both libraries take ``{query: {doc: score}}`` with float scores and
``{query: {doc: int grade}}``. A score is passed as the double nearest to its
exact value (``as_float(s)``: exact for ints below 2**53, floats and
dyadic decimals such as "2.25"). Two things cannot be passed and raise
``Skip``: two distinct exact scores of one query that round to the same
double (the adapter would create a tie the input does not have), a score
beyond the double range; and a list-form ranking that names a document twice
(a dictionary cannot hold it). An adapter whose profile declares
``score_precision=float64`` passes ``rounded=True``: the rounding is then the library's and the
oracle's alike.
"""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from conformance.protocol import Skip

from ._numbers import as_float, exact_number


def exact_score(s):
    """The exact value of a score (a text read by ``exact_number``: no exponent expanded)."""
    return exact_number(s)


def float_ranking(q, ranking, rounded: bool = False) -> dict:
    """{doc: float} of one query's ranking, in input order. ``rounded``: the library's profile
    holds the scores as doubles (``score_precision=float64``), so two scores that round to one
    double are a tie for the oracle too and are passed, not skipped."""
    if isinstance(ranking, dict):
        pairs = list(ranking.items())
    else:
        pairs = [tuple(p) for p in ranking]
        seen = set()
        for i, (d, _) in enumerate(pairs):
            if d in seen:
                raise Skip(f"run[{q!r}][{i}]: document {d!r} is listed twice; the library takes "
                           "{doc: score} and cannot receive a duplicate")
            seen.add(d)
    if all(type(s) is float for _, s in pairs):
        return dict(pairs)
    out, exact_of = {}, {}
    for d, s in pairs:
        if isinstance(s, bool):
            out[d] = s   # not a score: as given, the library's to refuse
            continue
        try:
            x = Fraction(s) if type(s) is float else exact_score(s)
        except (ValueError, TypeError, ArithmeticError):
            # NaN, an infinity, or no number the adapter can read ('1/0', None, [1]): passed
            # as given, the library's to refuse (an exception of the adapter's own would be
            # taken for the library's refusal)
            out[d] = s
            continue
        if isinstance(x, Decimal) and not x.is_finite():
            out[d] = float(x)   # a NaN or infinite Decimal or text: the double a user would pass
            continue
        f = s if type(s) is float else as_float(x)
        if math.isinf(f) and not (isinstance(x, Decimal) and x.is_infinite()):
            raise Skip(f"run[{q!r}][{d!r}]: score {s!r} is beyond the double range")
        prev = exact_of.setdefault(f, x)
        if prev != x and not rounded:
            raise Skip(f"run[{q!r}][{d!r}]: score {s!r} and another score of the query, {prev}, "
                       f"round to the same double {f!r}")
        out[d] = f
    return out


def float_run(inputs, rounded: bool = False) -> dict:
    return {q: float_ranking(q, r, rounded) for q, r in inputs["run"].items()}


def int_qrels(inputs) -> dict:
    """The grades as given: ints on every input the spec accepts; a text, float or bool grade
    reaches the library unchanged, the library's to refuse (``int()`` here made '1', 1.0 and
    True the grade 1 before any library saw them)."""
    return {q: dict(judged) for q, judged in inputs["qrels"].items()}


def cut(settings) -> int | None:
    """The cutoff as an int, or None for the whole ranking."""
    k = settings.get("k", "none")
    return None if k == "none" else int(k)
