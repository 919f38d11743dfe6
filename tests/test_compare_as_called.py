"""``compare`` judges the user's input against the library as people call it: at its
defaults, against the canonical definition, knob by knob, with nothing typed but the input
(conformance.compare). Each expected value below is derived by hand."""
from __future__ import annotations

import json

import pytest

from conformance.cli import main
from conformance.compare import ambiguity, knob_effects, requested_against_canonical
from oracle.compare import Tolerance
from oracle.exact import Admissible
from fractions import Fraction


def _compare(capsys, adapter, metric, inputs, conventions=None):
    argv = ["compare", "--adapter", adapter, "--metric", metric, "--inputs", json.dumps(inputs)]
    if conventions:
        argv += ["--conventions", json.dumps(conventions)]
    rc = main(argv)
    return rc, json.loads(capsys.readouterr().out)


def test_sacrebleu_sentence_bleu_at_its_defaults_on_a_pair_without_4_gram_matches(capsys):
    pytest.importorskip("sacrebleu")
    # 'a b c d' against 'a b c e': p1 = 3/4, p2 = 2/3, p3 = 1/2, p4 = 0/1, equal lengths (BP 1).
    # Canonical (Papineni, no smoothing): BLEU 0. sacrebleu's default exp smoothing gives the first
    # zero order 1/(2 * 1): (3/4 * 2/3 * 1/2 * 1/2)^(1/4) = (1/8)^(1/4), in percent.
    rc, out = _compare(capsys, "sacrebleu", "sentence_bleu", {"hypothesis": "a b c d", "references": ["a b c e"]})
    d = out["at_defaults"]
    assert rc == 0 and d["outcome"] == "divergence" and d["verdict"] == "agree"
    assert d["canonical_exact"] == "0" and d["exact"] == "100*(1/8)**(1/4)"
    assert d["material"] == ["smoothing"]
    assert abs(d["library_value"] - 100 * (1 / 8) ** 0.25) < 1e-9
    assert "smoothing=exp (canonical none" in out["summary"]


def test_sklearn_precision_with_its_default_zero_division_on_an_input_with_an_empty_class(capsys):
    pytest.importorskip("sklearn")
    # y_true [0, 0, 1], y_pred [0, 0, 0], labels [0, 1]: class 1 is never predicted, so its
    # precision is 0/0: undefined by the definition (canonical zero_division=undefined), and so is
    # the macro mean. scikit-learn's defaults: average='binary' (class 1 alone) and zero_division 0.
    rc, out = _compare(capsys, "sklearn", "precision", {"y_true": [0, 0, 1], "y_pred": [0, 0, 0], "labels": [0, 1]})
    d = out["at_defaults"]
    assert rc == 0 and d["outcome"] == "divergence" and d["library_value"] == 0.0
    assert d["canonical_exact"].startswith("undefined(")
    zd = next(k for k in d["knobs"] if k["knob"] == "zero_division")
    assert zd == {**zd, "canonical": "undefined", "library": "zero", "material": True, "kind": "divergence"}
    # average is left open by the sources: reported as unspecified, with its values here
    avg = next(k for k in d["knobs"] if k["knob"] == "average")
    assert avg["kind"] == "unspecified" and avg["library"] == "binary"
    assert "zero_division=zero (canonical undefined; divergence)" in out["summary"]


def test_a_user_who_asks_for_zero_division_one_learns_the_canonical_value_differs(capsys):
    pytest.importorskip("sklearn")
    # macro precision at zero_division=1: class 0 has P = 2/3 (tp 2, fp 1), class 1 P = 0/0 -> 1:
    # (2/3 + 1)/2 = 5/6; canonically class 1's 0/0 is undefined, and so is the mean
    rc, out = _compare(capsys, "sklearn", "precision", {"y_true": [0, 0, 1], "y_pred": [0, 0, 0], "labels": [0, 1]},
                       {"zero_division": "one", "average": "macro"})
    r = out["requested_against_canonical"]
    assert out["exact"] == "5/6" and r["requested_exact"] == "5/6"
    assert r["canonical_exact"].startswith("undefined(") and r["material"] == ["zero_division"]


def test_jiwer_mer_on_tied_alignments_names_the_member_and_the_tie_rules(capsys):
    pytest.importorskip("jiwer")
    # 'a b' -> 'b c': distance 2 by two minimum-cost alignments: a deleted, b hit, c inserted
    # (H 1, S 0, D 1, I 1: MER = 2/3), or a->b and b->c substituted (H 0, S 2: MER = 1)
    rc, out = _compare(capsys, "jiwer", "mer", {"references": ["a b"], "hypotheses": ["b c"]})
    d = out["at_defaults"]
    assert rc == 0 and d["outcome"] == "unspecified" and d["exact"] == "{2/3, 1}"
    amb = d["ambiguity"]
    assert amb["member"] in ("2/3", "1") and amb["rules"]
    assert "rapidfuzz" in amb["rules"] or "rapidfuzz" in amb["other_rules"]
    tie = next(u for u in d["unspecified"] if u["knob"] == "tie")
    assert tie["values"]["prefer-substitution"] == "1" and tie["values"]["prefer-deletion-insertion"] == "2/3"
    assert f"the library returns {amb['member']}" in out["summary"]


def test_knob_effects_say_which_knob_moves_the_value_on_the_input():
    # WER of 'A b' against 'a b': case mixed gives 1 substitution in 2 words (1/2), lower gives 0
    x = {"references": ["a b"], "hypotheses": ["A b"]}
    from oracle.registry import get_metric
    m = get_metric("wer")
    effects = knob_effects("wer", x, m.settings({}), m.settings({"case": "lower", "punctuation": "remove"}))
    assert {e["knob"]: e["material"] for e in effects} == {"case": True, "punctuation": False}
    r = requested_against_canonical("wer", x, m.settings({"case": "lower"}))
    assert r["canonical_exact"] == "1/2" and r["requested_exact"] == "0" and r["material"] == ["case"]


def test_a_value_outside_the_admissible_set_is_no_member():
    tol = Tolerance()
    s = Admissible((Fraction(2, 3), Fraction(1)), {"rule-a": Fraction(1), "rule-b": Fraction(2, 3)})
    assert ambiguity(s, 0.5, tol)["member"] is None
    got = ambiguity(s, 2 / 3, tol)
    assert got["member"] == "2/3" and got["rules"] == ["rule-b"] and got["other_rules"] == {"rule-a": "1"}
