"""oracle.many.compute_settings: one input under many settings at once, with the
sufficient statistics shared (BLEU n-gram counts, error-rate alignments, ranking
profiles), checked against ``compute`` setting by setting; and the fixed-point
bounds of a mean of closed forms (``oracle.certified.TermMean``)."""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings as hsettings

from conformance import formats as F
from conformance.audit.space import knob_space
from conformance.strategies.ranking import ranking_inputs
from conformance.strategies.speech import transcript_pairs
from oracle.bleu import BLEU, bleu_from_stats
from oracle.certified import TermMean, _term_expr, interval, same_value
from oracle.conventions import ConventionError, InputError
from oracle.many import Refused, compute_settings
from oracle.many_bleu import fast_segment_term
from oracle.registry import compute

DATA = Path(__file__).resolve().parent / "data" / "audit"


def _agree(metric, inputs, fixed=None, n=None):
    """compute_settings over the audit's search space equals compute, setting by setting."""
    settings = knob_space(metric, {"scale": "fraction"} if metric == "bleu" else {}, fixed or {})
    if n:
        settings = settings[:n]
    assert len(settings) > 1
    fast = compute_settings(metric, inputs, settings)
    assert len(fast) == len(settings)
    for s, a in zip(settings, fast):
        try:
            b = compute(metric, inputs, s).value
        except (InputError, ConventionError) as e:
            assert isinstance(a, Refused) or str(a).startswith("undefined"), (s, e)
            continue
        assert not isinstance(a, Refused), (s, a)
        assert same_value(a.expand() if isinstance(a, TermMean) else a, b, 30), s


def test_shared_bleu_statistics_agree_with_the_oracle():
    inputs = {"hypotheses": ["the cat sat on the mat .", "a dog ran", "Hi", "x y z w v"],
              "references": [["the cat is on the mat .", "a cat sat on a mat"], ["a dog ran fast", "dogs ran"],
                             ["hi there", "Hi"], ["x y q w v u"]]}
    _agree("bleu", inputs)


def test_shared_error_rate_alignments_agree_with_the_oracle():
    inputs = {"references": ["the quick brown fox", "Hello,  world", "", "a b"],
              "hypotheses": ["the quick fox", "hello world", "x", "b c"]}
    _agree("wer", inputs)
    _agree("cer", inputs)


def test_shared_ranking_profiles_agree_with_the_oracle():
    inputs = F.read_trec(DATA / "qrels.txt", DATA / "run.txt")
    inputs["qrels"]["q3"] = {"d9": 1}           # missing from the run
    inputs["run"]["q4"] = [["d1", "0.5"], ["d2", "0.5"]]  # not judged, tied scores
    inputs["run"]["q2"] = [["d5", "0.5"], ["d4", "0.5"], ["d6", "0.1"]]  # a judged document in a tie
    for metric in ("ndcg", "dcg", "reciprocal_rank", "precision_at_k", "average_precision", "hit_rate"):
        _agree(metric, inputs, {"k": "2"} if metric not in ("reciprocal_rank",) else {})


def test_fast_segment_terms_agree_with_bleu_from_stats():
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        c = rng.randint(1, 7)
        t = [max(c - n, 0) for n in range(4)]
        m = [rng.randint(0, x) for x in t] + [0]
        r = rng.choice([rng.randint(0, 9), Fraction(rng.randint(1, 20), 3)])
        conv = {"smoothing": rng.choice(["none", "floor", "add-k", "exp"]),
                "effective_order": rng.choice(["no", "yes"])}
        if conv["smoothing"] in ("floor", "add-k") and rng.random() < 0.5:
            conv["smoothing_value"] = rng.choice(["1/3", "2"])
        s = BLEU.settings(conv)
        term = fast_segment_term(m, t, c, r, s)
        if term is None:
            continue
        ref, _, _ = bleu_from_stats(m[:4], t[:4], c, r, s, 0)
        assert same_value(_term_expr(term), ref, 30), (m, t, c, r, conv)
        checked += 1
    assert checked > 200


def test_term_mean_bounds_contain_the_exact_mean():
    terms = [(Fraction(-1, 9), 3, 4, 4), (None, 1, 2, 2), Fraction(1, 3), (Fraction(-1, 2), 5, 7, 3)]
    tm = TermMean(terms).scaled(100)
    lo, hi = tm.bounds(80)
    elo, ehi = interval(tm.expand(), 200)
    assert lo <= elo and ehi <= hi and hi - lo < Fraction(1, 2 ** 70)


@hsettings(max_examples=25, deadline=None)
@given(ranking_inputs())
def test_ranking_settings_agree_with_compute_on_generated_runs(inputs):
    for metric in ("ndcg", "average_precision"):
        _agree(metric, inputs, {"k": "3"}, n=40)


@hsettings(max_examples=25, deadline=None)
@given(transcript_pairs(joiner=None))
def test_error_rate_settings_agree_with_compute_on_generated_transcripts(inputs):
    _agree("wer", inputs, n=60)


def test_shared_error_rates_follow_every_declared_knob_value():
    """Each value of each knob the metric declares (not the audit's hand-made list), alone
    and in pairs: the shared computation equals compute. A knob added to the metric but
    not to a list of tokenizing knobs made the shared path reuse tokens it must not."""
    from itertools import combinations, product
    from oracle.registry import get_metric
    inputs = {"references": ["The quick, brown fox", "Hello\u00a0 world", "", "a\tb c"],
              "hypotheses": ["the quick fox", "hello world!", "x", "b  c"]}
    for metric in ("wer", "cer"):
        knobs = [k for k in get_metric(metric).knobs if k.choices]
        settings = [{}]
        for a, b in combinations(knobs, 2):
            settings += [{a.name: x, b.name: y} for x, y in product(a.choices, b.choices)]
        full = [get_metric(metric).settings(s) for s in settings]
        for s, a in zip(full, compute_settings(metric, inputs, full)):
            try:
                b = compute(metric, inputs, s).value
            except (InputError, ConventionError):
                assert isinstance(a, Refused) or str(a).startswith("undefined"), s
                continue
            assert not isinstance(a, Refused) and same_value(a, b, 30), (metric, s)


def test_every_value_the_audit_searches_is_a_value_its_knob_declares():
    """The audit's space names knob values by hand; a value renamed or dropped in the
    metric's declaration fails here, not as a search that silently skips it."""
    from conformance.audit.space import SPACES
    from oracle.registry import get_metric
    for metric, space in SPACES.items():
        declared = {k.name: k for k in get_metric(metric).knobs}
        for knob, values in space.items():
            assert knob in declared, (metric, knob)
            k = declared[knob]
            for v in values:
                get_metric(metric).settings({knob: v})   # a parametric knob's value parses, or ConventionError
                assert not k.choices or v in k.choices, (metric, knob, v, k.choices)
