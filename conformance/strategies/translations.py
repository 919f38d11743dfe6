"""Translations for TER: a hypothesis made from its reference by the edits TER counts
(substitutions, insertions, deletions and block shifts of one to four words), then some
words' case changed and punctuation attached, which the case, normalize and punctuation
knobs read; now and then an empty reference (no reference word) or an empty hypothesis."""
from __future__ import annotations

from conformance.strategies import PLAIN_WORDS, edited, token_lists
from conformance.strategies._st import st

words = st.sampled_from(PLAIN_WORDS + ("b", "c", "d", "e"))


@st.composite
def shifted(draw, tokens: list) -> list:
    """``tokens`` with a block of 1 to 4 words moved elsewhere."""
    if len(tokens) < 2:
        return tokens
    start = draw(st.integers(0, len(tokens) - 1))
    block = tokens[start:start + draw(st.integers(1, 4))]
    rest = tokens[:start] + tokens[start + len(block):]
    at = draw(st.integers(0, len(rest)))
    return rest[:at] + block + rest[at:]


@st.composite
def dressed(draw, tokens: list) -> list:
    """Some words capitalized or upper-cased, some with a comma or a period attached."""
    out = []
    for w in tokens:
        style = draw(st.integers(0, 7))
        out.append(w.capitalize() if style == 0 else w.upper() if style == 1 else w + "," if style == 2
                   else w + "." if style == 3 else w)
    return out


@st.composite
def translation(draw, max_refs: int = 2, max_len: int = 12) -> tuple[str, list[str]]:
    refs = [draw(token_lists(words, min_size=1, max_size=max_len)) for _ in range(draw(st.integers(1, max_refs)))]
    hyp = draw(edited(refs[0], words, max_edits=3))
    for _ in range(draw(st.integers(0, 2))):
        hyp = draw(shifted(hyp))
    texts = [" ".join(draw(dressed(r))) for r in refs]
    kind = draw(st.integers(0, 11))
    if kind == 0:
        texts[0] = ""   # no reference word
    return ("" if kind == 1 else " ".join(draw(dressed(hyp)))), texts


@st.composite
def translations(draw, max_segments: int = 3) -> dict:
    """Inputs of ``ter``: hypotheses and, per hypothesis, its references."""
    pairs = [draw(translation()) for _ in range(draw(st.integers(1, max_segments)))]
    return {"hypotheses": [h for h, _ in pairs], "references": [rs for _, rs in pairs]}
