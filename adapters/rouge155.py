"""ROUGE-1.5.5.pl, Lin's own script, judged as a library: the adapter writes each summary
and its references as one-sentence-per-line files (the script's SPL format), a file list
(``-z SPL``), runs ``perl ROUGE-1.5.5.pl -e data ...`` and reads the corpus averages it
prints (``X ROUGE-1 Average_F: 0.83333``), at their printed precision (5 decimals).

The project ships none of the script: point ``METRIC_CONFORMANCE_ROUGE155`` at the directory
that holds ``ROUGE-1.5.5.pl`` and its ``data/`` (Perl's XML::DOM and DB_File installed);
without it the adapter is reported unavailable with that reason. Its version is the
script's sha256 (a script has no release number).

| metric | options |
| --- | --- |
| ``rouge_n`` | ``-n N`` (its ROUGE-N row) |
| ``rouge_lsum`` | its ROUGE-L: the union LCS over the summary's lines (computeLCSScore) |
| ``rouge_s`` | ``-2 d`` (``-2 -1`` for any gap), ``-u`` for the unigrams of every token but the last |

Knobs: ``multi_reference`` pooled (``-f A``, the default) or best-recall (``-f B``);
``aggregate``: the Average the script prints is not the mean of its summaries' values but
the mean of 1000 seeded bootstrap resamples of them (bootstrap-mean; bootstrap-pooled with
``-t 1``), which the oracle computes exactly, Perl's generator included; ``alpha`` (``-p``);
the measure read from the R, P or F row. The script's tokens are its own: tokenizer=rouge-1.5.5.
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

ENV = "METRIC_CONFORMANCE_ROUGE155"
_COMMON = {"measure": ("f", "recall", "precision"), "alpha": lambda v, s: 0 <= Fraction(v) <= 1,
           "tokenizer": ("rouge-1.5.5",), "multi_reference": ("pooled", "best-recall"),
           "aggregate": ("bootstrap-mean", "bootstrap-pooled"), "scale": ("fraction",)}
_PROFILE = {"measure": "f", "alpha": "1/2", "tokenizer": "rouge-1.5.5", "multi_reference": "pooled",
            "aggregate": "bootstrap-mean", "scale": "fraction"}
_ROW = {"f": "F", "recall": "R", "precision": "P"}


def _home() -> Path | None:
    d = os.environ.get(ENV)
    return Path(d) if d and (Path(d) / "ROUGE-1.5.5.pl").is_file() else None


class Rouge155(Adapter):
    name = "rouge-1.5.5"
    library = "ROUGE-1.5.5.pl"
    homepage = "https://aclanthology.org/W04-1013/"
    issues = ""
    # the script dies on what it cannot read ('Cannot open', 'File list has to have at least 2
    # filenames'): a non-zero exit is its refusal
    refusals = {"*": ("ScriptRefused",)}
    capabilities = {"rouge_n": dict(_COMMON, n=lambda v, s: 1 <= int(v) <= 9), "rouge_lsum": dict(_COMMON, lcs_path=("up",)),
                    "rouge_s": dict(_COMMON, skip_distance=lambda v, s: True, unigrams=("none", "all-but-last"))}
    profiles = {"rouge_n": dict(_PROFILE, n="1"), "rouge_lsum": dict(_PROFILE, lcs_path="up"),
                "rouge_s": dict(_PROFILE, skip_distance="none", unigrams="none")}
    profile_sources = {"*": {"measure": "ROUGE-1.5.5.pl prints R, P and F for every measure (the adapter reads F)",
                             "aggregate": "ROUGE-1.5.5.pl computeAverages: $ROUGEAverages->{\"AvgR\"}=$resampleAvgROUGE_R, "
                                          "the mean of the -r 1000 bootstrap resamples (bootstrapResampling, srand($seed) "
                                          "per resample)"}}
    # printed to 5 decimals (sprintf "%7.5f"), F computed from the rounded R and P, averages of
    # rounded per-summary values rounded again: a few units of 1e-5
    tolerances = {m: Tolerance(abs=Fraction(3, 10 ** 5)) for m in ("rouge_n", "rouge_lsum", "rouge_s")}

    def available(self) -> tuple[bool, str]:
        if _home() is None:
            return False, (f"{ENV} does not name a directory holding ROUGE-1.5.5.pl and its data/ (the project ships "
                           "none of the script)")
        if not shutil.which("perl"):
            return False, "perl is not on PATH"
        return True, ""

    def version(self) -> str:
        home = _home()
        if home is None:
            return "not installed"
        return "sha256:" + hashlib.sha256((home / "ROUGE-1.5.5.pl").read_bytes()).hexdigest()[:12]

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        flags = ["-f", "A" if settings["multi_reference"] == "pooled" else "B", "-p", str(float(Fraction(settings["alpha"])))]
        if settings["aggregate"] == "bootstrap-pooled":
            flags += ["-t", "1"]
        if metric == "rouge_n":
            flags += ["-n", settings["n"]]
            row = f"ROUGE-{settings['n']}"
        elif metric == "rouge_s":
            d = "-1" if settings["skip_distance"] == "none" else settings["skip_distance"]
            flags += ["-n", "1", "-2", d] + (["-u"] if settings["unigrams"] == "all-but-last" else [])
            row = ("ROUGE-SU" if settings["unigrams"] == "all-but-last" else "ROUGE-S") + \
                ("*" if d == "-1" else d)
        else:
            flags += ["-n", "1"]
            row = "ROUGE-L"
        return {"flags": flags, "row": row, "field": _ROW[settings["measure"]]}

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """the script with its defaults (``-f A -p 0.5``, no ``-t``): the options the adapter passes for the profile are those defaults, plus the measure's own ``-n``/``-2``."""
        return self.call(metric, self.options(metric, self.bare_profile(metric)), inputs)

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        hyps, refs = inputs.get("hypotheses"), inputs.get("references")
        if not isinstance(hyps, list) or not isinstance(refs, list) or len(hyps) != len(refs) or not hyps:
            raise Skip("the script scores a list of summary files; the corpus shape is the adapter's to write")
        with tempfile.TemporaryDirectory(prefix="rouge155-") as tmp:
            lines = []
            for i, (h, rs) in enumerate(zip(hyps, refs)):
                if not isinstance(rs, list) or not rs:
                    raise Skip("a summary with no reference: the script's file list needs at least one model")
                peer = Path(tmp) / f"p{i}"
                peer.write_text(h + "\n", encoding="utf-8")
                models = []
                for j, r in enumerate(rs):
                    m = Path(tmp) / f"m{i}_{j}"
                    m.write_text(r + "\n", encoding="utf-8")
                    models.append(str(m))
                lines.append(" ".join([str(peer), *models]))
            config = Path(tmp) / "config"
            config.write_text("\n".join(lines) + "\n")
            run = subprocess.run(["perl", "ROUGE-1.5.5.pl", "-e", "data", *options["flags"], "-z", "SPL", str(config)],
                                 cwd=_home(), capture_output=True, text=True)
        if run.returncode != 0:
            raise ScriptRefused(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit {run.returncode}")
        m = re.search(rf"^X {re.escape(options['row'])} Average_{options['field']}: ([-\d.naifNI]+)", run.stdout, re.M)
        if not m:
            raise ScriptRefused(f"no {options['row']} Average_{options['field']} line in the script's output")
        return LibraryOutput(value=float(m.group(1)), raw=run.stdout)


class ScriptRefused(Exception):
    """The script exited with an error (its ``die``), or printed no row for the measure."""
