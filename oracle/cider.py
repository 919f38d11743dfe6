"""CIDEr and CIDEr-D (Vedantam, Zitnick and Parikh 2015, arXiv 1411.5726), exactly.

Inputs: ``{"candidates": [str, ...], "references": [[str, ...], ...]}`` and,
with ``df`` corpus, ``"df_corpus": [[str, ...], ...]`` (per image of an
external corpus, its reference texts). Texts are tokenized by whitespace
(``str.split()``, as pycocoevalcap's ``precook``; it expects PTB-tokenized
input, which is the caller's business).

Definitions. For image i with candidate c and references s_1..s_m, an n-gram
g of order n = 1..4 has term frequency h_g(s) (its count in s) and weight
w_g = log(N) - log(max(1, df_g)) = log(N / max(1, df_g)), where N is the
number of images of the document-frequency source and df_g the number of
those images whose references (pooled) contain g (paper eq. 1; pycocoevalcap
``compute_doc_freq`` and ``np.log(max(1.0, df))``). Since df_g <= N, w_g >= 0.
The max(1, df) is the code's (``zero_df=one``): the paper's log(N/df) has no
value for an n-gram no image has (a candidate's novel word), ``zero_df=undefined``.
The TF-IDF vector of order n is v_n(s) = (tf_g(s) * w_g) over the n-grams of
order n, tf raw (tf = h, pycocoevalcap ``counts2vec``) or normalized
(tf = h_g(s) / sum of the counts of all n-grams of orders 1..4 of s, the
paper's g_k with Omega the vocabulary of all n-grams).

- CIDEr_n(c, S) = (1/m) sum_j  v_n(c).v_n(s_j) / (|v_n(c)| |v_n(s_j)|)  (eq. 2);
  CIDEr = sum_n (1/4) CIDEr_n (eq. 3, uniform weights, N = 4).
- CIDEr-D_n(c, S) = (10/m) sum_j exp(-(l(c) - l(s_j))^2 / (2 sigma^2)) *
  min(v_n(c), v_n(s_j)).v_n(s_j) / (|v_n(c)| |v_n(s_j)|) with sigma = 6 and
  l the length in words (eq. 5 of the paper; pycocoevalcap ``sim``);
  CIDEr-D = (1/4) sum_n CIDEr-D_n.
The corpus value is the mean over images. A zero vector (a sentence with no
n-gram of order n, or only n-grams of weight 0) gives cosine 0 for that
order, as pycocoevalcap does (``if norm_hyp != 0 and norm_ref != 0``).

Exactness. Every weight enters squared: with the clip,
min(tf_c w, tf_s w) * tf_s w = min(tf_c, tf_s) * tf_s * w^2, because w >= 0
and multiplying by w >= 0 preserves order (min(a w, b w) = min(a, b) w for
w >= 0: if a <= b then a w <= b w). So the numerator and both squared norms
are sums  sum_d C_d * log(N/d)^2  over the distinct document frequencies d
with nonnegative rational C_d computed from integer counts (tf counts compared
exactly: no logarithm is ever compared). With normalized tf, the scale factors
1/T are pulled out: the cosine is I_num / (T_s sqrt(I_c I_s)) with integer
forms I and min(h_c T_s, h_s T_c) * h_s in the clipped numerator. The value is
sum of coef * exp(-delta^2/(2 sigma^2)) * F_num / sqrt(F_c F_s) over
(image, reference, order), F linear forms in the squared logs. Where F_c and
F_s are proportional with a square ratio (a candidate equal to a reference)
the square root is taken exactly, and a numerator proportional to F_c makes
the term rational. Terms are kept grouped in a ``Composite`` closed form that
shares the logs across all terms and evaluates each log once per precision
(``CiderSum.bounds``: fixed-point integer interval arithmetic with outward
rounding for the penalty-free sums S_e, one per distinct penalty exponent e,
then sum_e exp(e) S_e with exp(e) bounded in relative precision, so even
exp(-500000) certifies), so certified digits of a 5,000-image test set cost
one pass. pycocoevalcap's length is the number of bigrams, not words; the
two give the same delta whenever both texts are non-empty, and an empty text
has cosine 0 anyway, so the value never differs.

Knobs (metric ``cider`` / ``cider_d`` defaults)
| knob (key) | choices | cider | cider_d |
| --- | --- | --- | --- |
| clip (clip) | yes, no: min(v_c, v_s) in the numerator | no | yes |
| penalty (pen) | gaussian, none: exp(-delta^2/(2 sigma^2)), delta in words | none | gaussian |
| sigma (sigma) | rational > 0 ('-' without penalty) | - | 6 |
| factor (factor) | rational multiplier | 1 | 10 |
| tf (tf) | raw, normalized ('-' without clip: the cosine cancels the scale) | - | raw |
| df (df) | refs (the scored set's references), corpus (``df_corpus``) | refs | refs |
| zero_df (df0) | one (df = 0 read as 1: weight log N, pycocoevalcap), undefined (the paper's log(N/0)) | one | one |
| duplicates (dups) | keep, collapse (identical references of an image counted once) | keep | keep |

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/cider.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

import gc
from collections import Counter
from itertools import chain
from fractions import Fraction

from .conventions import ConventionError, InputError, Knob, Metric, Result
from .exact import Undefined, _rational_power
from .input_checks import parallel_lists, string_lists, strings
from .cider_sum import _CONST, _DIV, _SQRT, _Shared, _ratio, _value

ORDERS = 4
_PAPER = "Vedantam, Zitnick and Parikh 2015, CIDEr (arXiv 1411.5726)"
_COCO = "pycocoevalcap 1.2 cider/cider_scorer.py (coco-caption, the CIDEr-D reference code)"

CLIP = Knob("clip", "clip the candidate's TF-IDF by the reference's in the numerator", "no",
            choices=("yes", "no"),
            sources={"yes": f"{_PAPER}, CIDEr-D eq.; {_COCO} sim(): min(vec_hyp, vec_ref) * vec_ref",
                     "no": f"{_PAPER}, eq. 2 (plain cosine)"})
PENALTY = Knob("penalty", "Gaussian length penalty per reference", "none", choices=("gaussian", "none"),
               sources={"gaussian": f"{_PAPER}, CIDEr-D; {_COCO}: np.e**(-(delta**2)/(2*sigma**2))",
                        "none": f"{_PAPER}, eq. 2"}, key="pen")
SIGMA = Knob("sigma", "standard deviation of the length penalty (words)", "-", kind="rational",
             special=("-",), sources={"*": f"{_PAPER}: sigma = 6; {_COCO}: sigma=6.0"})
FACTOR = Knob("factor", "multiplier of the score", "1", kind="rational",
              sources={"*": f"{_PAPER}: CIDEr-D multiplies by 10; CIDEr by 1; {_COCO}: score_avg *= 10.0"})
TF = Knob("tf", "term frequency: raw counts or divided by the sentence's n-gram total", "-",
          choices=("raw", "normalized"), special=("-",),
          sources={"-": f"{_PAPER}, eq. 2: without the clip CIDEr is a cosine, which the per-sentence TF "
                        "normalization of eq. 1 does not change (raw and normalized give one value)",
                   "raw": f"{_COCO} counts2vec(): float(term_freq) * (ref_len - df)",
                   "normalized": f"{_PAPER}, g_k: h_k(s) / sum over all n-grams of h_l(s)"})
DF = Knob("df", "where document frequencies and N come from", "refs", choices=("refs", "corpus"),
          sources={"refs": f"{_PAPER}, eq. 1 (the IDF over the reference sentences of all images of the set); "
                           f"{_COCO} compute_doc_freq()",
                   "corpus": "a fixed external corpus (the coco-val-df option of vrama91/cider), given as df_corpus"})
ZERO_DF = Knob("zero_df", "the weight of an n-gram no image of the df source has (df = 0)", "one",
               choices=("one", "undefined"), key="df0",
               sources={"one": f"{_COCO} counts2vec(): np.log(max(1.0, df)) (the authors' code, vrama91/cider "
                               "alike): df = 0 is read as 1, weight log(N)",
                        "undefined": f"{_PAPER}, eq. 1: g_k = ... log(|I| / sum_p min(1, sum_q h_k(s_pq))) "
                                     "divides by 0 when no image has the n-gram: the value is undefined"})
DUPLICATES = Knob("duplicates", "identical references of an image: each counted, or counted once", "keep",
                  choices=("keep", "collapse"),
                  sources={"keep": f"{_COCO}: every reference in the mean (df uses a set per image)",
                           "collapse": "references deduplicated per image before scoring"}, key="dups")


def _knobs(clip: str, penalty: str, sigma: str, factor: str, tf: str) -> tuple:
    from dataclasses import replace
    return (replace(CLIP, default=clip), replace(PENALTY, default=penalty), replace(SIGMA, default=sigma),
            replace(FACTOR, default=factor), replace(TF, default=tf), DF, ZERO_DF, DUPLICATES)


def _normalize(settings: dict, given: set) -> dict:
    if settings["penalty"] == "none":
        settings["sigma"] = "-"
    elif settings["sigma"] == "-":
        settings["sigma"] = "6"
    if settings["clip"] == "no":
        settings["tf"] = "-"
    elif settings["tf"] == "-":
        settings["tf"] = "raw"
    return settings


# ------------------------------------------------------------ the computation

def _counts(text: str) -> tuple[Counter, int]:
    """The counts of the n-grams of orders 1..4 of the whitespace tokens, keyed by the
    tuple of words (its length is the order); and the token count."""
    w = text.split()
    return Counter(chain(zip(w), zip(w, w[1:]), zip(w, w[1:], w[2:]), zip(w, w[1:], w[2:], w[3:]))), len(w)


def _check(inputs, settings) -> tuple[list, list, list | None]:
    cands, refs = parallel_lists(inputs, ("candidates", "references"), "candidates", optional=("df_corpus",))
    strings(cands, "candidates")
    _check_lists(refs, "references")
    corpus = inputs.get("df_corpus")
    if settings["df"] == "corpus":
        if corpus is None:
            raise InputError("df_corpus: the document frequency knob is 'corpus' but no df_corpus is given",
                             item="df_corpus")
        if not isinstance(corpus, (list, tuple)) or not corpus:
            raise InputError("df_corpus: expected a non-empty list (per image, its reference texts)",
                             item="df_corpus")
        _check_lists(corpus, "df_corpus", allow_empty=True)
    elif corpus is not None:
        raise InputError("df_corpus: given, but the document frequency knob is 'refs' (set df to corpus)",
                         item="df_corpus")
    return cands, refs, corpus


def _check_lists(lists: list, name: str, allow_empty: bool = False) -> None:
    string_lists(lists, name, "a list of texts", empty=None if allow_empty else "no references")


def _doc_freq(per_image: list) -> Counter:
    """df_g: the number of images whose references (pooled) contain g."""
    df: Counter = Counter()
    for counted in per_image:
        seen = set()
        for c, _ in counted:
            seen.update(c)
        df.update(seen)
    return df


def compute_cider(inputs, settings: dict) -> Result:
    """CIDEr / CIDEr-D as the module docstring defines them."""
    # the computation allocates millions of small containers and frees none of them
    # before the end: the cyclic collector would only rescan them (a third of the time)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _compute(inputs, settings)
    finally:
        if was_enabled:
            gc.enable()


def _compute(inputs, settings: dict) -> Result:
    cands, refs, corpus = _check(inputs, settings)
    gaussian = settings["penalty"] == "gaussian"
    if gaussian:
        sigma = Fraction(settings["sigma"])
        if sigma <= 0:
            raise ConventionError(f"sigma: {settings['sigma']} must be > 0")
        two_sigma2 = 2 * sigma * sigma
    clip = settings["clip"] == "yes"
    normalized = settings["tf"] == "normalized"
    factor = Fraction(settings["factor"])
    if settings["duplicates"] == "collapse":
        refs = [list(dict.fromkeys(rs)) for rs in refs]
    n_img = len(cands)
    if n_img == 0:
        return Result(Undefined("no images"), stats={"images": 0, "idf_images": 0, "references": []},
                      parts={"image_scores": [], "order_scores": [Undefined("no images")] * ORDERS})
    ref_counts = [[_counts(r) for r in rs] for rs in refs]
    if corpus is None:
        df, n = _doc_freq(ref_counts), n_img
    else:
        df, n = _doc_freq([[_counts(r) for r in rs] for rs in corpus]), len(corpus)
    if settings["zero_df"] == "undefined":
        # the paper's weight log(N / df) has no value at df = 0
        counted = [("candidates", i, _counts(c)[0]) for i, c in enumerate(cands)]
        if corpus is not None:   # (a reference is in the refs source by definition)
            counted += [("references", i, rc) for i, rcs in enumerate(ref_counts) for rc, _ in rcs]
        for name, i, grams in counted:
            for g in grams:
                if not df.get(g):
                    return Result(Undefined(f"{name}[{i}]: the {len(g)}-gram {' '.join(g)!r} is in no image of the "
                                            f"document-frequency source: df = 0, weight log(N/0) (zero_df=undefined)"),
                                  stats={"images": n_img, "idf_images": n, "references": [len(r) for r in refs]},
                                  parts={})
    shared = _Shared(n)
    terms: list = []
    spans: list = []
    cand_lengths = []
    penalties: dict = {}
    dfget = df.get
    orders = range(ORDERS)
    for i in range(n_img):
        start = len(terms)
        c_counts, c_len = _counts(cands[i])
        cand_lengths.append(c_len)
        m = len(refs[i])
        c_total = sum(c_len - k for k in orders if c_len > k)
        # the candidate's n-grams with weight key d = max(1, df) (d == n: weight 0, left out)
        keyed = {}
        c_forms: list = [{}, {}, {}, {}]
        for g, h in c_counts.items():
            d = dfget(g, 0) or 1
            if d < n:
                o = len(g) - 1
                keyed[g] = (h, d, o)
                f = c_forms[o]
                f[d] = f.get(d, 0) + h * h
        if not keyed:
            spans.append((start, start))
            continue
        c_ids = [shared.add_form(f) if f else -1 for f in c_forms]
        base = Fraction(1, m)
        for r, r_len in ref_counts[i]:
            common = keyed.keys() & r.keys()
            if not common:
                continue
            if gaussian:
                e = penalties.get(c_len - r_len)
                if e is None:
                    e = penalties[c_len - r_len] = Fraction(-(c_len - r_len) ** 2) / two_sigma2
            else:
                e = 0
            coef = base
            if clip and normalized:
                r_total = sum(r_len - k for k in orders if r_len > k)
                coef = base / r_total
            nums: list = [{}, {}, {}, {}]
            for g in common:
                h, d, o = keyed[g]
                rc = r[g]
                if not clip:
                    v = h * rc
                elif normalized:
                    v = min(h * r_total, rc * c_total) * rc
                else:
                    v = min(h, rc) * rc
                f = nums[o]
                f[d] = f.get(d, 0) + v
            # sum of h^2 per (order, df): count the distinct n-grams per pair (a C-level
            # pass), then add h^2 - 1 for the repeated ones (most_common lists them first)
            pairs = Counter(zip(map(len, r), map(dfget, r)))
            for g, h in r.most_common():
                if h == 1:
                    break
                pairs[len(g), dfget(g)] += h * h - 1
            sqs: list = [{}, {}, {}, {}]
            for (o, d), v in pairs.items():
                d = d or 1
                if d < n:
                    f = sqs[o - 1]
                    f[d] = f.get(d, 0) + v
            for o in orders:
                if nums[o]:
                    terms.append(_term(shared, coef, e, nums[o], c_forms[o], sqs[o], c_ids[o], o))
        spans.append((start, len(terms)))
    image_scores = [_value(shared, terms[s:t], factor / ORDERS) for s, t in spans]
    order_scores = [_value(shared, [t for t in terms if t[7] == o], factor / n_img) for o in range(ORDERS)]
    value = _value(shared, terms, factor / (ORDERS * n_img))
    return Result(value, stats={"images": n_img, "idf_images": n, "references": [len(r) for r in refs],
                                "candidate_lengths": cand_lengths},
                  parts={"image_scores": image_scores, "order_scores": order_scores})


def _term(shared: _Shared, coef: Fraction, e, num: dict, a: dict, b: dict, a_id: int, order: int):
    """One (image, reference, order) term coef * exp(e) * F_num / sqrt(F_a F_b), simplified
    exactly where the forms are proportional (forms as {d: integer coefficient})."""
    lam = Fraction(1) if a == b else _ratio(b, a)
    if lam is not None:
        root = lam if lam == 1 else _rational_power(lam, Fraction(1, 2))
        if root is not None:
            coef = coef / root
            mu = _ratio(num, a)
            if mu is not None:
                coef *= mu
                return (_CONST, coef.numerator, coef.denominator, e, -1, -1, -1, order)
            return (_DIV, coef.numerator, coef.denominator, e, shared.add_form(num), a_id, -1, order)
    return (_SQRT, coef.numerator, coef.denominator, e, shared.add_form(num), a_id, shared.add_form(b), order)


_INPUTS = {"candidates": "one candidate caption per image (whitespace-tokenized text)",
           "references": "references[i] is the list of reference captions of image i",
           "df_corpus": "only with df corpus: per image of an external corpus, its reference texts"}

CIDER = Metric(
    name="cider", family="captioning",
    summary="CIDEr: mean over images of the TF-IDF n-gram cosine with the references, orders 1-4",
    knobs=_knobs("no", "none", "-", "1", "-"), inputs=_INPUTS, compute_fn=compute_cider, normalize_fn=_normalize)

CIDER_D = Metric(
    name="cider_d", family="captioning",
    summary="CIDEr-D: clipped TF-IDF n-gram similarity with a Gaussian length penalty, times 10",
    knobs=_knobs("yes", "gaussian", "6", "10", "raw"), inputs=_INPUTS, compute_fn=compute_cider,
    normalize_fn=_normalize)
