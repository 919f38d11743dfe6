"""pytest plugin (entry point ``pytest11``).

- Offers the hypothesis profiles ``metric-conformance-ci`` (fast, derandomized),
  ``metric-conformance-nightly`` (long) and ``metric-conformance-dev``, registered
  only when HYPOTHESIS_PROFILE or ``--hypothesis-profile`` names one of them (the
  plugin loads in every pytest session of whoever installs the package: it must not
  take or change a profile name of the user's own).
- ``pytest --metric-adapter package.module:object`` adds one test item per
  golden case, property template and known failure of that adapter (a
  library adapter, or a function registered with
  ``conformance.functions.implementation``). A disagreement fails the item
  with the full report entry; a known failure is an expected failure (xfail);
  with ``--metric-strict`` a known failure that passes fails. A golden item also judges
  its input against the library at its defaults (``conformance.compare``): the
  one-line summary is its ``at_defaults`` user property and ends a failure's report.
  Library calls run
  in a worker process (``--metric-timeout``, ``--metric-memory``): a library that
  exits, crashes or hangs fails its item and the session goes on. The items are
  collected like any others (the header counts them; ``-k``, ``--deselect``,
  ``--lf`` and pytest-xdist's ``-n`` apply), named
  ``adapter::metric::golden|property|known::id``; ``--metric-known-dir`` reads
  the known-failure lists from the CLI's ``--known-dir``.
- The ``metric_outputs_regression`` fixture (built on pytest-regressions)
  records a library's outputs on the golden inputs and fails when a new
  version of the library changes them (the outputs are stored, not the version:
  an upgrade that changes no output passes).
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]
PROFILES = {
    "metric-conformance-ci": dict(max_examples=60, derandomize=True, deadline=None, print_blob=True,
                                  suppress_health_check=_SLOW_OK),
    "metric-conformance-nightly": dict(max_examples=2000, deadline=None, suppress_health_check=_SLOW_OK),
    "metric-conformance-dev": dict(max_examples=100, deadline=None),
}
CI, NIGHTLY = "metric-conformance-ci", "metric-conformance-nightly"


def use_profile(name: str | None) -> bool:
    """Register and load ``name`` if it is one of the project's profiles; True if it was."""
    if name not in PROFILES:
        return False
    settings.register_profile(name, **PROFILES[name])
    settings.load_profile(name)
    return True


def pytest_addoption(parser):
    g = parser.getgroup("metric-conformance")
    g.addoption("--metric-adapter", action="append", default=[], metavar="SPEC",
                help="judge this adapter or @implementation function (package.module:object; repeatable)")
    g.addoption("--metric-examples", type=int, default=50, help="hypothesis examples per property (default 50)")
    g.addoption("--metric-strict", action="store_true", help="a known failure that passes fails")
    g.addoption("--metric-timeout", type=float, default=None,
                help="seconds a library call may take before its worker process is killed")
    g.addoption("--metric-memory", type=float, default=None,
                help="MB of resident memory a library's worker process may use")
    g.addoption("--metric-known-dir", default=None, metavar="DIR",
                help="where the known-failure lists live (as the CLI's --known-dir)")


def pytest_configure(config):
    # hypothesis's own plugin loads --hypothesis-profile earlier, and only a registered name
    use_profile(os.environ.get("HYPOTHESIS_PROFILE")) or use_profile(config.getoption("hypothesis_profile", None))
    known_dir = config.getoption("--metric-known-dir", default=None)
    if known_dir:
        from conformance.casefiles.known import set_directory
        set_directory(known_dir)


class ConformanceFailure(Exception):
    def __init__(self, record):
        super().__init__(record.message or record.explanation or record.outcome)
        self.record = record


class ConformanceGroup(pytest.Collector):
    """A level of the conformance items' tree (an adapter, a metric, a kind of check);
    its items are made by ``pytest_collection_modifyitems``, not collected from files."""

    def collect(self):
        return []


class ConformanceItem(pytest.Item):
    """One golden case, property template or known-failure replay of one adapter."""

    def __init__(self, *, adapter, unit, test, examples, strict, **kw):
        super().__init__(**kw)
        self.adapter, self.unit, self.test, self.examples, self.strict = adapter, unit, test, examples, strict

    def runtest(self):
        from conformance.casefiles.known import KnownIndex, load_known
        from conformance.engine.properties import run_property
        from conformance.engine.runner import run_case, run_known_entry
        from conformance.reports.records import fixed_known
        a = self.adapter
        known = KnownIndex(a, load_known(a.name))
        if self.unit == "golden":
            r = run_case(a, self.test, known)
            self._at_defaults(self.test)
        elif self.unit == "known":
            r = run_known_entry(a, self.test, outside=self.test in known.out_of_range, known=known)
        else:
            r = run_property(a, self.test[0], self.test[1], known, self.examples)
        self.user_properties.append(("outcome", r.outcome))
        if r.outcome in ("fail", "error"):
            raise ConformanceFailure(r)
        if fixed_known(r):
            if self.strict:
                raise ConformanceFailure(r)
            pytest.skip(r.message)
        if r.outcome in ("skipped", "not-applicable"):
            pytest.skip(f"{r.outcome}: {r.message}")
        if r.outcome == "known-failure":
            pytest.xfail(f"known failure {r.known_failure}: {r.known_title}")

    def _at_defaults(self, case) -> None:
        """The case's input judged against the library at its defaults as well
        (``conformance.compare``): its one-line summary is the item's user property
        ``at_defaults`` (in a JUnit report) and follows a failure's report."""
        from conformance.compare import at_defaults
        from oracle.conventions import ConventionError, InputError
        if case.metric not in self.adapter.capabilities:
            return
        try:
            summary = at_defaults(self.adapter, case.metric, case.inputs)["summary"]
        except (InputError, ConventionError) as e:   # an input only the case's settings define
            summary = f"at its defaults the spec refuses this input: {e}"
        self.user_properties.append(("at_defaults", summary))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ConformanceFailure):
            from conformance.reports.writers import describe_record
            extra = [f"  at defaults: {v}" for k, v in self.user_properties if k == "at_defaults"]
            return "\n".join(describe_record(excinfo.value.record) + extra)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, self.name


def _resolve(spec: str):
    from conformance.resolve import resolve_adapter
    return resolve_adapter(spec)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """The conformance items join the collection before the other plugins see it, so that
    -k, --deselect, --lf and pytest-xdist's -n apply to them and the header counts them."""
    specs = config.getoption("--metric-adapter")
    if not specs:
        return
    before = len(items)
    _add_items(session, config, items, specs)
    added = items[before:]
    # counted as collected (the terminal reporter counts the items of collect reports)
    config.hook.pytest_collectreport(report=pytest.CollectReport("metric-conformance", "passed", None, added))


def _add_items(session, config, items, specs):
    from conformance.casefiles.cases import load_cases
    from conformance.casefiles.known import load_known
    from conformance.engine.isolation import DEFAULT_MEMORY, DEFAULT_TIMEOUT, Limits, isolated
    from conformance.engine.properties import property_names
    examples = config.getoption("--metric-examples")
    strict = config.getoption("--metric-strict")
    cases = load_cases()
    for spec in specs:
        try:
            a = _resolve(spec)
        except Exception as e:
            raise pytest.UsageError(f"--metric-adapter {spec}: {type(e).__name__}: {e}")
        ok, why = a.available()
        if not ok:
            raise pytest.UsageError(f"--metric-adapter {spec}: {why}")
        a = isolated(a, Limits(timeout=config.getoption("--metric-timeout") or DEFAULT_TIMEOUT,
                               memory=int((config.getoption("--metric-memory") or DEFAULT_MEMORY / 1024 ** 2)
                                          * 1024 ** 2)))
        groups: dict = {}

        def group(*names):
            """The collector node adapter / metric / kind (names without '::', so that node
            ids read back the same from pytest's cache: --lf)."""
            node = session
            for k in range(1, len(names) + 1):
                key = names[:k]
                if key not in groups:
                    groups[key] = ConformanceGroup.from_parent(node, name=names[k - 1])
                node = groups[key]
            return node

        for metric in a.metrics():
            for c in cases:
                if c.metric == metric:
                    items.append(ConformanceItem.from_parent(
                        group(a.name, metric, "golden"), name=c.id, adapter=a, unit="golden", test=c,
                        examples=examples, strict=strict))
            for p in property_names(a, metric):
                items.append(ConformanceItem.from_parent(
                    group(a.name, metric, "property"), name=p, adapter=a, unit="property",
                    test=(metric, p), examples=examples, strict=strict))
            for e in load_known(a.name):
                if e.metric == metric:
                    items.append(ConformanceItem.from_parent(
                        group(a.name, metric, "known"), name=e.id, adapter=a, unit="known", test=e,
                        examples=examples, strict=strict))


def library_outputs(adapter, metrics=None) -> dict:
    """The adapter's outputs on every golden input it can run, as exact text
    (floats by repr, so any change of a last bit shows)."""
    from oracle.registry import get_metric
    from conformance.casefiles.cases import load_cases
    from conformance.protocol import Skip, Unsupported
    out: dict = {}
    for c in load_cases():
        if c.metric not in adapter.metrics() or (metrics and c.metric not in metrics):
            continue
        # the setting the run judges the case at: knobs the library cannot take get its own
        # values (a unit is converted by the engine, an immaterial knob changes nothing)
        run, _, _ = adapter.nearest_setting(c.metric, get_metric(c.metric).settings(c.conventions))
        if run is None:
            continue
        configured = adapter.configure(c.metric, run)
        if isinstance(configured, Unsupported):
            continue
        try:
            value = adapter.run(configured, c.inputs).value
        except Skip:
            continue
        except Exception as e:
            value = f"raised {type(e).__name__}"
        out[c.id] = _repr_values(value)
    return out


def _repr_values(v):
    if isinstance(v, dict):
        return {str(k): _repr_values(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_repr_values(x) for x in v]
    return repr(v)


@pytest.fixture
def metric_outputs_regression(data_regression):
    """``metric_outputs_regression(adapter_or_spec, metrics=None, basename=None)``: record
    the library's outputs on the golden inputs; fail when they change."""
    def check(adapter, metrics=None, basename=None):
        a = _resolve(adapter) if isinstance(adapter, str) else adapter
        # the outputs only: a new version with the same outputs passes (the version is not stored)
        data_regression.check({"adapter": a.name, "outputs": library_outputs(a, metrics)},
                              basename=basename or f"outputs-{a.name}")
    return check
