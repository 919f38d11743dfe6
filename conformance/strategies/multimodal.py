"""Hypothesis strategies and plan pieces for the multimodal metrics: VQA
accuracy, cross-modal recall@K, CIDEr and CIDEr-D.

- VQA answers come from a vocabulary where the official answer processing
  matters (number words, articles, case, punctuation), and the prediction is
  often one of the answers, so match counts cover 0..10.
- Similarity matrices use few distinct values (ties are frequent) and
  sometimes several correct texts per image; under the ``index-order`` tie rule
  they are tie-free, so that permuting candidates must not change the value.
- Captions are edits of shared base sentences, so n-grams recur across
  images (document frequencies above 1) and candidates overlap references.
"""
from __future__ import annotations

from fractions import Fraction

from conformance.strategies._st import st

from conformance.strategies import PLAIN_WORDS, edited, token_lists

VQA_ANSWERS = ("2", "two", "Two.", "yes", "Yes", "no", "a dog", "dog", "the dog", "t-shirt", "t shirt", "3,000",
               "3000", "red", "red!", "")


@st.composite
def vqa_items(draw, max_questions: int = 4):
    """Inputs of ``vqa_accuracy``: per question a prediction and ten human answers."""
    n = draw(st.integers(1, max_questions))
    preds, answers = [], []
    for _ in range(n):
        pool = draw(st.lists(st.sampled_from(VQA_ANSWERS), min_size=1, max_size=3))
        ans = [draw(st.sampled_from(pool)) for _ in range(10)]
        pred = draw(st.one_of(st.sampled_from(pool), st.sampled_from(VQA_ANSWERS)))
        preds.append(pred)
        answers.append(ans)
    return {"predictions": preds, "answers": answers}


SIM_VALUES = (0, 1, 2, "1/2", 0.25, -1)


@st.composite
def similarity_inputs(draw, max_images: int = 4, max_texts: int = 5, tie_free: bool = False):
    """Inputs of ``cross_modal_recall_at_k``: a similarity matrix (images x texts) and,
    for non-square ones, the correct texts of each image (every text listed once)."""
    n_img = draw(st.integers(1, max_images))
    square = draw(st.booleans())
    n_txt = n_img if square else draw(st.integers(n_img, max(n_img, max_texts)))
    if tie_free:
        flat = draw(st.lists(st.integers(-50, 50), min_size=n_img * n_txt, max_size=n_img * n_txt, unique=True))
        sim = [[Fraction(v, 7) if v % 3 else v for v in flat[i * n_txt:(i + 1) * n_txt]] for i in range(n_img)]
        sim = [[str(v) if isinstance(v, Fraction) else v for v in row] for row in sim]
    else:
        sim = [[draw(st.sampled_from(SIM_VALUES)) for _ in range(n_txt)] for _ in range(n_img)]
    if square and draw(st.booleans()):
        return {"similarity": sim}
    owner = list(range(n_img)) + [draw(st.integers(0, n_img - 1)) for _ in range(n_txt - n_img)]
    owner = draw(st.permutations(owner))
    return {"similarity": sim, "matches": [[j for j in range(n_txt) if owner[j] == i] for i in range(n_img)]}


def similarity_for_settings(settings) -> st.SearchStrategy:
    return similarity_inputs(tie_free=settings.get("ties") == "index-order")


@st.composite
def caption_inputs(draw, max_images: int = 4, max_refs: int = 3, max_len: int = 6):
    """Inputs of ``cider`` / ``cider_d``: a candidate and references per image, drawn as
    edits of a few shared base sentences."""
    word = st.sampled_from(PLAIN_WORDS[:8])
    bases = [draw(token_lists(word, min_size=1, max_size=max_len)) for _ in range(draw(st.integers(1, 3)))]
    n = draw(st.integers(1, max_images))
    cands, refs = [], []
    for _ in range(n):
        base = draw(st.sampled_from(bases))
        rs = [" ".join(draw(edited(base, word, max_edits=2))) for _ in range(draw(st.integers(1, max_refs)))]
        cands.append(" ".join(draw(edited(base, word, max_edits=3))))
        refs.append(rs)
    return {"candidates": cands, "references": refs}


# ------------------------------------------------------------- plan pieces

def permute_questions(inputs, data):
    order = data.draw(st.permutations(range(len(inputs["predictions"]))), label="question order")
    return {"predictions": [inputs["predictions"][i] for i in order],
            "answers": [inputs["answers"][i] for i in order]}


def permute_annotators(inputs, data):
    return {**inputs, "answers": [data.draw(st.permutations(a), label="annotator order") for a in inputs["answers"]]}


def vqa_identity(inputs, settings):
    """Ten answers equal to the prediction: accuracy 1 under every rule, when both
    sides get the same processing (none, both, or official-2021: unanimous answers and
    the prediction are compared stripped)."""
    if settings.get("normalization") != "none" and settings.get("normalize_side") not in ("both", "official-2021"):
        return None
    return {**inputs, "answers": [[p] * 10 for p in inputs["predictions"]]}, Fraction(1)


def _matches(inputs) -> list:
    n = len(inputs["similarity"])
    return inputs.get("matches") or [[i] for i in range(n)]


def permute_candidates(inputs, data):
    """Texts (columns) in another order, the correct-text lists renumbered."""
    sim = inputs["similarity"]
    n_txt = len(sim[0]) if sim else 0
    order = data.draw(st.permutations(range(n_txt)), label="text order")
    where = {old: new for new, old in enumerate(order)}
    return {"similarity": [[row[j] for j in order] for row in sim],
            "matches": [sorted(where[j] for j in js) for js in _matches(inputs)]}


def permute_images(inputs, data):
    sim = inputs["similarity"]
    order = data.draw(st.permutations(range(len(sim))), label="image order")
    m = _matches(inputs)
    return {"similarity": [sim[i] for i in order], "matches": [m[i] for i in order]}


def retrieval_identity(inputs, settings):
    """Correct pairs scored 1, all others 0: every query hits at every K."""
    m = _matches(inputs)
    n_txt = len(inputs["similarity"][0])
    return {"similarity": [[1 if j in js else 0 for j in range(n_txt)] for js in m], "matches": m}, Fraction(1)


def permute_images_cider(inputs, data):
    order = data.draw(st.permutations(range(len(inputs["candidates"]))), label="image order")
    return {**inputs, "candidates": [inputs["candidates"][i] for i in order],
            "references": [inputs["references"][i] for i in order]}


def permute_references_cider(inputs, data):
    return {**inputs, "references": [data.draw(st.permutations(r), label="reference order")
                                     for r in inputs["references"]]}


def cider_upper(settings) -> Fraction:
    """Each (clipped) cosine is at most 1 and the penalty at most 1: the factor bounds the value."""
    return Fraction(settings.get("factor", "1"))
