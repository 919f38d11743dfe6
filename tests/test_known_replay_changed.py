"""A known-failure replay whose library value differs from the recorded one is a visible change,
and unexpected under --strict (issue: "a known failure never hides anything else"): the entry
no longer says what the library does."""
import dataclasses

import pytest

from conformance.casefiles.known import KnownIndex, load_known
from conformance.engine.runner import run_known_entry
from conformance.reports.records import changed_known, fixed_known


@pytest.fixture
def sk():
    pytest.importorskip("sklearn")
    from conformance.resolve import resolve_adapter
    a = resolve_adapter("sklearn")
    return a, load_known("sklearn")


def _entry(entries, eid):
    return next(e for e in entries if e.id == eid)


def test_a_replay_that_fails_as_recorded_is_no_change(sk):
    a, entries = sk
    e = _entry(entries, "sklearn-score_ndcg-0002")     # one document: scikit-learn raises ValueError
    r = run_known_entry(a, e, known=KnownIndex(a, entries))
    assert r.outcome == "known-failure"
    assert not changed_known(r) and not fixed_known(r)


def test_a_replay_with_another_library_value_is_a_change(sk):
    a, entries = sk
    e = dataclasses.replace(_entry(entries, "sklearn-score_ndcg-0002"),
                            library_value="raised ValueError: some other message")
    r = run_known_entry(a, e, known=KnownIndex(a, entries))
    assert r.outcome == "known-failure"            # it still fails ...
    assert changed_known(r)                         # ... but not as recorded: unexpected under --strict
    assert "record it again" in r.message and "some other message" in r.message


def test_temporary_file_names_are_no_change():
    import tempfile
    from conformance.casefiles.known import same_library_value
    from conformance.reports.records import without_temp_names
    a = f"raised CalledProcessError: Command '['perl', '{tempfile.gettempdir()}/tmpab12cd34']'"
    b = without_temp_names(f"raised CalledProcessError: Command '['perl', '{tempfile.gettempdir()}/tmpzz99yy88']'")
    assert same_library_value(a, b, raise_text=True)
    assert not same_library_value("raised ValueError: a", "raised ValueError: b", raise_text=True)
    assert same_library_value("raised ValueError: a", "raised ValueError: b")   # by type
    assert not same_library_value(0.0, "raised RuntimeError: x", raise_text=True)
    assert same_library_value(float("nan"), "nan", raise_text=True)
    assert same_library_value({"0": [1.0, float("nan")]}, {0: [1, float("nan")]}, raise_text=True)
