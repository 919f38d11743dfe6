"""The ``metric-conformance`` command.

Exit status: 0 when nothing unexpected happened; 1 when a test failed or
errored (or, with --strict, a known failure started passing or fails with another
library value than the recorded one), or `check`
found problems; 2 for usage and configuration errors.
"""
from __future__ import annotations

import argparse
import signal
from pathlib import Path
from contextlib import contextmanager
import json
import os
import sys

from conformance.reports.paths import STDOUT
from conformance.reports.records import changed_known, fixed_known
from conformance.cli_common import (EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, UsageError, _case_from_args, _check_paths,
                                     _known_dir, _load_adapters, _progress_printer, _renamed_values_as_notices, bounded_int)
from conformance.cli_explain import cmd_explain
from conformance.cli_known import cmd_known

# the engine's limits (conformance.engine.isolation, which a test keeps equal), here so that
# building the parser imports no engine module: score and list start faster
_DEFAULT_TIMEOUT = 300.0
_DEFAULT_MEMORY = 8 * 1024 ** 3


def cmd_run(args) -> int:
    if args.report is None:   # a page alone never replaces the whole run's report
        args.report = str(Path(args.html).with_suffix(".jsonl")) if args.html and args.html != STDOUT \
            else "reports/conformance.jsonl"
    _known_dir(args)
    from oracle.registry import metric_names
    from conformance.reports import writers as R
    from conformance.engine.runner import Interrupted, default_jobs, run_all
    for m in args.metric or []:
        if m not in metric_names():
            from oracle.conventions import nearest
            raise UsageError(f"--metric {m}: unknown metric" + (nearest(m, metric_names()) or
                             f": not supported; the oracle has {', '.join(metric_names())}"))
    _check_paths(args)
    adapters, specs, unavailable = _load_adapters(args.adapter)
    if not adapters:
        print("no adapter is available: " + "; ".join(f"{n}: {w}" for n, w in unavailable), file=sys.stderr)
        return EXIT_USAGE
    from conformance.casefiles.known import load_known
    for name in adapters:   # every known-failure list is read before the run starts
        try:
            load_known(name)
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"known failures of {name}: {e}") from None
    jobs = args.jobs if args.jobs else default_jobs()
    progress = None if args.quiet else _progress_printer(sys.stderr)
    if args.timeout <= 0 or args.memory <= 0:
        raise UsageError("--timeout and --memory must be positive")
    from conformance.engine.isolation import Limits
    limits = Limits(timeout=args.timeout, memory=int(args.memory * 1024 ** 2), enabled=not args.no_isolation)
    if args.no_cache:
        os.environ["METRIC_CONFORMANCE_NO_CACHE"] = "1"   # the engine's workers read it too
    from conformance.engine.schedule import previous_seconds
    previous = previous_seconds(args.report)   # the last run's unit times, read before it is replaced
    try:
        with _signals_interrupt():
            records = run_all(adapters, specs, metrics=args.metric, examples=args.examples, jobs=jobs,
                              case_paths=args.cases, progress=progress, limits=limits, previous=previous,
                              bad_input=args.bad_input, stress=args.stress)
    except Interrupted as stop:
        return _write_incomplete(args, adapters, unavailable, stop)
    if progress and sys.stderr.isatty():
        sys.stderr.write("\n")
    head = R.header([a.info().to_json() for a in adapters.values()], unavailable,
                    {"examples": args.examples, "metrics": args.metric, "strict": args.strict})
    report_path = args.report
    R.write_all(records, head, jsonl=report_path, md=args.markdown, junit_path=args.junit, html=args.html)
    track_lines = None
    if args.track:   # after the reports are written: nothing here can lose the run
        from conformance.reports.tracking import changes_since
        track_lines = changes_since(args.track, records)
    # with a report on standard output, the summary goes to standard error
    to_stdout = STDOUT in (str(report_path), str(args.markdown), str(args.junit), str(args.html))
    out = sys.stderr if to_stdout else sys.stdout
    if track_lines is not None:
        if all(line.startswith("version  ") for line in track_lines):   # none of the outcomes changed
            track_lines = track_lines + [f"no change since {args.track}"
                                         + (" in any outcome" if track_lines else "")]
        print("\n".join(track_lines), file=out)
    else:
        print(R.console(records, head, verbose=args.verbose), file=out)
    written = [p for p in (report_path, args.markdown, args.junit, args.html) if p]
    if written:
        print("report written: " + ", ".join(str(p) for p in written), file=sys.stderr)
    if not records:   # a run that tests nothing is not a green run
        print("no tests ran: " + _why_nothing_ran(adapters, args.metric), file=sys.stderr)
        return EXIT_USAGE
    unexpected = [r for r in records if r.outcome in ("fail", "error")]
    fixed = [r for r in records if fixed_known(r) or changed_known(r)]
    if unexpected or (args.strict and fixed):
        return EXIT_UNEXPECTED
    return EXIT_OK


def _why_nothing_ran(adapters: dict, metrics) -> str:
    parts = []
    for name, a in adapters.items():
        has = sorted(getattr(a, "capabilities", {}) or {})
        if metrics:
            parts.append(f"{name} implements none of {', '.join(metrics)} (it implements {', '.join(has) or 'nothing'})")
        else:
            parts.append(f"{name} implements no metric of the oracle")
    return "; ".join(parts) or "no adapter"


@contextmanager
def _signals_interrupt():
    """SIGINT, SIGTERM and SIGHUP (what CI timeouts and closed terminals send) stop the
    run; the signal is also recorded, so that it stops the run at the next unit even if
    its KeyboardInterrupt was swallowed where it landed."""
    from conformance.engine.runner import STOP

    def stop(signum, frame):
        STOP["signal"] = signal.Signals(signum).name
        raise KeyboardInterrupt(STOP["signal"])
    STOP["signal"] = None
    old = {}
    for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            old[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _write_incomplete(args, adapters, unavailable, stop) -> int:
    """The finished units as a report marked incomplete, beside (never over) the requested
    one; exit status 128 + the signal number."""
    from conformance.reports import writers as R
    head = R.header([a.info().to_json() for a in adapters.values()], unavailable,
                    {"examples": args.examples, "metrics": args.metric, "strict": args.strict})
    head["incomplete"] = {"signal": stop.signal_name, "units_done": stop.done, "units": stop.total}
    paths = {k: (None if p is None else (p if str(p) == STDOUT else f"{p}.incomplete"))
             for k, p in (("jsonl", args.report), ("md", args.markdown), ("junit_path", args.junit),
                          ("html", args.html))}
    R.write_all(stop.records, head, **paths)
    written = [p for p in paths.values() if p and p != STDOUT]
    print(f"\nmetric-conformance run: {stop}; incomplete report: {', '.join(written) or 'standard output'}",
          file=sys.stderr)
    signum = getattr(signal, stop.signal_name, signal.SIGINT)
    return 128 + int(signum)


def cmd_list(args) -> int:
    from oracle.registry import get_metric, metric_names
    metrics = [get_metric(n).describe() for n in metric_names()]
    from conformance.resolve import builtin_adapters
    available, unavailable = builtin_adapters()
    adapters = [dict(a.info().to_json(), profiles={m: a.profile(m) for m in a.metrics()})
                for a in available]
    if args.json:
        print(json.dumps({"metrics": metrics, "adapters": adapters,
                          "unavailable": [{"adapter": n, "reason": r} for n, r in unavailable]}, indent=2))
        return EXIT_OK
    print("metrics:")
    for m in metrics:
        print(f"  {m['name']:<14} {m['summary']}")
        for k in m["knobs"]:
            choices = "|".join(k.get("choices", [])) or k["kind"]
            print(f"      {k['name']:<16} default {k['default']:<16} {choices}")
        print(f"      signature: {m['default_signature']}")
    print("adapters:")
    for a in adapters:
        rng = f" (adapter range {a['library']}{a['versions']})" if a.get("versions") else ""
        print(f"  {a['name']:<10} {a['library']} {a['version']}{rng}  metrics: {', '.join(a['metrics'])}")
    for n, r in unavailable:
        what = _declared(n)
        print(f"  {n:<10} unavailable: {r}" + (f"\n  {'':<10} {what}" if what else ""))
    return EXIT_OK


def _declared(name: str) -> str:
    """An unavailable built-in adapter's declared range and metrics, read from its class."""
    from importlib.metadata import entry_points
    from conformance.resolve import ENTRY_POINT_GROUP
    try:
        c = next(ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name).load()
    except Exception:   # not registered, or not importable
        return ""
    metrics = getattr(c, "serves", None) or tuple(c.capabilities)
    rng = f"adapter range {c.library}{c.versions}" if c.versions else ""
    return "  ".join(x for x in (rng, f"metrics: {', '.join(metrics)}" if metrics else "") if x)


def cmd_oracle(args) -> int:
    from oracle.registry import get_metric
    from oracle.certified import to_sympy
    from oracle.exact import Expr
    case = _case_from_args(args)
    result = get_metric(case.metric).compute(case.inputs, case.conventions)
    out = {"case": case.id, **result.to_json(args.digits)}
    if isinstance(result.value, Expr) and args.sympy:
        out["sympy"] = str(to_sympy(result.value))
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_compare(args) -> int:
    _known_dir(args)
    from oracle.registry import get_metric
    from conformance.engine.judge import judge_case
    from conformance.casefiles.known import KnownIndex, load_known
    case = _case_from_args(args)
    adapters, _, unavailable = _load_adapters([args.adapter])
    if not adapters:
        raise UsageError(f"--adapter {args.adapter}: {unavailable[0][1] if unavailable else 'unavailable'}")
    a = next(iter(adapters.values()))
    m = get_metric(case.metric)
    settings = m.settings(case.conventions)
    v = judge_case(a, case.metric, settings, case.inputs)
    known = KnownIndex(a, load_known(a.name))
    kf = None
    if v.status in ("disagree", "error", "accepts-invalid", "crash"):
        kf = known.for_case(case.id, case.metric) or known.recognise(
            case.metric, v.run_settings or settings, case.inputs, v.reproducing, library_value=v.library_value)
    out = {"case": case.id, "adapter": a.name, "library": a.library, "version": a.version(),
           "metric": case.metric, "signature": m.signature(settings),
           "library_signature": m.signature(a.profile(case.metric)),
           "verdict": v.status, "exact": v.exact, "digits": v.digits, "library_value": v.library_value,
           "comparison": v.comparison.to_json() if v.comparison else None,
           "first_differing_statistic": v.first_differing_statistic, "explanation": v.explanation,
           "reproducing_knobs": v.reproducing, "message": v.message,
           "known_failure": kf.id if kf else None}
    if v.run_settings:
        out["library_signature"] = m.signature(v.run_settings)
    for key in ("converted", "immaterial", "material"):
        if getattr(v, key):
            out[key] = getattr(v, key)
    if v.material:
        out["case_exact"] = v.case_exact   # the value under the case's (here: the asked) settings
    # the same input judged against the canonical definition and the library as people call it
    # (conformance.compare): no value to type
    from conformance.compare import as_called
    defaults_ok = as_called(a, case.metric, case.inputs, settings, known, out)
    print(json.dumps(out, indent=2, ensure_ascii=False, default=str))
    ok = v.status in ("agree", "divergence", "refuses", "not-applicable", "skipped") or kf
    return EXIT_OK if ok and defaults_ok else EXIT_UNEXPECTED


def cmd_check(args) -> int:
    from conformance.casefiles.cases import check_cases, load_cases
    from conformance.reports.writers import brief
    problems = check_cases(args.files or None)
    n = len(load_cases(args.files or None)) if not problems else None
    for p in problems:
        print(brief(p))
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return EXIT_UNEXPECTED
    print(f"ok: {n} cases, schema valid, ids unique, tags registered, every expected value re-derived")
    return EXIT_OK


def cmd_bench(args) -> int:
    from conformance.bench import main as bench_main
    return bench_main(args)


def cmd_audit(args) -> int:
    from conformance.audit import main as audit_main
    return audit_main(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="metric-conformance", description=(
        "The referee for ML evaluation metrics: exact oracle values, golden cases, and "
        "conformance tests of metric libraries."))
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="judge the installed adapters on golden cases and property tests")
    r.add_argument("--adapter", action="append",
                   help="adapter name or package.module:object (repeatable); the named module, like every "
                        "installed metric_conformance.adapters entry point, is imported and runs: name only "
                        "code you trust")
    r.add_argument("--metric", action="append", help="only this metric (repeatable)")
    r.add_argument("--examples", type=bounded_int(1, 100_000), default=50,
                   help="hypothesis examples per property (default 50)")
    r.add_argument("--no-bad-input", dest="bad_input", action="store_false",
                   help="leave out the examples of the bad-input tables (golden/bad_input), which a run otherwise "
                        "sends to each library that implements their metric, but the stress rows (docs/bad-input.md)")
    r.add_argument("--stress", action="store_true",
                   help="also send the stress rows of the bad-input tables (inputs of tens of thousands of tokens, "
                        "an order of 1,000), where a library call can take minutes")
    r.add_argument("--report", help="JSON lines report (default reports/conformance.jsonl; with --html and no "
                                    "--report, beside the page: PAGE.jsonl, so a page never replaces another report)")
    r.add_argument("--markdown", help="also write a Markdown report")
    r.add_argument("--junit", help="also write a JUnit XML report")
    r.add_argument("--html", help="also write the conformance matrix as one static HTML page")
    r.add_argument("--jobs", type=bounded_int(0, 1024), default=0, help="processes (default: all cores)")
    r.add_argument("--strict", action="store_true", help="a known failure that passes, or fails with another library value than "
                   "the recorded one, is unexpected")
    r.add_argument("--track", help="print only what changed since this stored JSONL report")
    r.add_argument("--cases", action="append", help="case files (default: all golden files)")
    r.add_argument("--verbose", action="store_true", help="print known failures in full")
    r.add_argument("--quiet", action="store_true", help="no progress display")
    r.add_argument("--known-dir", help="known-failure lists of your own adapters (default: adapters/known_failures)")
    r.add_argument("--timeout", type=float, default=_DEFAULT_TIMEOUT,
                   help="seconds a library call may take before its worker is killed (default %(default)g)")
    r.add_argument("--memory", type=float, default=_DEFAULT_MEMORY / 1024 ** 2,
                   help="MB of resident memory a library's worker may use (default %(default)g)")
    r.add_argument("--no-isolation", action="store_true",
                   help="call the libraries in the engine's own process (no worker, no limits)")
    r.add_argument("--no-cache", action="store_true",
                   help="make every corpus again instead of reading those an earlier run of the same code "
                        "kept ($METRIC_CONFORMANCE_CACHE/corpus); the inputs and the records are the same")
    r.set_defaults(fn=cmd_run)

    l = sub.add_parser("list", help="metrics with their knobs, adapters with versions")
    l.add_argument("--json", action="store_true")
    l.set_defaults(fn=cmd_list)

    for name, fn, helptext in (("oracle", cmd_oracle, "the exact value of a case, as JSON"),
                               ("compare", cmd_compare, "judge one adapter on one case, as JSON")):
        c = sub.add_parser(name, help=helptext)
        c.add_argument("case", nargs="?", help="CASE.json, or a golden FILE#ID")
        c.add_argument("--metric")
        c.add_argument("--inputs", help="inputs as JSON")
        c.add_argument("--conventions", help="knob settings as JSON")
        if name == "oracle":
            c.add_argument("--digits", type=bounded_int(1, 10_000), default=40,
                           help="certified significant digits, 1 to 10,000 (default 40)")
            c.add_argument("--sympy", action="store_true", help="also print the sympy form")
        else:
            c.add_argument("--adapter", required=True)
            c.add_argument("--known-dir", help="known-failure lists of your own adapters")
        c.set_defaults(fn=fn)

    e = sub.add_parser("explain", help="which knob settings (or arithmetic) explain a library's value")
    e.add_argument("case", nargs="?", help="CASE.json or a golden FILE#ID")
    e.add_argument("--metric")
    e.add_argument("--inputs", help="inputs as JSON")
    e.add_argument("--conventions", help="the settings the value was claimed under, as JSON")
    e.add_argument("--value", help="the library's value (a number, or JSON for a structure)")
    e.add_argument("--adapter", help="run this adapter to get the value (instead of --value)")
    e.add_argument("--report", help="explain every disagreement of this JSONL report")
    e.add_argument("--budget", type=bounded_int(1, 10_000_000), default=2000, help="oracle evaluations for the knob search")
    e.set_defaults(fn=cmd_explain)

    kn = sub.add_parser("known", help="write the current disagreements of an adapter as its known-failure list")
    kn.add_argument("--adapter", required=True, help="adapter name or package.module:object")
    kn.add_argument("--report", required=True, help="a JSONL report of a run of that adapter")
    kn.add_argument("--known-dir", help="where the lists live (default: adapters/known_failures)")
    kn.add_argument("--write", action="store_true", help="write the list (default: print it)")
    kn.set_defaults(fn=cmd_known)

    k = sub.add_parser("check", help="lint the golden files and re-derive every expected value")
    k.add_argument("files", nargs="*")
    k.set_defaults(fn=cmd_check)

    b = sub.add_parser("bench", help="time the oracle against the peer libraries")
    b.add_argument("--repeat", type=bounded_int(1, 1000), default=5)
    b.add_argument("--workload", action="append",
                   help="only these workloads (repeatable; the suite's own: run-suite, run-suite-searching, "
                        "explain-value, import-oracle)")
    b.add_argument("--output", help="write the results as JSON")
    b.set_defaults(fn=cmd_bench)

    from conformance.cli_score import add_parser as add_score_parser
    add_score_parser(sub)
    from conformance.cli_versions import add_parser as add_versions_parser
    add_versions_parser(sub)

    au = sub.add_parser("audit", help="which convention settings reproduce a published figure",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=AUDIT_KEYS)
    au.add_argument("claim", nargs="*", help="FIGURE key=value ..., e.g. 'WER 4.2%%' hyp=h.txt ref=r.txt")
    au.add_argument("--claims", action="append", help="a claims file, one claim per line (repeatable)")
    au.add_argument("--json", action="store_true", help="JSON lines: one object per claim with every setting")
    au.add_argument("--all", action="store_true", help="list every setting searched, not only the reproducing ones")
    au.set_defaults(fn=cmd_audit)
    return p


AUDIT_KEYS = """claim keys (FIGURE key=value ...):
  input files     hyp= ref= (text; ref= repeatable), conll= (+ gold_col= pred_col= token_col=),
                  qrels= run= (trec), results= annotations= [questions=] (coco, vqa),
                  dataset= predictions= (squad), truth= pred= (labels)
  golden=F#ID     the inputs (and stated conventions) of a golden case (old spelling: case=F.json#ID)
  format=         text, conll, trec, coco, vqa, squad, labels, case (guessed from the files)
  metric=         the oracle metric, when the figure's name does not say (BLEU, WER, nDCG@10, F1, ...)
  part=NAME       the entry of a structured value (a per-type or per-query figure)
  scale=          percent or fraction (guessed from the figure: '27.3' BLEU, '4.2%' WER)
  sacrebleu=SIG   a sacrebleu signature (nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0,
                  or the 1.x BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.4.14)
  LIBRARY=X.Y.Z   the release the figure was computed with (sacrebleu=1.4.14, jiwer=3.0.0, seqeval=1.0.0,
                  ranx, nltk, sklearn): its profile is checked too, and its recorded defects when the
                  release is installed or cached (metric-conformance versions makes the cache)
  trec_eval=CMD   a trec_eval command line (-m ndcg_cut.10 -c -l 2)
  KNOB=VALUE      any knob of the metric, stated (tokenizer=intl, case=lower, scheme=iobes, k=10);
                  `metric-conformance list` shows every knob; unstated knobs are searched
a claims file (--claims) holds one claim per line, or JSON lines {"claim": "BLEU 27.3", "hyp": ..., ...}"""


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from oracle.conventions import ConventionError, InputError
    from conformance.reports.writers import brief
    # the known-failure folder is a module state that --known-dir sets for one command; the
    # module is read only where it is loaded (score never loads it: it starts faster)
    known_lists = sys.modules.get("conformance.casefiles.known")
    previous_known_dir = known_lists.directory() if known_lists and known_lists._override else None
    _renamed_values_as_notices(args.command)

    def config_errors():   # evaluated when an exception arrives: the case files' module only then
        from conformance.casefiles.cases import CaseFileError
        return ConventionError, CaseFileError
    try:
        return args.fn(args)
    except UsageError as e:
        print(f"metric-conformance {args.command}: {brief(e)}", file=sys.stderr)
        return EXIT_USAGE
    except config_errors() as e:
        print(f"metric-conformance {args.command}: {brief(e)}", file=sys.stderr)
        return EXIT_USAGE
    except InputError as e:
        print(f"metric-conformance {args.command}: bad input: {brief(e)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted; no report written", file=sys.stderr)
        return 130
    except BrokenPipeError:   # the reader of standard output went away (| head): stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141
    finally:
        known_lists = sys.modules.get("conformance.casefiles.known")
        if known_lists is not None:
            known_lists.set_directory(previous_known_dir)   # --known-dir holds for this command only


def entry() -> None:
    """The console script (and ``python -m conformance``): ``main()``, then the exit
    handlers (``atexit``: logging's flush, multiprocessing's joining of its children, the
    libraries' own) and ``os._exit`` with main's status. What is skipped is the
    interpreter's teardown of every loaded module, which with torch, scikit-learn and ranx
    loaded took 1.4-1.5 s after a whole run (0.2 s this way); the reports are written and
    closed before main returns, and the standard streams are flushed here."""
    import atexit
    code = main()
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        code = code or 141
    try:
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass
    run_exitfuncs = getattr(atexit, "_run_exitfuncs", None)
    if run_exitfuncs is None:   # not CPython: the ordinary exit
        sys.exit(code)
    run_exitfuncs()
    os._exit(code if isinstance(code, int) else 1)


if __name__ == "__main__":
    entry()
