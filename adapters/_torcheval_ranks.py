"""torcheval's ranking functions over class scores (``functional/ranking``):
``reciprocal_rank(input, target, k)`` -> the oracle's ``label_reciprocal_rank``,
``hit_rate(input, target, k)`` -> ``top_k_accuracy``. Both take one row of class
scores and one target class index per sample and return per-sample values; the
metric is their mean, taken here exactly (a Fraction of the returned floats), so
that only the library's own arithmetic is judged.

Conventions, from the source (torcheval 0.0.7):
- ties: ``rank = torch.gt(input, y_score).sum(dim=-1)`` (reciprocal_rank.py,
  hit_rate.py): the classes scored strictly above the target; the target is first
  among its ties (ties=optimistic).
- k: reciprocal_rank.py ``score[rank >= k] = 0.0`` (0 beyond the cutoff); hit_rate.py
  ``(rank < k).float()``, and ``input.new_ones`` when k is None or at least the number
  of classes.
- values: ``torch.reciprocal(rank + 1.0)``: an int64 tensor plus a Python float is
  float32 (torch's default dtype), so the reciprocals are float32."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import LibraryOutput, Skip

from ._numbers import as_float
from oracle.compare import Tolerance

_SRC = "torcheval/metrics/functional/ranking"
METRICS = ("label_reciprocal_rank", "top_k_accuracy")
CAPABILITIES = {"label_reciprocal_rank": {"k": "*", "ties": ("optimistic",)},
                "top_k_accuracy": {"k": "*", "ties": ("optimistic",)}}
PROFILES = {"label_reciprocal_rank": {"k": "none", "ties": "optimistic"},
            # hit_rate's default k=None returns 1 for every sample, a value the oracle's knob
            # (k >= 1) holds as any k at least the number of classes; judged at the oracle's k
            "top_k_accuracy": {"k": "5", "ties": "optimistic"}}
SOURCES = {"label_reciprocal_rank": {"ties": f"{_SRC}/reciprocal_rank.py: rank = torch.gt(input, y_score).sum(dim=-1)",
                                     "k": f"{_SRC}/reciprocal_rank.py reciprocal_rank(k=None)"},
           "top_k_accuracy": {"ties": f"{_SRC}/hit_rate.py: rank = torch.gt(input, y_score).sum(dim=-1); rank < k",
                              "k": f"{_SRC}/hit_rate.py hit_rate(k=None): input.new_ones(target.size()) (every "
                                   "class counts); the oracle's default k=5 instead"}}
# per sample a float32 reciprocal (one rounding, relative 2**-24) or an exact 0/1
TOLERANCES = {"label_reciprocal_rank": Tolerance(ulps32=2), "top_k_accuracy": Tolerance(ulps=1)}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    k = settings.get("k", "none")
    return {"k": None if k == "none" else int(k)}


def _tensors(inputs: Mapping):
    """(input, target) tensors: float64 scores in the columns' class order, the target
    classes as indices (a label outside the declared classes becomes the index one past
    the last, which the library's gather refuses)."""
    import torch
    y_true, y_score = inputs.get("y_true"), inputs.get("y_score")
    if not isinstance(y_true, list) or not isinstance(y_score, list) or not y_true:
        raise Skip("torcheval's ranking functions take a target per sample and a score row each")
    if "labels" in inputs:
        classes = list(inputs["labels"])
    else:
        try:
            classes = sorted(set(y_true))
        except TypeError:
            raise Skip("labels of mixed types have no class order to index by") from None
    index = {c: j for j, c in enumerate(classes)}
    try:
        rows = [[as_float(v) if isinstance(v, str) else float(v) for v in row] for row in y_score]
        target = [index.get(t, len(classes)) for t in y_true]
        return torch.tensor(rows, dtype=torch.float64), torch.tensor(target, dtype=torch.int64), len(classes)
    except (TypeError, ValueError, ZeroDivisionError):
        raise Skip("scores torch cannot hold as float64") from None


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    import torcheval.metrics.functional as F
    x, t, n_classes = _tensors(inputs)
    if metric == "top_k_accuracy" and n_classes < 3:
        raise Skip("the oracle's top_k_accuracy follows scikit-learn in refusing fewer than three classes; "
                   "torcheval's hit_rate ranks any number")
    fn = F.reciprocal_rank if metric == "label_reciprocal_rank" else F.hit_rate
    per = fn(x, t, k=options["k"])
    values = per.tolist()
    return LibraryOutput(value=sum(map(Fraction, values), Fraction(0)) / len(values), raw=values)
