"""The order in which a run hands its units to the engine workers.

With two workers, a run ends when the later worker ends: a long unit started last
leaves the other worker idle (ir_measures' cwl_eval provider: 66 s of work in 12
units, 56 s of it in one unit of AP properties, as cwl's ``APCWLMetric.c_vector`` sums
1,000-entry vectors per rank, about 50 ms a query; run after the many-unit adapters it
ended 41 s after every other unit). So the adapters are taken longest first and, within
one, the units longest first (Graham's LPT rule, within the affinity of
``conformance.engine.pool._AffinityQueue``). A unit's length is what the previous
report at the same path says it took (its records' ``seconds``), else a default per
part times the adapter's ``schedule_weight``. The order changes no record: each unit's
records depend on the unit alone."""
from __future__ import annotations

import json
import os

# seconds of a unit by part when no previous report says (typical of the suite's adapters)
DEFAULT = {"divergence": 3.0, "properties": 1.0, "golden": 0.1, "known": 0.2}
_KIND = {"golden": "golden", "properties": "property", "known": "known", "divergence": "divergence"}
_MAX_BYTES = 256 * 1024 ** 2   # a larger file is not read for a hint


def previous_seconds(path) -> dict:
    """{(adapter, metric, record kind): seconds} summed over the records of the JSON lines
    report at ``path``; {} when there is none or it cannot be read (it is a hint only:
    nothing in it is trusted beyond those four fields' types)."""
    if not path or path == "-":
        return {}
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_BYTES:
            return {}
        out: dict = {}
        with open(path, encoding="utf-8-sig") as f:
            next(f, None)   # the header
            for line in f:
                r = json.loads(line)
                a, m, k, s = r.get("adapter"), r.get("metric"), r.get("kind"), r.get("seconds")
                if isinstance(a, str) and isinstance(m, str) and isinstance(k, str) \
                        and isinstance(s, (int, float)) and not isinstance(s, bool) and 0 <= s < 1e6:
                    out[(a, m, k)] = out.get((a, m, k), 0.0) + s
        return out
    except (OSError, ValueError, RecursionError, AttributeError, UnicodeDecodeError):
        return {}


def estimator(previous: dict, adapters: dict):
    """unit -> its estimated seconds: the previous report's, else ``DEFAULT`` of its part
    times its adapter's ``schedule_weight``."""
    def estimate(unit) -> float:
        kind = _KIND.get(unit.part, unit.part)
        metrics = unit.metrics if unit.part == "divergence" and unit.metrics else (unit.metric,)
        seen = [previous[k] for k in ((unit.adapter, m, kind) for m in metrics) if k in previous]
        if seen:
            return sum(seen)
        weight = getattr(adapters.get(unit.adapter), "schedule_weight", 1.0)
        return DEFAULT.get(unit.part, 1.0) * (weight if isinstance(weight, (int, float)) and weight > 0 else 1.0)
    return estimate
