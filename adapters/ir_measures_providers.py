"""ir_measures' other providers, each judged on its own (see ``adapters.ir_measures`` for the
default pipeline, the pytrec_eval provider, the measure table and the profiles' sources):
``ir_measures-cwl_eval`` (P@k, RR, AP and RBP through the C/W/L rulers), ``ir_measures-gdeval``
(nDCG@k and ERR@k through gdeval.pl, run by perl) and ``ir_measures-ranx`` (reported unavailable
where the provider cannot run with the installed ranx)."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import Skip
from oracle.compare import Tolerance

from .ir_measures import (_FLOAT64_SOURCE, _GDEVAL_RAISES, _QUERY_CAPS, _TOL, _TREC, _TREC_CAPS, IRMeasures, _caps,
                          _gdeval_refuses, _profile)


# the cwl_eval provider (providers/cwl_eval.py): P@k, RR, AP and RBP through cwl's rulers, the run
# sorted by score with a stable sort (equal scores in the run's order), the query set that of
# the qrels rows, the scores as Python floats
_CWL = {k: v for k, v in dict(_TREC, ties="input-order", empty_judgments="absent").items()
        if k != "score_precision"}
_CWL_MEASURES = ("precision_at_k", "reciprocal_rank", "average_precision", "rbp")
_CWL_SOURCES = {
    "score_precision": _FLOAT64_SOURCE,
    "ties": IRMeasures.profile_sources["rbp"]["ties"],
    "empty_judgments": IRMeasures.profile_sources["rbp"]["empty_judgments"],
}


def _cwl_profile(metric: str) -> dict:
    return dict(_profile(metric, _CWL), ties="input-order", empty_judgments="absent", score_precision="float64")


def _a_cutoff(value: str, settings) -> bool:
    return value != "none"


class IRMeasuresCwlEval(IRMeasures):
    """ir_measures through its cwl_eval provider (``ir_measures.cwl_eval``): P@k, RR, AP and RBP
    as the C/W/L framework's rulers compute them."""
    name = "ir_measures-cwl_eval"
    provider = "cwl_eval"
    # cwl's APCWLMetric.c_vector (cwl/ruler/measures/cwl_ap.py:46-66) sums a 1,000-entry vector
    # per rank, about 50 ms a query whatever its length: its units start first
    schedule_weight = 8.0
    capabilities = {m: _caps(m, dict(_TREC_CAPS, score_precision=("float64",))) for m in _CWL_MEASURES}
    # the provider's measures: P@k with a cutoff, AP and RR of the whole ranking
    # (providers/cwl_eval.py:39-41: _P(cutoff=Any()), _RR(cutoff=NOT_PROVIDED), _AP(cutoff=NOT_PROVIDED))
    capabilities["precision_at_k"]["k"] = _a_cutoff
    capabilities["average_precision"]["k"] = ("none",)
    profiles = {m: _cwl_profile(m) for m in _CWL_MEASURES}
    profiles["average_precision"]["ap_denominator"] = "retrieved-relevant"
    profile_sources = {"*": dict(_CWL_SOURCES, undefined=IRMeasures.profile_sources["*"]["undefined"], ap_denominator=(
        "cwl/ruler/measures/cwl_ap.py:46-66 APCWLMetric.c_vector: the continuation probabilities come from the "
        "gains of the ranking itself (rels counts the ranked items with gain > 0), the C/W/L form of AP (Moffat "
        "et al.), so AP averages the precisions over the relevant documents retrieved"))}
    tolerances = {m: _TOL for m in _CWL_MEASURES}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        out = super().options(metric, settings)
        if metric == "precision_at_k" and out["cutoff"] is None:
            out["measure"] = "P"   # SetP is pytrec_eval's; the cwl_eval provider has P@k only
        return out


# the gdeval provider: gdeval.pl (TREC Web track) run by perl, nDCG@k (exponential gain) and ERR@k
_GDEVAL_MEASURES = ("ndcg", "err")


def _gdeval_profile(metric: str) -> dict:
    if metric == "err":
        return IRMeasures.profiles["err"]
    return dict(_profile("ndcg", _TREC), gain="exponential", k="20", empty_judgments="absent", score_precision="float64")


class IRMeasuresGdeval(IRMeasures):
    """ir_measures through its gdeval provider (``ir_measures.gdeval``): nDCG@k and ERR@k as
    gdeval.pl prints them (five decimals)."""
    name = "ir_measures-gdeval"
    provider = "gdeval"
    capabilities = {m: _caps(m, {k: v for k, v in dict(_QUERY_CAPS, score_precision=("float64",)).items()
                                 if k != "threshold"}) for m in _GDEVAL_MEASURES}
    capabilities["ndcg"]["k"] = _a_cutoff   # gdeval_provider.py:14, _nDCG(cutoff=Any(required=True))
    profiles = {m: _gdeval_profile(m) for m in _GDEVAL_MEASURES}
    profile_sources = {"*": dict(IRMeasures.profile_sources["err"], undefined=IRMeasures.profile_sources["*"]["undefined"],
                                 gain=(
        "ir_measures/providers/gdeval_provider.py:14 supports nDCG(dcg='exp-log2') only; gdeval.pl sub dcg: "
        "(2**$gain[$i] - 1) / log ($i + 2)"), k=(
        "gdeval.pl takes the cutoff as a required argument (gdeval_provider.py:14, _nDCG(cutoff=Any(required=True))); "
        "it has no default, and 20 is the depth the TREC Web track reports with it (nDCG@20, ERR@20)"))}
    tolerances = {m: Tolerance(abs=Fraction(1, 200000), ulps=8) for m in _GDEVAL_MEASURES}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        out = super().options(metric, settings)
        if metric == "ndcg":
            if out["cutoff"] is None:
                raise Skip("gdeval.pl needs a cutoff (nDCG@k)")
            out["params"] = dict(out["params"], dcg="exp-log2")   # the provider's only nDCG form
        return out

    def defect_classifiers(self) -> dict:
        return {"gdeval-topic-not-digits": _gdeval_refuses}

    def defect_models(self) -> dict:
        return {"gdeval-topic-not-digits": lambda metric, settings, inputs: _GDEVAL_RAISES}


_RANX = {k: v for k, v in dict(_TREC, ties="input-order").items() if k != "score_precision"}   # float64
_RANX_MEASURES = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision",
                  "r_precision", "ndcg")


class IRMeasuresRanx(IRMeasures):
    """ir_measures through its ranx provider (``ir_measures.ranx``): ranx's conventions.
    Unavailable, with the reason, when the provider cannot evaluate a one-query run: the
    ranx provider of ir_measures 0.4.3 builds ranx objects from pandas DataFrames that ranx
    0.3.21 refuses ('DataFrame Query IDs column dtype must be `object` (string)')."""
    name = "ir_measures-ranx"
    provider = "ranx"

    def available(self) -> tuple[bool, str]:
        ok, why = super().available()
        if not ok:
            return ok, why
        try:
            import ir_measures
            p = ir_measures.providers.registry["ranx"]
            if not p.is_available():
                return False, "ir_measures' ranx provider is not available (ranx is not installed)"
            p.calc_aggregate([ir_measures.measures.P @ 1], {"q1": {"d1": 1}}, {"q1": {"d1": 1.0}})
        except Exception as e:
            return False, (f"ir_measures' ranx provider fails on a one-query run here ({type(e).__name__}: "
                           f"{str(e)[:120]}): the provider and the installed ranx do not work together")
        return True, ""
    capabilities = {m: _caps(m, _QUERY_CAPS) for m in _RANX_MEASURES}
    profiles = {m: dict(_profile(m, _RANX), **({"threshold_gains": "no"} if m == "ndcg" else {}))
                for m in _RANX_MEASURES}
    profile_sources = {"*": {
        "undefined": IRMeasures.profile_sources["*"]["undefined"],
        "ties": "ranx Run sorts each ranking with np.argsort(-scores) in numba, an insertion sort below 16 "
                "documents (ranx/data_structures/common.py sort_dict_by_value): equal scores keep the input order",
        "threshold_gains": "ranx metrics/common.py clean_qrels(qrels, rel_lvl) drops the judgments below the level, "
                           "gains included",
    }}
    tolerances = {m: _TOL for m in _RANX_MEASURES}
