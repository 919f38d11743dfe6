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


# files whose tests share a session fixture: one xdist group, so the fixture is built once
_SAME_GROUP = {"test_strict_referee": "test_conformance_strict"}   # strict_records: the whole run


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist's worker reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (the README's ``-n 2 --dist loadgroup``), each file's tests run in
    one worker, as they would alone: module fixtures (an old release's environment, a
    golden run) are built once and never by two workers at the same time; the strict run's
    files come first. Tests marked
    ``slow`` run under the nightly profile only (HYPOTHESIS_PROFILE=nightly)."""
    for item in items:
        stem = item.path.stem
        item.add_marker(pytest.mark.xdist_group(_SAME_GROUP.get(stem, stem)))
    # the whole run (strict_records, about half of the test run's work) first: a worker takes
    # it at once while the other works through the rest, instead of it starting late and
    # running alone at the end
    first = set(_SAME_GROUP.values())
    items.sort(key=lambda item: _SAME_GROUP.get(item.path.stem, item.path.stem) not in first)
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "nightly":
        return
    skip = pytest.mark.skip(reason="slow: runs with HYPOTHESIS_PROFILE=nightly")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)
