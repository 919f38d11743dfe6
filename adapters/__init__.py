"""Adapters: one small module per judged library, mapping its API onto the protocol.

``BUILTIN`` names the adapters shipped here ("module:Class"); pyproject.toml
registers the same names in the entry-point group ``metric_conformance.adapters``,
where third-party packages add theirs. Loading goes through
``conformance.resolve`` (the engine never imports this package).
"""
from __future__ import annotations

from conformance.resolve import ENTRY_POINT_GROUP, adapter_names, builtin_adapters, load_adapter

BUILTIN = {
    "sacrebleu": "adapters.sacrebleu:SacreBLEU",
    "nltk": "adapters.nltk:NLTK",
    "sklearn": "adapters.sklearn:SKLearn",
    "jiwer": "adapters.jiwer:JiWER",
    "seqeval": "adapters.seqeval:SeqEval",
    "ranx": "adapters.ranx:Ranx",
    "pytrec_eval": "adapters.pytrec_eval:PyTrecEval",
    "pycocoevalcap": "adapters.pycocoevalcap:PyCocoEvalCap",
    "ir_measures": "adapters.ir_measures:IRMeasures",
    "ir_measures-pytrec_eval": "adapters.ir_measures:IRMeasuresPytrecEval",
    "ir_measures-ranx": "adapters.ir_measures_providers:IRMeasuresRanx",
    "ir_measures-cwl_eval": "adapters.ir_measures_providers:IRMeasuresCwlEval",
    "ir_measures-gdeval": "adapters.ir_measures_providers:IRMeasuresGdeval",
    "torchmetrics": "adapters.torchmetrics:TorchMetrics",
    "torchmetrics-stateful": "adapters.torchmetrics_stateful:TorchMetricsStateful",
    "nervaluate": "adapters.nervaluate:NERvaluate",
    "torcheval": "adapters.torcheval:TorchEval",
    "evaluate": "adapters.hf_evaluate:HFEvaluate",
}

__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "adapter_names", "builtin_adapters", "load_adapter"]
