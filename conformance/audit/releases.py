"""Audits that name a release: the figure under that release's profile (its eras), and
the recorded defects of that release that would reproduce it.

A claim states a release with ``sacrebleu=1.4.14`` (any adapter's name) or the
``version:`` field of a sacrebleu signature. The release's profile is data (the
adapter's ``eras``), read for any release. A defect is judged by its classifier and
model, which read the library's own code: they run in the release's environment, this
interpreter when the release is the installed one, else the cached environment that
``metric-conformance versions`` makes (``conformance.venvs``); without one the audit
says how to make it.
"""
from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass
class ReleaseCheck:
    adapter: str
    version: str
    signature: str = ""
    digits: str = ""
    reproduces: bool | None = None
    eras: list = field(default_factory=list)        # [(knob, value, source)] that hold for the release
    defects: list = field(default_factory=list)     # [{"id", "title", "digits", "reproduces"}]
    notes: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"adapter": self.adapter, "version": self.version, "signature": self.signature,
                "digits": self.digits, "reproduces": self.reproduces,
                "eras": [{"knob": k, "value": v, "source": s} for k, v, s in self.eras],
                "defects": self.defects, "notes": self.notes}


def check_releases(claim, judge) -> list[ReleaseCheck]:
    """One check per release the claim names; ``judge(value) -> (reproduces, digits)``."""
    return [_check(claim, name, version, judge) for name, version in claim.releases.items()]


def _check(claim, name: str, version: str, judge) -> ReleaseCheck:
    from conformance.resolve import load_adapter
    from conformance.versions import in_range
    from oracle.conventions import ConventionError, InputError
    from oracle.many import compute_settings
    from oracle.registry import get_metric
    rc = ReleaseCheck(name, version)
    try:
        a = load_adapter(name)
    except Exception as e:   # noqa: BLE001 - a missing adapter is a note, not a crash
        rc.notes.append(f"no adapter {name!r} ({type(e).__name__}: {e})")
        return rc
    if claim.metric not in a.capabilities and claim.metric not in getattr(a, "profiles", {}):
        rc.notes.append(f"{name} does not implement {claim.metric}")
        return rc
    if a.versions and not in_range(version, a.versions):
        rc.notes.append(f"{name} {version} is outside the adapter's range ({a.library}{a.versions}): "
                        "its profile there is not recorded")
        return rc
    m = get_metric(claim.metric)
    over = a.profile_overrides(claim.metric, version)
    scale = {"scale": "fraction"} if claim.metric in ("bleu", "sentence_bleu") else {}
    try:
        settings = m.settings({**over, **claim.stated, **claim.fixed, **scale})
    except ConventionError as e:
        rc.notes.append(f"the claim's conventions do not go with {name} {version}'s profile: {e}")
        return rc
    installed = m.settings({**a.profile_overrides(claim.metric), **claim.stated, **claim.fixed, **scale})
    for era in a._eras_here(version):
        for k, v in {**era.profiles.get("*", {}), **era.profiles.get(claim.metric, {})}.items():
            if k in settings and k not in claim.stated and k not in claim.fixed:
                rc.eras.append((k, v, era.sources.get(k, "") + f" (releases {a.library}{era.versions})"))
    rc.signature = m.signature(settings)
    value = compute_settings(claim.metric, claim.inputs, [settings], claim.part)[0]
    rc.reproduces, rc.digits = judge(value)
    if settings != installed and rc.eras:
        rc.notes.append(f"{name}'s installed release ({a.version()}) has another profile: {m.signature(installed)}")
    try:
        found = _defects(a, name, version, claim.metric, settings, claim.inputs)
    except _NotChecked as e:
        rc.notes.append(str(e))
        return rc
    from oracle.parse import parse_exact
    for d in found:
        text = d["predicted"]
        if text.startswith("raised"):
            rc.defects.append({**d, "digits": text, "reproduces": False})
            continue
        try:
            v = Fraction(float(text)) if _is_float(text) else parse_exact(text)
            ok, digits = judge(v)
        except (ValueError, TypeError, InputError, ConventionError, ArithmeticError):
            continue
        rc.defects.append({**d, "digits": digits, "reproduces": ok})
    return rc


def _is_float(text: str) -> bool:
    return any(c in text for c in ".eE") and not any(c in text for c in "*/()") or text in ("nan", "inf", "-inf")


class _NotChecked(Exception):
    pass


def _defects(adapter, name: str, version: str, metric: str, settings: dict, inputs) -> list[dict]:
    """The recorded defects of ``version`` that apply here, with their predictions, read
    in the release's own environment."""
    from conformance.versions import parse_version
    installed = adapter.version()
    if parse_version(installed) is not None and parse_version(installed) == parse_version(version):
        from conformance.audit.release_defects import applying
        return applying(adapter, metric, settings, inputs)
    from conformance.venvs import env_for
    env = env_for(adapter.library, version)
    if not env.ready:
        raise _NotChecked(f"{name} {version}'s recorded defects were not checked on these inputs: it is not "
                          f"installed here (make its environment with `metric-conformance versions --adapter "
                          f"{name} --versions {version}`, then audit again)")
    req = json.dumps({"adapter": name, "metric": metric, "settings": dict(settings), "inputs": inputs})
    try:
        proc = subprocess.run([str(env.python), "-m", "conformance.audit.release_defects"], input=req,
                              capture_output=True, text=True, timeout=600)
        out = json.loads(proc.stdout or "{}")
    except (subprocess.TimeoutExpired, OSError, ValueError) as e:
        raise _NotChecked(f"{name} {version}'s recorded defects could not be checked ({type(e).__name__})") from None
    if "error" in out or proc.returncode != 0:
        raise _NotChecked(f"{name} {version}'s recorded defects could not be checked: "
                          f"{out.get('error') or proc.stderr.strip()[-300:]}")
    return out.get("defects", [])


def render_lines(checks: list[ReleaseCheck]) -> list[str]:
    lines = []
    for rc in checks:
        head = f"  {rc.adapter} {rc.version}:"
        if rc.signature:
            lines.append(f"{head} its profile gives {rc.digits} "
                         f"({'reproduces' if rc.reproduces else 'does not reproduce'})  {rc.signature}")
            for k, v, src in rc.eras:
                lines.append(f"      {k}={v} in that release: {src}")
        else:
            lines.append(head)
        for d in rc.defects:
            verdict = "reproduces the figure" if d["reproduces"] else "does not reproduce it"
            only = " (only under this defect)" if d["reproduces"] and not rc.reproduces else ""
            lines.append(f"      recorded defect {d['id']} ({d['title']}) applies here: the library gives "
                         f"{d['digits']}, which {verdict}{only}")
        for n in rc.notes:
            lines.append(f"      {n}")
    return lines
