"""ranx (AmenRa/ranx): ``ranx.evaluate(Qrels, Run, metric)`` mapped onto the ranking metrics.

| metric | ranx metric name |
| --- | --- |
| ``hit_rate`` | ``hit_rate@K`` |
| ``reciprocal_rank`` | ``mrr`` / ``mrr@K`` |
| ``precision_at_k`` | ``precision@K`` / ``precision`` (k=none: the whole ranking) |
| ``recall_at_k`` | ``recall@K`` / ``recall`` |
| ``average_precision`` | ``map`` / ``map@K`` |
| ``r_precision`` | ``r-precision`` |
| ``dcg`` | ``dcg`` / ``dcg_burges`` (gain linear / exponential), ``@K`` |
| ``ndcg`` | ``ndcg`` / ``ndcg_burges``, ``@K`` |

``threshold`` is ranx's ``-l`` suffix (``ndcg@10-l2``; rel_lvl, ranx/meta/evaluate.py
``extract_metric_and_params``). The value is ranx's mean (``np.mean`` of the
per-query scores, evaluate.py); the per-query scores (``run.scores[metric]``)
are returned as ``raw``.

Profile (what ranx does, read from its source):

- ``ties=input-order``: ``Run(...)`` sorts each query's documents with
  ``np.argsort(-scores)`` in numba (data_structures/common.py
  ``sort_dict_by_value``). numba's quicksort is an insertion sort below 16
  elements (numba/misc/quicksort.py ``SMALL_QUICKSORT = 15``), which keeps the
  input order of equal scores; from 16 documents on, partitioning may reorder
  them (known failure ``unstable-tie-order``). A plain dict passed to
  ``evaluate`` instead goes through ``utils.descending_sort``
  (``np.argsort(x[:, 1])[::-1]``: reversed input order); this adapter always
  builds ``Qrels`` and ``Run`` objects.
- ``threshold_gains=no``: every metric starts with ``clean_qrels(qrels,
  rel_lvl)`` (metrics/common.py), which drops the judgments below the level,
  gains included (metrics/ndcg.py ``_dcg``); so a negative grade never counts
  (``negative`` has no effect and both values are offered).
- ``gain=linear`` for ``ndcg``/``dcg`` (Jarvelin), ``exponential`` for
  ``ndcg_burges``/``dcg_burges``; ``ideal=judged`` (``_idcg`` ranks the qrels);
  ``precision_denominator=k`` (``hits / k``, precision.py); ``ap_denominator=relevant``.
- Query set: ``evaluate(..., make_comparable=True)`` (``Run.make_comparable``,
  run.py) adds an empty ranking for each qrels query missing from the run and
  drops the run's other queries: ``queries=qrels``, ``missing=zero``; a query
  without relevant judgments scores 0 and is averaged (``no_relevant=zero``).
  With ``make_comparable=False`` (the library's default, ``Ranx(make_comparable=False)``)
  ranx asserts that the two query sets are equal (``check_keys``,
  evaluate.py) and raises ``AssertionError`` otherwise; on equal sets the two
  calls compute the same values.
- ``duplicates``: a dict cannot repeat a document; a list-form ranking that
  does is skipped (any setting is accepted).

Scores are passed as doubles (see ``_ranking_inputs``). Document ids become
numpy ``<U`` arrays and are then hashed to float64 (``to_typed_list``,
data_structures/common.py); the ``<U`` array drops trailing NUL characters
(known failure ``trailing-nul-doc-id``). Two ids whose 64-bit hashes round
to one double would be confused; with a per-process string hash this cannot
be reproduced from a fixed input and is not recorded.
"""
from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._ranking_inputs import cut, float_run, int_qrels

_COMMON_CAPS = {"k": ANY, "threshold": ANY, "duplicates": ANY}
_GAIN_CAPS = {"gain": ("linear", "exponential"), "negative": ("zero", "keep")}
_PROFILE = {"ties": "input-order", "threshold": "1", "no_relevant": "zero", "missing": "zero",
            "duplicates": "error", "queries": "qrels"}
_GAIN_PROFILE = {"gain": "linear", "threshold_gains": "no", "negative": "zero", "ideal": "judged"}

_SOURCES = {
    "ties": "ranx changelog 0.2.12 (2022-09-22): sort_dict_by_value fixed so that sorting is 'consistent for "
            "documents with the same score' (input order; data_structures/common.py:75-85)",
    "threshold_gains": "ranx/metrics/ndcg.py:12-13, 114: rel_lvl is the 'minimum relevance judgment score to "
                       "consider a document to be relevant'; clean_qrels drops judgments below it, gains included",
    "queries": "docs/run.md 'Make comparable' (evaluate(make_comparable=True), which the adapter passes): 'adds "
               "empty results for queries missing from the run and removes those not appearing in qrels'",
    "missing": "docs/run.md 'Make comparable': a qrels query missing from the run gets an empty ranking (0)",
}

_NAMES = {"hit_rate": "hit_rate", "reciprocal_rank": "mrr", "precision_at_k": "precision",
          "recall_at_k": "recall", "average_precision": "map", "r_precision": "r-precision"}

# every per-query value is a short float64 computation: a count over a count
# (one rounding), AP a sum of at most N rounded precisions, (N)DCG a numpy sum of
# grade / np.log2(i + 1) (np.log2 is within an ULP, not correctly rounded) and one
# division; the mean is np.mean (pairwise summation). Relative 1e-12 covers a few
# thousand roundings of 2**-53.
_TOL = Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))


class Ranx(Adapter):
    name = "ranx"
    # the exceptions its own code refuses an input with: its checks are asserts (evaluate.py check_keys: 'Qrels and Run query ids do not match') and ValueError
    refusals = {"*": ("ValueError", "TypeError", "AssertionError")}
    library = "ranx"
    import_name = "ranx"
    homepage = "https://github.com/AmenRa/ranx"
    issues = "https://github.com/AmenRa/ranx/issues"
    versions = ">=0.3.0,<0.4"
    matrix_versions = ("0.3.8", "0.3.21")
    schedule_weight = 2.5   # numba compiles each metric's kernels on their first call (seconds each)
    capabilities = {
        "hit_rate": dict(_COMMON_CAPS),
        "reciprocal_rank": dict(_COMMON_CAPS),
        "precision_at_k": dict(_COMMON_CAPS),
        "recall_at_k": dict(_COMMON_CAPS),
        "average_precision": dict(_COMMON_CAPS),
        "r_precision": {"threshold": ANY, "duplicates": ANY},
        "dcg": dict(_COMMON_CAPS, **_GAIN_CAPS),
        "ndcg": dict(_COMMON_CAPS, **_GAIN_CAPS),
    }
    profiles = {
        "hit_rate": dict(_PROFILE, k="5"),
        "reciprocal_rank": dict(_PROFILE, k="none"),
        "precision_at_k": dict(_PROFILE, k="5", precision_denominator="k"),
        "recall_at_k": dict(_PROFILE, k="5"),
        "average_precision": dict(_PROFILE, k="none", ap_denominator="relevant"),
        "r_precision": dict(_PROFILE),
        "dcg": dict(_PROFILE, k="none", **{k: v for k, v in _GAIN_PROFILE.items() if k != "ideal"}),
        "ndcg": dict(_PROFILE, k="none", **_GAIN_PROFILE),
    }
    profile_sources = {"*": _SOURCES}
    tolerances = {m: _TOL for m in capabilities}

    def __init__(self, make_comparable: bool = True):
        self.make_comparable = make_comparable
        # changelog.md: make_comparable arrived in 0.3.7, dcg and dcg_burges in 0.3.13
        self._has_make_comparable = self.in_versions(">=0.3.7")
        if not self.in_versions(">=0.3.13"):
            self.capabilities = {m: c for m, c in self.capabilities.items() if m != "dcg"}
        if not self.in_versions(">=0.3.3"):   # no '-l<level>' suffix before 0.3.3 (ValueError)
            self.capabilities = {m: {**c, "threshold": ("1",)} for m, c in self.capabilities.items()}

    # properties whose inputs the library's types cannot hold: its rankings are dicts
    cannot_receive = {"invalid:duplicate-id": "a run is {query: {doc: score}}, a dict, which cannot list a "
                                              "document twice (the adapter skips a list-form ranking that does)"}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric in ("dcg", "ndcg"):
            base = metric if settings["gain"] == "linear" else f"{metric}_burges"
        else:
            base = _NAMES[metric]
        k = cut(settings)
        name = base if k is None or metric == "r_precision" else f"{base}@{k}"
        if settings["threshold"] != "1":
            name += f"-l{settings['threshold']}"
        return {"metric": name}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        from ranx import Qrels, Run, evaluate

        qrels, run = int_qrels(inputs), float_run(inputs)
        name = options["metric"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba's NumbaPerformanceWarning on parallel loops
            q, r = Qrels(qrels), Run(run)
            if self._has_make_comparable:
                value = evaluate(q, r, name, make_comparable=self.make_comparable)
            else:
                if set(qrels) != set(run):
                    raise Skip(f"ranx {self.version()} has no make_comparable (changelog 0.3.7): it asserts "
                               "that the run and the qrels hold the same queries")
                value = evaluate(q, r, name)
        per_query = {qid: float(v) for qid, v in r.scores[name].items()}
        return LibraryOutput(value=float(value), raw={"per_query": per_query, "order": _orders(r)})

    # ``evaluate(qrels, run, metrics)`` with no make_comparable: the library's default, False,
    # asserts that the two query sets are equal (check_keys) where the adapter's own call
    # (make_comparable=True) scores the qrels' queries
    bare_profiles = {m: {"queries": "equal"} for m in capabilities}

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``evaluate(Qrels(qrels), Run(run), name)``: the measure's name is the one
        required argument (its cutoff, level and gain are part of the name; the profile's)."""
        from ranx import Qrels, Run, evaluate
        name = self.options(metric, self.bare_profile(metric))["metric"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = evaluate(Qrels(int_qrels(inputs)), Run(float_run(inputs)), name)
        return LibraryOutput(value=float(value))

    # ------------------------------------------------------------ known failures

    def defect_classifiers(self) -> dict:
        return {
            "empty-side-raises": _empty_side,
            "trailing-nul-doc-id": _trailing_nul,
            "unstable-tie-order": self._unstable_ties,
            "make-comparable-unsorted": self._unsorted_after_make_comparable,
            "negative-judgment-relevant": self._negative_relevant,
        }

    def defect_models(self) -> dict:
        """The library's value each defect predicts: for the unstable sort, the oracle on the
        rankings listed in the order ranx puts them (under ties=input-order); the raises."""
        return {"unstable-tie-order": self._reordered_model, "make-comparable-unsorted": self._unsorted_model,
                "negative-judgment-relevant": _negative_as_relevant}

    def _negative_relevant(self, metric, settings, inputs) -> bool:
        """0.3.0-0.3.2 keep every judgement with a nonzero grade as relevant (``np.nonzero``
        in metrics/common.py ``_clean_qrels``), a negative one included; 0.3.3 keeps grades
        of at least the threshold (``>= rel_lvl``, the same release that reads '-l<level>';
        its changelog has no entry). Applies: before 0.3.3, a binary metric and a negative
        grade on a ranked document."""
        if self.in_versions(">=0.3.3") or metric in ("dcg", "ndcg"):
            return False
        run = inputs.get("run", {})
        for q, judged in inputs.get("qrels", {}).items():
            ranked = run.get(q, {})
            docs = set(ranked) if isinstance(ranked, dict) else {d for d, _ in ranked}
            if any(g < 0 and d in docs for d, g in judged.items()):
                return True
        return False

    def _reordered_model(self, metric, settings, inputs):
        from oracle.registry import compute
        if settings.get("ties") != "input-order":
            return None
        order = self.library_order(inputs)
        run = {}
        for q, ranking in inputs["run"].items():
            src = ranking if isinstance(ranking, dict) else dict(ranking)
            run[q] = {d: src[d] for d in order[q]} if q in order and set(order[q]) == set(src) else src
        return compute(metric, {**inputs, "run": run}, settings).value

    def library_order(self, inputs: Mapping) -> dict:
        """{query: [doc, ...]} in the order ranx ranks them, through the adapter's own path."""
        from ranx import Qrels, Run

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = Run(float_run(inputs))
            if self.make_comparable and self._has_make_comparable:
                r.make_comparable(Qrels(int_qrels(inputs)))
        return _orders(r)

    def _pairing(self, inputs: Mapping) -> tuple[list, list]:
        """(qrels query ids, run query ids) in the positions ranx's evaluate pairs them."""
        from ranx import Qrels, Run
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            q, r = Qrels(int_qrels(inputs)), Run(float_run(inputs))
            r.make_comparable(q)
        return list(q.keys()), list(r.keys())

    def _unsorted_after_make_comparable(self, metric, settings, inputs) -> bool:
        """0.3.7-0.3.8: ``Run.make_comparable`` appends the queries the run lacks after the
        others and does not sort again (run.py:142-154), while evaluate pairs qrels and run
        by position over the sorted qrels: a query's run is scored against another query's
        judgements. changelog 0.3.9: 'Fixed a bug affecting make_comparable in run.py: runs
        were not sorted after this operation, resulting in wrong metrics computation
        afterwards.' Applies: 0.3.7-0.3.8 and the library's pairing is not query to query."""
        if not self.in_versions(">=0.3.7,<0.3.9") or not self.make_comparable:
            return False
        qk, rk = self._pairing(inputs)
        return qk != rk

    def _unsorted_model(self, metric, settings, inputs):  # noqa: D401
        """The oracle on the corpus as ranx pairs it: position i's qrels with position i's
        run, relabelled as one query each."""
        from oracle.registry import compute
        qk, rk = self._pairing(inputs)
        if len(qk) != len(rk) or not qk:
            return None
        run = inputs["run"]
        paired = {**inputs, "qrels": {f"x{i}": inputs["qrels"][a] for i, a in enumerate(qk)},
                  "run": {f"x{i}": run.get(b, {}) for i, b in enumerate(rk)}}
        return compute(metric, paired, settings).value

    def _unstable_ties(self, metric, settings, inputs) -> bool:
        """numba's argsort partitions rankings of 16 documents or more
        (numba/misc/quicksort.py: ``while high - low >= SMALL_QUICKSORT``, 15),
        which may swap documents with equal scores; ``sort_dict_by_value`` runs it
        once in ``Run()`` and again in ``make_comparable``. Applies when, in some
        query, ranx's order puts a document before another one with the same score
        that the input lists earlier, and the two differ in relevance (for (N)DCG: in
        gain, grades below the threshold counting as 0)."""
        order = self.library_order(inputs)
        thr = int(settings["threshold"])
        for q, ranking in inputs["run"].items():
            if len(ranking) < 16 or q not in order:
                continue
            scores = float_run({"run": {q: ranking}})[q]
            judged = inputs["qrels"].get(q, {})

            def worth(d, judged=judged):
                g = judged.get(d, 0)
                return (g if metric in ("dcg", "ndcg") else True) if g >= thr else None
            pos = {d: i for i, d in enumerate(ranking if isinstance(ranking, dict) else [p[0] for p in ranking])}
            groups: dict = {}
            for d in order[q]:
                groups.setdefault(scores[d], []).append(d)
            for docs in groups.values():
                for i, a in enumerate(docs):
                    if any(pos[a] > pos[b] and worth(a) != worth(b) for b in docs[i + 1:]):
                        return True
        return False


def _orders(r) -> dict:
    return {q: list(r.run[q].keys()) for q in r.run.keys()}


def _empty_side(metric, settings, inputs) -> bool:
    """``Qrels()`` and ``Run()`` size their numpy id arrays with ``max(len(y) for x in
    doc_ids for y in x)`` (data_structures/qrels.py and run.py ``__init__``), which
    raises ``ValueError: max() arg is an empty sequence`` when no query of that
    side names a document. Applies when the qrels or the run holds no document."""
    return (not any(inputs["qrels"].get(q) for q in inputs["qrels"])
            or not any(len(r) for r in inputs["run"].values()))


def _trailing_nul(metric, settings, inputs) -> bool:
    """Document ids go into ``np.array(ids, dtype='<U{n}')`` (qrels.py, run.py), and
    numpy's fixed-width unicode strips trailing NUL characters, so "a\\x00" becomes
    "a". Applies when, in some query, stripping trailing NULs makes two ids of the
    run or of the qrels equal, or changes the grade a run document is looked up
    with."""
    for q, ranking in inputs["run"].items():
        docs = list(ranking) if isinstance(ranking, dict) else [p[0] for p in ranking]
        judged = inputs["qrels"].get(q, {})
        stripped = {}
        for d, g in judged.items():
            if d.rstrip("\x00") in stripped:
                return True
            stripped[d.rstrip("\x00")] = g
        if len({d.rstrip("\x00") for d in docs}) != len(set(docs)):
            return True
        if any(judged.get(d) != stripped.get(d.rstrip("\x00")) for d in docs):
            return True
    return False


def _negative_as_relevant(metric, settings, inputs):
    """The oracle with every negative grade read as grade 1 (relevant)."""
    from oracle.registry import compute
    qrels = {q: {d: (1 if g < 0 else g) for d, g in j.items()} for q, j in inputs["qrels"].items()}
    return compute(metric, {**inputs, "qrels": qrels}, settings).value
