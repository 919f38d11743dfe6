"""Perplexity of a language model over texts, exactly.

PPL = exp(-(1/T) * sum_t ln p_t) over T scored tokens (source document 000
part 4: ``math.exp(-sum(math.log(p)) / len(p))``; Jelinek et al. 1977).

Inputs, exactly one kind per call:
- ``{"probs": [[p, ...], ...]}``: per text, the probability of each observed token;
- ``{"logprobs": [[l, ...], ...]}``: the same as natural logs;
- ``{"logits": [[[z_1, ..., z_V], ...], ...], "targets": [[t, ...], ...]}``: per
  text and position, the vocabulary logits and the index of the observed token.
Numbers are JSON numbers (a float is taken at its exact binary value,
``Fraction(x)``), integers, or strings read exactly (``"1/2"``, ``"0.25"``);
``"-inf"`` (or the float -inf) is accepted for a log-probability or a logit.

Exact closed forms. Each scored token contributes -ln p = a + ln b with a
rational a and an exact b >= 1:
- probs: a = 0, b = 1/p (rational);
- logprobs: a = -l, b = 1;
- logits: a = 0, b = sum_j exp(z_j - z_t), i.e. -ln p_t = log(sum_j exp(z_j)) - z_t
  with the log-sum-exp kept in closed form (never softmax-then-log); shifting
  by z_t makes b rational (= V) for uniform logits. A -inf logit contributes
  exp(-inf) = 0 and is left out of the sum.
Then nll_sum = A + log(B) with A = sum a, B = prod b, and
PPL = exp(A/T) * B**(1/T), so probabilities that are powers of 1/2 give
exact rationals (0.5, 0.25, 0.5, 1 -> (16)**(1/4) = 2).

Knobs
- ``aggregate`` (agg): ``corpus-token`` (default; exp of the mean NLL over all
  scored tokens of all texts, as torch's CrossEntropyLoss mean reduction over
  a batch) or ``mean-per-text`` (mean of the per-text perplexities, as Hugging
  Face evaluate's ``mean_perplexity``).
- ``ignore_index`` (ignore): ``none`` (default) or an integer. With logits, a
  position whose target equals it is dropped (torch ``ignore_index``, -100 in
  Hugging Face models); with probs/logprobs, a ``null`` position is dropped.
- ``shift`` (shift): ``none`` (default; logits[i] scores targets[i]) or
  ``causal`` (logits[i] scores targets[i+1]: the last logit and the first
  target are dropped, as the Hugging Face causal-LM loss does). Logits only.
- ``logit_precision`` (lprec): ``exact`` (default; the logits as written) or
  ``float32`` (each logit the float32 nearest its double, as a torch tensor of
  the default dtype holds it). Logits only.

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/perplexity.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction

from .conventions import ConventionError, InputError, Knob, Metric, Result
from .exact import Undefined, exp, log, power, product, total
from .magnitude import PROBABILITY_EXPONENT, exponent_problem


class IntOrNoneKnob(Knob):
    """A knob whose value is ``none`` or an integer (kind 'int-or-none')."""

    def canonical(self, value, metric: str = "") -> str:
        where = f"{metric}.{self.name}" if metric else self.name
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            return "none"
        if isinstance(value, bool):
            raise ConventionError(f"{where}: {value!r} is not 'none' or an integer")
        try:
            return str(int(str(value).strip()))
        except ValueError:
            raise ConventionError(f"{where}: {value!r} is not 'none' or an integer") from None


AGGREGATE = Knob(
    "aggregate", "how per-token NLLs of several texts make one perplexity", "corpus-token",
    choices=("corpus-token", "mean-per-text"),
    sources={"corpus-token": "exp of the mean NLL over all tokens of the test set: Jurafsky and Martin, Speech "
                             "and Language Processing (3rd ed.), ch. 3, PP(W) = P(w_1..w_N)^(-1/N); Jelinek, "
                             "Mercer, Bahl and Baker 1977 (perplexity); source document 000 part 4 for one text",
             "mean-per-text": "Hugging Face evaluate 'perplexity': mean_perplexity = np.mean(perplexities)"},
    key="agg")
IGNORE_INDEX = IntOrNoneKnob(
    "ignore_index", "target index whose positions are dropped (logits); drop null positions (probs/logprobs)",
    "none", kind="int-or-none",
    sources={"none": "every position is scored (Jurafsky and Martin, ch. 3: N is every token of the test set)",
             "*": "torch.nn.CrossEntropyLoss(ignore_index=...); -100 in Hugging Face transformers"},
    key="ignore")
LOGIT_PRECISION = Knob(
    "logit_precision", "the logits as the caller's tensor holds them", "exact",
    choices=("exact", "float32"), key="lprec",
    sources={"exact": "the logits as written (Jurafsky and Martin, ch. 3: the model's probabilities, "
                      "whatever holds them)",
             "float32": "each logit the float32 nearest its double, as torch.tensor([...]) holds a list of "
                        "floats (torch.get_default_dtype() is float32); a logit beyond float32's range is "
                        "refused (+) or -inf (-)"})
SHIFT = Knob(
    "shift", "alignment of logits and targets", "none",
    choices=("none", "causal"),
    sources={"none": "logits[i] scores targets[i]",
             "causal": "Hugging Face causal-LM loss: logits[..., :-1, :] against labels[..., 1:]"},
    unspecified="perplexity is defined on P(w_i | w_<i) (Jurafsky and Martin, ch. 3); whether a caller's "
                "logits and targets come aligned or shifted by one is an interface's convention, not the metric's")

_NEG_INF = object()  # a -inf log-probability or logit: probability 0
_KINDS = ("probs", "logprobs", "logits")


def _seq(x, where: str) -> list:
    if hasattr(x, "tolist") and not isinstance(x, (str, bytes)):
        x = x.tolist()
    if not isinstance(x, (list, tuple)):
        raise InputError(f"{where}: expected a list, got {type(x).__name__}", item=where)
    return list(x)


def _number(x, where: str):
    """Exact value of an input number: a Fraction, or _NEG_INF for -inf."""
    if isinstance(x, bool):
        raise InputError(f"{where}: expected a number, got bool", item=where)
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, (float, Decimal)):
        if x.is_nan() if isinstance(x, Decimal) else math.isnan(x):
            raise InputError(f"{where}: NaN is not a number", item=where)
        if math.isinf(x):
            if x < 0:
                return _NEG_INF
            raise InputError(f"{where}: +inf is not allowed", item=where)
        if isinstance(x, Decimal) and (why := exponent_problem(x, PROBABILITY_EXPONENT)):
            raise InputError(f"{where}: {x} {why}", item=where)
        return Fraction(x)
    if isinstance(x, numbers.Rational):  # numpy integers, sympy rationals: exact
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, str):
        t = x.strip().lower()
        if t in ("-inf", "-infinity"):
            return _NEG_INF
        if t in ("nan", "inf", "+inf", "infinity", "+infinity"):
            raise InputError(f"{where}: {x!r} is not finite", item=where)
        why = exponent_problem(t, PROBABILITY_EXPONENT)
        if why:
            raise InputError(f"{where}: {x!r}: {why}", item=where)
        try:
            if not t.isascii():   # Fraction() reads fullwidth and Arabic-Indic digits
                raise ValueError(t)
            return Fraction(t)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{where}: {x!r} is not an exact number (write '1/2', '0.25', '-3')",
                             item=where) from None
    if isinstance(x, numbers.Real):  # numpy scalars: float() is exact for float16/32/64
        return _number(float(x), where)
    raise InputError(f"{where}: expected a number, got {type(x).__name__}", item=where)


def _index(x, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise InputError(f"{where}: expected an integer target index, got {type(x).__name__}", item=where)
    return int(x)


class _ZeroProbability(Exception):
    def __init__(self, where: str):
        self.where = where


def _dropped(x, where: str, ignore: str) -> bool:
    """A null position: dropped under ignore_index, an InputError otherwise."""
    if x is None and ignore == "none":
        raise InputError(f"{where}: null position (set ignore_index to drop null positions)", item=where)
    return x is None


def _token_prob(x, where: str, ignore: str):
    """(a, b) for a probability p: a = 0, b = 1/p; None for a dropped null."""
    if _dropped(x, where, ignore):
        return None
    p = _number(x, where)
    if p is _NEG_INF or p < 0 or p > 1:
        shown = "-inf" if p is _NEG_INF else x
        raise InputError(f"{where}: probability {shown!r} is outside (0, 1]", item=where)
    if p == 0:
        raise _ZeroProbability(where)
    return Fraction(0), 1 / p


def _token_logprob(x, where: str, ignore: str):
    """(a, b) for a natural-log probability l: a = -l, b = 1; None for a dropped null."""
    if _dropped(x, where, ignore):
        return None
    lp = _number(x, where)
    if lp is _NEG_INF:
        raise _ZeroProbability(where)
    if lp > 0:
        raise InputError(f"{where}: log-probability {x!r} is above 0", item=where)
    return -lp, Fraction(1)


def _texts_from_probs(data, kind: str, ignore: str):
    token = _token_prob if kind == "probs" else _token_logprob
    texts = []
    for i, text in enumerate(_seq(data, kind)):
        row = []
        for j, x in enumerate(_seq(text, f"{kind}[{i}]")):
            try:
                t = token(x, f"{kind}[{i}][{j}]", ignore)
            except _ZeroProbability as z:
                row.append(z)
                continue
            if t is not None:
                row.append(t)
        texts.append(row)
    return texts


def _as_float32(v, where: str):
    """logit_precision=float32: the float32 nearest the double nearest ``v`` (exact), or
    _NEG_INF below float32's range; above it an InputError."""
    import numpy as np
    if v is _NEG_INF:
        return v
    try:
        d = float(v)
    except OverflowError:   # beyond the doubles, so beyond float32's range too
        d = float("inf") if v > 0 else float("-inf")
    with np.errstate(over="ignore"):
        f = np.float32(d)
    if np.isinf(f):
        if f < 0:
            return _NEG_INF
        shown = f"{float(v)!r}" if not np.isinf(d) else "a number beyond the doubles"
        raise InputError(f"{where}: {shown} is beyond float32's range (logit_precision=float32)", item=where)
    return Fraction(float(f))


def _texts_from_logits(logits, targets, ignore: str, shift: str, precision: str = "exact"):
    logits, targets = _seq(logits, "logits"), _seq(targets, "targets")
    if len(logits) != len(targets):
        raise InputError(f"targets: {len(targets)} texts but logits has {len(logits)}", item="targets")
    ignore_value = None if ignore == "none" else int(ignore)
    vocab = None
    texts = []
    for i, (zs, ts) in enumerate(zip(logits, targets)):
        zs, ts = _seq(zs, f"logits[{i}]"), _seq(ts, f"targets[{i}]")
        if len(zs) != len(ts):
            raise InputError(f"targets[{i}]: {len(ts)} targets for {len(zs)} logit positions", item=f"targets[{i}]")
        rows = []
        for j, z in enumerate(zs):
            z = _seq(z, f"logits[{i}][{j}]")
            if vocab is None:
                if not z:
                    raise InputError(f"logits[{i}][{j}]: an empty vocabulary", item=f"logits[{i}][{j}]")
                vocab = len(z)
            elif len(z) != vocab:
                raise InputError(f"logits[{i}][{j}]: {len(z)} logits, expected {vocab} (the vocabulary size "
                                 f"of the first position)", item=f"logits[{i}][{j}]")
            row_values = [_number(v, f"logits[{i}][{j}][{k}]") for k, v in enumerate(z)]
            if precision == "float32":
                row_values = [_as_float32(v, f"logits[{i}][{j}][{k}]") for k, v in enumerate(row_values)]
            rows.append(row_values)
        idx = [_index(t, f"targets[{i}][{j}]") for j, t in enumerate(ts)]
        pairs = [(j, j) for j in range(len(rows))] if shift == "none" else [(j, j + 1) for j in range(len(rows) - 1)]
        row = []
        for j, k in pairs:
            t = idx[k]
            if t == ignore_value:
                continue
            if not 0 <= t < vocab:
                raise InputError(f"targets[{i}][{k}]: {t} is outside the vocabulary 0..{vocab - 1}",
                                 item=f"targets[{i}][{k}]")
            zt = rows[j][t]
            if zt is _NEG_INF:
                row.append(_ZeroProbability(f"logits[{i}][{j}][{t}]"))
                continue
            row.append((Fraction(0), total([exp(z - zt) for z in rows[j] if z is not _NEG_INF])))
        texts.append(row)
    return texts


def _read_inputs(inputs, settings: dict) -> tuple[str, list]:
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - set(_KINDS) - {"targets"})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are probs, logprobs, logits, targets",
                         item=unknown[0])
    given = [k for k in _KINDS if k in inputs]
    if len(given) != 1:
        what = " and ".join(given) if given else "none of them"
        raise InputError(f"inputs: give exactly one of probs, logprobs, logits (got {what})")
    kind = given[0]
    if kind == "logits":
        if "targets" not in inputs:
            raise InputError("inputs: logits need targets", item="targets")
        return kind, _texts_from_logits(inputs["logits"], inputs["targets"], settings["ignore_index"],
                                        settings["shift"], settings.get("logit_precision", "exact"))
    if "targets" in inputs:
        raise InputError(f"targets: only logits take targets, not {kind}", item="targets")
    if settings["shift"] != "none":
        raise ConventionError(f"perplexity.shift: {settings['shift']!r} applies to logits input only, not {kind}")
    return kind, _texts_from_probs(inputs[kind], kind, settings["ignore_index"])


def _int_product(xs: list) -> int:
    while len(xs) > 1:  # balanced tree: fast on thousands of large factors
        xs = [xs[i] * xs[i + 1] if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0] if xs else 1


def _nll_and_ppl(tokens: list):
    """nll_sum = A + log(B), nll_mean = nll_sum / T, PPL = exp(A/T) * B**(1/T)."""
    n = len(tokens)
    a = sum((t[0] for t in tokens), Fraction(0))
    rational = [t[1] for t in tokens if isinstance(t[1], Fraction)]
    closed = [t[1] for t in tokens if not isinstance(t[1], Fraction)]
    b_q = Fraction(_int_product([q.numerator for q in rational]), _int_product([q.denominator for q in rational]))
    b = product([b_q] + closed)
    nll_sum = total([a, log(b)])
    if n == 0:
        return nll_sum, None, None
    return nll_sum, product([Fraction(1, n), nll_sum]), product([exp(a / n), power(b, Fraction(1, n))])


def compute_perplexity(inputs, settings: dict) -> Result:
    """PPL = exp(-(1/T) sum ln p) over all scored tokens (corpus-token), or the
    mean over texts of each text's PPL (mean-per-text); see the module docstring."""
    kind, texts = _read_inputs(inputs, settings)
    text_tokens = [len(t) for t in texts]
    stats = {"tokens": sum(text_tokens), "text_tokens": text_tokens}
    zeros = [t.where for row in texts for t in row if isinstance(t, _ZeroProbability)]
    text_ppls = []
    for i, row in enumerate(texts):
        row_zeros = [t.where for t in row if isinstance(t, _ZeroProbability)]
        if row_zeros:
            text_ppls.append(Undefined(f"{row_zeros[0]} has probability 0: the perplexity is infinite"))
        elif not row:
            text_ppls.append(Undefined(f"{kind}[{i}] has no tokens to score"))
        else:
            text_ppls.append(_nll_and_ppl(row)[2])
    if zeros:
        infinite = Undefined(f"{zeros[0]} has probability 0: the perplexity is infinite")
        parts = {"nll_sum": infinite, "nll_mean": infinite, "text_perplexities": text_ppls}
        return Result(infinite, stats=stats, parts=parts)
    nll_sum, nll_mean, ppl = _nll_and_ppl([t for row in texts for t in row])
    parts = {"nll_sum": nll_sum, "nll_mean": nll_mean if nll_mean is not None else Undefined("no tokens to score"),
             "text_perplexities": text_ppls}
    if not texts:
        value = Undefined("no texts")
    elif settings["aggregate"] == "corpus-token":
        value = ppl if ppl is not None else Undefined("no tokens to score")
    else:
        undefined = [p for p in text_ppls if isinstance(p, Undefined)]
        value = undefined[0] if undefined else product([Fraction(1, len(texts)), total(text_ppls)])
    return Result(value, stats=stats, parts=parts)


PERPLEXITY = Metric(
    name="perplexity", family="language-model",
    summary="exp of the mean negative log-likelihood of the observed tokens",
    knobs=(AGGREGATE, IGNORE_INDEX, SHIFT, LOGIT_PRECISION),
    inputs={"probs": "per text, the probability of each observed token (or null to drop, with ignore_index)",
            "logprobs": "per text, the natural-log probability of each observed token",
            "logits": "per text, per position, the V vocabulary logits (with targets)",
            "targets": "per text, per position, the index of the observed token (with logits)"},
    compute_fn=compute_perplexity)
