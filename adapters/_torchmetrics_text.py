"""torchmetrics' text metrics (``torchmetrics.functional.text``, 1.x) mapped onto the oracle.

| metric | call |
| --- | --- |
| ``wer``, ``cer``, ``mer``, ``wil``, ``wip`` | ``word_error_rate(preds, target)``, ``char_error_rate``, ``match_error_rate``, ``word_information_lost``, ``word_information_preserved`` |
| ``bleu``, ``sentence_bleu`` | ``bleu_score(preds, target, n_gram, smooth, weights)`` (tokenizer ``none``); ``sacre_bleu_score(..., tokenize, lowercase)`` for ``13a``, ``intl``, ``char`` and lower case |
| ``exact_match``, ``squad_f1`` | ``squad(preds, target)["exact_match"]``, ``["f1"]`` (percent, divided by 100 here) |
| ``perplexity`` | ``perplexity(logits, target, ignore_index)`` on float32 logits (torch's default dtype) |

Profiles, from the source (torchmetrics 1.9.0):
- error rates: ``pred.split()`` / ``tgt.split()`` (wer.py ``_wer_update``): tokenize=whitespace,
  mixed case, punctuation kept; summed edit distances over summed reference lengths
  (aggregate=corpus); CER aligns ``list(pred)`` with ``list(tgt)``, nothing stripped
  (cer.py ``_cer_update``): whitespace=keep, unit=codepoint. The totals are float32
  tensors and the rate one float32 division.
- BLEU: the reference length is the closest reference's (Papineni et al. 2002, the paper
  bleu.py cites as its reference [1]; ``SacreBLEUScore`` documents SacreBLEU's computation),
  a tie going to the shorter reference as in NLTK and SacreBLEU: ref_length=closest-shorter.
  The code takes the first of the equally close references (bleu.py ``_bleu_score_update``:
  ``target_len_list[target_len_diff.index(min(target_len_diff))]``), so a tie broken the other
  way is a defect (``first-closest-reference``; reported upstream as issue #3504);
  ``smooth=True`` is Lin and Och's add-one on orders >= 2 (``precision_scores[0] =
  numerator[0] / denominator[0]``): smoothing=add-k with k = 1; any order without a match
  gives 0 before smoothing (``if min(numerator) == 0.0``): no_match=zero, which under
  add-k is a defect (it zeroes more than "no unigram matches"); float32 throughout.
- SQuAD (squad.py): the v1.1 script it names as its source (lines 15-16), golds used as
  given, the official normalization, an unanswered question scored 0 and counted
  (``rank_zero_warn(... will receive score 0)``): normalization=squad, rule=v1.1,
  missing=zero. Its token F1 takes the v2.0 script's empty rule (``int(target_tokens ==
  predicted_tokens)`` when a side is empty), which differs from v1.1 where both sides
  normalize to nothing: a defect (known failures).
- perplexity (perplexity.py ``_perplexity_update``): softmax over the vocabulary, then the log
  of the target's probability, exp of the mean over the unmasked positions:
  aggregate=corpus-token, shift=none; ``ignore_index`` as the knob.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._bleu_inputs import segments, weight_list
from ._numbers import as_float, exact_number, ln, ln_complement
from ._tensors import leaves, one_dtype

RATES = ("wer", "mer", "wil", "wip")
_WORD = {"tokenize": ("whitespace",), "case": ("mixed",), "punctuation": ("keep",),
         "aggregate": ("corpus",), "empty_reference": ("undefined",), "tie": ("any",)}
_WORD_PROFILE = {"tokenize": "whitespace", "case": "mixed", "punctuation": "keep", "aggregate": "corpus",
                 "empty_reference": "undefined", "tie": "any"}
_CHAR = {"case": ("mixed",), "punctuation": ("keep",), "whitespace": ("keep",), "unit": ("codepoint",),
         "aggregate": ("corpus",), "empty_reference": ("undefined",), "tie": ("any",)}
_CHAR_PROFILE = {"case": "mixed", "punctuation": "keep", "whitespace": "keep", "unit": "codepoint",
                 "aggregate": "corpus", "empty_reference": "undefined", "tie": "any"}


def _smoothing_value_ok(value: str, settings: Mapping[str, str]) -> bool:
    if settings.get("smoothing") == "add-k":
        return value in ("1", "-")
    return value == "-"


def _order_ok(value: str, settings: Mapping[str, str]) -> bool:
    return value.isdigit() and int(value) >= 1


def _weights_ok(value: str, settings: Mapping[str, str]) -> bool:
    try:
        ws = weight_list(value, int(settings.get("order", "4")))
    except (ValueError, ZeroDivisionError):
        return False
    return len(ws) == int(settings.get("order", "4")) and all(w >= 0 for w in ws)


_BLEU = {"tokenizer": ("none", "13a", "intl", "char"), "case": ("mixed", "lower"), "order": _order_ok,
         "weights": _weights_ok, "ref_length": ("closest-shorter",), "smoothing": ("none", "add-k"),
         "smoothing_value": _smoothing_value_ok, "no_match": ("zero",), "effective_order": ("no",),
         "level": ("corpus",), "scale": ("fraction",)}
_BLEU_PROFILE = {"tokenizer": "none", "case": "mixed", "order": "4", "weights": "uniform",
                 "ref_length": "closest-shorter", "smoothing": "none", "no_match": "zero",
                 "effective_order": "no", "scale": "fraction"}
_SQUAD = {"normalization": ("squad",), "missing": ("zero",), "rule": ("v1.1",)}
_SQUAD_PROFILE = {"normalization": "squad", "missing": "zero", "rule": "v1.1"}

CAPABILITIES = {
    **{m: dict(_WORD) for m in RATES}, "cer": dict(_CHAR),
    "bleu": dict(_BLEU), "sentence_bleu": {k: v for k, v in _BLEU.items() if k != "level"},
    "exact_match": dict(_SQUAD), "squad_f1": dict(_SQUAD),
    "perplexity": {"aggregate": ("corpus-token",), "ignore_index": ANY, "shift": ("none",),
                   "logit_precision": ("float32",)},
}
PROFILES = {
    **{m: dict(_WORD_PROFILE) for m in RATES}, "cer": dict(_CHAR_PROFILE),
    "bleu": dict(_BLEU_PROFILE, level="corpus"), "sentence_bleu": dict(_BLEU_PROFILE),
    "exact_match": dict(_SQUAD_PROFILE), "squad_f1": dict(_SQUAD_PROFILE),
    "perplexity": {"aggregate": "corpus-token", "ignore_index": "none", "shift": "none",
                   "logit_precision": "float32"},
}
SOURCES = {
    "tokenize": "torchmetrics/functional/text/wer.py _wer_update: pred.split(), tgt.split() (mer.py, wil.py, "
                "wip.py alike)",
    "aggregate": "wer.py _wer_update sums the edit distances and the reference lengths over the pairs; "
                 "_wer_compute returns errors / total",
    "whitespace": "cer.py _cer_update: _edit_distance(list(pred), list(tgt)), the strings as given",
    "case": "wer.py _wer_update: pred.split(), tgt.split(), the tokens compared as given (no case folding; cer.py "
            "alike)",
    "unit": "cer.py _cer_update: list(pred), Python's code points",
    "logit_precision": "functional/text/perplexity.py: preds is 'Logits or a unnormalized score' tensor; "
                       "torch.tensor([...]) of Python floats is float32 (torch.get_default_dtype()), the type a "
                       "model's logits come in",
    "tokenizer": "bleu.py _tokenize_fn: sentence.split() (BLEUScore's default tokenizer)",
    "ref_length": "bleu.py References [1], Papineni et al. 2002: the best match length (the closest reference; "
                  "NLTK closest_ref_length and SacreBLEU _get_closest_ref_len, the implementations sacre_bleu_score "
                  "documents it follows, break a tie towards the shorter one)",
    "smoothing": "bleu.py bleu_score(smooth=False); smooth=True adds one to the counts of orders >= 2 "
                 "(_bleu_score_compute: precision_scores[0] = numerator[0] / denominator[0]), Lin and Och 2004",
    "rule": "squad.py:15-16 names its sources, the SQuAD v1.1 evaluation script (CodaLab bundle) and Hugging "
            "Face datasets' squad metric (v1.1); the docstring cites the SQuAD (1.1) paper. The golds are used as "
            "given (_metric_max_over_ground_truths over every answer text)",
    "no_match": "bleu.py _bleu_score_compute: 'if min(numerator) == 0.0: return tensor(0.0)' before any "
                "smoothing",
    "missing": "squad.py _squad_update: 'Unanswered question {id} will receive score 0.', counted in total",
}

# float32: the error rates are one float32 division of integer-valued float32 totals (exact
# below 2**24): correctly rounded, within 1 float32 ULP of the exact value (the comparison
# rounds the exact value to a double first). WIL and WIP are two divisions and a product
# (and 1 - it): a few roundings. BLEU: float32 log, weights times logs, sum, exp and the
# brevity penalty's exp: relative error of a few float32 ULPs times the order (seen below
# 2**-20 on random corpora). SQuAD: a float32 sum of per-question scores (each itself a
# float32 F1 from three roundings), then 100 * sum / total; the adapter divides by 100 in
# float64. Perplexity: float64 logits, softmax, log and exp in double precision.
TOLERANCES = {
    "wer": Tolerance(ulps32=1), "cer": Tolerance(ulps32=1), "mer": Tolerance(ulps32=1),
    "wil": Tolerance(ulps32=4, abs=Fraction(1, 2 ** 22)), "wip": Tolerance(ulps32=4),
    "bleu": Tolerance(ulps32=16), "sentence_bleu": Tolerance(ulps32=16),
    "exact_match": Tolerance(ulps32=4), "squad_f1": Tolerance(ulps32=8, abs=Fraction(1, 2 ** 20)),
    # float32 logits and arithmetic (softmax, log, a sum, exp): the perplexity is exp of a float32
    # mean NLL x, whose rounding (|x| <= 88.7, the largest exp float32 holds) is a relative error
    # of at most 89 * 2**-24 (45 float32 ULPs) in the result; softmax, logs and the (pairwise)
    # sum add a few ULPs more: 256 covers both
    "perplexity": Tolerance(ulps32=256),
}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    if metric in ("bleu", "sentence_bleu"):
        order = int(settings["order"])
        return {"n_gram": order, "smooth": settings["smoothing"] == "add-k",
                "weights": [float(w) for w in weight_list(settings["weights"], order)],
                "tokenize": settings["tokenizer"], "lowercase": settings["case"] == "lower"}
    if metric == "perplexity":
        ig = settings["ignore_index"]
        return {"ignore_index": None if ig == "none" else int(ig)}
    return {}


def _strings(inputs: Mapping) -> tuple[list, list]:
    refs, hyps = inputs.get("references"), inputs.get("hypotheses")
    if not isinstance(refs, list) or not isinstance(hyps, list):
        raise Skip("torchmetrics' error rates take lists of strings")
    return hyps, refs


def call(metric: str, options: Mapping, inputs: Mapping, T=None) -> LibraryOutput:
    """One call of the functional API ``T`` (``torchmetrics.functional.text``, or a namespace of
    the same names that feeds the stateful classes: ``_torchmetrics_stateful.Stateful``)."""
    if T is None:
        import torchmetrics.functional.text as T

    if metric in RATES or metric == "cer":
        fn = {"wer": T.word_error_rate, "cer": T.char_error_rate, "mer": T.match_error_rate,
              "wil": T.word_information_lost, "wip": T.word_information_preserved}[metric]
        preds, target = _strings(inputs)
        return LibraryOutput(value=float(fn(preds, target)))
    if metric in ("bleu", "sentence_bleu"):
        return _bleu(metric, options, inputs, T)
    if metric in ("exact_match", "squad_f1"):
        return _squad(metric, inputs, T)
    if metric == "perplexity":
        return _perplexity(options, inputs, T)
    raise Skip(f"torchmetrics adapter does not implement {metric}")


def call_bare(metric: str, inputs: Mapping, T=None) -> LibraryOutput:
    """``word_error_rate(preds, target)`` and its siblings, ``bleu_score(preds, target)``,
    ``squad(preds, target)``, ``perplexity(preds, target)``: no optional argument (``T``: the
    functional API, or the stateful classes behind its names)."""
    if T is None:
        import torchmetrics.functional.text as T
    if metric in ("bleu", "sentence_bleu"):
        hyps, refs = segments(metric, inputs)
        return LibraryOutput(value=float(T.bleu_score(hyps, refs)))
    if metric == "perplexity":
        return LibraryOutput(value=float(T.perplexity(*unpadded_tensors(inputs, "torchmetrics"))))
    return call(metric, {}, inputs, T)


def _bleu(metric: str, options: Mapping, inputs: Mapping, T) -> LibraryOutput:
    hyps, refs = segments(metric, inputs)
    if options["tokenize"] == "none" and not options["lowercase"]:
        v = T.bleu_score(hyps, refs, n_gram=options["n_gram"], smooth=options["smooth"],
                         weights=options["weights"])
    else:
        v = T.sacre_bleu_score(hyps, refs, n_gram=options["n_gram"], smooth=options["smooth"],
                               tokenize=options["tokenize"], lowercase=options["lowercase"],
                               weights=options["weights"])
    return LibraryOutput(value=float(v))


def _squad(metric: str, inputs: Mapping, T) -> LibraryOutput:
    preds, refs = inputs.get("predictions"), inputs.get("references")
    if not isinstance(preds, list) or not isinstance(refs, list):
        raise Skip("torchmetrics' squad takes lists")
    p = [{"id": str(i), "prediction_text": x} for i, x in enumerate(preds) if x is not None]
    t = [{"id": str(i), "answers": {"text": list(r), "answer_start": [0] * len(r)}} for i, r in enumerate(refs)]
    out = T.squad(p, t)
    key = "exact_match" if metric == "exact_match" else "f1"
    # the library reports percent (100.0 * exact_match / total); the unit is converted here
    return LibraryOutput(value=float(out[key]) / 100, raw=out)


def _perplexity(options: Mapping, inputs: Mapping, T) -> LibraryOutput:
    z, t, ignore = perplexity_tensors(inputs, "torchmetrics", options["ignore_index"])
    return LibraryOutput(value=float(T.perplexity(z, t, ignore_index=ignore)))


def unpadded_tensors(inputs: Mapping, library: str) -> tuple:
    """(logits, targets) of a perplexity input for a call with no ignore_index: Skip where the
    texts' lengths differ (a padded batch needs an ignore_index, an optional argument)."""
    z, t, ignore = perplexity_tensors(inputs, library)
    if ignore is not None:
        raise Skip("texts of unequal length: a batch is padded with an ignore_index, an optional argument")
    return z, t


def float32_softmax_underflow(metric, settings, inputs) -> bool:
    """Applies: perplexity, and a scored position whose target has a finite logit but a
    probability of 0 as the library computes it: ``softmax`` of the float32 logits, then
    ``log`` (torchmetrics/functional/text/perplexity.py:85, :95; torcheval's perplexity.py:93,
    :104), where a probability below float32's smallest subnormal (2**-149, e**-103.3)
    rounds to 0 and its log to -inf. The model: inf."""
    if metric != "perplexity":
        return False
    try:
        import torch
        ig = settings.get("ignore_index", "none")
        z, t, ignore = perplexity_tensors(inputs, "torch", None if ig == "none" else int(ig))
        z, t = z.reshape(-1, z.shape[-1]), t.reshape(-1)
        keep = (t >= 0) & (t < z.shape[-1]) if ignore is None else (t != ignore) & (t >= 0) & (t < z.shape[-1])
        rows, targets = torch.nonzero(keep).reshape(-1), t[keep]
        if len(rows) == 0:
            return False
        probs = torch.softmax(z[rows], dim=1)
        chosen = probs[torch.arange(len(rows)), targets]
        finite = torch.isfinite(z[rows, targets])
        return bool(((chosen == 0) & finite).any())
    except Exception:
        return False


def perplexity_tensors(inputs: Mapping, library: str, ignore_index=None, dtype: str = "float32"):
    """(float32 logits [batch, seq, vocab], int64 targets, the ignore_index to pass) of a
    perplexity input: its logits, or its probabilities as two-word logits
    (``_probs_as_logits``). Texts of unequal length are padded to one rectangular batch the
    way both libraries document for padded batches: the padding positions take the target
    ``ignore_index`` (the case's own, or, when it has none, an integer no target holds, so
    that the library drops exactly the padding). Skip where no tensor can be made."""
    import torch

    logits, targets = inputs.get("logits"), inputs.get("targets")
    if logits is None and inputs.get("probs") is not None:
        logits, targets = _probs_as_logits(inputs["probs"], ignore_index)
    elif logits is None and inputs.get("logprobs") is not None:
        logits, targets = _probs_as_logits(inputs["logprobs"], ignore_index, logs=True)
    if logits is None or targets is None:
        raise Skip(f"{library}'s perplexity takes logits and target indices")
    # a float or bool target is passed as torch.tensor makes it, for the library to refuse; a
    # bool among numbers, a text, None, has no tensor (adapters._tensors)
    target_kind = one_dtype("targets", targets)
    if inputs.get("logits") is not None and any(isinstance(v, bool) for _, v in leaves(logits, "logits")):
        raise Skip("logits: a bool logit; the float32 logits tensor would read it as 0 or 1")
    try:
        logits, targets, ignore_index = _padded(logits, targets, ignore_index)
        # the natural type: torch.tensor of Python floats holds them as its default dtype, float32
        # (logit_precision=float32: the float32 nearest each double)
        z = torch.tensor([[[_float(v) for v in pos] for pos in text] for text in logits],
                         dtype=getattr(torch, dtype))
        t = torch.tensor(targets) if target_kind in ("float", "bool") else torch.tensor(targets, dtype=torch.int64)
    except (ValueError, TypeError) as e:
        raise Skip(f"{library} takes rectangular [batch, seq, vocab] logits ({e})")
    return z, t, ignore_index


def _padded(logits, targets, ignore_index):
    """Logits and targets padded to the longest text (positions of zero logits whose target is
    the ignore index), and the ignore index that drops the padding; unchanged when the texts
    are of one length or the input is not lists of lists (the tensor then refuses it)."""
    try:
        lengths = [len(text) for text in logits] + [len(text) for text in targets]
        vocab = next(len(pos) for text in logits for pos in text)
    except (TypeError, StopIteration):
        return logits, targets, ignore_index
    longest = max(lengths, default=0)
    if all(n == longest for n in lengths):
        return logits, targets, ignore_index
    if len(logits) != len(targets) or any(len(z) != len(t) for z, t in zip(logits, targets)):
        # a text whose targets and logit positions differ in number is no padded batch: it is
        # passed as it is (the tensors' shapes then differ, for the library to refuse)
        return logits, targets, ignore_index
    if ignore_index is None:
        held = {t for text in targets for t in text if isinstance(t, int)}
        ignore_index = -100 if -100 not in held else min(held) - 1
    logits = [list(text) + [[0] * vocab] * (longest - len(text)) for text in logits]
    targets = [list(text) + [ignore_index] * (longest - len(text)) for text in targets]
    return logits, targets, ignore_index


def _probs_as_logits(probs, ignore_index=None, logs: bool = False) -> tuple[list, list]:
    """Per-token probabilities (natural-log probabilities when ``logs``) as logits the library
    can take: p becomes the two-word vocabulary [ln p, ln(1 - p)] with target 0 (softmax gives
    p back up to a few roundings; p = 1 gives [0, -inf], p = 0 [-inf, 0], a NaN [NaN, NaN]);
    a log-probability l becomes [l, log1p(-exp(l))]; a masked (null) position, under an
    ignore_index, becomes the target ignore_index (the library drops it)."""
    import math
    if logs:
        probs = [[_exp_of_log(x) for x in text] if isinstance(text, list) else text for text in probs]
    logits, targets = [], []
    for text in probs:
        row, tgt = [], []
        for p in text:
            if isinstance(p, bool):
                raise Skip(f"probability {p!r}: a bool has no logits form (ln True is no number)")
            if p is None:
                if ignore_index is None:
                    raise Skip("a masked probability (null) without an ignore_index has no logits form")
                row.append([0.0, 0.0])
                tgt.append(ignore_index)
                continue
            tgt.append(0)
            if isinstance(p, float) and math.isnan(p):
                row.append([p, p])   # a NaN probability: NaN logits, for the library to refuse
                continue
            try:
                q = exact_number(p)
                inside = 0 <= q <= 1
            except (ValueError, TypeError, OverflowError, ArithmeticError):
                raise Skip(f"probability {p!r} has no logits form")
            if not inside:
                raise Skip("a probability outside [0, 1] has no logits form")
            row.append([ln(q), ln_complement(q)])
        logits.append(row)
        targets.append(tgt)
    return logits, targets


def _exp_of_log(x):
    """exp(l) of a log-probability as a Fraction (None and NaN kept; -inf gives 0), for
    ``_probs_as_logits``; a value that is no number is kept for it to refuse."""
    import math
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return x
    try:
        v = _float(x)
    except (ValueError, TypeError):
        return x
    if v > 0:
        raise Skip("a log-probability above 0 has no logits form")
    return Fraction(math.exp(v)) if v != float("-inf") else Fraction(0)


def _float(v) -> float:
    if isinstance(v, str):
        return as_float(v)
    return float(v)
