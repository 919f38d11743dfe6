"""Exact match and SQuAD token F1 for extractive question answering.

Inputs: ``{"predictions": [str | null, ...], "references": [[str, ...], ...]}``;
item i has one prediction and one or more gold answers, and scores the
maximum over its golds (``metric_max_over_ground_truths`` in the SQuAD v1.1
script, ``max(...) for a in gold_answers`` in v2.0). A ``null`` prediction is
a missing prediction.

Knobs
- ``normalization`` (norm): ``none`` (strings as given), ``document`` (source
  document 000 part 2: ``teks.strip().rstrip(".,!?").lower()``), ``squad``
  (default; ``normalize_answer`` of the official SQuAD v1.1 and v2.0 scripts:
  white_space_fix(remove_articles(remove_punc(lower(s)))), where remove_punc
  drops the characters of ``string.punctuation``, remove_articles replaces
  ``\\b(a|an|the)\\b`` with a space, white_space_fix is ``' '.join(s.split())``).
  Tokens for F1 are ``normalized.split()`` under every normalization.
- ``missing`` (missing): ``zero`` (default; a missing prediction scores 0 and
  stays in the denominator, as in the v1.1 script: "Unanswered question ...
  will receive score 0.") or ``skip`` (the item leaves the denominator, as in
  the v2.0 script: "Missing prediction for ..." then ``continue``, total =
  number of scored items).
- ``rule`` (rule): ``v1.1`` or ``v2.0`` (default). v2.0 drops the golds whose
  normalized text is the empty string and, when none is left (or the item has
  no gold at all), uses the single gold ``""`` (an unanswerable question);
  its token F1 is 1 if both token lists are empty and 0 if only one is. v1.1
  uses the golds as given (an item needs at least one) and its token F1 is 0
  whenever there are no common tokens, even when both token lists are empty.
  The gold filtering changes exact match too, so both metrics take the knob.

Token F1 (both scripts, ``f1_score`` / ``compute_f1``):
common = |Counter(pred_tokens) & Counter(gold_tokens)| (multiset
intersection), P = common/|pred_tokens|, R = common/|gold_tokens|,
F1 = 2PR/(P+R) = 2*common/(|pred_tokens| + |gold_tokens|), 0 when common = 0.

Value: the mean of the item scores over the items in the denominator, a
Fraction (not a percentage; the scripts print 100 times it).

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/qa.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

import re
import string
from collections import Counter
from fractions import Fraction

from .conventions import Knob, Metric, Result
from .exact import Undefined
from .input_checks import parallel_lists, string_lists, strings

_SQUAD_V11 = "SQuAD v1.1 official evaluate-v1.1.py"
_SQUAD_V20 = "SQuAD v2.0 official evaluate-v2.0.py"
_DOCUMENT = "source document 000_28a8cb91ddee40ec.txt part 2, normalisasi(): teks.strip().rstrip('.,!?').lower()"

NORMALIZATION = Knob(
    "normalization", "text normalization applied to predictions and golds before comparing", "squad",
    choices=("none", "document", "squad"),
    sources={"none": "identity: strings compared as given, tokens by str.split()",
             "document": _DOCUMENT,
             "squad": f"{_SQUAD_V11} and {_SQUAD_V20}, normalize_answer(): lower, drop string.punctuation, "
                      "articles \\b(a|an|the)\\b -> ' ', ' '.join(s.split())"},
    key="norm")
MISSING = Knob(
    "missing", "how a missing (null) prediction counts", "zero",
    choices=("zero", "skip"),
    sources={"zero": f"{_SQUAD_V11} evaluate(): 'Unanswered question ... will receive score 0.' (kept in total)",
             "skip": f"{_SQUAD_V20} get_raw_scores(): 'Missing prediction for ...' then continue; "
                     "make_eval_dict(): total = len(exact_scores)"})
RULE = Knob(
    "rule", "which official script's treatment of empty answers", "v2.0",
    choices=("v1.1", "v2.0"),
    sources={"v1.1": f"{_SQUAD_V11} f1_score(): 0 when num_same == 0; golds used as given",
             "v2.0": f"{_SQUAD_V20} compute_f1(): int(gold_toks == pred_toks) when either is empty; "
                     "get_raw_scores(): golds normalizing to '' dropped, none left -> ['']"})

_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = frozenset(string.punctuation)


def normalize_squad(s: str) -> str:
    """SQuAD ``normalize_answer``: white_space_fix(remove_articles(remove_punc(lower(s))))."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in _PUNCTUATION)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def normalize_document(s: str) -> str:
    """Source document 000 part 2: ``teks.strip().rstrip(".,!?").lower()``."""
    return s.strip().rstrip(".,!?").lower()


_NORMALIZERS = {"none": lambda s: s, "document": normalize_document, "squad": normalize_squad}

# One (prediction, gold) pair per rule of the normalizations: equal after that rule (or, for a
# rule that keeps something, "kept" and "inside a word", unequal only because of it):
# ``oracle/separators/qa.py`` makes each a probe, so a library that gets one rule wrong
# shows it on an input of one rule.
RULE_PAIRS = (
    ("lowercase", "Paris", "paris"),
    ("ascii-punctuation-removed", "rock'n'roll", "rocknroll"),
    ("non-ascii-punctuation-kept", "\u00abParis\u00bb", "Paris"),
    ("hyphen-removed-before-articles", "state-of-the-art", "stateoftheart"),
    ("article-a", "a cat", "cat"),
    ("article-an", "an apple", "apple"),
    ("article-the-inside-a-word", "theatre", "atre"),
    ("article-uppercase", "The Cat", "cat"),
    ("whitespace-runs", "new   york", "new york"),
    ("tab-and-newline", "new\tyork\n", "new york"),
    ("no-break-space", "new\u00a0york", "new york"),
    ("trailing-period", "Paris.", "Paris"),
    ("leading-punctuation", "...Paris", "Paris"),
)


def normalize(s: str, normalization: str) -> str:
    """The text ``s`` under the named normalization (none, document, squad)."""
    return _NORMALIZERS[normalization](s)


def token_f1(pred_tokens: list, gold_tokens: list, rule: str) -> Fraction:
    """SQuAD token F1: 2PR/(P+R) with P = common/|pred|, R = common/|gold|,
    common = size of the multiset intersection. Under v2.0 an empty token list
    on either side gives 1 if both are empty, else 0 (compute_f1); under v1.1
    no common token gives 0 (f1_score)."""
    if rule == "v2.0" and (not pred_tokens or not gold_tokens):
        return Fraction(int(pred_tokens == gold_tokens))
    common = sum((Counter(pred_tokens) & Counter(gold_tokens)).values())
    if common == 0:
        return Fraction(0)
    precision = Fraction(common, len(pred_tokens))
    recall = Fraction(common, len(gold_tokens))
    return 2 * precision * recall / (precision + recall)


def _check_inputs(inputs) -> tuple[list, list]:
    preds, refs = parallel_lists(inputs, ("predictions", "references"), "predictions")
    strings(preds, "predictions", null=True)
    string_lists(refs, "references", "a list of gold answers")
    return preds, refs


def gold_answers(golds: list, i: int, settings: dict) -> list[str]:
    """The normalized golds an item is scored against (v2.0 filtering applied; under v1.1 an
    empty list stays empty: the item's max over no gold answer has no value)."""
    norm = [normalize(g, settings["normalization"]) for g in golds]
    if settings["rule"] == "v2.0":
        norm = [g for g in norm if g] or [""]
    return norm


class _NoGold(Exception):
    """An item with no gold answer under v1.1: the max over no answer is undefined (the
    v1.1 script's max() of an empty sequence; every v1.1 question has answers)."""

    def __init__(self, i: int):
        self.i = i

    def undefined(self) -> Undefined:
        return Undefined(f"references[{self.i}]: no gold answers, and the max over none has no value "
                         "(rule v1.1; rule v2.0 reads an empty list as unanswerable)")


def _score_items(inputs, settings: dict, item_score):
    preds, refs = _check_inputs(inputs)
    scores, normalized = [], []
    for i, (pred, golds) in enumerate(zip(preds, refs)):
        gold_norm = gold_answers(golds, i, settings)
        if not gold_norm:
            raise _NoGold(i)
        if pred is None:
            normalized.append(None)
            scores.append(None if settings["missing"] == "skip" else Fraction(0))
            continue
        p = normalize(pred, settings["normalization"])
        normalized.append(p)
        scores.append(max(item_score(p, g, settings) for g in gold_norm))
    return scores, normalized


def _em_item(p: str, g: str, settings: dict) -> Fraction:
    return Fraction(int(p == g))


def _f1_item(p: str, g: str, settings: dict) -> Fraction:
    return token_f1(p.split(), g.split(), settings["rule"])


def compute_exact_match(inputs, settings: dict) -> Result:
    """EM = (1/N) * sum_i max_g [norm(pred_i) == norm(g)] over the N items in
    the denominator (SQuAD exact_match_score / compute_exact)."""
    try:
        scores, normalized = _score_items(inputs, settings, _em_item)
    except _NoGold as e:
        return Result(e.undefined(), stats={"matches": 0, "total": 0})
    counted = [s for s in scores if s is not None]
    matches = sum(1 for s in counted if s == 1)
    value = Fraction(matches, len(counted)) if counted else Undefined("no items to score")
    verdicts = [None if s is None else s == 1 for s in scores]
    return Result(value, stats={"matches": matches, "total": len(counted)},
                  parts={"verdicts": verdicts, "normalized_predictions": normalized})


def compute_squad_f1(inputs, settings: dict) -> Result:
    """F1 = (1/N) * sum_i max_g tokenF1(pred_i, g) over the N items in the
    denominator (SQuAD f1_score / compute_f1, see token_f1)."""
    try:
        scores, normalized = _score_items(inputs, settings, _f1_item)
    except _NoGold as e:
        return Result(e.undefined(), stats={"f1_sum": 0, "total": 0})
    counted = [s for s in scores if s is not None]
    f1_sum = sum(counted, Fraction(0))
    value = f1_sum / len(counted) if counted else Undefined("no items to score")
    return Result(value, stats={"f1_sum": f1_sum, "total": len(counted)},
                  parts={"item_scores": scores, "normalized_predictions": normalized})


_INPUTS = {"predictions": "list of predicted answers (string, or null for a missing prediction)",
           "references": "list of lists of gold answers; an item scores the max over its golds"}

EXACT_MATCH = Metric(
    name="exact_match", family="qa",
    summary="Fraction of items whose normalized prediction equals a normalized gold answer",
    knobs=(NORMALIZATION, MISSING, RULE), inputs=_INPUTS, compute_fn=compute_exact_match)

SQUAD_F1 = Metric(
    name="squad_f1", family="qa",
    summary="Mean over items of the max over golds of the SQuAD token F1",
    knobs=(NORMALIZATION, MISSING, RULE), inputs=_INPUTS, compute_fn=compute_squad_f1)
