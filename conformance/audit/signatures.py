"""Conventions stated the way the field states them: a sacrebleu signature
(``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0`` or the 1.x
``BLEU+case.mixed+...`` form) and a trec_eval command line
(``trec_eval -m ndcg_cut.10 -l 2 -c``), read into oracle knobs."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from oracle.conventions import ConventionError, nearest


class ClaimError(ConventionError):
    """A claim that cannot be read: no number, unknown metric, key or convention."""

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


def signature_version(signature: str) -> str | None:
    """The sacrebleu release a signature names (``version:2.0.0``, ``+version.1.4.14``,
    ``v:2.0.0``), or None."""
    text = signature.strip()
    items = [p.split(".", 1) for p in text.split("+")[1:]] if text.upper().startswith("BLEU+") else \
        [p.split(":", 1) for p in text.split("|")]
    for it in items:
        if len(it) == 2 and it[0].strip().lower() in ("version", "v"):
            return it[1].strip()
    return None


# trec_eval measure -> (metric, the knob its parameter sets or None, whether the parameter is
# required: a cutoff is, since trec_eval would print one figure per default cutoff)
_TREC_MEASURES = {"ndcg_cut": ("ndcg", "k", True), "ndcg": ("ndcg", None, False),
                  "P": ("precision_at_k", "k", True), "recall": ("recall_at_k", "k", True),
                  "map_cut": ("average_precision", "k", True), "map": ("average_precision", None, False),
                  "recip_rank": ("reciprocal_rank", None, False), "success": ("hit_rate", "k", True),
                  "Rprec": ("r_precision", None, False),
                  # trec_eval's further measures (oracle.ranking_trec)
                  "num_q": ("num_queries", None, False), "num_ret": ("num_retrieved", None, False),
                  "num_rel": ("num_relevant", None, False), "num_rel_ret": ("num_relevant_retrieved", None, False),
                  "num_nonrel_judged_ret": ("num_nonrelevant_judged_retrieved", None, False),
                  "set_P": ("set_precision", None, False), "set_recall": ("set_recall", None, False),
                  "set_F": ("set_f", "x", False), "set_map": ("set_ap", None, False),
                  "set_relative_P": ("set_relative_precision", None, False),
                  "relative_P": ("relative_precision_at_k", "k", True),
                  "Rprec_mult": ("precision_at_r_multiple", "multiple", True),
                  "iprec_at_recall": ("interpolated_precision", "recall", True),
                  "11pt_avg": ("eleven_point_ap", None, False), "bpref": ("bpref", None, False),
                  "gm_bpref": ("gm_bpref", None, False), "infAP": ("infap", None, False),
                  "utility": ("utility", "coefficients", False), "binG": ("bin_g", None, False),
                  "G": ("g", None, False), "Rndcg": ("rndcg", None, False), "ndcg_rel": ("ndcg_rel", None, False),
                  "gm_map": ("gm_ap", None, False)}


def trec_measure_name(text: str) -> tuple[str, str]:
    """(measure, parameter) of trec_eval's -m text (``P.5``, ``iprec_at_recall.0.30``) or of the
    name it prints (``P_5``, ``iprec_at_recall_0.30``, ``Rprec_mult_0.20``)."""
    name, _, param = text.partition(".")
    if name not in _TREC_MEASURES and "_" in text:
        head, _, tail = text.rpartition("_")
        if head in _TREC_MEASURES and re.fullmatch(r"\d+(\.\d+)?", tail):
            return head, tail
    return name, param


def parse_trec_eval(command: str) -> tuple[str | None, dict, list]:
    """(metric, knob settings, trailing file arguments) of a trec_eval command line.

    -m measure[.K] (ndcg_cut.10, P.5, recall.100, map, map_cut.10, recip_rank,
    success.1, Rprec, ndcg), -l N (threshold), -c (missing queries score 0:
    missing=zero; without -c they are left out: missing=skip), -M N (each query's
    first N documents only: returned as ``_depth``, for ``oracle.trec.truncate_run``), -J
    (judged documents only: ``_judged``, for ``oracle.trec.judged_only``),
    -q (per-query output, no effect on the mean). trec_eval's tie rule, linear gains and
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
            name, param = trec_measure_name(v)
            if name not in _TREC_MEASURES:
                raise ClaimError(f"trec_eval -m {v}: not a measure the oracle has; measures are "
                                 f"{', '.join(_TREC_MEASURES)}" + nearest(name, _TREC_MEASURES))
            m, knob, required = _TREC_MEASURES[name]
            if metric is not None and metric != m:
                raise ClaimError(f"trec_eval: several measures ({metric}, {m}); audit one figure at a time")
            metric = m
            if knob == "k":
                if not param.isdigit():
                    raise ClaimError(f"trec_eval -m {v}: give the cutoff, e.g. {name}.10")
                knobs["k"] = param
            elif knob is not None and param:
                knobs[knob] = param
            elif knob is not None and required:
                raise ClaimError(f"trec_eval -m {v}: give the parameter, e.g. {name}.0.5")
            elif param:
                raise ClaimError(f"trec_eval -m {v}: {name} takes no parameter")
            if m in ("ndcg", "dcg"):
                knobs.update(gain="linear", ideal="judged", threshold_gains="yes", negative="zero")
        elif a == "-l":
            if not v.isdigit():
                raise ClaimError(f"trec_eval -l {v}: expected an integer relevance level")
            knobs["threshold"] = v
        elif a == "-M":
            if not v.isdigit() or int(v) < 1:
                raise ClaimError(f"trec_eval -M {v}: expected a positive number of documents per query")
            knobs["_depth"] = v   # not a knob: the run is cut to its first v documents per query
        elif a == "-c":
            knobs["missing"] = "zero"
        elif a == "-J":
            knobs["_judged"] = "yes"   # not a knob: the run keeps its judged documents (oracle.trec.judged_only)
        elif a == "-q":
            pass
        elif a.startswith("-"):
            raise ClaimError(f"trec_eval {a}: an option the audit does not model; it reads -m, -l, -M, -c, -J, -q")
        else:
            files.append(a)
    return metric, knobs, files
