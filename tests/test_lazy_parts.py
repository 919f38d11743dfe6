"""The tie rules' alignments of a tie=any result are computed when read, once,
and read the same as if they had been computed at once (oracle/lazy.py)."""

import copy
import pickle

from oracle import compute
from oracle.lazy import Lazy, LazyParts, Once

PAIR = {"references": ["a b", "x y z"], "hypotheses": ["b c", "x z"]}


def test_once_runs_its_function_a_single_time():
    calls = []

    def f(x):
        calls.append(x)
        return {"k": x}
    once = Once(f, 3)
    view = Lazy(once, "k")
    assert calls == []
    assert once() == {"k": 3} and once() == {"k": 3}
    assert calls == [3]
    parts = LazyParts({"plain": 1}, {"later": Lazy(Once(dict, {"a": 2}))})
    assert "later" in parts and list(parts) == ["plain", "later"] and len(parts) == 2
    assert parts["later"]["a"] == 2
    del view


def test_tie_any_reads_the_rules_only_when_asked():
    r = compute("error_counts", PAIR, {})
    lazy = r.parts._lazy["alignments"]
    assert not lazy._once.done, "the alignments were computed before anything read them"
    # ref "a b" / hyp "b c": S S (I = 0) or D C I (I = 1); "x y z" / "x z": C D C
    assert r.parts["counts"]["prefer-substitution"] == {"hits": 2, "substitutions": 2, "deletions": 1, "insertions": 0}
    assert r.parts["counts"]["prefer-deletion-insertion"] == {"hits": 3, "substitutions": 0, "deletions": 2,
                                                               "insertions": 1}
    assert lazy._once.done
    assert r.parts["alignments"]["sclite"][0] == [["D", "a", None], ["C", "b", "b"], ["I", None, "c"]]
    assert r.value.by_rule["rapidfuzz"]["hits"] == 2


def test_a_lazy_result_pickles_copies_and_prints_as_plain_dicts():
    r = compute("mer", PAIR, {})
    back = pickle.loads(pickle.dumps(r))
    assert type(back.parts) is dict and type(back.value.by_rule) is dict
    assert back.parts == r.parts and back.value.by_rule == dict(r.value.by_rule)
    assert copy.deepcopy(r) == r
    js = r.to_json()
    assert set(js["parts"]) == {"admissible_counts", "alignments", "counts"}
    assert set(js["by_rule"]) == {"prefer-substitution", "prefer-deletion-insertion", "diagonal-first",
                                  "rapidfuzz", "sclite"}
