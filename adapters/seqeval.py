"""seqeval 1.2.2: ``seqeval.metrics`` mapped onto the sequence-labelling metrics.

| metric | call |
| --- | --- |
| ``token_accuracy`` | ``accuracy_score(y_true, y_pred)`` |
| ``entity_precision`` | ``precision_score(..., average, zero_division, suffix, mode, scheme)`` |
| ``entity_recall`` | ``recall_score(...)`` (same options) |
| ``entity_f1`` | ``f1_score(...)`` (beta 1), or ``precision_recall_fscore_support(..., beta=float(beta))`` |
| ``entity_report`` | ``classification_report(..., output_dict=True, zero_division, suffix, mode, scheme)`` |

Knobs and the arguments they set:

- ``reading``: ``seqeval`` -> ``mode=None``, the default mode
  (``metrics.sequence_labeling.get_entities`` with ``end_of_chunk`` /
  ``start_of_chunk``, "compatible with conlleval.pl"); ``valid-only`` ->
  ``mode='strict', scheme=<class>`` (``seqeval.scheme.Tokens.entities``). A
  scheme class is always passed in strict mode: without one, ``f1_score`` and
  friends fall back to the default mode silently and ``classification_report``
  guesses the scheme from ``y_true`` (``auto_detect``).
- ``scheme``: in strict mode the class ``IOB1``, ``IOB2``, ``IOE1``, ``IOE2``,
  ``IOBES`` or ``BILOU``. The default mode takes no scheme: it reads the first
  character of every tag as its prefix and applies one rule to B, I, E, S and O
  whatever the scheme. In oracle terms that rule is the seqeval reading, which
  is also one rule for every scheme (a scheme there only says which prefixes are
  valid input): for iob1, iob2, ioe1, ioe2 and iobes the default mode reads
  exactly the oracle's chunks, so every scheme is offered with
  ``reading=seqeval`` and the profile names ``iob2``, the scheme of seqeval's
  own examples. BILOU's L and U are not prefixes the default mode knows (the
  oracle reads them as E and S): offered, and recorded as a known failure.
- ``tag_format``: ``prefix-type`` -> ``suffix=False``, ``type-prefix`` -> ``suffix=True``.
- ``average``: ``micro``, ``macro``, ``weighted`` (seqeval's own names).
- ``zero_division``: ``zero`` -> ``'warn'`` (the default: 0 and a warning),
  ``one`` -> ``1``. seqeval has no "no value" setting (``_prf_divide`` writes
  0.0 or 1.0), so ``undefined`` and ``exclude`` are not offered.
- ``beta``: ``entity_f1`` only, through ``precision_recall_fscore_support``
  (the function behind ``f1_score``); precision and recall do not depend on it.
  ``classification_report`` has no beta.

Fixed: ``labels=all`` (the union of the types found; seqeval takes no label
list) and ``matching=span`` (entities are (sentence, type, start, end) sets).

Profiles are the library's defaults, as called with no options: ``average='micro'``,
``mode=None`` (seqeval reading), ``suffix=False``, ``zero_division='warn'``.
(The oracle's ``reading=conlleval``, conlleval.pl as written, is no mode of seqeval's:
on IOB input it reads the same chunks, on IOBES input it does not.)

Values: numpy floats and ints are returned as Python floats and ints (NaN stays
NaN, the library's "no value"). ``classification_report`` rows keep seqeval's
row names (the types, "micro avg", "macro avg", "weighted avg"), which are the
oracle's; the column ``f1-score`` is renamed to the oracle's ``f1`` and nothing
else is touched, so a value difference stays a difference. The library's
statistics are the per-type counts of its own entity sets (tp, pred, gold and
their totals), read with the same extraction its scores use.

Releases 0.0.12 to 1.2.x. Before 1.2.0 (commit a3d6837, 2020-10-15, 'Update f1_score to
allow averages') the score functions are ``f(y_true, y_pred, average='micro',
suffix=False)``: no ``mode``, ``scheme`` or ``zero_division`` (only the default mode,
``zero_division=zero``, beta 1), and ``average`` is taken but not read (known failure
``average-ignored``). ``seqeval.scheme``, ``seqeval.metrics.v1`` and a dict
``classification_report`` arrive in 1.0.0 (PR #54, strict mode): before it there is no
``entity_report`` (the report is text) and no strict mode (the valid-only reading). 0.0.12 takes a tag's type
as ``chunk.split('-')[-1]`` (the last hyphen's), 1.0.0 as ``chunk[1:].split('-', 1)[-1]``.
Releases before 1.2.1 pin numpy 1.19 and scikit-learn 0.23 (Keras before 1.0), which do
not install on current Pythons: the version matrix installs them without their pins.

Inputs seqeval reads differently from the oracle without a numeric
disagreement to record (the oracle refuses them with an InputError, so the
engine never judges the library on them): a tag without a type (``B``, ``B-``)
is read with the type ``_``; a tag ``O-PER`` has the prefix O; in the default
mode the prefix is the first character whatever follows it (``BX-PER`` is a B).
An exception from seqeval on an input the oracle accepts is not translated: the
engine records it as an error, and the ones seen are listed in
``known_failures/seqeval.json`` with a classifier here.
"""
from __future__ import annotations

import warnings
from fractions import Fraction
from functools import partial
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip

from oracle.compare import Tolerance

from ._seqeval_entities import (_NO_MODE, _NO_SCHEME, _SCORE, SCHEME_CLASSES, _library_options,  # noqa: F401
                                _scheme_class, _sentences, library_entities, library_stats)

_ZD_ARG = {"zero": "warn", "one": 1}



def _beta_is_one(value: str, settings: Mapping[str, str]) -> bool:
    return Fraction(value) == 1


_ENTITY = {
    "scheme": tuple(SCHEME_CLASSES),
    "reading": ("seqeval", "valid-only"),
    "tag_format": ("prefix-type", "type-prefix"),
    "average": ("micro", "macro", "weighted"),
    "zero_division": ("zero", "one"),
    "beta": ANY,
}
_PROFILE = {"scheme": "iob2", "reading": "seqeval", "tag_format": "prefix-type", "average": "micro",
            "beta": "1", "zero_division": "zero", "labels": "all", "matching": "span"}


class SeqEval(Adapter):
    name = "seqeval"
    # the exceptions its own code refuses an input with: check_consistent_length and the scheme checks raise ValueError (TypeError for a non-list)
    refusals = {"*": ("ValueError", "TypeError")}
    # f1_score, precision_recall_fscore_support, accuracy_score and classification_report take
    # y_true and y_pred only (seqeval/metrics/sequence_labeling.py): no tokens
    unpassed_fields = {m: ("tokens",) for m in ("token_accuracy", "entity_f1", "entity_precision", "entity_recall",
                                                "entity_report")}
    library = "seqeval"
    import_name = "seqeval.metrics"
    homepage = "https://github.com/chakki-works/seqeval"
    issues = "https://github.com/chakki-works/seqeval/issues"
    versions = ">=0.0.12,<2"
    matrix_versions = ("0.0.12", "1.0.0", "1.2.2")
    # setup.py pins numpy==1.19.2, scikit-learn==0.23.2 (1.0.0-1.2.0) and Keras (0.0.x), which
    # do not build on Python 3.11; the code needs only numpy (and sklearn's warning class)
    version_requirements = (("<1.2.1", ["--no-deps"]),)
    capabilities = {
        "token_accuracy": {},
        "entity_precision": dict(_ENTITY),
        "entity_recall": dict(_ENTITY),
        "entity_f1": dict(_ENTITY),
        "entity_report": {k: v for k, v in _ENTITY.items() if k != "average"} | {"beta": _beta_is_one},
    }
    profiles = {
        "token_accuracy": {},
        "entity_precision": dict(_PROFILE),
        "entity_recall": dict(_PROFILE),
        "entity_f1": dict(_PROFILE),
        "entity_report": {k: v for k, v in _PROFILE.items() if k != "average"},
    }
    profile_sources = {"*": {
        "reading": "seqeval/metrics/sequence_labeling.py:325-327 mode=None: 'the score is compatible with "
                   "conlleval.pl'; README 'The default mode is compatible with conlleval'",
        "zero_division": "sequence_labeling.py:317-323 zero_division='warn': 'acts as 0'",
        "average": "sequence_labeling.py:279 average='micro'",
    }}
    statistics = ("entity_precision", "entity_recall", "entity_f1", "entity_report")
    # float64. Counts are exact integers; accuracy is one division. A per-type P or R is
    # one division (_prf_divide), F = (1+b^2) P R / (b^2 P + R) a few more roundings (and
    # float(beta)**2 for beta != 1); macro and weighted averages add np.average's sum
    # and division: a few units of 2**-53 relative.
    tolerances = {
        "token_accuracy": Tolerance(ulps=2),
        "entity_precision": Tolerance(ulps=8),
        "entity_recall": Tolerance(ulps=8),
        "entity_f1": Tolerance(ulps=8),
        "entity_report": Tolerance(ulps=8),
    }

    def __init__(self):
        if not self.in_versions(_NO_MODE):
            return
        old = dict(_ENTITY, reading=("seqeval",), zero_division=("zero",), beta=_beta_is_one)
        caps = {"token_accuracy": {}, "entity_precision": dict(old), "entity_recall": dict(old),
                "entity_f1": dict(old)}
        if not self.in_versions(_NO_SCHEME):   # 1.0-1.1: classification_report has every option
            caps["entity_report"] = dict(self.capabilities["entity_report"])
        self.capabilities = caps

    # ------------------------------------------------------------ configuration

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric == "token_accuracy":
            return {}
        opts: dict = {"suffix": settings["tag_format"] == "type-prefix",
                      "zero_division": _ZD_ARG[settings["zero_division"]],
                      "strict": settings["reading"] == "valid-only",
                      "scheme": settings["scheme"]}
        if metric != "entity_report":
            opts["average"] = settings["average"]
        if metric == "entity_f1":
            opts["beta"] = Fraction(settings["beta"])
            try:
                float(opts["beta"])
            except OverflowError:   # precision_recall_fscore_support takes beta as a float
                raise Skip(f"beta={settings['beta']} has no double: seqeval takes beta as a float") from None
        return opts

    # --------------------------------------------------------------------- call

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        from seqeval import metrics as M
        from seqeval.metrics import sequence_labeling as SL

        y_true = [list(s) for s in inputs["gold"]]
        y_pred = [list(s) for s in inputs["pred"]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # UndefinedMetricWarning, "... seems not to be NE tag."
            if metric == "token_accuracy":
                return LibraryOutput(value=float(M.accuracy_score(y_true, y_pred)))
            if self.in_versions(_NO_MODE) and metric != "entity_report":
                # f(y_true, y_pred, average='micro', suffix=False): nothing else to pass
                fn = {"entity_precision": M.precision_score, "entity_recall": M.recall_score,
                      "entity_f1": M.f1_score}[metric]
                value = fn(y_true, y_pred, average=options["average"], suffix=options["suffix"])
                return LibraryOutput(value=float(value), stats=library_stats(options, y_true, y_pred), raw=value)
            kw: dict = {"suffix": options["suffix"], "zero_division": options["zero_division"]}
            if options["strict"]:
                kw.update(mode="strict", scheme=_scheme_class(options["scheme"]))
            stats = library_stats(options, y_true, y_pred)
            if metric == "entity_report":
                rep = M.classification_report(y_true, y_pred, output_dict=True, **kw)
                return LibraryOutput(value=_report(rep), stats=stats, raw=rep)
            if metric not in _SCORE:
                raise Skip(f"seqeval adapter does not implement {metric}")
            kw["average"] = options["average"]
            if metric == "entity_f1" and options["beta"] != 1:
                from seqeval.metrics import v1
                mode = kw.pop("mode", None)
                prfs = v1.precision_recall_fscore_support if mode == "strict" else \
                    SL.precision_recall_fscore_support
                if mode != "strict":
                    kw.pop("scheme", None)
                value = prfs(y_true, y_pred, beta=float(options["beta"]), **kw)[2]
            else:
                fn = {"entity_precision": M.precision_score, "entity_recall": M.recall_score,
                      "entity_f1": M.f1_score}[metric]
                value = fn(y_true, y_pred, **kw)
            return LibraryOutput(value=float(value), stats=stats, raw=value)

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``f1_score(y_true, y_pred)`` and its siblings, ``accuracy_score`` and
        ``classification_report(y_true, y_pred, output_dict=True)`` (its value as data)."""
        from seqeval import metrics as M
        y_true = [list(s) for s in inputs["gold"]]
        y_pred = [list(s) for s in inputs["pred"]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if metric == "entity_report":
                rep = M.classification_report(y_true, y_pred, output_dict=True)
                return LibraryOutput(value=_report(rep), raw=rep)
            fn = {"token_accuracy": M.accuracy_score, "entity_precision": M.precision_score,
                  "entity_recall": M.recall_score, "entity_f1": M.f1_score}[metric]
            return LibraryOutput(value=float(fn(y_true, y_pred)))

    # ------------------------------------------------------- known failures

    def defect_models(self) -> dict:
        """The library's value each defect predicts: NaN for a macro average of no type (the
        report: the oracle's, its macro row NaN)."""
        H = _history()
        return {"macro-average-of-no-type": _macro_of_no_type_value, **H.MODELS}

    def defect_classifiers(self) -> dict:
        return {
            "bilou-default-mode": _bilou_default_mode,
            "iob1-strict-raw-previous-tag": _iob1_strict,
            "ioe1-strict-patterns": _ioe1_strict,
            "strict-strips-type-hyphens": _strict_strips_type_hyphens,
            "no-tokens-raises": _no_tokens,
            "macro-average-of-no-type": _macro_of_no_type,
            **{name: partial(fn, self) for name, fn in _history().CLASSIFIERS.items()},
        }


# ------------------------------------------------------------------ helpers

def _number(x):
    """A NumPy scalar as the Python int or float it holds."""
    x = x.item() if hasattr(x, "item") else x
    return x if isinstance(x, int) and not isinstance(x, bool) else float(x)


def _report(rep: Mapping) -> dict:
    """seqeval's report dict with the column ``f1-score`` named ``f1`` (the oracle's name)."""
    return {row: {("f1" if col == "f1-score" else col): _number(v) for col, v in cols.items()}
            for row, cols in rep.items()}


def _oracle_chunks(settings: Mapping, sentence: list) -> list:
    from oracle.chunks import parse_tag, read_chunks
    parsed = [parse_tag(t, settings["scheme"], settings["tag_format"], "tag") for t in sentence]
    return sorted(read_chunks(parsed, settings["scheme"], settings["reading"]))


def _library_chunks(settings: Mapping, sentence: list) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sorted((s, e, t) for _, s, e, t in library_entities(_library_options(settings), [sentence]))


def _split(tag: str, settings: Mapping) -> tuple[str, str]:
    if tag == "O":
        return "O", ""
    if settings.get("tag_format") == "type-prefix":
        typ, prefix = tag.rsplit("-", 1)
    else:
        prefix, typ = tag.split("-", 1)
    return prefix, typ



def _reading_differs(settings: Mapping, inputs: Mapping, trigger) -> bool:
    """Some sentence (gold or prediction) holds the defect's trigger and seqeval's own
    chunks of it differ from the oracle's."""
    for s in _sentences(inputs):
        if trigger([_split(t, settings) for t in s]) and _oracle_chunks(settings, s) != _library_chunks(settings, s):
            return True
    return False


def _bilou_default_mode(metric, settings, inputs) -> bool:
    """The default mode's ``end_of_chunk`` / ``start_of_chunk``
    (seqeval/metrics/sequence_labeling.py:201-274) know the prefixes B, I, E, S and O;
    an L or U tag is read by the type-change rules alone, so ``B-PER L-PER B-PER L-PER``
    loses its first chunk (B after L ends nothing) and ``U-PER U-PER`` is one chunk. The
    oracle reads BILOU with L = E and U = S. Applies: scheme bilou, reading seqeval, and
    a sentence holding an L- or U- tag whose chunks seqeval reads differently (without L
    or U both readings are the same: checked on every sequence of up to 4 tags)."""
    if settings.get("scheme") != "bilou" or settings.get("reading") != "seqeval":
        return False
    return _reading_differs(settings, inputs, lambda p: any(x in ("L", "U") for x, _ in p))


def _iob1_strict(metric, settings, inputs) -> bool:
    """``seqeval.scheme.IOB1`` (scheme.py:100-120) decides from the raw previous tag:
    a B-X starts a chunk after B-X or I-X (start patterns (I, B, SAME), (B, B, SAME)) even
    when that B-X was itself invalid and dropped (``O B-X B-X`` keeps X[2,3)), and its end
    patterns lack (B, B, DIFF), so a chunk opened by B-X and followed by B-Y is dropped
    (``I-X B-X B-Y`` keeps only X[0,1)). The oracle reads a B-X as a chunk start only
    directly after a token of an open chunk of type X. Applies: scheme iob1, reading
    strict, and a sentence with a B- tag right after a B- tag whose chunks seqeval reads
    differently (every difference has one: checked on every sequence of up to 6 tags;
    valid IOB1 sequences are read alike)."""
    if settings.get("scheme") != "iob1" or settings.get("reading") != "valid-only":
        return False
    return _reading_differs(settings, inputs,
                            lambda p: any(p[i][0] == "B" and p[i - 1][0] == "B" for i in range(1, len(p))))


def _ioe1_trigger(p: list) -> bool:
    p = list(p) + [("O", "")]
    for i, (prefix, typ) in enumerate(p[:-1]):
        if prefix != "E":
            continue
        prev = p[i - 1] if i else ("O", "")
        if p[i + 1][1] != typ or prev not in (("I", typ), ("E", typ)):
            return True
    return False


def _ioe1_strict(metric, settings, inputs) -> bool:
    """``seqeval.scheme.IOE1`` (scheme.py:123-142, marked "Todo: IOE1 hasn't yet been able
    to handle some cases"): an E-X starts a chunk only after E-X (start pattern (E, E,
    SAME)), so a valid single-token chunk E-X after O or after another type is lost
    (``E-X I-X``: only X[1,2)); and a chunk ending in E-X must be followed by type X (end
    patterns (E, I, SAME), (E, E, SAME)), so an invalid final E-X drops the whole chunk
    (``I-X E-X``: nothing, where the oracle reads the stray E-X as O and keeps X[0,1)).
    Applies: scheme ioe1, reading valid-only, and a sentence with an E-X not preceded by I-X
    or E-X or not followed by a tag of type X, whose chunks seqeval reads differently
    (every difference has one: checked on every sequence of up to 6 tags)."""
    if settings.get("scheme") != "ioe1" or settings.get("reading") != "valid-only":
        return False
    return _reading_differs(settings, inputs, _ioe1_trigger)


def _strict_strips_type_hyphens(metric, settings, inputs) -> bool:
    """``seqeval.scheme.Token.__init__`` takes the type as ``tag.strip(delimiter)``
    (scheme.py:56-57), which strips every hyphen at either end of the type: ``B--X`` and
    ``B-X`` (or ``X--B`` and ``X-B``) have the same type X. The oracle splits at one
    hyphen (``-X`` is a type of its own), as the default mode does. Applies: reading
    strict and an entity tag whose type begins or ends with a hyphen."""
    if settings.get("reading") != "valid-only":
        return False
    for s in _sentences(inputs):
        for t in s:
            if t != "O":
                typ = _split(t, settings)[1]
                if typ.startswith("-") or typ.endswith("-"):
                    return True
    return False


def _no_tokens(metric, settings, inputs) -> bool:
    """``accuracy_score`` divides ``nb_correct / nb_true`` with nb_true = 0
    (seqeval/metrics/sequence_labeling.py:394-397): ZeroDivisionError; the oracle's value
    is Undefined ("no tokens"). Applies: token_accuracy and no token in any sentence."""
    return metric == "token_accuracy" and sum(len(s) for s in inputs.get("gold", ())) == 0


def _history():
    """The classifiers and models of the defects of old releases (adapters/_seqeval_history.py)."""
    from . import _seqeval_history
    return _seqeval_history



def _entity_types(settings: Mapping, inputs: Mapping) -> set:
    opts = _library_options(settings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {e[3] for k in ("gold", "pred") for e in library_entities(opts, list(inputs.get(k, ())))}


def _macro_of_no_type_value(metric, settings, inputs):
    """NaN; for the report, the oracle's report with the macro row's precision, recall and
    F1 NaN (``np.average`` of empty arrays)."""
    if metric != "entity_report":
        return float("nan")
    from oracle.registry import compute
    v = compute(metric, inputs, settings).value
    if not isinstance(v, dict) or "macro avg" not in v:
        return None
    nan = float("nan")
    return {**v, "macro avg": {**v["macro avg"], "precision": nan, "recall": nan, "f1": nan}}


def _macro_of_no_type(metric, settings, inputs) -> bool:
    """With no entity in gold or prediction the per-type arrays are empty and
    ``np.average`` of an empty array is NaN (seqeval/metrics/v1.py:192-195); the oracle's
    macro average over an empty label set is 0/0, which zero_division resolves (0 or 1).
    Applies: a macro average (or the report's "macro avg" row), at least one sentence, and
    no entity in seqeval's reading of gold and prediction."""
    if metric != "entity_report" and (metric not in _SCORE or settings.get("average") != "macro"):
        return False
    return len(inputs.get("gold", ())) > 0 and not _entity_types(settings, inputs)
