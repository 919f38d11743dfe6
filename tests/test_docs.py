"""The README's examples run as written (the bad-input page: tests/test_bad_input_tables.py)."""
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_readme_python_examples_run(tmp_path, monkeypatch):
    """The Python blocks of the README's "The oracle from Python" run as written
    (their asserts hold), with the qrels and run files their comments describe."""
    import re
    section = README.split("## The oracle from Python", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 3
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d3 2\nq2 0 d2 1\n")
    (tmp_path / "run.txt").write_text("q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.8 sys\nq1 Q0 d3 3 0.7 sys\n"
                                      "q2 Q0 d1 1 0.5 sys\nq2 Q0 d2 2 0.5 sys\n")
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
