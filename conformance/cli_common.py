"""What the commands share: exit codes, usage errors, adapter loading, path checks, and
reading a case from the command line."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from conformance.reports.paths import STDOUT
from conformance.reports.records import decode_values


EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def bounded_int(low: int, high: int | None = None):
    """An argparse type: an integer from ``low`` to ``high``, else argparse's one-line
    usage error naming the option (never a traceback from deep in the run)."""
    import argparse

    def read(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if n < low or (high is not None and n > high):
            raise argparse.ArgumentTypeError(f"{n} is outside {low} to {high}" if high is not None
                                             else f"{n} is below {low}")
        return n
    read.__name__ = "integer"
    return read


def _progress_printer(stream):
    tty = stream.isatty()

    def show(msg: str):
        if tty:
            stream.write("\r\033[K" + msg[:200])
        else:
            stream.write(msg + "\n")
        stream.flush()
    return show


def _load_adapters(names: list[str] | None):
    if not names:
        from conformance.resolve import builtin_adapters
        available, unavailable = builtin_adapters()
        available = {a.name: a for a in available}
        return available, {n: n for n in available}, unavailable
    out, specs, unavailable = {}, {}, []
    for n in names:
        try:
            from conformance.resolve import resolve_adapter
            a = resolve_adapter(n)
        except (ImportError, AttributeError, ValueError, KeyError, TypeError) as e:
            raise UsageError(f"--adapter {n}: {e.args[0] if isinstance(e, KeyError) and e.args else e}") from None
        ok, why = a.available()
        if not ok:
            unavailable.append((a.name, why))
            continue
        out[a.name] = a
        specs[a.name] = n
    return out, specs, unavailable


_OUR_PACKAGES = ("conformance", "oracle", "adapters")


def _known_dir(args):
    from conformance.casefiles.known import set_directory
    d = getattr(args, "known_dir", None)
    if d:
        first = Path(d).parts[0] if not Path(d).is_absolute() and Path(d).parts else ""
        if first in _OUR_PACKAGES and not Path(first).is_dir():
            # a new ./conformance/ folder would be imported instead of this package whenever the
            # working directory is on the import path (PYTHONPATH=., python -m)
            raise UsageError(f"--known-dir {d}: it would create a folder {first!r} in the working directory, "
                             f"which shadows the package {first!r} on the import path; choose another name "
                             "(e.g. known-failures/)")
        set_directory(d)


def _check_paths(args) -> None:
    """Every output path and input file of a run, before it starts."""
    from conformance.reports.paths import check_input, check_output
    try:
        html = getattr(args, "html", None)
        for flag, path in (("--report", args.report), ("--markdown", args.markdown), ("--junit", args.junit),
                           ("--html", html)):
            check_output(path, flag)
        # the files written beside them: the Markdown's long lines, and each report's
        # .incomplete form when a run is stopped
        for flag, path in (("--report", args.report), ("--markdown", args.markdown), ("--junit", args.junit),
                           ("--html", html)):
            if path and str(path) != STDOUT:
                check_output(f"{path}.incomplete", f"{flag} (its stopped-run file)")
        if args.markdown and str(args.markdown) != STDOUT:
            check_output(f"{args.markdown}.long.json", "--markdown (its long-lines file)")
        outs = [str(p) for p in (args.report, args.markdown, args.junit, html) if p and str(p) != STDOUT]
        if len(set(outs)) < len(outs):
            raise ValueError("--report, --markdown, --junit and --html name the same file")
        if args.track:
            check_input(args.track, "--track")
            from conformance.reports.writers import read_jsonl
            try:   # a report that does not read is refused now, not after the run
                read_jsonl(args.track)
            except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as e:
                raise ValueError(f"--track {e}" if isinstance(e, ValueError) else
                                 f"--track {args.track}: not a report of this tool ({type(e).__name__}: {e})") from None
        for path in args.cases or []:
            check_input(path, "--cases")
    except ValueError as e:
        raise UsageError(str(e)) from None


def _case_from_args(args):
    from conformance.casefiles.cases import load_case_json, load_cases, case_files, Case
    if args.case:
        ref = args.case
        if "#" in ref:
            fname, cid = ref.split("#", 1)
            if cid.startswith("bad-input."):   # a row of golden/bad_input/<family>.json
                from conformance.casefiles.bad_input import find_case
                case = find_case(ref)
                if case is None:
                    raise UsageError(f"{ref}: no bad-input example with id {cid}")
                return case
            path = Path(fname)
            candidates = [path] if path.exists() else [p for p in case_files() if p.name == path.name]
            if not candidates:
                raise UsageError(f"{fname}: no such case file")
            for c in load_cases(candidates):
                if c.id == cid:
                    return c
            raise UsageError(f"{ref}: no case with id {cid}")
        p = Path(ref)
        if not p.exists():
            raise UsageError(f"{ref}: no such file")
        return load_case_json(p)
    if not args.metric or args.inputs is None:
        raise UsageError("give CASE.json (or FILE#ID), or --metric with --inputs")
    try:
        # the forms reports write for values JSON has no literal for ({"$float": "nan"},
        # {"$decimal": ...}, {"$repeat": [x, n]}), so that a report's reproduce command reproduces
        inputs = decode_values(_json_or_file(args.inputs, "--inputs"))
        conventions = _json_or_file(args.conventions, "--conventions") if args.conventions else {}
    except RecursionError:
        raise UsageError("--inputs/--conventions: JSON nested too deeply") from None
    except (ValueError, ArithmeticError) as e:
        raise UsageError(f"--inputs: {e}") from None
    return Case("adhoc", "", {}, [], args.metric, conventions, inputs, {}, "command line")


def _json_or_file(text: str, flag: str):
    """JSON given inline, or the JSON file it names (``FILE.json`` or ``@FILE``; a UTF-8
    byte-order mark is stripped), with the file and position of a syntax error."""
    path = Path(text[1:] if text.startswith("@") else text)
    if text.startswith("@") or (not text.lstrip().startswith(("{", "[")) and path.is_file()):
        from conformance.reports.paths import check_input
        try:
            check_input(str(path), flag)
            raw = path.read_text(encoding="utf-8-sig")
        except ValueError as e:   # check_input's message names the flag and the path
            raise UsageError(str(e)) from None
        except OSError as e:
            raise UsageError(f"{flag} {path}: {e.strerror}") from None
        try:
            return json.loads(raw)
        except json.JSONDecodeError as e:
            raise UsageError(f"{flag} {path}: not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{flag}: not JSON: {e} (give JSON, or a JSON file's path)") from None


def _renamed_values_as_notices(command: str) -> None:
    """A knob value under its old name (``oracle.conventions.RenamedValueWarning``) is one
    line on standard error, once per value: 'metric-conformance run: notice: ...'."""
    import warnings
    from oracle.conventions import RenamedValueWarning
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, RenamedValueWarning):
            print(f"metric-conformance {command}: notice: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)
    warnings.showwarning = show
    warnings.filterwarnings("once", category=RenamedValueWarning)
