"""metric-conformance oracle: exact reference values for evaluation metrics.

Imports nothing it judges; sympy and mpmath are imported lazily.
"""
from .conventions import ConventionError, InputError, Knob, Metric, Result
from .certified import digits, places, to_float
from .exact import Admissible, Expr, Undefined, exact_str
from .parse import parse_exact
from .many import Refused, compute_settings
from .batch import compute_batch
from .registry import compute, get_metric, metric_names

__all__ = ["ConventionError", "InputError", "Knob", "Metric", "Result", "Admissible", "Expr",
           "Undefined", "digits", "exact_str", "parse_exact", "places", "to_float",
           "compute", "compute_batch", "compute_settings", "Refused", "get_metric", "metric_names"]
