"""Which tie rule a library follows where the definition admits several values.

Where a knob's representative value is the admissible set (``Knob.admissible``: the
error rates' ``tie=any``, every minimum-cost alignment), a library's value inside the set
conforms. The run still shows which member it returns: on many inputs whose exact value
is a set of two or more, the named tie rules (the knob's other choices) that pick the
library's member on every one of them. That is a divergence of kind ``unspecified`` (the
sources leave the choice open) naming the rules; a library whose members no single rule
picks on all the inputs is a defect (an arbitrary or inconsistent split, or miscounted
hits), shown with the input that ruled out the last rule.

The inputs are built, not searched: every pair of short sequences over a three-token
vocabulary, smallest first (repeated tokens make most of them tied), so the first input
that tells two rules apart is as small as any.
"""
from __future__ import annotations

import itertools
import time

from oracle.certified import exact_texts, same_value
from oracle.compare import compare_value
from oracle.conventions import ConventionError, InputError
from oracle.exact import Admissible
from oracle.registry import get_metric

from conformance.engine.isolation import NOT_REFUSALS, not_a_refusal
from conformance.protocol import Skip, Unsupported
from conformance.reports.records import Record, reproduce_command

PROBES = 40   # tied inputs judged per library and metric


def admissible_knobs(adapter, metric: str) -> list[str]:
    """The knobs of ``metric`` at which the library's profile takes the admissible set."""
    prof = adapter.profile(metric)
    return [k.name for k in get_metric(metric).knobs if k.admissible and prof[k.name] == k.admissible]


def _sequences(tokens, longest: int):
    for n in range(1, longest + 1):
        yield from itertools.product(tokens, repeat=n)


def tied_candidates(metric: str):
    """Inputs of ``metric``, smallest first: one utterance, reference and hypothesis each of
    one to four tokens over {a, b, c} (characters for a character metric)."""
    char = "unit" in {k.name for k in get_metric(metric).knobs}
    join = "".join if char else " ".join
    pairs = [(r, h) for r in _sequences("abc", 4) for h in _sequences("abc", 4)]
    pairs.sort(key=lambda p: (len(p[0]) + len(p[1]), p))
    for r, h in pairs:
        yield {"references": [join(r)], "hypotheses": [join(h)]}


def member_and_rules(exact: Admissible, value, tol) -> tuple:
    """(the member of the admissible set ``exact`` that the library's ``value`` is, or None;
    the named rules that pick that member, ``Admissible.by_rule``)."""
    member = next((v for v in exact.values if _agrees(value, v, tol)), None)
    if member is None:
        return None, set()
    return member, {rule for rule, v in exact.by_rule.items() if _same(v, member)}


def run_tie_rule(adapter, metric: str, knob: str, known, probes: int = PROBES) -> Record:
    """The record of which named ``knob`` rule reproduces the library's members of the
    admissible sets on ``probes`` tied inputs (``unspecified``), or a defect."""
    m = get_metric(metric)
    k = m.knob(knob)
    prof = adapter.profile(metric)
    rules = [c for c in k.choices if c != k.admissible]
    r = Record(adapter=adapter.name, library=adapter.library, version=adapter.version(), metric=metric,
               kind="divergence", test=knob, outcome="divergence", tolerance=str(adapter.tolerance(metric)))
    r.description = (f"{knob}: the sources leave it open ({k.unspecified}); which named rule gives the library's "
                     f"member of the admissible set")
    r.source = adapter.profile_source(metric, knob)
    r.verdicts = {"divergence": "unspecified"}
    r.case_signature = r.adapter_signature = m.signature(prof)
    t0 = time.perf_counter()
    configured = adapter.configure(metric, prof)
    if isinstance(configured, Unsupported):
        r.outcome, r.message = "not-applicable", configured.reason
        return r
    tol = adapter.tolerance(metric)
    candidates, judged, tied, shown = set(rules), 0, 0, None
    ruled_out: dict = {}
    for x in tied_candidates(metric):
        try:
            exact = m.compute(x, prof).value
        except (InputError, ConventionError):
            continue
        if not isinstance(exact, Admissible) or len(exact.values) < 2:
            continue
        tied += 1
        try:
            value = adapter.run(configured, x).value
        except Skip:
            continue
        except NOT_REFUSALS as e:
            r.outcome, r.inputs, r.library_value = "error", x, f"died: {not_a_refusal(e)}"
            r.message = f"the library's call ended without an answer on a tied input: {not_a_refusal(e)}"
            break
        except Exception as e:
            r.outcome, r.inputs, r.library_value = "error", x, f"raised {type(e).__name__}: {e}"
            r.message = "the library raised on an input the oracle defines"
            break
        judged += 1
        member, picks = member_and_rules(exact, value, tol)
        if member is None:   # outside the set: the oracle-equal property reports it as a failure
            continue
        if shown is None and picks != set(rules) and picks & candidates:
            shown = (x, exact, member, value)
        for rule in candidates - picks:
            ruled_out[rule] = (x, exact, member, value)
        candidates &= picks
        if not candidates or judged >= probes:
            break
    r.seconds = time.perf_counter() - t0
    if r.outcome == "error":
        return r
    if tied == 0:
        r.outcome = "not-applicable"
        r.message = (f"no input built here has two admissible values of {metric}: its value is the same under "
                     f"every minimum-cost {knob} rule (it depends on the distance alone)")
        return r
    if judged == 0:
        r.outcome, r.message = "skipped", "the adapter skips every tied input"
        return r
    if candidates:
        rule_text = "/".join(sorted(candidates))
        r.material = {knob: [k.admissible, rule_text]}
        r.explanation = (f"on {judged} inputs with tied minimum-cost alignments the library returns the member "
                         f"{knob}={rule_text} picks" + (", and no other rule's on all of them" if ruled_out else ""))
        x, exact, member, value = shown or (None, None, None, None)
    else:
        last = list(ruled_out)[-1]
        x, exact, member, value = ruled_out[last]
        r.outcome = "fail"
        r.material = {knob: [k.admissible, "none"]}
        r.explanation = (f"no named {knob} rule gives the library's members on all {judged} tied inputs (the last, "
                         f"{knob}={last}, is ruled out on the input shown): the split of the errors is arbitrary "
                         "or miscounted, a defect")
        kf = known.recognise(metric, prof, x, None, library_value=value)
        if kf:
            r.outcome, r.known_failure, r.known_title = "known-failure", kf.id, kf.title
    if x is not None:
        r.inputs, r.library_value = x, value
        r.exact, r.case_exact = exact_texts(member)[0], str(exact)
        r.reproduce = reproduce_command(adapter, metric, {}, x)
    return r


def _agrees(value, exact, tol) -> bool:
    try:
        return compare_value(value, exact, tol).agrees
    except Exception:
        return False


def _same(a, b) -> bool:
    try:
        return same_value(a, b)
    except Exception:
        return False
