"""The canonical-values table (``docs/canonical.md``): every knob of every metric, its
canonical value and the publication or canonical tool that defines it, or, where the
sources leave the choice open, why it is ``unspecified``; and which libraries take another
value by default (their adapters' profiles, at the newest release each adapter maps).

The table is drawn from the knob declarations (``oracle``) and the adapters' profiles
alone: ``python -m conformance.reports.canonical --write`` writes it again, and
``tests/test_canonical_table.py`` fails when it is out of date.
"""
from __future__ import annotations

import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "canonical.md"
NEWEST = "9999"   # a release past every adapter's eras: the profile of its newest mapped release

INTRO = """# Canonical values and their sources

Every convention knob of every metric, its canonical value, and where that value is
defined: a publication or a canonical tool (trec_eval, mteval-v13a.pl, conlleval.pl,
NIST sclite, the official SQuAD and VQA scripts, coco-caption, gdeval.pl, chrF++.py),
never a library under judgement. Where the sources leave the choice open, the knob is
**unspecified**: the value in the table is only the oracle's representative (what it
computes when no setting is asked), any choice conforms, and a run reports the value
every library takes, with an input on which it matters (an `UNSPECIFIED` divergence).
A value the definition leaves without a number (a 0/0) is canonically `undefined`; a
library's 0, 1 or NaN there is a representation of its own, reported as a divergence.

The last column lists the adapters whose profile (the library's defaults, at the newest
release the adapter maps) takes another value, and for which metrics (an adapter whose
metrics are only known once its library's modules are at hand, such as `evaluate`, is
not listed). Written by
`python -m conformance.reports.canonical --write` from the knob declarations
(`oracle/`) and the adapters' profiles (`adapters/`).
"""


def _profiles() -> dict:
    """{(metric, knob): {adapter: value}} for the adapters whose profile differs."""
    from conformance.resolve import adapter_names, load_adapter
    from oracle.registry import get_metric
    out: dict = {}
    for name in adapter_names(include_third_party=False):
        try:
            a = load_adapter(name)
        except Exception:   # an adapter that cannot even be imported has no profile to show
            continue
        for metric in a.capabilities:
            try:
                m = get_metric(metric)
                prof = m.settings(a.profile_overrides(metric, NEWEST))
            except Exception:
                continue
            canon = m.settings({})
            for k in m.knobs:
                if prof[k.name] != canon[k.name]:
                    out.setdefault((metric, k.name), {})[name] = prof[k.name]
    return out


def rows() -> list[dict]:
    """One row per (family, knob, canonical value, source, openness), its metrics merged."""
    from oracle.registry import get_metric, metric_names
    differ = _profiles()
    merged: dict = {}
    for metric in metric_names():
        m = get_metric(metric)
        for k in m.knobs:
            default = str(k.default)
            source = k.sources.get(default) or k.sources.get("*") or ""
            key = (m.family, k.name, default, source, k.unspecified)
            row = merged.setdefault(key, {"family": m.family, "knob": k.name, "canonical": default,
                                          "source": source, "unspecified": k.unspecified, "metrics": [],
                                          "differ": {}})
            row["metrics"].append(metric)
            for adapter, value in differ.get((metric, k.name), {}).items():
                row["differ"].setdefault((adapter, value), []).append(metric)
    return sorted(merged.values(), key=lambda r: (r["family"], r["knob"], r["canonical"]))


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _differ(row: dict) -> str:
    parts = []
    for (adapter, value), metrics in sorted(row["differ"].items()):
        where = "" if sorted(metrics) == sorted(row["metrics"]) else f" ({', '.join(sorted(metrics))})"
        parts.append(f"{adapter}: `{value}`{where}")
    return "; ".join(parts) or "-"


def render() -> str:
    lines = [INTRO, "| family | knob | canonical value | metrics | source | libraries that differ |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows():
        value = f"unspecified (representative `{r['canonical']}`)" if r["unspecified"] else f"`{r['canonical']}`"
        source = r["source"] + (f" **Unspecified:** {r['unspecified']}" if r["unspecified"] else "")
        metrics = ", ".join(r["metrics"]) if len(r["metrics"]) <= 4 else \
            f"{len(r['metrics'])} metrics ({', '.join(r['metrics'][:3])}, ...)"
        lines.append("| " + " | ".join(_cell(c) for c in (r["family"], r["knob"], value, metrics, source or "-",
                                                           _differ(r))) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--write" in argv:
        DOC.write_text(text, encoding="utf-8")
        print(f"wrote {DOC}")
        return 0
    if DOC.exists() and DOC.read_text(encoding="utf-8") == text:
        return 0
    print("docs/canonical.md is out of date: python -m conformance.reports.canonical --write")
    return 1


if __name__ == "__main__":
    sys.exit(main())
