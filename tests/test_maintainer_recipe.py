"""The README's CI recipe for maintainers, followed as written in a fresh virtual
environment: a small package with one defect is installed, baselined and tracked; CI
passes; a second defect introduced after the baseline makes CI fail and is shown as a
change with its reason and input (issue: the recipe broke at step 1)."""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PACKAGE = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "yourpkg"
        version = "0.1"

        [tool.setuptools]
        packages = ["yourpkg"]
    """,
    "yourpkg/__init__.py": "",
    "yourpkg/conformance.py": """
        from conformance.functions import implementation


        @implementation("accuracy", name="yourpkg-accuracy")
        def accuracy(inputs):
            pairs = list(zip(inputs["y_true"], inputs["y_pred"]))
            value = sum(t == p for t, p in pairs) / len(pairs)
            # SECOND DEFECT
            return round(value, 2)   # the first defect: rounded to two places


        Adapter = accuracy.adapter
    """,
}


def _recipe() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## A CI recipe for a library's maintainers", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1).replace("\\\n", " ")
    return [l.strip() for l in block.splitlines() if l.strip() and not l.strip().startswith("#")]


# the console script, as its entry point runs it: no working directory on the import path
# (``python -I``), so that importing yourpkg from the project directory is the CLI's own doing
_CLI = "import sys; from conformance.cli import main; sys.exit(main())"
CAN_BUILD_OFFLINE = importlib.util.find_spec("wheel") is not None


def _sh(cmd: str, cwd: Path, python: str) -> subprocess.CompletedProcess | None:
    cmd = cmd.split("#", 1)[0].replace("|| true", "").strip()
    args = shlex.split(cmd)
    if args[0] == "metric-conformance":
        args = [python, "-I", "-c", _CLI] + args[1:]
    elif args[0] == "pip":
        # offline: the venv sees this project and its dependencies (system site packages); the
        # editable install needs the wheel package, and the recipe's runs work without it too
        # (from the project directory, --adapter imports yourpkg as python -m would)
        if not CAN_BUILD_OFFLINE:
            return None
        args = [python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation"] + args[2:]
    env = dict(os.environ, PYTHONPATH="")
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900, env=env)


def _see_this_interpreters_packages(python: str) -> None:
    """The new venv sees the packages of the interpreter running the tests, a venv's
    included (``--system-site-packages`` alone gives the base interpreter's, where this
    project need not be installed): a .pth file adds this interpreter's site directories,
    their own .pth files (an editable install's finder) processed."""
    import site
    import sysconfig
    ours = [p for p in dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                                      *site.getsitepackages()]) if os.path.isdir(p)]
    inner = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           capture_output=True, text=True, check=True, timeout=120).stdout.strip()
    Path(inner, "_tests_outer_site.pth").write_text(
        "import site; " + "; ".join(f"site.addsitedir({p!r})" for p in ours) + "\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX virtual environment layout")
def test_the_maintainer_recipe_works_as_written(tmp_path):
    steps = _recipe()
    assert steps[0].startswith("pip install ./metric-conformance")   # a clone; offline here: already installed
    steps = steps[1:]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    _see_this_interpreters_packages(python)
    project = tmp_path / "yourpkg"
    for name, text in PACKAGE.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(textwrap.dedent(text))
    results = [_sh(step, project, python) for step in steps]
    install, first, known, base, ci = results
    assert install is None or install.returncode == 0, install.stderr
    assert first.returncode == 1, first.stderr          # the first defect: disagreements to review
    assert known.returncode == 0, known.stderr
    assert list((project / "known-failures").glob("*.json")), "no known-failure list written"
    assert base.returncode == 0, base.stderr            # every disagreement is a known failure now
    assert ci.returncode == 0, ci.stdout + ci.stderr      # nothing changed since the baseline
    assert "no change since base.jsonl" in ci.stdout
    assert (project / "ci.xml").is_file() and 'failures="0"' in (project / "ci.xml").read_text()
    # a second defect after the baseline: CI fails and shows it as a change with its input
    code = project / "yourpkg" / "conformance.py"
    code.write_text(code.read_text().replace("# SECOND DEFECT", "if len(pairs) == 1:\n        return 0.5"))
    again = _sh(steps[-1], project, python)
    assert again.returncode == 1, again.stdout + again.stderr
    assert re.search(r"changed .*: (pass|known-failure) -> fail", again.stdout), again.stdout
    assert "input: " in again.stdout and "reproduce: metric-conformance compare" in again.stdout
    assert "--adapter yourpkg.conformance:Adapter" in again.stdout
    assert "failures=\"0\"" not in (project / "ci.xml").read_text()
