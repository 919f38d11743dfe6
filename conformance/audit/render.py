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

def _summary(audit_: Audit) -> str:
    """Per knob, the values among the reproducing settings (when they are not all the stated one)."""
    rep = audit_.reproducing
    if not rep:
        return ""
    parts = []
    for k in audit_.searched:
        vals = sorted({r.settings[k] for r in rep})
        parts.append(f"{k}={'|'.join(vals)}")
    return ", ".join(parts)


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
        if rep and (len(rep) > 1 or not sr.reproduces):
            lines.append(f"  values of the knobs among the reproducing settings: {_summary(a)}")
        if all_rows:
            shown, title = a.rows[1:], "every other setting:"
        elif a.verdict == VERDICTS[0]:
            shown, title = [], ""
        elif rep:
            shown, title = rep[:show], "reproducing settings (knobs that differ from the stated ones):"
        else:
            def dist(r):
                try:
                    return abs(Fraction(r.digits) - c.figure.number)
                except (ValueError, ZeroDivisionError):
                    return Fraction(10 ** 9)
            shown, title = sorted(a.rows[1:], key=dist)[:show], "nearest settings:"
        if shown:
            lines.append(f"  {title}")
        for r in shown:
            diff = " ".join(f"{k}={v}" for k, v in r.differs.items()) or "(same as stated)"
            mark = "ok " if r.reproduces else "   "
            lines.append(f"    {mark} {r.digits:>14}  {diff}")
        if not all_rows and rep and a.verdict != VERDICTS[0] and len(rep) > len(shown):
            lines.append(f"    ... {len(rep) - len(shown)} more reproducing settings (--json or --all lists them)")
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
