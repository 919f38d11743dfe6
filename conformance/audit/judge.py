"""The audit of one claim: the exact value under every searched setting
(``oracle.many.compute_settings``), compared with the printed figure at its
printed precision on certified bounds, and the verdict."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from oracle.certified import TermMean, interval, round_fraction_places
from oracle.conventions import InputError, Refused
from oracle.exact import Admissible, CertificationError, Rat, Undefined, exact_str, is_structured, product
from oracle.many import compute_settings
from oracle.registry import get_metric

from conformance.audit.claims import Claim
from conformance.audit.signatures import ClaimError
from conformance.audit.space import SENTENCE_MEAN_CC_LIMIT, SPACES, knob_space

VERDICTS = ("consistent", "consistent only under undeclared settings", "inconsistent")

# ------------------------------------------------------------------ comparison

# smoothings whose sentence-level values are closed forms with logarithms or long sums
_SLOW_SMOOTHING = ("cc4", "cc5", "cc6", "cc7", "nltk4", "nltk5", "nltk7")

def _scaled(x, scale: int):
    if scale == 1:
        return x
    if type(x) is Fraction:
        return x * scale
    if isinstance(x, TermMean):
        return x.scaled(scale)
    return product([Fraction(scale), x])


def _judge_scalar(x, printed: Fraction, half: Fraction, nplaces: int) -> tuple[bool, str]:
    """(|x - printed| <= half, x to nplaces certified decimal places), from one sequence of
    rational bounds refined until both are decided."""
    if type(x) is Fraction or isinstance(x, int) or isinstance(x, Rat):
        q = x.q if isinstance(x, Rat) else Fraction(x)
        return abs(q - printed) <= half, round_fraction_places(q, nplaces)
    ok, text = None, None
    bits = 64
    while bits <= 1 << 14:
        lo, hi = interval(x, bits)
        if ok is None:
            if lo >= printed - half and hi <= printed + half:
                ok = True
            elif hi < printed - half or lo > printed + half:
                ok = False
        if text is None:
            a, b = round_fraction_places(lo, nplaces), round_fraction_places(hi, nplaces)
            if a == b:
                text = a
        if ok is not None and text is not None:
            return ok, text
        bits *= 4
    raise CertificationError(f"cannot certify {exact_str(x)[:80]} against {printed} +- {half}")


def _judge(v, claim, nplaces: int) -> tuple[bool, str]:
    if isinstance(v, Refused):
        return False, "error"
    if isinstance(v, Undefined):
        return False, "undefined"
    if is_structured(v):
        return False, "structured"
    p, half = claim.figure.number, claim.figure.half_unit
    if isinstance(v, Admissible):
        judged = [_judge(x, claim, nplaces) for x in v.values]
        return any(ok for ok, _ in judged), "{" + ", ".join(t for _, t in judged) + "}"
    return _judge_scalar(_scaled(v, claim.scale), p, half, nplaces)


@dataclass
class Row:
    """One setting: its exact value, certified digits and whether it reproduces the figure."""

    settings: dict
    signature: str
    value: object
    digits: str
    reproduces: bool
    differs: dict = field(default_factory=dict)
    stated: bool = False

    def to_json(self) -> dict:
        d = {"signature": self.signature, "reproduces": self.reproduces, "digits": self.digits,
             "differs": self.differs}
        if isinstance(self.value, Refused):
            d["error"] = self.value.message
        elif isinstance(self.value, TermMean):
            d["form"] = f"mean of {self.value.n} closed forms (exact text omitted)"
        elif self.value is not None:
            text = exact_str(self.value) if not isinstance(self.value, Admissible) else str(self.value)
            if len(text) <= 2000:
                d["value"] = text
            if isinstance(self.value, Undefined):
                d["undefined"] = self.value.reason
        if self.stated:
            d["stated"] = True
        return d


@dataclass
class Audit:
    claim: Claim
    stated: dict
    signature: str
    rows: list
    verdict: str
    seconds: float
    searched: list
    notes: list = field(default_factory=list)
    releases: list = field(default_factory=list)   # ReleaseCheck per release the claim names

    @property
    def stated_row(self) -> Row:
        return self.rows[0]

    @property
    def reproducing(self) -> list:
        return [r for r in self.rows if r.reproduces]

    def to_json(self) -> dict:
        c = self.claim
        return {"claim": c.text, "where": c.where, "figure": c.figure.text, "metric": c.metric, "part": c.part,
                "printed": c.figure.text, "places": c.figure.places,
                "scale": "percent" if c.scale == 100 else "fraction",
                "tolerance": _frac(c.figure.half_unit), "inputs": c.source,
                "stated": self.stated, "stated_signature": self.signature,
                "stated_value": self.stated_row.to_json(), "verdict": self.verdict,
                "searched_knobs": self.searched, "settings": len(self.rows), "notes": self.notes,
                "reproducing": [r.to_json() for r in self.reproducing],
                "rows": [r.to_json() for r in self.rows], "seconds": round(self.seconds, 3),
                "releases": [rc.to_json() for rc in self.releases]}


def _frac(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def audit(claim: Claim) -> Audit:
    """Evaluate the claim under every setting of its metric's space and give the verdict."""
    t0 = time.perf_counter()
    m = get_metric(claim.metric)
    stated = m.settings({**claim.stated, **claim.fixed, **({"scale": "fraction"} if claim.metric in
                                                              ("bleu", "sentence_bleu") else {})})
    settings_list = knob_space(claim.metric, {**claim.stated, **({"scale": "fraction"} if claim.metric in
                                                                   ("bleu", "sentence_bleu") else {})}, claim.fixed)
    notes = list(getattr(claim, "notes", []))
    if claim.metric == "bleu" and isinstance(claim.inputs, dict) and \
            len(claim.inputs.get("hypotheses") or ()) > SENTENCE_MEAN_CC_LIMIT:
        keep = [i == 0 or not (s["level"] == "sentence-mean" and s["smoothing"] in _SLOW_SMOOTHING)
                for i, s in enumerate(settings_list)]
        if not all(keep):
            notes.append(f"not searched: level=sentence-mean with smoothing cc4-cc7, nltk4-nltk7 ({keep.count(False)} settings; "
                         f"searched only up to {SENTENCE_MEAN_CC_LIMIT} segments)")
            settings_list = [s for s, k in zip(settings_list, keep) if k]
    values = compute_settings(claim.metric, claim.inputs, settings_list, claim.part)
    first = values[0]
    if isinstance(first, Refused):
        table = {"entity_f1": ("f1", "F1"), "entity_precision": ("precision", "precision"),
                 "entity_recall": ("recall", "recall")}.get(claim.metric)
        hint = (f"; one type's figure is named {table[1]}[{claim.part}] (or part={table[0]}.{claim.part})"
                if table and claim.part and "." not in claim.part else "")
        raise InputError(f"{claim.where + ': ' if claim.where else ''}{claim.figure.text}: under the stated setting "
                         f"the oracle refuses the inputs: {first.message}{hint}")
    if is_structured(first):
        raise ClaimError(f"{claim.figure.text}: the value of {claim.metric} is a list or dict; name the printed "
                         f"entry with part=NAME")
    rows = []
    nplaces = claim.figure.places + 2
    memo: dict = {}
    for i, (s, v) in enumerate(zip(settings_list, values)):
        got = memo.get(id(v))
        if got is None:
            got = memo[id(v)] = _judge(v, claim, nplaces)
        differs = {k: s[k] for k in s if s[k] != stated.get(k)} if i else {}
        rows.append(Row(s, m.signature(s), v, got[1], got[0], differs, stated=(i == 0)))
    rows += _other_readings(claim, settings_list[0], stated, m, nplaces)
    if rows[0].reproduces:
        verdict = VERDICTS[0]
    elif any(r.reproduces for r in rows):
        verdict = VERDICTS[1]
    else:
        verdict = VERDICTS[2]
    searched = [k for k in SPACES.get(claim.metric, {}) if k not in claim.fixed]
    releases = []
    if getattr(claim, "releases", None):
        from conformance.audit.releases import check_releases
        releases = check_releases(claim, lambda v: _judge(v, claim, nplaces))
    return Audit(claim, stated, m.signature(stated), rows, verdict, time.perf_counter() - t0, searched, notes,
                 releases)


def _other_readings(claim, setting: dict, stated: dict, m, nplaces: int) -> list:
    """The stated setting on the claim's text files read each other way
    (``conformance.readings``), one row each, its difference named ``reading``; none
    when the claim states its reading, its inputs are not text files, or a reading
    gives the same segments."""
    if claim.reread is None or claim.reading_stated:
        return []
    from conformance.readings import READINGS
    rows = []
    for name in READINGS:
        if name == claim.reading:
            continue
        try:
            inputs = claim.reread(name)
        except InputError:   # this reading makes the files unequal in length, say
            continue
        if inputs == claim.inputs:
            continue
        v = compute_settings(claim.metric, inputs, [setting], claim.part)[0]
        ok, text = _judge(v, claim, nplaces)
        rows.append(Row(setting, f"{m.signature(stated)}|reading:{name}", v, text, ok, {"reading": name}))
    return rows


def audit_claims(claims: list) -> list:
    return [audit(c) for c in claims]
