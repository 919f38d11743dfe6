"""sacrebleu (Post 2018): ``sacrebleu.metrics.BLEU`` mapped onto ``bleu`` and ``sentence_bleu``.

Library options and the knobs they set:

- ``tokenize``: none, 13a, intl, char (``tokenizer``);
- ``lowercase``: ``str.lower()`` before tokenizing (``case``);
- ``smooth_method`` / ``smooth_value``: none, floor, add-k, exp (``smoothing``,
  ``smoothing_value``; the library's defaults are floor 0.1 and add-k 1);
- ``max_ngram_order`` (``order``, uniform weights only);
- ``effective_order`` (``effective_order``).

Fixed: reference length closest with ties to the shorter
(``BLEU._get_closest_ref_len``), corpus-level pooling, scale percent.
Several references travel as parallel streams; a segment with fewer
references has ``None`` in the other streams (``Metric._cache_references``
drops them).

Profiles are the defaults of the library's two entry points
(``sacrebleu.compat``): ``corpus_bleu`` uses exp smoothing without effective
order, ``sentence_bleu`` exp smoothing with ``use_effective_order=True``.
"""
from __future__ import annotations

import logging
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._bleu_inputs import bleu_inputs, bleu_profiles, segments, sentence_inputs, uniform_weights

_METHODS = ("none", "floor", "add-k", "exp")


def _smoothing_value_ok(value: str, settings: Mapping[str, str]) -> bool:
    if settings.get("smoothing") in ("floor", "add-k"):
        return value != "-"
    return value == "-"


def _weights_ok(value: str, settings: Mapping[str, str]) -> bool:
    return uniform_weights(value, settings.get("order", "4"))


_COMMON = {
    "tokenizer": ("none", "13a", "intl", "char"),
    "case": ("mixed", "lower"),
    "order": ANY,
    "weights": _weights_ok,
    "smoothing": _METHODS,
    "smoothing_value": _smoothing_value_ok,
    "effective_order": ("yes", "no"),
}


class SacreBLEU(Adapter):
    name = "sacrebleu"
    library = "sacrebleu"
    import_name = "sacrebleu"
    homepage = "https://github.com/mjpost/sacrebleu"
    issues = "https://github.com/mjpost/sacrebleu/issues"
    capabilities = {"bleu": dict(_COMMON), "sentence_bleu": dict(_COMMON)}
    # sacrebleu.compat.corpus_bleu / BLEU(): tokenize='13a', lowercase=False,
    # smooth_method='exp', max_ngram_order=4, effective_order=False; score in percent;
    # sacrebleu.compat.sentence_bleu: the same but use_effective_order=True.
    profiles = bleu_profiles(tokenizer="13a", smoothing="exp", scale="percent", sentence_effective_order="yes")
    # where the library documents each profile value that differs from the canonical default
    profile_sources = {"*": {
        "smoothing": "sacrebleu/metrics/bleu.py:159 BLEU(smooth_method='exp'); compat.py:11, :66; README (CLI help) "
                     "'Smoothing method: exponential decay ... (Default: exp)'",
        "effective_order": "sacrebleu/compat.py:70 sentence_bleu(use_effective_order=True); BLEU docstring "
                           "bleu.py:121-122 'This should be True, if sentence-level BLEU will be computed'",
        "scale": "README: every example prints BLEU on 0-100 (bleu.py:283 precisions = 100. * correct / total)",
    }}
    # float64 throughout: 100*m/l, log, a mean, exp, times BP: a handful of roundings of
    # relative size 2**-53 (at most 7 ULPs, relative 8e-16, seen on random corpora; a perfect
    # match gives exp(log(100.0)) = 100.00000000000004).
    tolerances = {
        "bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
        "sentence_bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
    }

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        method = settings["smoothing"]
        value = settings.get("smoothing_value", "-")
        return {
            "tokenize": settings["tokenizer"],
            "lowercase": settings["case"] == "lower",
            "smooth_method": method,
            "smooth_value": None if value == "-" else float(Fraction(value)),
            "max_ngram_order": int(settings["order"]),
            "effective_order": settings["effective_order"] == "yes",
        }

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        from sacrebleu.metrics import BLEU

        bleu = BLEU(force=True, **options)
        log = logging.getLogger("sacrebleu")
        level = log.level
        log.setLevel(logging.ERROR)  # the "enable effective_order" advice of sentence_score
        try:
            if metric == "bleu":
                hyps, refs = bleu_inputs(inputs)
                if not hyps:
                    raise Skip("sacrebleu cannot score an empty corpus "
                               "(Metric._check_corpus_score_args reads hyps[0])")
                for i, r in enumerate(refs):
                    if not r:
                        raise Skip(f"references[{i}] is empty: sacrebleu needs at least one reference "
                                   "per segment (BLEU._get_closest_ref_len returns -1 and the n-gram "
                                   "lookup fails on None)")
                width = max(len(r) for r in refs)
                streams = [[r[j] if j < len(r) else None for r in refs] for j in range(width)]
                score = bleu.corpus_score(hyps, streams)
            elif metric == "sentence_bleu":
                hyp, refs = sentence_inputs(inputs)
                if not refs:
                    raise Skip("sacrebleu's sentence_score needs at least one reference (it reads refs[0])")
                score = bleu.sentence_score(hyp, refs)
            else:
                raise Skip(f"sacrebleu adapter does not implement {metric}")
        finally:
            log.setLevel(level)
        stats = {"matches": list(score.counts), "totals": list(score.totals),
                 "hyp_len": int(score.sys_len), "ref_len": int(score.ref_len)}
        if options["smooth_method"] == "add-k":
            # compute_bleu adds k to counts and totals of orders > 1 in place, so the
            # score object reports smoothed counts; take the library's raw statistics.
            if metric == "bleu":
                raw = _raw_stats(bleu, hyps, streams)
            else:
                raw = _raw_stats(bleu, [hyp], [[r] for r in refs])
            stats = raw
        return LibraryOutput(value=score.score, stats=stats, raw=score)

    def defect_classifiers(self) -> dict:
        """Each predicate reads the library's own tokens and statistics (``library_stats``)."""
        return {
            "no-match-early-return": self._no_match_early_return,
            "short-hypothesis-break": self._short_hypothesis_break,
            "empty-hypothesis-and-reference": self._empty_hypothesis_and_reference,
            "python-isspace-separators": _isspace_separators,
            "rstrip-before-tokenizing": self._rstrip_changes_tokens,
            "intl-no-entities": _intl_entities,
        }

    def defect_models(self) -> dict:
        """The library's value each defect predicts: 0.0 for the early returns, the oracle on
        the texts as the library reads them (split at U+001C..U+001F; right-stripped)."""
        zero = lambda metric, settings, inputs: 0.0  # noqa: E731
        return {
            "no-match-early-return": zero,
            "short-hypothesis-break": zero,
            "empty-hypothesis-and-reference": zero,
            "python-isspace-separators": lambda m, s, i: _oracle_on_texts(
                m, s, i, lambda t: t.translate({ord(ch): " " for ch in _SEPARATORS})),
            "rstrip-before-tokenizing": lambda m, s, i: _oracle_on_texts(m, s, i, str.rstrip),
        }

    # -- library-side views used by the classifiers

    def library_stats(self, metric: str, settings: Mapping[str, str], inputs: Mapping) -> dict:
        """sacrebleu's pooled raw statistics (matches, totals, hyp_len, ref_len) for this input."""
        from sacrebleu.metrics import BLEU

        bleu = BLEU(force=True, **self.options(metric, settings))
        hyps, refs = segments(metric, inputs)
        width = max(len(r) for r in refs)
        streams = [[r[j] if j < len(r) else None for r in refs] for j in range(width)]
        return _raw_stats(bleu, hyps, streams)

    def _no_match_early_return(self, metric, settings, inputs) -> bool:
        """compute_bleu returns 0.0 when no n-gram matches (``if not any(correct)``,
        sacrebleu/metrics/bleu.py:258) before smoothing; floor and exp would give every
        order a positive precision. Applies: smoothing floor or exp, a non-empty hypothesis
        side and no matching unigram."""
        if settings["smoothing"] not in ("floor", "exp"):
            return False
        st = self.library_stats(metric, settings, inputs)
        return st["hyp_len"] > 0 and st["matches"][0] == 0

    def _short_hypothesis_break(self, metric, settings, inputs) -> bool:
        """Without effective order, compute_bleu stops at the first order with no hypothesis
        n-grams (``if total[n - 1] == 0: break``, bleu.py:268), leaving its precision at 0.0;
        ``my_log(0.0) = -9999999999`` (utils.py:255) then makes the score 0.0. mteval's exp
        smoothing counts such an order as precision 1, and floor divides by t_n = 0.
        Applies: effective_order=no, smoothing floor or exp, some unigram match, and no
        hypothesis reaching N tokens."""
        if settings["effective_order"] != "no" or settings["smoothing"] not in ("floor", "exp"):
            return False
        st = self.library_stats(metric, settings, inputs)
        return st["matches"][0] > 0 and st["totals"][-1] == 0

    def _empty_hypothesis_and_reference(self, metric, settings, inputs) -> bool:
        """c = r = 0: BP and every precision are 0/0; compute_bleu keeps bp = 1.0 and returns
        0.0 through the no-match early return. Applies when both pooled lengths are 0."""
        st = self.library_stats(metric, settings, inputs)
        return st["hyp_len"] == 0 and st["ref_len"] == 0

    def _rstrip_changes_tokens(self, metric, settings, inputs) -> bool:
        """``BLEU._preprocess_segment`` tokenizes ``sent.rstrip()`` (bleu.py:302). Applies when
        stripping trailing whitespace changes some segment's tokens under the library's own
        tokenizer: 13a with a final ``-\\n`` (mteval deletes it as end-of-line hyphenation),
        intl with punctuation after a non-digit and before the trailing space."""
        if settings["tokenizer"] not in ("13a", "intl"):
            return False
        from sacrebleu.metrics.bleu import _get_tokenizer

        tok = _get_tokenizer(settings["tokenizer"])()
        for text in _all_texts(metric, inputs):
            if settings["case"] == "lower":
                text = text.lower()
            stripped = text.rstrip()
            if stripped != text and tok(text).split() != tok(stripped).split():
                return True
        return False


def _oracle_on_texts(metric, settings, inputs, change):
    """The oracle's value with every text passed through ``change`` first."""
    from oracle.registry import compute
    new = dict(inputs)
    for key in ("hypotheses", "references", "hypothesis"):
        if key not in inputs:
            continue
        v = inputs[key]
        if isinstance(v, str):
            new[key] = change(v)
        elif key == "references" and "hypotheses" in inputs:
            new[key] = [[change(r) for r in rs] for rs in v]
        else:
            new[key] = [change(x) for x in v]
    return compute(metric, new, settings).value


def _all_texts(metric, inputs) -> list:
    hyps, refs = segments(metric, inputs)
    return list(hyps) + [r for rs in refs for r in rs]


_SEPARATORS = ("\x1c", "\x1d", "\x1e", "\x1f")


def _isspace_separators(metric, settings, inputs) -> bool:
    """Every sacrebleu tokenizer ends with ``str.split()`` (tokenizer_re.py, tokenizer_intl.py,
    helpers.extract_all_word_ngrams), which splits on U+001C..U+001F; these are not Unicode
    White_Space, so mteval (Perl \\s) keeps them inside tokens. Applies when a text holds one."""
    return any(ch in text for text in _all_texts(metric, inputs) for ch in _SEPARATORS)


_V14_ENTITIES = ("&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>")


def _intl_entities(metric, settings, inputs) -> bool:
    """TokenizerV14International skips mteval-v14's ``<skipped>`` removal and entity
    unescaping (its docstring, issue #138). Applies: tokenizer intl and a text holding one
    of &quot; &amp; &lt; &gt; &apos; <skipped> (after lowercasing, when case=lower)."""
    if settings["tokenizer"] != "intl":
        return False
    for text in _all_texts(metric, inputs):
        if settings["case"] == "lower":
            text = text.lower()
        if any(e in text for e in _V14_ENTITIES):
            return True
    return False


def _raw_stats(bleu, hyps, streams) -> dict:
    from sacrebleu.utils import sum_of_lists

    seg = bleu._extract_corpus_statistics(hyps, streams)
    tot = sum_of_lists([list(s) for s in seg])
    n = bleu.max_ngram_order
    return {"matches": [int(x) for x in tot[2:2 + n]], "totals": [int(x) for x in tot[2 + n:]],
            "hyp_len": int(tot[0]), "ref_len": int(tot[1])}


