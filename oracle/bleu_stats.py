"""BLEU's sufficient statistics and scoring: clipped n-gram matches and totals per
segment, the reference length rules, the smoothing methods and the score from
the statistics (``bleu_from_stats``): Papineni et al. 2002 eq. 1-2, smoothing
after Chen and Cherry 2014 (definitions and sources in ``oracle.bleu``'s
docstring)."""
from __future__ import annotations

from collections import Counter, _count_elements
from functools import lru_cache
from fractions import Fraction
from typing import Sequence

from .conventions import ConventionError
from .exact import Undefined, exp, log, power, product, total


_ONE = Fraction(1)

# coco-caption's epsilons as its source prints them (bleu_scorer.py: small = 1e-9, tiny = 1e-15)
COCO_TINY = Fraction(1, 10 ** 15)
COCO_SMALL = Fraction(1, 10 ** 9)

# --------------------------------------------------------------- statistics


def ngram_counts(tokens: Sequence[str], order: int) -> list:
    """[Counter of n-grams for n = 1..order]; unigrams keyed by the token, longer n-grams by tuples."""
    return [Counter(table) for table in _ngram_tables(tokens, order)]


def _ngram_tables(tokens: Sequence[str], order: int) -> list:
    """``ngram_counts`` as plain dicts (the per-segment hot path)."""
    out = []
    for n in range(1, order + 1):
        table: dict = {}
        if len(tokens) >= n:
            # the C counting loop behind Counter.update, without a Counter's per-call overhead
            _count_elements(table, tokens if n == 1 else zip(*[tokens[i:] for i in range(n)]))
        out.append(table)
    return out


def segment_stats(hyp_tokens: Sequence[str], ref_token_lists: Sequence[Sequence[str]], order: int):
    """Sufficient statistics of one segment: (matches, totals, hyp_len, ref_lens).

    matches[n-1] = sum_g min(count_hyp(g), max_ref count_ref(g)) over the
    hypothesis n-grams g; totals[n-1] = max(c - n + 1, 0).
    """
    c = len(hyp_tokens)
    # orders above c have no hypothesis n-grams, hence no matches: their reference n-grams are not counted
    counted = min(order, c)
    hyp = _ngram_tables(hyp_tokens, counted)
    refs = [_ngram_tables(r, counted) for r in ref_token_lists]
    matches = []
    if len(refs) == 1:
        for hc, rc in zip(hyp, refs[0]):
            m = 0
            get = rc.get
            for g, k in hc.items():
                v = get(g)
                if v:
                    m += k if k < v else v
            matches.append(m)
    else:
        for n in range(counted):
            m = 0
            rcs = [r[n] for r in refs]
            for g, k in hyp[n].items():
                best = 0
                for rc in rcs:
                    v = rc.get(g, 0)
                    if v > best:
                        best = v
                if best:
                    m += k if k < best else best
            matches.append(m)
    matches += [0] * (order - counted)
    totals = [c - n if c > n else 0 for n in range(order)]
    return matches, totals, c, [len(r) for r in ref_token_lists]


def reference_length(hyp_len: int, ref_lens: Sequence[int], rule: str):
    """The reference length r_i of one segment under a ``ref_length`` rule (int or Fraction)."""
    if rule == "closest-shorter":
        return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))
    if rule == "closest-first":
        return min(ref_lens, key=lambda r: abs(r - hyp_len))  # min keeps the first of equals
    if rule == "shortest":
        return min(ref_lens)
    if rule == "average":
        q = Fraction(sum(ref_lens), len(ref_lens))
        return q.numerator if q.denominator == 1 else q
    raise ConventionError(f"ref_length: unknown rule {rule!r}")


# ------------------------------------------------------------------ scoring


@lru_cache(maxsize=64)
def _parse_weights(order: int, text: str) -> tuple:
    if text == "uniform":
        return (Fraction(1, order),) * order
    return tuple(Fraction(w) for w in text.split(","))


def _weights(settings) -> list:
    return list(_parse_weights(int(settings["order"]), settings["weights"]))


def _smoothed(method, value, m, t, c, next_match, next_total=0, next_in_list=False):
    """Precisions p_1..p_k for the used orders: Fraction, Expr, Undefined, or None (= zero count, no smoothing)."""
    k = len(t)
    ps: list = [None] * k
    if method in ("nltk4", "nltk5", "nltk7"):
        return _nltk_smoothed(method, value, m, t, c, next_match, next_total, next_in_list)
    if method in ("none", "add-k", "cc6"):
        raw = k if method == "none" else (1 if method == "add-k" else 2)
        for n in range(min(raw, k)):
            ps[n] = Fraction(m[n], t[n]) if m[n] else None
        if method == "add-k":
            for n in range(1, k):
                ps[n] = Fraction(m[n] + value, t[n] + value)
        elif method == "cc6":
            for n in range(2, k):
                a, b = ps[n - 2], ps[n - 1]
                a = a or Fraction(0)
                b = b or Fraction(0)
                prior = b * b / a if a else Fraction(0)
                ps[n] = (m[n] + value * prior) / (t[n] + value)
                if ps[n] == 0:
                    ps[n] = None
        return ps
    if method == "floor":
        for n in range(k):
            if t[n] == 0:
                ps[n] = Undefined(f"order {n + 1}: the hypothesis has no {n + 1}-grams (t = 0) and floor smoothing divides by t")
            else:
                ps[n] = Fraction(m[n] if m[n] else value, t[n]) if m[n] or value else None  # floor 0: a zero
        return ps
    if method == "exp":
        inv = 1
        for n in range(k):
            if t[n] == 0:
                ps[n] = Fraction(1)
            elif m[n] == 0:
                inv *= 2
                ps[n] = Fraction(1, inv * t[n])
            else:
                ps[n] = Fraction(m[n], t[n])
        return ps
    # cc4, cc5, cc7 work on (possibly smoothed) counts divided by t_n
    for n in range(k):
        if t[n] == 0:
            return [Undefined(f"order {n + 1}: the hypothesis has no {n + 1}-grams (t = 0) and {method} smoothing divides by t")] * k
    counts: list = list(m)
    if method in ("cc4", "cc7"):
        zeros = 0
        for n in range(k):
            if m[n] == 0:
                if c == 1:
                    return [Undefined(f"{method}: len(T) = 1, so K/ln(len(T)) divides by ln(1) = 0")] * k
                zeros += 1
                counts[n] = power(product([log(Fraction(c)), Fraction(1) / value]), zeros)
        if method == "cc4":
            return [product([counts[n], Fraction(1, t[n])]) for n in range(k)]
    prev = total([counts[0], Fraction(1)])
    nxt = counts[1:k] + [next_match]
    for n in range(k):
        prev = product([total([prev, counts[n], nxt[n]]), Fraction(1, 3)])
        ps[n] = product([prev, Fraction(1, t[n])])
    return ps


def _nltk_smoothed(method, value, m, t, c, next_match, next_total, next_in_list):
    """NLTK's own methods 4, 5 and 7 (``SmoothingFunction``, nltk/translate/bleu_score.py
    643-679, 708-716 in 3.10.4; definitions in ``oracle.bleu``): precisions, not counts, over
    NLTK's denominators max(1, t_n) (``modified_precision``, line 391: an order with no
    n-grams is 0/1). ``next_in_list``: the next order is one of the N orders (dropped by
    effective order), so method 7's method-4 step has smoothed it too."""
    k = len(t)
    ms, ts = list(m) + [next_match], list(t) + [next_total]
    # every precision is a + b log(c) with rationals a and b (method 4 gives its zero orders
    # b log(c)): kept as (a, b), so that method 5's running mean of N orders is one sum, not
    # an expression N levels deep
    ps: list = [(Fraction(ms[n], ts[n] if ts[n] > 1 else 1), Fraction(0)) if ms[n] else None for n in range(k + 1)]
    if method in ("nltk4", "nltk7") and c > 1:
        # line 659: numerator = 1 / (2**incvnt * self.k / math.log(hyp_len)), incvnt = 1, 2, ...
        zeros = 0
        for n in range(k + 1 if next_in_list else k):
            if ms[n] == 0:
                zeros += 1
                ps[n] = (Fraction(0), Fraction(1, 2 ** zeros * (ts[n] if ts[n] > 1 else 1)) / value)
    log_c = log(Fraction(c)) if c > 1 else None

    def closed(p):
        a, b = p
        return a if not b else total([a, product([log_c, b])]) if a else product([log_c, b])
    if method == "nltk4":
        if c <= 1:
            # no smoothing, and corpus_bleu sums w_n log p_n over p_n > 0 only (line 279, from
            # 3.6.6; before it math.log(0) raises): a zero order is left out, as if p_n = 1
            return [closed(p) if p is not None else _ONE for p in ps[:k]]
        return [closed(p) if p is not None else None for p in ps[:k]]
    # method5, lines 674-678: m[-1] = p_1 + 1; p'_n = (p'_{n-1} + p_n + p_{n+1}) / 3 with the
    # precisions as method4 left them (method7); p_{N+1} is the next order's raw precision
    # (a fresh modified_precision), or method 4's value when effective order dropped it
    raw = [p if p is not None else (Fraction(0), Fraction(0)) for p in ps]
    out = []
    a, b = raw[0][0] + 1, raw[0][1]
    for n in range(k):
        a = (a + raw[n][0] + raw[n + 1][0]) / 3
        b = (b + raw[n][1] + raw[n + 1][1]) / 3
        out.append(closed((a, b)))
    return out


def _brevity(c: int, r) -> Fraction:
    """BP = 1 if c >= r, else exp(1 - r/c) (Papineni et al. 2002 eq. 1), 0 for c = 0 < r (the limit)."""
    if c >= r:
        return _ONE
    if c == 0:
        return Fraction(0)
    return exp(Fraction(c - r, c) if type(r) is int else 1 - r / c)


def _effective_order(settings, totals, weights, parts, extra):
    """(orders used, their weights, None), or an Undefined third when the kept weights sum
    to 0: with effective_order=yes only the orders with t_n > 0 are used and their weights
    renormalized (sacrebleu ``effective_order``; see oracle.bleu)."""
    N = int(settings["order"])
    if settings["effective_order"] != "yes":
        return N, weights, None
    used = sum(1 for t in totals if t > 0)
    extra["effective_order"] = used
    if used == N:
        return used, weights, None
    kept = sum(weights[:used])
    if kept == 0:
        why = Undefined(f"effective order {used}: the weights of orders 1..{used} sum to 0")
        for n in range(N):
            parts[f"precision_{n + 1}"] = why
        return used, weights, why
    return used, [w / kept for w in weights[:used]], None


def bleu_from_stats(matches, totals, hyp_len, ref_len, settings, next_match=0, next_total=0):
    """(value, parts, extra stats) of BLEU from pooled statistics, under canonical ``settings``.

    value = BP * prod_n p_n ** w_n (module docstring); ``next_match`` is
    m_{N+1}, used by cc5, cc7, nltk5 and nltk7 only, ``next_total`` t_{N+1}, used
    by nltk5 and nltk7 only.
    """
    N = int(settings["order"])
    weights = _weights(settings)
    method = settings["smoothing"]
    sv = settings["smoothing_value"]
    value_param = None if sv == "-" else Fraction(sv)
    c, r = hyp_len, ref_len
    parts: dict = {}
    extra: dict = {}
    if settings.get("no_match", "smooth") == "zero" and matches[0] == 0:
        # sacrebleu >= 2.0 ``if not any(correct)``, nltk ``if p_numerators[1] == 0``: 0 before
        # anything else is computed (also for c = r = 0)
        extra["no_match"] = True
        parts["bp"] = _brevity(c, r)
        for n in range(N):
            parts[f"precision_{n + 1}"] = Fraction(0, 1) if totals[n] else Undefined(
                f"order {n + 1}: the hypothesis has no {n + 1}-grams (0/0)")
        return Fraction(0), parts, extra
    if method == "coco":
        return _coco(matches, totals, c, r, settings, weights, parts, extra)
    if c == 0:
        if r == 0:
            why = Undefined("hypothesis and reference lengths are both 0: BP and every precision are 0/0")
            parts["bp"] = why
            for n in range(N):
                parts[f"precision_{n + 1}"] = why
            return why, parts, extra
        parts["bp"] = Fraction(0)
        for n in range(N):
            parts[f"precision_{n + 1}"] = Undefined(f"order {n + 1}: empty hypothesis (0/0)")
        return Fraction(0), parts, extra
    bp = parts["bp"] = _brevity(c, r)
    used, weights, why = _effective_order(settings, totals, weights, parts, extra)
    if why is not None:
        return why, parts, extra
    nxt = matches[used] if used < N else next_match
    nxt_t = totals[used] if used < N else next_total
    ps = _smoothed(method, value_param, matches[:used], totals[:used], c, nxt, nxt_t, used < N)
    undefined = None
    zero = False
    for n in range(N):
        if n >= used:
            parts[f"precision_{n + 1}"] = Undefined(f"order {n + 1} dropped: effective order is {used}")
            continue
        p = ps[n]
        if p is None:
            p = Fraction(0) if totals[n] else Undefined(f"order {n + 1}: the hypothesis has no {n + 1}-grams (0/0)")
            if weights[n]:
                zero = True
        elif isinstance(p, Undefined) and weights[n] and undefined is None:
            undefined = p
        parts[f"precision_{n + 1}"] = p
    if undefined is not None:
        return undefined, parts, extra
    if zero:
        return Fraction(0), parts, extra
    factors = ([] if c >= r else [bp]) + _weighted_powers(ps, weights, used, settings["weights"] == "uniform")
    value = factors[0] if len(factors) == 1 else product(factors)
    return value, parts, extra


def _weighted_powers(ps, weights, used: int, uniform: bool) -> list:
    """The factors of prod_{n <= used} p_n ** w_n: one power per distinct positive weight,
    over the product of its orders' precisions (exact when they are rationals)."""
    if uniform:  # one group: (prod p_n)**(1/used)
        groups = [(weights[0], ps[:used])]
    else:
        by_weight: dict = {}  # weight -> precisions of the orders with that weight
        for n in range(used):
            w = weights[n]
            if w:
                by_weight.setdefault(w, []).append(ps[n])
        groups = list(by_weight.items())
    factors = []
    for w, group in groups:
        if all(type(p) is Fraction for p in group):
            num = den = 1
            for p in group:
                num *= p.numerator
                den *= p.denominator
            factors.append(power(Fraction(num, den), w))
        else:
            factors.append(power(product(group), w))
    return factors


def _coco(matches, totals, c, r, settings, weights, parts, extra):
    """coco-caption's BLEU (pycocoevalcap bleu/bleu_scorer.py ``compute_score``): every
    precision is p_n = (m_n + tiny)/(t_n + small), the length ratio (c + tiny)/(r + small),
    BP = exp(1 - 1/ratio) when ratio < 1, tiny = 10^-15, small = 10^-9; defined on every
    input (c = r = 0 gives 10^-6 precisions and BP = exp(1 - 10^6))."""
    N = int(settings["order"])
    used, weights, why = _effective_order(settings, totals, weights, parts, extra)
    if why is not None:
        return why, parts, extra
    ratio = (c + COCO_TINY) / (r + COCO_SMALL)
    bp = _ONE if ratio >= 1 else exp(1 - 1 / ratio)
    parts["bp"] = bp
    ps = [(matches[n] + COCO_TINY) / (totals[n] + COCO_SMALL) for n in range(used)]
    for n in range(N):
        parts[f"precision_{n + 1}"] = ps[n] if n < used else Undefined(
            f"order {n + 1} dropped: effective order is {used}")
    factors = ([] if ratio >= 1 else [bp]) + _weighted_powers(ps, weights, used, settings["weights"] == "uniform")
    value = factors[0] if len(factors) == 1 else product(factors)
    return value, parts, extra


def _scaled(value, settings):
    if settings.get("scale") == "percent" and not isinstance(value, Undefined):
        return product([Fraction(100), value])
    return value
