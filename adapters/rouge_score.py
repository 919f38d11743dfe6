"""rouge-score (Google Research, ``rouge_score.rouge_scorer``) mapped onto ``rouge_n``,
``rouge_l`` and ``rouge_lsum``.

| metric | call |
| --- | --- |
| ``rouge_n`` | ``RougeScorer([f"rouge{n}"]).score(target, prediction)`` (n = 1..9) |
| ``rouge_l`` | ``RougeScorer(["rougeL"]).score(target, prediction)`` |
| ``rouge_lsum`` | ``RougeScorer(["rougeLsum"]).score(target, prediction)`` |

Several references go through ``score_multi(targets, prediction)``; the value is the
``Score`` field of ``measure`` (``fmeasure``, ``recall``, ``precision``).

Profile, from the source (0.1.2):
- tokenizer=rouge-score: ``tokenize.tokenize`` lowercases with ``str.lower()`` and
  replaces ``[^a-z0-9]+`` by a space (tokenize.py:43-46); ``use_stemmer=False`` (the
  constructor's default) is the only setting offered: the oracle has no Porter stemmer;
- multi_reference=best-f: ``score_multi`` "The target with the maximum f-measure is
  used for the final score" (``np.argmax``, the first of equal floats);
- alpha=1/2: ``scoring.fmeasure`` is 2PR/(P + R);
- lcs_path=up: ``_backtrack_norec`` steps back in the target unless the cell to the left
  is strictly greater (rouge_scorer.py:226-239), as ROUGE-1.5.5's markLCS;
- Lsum sentences are the lines of the text (``get_sents``: ``text.split("\\n")``,
  empty ones dropped; ``split_summaries=False``, the default).

A corpus: rouge-score scores one summary pair per call and has no mean of its own
(``scoring.BootstrapAggregator`` reports percentiles of resampled means, which are not
judged here); the adapter averages the segments' values (aggregate=mean), as
ROUGE-1.5.5 averages its summaries.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

METRICS = ("rouge_n", "rouge_l", "rouge_lsum")
_TYPE = {"rouge_l": "rougeL", "rouge_lsum": "rougeLsum"}
_FIELD = {"f": "fmeasure", "recall": "recall", "precision": "precision"}


def _n_ok(value: str, settings: Mapping[str, str]) -> bool:
    """rouge-score's types are ``rouge[0-9]$`` (rouge_scorer.py:144); rouge0 raises."""
    return 1 <= int(value) <= 9


_COMMON = {"measure": ("f", "recall", "precision"), "alpha": ("1/2",), "tokenizer": ("rouge-score",),
           "multi_reference": ("best-f",), "aggregate": ("mean",), "scale": ("fraction",)}
_PROFILE = {"measure": "f", "alpha": "1/2", "tokenizer": "rouge-score", "multi_reference": "best-f",
            "aggregate": "mean", "scale": "fraction"}
_SOURCES = {
    "tokenizer": "rouge_score/tokenize.py:43-46 text.lower(); NON_ALPHANUM_RE.sub(' ', text) ('This approach aims "
                 "to replicate the approach taken by Chin-Yew Lin in the original ROUGE implementation')",
    "multi_reference": "rouge_score/rouge_scorer.py score_multi docstring: 'The target with the maximum f-measure "
                       "is used for the final score for each score type' (np.argmax)",
    "aggregate": "rouge_score/rouge_scorer.py RougeScorer.score scores one pair; the adapter averages the "
                 "segments, as ROUGE-1.5.5's computeAverages does (the library's BootstrapAggregator resamples)",
}


class RougeScore(Adapter):
    name = "rouge_score"
    library = "rouge-score"
    import_name = "rouge_score.rouge_scorer"
    versions = ">=0.1.2,<0.2"
    matrix_versions = ("0.1.2",)
    homepage = "https://github.com/google-research/google-research/tree/master/rouge"
    issues = "https://github.com/google-research/google-research/issues"
    # its own refusals: ValueError for an unknown rouge type (rouge_scorer.py:148-150)
    refusals = {"*": ("ValueError",)}
    capabilities = {"rouge_n": dict(_COMMON, n=_n_ok), "rouge_l": dict(_COMMON),
                    "rouge_lsum": dict(_COMMON, lcs_path=("up",))}
    profiles = {"rouge_n": dict(_PROFILE, n="1"), "rouge_l": dict(_PROFILE),
                "rouge_lsum": dict(_PROFILE, lcs_path="up")}
    profile_sources = {"*": _SOURCES}
    # float64: P and R one division each, F = 2PR/(P + R), then the adapter's mean
    tolerances = {m: Tolerance(ulps=16, rel=Fraction(1, 10 ** 12)) for m in METRICS}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        kind = f"rouge{int(settings['n'])}" if metric == "rouge_n" else _TYPE[metric]
        return {"type": kind, "field": _FIELD[settings["measure"]]}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        return _mean_of_pairs(options["type"], options["field"], inputs)

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``RougeScorer([type])`` with no other argument (use_stemmer=False, the default
        tokenizer), its ``fmeasure``; n = 1 for ``rouge_n``."""
        return _mean_of_pairs("rouge1" if metric == "rouge_n" else _TYPE[metric], "fmeasure", inputs)

    def defect_classifiers(self) -> dict:
        return {"float-f-tie": float_tie_applies}

    def defect_models(self) -> dict:
        return {"float-f-tie": float_tie_model}


def _mean_of_pairs(kind: str, field: str, inputs: Mapping) -> LibraryOutput:
    """The mean over segments of ``score`` (one target) or ``score_multi`` (several)."""
    from rouge_score import rouge_scorer

    hyps, refs = inputs["hypotheses"], inputs["references"]
    if not isinstance(hyps, list) or not isinstance(refs, list) or len(hyps) != len(refs) or not hyps:
        raise Skip("rouge-score scores summary pairs; the corpus shape is the adapter's to check")
    scorer = rouge_scorer.RougeScorer([kind])
    values = []
    for h, rs in zip(hyps, refs):
        if isinstance(rs, str) or not rs:
            raise Skip("rouge-score's score_multi needs a list of at least one target")
        score = scorer.score_multi(list(rs), h) if len(rs) > 1 else scorer.score(rs[0], h)
        values.append(getattr(score[kind], field))
    return LibraryOutput(value=sum(values) / len(values), raw=values)


# -- the known defect: an exact tie in F broken by float rounding

def _float_choices(metric: str, settings: Mapping[str, str], inputs: Mapping) -> list[tuple[int, int, list]]:
    """Per segment: (the first reference of highest exact F, the reference ``np.argmax``
    takes over rouge-score's float F, the float measures (precision, recall, fmeasure) of
    every reference), from the oracle's counts and the library's float arithmetic:
    ``hit / max(count, 1)`` and ``scoring.fmeasure`` 2 * p * r / (p + r)."""
    from oracle.rouge import measures, pair_stats, prepare

    out = []
    for h, rs in zip(inputs["hypotheses"], inputs["references"]):
        stats = [pair_stats(prepare(h, metric, "rouge-score"), prepare(r, metric, "rouge-score"), metric, settings)
                 for r in rs]
        exact = [measures(*st, Fraction(1, 2))["f"] for st in stats]
        floats = []
        for hit, ref, hyp in stats:
            p, r = hit / max(hyp, 1), hit / max(ref, 1)
            floats.append({"precision": p, "recall": r, "fmeasure": 2 * p * r / (p + r) if p + r > 0 else 0.0})
        first_exact = max(range(len(rs)), key=lambda j: (exact[j], -j))
        first_float = max(range(len(rs)), key=lambda j: (floats[j]["fmeasure"], -j))
        out.append((first_exact, first_float, floats))
    return out


def float_tie_applies(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Some segment's references tie on F exactly, and float rounding makes ``np.argmax``
    take another of them than the first."""
    try:
        return any(a != b for a, b, _ in _float_choices(metric, settings, inputs))
    except Exception:
        return False


def float_tie_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """rouge-score's value under the float argmax: the chosen reference's float measure,
    averaged over the segments."""
    field = _FIELD[settings["measure"]]
    values = [floats[b][field] for _, b, floats in _float_choices(metric, settings, inputs)]
    return sum(values) / len(values)
