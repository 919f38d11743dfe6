"""conformance.functions: what a plain function implementing a ranking metric receives."""
import pytest

from conformance.functions import implementation
from conformance.protocol import Skip

SEEN = []


@implementation("hit_rate", conventions={"k": "1"})
def first_is_relevant(inputs):
    SEEN.append(inputs["run"])
    hits = [any(g >= 1 and d == max(r, key=lambda x: float(r[x]), default=None) for d, g in inputs["qrels"][q].items())
            for q, r in inputs["run"].items()]
    return sum(hits) / len(hits)


def _call(inputs):
    a = first_is_relevant.adapter
    return a.run(a.configure("hit_rate", a.profile("hit_rate")), inputs).value


def test_a_list_form_ranking_is_passed_as_a_dict():
    SEEN.clear()
    value = _call({"qrels": {"q1": {"d2": 1}}, "run": {"q1": [["d1", "0.5"], ["d2", 2]]}})
    assert SEEN == [{"q1": {"d1": "0.5", "d2": 2}}] and value == 1.0


def test_a_ranking_that_repeats_a_document_is_not_passed():
    SEEN.clear()
    with pytest.raises(Skip, match=r"run\['q1'\]\[2\]: document 'd1' is listed twice"):
        _call({"qrels": {"q1": {"d1": 1}}, "run": {"q1": [["d1", 1], ["d2", 2], ["d1", 3]]}})
    assert SEEN == []


def test_rankings_as_given_passes_the_list():
    got = []

    @implementation("hit_rate", rankings="as-given")
    def raw(inputs):
        got.append(inputs["run"]["q1"])
        return 0.0

    a = raw.adapter
    a.run(a.configure("hit_rate", a.profile("hit_rate")), {"qrels": {"q1": {}}, "run": {"q1": [["d1", 1], ["d1", 2]]}})
    assert got == [[["d1", 1], ["d1", 2]]]
    with pytest.raises(ValueError, match="rankings='lists'"):
        implementation("hit_rate", rankings="lists")(lambda inputs: 0.0)
