"""User-model ranking measures beside trec_eval's: rank-biased precision with its
residual, expected reciprocal rank, and the judged fraction of the top k, exactly,
over one query as ``oracle.ranking_trec.Judged`` sees it (grades in rank order, a
document not in the qrels NONPOOL, a negative grade UNJUDGED), with that module's
query-set knobs and tie rules.

- ``rbp`` (Moffat and Zobel 2008, "Rank-biased precision for measurement of
  retrieval effectiveness", ACM TOIS 27(1), eq. 3 and sec. 4): with persistence p,
  RBP = (1 - p) sum_{i=1}^{N} r_i p^(i-1), r_i = 1 when the document at rank i has
  a grade >= the threshold, else 0 (a document without a judgement counts 0). The
  residual is the weight RBP could still gain: the unjudged ranks of the ranking,
  sum over them of (1 - p) p^(i-1), plus everything past its end, p^N; the true
  value lies in [RBP, RBP + residual] (``parts``: ``residual``, ``upper``, per
  query and as means). A query absent from the run scores 0 with residual 1. cwl_eval
  (ir_measures' provider of RBP) computes the same base value.
- ``err`` (Chapelle, Metzler, Zhang and Grinspan 2009, "Expected reciprocal rank for
  graded relevance", CIKM, eq. 3 and Algorithm 2): ERR@k = sum_{r=1}^{min(k, N)}
  (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^max_grade, g the document's
  grade (0 without a positive judgement). ``max_grade`` is the top of the grade
  scale: 4 in gdeval.pl (TREC Web track, ``$MAX_JUDGMENT = 4``, which ir_measures
  runs for ERR@k); a grade above it would make R > 1 and is refused.
- ``judged_at_k`` (ir_measures ``Judged@k``, from OpenNIR's judged.py): the fraction
  of the top min(k, N) documents that appear in the qrels with any grade (negative
  ones too); an empty ranking scores 0 (ir_measures divides 0 by 0 there).
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from .conventions import InputError, Knob, Metric, Result
from .exact import Undefined
from .ranking import _INPUTS, K, query_set_inert
from .ranking_trec import _BASE, NONPOOL, _judged_queries, _metric

MZ = "Moffat and Zobel 2008, Rank-biased precision for measurement of retrieval effectiveness, ACM TOIS 27(1)"
CMZG = "Chapelle, Metzler, Zhang and Grinspan 2009, Expected reciprocal rank for graded relevance, CIKM"
GDEVAL = "gdeval.pl (TREC Web track; ir_measures/bin/gdeval.pl)"

PERSISTENCE = Knob("p", "the persistence: the chance the user goes on to the next rank", "4/5", kind="rational",
                   minimum=0, special=("1/2", "19/20"),
                   sources={"*": f"{MZ}, sec. 3 (p = 0.5, 0.8, 0.95 studied); trec_eval 10.0 m_rbp.c p = 0.9"},
                   unspecified=f"{MZ} study several persistences and fix none; trec_eval 10.0 defaults to 0.9, "
                               "ir_measures to 0.8 (the representative)")
MAX_GRADE = Knob("max_grade", "the top of the grade scale: R = (2^g - 1)/2^max_grade", "4", kind="int",
                 minimum=1, key="gmax",
                 sources={"*": f"{CMZG}, eq. 3 (g_max the highest grade); {GDEVAL}: $MAX_JUDGMENT = 4"})
ERR_CUTOFF = replace(K, default="20", special=("10",),
                     sources={"*": f"{GDEVAL} ERR@k ($K, required); TREC Web track reports ERR@20"})
JUDGED_CUTOFF = replace(K, default="10", special=("5",),
                        sources={"*": "ir_measures Judged@k (OpenNIR judged.py): the top k of the run"},
                        unspecified="Judged@k has no published default cutoff (ir_measures requires one); 10 is a "
                                    "representative")


def _err(j, s):
    """ERR@k = sum_{r <= min(k, N)} (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1)/2^max_grade
    (Chapelle et al. 2009 eq. 3; gdeval.pl sub err)."""
    k, top = int(s["k"]), int(s["max_grade"])
    scale = Fraction(1, 2 ** top)
    value, decay = Fraction(0), Fraction(1)
    for r, g in enumerate(j.codes[:k], start=1):
        if g > top:
            raise InputError(f"a relevance grade {g} above max_grade={top}: R = (2^g - 1)/2^max_grade would "
                             "exceed 1 (gdeval.pl refuses such a qrels line)", item="qrels")
        rel = (2 ** g - 1) * scale if g > 0 else Fraction(0)
        value += decay * rel / r
        decay *= 1 - rel
    return value


def _judged_at_k(j, s):
    """Judged@k = |{i <= min(k, N): the document at rank i is in the qrels}| / min(k, N)
    (ir_measures judged_provider.py); 0 for an empty ranking."""
    top = j.codes[:int(s["k"])]
    return Fraction(sum(1 for c in top if c != NONPOOL), len(top)) if top else Fraction(0)


def _rbp_parts(j, p: Fraction) -> tuple[Fraction, Fraction]:
    """(RBP, residual) of one query (Moffat and Zobel 2008 eq. 3, sec. 4)."""
    base, residual, w = Fraction(0), Fraction(0), 1 - p
    for c in j.codes:
        if c >= j.thr:
            base += w
        elif c < 0:          # not in the qrels, or judged with a negative grade: unknown
            residual += w
        w *= p
    # past the end of the ranking: (1 - p) sum_{i > N} p^(i-1) = p^N
    return base, residual + p ** len(j.codes)


def _rbp(inputs, settings: dict) -> Result:
    """RBP = (1 - p) sum_i r_i p^(i-1), residual = the weight of the unjudged ranks plus p^N
    (Moffat and Zobel 2008); the mean over the queries of both."""
    p = Fraction(settings["p"])
    if not 0 < p < 1:
        raise InputError(f"p: the persistence {settings['p']} must lie strictly between 0 and 1", item="p")
    queries, stats = _judged_queries(inputs, settings)
    base, resid = {}, {}
    for q, j in queries.items():
        base[q], resid[q] = (Fraction(0), Fraction(1)) if j.missing else _rbp_parts(j, p)
    parts = {"per_query": base, "residual_per_query": resid}
    if not base:
        return Result(Undefined("no queries to average"), stats=stats, parts=parts)
    n = len(base)
    value, residual = sum(base.values(), Fraction(0)) / n, sum(resid.values(), Fraction(0)) / n
    parts.update(residual=residual, upper=value + residual)
    return Result(value, stats=stats, parts=parts)


RBP = Metric(name="rbp", family="ranking",
             summary="Rank-biased precision (1-p) sum r_i p^(i-1), with the residual of the unjudged as an interval",
             knobs=(PERSISTENCE,) + _BASE, inputs=_INPUTS, compute_fn=_rbp, inert_fn=query_set_inert)
ERR = _metric("err", "Expected reciprocal rank at k under the cascade model (Chapelle et al. 2009)", _err,
              (ERR_CUTOFF, MAX_GRADE))
JUDGED_AT_K = _metric("judged_at_k", "The fraction of the top k documents that have a judgement (Judged@k)",
                      _judged_at_k, (JUDGED_CUTOFF,))

