"""Hugging Face evaluate (0.4.x): metric modules loaded with ``evaluate.load(path)`` and run with
``module.compute(predictions=..., references=...)``.

evaluate ships no metric: ``evaluate.load("wer")`` fetches the module's script from the Hugging
Face Hub at run time. Where the Hub cannot be reached (this project's CI, for one), point
``METRIC_CONFORMANCE_EVALUATE_MODULES`` at a directory of local modules, one folder per module
(``<dir>/wer/wer.py``, as ``evaluate.load`` takes a local path); without it the adapter asks the
Hub with ``HF_EVALUATE_OFFLINE`` unset only if ``METRIC_CONFORMANCE_EVALUATE_HUB=1``, and
otherwise reports itself unavailable, naming the reason. Only the metrics whose module loads are
served.

| metric | module | read |
| --- | --- | --- |
| ``accuracy`` | ``accuracy`` | ``compute(predictions=y_pred, references=y_true)["accuracy"]`` |
| ``precision``, ``recall``, ``f1`` | ``precision``, ``recall``, ``f1`` | ``compute(..., average, pos_label)[name]`` |
| ``wer``, ``cer`` | ``wer``, ``cer`` | ``compute(predictions=hypotheses, references=references)`` (a float) |
| ``exact_match``, ``squad_f1`` | ``squad`` | ``compute(predictions=[{id, prediction_text}], references=[{id, answers}])`` (percent, divided by 100) |
| ``bleu`` | ``bleu`` | ``compute(predictions=hyps, references=refs, max_order)["bleu"]`` |
| ``entity_f1`` | ``seqeval`` | ``compute(predictions=pred, references=gold)["overall_f1"]`` |

Profiles are those of the Hub's modules (huggingface/evaluate, metrics/<name>/<name>.py): the
classification modules call scikit-learn (``precision_score(references, predictions,
average='binary', pos_label=1, zero_division='warn')``); ``wer`` and ``cer`` call jiwer on the
corpus (``concatenate_texts=False``: summed S + D + I over summed S + D + H); ``squad`` is the
v1.1 script; ``bleu`` is the TensorFlow NMT ``compute_bleu`` on 13a tokens with the shortest
reference's length (metrics/bleu/nmt_bleu.py: ``reference_length += min(len(r) for r in
references)``); ``seqeval`` calls seqeval's default mode. A local module is judged by
the same profile: a module that departs from it is shown as failing, which is what a local
module is for (a module under development checked against the definitions).
"""
from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import Mapping

from conformance.protocol import Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

ENV_DIR = "METRIC_CONFORMANCE_EVALUATE_MODULES"
ENV_HUB = "METRIC_CONFORMANCE_EVALUATE_HUB"
_NO_MODULES = ("evaluate fetches its metric modules from the Hugging Face Hub at load time; set "
               f"{ENV_DIR} to a directory of local modules (<dir>/<name>/<name>.py), or {ENV_HUB}=1 to "
               "load them from the Hub")

_MODULE = {"accuracy": "accuracy", "precision": "precision", "recall": "recall", "f1": "f1", "wer": "wer",
           "cer": "cer", "exact_match": "squad", "squad_f1": "squad", "bleu": "bleu", "entity_f1": "seqeval"}
_WORD = {"tokenize": ("jiwer",), "case": ("mixed",), "punctuation": ("keep",), "aggregate": ("corpus",),
         "empty_reference": ("undefined",), "tie": ("any",)}
_CLS = {"label_set": ("auto",), "outside": ("error",)}
_PRF = dict(_CLS, average=("binary", "micro", "macro", "weighted"), zero_division=("zero",))
_CAPS = {
    "accuracy": dict(_CLS), "precision": dict(_PRF), "recall": dict(_PRF), "f1": dict(_PRF, beta=("1",)),
    "wer": dict(_WORD),
    "cer": {"case": ("mixed",), "punctuation": ("keep",), "whitespace": ("keep",), "unit": ("codepoint",),
            "aggregate": ("corpus",), "empty_reference": ("undefined",), "tie": ("any",)},
    "exact_match": {"normalization": ("squad",), "missing": ("zero",), "rule": ("v1.1",)},
    "squad_f1": {"normalization": ("squad",), "missing": ("zero",), "rule": ("v1.1",)},
    "bleu": {"tokenizer": ("13a",), "case": ("mixed",), "order": ("1", "2", "3", "4"), "weights": ("uniform",),
             "ref_length": ("shortest",), "smoothing": ("none",), "smoothing_value": ("-",), "no_match": ("zero",),
             "effective_order": ("no",), "level": ("corpus",), "scale": ("fraction",)},
    "entity_f1": {"scheme": ("iob2",), "reading": ("seqeval",), "tag_format": ("prefix-type",), "average": ("micro",),
                  "beta": ("1",), "zero_division": ("zero",), "labels": ("all",), "matching": ("span",)},
}
_PROFILES = {m: {k: (v[0] if isinstance(v, tuple) else v) for k, v in caps.items()} for m, caps in _CAPS.items()}
_PROFILES["bleu"]["order"] = "4"
_SRC = "huggingface/evaluate metrics"
_SOURCES = {
    "average": f"{_SRC}/precision/precision.py _compute(average='binary', pos_label=1) (recall.py, f1.py alike)",
    "zero_division": f"{_SRC}/precision/precision.py zero_division='warn' (scikit-learn: 'acts as 0')",
    "tokenize": f"{_SRC}/wer/wer.py: jiwer.compute_measures(reference, prediction) per pair, jiwer's default "
                "transform",
    "aggregate": f"{_SRC}/wer/wer.py concatenate_texts=False: incorrect += S + D + I, total += S + D + H",
    "tokenizer": f"{_SRC}/bleu/bleu.py _compute(tokenizer=Tokenizer13a())",
    "ref_length": f"{_SRC}/bleu/nmt_bleu.py compute_bleu: reference_length += min(len(r) for r in references)",
    "no_match": f"{_SRC}/bleu/nmt_bleu.py: 'if min(precisions) > 0: ... else: geo_mean = 0'",
    "rule": f"{_SRC}/squad/squad.py: the official SQuAD v1.1 evaluation script (compute_score.py)",
    "reading": f"{_SRC}/seqeval/seqeval.py: seqeval.metrics.classification_report(mode=None)",
}


class HFEvaluate(Adapter):
    name = "evaluate"
    # the exceptions its own code refuses an input with: the modules' feature checks (datasets) raise ValueError and TypeError
    refusals = {"*": ("ValueError", "TypeError")}
    library = "evaluate"
    import_name = "evaluate"
    homepage = "https://huggingface.co/docs/evaluate"
    issues = "https://github.com/huggingface/evaluate/issues"
    versions = ">=0.4,<0.5"
    profile_sources = {"*": _SOURCES}
    serves = tuple(_MODULE)   # the metrics it maps, each served when its module loads
    tolerances = {m: Tolerance(ulps=8, rel=Fraction(1, 10 ** 12)) for m in _CAPS}

    def __init__(self):
        self._modules: dict = {}
        self._why = ""
        self.capabilities, self.profiles = {}, {}
        if not os.environ.get(ENV_DIR) and os.environ.get(ENV_HUB) != "1":
            # no module to load: the adapter serves nothing, and evaluate is not imported (its
            # import, datasets and pyarrow with it, took 2.9 s of every run's start)
            self._why = _NO_MODULES
            return
        try:
            import evaluate  # noqa: F401
        except Exception as e:
            self._why = f"evaluate is not importable: {e}"
            return
        found = self._load_modules()
        self.capabilities = {m: dict(_CAPS[m]) for m in _CAPS if _MODULE[m] in found}
        self.profiles = {m: dict(_PROFILES[m]) for m in self.capabilities}
        if not self.capabilities and not self._why:
            self._why = "no metric module loaded"

    def _load_modules(self) -> dict:
        import evaluate
        local = os.environ.get(ENV_DIR)
        names = sorted(set(_MODULE.values()))
        if local:
            root = Path(local)
            if not root.is_dir():
                self._why = f"{ENV_DIR}={local}: not a directory"
                return {}
            names = [n for n in names if (root / n / f"{n}.py").is_file()]
            paths = {n: str(root / n) for n in names}
        elif os.environ.get(ENV_HUB) == "1":
            paths = {n: n for n in names}
        else:
            self._why = _NO_MODULES
            return {}
        for n, path in paths.items():
            try:
                # in memory and with an experiment id of this process: evaluate otherwise writes each
                # compute() to an Arrow file under a file lock shared by every process of the run
                self._modules[n] = evaluate.load(path, keep_in_memory=True, experiment_id=f"mc-{os.getpid()}")
            except Exception as e:   # offline, or a broken module: that module is not served
                self._why = self._why or f"evaluate.load({path!r}) failed: {type(e).__name__}: {e}"
        return self._modules

    def available(self) -> tuple[bool, str]:
        if self._why == _NO_MODULES:
            import importlib.util
            if importlib.util.find_spec(self.import_name) is not None:   # installed, not imported
                return False, self.outside_versions() or self._why
        ok, why = super().available()
        if not ok:
            return ok, why
        return (True, "") if self.capabilities else (False, self._why)

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric in ("precision", "recall", "f1"):
            return {"average": settings["average"]}
        if metric == "bleu":
            return {"max_order": int(settings["order"])}
        return {}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        mod = self._modules[_MODULE[metric]]
        if metric in ("accuracy", "precision", "recall", "f1"):
            y_true, y_pred = list(inputs["y_true"]), list(inputs["y_pred"])
            if any(not isinstance(y, int) or isinstance(y, bool) for y in y_true + y_pred):
                raise Skip("evaluate's classification modules take integer labels (features int32)")
            kw = {}
            if metric != "accuracy":
                kw["average"] = options["average"]
                if options["average"] == "binary":
                    kw["pos_label"] = inputs.get("pos_label", 1)
            out = mod.compute(predictions=y_pred, references=y_true, **kw)
            return LibraryOutput(value=_number(out[metric]), raw=out)
        if metric in ("wer", "cer"):
            refs, hyps = inputs.get("references"), inputs.get("hypotheses")
            if not isinstance(refs, list) or not isinstance(hyps, list):
                raise Skip("evaluate's wer and cer take lists of strings")
            return LibraryOutput(value=_number(mod.compute(predictions=hyps, references=refs)))
        if metric in ("exact_match", "squad_f1"):
            preds, refs = inputs.get("predictions"), inputs.get("references")
            if not isinstance(preds, list) or not isinstance(refs, list) or any(p is None for p in preds):
                raise Skip("evaluate's squad takes one prediction string per question")
            p = [{"id": str(i), "prediction_text": x} for i, x in enumerate(preds)]
            t = [{"id": str(i), "answers": {"text": list(r), "answer_start": [0] * len(r)}} for i, r in enumerate(refs)]
            out = mod.compute(predictions=p, references=t)
            return LibraryOutput(value=_number(out["exact_match" if metric == "exact_match" else "f1"]) / 100, raw=out)
        if metric == "bleu":
            from ._bleu_inputs import segments
            hyps, refs = segments(metric, inputs)
            out = mod.compute(predictions=hyps, references=refs, max_order=options["max_order"])
            return LibraryOutput(value=_number(out["bleu"]), raw=out)
        if metric == "entity_f1":
            out = mod.compute(predictions=[list(s) for s in inputs["pred"]], references=[list(s) for s in inputs["gold"]])
            return LibraryOutput(value=_number(out["overall_f1"]), raw=out)
        raise Skip(f"evaluate adapter does not implement {metric}")


    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``module.compute(predictions=..., references=...)``: the adapter's call passes
        options only to precision, recall, f1 (average, pos_label) and bleu (max_order);
        every other module is already called bare."""
        if metric in ("precision", "recall", "f1"):
            mod = self._modules[_MODULE[metric]]
            y_true, y_pred = list(inputs["y_true"]), list(inputs["y_pred"])
            if any(not isinstance(y, int) or isinstance(y, bool) for y in y_true + y_pred):
                raise Skip("evaluate's classification modules take integer labels (features int32)")
            out = mod.compute(predictions=y_pred, references=y_true)
            return LibraryOutput(value=_number(out[metric]), raw=out)
        if metric == "bleu":
            from ._bleu_inputs import segments
            hyps, refs = segments(metric, inputs)
            out = self._modules[_MODULE[metric]].compute(predictions=hyps, references=refs)
            return LibraryOutput(value=_number(out["bleu"]), raw=out)
        return self.call(metric, self.options(metric, self.bare_profile(metric)), inputs)


def _number(x):
    x = x.item() if hasattr(x, "item") else x
    return x if isinstance(x, int) and not isinstance(x, bool) else float(x)
