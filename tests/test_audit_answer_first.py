"""The audit puts its answer first: reproducing settings with the fewest changes from the
stated ones lead, knobs with no effect on the data are named once, inconsistent figures
give their distance; the lowercasing knob can be stated; a CoNLL file in IOBES audits
without a stated scheme; --help lists every claim key."""
from __future__ import annotations

import pytest

from conformance.audit.claims import parse_claim
from conformance.audit.judge import audit
from conformance.audit.render import answer_groups, no_effect, render
from conformance.cli import build_parser, main

REFS = ["The café—déjà vu—costs €5.", "Ünïcode “quotes” and 3,000 items!", "He said: «bonjour», then left…"]
HYPS = ["The café — déjà vu costs €5.", "Ünïcode “quotes” and 3,000 item!", "He said «bonjour» then left…"]


@pytest.fixture
def texts(tmp_path):
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPS) + "\n")
    return tmp_path


def test_a_bleu_figure_made_with_intl_puts_tokenizer_intl_first(texts):
    sacrebleu = pytest.importorskip("sacrebleu")
    figure = f"{sacrebleu.corpus_bleu(HYPS, [REFS], tokenize='intl').score:.2f}"   # as a paper prints it
    a = audit(parse_claim(f"BLEU {figure} hyp=hyp.txt ref=ref.txt", texts))
    idle = no_effect(a)
    groups = answer_groups(a, idle)
    assert groups[0][1][0] == (("tokenizer", "intl"),)
    assert "case" in idle    # no letter case differs between these hypotheses and references
    text = render([a])
    first = [l for l in text.splitlines() if l.strip().startswith("ok ")][0]
    assert first.split()[-1] == "tokenizer=intl"
    assert "no effect here (any value gives the same figure): case" in text


def test_a_lowercased_wer_claim_can_be_stated(tmp_path):
    (tmp_path / "r.txt").write_text("Hello World\nthe Cat sat\n")
    (tmp_path / "h.txt").write_text("hello world\nthe cat sit\n")
    # by hand, lowercased: 5 reference words, one substitution (sat -> sit): 20%
    a = audit(parse_claim("WER 20.0% hyp=h.txt ref=r.txt case=lower", tmp_path))
    assert a.stated["case"] == "lower" and a.verdict == "consistent"
    # mixed case: Hello/hello, World/world, Cat/cat, sat/sit: 4 of 5, 80%
    assert audit(parse_claim("WER 80.0% hyp=h.txt ref=r.txt", tmp_path)).verdict == "consistent"


def test_an_iobes_conll_file_audits_without_a_stated_scheme(tmp_path, capsys):
    (tmp_path / "s.conll").write_text("John S-PER S-PER\nlives O O\nNew B-LOC B-LOC\nYork E-LOC O\n")
    # gold: PER, LOC (New York). Predicted B-LOC then O: conlleval's reading closes a LOC chunk
    # (New), a miss: P = R = 1/2, F1 50; the valid-only reading drops the unclosed chunk: P = 1,
    # R = 1/2, F1 2/3 = 66.67
    rc = main(["audit", "F1 66.67", f"conll={tmp_path / 's.conll'}"])
    out = capsys.readouterr().out
    assert rc == 1 and "scheme=iobes: detected from the tags" in out
    assert "value 50.0000  does not reproduce" in out and "ok         66.6667  reading=valid-only" in out


def test_an_inconsistent_figure_gives_its_distance(tmp_path):
    (tmp_path / "r.txt").write_text("a b c d\n")
    (tmp_path / "h.txt").write_text("a b c e\n")
    text = render([audit(parse_claim("WER 10.0% hyp=h.txt ref=r.txt", tmp_path))])
    # every setting gives 1/4 = 25%: off by 15 points
    assert "INCONSISTENT" in text and "off by 15.0" in text


def test_audit_help_lists_every_claim_key():
    sub = build_parser()._subparsers._group_actions[0].choices["audit"]
    text = sub.format_help()
    for key in ("hyp=", "qrels=", "conll=", "golden=F#ID", "sacrebleu=SIG", "trec_eval=CMD", "part=NAME",
                "KNOB=VALUE", "case=lower"):
        assert key in text, key


def test_per_type_and_per_query_figures_can_be_audited(tmp_path):
    (tmp_path / "p.conll").write_text("John B-PER B-PER\nlives O O\nNew B-LOC B-LOC\nYork I-LOC O\n\n"
                                      "Paris B-LOC B-LOC\n")
    # LOC by hand: gold New York, Paris; predicted New (B-LOC then O), Paris: tp 1 of 2 and 2, F1 1/2
    a = audit(parse_claim("F1[LOC] 50.00 conll=p.conll", tmp_path))
    assert a.claim.part == "f1.LOC" and a.verdict == "consistent"
    assert audit(parse_claim("F1[LOC] 66.67 conll=p.conll", tmp_path)).verdict == "inconsistent"
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d4 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 0.9 s\nq1 Q0 d2 2 0.8 s\nq1 Q0 d3 3 0.7 s\nq2 Q0 d4 1 0.5 s\n")
    # q1 ranks d1 (relevant), d2, d3 (relevant): AP (1/1 + 2/3)/2 = 5/6 = 0.8333
    q = audit(parse_claim("MAP[q1] 0.8333 qrels=qrels run=run", tmp_path))
    assert q.claim.part == "per_query.q1" and q.verdict == "consistent"
