"""The call as people make it: every library entry point is also called with the inputs
and no optional argument at all (``Adapter.call_bare``), on every golden input of the
metric, and judged against the profile its adapter declares for that call
(``Adapter.bare_profile``).

An adapter passes options explicitly (that is how it reaches the other settings), so the
records of golden cases and properties never see the library's own defaults: a release
that changes a default (ranx's ``make_comparable``, scikit-learn's ``zero_division``)
would pass unnoticed. This check does not: a bare call that differs from the oracle at
the declared profile where the configured call at that profile does not is a failure of
the declaration (or of the library's default), shown with its smallest input."""
from __future__ import annotations

import json

from oracle.registry import get_metric

from conformance.explain import describe, explain
from conformance.engine.isolation import NOT_REFUSALS, not_a_refusal
from conformance.engine.judge import Verdict, judge
from conformance.protocol import Skip, Unsupported, bare
from conformance.casefiles.known import same_library_value
from conformance.reports.records import Record, shorten

# judge statuses where the library answered (a value, or an exception of its own)
_ANSWERED = ("agree", "disagree", "error")


def _size(case) -> int:
    return len(json.dumps(case.inputs, sort_keys=True, default=str))


def run_default_call(adapter, metric: str, cases: list, known=None) -> Record:
    """One record for ``adapter`` and ``metric``: its bare call on every golden input the
    oracle scores, judged at ``bare_profile(metric)``. Pass: it agrees wherever the call
    with the adapter's options at that profile agrees (where both return the same wrong
    value, the golden records already judge it). Fail: an input where it does not, the
    smallest one shown. Skipped: the adapter declares no bare call, or no input was judged."""
    r = Record(adapter=adapter.name, library=adapter.library, version=adapter.version(), metric=metric,
               kind="defaults", test="default-call", outcome="pass", tolerance=str(adapter.tolerance(metric)),
               description="the library called with no optional argument, against the profile its adapter "
                           "declares for that call")
    computed = getattr(adapter, "bare_metrics", {}).get(metric, metric)
    m = get_metric(computed)
    settings = adapter.bare_profile(metric)
    r.run_settings = dict(settings)
    r.adapter_signature = m.signature(settings)
    canonical = m.settings({})
    r.differing_knobs = {k: [canonical[k], settings[k]] for k in settings if canonical.get(k) != settings[k]}
    configured = bare(metric, settings)
    # the call with the adapter's options it is compared with: at the same setting, or (where
    # the bare call computes another metric) at the adapter's profile of this one
    own = settings if computed == metric else adapter.profile(metric)
    judged = same = 0
    skips: dict = {}
    seen: dict = {}    # known failure id -> inputs it explains
    agreed: set = set()
    failures = []
    for case in sorted(cases, key=_size):
        v = judge(adapter, computed, settings, case.inputs, explain_it=False, configured=configured,
                  texts_when_agreeing=False)
        if v.status == "agree":
            judged += 1
            agreed.add(case.id)
        elif v.status in ("skipped", "not-applicable"):
            skips.setdefault(v.message, []).append(case.id)
            if len(skips) == 1 and len(skips[v.message]) == 1 and "declares no call" in v.message:
                break   # the adapter has no bare call for this metric: nothing else to learn
        elif v.status == "oracle-error":
            # the declared default profile refuses this input: so must the bare call
            said = _answer(adapter, configured, case.inputs)
            if said[0] == "skipped":
                skips.setdefault(said[1], []).append(case.id)
            elif said[0] == "raised":
                judged += 1
            else:
                judged += 1
                configured_call = adapter.configure(metric, own)
                other = ("not-applicable", "") if isinstance(configured_call, Unsupported) else \
                    _answer(adapter, configured_call, case.inputs)
                if other == said:
                    same += 1
                else:
                    refused = Verdict("accepts-invalid", exact=f"error({v.message})", library_value=said[1])
                    failures.append((case, refused, Verdict(other[0], library_value=other[1],
                                                            message=str(other[1]))))
        else:
            judged += 1
            w = judge(adapter, metric, own, case.inputs, explain_it=False, texts_when_agreeing=False)
            if w.status == v.status and same_library_value(w.library_value, v.library_value, raise_text=True):
                same += 1   # the configured call answers the same: not a matter of defaults
                continue
            kf = known.recognise(computed, settings, case.inputs, [], library_value=v.library_value,
                                 status=v.status) if known is not None and w.status == "agree" else None
            if kf is not None:   # a recorded defect of the metric the bare call computes
                seen.setdefault(kf.id, 0)
                seen[kf.id] += 1
            else:
                failures.append((case, v, w))
    r.examples = judged
    skip_text = "; ".join(f"{why} ({len(ids)} input{'s' * (len(ids) != 1)})" for why, ids in skips.items())
    if failures:
        case, v, w = failures[0]
        r.outcome = "fail"
        r.inputs = case.inputs
        r.exact, r.digits, r.library_value = v.exact, v.digits, v.library_value
        r.comparison = v.comparison.to_json() if v.comparison else {}
        configured_says = ("agrees with it" if w.status == "agree" else
                           f"returns {shorten(str(w.library_value))}" if w.status in _ANSWERED + ("value",) else
                           f"refuses it ({shorten(str(w.library_value))})" if w.status == "raised" else
                           f"is {w.status}{': ' + w.message if w.message else ''}")
        r.message = (f"{len(failures)} of {judged} golden inputs: called with no optional argument, "
                     f"{adapter.name} returns {shorten(str(v.library_value))} where its declared profile for that "
                     f"call ({r.adapter_signature}) gives {v.exact}; the call with the adapter's options "
                     f"{configured_says} (smallest: {case.id})")
        found = explain(computed, settings, case.inputs, v.library_value, adapter.tolerance(metric)) \
            if v.status == "disagree" else []
        r.explanation = ("the library's default differs from the profile declared for it"
                         + (f"; on this input alone {describe(found, proven=False)}" if found else "")
                         + ": the declaration (``bare_profiles``) or the library's default changed")
        r.reproducing_knobs = found
        return r
    if judged == 0:
        r.outcome = "skipped"
        r.message = skip_text or "no golden input the oracle scores"
        return r
    if computed != metric:
        shown = _first_separating(metric, computed, own, settings, [c for c in sorted(cases, key=_size)
                                                                  if c.id in agreed])
        if shown:
            case, exact, theirs = shown
            r.inputs, r.exact, r.case_exact = case.inputs, str(exact), str(exact)
            r.library_value = str(theirs)
        r.outcome = "divergence"
        r.verdicts = {"divergence": "default-call"}
        r.explanation = (f"called with no optional argument, the library's {metric} computes {computed} "
                         f"({adapter.bare_sources.get(metric, 'declared by its adapter')})")
    r.message = (f"agrees at its declared default profile on {judged - same} of {judged} golden inputs"
                 + (f" (as {computed})" if computed != metric else "")
                 + (f"; on {same} it returns what the call with the adapter's options returns (judged by "
                    "the golden records)" if same else "")
                 + (f"; skipped: {skip_text}" if skip_text else "")
                 + (f"; known failures: {', '.join(f'{k} ({n})' for k, n in sorted(seen.items()))}"
                    if seen else ""))
    r.known_seen = sorted(seen)
    return r


def _first_separating(metric: str, computed: str, own, settings, cases):
    """(case, value of ``metric`` at ``own``, value of ``computed`` at ``settings``) of the
    first case where the two differ, or None."""
    from oracle.exact import exact_str
    for case in cases:
        try:
            a = get_metric(metric).compute(case.inputs, own).value
            b = get_metric(computed).compute(case.inputs, settings).value
        except Exception:
            continue
        if exact_str(a) != exact_str(b):
            return case, exact_str(a), exact_str(b)
    return None


def _answer(adapter, configured, inputs) -> tuple:
    """What one call says: ("value", v), ("raised", exception text), ("died", why) or
    ("skipped", why)."""
    try:
        return ("value", adapter.run(configured, inputs).value)
    except Skip as e:
        return ("skipped", str(e))
    except NOT_REFUSALS as e:
        return ("died", not_a_refusal(e))
    except Exception as e:
        return ("raised", f"{type(e).__name__}: {e}")
