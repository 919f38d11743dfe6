"""Separating probes of CIDEr and CIDEr-D (``oracle.cider``)."""
from __future__ import annotations

_CANDS = ["a man riding a horse on the beach", "a dog a dog runs", "two cats"]
_REFS = [["a man rides a horse on a beach", "a person riding a horse", "a person riding a horse"],
         ["a dog runs in the park", "the dog is running fast"],
         ["two cats sleeping on a sofa together now"]]

PROBES = [
    # candidates longer and shorter than their references (the length penalty and its sigma),
    # a repeated n-gram (clip), repeated references (duplicates), n-grams no reference has (zero_df)
    ("three-images", {"candidates": _CANDS, "references": _REFS}, ("cider", "cider_d")),
    # df from a separate corpus (df=corpus) that lacks some of the candidates' n-grams
    ("df-corpus", {"candidates": _CANDS, "references": _REFS,
                   "df_corpus": [["a man on a horse"], ["a dog"], ["cats"], ["a horse on the beach"]]},
     ("cider", "cider_d")),
]

CONTEXTS = {"sigma": [{"penalty": "gaussian"}], "zero_df": [{"df": "corpus"}]}
