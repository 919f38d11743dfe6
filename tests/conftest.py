import os

from hypothesis import settings

import conformance.plugin  # noqa: F401  registers the profiles even when the plugin is not installed

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

pytest_plugins = ["pytester"]


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def strict_records():
    """One conformance run of every installed built-in adapter at the CLI's defaults (50
    examples per property, the count the known failures are recorded at), shared by the
    strict-mode and strict-referee tests."""
    from adapters import builtin_adapters
    from conformance.engine.runner import run_all
    ready, _ = builtin_adapters()
    adapters = {a.name: a for a in ready}
    return run_all(adapters, {n: n for n in adapters}, examples=50, jobs=2)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run under the nightly profile only (HYPOTHESIS_PROFILE=nightly)."""
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "nightly":
        return
    skip = pytest.mark.skip(reason="slow: runs with HYPOTHESIS_PROFILE=nightly")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
