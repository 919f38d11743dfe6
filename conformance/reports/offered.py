"""What each adapter offers and what it skips: per adapter and metric, the knob values it
can be configured to (``capabilities``; the rest are fixed at its profile) and the golden
inputs it skips, with the reason, at its profile and at each offered value of each knob
(one knob moved at a time).

An adapter skips an input only where the library cannot receive it at all (a dict that
cannot list a document twice, a tensor that cannot hold a string): such a skip holds at
every setting. A skip that appears only under one offered value ("offered, then skipped
where it bites") hides the setting's effect and is reported as such (``offered_then_skipped``).

``python -m conformance.reports.offered [adapter ...]`` prints the listing.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

from oracle.conventions import ConventionError, InputError
from oracle.registry import get_metric

from conformance.protocol import ANY, Skip, Unsupported


@dataclass
class MetricListing:
    adapter: str
    metric: str
    offered: dict                    # knob -> tuple of values, or "any", or "(a rule)"
    fixed: dict                      # knob -> the profile's value (not configurable)
    skipped: dict = field(default_factory=dict)   # case id -> reason, at the profile
    # (knob, value) -> {case id: reason}: skipped under that offered value, not at the profile
    offered_then_skipped: dict = field(default_factory=dict)


def _values(allowed) -> object:
    if allowed == ANY:
        return "any"
    if callable(allowed):
        return "(a rule)"
    return tuple(allowed)


def _skip_reason(adapter, metric: str, settings: dict, inputs) -> str | None:
    """Why the adapter skips ``inputs`` at ``settings`` (None: it calls the library, or the
    spec refuses the input there, or the setting cannot be configured)."""
    try:
        get_metric(metric).compute(inputs, settings)
    except (InputError, ConventionError):
        return None
    configured = adapter.configure(metric, settings)
    if isinstance(configured, Unsupported):
        return None
    try:
        adapter.run(configured, inputs)
    except Skip as e:
        return str(e) or "(no reason given)"
    except BaseException:   # the library's own answer: judged elsewhere
        return None
    return None


def listing(adapter, metric: str, cases: list) -> MetricListing:
    m = get_metric(metric)
    caps = adapter.capabilities.get(metric, {})
    profile = adapter.profile(metric)
    out = MetricListing(adapter.name, metric,
                        offered={k: _values(v) for k, v in sorted(caps.items())},
                        fixed={k: v for k, v in sorted(profile.items()) if k not in caps})
    at_profile = {}
    for c in cases:
        why = _skip_reason(adapter, metric, profile, c.inputs)
        if why is not None:
            at_profile[c.id] = why
    out.skipped = at_profile
    for knob, allowed in sorted(caps.items()):
        if not isinstance(allowed, tuple):
            continue
        for value in allowed:
            if value == profile.get(knob):
                continue
            try:
                settings = m.settings({**profile, knob: value})
            except ConventionError:
                continue
            if adapter.supports(metric, settings):
                continue
            bites = {}
            for c in cases:
                if c.id in at_profile:
                    continue
                why = _skip_reason(adapter, metric, settings, c.inputs)
                if why is not None:
                    bites[c.id] = why
            if bites:
                out.offered_then_skipped[(knob, value)] = bites
    return out


def adapter_listing(adapter, metrics=None) -> list[MetricListing]:
    from conformance.casefiles.cases import load_cases
    return [listing(adapter, metric, load_cases(None, metric))
            for metric in adapter.metrics() if metrics is None or metric in metrics]


def text(rows: list[MetricListing]) -> str:
    lines = []
    for r in rows:
        lines.append(f"{r.adapter} {r.metric}")
        offered = ", ".join(f"{k}={'/'.join(v) if isinstance(v, tuple) else v}" for k, v in r.offered.items())
        lines.append(f"  offered: {offered or '(nothing: every knob at its profile)'}")
        if r.fixed:
            lines.append("  fixed: " + ", ".join(f"{k}={v}" for k, v in r.fixed.items()))
        for cid, why in sorted(r.skipped.items()):
            lines.append(f"  skipped {cid}: {why}")
        for (k, v), bites in sorted(r.offered_then_skipped.items()):
            for cid, why in sorted(bites.items()):
                lines.append(f"  OFFERED THEN SKIPPED {k}={v} {cid}: {why}")
    return "\n".join(lines)


def main(argv=None) -> int:
    from conformance.resolve import adapter_names, load_adapter
    names = (argv if argv is not None else sys.argv[1:]) or adapter_names(include_third_party=False)
    for name in names:
        a = load_adapter(name)
        ok, why = a.available()
        if not ok:
            print(f"{name}: not available ({why})")
            continue
        print(text(adapter_listing(a)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
