"""The cache of searches cannot be turned against its user (issue: "a cache that cannot be
turned against its user"): nothing in it is read as code, a planted or edited entry never
decides a verdict, and a directory someone else can write is not used."""
import os
import pickle
import stat
from pathlib import Path

import pytest

from conformance.engine import store

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("METRIC_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("METRIC_CONFORMANCE_NO_CACHE", raising=False)   # (the test suite turns it off)
    store._state.clear()
    yield tmp_path / "cache"
    store._state.clear()


class _Plant:
    """Unpickling this runs code: it creates the file named by ``path``."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


KEY = ("divergence", "ndcg", "k:10", "k:5")
INPUT = {"qrels": {"q1": {"d1": 1}}, "run": {"q1": {"d1": 1.0, "d2": 2.0}}}


def test_directories_are_made_for_their_user_alone(cache):
    store.save("separating", KEY, INPUT)
    for d in (cache / "searches", cache / "searches" / store.namespace(),
              cache / "searches" / store.namespace() / "separating"):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d


def test_an_entry_reads_back_and_is_json(cache):
    store.save("separating", KEY, INPUT)
    assert store.load("separating", KEY) == INPUT
    (path,) = (cache / "searches" / store.namespace() / "separating").iterdir()
    assert path.read_text(encoding="utf-8").startswith("{")


def test_a_planted_pickle_runs_no_code(cache, tmp_path):
    marker = tmp_path / "pwned"
    folder = cache / "searches" / store.namespace()
    for kind in ("separating", "finding", "never", "find", "traces"):
        (folder / kind).mkdir(parents=True, exist_ok=True, mode=0o700)
        (folder / kind / store.digest(KEY)).write_bytes(pickle.dumps(_Plant(marker)))
    os.chmod(cache / "searches", 0o700)
    os.chmod(cache, 0o700)
    os.chmod(folder, 0o700)
    for kind in ("separating", "finding", "never", "find"):
        assert store.load(kind, KEY) is None
    assert store.entries("separating") == []
    assert not marker.exists()


def test_an_edited_entry_is_ignored_and_written_again(cache):
    store.save("separating", KEY, INPUT)
    (path,) = (cache / "searches" / store.namespace() / "separating").iterdir()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"d2": 2.0', '"d2": 0.5'), encoding="utf-8")   # the digest no longer matches
    assert store.load("separating", KEY) is None
    path.write_text(text[: len(text) // 2], encoding="utf-8")                    # truncated
    assert store.load("separating", KEY) is None
    store.save("separating", KEY, INPUT)
    assert store.load("separating", KEY) == INPUT


def test_what_a_run_cannot_check_again_is_not_kept(cache):
    """'No input separates these settings' and the walks decide without being checked: a
    planted one would hide a divergence, so none is written or read."""
    store.save("never", KEY, True)
    store.save("find", KEY, [b"blob"])
    assert store.load("never", KEY) is None and store.load("find", KEY) is None
    assert not (cache / "searches" / store.namespace() / "never").exists()


def test_a_directory_others_can_write_is_not_used(cache, capsys):
    cache.mkdir(parents=True)
    (cache / "searches").mkdir(mode=0o700)
    os.chmod(cache / "searches", 0o777)
    store.save("separating", KEY, INPUT)
    assert store.load("separating", KEY) is None
    assert not (cache / "searches" / store.namespace()).exists()
    assert "writable by other users" in capsys.readouterr().err


def test_no_persisted_data_is_read_with_pickle():
    """pickle stays on the pipe to a worker process (isolation.py) and in memory (copies of
    inputs in draws.py); no module loads a file with it."""
    for p in (ROOT / "conformance").rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        assert "pickle.load(" not in text, p
        if p.name != "isolation.py":
            assert "pickle.dump(" not in text, p
