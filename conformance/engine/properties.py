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

Every property judges every input of its metric's corpus (``conformance.engine.corpus``)
that the oracle defines under its setting: a disagreement that a known-failure entry
explains is counted on its input and the loop goes on, so a known failure never hides
another. The first unexplained one is shrunk by hypothesis (a seeded search of the same
strategy for an unexplained failure, seeded) and
reported with its minimal input, and with how many corpus inputs failed unexplained.
"""
from __future__ import annotations

import math
import os as _os
import time
from fractions import Fraction

from hypothesis import given, seed, strategies as st

from oracle.compare import _paths, as_number, compare, compare_value
from oracle.conventions import ConventionError, InputError
from oracle.exact import Undefined
from oracle.registry import get_metric

from conformance.engine import corpus as _corpus
from conformance.engine.calls import LibraryCalls
from conformance.engine.corpus import PROPERTY_SEED
from conformance.explain import explanation, reproduces
from conformance.engine.invalid import kinds as invalid_kinds, mutate
from conformance.engine.isolation import (ENVIRONMENT_ERROR, NOT_REFUSALS, UNRELATED_CRASHES, hit_a_limit,
                                          library_frame, not_a_refusal, not_its_refusal)
from conformance.engine.judge import judge, proven_explanation
from oracle.certified import exact_texts
from conformance.casefiles.known import _MISSING
from conformance.engine.outputs import finite as _finite, numeric as _numeric, same_output as _same_output
from conformance.engine.plans import plan_for
from conformance.engine.search import search_settings
from conformance.protocol import Skip, Unsupported
from conformance.reports.records import Record, reproduce_command


class Finding(Exception):
    """Raised inside a property to report a disagreement (carries the record fields)."""

    def __init__(self, fields: dict):
        super().__init__(fields.get("message", "finding"))
        self.fields = fields
        self.shrunk = False   # found by the shrinking search (else the corpus's own input)


_OPEN_TRIES = 2   # values drawn for a knob the library takes any value of (beta, k, order)


def _variants(adapter, metric: str) -> list[tuple[str, dict]]:
    """The other settings a library offers, one knob at a time: every value of an
    enumerated knob; for an open-valued one (beta, k, order, a threshold), the first
    ``_OPEN_TRIES`` of its special values and usual tries (``candidate_values``) that the
    library accepts."""
    from oracle.conventions import candidate_values
    prof = adapter.profile(metric)
    caps = adapter.capabilities.get(metric, {})
    out = []
    m = get_metric(metric)
    for knob, allowed in caps.items():
        if isinstance(allowed, tuple):
            values = list(allowed)
        else:
            try:
                values = candidate_values(m.knob(knob))
            except Exception:
                continue
        taken = 0
        for v in values:
            if v == prof.get(knob) or (not isinstance(allowed, tuple) and taken >= _OPEN_TRIES):
                continue
            try:
                s = m.settings({**prof, knob: v})
            except ConventionError:
                continue
            if adapter.supports(metric, s) is None:
                out.append((f"{knob}={v}", s))
                taken += 1
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


class _Raised(str):
    """What ended a library call, said after "the library", with the exception itself."""
    exception: BaseException


def _call(adapter, configured, inputs):
    try:
        return adapter.run(configured, inputs).value, None
    except Skip:
        raise
    except (Exception, SystemExit) as e:   # what happened, after "the library"
        reason = not_a_refusal(e)
        where = library_frame(e) if not reason else ""
        err = _Raised(f"call ended without an answer: {reason}" if reason else
                      f"raised {type(e).__name__}: {e}" + (f" (at {where})" if where else ""))
        err.exception = e
        return None, err


def _raises_as_declared(adapter, metric: str, m, settings, inputs, err) -> bool:
    """The library raised where the definition has no value, by an exception of its own, and
    its adapter declares raising as its representation of an undefined value
    (``Adapter.undefined``): the canonical answer, not a crash."""
    e = getattr(err, "exception", None)
    if e is None or isinstance(e, NOT_REFUSALS + UNRELATED_CRASHES) or "raise" not in adapter.undefined_as(metric):
        return False
    try:
        return isinstance(m.compute(inputs, settings).value, Undefined)
    except (InputError, ConventionError):
        return False


class _Rejected(Exception):
    """An example the property does not judge (the corpus loop's counterpart of hypothesis's
    ``reject``): the adapter skips it, or the oracle refuses it."""



def _definition_varies(m, settings, inputs, other) -> bool:
    """The oracle's own values on an input and its transform differ: the invariance is not
    the definition's under these settings (ROUGE-1.5.5's bootstrap draws summaries by their
    order), so a library that varies with it is not judged by it."""
    try:
        return m.compute(inputs, settings).value != m.compute(other, settings).value
    except Exception:
        return False

def run_property(adapter, metric: str, prop: str, known, examples: int = 50,
                 memo: dict | None = None) -> Record:
    """One property of ``metric`` (``property_names``) judged on every input of the
    metric's corpus that the oracle defines; with ``memo`` (one dict per unit), the
    library's value on an input is computed once per setting (``LibraryCalls``)."""
    m = get_metric(metric)
    plan = plan_for(metric)
    r = Record(adapter=adapter.name, library=adapter.library, version=adapter.version(), metric=metric,
               kind="property", test=prop, outcome="pass", tolerance=str(adapter.tolerance(metric)))
    r.description = _DESCRIPTIONS.get(prop.split("[")[0].split(":")[0], prop)
    settings = _settings_for(adapter, metric, prop)
    adapter = LibraryCalls(adapter, memo if memo is not None else {}, f"{metric} {sorted(settings.items())!r}")
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
    base = _kind(prop)
    name = prop.split(":", 1)[1].split("[")[0] if base in ("invariance", "invalid") else ""

    def known_or_raise(inputs, fields, reproducing=None):
        lib = fields.get("library_value")
        check = (lambda knobs: reproduces(metric, {**settings, **knobs}, inputs, lib, tol)) \
            if _numeric(lib) else None
        kf = known.recognise(metric, settings, inputs, reproducing, check,
                             library_value=lib if "library_value" in fields else _MISSING, prop=prop)
        if kf:
            seen[kf.id] = seen.get(kf.id, 0) + 1
            return
        fields["inputs"] = inputs
        raise Finding(fields)

    form = _form(prop)[1]
    strategy = plan.forms[form][1](settings) if form else plan.inputs(settings)

    def examine(inputs, reject, other=None):
        """One input the oracle defines: judged, a disagreement known or raised as a ``Finding``."""
        try:
            if base in ("oracle-equal", "statistics"):
                v = judge(adapter, metric, settings, inputs, explain_it=False, configured=configured,
                          texts_when_agreeing=False)
                if v.status == "skipped":
                    reject(v.message)
                value_bad = v.status == "error" or (v.comparison is not None and not v.comparison.agrees)
                stat_bad = bool(v.first_differing_statistic)
                if (base == "oracle-equal" and value_bad) or (base == "statistics" and stat_bad):
                    # explaining is a search: convention entries are checked one by one instead
                    # (known_or_raise); the search runs once on the final input
                    known_or_raise(inputs, {
                        "exact": v.exact, "digits": v.digits, "library_value": v.library_value,
                        "comparison": v.comparison.to_json() if v.comparison else {},
                        "first_differing_statistic": v.first_differing_statistic,
                        "explanation": "" if base == "oracle-equal" else "a sufficient statistic differs",
                        "reproducing_knobs": [],
                        "message": v.message or ("value disagrees" if base == "oracle-equal" else "statistics differ"),
                        "outcome": "error" if v.status == "error" else "fail"})
                return
            value, err = _call(adapter, configured, inputs)
            if err and _raises_as_declared(adapter, metric, m, settings, inputs, err):
                return
            if err:
                known_or_raise(inputs, {"library_value": err, "message": f"the library {err}",
                                        "explanation": ENVIRONMENT_ERROR if hit_a_limit(err) else
                                        "the library gave no value on an input the oracle defines: no knob "
                                        "setting explains a crash, a defect",
                                        "outcome": "error"})
                return
            if base == "bounds":
                _check_bounds(value, inputs)
            elif base == "invariance":
                if other is None:
                    return
                value2, err2 = _call(adapter, configured, other)
                if err2 or not _same_output(value, value2, tol):
                    if _definition_varies(m, settings, inputs, other):
                        return   # under these settings the definition itself is not invariant (a bootstrap's draws)
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
                    known_or_raise(new_inputs, {"library_value": value3 if not err3 else str(err3),
                                                "exact": exact_texts(expected)[0],
                                                "message": f"a hypothesis equal to its reference scores {value3!r}, "
                                                           f"not {expected}", "outcome": "fail"})
        except Skip as e:
            reject(str(e))

    def _check_bounds(value, inputs):
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

    def check_invalid(bad, refusal, reject):
        try:
            out = adapter.run(configured, bad)
        except Skip as e:
            reject(str(e))
            return
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

    def judged(inputs):
        """(what the library is asked for on ``inputs``, a function judging it) or None
        where the property does not judge it (the oracle refuses it; no invalid change)."""
        try:
            m.compute(inputs, settings)
        except (InputError, ConventionError):
            return None
        if base == "invalid":
            bad = mutate(name, metric, inputs)
            if bad is None:
                return None
            try:
                m.compute(bad, settings)
                return None   # still valid under these settings: not an example of this kind
            except (InputError, ConventionError) as e:
                refusal = f"{type(e).__name__}: {e}"
            return [bad], lambda reject: check_invalid(bad, refusal, reject)
        return None, None

    def hypothesis_reject(why=None):
        from hypothesis import reject
        skipped.append(why or "")
        reject()

    def check(data):   # the search that shrinks an unexplained failure
        inputs = data.draw(strategy, label="inputs")
        got = judged(inputs)
        if got is None:
            hypothesis_reject()
        if base == "invalid":
            got[1](hypothesis_reject)
            return
        other = plan.invariances[name](inputs, data) if base == "invariance" else None
        examine(inputs, hypothesis_reject, other)

    def corpus_reject(why=None):
        skipped.append(why or "")
        raise _Rejected(why)

    t0 = time.perf_counter()
    failures: list = []
    try:
        items = _corpus.items(metric, strategy, plan.invariances if base == "invariance" else {}, examples)
        todo = []
        for it in items:
            got = judged(it.inputs)
            if got is None:
                continue
            other = it.transformed.get(name) if base == "invariance" else None
            todo.append((it, got, other))
        adapter.prefetch(configured, [x for it, got, other in todo for x in _asked(it.inputs, got, other)])
        for it, got, other in todo:
            try:
                if got[1] is not None:
                    got[1](corpus_reject)
                else:
                    examine(it.inputs, corpus_reject, other)
                count[0] += 1
            except _Rejected:
                continue
            except Finding as f:
                count[0] += 1
                failures.append(f)
        if failures:
            raise _shrunk(failures[0], check, adapter, metric, settings, prop, examples)
        if count[0] == 0:
            r.outcome, r.message = "skipped", "no corpus input was accepted by the library and the oracle"
            if skipped and skipped[-1]:
                r.message += f"; the adapter skipped them: {skipped[-1]}"
    except Finding as f:
        for k, v in f.fields.items():
            setattr(r, k, v)
        if not r.explanation:
            r.explanation = f"{r.message}: no knob setting makes the definition behave so, a defect"
        r.message += f" ({len(failures)} of {count[0]} corpus inputs judged fail unexplained" + \
            ("" if f.shrunk else "; the search did not reach a failure to shrink, the first is shown") + ")"
        if prop.startswith("oracle-equal") and _numeric(r.library_value):
            try:
                r.reproducing_knobs, r.explanation = proven_explanation(
                    adapter, metric, settings, r.inputs, r.library_value, tol)
            except Exception:
                r.reproducing_knobs, r.explanation = [], explanation([], r.library_value, None)
        r.reproduce = reproduce_command(adapter, metric, r.conventions, f.fields.get("inputs"))
        r.also_failing = [{"inputs": g.fields["inputs"], "library_value": g.fields.get("library_value")}
                          for g in failures if g is not f][:100]
    except Exception as e:
        import traceback as _tb
        r.outcome, r.message = "error", f"engine error: {type(e).__name__}: {e}"
        if _os.environ.get("METRIC_CONFORMANCE_DEBUG"):
            _tb.print_exc()
    r.seconds = time.perf_counter() - t0
    r.examples = count[0]
    r.known_seen = sorted(seen)
    if r.outcome == "pass" and seen:
        # every disagreement on the corpus is a recorded one: the most frequent is named
        top = max(sorted(seen), key=lambda k: seen[k])
        entry = next((e for e in known.entries if e.id == top), None)
        r.outcome, r.known_failure = "known-failure", top
        if entry is not None:
            r.known_title, r.explanation, r.inputs = entry.title, entry.explanation, entry.inputs
        r.message = "disagreements seen, all explained by known failures: " + ", ".join(
            f"{k} x{v}" for k, v in sorted(seen.items()))
    return r


def _asked(inputs, got, other) -> list:
    """The inputs the property runs the library on (sent ahead in one message)."""
    if got[0] is not None:
        return got[0]
    return [inputs] + ([other] if other is not None else [])


def _shrunk(first: Finding, check, adapter, metric: str, settings: dict, prop: str, size: int) -> Finding:
    """The unexplained failure to report: hypothesis's search of the strategy for one
    (seeded, so every run walks alike and finds and shrinks the same input), shrunk to a
    minimal input; ``first`` (the corpus's first, unshrunk) where that search meets none.
    No example database: hypothesis ties a database to random runs (``@seed`` and
    ``derandomize`` imply ``database=None``), and a seeded search finds the same failure
    every run without one."""
    from hypothesis.errors import Unsatisfiable
    hs = search_settings(size)
    test = seed(PROPERTY_SEED)(hs(given(st.data())(check)))
    try:
        test()
    except Finding as f:
        f.shrunk = True
        return f
    except Unsatisfiable:
        pass
    first.shrunk = False
    return first


_DESCRIPTIONS = {
    "oracle-equal": "The library's value equals the oracle's under the library's declared settings.",
    "statistics": "The library's sufficient statistics equal the oracle's.",
    "bounds": "The value lies within the metric's range.",
    "invariance": "A transformation that must not change the value does not change it.",
    "identity": "A hypothesis equal to its reference gets the maximum score.",
    "invalid": "An input the spec refuses is refused by the library too (a clear error, not a value).",
}
