"""Word, character and match error rates: WER, CER, MER, WIL, WIP and the
error counts, exactly, with the admissible set over all minimum-cost alignments.

Inputs: ``{"references": [str, ...], "hypotheses": [str, ...]}``; utterance k
pairs references[k] with hypotheses[k].

Counts and formulas
An alignment of a reference (N tokens) with a hypothesis (P tokens) pairs
tokens in order; each reference token is a hit H (paired with an equal token),
a substitution S (paired with a different token) or a deletion D (unpaired);
each unpaired hypothesis token is an insertion I. N = H + S + D,
P = H + S + I. A minimum-cost alignment has S + D + I = the Levenshtein
distance d (unit costs; Levenshtein 1966).
- WER = (S + D + I) / N (NIST sclite; jiwer ``wer``), CER the same on
  characters.
- MER = (S + D + I) / (H + S + D + I) (Morris, Maier and Green 2004, "From
  WER and RIL to MER and WIL", eq. for MER).
- WIP = (H / N) * (H / P) = H^2 / (N P), WIL = 1 - WIP (Morris et al. 2004).
  With H = 0 and N + P > 0 WIP is 0 (nothing is preserved; jiwer's value
  for an empty hypothesis); N = P = 0 is 0/0 (the empty-reference knob).
- error_counts: {"hits", "substitutions", "deletions", "insertions"}.

Ties between alignments. Several minimum-cost alignments can split d
differently: ref "a b", hyp "b c" aligns as S S (H=0) or D C I (H=1). WER is
the same for all (d / N); MER, WIL, WIP and the counts are not. Given d, N
and P, the counts of a minimum-cost alignment are fixed by its insertion
count I: D = I + N - P, S = d - 2I - (N - P), H = N - d + I. So the
admissible set is a set of integers I, computed exactly by a dynamic program
whose cell (i, j) holds the set of I over the minimum-cost alignments of the
first i reference and j hypothesis tokens (a Python int used as a bit set:
a diagonal or deletion step keeps the set, an insertion shifts it by one),
restricted to the diagonal band that minimum-cost paths cannot leave
(|k| + |(P - N) - k| <= d for k = j - i). At corpus level the rates depend on
the summed counts only, so the corpus set of I is the Minkowski sum of the
per-utterance sets (bit-set products: sum over utterances of the set sizes
shifts of an int of at most N + P + 1 bits). For aggregate=mean the set of
means is the Minkowski sum of per-utterance value sets, kept while it has at
most 65,536 values (else a ConventionError asks for a tie rule).
Cost: O(n d) per utterance for the band DP, O(n ceil(n / w)) word operations
for the bit-parallel distance.

Tie rules (knob ``tie``):
- ``any`` (default): the admissible set. A value with more than one admissible
  choice is ``Admissible(values, by_rule)``; a library agrees when its value
  is in the set. A unique value is returned plainly.
- ``prefer-substitution``: the minimum-cost alignment with the most
  substitutions (smallest I). ``prefer-deletion-insertion``: the fewest (largest I).
- ``diagonal-first``: backtrace from the end preferring the diagonal
  (hit or substitution), then deletion, then insertion, over the full matrix
  (source document 001, ``alignment_wer``; the common textbook backtrace).
- ``rapidfuzz``: RapidFuzz ``Levenshtein.editops`` (used by jiwer >= 3): the
  common prefix and suffix are matched first; on the rest, backtrace from the
  end: deletion if D[i-1][j] + 1 = D[i][j]; else, when the tokens are equal,
  insertion if D[i][j-1] + 1 = D[i][j], otherwise the match; when they
  differ, the substitution if D[i-1][j-1] + 1 = D[i][j], otherwise insertion;
  then the remaining deletions, then insertions (Hyyrö 2004's bit-vector
  backtrace, rapidfuzz ``Levenshtein_py.editops``, translated to matrix terms).
- ``sclite``: NIST SCTK sclite's weighted alignment (``wwd_WORD``: correct 0,
  insertion 3, deletion 3, substitution 4; ``net_dp.c``: a cell keeps the
  diagonal when it costs no more than both others, else the deletion when
  strictly cheaper than the insertion, else the insertion), followed back from
  the end. It minimises 4S + 3(D + I), not S + D + I, and can pick an
  alignment with more errors than d; its counts are then that alignment's
  (plain words only: no '@' null words, optional deletions or fragments).

Results
- stats: reference_length (N), hypothesis_length (P), utterances, errors
  (S + D + I of the value: d, or sclite's count); distance (d) and hits,
  substitutions, deletions, insertions when the rule (or a unique admissible
  split) fixes them.
- parts: alignments {rule: per utterance [[op, reference token or null,
  hypothesis token or null], ...]} with op C (hit), S, D, I; counts {rule:
  corpus counts}; admissible_counts (tie=any). WER and CER under tie=any
  need only d (the bit-parallel distance): their parts are utterance_errors
  and utterance_reference_lengths; ask a tie rule or error_counts for alignments.

Knobs
- ``tokenize`` (tok; words): ``whitespace`` (default; Python ``str.split()``:
  runs of any Unicode whitespace), ``spaces`` (``s.split(' ')`` with empty
  strings dropped: only U+0020 separates), ``jiwer`` (jiwer ``wer_default``:
  ``re.sub(r"\\s\\s+", " ", s)``, ``strip()``, ``split(" ")``, empty strings
  dropped; a single tab or no-break space does not separate).
- ``case`` (case): ``mixed`` (default) or ``lower`` (``str.lower()``).
- ``punctuation`` (punct): ``keep`` (default) or ``remove``: every character
  whose Unicode general category starts with P (Pc Pd Ps Pe Pi Pf Po) is
  deleted, as jiwer ``RemovePunctuation``. Symbols are kept: $ + < = > ^ ` | ~
  (categories Sc, Sm, Sk) stay although ``string.punctuation`` lists them.
- ``whitespace`` (ws; characters): ``strip`` (default; leading and trailing
  Unicode whitespace removed, jiwer ``cer_default``), ``keep`` (every
  character), ``collapse`` (``' '.join(s.split())``), ``remove`` (all
  Unicode whitespace deleted).
- ``unit`` (unit; characters): ``codepoint`` (default), ``grapheme``
  (extended grapheme clusters, the subset of UAX #29 below), ``nfc-codepoint``
  (NFC, then code points).
- ``aggregate`` (agg): ``corpus`` (default; summed counts, e.g. WER =
  sum(S+D+I) / sum(N)), ``mean`` (mean of utterance values) or ``contiguous``
  (the utterances' tokens joined in order into one reference and one
  hypothesis and aligned once, as jiwer before 2.3 did: errors can pair words
  of different utterances; error_counts has corpus and contiguous).
- ``empty_reference`` (empty): what a zero denominator gives (WER, CER: N = 0;
  MER, WIP, WIL: N = P = 0): ``undefined`` (default; Undefined; an empty
  reference inside a corpus with other words just adds its insertions),
  ``insertions`` (jiwer: WER = I, the insertion count; MER = 0, WIP = 1,
  WIL = 0 when both sides are empty), ``error`` (InputError naming the first
  empty reference).
Preprocessing order: NFC (unit nfc-codepoint, after the transforms), case,
punctuation, then tokenizing (words) or whitespace handling (characters).

Grapheme clusters (unit=grapheme), the implemented subset of UAX #29 with
``unicodedata``: GB3 CR x LF; GB4/GB5 break around controls (Cc, Zl, Zp, and
Cf other than ZWJ, ZWNJ and tags); GB6-GB8 Hangul syllable sequences (L, V,
T jamo and LV/LVT syllables by code point arithmetic); GB9/GB9a no break
before Mn, Me, Mc, ZWJ, ZWNJ, emoji modifiers U+1F3FB-1F3FF, tags
U+E0020-E007F; GB11 no break in ExtPict Extend* ZWJ x ExtPict, with
Extended_Pictographic approximated by the ranges in ``_EXT_PICT``; GB12/GB13
regional indicators pair up. Not implemented: Prepend (GB9b), the Indic
conjunct rule (GB9c), and the exceptions to SpacingMark.

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/error_rates.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

from fractions import Fraction

from .conventions import ConventionError, InputError, Knob, Metric, Result
from .exact import Admissible, Undefined
from .alignment import Band, _bits, alignment, counts_from_insertions, counts_of, levenshtein, make_band
from .lazy import Lazy, LazyParts, Once
from .transcripts import _check_inputs, characters, words  # noqa: F401 (re-exported)

_SCLITE = "NIST SCTK sclite: word.c wwd_WORD (ins 3, del 3, sub 4), net_dp.c"
_JIWER = "jiwer 4.0 (process.py, transformations.py)"
_RAPIDFUZZ = "RapidFuzz Levenshtein.editops (Levenshtein_py.py; Hyyro 2004, A Note on Bit-Parallel Alignment Computation)"
_DOC001 = "source document 001_e6f299f74aa61acb.txt part 3, alignment_wer()"
_SCTK = ("NIST SCTK sclite (doc/infmts.htm: trn words are whitespace-separated tokens, compared as written; "
         "normalization only through an explicit GLM filter, csrfilt.sh)")
_MORRIS = ("Morris, Maier and Green 2004, From WER and RIL to MER and WIL: improved evaluation measures for "
           "connected speech recognition, Interspeech")

RULES = ("prefer-substitution", "prefer-deletion-insertion", "diagonal-first", "rapidfuzz", "sclite")

TOKENIZE = Knob(
    "tokenize", "how a text is split into words", "whitespace",
    choices=("whitespace", "spaces", "jiwer"),
    sources={"whitespace": f"{_SCTK}: words are separated by whitespace (read here as Python str.split(): runs "
                           "of any Unicode whitespace)",
             "spaces": "s.split(' ') with empty strings dropped (runs of U+0020 collapsed)",
             "jiwer": f"{_JIWER} wer_default: RemoveMultipleSpaces (re.sub(r'\\s\\s+', ' ')), Strip, "
                      "ReduceToListOfListOfWords (split(' '), empty strings dropped)"},
    key="tok")
CASE = Knob("case", "case folding before comparing", "mixed", choices=("mixed", "lower"),
            sources={"mixed": f"{_MORRIS}: words compared as given; sclite -s (case-sensitive alignments)",
                     "lower": "sclite's default ('-s Do Case-sensitive alignments. Otherwise all input is mapped "
                              "to a single case before scoring', SCTK doc/options.htm); str.lower() here"},
            unspecified="no publication fixes case; the canonical tool sclite folds it by default and keeps it "
                        "with -s")
PUNCTUATION = Knob(
    "punctuation", "punctuation handling before tokenizing", "keep", choices=("keep", "remove"),
    sources={"keep": f"characters as given ({_SCTK})",
             "remove": "delete every character of Unicode general category P* (jiwer RemovePunctuation)"},
    key="punct")
WHITESPACE = Knob(
    "whitespace", "whitespace handling of character sequences", "strip",
    choices=("strip", "keep", "collapse", "remove"),
    sources={"strip": f"{_JIWER} cer_default: Strip (str.strip()), inner whitespace kept",
             "keep": "every character as given", "collapse": "' '.join(s.split())",
             "remove": "every Unicode whitespace character deleted (sclite -c 'chop up the words into separate "
                       "characters': the spaces between words are not scored)"},
    key="ws",
    unspecified="no publication says whether the spaces of a text are characters of CER; sclite -c scores "
                "none, jiwer keeps the inner ones")
UNIT = Knob(
    "unit", "the character unit", "codepoint", choices=("codepoint", "grapheme", "nfc-codepoint"),
    sources={"codepoint": "Unicode code points (Python str iteration; jiwer ReduceToListOfListOfChars)",
             "grapheme": "extended grapheme clusters, UAX #29 subset (see the module docstring)",
             "nfc-codepoint": "unicodedata.normalize('NFC', s), then code points"},
    unspecified="no publication fixes what a character of CER is (code point, grapheme cluster, normalized "
                "form)")
_CONTIGUOUS = ("jiwer 2.0-2.2 measures.py _default_transform ends in SentencesToListOfWords ('By default, it "
               "collapses input to a list of words'): the corpus is one word sequence, aligned once")
AGGREGATE = Knob(
    "aggregate", "how utterances are combined", "corpus", choices=("corpus", "mean", "contiguous"),
    sources={"corpus": f"summed counts over the corpus: NIST sclite's Sum/Avg row (total S + D + I over the total "
                       f"reference words, each utterance aligned on its own); {_MORRIS}; {_DOC001}",
             "mean": "arithmetic mean of the utterance values",
             "contiguous": _CONTIGUOUS},
    key="agg")
EMPTY = Knob(
    "empty_reference", "value when the denominator is zero (an empty reference)", "undefined",
    choices=("undefined", "insertions", "error"),
    sources={"undefined": f"WER = (S + D + I)/N ({_MORRIS}): with N = 0 it is 0/0 or I/0, which has no value; "
                          "a library's number there is a representation of its own",
             "insertions": f"{_JIWER} process_words: if num_rf_words == 0: wer = num_insertions; "
                           "mer = 0 and wip = 1 when the hypothesis is empty too",
             "error": "an empty reference is invalid input (jiwer 2.x raised ValueError)"},
    key="empty")
EMPTY_COUNTS = Knob(
    "empty_reference", "whether an empty reference is counted or refused", "count",
    choices=("count", "error"),
    sources={"count": "Wagner and Fischer 1974, The String-to-String Correction Problem, JACM 21(1): "
                      "D(0, j) = j, so an empty reference's alignment is its hypothesis words as insertions",
             "error": "an empty reference is invalid input (jiwer before 4.0 raised ValueError)"},
    key="empty")
TIE = Knob(
    "tie", "which minimum-cost alignment splits the errors into S, D, I", "any",
    choices=("any",) + RULES,
    unspecified="Levenshtein 1966 and Wagner and Fischer 1974 fix the minimum cost only; how tied minimum-cost "
                "alignments split it into S, D and I (and so H, MER, WIL, WIP) is no published rule",
    admissible="any",
    sources={"any": "the admissible set over all minimum-cost alignments",
             "prefer-substitution": "the minimum-cost alignment with the most substitutions",
             "prefer-deletion-insertion": "the minimum-cost alignment with the fewest substitutions",
             "diagonal-first": f"backtrace preferring diagonal, then deletion, then insertion ({_DOC001})",
             "rapidfuzz": _RAPIDFUZZ,
             "sclite": _SCLITE})

MEAN_SET_LIMIT = 65536

def _tokens(inputs, settings: dict, level: str) -> tuple[list, list]:
    refs, hyps = _check_inputs(inputs)
    split = words if level == "word" else characters
    ref_t = [split(r, settings) for r in refs]
    hyp_t = [split(h, settings) for h in hyps]
    if settings.get("aggregate") == "contiguous" and ref_t:
        # one utterance: the references' tokens in order, and the hypotheses'
        ref_t = [[x for r in ref_t for x in r]]
        hyp_t = [[x for h in hyp_t for x in h]]
    if settings.get("empty_reference") == "error":
        if not ref_t:
            raise InputError("references: empty corpus (no utterances); empty_reference=error refuses it",
                             item="references")
        for i, r in enumerate(ref_t):
            if not r:
                raise InputError(f"references[{i}]: empty reference (no tokens after preprocessing); "
                                 f"empty_reference=error refuses it", item=f"references[{i}]")
    return ref_t, hyp_t


# ------------------------------------------------------------ values

def _rate(metric: str, h: int, s: int, d: int, i: int, empty: str):
    """The value of ``metric`` from counts, or None when its denominator is zero
    (the caller applies the empty-reference policy)."""
    n, p = h + s + d, h + s + i
    if metric in ("wer", "cer"):
        if n == 0:
            return Fraction(i) if empty == "insertions" else None
        return Fraction(s + d + i, n)
    if n + p == 0:
        if empty == "insertions":
            return {"mer": Fraction(0), "wip": Fraction(1), "wil": Fraction(0)}[metric]
        return None
    if metric == "mer":
        return Fraction(s + d + i, h + s + d + i)
    wip = Fraction(h * h, n * p) if h else Fraction(0)
    return wip if metric == "wip" else 1 - wip


def _undefined(metric: str, where: str) -> Undefined:
    what = "no reference tokens" if metric in ("wer", "cer") else "no reference and no hypothesis tokens"
    return Undefined(f"{where}: {what} (empty_reference=undefined)")


def _counts_dict(c) -> dict:
    h, s, d, i = c
    return {"hits": Fraction(h), "substitutions": Fraction(s), "deletions": Fraction(d), "insertions": Fraction(i)}


def _ops_json(ops) -> list:
    return [[k, x, y] for k, x, y in ops]


def _minkowski(total: int, mask: int) -> int:
    """Bit-set Minkowski sum {x + y : x in total, y in mask}."""
    if mask & (mask - 1) == 0:
        return total << (mask.bit_length() - 1)
    out = 0
    k = 0
    while mask:
        if mask & 1:
            out |= total << k
        mask >>= 1
        k += 1
    return out


def _stats_base(ref_t, hyp_t) -> dict:
    return {"reference_length": sum(map(len, ref_t)), "hypothesis_length": sum(map(len, hyp_t)),
            "utterances": len(ref_t)}


def _fast_rate(metric: str, ref_t, hyp_t, settings: dict) -> Result:
    """WER or CER under tie=any: only the edit distance is needed (bit-parallel)."""
    dist = [levenshtein(r, h) for r, h in zip(ref_t, hyp_t)]
    lengths = [len(r) for r in ref_t]
    stats = _stats_base(ref_t, hyp_t)
    stats["errors"] = sum(dist)
    empty = settings["empty_reference"]
    if settings["aggregate"] != "mean":
        n = stats["reference_length"]
        if n:
            value = Fraction(stats["errors"], n)
        elif empty == "insertions":
            value = Fraction(stats["hypothesis_length"])  # every hypothesis token is an insertion
        else:
            value = _undefined(metric, "corpus" if ref_t else "empty corpus")
    else:
        value = _mean_of([Fraction(e, n) if n else (Fraction(len(h)) if empty == "insertions" else None)
                          for e, n, h in zip(dist, lengths, hyp_t)], metric)
    return Result(value, stats=stats, parts={"utterance_errors": dist, "utterance_reference_lengths": lengths})


def _mean_of(values: list, metric: str):
    if not values:
        return _undefined(metric, "empty corpus")
    for k, v in enumerate(values):
        if v is None:
            return _undefined(metric, f"references[{k}]")
    return sum(values, Fraction(0)) / len(values)


def _value_from_counts(metric: str, per_utt: list, settings: dict):
    """The metric's value from per-utterance (H, S, D, I) under the aggregate knob."""
    empty = settings.get("empty_reference", "undefined")
    if metric == "error_counts":
        tot = [sum(c[k] for c in per_utt) for k in range(4)]
        return _counts_dict(tot)
    if settings["aggregate"] != "mean":
        tot = [sum(c[k] for c in per_utt) for k in range(4)]
        v = _rate(metric, *tot, empty)
        return v if v is not None else _undefined(metric, "corpus" if per_utt else "empty corpus")
    return _mean_of([_rate(metric, *c, empty) for c in per_utt], metric)


def _by_rules(metric: str, ref_t, hyp_t, dists: list, settings: dict, rules, bands: list) -> dict:
    """Each rule's alignments, corpus counts and value: {"alignments", "counts",
    "by_rule"}. ``bands``: per utterance a band to reuse, or None (made again)."""
    aligns = {r: [] for r in rules}
    unit_rules = [r for r in rules if r != "sclite"]
    for r, h, d, band in zip(ref_t, hyp_t, dists, bands):
        if band is None and unit_rules:
            band = make_band(r, h, d, rules=rules)
        for rule in rules:
            aligns[rule].append(alignment(r, h, rule, d, band))
    rule_counts = {rule: [counts_of(ops) for ops in aligns[rule]] for rule in rules}
    totals = {rule: [sum(c[q] for c in rule_counts[rule]) for q in range(4)] for rule in rules}
    return {"alignments": {rule: [_ops_json(o) for o in aligns[rule]] for rule in rules},
            "counts": {rule: {k: int(v) for k, v in _counts_dict(totals[rule]).items()} for rule in rules},
            "totals": totals,
            "by_rule": {rule: _value_from_counts(metric, rule_counts[rule], settings) for rule in rules}}


def _rate_metric(metric: str, level: str):
    def compute(inputs, settings: dict) -> Result:
        ref_t, hyp_t = _tokens(inputs, settings, level)
        tie = settings["tie"]
        if metric in ("wer", "cer") and tie == "any":
            return _fast_rate(metric, ref_t, hyp_t, settings)
        stats = _stats_base(ref_t, hyp_t)
        if tie != "any":
            if tie == "sclite":
                dists, bands = [levenshtein(r, h) for r, h in zip(ref_t, hyp_t)], [None] * len(ref_t)
            else:
                bands = [make_band(r, h, rules=(tie,)) for r, h in zip(ref_t, hyp_t)]
                dists = [band.d for band in bands]
            rules = _by_rules(metric, ref_t, hyp_t, dists, settings, (tie,), bands)
            stats["distance"] = sum(dists)
            tot = rules["totals"][tie]
            stats.update(zip(("hits", "substitutions", "deletions", "insertions"), tot))
            stats["errors"] = tot[1] + tot[2] + tot[3]
            return Result(rules["by_rule"][tie], stats=stats,
                          parts={"alignments": rules["alignments"], "counts": rules["counts"]})
        # tie=any: the admissible sets now; the rules' alignments when something reads them
        dists, iset_list, keep = [], [], []
        for r, h in zip(ref_t, hyp_t):
            band = make_band(r, h, rules=())
            dists.append(band.d)
            iset_list.append(band.insertion_set())
            keep.append(band if isinstance(band, Band) else None)   # long pairs: made again if asked
        stats["distance"] = sum(dists)
        once = Once(_by_rules, metric, ref_t, hyp_t, dists, settings, RULES, keep)
        value, admissible = _admissible_value(metric, ref_t, hyp_t, dists, iset_list, settings, Lazy(once, "by_rule"))
        parts = LazyParts({"admissible_counts": [{k: int(v) for k, v in _counts_dict(c).items()} for c in admissible]},
                          {"alignments": Lazy(once, "alignments"), "counts": Lazy(once, "counts")})
        stats["errors"] = stats["distance"]
        if len(admissible) == 1:
            stats.update(zip(("hits", "substitutions", "deletions", "insertions"), admissible[0]))
        return Result(value, stats=stats, parts=parts)
    return compute


def _admissible_value(metric, ref_t, hyp_t, dists, isets, settings, by_rule):
    """The value under tie=any: plain when unique, else Admissible(values, by_rule);
    and the admissible corpus counts (H, S, D, I)."""
    n_tot = sum(map(len, ref_t))
    p_tot = sum(map(len, hyp_t))
    d_tot = sum(dists)
    total = 1
    for m in isets:
        total = _minkowski(total, m)
    admissible = [counts_from_insertions(d_tot, n_tot, p_tot, k) for k in _bits(total)]
    empty = settings.get("empty_reference", "undefined")
    if metric == "error_counts":
        values = [_counts_dict(c) for c in admissible]
    elif settings["aggregate"] != "mean":
        vs = [_rate(metric, *c, empty) for c in admissible]
        if any(v is None for v in vs):
            return _undefined(metric, "corpus" if ref_t else "empty corpus"), admissible
        values = sorted(set(vs))
    else:
        if not ref_t:
            return _undefined(metric, "empty corpus"), admissible
        acc = {Fraction(0)}
        for k, (r, h, d, m) in enumerate(zip(ref_t, hyp_t, dists, isets)):
            vs = {_rate(metric, *counts_from_insertions(d, len(r), len(h), q), empty) for q in _bits(m)}
            if None in vs:
                return _undefined(metric, f"references[{k}]"), admissible
            acc = {x + y for x in acc for y in vs}
            if len(acc) > MEAN_SET_LIMIT:
                raise ConventionError(
                    f"{metric}: tie=any with aggregate=mean admits more than {MEAN_SET_LIMIT} values on this "
                    f"corpus; choose a tie rule or aggregate=corpus")
        values = sorted(v / len(ref_t) for v in acc)
    if len(values) == 1:
        return values[0], admissible
    return Admissible(values=tuple(values), by_rule=by_rule), admissible


_INPUTS = {"references": "list of reference transcripts (strings)",
           "hypotheses": "list of hypothesis transcripts (strings), one per reference"}

_WORD_KNOBS = (TOKENIZE, CASE, PUNCTUATION, AGGREGATE, EMPTY, TIE)

WER = Metric(name="wer", family="error_rates", summary="Word error rate (S + D + I) / N",
             knobs=_WORD_KNOBS, inputs=_INPUTS, compute_fn=_rate_metric("wer", "word"))
MER = Metric(name="mer", family="error_rates", summary="Match error rate (S + D + I) / (H + S + D + I)",
             knobs=_WORD_KNOBS, inputs=_INPUTS, compute_fn=_rate_metric("mer", "word"))
WIL = Metric(name="wil", family="error_rates", summary="Word information lost 1 - H^2 / (N P)",
             knobs=_WORD_KNOBS, inputs=_INPUTS, compute_fn=_rate_metric("wil", "word"))
WIP = Metric(name="wip", family="error_rates", summary="Word information preserved H^2 / (N P)",
             knobs=_WORD_KNOBS, inputs=_INPUTS, compute_fn=_rate_metric("wip", "word"))
CER = Metric(name="cer", family="error_rates", summary="Character error rate (S + D + I) / N on characters",
             knobs=(CASE, PUNCTUATION, WHITESPACE, UNIT, AGGREGATE, EMPTY, TIE), inputs=_INPUTS,
             compute_fn=_rate_metric("cer", "char"))
AGGREGATE_COUNTS = Knob(
    "aggregate", "how utterances are combined", "corpus", choices=("corpus", "contiguous"),
    sources={"corpus": "each utterance aligned on its own, the counts summed (NIST sclite's Sum/Avg row)",
             "contiguous": _CONTIGUOUS})
ERROR_COUNTS = Metric(name="error_counts", family="error_rates",
                      summary="Corpus hits, substitutions, deletions and insertions of the word alignment",
                      knobs=(TOKENIZE, CASE, PUNCTUATION, AGGREGATE_COUNTS, EMPTY_COUNTS, TIE), inputs=_INPUTS,
                      compute_fn=_rate_metric("error_counts", "word"))
