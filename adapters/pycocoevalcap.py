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
counts 4-grams at most: a known failure). Every precision is ``(m + tiny) / (t + small)`` and the length
ratio ``(c + tiny) / (r + small)`` with tiny = 1e-15, small = 1e-9
(lines 201-202, 234-237, 251-254): no knob reproduces that, so its effects
are known failures (adapters/known_failures/pycocoevalcap.json).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance, ulp_distance

from ._bleu_inputs import bleu_inputs, uniform_weights

# bleu_scorer.py:201-202, as the exact binary values of the library's floats
TINY = Fraction(1e-15)
SMALL = Fraction(1e-9)

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
                    "df": "refs", "duplicates": "keep"},
        # Bleu(4): whitespace tokens, closest reference length (ties to the shorter), no
        # smoothing (the epsilons are known failures), corpus pooling, fraction
        "bleu": {"tokenizer": "none", "case": "mixed", "order": "4", "weights": "uniform",
                 "ref_length": "closest-shorter", "smoothing": "none", "effective_order": "no",
                 "level": "corpus", "scale": "fraction"},
    }
    profile_sources = {"*": {
        "tokenizer": "pycocoevalcap/bleu/bleu_scorer.py:23-27 precook: s.split(); text is tokenized beforehand "
                     "by PTBTokenizer (eval.py:31-34; README 'PTBTokenizer: We use the Stanford Tokenizer')",
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

    # -- known failures

    def defect_classifiers(self) -> dict:
        """Each predicate reads the library's own statistics (``library_segments``) and models
        the library's formula with its epsilons exactly (``epsilon_bleu``)."""
        return {
            "python-isspace-separators": _isspace_separators,
            "empty-hypothesis-and-reference": self._empty_hypothesis_and_reference,
            "zero-count-epsilon": self._zero_count_epsilon,
            "epsilon-in-precisions": self._epsilon_in_precisions,
            "no-reference-words": _no_reference_words,
            "order-above-4": _order_above_4,
        }

    def defect_models(self) -> dict:
        """The library's value each defect predicts: its BLEU with the epsilons
        (``epsilon_bleu`` on its own counts), 0.0 for c = r = 0, the oracle on text split at
        U+001C..U+001F, and the raises."""
        return {
            "zero-count-epsilon": self._epsilon_model,
            "epsilon-in-precisions": self._epsilon_model,
            "empty-hypothesis-and-reference": self._epsilon_model,
            "python-isspace-separators": _split_separators_model,
            "no-reference-words": lambda metric, settings, inputs: "raised ValueError",
            "order-above-4": lambda metric, settings, inputs: "raised IndexError",
        }

    def _epsilon_model(self, metric, settings, inputs):
        """pycocoevalcap's BLEU value, modelled: epsilon_bleu of each unit (0 for c = r = 0:
        ratio 1e-6, BP = exp(1 - 1e6)), averaged over the units under sentence-mean."""
        if metric != "bleu":
            return None
        n = int(settings["order"])
        units = self._units(settings, inputs)
        if not units:
            return None
        import mpmath
        values = [mpmath.mpf(0) if c == 0 and r == 0 else epsilon_bleu(m, t, c, r, n) for m, t, c, r in units]
        with mpmath.workdps(40):
            return float(mpmath.fsum(values) / len(values))

    def library_segments(self, settings: Mapping[str, str], inputs: Mapping) -> list[tuple]:
        """[(correct, guess, testlen, reflen)] per segment, from the library's own cooking
        (``BleuScorer`` += (hyp, refs), then ``_single_reflen(..., 'closest', testlen)``)."""
        from pycocoevalcap.bleu.bleu_scorer import BleuScorer

        hyps, refs = bleu_inputs(inputs)
        scorer = BleuScorer(n=int(settings["order"]))
        for h, rs in zip(hyps, refs):
            scorer += (h, rs)
        out = []
        for comps in scorer.ctest:
            r = scorer._single_reflen(comps["reflen"], "closest", comps["testlen"])
            out.append((list(comps["correct"]), list(comps["guess"]), comps["testlen"], r))
        return out

    def _units(self, settings, inputs) -> list[tuple]:
        """The (m, t, c, r) that one BLEU value is computed from: the pooled counts (corpus),
        or each segment's (sentence-mean)."""
        if int(settings["order"]) > 4:
            return []  # the library raises (order-above-4)
        segs = self.library_segments(settings, inputs)
        if settings["level"] == "sentence-mean" or not segs:
            return segs
        n = int(settings["order"])
        return [([sum(s[0][k] for s in segs) for k in range(n)], [sum(s[1][k] for s in segs) for k in range(n)],
                 sum(s[2] for s in segs), sum(s[3] for s in segs))]

    def _empty_hypothesis_and_reference(self, metric, settings, inputs) -> bool:
        """c = r = 0 in a unit (the corpus, or a segment under sentence-mean): BP and every
        precision are 0/0 (undefined); the library's ratio (0 + tiny)/(0 + small) = 1e-6 < 1
        gives BP = exp(1 - 1e6) = 0.0 (bleu_scorer.py:237-240, 254-257), so it scores 0."""
        if metric != "bleu":
            return False
        return any(c == 0 and r == 0 for _, _, c, r in self._units(settings, inputs))

    def _zero_count_epsilon(self, metric, settings, inputs) -> bool:
        """An order with no matching n-gram (m_n = 0, also when the hypothesis is shorter than
        n and t_n = 0) makes unsmoothed BLEU 0; the library's precision is
        (0 + 1e-15)/(t_n + 1e-9) (bleu_scorer.py:234-235, 251-252), so it returns a small
        positive number. Applies: a unit with c > 0, some m_n = 0, and the library's
        modelled value of that unit nonzero as a double (a brevity penalty can underflow)."""
        if metric != "bleu":
            return False
        n = int(settings["order"])
        for m, t, c, r in self._units(settings, inputs):
            if c > 0 and min(m) == 0 and float(epsilon_bleu(m, t, c, r, n)) > 0:
                return True
        return False

    def _epsilon_in_precisions(self, metric, settings, inputs) -> bool:
        """With every count positive, the library's (m + 1e-15)/(t + 1e-9) precisions and its
        (c + 1e-15)/(r + 1e-9) length ratio (which is below 1 when c = r, so BP < 1) move the
        value by about 1e-9/t relative. Applies: every unit regular (c > 0 with all m_n > 0,
        or c = 0 < r, where both give 0), the library's value outside the declared tolerance
        of the epsilon-free value (computed from the library's own counts), and within
        1e-13 relative of the modelled value with the epsilons (``epsilon_bleu``)."""
        if metric != "bleu":
            return False
        n = int(settings["order"])
        units = self._units(settings, inputs)
        if not units:
            return False
        model, plain = [], []
        for m, t, c, r in units:
            if c > 0 and min(m) == 0 or c == 0 and r == 0:
                return False
            model.append(epsilon_bleu(m, t, c, r, n))
            plain.append(epsilon_bleu(m, t, c, r, n, tiny=Fraction(0), small=Fraction(0)))
        got = self.call(metric, self.options(metric, settings), inputs).value
        import mpmath
        with mpmath.workdps(40):
            a, b = mpmath.fsum(model) / len(model), mpmath.fsum(plain) / len(plain)
            f = mpmath.mpf(got)
            tol = self.tolerance(metric)
            outside = abs(f - b) * tol.rel.denominator > tol.rel.numerator * abs(b) and \
                ulp_distance(got, float(b)) > tol.ulps
            return outside and abs(f - a) <= abs(a) * mpmath.mpf(10) ** -13


def epsilon_bleu(m, t, c, r, n: int, tiny: Fraction = TINY, small: Fraction = SMALL):
    """pycocoevalcap's BLEU-n of one unit as an mpmath number (40 digits):
    prod_k ((m_k + tiny)/(t_k + small))**(1/n) * BP, BP = exp(1 - 1/ratio) if ratio < 1
    else 1, ratio = (c + tiny)/(r + small) (bleu_scorer.py:232-240, 249-257). With
    tiny = small = 0 it is plain unsmoothed BLEU (0 for a zero count; c = r = 0 not allowed)."""
    import mpmath

    with mpmath.workdps(40):
        f = lambda x: mpmath.mpf(x.numerator) / x.denominator  # noqa: E731
        prod = mpmath.mpf(1)
        for k in range(n):
            if m[k] + tiny == 0:
                return mpmath.mpf(0)
            prod *= f(Fraction(m[k]) + tiny) / f(Fraction(t[k]) + small)
        value = prod ** (mpmath.mpf(1) / n)
        if Fraction(c) + tiny < Fraction(r) + small:  # ratio = (c + tiny)/(r + small) < 1
            value *= mpmath.exp(1 - f((Fraction(r) + small) / (Fraction(c) + tiny)))
        return +value


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
