"""The hypothesis settings of every search the engine runs (properties, separating
inputs, the input families explanations are proven on).

Derandomized (a run is reproducible), no example database, no deadline (a library's
first call may compile), every health check off (the engine judges libraries, not its
strategies). The ``explain`` phase is left out: after shrinking, it re-runs the test
on variations of the minimal example to annotate which parts could vary, output the
engine never reads; it took about half of a failing search's time (a BLEU golden unit
with three explained failures: 4.0 of 7.8 s). Generation and shrinking are unchanged,
so the minimal inputs are the same.
"""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)


def search_settings(max_examples: int) -> settings:
    return settings(max_examples=max(int(max_examples), 1), derandomize=True, database=None, deadline=None,
                    print_blob=False, report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                    phases=PHASES)


def _pin_local_constants() -> None:
    """Hypothesis (6.131 on) also draws, now and then, constants it reads from the source of
    the *local* modules loaded so far (this project's among them, not site-packages), so a
    derandomized search walks different inputs depending on which modules the process has
    imported: a pytest worker that ran other files first, an engine worker that ran other
    adapters. The engine's searches draw from hypothesis's global constants alone, so that
    a walk is a function of the code and the seed, the same in every process (what the
    replays and the store of searches rely on)."""
    try:
        from hypothesis.internal.conjecture import providers
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty
        providers.CONSTANTS_CACHE.cache.clear()
    except Exception:   # another hypothesis: its generation as it is
        pass


_pin_local_constants()
