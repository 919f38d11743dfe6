"""ROUGE, exactly: ROUGE-N, ROUGE-L and ROUGE-Lsum (Lin 2004, "ROUGE: A Package for
Automatic Evaluation of Summaries", WAS 2004, sections 2, 3.1 and 3.2), with the
conventions of ROUGE-1.5.5.pl (the author's script), Google's rouge-score and
torchmetrics as knobs.

Tokens (``tokenizer``). ``rouge-score``: ``str.lower()``, every run of characters
outside [a-z0-9] replaced by a space, split (rouge_score/tokenize.py, "mimics
ROUGE-1.5.5"; torchmetrics ``_normalize_and_tokenize_text`` alike). ``rouge-1.5.5``:
the script reads bytes: ``tr/A-Z/a-z/`` lowercases ASCII only, ``s/[^A-Za-z0-9\\-]/ /g``
and a token must start with [a-z0-9$] (readText, createNGram), so every non-ASCII
character is a separator; the two differ where ``str.lower()`` maps a non-ASCII
character into [a-z0-9] (KELVIN SIGN U+212A gives 'k', U+0130 gives 'i' and a combining
dot). ``whitespace``: ``str.split()``, as given (a user's own tokenizer).

Statistics of a hypothesis against one reference, (hit, ref, hyp):

- ROUGE-N (``rouge_n``, knob ``n``): ref and hyp are the numbers of n-grams (len - n + 1,
  at least 0), hit = sum over n-grams of min(hyp count, ref count) (Lin eq. 1; the
  script's ngramScore clips the same way).
- ROUGE-L (``rouge_l``): the whole texts as one sequence each; hit = LCS length, ref and
  hyp the token counts (Lin section 3.1; rouge_scorer._score_lcs).
- ROUGE-Lsum (``rouge_lsum``): the texts split into sentences at newlines (empty lines
  dropped: rouge-score ``get_sents``; the script's SPL format); for each reference
  sentence r_i in order, the union over hypothesis sentences c_j of the positions of one
  LCS of (r_i, c_j) (Lin section 3.2, LCS_u); each token at those positions, in order,
  is a hit while its count left in the whole reference and in the whole hypothesis is
  positive, and both counts go down by one (ROUGE-1.5.5 ``lcs``: "bookkeeping to clip
  over counting"; rouge_scorer._summary_level_lcs "as in version 1.5.5"). ref and hyp
  are the token counts. Which LCS (``lcs_path``): both tools backtrack the table from
  the end, take the diagonal on equal tokens and otherwise step back in the reference
  when that keeps the length (``up``: the script's markLCS ``c[i-1][j] >= c[i][j-1]``,
  rouge_scorer._backtrack_norec); ``left`` steps back in the hypothesis instead.

Measures of one pair: R = hit/ref, P = hit/hyp (0 when the count is 0: the script's
``sprintf("%7.5f", 0)``, rouge-score's ``max(count, 1)``), F = P R / ((1 - alpha) P +
alpha R) (0 when that is 0; the script's -p alpha, default 1/2, which is 2PR/(P + R)).

Several references (``multi_reference``): ``pooled`` sums hit, ref and hyp over the
references (Lin eq. 1 sums over the reference summaries; the script's default -f A);
``best-recall`` takes the measures of the first reference of highest R (the script's -f
B, ``$gramScore > $gramScoreBest``); ``best-f`` those of the first of highest F
(rouge_scorer.score_multi ``np.argmax`` of fmeasure; torchmetrics accumulate='best');
``average`` the mean of each measure over the references (torchmetrics
accumulate='avg').

A corpus (``aggregate``): ``mean`` averages the segments' measure (the script's default,
computeAverages' per-summary average); ``pooled`` sums the chosen statistics over the
segments, then takes R, P and F (the script's -t 1 token counting; its F there is
printed as (R + P)/((1 - alpha)P + alpha R), a defect of the script, not this formula).
``measure`` picks R, P or F; ``scale=percent`` multiplies by 100. Values are rationals.
"""
from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from .bleu import _check_corpus
from .conventions import ConventionError, Knob, Metric, Result

LIN = "Lin 2004, ROUGE: A Package for Automatic Evaluation of Summaries (WAS 2004)"
PERL = "ROUGE-1.5.5.pl (Lin's script)"
RS = "rouge-score 0.1.2 (Google) rouge_scorer.py"
TM = "torchmetrics functional/text/rouge.py"

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_NON_ASCII_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _knobs(extra: tuple = ()) -> tuple:
    return extra + (
        Knob("measure", "which value of the pair: F, recall or precision", "f", choices=("f", "recall", "precision"),
             key="m", sources={"f": f"{PERL} prints ROUGE-x-F beside -R and -P; {RS} Score.fmeasure",
                               "recall": f"{LIN} eq. 1 (ROUGE-N is a recall); {PERL} ROUGE-x-R",
                               "precision": f"{PERL} ROUGE-x-P; {RS} Score.precision"},
             unspecified=f"{LIN} defines ROUGE-N as a recall (eq. 1) and ROUGE-L as an F-measure (eq. 4); the "
                         "script prints all three and the field reports F: the default is only representative"),
        Knob("alpha", "F = P R / ((1 - alpha) P + alpha R): 1/2 is F1, 0 recall, 1 precision", "1/2",
             kind="rational", minimum=0, key="alpha",
             sources={"*": f"{PERL} -p alpha ('Default alpha = 0.5'); {LIN} eq. 4 with beta^2 = (1 - alpha)/alpha; "
                           f"{RS} scoring.fmeasure 2PR/(P + R)"}),
        Knob("tokenizer", "how a text becomes tokens", "rouge-1.5.5", choices=("rouge-1.5.5", "rouge-score", "whitespace"),
             key="tok", sources={"rouge-1.5.5": f"{PERL} readText: tr/A-Z/a-z/, s/[^A-Za-z0-9\\-]/ /g, tokens "
                                                f"starting with [a-z0-9$] (createNGram)",
                                 "rouge-score": "rouge_score/tokenize.py: text.lower(), [^a-z0-9]+ -> ' '; "
                                                f"{TM} _normalize_and_tokenize_text",
                                 "whitespace": "str.split(): a user's own tokenizer (rouge-score tokenizer=, "
                                               "torchmetrics tokenizer=)"}),
        Knob("multi_reference", "how the references of one hypothesis combine", "pooled",
             choices=("pooled", "best-recall", "best-f", "average"), key="refs",
             sources={"pooled": f"{LIN} eq. 1 (sums over the reference summaries); {PERL} -f A (the default)",
                      "best-recall": f"{PERL} -f B: the reference of highest recall, the first of equals",
                      "best-f": f"{RS} score_multi (np.argmax of fmeasure); {TM} accumulate='best'",
                      "average": f"{TM} accumulate='avg' (the mean of each measure)"}),
        Knob("aggregate", "a corpus: the mean of the segments' values, their statistics pooled, or the script's "
             "bootstrap estimate of either", "mean",
             choices=("mean", "pooled", "bootstrap-mean", "bootstrap-pooled"), key="agg",
             sources={"mean": f"{LIN} (ROUGE of a system: the average over its summaries); {TM} "
                              "_rouge_score_compute (mean)",
                      "pooled": f"{PERL} -t 1 (token counting units: hits and counts summed over the summaries)",
                      "bootstrap-mean": f"{PERL} computeAverages: the Average it prints is the mean of 1000 (-r) "
                                        "seeded bootstrap resamples of the summaries' values (bootstrapResampling)",
                      "bootstrap-pooled": f"{PERL} -t 1: the same resamples, each pooling the drawn summaries' counts"}),
        Knob("scale", "fraction (0..1) or percent (0..100)", "fraction", choices=("fraction", "percent"),
             key="scale", sources={"fraction": LIN, "percent": "papers' tables (100 x the value)"}),
    )


# ----------------------------------------------------------------- tokens


def tokens(text: str, tokenizer: str) -> list[str]:
    """The tokens of ``text`` under ``tokenizer`` (the module docstring)."""
    if tokenizer == "whitespace":
        return text.split()
    if tokenizer == "rouge-score":
        return _NON_ALNUM.sub(" ", text.lower()).split()
    return _NON_ASCII_ALNUM.sub(" ", text).translate(_ASCII_LOWER).split()


def sentences(text: str) -> list[str]:
    """The sentences of a Lsum text: its lines, empty ones dropped."""
    return [s for s in text.split("\n") if s]


# ----------------------------------------------------------------- pair statistics


def _ngrams(toks: list, n: int) -> Counter:
    return Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


def ngram_stats(hyp: list, ref: list, n: int) -> tuple[int, int, int]:
    """(hit, ref count, hyp count) of ROUGE-N: clipped n-gram matches (Lin eq. 1)."""
    h, r = _ngrams(hyp, n), _ngrams(ref, n)
    hit = sum(min(c, h[g]) for g, c in r.items() if g in h)
    return hit, sum(r.values()), sum(h.values())


def skip_bigrams(toks: list, distance, unigrams: str) -> Counter:
    """The skip-bigrams (t_i, t_j), i < j, with at most ``distance`` words between them (all
    pairs for ``None``), and the unigrams ``unigrams`` adds: ``all`` every token (Lin section 5,
    ROUGE-SU "with the addition of unigram as counting unit"), ``all-but-last`` every token but
    the last (ROUGE-1.5.5 createSkipBigram: 'for($i=0;$i<$#m_tokens;$i++)' adds them inside its
    pair loop), ``none`` no unigram (ROUGE-S)."""
    out: Counter = Counter()
    n = len(toks)
    for i in range(n):
        if unigrams == "all" or (unigrams == "all-but-last" and i < n - 1):
            out[(toks[i],)] += 1
        last = n - 1 if distance is None else min(n - 1, i + distance + 1)
        for j in range(i + 1, last + 1):
            out[(toks[i], toks[j])] += 1
    return out


def _lcs_table(ref: list, hyp: list) -> list[list[int]]:
    t = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        row, above, r = t[i], t[i - 1], ref[i - 1]
        for j in range(1, len(hyp) + 1):
            row[j] = above[j - 1] + 1 if r == hyp[j - 1] else max(above[j], row[j - 1])
    return t


def lcs_length(ref: list, hyp: list) -> int:
    """Length of a longest common subsequence (Lin section 3.1)."""
    if not ref or not hyp:
        return 0
    return _lcs_table(ref, hyp)[-1][-1]


def lcs_positions(ref: list, hyp: list, path: str) -> set[int]:
    """Positions in ``ref`` of one LCS of (ref, hyp), chosen by backtracking the table:
    the diagonal on equal tokens, else a step back in ref (``up``) or hyp (``left``) when
    that keeps the length (the module docstring)."""
    if not ref or not hyp:
        return set()
    t = _lcs_table(ref, hyp)
    i, j, out = len(ref), len(hyp), set()
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            i, j = i - 1, j - 1
            out.add(i)
        elif path == "up":
            if t[i][j - 1] > t[i - 1][j]:
                j -= 1
            else:
                i -= 1
        elif t[i - 1][j] > t[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out


def lsum_stats(hyp_sents: list, ref_sents: list, path: str) -> tuple[int, int, int]:
    """(hit, ref count, hyp count) of ROUGE-Lsum: union LCS per reference sentence, hits
    clipped by the remaining unigram counts of both summaries (Lin section 3.2; ROUGE-1.5.5)."""
    left_ref = Counter(t for s in ref_sents for t in s)
    left_hyp = Counter(t for s in hyp_sents for t in s)
    ref_count, hyp_count = sum(left_ref.values()), sum(left_hyp.values())
    hit = 0
    for r in ref_sents:
        union = set()
        for c in hyp_sents:
            union |= lcs_positions(r, c, path)
        for k in sorted(union):
            tok = r[k]
            if left_ref[tok] > 0 and left_hyp[tok] > 0:
                hit += 1
                left_ref[tok] -= 1
                left_hyp[tok] -= 1
    return hit, ref_count, hyp_count


# ----------------------------------------------------------------- measures


def measures(hit: int, ref: int, hyp: int, alpha: Fraction) -> dict[str, Fraction]:
    """{recall, precision, f} of pooled statistics (the module docstring's zero rules)."""
    r = Fraction(hit, ref) if ref else Fraction(0)
    p = Fraction(hit, hyp) if hyp else Fraction(0)
    den = (1 - alpha) * p + alpha * r
    return {"recall": r, "precision": p, "f": p * r / den if den else Fraction(0)}


def _segment(stats: list, settings: dict) -> tuple[dict, tuple | None]:
    """(measures, statistics) of one hypothesis against its references' statistics; the
    statistics are None under ``average``, which has none."""
    alpha = Fraction(settings["alpha"])
    rule = settings["multi_reference"]
    if rule == "pooled":
        total = tuple(sum(s[k] for s in stats) for k in range(3))
        return measures(*total, alpha), total
    each = [measures(*s, alpha) for s in stats]
    if rule == "average":
        return {m: sum((e[m] for e in each), Fraction(0)) / len(each) for m in each[0]}, None
    key = "recall" if rule == "best-recall" else "f"
    best = max(range(len(each)), key=lambda j: (each[j][key], -j))
    return each[best], stats[best]


RESAMPLES = 1000   # ROUGE-1.5.5's default -r


def perl_draws(seed: int, n: int) -> list[int]:
    """``srand(seed)`` then ``int(rand(n))`` n times, as Perl 5.20 and later compute them (its
    own drand48: x = (seed << 16) + 0x330E, x = (0x5DEECE66D x + 11) mod 2^48, rand(n) = n *
    (x / 2^48) in doubles)."""
    x = ((seed & 0xFFFFFFFF) << 16) + 0x330E
    out = []
    for _ in range(n):
        x = (0x5DEECE66D * x + 0xB) & ((1 << 48) - 1)
        out.append(int(float(n) * (x / 281474976710656.0)))
    return out


def bootstrap(values: list, stats: list, alpha: Fraction, pooled: bool) -> dict:
    """ROUGE-1.5.5's printed average (computeAverages, bootstrapResampling): resample r = 0 ..
    999 seeds Perl's generator with r and draws as many summaries as there are, with
    replacement, from its test ids sorted as strings ('1.X', '10.X', '2.X', ... for the
    summaries numbered from 1); each resample's value is the mean of the drawn summaries'
    measures (or, ``pooled``, the measures of their summed counts); the average is the mean
    over the resamples. The script then prints it to 5 decimals, from per-summary values it
    rounded to 5 decimals first: that rounding is the script's printing, not the estimate."""
    n = len(values)
    order = sorted(range(n), key=lambda i: f"{i + 1}.X")
    totals = {"recall": Fraction(0), "precision": Fraction(0), "f": Fraction(0)}
    for r in range(RESAMPLES):
        drawn = [order[k] for k in perl_draws(r, n)]
        if pooled:
            hit = sum(stats[i][0] for i in drawn)
            ms = measures(hit, sum(stats[i][1] for i in drawn), sum(stats[i][2] for i in drawn), alpha)
        else:
            ms = {k: sum((values[i][k] for i in drawn), Fraction(0)) / n for k in totals}
        for k in totals:
            totals[k] += ms[k]
    return {k: v / RESAMPLES for k, v in totals.items()}


def prepare(text: str, family: str, tokenizer: str):
    """What a text becomes for ``family``: its tokens, or (rouge_lsum) its sentences' tokens."""
    if family == "rouge_lsum":
        return [tokens(s, tokenizer) for s in sentences(text)]
    return tokens(text, tokenizer)


def pair_stats(hyp, ref, family: str, settings: dict) -> tuple[int, int, int]:
    """(hit, ref count, hyp count) of prepared (tokenized) hypothesis and reference."""
    if family == "rouge_n":
        return ngram_stats(hyp, ref, int(settings["n"]))
    if family == "rouge_l":
        return lcs_length(ref, hyp), len(ref), len(hyp)
    if family == "rouge_s":
        d = None if settings["skip_distance"] == "none" else int(settings["skip_distance"])
        h, r = skip_bigrams(hyp, d, settings["unigrams"]), skip_bigrams(ref, d, settings["unigrams"])
        return sum(min(c, h[g]) for g, c in r.items() if g in h), sum(r.values()), sum(h.values())
    return lsum_stats(hyp, ref, settings["lcs_path"])


def _compute(family: str):
    def compute(inputs, settings) -> Result:
        hyps, refs = _check_corpus(inputs, "ROUGE")
        if settings["aggregate"] in ("pooled", "bootstrap-pooled") and settings["multi_reference"] == "average":
            raise ConventionError("aggregate=pooled sums each segment's statistics, and multi_reference=average "
                                  "has none (it averages the measures); choose another multi_reference")
        tok = settings["tokenizer"]
        alpha = Fraction(settings["alpha"])
        if alpha > 1:
            raise ConventionError(f"alpha={settings['alpha']}: alpha weighs precision against recall and is at most 1 "
                                  "(ROUGE-1.5.5 -p: 'has to be between 0 and 1 inclusively')")
        values, pooled, per = [], [0, 0, 0], []
        for h, rs in zip(hyps, refs):
            ph = prepare(h, family, tok)
            stats = [pair_stats(ph, prepare(r, family, tok), family, settings) for r in rs]
            ms, st = _segment(stats, settings)
            values.append(ms)
            per.append(list(st) if st is not None else None)
            if st is not None:
                for k in range(3):
                    pooled[k] += st[k]
        m = settings["measure"]
        if settings["aggregate"] == "pooled":
            parts = measures(*pooled, alpha)
        elif settings["aggregate"].startswith("bootstrap"):
            parts = bootstrap(values, per, alpha, settings["aggregate"] == "bootstrap-pooled")
        else:
            parts = {k: sum((v[k] for v in values), Fraction(0)) / len(values) for k in ("recall", "precision", "f")}
        value = parts[m] * (100 if settings["scale"] == "percent" else 1)
        return Result(value, stats={"hit_ref_hyp": per}, parts=dict(parts))
    return compute


_N = Knob("n", "the n-gram length of ROUGE-N", "1", kind="int", minimum=1, key="n",
          sources={"*": f"{LIN} section 2 (ROUGE-N for any n; DUC reported ROUGE-1 and ROUGE-2); {PERL} -n; "
                        f"{RS} rouge1..rouge9"},
          unspecified=f"{LIN} defines ROUGE-N for every n and names no default; the script computes 1..N for -n N")
_PATH = Knob("lcs_path", "which LCS a reference sentence takes when there are several", "up", choices=("up", "left"),
             key="lcs", sources={"up": f"{PERL} lcs_inner / markLCS ('^' when c[i-1][j] >= c[i][j-1]); "
                                       f"{RS} _backtrack_norec; {TM} _backtracked_lcs",
                                 "left": "the other backtracking: a step back in the hypothesis sentence"},
             unspecified=f"{LIN} section 3.2 takes 'the LCS' of each pair; where several exist the union, and so "
                         "the score, depends on the one taken: the script's backtracking is the representative")

_SKIP = Knob("skip_distance", "the most words between the two of a skip-bigram ('none': any gap)", "none",
             kind="int", minimum=0, special=("none",), key="skip",
             sources={"none": f"{LIN} section 5 (ROUGE-S: any pair in sentence order); {PERL} -2 -1",
                      "*": f"{LIN} section 5 (ROUGE-S4, ROUGE-S9: a maximum skip distance); {PERL} -2 N"})
_UNIGRAMS = Knob("unigrams", "the unigrams ROUGE-SU adds to the skip-bigrams", "none",
                 choices=("none", "all", "all-but-last"), key="su",
                 sources={"none": f"{LIN} section 5 (ROUGE-S)",
                          "all": f"{LIN} section 5.1 (ROUGE-SU: 'the addition of unigram as counting unit')",
                          "all-but-last": f"{PERL} -u: createSkipBigram counts the unigram of every token but the "
                                          "last (its loop runs to $#m_tokens - 1)"})

ROUGE_N = Metric(
    name="rouge_n", family="rouge", sig_name="ROUGE-N",
    summary="ROUGE-N: clipped n-gram recall, precision and F of hypotheses against references (Lin 2004)",
    knobs=_knobs((_N,)), compute_fn=_compute("rouge_n"),
    inputs={"hypotheses": "list of hypothesis (system summary) strings",
            "references": "references[i]: the list (>= 1) of reference summaries of hypotheses[i]"})

ROUGE_L = Metric(
    name="rouge_l", family="rouge", sig_name="ROUGE-L",
    summary="ROUGE-L: longest common subsequence of the whole texts, as recall, precision and F (Lin 2004, 3.1)",
    knobs=_knobs(), compute_fn=_compute("rouge_l"),
    inputs={"hypotheses": "list of hypothesis (system summary) strings",
            "references": "references[i]: the list (>= 1) of reference summaries of hypotheses[i]"})

ROUGE_S = Metric(
    name="rouge_s", family="rouge", sig_name="ROUGE-S",
    summary="ROUGE-S and ROUGE-SU: skip-bigram (and unigram) co-occurrence, clipped (Lin 2004, section 5)",
    knobs=_knobs((_SKIP, _UNIGRAMS)), compute_fn=_compute("rouge_s"),
    inputs={"hypotheses": "list of hypothesis (system summary) strings",
            "references": "references[i]: the list (>= 1) of reference summaries of hypotheses[i]"})

ROUGE_LSUM = Metric(
    name="rouge_lsum", family="rouge", sig_name="ROUGE-Lsum",
    summary="ROUGE-Lsum: summary-level union LCS over newline-separated sentences (Lin 2004, 3.2; ROUGE-1.5.5's -L)",
    knobs=_knobs((_PATH,)), compute_fn=_compute("rouge_lsum"),
    inputs={"hypotheses": "list of hypothesis summaries, sentences separated by newlines",
            "references": "references[i]: the list (>= 1) of reference summaries of hypotheses[i], sentences "
                          "separated by newlines"})
