"""sacrebleu (Post 2018): ``sacrebleu.metrics.BLEU`` mapped onto ``bleu`` and ``sentence_bleu``,
its static ``BLEU.compute_bleu`` (2.x) onto ``bleu_statistics``, ``CHRF`` onto ``chrf``.

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

Releases 1.4.0 to 2.x. Before 2.0 (``_V1``) the adapter calls the module-level
``sacrebleu.corpus_bleu(sys, refs, smooth_method, smooth_value, force, lowercase,
tokenize, use_effective_order)``, which every 1.4 and 1.5 release has (a flat
``sacrebleu.py`` before 1.4.11, ``sacrebleu.compat`` after); a sentence is a
corpus of one segment, which is what 1.x's ``BLEU.sentence_score`` does. 1.x fixes
the n-gram order at 4 (``NGRAM_ORDER``); its tokenizers are the keys of
``sacrebleu.TOKENIZERS`` (no ``char`` before 1.4.7). 1.4.x raises EOFError when a
segment has fewer references than another (``zip_longest`` and ``None in lines``):
such an input is not runnable there.
"""
from __future__ import annotations

import logging
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, Era, LibraryOutput, Skip
from oracle.compare import Tolerance

from . import _sacrebleu_chrf as _chrf
from . import _sacrebleu_ter as _ter
from ._bleu_inputs import (all_texts as _all_texts, bleu_inputs, bleu_profiles, intl_entities as _intl_entities,
                           intl_without_entities, oracle_on_texts as _oracle_on_texts, segments, sentence_inputs,
                           uniform_weights)
from ._numbers import setting_double
from ._sacrebleu_v1 import _NONE_REFS, call_v1

_V1 = "<2.0.0"            # the releases with the 1.x API

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
    # the exceptions its own code refuses an input with: its argument checks raise ValueError and TypeError; 1.x raises EOFError for streams of unequal length ('Source and reference streams have different lengths!')
    refusals = {"*": ("ValueError", "TypeError", "EOFError")}
    library = "sacrebleu"
    import_name = "sacrebleu"
    versions = ">=1.4.0,<3"
    # the releases the version matrix tries by default: 2020's last 1.4, the last 1.x, the
    # 2.0 rewrite (#141's early return), and the pinned one
    matrix_versions = ("1.4.14", "1.5.1", "2.0.0", "2.6.0")
    homepage = "https://github.com/mjpost/sacrebleu"
    issues = "https://github.com/mjpost/sacrebleu/issues"
    capabilities = {"bleu": dict(_COMMON), "sentence_bleu": dict(_COMMON), **_chrf.CAPABILITIES, **_ter.CAPABILITIES,
                    "bleu_statistics": {k: v for k, v in _COMMON.items() if k not in ("tokenizer", "case")}}
    # sacrebleu.compat.corpus_bleu / BLEU(): tokenize='13a', lowercase=False,
    # smooth_method='exp', max_ngram_order=4, effective_order=False; score in percent;
    # sacrebleu.compat.sentence_bleu: the same but use_effective_order=True.
    profiles = {**bleu_profiles(tokenizer="13a", smoothing="exp", scale="percent", sentence_effective_order="yes",
                                no_match="zero"),
                # BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth_method='none',
                # smooth_value=None, effective_order=False, max_ngram_order=4), a static method (2.x)
                "bleu_statistics": {"order": "4", "weights": "uniform", "smoothing": "none", "no_match": "zero",
                                    "effective_order": "no", "scale": "percent"},
                **_chrf.PROFILES, **_ter.PROFILES}
    # where the library documents each profile value that differs from the canonical default
    profile_sources = {"*": {
        "smoothing": "sacrebleu/metrics/bleu.py:159 BLEU(smooth_method='exp'); compat.py:11, :66; README (CLI help) "
                     "'Smoothing method: exponential decay ... (Default: exp)'",
        "effective_order": "sacrebleu/compat.py:70 sentence_bleu(use_effective_order=True); BLEU docstring "
                           "bleu.py:121-122 'This should be True, if sentence-level BLEU will be computed'",
        "scale": "README: every example prints BLEU on 0-100 (bleu.py:283 precisions = 100. * correct / total)",
        "no_match": "sacrebleu/metrics/bleu.py:257-259 compute_bleu '# Early stop if there are no matches (#141)' "
                    "'if not any(correct): return BLEUScore(0.0, ...)'; CHANGELOG 2.0.0 'BLEU: In case of no n-gram "
                    "matches at all, skip smoothing and return 0.0 BLEU (#141)'",
    }, **{m: _chrf.SOURCES for m in _chrf.METRICS}, "ter": _ter.SOURCES}
    # releases whose defaults differ (CHANGELOG.md of the repository, per release)
    eras = (
        Era("<2.0.0", {"*": {"no_match": "smooth"}}, {
            "no_match": "1.x compute_bleu has no early return: floor and exp smoothing fill every zero order "
                        "(sacrebleu 1.5.1 compat/metrics/bleu.py compute_bleu); the 2.0.0 rewrite added it (#141)"}),
        Era("<1.5.0", {"sentence_bleu": {"smoothing": "none"}}, {
            "smoothing": "compat.py sentence_bleu(smooth_method='floor', smooth_value=None) with "
                         "BLEU.SMOOTH_DEFAULTS['floor'] = 0.0 (1.4.11-1.4.14; SMOOTH_VALUE_DEFAULT = 0.0 in "
                         "sacrebleu.py before): a floor of 0 leaves a zero precision at 0, which is smoothing=none. "
                         "CHANGELOG 1.5.0: 'sacrebleu.sentence_bleu() now uses the exp smoothing method' and "
                         "'Default value for floor smoothing is now 0.1 instead of 0'"}),
    )
    # float64 throughout: 100*m/l, log, a mean, exp, times BP: a handful of roundings of
    # relative size 2**-53 (at most 7 ULPs, relative 8e-16, seen on random corpora; a perfect
    # match gives exp(log(100.0)) = 100.00000000000004).
    tolerances = {
        "bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
        "sentence_bleu": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
        "bleu_statistics": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)),
        **_chrf.TOLERANCES,
        **_ter.TOLERANCES,
    }

    def __init__(self):
        if self.in_versions(_V1):
            # 1.x: NGRAM_ORDER = 4; the tokenizers of that release
            caps = dict(_COMMON, order=("4",), tokenizer=tuple(t for t in _COMMON["tokenizer"]
                                                              if t in _v1_tokenizers()))
            self.capabilities = {"bleu": caps, "sentence_bleu": dict(caps)}   # chrF: judged from 2.0 on

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric in _chrf.METRICS:
            return _chrf.options(settings)
        if metric in _ter.METRICS:
            return _ter.options(settings)
        method = settings["smoothing"]
        value = settings.get("smoothing_value", "-")
        if metric == "bleu_statistics":
            return {"smooth_method": method, "smooth_value": None if value == "-" else setting_double("smoothing_value", value, "sacrebleu"),
                    "effective_order": settings["effective_order"] == "yes",
                    "max_ngram_order": int(settings["order"])}
        return {
            "tokenize": settings["tokenizer"],
            "lowercase": settings["case"] == "lower",
            "smooth_method": method,
            "smooth_value": None if value == "-" else setting_double("smoothing_value", value, "sacrebleu"),
            "max_ngram_order": int(settings["order"]),
            "effective_order": settings["effective_order"] == "yes",
        }

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        if metric in _chrf.METRICS:
            return _chrf.call(metric, options, inputs)
        if metric in _ter.METRICS:
            return _ter.call(metric, options, inputs, _chrf.corpus_streams(inputs))
        if metric == "bleu_statistics":
            return _statistics(options, inputs)
        if self.in_versions(_V1):
            return self._call_v1(metric, options, inputs)
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
                if all(isinstance(r, str) for r in refs):
                    # each hypothesis's references given as one text: in sacrebleu's terms the
                    # stream passed un-nested, corpus_score(hyps, refs) for (hyps, [refs])
                    streams = refs
                elif any(isinstance(r, str) for r in refs):
                    raise Skip("some hypotheses' references are one text, others a list: no sacrebleu "
                               "call has that shape")
                else:
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

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """The functions the README shows, with no optional argument: ``sacrebleu.corpus_bleu
        (hyps, refs)``, ``sacrebleu.sentence_bleu(hyp, refs)`` and their chrF twins (compat.py;
        1.x has the same four at the package's top level)."""
        import sacrebleu
        if metric == "bleu_statistics":
            raise Skip("bleu_statistics is BLEU.compute_bleu's arithmetic on given counts, not an entry point "
                       "with defaults of its own")
        if metric in ("sentence_chrf", "chrf") and self.in_versions(_V1):
            raise Skip("chrF is judged from sacrebleu 2.0 on")
        if metric == "ter":
            return _ter.call(metric, {}, inputs, _chrf.corpus_streams(inputs))
        log = logging.getLogger("sacrebleu")
        level = log.level
        log.setLevel(logging.ERROR)
        try:
            if metric in ("sentence_bleu", "sentence_chrf"):
                hyp, refs = sentence_inputs(inputs)
                if not refs:
                    raise Skip("sacrebleu's sentence_score needs at least one reference (it reads refs[0])")
                fn = sacrebleu.sentence_bleu if metric == "sentence_bleu" else sacrebleu.sentence_chrf
                score = fn(hyp, list(refs))
            else:
                hyps, streams = _chrf.corpus_streams(inputs)
                if any(None in s for s in streams) and self.in_versions(_V1) and not self.in_versions(_NONE_REFS):
                    raise Skip(f"sacrebleu {self.version()} needs the same number of references for every segment")
                fn = sacrebleu.corpus_bleu if metric == "bleu" else sacrebleu.corpus_chrf
                score = fn(hyps, streams)
        finally:
            log.setLevel(level)
        return LibraryOutput(value=score.score, raw=score)

    def _call_v1(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        return call_v1(self, metric, options, inputs)

    def defect_classifiers(self) -> dict:
        """Each predicate reads the library's own tokens and statistics (``library_stats``);
        on ``bleu_statistics`` (no text) only those of compute_bleu's arithmetic apply."""
        text_only = ("python-isspace-separators", "rstrip-before-tokenizing", "intl-no-entities",
                     "max-ngram-order-not-passed", "empty-reference-dropped")
        return {k: (f if k not in text_only else _not_on_statistics(f)) for k, f in self._classifiers().items()}

    def _classifiers(self) -> dict:
        return {
            "short-hypothesis-break": self._short_hypothesis_break,
            "empty-hypothesis-and-reference": self._empty_hypothesis_and_reference,
            "python-isspace-separators": _isspace_separators,
            "rstrip-before-tokenizing": self._rstrip_changes_tokens,
            "intl-no-entities": _intl_entities,
            "add-k-from-trigrams": self._add_k_from_trigrams,
            "max-ngram-order-not-passed": self._max_order_not_passed,
            "empty-reference-dropped": self._empty_reference_dropped,
            "no-reference-stream": self._no_reference_stream,
        }

    def defect_models(self) -> dict:
        """The library's value each defect predicts: 0.0 for the early stops, the oracle on
        the texts as the library reads them (split at U+001C..U+001F; right-stripped; intl
        without entity unescaping)."""
        zero = lambda metric, settings, inputs: 0.0  # noqa: E731
        return {
            "short-hypothesis-break": zero,
            "empty-hypothesis-and-reference": zero,
            "python-isspace-separators": lambda m, s, i: _oracle_on_texts(
                m, s, i, lambda t: t.translate({ord(ch): " " for ch in _SEPARATORS})),
            "rstrip-before-tokenizing": lambda m, s, i: _oracle_on_texts(m, s, i, str.rstrip),
            "intl-no-entities": intl_without_entities,
            "add-k-from-trigrams": self._add_k_from_trigrams_value,
            "max-ngram-order-not-passed": self._max_order_not_passed_value,
            "empty-reference-dropped": self._empty_reference_dropped_value,
            "no-reference-stream": lambda metric, settings, inputs: "raised IndexError: list index out of range",
        }

    # -- library-side views used by the classifiers

    def library_stats(self, metric: str, settings: Mapping[str, str], inputs: Mapping) -> dict:
        """sacrebleu's pooled raw statistics (matches, totals, hyp_len, ref_len) for this input
        (a ``bleu_statistics`` input's own)."""
        if metric == "bleu_statistics":
            return {k: inputs[k] for k in ("matches", "totals", "hyp_len", "ref_len")}
        if self.in_versions(_V1):
            opts = dict(self.options(metric, settings), smooth_method="none", smooth_value=None)
            return self._call_v1(metric, opts, inputs).stats
        from sacrebleu.metrics import BLEU

        bleu = BLEU(force=True, **self.options(metric, settings))
        hyps, refs = segments(metric, inputs)
        width = max(len(r) for r in refs)
        streams = [[r[j] if j < len(r) else None for r in refs] for j in range(width)]
        return _raw_stats(bleu, hyps, streams)

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
        if self.in_versions(_V1):   # no early return before it in 1.x: any hypothesis token will do
            return st["hyp_len"] > 0 and st["totals"][-1] == 0
        return st["matches"][0] > 0 and st["totals"][-1] == 0

    def _empty_hypothesis_and_reference(self, metric, settings, inputs) -> bool:
        """1.x: c = r = 0: BP and every precision are 0/0; compute_bleu keeps bp = 1.0, stops at
        ``if total[n-1] == 0: break`` with every precision 0.0, and my_log(0.0) makes the score
        0.0 (1.5.1 metrics/bleu.py:192-224). From 2.0 on the early return gives the same 0.0,
        which is the profile's no_match=zero. Applies (1.x) when both pooled lengths are 0."""
        if not self.in_versions(_V1):
            return False
        st = self.library_stats(metric, settings, inputs)
        return st["hyp_len"] == 0 and st["ref_len"] == 0

    def _add_k_from_trigrams(self, metric, settings, inputs) -> bool:
        """Before 1.4.11, ``compute_bleu`` loops ``for n in range(NGRAM_ORDER)`` (0-based) but
        keeps the 1-based test ``if smooth_method == 'add-k' and n > 1`` (sacrebleu.py:1299 in
        1.4.3), so k is added from the trigrams on, not from the bigrams. 1.4.11's refactor
        (``range(1, NGRAM_ORDER + 1)``) mends it. Applies: add-k with a hypothesis bigram."""
        if settings["smoothing"] != "add-k" or not self.in_versions("<1.4.11"):
            return False
        return self.library_stats(metric, settings, inputs)["totals"][1] > 0

    def _add_k_from_trigrams_value(self, metric, settings, inputs):
        """The library's float arithmetic on its raw counts with k added from order 3 on."""
        import math
        st = self.library_stats(metric, settings, inputs)
        k = float(Fraction(settings["smoothing_value"]))
        prec, eff = [0.0] * 4, 4
        for n in range(4):
            m, t = st["matches"][n] + (k if n > 1 else 0), st["totals"][n] + (k if n > 1 else 0)
            if t == 0:
                break
            if settings["effective_order"] == "yes":
                eff = n + 1
            prec[n] = 100. * m / t if m else 0.0
        c, r = st["hyp_len"], st["ref_len"]
        bp = (math.exp(1 - r / c) if c > 0 else 0.0) if c < r else 1.0
        logs = [math.log(p) if p > 0 else -9999999999 for p in prec[:eff]]
        return bp * math.exp(sum(logs) / eff)

    def _max_order_not_passed(self, metric, settings, inputs) -> bool:
        """2.0.x: ``BLEU._compute_score_from_stats`` slices the statistics by
        ``self.max_ngram_order`` but calls ``compute_bleu`` without it, which then loops over
        its default MAX_NGRAM_ORDER = 4 (2.0.0 metrics/bleu.py:298-303): an order below 4
        raises IndexError, one above 4 scores the first four orders. CHANGELOG 2.1.0:
        'Bugfix: BLEU.corpus_score() now using max_ngram_order (#173)'. Applies: order != 4."""
        return self.in_versions(">=2.0.0,<2.1.0") and settings["order"] != "4"

    def _max_order_not_passed_value(self, metric, settings, inputs):
        if int(settings["order"]) < 4:
            return "raised IndexError: list index out of range"
        from oracle.registry import compute
        return compute(metric, inputs, {**settings, "order": "4", "weights": "uniform"}).value

    def _no_reference_stream(self, metric, settings, inputs) -> bool:
        """2.x: ``Metric._check_corpus_score_args`` reads ``refs[0]`` (sacrebleu/metrics/base.py
        line 261) before any length check, so a corpus with no reference set at all (the
        adapter passes no stream, ``corpus_score(hyps, [])``) raises IndexError. Applies:
        bleu, hypotheses given, references an empty list."""
        return (metric == "bleu" and not self.in_versions(_V1) and inputs.get("references") == []
                and bool(inputs.get("hypotheses")))

    def _empty_reference_dropped(self, metric, settings, inputs) -> bool:
        """1.5.0-2.1.x drop every empty reference (``[x for x in refs if x is not None and x !=
        ""]``: 1.5.1 metrics/bleu.py:283, 2.1.0 metrics/base.py:330) and raise when a segment has
        none left (EOFError 'No valid references for a sentence!' in 1.5, RuntimeError 'Empty or
        `None` reference sentence found.' in 2.0-2.1). CHANGELOG 2.2.0: 'Bugfix: allow empty
        references (#161)'. Applies: some reference is the empty string."""
        if not self.in_versions(">=1.5.0,<2.2.0"):
            return False
        hyps, refs = segments(metric, inputs)
        return any(r == "" for rs in refs for r in rs)

    def _empty_reference_dropped_value(self, metric, settings, inputs):
        hyps, refs = segments(metric, inputs)
        if any(all(r == "" for r in rs) for rs in refs):
            return ("raised EOFError: No valid references for a sentence!" if self.in_versions(_V1)
                    else "raised RuntimeError: Empty or `None` reference sentence found.")
        from oracle.registry import compute
        if metric == "sentence_bleu":
            new = dict(inputs, references=[r for r in inputs["references"] if r != ""])
        else:
            new = dict(inputs, references=[[r for r in rs if r != ""] for rs in inputs["references"]])
        return compute(metric, new, settings).value

    def _rstrip_changes_tokens(self, metric, settings, inputs) -> bool:
        """``BLEU._preprocess_segment`` tokenizes ``sent.rstrip()`` (bleu.py:302). Applies when
        stripping trailing whitespace changes some segment's tokens under the library's own
        tokenizer: 13a with a final ``-\\n`` (mteval deletes it as end-of-line hyphenation),
        intl with punctuation after a non-digit and before the trailing space."""
        if settings["tokenizer"] not in ("13a", "intl"):
            return False
        tok = _tokenizer(self, settings["tokenizer"])
        for text in _all_texts(metric, inputs):
            if settings["case"] == "lower":
                text = text.lower()
            stripped = text.rstrip()
            if stripped != text and tok(text).split() != tok(stripped).split():
                return True
        return False


def _v1_tokenizers() -> tuple:
    import sacrebleu
    return tuple(getattr(sacrebleu, "TOKENIZERS", {}))


def _tokenizer(adapter, name: str):
    """The library's tokenizer ``name`` as a function of a line (1.4.0-1.4.10: functions in
    ``sacrebleu.TOKENIZERS``; 1.4.11-1.5: classes there; 2.x: ``_get_tokenizer``)."""
    if adapter.in_versions(_V1):
        import sacrebleu
        tok = sacrebleu.TOKENIZERS[name]
        return tok() if isinstance(tok, type) else tok
    from sacrebleu.metrics.bleu import _get_tokenizer
    return _get_tokenizer(name)()


_SEPARATORS = ("\x1c", "\x1d", "\x1e", "\x1f")


def _isspace_separators(metric, settings, inputs) -> bool:
    """Every sacrebleu tokenizer ends with ``str.split()`` (tokenizer_re.py, tokenizer_intl.py,
    helpers.extract_all_word_ngrams), which splits on U+001C..U+001F; these are not Unicode
    White_Space, so mteval (Perl \\s) keeps them inside tokens. Applies when a text holds one."""
    return any(ch in text for text in _all_texts(metric, inputs) for ch in _SEPARATORS)


def _raw_stats(bleu, hyps, streams) -> dict:
    from sacrebleu.utils import sum_of_lists

    seg = bleu._extract_corpus_statistics(hyps, streams)
    tot = sum_of_lists([list(s) for s in seg])
    n = bleu.max_ngram_order
    return {"matches": [int(x) for x in tot[2:2 + n]], "totals": [int(x) for x in tot[2 + n:]],
            "hyp_len": int(tot[0]), "ref_len": int(tot[1])}


def _statistics(options: Mapping, inputs: Mapping) -> LibraryOutput:
    """``BLEU.compute_bleu`` on the given statistics (2.x). Its ``ref_len: int`` is an integer
    (``BLEUScore.__init__`` formats it with ``:d``): a rational reference length is skipped."""
    from sacrebleu.metrics.bleu import BLEU

    r = inputs["ref_len"]
    if not isinstance(r, int):
        raise Skip(f"ref_len {r}: sacrebleu's compute_bleu takes an integer reference length "
                   "(BLEUScore formats it with ':d')")
    # (add-k adds k to the lists it is given, so they are copies; the statistics are the input's)
    score = BLEU.compute_bleu(list(inputs["matches"]), list(inputs["totals"]), inputs["hyp_len"], r, **options)
    return LibraryOutput(value=score.score, raw=score)


def _not_on_statistics(predicate):
    """A text classifier: it never applies to ``bleu_statistics`` (there are no texts)."""
    def applies(metric, settings, inputs) -> bool:
        return metric != "bleu_statistics" and predicate(metric, settings, inputs)
    applies.__doc__ = predicate.__doc__
    return applies
