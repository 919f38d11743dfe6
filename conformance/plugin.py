"""pytest plugin (entry point ``pytest11``): registers the hypothesis profiles
``ci`` (fast, derandomized) and ``nightly`` (long), selected with
``--hypothesis-profile`` or the HYPOTHESIS_PROFILE environment variable."""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("nightly", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=100, deadline=None)


def pytest_configure(config):
    name = os.environ.get("HYPOTHESIS_PROFILE")
    if name:
        settings.load_profile(name)
