"""sacrebleu's TER (``sacrebleu.metrics.TER``, 2.0 and later), for the sacrebleu adapter:
``TER(normalized, no_punct, case_sensitive).corpus_score(hyps, streams)``; the score is in
percent (``TERScore.score``, 100 x edits / reference words).

sacrebleu re-implements tercom (metrics/ter.py: "follows as closely as possible the logic
in Tercom"; lib_ter.py), so its profile is tercom's search: beam 20 and shift distance 50
(lib_ter.py ``_MAX_SHIFT_DIST = 50``; its own beam, ``_BEAM_WIDTH = 25``, bands the edit
distance around the diagonal instead of dropping cells above the column's best, which is
tercom's rule); where its search finds other edits than tercom's the run shows the input.
A corpus with no reference word scores 1 with edits and 0 without
(``_compute_score_from_stats``): zero_reference=one-if-edits. Segments are ``rstrip``-ped
and split with ``str.split()`` (``TercomTokenizer``)."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import LibraryOutput
from oracle.compare import Tolerance

METRICS = ("ter",)
CAPABILITIES = {"ter": {"case": ("insensitive", "sensitive"), "normalize": ("no", "yes"),
                        "punctuation": ("keep", "remove"), "beam_width": ("20",), "max_shift_distance": ("50",),
                        "zero_reference": ("one-if-edits",)}}
PROFILES = {"ter": {"case": "insensitive", "normalize": "no", "punctuation": "keep", "beam_width": "20",
                    "max_shift_distance": "50", "zero_reference": "one-if-edits", "scale": "percent"}}
SOURCES = {
    "zero_reference": "sacrebleu/metrics/ter.py _compute_score_from_stats: 'score = 1.0  # empty reference(s) and "
                      "non-empty hypothesis', 'score = 0.0  # both reference(s) and hypothesis are empty'",
    "scale": "sacrebleu/metrics/ter.py _compute_score_from_stats: TERScore(100 * score, ...)",
}
# float64: one division of an integer by a sum of reference lengths (averages of integers), times 100
TOLERANCES = {"ter": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))}


def options(settings: Mapping[str, str]) -> dict:
    return {"normalized": settings["normalize"] == "yes", "no_punct": settings["punctuation"] == "remove",
            "case_sensitive": settings["case"] == "sensitive"}


def call(metric: str, options: Mapping, inputs: Mapping, streams) -> LibraryOutput:
    from sacrebleu.metrics import TER
    score = TER(**options).corpus_score(*streams)
    return LibraryOutput(value=score.score, raw=score)
