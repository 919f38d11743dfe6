"""Classification from label pairs: the confusion matrix, accuracy, per-class
accuracy, precision, recall, F-beta, balanced accuracy and the report.

Inputs: ``{"y_true": [label, ...], "y_pred": [label, ...]}`` with optional
``"labels": [label, ...]`` (the declared classes, in order) and ``"pos_label"``
(the positive class of ``average=binary``, default 1). A label is an int or a
string; all labels of one input (y_true, y_pred, labels, pos_label) are of one
kind. Sample i is the pair (y_true[i], y_pred[i]).

The confusion matrix (source document 003, "Confusion matrix dengan operasi
torch murni"; sklearn ``confusion_matrix``): C[i][j] = #{samples with true
label c_i and predicted label c_j} over the ordered classes c_1..c_K; rows are
the true label, columns the prediction; counting is per pair, so a pair
repeated r times adds r (the document's duplicate-index pitfall). Per class k:
tp_k = C_kk, support_k = #{true = c_k}, predicted_k = #{pred = c_k},
fp_k = predicted_k - tp_k, fn_k = support_k - tp_k.

Formulas (N = samples counted)
- accuracy = sum_k C_kk / N.
- per-class accuracy a_k = C_kk / sum_j C_kj (document 003: "a_k = C_kk /
  sum_j C_kj"; "Akurasi per kelas identik dengan recall"); a class with no
  samples is not measured: Undefined, never 0 or NaN (document 003, third
  common mistake).
- P_k = tp_k / (tp_k + fp_k); R_k = tp_k / (tp_k + fn_k);
  F_beta,k = (1 + b^2) tp_k / ((1 + b^2) tp_k + b^2 fn_k + fp_k), which is the
  harmonic form (1 + b^2) P R / (b^2 P + R) wherever P and R are defined
  (van Rijsbergen 1979; sklearn ``precision_recall_fscore_support``).
- averages: micro pools tp, fp, fn over the classes, then divides; macro is
  the unweighted mean of the per-class values; weighted is their mean weighted
  by support over the classes with support > 0 (a class with no support has
  weight 0 and does not enter the sum); binary is the value of the class
  pos_label (at most two classes).
- balanced accuracy = mean of R_k over the classes with support > 0
  (Brodersen et al. 2010; sklearn ``balanced_accuracy_score``); adjusted:
  (score - 1/K) / (1 - 1/K), K = number of classes with support.
- the report is sklearn's ``classification_report(output_dict=True)`` layout:
  {str(label): {"precision", "recall", "f1-score", "support"}, then
  "accuracy": micro P when every counted sample's labels are classes (else
  "micro avg": {...}), "macro avg": {...}, "weighted avg": {...}}, where the
  averages' support is the sum of the classes' supports.

Knobs
- ``label_set`` (labels): ``auto`` (default: ``declared`` when inputs.labels
  is given, else ``union``), ``declared`` (inputs.labels in its order; an
  InputError without it), ``union`` (the sorted union of the labels seen in
  y_true and y_pred; inputs.labels, if given, is validated but not used).
- ``outside`` (outside), for a sample whose true or predicted label is not a
  class of a declared set: ``error`` (default; InputError naming the first
  such index), ``drop`` (the sample leaves every count and N, as sklearn's
  ``confusion_matrix(labels=...)`` does), ``keep`` (P/R/F and the report
  only: the sample stays, an outside prediction of a class-k sample is a
  false negative of k and a class-k prediction of an outside sample a false
  positive of k, the outside classes are just not reported or averaged, as
  sklearn's ``precision_recall_fscore_support(labels=...)`` does).
- ``average`` (avg): ``macro`` (default), ``micro``, ``weighted``, ``none``
  (a dict {label: value}), ``binary``. Macro is the default because it is
  the reporting choice that shows what the document warns about: every class
  weighs the same, so a failed minority class is visible, while micro equals
  accuracy on single-label data. (sklearn's default, binary, refuses
  multiclass data.)
- ``zero_division`` (zd), for a per-class value whose denominator is 0
  (P_k of a class never predicted, R_k of a class without samples, F_k of a
  class neither present nor predicted) and for a pooled micro denominator of
  0: ``zero`` (default; value 0, as sklearn's "warn" and 0, torchmetrics and
  seqeval), ``one`` (value 1), ``undefined`` (the per-class value and any
  average over it are Undefined), ``exclude`` (the per-class value is
  Undefined and the class leaves macro and weighted averages, as sklearn's
  ``zero_division=np.nan``; micro with a zero pooled denominator is Undefined).
- ``beta`` (beta), f1 only: rational >= 0, default 1 (beta = 0 gives P).
- ``adjusted`` (adj), balanced accuracy only: ``no`` (default) or ``yes``.

Degenerate and invalid inputs
| input | value |
| --- | --- |
| y_true and y_pred of different lengths | InputError "y_pred: m items but y_true has n" |
| no samples (N = 0, or every sample dropped) | confusion matrix: K x K zeros (K = 0 under union: []); per-class accuracy: every class Undefined ({} when K = 0); every other metric Undefined("no samples") |
| label outside a declared list | outside=error: InputError "y_true[i]: label x is not among the declared labels"; drop / keep: see the knob |
| duplicate label in the declared list | InputError "labels[j]: x is already declared at labels[i]" |
| labels = [] (declared) | InputError "labels: an empty list" |
| label_set=declared without inputs.labels | InputError "labels: label_set=declared needs inputs.labels" |
| float label (1.0, 2.5) | InputError: labels are ints or strings (1.0 and 1 would be one class; the matrix holds integer counts, never floats) |
| NaN label | InputError "y_true[i]: NaN is not a label" |
| bool label | InputError: True == 1 in Python, so a bool would merge with class 1; write 0/1 or strings |
| null or other types | InputError naming the item |
| int and string labels mixed | InputError naming the first label of the other kind (sklearn: "Mix of label input types") |
| class with no samples | per-class accuracy, R_k: Undefined / zero_division; balanced accuracy skips it |
| average=binary with more than two classes | InputError; pos_label outside a two-class set: InputError |
| adjusted balanced accuracy with one class with support | Undefined (chance 1/K = 1) |
| missing or unknown input field | InputError naming it |
"""
from __future__ import annotations

import math
import numbers
from collections import Counter, deque
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from operator import setitem

from .conventions import InputError, Knob, Metric, Result
from .exact import Undefined

_SK = "scikit-learn sklearn.metrics"
_DOC = "source document 003_0a6ad6c781e30d47.txt"

LABEL_SET = Knob(
    "label_set", "the classes (and their order) the matrix and the averages run over", "auto",
    choices=("auto", "declared", "union"),
    sources={"auto": f"declared when inputs.labels is given, else union ({_SK}: labels=None -> unique_labels)",
             "declared": f"inputs.labels in its order ({_SK} labels=[...]; {_DOC}: a fixed K)",
             "union": f"sorted union of the labels seen in y_true and y_pred ({_SK} unique_labels)"},
    key="labels")

_OUTSIDE_SOURCES = {
    "error": "a label outside the declared classes is bad input",
    "drop": f"{_SK} confusion_matrix(labels=...): samples with a label not in labels are eliminated",
    "keep": f"{_SK} precision_recall_fscore_support(labels=...): counts over all samples, "
            "only the listed labels reported and averaged"}
OUTSIDE = Knob(
    "outside", "a sample whose true or predicted label is not a declared class", "error",
    choices=("error", "drop"), sources={k: _OUTSIDE_SOURCES[k] for k in ("error", "drop")})
OUTSIDE_PRF = Knob(
    "outside", "a sample whose true or predicted label is not a declared class", "error",
    choices=("error", "drop", "keep"), sources=_OUTSIDE_SOURCES)
AVERAGE = Knob(
    "average", "how per-class values are combined", "macro",
    choices=("micro", "macro", "weighted", "none", "binary"),
    sources={"micro": f"{_SK}: pool tp, fp, fn over the classes",
             "macro": f"{_SK}: unweighted mean of the per-class values",
             "weighted": f"{_SK}: mean weighted by support",
             "none": f"{_SK} average=None: the per-class values",
             "binary": f"{_SK} average='binary' (its default): the class pos_label only"},
    key="avg")
ZERO_DIVISION = Knob(
    "zero_division", "value of a ratio whose denominator is 0", "zero",
    choices=("zero", "one", "undefined", "exclude"),
    sources={"zero": f"{_SK} zero_division='warn' (default) or 0",
             "one": f"{_SK} zero_division=1",
             "undefined": "the definition: 0/0 has no value (oracle's Undefined)",
             "exclude": f"{_SK} zero_division=np.nan: NaN per class, left out of averages by _nanaverage"},
    key="zd")
BETA = Knob(
    "beta", "relative weight of recall in F-beta", "1", kind="rational", minimum=0,
    sources={"*": "van Rijsbergen 1979: F_beta = (1 + b^2) P R / (b^2 P + R)"}, key="beta")
ADJUSTED = Knob(
    "adjusted", "chance-adjusted balanced accuracy", "no", choices=("no", "yes"),
    sources={"no": "Brodersen et al. 2010: mean per-class recall",
             "yes": f"{_SK} balanced_accuracy_score(adjusted=True): (score - 1/K) / (1 - 1/K)"},
    key="adj")

_FIELDS = ("y_true", "y_pred", "labels", "pos_label")


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


def _read(inputs, settings: dict):
    """(y_true, y_pred, classes or None for union, pos_label) after validation."""
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with y_true and y_pred, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - set(_FIELDS))
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are {', '.join(_FIELDS)}", item=unknown[0])
    for name in ("y_true", "y_pred"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
    kind = _Kind()
    lists = {}
    for name in ("y_true", "y_pred", "labels"):
        if name not in inputs:
            continue
        xs = inputs[name]
        if not isinstance(xs, (list, tuple)):
            raise InputError(f"{name}: expected a list of labels, got {type(xs).__name__}", item=name)
        seen = set(map(type, xs))
        if seen <= {int} and kind.kind in (None, int) or seen <= {str} and kind.kind in (None, str):
            # plain ints (never bools) or plain strings: every item is already a valid label of one kind
            if seen:
                kind.kind = seen.pop()
            lists[name] = list(xs)
        else:
            lists[name] = [kind.check(_label(x, f"{name}[{i}]"), f"{name}[{i}]") for i, x in enumerate(xs)]
    y_true, y_pred = lists["y_true"], lists["y_pred"]
    if len(y_true) != len(y_pred):
        raise InputError(f"y_pred: {len(y_pred)} items but y_true has {len(y_true)}", item="y_pred")
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
    return y_true, y_pred, classes, pos_label


@dataclass
class Tally:
    """Counts over the classes: the matrix of inside pairs and per-class tp, fp, fn, support."""

    classes: list
    matrix: list
    n: int            # samples counted
    outside: int      # counted samples with a label outside the classes (keep), or dropped ones (drop)
    tp: list
    fp: list
    fn: list
    support: list

    @property
    def all_inside(self) -> bool:
        return self.outside == 0 or self.n == sum(sum(r) for r in self.matrix)

    def stats(self) -> dict:
        # a tally is built for one result and then dropped, so its (K x K) matrix is handed over, not copied
        return {"labels": list(self.classes), "matrix": self.matrix, "n": self.n,
                "outside": self.outside, "tp": list(self.tp), "fp": list(self.fp), "fn": list(self.fn),
                "support": list(self.support)}


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
    return sorted(set(y_true) | set(y_pred))


def _count_numpy(y_true: list, y_pred: list, classes: list, index: dict, codes):
    """(matrix, support, predicted) as lists of Python ints, counted with NumPy, when
    every label of both sides is a class; None when some label is not (the pair loop
    of ``tally`` then applies the outside policy).

    Exact integer counting: each sample's class indices (ti, pi) are looked up in
    ``index`` as the pair loop does (when the classes are the ints 0..K-1 in order,
    index[c] = c: an int label is its own index, and one outside 0..K-1 is not a
    class); the distinct codes ti * K + pi with their multiplicities
    (``numpy.unique``) are the non-zero cells (ti, pi) and their counts; support and
    predicted are the counts of ti and of pi (``bincount``)."""
    import numpy as np
    k = len(classes)
    if codes is not None and classes == list(range(k)):
        ti, pi = codes
        if min(int(ti.min()), int(pi.min())) < 0 or max(int(ti.max()), int(pi.max())) >= k:
            return None
    else:
        try:
            ti = np.fromiter(map(index.get, y_true), np.int64, len(y_true))
            pi = np.fromiter(map(index.get, y_pred), np.int64, len(y_pred))
        except TypeError:  # index.get gave None: a label outside the classes
            return None
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
    return matrix, np.bincount(ti, minlength=k).tolist(), np.bincount(pi, minlength=k).tolist()


def tally(inputs, settings: dict) -> tuple[Tally, object]:
    """Validate the inputs and count the pairs (one by one: a repeated pair adds
    once per occurrence; from _NUMPY_MIN_SAMPLES samples on, with every label a
    class, NumPy counts them, see ``_count_numpy``). Returns the tally and pos_label."""
    y_true, y_pred, classes, pos_label = _read(inputs, settings)
    large = len(y_true) >= _NUMPY_MIN_SAMPLES
    codes = _int_codes(y_true, y_pred) if large else None
    if classes is None:
        classes = _sorted_union(y_true, y_pred, codes)
    index = {c: i for i, c in enumerate(classes)}
    if pos_label is not None and pos_label not in index:
        if len(classes) >= 2:
            raise InputError(f"pos_label: {pos_label!r} is not one of the classes {classes!r}", item="pos_label")
        classes = list(classes) + [pos_label]
        index[pos_label] = len(classes) - 1
    k = len(classes)
    counted = _count_numpy(y_true, y_pred, classes, index, codes) if large and k else None
    if counted is not None:
        matrix, support, predicted = counted
        tp = [matrix[j][j] for j in range(k)]
        return Tally(list(classes), matrix, len(y_true), 0, tp, [predicted[j] - tp[j] for j in range(k)],
                     [support[j] - tp[j] for j in range(k)], support), pos_label
    matrix = [[0] * k for _ in range(k)]
    support, predicted = [0] * k, [0] * k
    n = outside = 0
    policy = settings.get("outside", "error")
    for (t, p), count in Counter(zip(y_true, y_pred)).items():
        ti, pi = index.get(t), index.get(p)
        if ti is None or pi is None:
            if policy == "error":
                i = next(i for i, (t, p) in enumerate(zip(y_true, y_pred)) if t not in index or p not in index)
                t, p = y_true[i], y_pred[i]
                name, x = ("y_true", t) if t not in index else ("y_pred", p)
                raise InputError(f"{name}[{i}]: label {x!r} is not among the declared labels {classes!r} "
                                 f"(outside=drop or keep to accept it)", item=f"{name}[{i}]")
            outside += count
            if policy == "drop":
                continue
        n += count
        if ti is not None:
            support[ti] += count
        if pi is not None:
            predicted[pi] += count
        if ti is not None and pi is not None:
            matrix[ti][pi] += count
    tp = [matrix[j][j] for j in range(k)]
    return Tally(list(classes), matrix, n, outside, tp, [predicted[j] - tp[j] for j in range(k)],
                 [support[j] - tp[j] for j in range(k)], support), pos_label


# --------------------------------------------------------- ratios and averages

class _ZeroDivision:
    """A ratio whose denominator is 0, with the reason, before the policy applies."""

    def __init__(self, reason: str):
        self.reason = reason


def _ratio(num, den, reason: str):
    return _ZeroDivision(reason) if den == 0 else Fraction(num, 1) / den


def _settle(x, zd: str):
    """A per-class value under the zero_division policy (exclude and undefined: Undefined)."""
    if not isinstance(x, _ZeroDivision):
        return x
    if zd == "zero":
        return Fraction(0)
    if zd == "one":
        return Fraction(1)
    return Undefined(x.reason + (" (zero_division=exclude)" if zd == "exclude" else ""))


def _per_class(t: Tally, which: str, beta2: Fraction = Fraction(1)) -> list:
    out = []
    for c, tp, fp, fn in zip(t.classes, t.tp, t.fp, t.fn):
        if which == "precision":
            out.append(_ratio(tp, tp + fp, f"precision of class {c!r}: it is never predicted (tp + fp = 0)"))
        elif which == "recall":
            out.append(_ratio(tp, tp + fn, f"recall of class {c!r}: it has no samples (tp + fn = 0)"))
        else:
            out.append(_ratio((1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp,
                              f"F of class {c!r}: its denominator (1+b^2)tp + b^2 fn + fp is 0"))
    return out


def _average(t: Tally, values: list, average: str, zd: str, micro):
    """Combine per-class values (possibly _ZeroDivision) under ``average``;
    ``micro`` is the pooled ratio (or _ZeroDivision)."""
    if average == "micro":
        if isinstance(micro, _ZeroDivision):
            return _settle(micro, zd) if zd in ("zero", "one") else Undefined(micro.reason)
        return micro
    if average == "none":
        return {c: _settle(v, zd) for c, v in zip(t.classes, values)}
    pairs = list(zip(values, [Fraction(1)] * len(values) if average == "macro" else t.support))
    if average == "weighted":
        pairs = [(v, w) for v, w in pairs if w > 0]
    kept = []
    for v, w in pairs:
        if isinstance(v, _ZeroDivision):
            if zd == "undefined":
                return Undefined(v.reason + f"; the {average} average over it is undefined")
            if zd == "exclude":
                continue
            v = _settle(v, zd)
        kept.append((v, w))
    weight = sum((w for _, w in kept), Fraction(0))
    if weight == 0:
        return Undefined(f"no class left to average ({average})")
    return sum((v * w for v, w in kept), Fraction(0)) / weight


def _micro(t: Tally, which: str, beta2: Fraction = Fraction(1)):
    tp, fp, fn = sum(t.tp), sum(t.fp), sum(t.fn)
    if which == "precision":
        return _ratio(tp, tp + fp, "micro precision: no prediction of any class (sum of tp + fp = 0)")
    if which == "recall":
        return _ratio(tp, tp + fn, "micro recall: no sample of any class (sum of tp + fn = 0)")
    return _ratio((1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp, "micro F: every pooled count is 0")


_NO_SAMPLES = "no samples"


def _prf(which: str):
    def compute(inputs, settings: dict) -> Result:
        t, pos_label = tally(inputs, settings)
        beta2 = Fraction(settings.get("beta", "1")) ** 2
        values = _per_class(t, which, beta2)
        average = settings["average"]
        per_class = {c: _settle(v, settings["zero_division"]) for c, v in zip(t.classes, values)}
        parts = {"per_class": per_class}
        if t.n == 0:
            return Result(Undefined(_NO_SAMPLES), stats=t.stats(), parts=parts)
        if average == "binary":
            if len(t.classes) > 2:
                raise InputError(f"average=binary needs at most two classes; the classes are {t.classes!r}",
                                 item="y_true")
            value = per_class[pos_label]
        else:
            value = _average(t, values, average, settings["zero_division"], _micro(t, which, beta2))
        return Result(value, stats=t.stats(), parts=parts)
    return compute


def compute_confusion_matrix(inputs, settings: dict) -> Result:
    """C[i][j] = #{samples with true label c_i and predicted label c_j}, counted pair by pair
    (document 003: cm[label, pred] += 1 per pair; sklearn confusion_matrix)."""
    t, _ = tally(inputs, settings)
    return Result(t.matrix, stats=t.stats(), parts={"labels": list(t.classes)})


def compute_accuracy(inputs, settings: dict) -> Result:
    """accuracy = trace(C) / N (document 003: cm.diagonal().sum() / cm.sum())."""
    t, _ = tally(inputs, settings)
    correct = sum(t.tp)
    value = Fraction(correct, t.n) if t.n else Undefined(_NO_SAMPLES)
    return Result(value, stats={**t.stats(), "correct": correct})


def compute_per_class_accuracy(inputs, settings: dict) -> Result:
    """a_k = C_kk / sum_j C_kj (document 003); a class with no samples is Undefined (not measured)."""
    t, _ = tally(inputs, settings)
    value = {}
    for c, tp, s in zip(t.classes, t.tp, t.support):
        value[c] = Fraction(tp, s) if s else Undefined(f"class {c!r} has no samples: not measured")
    return Result(value, stats=t.stats(), parts={f"class[{c}]": v for c, v in value.items()})


def compute_balanced_accuracy(inputs, settings: dict) -> Result:
    """Mean of R_k over the classes with support; adjusted: (score - 1/K)/(1 - 1/K)
    with K the number of those classes (sklearn balanced_accuracy_score)."""
    t, _ = tally(inputs, settings)
    recalls = {c: Fraction(tp, s) for c, tp, s in zip(t.classes, t.tp, t.support) if s}
    parts = {"per_class_recall": recalls}
    if t.n == 0 or not recalls:
        return Result(Undefined(_NO_SAMPLES), stats=t.stats(), parts=parts)
    score = sum(recalls.values(), Fraction(0)) / len(recalls)
    parts["balanced"] = score
    if settings["adjusted"] == "yes":
        k = len(recalls)
        if k == 1:
            return Result(Undefined("adjusted balanced accuracy needs two classes with samples (chance 1/K = 1)"),
                          stats=t.stats(), parts=parts)
        chance = Fraction(1, k)
        parts["chance"] = chance
        score = (score - chance) / (1 - chance)
    return Result(score, stats=t.stats(), parts=parts)


def compute_classification_report(inputs, settings: dict) -> Result:
    """sklearn classification_report(output_dict=True) layout with exact values."""
    t, _ = tally(inputs, settings)
    if t.n == 0:
        return Result(Undefined(_NO_SAMPLES), stats=t.stats())
    zd = settings["zero_division"]
    cols = {w: _per_class(t, w) for w in ("precision", "recall", "f1")}
    report: dict = {}
    for j, c in enumerate(t.classes):
        report[str(c)] = {"precision": _settle(cols["precision"][j], zd), "recall": _settle(cols["recall"][j], zd),
                          "f1-score": _settle(cols["f1"][j], zd), "support": Fraction(t.support[j])}
    total = Fraction(sum(t.support))
    rows = {}
    for average in ("micro", "macro", "weighted"):
        rows[average] = {"precision": _average(t, cols["precision"], average, zd, _micro(t, "precision")),
                         "recall": _average(t, cols["recall"], average, zd, _micro(t, "recall")),
                         "f1-score": _average(t, cols["f1"], average, zd, _micro(t, "f1")),
                         "support": total}
    if t.all_inside:
        report["accuracy"] = rows["micro"]["precision"]
    else:
        report["micro avg"] = rows["micro"]
    report["macro avg"] = rows["macro"]
    report["weighted avg"] = rows["weighted"]
    return Result(report, stats=t.stats())


_INPUTS = {"y_true": "list of true labels (ints or strings)",
           "y_pred": "list of predicted labels, y_pred[i] for sample i",
           "labels": "optional: the declared classes, in order",
           "pos_label": "optional: the positive class of average=binary (default 1)"}

CONFUSION_MATRIX = Metric(
    name="confusion_matrix", family="classification",
    summary="K x K counts: rows are the true label, columns the prediction",
    knobs=(LABEL_SET, OUTSIDE), inputs=_INPUTS, compute_fn=compute_confusion_matrix)
ACCURACY = Metric(
    name="accuracy", family="classification", summary="Fraction of samples whose prediction equals the truth",
    knobs=(LABEL_SET, OUTSIDE), inputs=_INPUTS, compute_fn=compute_accuracy)
PER_CLASS_ACCURACY = Metric(
    name="per_class_accuracy", family="classification",
    summary="Per class: the diagonal cell over its row sum (= per-class recall); no samples: not measured",
    knobs=(LABEL_SET, OUTSIDE), inputs=_INPUTS, compute_fn=compute_per_class_accuracy)
PRECISION = Metric(
    name="precision", family="classification", summary="tp / (tp + fp), per class or averaged",
    knobs=(LABEL_SET, OUTSIDE_PRF, AVERAGE, ZERO_DIVISION), inputs=_INPUTS, compute_fn=_prf("precision"))
RECALL = Metric(
    name="recall", family="classification", summary="tp / (tp + fn), per class or averaged",
    knobs=(LABEL_SET, OUTSIDE_PRF, AVERAGE, ZERO_DIVISION), inputs=_INPUTS, compute_fn=_prf("recall"))
F1 = Metric(
    name="f1", family="classification",
    summary="F-beta = (1+b^2) tp / ((1+b^2) tp + b^2 fn + fp), per class or averaged",
    knobs=(LABEL_SET, OUTSIDE_PRF, AVERAGE, ZERO_DIVISION, BETA), inputs=_INPUTS, compute_fn=_prf("f1"))
BALANCED_ACCURACY = Metric(
    name="balanced_accuracy", family="classification",
    summary="Mean per-class recall over the classes with samples (optionally chance-adjusted)",
    knobs=(LABEL_SET, OUTSIDE, ADJUSTED), inputs=_INPUTS, compute_fn=compute_balanced_accuracy)
CLASSIFICATION_REPORT = Metric(
    name="classification_report", family="classification",
    summary="Per-class precision, recall, F1 and support with accuracy (or micro), macro and weighted averages",
    knobs=(LABEL_SET, OUTSIDE_PRF, ZERO_DIVISION), inputs=_INPUTS, compute_fn=compute_classification_report)
