"""Ambiguity is shown, not absorbed: where the exact value is a set of admissible values
(tied minimum-cost alignments), a library's member passes conformance, and the run says
which named tie rule picks its members on many inputs, or that none does (a defect)
(conformance.engine.ties)."""
from __future__ import annotations

from fractions import Fraction

from conformance.engine.divergence import reported_knobs
from conformance.casefiles.known import KnownIndex
from conformance.engine.ties import admissible_knobs, run_tie_rule, tied_candidates
from conformance.functions import implementation
from oracle.exact import Admissible
from oracle.registry import compute


def _mer_by_hand(ref: list, hyp: list, prefer_substitution: bool) -> float:
    """MER = (S + D + I)/(H + S + D + I) of one pair, by a full DP backtrace written here: among
    the minimum-cost alignments, the one with the most substitutions (``prefer_substitution``)
    or the fewest. Each cell keeps the (cost, -S or S) minimum; S, D, I then give H = N - S - D."""
    n, m = len(ref), len(hyp)
    sign = -1 if prefer_substitution else 1
    # best[i][j] = (cost, sign * substitutions, deletions, insertions)
    best = [[None] * (m + 1) for _ in range(n + 1)]
    best[0][0] = (0, 0, 0, 0)
    for i in range(n + 1):
        for j in range(m + 1):
            if i == j == 0:
                continue
            opts = []
            if i and j:
                c, s, d, ins = best[i - 1][j - 1]
                sub = ref[i - 1] != hyp[j - 1]
                opts.append((c + sub, s + sign * sub, d, ins))
            if i:
                c, s, d, ins = best[i - 1][j]
                opts.append((c + 1, s, d + 1, ins))
            if j:
                c, s, d, ins = best[i][j - 1]
                opts.append((c + 1, s, d, ins + 1))
            best[i][j] = min(opts)
    cost, s, d, ins = best[n][m]
    s = abs(s)
    h = n - s - d
    return (s + d + ins) / (h + s + d + ins)


def _pairs(inputs):
    return [(r.split(), h.split()) for r, h in zip(inputs["references"], inputs["hypotheses"])]


@implementation("mer", name="mer-most-substitutions")
def mer_most_substitutions(inputs):
    (r, h), = _pairs(inputs)
    return _mer_by_hand(r, h, prefer_substitution=True)


@implementation("mer", name="mer-fewest-substitutions")
def mer_fewest_substitutions(inputs):
    (r, h), = _pairs(inputs)
    return _mer_by_hand(r, h, prefer_substitution=False)


@implementation("mer", name="mer-inconsistent")
def mer_inconsistent(inputs):
    """The most substitutions when the reference starts with 'a', the fewest otherwise."""
    (r, h), = _pairs(inputs)
    return _mer_by_hand(r, h, prefer_substitution=r[0] == "a")


def _record(fn):
    a = fn.adapter
    assert admissible_knobs(a, "mer") == ["tie"]
    return run_tie_rule(a, "mer", "tie", KnownIndex(a, []))


def test_the_by_hand_mer_gives_both_members_of_a_tied_pair():
    # 'a b' -> 'b c': two substitutions (MER 1) or a deletion, a hit and an insertion (MER 2/3)
    assert _mer_by_hand(["a", "b"], ["b", "c"], True) == 1.0
    assert abs(_mer_by_hand(["a", "b"], ["b", "c"], False) - 2 / 3) < 1e-15
    exact = compute("mer", {"references": ["a b"], "hypotheses": ["b c"]}).value
    assert isinstance(exact, Admissible) and set(exact.values) == {Fraction(2, 3), Fraction(1)}


def test_a_library_that_prefers_substitutions_is_named_by_that_rule():
    r = _record(mer_most_substitutions)
    assert r.outcome == "divergence" and r.verdicts == {"divergence": "unspecified"}
    assert "prefer-substitution" in r.material["tie"][1].split("/")
    assert "prefer-deletion-insertion" not in r.material["tie"][1]
    assert "on 40 inputs" in r.explanation


def test_a_library_that_prefers_deletions_and_insertions_is_named_by_that_rule():
    r = _record(mer_fewest_substitutions)
    assert r.outcome == "divergence"
    assert "prefer-deletion-insertion" in r.material["tie"][1].split("/")
    assert "prefer-substitution" not in r.material["tie"][1].split("/")


def test_a_library_no_rule_reproduces_is_a_defect_with_the_input_that_shows_it():
    r = _record(mer_inconsistent)
    assert r.outcome == "fail" and r.material["tie"][1] == "none"
    assert "no named tie rule" in r.explanation and r.inputs is not None


def test_unspecified_knobs_are_reported_even_at_the_representative_value():
    # an implementation of precision at the oracle's every default: average is left open by the
    # sources (unspecified), so the run still shows which value it takes, against another
    @implementation("precision", name="precision-at-defaults")
    def precision_at_defaults(inputs):
        return 0.0
    knobs = {k: (shown, lib) for k, shown, lib in reported_knobs(precision_at_defaults.adapter, "precision")}
    assert knobs["average"][1] == "macro" and knobs["average"][0] != "macro"
    assert "zero_division" not in knobs   # its canonical value (undefined) is the definition's, not open


def test_the_tied_inputs_are_built_smallest_first():
    sizes = [len(x["references"][0].split()) + len(x["hypotheses"][0].split()) for x in tied_candidates("mer")]
    assert sizes == sorted(sizes) and sizes[0] == 2
