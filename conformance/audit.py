"""Audit a published figure: which convention settings reproduce it, exactly.

A claim is a figure as printed (``BLEU 27.3``, ``WER 4.2%``, ``nDCG@10 .7140``)
with the files it was computed on and, optionally, the conventions it states.
The audit computes the metric exactly under every setting of the knobs that
matter for it (a bounded product, ``SPACES``), compares each value with the
printed number at its printed precision, and gives a verdict:

- ``consistent``: the stated setting (the claim's conventions over the
  metric's canonical defaults) reproduces the figure;
- ``consistent only under undeclared settings``: the stated setting does
  not, some other setting does (they are named, with the knobs that differ);
- ``inconsistent``: no searched setting does.

Reproduces: |v * s - p| <= 1/2 * 10**-d, where p is the printed number, d
its number of decimal places, s the scale (100 for a percent figure) and v
the exact value; decided on certified rational bounds of v (never on a
float), so the verdict is exact. A half-way value counts as reproducing
(the printing code may have rounded either way).

Claim line format (a claims file: one claim per line, ``#`` comments and
blank lines skipped; the same tokens on the command line):

    FIGURE [key=value ...]

FIGURE is a metric name and a number: ``BLEU 27.3``, ``WER 4.2%``,
``F1 = 91.2``, ``MRR@10: 0.372``, ``nDCG@10 .7140``. The name is an alias
(``ALIASES``: case, spaces, ``-`` and ``_`` ignored) that may carry a cutoff
(``@10``) or an order (``BLEU-2``). Values are shell-quoted (``shlex``). Keys:

| key | meaning |
| --- | --- |
| format | text, conll, trec, coco, vqa, squad, labels (``conformance.formats``), or case; guessed from the file keys when omitted |
| hyp, ref, conll, qrels, run, results, annotations, questions, dataset, predictions, truth, pred | the files (``ref`` repeatable, one per reference set); paths relative to the claims file |
| gold_col, pred_col, token_col | CoNLL columns (0-based, negative from the end) |
| case | a golden case ``FILE.json#ID``: its inputs, and its conventions as the stated ones |
| sacrebleu (or signature) | a sacrebleu signature ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0`` (or the 1.x ``BLEU+case.mixed+...`` form) |
| trec_eval | a trec_eval command line ``trec_eval -m ndcg_cut.10 -l 2 -c`` |
| part | the figure is this part of the result (``bp``, ``precision_avg``, ``class[0]``) instead of its value |
| scale | percent or fraction (otherwise: ``%`` means percent; a number above 1, above 10 for CIDEr, means percent; perplexity and DCG are never scaled) |
| metric | the oracle metric, when the alias is ambiguous |
| any knob of the metric | stated, e.g. ``tokenizer=intl``, ``k=10`` |

A line that starts with ``{`` is a JSON object with the same keys and
``"claim": "BLEU 27.3"`` (``ref`` may be a list; ``conventions`` an object of knobs).

Search and shared statistics. Each metric's space lists the knobs searched
and their choices; the stated value of each is searched too; knobs outside
the space keep their stated value; knobs fixed by the name (``@10``,
``BLEU-2``) are not varied. Settings that normalize to the same signature
are computed once. Where the inputs are large, the sufficient statistics
are shared across settings instead of recomputed: BLEU counts n-grams
(orders 1..N+1) once per (tokenizer, case) and derives every smoothing,
reference-length rule, effective order and level from them
(``oracle.bleu.bleu_from_stats``); the word and character error rates align
once per distinct token sequence pair; ranking measures prepare each run once,
build the per-query profiles once per (tie rule, threshold, gain mapping,
ideal), sum the per-query values per query category once, and combine the
categories for each query-set choice. A mean of thousands of closed forms
(sentence-level BLEU) is kept as a ``TermMean``, whose certified bounds come
from integer fixed-point arithmetic. Bounds: at most 20,000 settings per
claim; sentence-level BLEU under smoothing cc4-cc7 is searched up to
``SENTENCE_MEAN_CC_LIMIT`` segments (the audit notes what it left out).

Command: ``metric-conformance audit FIGURE key=value ...`` or ``--claims
FILE``; ``--json`` prints one object per claim with every setting. Exit 0
when every claim is consistent, 1 when one is not, 2 for a claim, file or
convention that cannot be read (a one-line message naming it).
"""
from __future__ import annotations

import itertools
import json
import math
import re
import shlex
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from oracle.conventions import ConventionError, InputError, nearest
from oracle.exact import (Admissible, CertificationError, Composite, Exp, Mul, Pow, Rat, Undefined, exact_str, exp,
                          interval, is_structured, power, product, round_fraction_places, total)
from oracle.registry import get_metric, metric_names

from .formats import FILE_KEYS, FORMAT_METRICS, FORMATS, OPTION_KEYS, guess_format, load_inputs

__all__ = ["Figure", "Claim", "Row", "Audit", "parse_figure", "resolve_metric", "parse_sacrebleu",
           "parse_trec_eval", "parse_claim", "read_claims", "audit", "audit_claims", "render", "SPACES",
           "ALIASES", "VERDICTS", "TermMean"]

VERDICTS = ("consistent", "consistent only under undeclared settings", "inconsistent")


class ClaimError(ConventionError):
    """A claim that cannot be read: no number, unknown metric, key or convention."""


# ------------------------------------------------------------------ figures

_FIGURE = re.compile(r"^(?P<name>.*?)\s*[:=]?\s*(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?P<pct>%)?$")


@dataclass(frozen=True)
class Figure:
    """A number as printed: its text, exact value and decimal places."""

    name: str
    text: str
    number: Fraction
    places: int
    percent_sign: bool

    @property
    def half_unit(self) -> Fraction:
        return Fraction(1, 2 * 10 ** self.places)


def parse_figure(text: str) -> Figure:
    """``'BLEU 27.3'`` -> Figure(name 'BLEU', number 273/10, 1 place)."""
    t = " ".join(str(text).split())
    m = _FIGURE.match(t)
    if not m or not m.group("name").strip():
        if not re.search(r"\d", t):
            raise ClaimError(f"figure {text!r}: no number (write e.g. 'BLEU 27.3')")
        raise ClaimError(f"figure {text!r}: expected a metric name then a number, e.g. 'BLEU 27.3', 'WER 4.2%'")
    num = m.group("num")
    digits_ = num.lstrip("+-")
    places_ = len(digits_.split(".")[1]) if "." in digits_ else 0
    return Figure(m.group("name").strip(), num + (m.group("pct") or ""), Fraction(num), places_, bool(m.group("pct")))


# ------------------------------------------------------------------ aliases

# normalized name -> candidate metrics, in order of preference; a format picks among them
ALIASES = {
    "bleu": ("bleu",), "sacrebleu": ("bleu",), "corpusbleu": ("bleu",), "sentencebleu": ("sentence_bleu",),
    "wer": ("wer",), "worderrorrate": ("wer",), "cer": ("cer",), "charactererrorrate": ("cer",),
    "mer": ("mer",), "wil": ("wil",), "wip": ("wip",), "errorcounts": ("error_counts",),
    "ndcg": ("ndcg",), "ndcgcut": ("ndcg",), "dcg": ("dcg",),
    "mrr": ("reciprocal_rank",), "rr": ("reciprocal_rank",), "reciprocalrank": ("reciprocal_rank",),
    "reciprocalrankmrr": ("reciprocal_rank",), "recip_rank": ("reciprocal_rank",),
    "p": ("precision_at_k",), "precisionatk": ("precision_at_k",),
    "map": ("average_precision",), "ap": ("average_precision",), "averageprecision": ("average_precision",),
    "rprec": ("r_precision",), "rprecision": ("r_precision",),
    "hit": ("hit_rate",), "hitrate": ("hit_rate",), "hr": ("hit_rate",), "success": ("hit_rate",),
    "r": ("recall_at_k", "cross_modal_recall_at_k"), "recallatk": ("recall_at_k", "cross_modal_recall_at_k"),
    "precision": ("precision_at_k", "entity_precision", "precision"),
    "recall": ("recall_at_k", "entity_recall", "recall", "cross_modal_recall_at_k"),
    "em": ("exact_match",), "exactmatch": ("exact_match",),
    "f1": ("squad_f1", "entity_f1", "f1"), "f": ("squad_f1", "entity_f1", "f1"),
    "entityf1": ("entity_f1",), "entityprecision": ("entity_precision",), "entityrecall": ("entity_recall",),
    "accuracy": ("accuracy", "token_accuracy", "vqa_accuracy"), "acc": ("accuracy", "token_accuracy", "vqa_accuracy"),
    "tokenaccuracy": ("token_accuracy",), "vqaaccuracy": ("vqa_accuracy",), "vqaacc": ("vqa_accuracy",),
    "balancedaccuracy": ("balanced_accuracy",), "perclassaccuracy": ("per_class_accuracy",),
    "cider": ("cider_d", "cider"), "ciderd": ("cider_d",),
    "perplexity": ("perplexity",), "ppl": ("perplexity",),
}
_RANKING_K = {"ndcg", "dcg", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "hit_rate",
              "cross_modal_recall_at_k"}


def _norm_name(name: str) -> str:
    return re.sub(r"[\s_\-.]", "", name.lower())


def resolve_metric(name: str, fmt: str | None = None, case_metric: str | None = None,
                   explicit: str | None = None) -> tuple[str, dict]:
    """(oracle metric, knobs fixed by the name) of a printed metric name."""
    raw = name.strip()
    fixed: dict = {}
    base = raw
    m = re.match(r"^(?P<base>.*?)\s*@\s*(?P<k>\d+)$", raw)
    if m:
        base, fixed["k"] = m.group("base"), m.group("k")
    order = None
    m2 = re.match(r"^(?P<base>(?:sacre|sentence[\s_-]?)?bleu)[\s_-]?(?P<n>\d)$", base, re.IGNORECASE)
    if m2:
        base, order = m2.group("base"), m2.group("n")
    key = _norm_name(base)
    if explicit:
        if explicit not in metric_names():
            raise ClaimError(f"metric={explicit}: unknown metric" + nearest(explicit, metric_names()))
        candidates = (explicit,)
    elif key in ALIASES:
        candidates = ALIASES[key]
    elif key.replace(" ", "_") in metric_names() or name in metric_names():
        candidates = (name if name in metric_names() else key,)
    else:
        raise ClaimError(f"figure {name!r}: unknown metric name" + nearest(key, list(ALIASES) + metric_names()))
    pick = None
    if case_metric is not None:
        pick = case_metric if case_metric in candidates else None
        if pick is None:
            raise ClaimError(f"figure {name!r}: names {', '.join(candidates)}, but the case computes {case_metric}")
    elif fmt is not None and fmt in FORMAT_METRICS:
        served = [c for c in candidates if c in FORMAT_METRICS[fmt]]
        if not served:
            raise ClaimError(f"figure {name!r}: {', '.join(candidates)} cannot be computed from {fmt} files "
                             f"(they serve {', '.join(FORMAT_METRICS[fmt])})")
        pick = served[0]
    else:
        pick = candidates[0]
    if "k" in fixed and pick not in _RANKING_K:
        raise ClaimError(f"figure {name!r}: {pick} has no cutoff @K")
    if order is not None:
        if pick not in ("bleu", "sentence_bleu"):
            raise ClaimError(f"figure {name!r}: an order suffix only applies to BLEU")
        fixed["order"] = order
    return pick, fixed


# ------------------------------------------------------------------ conventions

_SB_TOK = {"13a": "13a", "none": "none", "intl": "intl", "char": "char"}
_SB_SMOOTH = {"exp": "exp", "none": "none", "floor": "floor", "add-k": "add-k"}


def parse_sacrebleu(signature: str, n_refs: int | None = None) -> dict:
    """Knob settings of a sacrebleu BLEU signature (2.x ``k:v|...`` or 1.x ``BLEU+k.v+...``).

    sacrebleu's corpus BLEU: tokenizer tok, lowercase when case:lc, smoothing
    smooth (floor value 0.1 and add-k value 1 are the oracle's defaults too),
    effective_order eff, closest reference length (ties to the shorter:
    ``BLEU._get_closest_ref_len``), order 4, uniform weights, corpus level,
    the score in percent."""
    text = signature.strip()
    if text.upper().startswith("BLEU+"):
        items = [p.split(".", 1) for p in text.split("+")[1:]]
    else:
        items = [p.split(":", 1) for p in text.split("|")]
    out = {"ref_length": "closest-shorter", "order": "4", "weights": "uniform", "level": "corpus"}
    for it in items:
        if len(it) != 2:
            raise ClaimError(f"sacrebleu signature {signature!r}: {'.'.join(it)!r} is not key:value")
        k, v = it[0].strip().lower(), it[1].strip()
        if k in ("nrefs", "numrefs"):
            if v.isdigit() and n_refs is not None and int(v) != n_refs:
                raise ClaimError(f"sacrebleu signature: nrefs:{v}, but the claim gives {n_refs} reference file(s)")
        elif k == "case":
            if v not in ("mixed", "lc"):
                raise ClaimError(f"sacrebleu signature: case:{v} is not mixed or lc" + nearest(v, ("mixed", "lc")))
            out["case"] = "lower" if v == "lc" else "mixed"
        elif k == "eff":
            if v not in ("yes", "no"):
                raise ClaimError(f"sacrebleu signature: eff:{v} is not yes or no")
            out["effective_order"] = v
        elif k == "tok":
            if v not in _SB_TOK:
                raise ClaimError(f"sacrebleu signature: tok:{v} is not a tokenizer the oracle has; it has "
                                 f"{', '.join(_SB_TOK)}" + nearest(v, _SB_TOK))
            out["tokenizer"] = _SB_TOK[v]
        elif k == "smooth":
            if v not in _SB_SMOOTH:
                raise ClaimError(f"sacrebleu signature: smooth:{v} is not a sacrebleu smoothing; they are "
                                 f"{', '.join(_SB_SMOOTH)}" + nearest(v, _SB_SMOOTH))
            out["smoothing"] = _SB_SMOOTH[v]
        elif k in ("version", "v"):
            pass
        else:
            raise ClaimError(f"sacrebleu signature: unknown field {k!r}; fields are nrefs, case, eff, tok, smooth, "
                             "version" + nearest(k, ("nrefs", "case", "eff", "tok", "smooth", "version")))
    return out


# trec_eval measure -> (metric, whether it takes a cutoff parameter)
_TREC_MEASURES = {"ndcg_cut": ("ndcg", True), "ndcg": ("ndcg", False), "P": ("precision_at_k", True),
                  "recall": ("recall_at_k", True), "map_cut": ("average_precision", True),
                  "map": ("average_precision", False), "recip_rank": ("reciprocal_rank", False),
                  "success": ("hit_rate", True), "Rprec": ("r_precision", False)}


def parse_trec_eval(command: str) -> tuple[str | None, dict, list]:
    """(metric, knob settings, trailing file arguments) of a trec_eval command line.

    -m measure[.K] (ndcg_cut.10, P.5, recall.100, map, map_cut.10, recip_rank,
    success.1, Rprec, ndcg), -l N (threshold), -c (missing queries score 0:
    missing=zero; without -c they are left out: missing=skip), -q (per-query
    output, no effect on the mean). trec_eval's tie rule, linear gains and
    judged ideal are stated with it."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise ClaimError(f"trec_eval {command!r}: {e}") from None
    if argv and Path(argv[0]).name in ("trec_eval", "trec_eval.exe"):
        argv = argv[1:]
    metric, knobs, files = None, {"ties": "trec_eval", "missing": "skip"}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-m", "-l", "-M"):
            if i + 1 >= len(argv):
                raise ClaimError(f"trec_eval: {a} needs a value")
            v = argv[i + 1]
            i += 2
        elif a.startswith(("-m", "-l", "-M")) and len(a) > 2:
            a, v = a[:2], a[2:]
            i += 1
        else:
            v = None
            i += 1
        if a == "-m":
            name, _, param = v.partition(".")
            if name not in _TREC_MEASURES:
                raise ClaimError(f"trec_eval -m {v}: not a measure the oracle has; measures are "
                                 f"{', '.join(_TREC_MEASURES)}" + nearest(name, _TREC_MEASURES))
            m, takes_k = _TREC_MEASURES[name]
            if metric is not None and metric != m:
                raise ClaimError(f"trec_eval: several measures ({metric}, {m}); audit one figure at a time")
            metric = m
            if takes_k:
                if not param.isdigit():
                    raise ClaimError(f"trec_eval -m {v}: give the cutoff, e.g. {name}.10")
                knobs["k"] = param
            elif param:
                raise ClaimError(f"trec_eval -m {v}: {name} takes no parameter")
            if m in ("ndcg", "dcg"):
                knobs.update(gain="linear", ideal="judged", threshold_gains="yes", negative="zero")
        elif a == "-l":
            if not v.isdigit():
                raise ClaimError(f"trec_eval -l {v}: expected an integer relevance level")
            knobs["threshold"] = v
        elif a == "-c":
            knobs["missing"] = "zero"
        elif a == "-q":
            pass
        elif a.startswith("-"):
            raise ClaimError(f"trec_eval {a}: an option the audit does not model; it reads -m, -l, -c, -q")
        else:
            files.append(a)
    return metric, knobs, files


# ------------------------------------------------------------------ claims

_CLAIM_KEYS = ("format", "case", "sacrebleu", "signature", "trec_eval", "part", "scale", "metric", "conventions",
               "claim")


@dataclass
class Claim:
    """One figure to audit, with its inputs and stated conventions."""

    text: str
    figure: Figure
    metric: str
    fixed: dict                  # knobs fixed by the printed name (k, order)
    stated: dict                 # conventions the claim states (explicit, signature, trec_eval, case)
    inputs: dict
    part: str | None = None
    scale: int = 1               # 100 for a percent figure
    where: str = ""
    source: str = ""             # what the inputs were read from


def _split_tokens(tokens: list[str]) -> tuple[str, list[tuple[str, str]]]:
    fig, pairs = [], []
    for t in tokens:
        m = re.match(r"^([A-Za-z_][\w]*)=(.*)$", t, re.DOTALL)
        # key=value once the figure has begun ('BLEU=27.3' alone is a figure)
        if m and (pairs or fig or m.group(1) in _CLAIM_KEYS or m.group(1) in FILE_KEYS
                  or m.group(1) in OPTION_KEYS):
            pairs.append((m.group(1), m.group(2)))
        elif pairs:
            raise ClaimError(f"{t!r}: expected key=value after the figure (quote values with spaces)")
        else:
            fig.append(t)
    return " ".join(fig), pairs


def _scale(figure: Figure, metric: str, given: str | None) -> int:
    if given is not None:
        if given not in ("percent", "fraction"):
            raise ClaimError(f"scale={given}: expected percent or fraction" + nearest(given, ("percent", "fraction")))
        if metric in ("perplexity", "dcg") and given == "percent":
            raise ClaimError(f"scale=percent: {metric} is not a proportion")
        return 100 if given == "percent" else 1
    if metric in ("perplexity", "dcg"):
        if figure.percent_sign:
            raise ClaimError(f"figure {figure.text}: {metric} is not a proportion; drop the %")
        return 1
    if figure.percent_sign:
        return 100
    limit = 10 if metric in ("cider", "cider_d") else 1
    return 100 if abs(figure.number) > limit else 1


def _load_case(ref: str, base: Path):
    from .cases import load_file
    if "#" not in ref:
        raise ClaimError(f"case={ref}: expected FILE.json#ID")
    fname, cid = ref.split("#", 1)
    path = Path(fname)
    if not path.is_absolute():
        path = base / path
    if not path.exists():
        raise InputError(f"case={ref}: no such file {path}", item="case")
    cases = load_file(path, validate=False)
    for c in cases:
        if c.id == cid:
            return c
    raise InputError(f"case={ref}: no case with id {cid!r} in {path.name}" + nearest(cid, [c.id for c in cases]),
                     item="case")


def parse_claim(line, base: Path | str = ".", where: str = "") -> Claim:
    """A claim from a line (text, or a list of command-line tokens, or a JSON object line)."""
    base = Path(base)
    if isinstance(line, str) and line.lstrip().startswith("{"):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ClaimError(f"{where}: not a JSON object: {e.msg} (column {e.colno})") from None
        if not isinstance(obj, dict) or "claim" not in obj:
            raise ClaimError(f"{where}: a JSON claim needs a \"claim\" field, e.g. {{\"claim\": \"BLEU 27.3\", ...}}")
        fig_text = str(obj.pop("claim"))
        pairs = []
        for k, v in obj.items():
            if k == "conventions":
                if not isinstance(v, dict):
                    raise ClaimError(f"{where}: conventions: expected an object of knob settings")
                pairs += [(kk, str(vv)) for kk, vv in v.items()]
            elif isinstance(v, list):
                pairs += [(k, str(x)) for x in v]
            else:
                pairs.append((k, str(v)))
        text = line.strip()
    else:
        if isinstance(line, str):
            try:
                tokens = shlex.split(line, comments=False)
            except ValueError as e:
                raise ClaimError(f"{where}: {e}") from None
            text = line.strip()
        else:
            tokens = list(line)
            text = " ".join(shlex.quote(t) for t in tokens)
        fig_text, pairs = _split_tokens(tokens)
    figure = parse_figure(fig_text)
    files: dict = {}
    opts: dict = {}
    knobs: dict = {}
    for k, v in pairs:
        if k in FILE_KEYS:
            files.setdefault(k, []).append(v)
        elif k in OPTION_KEYS or k in _CLAIM_KEYS:
            if k in opts:
                raise ClaimError(f"{k}= given twice")
            opts[k] = v
        else:
            if k in knobs:
                raise ClaimError(f"{k}= given twice")
            knobs[k] = v
    for k, paths in files.items():
        if k != "ref" and len(paths) > 1:
            raise ClaimError(f"{k}= given twice")
        files[k] = [str(p if Path(p).is_absolute() else base / p) for p in paths]
    fmt = opts.get("format")
    case = None
    if fmt == "case" or "case" in opts:
        if "case" not in opts:
            raise ClaimError("format=case needs case=FILE.json#ID")
        if files:
            raise ClaimError(f"case=: the inputs come from the case; drop {', '.join(sorted(files))}=")
        case = _load_case(opts["case"], base)
        fmt = "case"
    elif fmt is None:
        if not files:
            raise ClaimError(f"claim {fig_text!r}: no input files (e.g. hyp=... ref=...) and no case=")
        try:
            hint = resolve_metric(figure.name, explicit=opts.get("metric"))[0]
            hint = ALIASES.get(_norm_name(re.sub(r"@\s*\d+$", "", figure.name)), (hint,))
        except ClaimError:
            hint = ()
        fmt = guess_format(files, hint)
    elif fmt not in FORMATS:
        raise ClaimError(f"format={fmt}: unknown format; formats are {', '.join(FORMATS)}, case"
                         + nearest(fmt, list(FORMATS) + ["case"]))
    trec_metric, trec_knobs, trec_files = (None, {}, [])
    if "trec_eval" in opts:
        trec_metric, trec_knobs, trec_files = parse_trec_eval(opts["trec_eval"])
        if fmt == "trec" and trec_files:
            pass  # the claim's qrels=/run= win over the command's file arguments
    metric, fixed = resolve_metric(figure.name, None if fmt == "case" else fmt,
                                   case.metric if case is not None and "part" not in opts else None,
                                   opts.get("metric") or (case.metric if case is not None and "part" in opts else None))
    if trec_metric is not None and trec_metric != metric:
        raise ClaimError(f"trec_eval measure gives {trec_metric}, but the figure names {metric}")
    m = get_metric(metric)
    stated: dict = {}
    if case is not None:
        stated.update(case.conventions)
    if "sacrebleu" in opts or "signature" in opts:
        if metric not in ("bleu", "sentence_bleu"):
            raise ClaimError(f"a sacrebleu signature states BLEU conventions, not {metric}")
        n_refs = len(files.get("ref", [])) or None
        stated.update(parse_sacrebleu(opts.get("sacrebleu") or opts["signature"], n_refs))
    for k, v in trec_knobs.items():
        if k in {kn.name for kn in m.knobs}:
            stated[k] = v
    if "k" in trec_knobs and "k" in fixed and trec_knobs["k"] != fixed["k"]:
        raise ClaimError(f"trec_eval cutoff {trec_knobs['k']} differs from the figure's @{fixed['k']}")
    scale_opt = opts.get("scale")
    if "scale" in knobs:
        scale_opt = knobs.pop("scale")
    for k, v in knobs.items():
        m.knob(k)  # raises ConventionError naming the nearest knob
        stated[k] = v
    for k, v in fixed.items():
        if k in stated and str(stated[k]) != str(v):
            raise ClaimError(f"{k}={stated[k]} contradicts the figure's name {figure.name}")
    stated.pop("scale", None)
    m.settings({**stated, **fixed})  # validate the stated conventions now (ConventionError names the knob)
    for k in ("gold_col", "pred_col", "token_col"):
        if k in opts:
            files[k] = opts[k]
    if case is not None:
        inputs, source = case.inputs, f"case {opts['case']}"
    else:
        flat = {k: (v if k == "ref" else (v[0] if isinstance(v, list) else v)) for k, v in files.items()}
        inputs = load_inputs(fmt, flat, metric)
        source = f"{fmt}: " + " ".join(f"{k}={Path(p).name}" for k, v in files.items()
                                        for p in (v if isinstance(v, list) else [v]))
    part = opts.get("part")
    return Claim(text=text, figure=figure, metric=metric, fixed=fixed, stated=stated, inputs=inputs, part=part,
                 scale=_scale(figure, metric, scale_opt), where=where, source=source)


def read_claims(path) -> list[Claim]:
    """Every claim of a claims file (errors name the file and line)."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}", item=str(path)) from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text ({e.reason})", item=str(path)) from None
    out = []
    for i, line in enumerate(lines, start=1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        where = f"{p.name}:{i}"
        try:
            out.append(parse_claim(s, p.parent, where))
        except (ConventionError, InputError) as e:
            raise type(e)(f"{where}: {e}") from None
    return out


# ------------------------------------------------------------------ the space

_BLEU = {"tokenizer": ("none", "13a", "intl", "char"), "case": ("mixed", "lower"),
         "ref_length": ("closest-shorter", "closest-first", "shortest", "average"),
         "smoothing": ("none", "floor", "add-k", "exp", "cc4", "cc5", "cc6", "cc7"),
         "effective_order": ("no", "yes")}
_WORDS = {"tokenize": ("whitespace", "spaces", "jiwer"), "case": ("mixed", "lower"), "punctuation": ("keep", "remove"),
          "aggregate": ("corpus", "mean"), "empty_reference": ("undefined", "insertions")}
_QA = {"normalization": ("none", "document", "squad"), "missing": ("zero", "skip"), "rule": ("v1.1", "v2.0")}
_ENTITY = {"scheme": ("iob1", "iob2", "iobes"), "reading": ("conlleval", "strict"),
           "average": ("micro", "macro", "weighted"), "matching": ("span", "pooled-type-text")}
_PRF = {"average": ("micro", "macro", "weighted"), "zero_division": ("zero", "one")}
_RANK = {"ties": ("trec_eval", "input-order", "expected", "optimistic", "pessimistic"), "threshold": ("1", "2"),
         "no_relevant": ("zero", "skip"), "missing": ("zero", "skip"), "queries": ("qrels", "run", "both")}
_GAINS = {"gain": ("linear", "exponential", "binary"), "threshold_gains": ("yes", "no")}
_CIDER = {"clip": ("yes", "no"), "penalty": ("gaussian", "none"), "factor": ("1", "10"), "tf": ("raw", "normalized"),
          "duplicates": ("keep", "collapse")}

SPACES = {
    "bleu": {**_BLEU, "level": ("corpus", "sentence-mean")},
    "sentence_bleu": dict(_BLEU),
    "wer": {**_WORDS, "tie": ("any", "sclite")},
    "mer": {**_WORDS, "tie": ("any", "prefer-substitution", "prefer-deletion-insertion", "diagonal-first",
                              "rapidfuzz", "sclite")},
    "cer": {"case": ("mixed", "lower"), "punctuation": ("keep", "remove"),
            "whitespace": ("strip", "keep", "collapse", "remove"), "unit": ("codepoint", "grapheme", "nfc-codepoint"),
            "aggregate": ("corpus", "mean"), "empty_reference": ("undefined", "insertions"), "tie": ("any", "sclite")},
    "error_counts": {k: v for k, v in _WORDS.items() if k in ("tokenize", "case", "punctuation")},
    "exact_match": _QA, "squad_f1": _QA,
    "perplexity": {"aggregate": ("corpus-token", "mean-per-text")},
    "token_accuracy": {},
    "entity_f1": _ENTITY, "entity_precision": _ENTITY, "entity_recall": _ENTITY,
    "entity_report": {k: v for k, v in _ENTITY.items() if k != "average"},
    "confusion_matrix": {}, "accuracy": {}, "per_class_accuracy": {},
    "precision": _PRF, "recall": _PRF, "f1": _PRF, "balanced_accuracy": {"adjusted": ("no", "yes")},
    "classification_report": {"zero_division": ("zero", "one")},
    "vqa_accuracy": {"rule": ("official", "at-least-3", "binary-3", "majority", "any"),
                     "normalization": ("official", "none"),
                     "normalize_side": ("official", "both", "prediction", "answers")},
    "cross_modal_recall_at_k": {"direction": ("image-to-text", "text-to-image"),
                                "ties": ("expected", "optimistic", "pessimistic", "index-order")},
    "cider": _CIDER, "cider_d": _CIDER,
    "hit_rate": _RANK, "reciprocal_rank": _RANK, "recall_at_k": _RANK, "r_precision": _RANK,
    "precision_at_k": {**_RANK, "precision_denominator": ("k", "retrieved")},
    "average_precision": {**_RANK, "ap_denominator": ("relevant", "min-k-relevant", "retrieved-relevant")},
    "dcg": {**_RANK, **_GAINS},
    "ndcg": {**_RANK, "ideal": ("judged", "retrieved"), **_GAINS},
}
SPACES["wil"] = SPACES["wip"] = SPACES["mer"]

# a stated dependent knob is carried only into settings where its parent keeps its stated value
_DEPENDENT = {"smoothing_value": "smoothing", "sigma": "penalty", "tf": "clip", "normalize_side": "normalization"}
_MAX_SETTINGS = 20000
# sentence-level BLEU under Chen and Cherry methods 4-7 is searched up to this many segments
SENTENCE_MEAN_CC_LIMIT = 20000


def knob_space(metric: str, stated: dict, fixed: dict) -> list[dict]:
    """Canonical settings to evaluate, the stated one first; duplicates (same signature) removed."""
    m = get_metric(metric)
    space = {k: v for k, v in SPACES.get(metric, {}).items() if k not in fixed}
    stated_full = m.settings({**stated, **fixed})
    names = list(space)
    choices = []
    for k in names:
        vals = list(space[k])
        if stated_full[k] not in vals:
            vals.insert(0, stated_full[k])
        choices.append(vals)
    n = 1
    for c in choices:
        n *= len(c)
    if n > _MAX_SETTINGS:
        raise ClaimError(f"{metric}: {n} settings exceed the audit's bound of {_MAX_SETTINGS}; fix some knobs")
    out, seen = [stated_full], {m.signature(stated_full)}
    carried = {k: v for k, v in stated.items() if k not in space and k not in fixed}
    for combo in itertools.product(*choices):
        conv = dict(zip(names, combo))
        base = {}
        for k, v in carried.items():
            parent = _DEPENDENT.get(k)
            if parent is not None and parent in conv and conv[parent] != stated_full[parent]:
                continue
            base[k] = v
        if metric == "bleu" or metric == "sentence_bleu":
            base["scale"] = "fraction"
        try:
            s = m.settings({**base, **conv, **fixed})
        except ConventionError:
            continue
        sig = m.signature(s)
        if sig not in seen:
            seen.add(sig)
            out.append(s)
    return out


# ------------------------------------------------------------------ mean of many closed forms

def _floor_root(n: int, k: int) -> int:
    """floor(n ** (1/k)) for an integer n >= 0."""
    if n < 2:
        return n
    if k == 1:
        return n
    if k == 2:
        return math.isqrt(n)
    if k == 4:
        return math.isqrt(math.isqrt(n))  # floor(sqrt(floor(sqrt(n)))) = floor(n ** (1/4))
    from oracle.exact import _iroot_newton
    r = _iroot_newton(n, k)
    while r ** k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


_EXP_BOUNDS: dict = {}


def _exp_fixed(a: Fraction, P: int) -> tuple[int, int]:
    """Integers lo <= exp(a) * 2**P <= hi (interval arithmetic, cached per (a, P))."""
    key = (a, P)
    got = _EXP_BOUNDS.get(key)
    if got is None:
        lo, hi = interval(Exp(Rat(a)), P + 24)
        got = ((lo.numerator << P) // lo.denominator, -((-hi.numerator << P) // hi.denominator))
        if len(_EXP_BOUNDS) < 200000:
            _EXP_BOUNDS[key] = got
    return got


def _root_fixed(num: int, den: int, k: int, P: int) -> tuple[int, int]:
    """Integers lo <= (num/den) ** (1/k) * 2**P <= hi."""
    scaled = num << (k * P)
    lo = _floor_root(scaled // den, k)
    return lo, (lo if lo ** k * den == scaled else lo + 1)


def _fixed_bounds(x, P: int) -> tuple[int, int]:
    """Integers lo <= x * 2**P <= hi for a nonnegative term: a rational, a closed form
    (fast paths for exp(rational), rational**(a/b) and their products), or a
    segment form ``(a, num, den, k)`` = exp(a) * (num/den) ** (1/k) (a None: no exp factor)."""
    if type(x) is tuple:
        a, num, den, k = x
        lo, hi = _root_fixed(num, den, k, P)
        if a is None:
            return lo, hi
        elo, ehi = _exp_fixed(a, P)
        return (lo * elo) >> P, -((-(hi * ehi)) >> P)
    if type(x) is Fraction or isinstance(x, int):
        q = Fraction(x)
        lo = (q.numerator << P) // q.denominator
        return lo, (lo if (lo * q.denominator) == (q.numerator << P) else lo + 1)
    if isinstance(x, Rat):
        return _fixed_bounds(x.q, P)
    if isinstance(x, Pow) and isinstance(x.base, Rat) and x.exponent > 0 and x.base.q >= 0:
        q, e = x.base.q, x.exponent
        return _root_fixed(q.numerator ** e.numerator, q.denominator ** e.numerator, e.denominator, P)
    if isinstance(x, Exp) and isinstance(x.arg, Rat):
        return _exp_fixed(x.arg.q, P)
    if isinstance(x, Mul):
        bounds = [_fixed_bounds(f, P) for f in x.factors]
        if all(b[0] >= 0 for b in bounds):
            lo, hi = bounds[0]
            for a, b in bounds[1:]:
                lo = (lo * a) >> P
                hi = -((-(hi * b)) >> P)
            return lo, hi
    lo, hi = interval(x, P + 24)
    return (lo.numerator << P) // lo.denominator, -((-hi.numerator << P) // hi.denominator)


def _term_expr(t):
    if type(t) is tuple:
        a, num, den, k = t
        root = power(Fraction(num, den), Fraction(1, k))
        return root if a is None else product([exp(a), root])
    return t


class TermMean(Composite):
    """factor * (1/n) * (t_1 + ... + t_n) for many nonnegative terms (exact values, or
    segment forms ``(a, num, den, k)`` = exp(a) * (num/den)**(1/k)), with certified bounds
    from integer fixed-point arithmetic (each term rounded outward)."""

    __slots__ = ("terms", "n", "factor", "_cache", "_expanded")

    def __init__(self, terms, factor=Fraction(1), cache=None):
        self.terms = tuple(terms)
        self.n = len(self.terms)
        self.factor = Fraction(factor)
        self._cache = cache if cache is not None else {}
        self._expanded = None

    def scaled(self, k) -> "TermMean":
        return TermMean(self.terms, self.factor * k, self._cache)

    def key(self):
        return ("mean", self.factor) + tuple(exact_str(_term_expr(t)) for t in self.terms)

    def expand(self):
        if self._expanded is None:
            self._expanded = product([total([_term_expr(t) for t in self.terms]), Fraction(self.factor, self.n)])
        return self._expanded

    def bounds(self, prec_bits: int):
        got = self._cache.get("sum")
        if got is None or got[0] < prec_bits:
            P = prec_bits + self.n.bit_length() + 8
            lo = hi = 0
            for t in self.terms:
                a, b = _fixed_bounds(t, P)
                lo += a
                hi += b
            got = self._cache["sum"] = (prec_bits, P, lo, hi)
        _, P, lo, hi = got
        den = self.n << P
        return Fraction(lo, den) * self.factor, Fraction(hi, den) * self.factor


def fast_segment_term(m, t, c, r, s):
    """The sentence BLEU of one segment from its statistics, as a segment form
    ``(a, num, den, k)`` = exp(a) * (num/den)**(1/k) or a Fraction, for the smoothing
    methods none, floor, add-k and exp with uniform weights (the oracle's
    ``bleu_from_stats`` formulas, kept in integers); None for every other case
    (the caller asks ``bleu_from_stats``)."""
    method = s["smoothing"]
    if method not in ("none", "floor", "add-k", "exp") or s["weights"] != "uniform" or c == 0:
        return None
    N = int(s["order"])
    used = N
    if s["effective_order"] == "yes":
        used = sum(1 for x in t[:N] if x > 0)
        if used == 0:
            return None
    value = None if s["smoothing_value"] == "-" else Fraction(s["smoothing_value"])
    num = den = 1
    inv = 1
    for n in range(used):
        mn, tn = m[n], t[n]
        if method == "none" or (method == "add-k" and n == 0):
            if mn == 0:
                return Fraction(0)
            num *= mn
            den *= tn
        elif method == "floor":
            if tn == 0:
                return None
            if mn:
                num *= mn
                den *= tn
            else:
                num *= value.numerator
                den *= value.denominator * tn
        elif method == "add-k":
            num *= mn * value.denominator + value.numerator
            den *= tn * value.denominator + value.numerator
        else:  # exp
            if tn == 0:
                continue
            if mn == 0:
                inv *= 2
                den *= inv * tn
            else:
                num *= mn
                den *= tn
    a = None if c >= r else 1 - Fraction(r) / c
    return (a, num, den, used)


# ------------------------------------------------------------------ evaluation

class _Failed:
    """A setting under which the oracle refused the inputs."""

    def __init__(self, message: str):
        self.message = message


def _pick(result, part):
    if part is None:
        return result.value
    if part in result.parts:
        return result.parts[part]
    return _Failed(f"no part {part!r} under this setting")


def _generic_values(metric: str, inputs, settings_list: list, part) -> list:
    m = get_metric(metric)
    out = []
    for s in settings_list:
        try:
            out.append(_pick(m.compute(inputs, s), part))
        except (InputError, ConventionError) as e:
            out.append(_Failed(str(e)))
    return out


def _bleu_values(inputs, settings_list: list) -> list:
    """Corpus BLEU under every setting from n-gram statistics counted once per (tokenizer, case)."""
    from oracle.bleu import _check_corpus, bleu_from_stats, reference_length, segment_stats
    from oracle.tokenizers import TOKENIZERS
    hyps, refs = _check_corpus(inputs)
    stats_cache: dict = {}
    seg_cache: dict = {}
    value_cache: dict = {}
    out = []
    for s in settings_list:
        N = int(s["order"])
        tc = (s["tokenizer"], s["case"], N)
        st = stats_cache.get(tc)
        if st is None:
            tok = TOKENIZERS[s["tokenizer"]]
            lower = s["case"] == "lower"
            segs = []
            for h, rs in zip(hyps, refs):
                if lower:
                    h, rs = h.lower(), [r.lower() for r in rs]
                segs.append(segment_stats(tok(h), [tok(r) for r in rs], N + 1))
            M = [sum(sg[0][n] for sg in segs) for n in range(N + 1)]
            T = [sum(sg[1][n] for sg in segs) for n in range(N + 1)]
            C = sum(sg[2] for sg in segs)
            st = stats_cache[tc] = {"segs": segs, "M": M, "T": T, "C": C, "R": {}, "r": {}}
        rule = s["ref_length"]
        if rule not in st["r"]:
            st["r"][rule] = [reference_length(sg[2], sg[3], rule) for sg in st["segs"]]
            R = sum(st["r"][rule], Fraction(0))
            st["R"][rule] = R.numerator if R.denominator == 1 else R
        smooth_key = (s["smoothing"], s["smoothing_value"], s["weights"])
        if s["level"] == "corpus":
            eff = s["effective_order"] if any(t == 0 for t in st["T"][:N]) else "-"
            key = (tc, st["R"][rule], smooth_key, eff, "corpus")
            v = value_cache.get(key)
            if v is None:
                v, _, _ = bleu_from_stats(st["M"][:N], st["T"][:N], st["C"], st["R"][rule], s, st["M"][N])
                value_cache[key] = v
            out.append(v)
            continue
        rs = st["r"][rule]
        short = any(sg[2] < N for sg in st["segs"])
        key = (tc, tuple(rs), smooth_key,
               s["effective_order"] if short else "-", "mean")
        v = value_cache.get(key)
        if v is None:
            terms = []
            for i, sg in enumerate(st["segs"]):
                eff = s["effective_order"] if sg[2] < N else "-"
                k2 = (tc, i, rs[i], smooth_key, eff)
                t = seg_cache.get(k2)
                if t is None:
                    t = fast_segment_term(sg[0], sg[1], sg[2], rs[i], s)
                    if t is None:
                        t, _, _ = bleu_from_stats(sg[0][:N], sg[1][:N], sg[2], rs[i], s, sg[0][N])
                    seg_cache[k2] = t
                terms.append(t)
            bad = next((i for i, t in enumerate(terms) if isinstance(t, Undefined)), None)
            if bad is not None:
                v = Undefined(f"segment {bad}: {terms[bad].reason}")
            elif all(type(t) is Fraction for t in terms):
                v = sum(terms, Fraction(0)) / len(terms)
            else:
                v = TermMean(terms)
            value_cache[key] = v
        out.append(v)
    return out


def _error_rate_values(metric: str, inputs, settings_list: list) -> list:
    """WER and CER under every setting from one alignment per distinct token sequence pair."""
    from oracle.error_rates import _check_inputs, characters, counts_of, levenshtein, sclite_alignment, words
    refs, hyps = _check_inputs(inputs)
    split = words if metric == "wer" else characters
    tok_knobs = ("tokenize", "case", "punctuation") if metric == "wer" else ("case", "punctuation", "whitespace", "unit")
    tokens: dict = {}
    pair_cache: dict = {}
    out = []
    for s in settings_list:
        tk = tuple(s[k] for k in tok_knobs)
        per = tokens.get(tk)
        if per is None:
            per = []
            for r, h in zip(refs, hyps):
                rt, ht = tuple(split(r, s)), tuple(split(h, s))
                per.append((rt, ht))
            tokens[tk] = per
        sclite = s["tie"] == "sclite"
        errs, ns, ps = [], [], []
        for rt, ht in per:
            key = (rt, ht, sclite)
            e = pair_cache.get(key)
            if e is None:
                d = pair_cache.get((rt, ht, False))
                if d is None:
                    d = levenshtein(list(rt), list(ht))
                    pair_cache[(rt, ht, False)] = d
                if sclite:
                    _, sub, dele, ins = counts_of(sclite_alignment(list(rt), list(ht), d))
                    e = sub + dele + ins
                    pair_cache[key] = e
                else:
                    e = d
            errs.append(e)
            ns.append(len(rt))
            ps.append(len(ht))
        empty = s["empty_reference"]
        if empty == "error" and (not ns or 0 in ns):
            i = ns.index(0) if 0 in ns else None
            out.append(_Failed(f"references[{i}]: empty reference (empty_reference=error)" if i is not None
                               else "references: empty corpus (empty_reference=error)"))
            continue
        if s["aggregate"] == "corpus":
            n = sum(ns)
            if n:
                out.append(Fraction(sum(errs), n))
            elif empty == "insertions":
                out.append(Fraction(sum(ps)))
            else:
                out.append(Undefined(f"{'corpus' if ns else 'empty corpus'}: no reference tokens"))
            continue
        vals, bad = [], None
        for k, (e, n, p) in enumerate(zip(errs, ns, ps)):
            if n:
                vals.append(Fraction(e, n))
            elif empty == "insertions":
                vals.append(Fraction(p))
            else:
                bad = k
                break
        if not ns:
            out.append(Undefined("empty corpus"))
        elif bad is not None:
            out.append(Undefined(f"references[{bad}]: no reference tokens"))
        else:
            out.append(sum(vals, Fraction(0)) / len(vals))
    return out


def _ranking_values(metric: str, inputs, settings_list: list) -> list:
    """Ranking measures under every setting: runs prepared once, per-query profiles once per
    (duplicates, ties, threshold, gain mapping, ideal), per-query values summed per query
    category (in qrels, in run, has relevant) once, categories combined per query-set choice."""
    from oracle import ranking as RK
    with_gains = metric in ("dcg", "ndcg")
    per_query_fn = {"hit_rate": RK._hit, "reciprocal_rank": RK._rr, "precision_at_k": RK._precision,
                    "recall_at_k": RK._recall, "r_precision": RK._r_precision,
                    "average_precision": RK._ap}.get(metric)
    prepared: dict = {}
    grades: set = set()
    profile_cache: dict = {}
    agg_cache: dict = {}
    value_cache: dict = {}
    ties_cache: dict = {}
    query_profiles: dict = {}
    contrib_cache: dict = {}
    out = []
    for s in settings_list:
        dup = s["duplicates"]
        if dup not in prepared:
            try:
                prepared[dup] = RK._check_inputs(inputs, dup)
            except InputError as e:
                prepared[dup] = _Failed(str(e))
            if not isinstance(prepared[dup], _Failed):
                for judged in prepared[dup][0].values():
                    grades.update(judged.values())
        if isinstance(prepared[dup], _Failed):
            out.append(prepared[dup])
            continue
        qrels, run = prepared[dup]
        thr = int(s["threshold"])
        gmap = tuple((g, RK.gain_of(g, s)) for g in sorted(grades)) if with_gains else ()
        pkey = (dup, s["ties"], thr, gmap, s.get("ideal") if metric == "ndcg" else None)
        vkey = pkey + (s.get("k"), s.get("precision_denominator"), s.get("ap_denominator"))
        agg = agg_cache.get(vkey)
        if agg is None:
            profiles = profile_cache.get(pkey)
            if profiles is None:
                profiles = {}
                gain = dict(gmap)
                tied = ties_cache.get(dup)
                if tied is None:
                    tied = ties_cache[dup] = {q: _judged_tie(run[q], qrels.get(q, {})) for q in run}
                for q in list(qrels) + [q for q in run if q not in qrels]:
                    judged = qrels.get(q, {})
                    if with_gains:
                        has_rel = any(gain[g] > 0 for g in judged.values())
                    else:
                        has_rel = any(g >= thr for g in judged.values())
                    # without ties among its judged documents a query ranks alike under every tie rule
                    qkey = (q,) + (pkey if tied.get(q) else pkey[:1] + pkey[2:])
                    prof = query_profiles.get(qkey)
                    if prof is None:
                        prof = query_profiles[qkey] = RK._profile(run.get(q), judged, s, with_gains)
                    profiles[q] = (q in qrels, q in run, has_rel, prof)
                profile_cache[pkey] = profiles
            agg = {}
            for q, (in_q, in_r, has_rel, prof) in profiles.items():
                cat = (in_q, in_r, has_rel)
                entry = agg.get(cat)
                if entry is None:
                    entry = agg[cat] = [0, Fraction(0) if not with_gains else {}]
                entry[0] += 1
                if not in_r:
                    continue
                ckey = (id(prof), vkey[len(pkey):])
                contrib = contrib_cache.get(ckey)
                if contrib is None:
                    if per_query_fn is not None:
                        contrib = per_query_fn(prof, s)
                    else:
                        k = RK._cut(s["k"], prof.n)
                        form = RK._dcg_form(prof, k)
                        if metric == "dcg":
                            contrib = ("dcg", form)
                        else:
                            ideal = RK._ideal_form(prof.ideal, len(prof.ideal) if s["k"] == "none" else k)
                            contrib = (tuple(sorted(ideal.items())), form) if ideal else None
                    contrib_cache[ckey] = contrib
                if per_query_fn is not None:
                    entry[1] += contrib
                elif contrib is not None:
                    RK._add_form(entry[1].setdefault(contrib[0], {}), contrib[1])
            agg_cache[vkey] = agg
        cats = tuple(sorted(cat for cat in agg if _chosen(cat, s)))
        vc = value_cache.get((vkey, cats))
        if vc is not None:
            out.append(vc)
            continue
        n = 0
        acc = Fraction(0) if not with_gains else {}
        for cat in cats:
            count, val = agg[cat]
            n += count
            if with_gains:
                for key, form in val.items():
                    RK._add_form(acc.setdefault(key, {}), form)
            else:
                acc += val
        if n == 0:
            out.append(Undefined("no queries to average"))
        elif not with_gains:
            out.append(acc / n)
        elif metric == "dcg":
            out.append(RK._form_expr({b: c / n for b, c in acc.get("dcg", {}).items()}))
        else:
            terms = [RK._form_quotient({b: c / n for b, c in num.items() if c}, dict(key), RK._form_expr(dict(key)))
                     for key, num in sorted(acc.items())]
            out.append(total(terms) if terms else Fraction(0))
        value_cache[(vkey, cats)] = out[-1]
    return out


def _judged_tie(rk, judged: dict) -> bool:
    """Whether a judged document of the ranking shares its score with another document."""
    from bisect import bisect_left, bisect_right
    keys = rk.keys
    asc = None
    for d in judged:
        if d in keys:
            if asc is None:
                asc = rk.asc
            v = keys[d]
            if bisect_right(asc, v) - bisect_left(asc, v) > 1:
                return True
    return False


def _chosen(cat: tuple, s: dict) -> bool:
    """Whether queries of category (in qrels, in run, has relevant) enter the mean under s."""
    in_q, in_r, has_rel = cat
    if not {"qrels": in_q, "run": in_r, "both": in_q and in_r}[s["queries"]]:
        return False
    if not has_rel and s["no_relevant"] == "skip":
        return False
    return in_r or s["missing"] != "skip"


_RANKING = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "r_precision",
            "dcg", "ndcg")


def evaluate(metric: str, inputs, settings_list: list, part=None) -> list:
    """The exact value (or part) under each setting; a ``_Failed`` where the oracle refuses."""
    if part is None and metric == "bleu":
        try:
            return _bleu_values(inputs, settings_list)
        except InputError:
            pass  # the generic path reports it per setting
    if part is None and metric in ("wer", "cer"):
        try:
            return _error_rate_values(metric, inputs, settings_list)
        except InputError:
            pass
    if part is None and metric in _RANKING:
        try:
            return _ranking_values(metric, inputs, settings_list)
        except InputError:
            pass
    return _generic_values(metric, inputs, settings_list, part)


# ------------------------------------------------------------------ comparison

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
    if isinstance(v, _Failed):
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
        if isinstance(self.value, _Failed):
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
                "rows": [r.to_json() for r in self.rows], "seconds": round(self.seconds, 3)}


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
    notes = []
    if claim.metric == "bleu" and isinstance(claim.inputs, dict) and \
            len(claim.inputs.get("hypotheses") or ()) > SENTENCE_MEAN_CC_LIMIT:
        keep = [i == 0 or not (s["level"] == "sentence-mean" and s["smoothing"] in ("cc4", "cc5", "cc6", "cc7"))
                for i, s in enumerate(settings_list)]
        if not all(keep):
            notes.append(f"not searched: level=sentence-mean with smoothing cc4-cc7 ({keep.count(False)} settings; "
                         f"searched only up to {SENTENCE_MEAN_CC_LIMIT} segments)")
            settings_list = [s for s, k in zip(settings_list, keep) if k]
    values = evaluate(claim.metric, claim.inputs, settings_list, claim.part)
    first = values[0]
    if isinstance(first, _Failed):
        raise InputError(f"{claim.where + ': ' if claim.where else ''}{claim.figure.text}: under the stated setting "
                         f"the oracle refuses the inputs: {first.message}")
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
    if rows[0].reproduces:
        verdict = VERDICTS[0]
    elif any(r.reproduces for r in rows):
        verdict = VERDICTS[1]
    else:
        verdict = VERDICTS[2]
    searched = [k for k in SPACES.get(claim.metric, {}) if k not in claim.fixed]
    return Audit(claim, stated, m.signature(stated), rows, verdict, time.perf_counter() - t0, searched, notes)


def audit_claims(claims: list) -> list:
    return [audit(c) for c in claims]


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
        lines.append(f"           value {sr.digits}" + (f" ({sr.value.message})" if isinstance(sr.value, _Failed) else "")
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
