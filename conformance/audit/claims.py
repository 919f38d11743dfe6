"""Claims: a printed figure (``BLEU 27.3``, ``nDCG@10 .7140``), the metric its
name stands for, and the claim line with its files and stated conventions
(the format is in ``conformance.audit``'s docstring)."""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from oracle.conventions import ConventionError, InputError, nearest
from oracle.registry import get_metric, metric_names

from conformance.formats import FILE_KEYS, FORMAT_METRICS, FORMATS, OPTION_KEYS, guess_format, load_inputs
from conformance.audit.signatures import ClaimError, parse_sacrebleu, parse_trec_eval, signature_version

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
    "fb1": ("entity_f1",),   # conlleval.pl prints entity F1 as FB1
    "entityf1": ("entity_f1",), "entityprecision": ("entity_precision",), "entityrecall": ("entity_recall",),
    "accuracy": ("accuracy", "token_accuracy", "vqa_accuracy"), "acc": ("accuracy", "token_accuracy", "vqa_accuracy"),
    "tokenaccuracy": ("token_accuracy",), "vqaaccuracy": ("vqa_accuracy",), "vqaacc": ("vqa_accuracy",),
    "balancedaccuracy": ("balanced_accuracy",), "perclassaccuracy": ("per_class_accuracy",),
    "cider": ("cider_d", "cider"), "ciderd": ("cider_d",),
    # trec_eval's further measures, by the names it prints
    "bpref": ("bpref",), "gmbpref": ("gm_bpref",), "infap": ("infap",), "gmmap": ("gm_ap",),
    "11ptavg": ("eleven_point_ap",), "iprecatrecall": ("interpolated_precision",),
    "rprecmult": ("precision_at_r_multiple",), "relativep": ("relative_precision_at_k",),
    "setp": ("set_precision",), "setrecall": ("set_recall",), "setf": ("set_f",), "setmap": ("set_ap",),
    "setrelativep": ("set_relative_precision",), "utility": ("utility",), "bing": ("bin_g",), "g": ("g",),
    "rndcg": ("rndcg",), "ndcgrel": ("ndcg_rel",), "numq": ("num_queries",), "numret": ("num_retrieved",),
    "numrel": ("num_relevant",), "numrelret": ("num_relevant_retrieved",),
    "numnonreljudgedret": ("num_nonrelevant_judged_retrieved",),
    # the user-model measures, by ir_measures' names
    "rbp": ("rbp",), "rankbiasedprecision": ("rbp",), "err": ("err",), "expectedreciprocalrank": ("err",),
    "judged": ("judged_at_k",), "judgedatk": ("judged_at_k",),
    "perplexity": ("perplexity",), "ppl": ("perplexity",),
}
_RANKING_K = {"ndcg", "dcg", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "hit_rate",
              "cross_modal_recall_at_k", "err", "judged_at_k"}


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
    if not m and key not in ALIASES:
        # a name as trec_eval prints it, with its parameter: P_5, iprec_at_recall_0.70, Rprec_mult_0.20
        from conformance.audit.signatures import _TREC_MEASURES, trec_measure_name
        head, param = trec_measure_name(raw)
        if head in _TREC_MEASURES and param:
            metric_, knob, _ = _TREC_MEASURES[head]
            if knob is not None:
                key, fixed[knob] = _norm_name(head), param
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


# ------------------------------------------------------------------ claims

_CLAIM_KEYS = ("format", "golden", "sacrebleu", "signature", "trec_eval", "part", "scale", "metric", "conventions",
               "claim", "reading")
# a library's name with a release number states the release the figure was computed with
# (sacrebleu=1.4.14, jiwer=3.0.0); sacrebleu= with a signature states it by its version field
VERSION_KEYS = ("sacrebleu", "jiwer", "seqeval", "ranx", "nltk", "sklearn", "pytrec_eval", "pycocoevalcap")
_RELEASE = re.compile(r"^\d+(\.\d+)*([ab]|rc|\.post|\.dev)?\d*$")


def _case_key(k: str, v: str) -> str:
    """``case=`` is the lowercasing knob (case=lower), or, in the old spelling, a golden case
    (case=FILE.json#ID, now golden=FILE.json#ID): told apart by the value."""
    if k == "case" and ("#" in v or v.endswith(".json")):
        return "golden"
    return k


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
    notes: list = field(default_factory=list)   # what the audit decided on its own (a detected scheme)
    releases: dict = field(default_factory=dict)  # {adapter: release} the claim says it was computed with
    reading: str = ""            # how text files were read (``conformance.readings``), '' for other inputs
    reading_stated: bool = False
    reread: object = None        # reading name -> the inputs read that way (text files), else None


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
    from conformance.casefiles.cases import load_file
    if "#" not in ref:
        raise ClaimError(f"golden={ref}: expected FILE.json#ID")
    fname, cid = ref.split("#", 1)
    path = Path(fname)
    if not path.is_absolute():
        path = base / path
    if not path.exists():
        raise InputError(f"golden={ref}: no such file {path}", item="golden")
    cases = load_file(path, validate=False)
    for c in cases:
        if c.id == cid:
            return c
    raise InputError(f"golden={ref}: no case with id {cid!r} in {path.name}" + nearest(cid, [c.id for c in cases]),
                     item="golden")


def _claim_text(line, where: str) -> tuple[str, str, list]:
    """(the claim's text, its figure's text, its key=value pairs) from a text line, a list
    of command-line tokens, or a JSON object line."""
    if isinstance(line, str) and line.lstrip().startswith("{"):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ClaimError(f"{where}: not a JSON object: {e.msg} (column {e.colno})") from None
        except RecursionError:
            raise ClaimError(f"{where}: JSON nested too deeply") from None
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
        return line.strip(), fig_text, pairs
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
    return text, fig_text, pairs


def _sorted_pairs(pairs: list, base: Path) -> tuple[dict, dict, dict, dict]:
    """The pairs as (files, options, knobs, releases); each key once (``ref`` repeatable),
    file paths relative to ``base``."""
    files: dict = {}
    opts: dict = {}
    knobs: dict = {}
    releases: dict = {}
    for k, v in pairs:
        k = _case_key(k, v)
        if k in FILE_KEYS:
            files.setdefault(k, []).append(v)
            continue
        if k in VERSION_KEYS and _RELEASE.match(v.strip()):
            where, v = releases, v.strip()
        elif k in OPTION_KEYS or k in _CLAIM_KEYS:
            where = opts
        else:
            where = knobs
        if k in where:
            raise ClaimError(f"{k}= given twice")
        where[k] = v
    for k, paths in files.items():
        if k != "ref" and len(paths) > 1:
            raise ClaimError(f"{k}= given twice")
        files[k] = [str(p if Path(p).is_absolute() else base / p) for p in paths]
    return files, opts, knobs, releases


def _claim_format(opts: dict, files: dict, fig_text: str, name_for_metric: str, base: Path):
    """(format, golden case or None): stated, from golden=, or guessed from the file keys."""
    fmt = opts.get("format")
    if fmt == "case" or "golden" in opts:
        if "golden" not in opts:
            raise ClaimError("format=case needs golden=FILE.json#ID")
        if files:
            raise ClaimError(f"golden=: the inputs come from the case; drop {', '.join(sorted(files))}=")
        return "case", _load_case(opts["golden"], base)
    if fmt is None:
        if not files:
            raise ClaimError(f"claim {fig_text!r}: no input files (e.g. hyp=... ref=...) and no golden=FILE.json#ID")
        try:
            hint = resolve_metric(name_for_metric, explicit=opts.get("metric"))[0]
            hint = ALIASES.get(_norm_name(re.sub(r"@\s*\d+$", "", name_for_metric)), (hint,))
        except ClaimError:
            hint = ()
        return guess_format(files, hint), None
    if fmt not in FORMATS:
        raise ClaimError(f"format={fmt}: unknown format; formats are {', '.join(FORMATS)}, case"
                         + nearest(fmt, list(FORMATS) + ["case"]))
    return fmt, None


def _stated(m, metric: str, figure, fixed: dict, case, opts: dict, knobs: dict, files: dict, releases: dict,
            trec_knobs: dict) -> tuple[dict, str | None]:
    """(the conventions the claim states, the scale it states): from the golden case, a
    sacrebleu signature (whose version names the release), a trec_eval command line and
    the knobs given; each checked against the figure's name."""
    stated: dict = dict(case.conventions) if case is not None else {}
    if "sacrebleu" in opts or "signature" in opts:
        if metric not in ("bleu", "sentence_bleu"):
            raise ClaimError(f"a sacrebleu signature states BLEU conventions, not {metric}")
        sig = opts.get("sacrebleu") or opts["signature"]
        stated.update(parse_sacrebleu(sig, len(files.get("ref", [])) or None))
        version = signature_version(sig)
        if version and releases.get("sacrebleu", version) != version:
            raise ClaimError(f"sacrebleu={releases['sacrebleu']}, but the signature says version {version}")
        if version:
            releases["sacrebleu"] = version
    stated.update({k: v for k, v in trec_knobs.items() if k in {kn.name for kn in m.knobs}})
    if "k" in trec_knobs and "k" in fixed and trec_knobs["k"] != fixed["k"]:
        raise ClaimError(f"trec_eval cutoff {trec_knobs['k']} differs from the figure's @{fixed['k']}")
    knobs = dict(knobs)
    scale_opt = knobs.pop("scale", None) or opts.get("scale")
    for k, v in knobs.items():
        m.knob(k)  # raises ConventionError naming the nearest knob
        stated[k] = v
    for k, v in fixed.items():
        if k in stated and str(stated[k]) != str(v):
            raise ClaimError(f"{k}={stated[k]} contradicts the figure's name {figure.name}")
    stated.pop("scale", None)
    m.settings({**stated, **fixed})  # validate the stated conventions now (ConventionError names the knob)
    return stated, scale_opt


def _claim_inputs(fmt: str, case, files: dict, opts: dict, metric: str, trec_knobs: dict) -> tuple:
    """(inputs, what they were read from, reading, re-reader, notes): text files under a
    reading (``conformance.readings``), a run cut by trec_eval's -M and -J."""
    for k in ("gold_col", "pred_col", "token_col"):
        if k in opts:
            files[k] = opts[k]
    reading, reread, notes = "", None, []
    if case is not None:
        inputs, source = case.inputs, f"case {opts['golden']}"
    else:
        flat = {k: (v if k == "ref" else (v[0] if isinstance(v, list) else v)) for k, v in files.items()}
        if fmt == "text":
            from conformance.readings import READINGS, default_reading
            reading = opts.get("reading") or default_reading(metric)
            notes.append(f"files read as {reading} reads them: {READINGS[reading].summary} "
                         f"({READINGS[reading].source})"
                         + ("" if opts.get("reading") else "; the other readings are tried at the stated setting"))
            inputs = load_inputs(fmt, flat, metric, reading, notes)

            def reread(name, fmt=fmt, flat=flat, metric=metric):
                return load_inputs(fmt, flat, metric, name)
        else:
            if opts.get("reading"):
                raise ClaimError(f"reading= is for text files (format text), not {fmt}")
            inputs = load_inputs(fmt, flat, metric)
        source = f"{fmt}: " + " ".join(f"{k}={Path(p).name}" for k, v in files.items()
                                        for p in (v if isinstance(v, list) else [v]))
    if "_depth" in trec_knobs and isinstance(inputs, dict) and "run" in inputs:
        from oracle.trec import truncate_run
        inputs = dict(inputs, run=truncate_run(inputs["run"], int(trec_knobs["_depth"])))
        notes.insert(0, f"trec_eval -M {trec_knobs['_depth']}: the run is cut to each query's first "
                        f"{trec_knobs['_depth']} documents (score descending, then docno descending)")
    if "_judged" in trec_knobs and isinstance(inputs, dict) and "run" in inputs:
        from oracle.trec import judged_only
        inputs = dict(inputs, run=judged_only(inputs["run"], inputs.get("qrels", {})))
        notes.insert(int("_depth" in trec_knobs), "trec_eval -J: only the judged documents of each query are "
                                                  "ranked (form_res_rels.c)")
    return inputs, source, reading, reread, notes


def _claim_part(item, opts: dict, figure, metric: str) -> str | None:
    """The part of the result the figure is: part=, or the name's [TYPE] / [QUERY]."""
    part = opts.get("part")
    if not item:
        return part
    if part:
        raise ClaimError(f"{figure.name}: the name already picks {item.group(2)!r}; drop part=")
    table = {"entity_f1": "f1", "entity_precision": "precision", "entity_recall": "recall"}.get(metric)
    from oracle.registry import ranking_metrics
    if table is None and metric in ranking_metrics() and metric != "num_queries":
        table = "per_query"
    if table is None:
        raise ClaimError(f"{figure.name}: {metric} has no per-type or per-query values to pick from")
    return f"{table}.{item.group(2)}"


def parse_claim(line, base: Path | str = ".", where: str = "") -> Claim:
    """A claim from a line (text, or a list of command-line tokens, or a JSON object line)."""
    base = Path(base)
    text, fig_text, pairs = _claim_text(line, where)
    figure = parse_figure(fig_text)
    item = re.fullmatch(r"(.+?)\[([^\]]+)\]", figure.name)   # F1[LOC], nDCG@10[q1]: one type or query
    name_for_metric = item.group(1) if item else figure.name
    files, opts, knobs, releases = _sorted_pairs(pairs, base)
    fmt, case = _claim_format(opts, files, fig_text, name_for_metric, base)
    # a trec_eval command line states the measure and its conventions (the claim's qrels=/run=
    # win over the command's file arguments)
    trec_metric, trec_knobs, _ = parse_trec_eval(opts["trec_eval"]) if "trec_eval" in opts else (None, {}, [])
    metric, fixed = resolve_metric(name_for_metric, None if fmt == "case" else fmt,
                                   case.metric if case is not None and "part" not in opts else None,
                                   opts.get("metric") or (case.metric if case is not None and "part" in opts else None))
    if trec_metric is not None and trec_metric != metric:
        raise ClaimError(f"trec_eval measure gives {trec_metric}, but the figure names {metric}")
    m = get_metric(metric)
    stated, scale_opt = _stated(m, metric, figure, fixed, case, opts, knobs, files, releases, trec_knobs)
    inputs, source, reading, reread, notes = _claim_inputs(fmt, case, files, opts, metric, trec_knobs)
    part = _claim_part(item, opts, figure, metric)
    if "gold" in inputs and "scheme" not in stated and "scheme" in {kn.name for kn in m.knobs}:
        from conformance.formats import detect_scheme
        scheme = detect_scheme(inputs)
        if scheme != m.settings({})["scheme"]:
            stated["scheme"] = scheme
            notes.append(f"scheme={scheme}: detected from the tags (the claim states no scheme; "
                         f"the default {m.settings({})['scheme']} does not read them)")
    return Claim(text=text, figure=figure, metric=metric, fixed=fixed, stated=stated, inputs=inputs, part=part,
                 scale=_scale(figure, metric, scale_opt), where=where, source=source, notes=notes,
                 releases=releases, reading=reading, reading_stated=bool(opts.get("reading")), reread=reread)


def read_claims(path) -> list[Claim]:
    """Every claim of a claims file (errors name the file and line)."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8-sig").splitlines()
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
