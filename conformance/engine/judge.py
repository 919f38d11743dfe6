"""Judge one library call against the oracle: the value, the statistics, and
the explanation of a disagreement."""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Mapping

from oracle.compare import Comparison, as_number, compare_value, not_a_number
from oracle.conventions import ConventionError, InputError, _jsonable
import json

from oracle.exact import Undefined, exact_json, exact_str, is_structured
from oracle.certified import digits, digits_json, same_value
from oracle.registry import get_metric

from conformance.reports.records import shorten
from oracle.certified import exact_texts
from conformance.explain import describe, explain, explanation
from conformance.engine.isolation import (ENVIRONMENT_ERROR, NOT_REFUSALS, UNRELATED_CRASHES, LimitHit,
                                          library_frame, not_a_refusal, not_its_refusal)
from conformance.protocol import PRESENTATION_KNOBS, Skip, Unsupported


@dataclass
class Verdict:
    # agree | disagree | error | skipped | not-applicable | oracle-error | divergence
    # | refuses | accepts-invalid | crash (the last three: on an input the spec refuses)
    status: str
    exact: str = ""
    digits: str = ""
    library_value: object = None
    comparison: Comparison | None = None
    first_differing_statistic: str = ""
    explanation: str = ""
    reproducing: list = field(default_factory=list)
    message: str = ""
    oracle_result: object = None
    run_settings: dict = field(default_factory=dict)   # the setting the library ran at
    immaterial: dict = field(default_factory=dict)     # knob -> [case, library]: no effect on this input
    converted: dict = field(default_factory=dict)      # presentation knob -> [case, library]: converted
    material: dict = field(default_factory=dict)       # knob -> [case, library]: changes the value here
    case_exact: str = ""                               # the exact value under the case's own setting


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


def unread_input(adapter, metric: str, inputs: Mapping) -> str | None:
    """Why the library cannot be given ``inputs``, or None: an input field that only some
    libraries read (``sample_weight``: the ``weighted`` input form; classification score rows,
    ``y_score``: the ``scores`` form) and this adapter does not declare (``input_forms``). A
    library without the parameter is not judged on such a case."""
    if not isinstance(inputs, Mapping):
        return None
    forms = getattr(adapter, "input_forms", {}).get(metric, ())
    if "sample_weight" in inputs and "weighted" not in forms:
        return (f"the library takes no sample weights for {metric} (the adapter declares no 'weighted' "
                "input form)")
    if "y_score" in inputs and "y_pred" not in inputs and "scores" not in forms \
            and get_metric(metric).family == "classification":
        return (f"the adapter passes no rows of class scores to {metric} (it declares no 'scores' input form)")
    return None


def judge(adapter, metric: str, settings: Mapping, inputs: Mapping, explain_it: bool = True,
          configured=None, texts_when_agreeing: bool = True) -> Verdict:
    """Run the library under ``settings`` on ``inputs`` and compare with the oracle.
    Without ``texts_when_agreeing`` (a property's examples), an agreeing verdict carries
    no exact text and digits (certified digits of a closed form are the costly part of
    an agreeing example, and a property reads them only where it disagrees)."""
    m = get_metric(metric)
    try:
        result = m.compute(inputs, settings)
    except (InputError, ConventionError) as e:
        return Verdict("oracle-error", message=f"{type(e).__name__}: {e}")
    unread = unread_input(adapter, metric, inputs)
    if unread:
        return Verdict("not-applicable", message=unread, oracle_result=result)
    def texts():
        if is_structured(result.value):
            return (json.dumps(exact_json(result.value), ensure_ascii=False),
                    json.dumps(digits_json(result.value, 12), ensure_ascii=False))
        return (exact_str(result.value),
                digits(result.value, 30) if not isinstance(result.value, Undefined) else str(result.value))
    try:
        # the library's objects are made under the setting (configure) in the same guard as
        # the call: a library that refuses a valid setting, or crashes making it, is judged
        if configured is None:
            configured = adapter.configure(metric, settings)
        if isinstance(configured, Unsupported):
            return Verdict("not-applicable", message=configured.reason, oracle_result=result)
        out = adapter.run(configured, inputs)
    except Skip as e:
        return Verdict("skipped", *texts(), message=str(e), oracle_result=result)
    except (Exception, SystemExit) as e:  # the library raised (or its call ended: ``NOT_REFUSALS``)
        exact_text, dig = texts()
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        if isinstance(result.value, Undefined) and not isinstance(e, NOT_REFUSALS + UNRELATED_CRASHES) \
                and "raise" in adapter.undefined_as(metric):
            # the definition has no value here, and the library says so by an exception of its
            # own code: the canonical representation of an undefined value
            return Verdict("agree", exact_text, dig, library_value=f"raised {tb}",
                           comparison=Comparison("both-undefined", None, None, "-", "-", None,
                                                 adapter.tolerance(metric)),
                           message=f"raises where the definition has no value, as it declares: {tb}",
                           oracle_result=result)
        if isinstance(e, LimitHit):
            return Verdict("error", exact_text, dig, library_value=f"died: {e}", explanation=ENVIRONMENT_ERROR,
                           message=str(e), oracle_result=result)
        where = library_frame(e)
        return Verdict("error", exact_text, dig, library_value=f"raised {tb}",
                       explanation=f"the library raised {type(e).__name__}"
                                   + (f" at {where}" if where else "")
                                   + (" where the definition has no value and the adapter declares no raise "
                                      if isinstance(result.value, Undefined) else " on an input the oracle defines ")
                                   + f"({exact_text if len(exact_text) < 80 else exact_text[:77] + '...'}): "
                                   "no knob setting explains a crash, a defect",
                       message=tb + (f" (at {where})" if where else ""), oracle_result=result)
    wrong = not_a_number(out.value)
    if wrong:
        exact_text, dig = texts()
        return Verdict("error", exact_text, dig, library_value=repr(out.value)[:200],
                       explanation=f"the library returned a non-number: {wrong}", message=wrong,
                       oracle_result=result)
    tol = adapter.tolerance(metric)
    cmp = compare_value(out.value, result.value, tol)
    shown = undefined_shown(out.value) if isinstance(result.value, Undefined) else None
    if shown is not None and shown not in adapter.undefined_as(metric):
        # NaN or None where the definition has no value: a representation the adapter must
        # declare (``Adapter.undefined``); an undeclared one is a defect
        cmp = Comparison("undefined-mismatch", None, None, "-", "-", None, tol)
        exact_text, dig = texts()
        return Verdict("disagree", exact_text, dig, out.value, cmp, explanation=(
            f"the library returns {'NaN' if shown == 'nan' else 'None'} where the definition has no value "
            f"({result.value.reason}), but its adapter declares undefined={'/'.join(adapter.undefined_as(metric))} "
            f"for {metric}: an undeclared representation of an undefined value, a defect"), oracle_result=result)
    stat_diff = first_stat_difference(result.stats, out.stats)
    lib_value = out.value if not isinstance(out.value, bool) else out.value
    if cmp.agrees and not stat_diff:
        return Verdict("agree", *(texts() if texts_when_agreeing else ("", "")), lib_value, cmp,
                       oracle_result=result)
    exact_text, dig = texts()
    found: list = []
    expl = "the value agrees but a sufficient statistic differs"
    if not cmp.agrees:
        expl = explanation([], out.value, result.value, result.stats)
        size = input_items(inputs)
        if explain_it and _comparable(out.value) and size > EXPLAIN_ITEMS:
            expl += (f" (no explanation search on an input of {size:,} items, more than {EXPLAIN_ITEMS:,}: "
                     "each candidate setting and neighbour would be scored at that size)")
        elif explain_it and _comparable(out.value):
            found, expl = proven_explanation(adapter, metric, settings, inputs, out.value, tol, result)
    return Verdict("disagree", exact_text, dig, lib_value, cmp, stat_diff, expl, found, oracle_result=result)


#: the largest input (``input_items``) an explanation is searched on: the search scores the
#: input under tens of candidate settings and the library on its neighbours, which on the
#: bad-input tables' size rows (20,000 tokens, order 1,000) took minutes per row
EXPLAIN_ITEMS = 5_000


def input_items(inputs, stop: int = EXPLAIN_ITEMS + 1) -> int:
    """The size of an input as items: a text counts its whitespace-separated tokens (at least
    one), a list or mapping its members' items, anything else one; counting stops at ``stop``."""
    n, todo = 0, [inputs]
    while todo and n < stop:
        x = todo.pop()
        if isinstance(x, str):
            n += max(1, x.count(" ") + 1) if len(x) < 4 * stop else stop
        elif isinstance(x, Mapping):
            todo.extend(x.values())
        elif isinstance(x, (list, tuple)):
            n += 0 if x else 1
            todo.extend(x)
        else:
            n += 1
    return n


def undefined_shown(value) -> str | None:
    """How a library's value represents an undefined one: 'nan', 'none', or None (a number)."""
    import math
    if value is None:
        return "none"
    n = as_number(value) if not isinstance(value, (list, dict, tuple)) else None
    if isinstance(n, float) and math.isnan(n):
        return "nan"
    return None


def _comparable(value) -> bool:
    from oracle.compare import _paths
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, (list, dict)):
        return all(x is None or (isinstance(x, (int, float)) and not isinstance(x, bool)) for _, x in _paths(value))
    return False


def proven_explanation(adapter, metric: str, settings: Mapping, inputs: Mapping, library_value, tol,
                       result=None) -> tuple[list, str]:
    """(proven candidates, explanation text): the knob settings (and arithmetic) that
    reproduce the library on this input, kept only if they also hold on neighbouring
    inputs (``prove``); for a structure with no whole explanation, the leaves one by one."""
    from conformance.explain import explain_leaves, prove
    if result is None:
        result = get_metric(metric).compute(inputs, settings)
    found = explain(metric, settings, inputs, library_value, tol)
    proven, rejected, tested = prove(adapter, metric, settings, inputs, found, tol) if found else ([], [], 0)
    text = explanation(proven, library_value, result.value, result.stats, rejected, tested)
    if found and not proven and not rejected:
        text += f" (candidates on this input alone: {describe(found, proven=False)}; too few neighbouring " \
                f"inputs the library scores ({tested}) to prove one)"
    if not found and is_structured(result.value):
        leaves = explain_leaves(metric, settings, inputs, library_value, tol)
        if any(leaves.values()):
            text += "; leaf by leaf: " + "; ".join(
                f"{path}: {describe(c, proven=False) if c else 'no knob'}" for path, c in leaves.items())
    return proven, text



def judge_invalid(adapter, metric: str, settings: Mapping, inputs: Mapping, refusal: str) -> Verdict:
    """The spec refuses ``inputs`` (the oracle raised ``refusal``): the library must refuse
    too. A clear error raised by the library's code passes (``refuses``); a value fails
    (``accepts-invalid``); an unrelated crash (IndexError, ZeroDivisionError...) and a call
    that ends without the library's own exception (an exit, a signal, a hang, a memory
    kill: ``NOT_REFUSALS``) are reported as such (``crash``), never as a refusal."""
    unread = unread_input(adapter, metric, inputs)
    if unread:
        return Verdict("not-applicable", message=unread)
    unpassed = [f for f in getattr(adapter, "unpassed_fields", {}).get(metric, ()) if f in inputs]
    if unpassed:
        try:
            get_metric(metric).compute({k: v for k, v in inputs.items() if k not in unpassed}, settings)
        except (InputError, ConventionError):
            pass   # refused without them too: judged
        else:
            return Verdict("not-applicable", message=(
                f"the spec refuses this input only because of {', '.join(unpassed)}, which {adapter.name}'s "
                f"entry point for {metric} takes no parameter for (the adapter's unpassed_fields)"))
    run, substituted, why = adapter.nearest_setting(metric, settings)
    if run is None:
        return Verdict("not-applicable", message=why)
    others = {k: v for k, v in substituted.items() if k not in PRESENTATION_KNOBS}
    if others:
        try:
            get_metric(metric).compute(inputs, run)
        except (InputError, ConventionError):
            pass  # refused at the library's setting too: judged
        else:
            return Verdict("not-applicable", immaterial={}, material=others, message=(
                "the spec refuses this input only under " + ", ".join(f"{k}={a}" for k, (a, b) in others.items())
                + ", which the library cannot take; at its own "
                + ", ".join(f"{k}={b}" for k, (a, b) in others.items()) + " the input is valid"))
    base = dict(exact=f"error({refusal})", digits="", run_settings=run, immaterial=substituted)
    try:
        configured = adapter.configure(metric, run)
    except (Exception, SystemExit) as e:   # under a valid setting: not a refusal of the input
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return Verdict("crash", library_value=f"raised {tb}", message=tb,
                       explanation=f"the library raised {tb} making its objects under a valid setting, before "
                                   "it saw the input", **base)
    if isinstance(configured, Unsupported):
        return Verdict("not-applicable", message=configured.reason)
    try:
        out = adapter.run(configured, inputs)
    except Skip as e:
        return Verdict("skipped", message=str(e), **base)
    except NOT_REFUSALS as e:
        why = not_a_refusal(e)
        return Verdict("crash", library_value=f"died: {why}", message=why,
                       explanation=f"the spec refuses this input ({refusal}); the library's call ended without "
                                   f"an answer of its own ({why}): an error, not a refusal", **base)
    except Exception as e:
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        why = not_its_refusal(adapter, metric, e)
        if why:
            return Verdict("crash", library_value=f"raised {tb}", message=tb,
                           explanation=f"the spec refuses this input ({refusal}); the library crashes with {why} "
                                       "instead of refusing it clearly", **base)
        return Verdict("refuses", library_value=f"raised {tb}", message=f"refuses, as the spec does: {tb}", **base)
    value = out.value
    return Verdict("accepts-invalid", library_value=value,
                   message=f"accepts invalid input: returned {value!r} where the spec refuses ({refusal})",
                   explanation=f"accepts invalid input: the spec refuses it ({refusal}), the library "
                               f"returns {value!r}; no knob makes the definition accept it, a defect", **base)


def judge_case(adapter, metric: str, settings: Mapping, inputs: Mapping, explain_it: bool = True) -> Verdict:
    """Judge the library on a case written under ``settings``, wherever the spec allows:

    - the spec refuses the input: ``judge_invalid``;
    - the library can take ``settings``: ``judge`` as it stands;
    - otherwise each knob it cannot take gets the library's value. A presentation knob
      (scale) is converted; a knob whose value does not change the exact value on this
      input is immaterial, and the case is judged; a knob that does change it makes the
      case a divergence when the library agrees with the oracle at its own setting (and a
      failure when it does not)."""
    m = get_metric(metric)
    settings = m.settings(settings)
    try:
        case_result = m.compute(inputs, settings)
    except (InputError, ConventionError) as e:
        return judge_invalid(adapter, metric, settings, inputs, f"{type(e).__name__}: {e}")
    run, substituted, why = adapter.nearest_setting(metric, settings)
    if run is None:
        return Verdict("not-applicable", message=why, oracle_result=case_result)
    converted = {k: v for k, v in substituted.items() if k in PRESENTATION_KNOBS}
    others = {k: v for k, v in substituted.items() if k not in PRESENTATION_KNOBS}
    immaterial, material = {}, {}
    if others:
        # the case's value at the library's setting, written in the case's units
        same_units = m.settings({**run, **{k: v[0] for k, v in converted.items()}})
        try:
            at_library = m.compute(inputs, same_units).value
        except (InputError, ConventionError):
            at_library = None
        if at_library is not None and same_value(at_library, case_result.value):
            immaterial = others
        else:
            # which of the substituted knobs change the value by themselves
            for k, pair in others.items():
                try:
                    alone = m.compute(inputs, m.settings({**settings, k: pair[1]})).value
                    (immaterial if same_value(alone, case_result.value) else material)[k] = pair
                except (InputError, ConventionError):
                    material[k] = pair
            if not material:
                material, immaterial = others, {}
    v = judge(adapter, metric, run, inputs, explain_it=explain_it)
    if v.status == "oracle-error" and not any(b == "error" for a, b in substituted.values()):
        # the input is tied to the case's setting (a document-frequency corpus given for
        # df=corpus, say): at the library's own setting there is nothing to judge
        return Verdict("not-applicable", message="at the nearest setting the library can take ("
                       + ", ".join(f"{k}={b}" for k, (a, b) in substituted.items())
                       + f") the spec refuses this input: {v.message}", oracle_result=case_result)
    if v.status == "oracle-error":
        # the library's own convention is to refuse (a knob at its value 'error':
        # empty_reference=error, outside=error): it must refuse this input too, and that
        # refusal is where its convention departs from the case's value
        knobs = ", ".join(f"{k}={b}" for k, (a, b) in substituted.items())
        w = judge_invalid(adapter, metric, run, inputs, v.message)
        w.run_settings, w.converted, w.immaterial, w.material = run, converted, immaterial, material or others
        w.case_exact = exact_texts(case_result.value)[0]
        w.oracle_result = case_result
        if w.status == "refuses":
            w.status = "divergence"
            w.explanation = (f"the library does what its profile says: at its {knobs} the spec refuses this "
                             f"input ({v.message}) and the library refuses it; the case's setting gives "
                             + shorten(w.case_exact))
        elif w.status in ("accepts-invalid", "crash"):
            w.message = f"at the library's own {knobs}: {w.message}"
        return w
    v.run_settings, v.converted, v.immaterial, v.material = run, converted, immaterial, material
    v.case_exact = exact_texts(case_result.value)[0]
    rep = undefined_shown(v.library_value)
    if v.status == "agree" and rep is not None and isinstance(case_result.value, Undefined) \
            and rep in adapter.undefined_as(metric):
        # a declared representation of an undefined value other than an exception: shown
        v.status = "divergence"
        v.material = {**material, "undefined": ["raise", rep]}
        v.explanation = (f"the library does what its adapter declares: where the definition has no value "
                         f"({case_result.value.reason}) it returns {'NaN' if rep == 'nan' else 'None'} "
                         f"(undefined={rep}); the canonical representation is an exception")
        return v
    if material and v.status == "agree":
        v.status = "divergence"
        v.explanation = ("the library does what its profile says, and on this input its setting "
                         + ", ".join(f"{k}={b}" for k, (a, b) in material.items())
                         + " gives " + shorten(v.exact) + " where the case's "
                         + ", ".join(f"{k}={a}" for k, (a, b) in material.items())
                         + " gives " + shorten(v.case_exact))
    return v
