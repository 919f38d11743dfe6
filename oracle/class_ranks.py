"""The reciprocal rank of the true class among a sample's class scores, the mean over
the samples: the mean reciprocal rank (MRR) of classification read as ranking, one
relevant item (the true class) per sample.

Definition (Voorhees 1999, "The TREC-8 Question Answering Track Report": the
reciprocal of the rank of the first correct answer, 0 when none is in the top k;
torcheval ``reciprocal_rank(input, target, k)``, one row of class scores and one
target class per sample). Per sample, with a classes scored above the true class
and t scoring the same (the true class included), the true class takes a position
p in a + 1 .. a + t:

    RR = 1 / p if p <= k, else 0;   MRR = (1/n) sum over the n samples.

Inputs: as ``top_k_accuracy`` (``oracle.score_ranking``): ``y_true`` labels,
``y_score`` rows of one score per class in sorted class order, optional ``labels``;
one class or more.

Knobs
- ``k``: ``none`` (default: every rank counts) or a cutoff (torcheval ``k``).
- ``ties``: ``expected`` (default: the mean of 1/p over the t positions, each equally
  likely; McSherry and Najork 2008), ``optimistic`` (p = a + 1: torcheval,
  ``rank = torch.gt(input, y_score).sum(dim=-1)``), ``pessimistic`` (p = a + t),
  ``reverse-label-order`` (the tied classes of higher index first, as a reversed
  stable sort puts them).

Degenerate and invalid inputs: as ``top_k_accuracy`` (golden/bad_input/score_ranking.json),
except that one or two classes are ranked like any other number."""
from __future__ import annotations

from fractions import Fraction

from .conventions import Knob, Metric, Result
from .score_ranking import TOP_K_TIES, _top_k_inputs


def reciprocal_rank_of(row: list, true: int, k: int | None, ties: str) -> Fraction:
    """RR of class ``true`` in ``row`` (exact scores) under cutoff k (None: no cutoff)."""
    s = row[true]
    above = sum(1 for x in row if x > s)
    tied = sum(1 for x in row if x == s)
    if ties == "expected":
        last = above + tied if k is None else min(above + tied, k)
        return sum((Fraction(1, p) for p in range(above + 1, last + 1)), Fraction(0)) / tied
    if ties == "optimistic":
        p = above + 1
    elif ties == "pessimistic":
        p = above + tied
    else:   # reverse-label-order
        p = above + 1 + sum(1 for j, x in enumerate(row) if x == s and j > true)
    return Fraction(1, p) if k is None or p <= k else Fraction(0)


def compute_label_reciprocal_rank(inputs, settings: dict) -> Result:
    """MRR of the true classes: the mean over the samples of 1 / (the true class's rank)."""
    true, rows, classes = _top_k_inputs(inputs, min_classes=1)
    k = None if settings["k"] == "none" else int(settings["k"])
    rrs = [reciprocal_rank_of(r, t, k, settings["ties"]) for r, t in zip(rows, true)]
    total = sum(rrs, Fraction(0))
    return Result(total / len(rrs), stats={"n": len(rrs), "classes": classes, "sum": total},
                  parts={"per_sample": [str(x) for x in rrs]})


RR_K = Knob("k", "only ranks up to k count (a lower true class scores 0; 'none': all)", "none", kind="int",
            minimum=1, special=("none",),
            sources={"none": "Voorhees 1999, The TREC-8 Question Answering Track Report (the rank of the first "
                             "correct answer)",
                     "*": "torcheval/metrics/functional/ranking/reciprocal_rank.py reciprocal_rank(k=None): "
                          "'score[rank >= k] = 0.0'"})
LABEL_RECIPROCAL_RANK = Metric(
    name="label_reciprocal_rank", family="score_ranking",
    summary="Mean reciprocal rank of the true class among each sample's class scores",
    knobs=(RR_K, TOP_K_TIES),
    inputs={"y_true": "the true labels", "y_score": "rows of one score per class, in sorted class order",
            "labels": "optional: the classes, sorted (when y_true lacks some)"},
    compute_fn=compute_label_reciprocal_rank)
