"""Installing the package changes nobody's process: importing it puts no finder before
Python's own, and the pytest plugin (loaded in every pytest session of whoever installs
the package) registers no hypothesis profile until one of the project's is asked for."""
from __future__ import annotations

import subprocess
import sys


def _python(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**{k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}, **(env or {})})


def test_importing_the_package_adds_no_finder_in_front():
    code = ("import sys; before = list(sys.meta_path); import conformance, conformance.plugin, oracle; "
            "print(sys.meta_path[:len(before)] == before, type(sys.meta_path[-1]).__module__)")
    out = _python(code)
    assert out.returncode == 0, out.stderr
    same, last = out.stdout.split()
    assert same == "True"   # the finders there before stay first, in their order


def test_the_plugin_registers_no_profile_until_asked():
    code = ("from hypothesis import settings\n"
            "from hypothesis.errors import InvalidArgument\n"
            "def known():\n"
            "    out = {}\n"
            "    for name in ('ci', 'nightly', 'dev', 'metric-conformance-ci'):\n"
            "        try:\n"
            "            out[name] = repr(settings.get_profile(name))\n"
            "        except InvalidArgument:\n"
            "            out[name] = None\n"
            "    return out\n"
            "before = known()\n"
            "import conformance.plugin\n"
            "print(known() == before, before['nightly'], before['dev'], before['metric-conformance-ci'])\n"
            "conformance.plugin.use_profile('metric-conformance-ci')\n"
            "print(settings.get_profile('metric-conformance-ci').max_examples, settings().derandomize)\n")
    out = _python(code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # hypothesis's own profiles ('ci' is one) unchanged, none of the project's registered
    assert lines[0] == "True None None None"
    assert lines[1] == "60 True"


def test_hypothesis_own_ci_profile_is_left_alone(pytester, monkeypatch):
    """hypothesis loads its own 'ci' profile when the CI variable is set; the plugin used to
    register a 'ci' of its own (60 examples) over it, in every user's session."""
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    pytester.makepyfile("from hypothesis import settings\n"
                        "def test_profile():\n"
                        "    print('EXAMPLES', settings().max_examples, settings().derandomize)\n")
    with_plugin = pytester.runpytest_subprocess("-s")
    without = pytester.runpytest_subprocess("-s", "-p", "no:metric_conformance")
    with_plugin.assert_outcomes(passed=1)
    without.assert_outcomes(passed=1)
    import re

    def shown(result):
        return re.findall(r"EXAMPLES \d+ \w+", "\n".join(result.outlines))
    assert shown(without) and shown(with_plugin) == shown(without)
