"""Text workloads: newstest-like corpora for BLEU (Zipf vocabularies, one or more
references) and LibriSpeech-like transcripts for WER."""
from __future__ import annotations

import itertools
import random

from conformance.bench.workload import Workload

_SHAPED = " (second generator: conformance.bench.shapes)"



# ------------------------------------------------------------ text generation

def _vocabulary(rng: random.Random, size: int = 8000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 9))))
    words = sorted(words)
    punct = [",", ".", "'s", "(", ")", "-", "\"", "3.5", "1,000", "U.S."]
    return words + punct


def _zipf_sentence(rng: random.Random, vocab: list[str], n: int) -> list[str]:
    out = []
    for _ in range(n):
        r = int(rng.paretovariate(1.1)) - 1
        out.append(vocab[min(r, len(vocab) - 1)] if rng.random() < 0.85 else rng.choice(vocab))
    return out


def _edited(rng: random.Random, tokens: list[str], vocab: list[str], n_edits: int) -> list[str]:
    """``tokens`` after ``n_edits`` random edits: half substitutions, a quarter
    deletions, a quarter insertions."""
    out = list(tokens)
    for _ in range(n_edits):
        op = rng.random()
        i = rng.randrange(len(out)) if out else 0
        if op < 0.5 and out:
            out[i] = rng.choice(vocab)
        elif op < 0.75 and len(out) > 1:
            del out[i]
        else:
            out.insert(i, rng.choice(vocab))
    return out


def newstest_like(n_segments: int = 3003, n_refs: int = 1, seed: int = 2014) -> dict:
    """3,003 segments of about 27 tokens (newstest size); hypotheses are edited references."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    hyps, refs = [], []
    for _ in range(n_segments):
        length = max(3, int(rng.gauss(27, 9)))
        seg_refs = []
        base = _zipf_sentence(rng, vocab, length)
        for j in range(n_refs):
            r = list(base)
            for _ in range(int(length * 0.3 * (j > 0))):
                r[rng.randrange(len(r))] = rng.choice(vocab)
            seg_refs.append(" ".join(r))
        h = _edited(rng, base, vocab, int(length * 0.4))
        hyps.append(" ".join(h))
        refs.append(seg_refs)
    return {"hypotheses": hyps, "references": refs}


def _bleu_workloads() -> list[Workload]:
    from oracle.registry import get_metric
    out = []
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU as SB
    except ImportError:
        sacrebleu = None
    try:
        from nltk.translate import bleu_score as nb
    except ImportError:
        nb = None
    bleu = get_metric("bleu")
    sbleu = get_metric("sentence_bleu")
    from conformance.bench.shapes import newstest_shaped
    for (n_refs, (shape, generator)) in itertools.product((1, 4), (("", newstest_like), ("-shaped", newstest_shaped))):
        def setup(n_refs=n_refs, generator=generator):
            return generator(n_refs=n_refs)

        def oracle_13a(d):
            return bleu.compute(d, {"tokenizer": "13a"}).value

        def oracle_none(d):
            return bleu.compute(d, {"tokenizer": "none"}).value

        peers, pairs, missing = {}, {"oracle tok:13a": [], "oracle tok:none": []}, []
        if sacrebleu:
            def sacre(d, tok="13a"):
                streams = [list(s) for s in zip(*d["references"])]
                return SB(tokenize=tok).corpus_score(d["hypotheses"], streams).score
            peers["sacrebleu tok:13a"] = sacre
            peers["sacrebleu tok:none"] = lambda d: sacre(d, "none")
            pairs["oracle tok:13a"].append("sacrebleu tok:13a")
            pairs["oracle tok:none"].append("sacrebleu tok:none")
        else:
            missing.append("sacrebleu")
        if nb:
            def nltk_corpus(d):
                return nb.corpus_bleu([[r.split() for r in rs] for rs in d["references"]],
                                      [h.split() for h in d["hypotheses"]])
            peers["nltk (split)"] = nltk_corpus
            pairs["oracle tok:none"].append("nltk (split)")
        else:
            missing.append("nltk")
        out.append(Workload(f"corpus-bleu-{n_refs}ref{shape}", f"corpus BLEU, 3,003 segments, {n_refs} "
                            f"reference(s){_SHAPED if shape else ''}",
                            setup, {"oracle tok:13a": oracle_13a, "oracle tok:none": oracle_none},
                            peers, pairs, missing))

        def s_oracle_13a(d):
            return [sbleu.compute({"hypothesis": h, "references": rs},
                                  {"tokenizer": "13a", "smoothing": "exp", "effective_order": "yes"}).value
                    for h, rs in zip(d["hypotheses"], d["references"])]

        def s_oracle_none(d):
            return [sbleu.compute({"hypothesis": h, "references": rs}, {"tokenizer": "none"}).value
                    for h, rs in zip(d["hypotheses"], d["references"])]

        def s_batch_13a(d):
            from oracle import compute_batch
            return [r.value for r in compute_batch(sbleu, [{"hypothesis": h, "references": rs} for h, rs in
                                                          zip(d["hypotheses"], d["references"])],
                                                  {"tokenizer": "13a", "smoothing": "exp", "effective_order": "yes"})]

        speers, spairs = {}, {"oracle tok:13a": [], "oracle tok:none": [], "oracle compute_batch tok:13a": []}
        if sacrebleu:
            def s_sacre(d, tok="13a"):
                m = SB(tokenize=tok, effective_order=True)
                return [m.sentence_score(h, rs).score for h, rs in zip(d["hypotheses"], d["references"])]
            speers["sacrebleu tok:13a"] = s_sacre
            speers["sacrebleu tok:none"] = lambda d: s_sacre(d, "none")
            spairs["oracle tok:13a"].append("sacrebleu tok:13a")
            spairs["oracle compute_batch tok:13a"].append("sacrebleu tok:13a")
            spairs["oracle tok:none"].append("sacrebleu tok:none")
        if nb:
            def s_nltk(d):
                return [nb.sentence_bleu([r.split() for r in rs], h.split())
                        for h, rs in zip(d["hypotheses"], d["references"])]
            speers["nltk (split)"] = s_nltk
            spairs["oracle tok:none"].append("nltk (split)")
        out.append(Workload(f"sentence-bleu-{n_refs}ref{shape}", f"3,003 sentence BLEUs, {n_refs} "
                            f"reference(s){_SHAPED if shape else ''}",
                            setup, {"oracle tok:13a": s_oracle_13a, "oracle tok:none": s_oracle_none,
                                    "oracle compute_batch tok:13a": s_batch_13a},
                            speers, spairs, list(missing)))
    return out


def librispeech_like(n_utterances: int = 2620, seed: int = 2620) -> dict:
    """2,620 utterances of about 20 words (LibriSpeech test-clean size); each hypothesis is
    its reference after round(rate * length) random substitutions, deletions and
    insertions, with the rate drawn from 5% to 15%."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    refs, hyps = [], []
    for _ in range(n_utterances):
        length = max(4, int(rng.gauss(20, 6)))
        ref = _zipf_sentence(rng, vocab, length)
        hyp = _edited(rng, ref, vocab, round(length * rng.uniform(0.05, 0.15)))
        refs.append(" ".join(ref))
        hyps.append(" ".join(hyp))
    return {"references": refs, "hypotheses": hyps}


def _wer_workloads() -> list[Workload]:
    from oracle.alignment import admissible_counts
    from oracle.error_rates import words
    from oracle.registry import get_metric
    try:
        import jiwer
    except ImportError:
        jiwer = None
    wer = get_metric("wer")
    jiwer_tok = wer.settings({"tokenize": "jiwer"})

    def oracle_wer(d):
        return wer.compute(d, {"tokenize": "jiwer"}).value

    def oracle_sets(d):
        return [admissible_counts(words(r, jiwer_tok), words(h, jiwer_tok))
                for r, h in zip(d["references"], d["hypotheses"])]

    peers, pairs, missing = {}, {"oracle corpus WER": [], "oracle S/D/I sets": []}, []
    if jiwer:
        peers["jiwer.wer"] = lambda d: jiwer.wer(d["references"], d["hypotheses"])
        peers["jiwer.process_words"] = lambda d: jiwer.process_words(d["references"], d["hypotheses"])
        pairs["oracle corpus WER"].append("jiwer.wer")
        pairs["oracle S/D/I sets"].append("jiwer.process_words")
    else:
        missing.append("jiwer")
    from conformance.bench.shapes import librispeech_shaped
    contenders = {"oracle corpus WER": oracle_wer, "oracle S/D/I sets": oracle_sets}
    return [Workload("wer-librispeech", "corpus WER and per-utterance admissible S/D/I sets, 2,620 utterances "
                     "of about 20 words at 5-15% WER", librispeech_like, contenders, peers, pairs, missing),
            Workload("wer-librispeech-shaped", "corpus WER and per-utterance admissible S/D/I sets, 2,620 "
                     f"utterances of log-normal length, skewed error rates{_SHAPED}", librispeech_shaped,
                     contenders, peers, pairs, missing)]
