"""The anchors' own spellings typed against ``score``: trec_eval's measure families and
its default measures, sacrebleu's positional references, -w, -b and standard input,
conlleval.pl's report and its FB1; each figure compared with the anchor's on the same
files, or derived by hand beside it."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d4 1\n"
RUN = "q1 Q0 d1 1 0.9 s\nq1 Q0 d2 2 0.8 s\nq1 Q0 d3 3 0.7 s\nq2 Q0 d5 1 0.5 s\nq2 Q0 d4 2 0.4 s\n"


def _score(*argv, stdin: bytes | None = None) -> str:
    """The command as a user types it: a whole process (standard input included)."""
    done = subprocess.run([sys.executable, "-m", "conformance", "score", *argv], input=stdin,
                          capture_output=True, check=True)
    return done.stdout.decode()


def _rows(out: str) -> dict:
    return {l.split("\t")[0].strip(): l.split("\t")[2] for l in out.splitlines() if l and not l.startswith("#")}


@pytest.fixture
def trec(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def test_without_m_the_default_measures_print_as_trec_eval_prints_them(trec):
    """trec_eval with no -m prints its "official" measures (measures.c off_names), counts as
    integers; pytrec_eval's 'official' set gives the same figures (its counts summed over
    the queries, the rest averaged; gm_map is exp of the mean log AP)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    import math
    rows = _rows(_score(*trec))
    got = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(io.StringIO(QRELS)), {"official"}).evaluate(
        pytrec_eval.parse_run(io.StringIO(RUN)))
    names = sorted(next(iter(got.values())))
    assert set(rows) == set(names) - {"runid"}
    for m in names:
        if m == "runid":
            continue
        vals = [per[m] for per in got.values()]
        if m.startswith("num_"):
            assert rows[m] == str(int(sum(vals))), m   # "131", never "131.0000"
        elif m == "gm_map":
            assert rows[m] == f"{math.exp(sum(vals) / len(vals)):.4f}", m
        else:
            assert rows[m] == f"{sum(vals) / len(vals):.4f}", m


def test_a_measure_family_without_a_parameter_is_its_default_cutoffs(trec):
    rows = _rows(_score("-m", "P", "success", "iprec_at_recall", *trec))
    assert [k for k in rows if k.startswith("P_")] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert [k for k in rows if k.startswith("success_")] == ["success_1", "success_5", "success_10"]
    assert len([k for k in rows if k.startswith("iprec_at_recall_")]) == 11
    # by hand: q1 has 2 relevant in its first 5, q2 has 1: P_5 = (2/5 + 1/5) / 2 = 3/10
    assert rows["P_5"] == "0.3000"
    # success_1: q1's first document is relevant, q2's is not: 1/2
    assert rows["success_1"] == "0.5000"
    two = _rows(_score("-m", "P.5,10", *trec))
    assert list(two) == ["P_5", "P_10"] and two["P_10"] == "0.1500"


@pytest.fixture
def text(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\nthere is a cat on the mat\n")
    (tmp_path / "hyp.txt").write_text("the cat sat on a mat\nthe cat is on the mat\n")
    return str(tmp_path / "ref.txt"), str(tmp_path / "hyp.txt")


def test_sacrebleus_positional_reference_width_score_only_and_standard_input(text):
    pytest.importorskip("sacrebleu")
    ref, hyp = text
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-m", "bleu", "-b", "-w", "4"],
                            capture_output=True, text=True, check=True).stdout.strip()
    smooth = ["--conventions", '{"smoothing": "exp"}']
    assert _score("-m", "bleu", ref, "-i", hyp, "-b", "-w", "4", *smooth).strip() == theirs
    with open(hyp, "rb") as f:
        assert _score("-m", "bleu", ref, "-b", "-w", "4", *smooth, stdin=f.read()).strip() == theirs
    # two measures from one standard input (it was read once per measure, the second time empty)
    chrf = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-m", "chrf", "-b", "-w", "4"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with open(hyp, "rb") as f:
        both = _score("-m", "bleu", "chrf", ref, "-b", "-w", "4", stdin=f.read()).split()
    assert both[1] == chrf


def test_conllevals_report(tmp_path):
    """By hand, conlleval.pl's counting: 8 tokens (the -DOCSTART- line is one, tagged O O,
    correct); 6 correct tags (York and rocks are wrong): accuracy 75.00%. Gold phrases PER,
    LOC (New York), ORG: 3; found PER, LOC (New), ORG, MISC (rocks): 4; correct PER and ORG:
    2. Precision 2/4, recall 2/3, FB1 2PR/(P+R) = 4/7 = 57.14. Types in sorted order, each
    with the number of phrases found."""
    path = tmp_path / "t.conll"
    path.write_text("-DOCSTART- -X- O O\n\nJohn B-PER B-PER\nlives O O\nin O O\nNew B-LOC B-LOC\nYork I-LOC O\n\n"
                    "IBM B-ORG B-ORG\nrocks O B-MISC\n")
    assert _score("-m", "entity_f1", "--conll", str(path), "--format", "conlleval") == (
        "processed 8 tokens with 3 phrases; found: 4 phrases; correct: 2.\n"
        "accuracy:  75.00%; precision:  50.00%; recall:  66.67%; FB1:  57.14\n"
        "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        "             MISC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n")


def test_the_audit_reads_conllevals_fb1_and_points_a_bare_part_to_its_name(tmp_path):
    from conformance.audit import audit, parse_claim
    from oracle.conventions import InputError
    path = tmp_path / "t.conll"
    path.write_text("John B-PER B-PER\nlives O O\nNew B-LOC B-LOC\nYork I-LOC O\n")
    # by hand: gold PER, LOC; found PER, LOC (New); correct PER: P = R = F = 1/2
    assert audit(parse_claim(["FB1", "50.00", f"conll={path}"])).verdict == "consistent"
    with pytest.raises(InputError, match=r"named F1\[LOC\] \(or part=f1.LOC\)"):
        audit(parse_claim(["F1", "0", f"conll={path}", "part=LOC"]))


def test_score_imports_only_what_scoring_needs(tmp_path):
    """``score`` on text files loads no engine, no adapter protocol (and so no
    importlib.metadata), no audit search, no hypothesis and no NumPy: it starts as fast as
    jiwer's own command (about 150 ms each here)."""
    (tmp_path / "r.txt").write_text("a b c\n")
    (tmp_path / "h.txt").write_text("a c\n")
    code = ("import sys; from conformance.cli import main; "
            f"main(['score', '-m', 'wer', '-r', {str(tmp_path / 'r.txt')!r}, '-h', {str(tmp_path / 'h.txt')!r}]); "
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stderr.split())
    assert done.stdout.splitlines()[0].split("\t")[2] == "0.3333"   # by hand: one deletion in three words
    for heavy in ("conformance.engine.runner", "conformance.engine.isolation", "conformance.protocol",
                  "conformance.audit.judge", "importlib.metadata", "hypothesis", "numpy"):
        assert heavy not in loaded, heavy


def test_ter_prints_as_sacrebleus_command(tmp_path):
    """``score -m ter REF -i HYP -b -w 4`` against ``sacrebleu REF -i HYP -m ter -b -w 4`` on
    generated segments (block shifts, case, punctuation; segments where sacrebleu's shift
    search and tercom's part are rare: the known failure sacrebleu-ter-0002)."""
    pytest.importorskip("sacrebleu")
    import random
    rng = random.Random(8)
    words = ["the", "cat", "sat", "on", "a", "mat", "The", "dog,", "ran.", "home", "(x)", "3.5"]
    refs, hyps = [], []
    for _ in range(60):
        r = rng.choices(words, k=rng.randint(1, 14))
        h = list(r)
        if len(h) > 3:
            a = rng.randrange(len(h) - 2)
            block = h[a:a + 2]
            del h[a:a + 2]
            at = rng.randint(0, len(h))
            h[at:at] = block
        if h and rng.random() < 0.5:
            h[rng.randrange(len(h))] = rng.choice(words)
        refs.append(" ".join(r))
        hyps.append(" ".join(h))
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(refs) + "\n")
    hyp.write_text("\n".join(hyps) + "\n")
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-m", "ter", "-b", "-w", "4"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert _score("-m", "ter", str(ref), "-i", str(hyp), "-b", "-w", "4").strip() == theirs
