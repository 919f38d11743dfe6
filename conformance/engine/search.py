"""The hypothesis settings of every walk the engine runs (the corpora, the searches that
shrink a failing property's input, separating inputs, the input families explanations
are proven on).

Derandomized or seeded (a run is reproducible), no deadline (a library's first call may
compile), every health check off (the engine judges libraries, not its strategies). The
``explain`` phase is left out: after shrinking, it re-runs the test on variations of the
minimal example to annotate which parts could vary, output the engine never reads.

Hypothesis (6.131 on) also draws, now and then, constants it reads from the source of the
*local* modules loaded so far (this project's among them, not site-packages), so a walk
would depend on which modules the process happened to import before it: a pytest worker
that ran other files first, an engine worker that ran other adapters. ``search_settings``
first imports every module of ``oracle``, ``conformance`` and ``adapters`` (once per
process), so that every walk sees the same local modules, whatever ran before it. (A
walk thus depends on the project's source, as the cache's namespace does.)
"""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
_LOADED: list = []


def load_local_modules() -> None:
    """Import every module of the project's three packages (their ``__main__`` aside)."""
    if _LOADED:
        return
    _LOADED.append(True)
    import importlib
    import pkgutil
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for package in ("oracle", "conformance", "adapters"):
            try:
                p = importlib.import_module(package)
            except Exception:
                continue
            for m in pkgutil.walk_packages(p.__path__, package + "."):
                if m.name.rsplit(".", 1)[-1] == "__main__":
                    continue
                try:
                    importlib.import_module(m.name)
                except Exception:   # a module whose library is missing: left out everywhere alike
                    pass


def search_settings(max_examples: int) -> settings:
    """Derandomized settings (the caller may ``@seed`` instead), no example database: a
    seeded or derandomized walk is the same every run, and hypothesis keeps a database only
    for random ones (``derandomize=True`` and ``@seed`` both imply ``database=None``)."""
    load_local_modules()
    return settings(max_examples=max(int(max_examples), 1), derandomize=True, database=None,
                    deadline=None, print_blob=False, report_multiple_bugs=False,
                    suppress_health_check=list(HealthCheck), phases=PHASES)
