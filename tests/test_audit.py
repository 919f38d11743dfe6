"""The metric-conformance audit: figures, claims, formats, shared statistics and verdicts."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from conformance import audit as A
from conformance import formats as F
from conformance.cli import main
from oracle.conventions import ConventionError, InputError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "audit"
DOCUMENTS = ROOT / "golden" / "audits" / "documents.claims"

# the verdict of each claim of table.claims, in file order (derived by hand in its comments)
C, U, I = A.VERDICTS
TABLE = [
    ("BLEU 89.5", C), ("BLEU 89.5", C), ("BLEU 50.0", U), ("BLEU 100.0", I),
    ("WER 33.3%", C), ("WER 16.7%", U), ("WER 20.0%", I),
    ("F1 50.0", C), ("F1 33.3", U), ("accuracy 77.8", C),
    ("MRR 0.500", C), ("MRR 0.333", U), ("P@5 0.583", U), ("nDCG@3 .6254", C),
    ("CIDEr 5.000", C), ("CIDEr 0.500", U),
    ("VQA accuracy 50.0", U), ("VQA accuracy 80.0", C),
    ("EM 33.3", C), ("EM 50.0", U), ("F1 55.6", C),
    ("accuracy 0.600", C), ("BLEU 89.5", C),
]


@pytest.fixture(scope="module")
def table():
    claims = A.read_claims(DATA / "table.claims")
    return claims, A.audit_claims(claims)


# ------------------------------------------------------------------ figures and names

@pytest.mark.parametrize("text,name,number,places,pct", [
    ("BLEU 27.3", "BLEU", Fraction(273, 10), 1, False),
    ("WER 4.2%", "WER", Fraction(42, 10), 1, True),
    ("nDCG@10 .7140", "nDCG@10", Fraction(714, 1000), 4, False),
    ("F1 = 91.2", "F1", Fraction(912, 10), 1, False),
    ("MRR@10: 0.372", "MRR@10", Fraction(372, 1000), 3, False),
    ("CIDEr 1.123", "CIDEr", Fraction(1123, 1000), 3, False),
    ("P@5 0.4", "P@5", Fraction(4, 10), 1, False),
    ("accuracy 1", "accuracy", Fraction(1), 0, False),
])
def test_figures_parse_as_printed(text, name, number, places, pct):
    f = A.parse_figure(text)
    assert (f.name, f.number, f.places, f.percent_sign) == (name, number, places, pct)
    assert f.half_unit == Fraction(1, 2 * 10 ** places)


@pytest.mark.parametrize("text", ["BLEU", "BLEU twenty", "27.3", ""])
def test_figures_without_number_or_name_are_refused(text):
    with pytest.raises(A.ClaimError):
        A.parse_figure(text)


@pytest.mark.parametrize("name,fmt,metric,fixed", [
    ("BLEU", "text", "bleu", {}), ("BLEU-2", None, "bleu", {"order": "2"}), ("SacreBLEU", None, "bleu", {}),
    ("nDCG@10", "trec", "ndcg", {"k": "10"}), ("MRR@10", "trec", "reciprocal_rank", {"k": "10"}),
    ("P@5", "trec", "precision_at_k", {"k": "5"}), ("F1", "conll", "entity_f1", {}), ("F1", "squad", "squad_f1", {}),
    ("F1", "labels", "f1", {}), ("accuracy", "conll", "token_accuracy", {}), ("Exact Match", None, "exact_match", {}),
    ("CIDEr", "coco", "cider_d", {}), ("WER", "text", "wer", {}), ("MAP", "trec", "average_precision", {}),
])
def test_metric_names_resolve_with_the_format(name, fmt, metric, fixed):
    assert A.resolve_metric(name, fmt) == (metric, fixed)


def test_unknown_metric_names_the_nearest():
    with pytest.raises(A.ClaimError, match="did you mean 'bleu'"):
        A.resolve_metric("BLUE")


def test_scale_inferred_from_number_and_sign():
    from conformance.audit.claims import _scale as mk
    assert mk(A.parse_figure("BLEU 27.3"), "bleu", None) == 100
    assert mk(A.parse_figure("BLEU 0.273"), "bleu", None) == 1
    assert mk(A.parse_figure("WER 0.5%"), "wer", None) == 100
    assert mk(A.parse_figure("CIDEr 1.123"), "cider_d", None) == 1
    assert mk(A.parse_figure("CIDEr 112.3"), "cider_d", None) == 100
    assert mk(A.parse_figure("perplexity 27.3"), "perplexity", None) == 1
    assert mk(A.parse_figure("BLEU 0.9"), "bleu", "percent") == 100


# ------------------------------------------------------------------ conventions

def test_sacrebleu_signature_sets_the_knobs():
    k = A.parse_sacrebleu("nrefs:1|case:lc|eff:yes|tok:intl|smooth:floor|version:2.0.0", 1)
    assert k["case"] == "lower" and k["effective_order"] == "yes" and k["tokenizer"] == "intl"
    assert k["smoothing"] == "floor" and k["ref_length"] == "closest-shorter" and k["level"] == "corpus"
    old = A.parse_sacrebleu("BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.4.14")
    assert old["tokenizer"] == "13a" and old["smoothing"] == "exp" and old["case"] == "mixed"


@pytest.mark.parametrize("sig,msg", [("tok:zh", "tok:zh"), ("smooth:expo", "did you mean 'exp'"),
                                     ("nrefs:2", "nrefs:2"), ("case:upper", "case:upper"), ("colour:red", "unknown field")])
def test_bad_sacrebleu_signatures_are_named(sig, msg):
    with pytest.raises(A.ClaimError, match=re.escape(msg)):
        A.parse_sacrebleu(sig, 1)


def test_trec_eval_command_sets_k_threshold_and_missing():
    metric, knobs, files = A.parse_trec_eval("trec_eval -m ndcg_cut.10 -l 2 -c qrels.txt run.txt")
    assert metric == "ndcg" and knobs["k"] == "10" and knobs["threshold"] == "2" and knobs["missing"] == "zero"
    assert knobs["ties"] == "trec_eval" and knobs["gain"] == "linear" and files == ["qrels.txt", "run.txt"]
    assert A.parse_trec_eval("trec_eval -m recip_rank")[1]["missing"] == "skip"  # without -c


@pytest.mark.parametrize("cmd,msg", [("trec_eval -m ndcg_cutt.10", "did you mean 'ndcg_cut'"),
                                     ("trec_eval -m P", "give the cutoff"), ("trec_eval -R qrels_jg -m map", "-R"),
                                     ("trec_eval -m map -m P.5", "several measures")])
def test_bad_trec_eval_commands_are_named(cmd, msg):
    with pytest.raises(A.ClaimError, match=re.escape(msg)):
        A.parse_trec_eval(cmd)


# ------------------------------------------------------------------ formats

def test_readers_give_the_oracle_inputs():
    t = F.read_text(DATA / "bleu_hyp.txt", [DATA / "bleu_ref.txt"])
    assert t == {"hypotheses": ["the cat sat on the mat", "a dog ran"],
                 "references": [["the cat sat on the mat"], ["a dog ran fast"]]}
    w = F.read_text(DATA / "wer_hyp.txt", [DATA / "wer_ref.txt"], "wer")
    assert w["references"][1] == "Hello, world" and w["hypotheses"][0] == "the quick fox"
    c = F.read_conll(DATA / "tags.conll")
    assert c["gold"][0] == ["B-PER", "O", "O", "B-LOC", "I-LOC"] and c["pred"][1][-1] == "B-LOC"
    assert c["tokens"][1] == ["Mary", "works", "at", "Acme"]
    tr = F.read_trec(DATA / "qrels.txt", DATA / "run.txt")
    assert tr["qrels"]["q1"] == {"d1": 1, "d2": 0, "d3": 2}
    co = F.read_coco(DATA / "coco_results.json", DATA / "coco_annotations.json")
    assert co == {"candidates": ["a b", "c d"], "references": [["a b"], ["c d"]]}
    v = F.read_vqa(DATA / "vqa_results.json", DATA / "vqa_annotations.json")
    assert v["predictions"] == ["yes", "2"] and v["answers"][1].count("two") == 2
    sq = F.read_squad(DATA / "squad_dataset.json", DATA / "squad_predictions.json")
    assert sq == {"predictions": ["Eiffel Tower", "in 1889", None],
                  "references": [["the Eiffel Tower"], ["1889"], ["Paris"]]}
    assert F.read_labels(DATA / "truth.txt", DATA / "pred.txt") == {"y_true": [0, 0, 1, 1, 2], "y_pred": [0, 1, 1, 1, 0]}


def test_format_errors_name_file_and_line_or_json_path(tmp_path):
    with pytest.raises(F.FormatError, match=r"bad_columns.conll:2: 2 columns, but the first token line has 3"):
        F.read_conll(DATA / "bad_columns.conll")
    with pytest.raises(F.FormatError, match=r"bad_results.json: \[0\]\.caption: expected a string, got int"):
        F.read_coco(DATA / "bad_results.json", DATA / "coco_annotations.json")
    short = tmp_path / "short.txt"
    short.write_text("one line\n")
    with pytest.raises(F.FormatError, match="1 lines but the hypotheses file"):
        F.read_text(DATA / "bleu_hyp.txt", [short])
    broken = tmp_path / "broken.json"
    broken.write_text('{"data": [\n  {,}]}')
    with pytest.raises(F.FormatError, match=r"broken.json:2: not JSON"):
        F.read_squad(broken, DATA / "squad_predictions.json")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"ok\ncaf\xe9\n")
    with pytest.raises(F.FormatError, match=r"latin1.txt:2: not UTF-8"):
        F.read_lines(bad)
    with pytest.raises(F.FormatError, match="no such file|cannot read"):
        F.read_lines(tmp_path / "missing.txt")
    with pytest.raises(InputError, match="did you mean 'conll'"):
        F.load_inputs("conl", {}, "entity_f1")


# ------------------------------------------------------------------ the table of claims

def test_every_claim_of_the_table_gets_its_hand_derived_verdict(table):
    claims, audits = table
    assert [(c.figure.name + " " + c.figure.text) for c in claims] == [t for t, _ in TABLE]
    got = [a.verdict for a in audits]
    assert got == [v for _, v in TABLE], [(t, g) for (t, v), g in zip(TABLE, got) if v != g]


def test_undeclared_settings_are_named(table):
    claims, audits = table
    by_text = {}
    for c, a in zip(claims, audits):
        by_text.setdefault(c.figure.name + " " + c.figure.text, a)
    bleu50 = by_text["BLEU 50.0"]
    assert all(r.settings["level"] == "sentence-mean" for r in bleu50.reproducing)
    assert bleu50.stated_row.digits == "89.484"  # 100 * exp(-1/9) = 89.4839...
    wer = by_text["WER 16.7%"]
    # joined before alignment (contiguous) the two utterances align as they do apart: the same 1/6
    assert {(r.settings["case"], r.settings["punctuation"], r.settings["aggregate"]) for r in wer.reproducing} == \
        {("lower", "remove", "corpus"), ("lower", "remove", "contiguous")}
    mrr = by_text["MRR 0.333"]
    assert mrr.stated["threshold"] == "2" and mrr.stated_row.digits == "0.16667"  # 1/6
    assert all(r.settings["no_relevant"] == "skip" for r in mrr.reproducing)
    p5 = by_text["P@5 0.583"]
    assert all(r.settings["precision_denominator"] == "retrieved" for r in p5.reproducing)
    cider = by_text["CIDEr 0.500"]
    assert all(r.settings["factor"] == "1" for r in cider.reproducing)
    em = by_text["EM 50.0"]
    assert all(r.settings["missing"] == "skip" for r in em.reproducing)


def test_json_output_lists_every_setting(table):
    _, audits = table
    j = audits[0].to_json()
    assert j["verdict"] == C and j["settings"] == len(j["rows"]) and j["rows"][0]["stated"]
    json.dumps(j)


# ------------------------------------------------------------------ the documents

def _printed_figures():
    out = set()
    for f in sorted((ROOT / "golden" / "documents").glob("*.json")):
        for c in json.loads(f.read_text())["cases"]:
            for key in (c["expected"].get("printed") or {}):
                out.add((f.name, c["id"], None if key == "value" else key))
    return out


def test_every_printed_figure_of_the_documents_is_audited():
    claims = A.read_claims(DOCUMENTS)
    listed = set()
    for c in claims:
        m = re.search(r"case=\.\./documents/(\S+?)#(\w+)", c.text)
        listed.add((m.group(1), m.group(2), c.part))
    assert listed == _printed_figures()
    audits = A.audit_claims(claims)
    assert len(audits) == len(claims) and all(a.verdict in A.VERDICTS for a in audits)
    # the oracle bears out every printed figure under the document's own conventions
    assert [a.claim.text for a in audits if a.verdict != C] == []


def test_a_document_figure_searches_other_conventions():
    # document 001 prints VQA accuracy 0.500 under its strict-majority rule; the official rule
    # gives 23/30 on the same answers (golden case b583b682), which does not print as 0.500
    claim = A.parse_claim("VQA accuracy 0.500 case=../documents/001_e6f299f74aa61acb.json#3a2910ef",
                          DOCUMENTS.parent)
    a = A.audit(claim)
    assert a.verdict == C
    official = [r for r in a.rows if r.settings["rule"] == "official" and r.settings["normalization"] == "none"]
    assert official and not any(r.reproduces for r in official) and official[0].digits == "0.76667"


# ------------------------------------------------------------------ bad claims and the command

def test_claim_lines_split_figure_and_keys():
    c = A.parse_claim("BLEU 89.5 tokenizer=none hyp=bleu_hyp.txt ref=bleu_ref.txt", DATA)
    assert c.figure.text == "89.5" and c.stated == {"tokenizer": "none"} and c.scale == 100
    c = A.parse_claim("BLEU=0.895 hyp=bleu_hyp.txt ref=bleu_ref.txt", DATA)
    assert c.figure.name == "BLEU" and c.scale == 1
    c = A.parse_claim("'Exact Match' 33.3 dataset=squad_dataset.json predictions=squad_predictions.json", DATA)
    assert c.metric == "exact_match" and c.inputs["predictions"][2] is None


@pytest.mark.parametrize("line,msg", [
    ("BLEU hyp=bleu_hyp.txt ref=bleu_ref.txt", "no number"),
    ("BLUE 27.3 hyp=bleu_hyp.txt ref=bleu_ref.txt", "did you mean 'bleu'"),
    ("BLEU 27.3 hyp=bleu_hyp.txt ref=bleu_ref.txt tokeniser=13a", "did you mean 'tokenizer'"),
    ("BLEU 27.3 hyp=bleu_hyp.txt ref=bleu_ref.txt tokenizer=14a", "did you mean '13a'"),
    ("BLEU 27.3 hyp=bleu_hyp.txt ref=bleu_ref.txt format=txt", "did you mean 'text'"),
    ("BLEU 27.3", "no input files"),
    ("nDCG@10 0.5 qrels=qrels.txt run=run.txt trec_eval='trec_eval -m ndcg_cut.5'", "differs from the figure"),
    ("WER 4.2% hyp=bleu_hyp.txt ref=bleu_ref.txt sacrebleu=tok:13a", "sacrebleu signature states BLEU"),
    ("EM 50 conll=tags.conll", "cannot be computed from conll files"),
])
def test_bad_claims_are_named(line, msg):
    with pytest.raises((ConventionError, InputError), match=re.escape(msg)):
        A.parse_claim(line, DATA)


def test_command_exit_codes_and_one_line_errors(capsys, monkeypatch):
    monkeypatch.chdir(DATA)
    assert main(["audit", "WER", "33.3%", "hyp=wer_hyp.txt", "ref=wer_ref.txt"]) == 0
    out = capsys.readouterr().out
    assert "verdict: CONSISTENT" in out and "1 consistent" in out
    assert main(["audit", "--json", "WER", "16.7%", "hyp=wer_hyp.txt", "ref=wer_ref.txt"]) == 1
    j = json.loads(capsys.readouterr().out)
    assert j["verdict"] == U and j["reproducing"]
    assert main(["audit", "CoNLL-F1", "50", "conll=bad_columns.conll"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "audit:" in err[0]
    assert main(["audit", "F1", "50", "conll=bad_columns.conll"]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad_columns.conll:2" in err and "Traceback" not in err
    assert main(["audit"]) == 2


def _json(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("results, annotations, message", [
    ([{"image_id": 1, "caption": "a"}], {"images": []}, r"ann.json: \(top level\): expected an object with an "
                                                         r"'annotations' list"),
    ([{"image_id": 1, "caption": "a"}], {"annotations": [{"image_id": 1}]},
     r"ann.json: annotations\[0\]: missing 'caption'"),
    ([{"caption": "a"}], {"annotations": [{"image_id": 1, "caption": "a"}]}, r"res.json: \[0\]: missing 'image_id'"),
    ([{"image_id": 1, "caption": "a"}, {"image_id": 1, "caption": "b"}],
     {"annotations": [{"image_id": 1, "caption": "a"}]},
     r"res.json: \[1\]\.image_id: image 1 already has a caption at \[0\]"),
    ([{"image_id": 2, "caption": "a"}], {"annotations": [{"image_id": 1, "caption": "a"}]},
     r"res.json: \[0\]\.image_id: image 2 has no reference caption in .*ann.json"),
])
def test_coco_format_errors_name_the_record(tmp_path, results, annotations, message):
    with pytest.raises(F.FormatError, match=message):
        F.read_coco(_json(tmp_path, "res.json", results), _json(tmp_path, "ann.json", annotations))


_VQA_ANN = {"annotations": [{"question_id": 1, "answers": [{"answer": "yes"}]}]}


@pytest.mark.parametrize("results, annotations, questions, message", [
    ([{"question_id": 1, "answer": "a"}], {"annotations": [{"question_id": 1, "answers": [{"text": "x"}]}]}, None,
     r"ann.json: annotations\[0\]\.answers\[0\]: missing 'answer'"),
    ([{"question_id": 1}], _VQA_ANN, None, r"res.json: \[0\]: missing 'answer'"),
    ([{"question_id": 1, "answer": "a"}, {"question_id": 1, "answer": "b"}], _VQA_ANN, None,
     r"res.json: \[1\]\.question_id: question 1 already answered at \[0\]"),
    ([{"question_id": 3, "answer": "a"}], _VQA_ANN, None,
     r"res.json: \[0\]\.question_id: question 3 has no annotation in .*ann.json"),
    ([{"question_id": 1, "answer": "a"}], _VQA_ANN, {"questions": [{"question_id": 2}]},
     r"res.json: \[0\]\.question_id: question 1 is not in .*q.json"),
    ([{"question_id": 1, "answer": "a"}], _VQA_ANN, {"qs": []},
     r"q.json: \(top level\): expected an object with a 'questions' list"),
    # a question annotated twice: which annotation would be scored? (it was the last, silently)
    ([{"question_id": 1, "answer": "a"}], {"annotations": _VQA_ANN["annotations"] * 2}, None,
     r"ann.json: annotations\[1\]\.question_id: question 1 is annotated twice"),
])
def test_vqa_format_errors_name_the_record(tmp_path, results, annotations, questions, message):
    q = _json(tmp_path, "q.json", questions) if questions is not None else None
    with pytest.raises(F.FormatError, match=message):
        F.read_vqa(_json(tmp_path, "res.json", results), _json(tmp_path, "ann.json", annotations), q)


def test_a_squad_question_answered_twice_in_the_predictions_is_refused(tmp_path):
    """{"q1": "a", "q1": "b"}: Python's json (and the official script, which uses it) keeps the
    last answer silently; the referee names the key."""
    preds = tmp_path / "pred.json"
    preds.write_text('{"q1": "a", "q1": "b"}')
    data = _json(tmp_path, "data.json", {"data": [{"paragraphs": [{"qas": [{"id": "q1", "answers": [{"text": "a"}]}]}]}]})
    with pytest.raises(F.FormatError, match=r'pred.json: the key "q1" appears twice in one object'):
        F.read_squad(data, preds)
