"""jiwer (jitsi/jiwer): ``wer``, ``mer``, ``wil``, ``wip``, ``cer`` and
``process_words`` mapped onto the oracle's error rates.

| metric | call |
| --- | --- |
| ``wer``, ``mer``, ``wil``, ``wip`` | ``jiwer.process_words(references, hypotheses, t, t)`` and its ``.wer`` ... (the measures in ``jiwer.measures`` read the same fields) |
| ``cer`` | ``jiwer.process_characters(references, hypotheses, t, t).cer`` |
| ``error_counts`` | ``process_words(...)``: ``{hits, substitutions, deletions, insertions}`` |

The transform ``t`` is jiwer's own default (``wer_default``, ``cer_default``)
under the library's profile, else a ``jiwer.Compose`` built from the knobs, in
the oracle's preprocessing order:

- ``case=lower``: ``ToLowerCase`` (``str.lower()``);
- ``punctuation=remove``: ``RemovePunctuation``, which deletes every code point
  whose general category starts with P (transforms.py:409-415): the oracle's
  definition, character for character (same ``unicodedata``);
- ``tokenize``: ``jiwer`` -> ``RemoveMultipleSpaces`` (``re.sub(r"\\s\\s+", " ")``),
  ``Strip``, ``ReduceToListOfListOfWords`` (``split(" ")``, empty strings
  dropped): exactly ``wer_default``; ``spaces`` -> ``ReduceToListOfListOfWords``
  alone; ``whitespace`` -> ``SubstituteRegexes({r"\\s+": " "})`` first (Python
  ``re``'s ``\\s`` is ``str.isspace()`` for every code point, so this is
  ``str.split()``);
- ``whitespace`` (characters): ``strip`` -> ``Strip`` (``cer_default``),
  ``keep`` -> nothing, ``collapse`` -> ``SubstituteRegexes({r"\\s+": " "})``,
  ``Strip``, ``remove`` -> ``SubstituteRegexes({r"\\s+": ""})`` (jiwer's
  ``RemoveWhiteSpace`` only knows ``string.whitespace``, the ASCII six);
- ``unit=codepoint``: ``ReduceToListOfListOfChars`` iterates code points.
  No transform forms grapheme clusters or normalizes: ``grapheme`` and
  ``nfc-codepoint`` are not offered.

Fixed: corpus aggregation (summed counts, process.py:247-256; there is no
mean of utterance rates), the empty-reference rule of process.py:233-244
(``empty_reference=insertions``: WER = I when the corpus has no reference
word, MER 1 and WIP 0, or MER 0 and WIP 1 when neither side has one; an
empty corpus is ``[[]]``, one empty utterance, ReduceToListOfListOf*
.process_list; the docstring's "Raises: ValueError: If one or more
references are empty strings" no longer holds), and the alignment:
``rapidfuzz.distance.Levenshtein.opcodes`` (process.py:192). The profile's
tie rule is the canonical ``tie=any`` (every minimum-cost alignment is
admissible): which of several equal-cost alignments rapidfuzz returns is not
documented, so it is no convention; ``tie=rapidfuzz`` (the full-matrix
backtrace) is offered as a setting, and past 2048 x 2048 tokens rapidfuzz
leaves it by Hirschberg's split (``hirschberg_applies``), still at minimum cost.

Word tokenization: the profile is ``tokenize=whitespace``, what jiwer's README
describes; ``wer_default`` glues two words around a lone tab or no-break space
(known failure ``single-whitespace-glues-words``; the oracle's
``tokenize=jiwer`` reproduces it for audits of published numbers).

``empty_reference`` ``undefined`` and ``error`` are offered beside jiwer's
``insertions``: they differ from it only where a denominator is zero (no
reference word in the corpus; for MER/WIL/WIP no word on either side) or a
reference is empty (which ``error`` refuses in the oracle, before the
library is called). On those inputs the adapter raises ``Skip`` naming
jiwer's rule; everywhere else the library computes the setting exactly.

The library's statistics are its counts (hits, substitutions, deletions,
insertions; errors = S + D + I) and the token totals of its processed
sentences; ``alignment_ops`` turns its alignment chunks into the oracle's
``[op, reference token, hypothesis token]`` lists.

Releases 2.2 to 4.x. Before 3.0 (``_MEASURES``) there is no ``process_words``:
the word measures and counts come from ``compute_measures(truth, hypothesis,
truth_transform, hypothesis_transform)``, CER from ``cer(..., return_dict=True)``
(added in 2.3.0, commit 187575c); 2.2's transforms end in
``SentencesToListOfWords`` and ``RemoveEmptyStrings``, which concatenate the
sentences into one word list (the era's ``aggregate=contiguous``; that it also
takes unequal numbers of sentences is known failure ``sentences-concatenated``), and it
aligns with python-Levenshtein, not rapidfuzz (no ``tie=rapidfuzz``). Before 4.0
an empty reference raises ValueError: the profile's ``empty_reference=error``
(4.0.0, commit 9aada1e, 'allow empty references (#108)').
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import Adapter, Era, LibraryOutput, Skip
from oracle.compare import Tolerance

_WORD = {"tokenize": ("jiwer", "spaces", "whitespace"), "case": ("mixed", "lower"),
         "punctuation": ("keep", "remove"), "tie": ("rapidfuzz", "any")}
# jiwer 4 has one rule for an empty reference (process.py:233-244), no option: it cannot be
# set to the canonical undefined nor to refusing, so neither is offered (a setting offered
# is a setting judged; cases written under them meet jiwer's rule as a divergence)
_EMPTY = ("insertions",)
_WORD_RATE = dict(_WORD, aggregate=("corpus",), empty_reference=_EMPTY)
_CHAR = {"case": ("mixed", "lower"), "punctuation": ("keep", "remove"),
         "whitespace": ("strip", "keep", "collapse", "remove"), "unit": ("codepoint",),
         "aggregate": ("corpus",), "empty_reference": _EMPTY, "tie": ("rapidfuzz", "any")}

# wer_default (RemoveMultipleSpaces, Strip, ReduceToListOfListOfWords), mixed case, punctuation
# kept. The README documents the default as words separated by whitespace, runs of it removed:
# tokenize=whitespace. That a single tab or no-break space glues two words (``\s\s+`` only
# collapses runs of two or more) is no documented convention: known failure
# ``single-whitespace-glues-words`` (the oracle's tokenize=jiwer models it, for audits).
# Any minimum-cost alignment is admissible: the tie rule rapidfuzz happens to take is not a
# documented convention either, so the profile is the canonical tie=any.
_WORD_PROFILE = {"tokenize": "whitespace", "case": "mixed", "punctuation": "keep", "tie": "any"}
_RATE_PROFILE = dict(_WORD_PROFILE, aggregate="corpus", empty_reference="insertions")
# cer_default: Strip, ReduceToListOfListOfChars
_CHAR_PROFILE = {"case": "mixed", "punctuation": "keep", "whitespace": "strip", "unit": "codepoint",
                 "aggregate": "corpus", "empty_reference": "insertions", "tie": "any"}

_SOURCES = {
    "tokenize": "jiwer README (4.0), 'transformations': wer_default splits words on whitespace and removes "
                "multiple spaces (jiwer/transformations.py:47-53)",
    "tie": "canonical: any minimum-cost alignment; jiwer documents rapidfuzz's Levenshtein, not its tie-break",
    "case": "jiwer/transformations.py:40-46 wer_default = Compose([RemoveMultipleSpaces(), Strip(), "
            "ReduceToListOfListOfWords()]) and :106 cer_default: no ToLowerCase, words compared as given",
    "unit": "jiwer/transformations.py:106 cer_default ends in ReduceToListOfListOfChars: list(s), code points",
    "empty_reference": "jiwer README 4.0, 'A note on empty references': an empty reference counts the "
                       "hypothesis words as insertions (process.py:233-244)",
    "whitespace": "cer_default = Compose([Strip(), ReduceToListOfListOfChars()]) (transformations.py)",
    "aggregate": "process_words sums the counts over the sentences (process.py:247-256)",
}

_COUNTS = ("hits", "substitutions", "deletions", "insertions")

_MEASURES = "<3.0.0"       # compute_measures, no process_words
_CONCATENATES = "<2.3.0"   # SentencesToListOfWords: one word list for the corpus, no cer
_REFUSES_EMPTY = "<4.0.0"  # an empty reference raises ValueError
_CONTIGUOUS_SOURCE = ("jiwer 2.2.0 measures.py:46-53 _default_transform ends in SentencesToListOfWords, and "
                      "_preprocess: '# Apply transforms. By default, it collapses input to a list of words' "
                      "(measures.py:233-235): the corpus is aligned as one word sequence; 2.3.0 aligns each "
                      "sentence (commit 187575c, 'default transformation is invariant to permutations #48')")
_EMPTY_SOURCE = ("jiwer before 4.0 raises ValueError on an empty reference: 3.1.0 process.py 'one or more "
                 "references are empty strings', 2.5.2 measures.py:176-177 'one or more groundtruths are empty "
                 "strings', 2.2.0 measures.py:243-244 'the ground truth cannot be an empty'; 4.0.0 allows them "
                 "(commit 9aada1e, 'allow empty references (#108)')")


def _in(spec: str) -> bool:
    from conformance.versions import in_range
    import importlib.metadata
    try:
        return in_range(importlib.metadata.version("jiwer"), spec)
    except importlib.metadata.PackageNotFoundError:
        return False


def word_transform(settings: Mapping[str, str]):
    """The jiwer transform that reproduces the word knobs (``wer_default`` under the profile).
    jiwer 2.2 has ``_default_transform`` (RemoveMultipleSpaces, Strip, SentencesToListOfWords,
    RemoveEmptyStrings; measures.py:46-53), and its knob steps end in those last two."""
    import jiwer
    if _in(_CONCATENATES):
        from jiwer.measures import _default_transform as default
        last = [jiwer.SentencesToListOfWords(), jiwer.RemoveEmptyStrings()]
    else:
        from jiwer.transformations import wer_default as default
        last = [jiwer.ReduceToListOfListOfWords()]

    if settings["tokenize"] in ("jiwer", "whitespace") and settings["case"] == "mixed" \
            and settings["punctuation"] == "keep":
        # the library's default, which its README calls whitespace tokenization (and which the
        # oracle's tokenize=jiwer reproduces, single tabs and no-break spaces included)
        return default
    steps = _text_steps(settings)
    tok = settings["tokenize"]
    if tok == "jiwer":
        steps += [jiwer.RemoveMultipleSpaces(), jiwer.Strip()]
    elif tok == "whitespace":
        steps.append(jiwer.SubstituteRegexes({r"\s+": " "}))
    return jiwer.Compose(steps + last)


def char_transform(settings: Mapping[str, str]):
    """The jiwer transform that reproduces the character knobs (``cer_default`` under the profile)."""
    import jiwer
    import jiwer.transforms as tr
    try:
        from jiwer.transformations import cer_default
    except ImportError:   # 2.3-2.6
        from jiwer.transformations import cer_default_transform as cer_default

    if settings["whitespace"] == "strip" and settings["case"] == "mixed" and settings["punctuation"] == "keep":
        return cer_default
    steps = _text_steps(settings)
    ws = settings["whitespace"]
    if ws == "strip":
        steps.append(jiwer.Strip())
    elif ws == "collapse":
        steps += [jiwer.SubstituteRegexes({r"\s+": " "}), jiwer.Strip()]
    elif ws == "remove":
        steps.append(jiwer.SubstituteRegexes({r"\s+": ""}))
    steps.append(tr.ReduceToListOfListOfChars())
    return jiwer.Compose(steps)


def _text_steps(settings) -> list:
    import jiwer

    steps = []
    if settings["case"] == "lower":
        steps.append(jiwer.ToLowerCase())
    if settings["punctuation"] == "remove":
        steps.append(jiwer.RemovePunctuation())
    return steps


def alignment_ops(output) -> list[list[list]]:
    """jiwer's alignment chunks as the oracle's per-utterance ``[op, ref, hyp]`` lists
    (op C hit, S substitution, D deletion, I insertion)."""
    out = []
    for ref, hyp, chunks in zip(output.references, output.hypotheses, output.alignments):
        ops = []
        for c in chunks:
            if c.type in ("equal", "substitute"):
                kind = "C" if c.type == "equal" else "S"
                for i, j in zip(range(c.ref_start_idx, c.ref_end_idx), range(c.hyp_start_idx, c.hyp_end_idx)):
                    ops.append([kind, ref[i], hyp[j]])
            elif c.type == "delete":
                ops += [["D", ref[i], None] for i in range(c.ref_start_idx, c.ref_end_idx)]
            else:
                ops += [["I", None, hyp[j]] for j in range(c.hyp_start_idx, c.hyp_end_idx)]
        out.append(ops)
    return out


def _lists(inputs: Mapping) -> tuple[list, list]:
    refs, hyps = inputs.get("references"), inputs.get("hypotheses")
    if not isinstance(refs, list) or not isinstance(hyps, list):
        raise Skip("jiwer takes lists of strings")
    return refs, hyps


class JiWER(Adapter):
    name = "jiwer"
    # the exceptions its own code refuses an input with: process.py: 'one or more references are empty strings' and the type checks raise ValueError and TypeError
    refusals = {"*": ("ValueError", "TypeError")}
    library = "jiwer"
    import_name = "jiwer"
    homepage = "https://github.com/jitsi/jiwer"
    issues = "https://github.com/jitsi/jiwer/issues"
    versions = ">=2.2.0,<5"
    matrix_versions = ("2.2.0", "2.5.2", "3.0.0", "4.0.0")
    eras = (Era(_REFUSES_EMPTY, {"*": {"empty_reference": "error"}}, {"empty_reference": _EMPTY_SOURCE}),
            Era(_CONCATENATES, {"*": {"aggregate": "contiguous"}}, {"aggregate": _CONTIGUOUS_SOURCE}))
    capabilities = {"wer": dict(_WORD_RATE), "mer": dict(_WORD_RATE), "wil": dict(_WORD_RATE),
                    "wip": dict(_WORD_RATE), "cer": dict(_CHAR), "error_counts": dict(_WORD)}
    profiles = {"wer": dict(_RATE_PROFILE), "mer": dict(_RATE_PROFILE), "wil": dict(_RATE_PROFILE),
                "wip": dict(_RATE_PROFILE), "cer": dict(_CHAR_PROFILE), "error_counts": dict(_WORD_PROFILE)}
    statistics = ("wer", "mer", "wil", "wip", "cer", "error_counts")
    profile_sources = {"*": _SOURCES}
    # float64. WER, CER and MER are one division of integers below 2**53 (process.py:247-248),
    # correctly rounded: the double nearest the exact value; the counts are ints. WIP is
    # (H/N)*(H/P) (process.py:252): three roundings, relative error below 3 * 2**-53, which is
    # 3 ULPs just below a power of two, 4 counted from the double nearest the exact value. WIL = 1 - WIP (process.py:256) carries WIP's
    # absolute error (below 3 * 2**-53) plus one rounding: |error| < 2**-51, which near 0 is
    # many ULPs of WIL, hence the absolute bound.
    tolerances = {
        "wer": Tolerance(), "cer": Tolerance(), "mer": Tolerance(), "error_counts": Tolerance(),
        "wip": Tolerance(ulps=4),
        "wil": Tolerance(ulps=4, abs=Fraction(1, 2 ** 51)),
    }

    def __init__(self):
        if not _in(_REFUSES_EMPTY):
            return
        # before 4.0 an empty reference raises ValueError: only empty_reference=error
        caps = {m: dict(c, empty_reference=("error",)) if "empty_reference" in c else dict(c)
                for m, c in self.capabilities.items()}
        if _in(_MEASURES):   # no alignment output to read a tie rule from
            caps = {m: dict(c, tie=("any",)) for m, c in caps.items()}
        if _in(_CONCATENATES):
            caps.pop("cer", None)
            # the corpus is one word sequence: aggregate=contiguous only (the era's profile)
            caps = {m: dict(c, aggregate=("contiguous",)) for m, c in caps.items()}
        self.capabilities = caps

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        t = char_transform(settings) if metric == "cer" else word_transform(settings)
        return {"transform": t, "empty_reference": settings.get("empty_reference", "insertions")}

    def process(self, metric: str, options: Mapping, inputs: Mapping):
        """jiwer's ``process_words`` / ``process_characters`` output for ``inputs``."""
        import jiwer

        refs, hyps = _lists(inputs)
        fn = jiwer.process_characters if metric == "cer" else jiwer.process_words
        t = options["transform"]
        return fn(refs, hyps, reference_transform=t, hypothesis_transform=t)

    def _call_measures(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        """Before 3.0: ``compute_measures`` (the word measures and counts) or ``cer(...,
        return_dict=True)``; the token totals from the transform itself."""
        import jiwer
        refs, hyps = _lists(inputs)
        t = options["transform"]
        if metric == "cer":
            out = jiwer.cer(refs, hyps, truth_transform=t, hypothesis_transform=t, return_dict=True)
        else:
            out = jiwer.compute_measures(refs, hyps, truth_transform=t, hypothesis_transform=t)
        counts = {k: int(out[k]) for k in _COUNTS}
        tr, th = t(list(refs)), t(list(hyps))
        n = len(tr) if _in(_CONCATENATES) else sum(map(len, tr))
        p = len(th) if _in(_CONCATENATES) else sum(map(len, th))
        stats = {"reference_length": n, "hypothesis_length": p,
                 "errors": counts["substitutions"] + counts["deletions"] + counts["insertions"], **counts}
        value = dict(counts) if metric == "error_counts" else out[metric]
        return LibraryOutput(value=value, stats=stats, raw=out)

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        if _in(_MEASURES):
            return self._call_measures(metric, options, inputs)
        out = self.process(metric, options, inputs)
        counts = {"hits": out.hits, "substitutions": out.substitutions, "deletions": out.deletions,
                  "insertions": out.insertions}
        stats = {"reference_length": sum(map(len, out.references)),
                 "hypothesis_length": sum(map(len, out.hypotheses)),
                 "errors": out.substitutions + out.deletions + out.insertions, **counts}
        if metric == "error_counts":
            value = dict(counts)
        else:
            value = getattr(out, metric)
        return LibraryOutput(value=value, stats=stats, raw=out)

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``jiwer.wer(reference, hypothesis)`` (and mer, wil, wip, cer) with the lists and no
        transform; the counts from ``process_words(reference, hypothesis)`` (3.0 on) or
        ``compute_measures(truth, hypothesis)`` (before)."""
        import jiwer
        refs, hyps = _lists(inputs)
        if metric == "error_counts":
            if _in(_MEASURES):
                out = jiwer.compute_measures(refs, hyps)
                return LibraryOutput(value={k: int(out[k]) for k in _COUNTS}, raw=out)
            out = jiwer.process_words(refs, hyps)
            return LibraryOutput(value={"hits": out.hits, "substitutions": out.substitutions,
                                        "deletions": out.deletions, "insertions": out.insertions}, raw=out)
        if not hasattr(jiwer, metric):
            raise Skip(f"jiwer {self.version()} has no {metric} function")
        return LibraryOutput(value=getattr(jiwer, metric)(refs, hyps))

    def defect_classifiers(self) -> dict:
        return {"rapidfuzz-hirschberg-split": self._hirschberg_split,
                "single-whitespace-glues-words": _single_whitespace_glues,
                "sentences-concatenated": _sentences_concatenated}

    def defect_models(self) -> dict:
        """The library's value each defect predicts: under tokenize=whitespace, the oracle
        with tokenize=jiwer (``\\s\\s+`` collapsed, then ``split(" ")``)."""
        return {"single-whitespace-glues-words": _glued_model,
                "sentences-concatenated": _concatenated_model}

    def _hirschberg_split(self, metric, settings, inputs) -> bool:
        """rapidfuzz's editops leave the full-matrix backtrace that ``tie=rapidfuzz`` models
        for Hirschberg's divide and conquer when, after the common prefix and suffix, the
        reference has at least 65 tokens, the hypothesis at least 10 and 2 * n * m / 8 (the
        bit matrix, in bytes) reaches 1024 * 1024 (Levenshtein_impl.hpp,
        levenshtein_align_hirschberg; the Python wrapper passes score_hint = SIZE_MAX, so the
        band is the whole reference). Applies: tie=rapidfuzz, some utterance (as jiwer
        tokenizes it) past that threshold whose jiwer alignment still has minimum cost, and
        every other utterance aligned exactly as the oracle's rapidfuzz rule aligns it."""
        if settings.get("tie") != "rapidfuzz":
            return False
        from oracle.alignment import Band, backtrace, levenshtein

        out = self.process(metric, self.options(metric, settings), inputs)
        split = False
        for ref, hyp, ops in zip(out.references, out.hypotheses, alignment_ops(out)):
            d = levenshtein(ref, hyp)
            if hirschberg_applies(ref, hyp):
                split = True
                if sum(op[0] != "C" for op in ops) != d:
                    return False
            elif ops != [list(o) for o in backtrace(Band(ref, hyp, d), "rapidfuzz")]:
                return False
        return split


def _single_whitespace_glues(metric, settings, inputs) -> bool:
    """``RemoveMultipleSpaces`` is ``re.sub(r"\\s\\s+", " ", s)`` (transforms.py:458) and the
    split is ``s.split(" ")`` (transforms.py:179): a lone whitespace character other than
    U+0020 (a tab, a no-break space, U+3000...) separates nothing, so the words on either
    side are read as one. Applies: tokenize=whitespace and a text holding a whitespace
    character other than a space that is not next to another whitespace character."""
    import re
    if settings.get("tokenize") != "whitespace" or metric == "cer":
        return False
    refs, hyps = _lists(inputs)
    lone = re.compile(r"(?<!\s)[^\S ](?!\s)")
    return any(lone.search(t) for t in list(refs) + list(hyps))


def _sentences_concatenated(metric, settings, inputs) -> bool:
    """jiwer 2.2's transforms end in ``SentencesToListOfWords``, whose ``process_list`` joins
    the words of every sentence into one list (transforms.py:111-117): the era's
    aggregate=contiguous. Unequal numbers of reference and hypothesis sentences then pass
    unnoticed, where a corpus pairs them one to one (the spec refuses). Applies: before
    2.3.0, lists of unequal lengths."""
    if not _in(_CONCATENATES) or metric == "cer":
        return False
    refs, hyps = _lists(inputs)
    return len(refs) != len(hyps)


def _concatenated_model(metric, settings, inputs):
    """The oracle on the corpus joined into one reference and one hypothesis, split as 2.2's
    transform splits (``tokenize=jiwer``: it glues words around a lone tab too)."""
    from oracle.registry import compute
    refs, hyps = _lists(inputs)
    joined = {"references": [" ".join(refs)], "hypotheses": [" ".join(hyps)]}
    tok = "jiwer" if settings.get("tokenize") == "whitespace" else settings.get("tokenize")
    return compute(metric, joined, {**settings, "tokenize": tok}).value


def _glued_model(metric, settings, inputs):
    from oracle.registry import compute
    return compute(metric, inputs, {**settings, "tokenize": "jiwer"}).value


def hirschberg_applies(ref: list, hyp: list) -> bool:
    """Whether ``rapidfuzz.distance.Levenshtein.opcodes(ref, hyp)`` aligns by Hirschberg's
    split at the top level (Levenshtein_impl.hpp: remove_common_affix, then
    ``matrix_size = 2 * full_band * s2.size() / 8``; the full matrix when
    ``matrix_size < 1024 * 1024 || s1.size() < 65 || s2.size() < 10``)."""
    n, m = len(ref), len(hyp)
    pre = 0
    while pre < min(n, m) and ref[pre] == hyp[pre]:
        pre += 1
    suf = 0
    while suf < min(n, m) - pre and ref[n - 1 - suf] == hyp[m - 1 - suf]:
        suf += 1
    n, m = n - pre - suf, m - pre - suf
    return n >= 65 and m >= 10 and (2 * n * m) // 8 >= 1024 * 1024
