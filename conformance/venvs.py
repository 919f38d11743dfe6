"""Cached virtual environments holding one release of one library, for the version matrix.

Each environment (``<cache>/<distribution>-<version>-py<X.Y>``) is made once with
``python -m venv --without-pip`` and filled by this interpreter's pip
(``pip --python``). A ``.pth`` file puts this interpreter's own site directories after
the environment's: the project, pytest, hypothesis and sympy come from here, and the
requested release (with whatever of its requirements differs) from the environment,
which comes first on ``sys.path``. pip sees this interpreter's packages as installed
and leaves them alone ("outside environment"), so only the difference is installed.

The cache is ``$METRIC_CONFORMANCE_CACHE/venvs`` or ``~/.cache/metric-conformance/venvs``.
An environment is ready once its ``.ready`` file exists (written last): an install
that failed or was interrupted is made again from scratch next time.
"""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

PTH_NAME = "zz_metric_conformance_parent.pth"


class InstallError(Exception):
    """A release that could not be installed; the message says why (pip's last lines)."""


def cache_root() -> Path:
    base = os.environ.get("METRIC_CONFORMANCE_CACHE")
    root = Path(base) if base else Path.home() / ".cache" / "metric-conformance"
    return root / "venvs"


def _parent_site_dirs() -> list[str]:
    """This interpreter's site directories, in its own order (a venv's, then any it sees)."""
    dirs = []
    for p in [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *sys.path]:
        if p and p.endswith(("site-packages", "dist-packages")) and os.path.isdir(p) and p not in dirs:
            dirs.append(p)
    if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
        dirs.append(site.getusersitepackages())
    return dirs


@dataclass
class Env:
    """One library release in its own environment."""

    distribution: str
    version: str
    path: Path

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    @property
    def ready(self) -> bool:
        return (self.path / ".ready").exists() and self.python.exists()

    def describe(self) -> dict:
        try:
            return json.loads((self.path / ".ready").read_text())
        except (OSError, ValueError):
            return {}


def env_for(distribution: str, version: str, root: Path | None = None) -> Env:
    tag = f"py{sys.version_info[0]}.{sys.version_info[1]}"
    safe = "".join(ch if ch.isalnum() or ch in ".-_" else "_" for ch in f"{distribution}-{version}-{tag}")
    return Env(distribution, version, (root or cache_root()) / safe)


def ensure(distribution: str, version: str, extra: list[str] | None = None, root: Path | None = None,
           log=None, timeout: float = 900) -> Env:
    """The environment of ``distribution==version`` (plus ``extra`` requirements, such as an
    older numpy a release was built against), made if it is not cached yet."""
    env = env_for(distribution, version, root)
    if env.ready:
        return env
    if env.path.exists():
        shutil.rmtree(env.path)
    env.path.parent.mkdir(parents=True, exist_ok=True)
    say = log or (lambda msg: None)
    say(f"creating {env.path}")
    _run([sys.executable, "-m", "venv", "--without-pip", str(env.path)], timeout, "venv")
    purelib = _env_purelib(env)
    lines = [f"import site; site.addsitedir({d!r})" for d in _parent_site_dirs()]
    (purelib / PTH_NAME).write_text("\n".join(lines) + "\n")
    # an item of ``extra`` that starts with "--" is a pip option (--no-deps: a release whose
    # pins cannot install here, its code run on this interpreter's packages)
    flags = [x for x in extra or [] if x.startswith("--")]
    reqs = [f"{distribution}=={version}", *(x for x in extra or [] if not x.startswith("--"))]
    say(f"installing {' '.join(reqs + flags)}")
    out = _run([sys.executable, "-m", "pip", "--python", str(env.python), "install", "--quiet",
                "--disable-pip-version-check", "--no-input", *flags, *reqs], timeout, "pip install")
    check = _run([str(env.python), "-c", "import importlib.metadata as m, sys; "
                  f"print(m.version({distribution!r}))"], 120, "version check")
    got = check.strip().splitlines()[-1] if check.strip() else ""
    from conformance.versions import parse_version
    if got != version and (parse_version(got) is None or parse_version(got) != parse_version(version)):
        raise InstallError(f"{distribution}=={version}: the environment reports version {got!r}")
    (env.path / ".ready").write_text(json.dumps({"distribution": distribution, "version": version,
                                                 "requirements": reqs + flags, "pip": out[-2000:]}))
    return env


def _env_purelib(env: Env) -> Path:
    out = _run([str(env.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], 120,
               "site directory")
    p = Path(out.strip().splitlines()[-1])
    p.mkdir(parents=True, exist_ok=True)
    return p


def _run(cmd: list[str], timeout: float, what: str) -> str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, "PIP_NO_INPUT": "1"})
    except subprocess.TimeoutExpired:
        raise InstallError(f"{what} took more than {timeout:g} s") from None
    except OSError as e:
        raise InstallError(f"{what}: {e}") from None
    if proc.returncode != 0:
        tail = [ln for ln in (proc.stderr or proc.stdout).strip().splitlines() if ln.strip()][-6:]
        raise InstallError(f"{what} failed (exit {proc.returncode}): " + " | ".join(tail))
    return proc.stdout


def index_reachable(timeout: float = 20) -> tuple[bool, str]:
    """Can pip reach the package index this machine is configured with? (For tests that
    skip when it cannot.)"""
    import tempfile
    where = tempfile.mkdtemp(prefix="mc-index-")
    try:
        proc = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                               "--disable-pip-version-check", "-d", where, "six==1.16.0"],
                              capture_output=True, text=True, timeout=timeout)
    except (subprocess.TimeoutExpired, OSError) as e:
        return False, f"pip could not reach the package index ({type(e).__name__})"
    finally:
        shutil.rmtree(where, ignore_errors=True)
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        return False, f"pip could not reach the package index: {tail[0]}"
    return True, ""
