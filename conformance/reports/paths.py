"""Where reports go, checked before a run starts.

A report path names a regular file (replaced atomically) or a new file in a folder
that exists or can be created and is writable; ``-`` is standard output. Anything
else (a device such as /dev/null, a FIFO, a folder, a symbolic link) is refused up
front, so a run never ends by replacing what such a path names.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

STDOUT = "-"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_output(path, flag: str) -> None:
    """ValueError naming ``flag`` unless ``path`` may receive a report."""
    if path is None or str(path) == STDOUT:
        return
    p = Path(path)
    if p.is_symlink():
        raise ValueError(f"{flag} {path}: is a symbolic link; name a regular file (or - for standard output)")
    if p.exists():
        mode = p.stat().st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{flag} {path}: is {_kind(mode)}; name a regular file (or - for standard output)")
        if not os.access(p, os.W_OK):
            raise ValueError(f"{flag} {path}: the file is not writable")
    check_folder(p.parent if str(p.parent) else Path("."), f"{flag} {path}: the folder")


def check_folder(folder: Path, said: str) -> None:
    """ValueError (``said`` first) unless ``folder`` is, or can now be made, a writable
    folder: it is made before the run (a folder under /proc, which root may 'write',
    cannot be)."""
    folder = Path(folder)
    if not folder.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"{said} {folder} cannot be made ({e.strerror})") from None
    if not folder.is_dir():
        mode = folder.stat().st_mode
        raise ValueError(f"{said} {folder} is {'a file' if stat.S_ISREG(mode) else _kind(mode)}, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{said} {folder} is not writable")


def check_input(path, flag: str) -> None:
    """ValueError naming ``flag`` unless ``path`` is a readable regular file."""
    p = Path(path)
    if not p.exists():
        raise ValueError(f"{flag} {path}: no such file")
    if not p.is_file():
        raise ValueError(f"{flag} {path}: is {_kind(p.stat().st_mode)}, not a file")
    if not os.access(p, os.R_OK):
        raise ValueError(f"{flag} {path}: the file is not readable")
