"""Python inputs as the tensors a torch user builds from them, or ``Skip`` where no tensor
keeps the input as written.

A tensor has one dtype: ``torch.tensor([1, True])`` is int64 ``[1, 1]``,
``torch.tensor([0.5, True])`` float32 ``[0.5, 1.0]``, and a text, a ``Decimal`` or ``None``
is no element at all. A bad-input row whose degenerate item is such an element (a bool
among int labels, a text where a list of labels belongs, a bool probability, a grade
written as text) has no tensor that still holds it: the torch adapters (torchmetrics, its
stateful classes, torcheval) raise ``Skip`` naming the item instead of passing a coerced
tensor, on which the library would be judged on another input than the row's. Elements a
tensor does hold as written (a float where an index belongs, NaN, inf, a bool tensor) are
passed as ``torch.tensor`` makes them, for the library to refuse or not."""
from __future__ import annotations

from conformance.protocol import Skip


def leaves(value, path: str):
    """(path, element) of every element of nested lists, ``path`` as ``field[i][j]``."""
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def one_dtype(field: str, value, *, numbers_only: bool = True) -> str | None:
    """The kind of the elements of ``value`` (``"bool"``, ``"int"``, ``"float"``, ``"text"``,
    or None when there is none) after checking that a tensor holds them as written: ``Skip``
    for a text where a list belongs, an element that is no number (with ``numbers_only``;
    the classification adapters number text labels themselves), and a bool beside numbers
    (one dtype would read it as 0 or 1). ints beside floats are one float tensor, as
    ``torch.tensor`` makes them."""
    if isinstance(value, (str, bytes)):
        raise Skip(f"{field}: a text where a list belongs; no tensor holds it (torch.tensor refuses a str)")
    kinds = set()
    for path, v in leaves(value, field):
        if hasattr(v, "item") and hasattr(v, "dtype"):   # a NumPy or torch scalar
            v = v.item()
        if isinstance(v, bool):
            kinds.add("bool")
        elif isinstance(v, int):
            kinds.add("int")
        elif isinstance(v, float):
            kinds.add("float")
        elif isinstance(v, str) and not numbers_only:
            kinds.add("text")
        else:
            raise Skip(f"{path}: {type(v).__name__} {v!r} is no tensor element (a tensor holds bools, ints and "
                       "floats)")
        if "bool" in kinds and len(kinds) > 1:
            raise Skip(f"{path}: a bool beside numbers; a tensor has one dtype and would read it as 0 or 1")
    if "text" in kinds:
        return "text"
    return "float" if "float" in kinds else next(iter(kinds), None)


def document_ids(inputs) -> None:
    """torch's retrieval metrics take rows of (score, target, query index), never document
    ids: a run or qrels whose document id is not a text (a number, None) has nothing the
    library would see, and ``Skip`` says so."""
    run = inputs.get("run") or {}
    for q, ranking in run.items():
        docs = [r[0] if isinstance(r, (list, tuple)) and r else r for r in ranking] if isinstance(ranking, list) \
            else list(ranking) if isinstance(ranking, dict) else []
        for d in docs:
            if not isinstance(d, str):
                raise Skip(f"run[{q!r}]: document id {d!r} is not a text, and torch's retrieval rows carry no "
                           "document ids for the library to refuse")


def grades(inputs, *, graded: bool) -> None:
    """The qrels' grades as torch sees them: with ``graded`` (NDCG) the target tensor holds
    the grades themselves, so a float grade is passed as a float tensor, while a text or a
    bool grade has no tensor of its own (a bool target is torch's binary relevance); without
    (binary metrics), the library sees only ``grade >= threshold``, so any grade that is
    not an int has no form it would see."""
    for q, judged in (inputs.get("qrels") or {}).items():
        if not isinstance(judged, dict):
            continue
        for d, g in judged.items():
            if isinstance(g, bool) or not isinstance(g, (int, float)) or (isinstance(g, float) and not graded):
                raise Skip(f"qrels[{q!r}][{d!r}]: grade {g!r}: the library sees "
                           + ("the grades as a target tensor, and a tensor holds no text, and a bool target is "
                              "binary relevance" if graded else "only grade >= threshold as a 0/1 target")
                           + "; no tensor keeps the grade as written")
