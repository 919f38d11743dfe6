"""TER, the translation edit rate (Snover, Dorr, Schwartz, Micciulla and Makhoul 2006, "A
Study of Translation Edit Rate with Targeted Human Annotation", AMTA), exactly as its
canonical tool computes it: tercom 0.10.0 (jhclark/tercom, src/ter/core/TerScorer.java and
Normalizer.java; ter/TER.java for several references and the corpus).

TER = (edits) / (reference words): insertions, deletions and substitutions of words and
shifts of contiguous word blocks, each of cost 1 (CostFunction.java). The minimum over
all shift sequences is NP-hard; the definition in use is tercom's search, followed here
step by step:

- the shift candidates (GatherAllPossShifts): a hypothesis block of at most 10 words
  (MAX_SHIFT_SIZE) that occurs in the reference (BuildWordMatches: reference phrases of
  words all present in the hypothesis), with a hypothesis error inside it and a reference
  error where it would go, moved to an alignment position at most ``max_shift_distance``
  words away (-d, 50); grouped by length;
- the choice (CalcBestShift): longest blocks first, in the order found; a shift is taken
  when it lowers edit distance plus shift cost below the best so far, or equals it while
  no shift is chosen yet; the search of a length stops when no shift of that length can
  gain more than what is already gained (2 (length) per shift);
- repeated until no shift is chosen; edits = the shifts + the edit distance of the shifted
  hypothesis (MinEditDist: a dynamic programme over reference rows and hypothesis columns
  that drops cells more than ``beam_width`` above the previous column's best (-b, 20;
  ``none``: no pruning), keeping on equal costs the first operation found: match or
  substitution, then insertion, then deletion, and read back from the end).

A segment with several references takes the fewest edits (the first of equals) over the
average reference length (TER.java score_all_refs). An empty hypothesis or reference
string (before tokenizing) has edits = the other side's words (TERnullstr). The corpus
value is the summed edits over the summed lengths (TER.java: TOTAL_EDITS / TOTAL_WORDS);
with no reference word at all (``zero_reference``) it is undefined (tercom divides by 0:
NaN or Infinity), or sacrebleu's 1 when there are edits and 0 when there are none
(``one-if-edits``, tercom's segment Alignment.score() rule).

Tokens (Normalizer.tokenize): each segment trimmed as tercom's readers trim it (String.trim:
code points up to U+0020); ``case=insensitive`` lowercases first (tercom's default; -s
keeps case); ``normalize=yes`` (-N) applies the mteval-v11 rules (XML entities, punctuation
split off, possessive 's, periods and commas not between digits, a dash after a digit);
``punctuation=remove`` (-P) deletes . , ? : ; ! " ( ); then the text splits at Java's
whitespace, the six ASCII characters (a no-break space is part of a word), as Java's
``split`` does (a leading empty token where the text starts with a space, as after -P).
``scale=percent`` multiplies by 100 (sacrebleu's score).
"""
from __future__ import annotations

import re
from fractions import Fraction

from .bleu import _check_corpus
from .conventions import Knob, Metric, Result
from .exact import Undefined

SNOVER = "Snover et al. 2006, A Study of Translation Edit Rate with Targeted Human Annotation (AMTA)"
TERCOM = "tercom 0.10.0 (jhclark/tercom)"
MAX_SHIFT_SIZE = 10
_INF = 999999


def _knobs() -> tuple:
    return (
        Knob("case", "insensitive: lowercase both sides first", "insensitive", choices=("insensitive", "sensitive"),
             key="case", sources={"insensitive": f"{TERCOM} TerScorer.TER: toLowerCase() unless -s",
                                  "sensitive": f"{TERCOM} -s"}),
        Knob("normalize", "tercom's -N tokenization (mteval-v11 rules)", "no", choices=("no", "yes"), key="norm",
             sources={"no": f"{TERCOM} Normalizer.tokenize (normalized=false: split at whitespace)",
                      "yes": f"{TERCOM} -N"}),
        Knob("punctuation", "remove: delete . , ? : ; ! \" ( ) before splitting", "keep", choices=("keep", "remove"),
             key="punct", sources={"keep": f"{TERCOM} (default)", "remove": f"{TERCOM} -P"}),
        Knob("beam_width", "MinEditDist's beam: cells more than this above the last column's best are dropped",
             "20", kind="int", minimum=1, special=("none",), key="beam",
             sources={"*": f"{TERCOM} TerScorer.BEAM_WIDTH = 20 (-b)", "none": "the full dynamic programme"}),
        Knob("max_shift_distance", "how far (in words) a block may move", "50", kind="int", minimum=0, key="dist",
             sources={"*": f"{TERCOM} MAX_SHIFT_DIST = 50 (-d); {SNOVER}"}),
        Knob("zero_reference", "a corpus with no reference word", "undefined", choices=("undefined", "one-if-edits"),
             key="zref", sources={"undefined": f"{SNOVER}: edits over reference words (0 words: no value; {TERCOM} "
                                               "TER.java prints TOTAL_EDITS / TOTAL_WORDS, NaN or Infinity)",
                                  "one-if-edits": f"{TERCOM} Alignment.score() for a segment (1 with edits, else 0); "
                                                  "sacrebleu TER._compute_score_from_stats for the corpus"}),
        Knob("scale", "fraction (0..1) or percent (0..100)", "fraction", choices=("fraction", "percent"), key="scale",
             sources={"fraction": SNOVER, "percent": "sacrebleu TERScore.score (100 x)"}),
    )


# ------------------------------------------------------------------ tokens

# Java's \\s (no UNICODE_CHARACTER_CLASS flag): the six ASCII whitespace characters only
_WS = "[ \t\n\x0b\f\r]"
_WESTERN = [
    (re.compile(r"([{-~\[-` -&(-+:-@/])"), r" \1 "),
    (re.compile(r"'s "), " 's "),
    (re.compile(r"'s$"), " 's"),
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def java_trim(s: str) -> str:
    """String.trim(): code points up to U+0020 removed at both ends (tercom's readers trim
    each segment, TER.java:434 and SgmlProcessor.java)."""
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return s[i:j]


def _java_split(s: str) -> list[str]:
    """String.split("\\s+"): a leading empty string where s starts with whitespace,
    trailing empty strings dropped, and [""] for the empty string."""
    if s == "":
        return [""]
    parts = re.split(_WS + "+", s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def tokens(s: str, settings: dict) -> list[str]:
    """Normalizer.tokenize (the module docstring); the caller has trimmed and lowercased."""
    if settings["normalize"] == "yes":
        s = s.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        s = s.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        s = " " + s + " "
        for pattern, repl in _WESTERN:
            s = pattern.sub(repl, s)
        s = re.sub("^" + _WS + "+", "", re.sub(_WS + "+", " ", s))
        s = re.sub(_WS + "+$", "", s)
    if settings["punctuation"] == "remove":
        s = re.sub(_WS + "+", " ", re.sub(r'[.,?:;!"()]', "", s))
    return _java_split(s)


# ------------------------------------------------------------------ tercom's search

def min_edit_dist(hyp: list, ref: list, beam) -> tuple[int, str]:
    """(edit distance, path of ' ', 'S', 'I', 'D') by TerScorer.MinEditDist, its beam and its
    order of operations (the module docstring)."""
    n, m = len(hyp), len(ref)
    S = [[-1] * (n + 1) for _ in range(m + 1)]
    P = [["0"] * (n + 1) for _ in range(m + 1)]
    S[0][0] = 0
    current_best, current_first_good, cur_last_good = _INF, 0, 0
    for j in range(n + 1):
        last_best, current_best = current_best, _INF
        first_good, current_first_good = current_first_good, -1
        last_good, cur_last_good = cur_last_good, -1
        i = first_good
        while i <= m:
            if i > last_good:
                break
            score = S[i][j]
            if score < 0:
                i += 1
                continue
            if beam is not None and j < n and score > last_best + beam:
                i += 1
                continue
            if current_first_good == -1:
                current_first_good = i
            if i < m and j < n:
                if ref[i] == hyp[j]:
                    cost = score
                    if S[i + 1][j + 1] == -1 or cost < S[i + 1][j + 1]:
                        S[i + 1][j + 1], P[i + 1][j + 1] = cost, " "
                    current_best = min(current_best, cost)
                else:
                    cost = score + 1
                    if S[i + 1][j + 1] < 0 or cost < S[i + 1][j + 1]:
                        S[i + 1][j + 1], P[i + 1][j + 1] = cost, "S"
                        current_best = min(current_best, cost)
            cur_last_good = i + 1
            if j < n:
                icost = score + 1
                if S[i][j + 1] < 0 or S[i][j + 1] > icost:
                    S[i][j + 1], P[i][j + 1] = icost, "I"
            if i < m:
                dcost = score + 1
                if S[i + 1][j] < 0 or S[i + 1][j] > dcost:
                    S[i + 1][j], P[i + 1][j] = dcost, "D"
                    if i >= last_good:
                        last_good = i + 1
            i += 1
    path = []
    i, j = m, n
    while i > 0 or j > 0:
        op = P[i][j]
        path.append(op)
        if op in (" ", "S"):
            i, j = i - 1, j - 1
        elif op == "D":
            i -= 1
        elif op == "I":
            j -= 1
        else:   # pragma: no cover - every cell on the path is set
            raise AssertionError(f"invalid path at ({i}, {j})")
    return S[m][n], "".join(reversed(path))


def _word_matches(hyp: list, ref: list) -> dict:
    """BuildWordMatches: reference phrases (up to MAX_SHIFT_SIZE + 1 words, each present in
    the hypothesis) -> their start positions, ascending."""
    present = set(hyp)
    out: dict = {}
    for start in range(len(ref)):
        end = start
        while end < len(ref) and end - start <= MAX_SHIFT_SIZE and ref[end] in present:
            out.setdefault(tuple(ref[start:end + 1]), []).append(start)
            end += 1
    return out


def _align_errors(path: str, n_hyp: int, n_ref: int):
    """FindAlignErr: (hypothesis errors, reference errors, reference position -> hypothesis position)."""
    herr, rerr, ralign = [False] * n_hyp, [False] * n_ref, [0] * n_ref
    h = r = -1
    for op in path:
        if op in (" ", "S"):
            h, r = h + 1, r + 1
            herr[h] = rerr[r] = op == "S"
            ralign[r] = h
        elif op == "I":
            h += 1
            herr[h] = True
        else:
            r += 1
            rerr[r] = True
            ralign[r] = h
    return herr, rerr, ralign


def _candidates(hyp: list, rloc: dict, herr, rerr, ralign, dist: int) -> list[list[tuple]]:
    """GatherAllPossShifts: shifts (start, end, newloc) by length - 1, in tercom's order."""
    out: list[list[tuple]] = [[] for _ in range(MAX_SHIFT_SIZE + 1)]
    if dist <= 0:
        return out
    for start in range(len(hyp)):
        first = rloc.get((hyp[start],))
        if first is None or not any(start != ralign[mt] and ralign[mt] - start <= dist
                                    and start - ralign[mt] - 1 <= dist for mt in first):
            continue
        ok, end = True, start
        while ok and end < len(hyp) and end < start + MAX_SHIFT_SIZE:
            cand = tuple(hyp[start:end + 1])
            ok = False
            starts = rloc.get(cand)
            if starts is None:
                end += 1
                continue
            if not any(herr[start:end + 1]):
                ok = True
                end += 1
                continue
            for moveto in starts:
                a = ralign[moveto]
                if not (a != start and (a < start or a > end) and a - start <= dist and start - a <= dist):
                    continue
                ok = True
                if not any(rerr[moveto:moveto + end - start + 1]):
                    continue
                for roff in range(-1, end - start + 1):
                    if roff == -1 and moveto == 0:
                        out[end - start].append((start, end, -1))
                    elif start != ralign[moveto + roff] and (roff == 0 or ralign[moveto + roff] != a):
                        out[end - start].append((start, end, ralign[moveto + roff]))
            end += 1
    return out


def perform_shift(words: list, start: int, end: int, newloc: int) -> list:
    """PerformShift: the block words[start..end] moved after position newloc (-1: to the front)."""
    block = words[start:end + 1]
    if newloc == -1:
        return block + words[:start] + words[end + 1:]
    if newloc < start:
        return words[:newloc + 1] + block + words[newloc + 1:start] + words[end + 1:]
    if newloc > end:
        return words[:start] + words[end + 1:newloc + 1] + block + words[newloc + 1:]
    # moving inside itself
    cut = end + (newloc - start)
    return words[:start] + words[end + 1:cut + 1] + block + words[cut + 1:]


def _best_shift(cur: list, ref: list, rloc: dict, edits: int, path: str, beam, dist: int):
    """CalcBestShift: (shifted words, their edit distance, their path), or None."""
    herr, rerr, ralign = _align_errors(path, len(cur), len(ref))
    shifts = _candidates(cur, rloc, herr, rerr, ralign, dist)
    best_cost, best = 0, (cur, edits, path)
    chosen = False
    for i in range(len(shifts) - 1, -1, -1):
        maxfix = 2 * (1 + i)
        curfix = edits - (best_cost + best[1])
        if curfix > maxfix or (best_cost != 0 and curfix == maxfix):
            break
        for start, end, newloc in shifts[i]:
            curfix = edits - (best_cost + best[1])
            if curfix > maxfix or (best_cost != 0 and curfix == maxfix):
                break
            shifted = perform_shift(cur, start, end, newloc)
            d, p = min_edit_dist(shifted, ref, beam)
            gain = (best[1] + best_cost) - (d + 1)
            if gain > 0 or (best_cost == 0 and gain == 0):
                chosen, best_cost, best = True, 1, (shifted, d, p)
    return best if chosen else None


def pair_edits(hyp: list, ref: list, settings: dict) -> int:
    """The edits of tokenized hypothesis and reference: tercom's TER(String[], String[])."""
    beam = None if settings["beam_width"] == "none" else int(settings["beam_width"])
    dist = int(settings["max_shift_distance"])
    rloc = _word_matches(hyp, ref)
    edits, path = min_edit_dist(hyp, ref, beam)
    cur, shifts = hyp, 0
    while True:
        found = _best_shift(cur, ref, rloc, edits, path, beam, dist)
        if found is None:
            break
        cur, edits, path = found
        shifts += 1
    return edits + shifts


def read(text: str, settings: dict) -> str:
    """A segment as tercom's TER(String, String) receives it: trimmed by its reader, then
    lowercased under case=insensitive."""
    text = java_trim(text)
    return text.lower() if settings["case"] == "insensitive" else text


def segment(hyp: str, refs: list, settings: dict) -> tuple[int, Fraction, int]:
    """(fewest edits, average reference length, index of the reference) of one segment."""
    hyp, refs = read(hyp, settings), [read(r, settings) for r in refs]
    best, best_i, words = None, 0, Fraction(0)
    h = tokens(hyp, settings)
    for k, ref in enumerate(refs):
        r = tokens(ref, settings)
        if not ref and not hyp:   # TERnullstr: both empty
            e, n = 0, 0
        elif not hyp:             # the reference's words deleted
            e, n = len(r), len(r)
        elif not ref:             # the hypothesis' words inserted, no reference word
            e, n = len(h), 0
        else:
            e, n = pair_edits(h, r, settings), len(r)
        words += n
        if best is None or best > e:
            best, best_i = e, k
    return best, words / len(refs), best_i


def _compute(inputs, settings) -> Result:
    hyps, refs = _check_corpus(inputs, "TER")
    total_edits, total_words, per = 0, Fraction(0), []
    for h, rs in zip(hyps, refs):
        e, w, k = segment(h, rs, settings)
        total_edits += e
        total_words += w
        per.append([e, w, k])
    stats = {"edits": total_edits, "reference_words": total_words, "segments": per}
    if total_words == 0:
        if settings["zero_reference"] == "undefined":
            return Result(Undefined("no reference word: edits over 0 words"), stats=stats)
        value = Fraction(1 if total_edits else 0)
    else:
        value = total_edits / total_words
    return Result(value * (100 if settings["scale"] == "percent" else 1), stats=stats)


TER = Metric(
    name="ter", family="ter", sig_name="TER",
    summary="Translation edit rate: tercom's edits (with block shifts) over the average reference length",
    knobs=_knobs(), compute_fn=_compute,
    inputs={"hypotheses": "list of hypothesis strings, one per segment",
            "references": "references[i]: the list (>= 1) of reference strings of hypotheses[i]"})
