"""metric-conformance score: exact values straight from the field's files, printing the
figures the anchor tools print (trec_eval via pytrec_eval, sacrebleu, jiwer, seqeval) to
their printed precision, with per-query, per-utterance and per-type rows."""
from __future__ import annotations

import csv
import io
import json

import pytest

from conformance.cli import main

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d4 1\n"
RUN = "q1 Q0 d1 1 0.9 s\nq1 Q0 d2 2 0.8 s\nq1 Q0 d3 3 0.7 s\nq2 Q0 d5 1 0.5 s\nq2 Q0 d4 2 0.4 s\n"
REFS = ["the cat sat on the mat", "there is a cat on the mat", "a b c d e f g"]
HYPS = ["the cat sat on a mat", "the cat is on the mat", "a b c d e g f"]
CONLL = ("John B-PER B-PER\nlives O O\nin O O\nNew B-LOC B-LOC\nYork I-LOC O\n\n"
         "IBM B-ORG B-ORG\nrocks O O\n\nParis B-LOC B-PER\n")


def _score(capsys, *argv) -> tuple[int, str]:
    rc = main(["score", *argv])
    return rc, capsys.readouterr().out


def _rows(out: str) -> dict:
    return {(l.split("\t")[0].strip(), l.split("\t")[1]): l.split("\t")[2]
            for l in out.splitlines() if l and not l.startswith("#")}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPS) + "\n")
    (tmp_path / "t.conll").write_text(CONLL)
    return tmp_path


def test_trec_measures_with_per_query_rows(files, capsys):
    rc, out = _score(capsys, "-m", "map", "P.2", "recip_rank", "-q", str(files / "qrels"), str(files / "run"),
                     "--exact")
    rows = _rows(out)
    # by hand: q1 ranks d1 (rel), d2, d3 (rel): AP (1 + 2/3)/2 = 5/6; q2 ranks d5, d4 (rel): AP 1/2; MAP 2/3
    assert rc == 0 and rows[("map", "all")] == "0.6667" and rows[("map", "q1")] == "0.8333"
    assert rows[("map", "q2")] == "0.5000" and "\t2/3" in out
    assert rows[("P.2", "all")] == "0.5000" and rows[("recip_rank", "all")] == "0.7500"
    assert "# map: average_precision|" in out and "ties:trec_eval" in out


def test_trec_measures_agree_with_pytrec_eval(files, capsys):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    measures = ["ndcg_cut.10", "map", "P.2", "recip_rank", "recall.2"]
    rc, out = _score(capsys, "-m", *measures, "-q", str(files / "qrels"), str(files / "run"))
    rows = _rows(out)
    q = pytrec_eval.parse_qrel(io.StringIO(QRELS))
    r = pytrec_eval.parse_run(io.StringIO(RUN))
    got = pytrec_eval.RelevanceEvaluator(q, set(measures)).evaluate(r)
    for qid, per in got.items():
        for m in measures:
            assert rows[(m, qid)] == f"{per[m.replace('.', '_')]:.4f}", (m, qid)


def test_bleu_prints_what_sacrebleu_prints(files, capsys):
    sacrebleu = pytest.importorskip("sacrebleu")
    rc, out = _score(capsys, "-m", "bleu", "-r", str(files / "ref.txt"), "-i", str(files / "hyp.txt"),
                     "--conventions", '{"smoothing": "exp"}')
    want = sacrebleu.corpus_bleu(HYPS, [REFS]).score   # sacrebleu's defaults: 13a, exp smoothing
    assert rc == 0 and _rows(out)[("bleu", "all")] == f"{want:.2f}"
    assert "(sacrebleu's format): nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in out


def test_error_rates_print_what_jiwer_prints_with_per_utterance_rows(files, capsys):
    jiwer = pytest.importorskip("jiwer")
    rc, out = _score(capsys, "-m", "wer", "cer", "-r", str(files / "ref.txt"), "-h", str(files / "hyp.txt"), "-q")
    rows = _rows(out)
    assert rc == 0 and rows[("wer", "all")] == f"{jiwer.wer(REFS, HYPS):.4f}"
    assert rows[("cer", "all")] == f"{jiwer.cer(REFS, HYPS):.4f}"
    for i, (ref, hyp) in enumerate(zip(REFS, HYPS), 1):
        assert rows[("wer", str(i))] == f"{jiwer.wer(ref, hyp):.4f}"


def test_entity_scores_per_type_as_seqeval_gives_them(files, capsys):
    seqeval = pytest.importorskip("seqeval.metrics")
    rc, out = _score(capsys, "-m", "entity_f1", "--conll", str(files / "t.conll"), "-q")
    rows = _rows(out)
    gold = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "O"], ["B-LOC"]]
    pred = [["B-PER", "O", "O", "B-LOC", "O"], ["B-ORG", "O"], ["B-PER"]]
    report = seqeval.classification_report(gold, pred, output_dict=True)
    assert rc == 0 and rows[("entity_f1", "all")] == f"{seqeval.f1_score(gold, pred):.4f}"
    for t in ("LOC", "ORG", "PER"):
        assert rows[("entity_f1", t)] == f"{report[t]['f1-score']:.4f}", t
    assert "tagging scheme iob2, detected from the tags" in out


def test_output_formats(files, capsys):
    args = ["-m", "map", "recip_rank", str(files / "qrels"), str(files / "run")]
    rc, out = _score(capsys, *args, "--format", "json")
    lines = [json.loads(l) for l in out.splitlines()]
    assert rc == 0 and lines[0] == {"measure": "map", "item": "all", "value": "0.6667", "exact": "2/3"}
    rc, out = _score(capsys, *args, "--format", "csv", "--exact")
    assert list(csv.reader(io.StringIO(out)))[1] == ["map", "all", "0.6667", "2/3"]
    rc, out = _score(capsys, *args, "--format", "latex")
    assert out.startswith("\\begin{tabular}{llr}") and "map & all & 0.6667 \\\\" in out


def test_unsupported_and_malformed_requests_are_clear(files, capsys):
    assert main(["score", "-m", "meteor", "-r", str(files / "ref.txt"), "-i", str(files / "hyp.txt")]) == 2
    assert "-m meteor: not supported; the oracle has bleu" in capsys.readouterr().err
    assert main(["score", "-m", "map", str(files / "qrels")]) == 2
    assert "give the qrels and the run file" in capsys.readouterr().err
    assert main(["score", "-m", "wer", "-r", str(files / "ref.txt"), "-i", str(files / "hyp.txt"),
                 "--conventions", '{"k": 3}']) == 2
    assert "no measure has the knob(s) k" in capsys.readouterr().err


def test_trec_eval_depth_cuts_each_ranking(files, capsys):
    # -M 1: q1 keeps d1 (relevant; AP 1/2 of its 2 relevant), q2 keeps d5 (not relevant; AP 0)
    rc, out = _score(capsys, "-m", "map", "-q", "-M", "1", str(files / "qrels"), str(files / "run"))
    rows = _rows(out)
    assert rc == 0 and rows[("map", "all")] == "0.2500" and rows[("map", "q1")] == "0.5000"
    assert "-M 1: each query's first 1 documents" in out


def test_the_audit_reads_trec_eval_depth(files):
    from conformance.audit.claims import parse_claim
    from conformance.audit.judge import audit
    # -M used to be read and ignored: MAP 0.25 under -M 1 (above) was then "inconsistent"
    a = audit(parse_claim("MAP 0.25 qrels=qrels run=run trec_eval='-m map -M 1'", files))
    assert a.verdict == "consistent" and any("-M 1" in n for n in a.notes)


def test_alignments_are_shown_as_jiwer_shows_them(tmp_path, capsys):
    (tmp_path / "r").write_text("this is a test\nthe cat sat\n")
    (tmp_path / "h").write_text("this is test x\nthe cat sat down\n")
    rc, out = _score(capsys, "-m", "wer", "-r", str(tmp_path / "r"), "-h", str(tmp_path / "h"), "--align")
    # jiwer 4's visualize_alignment of the same pair (rapidfuzz's tie rule), line for line
    assert rc == 0
    assert ("REF: this is    a test\nHYP: this is test    x\n                S    S\n") in out
    assert ("REF: the cat sat ****\nHYP: the cat sat down\n                    I\n") in out


def test_oracle_inputs_from_a_json_file(tmp_path, capsys):
    # '--inputs file.json' used to answer "not JSON"
    (tmp_path / "in.json").write_text('\ufeff{"references": ["a b"], "hypotheses": ["a"]}')
    assert main(["oracle", "--metric", "wer", "--inputs", str(tmp_path / "in.json")]) == 0
    assert '"value": "1/2"' in capsys.readouterr().out   # one deletion in two words
    assert main(["oracle", "--metric", "wer", "--inputs", "@" + str(tmp_path / "none.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{bad")
    assert main(["oracle", "--metric", "wer", "--inputs", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert "bad.json: not JSON" in err and "line 1, column 2" in err
