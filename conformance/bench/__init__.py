"""`metric-conformance bench`: time the oracle against the peer libraries.

Workloads are generated deterministically (a seeded ``random.Random``) at
realistic sizes. Contenders run interleaved in one process (each repeat runs
every contender once, in rotating order), so the shared machine's noise hits
them alike; the report gives medians and the ratio oracle / fastest peer.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from conformance.bench.captions import _cider_workloads, coco_like
from conformance.bench.long_text import long_workloads
from conformance.bench.labelling import _labelling_workloads, conll2003_like, flickr30k_like, imagenet_like
from conformance.bench.ranking import _audit_workloads, _ranking_workloads
from conformance.bench.text import _bleu_workloads, _wer_workloads, librispeech_like, newstest_like
from conformance.bench.workload import Workload

__all__ = ["Workload", "workloads", "measure", "main", "newstest_like", "librispeech_like", "coco_like",
           "conll2003_like", "imagenet_like", "flickr30k_like"]



def _import_time(repeat: int) -> dict:
    times = []
    for _ in range(repeat):
        code = "import time; t = time.perf_counter(); import oracle, oracle.bleu; print(time.perf_counter() - t)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(out.stdout))
    return {"workload": "import-oracle", "description": "`import oracle` (with the BLEU module), fresh process",
            "median_s": {"oracle": statistics.median(times)}, "ratios": {}}


def _cli_time(name: str, description: str, args: list, repeat: int, env: dict | None = None) -> dict:
    """Wall time of one ``metric-conformance`` command in a fresh process (median of
    ``repeat``), as a user waits for it."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True, text=True,
                              env={**os.environ, **(env or {})})
        times.append(time.perf_counter() - t)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{name}: exit {done.returncode}: {done.stderr[-500:]}")
    return {"workload": name, "description": description, "median_s": {"metric-conformance": statistics.median(times)},
            "ratios": {}, "repeat": repeat}


def _suite_times(repeat: int, chosen) -> list[dict]:
    """The suite's own speed: the whole default ``run`` (every adapter installed, one
    process per core, a report written), first with an empty cache (a fresh clone, or a
    change to the code: every corpus made, ``conformance.engine.cache``), then again with
    the corpora that run kept (a user's next run of the same code), then with the cache
    off (``--no-cache``); and
    ``explain --value`` on one BLEU value."""
    import tempfile
    out = []
    if not chosen or "explain-value" in chosen:
        inputs = '{"hypotheses": ["The cat, sat on the mat."], "references": [["the cat sat on a mat ."]]}'
        out.append(_cli_time("explain-value", "`metric-conformance explain --metric bleu --value 19.130147081392227` "
                             "(sacrebleu's lower-cased BLEU of one segment: found as case=lower, smoothing=exp, "
                             "percent), fresh process", ["explain", "--metric", "bleu", "--inputs", inputs,
                                                        "--value", "19.130147081392227"], max(3, repeat)))
    if not chosen or "run-suite" in chosen or "run-suite-kept" in chosen:
        with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
            env = {"METRIC_CONFORMANCE_CACHE": tmp, "METRIC_CONFORMANCE_NO_CACHE": ""}
            out.append(_cli_time("run-suite", "`metric-conformance run` at default settings, every installed "
                                 "adapter, all cores, report written, an empty cache (a fresh clone's "
                                 "first run; once)",
                                 ["run", "--quiet", "--report", f"{tmp}/r.jsonl"], 1, env))
            out.append(_cli_time("run-suite-kept", "the same run again, reading the corpora the first one kept "
                                 "(once)", ["run", "--quiet", "--report", f"{tmp}/r.jsonl"], 1, env))
    if not chosen or "run-suite-searching" in chosen:
        with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
            out.append(_cli_time("run-suite-searching", "the same run with `--no-cache`: every corpus made in every "
                                 "worker that needs it (once)",
                                 ["run", "--quiet", "--no-cache", "--report", f"{tmp}/r.jsonl"], 1,
                                 {"METRIC_CONFORMANCE_CACHE": tmp}))
    return out


def workloads() -> list[Workload]:
    return (_bleu_workloads() + _wer_workloads() + long_workloads() + _cider_workloads() + _audit_workloads()
            + _ranking_workloads() + _labelling_workloads())


def measure(w: Workload, repeat: int, log=print) -> dict:
    data = w.setup()
    contenders = {**w.oracle, **w.peers}
    names = list(contenders)
    samples: dict = {n: [] for n in names}
    for i in range(repeat):
        rot = names[i % len(names):] + names[:i % len(names)]
        for n in rot:
            t0 = time.perf_counter()
            contenders[n](data)
            samples[n].append(time.perf_counter() - t0)
    med = {n: statistics.median(v) for n, v in samples.items()}
    ratios = {}
    for o, ps in w.pairs.items():
        for p in ps:
            ratios[f"{o} / {p}"] = med[o] / med[p]
        if ps:
            fastest = min(ps, key=lambda p: med[p])
            ratios[f"{o} / fastest peer doing the same work ({fastest})"] = med[o] / med[fastest]
    return {"workload": w.name, "description": w.description, "repeat": repeat, "median_s": med,
            "ratios": ratios, "missing_peers": w.missing}


def main(args) -> int:
    from conformance.bench.targets import python_loop_seconds, verdicts
    results = []
    chosen = args.workload
    loop_before = python_loop_seconds()
    print(f"machine: a fixed pure-Python loop takes {loop_before:.2f} s", file=sys.stderr, flush=True)
    for w in workloads():
        if chosen and w.name not in chosen:
            continue
        print(f"{w.name}: {w.description} ...", file=sys.stderr, flush=True)
        results.append(measure(w, args.repeat))
    if not chosen or "import-oracle" in chosen:
        results.append(_import_time(max(3, args.repeat)))
    results += _suite_times(args.repeat, chosen)
    machine = {"cores": os.cpu_count(), "python_loop_s": {"before": loop_before, "after": python_loop_seconds()}}
    missed = []
    for r in results:
        r["targets"] = verdicts(r)
        missed += [f"{r['workload']}: {v['contender']}" for v in r["targets"] if not v["met"]]
        print(f"\n{r['workload']}: {r['description']}")
        for n, t in r["median_s"].items():
            print(f"  {n:<24} median {t * 1000:9.1f} ms")
        for n, x in r["ratios"].items():
            print(f"  ratio {n:<58} {x:6.2f}x")
        for v in r["targets"]:
            shown = f"{v['value']:.2f}x <= {v['max']:.2f}x" if v["kind"] == "ratio" else \
                f"{v['value']:.2f} s <= {v['max']:g} s"
            print(f"  target {v['contender']}: {shown}: {'met' if v['met'] else 'MISSED'}")
        if r.get("missing_peers"):
            print(f"  not measured (not installed): {', '.join(r['missing_peers'])}")
    checked = sum(len(r["targets"]) for r in results)
    loops = machine["python_loop_s"]
    print(f"\nmachine: {machine['cores']} cores; a fixed pure-Python loop (10,000,000 additions) took "
          f"{loops['before']:.2f} s before the workloads and {loops['after']:.2f} s after")
    print(f"targets: {checked - len(missed)} of {checked} met" + (f"; missed: {'; '.join(missed)}" if missed else ""))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "machine": machine, "results": results}, f, indent=2)
    return 0
