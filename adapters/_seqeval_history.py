"""seqeval's old releases: the classifiers and models of the defects recorded for them
(``known_failures/seqeval.json``, entries with ``versions``), kept beside the adapter
(``adapters/seqeval.py``) so that it stays one library's mapping."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from ._seqeval_entities import (_NO_MODE, _NO_SCHEME, _SCORE, _library_options, _sentences, library_entities,
                                library_stats)


def average_ignored(adapter, metric, settings, inputs) -> bool:
    """Before 1.2.0 ``f1_score``, ``precision_score`` and ``recall_score`` take
    ``average`` and never read it: they return the micro average (1.1.1
    metrics/sequence_labeling.py:149-186; 0.0.12 :140-151). Commit a3d6837 (2020-10-15,
    'Update f1_score to allow averages(None, macro, weighted)'), released in 1.2.0, reads
    it. Applies: before 1.2.0, a score metric and an average other than micro."""
    return adapter.in_versions(_NO_MODE) and metric in _SCORE and settings.get("average") != "micro"


def type_after_last_hyphen(adapter, metric, settings, inputs) -> bool:
    """0.0.12's ``get_entities`` takes the type as ``chunk.split('-')[-1]``
    (sequence_labeling.py:44), so B-ARGM-LOC is a LOC; 1.0.0 takes
    ``chunk[1:].split('-', 1)[-1]`` (PR #38). Applies: before 1.0.0, the default mode
    (prefix-type tags) and some type holding a hyphen."""
    if not adapter.in_versions(_NO_SCHEME):
        return False
    return any(t.count("-") > 1 for s in _sentences(inputs) for t in s if t != "O")


def report_no_type_raises(adapter, metric, settings, inputs) -> bool:
    """1.0-1.1's ``classification_report`` averages the rows with ``np.average(...,
    weights=support)``, which raises ZeroDivisionError 'Weights sum to zero' when no gold
    entity exists (1.0.0 metrics/v1.py reporters). Applies: before 1.2.0, the report and no
    gold entity in seqeval's reading."""
    if metric != "entity_report" or not adapter.in_versions(_NO_MODE) or settings.get("reading") == "valid-only":
        return False
    opts = _library_options(settings)
    return not library_entities(opts, [list(s) for s in inputs.get("gold", ())])


def report_zero_division_ignored(adapter, metric, settings, inputs) -> bool:
    """1.0-1.1's default-mode ``classification_report`` takes ``zero_division`` and
    writes 0 for a type without a prediction all the same (its per-type precision
    comes from the old score functions, which have no such option). 1.2.0 (PR #61)
    passes it on. Applies: before 1.2.0, the report in the default mode, zero_division
    one, and a gold type with no prediction or a predicted type with no gold."""
    if metric != "entity_report" or not adapter.in_versions(_NO_MODE) or settings.get("reading") == "valid-only" \
            or settings.get("zero_division") != "one":
        return False
    st = library_stats(_library_options(settings), [list(x) for x in inputs.get("gold", ())],
                       [list(x) for x in inputs.get("pred", ())])
    return any(st["pred"][t] == 0 or st["gold"][t] == 0 for t in st["tp"])


def report_gold_types_only(adapter, metric, settings, inputs) -> bool:
    """1.0-1.1's default-mode ``classification_report`` (metrics/sequence_labeling.py,
    the report built from ``y_true``'s types) has a row for each gold type only, and its
    macro and weighted rows average those; the micro row counts every prediction. 1.2.0
    (PR #61) reports every type found. Applies: before 1.2.0, the report in the default
    mode, and a predicted type with no gold entity."""
    if metric != "entity_report" or not adapter.in_versions(_NO_MODE) or settings.get("reading") == "valid-only":
        return False
    opts = _library_options(settings)
    gold = {e[3] for e in library_entities(opts, [list(s) for s in inputs.get("gold", ())])}
    pred = {e[3] for e in library_entities(opts, [list(s) for s in inputs.get("pred", ())])}
    return bool(gold) and bool(pred - gold)


def _from_library_entities(metric, settings, inputs):
    """The score the library's own entity sets give (``library_stats``), by the definition:
    a defect of reading alone changes the entities, not the arithmetic. Micro, macro or
    weighted P, R, F1 (beta 1), a zero division giving 0 or 1; the report's rows (each
    type's P, R, F1 and gold support, then the micro, macro and weighted averages) the same
    way; None where a macro or weighted average has no type or no weight."""
    if (metric not in _SCORE and metric != "entity_report") or Fraction(settings.get("beta", "1")) != 1:
        return None
    st = library_stats(_library_options(settings), [list(s) for s in inputs["gold"]],
                       [list(s) for s in inputs["pred"]])
    zd = Fraction(1) if settings.get("zero_division") == "one" else Fraction(0)

    def prf(tp, pred, gold):
        p = Fraction(tp, pred) if pred else zd
        r = Fraction(tp, gold) if gold else zd
        return p, r, (2 * p * r / (p + r) if p + r else Fraction(0))
    types = sorted(st["tp"])
    per = {t: prf(st["tp"][t], st["pred"][t], st["gold"][t]) for t in types}
    weights = [st["gold"][t] for t in types]
    micro = prf(st["tp_total"], st["pred_total"], st["gold_total"])
    if metric == "entity_report":
        if not types or not sum(weights):
            return None

        def row(v, support):
            return {"precision": v[0], "recall": v[1], "f1": v[2], "support": support}
        macro = tuple(sum(per[t][k] for t in types) / len(types) for k in range(3))
        weighted = tuple(sum(per[t][k] * w for t, w in zip(types, weights)) / sum(weights) for k in range(3))
        total = st["gold_total"]
        return {**{t: row(per[t], st["gold"][t]) for t in types}, "micro avg": row(micro, total),
                "macro avg": row(macro, total), "weighted avg": row(weighted, total)}
    k = _SCORE[metric]
    average = settings.get("average", "micro")
    if average == "micro":
        return float(micro[k])
    if not types:
        return None
    vals = [per[t][k] for t in types]
    if average == "macro":
        return float(sum(vals) / len(vals))
    return float(sum(v * w for v, w in zip(vals, weights)) / sum(weights)) if sum(weights) else None


def _types_after_last_hyphen(settings: Mapping, inputs: Mapping) -> dict:
    """The inputs with every tag's type cut to what follows its last hyphen (0.0.12's)."""
    def cut(tag):
        if tag == "O" or "-" not in tag:
            return tag
        if settings.get("tag_format") == "type-prefix":   # type_ = chunk.split('-')[0]
            typ, prefix = tag.rsplit("-", 1)
            return f"{typ.split('-')[0]}-{prefix}"
        prefix, typ = tag.split("-", 1)                    # type_ = chunk.split('-')[-1]
        return f"{prefix}-{typ.split('-')[-1]}"
    return {**inputs, "gold": [[cut(t) for t in s] for s in inputs["gold"]],
            "pred": [[cut(t) for t in s] for s in inputs["pred"]]}


def _micro(metric, settings, inputs):
    from oracle.registry import compute
    return compute(metric, inputs, {**settings, "average": "micro"}).value


def _last_part(metric, settings, inputs):
    from oracle.registry import compute
    return compute(metric, _types_after_last_hyphen(settings, inputs), settings).value


def _gold_rows(metric, settings, inputs):
    """The oracle's report restricted to the gold types, its micro row over every type."""
    from oracle.registry import compute
    full = compute(metric, inputs, settings).value
    gold_types = sorted({e[3] for e in library_entities(_library_options(settings), inputs["gold"])})
    if not gold_types:
        return None
    part = compute(metric, inputs, {**settings, "labels": ",".join(gold_types)}).value
    return {k: v for k, v in part.items() if k != "micro avg"} | {"micro avg": full["micro avg"]}


def _zero_division_zero(metric, settings, inputs):
    from oracle.registry import compute
    return compute(metric, inputs, {**settings, "zero_division": "zero"}).value


CLASSIFIERS = {
    "average-ignored": average_ignored,
    "type-after-last-hyphen": type_after_last_hyphen,
    "report-no-type-raises": report_no_type_raises,
    "report-gold-types-only": report_gold_types_only,
    "report-zero-division-ignored": report_zero_division_ignored,
}
MODELS = {"average-ignored": _micro, "type-after-last-hyphen": _last_part,
          "bilou-default-mode": _from_library_entities, "report-gold-types-only": _gold_rows,
          "report-zero-division-ignored": _zero_division_zero}
