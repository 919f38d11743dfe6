"""Implementations that misbehave the way real ones can, for the reliability tests: one
exits the process on one input and hangs on another; one allocates without bound; one
prints on standard output; one returns a non-number. Otherwise each is a correct accuracy."""
from __future__ import annotations

import os
import sys
import time

from conformance.functions import implementation


def _accuracy(inputs) -> float:
    pairs = list(zip(inputs["y_true"], inputs["y_pred"]))
    return sum(t == p for t, p in pairs) / len(pairs)


@implementation("accuracy", name="exits-and-hangs")
def exits_and_hangs(inputs):
    if inputs["y_true"] == [7, 7, 7]:
        os._exit(1)
    if inputs["y_true"] == [8, 8, 8]:
        time.sleep(3600)
    if inputs["y_true"] == [9, 9, 9]:
        sys.exit(3)
    return _accuracy(inputs)


@implementation("accuracy", name="allocates")
def allocates(inputs):
    if inputs["y_true"] == [6, 6, 6]:
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))
    return _accuracy(inputs)


@implementation("accuracy", name="slow-allocates")
def slow_allocates(inputs):
    time.sleep(0.2)   # every call outlasts a memory poll (50 ms)
    if inputs["y_true"] == [6, 6, 6]:
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))
    return _accuracy(inputs)


@implementation("accuracy", name="prints")
def prints(inputs):
    print("garbage on standard output")
    return _accuracy(inputs)


class _ConfigureExits(type(prints.adapter)):
    """An adapter whose set-up (configure) ends the process, as a library import can."""

    def configure(self, metric, settings):
        os._exit(4)

    def defect_models(self):
        return {"pid": lambda *args: os.getpid()}

    def defect_classifiers(self):
        return {"pid": lambda *args: os.getpid(), "exits": lambda *args: os._exit(5)}


configure_exits = _ConfigureExits(_accuracy, "accuracy", name="configure-exits")


@implementation("accuracy", name="segfaults-always")
def segfaults_always(inputs):
    """Dies by SIGSEGV on every call, valid or invalid input alike."""
    import faulthandler
    import signal
    faulthandler.disable()   # the signal's default action, not pytest's traceback dump
    os.kill(os.getpid(), signal.SIGSEGV)


@implementation("accuracy", name="exits-always")
def exits_always(inputs):
    """Ends its process with status 2 on every call."""
    os._exit(2)


@implementation("accuracy", name="sys-exits-always")
def sys_exits_always(inputs):
    """Calls sys.exit on every call (the worker survives it: the call does not)."""
    sys.exit("no")


@implementation("accuracy", name="closes-descriptors")
def closes_descriptors(inputs):
    """Closes every file descriptor above the standard ones (its pipe to the engine among
    them) and goes on running, as a library that daemonizes carelessly does."""
    os.closerange(3, 4096)
    time.sleep(3600)



@implementation("accuracy", name="hangs-always")
def hangs_always(inputs):
    """Sleeps for an hour on every call."""
    time.sleep(3600)


@implementation("accuracy", name="spins-holding-the-gil")
def spins_holding_the_gil(inputs):
    """Spins in one C call that never releases the GIL (a regular expression with
    catastrophic backtracking), so no thread of its process runs."""
    import re
    re.match(r"(a+)+$", "a" * 64 + "b")


@implementation("accuracy", name="forks-a-hog")
def forks_a_hog(inputs):
    """Starts a grandchild process that holds 600 MB and outlives the call, its standard
    output inherited, as a library that starts a server carelessly does."""
    import subprocess
    subprocess.Popen([sys.executable, "-c",
                      "import time; hog = bytearray(600 * 2**20); hog[::4096] = b'x' * len(hog[::4096]); "
                      "time.sleep(3600)"])
    time.sleep(3600)


_WARM = {"done": False}


@implementation("accuracy", name="slow-first-call")
def slow_first_call(inputs):
    """Takes 2.5 s on its process's first call (an import, a JIT compilation), then is a
    correct accuracy."""
    if not _WARM["done"]:
        time.sleep(2.5)
        _WARM["done"] = True
    return _accuracy(inputs)
