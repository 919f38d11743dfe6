"""ROUGE (``oracle.rouge``) against independent formulations: LCS lengths by enumerating
subsequences, clipped n-gram matches as a multiset intersection, the script's byte-level
reading of a text, ROUGE-Lsum of one sentence each as ROUGE-L, rouge-score itself where it
is installed, and the canonical ROUGE-1.5.5.pl where ``METRIC_CONFORMANCE_ROUGE155`` points
at it."""
from __future__ import annotations

import itertools
import os
import random
import re
import shutil
import subprocess
from collections import Counter
from fractions import Fraction

import pytest

from oracle import ConventionError, compute
from oracle.rouge import lcs_length, lcs_positions, ngram_stats, tokens

VOCAB = ["the", "cat", "a", "sat", "on", "mat", "dog", "ran", "home", "\u212a", "\u0130", "x-y", "caf\u00e9", "Mat.", "1",
         "e-mail", "--", "Stra\u00dfe"]


def _zipf_text(rng: random.Random, n: int) -> str:
    """Words of a Zipf-like vocabulary (weight 1/rank), a newline between some of them."""
    words = rng.choices(VOCAB, weights=[1 / (i + 1) for i in range(len(VOCAB))], k=n)
    return "".join(w + rng.choice([" ", " ", " ", "\n"]) for w in words).rstrip(" ")


def _brute_lcs(a: list, b: list) -> int:
    for k in range(min(len(a), len(b)), 0, -1):
        subs = {tuple(a[i] for i in idx) for idx in itertools.combinations(range(len(a)), k)}
        if any(tuple(b[i] for i in idx) in subs for idx in itertools.combinations(range(len(b)), k)):
            return k
    return 0


def test_lcs_length_is_the_longest_common_subsequence_by_enumeration():
    rng = random.Random(7)
    for _ in range(300):
        a = rng.choices("abc", k=rng.randint(0, 7))
        b = rng.choices("abc", k=rng.randint(0, 7))
        assert lcs_length(a, b) == _brute_lcs(a, b), (a, b)


def test_each_backtracking_gives_a_common_subsequence_of_that_length():
    rng = random.Random(8)
    for _ in range(300):
        ref = rng.choices("abcd", k=rng.randint(0, 8))
        hyp = rng.choices("abcd", k=rng.randint(0, 8))
        for path in ("up", "left"):
            pos = sorted(lcs_positions(ref, hyp, path))
            sub = [ref[i] for i in pos]
            it = iter(hyp)
            assert all(t in it for t in sub), (ref, hyp, path)   # a subsequence of hyp
            assert len(pos) == _brute_lcs(ref, hyp)


def test_clipped_matches_are_a_multiset_intersection():
    rng = random.Random(9)
    for _ in range(300):
        h = rng.choices("ab", k=rng.randint(0, 9))
        r = rng.choices("ab", k=rng.randint(0, 9))
        for n in (1, 2, 3):
            grams = lambda t: Counter(tuple(t[i:i + n]) for i in range(len(t) - n + 1))  # noqa: E731
            hit, rc, hc = ngram_stats(h, r, n)
            assert hit == sum((grams(h) & grams(r)).values())
            assert (rc, hc) == (max(len(r) - n + 1, 0), max(len(h) - n + 1, 0))


def _script_bytes(text: str) -> list[str]:
    """ROUGE-1.5.5's reading, on the UTF-8 bytes as Perl without ``use utf8`` sees them:
    tr/A-Z/a-z/, then every byte outside [A-Za-z0-9-] a space, '-' its own token, and only
    tokens starting with [a-z0-9$] kept."""
    raw = text.encode("utf-8")
    low = bytes(b + 32 if 65 <= b <= 90 else b for b in raw)
    spaced = re.sub(rb"-", b" - ", low)
    spaced = re.sub(rb"[^A-Za-z0-9\-]", b" ", spaced)
    return [t.decode("ascii") for t in spaced.split() if re.match(rb"^[a-z0-9$]", t)]


def test_the_script_tokenizer_reads_bytes_as_perl_does():
    rng = random.Random(10)
    extra = ["\u212a", "\u0130", "\u00c9t\u00c9", "\u00df", "A-B", "$5", "--", "\u00bd", "\u0661"]
    for _ in range(300):
        text = " ".join(rng.choices(VOCAB + extra, k=rng.randint(0, 8)))
        assert tokens(text, "rouge-1.5.5") == _script_bytes(text), text


def test_rouge_lsum_of_one_sentence_each_is_rouge_l():
    rng = random.Random(11)
    for _ in range(200):
        hyp = " ".join(rng.choices(VOCAB, k=rng.randint(0, 9)))
        refs = [" ".join(rng.choices(VOCAB, k=rng.randint(1, 9))) for _ in range(rng.randint(1, 3))]
        x = {"hypotheses": [hyp], "references": [refs]}
        for rule in ("pooled", "best-recall", "best-f", "average"):
            for m in ("f", "recall", "precision"):
                s = {"multi_reference": rule, "measure": m}
                assert compute("rouge_lsum", x, s).value == compute("rouge_l", x, s).value


def test_alpha_above_one_is_refused_as_the_script_does():
    with pytest.raises(ConventionError, match="at most 1"):
        compute("rouge_n", {"hypotheses": ["a"], "references": [["a"]]}, {"alpha": "2"})


def test_pooled_segments_with_averaged_references_are_refused():
    with pytest.raises(ConventionError, match="multi_reference=average"):
        compute("rouge_n", {"hypotheses": ["a"], "references": [["a"]]},
                {"aggregate": "pooled", "multi_reference": "average"})


def test_percent_is_a_hundred_times_the_fraction():
    x = {"hypotheses": ["a b"], "references": [["a b c"]]}
    assert compute("rouge_n", x, {"scale": "percent"}).value == 100 * compute("rouge_n", x).value == Fraction(80)


def test_the_oracle_agrees_with_rouge_score_where_no_reference_ties():
    """rouge-score (the canonical Python port of ROUGE-1.5.5's tokenization and union LCS)
    on Zipf-like summaries of one to three references: every measure agrees with the
    oracle's tokenizer=rouge-score, multi_reference=best-f, except where two references tie
    on F exactly (rouge-score's float argmax may then take either: a known failure)."""
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    rng = random.Random(12)
    compared = 0
    for _ in range(400):
        hyp = _zipf_text(rng, rng.randint(0, 14))
        refs = [_zipf_text(rng, rng.randint(0, 14)) for _ in range(rng.randint(1, 3))]
        got = scorer.score_multi(refs, hyp)
        for key, metric, n in (("rouge1", "rouge_n", {"n": "1"}), ("rouge2", "rouge_n", {"n": "2"}),
                               ("rougeL", "rouge_l", {}), ("rougeLsum", "rouge_lsum", {})):
            base = dict(n, tokenizer="rouge-score", multi_reference="best-f")
            fs = [compute(metric, {"hypotheses": [hyp], "references": [[r]]}, base).value for r in refs]
            tie = len(set(fs)) < len(fs)
            for measure, field in (("f", "fmeasure"), ("recall", "recall"), ("precision", "precision")):
                if tie and measure != "f":
                    continue
                want = compute(metric, {"hypotheses": [hyp], "references": [refs]}, dict(base, measure=measure)).value
                assert abs(getattr(got[key], field) - float(want)) <= 1e-12, (key, measure, hyp, refs)
                compared += 1
    assert compared > 3000


ROUGE155 = os.environ.get("METRIC_CONFORMANCE_ROUGE155")


@pytest.mark.skipif(not ROUGE155 or not shutil.which("perl"),
                    reason="ROUGE-1.5.5 is not pointed at (METRIC_CONFORMANCE_ROUGE155=<the directory of ROUGE-1.5.5.pl "
                           "and its data/>; the script needs Perl's XML::DOM and DB_File)")
@pytest.mark.parametrize("flags, conventions", [((), {}), (("-f", "B"), {"multi_reference": "best-recall"})])
def test_every_summary_equals_rouge_155(tmp_path, flags, conventions):
    """The canonical script itself, on Zipf-like summaries of one to three references and
    several sentences (one per line, its SPL format): each instance's ROUGE-1, ROUGE-2 and
    ROUGE-L recall and precision (printed to 5 decimals by ``-d``) equal the oracle's
    defaults (its ROUGE-L is summary-level: the oracle's rouge_lsum), and its ROUGE-SU4 the
    oracle's rouge_s with skip_distance=4 and the script's unigrams."""
    rng = random.Random(31 + len(flags))
    lines, cases = [], []
    for i in range(30):
        hyp = _zipf_text(rng, rng.randint(1, 14))
        refs = [_zipf_text(rng, rng.randint(1, 14)) for _ in range(rng.randint(1, 3))]
        (tmp_path / f"p{i}").write_text(hyp + "\n", encoding="utf-8")
        models = []
        for j, r in enumerate(refs):
            (tmp_path / f"m{i}_{j}").write_text(r + "\n", encoding="utf-8")
            models.append(str(tmp_path / f"m{i}_{j}"))
        lines.append(" ".join([str(tmp_path / f"p{i}"), *models]))
        cases.append((hyp, refs))
    (tmp_path / "config").write_text("\n".join(lines) + "\n")
    out = subprocess.run(["perl", "ROUGE-1.5.5.pl", "-e", "data", "-n", "2", "-2", "4", "-u", "-d", *flags, "-z", "SPL",
                          str(tmp_path / "config")], cwd=ROUGE155, capture_output=True, text=True, check=True).stdout
    printed = {(m.group(1), int(m.group(2))): (float(m.group(3)), float(m.group(4)))
               for m in re.finditer(r"X ROUGE-(\S+) Eval (\d+)\.X R:([\d.]+) P:([\d.]+)", out)}
    assert len(printed) == 120
    for i, (hyp, refs) in enumerate(cases):
        x = {"hypotheses": [hyp], "references": [refs]}
        for key, metric, n in (("1", "rouge_n", {"n": "1"}), ("2", "rouge_n", {"n": "2"}), ("L", "rouge_lsum", {}),
                               ("SU4", "rouge_s", {"skip_distance": "4", "unigrams": "all-but-last"})):
            parts = compute(metric, x, {**n, **conventions}).parts
            r, p = printed[(key, i + 1)]
            assert abs(float(parts["recall"]) - r) <= 5.1e-6 and abs(float(parts["precision"]) - p) <= 5.1e-6, \
                (key, hyp, refs)


@pytest.mark.skipif(not shutil.which("perl"), reason="perl is not on PATH")
def test_the_bootstrap_draws_are_perls_own():
    """``perl_draws`` (ROUGE-1.5.5's resampling: srand(seed), int(rand(n))) against Perl."""
    from oracle.rouge import perl_draws
    for seed, n in ((0, 7), (1, 3), (999, 40), (12345, 1000)):
        out = subprocess.run(["perl", "-e", f"srand({seed}); print join(',', map {{ int(rand({n})) }} 1..{n})"],
                             capture_output=True, text=True, check=True).stdout
        assert [int(x) for x in out.split(",")] == perl_draws(seed, n)


def test_one_summary_bootstraps_to_its_own_value():
    """Every resample of one summary draws that summary: the bootstrap estimate is its value."""
    x = {"hypotheses": ["a b"], "references": [["a b c"]]}
    assert compute("rouge_n", x, {"aggregate": "bootstrap-mean"}).value == compute("rouge_n", x).value == Fraction(4, 5)
