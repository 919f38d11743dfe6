"""TREC qrels and run files: round trips, error messages naming file and line, duplicates."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import InputError, compute
from oracle.trec import TrecFormatError, read_json, read_qrels, read_run, write_qrels, write_run

ids = st.text(alphabet="abcdefgXYZ0123456789-_.", min_size=1, max_size=6)
floats = st.floats(allow_nan=False, allow_infinity=False, width=64)


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@settings(deadline=None)
@given(st.dictionaries(ids, st.dictionaries(ids, floats, max_size=5), max_size=4))
def test_run_round_trip(tmp_path_factory, run):
    p = tmp_path_factory.mktemp("run") / "run.txt"
    write_run(p, run)
    back = read_run(p, scores="float")
    assert back == {q: r for q, r in run.items() if r}
    assert all(list(back[q]) == list(run[q]) for q in back)  # file order is kept
    text = read_run(p)
    assert text == {q: {d: repr(s) for d, s in r.items()} for q, r in run.items() if r}


@settings(deadline=None)
@given(st.dictionaries(ids, st.dictionaries(ids, st.integers(-3, 5), min_size=1, max_size=5), max_size=4))
def test_qrels_round_trip(tmp_path_factory, qrels):
    p = tmp_path_factory.mktemp("qrels") / "qrels.txt"
    write_qrels(p, qrels)
    assert read_qrels(p) == qrels


def test_comments_blank_lines_and_interleaved_queries(tmp_path):
    p = _write(tmp_path, "run.txt", "# a comment\nq1 Q0 a 1 2.5 t\n\nq2 Q0 b 1 1 t\n# x y z w v u\n"
                                    "q1 Q0 c 2 0.5 t\n")
    assert read_run(p) == {"q1": {"a": "2.5", "c": "0.5"}, "q2": {"b": "1"}}
    q = _write(tmp_path, "qrels.txt", "# judged\n1 0 a 2\n\n1 0 b -1\n")
    assert read_qrels(q) == {"1": {"a": 2, "b": -1}}


def test_a_comment_line_with_four_fields_is_a_comment(tmp_path):
    # the two lines: "# and comment here" used to be a format error (4 fields read as
    # a judgement with grade "here"), and "# 0 d1 1" a judgement for a query named "#";
    # trec_eval skips both (get_qrels.c: if (*ptr == '#') skip the line)
    q = _write(tmp_path, "qrels.txt", "# and comment here\nq1 0 d1 1\n# 0 d1 1\n")
    assert read_qrels(q) == {"q1": {"d1": 1}}
    r = _write(tmp_path, "run.txt", "q1 Q0 d1 1 0.9 t\n# Q0 d2 1 5 t\n")
    assert read_run(r) == {"q1": {"d1": "0.9"}}
    # P@1 of the one query: its top document d1 is relevant, 1 (it was 1/2 with a query "#")
    from oracle import compute
    assert compute("precision_at_k", {"qrels": read_qrels(q), "run": read_run(r)}, {"k": 1}).value == 1


@pytest.mark.parametrize("text, line, fragment", [
    ("q1 Q0 a 1 2.5 t\nq1 Q0 b 1 2.5\n", 2, "expected 6 fields"),
    ("q1 Q0 a 1 2.5 t\nq1 Q0 b 1 2.5 t extra\n", 2, "expected 6 fields"),
    ("q1 Q0 a 1 2.5 t\nq1 Q0 b 2 high t\n", 2, "score 'high' is not a finite number"),
    ("q1 Q0 a 1 nan t\n", 1, "score 'nan' is not a finite number"),
    ("q1 Q0 a 1 -inf t\n", 1, "score '-inf' is not a finite number"),
    ("q1 Q0 a 1 1_0 t\n", 1, "score '1_0' is not a finite number"),
    ("q0 Q0 z 1 1 t\nq1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq1 Q0 a 3 0 t\n", 4,
     "duplicate document 'a' for query 'q1' (first at line 2)"),
])
def test_run_errors_name_file_and_line(tmp_path, text, line, fragment):
    p = _write(tmp_path, "bad.run", text)
    with pytest.raises(TrecFormatError) as e:
        read_run(p)
    assert e.value.line == line and e.value.path == str(p)
    assert str(e.value).startswith(f"{p}:{line}: ") and fragment in str(e.value)
    assert isinstance(e.value, InputError)


@pytest.mark.parametrize("text, line, fragment", [
    ("1 0 a 1\n1 0 b\n", 2, "expected 4 fields"),
    ("1 0 a 1\n1 0 b 1 x\n", 2, "expected 4 fields"),
    ("1 0 a one\n", 1, "relevance 'one' is not an integer"),
    ("1 0 a 1.5\n", 1, "relevance '1.5' is not an integer"),
    ("1 0 a 1\n2 0 a 1\n1 0 a 0\n", 3, "duplicate judgement of document 'a' for query '1' (first at line 1)"),
])
def test_qrels_errors_name_file_and_line(tmp_path, text, line, fragment):
    p = _write(tmp_path, "bad.qrels", text)
    with pytest.raises(TrecFormatError) as e:
        read_qrels(p)
    assert e.value.line == line and fragment in str(e.value) and str(p) in str(e.value)


def test_missing_file_and_bad_json(tmp_path):
    with pytest.raises(TrecFormatError, match="cannot read"):
        read_run(tmp_path / "nope.txt")
    p = _write(tmp_path, "x.json", '{"qrels": {},\n "run": {,}}')
    with pytest.raises(TrecFormatError) as e:
        read_json(p)
    assert e.value.line == 2
    p = _write(tmp_path, "y.json", '[1, 2]')
    with pytest.raises(TrecFormatError, match="expected an object with 'qrels' and 'run'"):
        read_json(p)


def test_duplicate_policies(tmp_path):
    p = _write(tmp_path, "dup.run", "q Q0 a 1 1 t\nq Q0 b 2 2 t\nq Q0 a 3 3 t\n")
    assert read_run(p, duplicates="first") == {"q": {"a": "1", "b": "2"}}
    got = read_run(p, duplicates="max")
    assert got == {"q": {"b": "2", "a": "3"}} and list(got["q"]) == ["b", "a"]
    keep = read_run(p, duplicates="keep")
    assert keep == {"q": [["a", "1"], ["b", "2"], ["a", "3"]]}
    qrels = {"q": {"a": 1}}
    # the metric's own duplicates knob then applies to the kept lines
    assert compute("reciprocal_rank", {"qrels": qrels, "run": keep}, {"duplicates": "first"}).value == Fraction(1, 2)
    assert compute("reciprocal_rank", {"qrels": qrels, "run": keep}, {"duplicates": "max"}).value == 1
    with pytest.raises(InputError, match=r"run\['q'\]\[2\]: duplicate document 'a'"):
        compute("reciprocal_rank", {"qrels": qrels, "run": keep})


def test_exact_text_scores_rank_like_the_file_says(tmp_path):
    """Text scores keep digits a float would lose; float mode is trec_eval's atof."""
    p = _write(tmp_path, "r.run", "q Q0 z 1 0.1 t\nq Q0 a 2 0.10000000000000001 t\n")
    qrels = {"q": {"z": 1}}
    assert compute("reciprocal_rank", {"qrels": qrels, "run": read_run(p)}).value == Fraction(1, 2)
    # as doubles the two scores are equal; trec_eval breaks the tie by docno descending: z first
    assert compute("reciprocal_rank", {"qrels": qrels, "run": read_run(p, scores="float")}).value == 1


def test_files_and_json_give_the_same_metrics(tmp_path):
    qrels = {"1": {"a": 2, "b": 0, "c": 1}, "2": {"x": 1}}
    run = {"1": {"a": 0.25, "b": 0.5, "c": 0.5, "d": 0.125}, "2": {"y": 3.0, "x": 2.0}}
    write_qrels(tmp_path / "q.txt", qrels)
    write_run(tmp_path / "r.txt", run)
    (tmp_path / "in.json").write_text(json.dumps({"qrels": qrels, "run": run}))
    from_files = {"qrels": read_qrels(tmp_path / "q.txt"), "run": read_run(tmp_path / "r.txt")}
    from_json = read_json(tmp_path / "in.json")
    for metric in ("ndcg", "average_precision", "reciprocal_rank"):
        assert compute(metric, from_files).value == compute(metric, from_json).value == \
            compute(metric, {"qrels": qrels, "run": run}).value


_RUN_MEMORY = r"""
import sys
sys.path.insert(0, sys.argv[1])
from oracle.trec import read_run

def hwm_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])

before = hwm_kb()
run = read_run(sys.argv[2])
print(hwm_kb() - before, sum(map(len, run.values())))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM is read from /proc")
def test_a_run_holds_under_200_bytes_a_line(tmp_path):
    # 300 queries x 1,000 documents of MS MARCO-like ids and 4-decimal scores: the text of each
    # docno and score, one dict entry and one float in an array (measured 165 bytes a line;
    # 210 when each query kept a second dict of float objects: the test fails there)
    import random
    import subprocess
    import sys
    r = random.Random(5)
    path = tmp_path / "run.txt"
    with open(path, "w", encoding="utf-8") as f:
        for q in range(300):
            for k, d in enumerate(r.sample(range(10 ** 7), 1000), 1):
                f.write(f"q{q} Q0 D{d} {k} {r.random() * 30:.4f} tag\n")
    out = subprocess.run([sys.executable, "-c", _RUN_MEMORY, str(Path(__file__).resolve().parents[1]), str(path)],
                         capture_output=True, text=True, timeout=300, check=True).stdout.split()
    grown_kb, lines = int(out[0]), int(out[1])
    assert lines == 300_000
    assert grown_kb * 1024 / lines < 200
