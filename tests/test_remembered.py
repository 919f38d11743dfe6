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
