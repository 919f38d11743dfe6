"""torchmetrics' classification metrics (``torchmetrics.functional.classification``, 1.x)
mapped onto the oracle's classification family.

| metric | call |
| --- | --- |
| ``confusion_matrix`` | ``multiclass_confusion_matrix(preds, target, num_classes, normalize)`` |
| ``accuracy`` | ``multiclass_accuracy(..., average='micro')`` (the share of correct samples) |
| ``per_class_accuracy`` | ``multiclass_recall(..., average='none')``, keyed by label |
| ``balanced_accuracy`` | ``multiclass_recall(..., average='macro')`` (the mean per-class recall) |
| ``precision``, ``recall``, ``f1`` | ``multiclass_precision`` / ``_recall`` / ``_f1_score`` / ``_fbeta_score(beta)`` with ``average`` and ``zero_division``; ``binary_*`` for ``average=binary``; ``multilabel_*`` for indicator rows |

The library takes class indices 0..C-1: the labels are numbered in the oracle's label
order (the declared ``labels``, or the sorted labels seen, as ``label_set`` says), and
``num_classes`` is their number. A label outside a declared list is passed as index C, which
the library's argument check refuses (``outside=error``).

Profile (1.9.0): ``average='macro'`` for precision, recall and F1 (the multiclass
functions' default), ``zero_division=0``. ``multiclass_accuracy`` defaults to
``average='macro'`` too, which is the mean per-class recall (the oracle's
``balanced_accuracy``); the oracle's ``accuracy`` is its ``average='micro'``. A macro
average leaves out a class with no sample and no prediction (``_adjust_weights_safe_divide``,
utilities/compute.py: ``weights[tp + fp + fn == 0] = 0.0``), which only a declared label
list can create; the run shows where that differs from the oracle. Values are float32.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, LibraryOutput, Skip

from ._numbers import as_float, setting_double
from ._tensors import one_dtype
from oracle.compare import Tolerance

METRICS = ("confusion_matrix", "accuracy", "per_class_accuracy", "balanced_accuracy", "precision", "recall", "f1")
_SETS = ("auto", "declared", "union")
def _int_label(value: str, settings: Mapping[str, str]) -> bool:
    """torchmetrics' ignore_index is an int (stat_scores.py: 'Expected argument `ignore_index` to either be
    `None` or an integer'): offered for none and int labels (the adapter maps the label to its class index)."""
    try:
        int(value)
        return True
    except ValueError:
        return value == "none"


_PRF = {"label_set": _SETS, "outside": ("error",), "average": ("micro", "macro", "weighted", "none", "binary"),
        "zero_division": ("zero", "one"), "ignore_index": _int_label, "top_k": ("1", "2", "3")}
CAPABILITIES = {
    "confusion_matrix": {"label_set": _SETS, "outside": ("error",), "normalize": ("none", "true", "pred", "all"),
                         "ignore_index": _int_label},
    "accuracy": {"label_set": _SETS, "outside": ("error",), "ignore_index": _int_label, "top_k": ("1", "2", "3")},
    "per_class_accuracy": {"label_set": _SETS, "outside": ("error",), "ignore_index": _int_label},
    "balanced_accuracy": {"label_set": _SETS, "outside": ("error",), "adjusted": ("no",), "ignore_index": _int_label},
    "precision": dict(_PRF), "recall": dict(_PRF), "f1": dict(_PRF, beta=ANY),
}
_PRF_PROFILE = {"label_set": "auto", "outside": "error", "average": "macro", "zero_division": "zero", "top_k": "1"}
PROFILES = {
    "confusion_matrix": {"label_set": "auto", "outside": "error", "normalize": "none"},
    "accuracy": {"label_set": "auto", "outside": "error", "top_k": "1"},
    "per_class_accuracy": {"label_set": "auto", "outside": "error"},
    "balanced_accuracy": {"label_set": "auto", "outside": "error", "adjusted": "no"},
    "precision": dict(_PRF_PROFILE), "recall": dict(_PRF_PROFILE), "f1": dict(_PRF_PROFILE, beta="1"),
}
INPUT_FORMS = {m: ("multilabel", "scores") for m in ("precision", "recall", "f1")}
INPUT_FORMS["accuracy"] = ("scores",)
SOURCES = {
    "average": "torchmetrics/functional/classification/precision_recall.py multiclass_precision(average='macro') "
               "(multiclass_recall, multiclass_f1_score alike)",
    "zero_division": "precision_recall.py multiclass_precision(zero_division=0): 'Value to replace when there "
                     "is a division by zero'",
    "outside": "classification/stat_scores.py _multiclass_stat_scores_tensor_validation: values of target or "
               "preds outside [0, num_classes) raise RuntimeError",
    "normalize": "classification/confusion_matrix.py multiclass_confusion_matrix(normalize=None)",
    "ignore_index": "classification/stat_scores.py multiclass_stat_scores(ignore_index=None): 'Specifies a target "
                    "value that is ignored and does not contribute to the metric calculation'",
    "top_k": "classification/stat_scores.py multiclass_stat_scores(top_k=1): 'Number of highest probability or "
             "logit score predictions considered to find the correct label, relevant only for (multi-dimensional) "
             "multi-class inputs'; _refine_preds_oh: the target where it is among topk, else the top-1 index",
}
# float32: a per-class ratio is one float32 division of integer counts (exact below 2**24);
# a macro or weighted average adds a float32 sum of weighted ratios and a division.
TOLERANCES = {"confusion_matrix": Tolerance(ulps32=1), "accuracy": Tolerance(ulps32=1),
              "per_class_accuracy": Tolerance(ulps32=1), "balanced_accuracy": Tolerance(ulps32=8),
              "precision": Tolerance(ulps32=8), "recall": Tolerance(ulps32=8), "f1": Tolerance(ulps32=16)}


def supports(metric: str, settings: Mapping[str, str]) -> str | None:
    """A declared label set under a macro average cannot be passed (see the module's notes)."""
    macro = settings.get("average") == "macro" or metric == "balanced_accuracy"
    if macro and settings.get("label_set") == "declared":
        return ("label_set=declared: torchmetrics leaves a class with no sample and no prediction out of a "
                "macro average (utilities/compute.py:92, weights[tp + fp + fn == 0] = 0), which is the "
                "average over the labels seen (label_set=union) whatever num_classes says")
    return None


def options(metric: str, settings: Mapping[str, str]) -> dict:
    opts = {"label_set": settings["label_set"], "average": settings.get("average"),
            "zero_division": 1 if settings.get("zero_division") == "one" else 0,
            "normalize": settings.get("normalize", "none"), "ignore_index": settings.get("ignore_index", "none")}
    if "beta" in settings:
        opts["beta"] = settings["beta"]
    opts["top_k"] = int(settings.get("top_k", "1"))
    return opts


def _rows(y) -> bool:
    try:
        return len(y) > 0 and hasattr(y[0], "__len__") and not isinstance(y[0], str)
    except Exception:
        return False


def _label_order(label_set: str, inputs: Mapping, y_true: list, y_pred: list) -> list:
    if label_set == "declared" and inputs.get("labels") is None:
        raise Skip("label_set=declared without inputs.labels")
    if label_set in ("auto", "declared") and inputs.get("labels") is not None:
        return list(inputs["labels"])
    try:
        return sorted(set(y_true) | set(y_pred))
    except TypeError:
        raise Skip("labels of mixed types have no sorted order to number them by") from None


def _tensors(inputs: Mapping, options: Mapping):
    """(target, preds, labels): the labels numbered in the oracle's order."""
    return tensors_ignoring(inputs, options)[:3]


def tensors_ignoring(inputs: Mapping, options: Mapping):
    """(target, preds, labels, the ignore_index to pass or None)."""
    import torch
    y_true, y_pred = [_py(x) for x in inputs["y_true"]], [_py(x) for x in inputs["y_pred"]]
    odd = [y for y in y_true + y_pred if isinstance(y, (bool, float))]
    if odd:
        # a bool or float label is passed as it is, for the library to refuse (numbering it
        # here would hide it)
        labels = _label_order("union", {}, y_true, y_pred)
        return torch.tensor(y_true), torch.tensor(y_pred), labels, None
    declared = inputs.get("labels")
    if declared is not None and len(set(map(repr, declared))) < len(declared):
        raise Skip("torchmetrics takes num_classes, not a label list: a label declared twice cannot be passed")
    ignored = _ignored_label(options.get("ignore_index", "none"), y_true + y_pred)
    if ignored is _NOTHING or len(y_true) != len(y_pred):   # unequal lengths: for the library to refuse
        labels = _label_order(options["label_set"], inputs, y_true, y_pred)
    else:
        kept = [i for i, y in enumerate(y_true) if y != ignored]
        labels = _label_order(options["label_set"], inputs, [y_true[i] for i in kept], [y_pred[i] for i in kept])
    index = {lab: i for i, lab in enumerate(labels)}
    c = len(labels)
    # the ignored label keeps its class index when it is a class (a counted sample predicts it),
    # else it is index C, passed as ignore_index; a label outside a declared list becomes the
    # next free index, which the library's argument check refuses
    ignore = None if ignored is _NOTHING else index.get(ignored, c)
    out = c + 1 if ignore == c else c
    t = torch.tensor([ignore if ignored is not _NOTHING and y == ignored else index.get(y, out) for y in y_true],
                     dtype=torch.long)
    p = torch.tensor([index.get(y, out) for y in y_pred], dtype=torch.long)
    return t, p, labels, ignore


_NOTHING = object()


def _ignored_label(text: str, labels: list):
    """The label the ignore_index knob names, as the labels are written (an int's decimal text
    is the int), or _NOTHING."""
    if text == "none":
        return _NOTHING
    if labels and all(isinstance(y, int) for y in labels):
        return int(text)
    return text


def _py(x):
    return x.item() if hasattr(x, "item") else x


_NUM_CLASSES_ZERO = {"confusion_matrix": "multiclass_confusion_matrix", "accuracy": "multiclass_accuracy",
                     "per_class_accuracy": "multiclass_recall", "balanced_accuracy": "multiclass_recall",
                     "precision": "multiclass_precision", "recall": "multiclass_recall", "f1": "multiclass_f1_score"}


def call(metric: str, options: Mapping, inputs: Mapping, C=None) -> LibraryOutput:
    """One call of the functional API ``C`` (``torchmetrics.functional.classification``, or a
    namespace of the same names that feeds the stateful classes)."""
    if C is None:
        import torchmetrics.functional.classification as C

    untranslatable(inputs)
    if declared_none(inputs) and metric in _NUM_CLASSES_ZERO:
        target, preds, _ = _tensors(dict(inputs, labels=None), dict(options, label_set="union"))
        v = getattr(C, _NUM_CLASSES_ZERO[metric])(preds, target, num_classes=0)
        return LibraryOutput(value=v.tolist() if v.dim() else float(v))
    if "y_score" in inputs:
        return _scored(metric, options, inputs, C)
    if _rows(inputs["y_true"]) or _rows(inputs["y_pred"]):
        if all(len(r) == 1 for r in list(inputs["y_true"]) + list(inputs["y_pred"])):
            # an n x 1 indicator is a column of labels (the oracle reads it so, as scikit-learn does)
            inputs = dict(inputs, y_true=[r[0] for r in inputs["y_true"]], y_pred=[r[0] for r in inputs["y_pred"]])
        else:
            return _multilabel(metric, options, inputs, C)
    target, preds, labels, ignore = tensors_ignoring(inputs, options)
    ig = {"ignore_index": ignore} if ignore is not None else {}
    c = len(labels)
    if c == 0:
        raise Skip("no label at all: torchmetrics needs num_classes >= 1")
    if metric == "confusion_matrix":
        how = options["normalize"]
        cm = C.multiclass_confusion_matrix(preds, target, num_classes=c, normalize=None if how == "none" else how, **ig)
        cast = int if how == "none" else float
        return LibraryOutput(value=[[cast(x) for x in row] for row in cm.tolist()])
    if metric == "accuracy":
        return LibraryOutput(value=float(C.multiclass_accuracy(preds, target, num_classes=c, average="micro", **ig)))
    if metric == "balanced_accuracy":
        return LibraryOutput(value=float(C.multiclass_recall(preds, target, num_classes=c, average="macro", **ig)))
    if metric == "per_class_accuracy":
        # zero_division=NaN: a class without samples has no value (the library's float parameter)
        v = C.multiclass_recall(preds, target, num_classes=c, average="none", zero_division=float("nan"), **ig)
        return LibraryOutput(value={lab: float(x) for lab, x in zip(labels, v.tolist())})
    average, zd = options["average"], options["zero_division"]
    if average == "binary":
        import torch
        pos = inputs.get("pos_label", 1)
        if not set(labels) <= {0, 1}:
            if len(labels) > 2 or pos not in labels or ignore is not None:
                raise Skip("average=binary: torchmetrics' binary functions take two labels, one of them pos_label")
            # two other labels: pos_label is passed as 1 and the other label as 0 (a renaming;
            # tp, fp and fn do not change)
            t = torch.tensor([int(_py(y) == pos) for y in inputs["y_true"]], dtype=torch.long)
            p = torch.tensor([int(_py(y) == pos) for y in inputs["y_pred"]], dtype=torch.long)
            fn = {"precision": C.binary_precision, "recall": C.binary_recall, "f1": C.binary_fbeta_score}[metric]
            kw = {"beta": _beta(options)} if metric == "f1" else {}
            return LibraryOutput(value=float(fn(p, t, zero_division=zd, **kw)))
        # the binary functions count 1 as positive: pos_label 0 is passed as 1 - y
        flip = (lambda y: 1 - y) if pos == 0 else (lambda y: y)
        if ignore is not None:   # the binary functions take the raw targets: the ignored label, flipped alike
            ig = {"ignore_index": flip(_ignored_label(options["ignore_index"], [_py(y) for y in inputs["y_true"]]))}
        t = torch.tensor([flip(_py(y)) for y in inputs["y_true"]], dtype=torch.long)
        p = torch.tensor([flip(_py(y)) for y in inputs["y_pred"]], dtype=torch.long)
        fn = {"precision": C.binary_precision, "recall": C.binary_recall, "f1": C.binary_fbeta_score}[metric]
        kw = {"beta": _beta(options)} if metric == "f1" else {}
        return LibraryOutput(value=float(fn(p, t, zero_division=zd, **kw, **ig)))
    fn = {"precision": C.multiclass_precision, "recall": C.multiclass_recall, "f1": C.multiclass_fbeta_score}[metric]
    kw = {"beta": _beta(options)} if metric == "f1" else {}
    v = fn(preds, target, num_classes=c, average=average, zero_division=zd, **kw, **ig)
    if average == "none":
        return LibraryOutput(value={lab: float(x) for lab, x in zip(labels, v.tolist())})
    return LibraryOutput(value=float(v))


def call_bare(metric: str, inputs: Mapping, C=None) -> LibraryOutput:
    """``multiclass_confusion_matrix(preds, target, num_classes)``, ``multiclass_accuracy``,
    ``multiclass_precision``, ``multiclass_recall``, ``multiclass_f1_score`` with the labels
    numbered in sorted order (num_classes is required; nothing optional is passed; ``C``: the
    functional API, or the stateful classes behind its names)."""
    if C is None:
        import torchmetrics.functional.classification as C
    if "y_score" in inputs or _rows(inputs["y_true"]) or _rows(inputs["y_pred"]):
        raise Skip("score rows and indicator rows go to other functions (multilabel_*, top_k): the bare call is "
                   "judged on label inputs")
    fn = {"confusion_matrix": C.multiclass_confusion_matrix, "accuracy": C.multiclass_accuracy,
          "precision": C.multiclass_precision, "recall": C.multiclass_recall, "f1": C.multiclass_f1_score}.get(metric)
    if fn is None:
        raise Skip(f"torchmetrics has no function of its own for {metric} (the adapter maps it onto another "
                   "function's options)")
    if "pos_label" in inputs:
        raise Skip("a pos_label input names the binary task: binary_* take no num_classes")
    untranslatable(inputs)
    target, preds, labels, _ = tensors_ignoring(inputs, {"label_set": "auto"})
    if not labels:
        raise Skip("no label at all: torchmetrics needs num_classes >= 1")
    v = fn(preds, target, num_classes=len(labels))
    if metric == "confusion_matrix":
        return LibraryOutput(value=[[int(x) for x in row] for row in v.tolist()])
    return LibraryOutput(value=float(v))


def score_tensors(inputs: Mapping):
    """(preds: float64 N x C, target: class indices, classes) of score-row input; the columns are
    the declared labels (or 0..C-1); a true label outside them is index C (the library refuses it)."""
    import torch
    rows, y_true = inputs["y_score"], [_py(y) for y in inputs["y_true"]]
    classes = list(inputs["labels"]) if inputs.get("labels") is not None else list(range(len(rows[0]) if rows else 0))
    index = {c: i for i, c in enumerate(classes)}
    try:
        preds = torch.tensor([[as_float(x) if isinstance(x, str) else float(x) for x in r] for r in rows],
                             dtype=torch.float64)
    except (TypeError, ValueError, ZeroDivisionError):
        raise Skip("scores torch cannot hold as float64") from None
    return preds, torch.tensor([index.get(y, len(classes)) for y in y_true], dtype=torch.long), classes


def _scored(metric: str, options: Mapping, inputs: Mapping, C) -> LibraryOutput:
    """Rows of class scores: ``preds`` of shape (N, C), ``top_k``."""
    if metric not in ("accuracy", "precision", "recall", "f1"):
        raise Skip(f"{metric}: the adapter passes score rows to accuracy, precision, recall and F only")
    if options["label_set"] == "union":
        raise Skip("label_set=union: torchmetrics' classes are the score columns (num_classes), not the labels seen")
    if options.get("ignore_index", "none") != "none" or options.get("average") == "binary":
        raise Skip("score rows with ignore_index or average=binary are not passed")
    if not inputs["y_score"]:
        raise Skip("no sample: torchmetrics cannot shape an empty score matrix")
    preds, target, classes = score_tensors(inputs)
    kw = {"num_classes": len(classes), "top_k": options["top_k"]}
    if metric == "accuracy":
        return LibraryOutput(value=float(C.multiclass_accuracy(preds, target, average="micro", **kw)))
    average, zd = options["average"], options["zero_division"]
    fn = {"precision": C.multiclass_precision, "recall": C.multiclass_recall, "f1": C.multiclass_fbeta_score}[metric]
    extra = {"beta": _beta(options)} if metric == "f1" else {}
    v = fn(preds, target, average=average, zero_division=zd, **extra, **kw)
    if average == "none":
        return LibraryOutput(value={lab: float(x) for lab, x in zip(classes, v.tolist())})
    return LibraryOutput(value=float(v))


def _beta(options: Mapping, library: str = "torchmetrics") -> float:
    b = options.get("beta", "1")
    return float("inf") if b == "inf" else setting_double("beta", b, library)


def untranslatable(inputs: Mapping, library: str = "torchmetrics") -> None:
    """``Skip`` for a classification input no tensor keeps as written (``adapters._tensors``):
    a text where a list of labels belongs, a bool beside other labels, an element that is no
    label (None, a Decimal); labels and scores given together (the library takes one
    ``preds``); a ``pos_label`` that is not one of the labels, or not an int or a text (the
    libraries take no pos_label: the adapters rename the positive label to 1, and such a
    pos_label has no renaming)."""
    for field in ("y_true", "y_pred"):
        if field in inputs:
            one_dtype(field, inputs[field], numbers_only=False)
    if "y_score" in inputs:
        if "y_pred" in inputs:
            raise Skip(f"y_pred and y_score together: {library} takes one preds tensor, labels or scores")
        one_dtype("y_score", inputs["y_score"])
    if "pos_label" in inputs:
        pos, seen = inputs["pos_label"], []
        for field in ("y_true", "y_pred"):
            seen.extend(_py(y) for y in inputs.get(field) or [] if not isinstance(y, list))
        if inputs.get("labels") is not None:
            seen.extend(inputs["labels"])
        if isinstance(pos, (bool, float)) or not isinstance(pos, (int, str)) or pos not in seen:
            raise Skip(f"pos_label {pos!r}: {library}'s binary functions take no pos_label (1 is positive); the "
                       "adapter renames the positive label to 1, and this pos_label is not one of the labels "
                       "(or not an int or a text) to rename")


def declared_none(inputs: Mapping) -> bool:
    """An empty declared label list: passed as num_classes=0, for the library to refuse."""
    return inputs.get("labels") is not None and len(inputs["labels"]) == 0


def _multilabel(metric: str, options: Mapping, inputs: Mapping, C) -> LibraryOutput:
    import torch

    if metric not in ("precision", "recall", "f1"):
        raise Skip(f"{metric} of indicator rows is not mapped onto torchmetrics")
    if options.get("ignore_index", "none") != "none":
        raise Skip("ignore_index on indicator rows: torchmetrics masks the entries equal to it, the oracle's knob "
                   "leaves out single-label samples")
    if inputs.get("labels") is not None:
        raise Skip("torchmetrics' multilabel functions take every column; a declared column subset cannot be passed")
    try:
        t = torch.tensor([[int(x) for x in row] for row in inputs["y_true"]], dtype=torch.long)
        p = torch.tensor([[int(x) for x in row] for row in inputs["y_pred"]], dtype=torch.long)
    except (ValueError, TypeError) as e:
        raise Skip(f"indicator rows of unequal width cannot form a tensor ({e})") from None
    average = options["average"]
    if average == "binary":
        raise Skip("average=binary is not defined on indicator rows")
    n = t.shape[1] if t.dim() == 2 else 0
    if n == 0:
        raise Skip("no column: torchmetrics needs num_labels >= 1")
    fn = {"precision": C.multilabel_precision, "recall": C.multilabel_recall, "f1": C.multilabel_fbeta_score}[metric]
    kw = {"beta": _beta(options)} if metric == "f1" else {}
    v = fn(p, t, num_labels=n, average=average, zero_division=options["zero_division"], **kw)
    if average == "none":
        return LibraryOutput(value={j: float(x) for j, x in enumerate(v.tolist())})
    return LibraryOutput(value=float(v))


def single_class(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: single-label input whose label set, as the adapter numbers it, has one label
    (the library asks for ``num_classes`` > 1: classification/stat_scores.py
    _multiclass_stat_scores_arg_validation)."""
    if metric not in METRICS + ("matthews_corrcoef", "cohen_kappa"):
        return False
    try:
        if _rows(inputs["y_true"]) or _rows(inputs["y_pred"]):
            return False
        y_true, y_pred = [_py(x) for x in inputs["y_true"]], [_py(x) for x in inputs["y_pred"]]
        return len(_label_order(settings.get("label_set", "auto"), inputs, y_true, y_pred)) == 1
    except Exception:
        return False


def _seen(inputs: Mapping) -> set:
    return {_py(y) for y in list(inputs["y_true"]) + list(inputs["y_pred"])}


def as_labels(inputs: Mapping, settings: Mapping[str, str]) -> Mapping:
    """Score-row input as the label input the library's predictions make of it (other input
    unchanged): k = 1 takes ``argmax`` (the first of equal scores: stat_scores.py
    _multiclass_stat_scores_format ``preds.argmax(dim=1)``); k > 1 takes ``torch.topk(preds,
    k)`` and keeps the target where it is among those indices, else the first of them
    (_refine_preds_oh: ``top_1_indices = top_k_indices[:, 0]``). The order ``topk`` gives equal
    scores is not documented (it depends on the tensor's shape and size)."""
    if "y_score" not in inputs:
        return inputs
    import torch
    preds, target, classes = score_tensors(inputs)
    k = int(settings.get("top_k", "1"))
    if k == 1:
        picked = preds.argmax(dim=1).tolist()
    else:
        # as the library holds them: preds reshaped to (N, C, 1) (_multiclass_stat_scores_format:
        # preds.reshape(*preds.shape[:2], -1)), targets to (N, 1); topk's order of equal scores
        # depends on that shape
        p3, t2 = preds.reshape(*preds.shape[:2], -1), target.reshape(target.shape[0], -1)
        top = torch.topk(p3, k=k, dim=1).indices
        hit = (top == t2.unsqueeze(1)).any(dim=1)
        picked = torch.where(hit, t2, top[:, 0]).reshape(-1).tolist()
    out = {key: v for key, v in inputs.items() if key != "y_score"}
    out["y_pred"] = [classes[j] for j in picked]
    return out


def topk_tie_order(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: score rows under top_k > 1 where the predictions ``topk``'s order of equal
    scores makes differ from the canonical ones (equal scores by column, the first first)."""
    if "y_score" not in inputs or int(settings.get("top_k", "1")) == 1:
        return False
    try:
        from oracle.tally import predicted_from_scores
        return as_labels(inputs, settings)["y_pred"] != predicted_from_scores(inputs, int(settings["top_k"]))
    except Exception:
        return False


def topk_tie_order_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """The oracle on the library's predictions (and over the classes its macro average keeps
    where it drops the others, ``macro_drops_unseen``: asked of the score rows themselves, since
    under top_k > 1 the rule is the classes with a sample, not the labels seen)."""
    from oracle.registry import compute
    if macro_drops_unseen(metric, settings, inputs):
        return macro_drops_unseen_model(metric, settings, inputs)
    return compute(metric, as_labels(inputs, settings), settings).value


def macro_drops_unseen(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: P, R or F under a macro average, single-label input, and a declared label
    that is neither a sample's label nor a prediction (tp + fp + fn = 0); with score rows
    under top_k > 1, for precision and recall, a declared class without a sample (tp + fn = 0:
    utilities/compute.py ``weights[tp + fp + fn == 0 if top_k == 1 else tp + fn == 0] = 0.0``,
    which precision_recall.py:59 calls with top_k; f_beta.py:58 calls it without, so F keeps
    the tp + fp + fn = 0 rule under every top_k)."""
    if metric not in ("precision", "recall", "f1") or settings.get("average") != "macro":
        return False
    try:
        scored = "y_score" in inputs and int(settings.get("top_k", "1")) > 1 and metric != "f1"
        inputs = as_labels(inputs, settings)
        if _rows(inputs["y_true"]) or _rows(inputs["y_pred"]) or inputs.get("labels") is None:
            return False
        seen = {_py(y) for y in inputs["y_true"]} if scored else _seen(inputs)
        return bool(set(map(_py, inputs["labels"])) - seen)
    except Exception:
        return False


def macro_drops_unseen_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """The library's value: the macro average over the labels seen, the oracle under
    label_set=union (the classes with tp + fp + fn > 0); with score rows under top_k > 1,
    the mean of the per-class values over the classes with a sample."""
    from oracle.registry import compute
    labelled = as_labels(inputs, settings)
    if "y_score" in inputs and int(settings.get("top_k", "1")) > 1 and metric != "f1":
        per = compute(metric, labelled, {**settings, "average": "none"}).value
        supported = [c for c in per if any(_py(y) == c for y in labelled["y_true"])]
        return sum((per[c] for c in supported), Fraction(0)) / len(supported) if supported else Fraction(0)
    return compute(metric, labelled, {**settings, "label_set": "union"}).value


def predicted_only_class(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: balanced accuracy, single-label input, and a class that is predicted but has
    no sample."""
    if metric != "balanced_accuracy":
        return False
    try:
        if _rows(inputs["y_true"]) or _rows(inputs["y_pred"]):
            return False
        return bool({_py(y) for y in inputs["y_pred"]} - {_py(y) for y in inputs["y_true"]})
    except Exception:
        return False


def predicted_only_class_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """The library's value: the mean recall over every class seen (a class with a sample or a
    prediction), a class without samples counting 0 (zero_division=0)."""
    y_true, y_pred = [_py(y) for y in inputs["y_true"]], [_py(y) for y in inputs["y_pred"]]
    classes = _seen(inputs)
    total = Fraction(0)
    for c in classes:
        support = sum(1 for t in y_true if t == c)
        hits = sum(1 for t, p in zip(y_true, y_pred) if t == c and p == c)
        total += Fraction(hits, support) if support else 0
    return total / len(classes)
