"""VQA accuracy under the multi-annotator conventions, exactly.

Inputs: ``{"predictions": [str, ...], "answers": [[str, ...], ...]}``: question
i has one predicted answer and the answers of its n_i human annotators (ten
in VQA v1/v2 and VizWiz).

Let M_i be the number of annotators whose answer equals the prediction (after
the answer processing below). The accuracy of question i is
- ``official`` (default; the VQA evaluation ``vqaEval.py`` of GT-Vision-Lab/VQA,
  ``evaluate()``): the mean over the n_i leave-one-out subsets of n_i - 1
  annotators of min(#matches in the subset / 3, 1). Leaving out annotator j
  leaves M_i - [a_j == p] matches, so
  acc_i = (M_i * min((M_i - 1)/3, 1) + (n_i - M_i) * min(M_i/3, 1)) / n_i;
  with ten annotators: 0, 3/10, 3/5, 9/10, 1 for M = 0, 1, 2, 3, >= 4.
- ``at-least-3``: min(M_i/3, 1) over all annotators, the shorthand of Antol
  et al. 2015 (ICCV), "Acc(ans) = min{#humans that said ans / 3, 1}";
- ``binary-3``: 1 if M_i >= 3 else 0, as the prose of source document 001
  words it ("dihitung benar bila disetujui minimal tiga dari sepuluh anotator");
- ``majority``: 1 if 2*M_i >= n_i (with ten annotators: at least 5, the
  document's ``n_cocok >= 5``), else 0;
- ``any``: 1 if M_i >= 1 (the document's ``n_cocok >= 1``), else 0.
The value is the mean over questions, a Fraction (the script prints 100
times it rounded to 2 places).

Answer processing (``normalization`` official) is the script's, character
for character: ``processPunctuation`` (each of ; / [ ] " { } ( ) = + \\ _ - > <
@ ` , ? ! is deleted when it is next to a space in the original text or the
text holds a digit-comma-digit, else replaced by a space; then every period
not followed by a digit is deleted, at most 32 of them, because the script
passes ``re.UNICODE`` (= 32) positionally as ``re.sub``'s count) and
``processDigitArticle`` (lowercase, split on whitespace, number words none and
zero..ten to digits, articles a/an/the dropped, then the script's contraction
table, joined by single spaces).

Where it is applied (``normalize_side``):
- ``official-2021`` (default), as ``evaluate()`` does it since the commit
  a013f00 of 2021-03-11 ("Fixed processing answers bug", the script's current
  master): the prediction and every human answer get newline and tab -> space
  and ``strip()``; then, only when the human answers are not all identical
  (``if len(set(gtAnswers)) > 1``, after the strip), both the answers and the
  prediction get processPunctuation and processDigitArticle. Unanimous answers
  are compared with the prediction as they are (``Two`` against ten ``2``: 0);
- ``official-2016``, as ``evaluate()`` did it from the v2.0 release (2016)
  until that commit: the prediction gets newline and tab -> space, ``strip()``,
  processPunctuation, processDigitArticle; the human answers get
  processPunctuation only, and only when they are not all identical. Human
  answers are thus not lowercased nor stripped of articles (``Two`` against
  ten ``2``: 1; ``yes`` against nine ``Yes`` and a ``no``: 0). Papers
  evaluated before March 2021 used it;
- ``both``: the prediction's full processing applied to the answers too (as
  re-implementations that run one answer processor on every string do);
- ``prediction``: the prediction's full processing, answers compared raw;
- ``answers``: the full processing on the answers, the prediction raw.
With ``normalization`` none, strings are compared as given and the side is "-".

Leave-one-out subsets are taken by position: two annotators who gave the same
answer are two annotators (the script compares answer dicts, which differ by
``answer_id``).

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/vqa.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

import re
from fractions import Fraction

from .conventions import InputError, Knob, Metric, Result
from .exact import Undefined
from .input_checks import parallel_lists, string_lists, strings

_VQA_EVAL = "GT-Vision-Lab/VQA PythonEvaluationTools/vqaEvaluation/vqaEval.py"
_DOC = "source document 001_e6f299f74aa61acb.txt part 2, skor_vqa()"

RULE = Knob(
    "rule", "how the annotators who gave the predicted answer turn into a question's accuracy", "official",
    choices=("official", "at-least-3", "binary-3", "majority", "any"),
    sources={"official": f"{_VQA_EVAL} evaluate(): mean over the leave-one-out subsets of "
                         "min(1, #matching other annotators / 3)",
             "at-least-3": "Antol et al. 2015, VQA: Visual Question Answering (ICCV), sec. 2: "
                           "Acc(ans) = min{#humans that said ans / 3, 1}",
             "binary-3": "source document 001 prose: correct when at least 3 of 10 annotators agree",
             "majority": f"{_DOC}, ketat: n_cocok >= 5 (of 10); at least half for other n",
             "any": f"{_DOC}, longgar: n_cocok >= 1"})
NORMALIZATION = Knob(
    "normalization", "answer processing before comparing", "official",
    choices=("official", "none"),
    sources={"official": f"{_VQA_EVAL} processPunctuation() and processDigitArticle()",
             "none": "strings compared as given"},
    key="norm")
SIDE = Knob(
    "normalize_side", "which strings the answer processing is applied to", "official-2021",
    choices=("official-2021", "official-2016", "both", "prediction", "answers"),
    sources={"official-2021": f"{_VQA_EVAL} evaluate() at a013f00 (2021-03-11, 'Fixed processing answers "
                              "bug'): everything stripped; when the answers are not all identical, answers "
                              "and prediction fully processed, else neither",
             "official-2016": f"{_VQA_EVAL} evaluate() at a4f1afd (v2.0, 2016) until a013f00: prediction fully "
                              "processed; human answers only processPunctuation'd, and only when they are not "
                              "all identical",
             "both": "full processing of prediction and answers",
             "prediction": "full processing of the prediction only",
             "answers": "full processing of the answers only"},
    key="side", special=("-",), renamed={"official": "official-2016"})   # renamed in commit 37b6a93

# vqaEval.py, VQAEval.__init__ (the same in the v2.0 release and at a013f00, the current master)
_PUNCT = (";", "/", "[", "]", '"', "{", "}", "(", ")", "=", "+", "\\", "_", "-", ">", "<", "@", "`",
          ",", "?", "!")
_COMMA_STRIP = re.compile(r"(\d)(,)(\d)")
_PERIOD_STRIP = re.compile(r"(?!<=\d)(\.)(?!\d)")  # the script's pattern: a lookahead, not a lookbehind
_PERIOD_COUNT = int(re.UNICODE)  # passed positionally as re.sub's count by the script
_MANUAL_MAP = {"none": "0", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
               "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}
_ARTICLES = ("a", "an", "the")
_CONTRACTIONS = {
    "aint": "ain't", "arent": "aren't", "cant": "can't", "couldve": "could've", "couldnt": "couldn't",
    "couldn'tve": "couldn't've", "couldnt've": "couldn't've", "didnt": "didn't", "doesnt": "doesn't",
    "dont": "don't", "hadnt": "hadn't", "hadnt've": "hadn't've", "hadn'tve": "hadn't've", "hasnt": "hasn't",
    "havent": "haven't", "hed": "he'd", "hed've": "he'd've", "he'dve": "he'd've", "hes": "he's",
    "howd": "how'd", "howll": "how'll", "hows": "how's", "Id've": "I'd've", "I'dve": "I'd've", "Im": "I'm",
    "Ive": "I've", "isnt": "isn't", "itd": "it'd", "itd've": "it'd've", "it'dve": "it'd've", "itll": "it'll",
    "let's": "let's", "maam": "ma'am", "mightnt": "mightn't", "mightnt've": "mightn't've",
    "mightn'tve": "mightn't've", "mightve": "might've", "mustnt": "mustn't", "mustve": "must've",
    "neednt": "needn't", "notve": "not've", "oclock": "o'clock", "oughtnt": "oughtn't",
    "ow's'at": "'ow's'at", "'ows'at": "'ow's'at", "'ow'sat": "'ow's'at", "shant": "shan't",
    "shed've": "she'd've", "she'dve": "she'd've", "she's": "she's", "shouldve": "should've",
    "shouldnt": "shouldn't", "shouldnt've": "shouldn't've", "shouldn'tve": "shouldn't've",
    "somebody'd": "somebodyd", "somebodyd've": "somebody'd've", "somebody'dve": "somebody'd've",
    "somebodyll": "somebody'll", "somebodys": "somebody's", "someoned": "someone'd",
    "someoned've": "someone'd've", "someone'dve": "someone'd've", "someonell": "someone'll",
    "someones": "someone's", "somethingd": "something'd", "somethingd've": "something'd've",
    "something'dve": "something'd've", "somethingll": "something'll", "thats": "that's", "thered": "there'd",
    "thered've": "there'd've", "there'dve": "there'd've", "therere": "there're", "theres": "there's",
    "theyd": "they'd", "theyd've": "they'd've", "they'dve": "they'd've", "theyll": "they'll",
    "theyre": "they're", "theyve": "they've", "twas": "'twas", "wasnt": "wasn't", "wed've": "we'd've",
    "we'dve": "we'd've", "weve": "we've", "werent": "weren't", "whatll": "what'll", "whatre": "what're",
    "whats": "what's", "whatve": "what've", "whens": "when's", "whered": "where'd", "wheres": "where's",
    "whereve": "where've", "whod": "who'd", "whod've": "who'd've", "who'dve": "who'd've", "wholl": "who'll",
    "whos": "who's", "whove": "who've", "whyll": "why'll", "whyre": "why're", "whys": "why's",
    "wont": "won't", "wouldve": "would've", "wouldnt": "wouldn't", "wouldnt've": "wouldn't've",
    "wouldn'tve": "wouldn't've", "yall": "y'all", "yall'll": "y'all'll", "y'allll": "y'all'll",
    "yall'd've": "y'all'd've", "y'alld've": "y'all'd've", "y'all'dve": "y'all'd've", "youd": "you'd",
    "youd've": "you'd've", "you'dve": "you'd've", "youll": "you'll", "youre": "you're", "youve": "you've"}


def process_punctuation(text: str) -> str:
    """vqaEval.py ``processPunctuation``: the tests look at the original text, the
    replacements act on the running output; then periods not followed by a digit go
    (at most 32)."""
    out = text
    comma_digits = _COMMA_STRIP.search(text) is not None
    for p in _PUNCT:
        if (p + " " in text or " " + p in text) or comma_digits:
            out = out.replace(p, "")
        else:
            out = out.replace(p, " ")
    return _PERIOD_STRIP.sub("", out, count=_PERIOD_COUNT)


def process_digit_article(text: str) -> str:
    """vqaEval.py ``processDigitArticle``: lowercase, number words to digits,
    articles dropped, contractions table, single spaces."""
    words = []
    for w in text.lower().split():
        w = _MANUAL_MAP.get(w, w)
        if w not in _ARTICLES:
            words.append(w)
    return " ".join(_CONTRACTIONS.get(w, w) for w in words)


def _stripped(text: str) -> str:
    """``evaluate()``'s first step: newline and tab to spaces, ``strip()``."""
    return text.replace("\n", " ").replace("\t", " ").strip()


def _full(text: str) -> str:
    return process_digit_article(process_punctuation(text))


def process_answer(text: str) -> str:
    """The prediction's full processing in ``evaluate()``: newline and tab to
    spaces, strip, processPunctuation, processDigitArticle."""
    return _full(_stripped(text))


def question_accuracy(matches: int, n: int, rule: str) -> Fraction:
    """The accuracy of one question with ``matches`` of ``n`` annotators agreeing."""
    if rule == "official":
        with_match = min(Fraction(matches - 1, 3), Fraction(1)) if matches else Fraction(0)
        without = min(Fraction(matches, 3), Fraction(1))
        return (matches * with_match + (n - matches) * without) / n
    if rule == "at-least-3":
        return min(Fraction(matches, 3), Fraction(1))
    if rule == "binary-3":
        return Fraction(int(matches >= 3))
    if rule == "majority":
        return Fraction(int(2 * matches >= n))
    return Fraction(int(matches >= 1))


def _check_inputs(inputs) -> tuple[list, list]:
    preds, answers = parallel_lists(inputs, ("predictions", "answers"), "predictions")
    strings(preds, "predictions")
    string_lists(answers, "answers", "a list of human answers", empty="no human answers")
    return preds, answers


def processed(pred: str, golds: list, settings: dict) -> tuple[str, list]:
    """The prediction and the human answers as compared under the settings."""
    if settings["normalization"] == "none":
        return pred, list(golds)
    side = settings["normalize_side"]
    if side == "official-2021":
        pred, golds = _stripped(pred), [_stripped(g) for g in golds]
        if len(set(golds)) > 1:
            return _full(pred), [_full(g) for g in golds]
        return pred, golds
    if side == "official-2016":
        golds = [process_punctuation(g) for g in golds] if len(set(golds)) > 1 else list(golds)
        return process_answer(pred), golds
    p = process_answer(pred) if side in ("both", "prediction") else pred
    gs = [process_answer(g) for g in golds] if side in ("both", "answers") else list(golds)
    return p, gs


def compute_vqa_accuracy(inputs, settings: dict) -> Result:
    """Mean over questions of the per-question accuracy under ``rule`` (see the module docstring)."""
    preds, answers = _check_inputs(inputs)
    rule = settings["rule"]
    scores, matches, counts, normalized = [], [], [], []
    for i, (pred, golds) in enumerate(zip(preds, answers)):
        if rule == "official" and len(golds) < 2:
            raise InputError(f"answers[{i}]: the official rule needs at least 2 annotators "
                             f"(it scores against the others of each annotator); got {len(golds)}",
                             item=f"answers[{i}]")
        p, gs = processed(pred, golds, settings)
        m = sum(1 for g in gs if g == p)
        matches.append(m)
        counts.append(len(gs))
        normalized.append(p)
        scores.append(question_accuracy(m, len(gs), rule))
    value = sum(scores, Fraction(0)) / len(scores) if scores else Undefined("no questions")
    return Result(value, stats={"matches": matches, "annotators": counts, "questions": len(scores)},
                  parts={"question_accuracy": scores, "normalized_predictions": normalized})


def _normalize(settings: dict, given: set) -> dict:
    if settings["normalization"] == "none":
        settings["normalize_side"] = "-"
    elif settings["normalize_side"] == "-":
        settings["normalize_side"] = SIDE.default
    return settings


VQA_ACCURACY = Metric(
    name="vqa_accuracy", family="vqa",
    summary="Mean over questions of the agreement of the predicted answer with the human annotators",
    knobs=(RULE, NORMALIZATION, SIDE),
    inputs={"predictions": "list of predicted answers (strings)",
            "answers": "answers[i] is the list of the human answers of question i (ten in VQA v2)"},
    compute_fn=compute_vqa_accuracy, normalize_fn=_normalize)
