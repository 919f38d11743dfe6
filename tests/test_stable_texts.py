"""Two runs of the same tree give the same report: temporary file names in what a library
said are written <temp file>."""
import os
import tempfile

from conformance.engine.runner import stable_texts
from conformance.reports.records import Record


def test_temporary_file_names_are_made_stable():
    tmp = tempfile.gettempdir()
    said = (f"raised CalledProcessError: Command '['perl', '{tmp}/tmpab_3xyz9', '{tmp}/tmpq9rkouqn']' "
            f"returned non-zero exit status 255.")
    r = Record(adapter="a", library="l", version="1", metric="err", kind="golden", test="t", outcome="error",
               message=said, library_value=said, explanation=f"see {tmp}/tmp0123abcd.txt")
    stable_texts(r)
    assert r.message == r.library_value == ("raised CalledProcessError: Command '['perl', '<temp file>', "
                                            "'<temp file>']' returned non-zero exit status 255.")
    assert r.explanation == "see <temp file>.txt"


def test_other_paths_and_values_are_left_alone():
    other = os.path.join(tempfile.gettempdir(), "tmpdir-of-mine", "run.txt")
    r = Record(adapter="a", library="l", version="1", metric="err", kind="golden", test="t", outcome="pass",
               message=f"read {other}", library_value=0.5)
    stable_texts(r)
    assert r.message == f"read {other}" and r.library_value == 0.5
