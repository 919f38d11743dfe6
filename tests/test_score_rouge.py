"""``score`` gives ROUGE from files as rouge-score's own command does: each line's
ROUGE-1, ROUGE-2 and ROUGE-L F (``-q``) equal to the per-example CSV of ``python -m
rouge_score.rouge --aggregate=false`` at its printed precision, under rouge-score's
conventions; and, by default, the canonical ones with a note naming the difference."""
from __future__ import annotations

import csv
import random
import subprocess
import sys

import pytest

from conformance.cli import main

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "home", "The", "CAT", "mat.", "x-ray", "caf\u00e9",
         "don't", "3.5", "(see)", "\u212a", "Stra\u00dfe", "to", "of", "and"]


def _line(rng: random.Random) -> str:
    # a Zipf-like vocabulary: the word of rank r drawn with weight 1/r
    return " ".join(rng.choices(WORDS, weights=[1 / (i + 1) for i in range(len(WORDS))], k=rng.randint(0, 15)))


@pytest.fixture()
def files(tmp_path):
    rng = random.Random(21)
    refs = [_line(rng) for _ in range(40)]
    hyps = [" ".join(r.split()[: rng.randint(0, 12)] + rng.choices(WORDS, k=rng.randint(0, 3))) for r in refs]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\ufeff" + "\n".join(refs) + "\n", encoding="utf-8")   # a byte-order mark, kept by both
    hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    return ref, hyp


def _score(capsys, *argv) -> list[list[str]]:
    assert main(["score", *argv]) == 0
    return [ln.split("\t") for ln in capsys.readouterr().out.splitlines() if not ln.startswith("#")]


def test_each_line_equals_rouge_scores_own_command(files, tmp_path, capsys):
    pytest.importorskip("rouge_score")
    ref, hyp = files
    out = tmp_path / "scores.csv"
    subprocess.run([sys.executable, "-m", "rouge_score.rouge", "--rouge_types=rouge1,rouge2,rougeL",
                    f"--target_filepattern={ref}", f"--prediction_filepattern={hyp}", f"--output_filename={out}",
                    "--aggregate=false"], check=True, capture_output=True)
    theirs = list(csv.DictReader(out.open()))
    assert len(theirs) == 40
    rows = _score(capsys, "-m", "rouge1", "rouge2", "rougeL", "-q", "--digits", "6",
                  "--conventions", '{"tokenizer": "rouge-score", "multi_reference": "best-f"}',
                  "-r", str(ref), "-i", str(hyp))
    per_line = {(name.strip(), item): float(value) for name, item, value, *_ in rows if item != "all"}
    for i, row in enumerate(theirs):
        for key in ("rouge1", "rouge2", "rougeL"):
            assert per_line[(key, str(i + 1))] == pytest.approx(float(row[f"{key}-F"]), abs=5e-7 + 1e-12), (key, i)
    mean = {name.strip(): float(v) for name, item, v, *_ in rows if item == "all"}
    for key in ("rouge1", "rouge2", "rougeL"):
        assert mean[key] == pytest.approx(sum(float(r[f"{key}-F"]) for r in theirs) / 40, abs=1e-6)


def test_the_canonical_default_names_rouge_scores_defaults(capsys, tmp_path):
    """One line, two references: pooled (Lin eq. 1, ROUGE-1.5.5's -f A) and rouge-score's
    best reference give different values, and the note says so with both settings."""
    hyp, r1, r2 = tmp_path / "h", tmp_path / "r1", tmp_path / "r2"
    hyp.write_text("a b c d e f\n")
    r1.write_text("a\n")
    r2.write_text("a b c d x y z w\n")
    assert main(["score", "-m", "rouge1", "--digits", "6", "-r", str(r1), "-r", str(r2), "-i", str(hyp)]) == 0
    text = capsys.readouterr().out
    assert "rouge1          \tall\t0.476190" in text   # 10/21, derived in golden/topics/rouge.json
    assert "multi_reference=pooled (the canonical default) where rouge-score's default is" in text
    assert "0.571429 on these files" in text            # 4/7: the reference of highest F
