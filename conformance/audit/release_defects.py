"""The recorded defects of one library release that apply to an input, and the value each
predicts: run by the audit inside the release's cached environment (``conformance.venvs``),
so that every classifier and model reads that release's own code.

Reads {"adapter", "metric", "settings", "inputs"} as JSON on standard input; writes
[{"id", "title", "predicted"}] (the prediction as exact text, a float's repr, or
"raised T") as JSON on standard output."""
from __future__ import annotations

import json
import sys


def applying(adapter, metric: str, settings: dict, inputs: dict) -> list[dict]:
    from conformance.casefiles.known import KnownIndex, load_known
    from oracle.exact import exact_str
    index = KnownIndex(adapter, load_known(adapter.name))
    classifiers, models = adapter.defect_classifiers(), adapter.defect_models()
    out = []
    for e in index.entries:
        if e.metric != metric or not e.classifier or e.classifier not in models:
            continue
        try:
            if not classifiers[e.classifier](metric, settings, inputs):
                continue
            predicted = models[e.classifier](metric, settings, inputs)
        except Exception:   # a model that cannot run on this input predicts nothing
            continue
        if predicted is None:
            continue
        text = repr(predicted) if isinstance(predicted, float) else (
            predicted if isinstance(predicted, str) else exact_str(predicted))
        if any(o["predicted"] == text for o in out):
            continue
        out.append({"id": e.id, "title": e.title, "predicted": text})
    return out


def main() -> int:
    from conformance.resolve import load_adapter
    req = json.load(sys.stdin)
    adapter = load_adapter(req["adapter"])
    ok, why = adapter.available()
    if not ok:
        json.dump({"error": why}, sys.stdout)
        return 0
    json.dump({"version": adapter.version(),
               "defects": applying(adapter, req["metric"], req["settings"], req["inputs"])}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
