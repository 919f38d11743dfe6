"""One input judged against the library as people call it.

A user who brings an input and asks ``compare`` (or the pytest plugin) at some
settings learns three things about that very input, with no value typed:

1. **conformance at the requested settings** (``judge.judge_case``): does the
   library do what those settings say?
2. **the requested settings against the canonical definition**: each knob the
   user set away from its canonical value, and whether it changes the exact value
   here (a user who asks for seqeval's strict mode or scikit-learn's
   ``zero_division=1`` learns by which knob the number leaves the definition);
3. **the library at its defaults** (its declared profile, as the adapter calls it
   with no option of the user's): its value, whether it follows its profile here
   (conformance), and how the profile differs from the canonical definition on
   this input, knob by knob: a knob is *material* here when setting it alone to
   the library's value moves the canonical value, or setting it back moves the
   profile's. A knob whose sources leave the choice open (``Knob.unspecified``)
   is reported as kind ``unspecified``, with what each of its values gives here,
   even where the library takes the oracle's representative value.

Where the exact value is a set (``Admissible``: tied minimum-cost alignments), the
library's value passes when it is a member, and the report says which member it
is and which named tie rules pick that member on this input (``ambiguity``); a
member no rule picks is said so.
"""
from __future__ import annotations

from typing import Mapping

from oracle.certified import exact_texts
from oracle.conventions import ConventionError, InputError
from oracle.exact import Admissible
from oracle.registry import get_metric

from conformance.engine.divergence import differs as _differs, exact_value as _value, value_text as _text
from conformance.engine.judge import judge
from conformance.engine.ties import member_and_rules
from conformance.protocol import PRESENTATION_KNOBS
from conformance.reports.records import shorten


def _with(metric: str, settings: Mapping, **changes):
    """``settings`` with ``changes``, or None where the combination is not a setting."""
    try:
        return get_metric(metric).settings({**settings, **changes})
    except ConventionError:
        return None


def knob_effects(metric: str, inputs, base: Mapping, other: Mapping) -> list[dict]:
    """For each knob (presentation knobs aside) where ``other`` differs from ``base``: the
    exact value with that knob alone moved from ``base`` to ``other``, and whether it
    changes the value on ``inputs`` (moved alone, or moved back from ``other``)."""
    m = get_metric(metric)
    at_base, at_other = _value(metric, inputs, base), _value(metric, inputs, other)
    out = []
    for k in m.knobs:
        name = k.name
        if name in PRESENTATION_KNOBS or base.get(name) == other.get(name):
            continue
        alone = _with(metric, base, **{name: other[name]})
        back = _with(metric, other, **{name: base[name]})
        v_alone = _value(metric, inputs, alone) if alone is not None else None
        v_back = _value(metric, inputs, back) if back is not None else None
        material = (v_alone is not None and _differs(v_alone, at_base)) or \
                   (v_back is not None and _differs(v_back, at_other))
        row = {"knob": name, "canonical": base[name], "library": other[name], "material": bool(material),
               "kind": "unspecified" if k.unspecified else "divergence"}
        if v_alone is not None:
            row["exact_with_this_knob_alone"] = _text(v_alone)
        out.append(row)
    return out


def open_choices(metric: str, inputs, settings: Mapping) -> list[dict]:
    """Each knob of ``metric`` whose sources leave the choice open (``Knob.unspecified``):
    the value each of its choices gives on ``inputs`` at ``settings`` (the others kept)."""
    m = get_metric(metric)
    out = []
    for k in m.knobs:
        if not k.unspecified or k.kind != "enum":
            continue
        values = {}
        for c in k.choices:
            s = _with(metric, settings, **{k.name: c})
            if s is not None:
                values[c] = _text(_value(metric, inputs, s))
        out.append({"knob": k.name, "taken": settings[k.name], "why_open": k.unspecified, "values": values,
                    "material": len(set(values.values())) > 1})
    return out


def ambiguity(exact, library_value, tol) -> dict | None:
    """Where ``exact`` is a set of admissible values: the member the library's value is,
    and the named tie rules that pick that member here (``Admissible.by_rule``)."""
    if not isinstance(exact, Admissible) or isinstance(library_value, (str, bytes)) or library_value is None:
        return None
    member, picks = member_and_rules(exact, library_value, tol)
    if member is None:
        return {"set": str(exact), "member": None, "rules": []}
    rules = sorted(picks)
    return {"set": str(exact), "member": exact_texts(member)[0], "rules": rules,
            "other_rules": {r: exact_texts(v)[0] for r, v in sorted(exact.by_rule.items()) if r not in rules}}


def _canonical_in_units(metric: str, units: Mapping) -> dict:
    """The canonical setting, written in the presentation (scale) of ``units``."""
    m = get_metric(metric)
    return m.settings({k: units[k] for k in PRESENTATION_KNOBS if k in units})


def requested_against_canonical(metric: str, inputs, requested: Mapping) -> dict:
    """How the requested settings differ from the canonical definition on ``inputs``."""
    canon = _canonical_in_units(metric, requested)
    effects = knob_effects(metric, inputs, canon, requested)
    return {"canonical_exact": _text(_value(metric, inputs, canon)),
            "requested_exact": _text(_value(metric, inputs, requested)),
            "knobs": effects,
            "material": [e["knob"] for e in effects if e["material"]]}


def at_defaults(adapter, metric: str, inputs) -> dict:
    """The library at its declared defaults (its profile) on ``inputs``: its value, its
    conformance there, and its differences from the canonical definition, knob by knob."""
    m = get_metric(metric)
    prof = adapter.profile(metric)
    canon = _canonical_in_units(metric, prof)
    v = judge(adapter, metric, prof, inputs)
    at_prof, at_canon = _value(metric, inputs, prof), _value(metric, inputs, canon)
    effects = knob_effects(metric, inputs, canon, prof)
    differs = _differs(at_prof, at_canon)
    outcome = v.status if v.status not in ("agree", "refuses") else "divergence" if differs else "agree"
    out = {"library_signature": m.signature(prof), "canonical_signature": m.signature(canon),
           "outcome": outcome, "verdict": v.status, "library_value": v.library_value,
           "exact": _text(at_prof), "canonical_exact": _text(at_canon),
           "differs_from_canonical": differs,
           "knobs": effects, "material": [e["knob"] for e in effects if e["material"]]}
    for e in effects:
        e["source"] = adapter.profile_source(metric, e["knob"])
    if v.explanation:
        out["explanation"] = v.explanation
    choices = open_choices(metric, inputs, prof)
    if choices:
        out["unspecified"] = choices
    amb = ambiguity(at_prof, v.library_value, adapter.tolerance(metric))
    if amb:
        out["ambiguity"] = amb
    if outcome == "agree" and (amb or any(u["material"] for u in choices)):
        outcome = out["outcome"] = "unspecified"   # a choice the sources leave open decides the value here
    out["summary"] = _summary(adapter, out)
    return out


def _summary(adapter, d: dict) -> str:
    lib = f"{adapter.library} {adapter.version()}"
    if d["verdict"] not in ("agree", "refuses"):
        head = (f"at its defaults {lib} does not do what its profile says here ({d['verdict']}: library "
                f"{shorten(repr(d['library_value']), 80)}, exact under its profile {shorten(d['exact'], 80)})")
    else:
        head = (f"at its defaults {lib} gives {shorten(repr(d['library_value']), 80)}, as its profile says "
                f"({shorten(d['exact'], 80)})")
    parts = [head]
    if d["differs_from_canonical"]:
        named = [f"{e['knob']}={e['library']} (canonical {e['canonical']}; {e['kind']})"
                 for e in d["knobs"] if e["material"]]
        parts.append(f"the canonical definition gives {shorten(d['canonical_exact'], 80)} on this input"
                     + (": " + ", ".join(named) + " make" + ("s" if len(named) == 1 else "") + " the difference"
                        if named else ": the knobs only together make the difference"))
    else:
        parts.append("the canonical definition gives the same value on this input")
    for u in d.get("unspecified", ()):
        if u["material"]:
            parts.append(f"{u['knob']} is left open by the sources (unspecified); the library takes "
                         f"{u['knob']}={u['taken']}; here " + ", ".join(
                             f"{c}: {shorten(t, 40)}" for c, t in list(u["values"].items())[:6]))
    amb = d.get("ambiguity")
    if amb:
        if amb["member"] is None:
            parts.append(f"the exact value is the set {amb['set']}; the library's value is no member of it")
        elif amb["rules"]:
            parts.append(f"the exact value is the set {amb['set']} (tied alignments); the library returns "
                         f"{amb['member']}, the member tie={'/'.join(amb['rules'])} picks")
        else:
            parts.append(f"the exact value is the set {amb['set']}; the library returns {amb['member']}, "
                         "a member no named tie rule picks here")
    return "; ".join(parts)


def as_called(adapter, metric: str, inputs, settings: Mapping, known, out: dict) -> bool:
    """``compare``'s further answers on one input, added to ``out``: the requested settings
    against the canonical definition, and the library at its defaults
    (``at_defaults``). False when the library at its defaults does not do what its profile
    says there and no known failure predicts it (an unexpected outcome)."""
    try:
        out["requested_against_canonical"] = requested_against_canonical(metric, inputs, settings)
        if metric not in adapter.capabilities:
            return True
        d = out["at_defaults"] = at_defaults(adapter, metric, inputs)
    except (InputError, ConventionError) as e:   # an input only the asked settings define
        out["at_defaults"] = {"verdict": "not-applicable", "message": f"{type(e).__name__}: {e}"}
        return True
    out["summary"] = d["summary"]
    if d["verdict"] not in ("disagree", "error", "accepts-invalid", "crash"):
        return True
    kf = known.recognise(metric, adapter.profile(metric), inputs, None, library_value=d["library_value"])
    d["known_failure"] = kf.id if kf else None
    return kf is not None
