"""`metric-conformance bench`: time the oracle against the peer libraries.

Workloads are generated deterministically (a seeded ``random.Random``) at
realistic sizes. Contenders run interleaved in one process (each repeat runs
every contender once, in rotating order), so the shared machine's noise hits
them alike; the report gives medians and the ratio oracle / fastest peer.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from conformance.bench.captions import _cider_workloads, coco_like
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
            "median_s": {"oracle": statistics.median(times)}, "ratios": {}, "target": "< 0.1 s"}


def workloads() -> list[Workload]:
    return (_bleu_workloads() + _wer_workloads() + _cider_workloads() + _audit_workloads()
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
    results = []
    chosen = args.workload
    for w in workloads():
        if chosen and w.name not in chosen:
            continue
        print(f"{w.name}: {w.description} ...", file=sys.stderr, flush=True)
        results.append(measure(w, args.repeat))
    if not chosen or "import-oracle" in chosen:
        results.append(_import_time(max(3, args.repeat)))
    for r in results:
        print(f"\n{r['workload']}: {r['description']}")
        for n, t in r["median_s"].items():
            print(f"  {n:<24} median {t * 1000:9.1f} ms")
        for n, x in r["ratios"].items():
            print(f"  ratio {n:<58} {x:6.2f}x")
        if r.get("missing_peers"):
            print(f"  not measured (not installed): {', '.join(r['missing_peers'])}")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "results": results}, f, indent=2)
    return 0
