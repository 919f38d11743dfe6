"""Multilabel indicator input for the classification figures: precision, recall,
F-beta and (subset) accuracy over an n x L matrix of 0/1 indicators.

Input: ``{"y_true": [[0, 1, 1], ...], "y_pred": [[0, 1, 0], ...]}``, one row
per sample and one column per label (scikit-learn's "multilabel-indicator"
target, ``sklearn.utils.multiclass.type_of_target``: at least two columns; an
n x 1 input is a column of labels, read as single-label data, as scikit-learn's
``column_or_1d`` reads it); an entry is 0 or 1 (an int or a bool), or a 2-d
NumPy array of them. The labels are the column
indices 0..L-1. Optional ``"labels"``: the declared columns, in order
(scikit-learn ``labels=[...]`` on multilabel data selects those columns,
``y_true[:, labels]``, sklearn/metrics/_classification.py
``multilabel_confusion_matrix``).

Counts (scikit-learn ``multilabel_confusion_matrix``): per label j,
tp_j = #{i: y_ij = 1, p_ij = 1}, fp_j = #{i: y_ij = 0, p_ij = 1},
fn_j = #{i: y_ij = 1, p_ij = 0}, support_j = #{i: y_ij = 1}; per sample i
(``samplewise=True``), the same over the declared columns of row i. P, R and
F-beta of a unit are ``oracle.classification``'s (tp/(tp+fp), tp/(tp+fn),
(1+b^2)tp/((1+b^2)tp + b^2 fn + fp)), and the averages too: micro pools the
labels' counts, macro is the mean over the labels, weighted the mean weighted
by support, none the per-label values, and ``samples`` the mean over the
samples of each sample's value (scikit-learn ``average='samples'``:
"Calculate metrics for each instance, and find their average"), each 0/0
settled by ``zero_division`` as for a class. ``binary`` is refused: it needs
one positive class (scikit-learn: "Target is multilabel-indicator but
average='binary'").

Accuracy on multilabel input is subset accuracy: the fraction of samples whose
row of predictions equals the row of truths over the declared columns
(scikit-learn ``accuracy_score``: "the set of labels predicted for a sample
must exactly match the corresponding set of labels in y_true"; Tsoumakas and
Katakis 2007, "exact match ratio").

``outside``: a 1 in a column that is not declared is a label outside the
declared classes: ``error`` refuses it (naming ``y_true[i][j]``), ``drop`` and
``keep`` leave the column out, which on indicator input is the same thing
(columns are counted apart; scikit-learn's ``labels`` selection).

``sample_weight`` (one non-negative rational per row, scikit-learn's): every count per label
is a sum of the rows' weights; under ``samples`` each row's value enters the mean with its
weight (a weight-0 row is left out); subset accuracy is the weighted share of exact rows
(sklearn ``_weighted_sum``); a total weight of 0 is "no samples".

The confusion matrix, per-class accuracy, balanced accuracy and the report
are defined here for single-label data only: multilabel input is refused with
an InputError naming y_true.
"""
from __future__ import annotations

from fractions import Fraction

from .classification_knobs import LABEL_SET, OUTSIDE_PRF, SAMPLEWISE
from .conventions import InputError, Metric, Result
from .tally import Tally, _width, tally

_FIELDS = ("y_true", "y_pred", "labels", "pos_label", "sample_weight")


def is_multilabel(inputs) -> bool:
    """True when y_true is indicator input: 2-d with at least two columns (``type_of_target``:
    'multilabel-indicator' is 'an array of two dimensions with at least two columns')."""
    if not isinstance(inputs, dict):
        return False
    width = _width(inputs.get("y_true"))
    return width is not None and width >= 2


def _rows(xs, name: str) -> list:
    """The indicator rows of ``xs`` as lists of 0/1 ints, checked."""
    if hasattr(xs, "tolist") and not isinstance(xs, (list, tuple)):
        if len(getattr(xs, "shape", ())) != 2:
            raise InputError(f"{name}: expected a 2-d indicator array (samples x labels), got shape "
                             f"{tuple(xs.shape)}", item=name)
        if xs.dtype.kind not in "biu":
            raise InputError(f"{name}: expected 0/1 indicators, got an array of dtype {xs.dtype}", item=name)
        xs = xs.tolist()
    if not isinstance(xs, (list, tuple)):
        raise InputError(f"{name}: expected a list of indicator rows, got {type(xs).__name__}", item=name)
    out = []
    for i, row in enumerate(xs):
        if not isinstance(row, (list, tuple)):
            raise InputError(f"{name}[{i}]: a {type(row).__name__} among indicator rows; multilabel input "
                             "is a list of rows of 0/1 (single-label input is a list of labels)", item=f"{name}[{i}]")
        r = []
        for j, x in enumerate(row):
            if x is True or x is False:
                r.append(int(x))
            elif type(x) is int and x in (0, 1):
                r.append(x)
            elif hasattr(x, "item") and not isinstance(x, (list, tuple)) and x.item() in (0, 1) \
                    and type(x.item()) in (int, bool):
                r.append(int(x.item()))
            else:
                raise InputError(f"{name}[{i}][{j}]: {x!r} is not an indicator; multilabel entries are 0 or 1",
                                 item=f"{name}[{i}][{j}]")
        out.append(r)
    return out


def read_indicators(inputs, settings: dict):
    """(true rows, predicted rows, declared columns) of multilabel input, checked."""
    if settings.get("ignore_index", "none") != "none":
        raise InputError("ignore_index: leaves out the samples of one true label, which single-label input has; "
                         "y_true here is rows of indicators (multilabel)", item="ignore_index")
    unknown = sorted(set(inputs) - set(_FIELDS))
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are {', '.join(_FIELDS)}", item=unknown[0])
    if "y_pred" not in inputs:
        raise InputError("inputs: missing field 'y_pred'", item="y_pred")
    if not is_multilabel({"y_true": inputs["y_pred"]}) and len(inputs["y_pred"]):
        raise InputError("y_pred: a list of labels beside indicator rows in y_true; give both as rows of 0/1 "
                         "(scikit-learn: 'Classification metrics can't handle a mix of multilabel-indicator "
                         "and multiclass targets')", item="y_pred")
    yt, yp = _rows(inputs["y_true"], "y_true"), _rows(inputs["y_pred"], "y_pred")
    if len(yt) != len(yp):
        raise InputError(f"y_pred: {len(yp)} rows but y_true has {len(yt)}", item="y_pred")
    width = len(yt[0]) if yt else 0
    for name, rows in (("y_true", yt), ("y_pred", yp)):
        for i, r in enumerate(rows):
            if len(r) != width:
                raise InputError(f"{name}[{i}]: {len(r)} indicators, but y_true[0] has {width} (one per label)",
                                 item=f"{name}[{i}]")
    if settings.get("average") == "binary":
        raise InputError("y_true: multilabel indicator input has no single positive class for average=binary "
                         "(use micro, macro, weighted, samples or none)", item="y_true")
    columns = list(range(width))
    declared = inputs.get("labels")
    if declared is not None and settings.get("label_set") != "union":
        columns = _declared_columns(declared, width)
        rest = set(range(width)) - set(columns)
        if rest and settings.get("outside", "error") == "error":
            for name, rows in (("y_true", yt), ("y_pred", yp)):
                for i, r in enumerate(rows):
                    j = next((j for j in sorted(rest) if r[j]), None)
                    if j is not None:
                        raise InputError(f"{name}[{i}][{j}]: label {j} is not among the declared labels "
                                         f"{columns!r} (outside=drop or keep to leave its column out)",
                                         item=f"{name}[{i}][{j}]")
    elif settings.get("label_set") == "declared":
        raise InputError("labels: label_set=declared needs inputs.labels", item="labels")
    return yt, yp, columns


def _row_weights(inputs, n: int) -> list | None:
    """The checked ``sample_weight`` of indicator rows (one per row), or None."""
    if "sample_weight" not in inputs:
        return None
    from .tally import _weights
    return _weights(inputs["sample_weight"], n)


def _declared_columns(declared, width: int) -> list:
    if hasattr(declared, "tolist") and not isinstance(declared, (list, tuple)):
        declared = declared.tolist()
    if not isinstance(declared, (list, tuple)) or not declared:
        raise InputError("labels: on multilabel input, a non-empty list of column indices", item="labels")
    seen: dict = {}
    for k, j in enumerate(declared):
        if type(j) is not int or not 0 <= j < width:
            raise InputError(f"labels[{k}]: {j!r} is not a column index 0..{width - 1} of the indicator rows",
                             item=f"labels[{k}]")
        if j in seen:
            raise InputError(f"labels[{k}]: {j!r} is already declared at labels[{seen[j]}]", item=f"labels[{k}]")
        seen[j] = k
    return list(declared)


def indicator_tally(inputs, settings: dict, by: str = "label") -> Tally:
    """The counts per declared label (``by="label"``) or per sample (``by="sample"``,
    over the declared columns), as a Tally whose units are the labels or the samples."""
    yt, yp, columns = read_indicators(inputs, settings)
    weights = _row_weights(inputs, len(yt))
    n = len(yt) if weights is None else sum(weights, Fraction(0))
    if by == "label":
        zero = 0 if weights is None else Fraction(0)
        tp = [zero] * len(columns)
        fp = [zero] * len(columns)
        fn = [zero] * len(columns)
        for i, (rt, rp) in enumerate(zip(yt, yp)):
            w = 1 if weights is None else weights[i]
            for k, j in enumerate(columns):
                a, b = rt[j], rp[j]
                if a and b:
                    tp[k] += w
                elif b:
                    fp[k] += w
                elif a:
                    fn[k] += w
        support = [t + f for t, f in zip(tp, fn)]
        return Tally(list(columns), None, n, 0, tp, fp, fn, support, unit="label")
    tp, fp, fn = [], [], []
    for rt, rp in zip(yt, yp):
        a = b = c = 0
        for j in columns:
            if rt[j] and rp[j]:
                a += 1
            elif rp[j]:
                b += 1
            elif rt[j]:
                c += 1
        tp.append(a)
        fp.append(b)
        fn.append(c)
    support = [t + f for t, f in zip(tp, fn)]
    return Tally(list(range(len(yt))), None, n, 0, tp, fp, fn, support, unit="sample", unit_weights=weights)


def subset_accuracy(inputs, settings: dict) -> tuple[Fraction | None, dict]:
    """(#{i: row i of y_pred equals row i of y_true over the declared columns} / n, stats);
    None for no samples."""
    yt, yp, columns = read_indicators(inputs, settings)
    weights = _row_weights(inputs, len(yt))
    exact = [all(rt[j] == rp[j] for j in columns) for rt, rp in zip(yt, yp)]
    if weights is None:   # counts (ints)
        correct, total = sum(exact), len(yt)
    else:                 # sums of weights (Fractions)
        correct = sum((w for w, e in zip(weights, exact) if e), Fraction(0))
        total = sum(weights, Fraction(0))
    stats = {"labels": columns, "n": total, "correct": correct}
    return (Fraction(correct) / total if total else None), stats


def compute_multilabel_confusion_matrix(inputs, settings: dict) -> Result:
    """Per label j (binary relevance: Tsoumakas and Katakis 2007), the 2 x 2 matrix
    [[tn_j, fp_j], [fn_j, tp_j]] (scikit-learn ``multilabel_confusion_matrix``'s layout), with
    tn_j = N - tp_j - fp_j - fn_j, N the samples (or their total weight). Indicator rows: the
    declared columns; single-label data: each class one-vs-rest, a sample of a label outside
    the declared ones counted as ``outside`` says. ``samplewise=yes`` (indicator rows only): one
    matrix per sample over its declared columns, tn_i = L - tp_i - fp_i - fn_i, scaled by the
    sample's weight."""
    if is_multilabel(inputs):
        by = "sample" if settings["samplewise"] == "yes" else "label"
        t = indicator_tally(inputs, settings, by=by)
        if by == "sample":
            width = len(read_indicators(inputs, settings)[2])
            ws = t.unit_weights or [1] * len(t.tp)
            cells = [(w * width - w * (a + b + c), w * b, w * c, w * a) for w, a, b, c in zip(ws, t.tp, t.fp, t.fn)]
        else:
            cells = [(t.n - a - b - c, b, c, a) for a, b, c in zip(t.tp, t.fp, t.fn)]
    else:
        if settings["samplewise"] == "yes":
            raise InputError("y_true: samplewise matrices are defined for multilabel indicator rows, not for a list "
                             "of labels (scikit-learn: 'Samplewise metrics are not available outside of multilabel "
                             "classification')", item="y_true")
        t, _ = tally(inputs, settings, with_matrix=False)
        cells = [(t.n - a - b - c, b, c, a) for a, b, c in zip(t.tp, t.fp, t.fn)]
    value = [[[tn, fp], [fn, tp]] for tn, fp, fn, tp in cells]
    return Result(value, stats=t.stats(), parts={"labels": list(t.classes)})


MULTILABEL_CONFUSION_MATRIX = Metric(
    name="multilabel_confusion_matrix", family="classification",
    summary="Per label (or per sample) the 2 x 2 matrix [[tn, fp], [fn, tp]] of binary relevance",
    knobs=(LABEL_SET, OUTSIDE_PRF, SAMPLEWISE),
    inputs={"y_true": "indicator rows (n x L of 0/1), or a list of labels", "y_pred": "the same shape as y_true",
            "labels": "optional: the declared labels (columns of indicator rows), in order"},
    compute_fn=compute_multilabel_confusion_matrix)
