"""Property templates, written once against the adapter protocol.

- ``oracle-equal``: the library equals the oracle under its declared profile
  (and ``oracle-equal[knob=value]`` under each other setting it offers);
  ``oracle-equal{form}``, ``oracle-equal{form}[knob=value]``: the same on another
  shape of input the metric takes (``Plan.forms``: multilabel indicator rows),
  for the adapters that declare it (``input_forms``) and the settings it fits;
- ``statistics``: its sufficient statistics equal the oracle's;
- ``bounds``: the value lies within the metric's range;
- ``invariance:<name>``: a transformation that must not change the value
  (segment order, reference order) does not;
- ``identity``: inputs whose value is known without computing (a hypothesis
  equal to its reference) get that value.

A disagreement that a known-failure entry explains is counted and does not
stop the search, so hypothesis keeps looking for new ones; the first
unexplained one is shrunk by hypothesis and reported with its minimal input.
"""
from __future__ import annotations

import math
import os as _os
import pickle
import time
from fractions import Fraction

from hypothesis import given, seed, strategies as st
from hypothesis.errors import Unsatisfiable

from oracle.compare import _paths, as_number, compare, compare_value
from oracle.conventions import ConventionError, InputError
from oracle.registry import get_metric

from conformance.engine.draws import (OVERRUN, Diverged, replay_inputs, oracle_filter, recorded, replayable, shape_key, walk_key,
                                      with_adapter)
from conformance.engine.explain import explanation, reproduces
from conformance.engine import findings
from conformance.engine.remembered import Remembered as _Remembered
from conformance.engine.invalid import invalid_filter, kinds as invalid_kinds, mutate
from conformance.engine.isolation import NOT_REFUSALS, not_a_refusal, not_its_refusal
from conformance.engine.judge import judge, proven_explanation
from oracle.certified import exact_texts
from conformance.engine.known import _MISSING
from conformance.engine.outputs import finite as _finite, numeric as _numeric, same_output as _same_output
from conformance.engine.plans import plan_for
from conformance.engine.search import search_settings
from conformance.protocol import Skip, Unsupported
from conformance.reports.records import Record, reproduce_command


class Finding(Exception):
    """Raised inside a property to report a disagreement (carries the record fields)."""

    def __init__(self, fields: dict, example: list | None = None):
        super().__init__(fields.get("message", "finding"))
        self.fields = fields
        self.example = example   # what judged the example again: ["examine", inputs, other] or ["invalid", bad, refusal]


# Every property draws its inputs from this seed. It is the seed hypothesis derived (under
# derandomize) from the source of run_property's inner check function when the known
# failures were recorded: pinned, so that editing the property code does not change which
# inputs are drawn and shrunk (a shrunk input is what a known failure without a model of
# its defect is recorded on).
PROPERTY_SEED = int("12479741052367454855641191890422948383467267959725262000152698815565739908385057528224"
                    "788571125350010492860816590124")

def _variants(adapter, metric: str) -> list[tuple[str, dict]]:
    prof = adapter.profile(metric)
    caps = adapter.capabilities.get(metric, {})
    out = []
    m = get_metric(metric)
    for knob, allowed in caps.items():
        if isinstance(allowed, tuple):
            for v in allowed:
                if v != prof.get(knob):
                    try:
                        s = m.settings({**prof, knob: v})
                    except ConventionError:
                        continue
                    if adapter.supports(metric, s) is None:
                        out.append((f"{knob}={v}", s))
    return out


_FEW_VARIANTS = {"weighted": "average="}


def property_names(adapter, metric: str) -> list[str]:
    plan = plan_for(metric)
    if plan is None or metric not in adapter.capabilities:
        return []
    names = ["oracle-equal"] + [f"oracle-equal[{v}]" for v, _ in _variants(adapter, metric)]
    for form in getattr(adapter, "input_forms", {}).get(metric, ()):
        fits = plan.forms[form][0]
        # sample weights enter every count alike, whatever the other knobs: judged at the
        # profile and the average variants (the test run's time), the other forms at every variant
        variants = _variants(adapter, metric)
        if form in _FEW_VARIANTS:
            variants = [(v, s) for v, s in variants if v.startswith(_FEW_VARIANTS[form])]
        names += [f"oracle-equal{{{form}}}" + (f"[{v}]" if v else "")
                  for v, s in [("", adapter.profile(metric))] + variants if fits(s)]
    if metric in getattr(adapter, "statistics", ()):
        names.append("statistics")
    names.append("bounds")
    names += [f"invariance:{k}" for k in plan.invariances]
    if plan.identity:
        names.append("identity")
    names += [f"invalid:{k}" for k in invalid_kinds(metric)]
    return names


def _kind(prop: str) -> str:
    """'invariance:sample-order[x=y]' -> 'invariance'; 'oracle-equal{multilabel}' -> 'oracle-equal'."""
    return _form(prop)[0].split("[")[0].split(":")[0]


def _form(prop: str) -> tuple[str, str | None]:
    """(property without its input form, the form): 'oracle-equal{multilabel}[x=y]' ->
    ('oracle-equal[x=y]', 'multilabel')."""
    if not prop.startswith("oracle-equal{"):
        return prop, None
    form, rest = prop[len("oracle-equal{"):].split("}", 1)
    return "oracle-equal" + rest, form


def _settings_for(adapter, metric: str, prop: str) -> dict:
    prop = _form(prop)[0]
    if prop.startswith("oracle-equal["):
        want = prop[len("oracle-equal["):-1]
        for v, s in _variants(adapter, metric):
            if v == want:
                return s
        raise ConventionError(f"{prop}: no such variant")
    return adapter.profile(metric)


def _non_default(metric: str, settings: dict) -> dict:
    default = get_metric(metric).settings({})
    return {k: v for k, v in settings.items() if default.get(k) != v}


def _call(adapter, configured, inputs):
    try:
        return adapter.run(configured, inputs).value, None
    except Skip:
        raise
    except (Exception, SystemExit) as e:
        return None, f"{type(e).__name__}: {e}"


def run_property(adapter, metric: str, prop: str, known, examples: int = 50,
                 hypothesis_settings=None, memo: dict | None = None) -> Record:
    """One property of ``metric`` (``property_names``) judged on generated inputs; with
    ``memo`` (one dict per unit), repeated library calls are answered from it (``_Remembered``)."""
    m = get_metric(metric)
    plan = plan_for(metric)
    r = Record(adapter=adapter.name, library=adapter.library, version=adapter.version(), metric=metric,
               kind="property", test=prop, outcome="pass", tolerance=str(adapter.tolerance(metric)))
    r.description = _DESCRIPTIONS.get(prop.split("[")[0].split(":")[0], prop)
    settings = _settings_for(adapter, metric, prop)
    hs = hypothesis_settings or search_settings(examples)
    kept_key = findings.key(adapter, metric, settings, prop, hs.max_examples)
    if memo is not None:
        adapter = _Remembered(adapter, memo, f"{metric} {sorted(settings.items())!r}")
    r.conventions = _non_default(metric, settings)
    r.case_signature = m.signature(settings)
    r.adapter_signature = m.signature(adapter.profile(metric))
    configured = adapter.configure(metric, settings)
    if isinstance(configured, Unsupported):
        r.outcome, r.message = "not-applicable", configured.reason
        return r
    # a kind of invalid input the library's own input type cannot hold (a dict cannot repeat
    # a key): every generated example would be skipped, so none is generated
    cannot = getattr(adapter, "cannot_receive", {}).get(prop.split("[")[0])
    if cannot:
        r.outcome, r.message = "skipped", f"the library cannot receive this kind of input: {cannot}"
        return r
    tol = adapter.tolerance(metric)
    seen: dict[str, int] = {}
    count = [0]
    skipped: list = []
    last: list = [None]   # the example being judged, as ``Finding.example``

    def known_or_raise(inputs, fields, reproducing=None):
        lib = fields.get("library_value")
        check = (lambda knobs: reproduces(metric, {**settings, **knobs}, inputs, lib, tol)) \
            if _numeric(lib) else None
        # during the search only predicting entries count: an entry recorded on one stored
        # input is matched once hypothesis has shrunk the finding (below), so the shrinker
        # still sees the failure and reaches that input
        kf = known.recognise(metric, settings, inputs, reproducing, check,
                             library_value=lib if "library_value" in fields else _MISSING, stored=False, prop=prop)
        if kf:
            seen[kf.id] = seen.get(kf.id, 0) + 1
            return
        fields["inputs"] = inputs
        raise Finding(fields, list(last[0]) if last[0] is not None else None)

    form = _form(prop)[1]
    strategy = plan.forms[form][1](settings) if form else plan.inputs(settings)

    def check(data):
        from hypothesis import reject
        inputs = data.draw(strategy, label="inputs")
        try:
            m.compute(inputs, settings)
        except (InputError, ConventionError):
            reject()
        base = _form(prop)[0].split("[")[0]
        if base.startswith("invalid:"):
            bad = mutate(base.split(":", 1)[1], metric, inputs)
            if bad is None:
                reject()
            try:
                m.compute(bad, settings)
                reject()  # still valid under these settings: not an example of this kind
            except (InputError, ConventionError) as e:
                refusal = f"{type(e).__name__}: {e}"
            count[0] += 1
            check_invalid(bad, refusal)
            return
        count[0] += 1
        examine(inputs, data, base.split(":", 1)[0])

    def examine(inputs, data, base, replaying=False, other=None):
        """One accepted example. ``replaying``: run by a replay (``conformance.engine.draws``),
        where an example that the search would reject stops the replay (``Diverged``) and
        ``other`` is the recorded transformation (``OVERRUN``: the search's draw of it ended
        the example) where the search draws it from ``data``."""
        last[0] = ["examine", inputs, other]
        def reject():
            if replaying:
                raise Diverged("the search rejects this example")
            from hypothesis import reject as _reject
            _reject()
        try:
            if base in ("oracle-equal", "statistics"):
                v = judge(adapter, metric, settings, inputs, explain_it=False, configured=configured,
                          texts_when_agreeing=False)
                if v.status == "skipped":
                    reject()
                value_bad = v.status == "error" or (v.comparison is not None and not v.comparison.agrees)
                stat_bad = bool(v.first_differing_statistic)
                if (base == "oracle-equal" and value_bad) or (base == "statistics" and stat_bad):
                    # explaining is a search: during shrinking, convention entries are checked
                    # one by one instead (known_or_raise); the search runs once on the final input
                    found = None
                    known_or_raise(inputs, {
                        "exact": v.exact, "digits": v.digits, "library_value": v.library_value,
                        "comparison": v.comparison.to_json() if v.comparison else {},
                        "first_differing_statistic": v.first_differing_statistic,
                        "explanation": "" if base == "oracle-equal" else "a sufficient statistic differs",
                        "reproducing_knobs": found or [],
                        "message": v.message or ("value disagrees" if base == "oracle-equal" else "statistics differ"),
                        "outcome": "error" if v.status == "error" else "fail"}, found)
                return
            value, err = _call(adapter, configured, inputs)
            if err and replaying and base == "invariance":
                raise Diverged("the search draws no transformation after an error")
            if err:
                known_or_raise(inputs, {"library_value": f"raised {err}", "message": f"the library raised {err}",
                                        "explanation": "the library raised on an input the oracle defines: "
                                                       "no knob setting explains a crash, a defect",
                                        "outcome": "error"})
                return
            if base == "bounds":
                upper = plan.upper(settings)
                # the bounds are exact; a value past them by less than the declared tolerance
                # (100.00000000000004 for a perfect match) is float rounding, not a violation
                leaves = [x for _, x in _paths(value)] if isinstance(value, (list, dict)) else [value]
                bad = None
                for x in leaves:
                    x = as_number(x)   # a NumPy or torch scalar at its binary value
                    if x is None or (isinstance(x, float) and math.isnan(x)):
                        continue  # "no value": judged by oracle-equal against the oracle's Undefined
                    lower = plan.lower(settings)
                    ok = isinstance(x, (int, float, Fraction)) and not isinstance(x, bool) and _finite(x) and \
                        (lower is None or Fraction(x) >= lower or compare(x, lower, tol).agrees)
                    if not ok or (upper is not None and Fraction(x) > upper and not compare(x, upper, tol).agrees):
                        bad = x
                        break
                if value is not None and (bad is not None or not _numeric(value)):
                    # the oracle's value beside the library's, so that a recorded entry replays
                    known_or_raise(inputs, {"library_value": value, "exact": exact_texts(m.compute(inputs, settings).value)[0],
                                            "message": f"value {value!r} outside [{plan.lower(settings)}, {upper}]",
                                            "outcome": "fail"})
            elif base == "invariance":
                name = prop.split(":", 1)[1]
                if not replaying:
                    other = last[0][2] = plan.invariances[name](inputs, data)
                elif other == OVERRUN:   # (by value: a walk read back from a file holds a copy)
                    return
                value2, err2 = _call(adapter, configured, other)
                if err2 or not _same_output(value, value2, tol):
                    known_or_raise(inputs, {"library_value": value,
                                            "message": f"{name}: the value changes from {value!r} to {value2!r} "
                                                       f"on the transformed input {other!r}", "outcome": "fail"})
            elif base == "identity":
                got = plan.identity(inputs, settings)
                if got is None:
                    return
                new_inputs, expected = got
                value3, err3 = _call(adapter, configured, new_inputs)
                if err3 or not compare_value(value3, expected, tol).agrees:
                    known_or_raise(new_inputs, {"library_value": value3 if not err3 else f"raised {err3}",
                                                "exact": exact_texts(expected)[0],
                                                "message": f"a hypothesis equal to its reference scores {value3!r}, "
                                                           f"not {expected}", "outcome": "fail"})
        except Skip:
            reject()

    def check_invalid(bad, refusal, replaying=False):
        last[0] = ["invalid", bad, refusal]
        try:
            out = adapter.run(configured, bad)
        except Skip as e:
            if replaying:
                raise Diverged("the search rejects this example")
            from hypothesis import reject
            skipped.append(str(e))
            reject()
        except NOT_REFUSALS as e:   # an exit, a signal, a hang, a memory kill: not a refusal
            why = not_a_refusal(e)
            known_or_raise(bad, {"library_value": f"died: {why}", "exact": f"error({refusal})",
                                 "message": f"the library's call ended without an answer on invalid input: {why}",
                                 "explanation": f"the spec refuses this input ({refusal}); the library's call "
                                                f"ended without an exception of its own ({why}): an error, "
                                                "not a refusal",
                                 "outcome": "error"})
            return
        except Exception as e:
            why = not_its_refusal(adapter, metric, e)
            if not why:
                return  # a clear refusal, as the spec does
            lib = f"raised {type(e).__name__}: {e}"
            known_or_raise(bad, {"library_value": lib, "exact": f"error({refusal})",
                                 "message": f"crashes with {why} on invalid input",
                                 "explanation": f"the spec refuses this input ({refusal}); the library crashes "
                                                f"with {why} instead of refusing it",
                                 "outcome": "error"})
            return
        known_or_raise(bad, {"library_value": out.value, "exact": f"error({refusal})",
                             "message": f"accepts invalid input: returned {out.value!r}",
                             "explanation": f"accepts invalid input: the spec refuses it ({refusal}), the library "
                                            f"returns {out.value!r}; a defect", "outcome": "fail"})

    test = hs(given(st.data())(check))
    if hs.derandomize:
        test = seed(PROPERTY_SEED)(test)
    t0 = time.perf_counter()
    searched = False
    try:
        replayed = _replay(adapter, configured, metric, settings, form, prop, plan, m, strategy, hs, examine,
                           check_invalid, count, seen, skipped)
        if replayed == findings.FOUND:   # raises the kept finding when its example still fails
            findings.judge_kept(kept_key, _kind(prop), Finding, examine, check_invalid, count, seen, skipped)
        if replayed is not True:
            count[0] = 0
            seen.clear()
            skipped.clear()
            searched = True
            test()
    except Finding as f:
        if searched:
            findings.save(kept_key, f.example, count[0], seen)
        for k, v in f.fields.items():
            setattr(r, k, v)
        if not r.explanation:
            r.explanation = f"{r.message}: no knob setting makes the definition behave so, a defect"
        base_entry = known.stored(metric, settings, f.fields.get("inputs"), f.fields.get("library_value", _MISSING)) \
            or known.baseline_for(metric, prop, settings, f.fields.get("inputs"),
                                  f.fields.get("library_value", _MISSING))
        if base_entry is not None:
            # recorded on this very input: its explanation was proven when it was recorded
            r.outcome, r.known_failure, r.known_title = "known-failure", base_entry.id, base_entry.title
            r.explanation = base_entry.explanation or r.explanation
        elif prop.startswith("oracle-equal") and _numeric(r.library_value):
            try:
                r.reproducing_knobs, r.explanation = proven_explanation(
                    adapter, metric, settings, r.inputs, r.library_value, tol)
            except Exception:
                r.reproducing_knobs, r.explanation = [], explanation([], r.library_value, None)
        r.reproduce = reproduce_command(adapter, metric, r.conventions, f.fields.get("inputs"))
    except Unsatisfiable:
        r.outcome, r.message = "skipped", "no generated input was accepted by the library and the oracle"
        if skipped:
            r.message += f"; the adapter skipped them: {skipped[-1]}"
    except Exception as e:
        import traceback as _tb
        r.outcome, r.message = "error", f"engine error: {type(e).__name__}: {e}"
        if _os.environ.get("METRIC_CONFORMANCE_DEBUG"):
            _tb.print_exc()
    r.seconds = time.perf_counter() - t0
    r.examples = count[0]
    r.known_seen = sorted(seen)
    if r.outcome == "pass" and seen:
        r.message = "disagreements seen, all explained by known failures: " + ", ".join(
            f"{k} x{v}" for k, v in sorted(seen.items()))
    return r


_REPLAYED = ("oracle-equal", "statistics", "bounds", "identity", "invariance", "invalid")


def _replay(adapter, configured, metric, settings, form, prop, plan, m, strategy, hs, examine, check_invalid, count,
            seen, skipped) -> bool:
    """Run the property's check over the inputs its search walks, recorded once per
    setting (``conformance.engine.draws``); False, with nothing reported, where the
    search must run instead (an example that would make the search walk differently).
    An invalid property first replays the walk of its filter alone (shared by every
    adapter) and, where the adapter skips one of its changed inputs, the walk with the
    adapter's skips in it."""
    from hypothesis.errors import UnsatisfiedAssumption
    base = _kind(prop)
    if base not in _REPLAYED or not replayable(hs):
        return False
    transform = plan.invariances[prop.split(":", 1)[1]] if base == "invariance" else None
    what = prop.split("[")[0] if base in ("invariance", "invalid") else "inputs"
    if base == "invalid":
        plain = invalid_filter(metric, m, settings, prop.split(":", 1)[1].split("[")[0])
        attempts = [(plain, ""), (with_adapter(plain, adapter, configured, Skip, on_payload=True), adapter.name)]
    else:   # the adapter's skips end an example in the search: they are part of the walk
        attempts = [(with_adapter(oracle_filter(m, settings), adapter, configured, Skip), adapter.name)]
    shape = shape_key(strategy, form, what, transform, hs, PROPERTY_SEED)
    for accept, who in attempts:
        count[0] = 0
        seen.clear()
        skipped.clear()
        walk = recorded(walk_key(metric, settings, form, what, hs, who), accept, strategy, hs, PROPERTY_SEED,
                        transform, shape)
        if walk is None:
            return False
        if hasattr(adapter, "prefetch"):
            adapter.prefetch(configured, replay_inputs(walk, base, plan, settings))
        try:
            for blob, payload, other, status in walk:
                count[0] += 1
                if status == "skip":
                    if base == "invalid":
                        skipped.append(pickle.loads(payload))
                    continue
                if base == "invalid":
                    check_invalid(*pickle.loads(payload), replaying=True)
                    continue
                inputs = pickle.loads(blob)
                examine(inputs, None, base, True, other if other in (None, OVERRUN) else pickle.loads(other))
        except Diverged:
            continue
        except UnsatisfiedAssumption:
            return False
        except Finding:
            return findings.FOUND
        if walk.unsatisfiable:
            raise Unsatisfiable("no generated example was accepted (replayed)")
        return True
    return False


_DESCRIPTIONS = {
    "oracle-equal": "The library's value equals the oracle's under the library's declared settings.",
    "statistics": "The library's sufficient statistics equal the oracle's.",
    "bounds": "The value lies within the metric's range.",
    "invariance": "A transformation that must not change the value does not change it.",
    "identity": "A hypothesis equal to its reference gets the maximum score.",
    "invalid": "An input the spec refuses is refused by the library too (a clear error, not a value).",
}
