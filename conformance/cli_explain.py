"""`metric-conformance explain`: which named convention reproduces a library's value,
proven on neighbouring inputs, or "a defect"."""
from __future__ import annotations

import json
from fractions import Fraction

from conformance.cli_common import EXIT_OK, UsageError, _case_from_args, _load_adapters


def cmd_explain(args) -> int:
    from oracle.compare import Tolerance
    from oracle.registry import get_metric
    from conformance.explain import explain, explanation
    if args.report:
        from conformance.reports.writers import read_jsonl
        try:
            _, records = read_jsonl(args.report)
        except (OSError, ValueError) as e:
            raise UsageError(f"--report {args.report}: {e}") from None
        out = []
        for r in records:
            if r.outcome not in ("fail", "error", "known-failure") or r.inputs is None:
                continue
            if not isinstance(r.library_value, (int, float, list, dict)) or isinstance(r.library_value, bool):
                out.append({"key": r.key, "explanation": r.explanation or r.message})
                continue
            m = get_metric(r.metric)
            settings = m.settings(r.conventions)
            found = explain(r.metric, settings, r.inputs, r.library_value, _tolerance_of(r), budget=args.budget)
            res = m.compute(r.inputs, settings)
            out.append({"key": r.key, "reproducing_knobs": found,
                        "explanation": explanation(found, r.library_value, res.value, res.stats),
                        "reproduce": r.reproduce})
        print(json.dumps(out, indent=2, ensure_ascii=False, default=str))
        return EXIT_OK
    case = _case_from_args(args)
    m = get_metric(case.metric)
    settings = m.settings(case.conventions)
    tol = Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))
    adapter = None
    if args.adapter:
        adapters, _, unavailable = _load_adapters([args.adapter])
        if not adapters:
            raise UsageError(f"--adapter {args.adapter}: {unavailable[0][1] if unavailable else 'unavailable'}")
        adapter = next(iter(adapters.values()))
        tol = adapter.tolerance(case.metric)
        # the library runs at the nearest setting it can take (its unit, its fixed knobs)
        run, _, why = adapter.nearest_setting(case.metric, settings)
        from conformance.protocol import Unsupported
        configured = adapter.configure(case.metric, run) if run is not None else Unsupported(why)
        if isinstance(configured, Unsupported):
            raise UsageError(f"--adapter {adapter.name}: {configured.reason}")
        settings = m.settings(run)
        value = adapter.run(configured, case.inputs).value
    elif args.value is not None:
        value = _parse_value(args.value)
    else:
        raise UsageError("give --value or --adapter")
    res = m.compute(case.inputs, settings)
    from oracle.exact import exact_json
    from conformance.explain import explain_leaves, prove, value_agrees
    out = {"metric": case.metric, "signature": m.signature(settings),
           "value": value if not isinstance(value, Fraction) else str(value), "exact": exact_json(res.value)}
    if value_agrees(value, res.value, tol):
        out.update(verdict="agrees", reproducing_knobs=[],
                   explanation=f"agrees: the value is the oracle's under these settings (tolerance {tol})")
        print(json.dumps(out, indent=2, ensure_ascii=False, default=str))
        return EXIT_OK
    found = explain(case.metric, settings, case.inputs, value, tol, budget=args.budget)
    if adapter is not None:
        proven, rejected, tested = prove(adapter, case.metric, settings, case.inputs, found, tol)
        out.update(verdict="explained" if proven else "defect", candidates=found, reproducing_knobs=proven,
                   neighbours_tested=tested, rejected=rejected,
                   explanation=explanation(proven, value, res.value, res.stats, rejected, tested))
    else:
        out.update(verdict="candidates" if found else "defect", reproducing_knobs=found, proven=False,
                   explanation=explanation(found, value, res.value, res.stats).replace(
                       "explained by", "reproduced on this input by", 1))
        if found:
            out["note"] = ("a candidate found on one input may be a coincidence: give --adapter to test each on "
                           "neighbouring inputs; the inputs below tell the candidates apart")
            out["separating_inputs"] = _separating(case.metric, settings, found)
    if not found and isinstance(value, (list, dict)):
        out["leaves"] = explain_leaves(case.metric, settings, case.inputs, value, tol)
    print(json.dumps(out, indent=2, ensure_ascii=False, default=str))
    return EXIT_OK


def _parse_value(text: str):
    """--value: a JSON number or structure, or an exact rational such as 3/10."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        try:
            return Fraction(text.strip())
        except (ValueError, ZeroDivisionError):
            raise UsageError(f"--value {text!r}: not a number (0.3, 3/10) or a JSON structure of numbers") from None
    if isinstance(value, bool) or not isinstance(value, (int, float, list, dict)):
        raise UsageError(f"--value {text!r}: not a number or JSON structure of numbers")
    return value


def _separating(metric: str, settings: dict, found: list) -> list:
    """For each pair of candidates (and each candidate against the settings as given), a
    minimal input on which they give different exact values."""
    from oracle.registry import get_metric
    from conformance.engine.divergence import separating_input
    from conformance.explain import ARITHMETIC
    m = get_metric(metric)
    base = m.settings(settings)
    sets = [(f, {**base, **{k: v for k, v in f.items() if k != ARITHMETIC}}) for f in found[:4]]
    out = []
    for i, (fa, a) in enumerate(sets):
        for fb, b in sets[i + 1:]:
            if a != b:
                x = separating_input(metric, a, b, 20, strategy_settings=base)
                if x is not None:
                    out.append({"between": [fa, fb], "input": x})
    return out


def _tolerance_of(record):
    from oracle.compare import Tolerance
    return Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))
