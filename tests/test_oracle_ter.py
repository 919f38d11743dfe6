"""TER (``oracle.ter``) against independent formulations: with no shift allowed and no beam it
is the word Levenshtein distance (a plain dynamic programme here); shifts never make it
worse; a shift moves words without changing them; and tercom itself, segment by segment,
where ``METRIC_CONFORMANCE_TERCOM`` names tercom's classes or jar (java -cp ... ter.TER)."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
from fractions import Fraction

import pytest

from oracle import compute
from oracle.registry import get_metric
from oracle.ter import perform_shift, segment

VOCAB = ["a", "b", "c", "d", "e", "the", "cat", "A", "B", ".", "x,y", "(z)", "9-9"]


def _levenshtein(h: list, r: list) -> int:
    prev = list(range(len(r) + 1))
    for i, hw in enumerate(h, 1):
        cur = [i]
        for j, rw in enumerate(r, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (hw != rw)))
        prev = cur
    return prev[-1]


def _pairs(seed: int, n: int, max_len: int = 14):
    rng = random.Random(seed)
    for _ in range(n):
        ref = rng.choices(VOCAB, k=rng.randint(1, max_len))
        hyp = list(ref)
        for _ in range(rng.randint(0, 5)):
            op = rng.choice("sdiw")
            if op == "s" and hyp:
                hyp[rng.randrange(len(hyp))] = rng.choice(VOCAB)
            elif op == "d" and hyp:
                del hyp[rng.randrange(len(hyp))]
            elif op == "i":
                hyp.insert(rng.randint(0, len(hyp)), rng.choice(VOCAB))
            elif op == "w" and len(hyp) > 3:
                a = rng.randrange(len(hyp) - 2)
                block = hyp[a:a + rng.randint(1, 3)]
                del hyp[a:a + len(block)]
                at = rng.randint(0, len(hyp))
                hyp[at:at] = block
        yield " ".join(hyp or [rng.choice(VOCAB)]), " ".join(ref)


def test_without_shifts_or_beam_it_is_the_levenshtein_distance():
    s = get_metric("ter").settings({"max_shift_distance": "0", "beam_width": "none", "case": "sensitive"})
    for h, r in _pairs(1, 400):
        edits, words, _ = segment(h, [r], s)
        assert edits == _levenshtein(h.split(), r.split()) and words == len(r.split()), (h, r)


def test_shifts_never_make_it_worse():
    free = get_metric("ter").settings({"beam_width": "none", "case": "sensitive"})
    for h, r in _pairs(2, 300):
        assert segment(h, [r], free)[0] <= _levenshtein(h.split(), r.split()), (h, r)


def test_a_shift_moves_words_without_changing_them():
    rng = random.Random(3)
    for _ in range(500):
        words = [str(i) for i in range(rng.randint(1, 9))]
        start = rng.randrange(len(words))
        end = rng.randint(start, len(words) - 1)
        newloc = rng.choice([-1] + [k for k in range(len(words)) if not start <= k <= end] or [-1])
        out = perform_shift(words, start, end, newloc)
        assert sorted(out) == sorted(words)
        i = out.index(words[start])
        assert out[i:i + end - start + 1] == words[start:end + 1]


def test_the_corpus_value_is_summed_edits_over_summed_lengths():
    x = {"hypotheses": ["a b c d", "a b x"], "references": [["a c b d"], ["a b", "a b c d"]]}
    # 1 edit of 4 words, and 1 edit over (2 + 4)/2 = 3 words: 2/7
    assert compute("ter", x).value == Fraction(2, 7)
    assert compute("ter", x, {"scale": "percent"}).value == Fraction(200, 7)


TERCOM = os.environ.get("METRIC_CONFORMANCE_TERCOM")


@pytest.mark.skipif(not TERCOM or not shutil.which("java"),
                    reason="tercom is not pointed at (METRIC_CONFORMANCE_TERCOM=<its classes or jar>) or java is "
                           "missing")
@pytest.mark.parametrize("flags, knobs", [((), {}), (("-s",), {"case": "sensitive"}), (("-N",), {"normalize": "yes"}),
                                          (("-P",), {"punctuation": "remove"}), (("-b", "3"), {"beam_width": "3"}),
                                          (("-d", "5"), {"max_shift_distance": "5"})])
def test_every_segment_equals_tercom(tmp_path, flags, knobs):
    pairs = list(_pairs(hash(flags) % 1000, 200, max_len=30))
    (tmp_path / "hyp").write_text("".join(f"{h} (s{i})\n" for i, (h, _) in enumerate(pairs)))
    (tmp_path / "ref").write_text("".join(f"{r} (s{i})\n" for i, (_, r) in enumerate(pairs)))
    subprocess.run(["java", "-cp", TERCOM, "ter.TER", "-r", str(tmp_path / "ref"), "-h", str(tmp_path / "hyp"),
                    "-n", str(tmp_path / "out"), "-o", "ter", *flags], check=True, capture_output=True)
    got = {}
    for line in (tmp_path / "out.ter").read_text().splitlines():
        p = line.split()
        if len(p) == 4 and p[0].startswith("s"):
            got[p[0].split(":")[0]] = (float(p[1]), float(p[2]))
    s = get_metric("ter").settings(knobs)
    for i, (h, r) in enumerate(pairs):
        edits, words, _ = segment(h, [r], s)
        assert (edits, float(words)) == got[f"s{i}"], (flags, h, r)
