"""The runner: golden cases, property templates and known-failure replays for
every adapter and metric, spread over processes, with progress."""
from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Iterable

from oracle.conventions import ConventionError
from oracle.registry import get_metric

from conformance.casefiles.bad_input import cases as bad_input_cases
from conformance.casefiles.cases import Case, load_cases
from conformance.engine.defaults import run_default_call
from conformance.engine.judge import judge_case
from conformance.engine.divergence import reported_knobs, run_divergences
from conformance.engine.ties import admissible_knobs
from conformance.engine.isolation import LibraryDied, Limits, isolated
from conformance.casefiles.known import KnownIndex, load_known, same_library_value
from conformance.engine.plans import plan_for
from conformance.engine.properties import property_names, run_property
from conformance.protocol import profile_overrides
from conformance.reports.records import Record, reproduce_command, without_temp_names


def _non_default(metric: str, settings: dict) -> dict:
    default = get_metric(metric).settings({})
    return {k: v for k, v in settings.items() if default.get(k) != v}


def _base_record(adapter, metric: str, kind: str, test: str) -> Record:
    return Record(adapter=adapter.name, library=adapter.library, version=adapter.version(),
                  metric=metric, kind=kind, test=test, outcome="pass",
                  tolerance=str(adapter.tolerance(metric)))


def _fill_from_verdict(r: Record, v) -> None:
    r.exact, r.digits = v.exact, v.digits
    r.library_value = v.library_value
    r.comparison = v.comparison.to_json() if v.comparison else {}
    r.first_differing_statistic = v.first_differing_statistic
    r.explanation = v.explanation
    r.reproducing_knobs = v.reproducing
    r.message = r.message or v.message
    r.immaterial, r.converted, r.material = dict(v.immaterial), dict(v.converted), dict(v.material)
    r.case_exact = v.case_exact if v.material else ""
    if v.run_settings:
        r.adapter_signature = get_metric(r.metric).signature(v.run_settings)
        r.run_settings = dict(v.run_settings)


def run_case(adapter, case: Case, known: KnownIndex) -> Record:
    m = get_metric(case.metric)
    r = _base_record(adapter, case.metric, "golden", case.id)
    r.description, r.source = case.description, _source_text(case)
    t0 = time.perf_counter()
    try:
        settings = m.settings(case.conventions)
    except ConventionError as e:
        r.outcome, r.message = "error", f"case conventions: {e}"
        return r
    profile = adapter.profile(case.metric)
    r.case_signature = m.signature(settings)
    r.adapter_signature = m.signature(profile)
    r.differing_knobs = {k: [settings[k], profile[k]] for k in settings if settings[k] != profile[k]}
    r.conventions = _non_default(case.metric, settings)
    r.reproduce = reproduce_command(adapter, case.metric, r.conventions, None, f"{case.file}#{case.id}")
    # a case with a recorded known failure carries its explanation (proven when it was
    # recorded): the explanation search would only repeat it
    recorded = known.for_case(case.id, case.metric)
    v = judge_case(adapter, case.metric, settings, case.inputs, explain_it=recorded is None)
    r.seconds = time.perf_counter() - t0
    _fill_from_verdict(r, v)
    expects_error = str(case.expected.get("value", "")).startswith("error(")
    if v.status in ("agree", "refuses"):
        r.outcome = "pass"
    elif v.status == "divergence":
        r.outcome = "divergence"
    elif v.status in ("not-applicable", "skipped"):
        r.outcome = v.status
    elif v.status == "oracle-error":
        r.outcome = "error"
        r.message = f"the oracle refused a golden case: {v.message}"
    else:
        if v.status in ("accepts-invalid", "crash") and not expects_error:
            r.message = (r.message + "; " if r.message else "") + "the oracle refuses this golden case's input"
        r.inputs = case.written_inputs or case.inputs
        kf = recorded or known.recognise(
            case.metric, v.run_settings or settings, case.inputs, v.reproducing, library_value=v.library_value,
            status=v.status)
        if kf:
            r.outcome, r.known_failure, r.known_title = "known-failure", kf.id, kf.title
            r.explanation = r.explanation or kf.explanation
        else:
            r.outcome = "fail" if v.status in ("disagree", "accepts-invalid") else "error"
    return r


def _source_text(case: Case) -> str:
    s = case.source
    if "document" in s:
        return f"{s['document']} {s.get('section', '')}".strip()
    return s.get("reference", "")


def run_known_entry(adapter, entry, outside: bool = False, known: KnownIndex | None = None) -> Record:
    """Replay a known failure: it should still disagree; if it now agrees it is fixed.

    ``outside``: the entry holds for other releases (its ``versions``) than the installed
    one. The replay then checks that the defect is absent here: agreement passes (and is
    not a fixed known failure), the recorded failure fails (the range is wrong)."""
    r = _base_record(adapter, entry.metric, "known", entry.id)
    r.description, r.known_failure, r.known_title = entry.title, entry.id, entry.title
    if outside:
        r.verdicts = {"versions": "outside", "range": entry.versions}
    m = get_metric(entry.metric)
    try:
        settings = m.settings({**profile_overrides(adapter, entry.metric), **entry.conventions})
    except ConventionError as e:
        r.outcome, r.message = "error", f"known failure {entry.id}: {e}"
        return r
    r.conventions = _non_default(entry.metric, settings)
    r.inputs = entry.inputs
    why = adapter.supports(entry.metric, settings) if hasattr(adapter, "supports") else None
    if why:   # a release (or an adapter) that cannot be set to the entry's setting
        r.outcome, r.message = "not-applicable", f"{entry.id}: this {adapter.library} {adapter.version()} cannot be set so ({why})"
        return r
    r.case_signature = m.signature(settings)
    r.adapter_signature = m.signature(adapter.profile(entry.metric))
    r.reproduce = reproduce_command(adapter, entry.metric, r.conventions, entry.inputs)
    t0 = time.perf_counter()
    # the entry carries its explanation (proven when it was recorded): no new search
    v = judge_case(adapter, entry.metric, settings, entry.inputs, explain_it=False)
    r.seconds = time.perf_counter() - t0
    _fill_from_verdict(r, v)
    if outside:
        return _outside_range(r, v, entry, adapter, known, settings)
    if v.status in ("disagree", "error", "accepts-invalid", "crash"):
        r.outcome = "known-failure"
        r.explanation = r.explanation or entry.explanation
        if not _same_exact(v.exact, entry.exact):
            r.outcome, r.message = "fail", f"the oracle's value changed: recorded {entry.exact}, now {v.exact}"
        elif not same_library_value(v.library_value, entry.library_value, raise_text=True):
            r.verdicts = {**(r.verdicts or {}), "library_value": "changed"}
            r.message = (f"still failing, but the library now returns {v.library_value!r} (recorded "
                         f"{entry.library_value!r}): record it again (unexpected under --strict)")
    elif v.status in ("agree", "refuses"):
        r.outcome = "pass"
        r.message = f"known failure {entry.id} now passes: remove it from the known-failure list"
    else:
        r.outcome = v.status if v.status in ("skipped", "not-applicable") else "error"
    return r


def _outside_range(r: Record, v, entry, adapter, known, settings) -> Record:
    """The replay of an entry recorded for other releases than the installed one: the
    defect must be absent; a disagreement that another entry of this release explains is
    that entry's known failure."""
    version = adapter.version()
    where = f"{entry.id} is recorded for {adapter.library} {entry.versions}; this is {version}"
    disagrees = v.status in ("disagree", "error", "accepts-invalid", "crash")
    other = None
    if known is not None and disagrees:
        other = known.recognise(entry.metric, settings, entry.inputs, None, library_value=v.library_value)
    if other is not None:
        r.outcome = "known-failure"
        r.known_failure, r.known_title = other.id, other.title
        r.message = f"{where}; here the library disagrees as this release's known failure {other.id} says"
        r.explanation = other.explanation
    elif v.status in ("agree", "refuses"):
        r.outcome = "pass"
        r.message = f"{where}, which agrees with the oracle here: the defect is absent, as recorded"
    elif disagrees and same_library_value(v.library_value, entry.library_value, raise_text=True):
        r.outcome = "fail"
        r.message = (f"{where}, and it fails the recorded way here too: widen the entry's versions "
                     f"(library {v.library_value!r})")
    elif disagrees:
        r.outcome = "fail"
        r.message = (f"{where}; here the library gives {v.library_value!r} (recorded {entry.library_value!r}), "
                     "which disagrees with the oracle too")
    else:
        r.outcome = v.status if v.status in ("skipped", "not-applicable") else "error"
        r.message = r.message or where
    r.explanation = r.explanation or ("" if r.outcome == "pass" else entry.explanation)
    return r


def _same_exact(a: str, b: str) -> bool:
    from conformance.casefiles.cases import parse_expected
    from oracle.certified import same_value
    try:
        return same_value(parse_expected(a), parse_expected(b))
    except (ValueError, TypeError):
        return a == b


@dataclass(frozen=True)
class Unit:
    adapter: str
    metric: str
    part: str      # golden | bad-input | stress | properties | known | divergence
    # the divergence part is one unit per adapter, over these metrics in this order: a search
    # tries first the inputs earlier searches of the same family found (divergence._FOUND), so
    # what it finds must not depend on which units a worker process happened to run before
    metrics: tuple = ()


def plan_units(adapters: dict, metrics: Iterable[str] | None, cases: list[Case], bad_input: bool = True,
               stress: bool = False) -> list[Unit]:
    """The units of a run: per adapter and metric its golden cases, the examples of the
    bad-input tables (``golden/bad_input``, each sent to the library; left out when not
    ``bad_input``), its properties, its known failures; per adapter its divergence searches;
    with ``stress`` the tables' stress rows (a unit of their own)."""
    units = []
    bad = {c.metric for c in bad_input_cases()} if bad_input else set()
    heavy = {c.metric for c in bad_input_cases(stress=True) if "stress" in c.tags} if stress else set()
    for name, a in adapters.items():
        diverging = []
        for metric in a.metrics():
            if metrics and metric not in metrics:
                continue
            if any(c.metric == metric for c in cases):
                units.append(Unit(name, metric, "golden"))
            if metric in bad:
                units.append(Unit(name, metric, "bad-input"))
            if metric in heavy:
                units.append(Unit(name, metric, "stress"))
            if property_names(a, metric):
                units.append(Unit(name, metric, "properties"))
            if any(e.metric == metric for e in load_known(name)):
                units.append(Unit(name, metric, "known"))
            if (reported_knobs(a, metric) or admissible_knobs(a, metric)) and plan_for(metric) is not None:
                diverging.append(metric)
        if diverging:
            units.append(Unit(name, diverging[0] if len(diverging) == 1 else f"{len(diverging)} metrics",
                              "divergence", tuple(diverging)))
    return units


_ADAPTERS: dict = {}


def _init_worker(specs: dict):
    from conformance.resolve import resolve_adapter
    _ADAPTERS.clear()
    for name, spec in specs.items():
        _ADAPTERS[name] = resolve_adapter(spec)


_ISOLATED: dict = {}   # adapter name -> its isolated wrapper in this process (workers reused)


def run_unit(unit: Unit, examples: int, case_paths=None, adapters: dict | None = None,
             limits: Limits | None = None) -> list[Record]:
    """The unit's records, computed on a fresh thread's stack (``on_fresh_stack``), with
    the names of temporary files in what libraries said made stable (``stable_texts``)."""
    return [stable_texts(r) for r in on_fresh_stack(_run_unit, unit, examples, case_paths, adapters, limits)]


def stable_texts(r: Record) -> Record:
    """``r`` with every temporary file's path in its message, explanation and library
    value written ``<temp file>``: a library that runs a tool on temporary files (gdeval
    through ir_measures) names new ones on every call, so two runs of the same tree
    would differ in those texts."""
    for name in ("message", "explanation", "library_value"):
        v = getattr(r, name, None)
        if isinstance(v, str):
            setattr(r, name, without_temp_names(v))
    return r


def on_fresh_stack(fn, *args):
    """``fn(*args)`` in a new thread, its value or its exception; the calling thread waits.

    CPython 3.11 keeps its frames in 16 KB chunks of a per-thread stack; a call whose frame
    opens a new chunk maps it and its return unmaps it, so a hot call that lands on a chunk
    boundary costs two system calls and fresh pages every time. Where the boundaries fall
    depends on how deep the caller already is: a pool worker forked inside a pytest test
    sits about 100 frames deep, and there the whole run made 520,000 mmap/munmap pairs
    (166 s of system time instead of 12 s; ``strace -c``). A new thread starts at the
    bottom of its own stack, so a unit costs the same under the CLI, a pool worker, the
    pytest plugin or a test."""
    import threading
    out: list = []

    def target():
        try:
            out.append((True, fn(*args)))
        except BaseException as e:   # handed to the caller as it is
            out.append((False, e))
    t = threading.Thread(target=target, name="metric-conformance-unit", daemon=True)
    t.start()
    t.join()
    ok, value = out[0]
    if ok:
        return value
    raise value


def _run_unit(unit: Unit, examples: int, case_paths, adapters: dict | None, limits: Limits | None) -> list[Record]:
    a = (adapters or _ADAPTERS)[unit.adapter]
    if limits is not None and limits.enabled:
        key = (unit.adapter, limits)
        if key not in _ISOLATED:
            _ISOLATED[key] = isolated(a, limits)
        a = _ISOLATED[key]
    known = KnownIndex(a, load_known(a.name))
    try:
        if unit.part == "golden":
            cases = load_cases(case_paths, unit.metric)
            # the call with no optional argument is judged on the golden inputs, the valid ones
            bare_call = [run_default_call(a, unit.metric, cases, known)] \
                if cases and getattr(a, "takes_options", True) else []
            return [run_case(a, c, known) for c in cases] + bare_call
        if unit.part == "bad-input":
            return [run_case(a, c, known) for c in bad_input_cases(unit.metric)]
        if unit.part == "stress":
            return [run_case(a, c, known) for c in bad_input_cases(unit.metric, stress=True) if "stress" in c.tags]
        if unit.part == "known":
            return [run_known_entry(a, e, outside=e in known.out_of_range, known=known)
                    for e in known.entries + known.out_of_range if e.metric == unit.metric]
        if unit.part == "divergence":
            return _run_divergence_unit(a, unit, known, examples)
        memo: dict = {}   # the unit's library calls, shared by its properties
        return [run_property(a, unit.metric, p, known, examples, memo=memo) for p in property_names(a, unit.metric)]
    except LibraryDied as e:  # outside a judged call: configure or a defect model
        r = _base_record(a, unit.metric, unit.part, "(unit)")
        r.outcome, r.library_value = "error", str(e)
        r.message = f"{e}, while setting the library up for {unit.metric} ({unit.part}) or modelling a defect"
        return [r]
    except Exception as e:  # an engine bug must not lose the rest of the report
        r = _base_record(a, unit.metric, unit.part, "(unit)")
        r.outcome = "error"
        r.message = "".join(traceback.format_exception(type(e), e, e.__traceback__))[-2000:]
        return [r]


def _run_divergence_unit(a, unit: Unit, known, examples: int) -> list[Record]:
    """Every divergence search of one adapter, its metrics in their order, from an empty
    store of found inputs; an engine error costs the metric it happened in an error record."""
    from conformance.engine.divergence import _FOUND
    _FOUND.clear()
    out: list[Record] = []
    for metric in unit.metrics or (unit.metric,):
        try:
            out += run_divergences(a, metric, known, examples)
        except LibraryDied as e:   # outside a judged call: configure or a defect model
            r = _base_record(a, metric, "divergence", "(unit)")
            r.outcome, r.library_value = "error", str(e)
            r.message = f"{e}, while setting the library up for {metric} (divergence) or modelling a defect"
            out.append(r)
        except Exception as e:
            r = _base_record(a, metric, "divergence", "(unit)")
            r.outcome = "error"
            r.message = "".join(traceback.format_exception(type(e), e, e.__traceback__))[-2000:]
            out.append(r)
    return out


def run_all(adapters: dict, specs: dict, metrics=None, examples: int = 50, jobs: int = 1,
            case_paths=None, progress: Callable[[str], None] | None = None,
            limits: Limits | None = None, previous: dict | None = None, bad_input: bool = True,
            stress: bool = False) -> list[Record]:
    """Every unit of every adapter; with ``limits`` (the default ones when None), each
    library call in a worker process under them (``conformance.engine.isolation``).
    ``previous``: the seconds a previous report gives each (adapter, metric, kind), which
    orders the units among the workers (``conformance.engine.schedule``)."""
    limits = limits or Limits()
    cases = load_cases(case_paths)
    units = plan_units(adapters, metrics, cases, bad_input, stress)
    records: list[Record] = []
    done = 0

    def note(unit: Unit, recs: list[Record]):
        nonlocal done
        done += 1
        if progress:
            counts: dict = {}
            for r in recs:
                counts[r.outcome] = counts.get(r.outcome, 0) + 1
            summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
            progress(f"[{done}/{len(units)}] {unit.adapter} {unit.metric} {unit.part}: {summary}")

    try:
        if jobs <= 1 or len(units) <= 1:
            for u in units:
                recs = run_unit(u, examples, case_paths, adapters, limits)
                records.extend(recs)
                note(u, recs)
                _check_stop()
        else:
            from types import SimpleNamespace
            from conformance.engine.pool import run_pooled
            engine = SimpleNamespace(ADAPTERS=_ADAPTERS, base_record=_base_record, check_stop=_check_stop,
                                     run_unit=run_unit, init_worker=_init_worker)
            from conformance.engine.schedule import estimator
            run_pooled(units, adapters, specs, jobs, examples, case_paths, limits, records, note, engine,
                       estimator(previous or {}, adapters))
    except KeyboardInterrupt as e:   # SIGINT, or SIGTERM / SIGHUP turned into it by the CLI
        records.sort(key=_record_order)
        raise Interrupted(str(e) or "SIGINT", records, done, len(units)) from None
    records.sort(key=_record_order)
    return records


def _record_order(r: Record):
    return (r.adapter, r.metric, {"golden": 0, "defaults": 0.5, "property": 1, "divergence": 2, "known": 3}.get(r.kind, 3), r.test)


# set by the CLI's signal handler; checked after every unit, because the KeyboardInterrupt
# the handler raises is lost when it lands in a callback (a gc callback) that swallows it
STOP: dict = {"signal": None}


def _check_stop() -> None:
    if STOP["signal"]:
        raise KeyboardInterrupt(STOP["signal"])


class Interrupted(Exception):
    """The run was stopped by a signal; ``records`` holds the units that finished."""

    def __init__(self, signal_name: str, records: list, done: int, total: int):
        super().__init__(f"stopped by {signal_name} after {done} of {total} units")
        self.signal_name, self.records, self.done, self.total = signal_name, records, done, total


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))
