"""docs/bad-input.md carries the degenerate-input table of every oracle module."""
import importlib
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parent.parent / "docs" / "bad-input.md").read_text()


@pytest.mark.parametrize("module", ["oracle.bleu", "oracle.qa", "oracle.perplexity", "oracle.tagging", "oracle.classification"])
def test_bad_input_table_is_in_the_docs(module):
    rows = [l.strip() for l in importlib.import_module(module).__doc__.splitlines() if l.strip().startswith("|")]
    assert rows, f"{module} has no bad-input table"
    missing = [r for r in rows if r not in DOC]
    assert not missing, f"docs/bad-input.md lacks rows of {module}: {missing[:3]}"
