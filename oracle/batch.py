"""Many inputs under one setting: ``compute_batch``.

The sentence-level loop of every evaluation script (sacrebleu's
``sentence_score`` per segment, a WER per utterance, a measure per query) as
one call: the settings are checked and canonicalized once, the signature is
formed once, and each input gets exactly the ``Result`` that
``oracle.compute(metric, inputs, conventions)`` gives it.

A bad item is named by its position: ``InputError("inputs[17]: hypothesis:
expected a string ...", item="inputs[17].hypothesis")``; with
``refused=True`` the batch goes on and that item's place holds a
``Refused`` with the message instead.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .conventions import ConventionError, InputError, Metric, Refused
from .gcpause import paused_gc
from .registry import get_metric

__all__ = ["compute_batch"]


def compute_batch(metric, inputs_list: Iterable, conventions: Mapping | None = None, *,
                  refused: bool = False) -> list:
    """``[oracle.compute(metric, x, conventions) for x in inputs_list]`` in one call,
    the settings canonicalized and the signature formed once. ``metric`` is a name or
    a ``Metric``. A ``ConventionError`` (a bad setting) is raised before any input is
    read; an ``InputError`` names the item's position, or, with ``refused``, that
    item's place holds a ``Refused``."""
    m = get_metric(metric) if isinstance(metric, str) else metric
    if not isinstance(m, Metric):
        raise ConventionError(f"compute_batch: {metric!r} is not a metric name or Metric")
    if isinstance(inputs_list, (str, bytes, Mapping)):
        raise InputError(f"compute_batch: expected a list of inputs, got {type(inputs_list).__name__}",
                         item="inputs")
    s = m.settings(conventions)
    signature = m._memo_signature(s)
    step = m.compute_fn
    out = []
    # the results are kept until the call returns: with the cyclic collector running, every
    # collection their allocations trigger would walk all the results made so far (they
    # hold no reference cycles; see oracle.gcpause)
    with paused_gc():
        for i, inputs in enumerate(inputs_list):
            try:
                result = step(inputs, s)
            except InputError as e:
                where = f"inputs[{i}]"
                if refused:
                    out.append(Refused(f"{where}: {e}"))
                    continue
                raise InputError(f"{where}: {e}", item=f"{where}.{e.item}" if e.item else where) from None
            result.signature, result.metric, result.settings = signature, m.name, dict(s)
            out.append(result)
    return out
