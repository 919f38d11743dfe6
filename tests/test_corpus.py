"""The corpus (issue "one corpus of inputs"): plain JSON in a cache that cannot be turned
against its user, the same records from an empty and a warm cache, every input judged
(a known failure never ends the loop), the separators inside every corpus."""
import json
import os
import pickle
import stat
from fractions import Fraction
from pathlib import Path

import pytest

from conformance.engine import cache, corpus
from conformance.casefiles.known import KnownFailure, KnownIndex
from conformance.engine.plans import plan_for
from conformance.engine.properties import run_property
from conformance.functions import FunctionAdapter

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cached(monkeypatch, tmp_path):
    """A cache of its own, turned on (the test suite's default is whatever a user's is)."""
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE", raising=False)
    cache._state.clear()
    corpus._MEMORY.clear()
    yield tmp_path / "cache" / "corpus"
    cache._state.clear()
    corpus._MEMORY.clear()


class _Plant:
    """Unpickling this runs code: it creates the file named by ``path``."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


KEY = ("corpus", "ranking", "k:10")
ITEMS = [{"inputs": {"qrels": {"q1": {"d1": 1}}, "run": {"q1": {"d1": 1.0, "d2": 2.0}}}, "transformed": {},
          "probe": ""}]


def _accuracy(inputs):
    """Plain accuracy (correct / samples), as ``sum(t == p) / n``."""
    yt, yp = inputs["y_true"], inputs["y_pred"]
    return Fraction(sum(t == p for t, p in zip(yt, yp)), len(yt))


def _strip(r) -> dict:
    d = r.to_json()
    d.pop("seconds", None)
    return d


def test_directories_are_made_for_their_user_alone(cached):
    cache.save("corpus", KEY, ITEMS)
    for d in (cached, cached / cache.namespace(), cached / cache.namespace() / "corpus"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d


def test_an_entry_reads_back_and_is_json(cached):
    cache.save("corpus", KEY, ITEMS)
    assert cache.load("corpus", KEY) == ITEMS
    (path,) = (cached / cache.namespace() / "corpus").iterdir()
    assert json.loads(path.read_text(encoding="utf-8"))["value"] == ITEMS


def test_a_planted_pickle_runs_no_code(cached, tmp_path):
    marker = tmp_path / "pwned"
    folder = cached / cache.namespace() / "corpus"
    folder.mkdir(parents=True, mode=0o700)
    for d in (cached.parent, cached, cached / cache.namespace()):
        os.chmod(d, 0o700)
    (folder / cache.digest(KEY)).write_bytes(pickle.dumps(_Plant(marker)))
    assert cache.load("corpus", KEY) is None
    assert not marker.exists()


def test_an_edited_or_truncated_entry_is_ignored_and_written_again(cached):
    cache.save("corpus", KEY, ITEMS)
    (path,) = (cached / cache.namespace() / "corpus").iterdir()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"d2": 2.0', '"d2": 0.5'), encoding="utf-8")   # the digest no longer matches
    assert cache.load("corpus", KEY) is None
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    assert cache.load("corpus", KEY) is None
    cache.save("corpus", KEY, ITEMS)
    assert cache.load("corpus", KEY) == ITEMS


def test_a_directory_others_can_write_is_not_used(cached, capsys):
    cached.mkdir(parents=True)
    os.chmod(cached, 0o777)
    cache.save("corpus", KEY, ITEMS)
    assert cache.load("corpus", KEY) is None
    assert not (cached / cache.namespace()).exists()
    assert "writable by other users" in capsys.readouterr().err


def test_no_persisted_data_is_read_with_pickle():
    """pickle stays on the pipe to a worker process (isolation.py); no module of the engine
    writes or reads it anywhere else."""
    for p in (ROOT / "conformance").rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        if p.name != "isolation.py":
            assert "import pickle" not in text and "pickle." not in text, p


def test_the_corpus_holds_the_separators_and_reads_back_as_itself(cached):
    """The family's probes come first (by name), then the walk; a corpus read from the cache
    is the one made fresh."""
    plan = plan_for("bleu")
    strategy = plan.inputs({})
    fresh = corpus.items("bleu", strategy, plan.invariances, 20)
    names = [i.probe for i in fresh if i.probe]
    from oracle.separators import probes
    assert names == [n for n, _ in probes("bleu")] and names
    assert len(fresh) >= len(names) + 20   # (an example whose transformation overran is kept too)
    assert all(set(i.transformed) <= set(plan.invariances) for i in fresh)
    corpus._MEMORY.clear()
    warm = corpus.items("bleu", strategy, plan.invariances, 20)
    assert warm == fresh


def test_a_tampered_corpus_is_made_again(cached):
    """An edited corpus file (one input changed, its digest left) is not read: the corpus is
    made again, equal to the first."""
    plan = plan_for("accuracy")
    strategy = plan.inputs({})
    fresh = corpus.items("accuracy", strategy, {}, 10)
    (path,) = (cached / cache.namespace() / "corpus").iterdir()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["value"][-1]["inputs"]["y_pred"] = [99]
    path.write_text(json.dumps(data), encoding="utf-8")
    corpus._MEMORY.clear()
    assert corpus.items("accuracy", strategy, {}, 10) == fresh


class _TwoDefects(FunctionAdapter):
    """Accuracy with two planted defects: a single-sample input scores 0 (modelled, recorded
    as a known failure), and an input with the label "cat" scores 1/2 (not recorded)."""

    def defect_classifiers(self):
        return {"one-sample-zero": lambda metric, settings, inputs: len(inputs["y_true"]) == 1}

    def defect_models(self):
        return {"one-sample-zero": lambda metric, settings, inputs: 0}


def _two_defects(inputs):
    if len(inputs["y_true"]) == 1:
        return 0
    if "cat" in inputs["y_true"] and _accuracy(inputs) != Fraction(1, 2):
        return Fraction(1, 2)
    return _accuracy(inputs)


def _known(adapter, second: bool = False) -> KnownIndex:
    e = KnownFailure(id="t-accuracy-0001", adapter=adapter.name, metric="accuracy", kind="defect",
                     title="one sample scores 0", conventions={}, inputs={"y_true": [0], "y_pred": [0]},
                     exact="1", library_value=0, explanation="By hand: one correct sample of one: accuracy 1/1.",
                     classifier="one-sample-zero")
    return KnownIndex(adapter, [e])


def test_a_known_failure_does_not_end_the_loop(cached):
    """The recorded defect matches on every single-sample input; the unrecorded one is still
    found, shrunk, and reported as a failure of its own."""
    a = _TwoDefects(_two_defects, "accuracy", name="two-defects")
    r = run_property(a, "accuracy", "oracle-equal", _known(a), examples=60)
    assert r.outcome == "fail", r.message
    assert r.known_seen == ["t-accuracy-0001"]
    assert "cat" in r.inputs["y_true"] and len(r.inputs["y_true"]) >= 2
    assert "corpus inputs judged fail unexplained" in r.message
    # with only the recorded defect, the property is that known failure, every input judged
    b = _TwoDefects(lambda x: 0 if len(x["y_true"]) == 1 else _accuracy(x), "accuracy", name="one-defect")
    r2 = run_property(b, "accuracy", "oracle-equal", _known(b), examples=60)
    assert r2.outcome == "known-failure" and r2.known_failure == "t-accuracy-0001"
    assert r2.examples == r.examples > 10


def test_an_empty_and_a_warm_cache_give_the_same_records(cached):
    a = _TwoDefects(_two_defects, "accuracy", name="two-defects")
    cold = [_strip(run_property(a, "accuracy", p, _known(a), examples=40))
            for p in ("oracle-equal", "bounds", "invariance:sample-order")]
    assert any((cached / cache.namespace() / "corpus").iterdir())
    corpus._MEMORY.clear()
    warm = [_strip(run_property(a, "accuracy", p, _known(a), examples=40))
            for p in ("oracle-equal", "bounds", "invariance:sample-order")]
    assert cold == warm
