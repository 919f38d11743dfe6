"""One input under many settings at once: ``compute_settings``.

The value (or a part of the result) of one metric on one input under each
setting of a list, exactly as ``oracle.registry.compute`` gives it, with a
``Refused`` in the place of a setting under which the oracle refuses the
input. Families whose sufficient statistics can be shared across settings
compute them once (``many_bleu``, ``many_error_rates``, ``many_ranking``);
every other metric is computed setting by setting. The audit of published
figures searches thousands of settings through this function.
"""
from __future__ import annotations

from collections.abc import Mapping

from .conventions import ConventionError, InputError, Refused
from .registry import get_metric

__all__ = ["compute_settings", "Refused"]

_RANKING = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "r_precision",
            "dcg", "ndcg")


def _pick(result, part):
    """The value, or ``part``: a part's name, or NAME.KEY for one entry of a part that maps
    keys to values (``f1.LOC``, the F1 of type LOC; ``per_query.q1``)."""
    if part is None:
        return result.value
    if part in result.parts:
        return result.parts[part]
    name, _, key = part.partition(".")
    if key and name in result.parts:
        table = result.parts[name]
        if isinstance(table, Mapping) and key in table:
            return table[key]
        if isinstance(table, Mapping):
            return Refused(f"no {key!r} in part {name!r} under this setting (it has {', '.join(map(str, table))})")
    return Refused(f"no part {part!r} under this setting")


def _generic_values(metric: str, inputs, settings_list: list, part) -> list:
    m = get_metric(metric)
    out = []
    for s in settings_list:
        try:
            out.append(_pick(m.compute(inputs, s), part))
        except (InputError, ConventionError) as e:
            out.append(Refused(str(e)))
    return out


def compute_settings(metric: str, inputs, settings_list: list, part=None) -> list:
    """The exact value (or ``part``) of ``metric`` on ``inputs`` under each of
    ``settings_list`` (complete settings, as ``Metric.settings`` gives them); a
    ``Refused`` where the oracle refuses the input under that setting."""
    if part is None and metric == "bleu":
        try:
            from .many_bleu import bleu_values
            return bleu_values(inputs, settings_list)
        except InputError:
            pass  # the generic path reports it per setting
    if part is None and metric in ("wer", "cer"):
        try:
            from .many_error_rates import error_rate_values
            return error_rate_values(metric, inputs, settings_list)
        except InputError:
            pass
    if part is None and metric in _RANKING and not any(s.get("no_relevant") in ("one", "error")
                                                       or s.get("negative") == "ideal" for s in settings_list):
        # (no_relevant=one and error are the generic path's: a query scored 1, or refused; so is
        # negative=ideal, whose ideal ranking holds more than the positive gains)
        try:
            from .many_ranking import ranking_values
            return ranking_values(metric, inputs, settings_list)
        except InputError:
            pass
    return _generic_values(metric, inputs, settings_list, part)
