"""Separating probes of TER (``oracle.ter``): found by a search over small word strings
(each pair of beam widths and of shift distances tried as knobs, 1 to 6 and none), plus
one probe per tokenizing knob and an empty reference."""
from __future__ import annotations


def _one(hyp: str, ref: str) -> dict:
    return {"hypotheses": [hyp], "references": [[ref]]}


PROBES = [
    # case: 'The' is 'the' when both sides are lowercased
    ("case", _one("The cat", "the cat")),
    # -N splits the comma off 'hello,'; -P deletes it
    ("comma", _one("hello, world", "hello , world")),
    ("period", _one("hello world.", "hello world")),
    # no reference word: edits over 0 words
    ("empty-reference", _one("a b", "")),
    # a short hypothesis against a long reference: the deletions run above the beam
    ("beam-1", _one("c c", "f a d a b f c f c")),
    ("beam-2", _one("e d", "f f c b d")),
    ("beam-3", _one("b a", "f c e a")),
    ("beam-4", _one("a b", "c a g g d a b")),
    ("beam-5", _one("g c", "d d b e b d b d c")),
    # a block moved over 1, 2, ... words: only a shift distance that reaches it moves it
    ("shift-1", _one("d g a", "a d g")),
    ("shift-2", _one("b a b a b", "b b a b a")),
    ("shift-3", _one("h a c", "a d h")),
    ("shift-4", _one("g c e", "c g g")),
    ("shift-5", _one("d a c a", "a d a c")),
    ("shift-6", _one("d d b a a d", "d d d b a a")),
]
