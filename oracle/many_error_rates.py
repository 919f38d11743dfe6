"""WER and CER under many settings at once (``oracle.many``): one alignment per
distinct (reference tokens, hypothesis tokens) pair, shared by every setting
that tokenizes alike; WER = (S + D + I) / N as in ``oracle.error_rates``."""
from __future__ import annotations

from fractions import Fraction

from .conventions import Refused
from .error_rates import _check_inputs, characters, words
from .alignment import counts_of, levenshtein, sclite_alignment
from .exact import Undefined


# the knobs the alignment and the aggregation read, after the tokens are made
AFTER_TOKENS = ("aggregate", "empty_reference", "tie")


def error_rate_values(metric: str, inputs, settings_list: list) -> list:
    """WER and CER under every setting from one alignment per distinct token sequence pair."""
    refs, hyps = _check_inputs(inputs)
    split = words if metric == "wer" else characters
    tokens: dict = {}
    pair_cache: dict = {}
    out = []
    for s in settings_list:
        # the tokens depend on every knob but those read after tokenizing: a knob added to the
        # metric is a tokenizing one until listed here (less sharing, never a wrong value)
        tk = tuple(sorted((k, v) for k, v in s.items() if k not in AFTER_TOKENS))
        per = tokens.get(tk)
        if per is None:
            per = []
            for r, h in zip(refs, hyps):
                rt, ht = tuple(split(r, s)), tuple(split(h, s))
                per.append((rt, ht))
            tokens[tk] = per
        if s["aggregate"] == "contiguous" and per:
            # one utterance: the tokens of every reference in order, and of every hypothesis
            per = [(tuple(x for rt, _ in per for x in rt), tuple(x for _, ht in per for x in ht))]
        sclite = s["tie"] == "sclite"
        errs, ns, ps = [], [], []
        for rt, ht in per:
            key = (rt, ht, sclite)
            e = pair_cache.get(key)
            if e is None:
                d = pair_cache.get((rt, ht, False))
                if d is None:
                    d = levenshtein(list(rt), list(ht))
                    pair_cache[(rt, ht, False)] = d
                if sclite:
                    _, sub, dele, ins = counts_of(sclite_alignment(list(rt), list(ht), d))
                    e = sub + dele + ins
                    pair_cache[key] = e
                else:
                    e = d
            errs.append(e)
            ns.append(len(rt))
            ps.append(len(ht))
        empty = s["empty_reference"]
        if empty == "error" and (not ns or 0 in ns):
            i = ns.index(0) if 0 in ns else None
            out.append(Refused(f"references[{i}]: empty reference (empty_reference=error)" if i is not None
                               else "references: empty corpus (empty_reference=error)"))
            continue
        if s["aggregate"] != "mean":
            n = sum(ns)
            if n:
                out.append(Fraction(sum(errs), n))
            elif empty == "insertions":
                out.append(Fraction(sum(ps)))
            else:
                out.append(Undefined(f"{'corpus' if ns else 'empty corpus'}: no reference tokens"))
            continue
        vals, bad = [], None
        for k, (e, n, p) in enumerate(zip(errs, ns, ps)):
            if n:
                vals.append(Fraction(e, n))
            elif empty == "insertions":
                vals.append(Fraction(p))
            else:
                bad = k
                break
        if not ns:
            out.append(Undefined("empty corpus"))
        elif bad is not None:
            out.append(Undefined(f"references[{bad}]: no reference tokens"))
        else:
            out.append(sum(vals, Fraction(0)) / len(vals))
    return out
