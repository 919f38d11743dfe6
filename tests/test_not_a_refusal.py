"""An error is not a refusal: a library call that ends in an exit, a signal, a hang or a
memory kill is an ``error`` record wherever it happens, on inputs the spec refuses too.
A library that dies on every call gets no ``pass`` in a whole run of its metric
(conformance.engine.judge.NOT_REFUSALS)."""
from __future__ import annotations

import pytest

from conformance.engine.isolation import CallFailed, LibraryDied, Limits, isolated
from conformance.engine.judge import judge_invalid
from conformance.engine.runner import run_all
from tests.inhouse_unreliable import exits_always, segfaults_always, sys_exits_always

ALWAYS = [segfaults_always, exits_always, sys_exits_always]


@pytest.mark.parametrize("impl", ALWAYS, ids=lambda f: f.adapter.name)
def test_a_library_that_dies_on_every_call_gets_no_pass(impl):
    records = run_all({impl.adapter.name: impl.adapter}, {}, metrics=["accuracy"], examples=3, jobs=1,
                      limits=Limits(timeout=20))
    assert records
    passed = [f"{r.kind} {r.test}" for r in records if r.outcome == "pass"]
    assert passed == []
    # the golden error(...) cases and the invalid-input properties were judged, as errors
    invalid = [r for r in records if r.kind == "property" and r.test.startswith("invalid")]
    assert invalid and all(r.outcome == "error" for r in invalid), [(r.test, r.outcome) for r in invalid]
    refused_cases = [r for r in records if r.kind == "golden" and str(r.exact).startswith("error(")]
    assert refused_cases and all(r.outcome == "error" for r in refused_cases)
    assert all("died" in str(r.library_value) or r.outcome != "error" for r in refused_cases)


def test_a_death_on_an_input_the_spec_refuses_is_a_crash_not_a_refusal():
    bad = {"y_true": [1, 0], "y_pred": [1]}   # unequal lengths: the spec refuses it
    for impl, said in [(segfaults_always, "SIGSEGV"), (exits_always, "status 2"), (sys_exits_always, "sys.exit")]:
        v = judge_invalid(isolated(impl.adapter, Limits(timeout=20)), "accuracy", {}, bad, "InputError: unequal")
        assert v.status == "crash", (impl.adapter.name, v.status, v.message)
        assert said in v.message and "not a refusal" in v.explanation


def test_sys_exit_and_an_unpicklable_value_come_back_as_call_failures():
    from conformance.functions import implementation

    @implementation("accuracy", name="returns-a-generator")
    def returns_generator(inputs):
        return (x for x in [1])

    ok = {"y_true": [1], "y_pred": [1]}
    a = isolated(sys_exits_always.adapter, Limits(timeout=20))
    with pytest.raises(LibraryDied, match=r"sys.exit\('no'\)"):
        a.run(a.configure("accuracy", a.profile("accuracy")), ok)
    b = isolated(returns_generator.adapter, Limits(timeout=20))
    with pytest.raises(CallFailed, match="cannot be carried back"):
        b.run(b.configure("accuracy", b.profile("accuracy")), ok)


def test_a_library_that_closes_its_pipe_is_said_so_not_reported_killed():
    """It was reported 'killed by SIGKILL': the kill was the engine's, after the pipe closed."""
    from tests.inhouse_unreliable import closes_descriptors
    wrapped = isolated(closes_descriptors.adapter, Limits(timeout=20))
    try:
        with pytest.raises(LibraryDied, match="closed its pipe to the engine") as e:
            wrapped.run(wrapped.configure("accuracy", {}), {"y_true": [1], "y_pred": [1]})
        assert "SIGKILL" not in str(e.value)
    finally:
        wrapped.close()

