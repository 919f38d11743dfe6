"""The unit's memo of library calls: a dead library call (crash, exit, limit) is not made again."""
import pytest

from conformance.engine.isolation import LibraryDied
from conformance.engine.remembered import Remembered


class _Hangs:
    """Stands for an isolated adapter whose library hangs on every input (each call costs
    a time limit and ends in LibraryDied) and fails plainly on 'bad'."""
    name = "hangs"

    def __init__(self):
        self.calls = 0

    def run(self, configured, inputs):
        self.calls += 1
        if inputs == {"x": "bad"}:
            raise ValueError("bad input")
        raise LibraryDied("no answer within 300 s: the library's process was killed")


def test_a_dead_call_is_raised_again_without_calling_the_library():
    a = _Hangs()
    r = Remembered(a, {}, "setting")
    for _ in range(3):
        with pytest.raises(LibraryDied):
            r.run(None, {"x": 1})
    assert a.calls == 1
    # another input is a new call
    with pytest.raises(LibraryDied):
        r.run(None, {"x": 2})
    assert a.calls == 2


def test_an_ordinary_raise_is_not_remembered():
    a = _Hangs()
    r = Remembered(a, {}, "setting")
    for _ in range(2):
        with pytest.raises(ValueError):
            r.run(None, {"x": "bad"})
    assert a.calls == 2


class _Batches:
    """Stands for an isolated adapter with ``run_many``: 'bad' raises, 'dies' kills the worker."""
    name = "batches"

    def __init__(self):
        self.single, self.batched = [], []

    def run(self, configured, inputs):
        self.single.append(inputs)
        if inputs == {"x": "bad"}:
            raise ValueError("bad input")
        return inputs["x"] * 2

    def run_many(self, configured, inputs):
        self.batched.append(list(inputs))
        out = []
        for x in inputs:
            if x == {"x": "dies"}:
                out.append(("died", LibraryDied("the library's process exited with status 1")))
                break
            try:
                out.append(("ok", self.run(configured, x)))
            except ValueError as e:
                out.append(("raise", e))
        self.single.clear()
        return out


def test_prefetched_values_answer_later_calls_and_a_raise_answers_one():
    a = _Batches()
    r = Remembered(a, {}, "setting")
    r.prefetch(None, [{"x": 1}, {"x": "bad"}, {"x": 1}, {"x": 3}])
    assert a.batched == [[{"x": 1}, {"x": "bad"}, {"x": 3}]]     # once each
    assert r.run(None, {"x": 1}) == 2 and r.run(None, {"x": 3}) == 6 and a.single == []
    with pytest.raises(ValueError):
        r.run(None, {"x": "bad"})                                  # the prefetched raise
    assert a.single == []
    with pytest.raises(ValueError):
        r.run(None, {"x": "bad"})                                  # then a call of its own
    assert a.single == [{"x": "bad"}]
    r.prefetch(None, [{"x": 1}, {"x": 3}])                         # all remembered: no message
    assert len(a.batched) == 1


def test_a_death_in_a_prefetch_is_remembered_and_what_follows_is_not_run():
    a = _Batches()
    r = Remembered(a, {}, "setting")
    r.prefetch(None, [{"x": 1}, {"x": "dies"}, {"x": 5}])
    with pytest.raises(LibraryDied):
        r.run(None, {"x": "dies"})
    assert a.single == []
    assert r.run(None, {"x": 5}) == 10 and a.single == [{"x": 5}]
