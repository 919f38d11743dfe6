"""Summaries for ROUGE: texts of words from the shared vocabulary, with letters that
lowercase across scripts (KELVIN SIGN, dotted capital I), hyphens and punctuation, and
now and then a newline between words (a sentence boundary of ROUGE-Lsum). A hypothesis
is an edited reference, so that n-grams and subsequences partly match."""
from __future__ import annotations

from conformance.strategies import PLAIN_WORDS, TRICKY_WORDS, UNSEEN_WORDS, edited, token_lists
from conformance.strategies._st import st

SUMMARY_WORDS = PLAIN_WORDS + TRICKY_WORDS + ("\u212a", "\u0130", "Stra\u00dfe", "mat.", "Sat")
summary_words = st.sampled_from(SUMMARY_WORDS)


@st.composite
def text(draw, words: list) -> str:
    """``words`` joined by spaces, one gap in four (about) a newline."""
    out = ""
    for i, w in enumerate(words):
        if i:
            out += draw(st.sampled_from((" ", " ", " ", "\n")))
        out += w
    return out


@st.composite
def summaries(draw, max_segments: int = 3, max_refs: int = 3, max_len: int = 12):
    """Inputs of ``rouge_n``, ``rouge_l`` and ``rouge_lsum``: hypotheses and, per hypothesis,
    its references (1 to ``max_refs``)."""
    hyps, refs = [], []
    for _ in range(draw(st.integers(1, max_segments))):
        rs = [draw(token_lists(summary_words, min_size=0 if draw(st.integers(0, 9)) == 0 else 1, max_size=max_len))
              for _ in range(draw(st.integers(1, max_refs)))]
        if draw(st.integers(0, 9)) == 0:
            hyp = draw(token_lists(st.sampled_from(UNSEEN_WORDS), min_size=0, max_size=max_len))
        else:
            hyp = draw(edited(rs[draw(st.integers(0, len(rs) - 1))], summary_words, max_edits=4))
        hyps.append(draw(text(hyp)))
        refs.append([draw(text(r)) for r in rs])
    return {"hypotheses": hyps, "references": refs}
