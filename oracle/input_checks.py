"""The checks that every input of two parallel lists shares (error rates' references and
hypotheses, QA's predictions and references, VQA's predictions and answers, CIDEr's
candidates and references): each failure a typed ``InputError`` naming the field, the
item (``name[i]``) or the string (``name[i][j]``) at fault."""
from __future__ import annotations

from .conventions import InputError


def parallel_lists(inputs, fields: tuple[str, str], blame: str, optional: tuple = (),
                   kinds: tuple[str, str] = ("a list", "a list")) -> tuple[list, list]:
    """``inputs[fields[0]]`` and ``inputs[fields[1]]`` as lists: ``inputs`` an object with no
    field but these two and ``optional``, both present, each a list (``kinds`` names what
    each should be), of one length (a mismatch is reported on the field ``blame``)."""
    a, b = fields
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with {a} and {b}, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - {a, b, *optional})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are {', '.join((a, b) + tuple(optional))}",
                         item=unknown[0])
    for name, kind in zip(fields, kinds):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
        if not isinstance(inputs[name], (list, tuple)):
            raise InputError(f"{name}: expected {kind}, got {type(inputs[name]).__name__}", item=name)
    xs, ys = list(inputs[a]), list(inputs[b])
    if len(xs) != len(ys):
        other = b if blame == a else a
        n_blamed, n_other = (len(xs), len(ys)) if blame == a else (len(ys), len(xs))
        raise InputError(f"{blame}: {n_blamed} items but {other} has {n_other}", item=blame)
    return xs, ys


def strings(items: list, name: str, null: bool = False) -> None:
    """Every item a string (or None, with ``null``)."""
    for i, x in enumerate(items):
        if not isinstance(x, str) and not (null and x is None):
            raise InputError(f"{name}[{i}]: expected a string{' or null' if null else ''}, got {type(x).__name__}",
                             item=f"{name}[{i}]")


def string_lists(lists: list, name: str, what: str, empty: str | None = None) -> None:
    """Every item a list of strings (``what`` names such a list); an empty one refused with
    the message ``empty`` when it is given."""
    for i, xs in enumerate(lists):
        if not isinstance(xs, (list, tuple)):
            raise InputError(f"{name}[{i}]: expected {what}, got {type(xs).__name__}", item=f"{name}[{i}]")
        if not xs and empty is not None:
            raise InputError(f"{name}[{i}]: {empty}", item=f"{name}[{i}]")
        for j, x in enumerate(xs):
            if not isinstance(x, str):
                raise InputError(f"{name}[{i}][{j}]: expected a string, got {type(x).__name__}",
                                 item=f"{name}[{i}][{j}]")


def device_kind(path) -> str | None:
    """'a character device' or 'a block device' when ``path`` names one (``/dev/zero``,
    ``/dev/urandom``: read whole, they never end), else None: a regular file, a pipe
    (``<(zcat run.gz)``, standard input) or a path that does not exist (its reader says
    so). A file reader refuses a device before reading."""
    import os
    import stat
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return None
