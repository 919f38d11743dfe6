"""A device named as an input file (``/dev/zero``, ``/dev/urandom``) is refused before it
is read: read whole it never ends (``score -r /dev/zero`` took 2.7 GB in 20 s), and a
TREC file read line by line finds no line end in it. A pipe is still read
(``<(zcat run.gz)``)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from oracle.conventions import InputError

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")


def test_the_text_readers_refuse_a_device():
    from conformance.formats import read_lines, read_text
    with pytest.raises(InputError, match="/dev/zero: a character device"):
        read_lines("/dev/zero")
    with pytest.raises(InputError, match="/dev/zero: a character device"):
        read_text("/dev/zero", ["/dev/zero"], "wer")


def test_the_trec_readers_refuse_a_device(tmp_path):
    from oracle.trec import read_qrels
    with pytest.raises(InputError, match="/dev/zero: a character device"):
        read_qrels("/dev/zero")


def test_score_refuses_a_device_and_reads_a_pipe(tmp_path):
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("q1 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 1.0 r\n")
    refused = subprocess.run([sys.executable, "-m", "conformance", "score", "-m", "P.5", "--", str(qrels),
                              "/dev/zero"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "/dev/zero: a character device" in refused.stderr
    piped = subprocess.run(["bash", "-c", f"{sys.executable} -m conformance score -m P.5 -- {qrels} <(cat {run})"],
                           capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert "0.2000" in piped.stdout   # P@5 = 1/5: one relevant document retrieved
