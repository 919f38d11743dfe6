"""Divergence from the canonical definition: for each knob where a library's
profile differs from the metric's canonical default, the run itself finds a
minimal input on which the two settings give different exact values (hypothesis
``find``, shrunk), and shows both exact values beside the library's value.

The separators declared with the knobs (``oracle.separators``) are tried first;
the search runs only where none of them shows the divergence.

A divergence is not a failure (the library does what its profile says) and is
never invisible. When the library gives the canonical value instead, its
profile is wrong there: a failure. When it gives neither, the finding is
judged as any disagreement (a known failure, or a failure).
"""
from __future__ import annotations

import time

from hypothesis import find
from hypothesis.errors import NoSuchExample, Unsatisfiable

from oracle.compare import compare_value
from oracle.conventions import ConventionError
from oracle.certified import same_value
from oracle.registry import get_metric

from conformance.reports.records import shorten
from oracle.certified import exact_texts
from conformance.engine.isolation import NOT_REFUSALS, not_a_refusal, not_its_refusal
from conformance.engine.plans import plan_for
from conformance.engine.search import search_settings
from conformance.protocol import PRESENTATION_KNOBS, Skip, Unsupported
from conformance.reports.records import Record, reproduce_command


def divergent_knobs(adapter, metric: str) -> list[tuple[str, str, str]]:
    """[(knob, canonical value, library value)] where the profile differs from the default."""
    m = get_metric(metric)
    canon, prof = m.settings({}), adapter.profile(metric)
    return [(k.name, canon[k.name], prof[k.name]) for k in m.knobs
            if canon[k.name] != prof[k.name] and k.name not in PRESENTATION_KNOBS]


def reported_knobs(adapter, metric: str) -> list[tuple[str, str, str]]:
    """[(knob, the value shown against, library value)]: every knob where the profile
    differs from the canonical default, and every knob the sources leave open
    (``Knob.unspecified``) where the library takes the oracle's representative value, shown
    against the first other value that is not the same by definition there. A knob whose
    representative is the admissible set (``Knob.admissible``) is ``ties``' to report."""
    m = get_metric(metric)
    prof = adapter.profile(metric)
    out = divergent_knobs(adapter, metric)
    for k in m.knobs:
        if k.unspecified and k.name not in PRESENTATION_KNOBS and not any(k.name == d[0] for d in out) \
                and prof[k.name] != k.admissible:
            rival = _rival(m, k, prof)
            if rival is not None:
                out.append((k.name, rival, prof[k.name]))
    return out


def _rival(m, k, prof: dict):
    from oracle.conventions import candidate_values
    for v in candidate_values(k):
        try:
            s = m.settings({**prof, k.name: v})
        except ConventionError:
            continue
        if s[k.name] != prof[k.name] and not m.inert(k.name, s[k.name], prof[k.name], prof):
            return s[k.name]
    return None


def exact_value(metric: str, inputs, settings):
    """The exact value, or ('refused', message) where the spec refuses the input
    (``oracle.separators.value``)."""
    from oracle.separators import value
    return value(metric, inputs, settings)


def differs(a, b) -> bool:
    ra, rb = isinstance(a, tuple), isinstance(b, tuple)
    if ra or rb:
        return ra != rb
    return not same_value(a, b)


def value_text(v) -> str:
    return f"error({v[1]})" if isinstance(v, tuple) else exact_texts(v)[0]


def separating_input(metric: str, ours: dict, theirs: dict, examples: int, strategy_settings: dict | None = None,
                     follows=None, seen: dict | None = None, declared: bool = True):
    """A minimal generated input on which the two settings give different exact values
    (a refusal under one and a value under the other counts), or None. With
    ``follows(inputs, exact, other)``, only inputs on which the library follows ``ours``
    and is told apart from ``theirs`` (both exact values below 2**-1074 are not a showing).
    ``seen["separated"]`` records whether any generated input separated the two settings
    at all (before ``follows``): the search is derandomized, so without one, the same
    search without ``follows`` cannot find any either. ``declared``: try the separators
    declared with the knobs first (False where the caller has tried them)."""
    plan = plan_for(metric)
    if plan is None:
        return None
    # an input found for another metric of the family with the same two settings apart (the
    # query-set knobs of 30 ranking measures, say) is tried first: when it separates these
    # and the library follows, it is as small as the search would find
    key = (get_metric(metric).family, tuple(sorted((k, ours[k], theirs[k]) for k in ours if ours[k] != theirs[k])))
    for x in _FOUND.get(key, ()):
        try:
            a, b = exact_value(metric, x, ours), exact_value(metric, x, theirs)
        except Exception:
            continue
        # (``seen`` is not touched here: what the later searches do must not depend on which
        # metrics this process happened to run before)
        if not (isinstance(a, tuple) and isinstance(b, tuple)) and differs(a, b) \
                and (follows is None or follows(x, a, b)):
            return x
    if declared:
        # the separators declared with the knobs (``oracle.separators``), smallest first, each
        # with its variants (numeric query ids, for a tool that reads them as numbers)
        x, apart = _declared_followed(metric, ours, theirs, follows)
        if apart is not None and seen is not None:
            seen["separated"] = True
            seen.setdefault("apart", apart)
        if follows is None and apart is not None:
            return apart
        if x is not None:
            return x
    strategy = plan.inputs(strategy_settings or ours)
    hs = search_settings(max(examples, 1) * 3)
    # a search in which no input separated the two settings finds none under any library
    # (``follows`` is asked only on separating inputs; the search is derandomized)
    never = (metric, repr(sorted(ours.items())), repr(sorted(theirs.items())),
             repr(sorted((strategy_settings or ours).items())), hs.max_examples)
    if never in _NEVER:
        return None
    separated: dict = {}

    def separates(x) -> bool:
        a, b = exact_value(metric, x, ours), exact_value(metric, x, theirs)
        if isinstance(a, tuple) and isinstance(b, tuple):
            return False
        if not differs(a, b):
            return False
        separated["any"] = True
        if seen is not None:
            seen["separated"] = True
        return follows is None or follows(x, a, b)

    try:
        x = find(strategy, separates, settings=hs)
    except (NoSuchExample, Unsatisfiable):
        if not separated:
            _NEVER.add(never)
        return None
    found = _FOUND.setdefault(key, [])
    if len(found) < 4:
        found.append(x)
    return x


def _moved(r: Record, m, prof: dict, canon: dict, message: str) -> tuple[dict, dict]:
    """The record set to show the divergence at another setting (``prof`` the library's,
    ``canon`` the same with the knob canonical): its message, conventions and signatures;
    returns (prof, canon)."""
    r.message = message
    r.conventions = {k: v for k, v in canon.items() if m.settings({}).get(k) != v}
    r.case_signature, r.adapter_signature = m.signature(canon), m.signature(prof)
    return prof, canon


def _declared_followed(metric: str, ours: dict, theirs: dict, follows):
    """(the first declared separator of ``ours`` and ``theirs`` on which the library, asked
    by ``follows``, follows ``ours``, or None; the first that separates them, or None)."""
    apart = None
    for y in declared_separators(metric, ours, theirs):
        try:
            a, b = exact_value(metric, y, ours), exact_value(metric, y, theirs)
        except Exception:   # a value the oracle cannot certify: no showing
            continue
        if not (isinstance(a, tuple) and isinstance(b, tuple)) and differs(a, b):
            apart = y if apart is None else apart
            if follows is not None and follows(y, a, b):
                return y, apart
    return None, apart


def declared_separators(metric: str, ours: dict, theirs: dict) -> list:
    """The inputs ``oracle.separators`` declares for the knobs on which ``ours`` and
    ``theirs`` differ (smallest first), then the family's other probes (a separator found
    under the default setting of the other knobs may not separate under a library's
    profile, another probe may), each followed by its variants."""
    import json
    from oracle.separators import probes, separators, variants
    first, keys = [], set()
    for k in ours:
        if ours[k] != theirs.get(k):
            first += [x for _, x, _ctx in separators(metric, k, ours[k], theirs[k])]
    first.sort(key=lambda x: len(json.dumps(x)))
    out = []
    for x in first + [x for _, x in probes(metric)]:
        for v in variants(metric, x):
            key = json.dumps(v, sort_keys=True)
            if key not in keys:
                keys.add(key)
                out.append(v)
    return out


# (family, the settings' differences) -> minimal separating inputs found so far in this process
_FOUND: dict = {}
# the searches of this process in which no generated input separated the two settings
_NEVER: set = set()


def run_divergence(adapter, metric: str, knob: str, canonical: str, library: str, known, examples: int) -> Record:
    m = get_metric(metric)
    prof = adapter.profile(metric)
    r = Record(adapter=adapter.name, library=adapter.library, version=adapter.version(), metric=metric,
               kind="divergence", test=knob, outcome="divergence", tolerance=str(adapter.tolerance(metric)))
    open_ = m.knob(knob).unspecified
    r.description = (f"{knob}: the library's {knob}={library} against the canonical {knob}={canonical}")
    if open_:   # the sources leave the choice open: the run shows which value the library takes
        r.verdicts = {"divergence": "unspecified"}
        r.description = (f"{knob}: the sources leave it open ({open_}); the library takes {knob}={library}, "
                         f"shown against {knob}={canonical}")
    r.source = adapter.profile_source(metric, knob)
    t0 = time.perf_counter()
    try:
        canon = m.settings({**prof, knob: canonical})
    except ConventionError as e:
        r.outcome, r.message = "not-applicable", f"the canonical {knob}={canonical} with the library's other knobs: {e}"
        return r
    r.case_signature, r.adapter_signature = m.signature(canon), m.signature(prof)
    r.material = {knob: [canonical, library]}
    r.conventions = {k: v for k, v in canon.items() if m.settings({}).get(k) != v}
    follows = _follower(adapter, metric, prof)
    seen: dict = {}
    # a knob that another knob of the profile makes irrelevant by definition: no input can
    # separate the two values here, so the search goes straight to the other settings
    inert = m.inert(knob, canonical, library, prof)
    x = separating_input(metric, prof, canon, examples, follows=follows, seen=seen) if follows and not inert else None
    plan = plan_for(metric)
    if x is None and follows and not inert and plan is not None and repr(plan.inputs(canon)) != repr(plan.inputs(prof)):
        # the canonical setting's inputs (a tokenizer's strategy draws punctuation, say)
        x = separating_input(metric, prof, canon, examples, strategy_settings=canon, follows=follows)
    if x is None and not inert and (not follows or seen.get("separated")):
        # without the library's agreement (the same derandomized inputs: only worth it
        # when some of them separated the settings); a declared separator that sets the two
        # apart is such an input already, minimal by construction: no search to shrink one
        x = seen.get("apart") or separating_input(metric, prof, canon, examples)
    searched = not inert
    unfollowed, alternatives = None, []
    if x is None:
        # the knob may matter only at other values of a knob the library lets its user set
        # (a cutoff, a relevance threshold): try those, one knob at a time
        # first the declared separators at every such setting (no search: cheap), then searches
        # at the first twelve
        alternatives = list(_settable_alternatives(adapter, metric, prof, knob))
        for other, value in alternatives + _named_contexts(adapter, metric, prof, knob):
            change = dict(value) if isinstance(value, tuple) else {other: value}
            try:
                p2, c2 = m.settings({**prof, **change}), m.settings({**canon, **change})
            except ConventionError:
                continue
            if isinstance(value, tuple) and adapter.supports(metric, p2) is not None:
                continue
            if m.inert(knob, canonical, library, p2):
                continue
            searched = True
            f2 = _follower(adapter, metric, p2)
            x, apart = _declared_followed(metric, p2, c2, f2)
            where = " ".join(f"{k}={v}" for k, v in change.items())
            hidden = " ".join(f"{k}={adapter.profile(metric)[k]}" for k in change)
            if x is None and apart is not None and unfollowed is None:
                # a declared separator there, on which the library does not follow its profile:
                # shown (a known failure or a failure) if no setting gives one it follows
                unfollowed = (apart, p2, c2, where, hidden)
            if x is not None:
                prof, canon = _moved(r, m, p2, c2, f"at {where} (the profile's {hidden} hides it)")
                break
    if x is None:
        for i, (other, value) in enumerate(alternatives[:12]):
            try:
                p2, c2 = m.settings({**prof, other: value}), m.settings({**canon, other: value})
            except ConventionError:
                continue
            if m.inert(knob, canonical, library, p2):
                continue   # no input can separate them there either
            searched = True
            f2 = _follower(adapter, metric, p2)
            # the first ones (the library's other non-canonical knobs) get the full budget
            budget = examples if i < 3 else max(1, examples // 4)
            # (the declared separators were tried at this setting above)
            x = separating_input(metric, p2, c2, budget, follows=f2, declared=False) if f2 else None
            if x is not None:
                prof, canon = _moved(r, m, p2, c2, f"at {other}={value} (the profile's {other}="
                                                   f"{adapter.profile(metric)[other]} hides it)")
                break
        if x is None and seen.get("apart") is not None:
            # a declared separator sets the two values apart at the profile itself, but the
            # library follows its profile on none of them (nor on any input the search drew):
            # shown on the separator, judged as any disagreement (a known failure or a failure),
            # never "no input separates" (the oracle says one does)
            x = seen["apart"]
            r.message = ("on a declared separator (oracle.separators), where the library does not follow its "
                         "profile: no input was found on which it does")
        elif x is None and unfollowed is not None:
            x, p2, c2, where, hidden = unfollowed
            prof, canon = _moved(r, m, p2, c2, f"at {where} (the profile's {hidden} makes the two values equal on "
                                               f"every input), where the library does not follow its profile")
    r.seconds = time.perf_counter() - t0
    if x is None and not searched:
        r.outcome = "not-applicable"
        r.message = (f"{knob}={library} and {knob}={canonical} give the same value on every input at the "
                     f"profile and at every setting the library offers: {inert}")
        return r
    if x is None:
        from oracle.separators import never
        proof = never(metric, knob, canonical, library)
        if proof:
            r.outcome = "not-applicable"
            r.message = f"{knob}={library} and {knob}={canonical} never differ on {metric}: {proof}"
            return r
        r.outcome = "skipped"
        r.message = (f"no input separates {knob}={library} from {knob}={canonical} where the library follows its "
                     f"profile or takes the input: neither the declared separators (oracle.separators) nor "
                     f"{max(examples, 1) * 3} generated inputs")
        return r
    r.inputs = x
    ours, theirs = exact_value(metric, x, prof), exact_value(metric, x, canon)
    r.exact, r.case_exact = value_text(ours), value_text(theirs)
    if not isinstance(ours, tuple):
        r.digits = exact_texts(ours)[1]
    r.reproduce = reproduce_command(adapter, metric, r.conventions, x)
    configured = adapter.configure(metric, prof)
    if isinstance(configured, Unsupported):
        r.outcome, r.message = "not-applicable", configured.reason
        return r
    try:
        value = adapter.run(configured, x).value
    except Skip as e:
        r.outcome, r.message = "skipped", f"divergent input found, but the adapter skips it: {e}"
        return r
    except NOT_REFUSALS as e:   # an exit, a signal, a hang, a memory kill: an error, never a refusal
        r.library_value = f"died: {not_a_refusal(e)}"
        r.outcome, r.message = "error", f"the library's call ended without an answer: {not_a_refusal(e)}"
        return r
    except Exception as e:
        value = f"raised {type(e).__name__}: {e}"
    r.library_value = value
    tol = adapter.tolerance(metric)
    if _agrees(value, ours, tol):
        other = f"{knob}={canonical}, one of the values the sources leave open," if open_ else \
            f"the canonical {knob}={canonical}"
        r.explanation = (f"the library does what its profile says ({knob}={library}): "
                         f"{shorten(r.exact)} here, where {other} gives {shorten(r.case_exact)}")
        return r
    kf = known.recognise(metric, prof, x, None, library_value=value)
    if kf is None and isinstance(ours, tuple):   # the profile refuses the input, the library gave a value
        kf = known.accepted_refusal(metric, prof, value_text(ours), value)
    if kf:
        r.outcome, r.known_failure, r.known_title = "known-failure", kf.id, kf.title
        r.explanation = (f"no declared or generated input separates the two settings where the library follows "
                         f"its profile; on the first that separates them it shows known failure {kf.id}")
    elif _agrees(value, theirs, tol):
        r.outcome = "fail"
        r.explanation = (f"the profile declares {knob}={library}, but the library gives the canonical "
                         f"{knob}={canonical} value here: the profile is wrong")
    else:
        r.outcome = "fail"
        r.explanation = (f"on this input the library gives neither the value of its profile's {knob}={library} "
                         f"({shorten(r.exact)}) nor the canonical one ({shorten(r.case_exact)})")
    return r


def _follower(adapter, metric: str, prof: dict):
    """``follows(inputs, exact, other=None)``: the library, configured at its profile, gives
    ``exact`` and (with ``other``) not ``other`` within its tolerance."""
    configured = adapter.configure(metric, prof)
    if isinstance(configured, Unsupported):
        return None
    tol = adapter.tolerance(metric)

    def follows(x, exact, other=None) -> bool:
        try:
            value = adapter.run(configured, x).value
        except NOT_REFUSALS:
            return False   # a death or an exit follows no setting, a refusing one included
        except Exception as e:   # a refusal follows a setting that refuses, a crash none
            return isinstance(exact, tuple) and not isinstance(other, tuple) and not not_its_refusal(adapter, metric, e)
        return _agrees(value, exact, tol) and (other is None or not _agrees(value, other, tol))
    return follows


def _settable_alternatives(adapter, metric: str, prof: dict, knob: str):
    """(knob, value) pairs the library can be set to, other than its profile's, for the
    knobs it offers (parametric ones at their usual special values)."""
    from oracle.conventions import candidate_values
    m = get_metric(metric)
    caps = adapter.capabilities.get(metric, {})
    # first the library's other non-canonical knobs at their canonical values (two knobs
    # that only matter together), then the other knobs it offers
    for k, c, lib in divergent_knobs(adapter, metric):
        if k != knob and k in caps:
            try:
                trial = m.settings({**prof, k: c})
            except ConventionError:
                continue
            if adapter.supports(metric, trial) is None:
                yield k, c
    for k in m.knobs:
        if k.name == knob or k.name in PRESENTATION_KNOBS or k.name not in caps:
            continue
        for v in candidate_values(k)[:8]:
            if v == prof[k.name]:
                continue
            try:
                trial = m.settings({**prof, k.name: v})
            except ConventionError:
                continue
            if adapter.supports(metric, trial) is None:
                yield k.name, v


def _named_contexts(adapter, metric: str, prof: dict, knob: str) -> list[tuple[str, tuple]]:
    """The settings of other knobs under which ``oracle.separators`` says ``knob`` matters
    (``smoothing_value`` under a smoothing that reads it), as ("", ((knob, value), ...)),
    where they are not the profile's."""
    from oracle.separators import named_contexts
    out = []
    for ctx in named_contexts(metric, knob):
        if any(prof.get(k) != v for k, v in ctx.items()):
            out.append(("", tuple(sorted(ctx.items()))))
    return out


def _agrees(value, exact, tol) -> bool:
    if isinstance(exact, tuple):
        return isinstance(value, str) and value.startswith("raised ")
    if isinstance(value, str):
        return False
    try:
        return compare_value(value, exact, tol).agrees
    except Exception:
        return False


def run_divergences(adapter, metric: str, known, examples: int) -> list[Record]:
    from conformance.engine.ties import admissible_knobs, run_tie_rule
    return [run_divergence(adapter, metric, k, c, lib, known, examples)
            for k, c, lib in reported_knobs(adapter, metric)] + \
        [run_tie_rule(adapter, metric, k, known) for k in admissible_knobs(adapter, metric)]
