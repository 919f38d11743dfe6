"""Hypothesis strategies for the error rates (wer, cer, mer, wil, wip, error_counts).

References are drawn from a small vocabulary, so words repeat and several
minimum-cost alignments tie; hypotheses are the references after
substitutions, deletions and insertions at a rate between 0 and 30%.
Character metrics also see combining marks, an emoji ZWJ sequence, flags and
Hangul jamo, so the character unit matters.
"""
from __future__ import annotations

from fractions import Fraction

from conformance.strategies._st import st

from oracle.error_rates import characters, words

METRICS = ("wer", "cer", "mer", "wil", "wip", "error_counts")

VOCABULARY = ("a", "b", "c", "budi", "siti", "makan", "nasi", "ke", "pasar", "Budi", "pasar!")
CHAR_PIECES = ("a", "b", "B", "e", "e\u0301", "\u00e9", " ", "\U0001F469\u200d\U0001F4BB", "\U0001F1EE\U0001F1E9",
               "\u1112\u1161\u11ab", "\ud55c", ",")

# word gaps: mostly one space, sometimes runs and other Unicode whitespace (a tab, a
# no-break space, an ideographic space), where tokenizers differ
GAPS = (" ", " ", " ", " ", "  ", "\t", "\u00a0", "\u3000", " \t")

RATES = (Fraction(0), Fraction(1, 10), Fraction(1, 5), Fraction(3, 10))


@st.composite
def edited_tokens(draw, tokens: list, vocabulary=VOCABULARY, rate: Fraction | None = None) -> list:
    """``tokens`` with each position substituted, deleted, followed by an insertion or
    recased (an ASR system's "Budi" for "budi") with probability ``rate`` (drawn
    from 0 to 30% when not given)."""
    if rate is None:
        rate = draw(st.sampled_from(RATES))
    out = []
    scale = 30
    for t in tokens:
        roll = draw(st.integers(0, scale - 1))
        if roll >= rate * scale:
            out.append(t)
            continue
        op = draw(st.sampled_from(("sub", "del", "ins", "case")))
        if op == "case":
            out.append(t.swapcase() if t != t.swapcase() else draw(st.sampled_from(vocabulary)))
        elif op == "sub":
            out.append(draw(st.sampled_from(vocabulary)))
        elif op == "ins":
            out.extend([t, draw(st.sampled_from(vocabulary))])
    if draw(st.integers(0, 9)) == 0:
        out.insert(draw(st.integers(0, len(out))), draw(st.sampled_from(vocabulary)))
    return out


@st.composite
def transcript_pairs(draw, vocabulary=VOCABULARY, max_utterances: int = 4, max_len: int = 8,
                     min_len: int = 0, joiner: str = " ") -> dict:
    """Inputs of the error-rate metrics: references and hypotheses, one per reference."""
    n = draw(st.integers(1, max_utterances))
    refs, hyps = [], []
    for _ in range(n):
        ref = draw(st.lists(st.sampled_from(vocabulary), min_size=min_len, max_size=max_len))
        hyp = draw(edited_tokens(ref, vocabulary))
        refs.append(_join(draw, ref, joiner))
        hyps.append(_join(draw, hyp, joiner))
    return {"references": refs, "hypotheses": hyps}


def _join(draw, tokens: list, joiner) -> str:
    """The tokens joined by ``joiner``, or (joiner None) by gaps drawn from GAPS."""
    if joiner is not None:
        return joiner.join(tokens)
    out = tokens[:1]
    for t in tokens[1:]:
        out += [draw(st.sampled_from(GAPS)), t]
    return "".join(out)


def for_settings(settings) -> st.SearchStrategy:
    if "unit" in settings:  # character metrics
        return transcript_pairs(CHAR_PIECES, max_len=10, joiner="")
    return transcript_pairs(joiner=None)


def upper(metric: str):
    def bound(settings):
        return Fraction(1) if metric in ("mer", "wil", "wip") else None  # WER, CER exceed 1 with insertions
    return bound


def _permute_utterances(inputs, data):
    order = data.draw(st.permutations(range(len(inputs["references"]))), label="utterance order")
    return {k: [v[i] for i in order] for k, v in inputs.items()}


def invariances(metric: str) -> dict:
    return {"utterance-order": _permute_utterances}


def identity(metric: str):
    """Each hypothesis replaced by its reference: WER, CER, MER, WIL 0, WIP 1, counts all hits;
    only when every reference has a token (an empty one leaves the value to the empty-reference knob)."""
    def known(inputs, settings):
        split = characters if metric == "cer" else words
        full = {"tokenize": "whitespace", "case": "mixed", "punctuation": "keep", "whitespace": "strip",
                "unit": "codepoint"}
        full.update(settings)
        lengths = [len(split(r, full)) for r in inputs["references"]]
        if not lengths or min(lengths) == 0:
            return None
        new = {"references": list(inputs["references"]), "hypotheses": list(inputs["references"])}
        if metric == "error_counts":
            return new, {"hits": Fraction(sum(lengths)), "substitutions": Fraction(0), "deletions": Fraction(0),
                         "insertions": Fraction(0)}
        return new, Fraction(1) if metric == "wip" else Fraction(0)
    return known
