"""The run's processes as the operating system sees them: each library worker leads its
own process group, so that the library's own children (a server it starts, a tool it
runs) are killed with it; a worker ends when its parent does; a process's family (its
descendants, found through ``/proc``) is measured and killed as one.

Why groups: a library's grandchild inherits the worker's pipes and standard output, so
that a run that kills only the worker waits on pipes that never close (``... | tail``
waited 200 s) and the grandchild's memory escapes ``--memory``. Why a family walk: a
library worker forked by an engine worker is not the main process's child, and it must
end with the run even when it holds the GIL in C, where no thread of its own can act.
Linux only (``/proc``); elsewhere the walk finds nothing and each worker is killed alone.
"""
from __future__ import annotations

import atexit
import os
import signal
import time

# library workers not yet reaped: pid -> the process that started them (a forked engine
# worker inherits its parent's entries, which are not its own to kill)
_LEADERS: dict[int, int] = {}
_ATEXIT = {"registered": False}


def rss(pid: int) -> int:
    """Resident bytes of process ``pid`` (0 when it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def children(pid: int) -> list[int]:
    """The children of ``pid``, forked by any of its threads (each thread has its own list)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(map(int, f.read().split()))
        except (OSError, ValueError):
            continue
    return out


def descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid``, parents before their children."""
    out: list[int] = []
    frontier = [pid]
    while frontier:
        kids = children(frontier.pop())
        out.extend(kids)
        frontier.extend(kids)
    return out


def family_rss(pid: int) -> int:
    """Resident bytes of the descendants of ``pid`` (not counting ``pid`` itself)."""
    return sum(rss(p) for p in descendants(pid))


def lead_group() -> None:
    """Make the calling process (a library worker, just forked) the leader of a new
    process group; the parent does the same from its side (``adopt``), so that whichever
    runs first, the group exists before anyone signals it."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass


def adopt(pid: int) -> None:
    """The parent's half of ``lead_group``: ``pid`` leads its own group, killed with it
    (``kill_group``) and at this process's exit."""
    try:
        os.setpgid(pid, pid)
    except OSError:   # it already did, or it is gone
        pass
    _LEADERS[pid] = os.getpid()
    if not _ATEXIT["registered"]:
        atexit.register(kill_groups)
        _ATEXIT["registered"] = True


def kill_group(pid: int) -> None:
    """SIGKILL to the group led by ``pid`` (the worker and whatever it started). The group
    outlives its leader while any member lives, and Linux gives no new process an id in
    use as a group's, so this reaches the library's children after the worker is reaped."""
    leads = _LEADERS.pop(pid, None) is not None
    try:
        if leads and pid != os.getpgid(0):
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def kill_groups() -> None:
    """Kill every library worker's group this process started (at exit, and when its parent
    is gone)."""
    me = os.getpid()
    for pid, owner in list(_LEADERS.items()):
        if owner == me:
            kill_group(pid)


def kill_family(pids) -> None:
    """SIGKILL to each process of ``pids``, to all their descendants, and to the process
    groups those lead, other than the caller's own group: the engine workers, their library
    workers and the libraries' children, found before any is killed (a killed parent's
    children are handed to another process and fall out of the walk)."""
    own = os.getpgid(0)
    family = [p for pid in pids for p in descendants(pid)]
    groups = set()
    for p in family:
        try:
            g = os.getpgid(p)
        except OSError:
            continue
        if g != own:
            groups.add(g)
    for g in groups:
        try:
            os.killpg(g, signal.SIGKILL)
        except OSError:
            pass
    for p in [*pids, *family]:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def exit_with_parent(interval: float = 0.25) -> None:
    """This process ends (``os._exit``) when its parent does, killing the library workers'
    groups it started: a thread polls ``getppid`` (a process whose parent dies is handed to
    another). Pool workers and library workers start it, so that a SIGKILL of the run's main
    process, which no handler sees, leaves no worker running: an engine worker kills its
    library workers' groups, so a library holding the GIL in C goes too
    (PR_SET_PDEATHSIG would follow the forking *thread*, and a unit's thread ends after
    each unit)."""
    import threading
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                kill_groups()
                if os.getpgid(0) == os.getpid():   # a library worker: its library's children too
                    os.killpg(os.getpid(), signal.SIGKILL)
                os._exit(1)
    threading.Thread(target=watch, name="metric-conformance-parent-watch", daemon=True).start()
