"""Invalid inputs for the property templates ``invalid:<kind>``: a valid generated
input made invalid in one way the bad-input tables name. The oracle decides: an
example counts only when the oracle refuses the changed input under the
library's settings (else hypothesis draws another). The library must refuse it
too: a clear error passes, a value fails ("accepts invalid input"), an
unrelated crash (IndexError, ZeroDivisionError...) is reported as such.

- ``unequal-length``: the second of two parallel lists (hypotheses and
  references, y_true and y_pred, gold and pred sentences...) loses its last item;
- ``truncated-sentence``: one predicted sentence loses its last tag;
- ``nan-score``: the first score, similarity or probability becomes NaN;
- ``unknown-label``: a label outside the declared ``labels`` in y_true and y_pred (or
  in y_true, with a row of y_score for it);
- ``duplicate-id``: a ranking (as a list of [document, score] pairs) lists its first
  document twice.
"""
from __future__ import annotations

import copy


from oracle.registry import get_metric

PARALLEL = ("hypotheses", "references", "predictions", "y_true", "y_pred", "y_score", "gold", "pred", "candidates",
            "answers", "tokens")
SCORED = ("run", "similarity", "probs", "logprobs", "logits", "y_score")


def _parallel(metric: str) -> list[str]:
    return [f for f in get_metric(metric).inputs if f in PARALLEL]


def kinds(metric: str) -> list[str]:
    """The invalid-input kinds that apply to ``metric``'s inputs."""
    fields = list(get_metric(metric).inputs)
    out = []
    if len(_parallel(metric)) >= 2:
        out.append("unequal-length")
    if "gold" in fields and "pred" in fields:
        out.append("truncated-sentence")
    if any(f in fields for f in SCORED):
        out.append("nan-score")
    if "labels" in fields and "y_true" in fields:
        out.append("unknown-label")
    if "run" in fields:
        out.append("duplicate-id")
    if "matches" in fields and "totals" in fields:
        out.append("matches-above-totals")
    return out


def mutate(kind: str, metric: str, inputs: dict) -> dict | None:
    """``inputs`` made invalid in the way ``kind`` names, or None where it cannot be."""
    x = copy.deepcopy(inputs)
    if kind == "unequal-length":
        fields = [f for f in _parallel(metric) if isinstance(x.get(f), list)]
        if len(fields) < 2 or not x[fields[1]] or len(x[fields[0]]) != len(x[fields[1]]):
            return None
        x[fields[1]] = x[fields[1]][:-1]
        return x
    if kind == "truncated-sentence":
        for i, (g, p) in enumerate(zip(x.get("gold", []), x.get("pred", []))):
            if g and p and len(g) == len(p):
                x["pred"][i] = p[:-1]
                return x
        return None
    if kind == "nan-score":
        for f in SCORED:
            if f in x and _first_number_to_nan(x, f):
                return x
        return None
    if kind == "unknown-label":
        if not x.get("y_true") or not isinstance(x["y_true"], list) or isinstance(x["y_true"][0], list):
            return None
        if not isinstance(x.get("labels"), list):
            # no declared labels: those the samples name are declared (sorted), so that a
            # label outside them is unknown whatever the drawn input's shape
            seen = list(x["y_true"]) + list(x.get("y_pred", []))
            if len({type(v) for v in seen}) != 1 or isinstance(seen[0], (list, dict, float)):
                return None
            x["labels"] = sorted(set(seen))
        labels = x["labels"]
        if labels and all(isinstance(v, int) and not isinstance(v, bool) for v in labels):
            new = max(labels) + 1000     # a label of the same type, outside the declared ones
        else:
            new = "zz-unknown"
            while new in labels:
                new += "-"
        x["y_true"] = list(x["y_true"]) + [new]
        if "y_pred" in x:
            x["y_pred"] = list(x["y_pred"]) + [new]
        elif isinstance(x.get("y_score"), list) and x["y_score"]:   # a sample scored like the last one
            x["y_score"] = list(x["y_score"]) + [copy.deepcopy(x["y_score"][-1])]
        else:
            return None
        return x
    if kind == "duplicate-id":
        for q, ranking in x.get("run", {}).items():
            pairs = [list(p) for p in ranking] if isinstance(ranking, list) else [[d, v] for d, v in ranking.items()]
            if pairs:
                x["run"][q] = pairs + [[pairs[0][0], pairs[-1][1]]]
                return x
        return None
    if kind == "matches-above-totals":
        # more matched unigrams than hypothesis unigrams: statistics no text has
        if not isinstance(x.get("matches"), list) or not isinstance(x.get("totals"), list) or not x["matches"]:
            return None
        x["matches"][0] = x["totals"][0] + 1
        return x
    raise ValueError(kind)


def _first_number_to_nan(holder, key) -> bool:
    v = holder[key]
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)) or (isinstance(v, str) and key not in ("targets",) and _numeric_text(v)):
        holder[key] = float("nan")
        return True
    if isinstance(v, dict):
        return any(_first_number_to_nan(v, k) for k in list(v))
    if isinstance(v, list):
        for i in range(len(v)):
            if isinstance(v[i], list) and len(v[i]) == 2 and isinstance(v[i][0], str):
                pair = list(v[i])       # a [document, score] pair
                if _first_number_to_nan({"s": pair[1]}, "s"):
                    v[i] = [pair[0], float("nan")]
                    return True
                continue
            if _first_number_to_nan(v, i):
                return True
    return False


def _numeric_text(s: str) -> bool:
    try:
        float(s) if "/" not in s else [int(p) for p in s.split("/")]
        return True
    except ValueError:
        return False
