import os

from hypothesis import settings

import conformance.plugin  # noqa: F401  registers the profiles even when the plugin is not installed

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

pytest_plugins = ["pytester"]
