"""Convention knobs, metric declarations and canonical signatures.

A knob is a named axis along which implementations of a metric differ
(tokenizer, smoothing, tie rule...). Each knob has choices (or a parametric
kind), a canonical default, a one-line meaning and the source of each choice.
A signature is the canonical text of a full setting, in the spirit of
sacrebleu's ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp``: every knob that
can change the value appears in it, in a fixed order, so two settings that
score some input differently never share a signature.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping

ORACLE_VERSION = "1"


class ConventionError(ValueError):
    """An unknown knob, or a value a knob does not take."""


class InputError(ValueError):
    """Bad metric input; the message names the offending item and position."""

    def __init__(self, message: str, *, item: str | None = None):
        super().__init__(message)
        self.item = item


# the values tried for a parametric knob by the explanation and divergence searches
PARAMETRIC_TRIES = {
    "int": ["1", "2", "3", "4", "5", "6"],
    "rational": ["1/10", "1", "1/100", "1/1000", "5", "1/2", "0"],
}


# Knobs that change how a value is written, not what it is (a fraction or a percent): never
# separated, converted.
PRESENTATION_KNOBS = frozenset({"scale"})


def candidate_values(knob) -> list[str]:
    """The values of ``knob`` a search tries: its choices, or its special values and
    ``PARAMETRIC_TRIES`` for a parametric knob."""
    if knob.kind == "enum":
        return list(knob.choices)
    return list(getattr(knob, "special", ())) + list(PARAMETRIC_TRIES.get(knob.kind, []))


class Refused:
    """A setting under which the oracle refused the inputs (``compute_settings``
    gives it in that setting's place); ``message`` says why."""

    def __init__(self, message: str):
        self.message = message

    def __repr__(self) -> str:
        return f"Refused({self.message!r})"


def nearest(word: str, candidates) -> str:
    """' (did you mean X?)' for a close candidate (compared without case: a similarity of
    at least 0.6 with the same first character and a length within 2, or of at least 0.8,
    so that '14a' suggests '13a' but 'chrF' does not suggest 'hr', 'TER' 'wer' nor
    'meteor' 'mer'), else ''."""
    cands = [str(c) for c in candidates]
    w = str(word).strip().lower()
    for c in cands:
        if c.lower() == w:
            return f" (did you mean {c!r}? names and values are case-sensitive)"
    lowered = {c.lower(): c for c in cands}
    for c in difflib.get_close_matches(w, list(lowered), n=3, cutoff=0.6):
        if (c[:1] == w[:1] and abs(len(c) - len(w)) <= 2) or difflib.SequenceMatcher(None, w, c).ratio() >= 0.8:
            return f" (did you mean {lowered[c]!r}?)"
    return ""


def parse_rational(text, what: str) -> Fraction:
    if isinstance(text, bool):
        raise ConventionError(f"{what}: {text!r} is not a number")
    if isinstance(text, float):
        raise ConventionError(f"{what}: {text!r} is a float; write it as an exact fraction string such as '1/10'")
    text = str(text).strip()
    from .magnitude import SETTING_EXPONENT, exponent_problem, longest_digit_run
    # a setting's value has a decimal exponent within +-SETTING_EXPONENT and a numerator and
    # denominator of at most SETTING_EXPONENT + 1 digits (so that its canonical 'p/q' reads back)
    limit = 10 ** (SETTING_EXPONENT + 1)
    q = None
    if len(text) <= 3 * SETTING_EXPONENT and not exponent_problem(text, SETTING_EXPONENT) \
            and longest_digit_run(text) <= 4300:  # Python reads at most 4,300 digits of an int
        try:
            if not text.isascii():   # Fraction() reads fullwidth and Arabic-Indic digits
                raise ValueError(text)
            q = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ConventionError(f"{what}: {text!r} is not a rational number (write '1/10', '3', '0.25')") from None
    if q is None or abs(q.numerator) >= limit or q.denominator >= limit:
        raise ConventionError(f"{what}: {text[:40]!r}{'...' if len(text) > 40 else ''} is out of range for a "
                              f"setting (a decimal exponent within +-{SETTING_EXPONENT}, a numerator and a "
                              f"denominator of at most {SETTING_EXPONENT + 1} digits)")
    return q


def frac_text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


@dataclass(frozen=True)
class Knob:
    """One convention axis of a metric.

    kind: 'enum' (value among ``choices``), 'int' (integer >= minimum),
    'rational' (a Fraction >= minimum), 'rationals' (comma-separated list).
    ``sources`` maps each choice (or '*' for parametric kinds) to the paper,
    tool or script that defines it. ``special`` lists words accepted verbatim
    besides the kind's values (e.g. '-' for "not used", 'uniform').
    """

    name: str
    meaning: str
    default: Any
    kind: str = "enum"
    choices: tuple = ()
    sources: Mapping[str, str] = field(default_factory=dict)
    minimum: Any = None
    key: str | None = None  # short name in signatures; defaults to name
    special: tuple = ()  # words accepted verbatim besides the kind's values ('-', 'uniform')
    # old names of renamed choices -> their names now: still read, with a one-line notice
    # (``RenamedValueWarning``), so that settings, reports and known-failure lists written
    # under the old name keep working
    renamed: Mapping[str, str] = field(default_factory=dict)
    # why the published sources leave this choice open ('' where one is canonical): the
    # default is then only the oracle's representative value, and every library's choice
    # is reported (a divergence of kind 'unspecified')
    unspecified: str = ""
    # the choice under which a value the definition leaves ambiguous is the set of the values
    # it admits (``Admissible``: tie='any'); the other choices are named tie rules
    admissible: str = ""

    @property
    def sig_key(self) -> str:
        return self.key or self.name

    def canonical(self, value, metric: str = "") -> str:
        """Validate ``value`` and return its canonical text."""
        where = f"{metric}.{self.name}" if metric else self.name
        if self.special and not isinstance(value, bool) and str(value).strip() in self.special:
            return str(value).strip()
        if self.kind == "enum":
            v = str(value).strip() if not isinstance(value, bool) else ("yes" if value else "no")
            if v not in self.choices:   # the field writes IOBES and iobes, BILOU and bilou: one value
                same = [c for c in self.choices if c.lower() == v.lower()]
                if len(same) == 1:
                    return same[0]
            if v not in self.choices and v in self.renamed:
                _renamed_notice(where, v, self.renamed[v])
                return self.renamed[v]
            if v not in self.choices:
                raise ConventionError(
                    f"{where}: {value!r} is not a choice; choices are {', '.join(self.choices)}"
                    + nearest(v, self.choices))
            return v
        if self.kind == "int":
            try:
                iv = int(str(value).strip())
            except ValueError:
                raise ConventionError(f"{where}: {value!r} is not an integer") from None
            if self.minimum is not None and iv < self.minimum:
                raise ConventionError(f"{where}: {iv} is below the minimum {self.minimum}")
            return str(iv)
        if self.kind == "rational":
            q = parse_rational(value, where)
            if self.minimum is not None and q < Fraction(self.minimum):
                raise ConventionError(f"{where}: {frac_text(q)} is below the minimum {self.minimum}")
            return frac_text(q)
        if self.kind == "rationals":
            items = value if isinstance(value, (list, tuple)) else str(value).split(",")
            if len(items) == 0 or items == [""]:
                raise ConventionError(f"{where}: an empty list")
            qs = [parse_rational(v, f"{where}[{i}]") for i, v in enumerate(items)]
            for i, q in enumerate(qs):
                if self.minimum is not None and q < Fraction(self.minimum):
                    raise ConventionError(f"{where}[{i}]: {frac_text(q)} is below the minimum {self.minimum}")
            return ",".join(frac_text(q) for q in qs)
        raise AssertionError(self.kind)

    def describe(self) -> dict:
        d = {"name": self.name, "meaning": self.meaning, "default": str(self.default), "kind": self.kind}
        if self.choices:
            d["choices"] = list(self.choices)
        if self.sources:
            d["sources"] = dict(self.sources)
        if self.minimum is not None:
            d["minimum"] = str(self.minimum)
        if self.special:
            d["special"] = list(self.special)
        if self.unspecified:
            d["unspecified"] = self.unspecified
        if self.renamed:
            d["renamed"] = dict(self.renamed)
        return d


class RenamedValueWarning(FutureWarning):
    """A knob value given under its old name (``Knob.renamed``): read as its new name."""


def _renamed_notice(where: str, old: str, new: str) -> None:
    import warnings
    warnings.warn(f"{where}={old} is now named {new}: read as {where.rsplit('.', 1)[-1]}={new}",
                  RenamedValueWarning, stacklevel=4)


_SETTINGS_CACHE: dict = {}


@dataclass(frozen=True)
class Metric:
    """A metric of the oracle: its knobs, input fields and exact computation.

    ``compute(inputs, settings)`` receives a canonical settings dict and returns
    a ``Result``; ``normalize(settings)`` may rewrite dependent knobs (e.g. a
    smoothing constant that only matters for some smoothing methods) before
    the signature is formed.
    """

    name: str
    family: str
    summary: str
    knobs: tuple
    inputs: Mapping[str, str]
    compute_fn: Callable
    normalize_fn: Callable | None = None
    sig_name: str | None = None
    # inert_fn(knob, a, b, settings) -> a reason, or None: by the definition, knob=a and knob=b
    # give the same value on every input when the other knobs are as in ``settings``
    inert_fn: Callable | None = None
    # how the value summarizes the per-query (per-item) values, for the metrics that have them:
    # "mean", "sum", "count" or "geometric" (oracle.trec_stream combines chunks of a run by it)
    aggregate: str = "mean"
    # canonical settings (as a tuple of items) -> signature; per metric object, pure
    _signatures: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def inert(self, knob: str, a: str, b: str, settings: Mapping) -> str | None:
        """Why knob=a and knob=b cannot differ under ``settings`` (by the definition), or None."""
        return self.inert_fn(knob, a, b, settings) if self.inert_fn else None

    def knob(self, name: str) -> Knob:
        for k in self.knobs:
            if k.name == name:
                return k
        raise ConventionError(f"{self.name}: unknown knob {name!r}; knobs are "
                              f"{', '.join(k.name for k in self.knobs)}" + nearest(name, [k.name for k in self.knobs]))

    def settings(self, conventions: Mapping | None = None) -> dict:
        """Canonical full setting: defaults overridden by ``conventions`` (memoized:
        canonicalization is pure, and sentence-level loops call it per segment)."""
        try:
            # the value's type is part of the key: True == 1 and 1.0 == 1, but only 1 is a valid k
            key = (self.name, tuple(sorted((k, type(v).__name__, v) for k, v in (conventions or {}).items())))
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in _SETTINGS_CACHE:
            return dict(_SETTINGS_CACHE[key])
        out = self._settings(conventions)
        if key is not None:
            if len(_SETTINGS_CACHE) >= 4096:   # bounded; a long loop's working set is refilled
                _SETTINGS_CACHE.clear()
            _SETTINGS_CACHE[key] = dict(out)
        return out

    def _settings(self, conventions: Mapping | None) -> dict:
        conventions = dict(conventions or {})
        out = {}
        for k in self.knobs:
            out[k.name] = k.canonical(k.default, self.name)
        for name, value in conventions.items():
            k = self.knob(name)
            out[name] = k.canonical(value, self.name)
        if self.normalize_fn:
            out = self.normalize_fn(out, set(conventions))
        return out

    def signature(self, conventions: Mapping | None = None) -> str:
        s = self.settings(conventions)
        parts = [f"{self.sig_name or self.name}"]
        for k in self.knobs:
            parts.append(f"{k.sig_key}:{s[k.name]}")
        parts.append(f"oracle:{ORACLE_VERSION}")
        return "|".join(parts)

    def _memo_signature(self, settings: dict) -> str:
        """``signature(settings)``, memoized on the settings (compute calls it once per call)."""
        try:
            key = tuple(settings.items())
            sig = self._signatures.get(key)
        except TypeError:  # an unhashable setting value
            return self.signature(settings)
        if sig is None:
            sig = self.signature(settings)
            if len(self._signatures) >= 4096:
                self._signatures.clear()
            self._signatures[key] = sig
        return sig

    def compute(self, inputs: Mapping, conventions: Mapping | None = None):
        s = self.settings(conventions)
        result = self.compute_fn(inputs, s)
        result.signature = self._memo_signature(s)
        result.metric = self.name
        result.settings = s
        return result

    def differing(self, a: Mapping, b: Mapping) -> dict:
        """Knobs whose canonical values differ between two settings: {name: (a, b)}."""
        sa, sb = self.settings(a), self.settings(b)
        return {k.name: (sa[k.name], sb[k.name]) for k in self.knobs if sa[k.name] != sb[k.name]}

    def describe(self) -> dict:
        return {"name": self.name, "family": self.family, "summary": self.summary,
                "inputs": dict(self.inputs), "knobs": [k.describe() for k in self.knobs],
                "default_signature": self.signature()}


@dataclass
class Result:
    """An oracle result: the exact value, its sufficient statistics, named parts
    (intermediate exact values such as BP or p_n), and the signature."""

    value: Any
    stats: dict = field(default_factory=dict)
    parts: dict = field(default_factory=dict)
    signature: str = ""
    metric: str = ""
    settings: dict = field(default_factory=dict)

    def to_json(self, n_digits: int = 30) -> dict:
        from .exact import Undefined, exact_str, Admissible, exact_json, is_structured
        from .certified import digits, digits_json
        if is_structured(self.value):
            out = {"metric": self.metric, "signature": self.signature, "value": exact_json(self.value),
                   "digits": digits_json(self.value, n_digits)}
            out["stats"] = _jsonable(self.stats)
            if self.parts:
                out["parts"] = _jsonable(self.parts)
            out["settings"] = dict(self.settings)
            return out
        out = {"metric": self.metric, "signature": self.signature, "value": exact_str(self.value)}
        if isinstance(self.value, Undefined):
            out["undefined"] = self.value.reason
        elif isinstance(self.value, Admissible):
            out["admissible"] = [exact_json(v) for v in self.value.values]
            out["by_rule"] = {k: exact_json(v) for k, v in self.value.by_rule.items()}
        else:
            out["digits"] = digits(self.value, n_digits)
        out["stats"] = _jsonable(self.stats)
        if self.parts:
            out["parts"] = {k: (exact_str(v) if not isinstance(v, (list, Mapping, str, bool)) else _jsonable(v))
                            for k, v in self.parts.items()}
        out["settings"] = dict(self.settings)
        return out


def _jsonable(x):
    from .exact import exact_str, Expr, Undefined
    if isinstance(x, Mapping):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, (Fraction, Expr, Undefined)):
        return exact_str(x)
    if isinstance(x, float):
        raise TypeError("floats never appear in oracle statistics")
    return str(x)
