"""Long-utterance workloads: one pair of 100,000 tokens at about 10% word errors
(issue: "a 100,000-token utterance pair finishes within 2x jiwer's time on the
admissible-set path"), from the two generators of the text workloads."""
from __future__ import annotations

import random

from conformance.bench.workload import Workload

TOKENS = 100_000


def long_pair(seed: int = 100) -> dict:
    """Zipf vocabulary (conformance.bench.text), 10,000 random edits: half
    substitutions, a quarter deletions, a quarter insertions."""
    from conformance.bench.text import _edited, _vocabulary, _zipf_sentence
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    ref = _zipf_sentence(rng, vocab, TOKENS)
    hyp = _edited(rng, ref, vocab, TOKENS // 10)
    return {"references": [" ".join(ref)], "hypotheses": [" ".join(hyp)]}


def long_pair_shaped(seed: int = 101) -> dict:
    """The second generator (conformance.bench.shapes): Zipf text with attached
    punctuation, each position edited with probability 0.1 (substitutions, deletions,
    insertions, swapped neighbours)."""
    from conformance.bench.shapes import _rewrite, _sentence, _zipf_vocabulary, _zipf_weights
    rng = random.Random(seed)
    vocab = _zipf_vocabulary(rng)
    cum = _zipf_weights(len(vocab), 1.07)
    ref = _sentence(rng, vocab, cum, TOKENS)
    hyp = _rewrite(rng, ref, vocab, cum, 0.1)
    return {"references": [" ".join(ref)], "hypotheses": [" ".join(hyp)]}


def long_workloads() -> list[Workload]:
    from oracle.registry import compute
    try:
        import jiwer
    except ImportError:
        jiwer = None
    oracle = {
        "oracle wer": lambda d: compute("wer", d, {"tokenize": "jiwer"}).value,
        "oracle counts tie=rapidfuzz": lambda d: compute("error_counts", d, {"tokenize": "jiwer", "tie": "rapidfuzz"}).value,
        "oracle counts tie=any": lambda d: compute("error_counts", d, {"tokenize": "jiwer"}).value,
    }
    peers, missing = {}, []
    pairs = {"oracle wer": [], "oracle counts tie=rapidfuzz": [], "oracle counts tie=any": []}
    if jiwer:
        peers["jiwer.wer"] = lambda d: jiwer.wer(d["references"], d["hypotheses"])
        peers["jiwer.process_words"] = lambda d: jiwer.process_words(d["references"], d["hypotheses"])
        pairs["oracle wer"].append("jiwer.wer")
        pairs["oracle counts tie=rapidfuzz"].append("jiwer.process_words")   # one alignment each
        pairs["oracle counts tie=any"].append("jiwer.process_words")         # the admissible sets (the rules' alignments are lazy)
    else:
        missing.append("jiwer")
    return [Workload("wer-long-utterance", f"one {TOKENS:,}-token utterance pair, 10,000 random edits, Zipf vocabulary",
                     long_pair, oracle, peers, pairs, missing),
            Workload("wer-long-utterance-shaped", f"one {TOKENS:,}-token utterance pair, 10% of positions edited "
                     "(second generator: conformance.bench.shapes)", long_pair_shaped, oracle, peers, pairs, missing)]
