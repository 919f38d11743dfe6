"""BLEU, exactly: corpus BLEU and sentence BLEU with their convention knobs.

Definition (Papineni et al. 2002, ACL, sec. 2; mteval-v13a.pl for the tool
conventions). Segments are tokenized (``oracle.tokenizers``). For each
segment i with hypothesis length c_i and each order n <= N:

- t_{i,n} = max(c_i - n + 1, 0), the hypothesis n-grams;
- m_{i,n} = sum over distinct hypothesis n-grams g of
  min(count_hyp(g), max over the references of count_ref(g))
  (clipping by the maximum reference count, Papineni sec. 2.1);
- r_i, the reference length chosen by ``ref_length``.

Corpus level pools the counts: m_n = sum_i m_{i,n}, t_n = sum_i t_{i,n},
c = sum_i c_i, r = sum_i r_i (Papineni sec. 2.2.1, 2.2.2). Then

    p_n = m_n / t_n                   (possibly smoothed, see below)
    BP  = 1 if c >= r else exp(1 - r/c)
    BLEU = BP * prod_n p_n ** w_n     (= BP * exp(sum_n w_n log p_n))

with weights w_n (uniform 1/N by default). Orders with w_n = 0 do not enter
the product (p**0 = 1, also for p = 0). ``sentence_bleu`` is the same on one
segment; ``level=sentence-mean`` is the plain mean of the segments' sentence
BLEU under the same knobs.

ref_length: closest-shorter (closest to c_i, ties to the shorter: mteval-v13a
``brevity_penalty_closest``, Papineni's "best match length"), closest-first
(ties to the first listed reference), shortest (mteval before v13), average
(mean reference length, a rational).

effective_order (sacrebleu ``effective_order``, BLEU.compute_bleu): with
``yes``, only the orders n <= n* are used, where n* is the number of orders
with t_n > 0 (the hypothesis, or at corpus level the longest hypothesis, has
n* tokens or more); the weights are renormalized to w_n / sum_{k<=n*} w_k
(uniform weights become 1/n*). Orders with t_n > 0 and m_n = 0 stay.
(sacrebleu's docstring says orders "for which precision is 0" are dropped;
its code drops the orders with t_n = 0, which is what is defined here.)

Smoothing (Chen and Cherry 2014, "A Systematic Comparison of Smoothing
Techniques for Sentence-Level BLEU", WMT, methods 1-7; value = smoothing_value):
- none: p_n = m_n/t_n; any m_n = 0 (with w_n > 0) gives BLEU = 0
  (mteval ``bleu_score_nosmoothing``).
- floor (method 1): p_n = eps/t_n where m_n = 0; eps default 1/10.
- add-k (method 2, Lin and Och 2004 with k = 1): p_n = (m_n + k)/(t_n + k)
  for n >= 2; p_1 = m_1/t_1 unsmoothed; k default 1.
- exp (method 3, NIST geometric, mteval-v13a ``bleu_score``): invcnt = 1;
  for each order with m_n = 0 in turn, invcnt *= 2 and p_n = 1/(invcnt t_n).
  mteval sets p_n = 1 for orders with t_n = 0 (``$iscore = 0``) without
  advancing invcnt; so does this oracle.
- cc4 (method 4): as method 3 but invcnt *= K/ln(len(T)), len(T) = c (the
  pooled hypothesis length at corpus level): the k-th zero order gets
  p_n = (ln c / K)**k / t_n. K default 5. Undefined when c = 1 (ln 1 = 0)
  and some m_n = 0.
- cc5 (method 5): counts averaged with their neighbours:
  m'_0 = m_1 + 1, m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3, p_n = m'_n / t_n,
  for every used order; m_{N+1} is the match count of order N+1 (reported in
  ``stats.next_order_matches``). No value.
- cc6 (method 6, Gao and He 2013): p_1, p_2 unsmoothed; for n >= 3
  p_n = (m_n + alpha * p0_n) / (t_n + alpha), p0_n = p_{n-1}**2 / p_{n-2}
  (the smoothed values), p0_n = 0 when p_{n-2} = 0. alpha default 5.
- cc7 (method 7): the counts of method 4 for zero orders, m_n -> (ln c/K)**k,
  then the averaging of method 5 over those counts (m'_0 = smoothed m_1 + 1);
  m_{N+1} is used raw (the averaging needs it; method 4 is not applied to it).
  K default 5.
- nltk4, nltk5, nltk7: NLTK's own methods 4, 5 and 7 (SmoothingFunction in
  nltk/translate/bleu_score.py), which differ from the paper's. They work on
  NLTK's precisions p_n = m_n / max(1, t_n) (``modified_precision`` makes an
  order with no n-grams 0/1). nltk4: if c > 1, the k-th order with m_n = 0
  gets p_n = ln(c) / (K 2**k max(1, t_n)) (``1 / (2**incvnt * self.k /
  math.log(hyp_len))``, line 659); if c <= 1 it is left out of the product
  (p_n = 1: corpus_bleu sums w_n log p_n over p_n > 0 only, line 279, since
  3.6.6). nltk5: p'_0 =
  p_1 + 1, p'_n = (p'_{n-1} + p_n + p_{n+1}) / 3 with the raw neighbouring
  precisions and p_{N+1} = m_{N+1} / max(1, t_{N+1}) (lines 674-678; NLTK
  always reads the 5-gram precision there, which is order N+1 for its
  default N = 4). nltk7: nltk4, then nltk5 over its precisions (line 714-715;
  an order dropped by effective order was smoothed by the first step too).
  K default 5. At corpus level they act on the pooled counts.
Orders left unsmoothed (every order under none, n = 1 under add-k, n <= 2
under cc6) give BLEU = 0 when m_n = 0.
At corpus level methods 4-7 act on the pooled counts (len(T) = c); the paper
defines them for one sentence, and on pooled counts methods 5 and 7 can give
precisions above 1 (the pooled t_n may drop by more than 1 from one order to
the next).
The paper text itself was not retrievable while this module was written; the
formulas above are the paper's as recalled by the author, cross-checked
against the mteval source (method 3), NLTK's docstrings and NLTK issue
#2676 (method 4: p_n = (1/invcnt)/t_n). Check them against the PDF before
relying on methods 4-7.

Orders with t_n = 0 (the hypothesis is shorter than n) with effective_order=no:
none -> 0 (m_n = 0); add-k -> (0+k)/(0+k) = 1 for n >= 2; exp -> 1 (mteval);
cc6 -> p0_n; floor, cc4, cc5, cc7 -> Undefined (their formula divides by
t_n = 0); with effective_order=yes these orders are dropped.

Degenerate and invalid inputs
-----------------------------
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/bleu.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).

An empty corpus is an error rather than Undefined because it means that no
evaluation took place (an unread file, a filter that dropped everything);
a report row for it would be a number about nothing.

Scale ``percent`` multiplies the value by 100; ``parts`` (bp, precision_n)
stay fractions.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping, Sequence

from .conventions import ConventionError, InputError, Knob, Metric, Result, frac_text
from .exact import Undefined, product, total
from .tokenizers import TOKENIZERS
from .bleu_stats import _scaled, bleu_from_stats, ngram_counts, reference_length, segment_stats

__all__ = ["BLEU", "SENTENCE_BLEU", "segment_stats", "ngram_counts", "reference_length",
           "bleu_from_stats", "corpus_bleu", "segment_bleu", "sentence_bleu", "SMOOTHING_DEFAULTS"]

PAPINENI = "Papineni et al. 2002, BLEU: a Method for Automatic Evaluation of Machine Translation, ACL"
CC2014 = "Chen and Cherry 2014, A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU, WMT"
MTEVAL = "mteval-v13a.pl (NIST), moses-smt/mosesdecoder scripts/generic/mteval-v13a.pl"
NLTK_SMOOTHING = "nltk/translate/bleu_score.py (nltk 3.10.4) SmoothingFunction"
COCO = ("coco-caption (tylin/coco-caption, packaged as pycocoevalcap 1.2) pycocoevalcap/bleu/bleu_scorer.py "
        "compute_score: 'small = 1e-9', 'tiny = 1e-15 ## so that if guess is 0 still return 0', "
        "(correct + tiny)/(guess + small) per order, ratio = (testlen + tiny)/(reflen + small)")


# smoothing method -> default value (None: the method takes no value)
SMOOTHING_DEFAULTS = {
    "none": None, "floor": Fraction(1, 10), "add-k": Fraction(1), "exp": None,
    "cc4": Fraction(5), "cc5": None, "cc6": Fraction(5), "cc7": Fraction(5), "coco": None,
    "nltk4": Fraction(5), "nltk5": None, "nltk7": Fraction(5),
}
# the methods that read the order N+1 (its matches, and for NLTK's its precision)
NEXT_ORDER = ("cc5", "cc7", "nltk5", "nltk7")

# -------------------------------------------------------------------- inputs


def _check_string(x, where):
    if not isinstance(x, str):
        raise InputError(f"{where}: expected a string, got {type(x).__name__}", item=where)


def _check_refs(refs, where):
    if isinstance(refs, str) or not isinstance(refs, (list, tuple)):
        raise InputError(f"{where}: expected a list of reference strings, got {type(refs).__name__}"
                         + (" (wrap a single reference in a list)" if isinstance(refs, str) else ""), item=where)
    if len(refs) == 0:
        raise InputError(f"{where}: no references (an empty list); every hypothesis needs at least one", item=where)
    for j, r in enumerate(refs):
        _check_string(r, f"{where}[{j}]")


def _check_fields(inputs, fields, optional=()):
    """``inputs`` is a mapping with every field of ``fields``, and no field outside
    ``fields`` and ``optional``."""
    if not isinstance(inputs, Mapping):
        raise InputError(f"inputs: expected a mapping with fields {', '.join(fields)}, got {type(inputs).__name__}",
                         item="inputs")
    for f in fields:
        if f not in inputs:
            raise InputError(f"inputs: missing field {f!r}", item=f)
    known = tuple(fields) + tuple(optional)
    for f in inputs:
        if f not in known:
            raise InputError(f"inputs: unknown field {f!r}; fields are {', '.join(known)}", item=str(f))


def _check_corpus(inputs, name: str = "BLEU"):
    """(hypotheses, references) of a corpus-level input (BLEU, chrF), checked."""
    _check_fields(inputs, ("hypotheses", "references"))
    hyps, refs = inputs["hypotheses"], inputs["references"]
    for name, x in (("hypotheses", hyps), ("references", refs)):
        if isinstance(x, str) or not isinstance(x, (list, tuple)):
            raise InputError(f"{name}: expected a list, got {type(x).__name__}", item=name)
    if len(hyps) == 0:
        raise InputError(f"hypotheses: empty corpus (0 segments); {name} of no segment is not computed",
                         item="hypotheses")
    if len(hyps) != len(refs):
        raise InputError(f"hypotheses has {len(hyps)} segments but references has {len(refs)} reference sets",
                         item="references")
    for i, h in enumerate(hyps):
        _check_string(h, f"hypotheses[{i}]")
    for i, rs in enumerate(refs):
        _check_refs(rs, f"references[{i}]")
    return hyps, refs


# ------------------------------------------------------------------- compute

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# case -> the function applied to every segment before tokenizing (mixed: none)
_LOWER = {"lower": str.lower, "lower-ascii": lambda text: text.translate(_ASCII_LOWER)}


def corpus_bleu(hypotheses, references, settings) -> Result:
    """BLEU over a corpus under canonical ``settings`` (validated inputs)."""
    tok = TOKENIZERS[settings["tokenizer"]]
    lower = _LOWER.get(settings["case"])
    N = int(settings["order"])
    count_order = N + 1 if settings["smoothing"] in NEXT_ORDER else N
    rule = settings["ref_length"]
    sentence_mean = settings.get("level") == "sentence-mean"
    M = [0] * count_order
    T = [0] * count_order
    C = 0
    R = 0
    seg_values = []
    for h, rs in zip(hypotheses, references):
        if lower:
            h = lower(h)
            rs = [lower(r) for r in rs]
        m, t, c, ref_lens = segment_stats(tok(h), [tok(r) for r in rs], count_order)
        r_i = reference_length(c, ref_lens, rule)
        for n in range(count_order):
            M[n] += m[n]
            T[n] += t[n]
        C += c
        R += r_i
        if sentence_mean:
            v, _, _ = bleu_from_stats(m[:N], t[:N], c, r_i, settings, *_next(m, t, N, count_order))
            seg_values.append(v)
    stats = {"matches": M[:N], "totals": T[:N], "hyp_len": C,
             "ref_len": R.numerator if isinstance(R, Fraction) and R.denominator == 1 else R}
    if count_order > N:
        stats["next_order_matches"] = M[N]
        stats["next_order_totals"] = T[N]
    if sentence_mean:
        stats["segments"] = len(seg_values)
        for i, v in enumerate(seg_values):
            if isinstance(v, Undefined):
                return Result(Undefined(f"segment {i}: {v.reason}"), stats, {"segment_values": seg_values})
        value = product([total(seg_values), Fraction(1, len(seg_values))])
        return Result(_scaled(value, settings), stats, {"segment_values": seg_values})
    value, parts, extra = bleu_from_stats(M[:N], T[:N], C, R, settings, *_next(M, T, N, count_order))
    stats.update(extra)
    return Result(_scaled(value, settings), stats, parts)


def _next(m, t, N: int, count_order: int) -> tuple:
    """(m_{N+1}, t_{N+1}) where the smoothing reads the next order, else (0, 0)."""
    return (m[N], t[N]) if count_order > N else (0, 0)


def _compute_corpus(inputs, settings) -> Result:
    hyps, refs = _check_corpus(inputs)
    return corpus_bleu(hyps, refs, settings)


def _compute_sentence(inputs, settings) -> Result:
    _check_fields(inputs, ("hypothesis", "references"))
    _check_string(inputs["hypothesis"], "hypothesis")
    _check_refs(inputs["references"], "references")
    return segment_bleu(inputs["hypothesis"], inputs["references"], settings)


def segment_bleu(hypothesis, references, settings) -> Result:
    """BLEU of one segment under canonical ``settings`` (validated inputs).

    The same as ``corpus_bleu([hypothesis], [references], settings)`` (a
    corpus of one segment; tests check that they agree), without the pooling.
    """
    if settings.get("level", "corpus") != "corpus":
        return corpus_bleu([hypothesis], [references], settings)
    tok = TOKENIZERS[settings["tokenizer"]]
    lower = _LOWER.get(settings["case"])
    if lower:
        hypothesis = lower(hypothesis)
        references = [lower(r) for r in references]
    N = int(settings["order"])
    count_order = N + 1 if settings["smoothing"] in NEXT_ORDER else N
    m, t, c, ref_lens = segment_stats(tok(hypothesis), [tok(r) for r in references], count_order)
    r = reference_length(c, ref_lens, settings["ref_length"])
    stats = {"matches": m[:N], "totals": t[:N], "hyp_len": c, "ref_len": r}
    if count_order > N:
        stats["next_order_matches"] = m[N]
        stats["next_order_totals"] = t[N]
    value, parts, extra = bleu_from_stats(m[:N], t[:N], c, r, settings, *_next(m, t, N, count_order))
    stats.update(extra)
    return Result(_scaled(value, settings), stats, parts)


def sentence_bleu(hypothesis: str, references: Sequence[str], **conventions):
    """Exact sentence BLEU (shortcut for ``SENTENCE_BLEU.compute``)."""
    return SENTENCE_BLEU.compute({"hypothesis": hypothesis, "references": list(references)}, conventions)


# --------------------------------------------------------------- conventions


def _normalize(settings: dict, given: set) -> dict:
    """Check the weights against the order, canonicalize them, fill per-method smoothing values."""
    s = dict(settings)
    N = int(s["order"])
    if s["weights"] != "uniform":
        ws = [Fraction(w) for w in s["weights"].split(",")]
        if len(ws) != N:
            raise ConventionError(f"weights: {len(ws)} weights ({s['weights']}) for order {N}; "
                                  f"give {N} weights or 'uniform'")
        if sum(ws) != 1:
            raise ConventionError(f"weights: {s['weights']} sum to {frac_text(sum(ws))}, not 1")
        if all(w == Fraction(1, N) for w in ws):
            s["weights"] = "uniform"
    method = s["smoothing"]
    default = SMOOTHING_DEFAULTS[method]
    if default is None:
        s["smoothing_value"] = "-"
    else:
        if s["smoothing_value"] == "-":
            s["smoothing_value"] = frac_text(default)
        elif Fraction(s["smoothing_value"]) < 0 or Fraction(s["smoothing_value"]) == 0 and method != "floor":
            raise ConventionError(f"smoothing_value: {s['smoothing_value']} must be > 0 for smoothing {method}"
                                  + ("" if method == "floor" else " (only floor takes 0)"))
    return s


_SMOOTH_SOURCES = {
    "none": f"{PAPINENI}; {MTEVAL} --no-smoothing",
    "floor": f"{CC2014}, method 1 (epsilon, default 1/10)",
    "add-k": f"{CC2014}, method 2 (Lin and Och 2004, ORANGE, COLING; k default 1, orders >= 2)",
    "exp": f"{CC2014}, method 3; {MTEVAL} bleu_score (NIST geometric 1/2^k)",
    "cc4": f"{CC2014}, method 4 (K default 5)",
    "cc5": f"{CC2014}, method 5",
    "cc6": f"{CC2014}, method 6 (Gao and He 2013; alpha default 5)",
    "cc7": f"{CC2014}, method 7 (methods 4 then 5; K default 5)",
    "nltk4": f"{NLTK_SMOOTHING}.method4 (lines 643-662): the k-th zero order gets ln(c)/(K 2**k) over max(1, t_n), "
             "left out (p_n = 1, line 279) when c <= 1 (K default 5); since 3.6 (#2681, commit bff956d)",
    "nltk5": f"{NLTK_SMOOTHING}.method5 (lines 664-679): precisions, not counts, averaged; m[-1] = p_1 + 1",
    "nltk7": f"{NLTK_SMOOTHING}.method7 (lines 708-716): nltk4 then nltk5 (K default 5)",
    "coco": COCO,
}


def _knobs(with_level: bool) -> tuple:
    knobs = [
        Knob("tokenizer", "how segments are split into tokens", "13a",
             choices=("none", "13a", "intl", "char"), key="tok",
             sources={"none": "split on Unicode White_Space", "13a": MTEVAL + " sub tokenization",
                      "intl": "mteval-v14.pl sub tokenization_international",
                      "char": "sacrebleu TokenizerChar (characters, whitespace removed)"}),
        Knob("case", "lower: str.lower() on every segment before tokenizing; lower-ascii: A-Z only", "mixed",
             choices=("mixed", "lower", "lower-ascii"), key="case",
             sources={"mixed": MTEVAL + " -c", "lower": "sacrebleu lowercase=True (str.lower before tokenizing)",
                      "lower-ascii": MTEVAL + " NormalizeText: '$norm_text =~ tr/[A-Z]/[a-z]/ unless "
                                     "$preserve_case' (its default without -c; bytes, ASCII letters only)"}),
        Knob("order", "maximum n-gram order N", 4, kind="int", minimum=1, key="N",
             sources={"*": PAPINENI + ", sec. 2.2 (N = 4)"}),
        Knob("weights", "weights w_1..w_N of log p_n: 'uniform' (1/N) or N rationals summing to 1",
             "uniform", kind="rationals", minimum=0, special=("uniform",), key="w",
             sources={"uniform": PAPINENI + ", sec. 2.2 (w_n = 1/N)", "*": "nltk corpus_bleu weights"}),
        Knob("ref_length", "reference length r_i of the brevity penalty", "closest-shorter",
             choices=("closest-shorter", "closest-first", "shortest", "average"), key="ref",
             sources={"closest-shorter": MTEVAL + " brevity_penalty_closest; " + PAPINENI + " sec. 2.2.2",
                      "closest-first": "closest reference length, ties to the first listed reference",
                      "shortest": MTEVAL + " brevity_penalty_shortest (mteval before v13)",
                      "average": "mean reference length"}),
        Knob("smoothing", "precision smoothing for zero counts", "none",
             choices=tuple(SMOOTHING_DEFAULTS), key="smooth", sources=_SMOOTH_SOURCES),
        Knob("smoothing_value", "epsilon (floor), k (add-k), K (cc4, cc7), alpha (cc6); '-' if unused",
             "-", kind="rational", minimum=0, special=("-",), key="sv",
             sources={"*": CC2014}),
        Knob("no_match", "zero: BLEU = 0 when no unigram matches, before any smoothing", "smooth",
             choices=("smooth", "zero"), key="nomatch",
             sources={"smooth": CC2014 + " (every zero order is smoothed)",
                      "zero": "sacrebleu >= 2.0 metrics/bleu.py compute_bleu 'if not any(correct)' early return "
                              "(issue #141, CHANGELOG 2.0.0); nltk bleu_score.py corpus_bleu 'Returns 0 if "
                              "there's no matching n-grams ... if p_numerators[1] == 0: return 0'"}),
        Knob("effective_order", "yes: drop orders with no hypothesis n-grams, renormalize the weights", "no",
             choices=("no", "yes"), key="eff",
             sources={"no": PAPINENI, "yes": "sacrebleu BLEU(effective_order=True), BLEU.compute_bleu"}),
    ]
    if with_level:
        knobs.append(Knob("level", "corpus: pooled counts; sentence-mean: mean of sentence BLEU", "corpus",
                          choices=("corpus", "sentence-mean"), key="level",
                          sources={"corpus": PAPINENI + ", sec. 2.2", "sentence-mean": "mean of sentence BLEU"}))
    knobs.append(Knob("scale", "fraction (0..1) or percent (0..100)", "fraction",
                      choices=("fraction", "percent"), key="scale",
                      sources={"fraction": PAPINENI, "percent": "sacrebleu score"}))
    return tuple(knobs)


BLEU = Metric(
    name="bleu", family="bleu",
    summary="Corpus BLEU: brevity penalty times the weighted geometric mean of clipped n-gram precisions",
    knobs=_knobs(True),
    inputs={"hypotheses": "list of hypothesis strings, one per segment",
            "references": "references[i]: the list (>= 1) of reference strings of hypotheses[i]"},
    compute_fn=_compute_corpus, normalize_fn=_normalize)

SENTENCE_BLEU = Metric(
    name="sentence_bleu", family="bleu",
    summary="BLEU of one hypothesis against its references",
    knobs=_knobs(False),
    inputs={"hypothesis": "the hypothesis string", "references": "list (>= 1) of reference strings"},
    compute_fn=_compute_sentence, normalize_fn=_normalize)
