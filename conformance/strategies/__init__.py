"""Public hypothesis strategies for metric inputs.

Random strings almost never share n-grams, so a property test over them
checks nothing but the zero branch. These strategies draw text from a small
vocabulary and build hypotheses by editing a reference (substitute, delete,
insert, repeat, swap), so that overlap is controlled: some n-grams match,
some do not, clipping and brevity are exercised. The vocabulary includes
punctuation, numbers and apostrophes so that tokenizers matter.
"""
from __future__ import annotations

from fractions import Fraction

from conformance.strategies._st import st

PLAIN_WORDS = ("the", "cat", "sat", "on", "mat", "a", "dog", "ran", "home", "budi", "membaca", "buku")
TRICKY_WORDS = ("don't", "U.S.", "3.5", "1,000", "-", "(x)", "end.", "well,", "e-mail", "&amp;", "Cat", "THE",
                "a-b", "9-", "$5", "\"q\"", "n't", "café", "x/y")

UNSEEN_WORDS = ("zebra", "quartz", "ufo")   # in no vocabulary above: a hypothesis of these matches nothing

words = st.sampled_from(PLAIN_WORDS)
tricky_words = st.sampled_from(PLAIN_WORDS + TRICKY_WORDS)


def token_lists(word=words, min_size: int = 0, max_size: int = 8):
    return st.lists(word, min_size=min_size, max_size=max_size)


@st.composite
def edited(draw, tokens: list, word=words, max_edits: int = 3):
    """``tokens`` after up to ``max_edits`` random edits: substitute, delete, insert, repeat, swap."""
    out = list(tokens)
    for _ in range(draw(st.integers(0, max_edits))):
        op = draw(st.sampled_from(("sub", "del", "ins", "rep", "swap")))
        if op == "ins" or not out:
            out.insert(draw(st.integers(0, len(out))), draw(word))
            continue
        i = draw(st.integers(0, len(out) - 1))
        if op == "sub":
            out[i] = draw(word)
        elif op == "del":
            del out[i]
        elif op == "rep":
            out.insert(i, out[i])
        elif op == "swap" and len(out) > 1:
            j = draw(st.integers(0, len(out) - 1))
            out[i], out[j] = out[j], out[i]
    return out


@st.composite
def bleu_segment(draw, word=words, max_refs: int = 3, max_len: int = 9, min_len: int = 0):
    """(hypothesis text, [reference texts]) with controlled overlap."""
    n_refs = draw(st.integers(1, max_refs))
    refs = [draw(token_lists(word, min_size=max(min_len, 1), max_size=max_len)) for _ in range(n_refs)]
    base = refs[draw(st.integers(0, n_refs - 1))]
    if draw(st.integers(0, 9)) == 0:
        # now and then a hypothesis sharing no word with its references (the zero-match branch)
        hyp = draw(token_lists(st.sampled_from(UNSEEN_WORDS), min_size=0, max_size=max_len))
    else:
        hyp = draw(edited(base, word))
    if len(hyp) < min_len:
        hyp = hyp + base[: min_len - len(hyp)]
    return " ".join(hyp), [" ".join(r) for r in refs]


@st.composite
def bleu_corpus(draw, word=words, max_segments: int = 4, max_refs: int = 3, max_len: int = 9,
                same_ref_count: bool = True):
    """Inputs of the ``bleu`` metric: hypotheses and, per hypothesis, its references.
    With ``same_ref_count`` every segment has the same number of references (as
    reference streams require)."""
    n = draw(st.integers(1, max_segments))
    n_refs = draw(st.integers(1, max_refs))
    hyps, refs = [], []
    for _ in range(n):
        h, rs = draw(bleu_segment(word, max_refs=n_refs if not same_ref_count else n_refs, max_len=max_len))
        if same_ref_count:
            while len(rs) < n_refs:
                rs.append(" ".join(draw(token_lists(word, min_size=1, max_size=max_len))))
            rs = rs[:n_refs]
        hyps.append(h)
        refs.append(rs)
    return {"hypotheses": hyps, "references": refs}


@st.composite
def sentence_bleu_inputs(draw, word=words, max_refs: int = 3, max_len: int = 9):
    h, rs = draw(bleu_segment(word, max_refs=max_refs, max_len=max_len))
    return {"hypothesis": h, "references": rs}


ANSWER_WORDS = ("Thomas", "Edison", "the", "a", "an", "Jakarta", "jakarta", "5", "lima", "Oct.", "October",
                "new", "york", "!", ",", "U.S.A", "An", "edison.")


@st.composite
def qa_items(draw, max_items: int = 5, max_golds: int = 3):
    """Inputs of ``exact_match`` / ``squad_f1``: predictions and several golds each."""
    n = draw(st.integers(1, max_items))
    preds, golds = [], []
    for _ in range(n):
        gs = [" ".join(draw(token_lists(st.sampled_from(ANSWER_WORDS), 0, 4))) for _ in range(draw(st.integers(1, max_golds)))]
        base = gs[0].split()
        pred = " ".join(draw(edited(base, st.sampled_from(ANSWER_WORDS), max_edits=2)))
        if draw(st.booleans()):
            pred = draw(st.sampled_from(("", " ", ".", "")) ) + pred + draw(st.sampled_from(("", ".", "!", " ")))
        if draw(st.integers(0, 9)) == 0:
            pred = None   # a missing prediction (the missing knob)
        preds.append(pred)
        golds.append(gs)
    return {"predictions": preds, "references": golds}


DYADIC_PROBS = ("1", "1/2", "1/4", "3/4", "1/8", "5/8", "1/16")


@st.composite
def token_probabilities(draw, max_texts: int = 3, max_tokens: int = 6):
    """Inputs of ``perplexity`` from probabilities in (0, 1] (dyadic, so a float library
    receives them exactly)."""
    texts = draw(st.lists(st.lists(st.sampled_from(DYADIC_PROBS), min_size=1, max_size=max_tokens),
                          min_size=1, max_size=max_texts))
    return {"probs": texts}


# logits as a model gives them: small integers, halves, decimals no binary float holds
# exactly (so that float32 and float64 differ), and now and then a gap past float32's
# smallest probability (e**-103.3: a softmax computed in float32 rounds it to 0)
LOGITS = (0, 1, -1, 2, 0.5, -2.5, 0.1, -0.3, 1.7, 3.25, -7.9, 12.0)


@st.composite
def token_logits(draw, max_texts: int = 2, max_positions: int = 4, max_vocab: int = 4):
    """Inputs of ``perplexity`` from logits: per text and position a vocabulary of V logits
    (V fixed per input) and a target index, now and then the ignore index -100."""
    vocab = draw(st.integers(2, max_vocab))
    logits, targets = [], []
    for _ in range(draw(st.integers(1, max_texts))):
        n = draw(st.integers(1, max_positions))
        rows = [[draw(st.sampled_from(LOGITS)) for _ in range(vocab)] for _ in range(n)]
        if draw(st.integers(0, 7)) == 0:   # a target far below the rest of its row
            rows[0][0] = -110
        logits.append(rows)
        targets.append([draw(st.sampled_from(list(range(vocab)) + [0, -100] * (draw(st.integers(0, 5)) == 0)))
                        for _ in range(n)])
    return {"logits": logits, "targets": targets}


@st.composite
def bleu_statistics(draw, order: int = 4, max_segments: int = 4, max_len: int = 12):
    """Inputs of ``bleu_statistics``: statistics some corpus of 1..``max_segments`` segments
    can have. Per segment: a length c_i, totals max(c_i - n + 1, 0), matches non-increasing
    in n and at most the totals (all of them now and then: a perfect hypothesis; none now
    and then), a reference length r_i (a half-integer now and then: the average rule);
    the corpus sums them, with m_{N+1} and t_{N+1} for the smoothings that read order N+1."""
    n_seg = draw(st.integers(1, max_segments))
    m, t = [0] * (order + 1), [0] * (order + 1)
    c, r = 0, Fraction(0)
    for _ in range(n_seg):
        ci = draw(st.integers(0, max_len))
        shape = draw(st.integers(0, 7))
        prev = ci
        for n in range(order + 1):
            tn = max(ci - n, 0)
            mn = tn if shape == 0 else 0 if shape == 1 else draw(st.integers(0, min(tn, prev)))
            prev = mn
            m[n] += mn
            t[n] += tn
        c += ci
        r += draw(st.integers(0, 2 * max_len)) + (Fraction(1, 2) if draw(st.integers(0, 9)) == 0 else 0)
    ref_len = int(r) if r.denominator == 1 else str(r)
    return {"matches": m[:order], "totals": t[:order], "hyp_len": c, "ref_len": ref_len,
            "next_order_matches": m[order], "next_order_totals": t[order]}
