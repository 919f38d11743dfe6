"""pycocoevalcap 1.2 (the COCO caption evaluation code): ``Cider`` mapped onto
``cider_d`` and ``Bleu`` onto ``bleu``.

Inputs are pre-tokenized text: both scorers split on whitespace (``s.split()``,
``precook`` in cider/cider_scorer.py:20 and bleu/bleu_scorer.py:27). The COCO
pipeline first runs ``PTBTokenizer`` (Stanford CoreNLP, needs Java); that is
text preparation, not a knob of either metric, so the adapter does not offer
it: tokenize before calling, as the oracle's inputs already are.

CIDEr-D: ``Cider(sigma=...).compute_score(gts, res)`` with image ids 0..n-1,
``gts[i]`` the references and ``res[i] = [candidate]``; the value is the
corpus score (the mean of the per-image scores, which are kept in ``raw``).
It computes CIDEr-D: clipped numerator ``min(vec_hyp, vec_ref) * vec_ref``
(cider_scorer.py:151), Gaussian penalty ``np.e**(-(delta**2)/(2*sigma**2))``
(line 158), times 10 (line 178), raw term frequency (``float(term_freq) *
(ref_len - df)``, line 124), document frequency over the references of the
scored images (``compute_doc_freq``, lines 93-103), ``log(max(1, df))``
(line 120), a zero norm leaves the order's similarity 0 (line 153),
duplicated references each counted (lines 172-176). Its length is the
number of bigrams (``if n == 1: length += term_freq``, lines 128-129), which
gives the same delta as words whenever both texts are non-empty (and an empty
text has similarity 0): not a difference. Orders n = 1..4 (the oracle's).
Options: ``sigma`` only (a float: the adapter offers the sigmas that are
binary floats exactly). Not offered: plain CIDEr (no switch), tf normalized,
df from an external corpus (the original vrama91/cider has ``coco-val-df``;
this package does not), duplicates collapsed, another factor.

BLEU: ``Bleu(N).compute_score(gts, res, verbose=0)`` returns ``[BLEU-1 ..
BLEU-N]`` (corpus, pooled counts) and per-image lists; the adapter takes
BLEU-N, or the plain mean of the per-image BLEU-N for ``level=sentence-mean``.
Its own n-gram counting (bleu_scorer.py ``precook``, ``cook_refs``,
``cook_test``): clipping by the maximum count over the references; the
reference length is ``option='closest'`` (bleu.py:40), ``min((abs(l - c),
l))`` over the reference lengths: closest, ties to the shorter
(bleu_scorer.py:189); uniform weights (the k-th score is the product of the
first k precisions to the power 1/k, lines 251-253); BP ``exp(1 - 1/ratio)``
when ratio < 1 (lines 254-257); no smoothing, no effective order, scale
fraction. ``order`` is passed as N; above 4 the library raises (its cooking
counts 4-grams at most: a known failure). Every precision is ``(m + tiny) / (t +
small)`` and the length ratio ``(c + tiny) / (r + small)`` with tiny = 1e-15,
small = 1e-9 (lines 201-202, 234-237, 251-254): the oracle's ``smoothing=coco``,
the profile (the run shows how it differs from unsmoothed BLEU with a minimal
input, as a divergence). The epsilons are read as the decimals the source prints;
the library's doubles differ from them by about 1e-31, far inside the tolerance.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._bleu_inputs import bleu_inputs, uniform_weights

# str.isspace() characters that are not Unicode White_Space (the oracle's tokenizer=none)
_SEPARATORS = ("\x1c", "\x1d", "\x1e", "\x1f")


def _sigma_ok(value: str, settings: Mapping[str, str]) -> bool:
    """Cider takes sigma as a float: offered when the float is that rational exactly."""
    if value == "-":
        return False
    try:
        s = Fraction(value)
    except (ValueError, ZeroDivisionError):
        return False
    return s > 0 and Fraction(float(s)) == s


def _weights_ok(value: str, settings: Mapping[str, str]) -> bool:
    return uniform_weights(value, settings.get("order", "4"))


class PyCocoEvalCap(Adapter):
    name = "pycocoevalcap"
    # the exceptions its own code refuses an input with: the scorers check their inputs with assert (cider.py: assert(gts.keys() == res.keys()), assert(type(hypo) is list))
    refusals = {"*": ("AssertionError", "ValueError", "TypeError")}
    library = "pycocoevalcap"
    # 1.2 is the only release on PyPI (the 2020 packaging of coco-caption)
    versions = ">=1.2,<2"
    matrix_versions = ("1.2",)
    import_name = "pycocoevalcap.cider.cider"
    homepage = "https://github.com/salaniz/pycocoevalcap"
    issues = "https://github.com/salaniz/pycocoevalcap/issues"
    capabilities = {
        "cider_d": {"sigma": _sigma_ok},
        "bleu": {"order": ANY, "weights": _weights_ok, "level": ("corpus", "sentence-mean")},
    }
    profiles = {
        # Cider(n=4, sigma=6.0): the CIDEr-D of the module docstring
        "cider_d": {"clip": "yes", "penalty": "gaussian", "sigma": "6", "factor": "10", "tf": "raw",
                    "df": "refs", "zero_df": "one", "duplicates": "keep"},
        # Bleu(4): whitespace tokens, closest reference length (ties to the shorter), the
        # epsilons in every precision and in the length ratio, corpus pooling, fraction
        "bleu": {"tokenizer": "none", "case": "mixed", "order": "4", "weights": "uniform",
                 "ref_length": "closest-shorter", "smoothing": "coco", "effective_order": "no",
                 "level": "corpus", "scale": "fraction"},
    }
    profile_sources = {"*": {
        "tokenizer": "pycocoevalcap/bleu/bleu_scorer.py:23-27 precook: s.split(); text is tokenized beforehand "
                     "by PTBTokenizer (eval.py:31-34; README 'PTBTokenizer: We use the Stanford Tokenizer')",
        "smoothing": "pycocoevalcap/bleu/bleu_scorer.py:201-202 'small = 1e-9', 'tiny = 1e-15 ## so that if "
                     "guess is 0 still return 0'; (correct + tiny)/(guess + small) per order (lines 234-235, "
                     "251-252) and 'ratio = (testlen + tiny) / (reflen + small) ## N.B.: avoid zero division' "
                     "(lines 237, 254): deliberate, commented in the code",
    }}
    statistics = ("bleu",)
    # BLEU: float64 products of N precisions, a power, exp: a few roundings of 2**-53.
    # CIDEr-D: each weight log(N) - log(df) is a difference of two rounded logs, relative
    # error up to about 2**-52 log(N) / log(N/df); squared in numerator and norms, then
    # sqrt, cosine, np.e**x (np.e is e to 2**-53: relative |x| 2**-53 on the penalty),
    # sums of nonnegative terms and a mean. Measured: at most 4 ULPs (6e-16 relative) on
    # random corpora of up to 2,000 images over 3-30 words (df close to N), 0 ULPs on the
    # 5,000-image bench workload; 1e-12 is the bound, as for the other float64 adapters.
    tolerances = {
        "bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
        "cider_d": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
    }

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric == "cider_d":
            return {"sigma": float(Fraction(settings["sigma"]))}
        return {"order": int(settings["order"]), "level": settings["level"]}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        if metric == "cider_d":
            return _cider(options, inputs)
        if metric == "bleu":
            return _bleu(options, inputs)
        raise Skip(f"pycocoevalcap adapter does not implement {metric}")

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``Cider().compute_score(gts, res)`` and ``Bleu().compute_score(gts, res)`` (n=4; the
        corpus score of the last order is its headline, the value coco-caption prints)."""
        if metric == "cider_d":
            from pycocoevalcap.cider.cider import Cider
            cands = list(inputs["candidates"])
            if not cands:
                raise Skip("pycocoevalcap cannot score no images")
            gts = {i: list(rs) for i, rs in enumerate(inputs["references"])}
            score, _ = Cider().compute_score(gts, {i: [c] for i, c in enumerate(cands)})
            return LibraryOutput(float(score))
        if metric == "bleu":
            from pycocoevalcap.bleu.bleu import Bleu
            hyps, refs = bleu_inputs(inputs)
            # verbose=0 only silences its print of the statistics (a value-free argument)
            score, _ = Bleu().compute_score({i: rs for i, rs in enumerate(refs)},
                                            {i: [h] for i, h in enumerate(hyps)}, verbose=0)
            return LibraryOutput(float(score[-1]))
        raise Skip(f"pycocoevalcap adapter does not implement {metric}")

    # -- known failures

    def defect_classifiers(self) -> dict:
        """Each predicate reads the input (and the settings) only."""
        return {
            "python-isspace-separators": _isspace_separators,
            "no-reference-words": _no_reference_words,
            "order-above-4": _order_above_4,
        }

    def defect_models(self) -> dict:
        """The library's value each defect predicts: the oracle on text split at
        U+001C..U+001F, and the raises."""
        return {
            "python-isspace-separators": _split_separators_model,
            "no-reference-words": lambda metric, settings, inputs: "raised ValueError",
            "order-above-4": lambda metric, settings, inputs: "raised IndexError",
        }


def _isspace_separators(metric, settings, inputs) -> bool:
    """Both scorers split with ``str.split()`` (bleu_scorer.py:27), which also splits at
    U+001C..U+001F; these are not Unicode White_Space, the oracle's ``tokenizer=none``
    (mteval's Perl \\s), so they stay inside a token there. Applies (bleu) when a text holds one."""
    if metric != "bleu":
        return False
    hyps, refs = bleu_inputs(inputs)
    return any(ch in text for text in list(hyps) + [r for rs in refs for r in rs] for ch in _SEPARATORS)


def _split_separators_model(metric, settings, inputs):
    """The oracle's value on the texts with U+001C..U+001F replaced by spaces (what
    ``str.split()`` does to them)."""
    from oracle.registry import compute
    table = {ord(ch): " " for ch in _SEPARATORS}
    split = {k: ([[r.translate(table) for r in rs] for rs in v] if k == "references" else
                 [h.translate(table) for h in v] if k in ("hypotheses", "candidates") else v)
             for k, v in inputs.items()}
    return compute(metric, split, settings).value


def _order_above_4(metric, settings, inputs) -> bool:
    """``BleuScorer.cook_append`` calls ``cook_refs(refs)`` and ``cook_test(test, ...)`` without
    passing its n (bleu_scorer.py:114-116), so counts stop at 4-grams (their default n=4,
    lines 35 and 60) and ``compute_score`` reads ``comps['correct'][4]`` for ``Bleu(5)``:
    IndexError. Applies (bleu): order above 4."""
    return metric == "bleu" and int(settings["order"]) > 4


def _no_reference_words(metric, settings, inputs) -> bool:
    """No reference of any image has a word: ``compute_score`` asserts
    ``len(self.ctest) >= max(self.document_frequency.values())`` (cider_scorer.py:187), and
    max() of an empty table raises ValueError, where every vector is zero and the value 0.
    Applies (cider_d): at least one image and no reference with a whitespace token."""
    if metric != "cider_d":
        return False
    refs = inputs.get("references") or []
    return bool(refs) and not any(r.split() for rs in refs for r in rs)


# ------------------------------------------------------------------ library calls

def _cider(options: Mapping, inputs: Mapping) -> LibraryOutput:
    from pycocoevalcap.cider.cider import Cider

    cands = list(inputs["candidates"])
    refs = [list(rs) for rs in inputs["references"]]
    if not cands:
        raise Skip("pycocoevalcap cannot score no images: CiderScorer.compute_score takes max() of an "
                   "empty document-frequency table (cider_scorer.py:187) and np.mean of no scores is nan")
    gts = {i: rs for i, rs in enumerate(refs)}
    res = {i: [c] for i, c in enumerate(cands)}
    score, scores = Cider(sigma=options["sigma"]).compute_score(gts, res)
    return LibraryOutput(float(score), stats={"images": len(scores)}, raw=[float(x) for x in scores])


def _bleu(options: Mapping, inputs: Mapping) -> LibraryOutput:
    from pycocoevalcap.bleu.bleu import Bleu

    hyps, refs = bleu_inputs(inputs)
    n = options["order"]
    gts = {i: rs for i, rs in enumerate(refs)}
    res = {i: [h] for i, h in enumerate(hyps)}
    score, scores = Bleu(n).compute_score(gts, res, verbose=0)
    if options["level"] == "corpus":
        value = float(score[n - 1])
    else:
        per_image = scores[n - 1]
        value = math.fsum(per_image) / len(per_image)
    return LibraryOutput(value, stats=_bleu_stats(hyps, refs, n, options["level"]), raw=scores)


def _bleu_stats(hyps, refs, n: int, level: str) -> dict:
    """The library's pooled statistics, from its own cooking (``cook_test``'s correct and guess,
    testlen, and the 'closest' reflen of ``_single_reflen``)."""
    from pycocoevalcap.bleu.bleu_scorer import BleuScorer

    scorer = BleuScorer(n=n)
    for h, rs in zip(hyps, refs):
        scorer += (h, rs)
    matches, totals, c_sum, r_sum = [0] * n, [0] * n, 0, 0
    for comps in scorer.ctest:
        for k in range(n):
            matches[k] += comps["correct"][k]
            totals[k] += comps["guess"][k]
        c_sum += comps["testlen"]
        r_sum += scorer._single_reflen(comps["reflen"], "closest", comps["testlen"])
    out = {"matches": matches, "totals": totals, "hyp_len": c_sum, "ref_len": r_sum}
    if level == "sentence-mean":
        out["segments"] = len(scorer.ctest)
    return out
