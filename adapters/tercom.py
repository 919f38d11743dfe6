"""tercom (jhclark/tercom, 0.10.0), TER's canonical tool, judged as a library: the adapter
writes the hypotheses and references in tercom's trans format (``text (id)`` per line; a
segment's references share its id), runs ``java -cp TERCOM ter.TER -r REF -h HYP`` and reads
the corpus line it prints (``Total TER: 0.25 (4.0/16.0)``), a Java double.

The project ships none of tercom: point ``METRIC_CONFORMANCE_TERCOM`` at its compiled
classes or jar (``javac -d classes $(find src -name '*.java')`` in its repository); without
it the adapter is reported unavailable with that reason. Its version is the classes' (or
jar's) sha256 over the file names and contents.

Options and the knobs they set: ``-s`` case=sensitive, ``-N`` normalize=yes, ``-P``
punctuation=remove, ``-b N`` beam_width, ``-d N`` max_shift_distance. The corpus with no
reference word prints TOTAL_EDITS / TOTAL_WORDS as Java divides: NaN (0/0) or Infinity.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Mapping

from conformance.protocol import Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

ENV = "METRIC_CONFORMANCE_TERCOM"


def _path() -> str | None:
    p = os.environ.get(ENV)
    return p if p and Path(p).exists() else None


class Tercom(Adapter):
    name = "tercom"
    library = "tercom"
    homepage = "https://github.com/jhclark/tercom"
    issues = "https://github.com/jhclark/tercom/issues"
    refusals = {"*": ("ScriptRefused",)}
    capabilities = {"ter": {"case": ("insensitive", "sensitive"), "normalize": ("no", "yes"),
                            "punctuation": ("keep", "remove"), "beam_width": lambda v, s: v != "none",
                            "max_shift_distance": lambda v, s: True, "zero_reference": ("undefined",),
                            "scale": ("fraction",)}}
    profiles = {"ter": {"case": "insensitive", "normalize": "no", "punctuation": "keep", "beam_width": "20",
                        "max_shift_distance": "50", "zero_reference": "undefined", "scale": "fraction"}}
    # Java prints NaN for 0/0 (no edit, no reference word): its representation of no value
    undefined = {"ter": ("nan",)}
    profile_sources = {"ter": {"undefined": "ter/TER.java: System.out.println(\"Total TER: \" + (TOTAL_EDITS / "
                                            "TOTAL_WORDS) ...), a double division"}}
    # a double: the edits (integers) over a sum of averages of integers, one division
    tolerances = {"ter": Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))}

    def available(self) -> tuple[bool, str]:
        if _path() is None:
            return False, f"{ENV} does not name tercom's classes or jar (the project ships none of tercom)"
        if not shutil.which("java"):
            return False, "java is not on PATH"
        return True, ""

    def version(self) -> str:
        p = _path()
        if p is None:
            return "not installed"
        h = hashlib.sha256()
        for f in sorted(Path(p).rglob("*")) if Path(p).is_dir() else [Path(p)]:
            if f.is_file():
                h.update(str(f.relative_to(p) if Path(p).is_dir() else f.name).encode())
                h.update(f.read_bytes())
        return "sha256:" + h.hexdigest()[:12]

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        flags = ["-b", settings["beam_width"], "-d", settings["max_shift_distance"]]
        flags += (["-s"] if settings["case"] == "sensitive" else []) + (["-N"] if settings["normalize"] == "yes" else [])
        flags += ["-P"] if settings["punctuation"] == "remove" else []
        return {"flags": flags}

    def defect_classifiers(self) -> dict:
        return {"no-reference-word-infinity": _no_reference_word_with_edits}

    def defect_models(self) -> dict:
        return {"no-reference-word-infinity": lambda metric, settings, inputs: float("inf")}

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """tercom with its defaults (``-b 20 -d 50``, lowercased, no normalization): what the adapter passes for the profile."""
        return self.call(metric, self.options(metric, self.bare_profile(metric)), inputs)

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        hyps, refs = inputs.get("hypotheses"), inputs.get("references")
        if not isinstance(hyps, list) or not isinstance(refs, list) or len(hyps) != len(refs) or not hyps:
            raise Skip("tercom reads segment files; the corpus shape is the adapter's to write")
        for i, t in enumerate(list(hyps) + [r for rs in refs for r in (rs if isinstance(rs, list) else [rs])]):
            if not isinstance(t, str) or "\n" in t or "\r" in t:
                raise Skip("a segment with a line break (or not a text) cannot be written as one trans line")
        with tempfile.TemporaryDirectory(prefix="tercom-") as tmp:
            hyp, ref = Path(tmp) / "hyp", Path(tmp) / "ref"
            hyp.write_text("".join(f"{h} (s{i})\n" for i, h in enumerate(hyps)), encoding="utf-8")
            ref.write_text("".join(f"{r} (s{i})\n" for i, rs in enumerate(refs) for r in rs), encoding="utf-8")
            run = subprocess.run(["java", "-Dfile.encoding=UTF-8", "-cp", _path(), "ter.TER", "-r", str(ref),
                                  "-h", str(hyp), *options["flags"]], capture_output=True, text=True)
        m = re.search(r"^Total TER: (\S+) ", run.stdout, re.M)
        if run.returncode != 0 or not m:
            tail = (run.stdout + run.stderr).strip().splitlines()
            raise ScriptRefused(tail[-1] if tail else f"exit {run.returncode}")
        return LibraryOutput(value=float(m.group(1)), raw=run.stdout)


def _no_reference_word_with_edits(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """The corpus has no reference word and some edit: TOTAL_EDITS / TOTAL_WORDS is x/0."""
    from oracle import compute
    try:
        st = compute("ter", inputs, settings).stats
    except Exception:
        return False
    return st["reference_words"] == 0 and st["edits"] > 0


class ScriptRefused(Exception):
    """tercom printed an error (its ***ERROR*** lines, a Java exception) and no total."""
