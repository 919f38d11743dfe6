"""The ranking measures under many settings at once (``oracle.many``).

Runs are prepared once per duplicates rule; per-query profiles once per (tie
rule, threshold, gain mapping, ideal); per-query values are summed per query
category (in qrels, in run, has relevant) once and the categories combined for
each query-set choice. The per-query formulas are ``oracle.ranking``'s.
"""
from __future__ import annotations

from fractions import Fraction

from .ranking import check_same_queries, ranked_judgements
from .ranking_inputs import _check_inputs
from .ranking_measures import _ap, _cut, _dcg_form, _hit, _precision, _r_precision, _recall, _rr
from .ranking_query import _add_form, _form_expr, _form_quotient, _ideal_form, _profile, gain_of
from .conventions import InputError, Refused
from .exact import Undefined, total


def ranking_values(metric: str, inputs, settings_list: list) -> list:
    """Ranking measures under every setting: runs prepared once, per-query profiles once per
    (duplicates, ties, threshold, gain mapping, ideal), per-query values summed per query
    category (in qrels, in run, has relevant) once, categories combined per query-set choice."""
    with_gains = metric in ("dcg", "ndcg")
    per_query_fn = {"hit_rate": _hit, "reciprocal_rank": _rr, "precision_at_k": _precision,
                    "recall_at_k": _recall, "r_precision": _r_precision,
                    "average_precision": _ap}.get(metric)
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
        dup = (s["duplicates"], s.get("score_precision", "exact"))   # how the run is read
        if dup not in prepared:
            try:
                prepared[dup] = _check_inputs(inputs, *dup)
            except InputError as e:
                prepared[dup] = Refused(str(e))
            if not isinstance(prepared[dup], Refused):
                for judged in prepared[dup][0].values():
                    grades.update(judged.values())
        if isinstance(prepared[dup], Refused):
            out.append(prepared[dup])
            continue
        qrels, run = prepared[dup]
        if s["queries"] == "equal":
            try:
                check_same_queries(qrels, run)
            except InputError as e:
                out.append(Refused(str(e)))
                continue
        thr = int(s["threshold"])
        gmap = tuple((g, gain_of(g, s)) for g in sorted(grades)) if with_gains else ()
        ranked_only = s.get("relevant_count") == "ranked"
        pkey = (dup, s["ties"], thr, gmap, s.get("ideal") if metric == "ndcg" else None, ranked_only)
        vkey = pkey + (s.get("k"), s.get("precision_denominator"), s.get("ap_denominator"))
        agg = agg_cache.get(vkey)
        if agg is None:
            profiles = profile_cache.get(pkey)
            if profiles is None:
                profiles = {}
                gain = dict(gmap)
                tied = ties_cache.get(dup)
                if tied is None:
                    tied = ties_cache[dup] = {q: judged_tie(run[q], qrels.get(q, {})) for q in run}
                for q in list(qrels) + [q for q in run if q not in qrels]:
                    judged = qrels.get(q, {})
                    empty = q in qrels and not judged
                    if ranked_only:
                        judged = ranked_judgements(judged, run.get(q))
                    if with_gains:
                        has_rel = any(gain[g] > 0 for g in judged.values())
                    else:
                        has_rel = any(g >= thr for g in judged.values())
                    # without ties among its judged documents a query ranks alike under every tie rule
                    qkey = (q,) + (pkey if tied.get(q) else pkey[:1] + pkey[2:])
                    prof = query_profiles.get(qkey)
                    if prof is None:
                        prof = query_profiles[qkey] = _profile(run.get(q), judged, s, with_gains)
                    profiles[q] = (q in qrels, q in run, has_rel, prof, empty)
                profile_cache[pkey] = profiles
            agg = {}
            for q, (in_q, in_r, has_rel, prof, empty) in profiles.items():
                cat = (in_q, in_r, has_rel, empty)
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
                        k = _cut(s["k"], prof.n)
                        form = _dcg_form(prof, k)
                        if metric == "dcg":
                            contrib = ("dcg", form)
                        else:
                            ideal = _ideal_form(prof.ideal, len(prof.ideal) if s["k"] == "none" else k)
                            contrib = (tuple(sorted(ideal.items())), form) if ideal else None
                    contrib_cache[ckey] = contrib
                if per_query_fn is not None:
                    entry[1] += contrib
                elif contrib is not None:
                    _add_form(entry[1].setdefault(contrib[0], {}), contrib[1])
            agg_cache[vkey] = agg
        cats = tuple(sorted(cat for cat in agg if chosen(cat, s)))
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
                    _add_form(acc.setdefault(key, {}), form)
            else:
                acc += val
        if n == 0:
            out.append(Undefined("no queries to average"))
        elif not with_gains:
            out.append(acc / n)
        elif metric == "dcg":
            out.append(_form_expr({b: c / n for b, c in acc.get("dcg", {}).items()}))
        else:
            terms = [_form_quotient({b: c / n for b, c in num.items() if c}, dict(key), _form_expr(dict(key)))
                     for key, num in sorted(acc.items())]
            out.append(total(terms) if terms else Fraction(0))
        value_cache[(vkey, cats)] = out[-1]
    return out


def judged_tie(rk, judged: dict) -> bool:
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


def chosen(cat: tuple, s: dict) -> bool:
    """Whether queries of category (in qrels, in run, has relevant, judged by nothing) enter
    the mean under s (under empty_judgments=absent a query judged by nothing is not in the qrels)."""
    in_q, in_r, has_rel, empty = cat
    if empty and s.get("empty_judgments") == "absent":
        in_q = False
    if not {"qrels": in_q, "run": in_r, "both": in_q and in_r, "equal": in_q}[s["queries"]]:
        return False
    if not has_rel and s["no_relevant"] == "skip":
        return False
    return in_r or s["missing"] != "skip"
