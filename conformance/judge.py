"""Judge one library call against the oracle: the value, the statistics, and
the explanation of a disagreement."""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Mapping

from oracle.compare import Comparison, compare_value
from oracle.conventions import ConventionError, InputError, _jsonable
import json

from oracle.exact import Undefined, digits, digits_json, exact_json, exact_str, is_structured
from oracle.registry import get_metric

from .explain import explain, explanation
from .protocol import Configured, Skip, Unsupported


@dataclass
class Verdict:
    status: str                     # agree | disagree | error | skipped | not-applicable | oracle-error
    exact: str = ""
    digits: str = ""
    library_value: object = None
    comparison: Comparison | None = None
    first_differing_statistic: str = ""
    explanation: str = ""
    reproducing: list = field(default_factory=list)
    message: str = ""
    oracle_result: object = None


def first_stat_difference(oracle_stats: Mapping, lib_stats: Mapping | None) -> str:
    if not lib_stats:
        return ""
    ours = _jsonable(oracle_stats)
    for k, v in lib_stats.items():
        if k not in ours:
            continue
        mine = ours[k]
        theirs = _jsonable(v)
        if isinstance(mine, list) and isinstance(theirs, list):
            for i, (a, b) in enumerate(zip(mine, theirs)):
                if str(a) != str(b):
                    return f"{k}[{i}]: oracle {a}, library {b}"
            if len(mine) != len(theirs):
                return f"{k}: oracle has {len(mine)} entries, library {len(theirs)}"
        elif str(mine) != str(theirs):
            return f"{k}: oracle {mine}, library {theirs}"
    return ""


def judge(adapter, metric: str, settings: Mapping, inputs: Mapping, explain_it: bool = True,
          configured=None) -> Verdict:
    """Run the library under ``settings`` on ``inputs`` and compare with the oracle."""
    m = get_metric(metric)
    try:
        result = m.compute(inputs, settings)
    except (InputError, ConventionError) as e:
        return Verdict("oracle-error", message=f"{type(e).__name__}: {e}")
    if configured is None:
        configured = adapter.configure(metric, settings)
    if isinstance(configured, Unsupported):
        return Verdict("not-applicable", message=configured.reason, oracle_result=result)
    if is_structured(result.value):
        exact_text = json.dumps(exact_json(result.value), ensure_ascii=False)
        dig = json.dumps(digits_json(result.value, 12), ensure_ascii=False)
    else:
        exact_text = exact_str(result.value)
        dig = digits(result.value, 30) if not isinstance(result.value, Undefined) else str(result.value)
    try:
        out = adapter.run(configured, inputs)
    except Skip as e:
        return Verdict("skipped", exact_text, dig, message=str(e), oracle_result=result)
    except Exception as e:  # the library raised
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return Verdict("error", exact_text, dig, library_value=f"raised {tb}",
                       explanation=f"the library raised {type(e).__name__} on an input the oracle defines "
                                   f"({exact_text if len(exact_text) < 80 else exact_text[:77] + '...'}): "
                                   "no knob setting explains a crash, a defect",
                       message=tb, oracle_result=result)
    tol = adapter.tolerance(metric)
    cmp = compare_value(out.value, result.value, tol)
    stat_diff = first_stat_difference(result.stats, out.stats)
    lib_value = out.value if not isinstance(out.value, bool) else out.value
    if cmp.agrees and not stat_diff:
        return Verdict("agree", exact_text, dig, lib_value, cmp, oracle_result=result)
    found: list = []
    if explain_it and not cmp.agrees and isinstance(out.value, (int, float)):
        found = explain(metric, settings, inputs, out.value, tol)
    expl = (explanation(found, out.value, result.value, result.stats) if not cmp.agrees
            else "the value agrees but a sufficient statistic differs")
    return Verdict("disagree", exact_text, dig, lib_value, cmp, stat_diff, expl, found, oracle_result=result)
