"""The adapter protocol and the outcome vocabulary (after Bowtie).

An adapter maps one library's API onto the oracle's metrics:

- ``info()``: name, library version, homepage, issue tracker, metrics served;
- ``capabilities``: for each metric, the knob values the library can be
  configured to (a tuple of canonical values, ``ANY``, or a predicate);
- ``profile(metric)``: the library's defaults as knob settings;
- ``configure(metric, settings)``: ``Configured`` (library options) or
  ``Unsupported(reason)``;
- ``run(configured, inputs)``: the library's value (``LibraryOutput``), or
  raises ``Skip`` with a reason.

Outcomes: pass, fail, error, skipped, known-failure, not-applicable and
divergence (the library does what its profile says, and that differs from
the canonical definition, or from the case's setting, on this input: not a
failure, never invisible). A skip is never a pass.
"""
from __future__ import annotations

import importlib
import os
import sys
import importlib.metadata
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping

from oracle.compare import Tolerance
from oracle.registry import get_metric

OUTCOMES = ("pass", "fail", "error", "skipped", "known-failure", "divergence", "not-applicable")
UNEXPECTED = ("fail", "error")

ANY = "*"

# Knobs that change how a value is written, not what it is: the engine converts
# them (a library in percent is compared with the oracle in percent), so they are
# never a reason to leave a case unjudged.
from oracle.conventions import PRESENTATION_KNOBS  # noqa: E402,F401  (where the engine reads them)


# ``Configured.options`` of the call with no optional argument (``Adapter.call_bare``)
BARE = "(no optional argument)"


def bare(metric: str, settings: Mapping[str, str]) -> "Configured":
    """The configuration that makes ``Adapter.run`` call the library with no optional argument."""
    return Configured(metric, dict(settings), {BARE: True})


class Skip(Exception):
    """Raised by an adapter that cannot run this input; carries the reason."""


@dataclass(frozen=True)
class Unsupported:
    reason: str


@dataclass(frozen=True)
class Configured:
    metric: str
    settings: Mapping[str, str]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class LibraryOutput:
    """What the library returned: a number (or None for no value), optional statistics."""

    value: Any
    stats: dict | None = None
    raw: Any = None


@dataclass(frozen=True)
class Era:
    """Profile values that hold for some releases of a library only (a changed default, a
    changed rule): ``versions`` is a PEP 440 range, ``profiles`` {metric: {knob: value}}
    ("*" for every metric), ``sources`` {knob: the changelog entry or commit}."""

    versions: str
    profiles: Mapping[str, Mapping[str, str]]
    sources: Mapping[str, str] = field(default_factory=dict)


_VERSIONS: dict = {}   # distribution -> installed version (it cannot change within a process)


@dataclass(frozen=True)
class AdapterInfo:
    name: str
    library: str
    version: str
    homepage: str
    issues: str
    metrics: tuple
    versions: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "library": self.library, "version": self.version,
                "homepage": self.homepage, "issues": self.issues, "metrics": list(self.metrics),
                "versions": self.versions}


class Adapter:
    """Base class. Subclasses set the class attributes and implement ``options`` and ``call``."""

    name: str = ""
    library: str = ""            # distribution name, for the version
    import_name: str = ""        # module to import to check availability
    homepage: str = ""
    issues: str = ""
    capabilities: Mapping[str, Mapping[str, Any]] = {}
    profiles: Mapping[str, Mapping[str, str]] = {}
    tolerances: Mapping[str, Tolerance] = {}
    default_tolerance: Tolerance = Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))
    # the library releases this adapter maps onto the protocol (a PEP 440 range; empty: any).
    # Outside it the adapter is not applicable: its own API mismatch is never a library defect.
    versions: str = ""
    # profile values of some releases only (``Era``), applied over ``profiles``
    eras: tuple = ()
    # how much longer than a typical adapter's this one's units take when no previous report
    # says (``conformance.engine.schedule``: the slow ones start first); it orders, never judges
    schedule_weight: float = 1.0

    # -- availability and info
    def available(self) -> tuple[bool, str]:
        try:
            importlib.import_module(self.import_name or self.library)
        except Exception as e:  # ImportError, or a broken install
            return False, f"{self.library} is not importable ({type(e).__name__}: {e}); install the 'adapters' extra"
        outside = self.outside_versions()
        return (False, outside) if outside else (True, "")

    def outside_versions(self) -> str:
        """Why the installed release is outside ``versions`` ("" when it is inside)."""
        if self.versions:
            from conformance.versions import in_range
            v = self.version()
            if not in_range(v, self.versions):
                return (f"not-applicable: version {v} is outside this adapter's range "
                        f"({self.library}{self.versions})")
        return ""

    def version(self) -> str:
        if self.library not in _VERSIONS:
            try:
                _VERSIONS[self.library] = importlib.metadata.version(self.library)
            except importlib.metadata.PackageNotFoundError:
                return "not installed"
        return _VERSIONS[self.library]

    def in_versions(self, spec: str) -> bool:
        """The installed release lies in ``spec`` (a PEP 440 range)."""
        from conformance.versions import in_range
        return in_range(self.version(), spec)

    def info(self) -> AdapterInfo:
        return AdapterInfo(self.name, self.library, self.version(), self.homepage, self.issues,
                           tuple(self.capabilities), self.versions)

    def metrics(self) -> tuple:
        return tuple(self.capabilities)

    def tolerance(self, metric: str) -> Tolerance:
        return self.tolerances.get(metric, self.default_tolerance)

    # {metric: {knob: where the library documents or deliberately implements its value}}
    profile_sources: Mapping[str, Mapping[str, str]] = {}
    # how the library represents a value its definition leaves without a number (a 0/0, no
    # samples), per metric or '*': a tuple of 'raise' (an exception of its own code: the
    # canonical representation, and the default), 'nan' or 'none' (it returns NaN, or None),
    # several where the library's representation depends on the cause. One other than 'raise'
    # is a divergence, its source in profile_sources under 'undefined'; an undeclared NaN or
    # None where the value is undefined is a defect.
    undefined: Mapping[str, tuple] = {}

    # the exception types (class names, matched along the raised exception's MRO) the
    # library's own code raises to refuse an input, per metric or '*': any other exception
    # on an input the spec refuses is a crash, not a refusal. Empty: any exception that is
    # not an unrelated crash (IndexError, KeyError...: ``isolation.UNRELATED_CRASHES``) refuses.
    refusals: Mapping[str, tuple] = {}

    # the input fields the library's entry point for a metric has no parameter for, so the
    # adapter cannot pass them (scikit-learn's accuracy_score takes no labels): an input the
    # spec refuses only because of such a field is not the library's to refuse
    unpassed_fields: Mapping[str, tuple] = {}

    def refusal_types(self, metric: str) -> tuple:
        """The exception types that count as this library's refusal of an input for ``metric``
        (empty: any that is not an unrelated crash)."""
        return tuple(self.refusals.get(metric) or self.refusals.get("*") or ())

    def undefined_as(self, metric: str) -> tuple:
        """The representations of an undefined value this adapter declares for ``metric``."""
        return tuple(self.undefined.get(metric) or self.undefined.get("*") or ("raise",))

    def _eras_here(self, version: str | None = None) -> list:
        """The eras that hold for ``version`` (default: the installed release)."""
        from conformance.versions import in_range
        version = self.version() if version is None else version
        return [e for e in self.eras if in_range(version, e.versions)]

    def profile_source(self, metric: str, knob: str, version: str | None = None) -> str:
        """Where the library documents its profile's value of ``knob`` ('' if nowhere); an
        era's value cites the change that made it."""
        for era in self._eras_here(version):
            if knob in era.profiles.get(metric, {}) or knob in era.profiles.get("*", {}):
                return era.sources.get(knob, "") + f" (releases {self.library}{era.versions})"
        return self.profile_sources.get(metric, {}).get(knob, "") or self.profile_sources.get("*", {}).get(knob, "")

    def profile_overrides(self, metric: str, version: str | None = None) -> dict:
        """The profile's knob values for the installed release (or for ``version``):
        ``profiles`` with the values of the eras that hold for it."""
        over = dict(self.profiles.get(metric, {}))
        eras = self._eras_here(version)
        if eras:
            names = {getattr(k, "name", k) for k in get_metric(metric).knobs}
            for era in eras:
                over.update({k: v for k, v in era.profiles.get("*", {}).items() if k in names})
                over.update(era.profiles.get(metric, {}))
        return over

    def profile(self, metric: str) -> dict:
        """The library's default behaviour, as a full canonical setting of the metric's knobs."""
        return get_metric(metric).settings(self.profile_overrides(metric))

    # -- configuration
    def why_unsettable(self, metric: str, knob: str, value: str, settings: Mapping[str, str]) -> str | None:
        """None if the library can set ``knob`` to ``value`` (given the rest of ``settings``),
        else the reason."""
        caps = self.capabilities.get(metric)
        if caps is None:
            return f"{self.name} does not implement {metric}"
        allowed = caps.get(knob)
        if allowed is None:
            prof = self.profile(metric)
            if value != prof.get(knob):
                return f"{knob}={value}: {self.name} always uses {knob}={prof.get(knob)}"
        elif allowed == ANY:
            return None
        elif callable(allowed):
            if not allowed(value, settings):
                return f"{knob}={value}: not expressible in {self.name}"
        elif value not in allowed:
            return f"{knob}={value}: {self.name} offers {', '.join(allowed)}"
        return None

    def supports(self, metric: str, settings: Mapping[str, str]) -> str | None:
        """None if the library can be configured to ``settings``, else the reason."""
        if metric not in self.capabilities:
            return f"{self.name} does not implement {metric}"
        for knob, value in settings.items():
            why = self.why_unsettable(metric, knob, value, settings)
            if why:
                return why
        return None

    def nearest_setting(self, metric: str, settings: Mapping[str, str]):
        """The setting the library runs a case written under ``settings`` at: each knob it
        cannot take at the case's value is given the library's own (profile) value.

        Returns ``(setting, substituted, reason)``: ``substituted`` maps each changed knob to
        ``[case value, library value]``; ``setting`` is None (with the reason) when no such
        setting can be configured."""
        m = get_metric(metric)
        prof = self.profile(metric)
        s = m.settings(settings)
        if metric not in self.capabilities:
            return None, {}, f"{self.name} does not implement {metric}"
        for _ in range(len(s) + 1):
            bad = [k for k, v in s.items() if self.why_unsettable(metric, k, v, s)]
            if not bad:
                break
            try:
                s = m.settings({**s, **{k: prof[k] for k in bad}})
            except Exception as e:  # a dependent knob the profile's value does not admit
                return None, {}, f"{', '.join(bad)}: {e}"
        why = self.supports(metric, s)
        if why:
            # the library's own value of a substituted knob may not go with the rest of the
            # setting (an adapter's supports() refuses the combination): try the other values
            # it offers for that knob before moving a knob the case chose
            full = m.settings(settings)
            named = why.split("=", 1)[0].strip()
            for k in [named] * (named in s) + [k for k in s if s[k] != full.get(k) and k != named]:
                allowed = self.capabilities.get(metric, {}).get(k)
                for v in allowed if isinstance(allowed, tuple) else ():
                    try:
                        t = m.settings({**s, k: v})
                    except Exception:
                        continue
                    if self.supports(metric, t) is None:
                        s, why = t, None
                        break
                if why is None:
                    break
        if why:
            # a combination the library refuses (an adapter's own supports): move one more knob
            named = why.split("=", 1)[0].strip()
            for k in sorted((k for k in s if s[k] != prof.get(k)), key=lambda k: k != named):
                try:
                    t = m.settings({**s, k: prof[k]})
                except Exception:
                    continue
                if self.supports(metric, t) is None:
                    s, why = t, None
                    break
        if why:
            return None, {}, why
        full = m.settings(settings)
        substituted = {k: [full[k], s[k]] for k in full if full[k] != s.get(k)}
        return s, substituted, ""

    def configure(self, metric: str, settings: Mapping[str, str]):
        settings = get_metric(metric).settings(settings)
        why = self.supports(metric, settings)
        if why:
            return Unsupported(why)
        try:
            options = self.options(metric, settings)
        except Skip as e:
            return Unsupported(str(e))
        return Configured(metric, dict(settings), options)

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        """Library call options for a supported setting."""
        raise NotImplementedError

    def run(self, configured: Configured, inputs: Mapping) -> LibraryOutput:
        if configured.options.get(BARE):
            import warnings
            with warnings.catch_warnings():   # a library's advice on its defaults is not a value
                warnings.simplefilter("ignore")
                return self.call_bare(configured.metric, inputs)
        return self.call(configured.metric, configured.options, inputs)

    # -- the call as people make it: no optional argument at all
    # {metric: {knob: value}}: the profile of the library's call with no optional argument,
    # where it differs from ``profiles`` (an adapter that passes a non-default option, such
    # as ranx's make_comparable=True, declares here what the bare call does instead)
    bare_profiles: Mapping[str, Mapping[str, str]] = {}
    # False for an implementation with no options at all (a plain function): its call is the bare one
    takes_options: bool = True
    # {metric: the oracle's metric the bare call computes instead} (torchmetrics'
    # multiclass_accuracy averages per class by default: balanced accuracy), with
    # ``bare_sources`` {metric: where the library documents it}; judged as a divergence
    bare_metrics: Mapping[str, str] = {}
    bare_sources: Mapping[str, str] = {}

    def bare_profile(self, metric: str) -> dict:
        """The full setting the library's call with no optional argument follows (of the
        metric it computes: ``bare_metrics``)."""
        metric = self.bare_metrics.get(metric, metric)
        over = {**self.profile_overrides(metric), **self.bare_profiles.get(metric, {})}
        return get_metric(metric).settings(over)

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """The library's entry point for ``metric`` called with the inputs and no optional
        argument (the engine judges it against ``bare_profile``: an adapter that always
        passes an option explicitly cannot hide a change of the library's default)."""
        raise Skip(f"the {self.name} adapter declares no call of {metric} without optional arguments")

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        raise NotImplementedError

    # -- known failures: adapters may recognise their library's documented defects
    def defect_classifiers(self) -> Mapping[str, Callable]:
        """{defect id: predicate(metric, settings, inputs) -> bool}: when the library's
        known defect applies to an input. Used to recognise property-test findings."""
        return {}

    def defect_models(self) -> Mapping[str, Callable]:
        """{defect id: model(metric, settings, inputs) -> the library's predicted value}
        (an exact value, a float, or 'raised T'; None when the model has no prediction).
        A classifier alone never makes a finding known: the model must predict the
        library's value on the new input (``KnownIndex.recognise``)."""
        return {}


def profile_overrides(adapter, metric: str) -> dict:
    """An adapter's profile overrides for the installed release (a duck-typed adapter
    without ``profile_overrides``: its ``profiles``)."""
    if hasattr(adapter, "profile_overrides"):
        return adapter.profile_overrides(metric)
    return dict(getattr(adapter, "profiles", {}).get(metric, {}))


def load_object(spec: str):
    """Import ``package.module:object`` (a user's adapter or function)."""
    if ":" not in spec:
        raise ValueError(f"{spec!r}: expected 'package.module:object'")
    mod, attr = spec.split(":", 1)
    try:
        obj = importlib.import_module(mod)
    except ModuleNotFoundError as e:
        # as ``python -m`` would: a package of the working directory that is not installed
        top = mod.split(".")[0]
        cwd = os.getcwd()
        if e.name != top or cwd in sys.path or not (os.path.isdir(os.path.join(cwd, top))
                                                     or os.path.isfile(os.path.join(cwd, top + ".py"))):
            raise
        sys.path.insert(0, cwd)
        obj = importlib.import_module(mod)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj
