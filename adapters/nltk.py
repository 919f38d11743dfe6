"""NLTK: ``nltk.translate.bleu_score`` mapped onto ``bleu`` (``corpus_bleu``) and
``sentence_bleu`` (``sentence_bleu``).

NLTK takes token lists; the adapter splits each text on whitespace
(``str.split()``), so only ``tokenizer=none`` and ``case=mixed`` are offered.
Options and the knobs they set:

- ``weights`` (``order`` and ``weights``; the weights are passed as floats);
- ``smoothing_function``: ``SmoothingFunction(epsilon, alpha, k).method0..7``:
  method0 none, method1 floor (epsilon = ``smoothing_value``), method2 add-k
  with k = 1 only, method3 exp, method4 cc4 (k = ``smoothing_value``), method5
  cc5, method6 cc6 (alpha = ``smoothing_value``), method7 cc7 (k). method4, 5 and 7
  are also NLTK's own formulas, the oracle's nltk4, nltk5 and nltk7 (k =
  ``smoothing_value`` for 4 and 7): the same calls under those values, where
  they pass, and under cc4, cc5 and cc7, where the difference from Chen and
  Cherry's methods is the known failure. nltk5 and nltk7 are offered at order 4
  only: method5 reads the 5-gram precision whatever the order (line 674), and
  the 5-gram is the next order only at N = 4;
- ``auto_reweigh``: for weights (1/4, 1/4, 1/4, 1/4) and a hypothesis of
  T < 4 tokens, weights 1/T on the first T orders (bleu_score.py:275-277),
  which is effective order for one segment. At corpus level T is the pooled
  hypothesis length, not the highest order any hypothesis has, so
  ``effective_order=yes`` is offered for ``sentence_bleu`` only.

Fixed: reference length closest with ties to the shorter
(``closest_ref_length``), corpus pooling (``corpus_bleu``), scale fraction.
"""
from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._bleu_inputs import bleu_inputs, bleu_profiles, segments, sentence_inputs, uniform_weights, weight_list
from ._numbers import setting_double

_METHOD = {"none": "method0", "floor": "method1", "add-k": "method2", "exp": "method3",
           "cc4": "method4", "cc5": "method5", "cc6": "method6", "cc7": "method7",
           "nltk4": "method4", "nltk5": "method5", "nltk7": "method7"}


def tokens(text: str) -> list[str]:
    """The adapter's tokenizer for NLTK: split on whitespace (tokenizer=none); anything but a
    text is passed as given, NLTK's to refuse."""
    return text.split() if isinstance(text, str) else text


def _smoothing_ok(value: str, settings: Mapping[str, str]) -> bool:
    if value == "add-k":  # method2 adds exactly 1
        sv = settings.get("smoothing_value", "-")
        return sv != "-" and Fraction(sv) == 1
    if value == "cc6":  # method6 reads p_n[2] (bleu_score.py:694): IndexError below order 3
        return int(settings.get("order", "4")) >= 3
    if value in ("nltk5", "nltk7"):  # method5's next order is the 5-gram (bleu_score.py:674)
        return int(settings.get("order", "4")) == 4
    return value in _METHOD


def _smoothing_value_ok(value: str, settings: Mapping[str, str]) -> bool:
    method = settings.get("smoothing")
    if method in ("floor", "cc4", "cc6", "cc7", "nltk4", "nltk7"):
        return value != "-"
    if method == "add-k":
        return value != "-" and Fraction(value) == 1
    return value == "-"


def _sentence_effective_order_ok(value: str, settings: Mapping[str, str]) -> bool:
    if value == "no":
        return True
    return settings.get("order") == "4" and uniform_weights(settings.get("weights", "uniform"), 4)


_COMMON = {
    "order": ANY,
    "weights": ANY,
    "smoothing": _smoothing_ok,
    "smoothing_value": _smoothing_value_ok,
}


def _token_lists(metric: str, inputs: Mapping) -> tuple[list, list]:
    """(hypotheses' tokens, references' tokens per segment) as NLTK takes them; Skip where a
    segment has no reference (closest_ref_length takes min() of no lengths)."""
    if metric == "bleu":
        hyps, refs = bleu_inputs(inputs)
    elif metric == "sentence_bleu":
        hyp, rs = sentence_inputs(inputs)
        hyps, refs = [hyp], [rs]
    else:
        raise Skip(f"nltk adapter does not implement {metric}")
    for i, r in enumerate(refs):
        if not r:
            raise Skip(f"references[{i}] is empty: nltk's closest_ref_length takes min() of no lengths")
    # references given as one text where the list belongs: in NLTK's terms the tokens of one
    # reference passed where the list of references belongs (sentence_bleu(ref_tokens, hyp))
    return [tokens(h) for h in hyps], [tokens(rs) if isinstance(rs, str) else [tokens(r) for r in rs] for rs in refs]


class NLTK(Adapter):
    name = "nltk"
    # the exceptions its own code refuses an input with: ValueError and TypeError, and the asserts
    # of bleu_score.py (corpus_bleu: 'assert len(list_of_references) == len(hypotheses), "The number
    # of hypotheses and their reference(s) should be the same "')
    refusals = {"*": ("ValueError", "TypeError", "AssertionError")}
    library = "nltk"
    versions = ">=3.5,<4"
    matrix_versions = ("3.5", "3.10.4")
    import_name = "nltk.translate.bleu_score"
    homepage = "https://www.nltk.org/api/nltk.translate.bleu_score.html"
    issues = "https://github.com/nltk/nltk/issues"
    capabilities = {
        "bleu": dict(_COMMON, effective_order=("no",)),
        "sentence_bleu": dict(_COMMON, effective_order=_sentence_effective_order_ok),
    }
    # corpus_bleu / sentence_bleu defaults: weights (0.25,)*4, smoothing_function=None
    # (method0), auto_reweigh=False; tokens are the caller's; a fraction in [0, 1].
    profiles = bleu_profiles(tokenizer="none", smoothing="none", scale="fraction", no_match="zero")
    profile_sources = {"*": {
        "tokenizer": "nltk/translate/bleu_score.py:120-122, 202-204: references and hypotheses are token lists "
                     "(list(str)); NLTK does not tokenize (the adapter splits on whitespace)",
        "no_match": "nltk/translate/bleu_score.py:254-258 corpus_bleu: '# Returns 0 if there's no matching "
                    "n-grams' ... 'if p_numerators[1] == 0: return 0' before the smoothing function is called "
                    "(since 3.2.1, commit bfa07a72 'Added sanity check for 0 matching unigrams.')",
    }}
    # float64: w_i * log(p_i) summed with math.fsum, exp, times BP; weights given as
    # floats (1/3 is not exact): a relative error of a few units of 2**-53 (at most 3 ULPs
    # seen on random corpora).
    tolerances = {
        "bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
        "sentence_bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
    }

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        order = int(settings["order"])
        ws = weight_list(settings["weights"], order)
        if len(ws) != order:
            raise Skip(f"weights={settings['weights']}: {len(ws)} weights for order {order}")
        method = settings["smoothing"]
        value = settings.get("smoothing_value", "-")
        params = {}
        if method == "floor":
            params["epsilon"] = setting_double("smoothing_value", value, "nltk")
        elif method in ("cc4", "cc7", "nltk4", "nltk7"):
            params["k"] = setting_double("smoothing_value", value, "nltk")
        elif method == "cc6":
            params["alpha"] = setting_double("smoothing_value", value, "nltk")
        return {"weights": tuple(float(w) for w in ws), "method": _METHOD[method], "params": params,
                "auto_reweigh": settings["effective_order"] == "yes"}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        from nltk.translate import bleu_score as nb

        smoothing = getattr(nb.SmoothingFunction(**options["params"]), options["method"])
        hyp_toks, ref_toks = _token_lists(metric, inputs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # method0 warns on each zero precision
            try:
                if metric == "bleu":
                    value = nb.corpus_bleu(ref_toks, hyp_toks, options["weights"], smoothing,
                                           options["auto_reweigh"])
                else:
                    value = nb.sentence_bleu(ref_toks[0], hyp_toks[0], options["weights"], smoothing,
                                             options["auto_reweigh"])
            except AssertionError as e:
                if options["method"] == "method6":
                    # method6 asserts p_n[2] (bleu_score.py:694): it refuses inputs with no trigram match
                    raise Skip(f"nltk method6 refuses this input: AssertionError({e})") from None
                raise
        return LibraryOutput(value=value, stats=_stats(nb, hyp_toks, ref_toks, len(options["weights"])))

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``sentence_bleu(references, hypothesis)`` and ``corpus_bleu(list_of_references,
        hypotheses)`` with the token lists and no weights, smoothing or auto_reweigh."""
        from nltk.translate import bleu_score as nb
        hyp_toks, ref_toks = _token_lists(metric, inputs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if metric == "bleu":
                return LibraryOutput(value=nb.corpus_bleu(ref_toks, hyp_toks))
            return LibraryOutput(value=nb.sentence_bleu(ref_toks[0], hyp_toks[0]))

    def defect_classifiers(self) -> dict:
        """Each predicate reads NLTK's own statistics of the input (``library_stats``)."""
        return {
            "zero-precision-dbl-min": self._zero_precision_dbl_min,
            "short-segment-denominator": self._short_segment_denominator,
            "corpus-smoothing-last-segment": self._corpus_smoothing_last_segment,
            "zero-precision-skipped": self._zero_precision_skipped,
            "method4-log-one": self._method4_log_one,
        }

    def defect_models(self) -> dict:
        """The library's value each defect predicts: method0's float arithmetic from the
        oracle's per-segment counts (``_method0_model``)."""
        return {
            "zero-precision-dbl-min": _method0_model,
            "short-segment-denominator": _method0_model,
            "zero-precision-skipped": self._skipped_zero_model,
            "method4-log-one": lambda metric, settings, inputs: "raised ZeroDivisionError: float division by zero",
        }

    # -- library-side views used by the classifiers

    def library_stats(self, metric: str, settings: Mapping[str, str], inputs: Mapping) -> dict:
        """NLTK's pooled statistics (``modified_precision`` numerators and denominators)."""
        from nltk.translate import bleu_score as nb

        hyps, refs = segments(metric, inputs)
        st = _stats(nb, [tokens(h) for h in hyps], [[tokens(r) for r in rs] for rs in refs],
                    int(settings["order"]))
        st["segment_lengths"] = [len(tokens(h)) for h in hyps]
        return st

    def _used_orders(self, settings, st) -> list[int]:
        """Indices n (0-based) of the orders that enter the product with a positive weight,
        after auto_reweigh (bleu_score.py:275-277)."""
        order = int(settings["order"])
        ws = weight_list(settings["weights"], order)
        if settings["effective_order"] == "yes" and st["hyp_len"] < 4 and order == 4:
            return list(range(st["hyp_len"]))
        return [n for n in range(order) if ws[n] > 0]

    def _zero_precision_dbl_min(self, metric, settings, inputs) -> bool:
        """method0 replaces a zero precision by ``sys.float_info.min`` (bleu_score.py:585), so
        the score is BP * exp(sum w_n log p_n) with log(2.2e-308) = -708.4 in place of 0,
        a tiny positive number. Applies: smoothing none, some unigram match (else the early
        return gives exactly 0), and a used order with no match."""
        if settings["smoothing"] != "none":
            return False
        st = self.library_stats(metric, settings, inputs)
        return st["matches"][0] > 0 and any(st["matches"][n] == 0 for n in self._used_orders(settings, st))

    def _short_segment_denominator(self, metric, settings, inputs) -> bool:
        """modified_precision uses ``max(1, number of hypothesis n-grams)`` as denominator
        (bleu_score.py:391), so a segment shorter than n adds 1 to the order-n total: NLTK's
        totals are too large, at corpus level the precisions are pooled over them, and a
        sentence gets p_n = 0/1 (which the smoothing then fills in) where t_n = 0. The value
        can still agree (an order dropped by auto_reweigh, method6, which recounts l_n), the
        statistics do not. Applies: some hypothesis shorter than N tokens."""
        st = self.library_stats(metric, settings, inputs)
        return any(length < int(settings["order"]) for length in st["segment_lengths"])




    def _zero_precision_skipped(self, metric, settings, inputs) -> bool:
        """Floor smoothing with epsilon 0 leaves a zero count's precision at 0/t = 0; from 3.6.6
        corpus_bleu sums ``w_i * math.log(p_i) ... if p_i > 0`` (bleu_score.py:279, commit
        c692b0d 'Fix Bleu Score smoothing function from taking log(0)'), so the zero order is
        left out - scored as if its precision were 1 - where the product is 0; 3.5-3.6.5 take
        math.log(0) and raise ValueError. Applies: floor with epsilon 0, some unigram match
        and a used order with no match; and nltk4 with T <= 1 before 3.6.6 (the oracle's
        nltk4 follows 3.6.6 on)."""
        st = None
        if settings["smoothing"] == "nltk4":
            # the oracle's nltk4 leaves a zero order out when c <= 1, as 3.6.6 on does; before
            # 3.6.6 the same input raises
            st = self.library_stats(metric, settings, inputs)
            if st["hyp_len"] > 1 or self.in_versions(">=3.6.6"):
                return False
        elif settings["smoothing"] != "floor" or Fraction(settings["smoothing_value"]) != 0:
            return False
        st = st or self.library_stats(metric, settings, inputs)
        return st["matches"][0] > 0 and any(st["matches"][n] == 0 for n in self._used_orders(settings, st))

    def _method4_log_one(self, metric, settings, inputs) -> bool:
        """Before 3.6, method4 computes ``incvnt = i + 1 * self.k / math.log(hyp_len)`` for every
        zero order when hyp_len != 0 (3.5 bleu_score.py:579-584): a (pooled) hypothesis
        length of 1 divides by log(1) = 0. Applies: before 3.6, smoothing cc4, nltk4, cc7 or
        nltk7, some unigram match, T = 1 and an order with no match."""
        if settings["smoothing"] not in ("cc4", "nltk4", "cc7", "nltk7") or not self.in_versions("<3.6"):
            return False
        st = self.library_stats(metric, settings, inputs)
        return st["matches"][0] > 0 and st["hyp_len"] == 1 and any(m == 0 for m in st["matches"])

    def _skipped_zero_model(self, metric, settings, inputs):
        """NLTK's floor-0 BLEU: the zero precisions left out of the log sum (3.6.6 on;
        before it math.log(0) raises ValueError)."""
        if not self.in_versions(">=3.6.6"):
            return "raised ValueError: math domain error"
        return _nltk_score(settings, _pooled_counts(metric, settings, inputs), 0.0)

    def _corpus_smoothing_last_segment(self, metric, settings, inputs) -> bool:
        """corpus_bleu calls the smoothing function with ``references=references,
        hypothesis=hypothesis`` (bleu_score.py:267-269), the loop variables of the last
        segment: method6 counts l_n on the last hypothesis only (line 703). Applies: bleu,
        cc6, more than one segment, some unigram match."""
        if metric != "bleu" or settings["smoothing"] != "cc6":
            return False
        hyps, _ = segments(metric, inputs)
        return len(hyps) > 1 and self.library_stats(metric, settings, inputs)["matches"][0] > 0


def _pooled_counts(metric, settings, inputs):
    """(matches, totals, c, r) pooled as NLTK pools them: each segment's order-n total is
    max(1, t_n) (bleu_score.py:391), from the oracle's per-segment counts."""
    from oracle.registry import compute
    order = int(settings["order"])
    hyps, refs = segments(metric, inputs)
    matches, totals, c, r = [0] * order, [0] * order, 0, 0
    knobs = {"tokenizer": "none", "order": str(order), "ref_length": settings["ref_length"], "smoothing": "none"}
    for h, rs in zip(hyps, refs):
        st = compute("sentence_bleu", {"hypothesis": h, "references": rs}, knobs).stats
        for n in range(order):
            matches[n] += st["matches"][n]
            totals[n] += max(1, st["totals"][n])
        c, r = c + st["hyp_len"], r + st["ref_len"]
    return matches, totals, c, r


def _method1(settings):
    """method1 (floor): a zero count's precision is epsilon / t_n (bleu_score.py method1)."""
    eps = float(Fraction(settings.get("smoothing_value", "1/10")))
    return lambda n, m, t: (m if m else eps) / t


def _method2(settings):
    """method2 (add-k, Lin and Och 2004): (m_n + 1) / (t_n + 1) for n >= 2, the unigram
    precision as it is (bleu_score.py method2: ``if i != 0 else p_n[0]``)."""
    k = float(Fraction(settings.get("smoothing_value", "1")))
    return lambda n, m, t: m / t if n == 0 else (m + k) / (t + k)


_SMOOTHED = {"floor": _method1, "add-k": _method2}


def _nltk_score(settings, pooled, zero_precision: float, precision=None) -> float:
    """corpus_bleu's arithmetic on NLTK's pooled counts: 0 when no unigram matches (line
    257); p_n = m_n / t_n (or ``precision(n, m_n, t_n)``, a smoothing method's), a zero one
    replaced by ``zero_precision``; the auto_reweigh weights 1/T on the first T orders when
    T < 4; BP * exp(fsum(w_n log p_n)) over the positive p_n (the 'if p_i > 0' filter of
    3.6.6, line 279)."""
    import math
    matches, totals, c, r = pooled
    if matches[0] == 0:
        return 0
    order = int(settings["order"])
    ws = [float(w) for w in weight_list(settings["weights"], order)]
    if settings["effective_order"] == "yes" and c < 4 and order == 4:
        ws = [1 / c] * c + [0.0] * (order - c)
    ps = [precision(n, m, t) for n, (m, t) in enumerate(zip(matches, totals))] if precision else \
        [m / t if m else zero_precision for m, t in zip(matches, totals)]
    bp = 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c))
    return bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(ws, ps) if p > 0))


def _method0_model(metric, settings, inputs):
    """NLTK's method0 BLEU from the oracle's per-segment counts: the order-n total of a
    segment is max(1, t_n) (bleu_score.py:391); a zero precision becomes
    sys.float_info.min (line 585); ``_nltk_score``. Under nltk4, nltk5 and nltk7 on one
    segment, the oracle's value (those knob values use NLTK's denominators); under floor
    (method1) and add-k (method2), their arithmetic on the same counts (``_SMOOTHED``); for
    the other smoothing methods only the early return's 0 is predicted (else None)."""
    import sys
    pooled = _pooled_counts(metric, settings, inputs)
    hyps, _ = segments(metric, inputs)
    if settings["smoothing"] in ("nltk4", "nltk5", "nltk7") and len(hyps) == 1 and pooled[0][0]:
        # the oracle's NLTK methods divide by max(1, t_n) as modified_precision does: on one
        # segment their value is NLTK's, only the reported totals differ
        from oracle.certified import digits
        from oracle.registry import compute
        return float(digits(compute(metric, inputs, settings).value, 20))
    if settings["smoothing"] != "none":
        # every method: no unigram match returns 0 before smoothing (bleu_score.py:257)
        if pooled[0][0] == 0:
            return 0
        if settings["smoothing"] in ("add-k", "floor"):
            return _nltk_score(settings, pooled, sys.float_info.min, _SMOOTHED[settings["smoothing"]](settings))
        return None
    return _nltk_score(settings, pooled, sys.float_info.min)


def _stats(nb, hyp_toks, ref_toks, order: int) -> dict:
    """NLTK's own sufficient statistics, as corpus_bleu pools them: the numerators and
    denominators of ``modified_precision`` and ``closest_ref_length``."""
    matches, totals = [0] * order, [0] * order
    hyp_len = ref_len = 0
    for h, rs in zip(hyp_toks, ref_toks):
        for n in range(1, order + 1):
            p = nb.modified_precision(rs, h, n)
            matches[n - 1] += p.numerator
            totals[n - 1] += p.denominator
        hyp_len += len(h)
        ref_len += nb.closest_ref_length(rs, len(h))
    return {"matches": matches, "totals": totals, "hyp_len": hyp_len, "ref_len": ref_len}
