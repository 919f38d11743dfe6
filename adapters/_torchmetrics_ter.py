"""torchmetrics' TER (``torchmetrics.functional.text.translation_edit_rate``, 1.x), a port
of sacrebleu's (functional/text/ter.py: "Sacrebleu-inspired limits", its own
_TercomTokenizer "Re-implementation of Tercom Tokenizer"), mapped onto ``ter``:
``translation_edit_rate(preds, target, normalize, no_punctuation, lowercase)``; a fraction.

Profile (1.9.0): lowercase=True (case=insensitive), normalize=False, no_punctuation=False;
tercom's shift limits (``_MAX_SHIFT_SIZE = 10``, ``_MAX_SHIFT_DIST = 50``) and, as the
search it ports, tercom's beam (beam_width=20) as its profile; a corpus with no reference
word scores 1 with edits and 0 without (``_compute_ter_score_from_statistics``:
zero_reference=one-if-edits). Values are float32 tensors."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import LibraryOutput
from oracle.compare import Tolerance

METRICS = ("ter",)
CAPABILITIES = {"ter": {"case": ("insensitive", "sensitive"), "normalize": ("no", "yes"),
                        "punctuation": ("keep", "remove"), "beam_width": ("20",), "max_shift_distance": ("50",),
                        "zero_reference": ("one-if-edits",), "scale": ("fraction",)}}
PROFILES = {"ter": {"case": "insensitive", "normalize": "no", "punctuation": "keep", "beam_width": "20",
                    "max_shift_distance": "50", "zero_reference": "one-if-edits", "scale": "fraction"}}
SOURCES = {
    "zero_reference": "torchmetrics/functional/text/ter.py _compute_ter_score_from_statistics: 'A corpus-level TER "
                      "score or 1 if reference_length == 0' (0 without edits)",
}
# float32: the edits and the average reference lengths summed in float32 tensors, one division
TOLERANCES = {"ter": Tolerance(ulps32=8, abs=Fraction(1, 10 ** 6))}


def options(settings: Mapping[str, str]) -> dict:
    return {"normalize": settings["normalize"] == "yes", "no_punctuation": settings["punctuation"] == "remove",
            "lowercase": settings["case"] == "insensitive"}


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    from torchmetrics.functional.text import translation_edit_rate
    hyps, refs = inputs["hypotheses"], inputs["references"]
    return LibraryOutput(value=float(translation_edit_rate(list(hyps), [list(r) for r in refs], **options)))


def call_bare(metric: str, inputs: Mapping) -> LibraryOutput:
    """``translation_edit_rate(preds, target)``."""
    return call(metric, {}, inputs)


# -- the known defect: hypothesis and reference swapped in the shift search

def _segments(settings: Mapping[str, str], inputs: Mapping):
    """Per segment: (edits as tercom counts them, edits with the roles swapped as
    ``_compute_sentence_statistics`` calls it, the average reference length)."""
    from oracle.ter import pair_edits, read, segment, tokens
    out = []
    for h, rs in zip(inputs["hypotheses"], inputs["references"]):
        right, words, _ = segment(h, list(rs), settings)
        text = read(h, settings)
        hw = tokens(text, settings) if text else []
        swapped = None
        for r in rs:
            text = read(r, settings)
            rw = tokens(text, settings) if text else []
            # _translation_edit_rate(tgt_words, pred_words): the reference in the hypothesis' place;
            # 'if len(target_words) == 0: return 0' then reads the hypothesis' length
            e = 0 if not hw else len(hw) if not rw else pair_edits(rw, hw, settings)
            swapped = e if swapped is None else min(swapped, e)
        out.append((right, swapped, words))
    return out


def swapped_roles(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies where the swapped roles count other edits than tercom on some segment."""
    if metric != "ter":
        return False
    try:
        return any(a != b for a, b, _ in _segments(settings, inputs))
    except Exception:
        return False


def swapped_roles_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """The library's value: the swapped edits over the reference words (1 with edits and
    none, 0 with neither)."""
    segs = _segments(settings, inputs)
    edits, words = sum(b for _, b, _ in segs), sum((w for _, _, w in segs), Fraction(0))
    return float(edits / words) if words else (1.0 if edits else 0.0)
