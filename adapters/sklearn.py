"""scikit-learn: ``sklearn.metrics`` mapped onto the classification metrics.

| metric | call |
| --- | --- |
| ``confusion_matrix`` | ``confusion_matrix(y_true, y_pred, labels=...)`` -> list of rows |
| ``accuracy`` | ``accuracy_score(y_true, y_pred)`` |
| ``per_class_accuracy`` | ``recall_score(..., labels=..., average=None, zero_division=np.nan)`` (per-class accuracy is per-class recall, document 003), keyed by label |
| ``precision``, ``recall`` | ``precision_score`` / ``recall_score(..., labels, average, zero_division, pos_label)`` |
| ``f1`` | ``f1_score`` (beta 1) or ``fbeta_score(beta=float(beta))`` |
| ``balanced_accuracy`` | ``balanced_accuracy_score(y_true, y_pred, adjusted=...)`` |
| ``classification_report`` | ``classification_report(..., labels, output_dict=True, zero_division)`` |
| ``score_average_precision`` | ``average_precision_score(y_true, y_score, average)`` (``_sklearn_scores``) |
| ``label_ranking_average_precision`` | ``label_ranking_average_precision_score(y_true, y_score)`` |
| ``score_dcg``, ``score_ndcg`` | ``dcg_score(y_true, y_score, k, log_base)``, ``ndcg_score(y_true, y_score, k)`` |
| ``top_k_accuracy`` | ``top_k_accuracy_score(y_true, y_score, k, labels)`` |

Knobs and the arguments they set:

- ``label_set``: ``union`` -> ``labels=None`` (sklearn's ``unique_labels``, sorted);
  ``declared``, or ``auto`` with ``inputs.labels`` -> ``labels=inputs.labels``.
  ``accuracy_score`` and ``balanced_accuracy_score`` take no labels: their value
  does not depend on the label set as long as every label is a class
  (``outside=error``), so every ``label_set`` is offered there.
- ``outside``: ``confusion_matrix(labels=...)`` drops a sample with a label
  not in ``labels`` (``drop``, sklearn/metrics/_classification.py:584-590);
  the P/R/F functions and the report count it (``keep``:
  ``multilabel_confusion_matrix`` over all samples, only the listed labels
  reported). ``error`` is not offered for these two: they cannot refuse such a
  sample (a golden case written under ``outside=error`` is judged at the
  library's own policy where that gives the same value, and where the spec
  refuses the input only under ``error`` it is not applicable). ``keep`` with ``average=binary`` is
  not offered: ``_check_set_wise_labels`` (_classification.py:1911-1926)
  replaces ``labels`` by ``[pos_label]`` and refuses a third label as
  multiclass ("Target is multiclass but average='binary'"), which is the
  oracle's ``error``.
- ``average``: ``micro``, ``macro``, ``weighted``, ``binary`` (with ``pos_label``,
  default 1) and ``none`` -> ``average=None`` (an array, returned here as
  ``{label: value}`` keyed by sklearn's own label order).
- ``sample_weight`` (inputs): passed as floats to every call (a text "1/3" as the nearest double; the property inputs'
  weights are binary fractions, which a float holds exactly).
- ``average=samples`` and multilabel indicator input (rows of 0/1, ``input_forms``)
  go to the same calls: scikit-learn reads rows as a 'multilabel-indicator'
  target, ``labels`` as column indices, and ``accuracy_score`` as subset accuracy.
- ``zero_division``: ``zero`` -> ``"warn"`` (the default; sets 0 and warns),
  ``one`` -> ``1``, ``exclude`` -> ``np.nan`` (NaN per class, left out of the
  averages by ``_nanaverage``). ``undefined`` -> ``np.nan`` only where nothing is
  averaged over the undefined class (``average`` none, binary or micro, where
  NaN is "no value"); under macro and weighted sklearn has no setting that
  makes the average undefined, so it is unsupported there.
- ``beta``: ``fbeta_score(beta=float(beta))`` (any rational >= 0), ``np.inf`` for ``inf``.
- ``adjusted``: ``balanced_accuracy_score(adjusted=...)``.

Profiles are the library's defaults, as called with no options:
``labels=None`` (``label_set=auto``), ``zero_division="warn"`` (``zero``),
``confusion_matrix`` drops outside samples, the report keeps them, and
``precision_score``, ``recall_score`` and ``f1_score`` use ``average='binary'``
with ``pos_label=1``, where a label outside the two classes is refused
(``outside=error``). The binary default is declared honestly rather than
replaced by the multiclass setting people usually pass (``average='macro'``):
the property templates draw two-class inputs for it
(``strategies_classification``, ``binary=True``), every other average and
zero-division value is a one-knob variant of the profile that the suite runs
as well, and the multiclass golden cases carry their own ``average`` (they
are the ones that exercise ``outside=keep``, which needs a non-binary
average, with the adapter's tests).

Values are returned as Python floats and ints (NaN stays NaN, the library's
"no value"); the report keeps sklearn's string label keys ("0", "cat"), which
are the oracle's keys. An exception from sklearn on an input the oracle
accepts is not translated: the engine records it as an error, and the ones
seen are listed in ``known_failures/sklearn.json`` with a classifier here.
"""
from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, Era, LibraryOutput, Skip
from oracle.compare import Tolerance

from . import _sklearn_agreement as _agreement
from . import _sklearn_defects as _defects
from . import _sklearn_scores as _scores
from ._numbers import setting_double

_LABEL_SETS = ("auto", "declared", "union")
_ZD_ARG = {"zero": "warn", "one": 1, "undefined": "nan", "exclude": "nan"}
_PRF = ("precision", "recall", "f1")


def _prf_caps(extra: Mapping | None = None) -> dict:
    caps = {"label_set": _LABEL_SETS, "outside": ("error", "keep"),
            "average": ("micro", "macro", "weighted", "none", "binary", "samples"),
            "zero_division": ("zero", "one", "undefined", "exclude")}
    caps.update(extra or {})
    return caps


_PRF_PROFILE = {"label_set": "auto", "outside": "error", "average": "binary", "zero_division": "zero",
                "no_weight": "unweighted"}



def _as_given(labels):
    """A list of labels as a list; a text where the list belongs stays that text (``list()``
    would make its characters the labels), scikit-learn's to refuse."""
    return labels if isinstance(labels, str) else list(labels)

class SKLearn(Adapter):
    name = "sklearn"
    # the exceptions its own code refuses an input with: sklearn.utils validation (check_consistent_length, _check_targets, InvalidParameterError: a ValueError and a TypeError)
    refusals = {"*": ("ValueError", "TypeError")}
    library = "scikit-learn"
    versions = ">=0.24,<2"
    matrix_versions = ("1.3.0", "1.9.1")
    # releases before 1.4.2 are built against NumPy 1 and fail to import beside NumPy 2
    # (ImportError: cannot import name 'ComplexWarning' from 'numpy.core.numeric')
    version_requirements = (("<1.4.2", ["numpy<2"]),)
    import_name = "sklearn"
    homepage = "https://scikit-learn.org/stable/api/sklearn.metrics.html"
    issues = "https://github.com/scikit-learn/scikit-learn/issues"
    capabilities = {
        # confusion_matrix cannot refuse a label outside ``labels`` (it drops the sample): no ``error``
        "confusion_matrix": {"label_set": _LABEL_SETS, "outside": ("drop",), "normalize": ("none", "true", "pred", "all")},
        "accuracy": {"label_set": _LABEL_SETS, "outside": ("error",)},
        "per_class_accuracy": {"label_set": _LABEL_SETS, "outside": ("error",)},
        "precision": _prf_caps(),
        "recall": _prf_caps(),
        "f1": _prf_caps({"beta": ANY}),
        "balanced_accuracy": {"label_set": _LABEL_SETS, "outside": ("error",), "adjusted": ("no", "yes")},
        "classification_report": {"label_set": _LABEL_SETS, "outside": ("keep",),
                                  "zero_division": ("zero", "one", "exclude")},
        **_scores.CAPABILITIES,
        **_agreement.CAPABILITIES,
        # multilabel_confusion_matrix(labels=...): declared classes first, the others present appended and
        # computed, then only the declared kept (_classification.py:731-737): their samples still count
        "multilabel_confusion_matrix": {"label_set": _LABEL_SETS, "outside": ("keep",), "samplewise": ("no", "yes")},
    }
    # multilabel indicator rows (n x L of 0/1) go to the same calls: scikit-learn reads them
    # as 'multilabel-indicator' targets (sklearn.utils.multiclass.type_of_target)
    # sample_weight: every classification function takes it (per-class accuracy through recall_score)
    # accuracy_score(y_true, y_pred, *, normalize, sample_weight) and balanced_accuracy_score(y_true,
    # y_pred, *, sample_weight, adjusted) have no labels parameter (sklearn/metrics/_classification.py)
    # accuracy_score and balanced_accuracy_score take no labels, and no class scores beside
    # the predicted labels (the adapter passes y_pred)
    unpassed_fields = {"accuracy": ("labels", "y_score"), "balanced_accuracy": ("labels", "y_score"),
                       **_agreement.UNPASSED}
    input_forms = {m: (("multilabel",) if m in ("precision", "recall", "f1", "accuracy") else ()) + ("weighted",)
                   for m in ("confusion_matrix", "accuracy", "per_class_accuracy", "precision", "recall", "f1",
                             "balanced_accuracy", "classification_report", *_agreement.METRICS)}
    input_forms["multilabel_confusion_matrix"] = ("multilabel", "weighted")
    input_forms.update(_scores.INPUT_FORMS)
    profiles = {
        # confusion_matrix(labels=None); with labels, samples outside them are eliminated
        "confusion_matrix": {"label_set": "auto", "outside": "drop"},
        # accuracy_score / balanced_accuracy_score take no labels: every sample counts
        "accuracy": {"label_set": "auto", "outside": "error"},
        # recall_score(average=None, zero_division=np.nan): the adapter's mapping, not a default
        "per_class_accuracy": {"label_set": "auto", "outside": "error"},
        # precision_score / recall_score / f1_score defaults: labels=None, pos_label=1,
        # average='binary', zero_division='warn'. Under 'binary' labels are replaced by
        # [pos_label] and a third label is refused as multiclass: outside=error. (With
        # another average and labels, outside samples still count: outside=keep.)
        "precision": dict(_PRF_PROFILE),
        "recall": dict(_PRF_PROFILE),
        "f1": dict(_PRF_PROFILE, beta="1"),
        "balanced_accuracy": {"label_set": "auto", "outside": "error", "adjusted": "no"},
        # classification_report(labels=None, zero_division='warn', output_dict=True)
        "classification_report": {"label_set": "auto", "outside": "keep", "zero_division": "zero",
                                  "no_weight": "unweighted"},
        **_scores.PROFILES,
        **_agreement.PROFILES,
        "multilabel_confusion_matrix": {"label_set": "auto", "outside": "keep", "samplewise": "no"},
    }
    # no samples: a ValueError of sklearn's own checks; a 0/0 of P, R or F under zero_division=np.nan: NaN
    undefined = {**{m: ("raise", "nan") for m in ("precision", "recall", "f1", "classification_report")},
                 **_agreement.UNDEFINED}
    profile_sources = {
        "multilabel_confusion_matrix": {
            "outside": "sklearn/metrics/_classification.py multilabel_confusion_matrix: 'labels = np.hstack([labels, "
                       "np.setdiff1d(present_labels, labels ...)])', then only the first n_labels kept: a sample of "
                       "another class still counts as a false negative or positive of the listed ones"},
        "confusion_matrix": {"outside": "sklearn/metrics/_classification.py:451-453 confusion_matrix(labels=...): "
                                        "'may be used to reorder or select a subset of labels' (:584 'eliminate "
                                        "items not in labels')"},
        "classification_report": {"outside": "_classification.py:2017-2020 precision_recall_fscore_support(labels="
                                             "...): 'Labels present in the data can be excluded'; samples of other "
                                             "labels still count as errors of the listed ones"},
        "*": {"average": "_classification.py:2556-2564 precision_score(average='binary'): 'Only report results for "
                         "the class specified by pos_label' (same for recall_score :2737, f1_score :1513)",
              "no_weight": "sklearn/utils/extmath.py _nanaverage (precision_recall_fscore_support, "
                           "_classification.py:2212-2215): 'except ZeroDivisionError: # this is when all weights "
                           "are zero, then ignore them' (since 1.3)",
              "undefined": "_classification.py:2584-2590 precision_score(zero_division=np.nan): 'If set to np.nan, "
                           "such values will be excluded from the average' (a 0/0 is returned as NaN); no samples: "
                           "check_consistent_length / _check_targets raise ValueError",
              "zero_division": "_classification.py:2584-2590 precision_score(zero_division='warn'): 'Sets the value "
                               "to return when there is a zero division ... If set to \"warn\", this acts like 0' "
                               "(recall_score, f1_score, classification_report alike)",
              "label_set": "_classification.py:2539-2545 precision_score(labels=None): 'By default, all labels in "
                           "y_true and y_pred are used in sorted order' (the union; declared labels when given)",
              "outside": "_classification.py:2541-2543 precision_score(labels=...): 'Labels present in the data can "
                         "be excluded': their samples still count as errors of the listed labels"},
        **_scores.SOURCES,
        **_agreement.SOURCES,
    }
    # releases whose rule differs: before 1.3, weights.sum() == 0 took its own branch
    eras = (
        Era("<1.3.0", {m: {"no_weight": "zero-if-predicted"} for m in ("precision", "recall", "f1",
                                                                          "classification_report")},
            {"no_weight": "1.2.2 sklearn/metrics/_classification.py precision_recall_fscore_support: 'if "
                          "weights.sum() == 0: ... # precision is zero_division if there are no positive "
                          "predictions' (P and F 0 when something is predicted); 1.3 replaced it by _nanaverage"}),
    )
    # float64. Counts are exact integers. A per-class ratio is one correctly rounded
    # division; accuracy a mean of 0/1 values (sum exact, one division). Averages add a
    # sum over the classes and a division (np.mean, np.average), F-beta the rounding of
    # beta**2: a few units of 2**-53 relative. Adjusted balanced accuracy subtracts
    # 1/K from a mean near it, so its error is absolute (a few 2**-53, times at most 2
    # for the division by 1 - 1/K), not relative: an abs bound beside the ULPs.
    tolerances = {
        "confusion_matrix": Tolerance(),
        "accuracy": Tolerance(ulps=2),
        "per_class_accuracy": Tolerance(ulps=2),
        "precision": Tolerance(ulps=8),
        "recall": Tolerance(ulps=8),
        "f1": Tolerance(ulps=8),
        "balanced_accuracy": Tolerance(ulps=8, abs=Fraction(1, 10 ** 14)),
        "classification_report": Tolerance(ulps=8),
        **_scores.TOLERANCES,
        **_agreement.TOLERANCES,
        "multilabel_confusion_matrix": Tolerance(),
    }

    # ------------------------------------------------------------ configuration

    def __init__(self):
        if self.in_versions("<1.3"):
            # zero_division=np.nan (exclude, undefined) arrived in 1.3 ('versionadded:: 1.3')
            self.capabilities = {m: ({**c, "zero_division": tuple(v for v in c["zero_division"]
                                                                    if v in ("zero", "one"))}
                                     if isinstance(c.get("zero_division"), tuple) else c)
                                 for m, c in self.capabilities.items()}
            # fbeta_score's 'if np.isposinf(beta): f_score = recall' is in 1.3.0; older
            # releases are not checked for it, so beta=inf is not offered there
            self.capabilities["f1"] = dict(self.capabilities["f1"], beta=lambda v, s: v != "inf")

    def supports(self, metric: str, settings: Mapping[str, str]) -> str | None:
        """The declared capabilities, and two combinations the library cannot express."""
        why = super().supports(metric, settings)
        if why:
            return why
        average = settings.get("average")
        if settings.get("zero_division") == "undefined" and average in ("macro", "weighted"):
            return (f"zero_division=undefined: sklearn has no setting that makes the {average} average "
                    "undefined when a class divides by zero (np.nan leaves the class out: zero_division=exclude)")
        if average == "binary" and settings.get("outside") == "keep":
            return ("outside=keep: with average='binary' sklearn replaces labels by [pos_label] "
                    "(_check_set_wise_labels) and refuses a third label as multiclass")
        return None

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric in _scores.METRICS:
            k = settings.get("k", "none")   # dcg, ndcg: 'none' or an int; top_k_accuracy: an int
            return {"average": settings.get("average"), "k": None if k == "none" else int(k),
                    "log_base": int(settings.get("log_base", "2"))}
        if metric in _agreement.METRICS:
            return _agreement.options(metric, settings)
        if metric == "multilabel_confusion_matrix":
            return {"label_set": settings["label_set"], "samplewise": settings["samplewise"] == "yes"}
        opts: dict = {"label_set": settings["label_set"]}
        if "outside" in settings and settings.get("average") not in (None, "binary"):
            opts["outside"] = settings["outside"]
        average = settings.get("average")
        zd = settings.get("zero_division")
        if average is not None:
            opts["average"] = None if average == "none" else average
        if zd is not None:
            opts["zero_division"] = _ZD_ARG[zd]
        if "beta" in settings:
            opts["beta"] = "inf" if settings["beta"] == "inf" else Fraction(settings["beta"])
        if "adjusted" in settings:
            opts["adjusted"] = settings["adjusted"] == "yes"
        if "normalize" in settings:
            opts["normalize"] = settings["normalize"]
        return opts

    # --------------------------------------------------------------------- call

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        import numpy as np
        from sklearn import metrics as M

        if metric in _scores.METRICS:
            return _scores.call(metric, options, inputs)
        y_true, y_pred = _as_given(inputs["y_true"]), _as_given(inputs["y_pred"])
        sw = [float(Fraction(w)) if isinstance(w, str) else float(w) for w in inputs["sample_weight"]] \
            if "sample_weight" in inputs else None
        labels = _labels_arg(options["label_set"], inputs)
        if metric in _agreement.METRICS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")   # UndefinedMetricWarning
                return _agreement.call(metric, options, {"y_true": y_true, "y_pred": y_pred}, labels, sw)
        if metric == "multilabel_confusion_matrix":
            m = M.multilabel_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sw,
                                              samplewise=options["samplewise"])
            cast = int if sw is None else float
            return LibraryOutput(value=[[[cast(x) for x in row] for row in mat] for mat in m.tolist()], raw=m)
        zd = options.get("zero_division", "warn")
        zd = np.nan if zd == "nan" else zd
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # UndefinedMetricWarning, "y_pred contains classes not in y_true"
            with np.errstate(all="ignore"):
                if metric == "confusion_matrix":
                    how = options.get("normalize", "none")
                    cm = M.confusion_matrix(y_true, y_pred, labels=labels, normalize=None if how == "none" else how,
                                            sample_weight=sw)
                    cast = int if how == "none" and sw is None else float
                    return LibraryOutput(value=[[cast(x) for x in row] for row in cm], raw=cm)
                if metric == "accuracy":
                    return LibraryOutput(value=float(M.accuracy_score(y_true, y_pred, sample_weight=sw)))
                if metric == "balanced_accuracy":
                    return LibraryOutput(value=float(M.balanced_accuracy_score(
                        y_true, y_pred, adjusted=options["adjusted"], sample_weight=sw)))
                if metric == "per_class_accuracy":
                    r = M.recall_score(y_true, y_pred, labels=labels, average=None, zero_division=np.nan, sample_weight=sw)
                    return LibraryOutput(value=_keyed(labels, y_true, y_pred, r), raw=r)
                if metric in _PRF and options.get("outside") == "error" and options.get("average") != "binary" \
                        and inputs.get("labels") is not None:
                    declared = set(inputs["labels"])
                    if y_true and isinstance(y_true[0], (list, tuple)):   # indicator rows: the columns
                        stray = next((j for row in y_true + y_pred for j, x in enumerate(row)
                                      if x and j not in declared), None)
                    else:
                        stray = next((y for y in y_true + y_pred if y not in declared), None)
                    if stray is not None:
                        raise Skip(f"outside=error: with average={options.get('average')!r} sklearn counts the "
                                   f"samples of label {stray!r}, outside labels={list(inputs['labels'])} (its docs: "
                                   "'Labels present in the data can be excluded'); it has no setting that refuses "
                                   "them (only average='binary' refuses a third label)")
                if metric in _PRF:
                    average = options["average"]
                    kw = dict(labels=labels, average=average, zero_division=zd, sample_weight=sw)
                    if average == "binary":
                        kw["pos_label"] = inputs.get("pos_label", 1)
                    if metric == "precision":
                        v = M.precision_score(y_true, y_pred, **kw)
                    elif metric == "recall":
                        v = M.recall_score(y_true, y_pred, **kw)
                    elif options["beta"] == 1:
                        v = M.f1_score(y_true, y_pred, **kw)
                    else:
                        import numpy as np
                        beta = np.inf if options["beta"] == "inf" else setting_double("beta", options["beta"], "scikit-learn")
                        v = M.fbeta_score(y_true, y_pred, beta=beta, **kw)
                    value = _keyed(labels, y_true, y_pred, v) if average is None else float(v)
                    return LibraryOutput(value=value, raw=v)
                if metric == "classification_report":
                    rep = M.classification_report(y_true, y_pred, labels=labels, output_dict=True,
                                                  zero_division=zd, sample_weight=sw)
                    return LibraryOutput(value=_plain(rep), raw=rep)
        raise Skip(f"sklearn adapter does not implement {metric}")

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """Each function with the inputs only: ``precision_score(y_true, y_pred)`` and so on,
        the inputs' own ``labels``, ``pos_label`` and ``sample_weight`` passed as given (they
        are the user's data); ``classification_report`` with ``output_dict=True`` (its value
        as data, not text)."""
        import numpy as np
        from sklearn import metrics as M

        kw: dict = {}
        if "sample_weight" in inputs:
            kw["sample_weight"] = [float(Fraction(w)) if isinstance(w, str) else float(w)
                                   for w in inputs["sample_weight"]]
        if metric in _scores.METRICS:
            y_score = _scores._array(inputs["y_score"])
            fn = {"score_average_precision": M.average_precision_score,
                  "label_ranking_average_precision": M.label_ranking_average_precision_score,
                  "score_dcg": M.dcg_score, "score_ndcg": M.ndcg_score,
                  "top_k_accuracy": M.top_k_accuracy_score}[metric]
            if metric == "top_k_accuracy":
                y_true = list(inputs["y_true"])
                if "labels" in inputs:
                    kw["labels"] = list(inputs["labels"])
            else:
                y_true = np.array(inputs["y_true"], dtype=int)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return LibraryOutput(value=float(fn(y_true, y_score, **kw)))
        if metric == "per_class_accuracy":
            raise Skip("scikit-learn has no per-class accuracy function (the adapter maps it onto "
                       "recall_score(average=None), an option)")
        y_true, y_pred = _as_given(inputs["y_true"]), _as_given(inputs["y_pred"])
        if metric in _agreement.METRICS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                labels = list(inputs["labels"]) if "labels" in inputs and metric == "cohen_kappa" else None
                return _agreement.call(metric, {"weights": None}, {"y_true": y_true, "y_pred": y_pred}, labels,
                                       kw.get("sample_weight"))
        if metric == "multilabel_confusion_matrix":
            labels = list(inputs["labels"]) if "labels" in inputs else None
            m = M.multilabel_confusion_matrix(y_true, y_pred, labels=labels, **kw)
            cast = int if "sample_weight" not in kw else float
            return LibraryOutput(value=[[[cast(x) for x in row] for row in mat] for mat in m.tolist()])
        if "labels" in inputs and metric not in ("accuracy", "balanced_accuracy"):
            kw["labels"] = list(inputs["labels"])
        if "pos_label" in inputs and metric in _PRF:
            kw["pos_label"] = inputs["pos_label"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                if metric == "confusion_matrix":
                    cm = M.confusion_matrix(y_true, y_pred, **kw)
                    cast = int if "sample_weight" not in kw else float
                    return LibraryOutput(value=[[cast(x) for x in row] for row in cm], raw=cm)
                if metric == "classification_report":
                    rep = M.classification_report(y_true, y_pred, output_dict=True, **kw)
                    return LibraryOutput(value=_plain(rep), raw=rep)
                fn = {"accuracy": M.accuracy_score, "balanced_accuracy": M.balanced_accuracy_score,
                      "precision": M.precision_score, "recall": M.recall_score, "f1": M.f1_score}[metric]
                return LibraryOutput(value=float(fn(y_true, y_pred, **kw)))

    # ------------------------------------------------------- known failures

    def defect_models(self) -> dict:
        """The library's value each defect predicts: -inf from the division by 1 - 1/1, and
        the unweighted mean of the fallback (the macro average; no prediction for a report);
        f1 before 1.4: the zero_division value (1, or NaN) where P and R are both 0."""
        return {
            "adjusted-single-class-division": lambda metric, settings, inputs: float("-inf"),
            "adjusted-single-class-nan": lambda metric, settings, inputs: float("nan"),
            "one-document-rows-refused": lambda metric, settings, inputs: "raised ValueError",
            "f1-zero-division-without-zero-denominator": lambda metric, settings, inputs: (
                1.0 if settings.get("zero_division") == "one" else float("nan")),
        }

    def defect_classifiers(self) -> dict:
        return {
            "empty-input-raises": _defects.empty_input,
            "all-zero-weights-raise": _defects.all_zero_weights,
            "one-document-rows-refused": _defects.one_document_rows,
            "no-declared-label-in-y-true": _defects.no_declared_label_in_y_true,
            "adjusted-single-class-division": _defects.adjusted_single_class,
            "adjusted-single-class-nan": _defects.adjusted_single_class_perfect,
            "f1-zero-division-without-zero-denominator": self._f1_zero_division,
        }

    def _f1_zero_division(self, metric, settings, inputs) -> bool:
        """Before 1.4.0, ``precision_recall_fscore_support`` sets F to zero_division wherever
        P + R is 0 (``mask = np.isclose(denom, 0) ...; f_score[mask] = zero_division_value``,
        1.3.0 metrics/_classification.py:1768-1772), though F = 2 tp / (2 tp + fp + fn) is 0,
        not 0/0, once a prediction or a gold sample of the class exists; 1.4.0 computes F from
        the counts (1.9.1 :2183-2202). Applies: before 1.4.0, f1 with average='binary',
        zero_division one or NaN, no true positive and some positive prediction or label."""
        if metric != "f1" or not self.in_versions("<1.4.0") or settings.get("average") != "binary" \
                or settings.get("zero_division") not in ("one", "exclude", "undefined"):
            return False
        yt, yp = list(inputs.get("y_true", ())), list(inputs.get("y_pred", ()))
        tp = sum(1 for t, p in zip(yt, yp) if t == 1 and p == 1)
        return tp == 0 and (1 in yt or 1 in yp)


# ------------------------------------------------------------------ helpers

def _labels_arg(label_set: str, inputs: Mapping):
    if label_set == "declared" and "labels" not in inputs:
        raise Skip("label_set=declared without inputs.labels: there is no label list to pass as labels=")
    if label_set == "union" or "labels" not in inputs:
        return None
    return list(inputs["labels"])


def _py(x):
    """A NumPy scalar as the Python int, str or float it holds."""
    return x.item() if hasattr(x, "item") else x


def _keyed(labels, y_true, y_pred, values) -> dict:
    """sklearn's per-class array keyed by its label order: ``labels``, or
    ``unique_labels(y_true, y_pred)`` when none are given."""
    from sklearn.utils.multiclass import unique_labels

    order = labels if labels is not None else [_py(c) for c in unique_labels(y_true, y_pred)]
    return {c: float(v) for c, v in zip(order, values)}


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return float(x)
