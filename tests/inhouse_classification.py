"""In-house-style confusion matrices and per-class accuracies, judged by the suite in the tests.

Source document 003 builds the matrix pair by pair (``cm[l, p] += 1`` in a
loop, its ``cm_benar``) and warns about two mistakes that these functions
make, one each:

- ``confusion_matrix_fancy_index`` fills the matrix with one NumPy
  fancy-index statement, ``cm[y_true, y_pred] += 1`` (the document's
  ``cm_salah``): a read, add one, write back over all index pairs at once, so a
  pair that occurs r times adds 1, not r ("Jebakan indeks duplikat").
- ``per_class_accuracy_swapped`` builds the matrix with the orientation
  swapped, ``cm[pred, label]`` ("Kesalahan pertama ... menukar orientasi"),
  then divides each diagonal cell by its row sum, which is now the number of
  predictions of the class: a precision, not an accuracy (and a class with
  samples but no prediction is reported as not measured). Of the document's
  three mistakes this is the one picked here; it guards the empty row (no
  NaN) and counts in integers, so the orientation is its only defect.

``confusion_matrix_by_pairs`` and ``per_class_accuracy_by_rows`` are the
document's correct forms, which the suite must pass.
"""
import numpy as np

from conformance.functions import implementation


def _classes(inputs) -> list:
    """The declared labels when given (label_set=auto), else the sorted union. Refuses, as
    the spec does, unequal lengths, a label declared twice and a sample whose label is not
    declared."""
    if len(inputs["y_true"]) != len(inputs["y_pred"]):
        raise ValueError("y_true and y_pred differ in length")
    if "labels" in inputs:
        labels = list(inputs["labels"])
        if len(set(map(repr, labels))) != len(labels):
            raise ValueError(f"labels: a label is declared twice: {labels}")
        undeclared = {repr(x) for x in list(inputs["y_true"]) + list(inputs["y_pred"])} - set(map(repr, labels))
        if undeclared:
            raise ValueError(f"labels {sorted(undeclared)} are not among the declared labels")
        return labels
    return sorted(set(inputs["y_true"]) | set(inputs["y_pred"]))


def _indices(inputs):
    classes = _classes(inputs)
    index = {c: i for i, c in enumerate(classes)}
    rows = np.array([index[t] for t in inputs["y_true"]], dtype=np.int64)
    cols = np.array([index[p] for p in inputs["y_pred"]], dtype=np.int64)
    return classes, rows, cols


@implementation("confusion_matrix", conventions={}, name="confusion-matrix-fancy-index")
def confusion_matrix_fancy_index(inputs):
    classes, rows, cols = _indices(inputs)
    cm = np.zeros((len(classes), len(classes)), dtype=np.int64)
    cm[rows, cols] += 1
    return cm.tolist()


@implementation("confusion_matrix", conventions={}, name="confusion-matrix-by-pairs")
def confusion_matrix_by_pairs(inputs):
    classes, rows, cols = _indices(inputs)
    cm = np.zeros((len(classes), len(classes)), dtype=np.int64)
    for r, c in zip(rows.tolist(), cols.tolist()):
        cm[r, c] += 1
    return cm.tolist()


def _per_class(classes, cm) -> dict:
    out = {}
    for k, c in enumerate(classes):
        row = int(cm[k].sum())
        out[c] = int(cm[k, k]) / row if row else None  # no samples: not measured
    return out


@implementation("per_class_accuracy", conventions={}, name="per-class-accuracy-swapped")
def per_class_accuracy_swapped(inputs):
    classes, rows, cols = _indices(inputs)
    cm = np.zeros((len(classes), len(classes)), dtype=np.int64)
    for r, c in zip(rows.tolist(), cols.tolist()):
        cm[c, r] += 1
    return _per_class(classes, cm)


@implementation("per_class_accuracy", conventions={}, name="per-class-accuracy-by-rows")
def per_class_accuracy_by_rows(inputs):
    classes = _classes(inputs)
    return _per_class(classes, np.array(confusion_matrix_by_pairs(inputs), dtype=np.int64).reshape(
        len(classes), len(classes)))
