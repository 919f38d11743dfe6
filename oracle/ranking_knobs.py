"""The convention knobs of the ranking measures (oracle.ranking), each value with its
source, and the knob tuples the measures share."""
from __future__ import annotations

from dataclasses import replace

from .conventions import Knob

_TREC = "trec_eval 9.0 (github.com/usnistgov/trec_eval)"
_DOC = "source document 004_2f957d850e34831f.txt"
_MN = "McSherry and Najork 2008, Computing IR performance measures efficiently in the presence of tied scores (ECIR)"

# ------------------------------------------------------------------ knobs

K = Knob(
    "k", "cutoff: only the top k ranks count ('none': the whole ranking)", "none",
    kind="int", minimum=1, special=("none",),
    sources={"*": f"{_TREC}: measure.cutoff (P.5, recall.10, ndcg_cut.10, success.1, map_cut.5)",
             "none": f"{_TREC}: map, recip_rank, ndcg, Rprec use the whole ranking"})
TIES = Knob(
    "ties", "order of documents with equal scores", "trec_eval",
    choices=("trec_eval", "input-order", "expected", "optimistic", "pessimistic"),
    sources={"trec_eval": f"{_TREC} form_res_rels.c comp_sim_docno(): sim descending, then "
                          "strcmp(p2->docno, p1->docno), i.e. document id descending",
             "input-order": "stable sort by score descending: ties keep the order the run lists them",
             "expected": f"{_MN}: the mean over all orders of each tie group, in closed form",
             "optimistic": f"{_MN}: best case, relevant documents first within ties",
             "pessimistic": f"{_MN}: worst case, relevant documents last within ties"})
THRESHOLD = Knob(
    "threshold", "a document is relevant when its grade is at least this", "1",
    kind="int", minimum=1, key="rel",
    sources={"*": f"{_TREC} -l (level_for_rel), default 1"})
_TM_EMPTY = "torchmetrics retrieval/base.py RetrievalMetric.compute, empty_target_action"
NO_RELEVANT = Knob(
    "no_relevant", "a query without relevant documents: scored 0 or 1, left out of the mean, or bad input", "zero",
    choices=("zero", "skip", "one", "error"), key="norel",
    sources={"zero": f"{_TREC}: every measure of such a query is 0 and it is averaged (e.g. m_recall.c "
                     "'if (0 == res_rels.num_rel) return (0)' leaves the value 0)",
             "skip": f"{_DOC} recall_at_k(): 'if not relevant_ids: continue  # skip items with no "
                     "annotated relevant chunks'",
             "one": f"{_TM_EMPTY}='pos': 'consider the query as positive' (tensor(1.0)); not for dcg, which "
                    "has no maximum",
             "error": f"{_TM_EMPTY}='error': raises ValueError('compute method was provided with a query with "
                      "no positive target.')"})
MISSING = Knob(
    "missing", "a query in the averaged set but absent from the run: 0, or left out", "zero",
    choices=("zero", "skip"),
    sources={"zero": f"{_TREC} -c: 'Missing queries will contribute a value of 0 to all evaluation measures'",
             "skip": f"{_TREC} without -c (the default), pytrec_eval: only queries with results are averaged"})
DUPLICATES = Knob(
    "duplicates", "a document listed twice in one query's ranking", "error",
    choices=("error", "first", "max"), key="dup",
    sources={"error": f"{_TREC} form_res_rels.c: 'duplicate docs' is an error",
             "first": "the first occurrence counts, later ones are dropped",
             "max": "the occurrence with the highest score counts (at its own position); of equal "
                    "highest scores, the first"})
QUERIES = Knob(
    "queries", "the set of queries the mean runs over", "qrels",
    choices=("qrels", "run", "both", "equal"),
    sources={"qrels": f"{_TREC} trec_eval.c: the loop runs over the queries of the relevance judgements",
             "equal": "the qrels and the run must hold the same queries, a query on one side only is refused "
                      "(ranx evaluate(make_comparable=False), its default: check_keys asserts equal key sets)",
             "run": "every query of the run (ranx with make_comparable fills the other side)",
             "both": f"{_TREC} without -c: 'the queries in the intersection of relevance judgements and results'"})
EMPTY_JUDGMENTS = Knob(
    "empty_judgments", "a query listed in the qrels with no judged document ({} in JSON qrels)", "query",
    choices=("query", "absent"), key="emptyq",
    sources={"query": "a query of the qrels like any other: it has no relevant document, so no_relevant decides "
                      "(ranx Qrels keeps such a query and scores it 0)",
             "absent": f"{_TREC} get_qrels.c: queries are made from judgement lines, so a query without one does "
                       "not exist (a qrels file cannot list it); pytrec_eval, which embeds trec_eval, leaves a "
                       "query with an empty judgement dict out of its results"},
    unspecified="a trec_eval qrels file cannot list a query without judgements; JSON qrels can, and no "
                "publication says whether such a query counts")
GAIN = Knob(
    "gain", "gain of a document from its grade", "linear",
    choices=("linear", "exponential", "binary"),
    sources={"linear": f"{_TREC} m_ndcg.c setup_gains(): 'gain = (double) i' for relevance level i; "
                       "Jarvelin and Kekalainen 2002",
             "exponential": "Burges et al. 2005: 2^grade - 1 (ranx ndcg_burges)",
             "binary": f"{_DOC} ndcg_at_k(): relevances = [1 if rid in relevant_ids else 0 ...]"})
IDEAL = Knob(
    "ideal", "which documents the ideal ranking is built from", "judged",
    choices=("judged", "retrieved"),
    sources={"judged": f"{_TREC} m_ndcg.c: ideal from the relevance levels of all judged documents",
             "retrieved": "only the documents of the ranking (sklearn ndcg_score sorts the scored items "
                          "by their true relevance)"})
THRESHOLD_GAINS = Knob(
    "threshold_gains", "whether grades below the threshold still give their gain", "yes",
    choices=("yes", "no"), key="tg",
    sources={"yes": f"{_TREC} m_ndcg.c / m_ndcg_cut.c: gains are the grades, -l is not consulted",
             "no": "ranx _dcg(): clean_qrels(qrels, rel_lvl) drops grades below rel_lvl before taking gains"})
NEGATIVE = Knob(
    "negative", "gain of a negative grade", "zero",
    choices=("zero", "keep", "ideal"), key="neg",
    sources={"zero": f"{_TREC} form_res_rels.c: a negative qrels grade is RELVALUE_UNJUDGED, get_gain() "
                     "gives it 0 and it is not a relevance level of the ideal",
             "keep": "the grade's own (negative) gain; never in the ideal ranking",
             "ideal": "the grade's own (negative) gain, in the DCG and in the ideal ranking: the ideal sorts every "
                      "gain of the ideal set in descending order, zeros and negatives included (they fall to its "
                      "bottom, inside the cutoff); an ideal DCG of 0 gives nDCG 0, a negative one divides as it is. "
                      "torchmetrics 1.x functional/retrieval/ndcg.py retrieval_normalized_dcg: "
                      "'normalized_gain = _dcg_sample_scores(target, target, top_k, ignore_ties=True)' over every "
                      "retrieved row's target, then 'gain[all_irrelevant] = 0' where it is 0"})
PDEN = Knob(
    "precision_denominator", "what P@K divides by", "k",
    choices=("k", "retrieved"), key="pden",
    sources={"k": f"{_TREC} m_P.c: 'If the cutoff is larger than the number of docs retrieved, then it is "
                  f"assumed nonrelevant docs fill in the rest'; {_DOC} precision_at_k(): relevant_retrieved / k",
             "retrieved": f"divides by min(K, N), the documents actually ranked ({_TREC} set_P with -M K)"})
APDEN = Knob(
    "ap_denominator", "what AP@K divides the sum of precisions by", "relevant",
    choices=("relevant", "min-k-relevant", "retrieved-relevant"), key="apden",
    sources={"relevant": f"{_TREC} m_map.c / m_map_cut.c: sum / num_rel",
             "min-k-relevant": "min(K, R), the most relevant documents the top K can hold",
             "retrieved-relevant": "the relevant documents found in the top K"})


RELEVANT_COUNT = Knob(
    "relevant_count", "which relevant documents R counts (the denominator of recall, the rank of R-precision)",
    "judged", choices=("judged", "ranked"), key="rcount",
    sources={"judged": f"{_TREC} m_recall.c / m_Rprec.c: num_rel, every relevant judgement of the query in the "
                       "qrels, retrieved or not",
             "ranked": "only the relevant documents the ranking holds: a library that takes scored rows and no "
                       "qrels sees nothing else (torchmetrics retrieval: target.sum() over the query's rows)"})


def _k(default: str) -> Knob:
    return replace(K, default=default)


SCORE_PRECISION = Knob(
    "score_precision", "how the scores are held before they are ranked", "exact",
    choices=("exact", "float64", "float32"),
    sources={"exact": "the score as written (a decimal text or a float is an exact rational): two scores tie only "
                      "when they are equal",
             "float64": "the double nearest the score (trec_eval's atof; pytrec_eval, ranx and NumPy hold scores "
                        "so): scores that round to one double tie",
             "float32": "the double nearest the score, then the float32 nearest that (trec_eval 9.0.x "
                        "trec_format.h TEXT_RESULTS 'float sim' = atof(...); torch's .float(): torchmetrics "
                        "utilities/checks.py _check_retrieval_target_and_prediction_types 'preds = preds.float()'): "
                        "scores that round to one float32 tie; beyond its range a score is +-inf"},
    key="sprec",
    unspecified="no publication speaks of the precision of scores; trec_eval 9.0.x holds them as C float "
                "(float32), trec_eval 10.0 as double (commit dc0c991 'Convert float to double'): the canonical "
                "tool itself changed, and the representative is the scores as written")
_COMMON = (THRESHOLD, NO_RELEVANT, MISSING, DUPLICATES, QUERIES, EMPTY_JUDGMENTS, SCORE_PRECISION)
_GAINS = (GAIN, THRESHOLD_GAINS, NEGATIVE)


LOG_BASE = Knob("log_base", "the base B of the discount 1/log_B(rank + 1)", "2", kind="int", minimum=2,
                key="logb", special=("10",),
                sources={"*": f"{_TREC} m_ndcg.c: gain / log2(rank + 1) (log2(i + 2) for the 0-based i); "
                              "Jarvelin and Kekalainen 2002 discount by log_b(rank), b = 2, with no discount "
                              "before rank b"})
