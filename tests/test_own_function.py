"""The README's own-function example, run as a user would: its code block written to a
package, judged by ``run --strict`` (no failure, no error); the same function with
``1 / 0`` where WER is undefined is judged to crash there."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _example() -> str:
    section = (ROOT / "README.md").read_text().split("## Judging your own function", 1)[1]
    return re.search(r"```python\n(# mypkg/wer.py\n.*?)```", section, re.S).group(1)


def _run(tmp_path, code: str) -> tuple[int, str]:
    pkg = tmp_path / "mypkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "wer.py").write_text(code)
    done = subprocess.run([sys.executable, "-m", "conformance", "run", "--adapter", "mypkg.wer:my_wer", "--strict",
                           "--quiet", "--examples", "10", "--report", str(tmp_path / "r.jsonl")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{ROOT}"})
    return done.returncode, done.stdout + done.stderr


def test_the_readme_example_passes_strict(tmp_path):
    code = _example()
    rc, out = _run(tmp_path, code)
    assert rc == 0, out[-3000:]


def test_a_zero_division_where_wer_is_undefined_is_a_crash(tmp_path):
    code = _example().replace('raise ValueError("WER is undefined without reference words")', "return 1 / 0")
    rc, out = _run(tmp_path, code)
    assert rc == 1 and "ZeroDivisionError" in out
    # where in the function: the frame of its own code (the traceback stays in the worker)
    assert "(at mypkg/wer.py:" in out and "in my_wer)" in out


def test_the_frame_named_is_the_librarys_innermost_own(tmp_path, monkeypatch):
    """A library raising from its own code called through this project's adapter: the
    frame named is the library's innermost, by its path inside site-packages."""
    from conformance.engine.isolation import library_frame
    pkg = tmp_path / "site-packages" / "fakelib"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text("def boom(x):\n    return helper(x)\n\n\ndef helper(x):\n    return 1 // x\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site-packages"))
    from fakelib.core import boom
    import pytest
    with pytest.raises(ZeroDivisionError) as info:
        boom(0)
    assert library_frame(info.value) == "fakelib/core.py:6 in helper"
