"""The classification metrics' sufficient statistics: labels read and checked, the
label set under ``label_set`` and ``outside``, and the confusion counts (``Tally``),
by a numpy path on large inputs that gives the same integers (definitions and
sources in ``oracle.classification``'s docstring)."""
from __future__ import annotations

import math
import numbers
from collections import Counter, deque
from dataclasses import dataclass
from itertools import repeat
from operator import countOf, setitem

from .conventions import InputError


_FIELDS = ("y_true", "y_pred", "labels", "pos_label", "sample_weight", "y_score")

# ------------------------------------------------------------------ input

def _label(x, where: str):
    """An int or a string label, or an InputError naming ``where``."""
    if isinstance(x, bool):
        raise InputError(f"{where}: a boolean label ({x}); labels are ints or strings "
                         f"(True == 1 in Python, so it would merge with class 1): write 0/1 or strings", item=where)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, str):
        return x
    if isinstance(x, float) and math.isnan(x):
        raise InputError(f"{where}: NaN is not a label", item=where)
    if isinstance(x, float):
        raise InputError(f"{where}: {x!r} is a float; labels are ints or strings "
                         f"(1.0 and 1 would be one class)", item=where)
    if x is None:
        raise InputError(f"{where}: a missing label (null)", item=where)
    raise InputError(f"{where}: expected an int or string label, got {type(x).__name__}", item=where)


class _Kind:
    """The kind (int or str) of the first label seen; later labels must match."""

    def __init__(self):
        self.kind = None

    def check(self, x, where: str):
        k = int if isinstance(x, int) else str
        if self.kind is None:
            self.kind = k
        elif k is not self.kind:
            raise InputError(f"{where}: {'a string' if k is str else 'an int'} label among "
                             f"{'string' if self.kind is str else 'int'} labels ({x!r}); use one kind", item=where)
        return x


def _width(y) -> int | None:
    """The number of columns of 2-d input (an array, or a list whose first item is a row),
    else None."""
    shape = getattr(y, "shape", None)
    if shape is not None and not isinstance(y, (list, tuple)):
        return shape[1] if len(shape) == 2 else None
    if isinstance(y, (list, tuple)) and len(y) > 0 and isinstance(y[0], (list, tuple)):
        return len(y[0])
    return None


def columns_as_labels(inputs):
    """Input whose y_true and y_pred are one column each (n x 1) as lists of labels, the way
    scikit-learn reads a column vector (``column_or_1d``, ``type_of_target``; see
    ``oracle.multilabel``); other input unchanged."""
    if not isinstance(inputs, dict) or _width(inputs.get("y_true")) != 1:
        return inputs
    out = dict(inputs)
    for name in ("y_true", "y_pred"):
        y = inputs.get(name)
        if hasattr(y, "shape") and not isinstance(y, (list, tuple)) and len(y.shape) == 2 and y.shape[1] == 1:
            out[name] = y[:, 0]
        elif isinstance(y, (list, tuple)) and all(isinstance(r, (list, tuple)) and len(r) == 1 for r in y):
            out[name] = [r[0] for r in y]
    return out


def _read(inputs, settings: dict):
    """(y_true, y_pred, classes or None for union, pos_label) after validation."""
    inputs = columns_as_labels(inputs)
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with y_true and y_pred, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - set(_FIELDS))
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are {', '.join(_FIELDS)}", item=unknown[0])
    if "y_score" in inputs:
        inputs = dict(inputs, y_pred=predicted_from_scores(inputs, int(settings.get("top_k", "1"))))
    for name in ("y_true", "y_pred"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
    kind = _Kind()
    lists = {}
    arrays = {}
    for name in ("y_true", "y_pred", "labels"):
        if name not in inputs:
            continue
        xs = inputs[name]
        if _is_array(xs):
            arr = _int_array(xs) if name != "labels" and kind.kind in (None, int) else None
            if arr is not None:
                # int labels as they are: no list is made unless a path needs one (``_ArrayLabels``)
                arrays[name] = arr
                if arr.size:
                    kind.kind = int
                lists[name] = _ArrayLabels(arr)
                continue
            xs, arr = _from_array(xs, name)
            if arr is not None:
                arrays[name] = arr
        if not isinstance(xs, (list, tuple)):
            raise InputError(f"{name}: expected a list of labels, got {type(xs).__name__}", item=name)
        first = type(xs[0]) if xs else None
        if not xs or (first is int or first is str) and kind.kind in (None, first) and \
                countOf(map(type, xs), first) == len(xs):
            # plain ints (never bools) or plain strings: every item is already a valid label of one
            # kind (one C-level pass); the caller's list is read, never changed, so it is not copied
            if xs:
                kind.kind = first
            lists[name] = xs if type(xs) is list else list(xs)
        else:
            lists[name] = [kind.check(_label(x, f"{name}[{i}]"), f"{name}[{i}]") for i, x in enumerate(xs)]
    y_true, y_pred = lists["y_true"], lists["y_pred"]
    if len(y_true) != len(y_pred):
        raise InputError(f"y_pred: {len(y_pred)} items but y_true has {len(y_true)}", item="y_pred")
    weights = _weights(inputs["sample_weight"], len(y_true)) if "sample_weight" in inputs else None
    ignored = settings.get("ignore_index", "none")
    if ignored != "none":
        y_true, y_pred, weights = _drop_ignored(_listed(y_true), _listed(y_pred), ignored, kind.kind, weights)
        arrays = {}
    declared = lists.get("labels")
    if declared is not None:
        if not declared:
            raise InputError("labels: an empty list; declare at least one label", item="labels")
        first: dict = {}
        for j, x in enumerate(declared):
            if x in first:
                raise InputError(f"labels[{j}]: {x!r} is already declared at labels[{first[x]}]", item=f"labels[{j}]")
            first[x] = j
    mode = settings["label_set"]
    if mode == "declared" and declared is None:
        raise InputError("labels: label_set=declared needs inputs.labels", item="labels")
    classes = declared if mode == "declared" or (mode == "auto" and declared is not None) else None
    pos_label = None
    if settings.get("average") == "binary":
        pos_label = kind.check(_label(inputs.get("pos_label", 1), "pos_label"), "pos_label")
    codes = (arrays["y_true"], arrays["y_pred"]) if "y_true" in arrays and "y_pred" in arrays else None
    if ignored != "none":   # the ignored label is no class: never declared, averaged or reported
        target = _ignored_label(ignored, kind.kind)
        if classes is not None and target in classes:
            classes = [c for c in classes if c != target]
    return y_true, y_pred, classes, pos_label, codes, weights, (target,) if ignored != "none" else ()


def predicted_from_scores(inputs, k: int) -> list:
    """The predicted label of each sample from its row of class scores (``y_score``; the
    columns are ``labels`` in order, or the ints 0..C-1): the true label when it is among
    the k highest-scored classes, else the highest-scored class (torchmetrics'
    ``top_k``: stat_scores.py ``_refine_preds_oh``, "replacing entries with target one-hot
    when there's an intersection ... uses the top-1 prediction"); with k = 1, the
    highest-scored class. Equal scores rank by column, the first first (``argmax``:
    "the indices corresponding to the first occurrence are returned", NumPy and torch)."""
    from .score_values import exact_number as _score
    if "y_pred" in inputs:
        raise InputError("y_score: give y_pred (labels) or y_score (a row of class scores per sample), not both",
                         item="y_score")
    ys, yt = inputs["y_score"], inputs.get("y_true")
    if hasattr(ys, "tolist") and not isinstance(ys, (list, tuple)):
        ys = ys.tolist()
    if hasattr(yt, "tolist") and not isinstance(yt, (list, tuple)):
        yt = yt.tolist()
    if not isinstance(ys, (list, tuple)):
        raise InputError(f"y_score: expected a list of score rows, got {type(ys).__name__}", item="y_score")
    if not isinstance(yt, (list, tuple)):
        return []                                  # the label reader names y_true's problem
    if len(ys) != len(yt):
        raise InputError(f"y_score: {len(ys)} rows but y_true has {len(yt)}", item="y_score")
    if not ys:
        return []
    width = len(ys[0]) if isinstance(ys[0], (list, tuple)) else None
    classes = list(inputs["labels"]) if isinstance(inputs.get("labels"), (list, tuple)) else list(range(width or 0))
    if k > len(classes):
        raise InputError(f"top_k: {k} is more than the {len(classes)} classes of the score rows", item="top_k")
    out = []
    for i, (row, t) in enumerate(zip(ys, yt)):
        if not isinstance(row, (list, tuple)) or len(row) != len(classes):
            got = f"{len(row)} scores" if isinstance(row, (list, tuple)) else type(row).__name__
            raise InputError(f"y_score[{i}]: {got} for the {len(classes)} classes {classes!r}", item=f"y_score[{i}]")
        v = [_score(x, f"y_score[{i}][{j}]") for j, x in enumerate(row)]
        order = sorted(range(len(v)), key=lambda j: (-v[j], j))
        top = order[:k]
        out.append(t if any(classes[j] == t and type(classes[j]) is type(t) for j in top) else classes[order[0]])
    return out


def _weights(ws, n: int) -> list:
    """``sample_weight``: one non-negative finite rational per sample (an int, a float read
    as its exact binary value, a Fraction, or a text '0.25' / '1/3'), as Fractions."""
    from .score_values import exact_number as _score
    if hasattr(ws, "tolist") and not isinstance(ws, (list, tuple)):
        ws = ws.tolist()
    if not isinstance(ws, (list, tuple)):
        raise InputError(f"sample_weight: expected a list of numbers, got {type(ws).__name__}", item="sample_weight")
    if len(ws) != n:
        raise InputError(f"sample_weight: {len(ws)} weights but y_true has {n} samples", item="sample_weight")
    out = []
    for i, w in enumerate(ws):
        where = f"sample_weight[{i}]"
        try:
            q = _score(w, where)
        except InputError as e:
            raise InputError(str(e).replace("score", "weight"), item=where) from None
        if q < 0:
            raise InputError(f"{where}: weight {w!r} is negative; a sample weight counts the sample "
                             "that many times (0 leaves it out)", item=where)
        out.append(q)
    return out


class _ArrayLabels:
    """A 1-d int64 array of labels standing for their list: its length without a list;
    ``tolist()`` (Python ints, made once) where a path needs the labels one by one."""

    __slots__ = ("array", "_list")

    def __init__(self, array):
        self.array, self._list = array, None

    def __len__(self) -> int:
        return len(self.array)

    def tolist(self) -> list:
        if self._list is None:
            self._list = self.array.tolist()
        return self._list


def _listed(xs) -> list:
    return xs.tolist() if type(xs) is _ArrayLabels else xs


def _int_array(xs):
    """The int64 array of a 1-d NumPy (or torch) array of integers that fit in int64; None
    for anything else (which ``_from_array`` reads, or refuses, as a list)."""
    import numpy as np
    if type(xs).__module__.split(".")[0] == "torch":
        return None
    if getattr(xs, "ndim", None) != 1 or xs.dtype.kind not in "iu":
        return None
    if xs.dtype.kind == "u" and xs.dtype.itemsize == 8 and xs.size and int(xs.max()) > np.iinfo(np.int64).max:
        return None
    return xs.astype(np.int64, copy=False)


def _is_array(xs) -> bool:
    """A NumPy array, or a tensor that converts to one (torch: ``.numpy()``), without importing them."""
    mod = type(xs).__module__.split(".")[0]
    return mod in ("numpy", "torch") and hasattr(xs, "ndim" if mod == "numpy" else "dim")


def _from_array(xs, name: str):
    """(the labels as a list, the int64 array of them or None) of a 1-d array of integer or
    string labels; the same typed errors as for lists (a float, bool or NaN label names its
    position). Integers are read exactly (``tolist`` gives Python ints)."""
    import numpy as np
    if type(xs).__module__.split(".")[0] == "torch":
        xs = xs.detach().cpu().numpy()
    arr = np.asarray(xs)
    if arr.ndim != 1:
        raise InputError(f"{name}: expected a 1-d array of labels, got {arr.ndim} dimensions "
                         f"(shape {tuple(arr.shape)})", item=name)
    kind = arr.dtype.kind
    if kind in "iu":
        if kind == "u" and arr.dtype.itemsize == 8 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
            return arr.tolist(), None
        return arr.tolist(), arr.astype(np.int64, copy=False)
    if kind == "b":
        raise InputError(f"{name}[0]: a boolean label ({bool(arr[0]) if arr.size else ''}); labels are ints or "
                         "strings (True == 1 in Python, so it would merge with class 1): write 0/1 or strings",
                         item=f"{name}[0]")
    if kind == "f":   # as for a list: the first item is the offending one
        if not arr.size:
            return [], None
        if np.isnan(arr[0]):
            raise InputError(f"{name}[0]: NaN is not a label", item=f"{name}[0]")
        raise InputError(f"{name}[0]: {float(arr[0])!r} is a float; labels are ints or strings "
                         f"(1.0 and 1 would be one class; convert the array with .astype(int))", item=f"{name}[0]")
    return arr.tolist(), None


def _ignored_label(ignored: str, kind):
    """The label the ignore_index knob names (an int label's decimal text, or a string label)."""
    if kind is int:
        try:
            return int(ignored)
        except ValueError:
            raise InputError(f"ignore_index: {ignored!r} is not an int, and the labels are ints",
                             item="ignore_index") from None
    return ignored


def _drop_ignored(y_true: list, y_pred: list, ignored: str, kind, weights=None) -> tuple[list, list, list | None]:
    """The samples (and their weights) whose true label is not ``ignored`` (the ignore_index
    knob: an int label's decimal text, or a string label)."""
    target = _ignored_label(ignored, kind)
    keep = [i for i, t in enumerate(y_true) if t != target]
    return [y_true[i] for i in keep], [y_pred[i] for i in keep], None if weights is None else [weights[i] for i in keep]


@dataclass
class Tally:
    """Counts over the classes: the matrix of inside pairs and per-class tp, fp, fn, support.
    ``matrix`` is None where the metric does not ask for it (``tally(with_matrix=False)``):
    precision, recall, F, accuracy and balanced accuracy are functions of tp, fp, fn and
    support alone, their sufficient statistics, and a K x K matrix of 1,000 classes costs
    more to build than the whole rest of the metric."""

    classes: list
    matrix: list | None
    n: int            # samples counted
    outside: int      # counted samples with a label outside the classes (keep), or dropped ones (drop)
    tp: list
    fp: list
    fn: list
    support: list
    unit: str = "class"   # what the counts are per: a class; a label or a sample (multilabel input)
    unit_weights: list | None = None   # per-sample units under sample_weight: each unit's weight in the mean
    stray: bool = False   # a sample kept (of any weight, 0 included) has a label outside the classes

    @property
    def all_inside(self) -> bool:
        """Every kept sample's labels are classes (by the labels present, as sklearn's report
        decides between "accuracy" and "micro avg": a weight-0 sample's labels count too)."""
        return not self.stray and (self.outside == 0 or self.n == sum(sum(r) for r in self.matrix))

    def stats(self) -> dict:
        # a tally is built for one result and then dropped, so its (K x K) matrix is handed over, not copied
        out = {"labels": list(self.classes), "matrix": self.matrix, "n": self.n,
               "outside": self.outside, "tp": list(self.tp), "fp": list(self.fp), "fn": list(self.fn),
               "support": list(self.support)}
        if self.matrix is None:
            del out["matrix"]
        if self.unit != "class":
            out["unit"] = self.unit
        return out


_NUMPY_MIN_SAMPLES = 2000   # below this the pair loop is as fast as NumPy's set-up


def _int_codes(y_true: list, y_pred: list):
    """Both sides as int64 arrays when the labels are ints (after ``_read`` they are
    all exact ints or all strings) that fit in int64; else None."""
    if not y_true or type(y_true[0]) is not int:
        return None
    import numpy as np
    try:
        return np.fromiter(y_true, np.int64, len(y_true)), np.fromiter(y_pred, np.int64, len(y_pred))
    except OverflowError:
        return None


def _sorted_union(y_true: list, y_pred: list, codes) -> list:
    """sorted(set(y_true) | set(y_pred)); for non-negative int labels below a bound
    proportional to N, the ints present in a bincount of both sides (ascending)."""
    if codes is not None:
        import numpy as np
        t, p = codes
        lo, hi = min(int(t.min()), int(p.min())), max(int(t.max()), int(p.max()))
        if lo >= 0 and hi < 8 * len(t) + 1024:
            present = np.bincount(t, minlength=hi + 1) + np.bincount(p, minlength=hi + 1)
            return np.flatnonzero(present).tolist()
    return sorted(set(_listed(y_true)) | set(_listed(y_pred)))


def _count_numpy(y_true: list, y_pred: list, classes: list, index: dict, codes, with_matrix: bool = True):
    """(matrix, support, predicted, tp) as lists of Python ints, counted with NumPy, when
    every label of both sides is a class; None when some label is not (the pair loop
    of ``tally`` then applies the outside policy).

    Exact integer counting: each sample's class indices (ti, pi) are looked up in
    ``index`` as the pair loop does (when the classes are the ints 0..K-1 in order,
    index[c] = c: an int label is its own index, and one outside 0..K-1 is not a
    class); the distinct codes ti * K + pi with their multiplicities
    (``numpy.unique``) are the non-zero cells (ti, pi) and their counts; support and
    predicted are the counts of ti and of pi (``bincount``), tp the counts of ti where
    ti = pi. Without ``with_matrix``, the matrix is None and no cell is counted."""
    import numpy as np
    k = len(classes)
    if codes is not None and classes == list(range(k)):
        ti, pi = codes
        if min(int(ti.min()), int(pi.min())) < 0 or max(int(ti.max()), int(pi.max())) >= k:
            return None
    else:
        y_true, y_pred = _listed(y_true), _listed(y_pred)
        try:
            ti = np.fromiter(map(index.get, y_true), np.int64, len(y_true))
            pi = np.fromiter(map(index.get, y_pred), np.int64, len(y_pred))
        except TypeError:  # index.get gave None: a label outside the classes
            return None
    support, predicted = np.bincount(ti, minlength=k).tolist(), np.bincount(pi, minlength=k).tolist()
    if not with_matrix:
        return None, support, predicted, np.bincount(ti[ti == pi], minlength=k).tolist()
    codes = ti * k + pi
    if k * k <= 2 ** 31:
        codes = codes.astype(np.int32)  # the same values; NumPy sorts int32 faster
    cells, counts = np.unique(codes, return_counts=True)
    rows, cols = np.divmod(cells, k)
    # K rows of K zeros: the empty rows are made first and then filled by a C-level
    # extend, so the garbage collections that K new lists may trigger find them empty
    # (filling allocates no container) instead of walking up to K x K cells each time
    matrix = [[] for _ in range(k)]
    deque(map(list.extend, matrix, repeat([0] * k, k)), maxlen=0)
    deque(map(setitem, map(matrix.__getitem__, rows.tolist()), cols.tolist(), counts.tolist()), maxlen=0)
    return matrix, support, predicted, [matrix[j][j] for j in range(k)]


def tally(inputs, settings: dict, with_matrix: bool = True) -> tuple[Tally, object]:
    """Validate the inputs and count the pairs (one by one: a repeated pair adds
    once per occurrence; from _NUMPY_MIN_SAMPLES samples on, with every label a
    class, NumPy counts them, see ``_count_numpy``). Returns the tally and pos_label;
    without ``with_matrix``, the tally's matrix is None (the per-class counts are the same)."""
    y_true, y_pred, classes, pos_label, array_codes, weights, ignored = _read(inputs, settings)
    large = len(y_true) >= _NUMPY_MIN_SAMPLES and weights is None
    if not large or array_codes is None:
        y_true, y_pred = _listed(y_true), _listed(y_pred)
    codes = (array_codes if array_codes is not None else _int_codes(y_true, y_pred)) if large else None
    if classes is None:
        classes = _sorted_union(y_true, y_pred, codes)
        if ignored and ignored[0] in classes:   # predicted by a kept sample: still no class
            classes = [c for c in classes if c != ignored[0]]
    index = {c: i for i, c in enumerate(classes)}
    if pos_label is not None and pos_label not in index:
        if len(classes) >= 2:
            raise InputError(f"pos_label: {pos_label!r} is not one of the classes {classes!r}", item="pos_label")
        classes = list(classes) + [pos_label]
        index[pos_label] = len(classes) - 1
    k = len(classes)
    counted = _count_numpy(y_true, y_pred, classes, index, codes, with_matrix) if large and k else None
    if counted is not None:
        matrix, support, predicted, tp = counted
        return Tally(list(classes), matrix, len(y_true), 0, tp, [predicted[j] - tp[j] for j in range(k)],
                     [support[j] - tp[j] for j in range(k)], support), pos_label
    y_true, y_pred = _listed(y_true), _listed(y_pred)
    matrix = [[0] * k for _ in range(k)]
    support, predicted = [0] * k, [0] * k
    n = outside = 0
    stray = False
    policy = settings.get("outside", "error")
    if weights is None:
        pairs = Counter(zip(y_true, y_pred))
    else:                             # a pair counts its samples' total weight (exact)
        pairs = {}
        for t, p, w in zip(y_true, y_pred, weights):
            pairs[t, p] = pairs.get((t, p), 0) + w
    for (t, p), count in pairs.items():
        ti, pi = index.get(t), index.get(p)
        if pi is None and ignored and p == ignored[0] and ti is not None:
            # a kept sample predicted as the ignored label: a miss of its true class, no
            # class's prediction (the ignored label is no class)
            outside += count
            stray = True
        elif ti is None or pi is None:
            if policy == "error":
                i = next(i for i, (t, p) in enumerate(zip(y_true, y_pred)) if t not in index or p not in index)
                t, p = y_true[i], y_pred[i]
                name, x = ("y_true", t) if t not in index else ("y_pred", p)
                raise InputError(f"{name}[{i}]: label {x!r} is not among the declared labels {classes!r} "
                                 f"(outside=drop or keep to accept it)", item=f"{name}[{i}]")
            outside += count
            if policy == "drop":
                continue
            stray = True
        n += count
        if ti is not None:
            support[ti] += count
        if pi is not None:
            predicted[pi] += count
        if ti is not None and pi is not None:
            matrix[ti][pi] += count
    tp = [matrix[j][j] for j in range(k)]
    return Tally(list(classes), matrix if with_matrix else None, n, outside, tp,
                 [predicted[j] - tp[j] for j in range(k)], [support[j] - tp[j] for j in range(k)], support,
                 stray=stray), pos_label
