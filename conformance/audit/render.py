"""The audit's console and JSON output, and its command (``metric-conformance audit``)."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from oracle.conventions import Refused
from oracle.exact import CertificationError

from conformance.audit.claims import parse_claim, read_claims
from conformance.audit.judge import VERDICTS, Audit, _frac, audit_claims
from conformance.audit.signatures import ClaimError

# ------------------------------------------------------------------ rendering

def _summary(audit_: Audit, idle=()) -> str:
    """Per knob that matters here, the values among the reproducing settings."""
    rep = audit_.reproducing
    if not rep:
        return ""
    parts = []
    for k in audit_.searched:
        if k in idle:
            continue
        vals = sorted({r.settings[k] for r in rep})
        parts.append(f"{k}={'|'.join(vals)}")
    return ", ".join(parts)


def no_effect(a: Audit) -> list[str]:
    """The searched knobs that change no setting's figure on this data: for every two
    settings that differ in that knob only, the certified digits are the same."""
    out = []
    for k in a.searched:
        seen: dict = {}
        idle = True
        for r in a.rows:
            key = tuple(sorted((kk, v) for kk, v in r.settings.items() if kk != k))
            d = seen.setdefault(key, r.digits)
            if d != r.digits:
                idle = False
                break
        if idle:
            out.append(k)
    return out


def answer_groups(a: Audit, idle) -> list[tuple[str, list]]:
    """The reproducing settings grouped by value: [(digits, [knob changes, fewest first])],
    the group with the fewest changes from the stated setting first; knobs in ``idle``
    (no effect here) are left out, and settings that then coincide are listed once."""
    groups: dict = {}
    for r in a.reproducing:
        diff = tuple(sorted((k, v) for k, v in r.differs.items() if k not in idle))
        groups.setdefault(r.digits, set()).add(diff)
    ordered = [(d, sorted(diffs, key=lambda x: (len(x), x))) for d, diffs in groups.items()]
    return sorted(ordered, key=lambda g: (len(g[1][0]), g[0]))


def _decimal(q: Fraction) -> str:
    from oracle.certified import digits
    return digits(q, 3)


def render(audits: list, show: int = 8, all_rows: bool = False) -> str:
    """A readable report: per claim the verdict, the stated value, the reproducing settings
    and the nearest ones that do not reproduce."""
    lines = []
    for a in audits:
        c = a.claim
        sr = a.stated_row
        what = f"{c.metric}" + (f" part {c.part}" if c.part else "")
        scale = "percent" if c.scale == 100 else "fraction"
        lines.append(f"{c.where + ': ' if c.where else ''}{c.figure.name} {c.figure.text}  [{what}, {scale}, "
                     f"+-{_frac(c.figure.half_unit)}]  {c.source}")
        lines.append(f"  verdict: {a.verdict.upper()}")
        lines.append(f"  stated:  {a.signature}")
        lines.append(f"           value {sr.digits}" + (f" ({sr.value.message})" if isinstance(sr.value, Refused) else "")
                     + ("  reproduces" if sr.reproduces else "  does not reproduce"))
        rep = a.reproducing
        lines.append(f"  {len(a.rows)} settings searched over {', '.join(a.searched) or 'no knob'}; "
                     f"{len(rep)} reproduce ({a.seconds:.2f} s)")
        for note in a.notes:
            lines.append(f"  {note}")
        if a.releases:
            from conformance.audit.releases import render_lines
            lines.append("  the release the claim names:")
            lines.extend(render_lines(a.releases))
        idle = no_effect(a)
        if idle:
            lines.append(f"  no effect here (any value gives the same figure): {', '.join(idle)}")
        if rep and (len(rep) > 1 or not sr.reproduces):
            lines.append(f"  values of the knobs among the reproducing settings: {_summary(a, idle)}")
        if all_rows:
            lines.append("  every other setting:")
            for r in a.rows[1:]:
                diff = " ".join(f"{k}={v}" for k, v in r.differs.items()) or "(same as stated)"
                lines.append(f"    {'ok ' if r.reproduces else '   '} {r.digits:>14}  {diff}")
        elif rep and a.verdict != VERDICTS[0]:
            groups = answer_groups(a, idle)
            lines.append("  reproducing settings, fewest changes from the stated ones first"
                         + (" (knobs with no effect left out)" if idle else "") + ":")
            for digits_, diffs in groups[:show]:
                for diff in diffs[:3]:
                    lines.append(f"    ok  {digits_:>14}  {' '.join(f'{k}={v}' for k, v in diff) or '(same as stated)'}")
                if len(diffs) > 3:
                    lines.append(f"    ... and {len(diffs) - 3} more settings with this value")
            if len(groups) > show:
                lines.append(f"    ... {len(groups) - show} more values (--json or --all lists them)")
        elif not rep:
            def dist(r):
                try:
                    return abs(Fraction(r.digits) - c.figure.number)
                except (ValueError, ZeroDivisionError):
                    return Fraction(10 ** 9)
            lines.append("  nearest settings (distance to the printed figure):")
            for r in sorted(a.rows, key=dist)[:show]:
                d = dist(r)
                far = "?" if d == Fraction(10 ** 9) else _decimal(d)
                diff = " ".join(f"{k}={v}" for k, v in r.differs.items()) or "(the stated setting)"
                lines.append(f"        {r.digits:>14}  off by {far:<10}  {diff}")
        lines.append("")
    counts = {v: sum(1 for a in audits if a.verdict == v) for v in VERDICTS}
    lines.append(f"{len(audits)} claim(s): " + ", ".join(f"{n} {v}" for v, n in counts.items()))
    return "\n".join(lines)


def main(args) -> int:
    """``metric-conformance audit``: exit 0 when every claim is consistent, 1 when some
    claim is not (reproduced only under undeclared settings, or not at all), 2 for bad input."""
    claims = []
    if args.claim:
        claims.append(parse_claim(list(args.claim), Path.cwd(), "command line"))
    for path in args.claims or []:
        claims.extend(read_claims(path))
    if not claims:
        raise ClaimError("give a claim (e.g. 'BLEU 27.3' hyp=h.txt ref=r.txt) or --claims FILE")
    try:
        audits = audit_claims(claims)
    except CertificationError as e:
        raise ClaimError(str(e)) from None
    if args.json:
        for a in audits:
            print(json.dumps(a.to_json(), ensure_ascii=False))
    else:
        print(render(audits, all_rows=args.all))
    return 0 if all(a.verdict == VERDICTS[0] for a in audits) else 1
