"""Cross-modal recall@K: the NumPy path (a float array) against the general path (the same
matrix as lists), against ``heapq.nlargest`` for the top-K lists, and against an enumeration
of tie orders for the expected value, on small matrices with many ties (-0.0 and 0.0 included)."""
from __future__ import annotations

import heapq
import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest

from oracle import ConventionError, InputError, compute
from oracle import retrieval
from oracle.conventions import Result

METRIC = "cross_modal_recall_at_k"
VALUES = (0.0, 0.5, 1.0, -0.0)
TIES = ("expected", "optimistic", "pessimistic", "index-order")
DIRECTIONS = ("image-to-text", "text-to-image")


def same(a, b):
    """Equal, with the same types all the way down (Fraction stays Fraction, int stays int)."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, Result):
        same(a.value, b.value)
        same(a.stats, b.stats)
        same(a.parts, b.parts)
        assert (a.signature, a.metric, a.settings) == (b.signature, b.metric, b.settings)
        assert json.dumps(a.to_json()) == json.dumps(b.to_json())
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            same(x, y)
    else:
        assert a == b, (a, b)


def outcome(inputs, conv):
    try:
        return compute(METRIC, inputs, conv)
    except (InputError, ConventionError) as e:
        return (type(e).__name__, str(e))


def random_case(rng: random.Random, values=VALUES, max_images=4, max_texts=6):
    n_img = rng.randint(1, max_images)
    if rng.random() < 0.4:
        n_txt = n_img
        matches = None if rng.random() < 0.5 else [[i] for i in range(n_img)]
    else:
        n_txt = rng.randint(n_img, max_texts)
        owner = list(range(n_img)) + [rng.randrange(n_img) for _ in range(n_txt - n_img)]
        rng.shuffle(owner)
        matches = [[j for j in range(n_txt) if owner[j] == i] for i in range(n_img)]
        if rng.random() < 0.3:  # a text correct for several images (text-to-image: several correct images)
            i = rng.randrange(n_img)
            extra = [j for j in range(n_txt) if j not in matches[i]]
            if extra:
                matches[i].append(rng.choice(extra))
        for js in matches:
            rng.shuffle(js)
    sim = [[rng.choice(values) for _ in range(n_txt)] for _ in range(n_img)]
    return sim, matches


def inputs_of(sim, matches):
    return {"similarity": sim} if matches is None else {"similarity": sim, "matches": matches}


def test_the_numpy_path_is_taken_only_for_finite_float_arrays():
    a = np.array([[0.5, 1.0], [1.0, 0.5]])
    assert retrieval._float_matrix(a) is a
    assert retrieval._float_matrix(a.astype(np.float32)) is not None
    assert retrieval._float_matrix(a.tolist()) is None
    assert retrieval._float_matrix(a.astype(int)) is None
    assert retrieval._float_matrix(a > 0.7) is None
    assert retrieval._float_matrix(a.view(np.recarray)) is None  # a subclass
    assert retrieval._float_matrix(np.array([[0.5, np.nan], [1.0, 0.5]])) is None
    assert retrieval._float_matrix(np.array([[0.5, -np.inf], [1.0, 0.5]])) is None
    assert retrieval._float_matrix(np.zeros((0, 3))) is None
    assert retrieval._float_matrix(np.zeros((3, 0))) is None
    assert retrieval._float_matrix(np.zeros(3)) is None


@pytest.mark.parametrize("seed", range(4))
def test_numpy_path_equals_list_path_with_many_ties(seed):
    rng = random.Random(seed)
    for _ in range(150):
        sim, matches = random_case(rng)
        arr = np.array(sim)
        for direction in DIRECTIONS:
            for ties in TIES:
                for k in (1, 2, 3, 5, 7):
                    conv = {"k": k, "ties": ties, "direction": direction}
                    same(outcome(inputs_of(arr, matches), conv), outcome(inputs_of(sim, matches), conv))


@pytest.mark.parametrize("seed", range(2))
def test_numpy_path_equals_list_path_on_larger_matrices(seed):
    """Enough candidates for blocks of several columns in the top-K lists; finer float values."""
    rng = random.Random(100 + seed)
    values = (0.0, -0.0, 0.1, 0.25, 0.3, 1.0, 0.1 + 0.2, 1e-300, -5e-324, 2.0 ** 60)
    for _ in range(10):
        sim, matches = random_case(rng, values=values, max_images=30, max_texts=200)
        arr = np.array(sim)
        for direction in DIRECTIONS:
            for ties in TIES:
                for k in (1, 5, 10, 64):
                    conv = {"k": k, "ties": ties, "direction": direction}
                    same(outcome(inputs_of(arr, matches), conv), outcome(inputs_of(sim, matches), conv))


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_numpy_path_equals_list_path_a_few_rows_at_a_time(monkeypatch, rows):
    """The counts, the finiteness check and the top-K candidates read the matrix a block of
    rows at a time (``_block_rows``: 13 rows of a 5,000-column matrix); with blocks of 1 to 3
    rows, so that a matrix has many blocks and a last, shorter one, the Results are the list path's."""
    monkeypatch.setattr(retrieval, "_block_rows", lambda n: rows)
    rng = random.Random(300 + rows)
    for _ in range(40):
        sim, matches = random_case(rng, values=(0.0, -0.0, 0.1, 0.25, 1.0), max_images=9, max_texts=40)
        arr = np.array(sim)
        for direction in DIRECTIONS:
            for ties in TIES:
                for k in (1, 3, 10):
                    conv = {"k": k, "ties": ties, "direction": direction}
                    same(outcome(inputs_of(arr, matches), conv), outcome(inputs_of(sim, matches), conv))
    bad = np.ones((7, 4))
    bad[6, 3] = np.nan   # in the last block only
    assert retrieval._float_matrix(bad) is None


def test_block_rows_keep_a_block_near_64000_scores():
    assert retrieval._block_rows(5000) == 13
    assert retrieval._block_rows(1000) == 65
    assert retrieval._block_rows(10 ** 6) == 1


def test_float32_and_strided_arrays_read_as_their_lists():
    rng = random.Random(7)
    for _ in range(100):
        sim, matches = random_case(rng, values=(0.1, 0.2, 0.3, 1 / 3, 0.0, -0.0))
        for arr in (np.array(sim, dtype=np.float32), np.array(sim, dtype=np.float16),
                    np.array(sim, order="F"), np.repeat(np.array(sim), 2, axis=1)[:, ::2]):
            for direction in DIRECTIONS:
                for ties in TIES:
                    conv = {"k": rng.randint(1, 4), "ties": ties, "direction": direction}
                    same(outcome(inputs_of(arr, matches), conv), outcome(inputs_of(arr.tolist(), matches), conv))


def test_top_k_lists_are_nlargest_for_every_block_size():
    rng = random.Random(11)
    for _ in range(300):
        m, n = rng.randint(1, 4), rng.randint(1, 12)
        rows = [[rng.choice(VALUES + (2.0, -1.0)) for _ in range(n)] for _ in range(m)]
        q = np.array(rows)
        for k in range(1, n + 3):
            want = [[[j, Fraction(r[j])] for j in heapq.nlargest(k, range(n), key=r.__getitem__)] for r in rows]
            for block in [None] + list(range(1, n + 2)):
                same(retrieval._top_k_lists(q, k, block), want)


def _expected_by_enumeration(arr, matches, k, direction):
    """The mean over every order of the candidates of the index-order hit (NumPy path):
    the definition of the expected value, enumerated."""
    n_img, n_txt = arr.shape
    total = Fraction(0)
    perms = list(itertools.permutations(range(n_txt if direction == "image-to-text" else n_img)))
    for perm in perms:
        if direction == "image-to-text":
            where = {old: new for new, old in enumerate(perm)}
            inp = {"similarity": arr[:, list(perm)], "matches": [[where[j] for j in js] for js in matches]}
        else:
            inp = {"similarity": arr[list(perm), :], "matches": [matches[i] for i in perm]}
        total += compute(METRIC, inp, {"k": k, "direction": direction, "ties": "index-order"}).value
    return total / len(perms)


def test_expected_equals_the_average_over_all_orders():
    rng = random.Random(3)
    for _ in range(40):
        sim, matches = random_case(rng, max_images=3, max_texts=5)
        matches = matches or [[i] for i in range(len(sim))]
        arr = np.array(sim)
        for direction in DIRECTIONS:
            for k in (1, 2, 3):
                r = compute(METRIC, {"similarity": arr, "matches": matches}, {"k": k, "direction": direction})
                assert r.value == _expected_by_enumeration(arr, matches, k, direction)
                assert r.parts["pessimistic"] <= r.value <= r.parts["optimistic"]


def test_negative_zero_ties_with_zero():
    arr = np.array([[-0.0, 0.0, 0.0], [0.0, -0.0, 1.0], [0.0, 0.0, -0.0]])
    # rows 0 and 2: nothing above, a tie of 3 with 1 correct; row 1: the 1.0 is above
    for ties, want in (("optimistic", Fraction(2, 3)), ("pessimistic", 0), ("index-order", Fraction(1, 3)),
                       ("expected", Fraction(2, 9))):
        r = compute(METRIC, {"similarity": arr}, {"ties": ties})
        assert r.value == want
        same(r, compute(METRIC, {"similarity": arr.tolist()}, {"ties": ties}))
    assert compute(METRIC, {"similarity": arr}, {"k": 2}).parts["top_k"][0] == [[0, 0], [1, 0]]


BAD = [
    ({"similarity": np.array([[1, np.nan], [0, 1]])}, {}),
    ({"similarity": np.array([[1, 0], [np.inf, 1]])}, {}),
    ({"similarity": np.array([[1, 0], [-np.inf, np.nan]])}, {}),
    ({"similarity": np.array([[1.0, 0, 2], [0, 1, 2]])}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[0], []]}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[0], [0]]}, {"direction": "text-to-image"}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[0, 0], [1]]}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[2], [1]]}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[0]]}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[0], [np.int64(1)]]}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": np.array([[0], [1]])}, {}),
    ({"similarity": np.array([[1.0, 0], [0, 1]]), "matches": [[0], [True]]}, {}),
    ({"similarity": np.array([[1.0]])}, {"k": 0}),
    ({"similarity": np.array([[1.0]]), "scores": 1}, {}),
    ({"matches": [[0]]}, {}),
    ({"similarity": np.array([[True, False], [False, True]])}, {}),
    ({"similarity": np.zeros((0, 0))}, {}),
    ({"similarity": np.zeros((2, 0))}, {}),
    ({"similarity": np.zeros((0, 2)), "matches": []}, {"direction": "text-to-image"}),
]


@pytest.mark.parametrize("inputs, conv", BAD)
def test_bad_and_degenerate_arrays_as_their_lists(inputs, conv):
    listed = dict(inputs)
    if "similarity" in listed:
        listed["similarity"] = listed["similarity"].tolist()
    for direction in DIRECTIONS:
        c = {"direction": direction, **conv}
        same(outcome(inputs, c), outcome(listed, c))
