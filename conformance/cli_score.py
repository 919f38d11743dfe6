"""``metric-conformance score``: exact values of one or several metrics straight from the
field's files, with each anchor tool's argument names where they exist:

    score -m bleu -r ref.txt [-r ref2.txt] -i hyp.txt          (sacrebleu: -i, -m)
    score -m ndcg_cut.10 map P.5 -q qrels.txt run.txt          (trec_eval: -m, -q, -c, -l)
    score -m wer cer -r ref.txt -h hyp.txt                      (jiwer: -r, -h)
    score -m entity_f1 --conll file.conll -q                    (conlleval / seqeval: per type)
    score -m accuracy f1 --truth t.txt --pred p.txt

Measures are the oracle's metric names, or trec_eval's (``ndcg_cut.10``, ``P.5``,
``map``, ...) with trec_eval's conventions. ``--conventions JSON`` sets knobs of every
measure that has them. Each value prints with certified digits (BLEU as sacrebleu prints
it, times 100 with 2 decimals; the rest with 4), ``--exact`` adds the closed form, and
``-q`` the per-query, per-utterance or per-type rows. Output as a table, JSON, CSV or
LaTeX (``--format``)."""
from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Mapping
from fractions import Fraction

from conformance.cli_common import UsageError, bounded_int

_PER_ITEM = {"ranking": "per query", "rates": "per utterance", "tagging": "per type"}


def add_parser(sub) -> None:
    s = sub.add_parser("score", add_help=False, help="exact values of metrics straight from evaluation files",
                       description=__doc__.split("\n\n", 1)[0])
    s.add_argument("--help", action="help", help="show this help message and exit")
    s.add_argument("-m", "--metrics", nargs="+", action="extend", metavar="MEASURE",
                   help="oracle metric names or trec_eval measures (ndcg_cut.10, P.5, map, recip_rank, ...; "
                        "P, recall, ndcg_cut, iprec_at_recall ... without a parameter: trec_eval's default "
                        "cutoffs; P.5,10: several); without -m on QRELS RUN, trec_eval's default "
                        "(official) measures")
    s.add_argument("files", nargs="*", help="trec_eval's QRELS RUN, or sacrebleu's reference files (with -i, or the "
                                            "hypotheses on standard input)")
    s.add_argument("-r", "--ref", "--reference", action="append", metavar="FILE",
                   help="reference file, one segment per line (repeatable: one per reference set)")
    s.add_argument("-i", "--input", "-h", "--hyp", "--hypothesis", dest="hyp", metavar="FILE",
                   help="hypothesis file, one segment per line")
    s.add_argument("--conll", metavar="FILE", help="a CoNLL file (tokens, then gold and predicted tags)")
    s.add_argument("--truth", metavar="FILE", help="true labels, one per line")
    s.add_argument("--pred", metavar="FILE", help="predicted labels, one per line")
    s.add_argument("-q", dest="per_item", action="store_true",
                   help="also the per-query (ranking), per-utterance (error rates) or per-type (tagging) rows")
    s.add_argument("-c", dest="complete", action="store_true",
                   help="trec_eval -c: a query of the qrels missing from the run scores 0")
    s.add_argument("-l", dest="level", type=int, help="trec_eval -l: the least relevant grade")
    s.add_argument("-M", dest="depth", type=bounded_int(0), help="trec_eval -M: each query's first N documents only")
    s.add_argument("-J", dest="judged_only", action="store_true",
                   help="trec_eval -J: rank only the documents the qrels judge")
    s.add_argument("--chunk-lines", type=bounded_int(1), default=None, metavar="N",
                   help="a run file is read and evaluated about N lines at a time (default 500000), so memory "
                        "holds one chunk, the qrels and the per-query values; a run whose queries' lines are "
                        "not consecutive is read whole")
    s.add_argument("--align", action="store_true",
                   help="error rates: print each utterance's alignment (as jiwer's visualize_alignment; "
                        "the tie rule's alignment, jiwer's own rule under tie=any)")
    s.add_argument("--reading", choices=("sacrebleu", "jiwer", "plain"),
                   help="how text files are read (a byte-order mark, line breaks, whitespace at the ends of a "
                        "line): as sacrebleu reads them (the default for BLEU and chrF), as jiwer's command line "
                        "does (the default for the error rates), or plain (the text as written)")
    s.add_argument("--conventions", default="{}", help="knob settings as JSON, for every measure that has them")
    s.add_argument("--digits", "-w", "--width", dest="digits", type=bounded_int(0, 1000),
                   help="decimal places, 0 to 1,000 (default: 2 for BLEU times 100, else 4; -w is sacrebleu's)")
    s.add_argument("-b", "--score-only", action="store_true",
                   help="print the values only, one per line (sacrebleu's -b)")
    s.add_argument("--exact", action="store_true", help="also print each exact value")
    s.add_argument("--format", choices=("table", "json", "csv", "latex", "conlleval"), default="table",
                   help="the layout; conlleval: conlleval.pl's report of a CoNLL file (-m entity_f1 --conll FILE), "
                        "under its reading")
    s.set_defaults(fn=cmd_score)


# trec_eval 10.0's default parameters of a measure named without one (m_P.c, m_recall.c,
# m_ndcg_cut.c, m_map_cut.c, m_rel_P.c: long_cutoff_array; m_success.c; m_iprec_at_recall.c;
# m_Rprec_mult.c), and its default measures, "official" (measures.c: off_names; runid,
# the run's name, is not a value)
_CUTOFFS = ["5", "10", "15", "20", "30", "100", "200", "500", "1000"]
TREC_DEFAULT_PARAMS = {"P": _CUTOFFS, "recall": _CUTOFFS, "ndcg_cut": _CUTOFFS, "map_cut": _CUTOFFS,
                       "relative_P": _CUTOFFS, "success": ["1", "5", "10"],
                       "iprec_at_recall": [f"{i / 10:.2f}" for i in range(11)],
                       "Rprec_mult": [f"{i / 5:.2f}" for i in range(1, 11)]}
TREC_OFFICIAL = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P"]
# measures trec_eval prints as integers (its "%ld" measures: m_num_q.c, m_num_ret.c, ...)
INTEGER_MEASURES = ("num_queries", "num_retrieved", "num_relevant", "num_relevant_retrieved",
                    "num_nonrelevant_judged_retrieved")


def _trec_names(name: str) -> list[tuple[str, str]]:
    """(name as trec_eval prints it, -m text) of one -m value: ``P`` is trec_eval's nine
    cutoffs (P_5 ... P_1000), ``P.5,10`` two, ``map`` itself."""
    base, _, param = name.partition(".")
    params = param.split(",") if param else TREC_DEFAULT_PARAMS.get(base)
    if not params:
        return [(name, name)]
    return [(f"{base}_{p}" if not param or "," in param else name, f"{base}.{p}") for p in params]


def _measures(args) -> list[tuple[str, str, dict]]:
    """(name as given, oracle metric, knob settings) per measure."""
    from oracle.conventions import nearest
    from oracle.registry import get_metric, metric_names
    from conformance.audit.signatures import _TREC_MEASURES, parse_trec_eval
    try:
        extra = json.loads(args.conventions)
    except json.JSONDecodeError as e:
        raise UsageError(f"--conventions: not JSON ({e.msg})") from None
    if not isinstance(extra, dict):
        raise UsageError("--conventions: expected a JSON object of knob settings")
    out, used = [], set()
    names = []
    for name in args.metrics:
        if name.split(".", 1)[0] in _TREC_MEASURES:
            names += _trec_names(name)
        else:
            names.append((name, name))
    for name, text in names:
        if text.split(".", 1)[0] in _TREC_MEASURES:
            cmd = f"-m {text}" + (" -c" if args.complete else "") + (f" -l {args.level}" if args.level else "")
            metric, knobs, _ = parse_trec_eval(cmd)
            knobs.pop("_depth", None)
            knobs.pop("_judged", None)
        elif name in metric_names():
            metric, knobs = name, {}
        elif name in _ROUGE_TYPES:
            metric, knobs = _ROUGE_TYPES[name][0], dict(_ROUGE_TYPES[name][1])
        else:
            hint = nearest(name, list(metric_names()) + list(_TREC_MEASURES) + list(_ROUGE_TYPES))
            raise UsageError(f"-m {name}: " + (f"unknown measure{hint}" if hint else
                             f"not supported; the oracle has {', '.join(metric_names())} and the trec_eval "
                             f"measures {', '.join(_TREC_MEASURES)}"))
        knob_names = {k.name for k in get_metric(metric).knobs}
        for k, v in extra.items():
            if k in knob_names:
                knobs[k] = v
                used.add(k)
        get_metric(metric).settings(knobs)   # a bad knob value is a ConventionError now
        out.append((name, metric, knobs))
    unused = set(extra) - used
    if unused:
        raise UsageError(f"--conventions: no measure has the knob(s) {', '.join(sorted(unused))}")
    return out


def _inputs(args, metric: str) -> dict:
    from conformance.formats import load_inputs
    if args.files:   # QRELS RUN (their count checked by ``_streamed``, which runs first)
        inputs = load_inputs("trec", {"qrels": args.files[0], "run": args.files[1]}, metric)
        return dict(inputs, run=_run_transform(args)(inputs["run"], inputs["qrels"]))
    if args.conll:
        return load_inputs("conll", {"conll": args.conll}, metric)
    if args.truth or args.pred:
        if not (args.truth and args.pred):
            raise UsageError("--truth and --pred go together")
        return load_inputs("labels", {"truth": args.truth, "pred": args.pred}, metric)
    if args.hyp or args.ref:
        if not (args.hyp and args.ref):
            raise UsageError("give the references (-r) and the hypotheses (-i or -h)")
        return load_inputs("text", {"hyp": args.hyp, "ref": args.ref}, metric, args.reading, args.read_notes)
    raise UsageError("no input files: QRELS RUN, -r REF -i HYP, --conll FILE, or --truth FILE --pred FILE")


def _family(metric: str) -> str:
    from oracle.registry import ranking_metrics
    if metric in ranking_metrics():
        return "ranking"
    if metric in ("wer", "cer", "mer", "wil", "wip"):
        return "rates"
    if metric in ("entity_f1", "entity_precision", "entity_recall"):
        return "tagging"
    if metric in ("rouge_n", "rouge_l", "rouge_lsum", "rouge_s"):
        return "summaries"
    return ""


def _per_item(metric: str, inputs: dict, settings: dict, result) -> list[tuple[str, object]]:
    """(item, exact value) rows under -q."""
    from oracle import compute
    fam = _family(metric)
    if fam == "ranking":
        per = result.parts.get("per_query", {})
        return list(per.items()) if isinstance(per, Mapping) else [tuple(x) for x in per]
    if fam == "rates":
        errs = result.parts.get("utterance_errors")
        lens = result.parts.get("utterance_reference_lengths")
        if errs is None:   # a tie rule other than any: one call per utterance
            return [(str(i + 1), compute(metric, {"references": [r], "hypotheses": [h]}, settings).value)
                    for i, (r, h) in enumerate(zip(inputs["references"], inputs["hypotheses"]))]
        return [(str(i + 1), Fraction(e, n) if n else None) for i, (e, n) in enumerate(zip(errs, lens))]
    if fam == "tagging":
        report = compute("entity_report", inputs, {k: v for k, v in settings.items() if k != "average"}).value
        key = {"entity_f1": "f1", "entity_precision": "precision", "entity_recall": "recall"}[metric]
        return [(t, row[key]) for t, row in report.items() if isinstance(row, dict) and key in row]
    if fam == "summaries":   # the mean's terms: each summary scored alone
        return [(str(i + 1), compute(metric, {"hypotheses": [h], "references": [rs]}, settings).value)
                for i, (h, rs) in enumerate(zip(inputs["hypotheses"], inputs["references"]))]
    return []   # no per-item rows (ranking, error rates, entity scores and ROUGE have them)


def _shown(metric: str, x, digits: int | None, settings: dict) -> str:
    from oracle.certified import places
    from oracle.exact import Admissible, Undefined
    if x is None or isinstance(x, Undefined):
        return "undefined" if x is None else str(x)
    if isinstance(x, Admissible):
        return "{" + ", ".join(_shown(metric, v, digits, settings) for v in x.values) + "} (tie-dependent)"
    if isinstance(x, dict):
        return json.dumps({str(k): _shown(metric, v, digits, settings) for k, v in x.items()})
    if metric in INTEGER_MEASURES and digits is None and isinstance(x, (int, Fraction)) and x == int(x):
        return str(int(x))   # as trec_eval prints a count
    scale = 100 if metric in ("bleu", "sentence_bleu", "chrf", "ter") and settings.get("scale", "fraction") == "fraction" \
        else 1
    nd = digits if digits is not None else (2 if scale == 100 else 4)
    return places(x * scale if scale != 1 else x, nd)


def _sacrebleu_signature(settings: dict, n_refs: int) -> str | None:
    """The BLEU setting in sacrebleu 2.x's signature format, where sacrebleu has it."""
    from conformance.audit.signatures import _SB_SMOOTH, _SB_TOK
    from importlib.metadata import PackageNotFoundError, version
    try:
        ours = version("metric-conformance")
    except PackageNotFoundError:
        ours = "unknown"
    tok = {v: k for k, v in _SB_TOK.items()}.get(settings.get("tokenizer"))
    smooth = {v: k for k, v in _SB_SMOOTH.items()}.get(settings.get("smoothing"))
    if tok is None or smooth is None or settings.get("order") != "4" or settings.get("weights") != "uniform" \
            or settings.get("ref_length") != "closest-shorter" and settings.get("ref_length") != "closest":
        return None
    case = "lc" if settings.get("case") == "lower" else "mixed"
    eff = "yes" if settings.get("effective_order") == "yes" else "no"
    return f"nrefs:{n_refs}|case:{case}|eff:{eff}|tok:{tok}|smooth:{smooth}|version:metric-conformance-{ours}"


# the anchor's defaults where the canonical default differs: sacrebleu 2.x's BLEU(smooth_method="exp")
# (sacrebleu/metrics/bleu.py), against no smoothing in Papineni et al. (2002)
_ANCHOR_DEFAULTS = {"bleu": ("sacrebleu 2.x", {"smoothing": "exp"}),
                    "ter": ("sacrebleu 2.x", {"zero_reference": "one-if-edits"}),
                    **{m: ("rouge-score", {"tokenizer": "rouge-score", "multi_reference": "best-f"})
                       for m in ("rouge_n", "rouge_l", "rouge_lsum")}}

# rouge-score's names of its measures (RougeScorer(rouge_types), rouge.py --rouge_types)
_ROUGE_TYPES = {**{f"rouge{n}": ("rouge_n", {"n": str(n)}) for n in range(1, 10)},
                "rougeL": ("rouge_l", {}), "rougeLsum": ("rouge_lsum", {})}


def _anchor_defaults(name: str, metric: str, knobs: dict, inputs: dict, value, digits) -> list[str]:
    """A note for each default of the measure's anchor tool that differs from the canonical
    default the value was computed with, and what the anchor's default gives on these files."""
    from oracle import compute, get_metric
    tool, theirs = _ANCHOR_DEFAULTS.get(metric, ("", {}))
    m = get_metric(metric)
    ours = m.settings(knobs)
    differ = {k: v for k, v in theirs.items() if k not in knobs and ours.get(k) != v}
    if not differ:
        return []
    anchor_value = compute(metric, inputs, {**knobs, **differ}).value
    settings = m.settings({**knobs, **differ})
    same = "the same value on these files" if anchor_value == value else         f"{_shown(metric, anchor_value, digits, settings)} on these files"
    return [f"{name}: {' '.join(f'{k}={ours[k]}' for k in differ)} (the canonical default) where {tool}'s default is "
            f"{' '.join(f'{k}={v}' for k, v in differ.items())}: {same} (--conventions "
            f"'{json.dumps(differ)}' for {tool}'s)"]


def _split_files(args) -> None:
    """``-m map P.5 qrels run``: -m takes several values, so trailing ones that name existing
    files and no measure are the positional files (trec_eval's QRELS RUN)."""
    import os
    from oracle.registry import metric_names
    from conformance.audit.signatures import _TREC_MEASURES
    moved = []
    args.metrics = args.metrics or []
    while args.metrics and os.path.isfile(args.metrics[-1]) and args.metrics[-1] not in metric_names() \
            and args.metrics[-1].split(".", 1)[0] not in _TREC_MEASURES:
        moved.insert(0, args.metrics.pop())
    args.files = moved + list(args.files)


def _sacrebleu_positional(args) -> None:
    """sacrebleu's spelling, ``sacrebleu REF [REF ...] -i HYP`` or ``sacrebleu REF < HYP``:
    positional files are references when the hypotheses come with -i or on standard input
    and every measure reads text files (trec_eval's QRELS RUN are positional otherwise)."""
    from conformance.readings import ANCHOR
    if not args.files or args.ref or not args.metrics:
        return
    if not all(m in ANCHOR for m in args.metrics):   # ANCHOR names oracle metrics only
        return
    if args.hyp is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("give the hypotheses: -i FILE, or on standard input (sacrebleu REF < HYP)")
        args.hyp = "-"
    args.ref, args.files = list(args.files), []


def _conlleval(args) -> str:
    """conlleval.pl's report of a CoNLL file, under its reading (``reading=conlleval``),
    each figure certified: the phrase counts, the token accuracy, the overall precision,
    recall and FB1, then per type (sorted) with the number of phrases found, printed as
    conlleval.pl prints them (``%6.2f``; a -DOCSTART- line counts as a token, as there)."""
    from oracle import compute
    from oracle.certified import places
    from conformance.formats import read_conll, read_lines
    if not args.conll:
        raise UsageError("--format conlleval reads a CoNLL file: --conll FILE")
    x = read_conll(args.conll)
    knobs = {"reading": "conlleval", **json.loads(args.conventions or "{}")}
    stats = compute("entity_report", {"gold": x["gold"], "pred": x["pred"]}, knobs).stats
    docstarts = [ln.split() for ln in read_lines(args.conll) if ln.split()[:1] == ["-DOCSTART-"]]
    tokens = sum(map(len, x["gold"])) + len(docstarts)
    right = sum(g == p for gs, ps in zip(x["gold"], x["pred"]) for g, p in zip(gs, ps)) + \
        sum(f[-1] == f[-2] for f in docstarts)

    def pct(n, d) -> Fraction:
        return Fraction(100 * n, d) if d else Fraction(0)

    def prf(tp, found, gold) -> str:
        p, r = pct(tp, found), pct(tp, gold)
        f = 2 * p * r / (p + r) if p + r else Fraction(0)
        return f"precision: {places(p, 2):>6}%; recall: {places(r, 2):>6}%; FB1: {places(f, 2):>6}"
    out = [f"processed {tokens} tokens with {stats['gold_total']} phrases; found: {stats['pred_total']} phrases; "
           f"correct: {stats['tp_total']}."]
    if tokens:
        out.append(f"accuracy: {places(pct(right, tokens), 2):>6}%; "
                   + prf(stats["tp_total"], stats["pred_total"], stats["gold_total"]))
    for t in sorted(set(stats["gold"]) | set(stats["pred"]), key=lambda t: t.encode()):
        out.append(f"{t:>17}: " + prf(stats["tp"].get(t, 0), stats["pred"].get(t, 0), stats["gold"].get(t, 0))
                   + f"  {stats['pred'].get(t, 0)}")
    return "\n".join(out) + "\n"


def cmd_score(args) -> int:
    from oracle import compute, get_metric
    if args.format == "conlleval":
        sys.stdout.write(_conlleval(args))
        return 0
    _split_files(args)
    _sacrebleu_positional(args)
    if not args.metrics:
        if len(args.files) != 2:
            raise UsageError("-m: give at least one measure (without -m, QRELS RUN are scored with trec_eval's "
                             "default measures)")
        args.metrics = list(TREC_OFFICIAL)
    rows = []   # (measure, item, value text, exact text)
    notes = []
    measures = _measures(args)
    read: dict = {}

    def inputs_of(metric: str) -> dict:
        """The files read once: a text file's inputs depend on the metric (BLEU's references
        are lists per segment), every other format's do not."""
        key = metric if (args.hyp or args.ref) and not (args.files or args.conll or args.truth or args.pred) \
            else None
        if key not in read:
            args.read_notes = []
            read[key] = _inputs(args, metric)
            if key is not None:
                from conformance.readings import READINGS, default_reading
                how = READINGS[args.reading or default_reading(metric)]
                said = f"{metric}: files read as {how.name} reads them: {how.summary} ({how.source})"
                if said not in notes:
                    notes.append(said)
            notes.extend(n for n in args.read_notes if n not in notes)
        return read[key]
    tty = sys.stderr.isatty()
    streamed = _streamed(args, measures, tty) if args.files else None
    for n, (name, metric, knobs) in enumerate(measures, 1):
        if tty and not streamed:   # progress on long inputs
            sys.stderr.write(f"\rscoring {name} ({n}/{len(measures)}) ...")
            sys.stderr.flush()
        inputs = {} if streamed else inputs_of(metric)
        if "gold" in inputs and "scheme" not in knobs and "scheme" in {k.name for k in get_metric(metric).knobs}:
            from conformance.formats import detect_scheme
            scheme = detect_scheme(inputs)
            knobs = dict(knobs, scheme=scheme)
            notes.append(f"{name}: tagging scheme {scheme}, detected from the tags (set it with --conventions)")
        m = get_metric(metric)
        settings = m.settings(knobs)
        result = streamed[n - 1] if streamed else compute(metric, inputs, knobs)
        rows.append((name, "all", _shown(metric, result.value, args.digits, settings), _exact(result.value)))
        notes.append(f"{name}: {m.signature(knobs)}")
        if metric == "bleu":
            sb = _sacrebleu_signature(settings, len(inputs["references"][0]) if inputs["references"] else 0)
            if sb:
                notes.append(f"{name} (sacrebleu's format): {sb}")
        if metric in _ANCHOR_DEFAULTS:
            notes.extend(_anchor_defaults(name, metric, knobs, inputs, result.value, args.digits))
        if args.per_item:
            for item, v in _per_item(metric, inputs, settings, result):
                rows.append((name, str(item), _shown(metric, v, args.digits, settings), _exact(v)))
    if tty:
        sys.stderr.write("\r" + " " * 60 + "\r")
    if args.align:
        sys.stdout.write(_alignments(measures, inputs_of))
    if args.depth is not None and args.files:
        notes.append(f"-M {args.depth}: each query's first {args.depth} documents (score descending, then docno "
                     "descending, as trec_eval)")
    sys.stdout.write(_render(rows, notes, args))
    return 0


def _run_transform(args):
    """trec_eval's -M and -J as a function (run, qrels) -> run, applied per query (so per
    chunk of a streamed run): each query's first N documents, then only the judged ones."""
    from oracle.trec import judged_only, truncate_run
    if args.depth is not None and args.depth < 1:
        raise UsageError(f"-M {args.depth}: the depth must be at least 1")

    def transform(run: dict, qrels: dict) -> dict:
        if args.depth is not None:
            run = truncate_run(run, args.depth)
        return judged_only(run, qrels) if args.judged_only else run
    return transform


def _streamed(args, measures: list, tty: bool) -> list | None:
    """The Results of the ranking measures over QRELS RUN, the run read and evaluated in
    chunks of whole queries (``oracle.trec_stream``), all measures in one pass; None when a
    measure is not a ranking measure. A run whose queries are interleaved is read whole."""
    from oracle.trec import read_qrels, read_run
    from oracle.trec_stream import CHUNK_LINES, Interleaved, compute_streamed, iter_run_chunks
    if len(args.files) != 2:
        raise UsageError("give the qrels and the run file (trec_eval's order: QRELS RUN)")
    if any(_family(metric) != "ranking" for _, metric, _ in measures):
        return None
    transform = _run_transform(args)
    size = CHUNK_LINES if args.chunk_lines is None else args.chunk_lines
    if size < 1:
        raise UsageError(f"--chunk-lines {size}: give at least 1")
    qrels = read_qrels(args.files[0])
    todo = [(metric, knobs) for _, metric, knobs in measures]
    read = [0]

    def progress(chunks):
        for run in chunks:
            read[0] += len(run)
            if tty:
                sys.stderr.write(f"\rscoring {len(todo)} measures: {read[0]} queries read ...")
                sys.stderr.flush()
            yield run
    try:
        return compute_streamed(qrels, progress(iter_run_chunks(args.files[1], size, duplicates="keep")),
                                todo, transform)
    except Interleaved:
        read[0] = 0
        return compute_streamed(qrels, progress([read_run(args.files[1], duplicates="keep")]), todo, transform)


def _alignments(measures: list, inputs_of) -> str:
    """Each utterance's alignment: REF and HYP lines with ``*`` for a missing word, words
    right-aligned in their column and the marks S, D, I under the errors (the layout of
    jiwer's visualize_alignment)."""
    from oracle import compute
    rates = [(metric, knobs) for _, metric, knobs in measures if _family(metric) == "rates"]
    if not rates:
        raise UsageError("--align: give an error rate (wer, cer, mer, wil, wip) among the measures")
    metric, knobs = rates[0]
    inputs = inputs_of(metric)
    rule = knobs.get("tie", "any")
    rule = "rapidfuzz" if rule == "any" else rule
    result = compute(metric, inputs, dict(knobs, tie=rule))
    out = [f"alignments of {metric} (tie rule {rule}):"]
    for n, ops in enumerate(result.parts["alignments"][rule], 1):
        ref, hyp, marks = [], [], []
        for kind, x, y in ops:
            x, y = ("" if x is None else str(x)), ("" if y is None else str(y))
            w = max(len(x), len(y), 1)
            ref.append((x or "*" * w).rjust(w))
            hyp.append((y or "*" * w).rjust(w))
            marks.append(("" if kind == "C" else kind).rjust(w))
        out += ["", f"sentence {n}", "REF: " + " ".join(ref), "HYP: " + " ".join(hyp),
                ("     " + " ".join(marks)).rstrip()]
    return "\n".join(out) + "\n\n"


def _exact(x) -> str:
    from oracle import exact_str
    from oracle.exact import Undefined
    if x is None:
        return "undefined"
    if isinstance(x, (dict, list)):
        return json.dumps(x, default=str)
    return str(x) if isinstance(x, Undefined) else exact_str(x)


def _render(rows, notes, args) -> str:
    fmt = args.format
    if args.score_only:
        return "".join(f"{v}\n" for _, _, v, _ in rows)
    if fmt == "json":
        return "".join(json.dumps({"measure": m, "item": i, "value": v, "exact": e}, ensure_ascii=False) + "\n"
                       for m, i, v, e in rows) + json.dumps({"signatures": notes}, ensure_ascii=False) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["measure", "item", "value"] + (["exact"] if args.exact else []))
        for m, i, v, e in rows:
            w.writerow([m, i, v] + ([e] if args.exact else []))
        return buf.getvalue()
    if fmt == "latex":
        lines = ["\\begin{tabular}{llr}", "\\hline", "Measure & Item & Value \\\\", "\\hline"]
        lines += [f"{_tex(m)} & {_tex(i)} & {_tex(v)} \\\\" for m, i, v, _ in rows]
        lines += ["\\hline", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    # trec_eval's layout: measure, item, value, tab-separated; then the signatures
    out = [f"{m:<16}\t{i}\t{v}" + (f"\t{e}" if args.exact else "") for m, i, v, e in rows]
    out += [f"# {n}" for n in notes]
    return "\n".join(out) + "\n"


def _tex(s: str) -> str:
    return "".join("\\" + c if c in "&%$#_{}" else c for c in str(s))
