"""posenc._check: the argument checks behind every formula, at their edges and with their exact messages.

The project's rule is that bad input gets a ValueError naming the argument, what it got and
the fix. Other test files check that each function calls these checks; this one checks the
checks: what passes (and as which type), what fails, and the full text a course author reads.
"""

from __future__ import annotations


import numpy as np
import pytest

from posenc import _check
from expect import raises_exactly


# --- even_dim -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 4, 16, 512, np.int64(8), np.int32(2)])
def test_even_dim_accepts_positive_even_integers_as_int(d):
    got = _check.even_dim("d", d)
    assert got == int(d) and type(got) is int


@pytest.mark.parametrize(
    "d, message",
    [
        (15, "d must be a positive even integer (dimensions come in sin/cos pairs), got 15; use 16 or another even number"),
        (1, "d must be a positive even integer (dimensions come in sin/cos pairs), got 1; use 2 or another even number"),
        (0, "d must be a positive even integer (dimensions come in sin/cos pairs), got 0; use 2 or another even number"),
        (-4, "d must be a positive even integer (dimensions come in sin/cos pairs), got -4; use 2 or another even number"),
        (16.0, "d must be an integer number of dimensions, got 16.0; pass e.g. d=16"),
        (True, "d must be an integer number of dimensions, got True; pass e.g. d=16"),
        ("16", "d must be an integer number of dimensions, got '16'; pass e.g. d=16"),
    ],
)
def test_even_dim_rejects_with_the_fix(d, message):
    with raises_exactly(message):
        _check.even_dim("d", d)


# --- base ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("b", [10_000, 1.0000001, 2, np.float32(500_000.0), 1e300])
def test_base_accepts_finite_reals_above_one_as_float(b):
    got = _check.base("base", b)
    assert got == float(b) and type(got) is float


@pytest.mark.parametrize(
    "b, message",
    [
        (1, "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1; the paper uses base=10000"),
        (1.0, "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1.0; the paper uses base=10000"),
        (0.5, "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 0.5; the paper uses base=10000"),
        (-3, "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got -3; the paper uses base=10000"),
        (float("inf"), "base must be a finite real number, got inf; the paper uses base=10000"),
        (float("nan"), "base must be a finite real number, got nan; the paper uses base=10000"),
        (True, "base must be a finite real number, got True; the paper uses base=10000"),
        ("1e4", "base must be a finite real number, got '1e4'; the paper uses base=10000"),
    ],
)
def test_base_rejects_with_the_papers_value(b, message):
    with raises_exactly(message):
        _check.base("base", b)


# --- positive -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("x", [1e-300, 0.02, 3, np.float64(2.5)])
def test_positive_accepts_positive_finite_numbers_as_float(x):
    got = _check.positive("x", x)
    assert got == float(x) and type(got) is float


@pytest.mark.parametrize("x", [0, 0.0, -1e-300, -2, float("inf"), float("nan"), True, "2", None])
def test_positive_rejects(x):
    with raises_exactly(f"std must be a positive finite number, got {x!r}"):
        _check.positive("std", x)


# --- position and offset ------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0, 1, 10**12, np.int64(7), np.uint8(3)])
def test_position_accepts_non_negative_integers_as_int(p):
    got = _check.position("p", p)
    assert got == int(p) and type(got) is int


@pytest.mark.parametrize(
    "p, message",
    [
        (-1, "p must be a non-negative integer position, got -1; positions count from 0"),
        (np.int64(-5), "p must be a non-negative integer position, got -5; positions count from 0"),
        (3.0, "p must be an integer position, got the float 3.0; pass int(3.0)"),
        (2.5, "p must be a non-negative integer position, got 2.5"),
        (float("nan"), "p must be a non-negative integer position, got nan"),
        ("3", "p must be a non-negative integer position, got '3'"),
        (None, "p must be a non-negative integer position, got None"),
        (True, "p must be an integer position, got the float True; pass int(True)"),
    ],
)
def test_position_rejects_with_the_fix(p, message):
    with raises_exactly(message):
        _check.position("p", p)


@pytest.mark.parametrize("k", [0, -37, 1021, np.int64(-2)])
def test_offset_accepts_signed_integers_as_int(k):
    got = _check.offset("k", k)
    assert got == int(k) and type(got) is int


@pytest.mark.parametrize("k", [1.5, 2.0, True, "1", None])
def test_offset_rejects_non_integers(k):
    with raises_exactly(f"k must be an integer distance between positions, got {k!r}"):
        _check.offset("k", k)


# --- positions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ps", [[0], [3, 1, 2], range(5), np.arange(4, dtype=np.uint16), np.array([0, 2**40])])
def test_positions_returns_an_int64_copy(ps):
    got = _check.positions("positions", ps)
    assert got.dtype == np.int64 and got.ndim == 1
    assert got.tolist() == [int(p) for p in ps]


@pytest.mark.parametrize(
    "ps, message",
    [
        ([[0, 1]], "positions must be a 1-D sequence of positions, got an array of shape (1, 2)"),
        (5, "positions must be a 1-D sequence of positions, got an array of shape ()"),
        ([], "positions is empty; pass at least one position, e.g. range(8)"),
        (np.array([0.0, 1.0]), "positions must have an integer dtype, got float64; pass np.arange(n) or a list of ints"),
        (np.array([0.5, 1.5, 2.5, 3.5, 4.5]), "positions must hold integer positions, got non-integer values such as [0.5 1.5 2.5]"),
        (np.array([1.0, np.inf]), "positions must hold integer positions, got non-integer values such as []"),
        (np.array([np.nan, 1.0]), "positions must hold integer positions, got non-integer values such as [nan]"),
        (np.array([True, False]), "positions must hold integer positions, got dtype bool"),
        (["a"], "positions must hold integer positions, got dtype <U1"),
        ([0, -3, -1], "positions must be non-negative (positions count from 0), got -3"),
    ],
)
def test_positions_rejects_with_the_fix(ps, message):
    with raises_exactly(message):
        _check.positions("positions", ps)


# --- integer, and its kinds: count, tokens, dims ---------------------------------------------------------------------


@pytest.mark.parametrize("n, minimum, expected", [(1, 1, 1), (np.int64(7), 1, 7), (0, 0, 0), (2, 2, 2), (np.uint8(255), 1, 255)])
def test_integer_accepts_an_integer_at_its_minimum_and_returns_a_python_int(n, minimum, expected):
    got = _check.integer("n", n, minimum)
    assert got == expected and type(got) is int


@pytest.mark.parametrize("n, minimum, message", [
    (0, 1, "n must be an integer ≥ 1, got 0"),
    (1, 2, "n must be an integer ≥ 2, got 1"),
    (-1, 0, "n must be an integer ≥ 0, got -1"),
    (True, 1, "n must be an integer ≥ 1, got True"),
    (4096.0, 1, "n must be an integer ≥ 1, got 4096.0"),
    ("8", 1, "n must be an integer ≥ 1, got '8'"),
])
def test_integer_refuses_with_the_minimum_in_the_message(n, minimum, message):
    with raises_exactly(message):
        _check.integer("n", n, minimum)


def test_integer_says_what_kind_and_suggests_a_value():
    with raises_exactly("seed must be a non-negative integer seed, got -1; pass e.g. seed=7"):
        _check.integer("seed", -1, 0, "a non-negative integer seed", 7)
    with raises_exactly("kv_heads must be a positive integer, got 0"):
        _check.count("kv_heads", 0)
    with raises_exactly("context must be a positive integer number of tokens, got 4096.0; pass e.g. context=32768"):
        _check.tokens("context", 4096.0)
    with raises_exactly("length must be a positive integer number of tokens, got 0; pass e.g. length=128"):
        _check.tokens("length", 0, 128)
    with raises_exactly("head_dim must be a positive integer number of dimensions, got -2; pass e.g. head_dim=128"):
        _check.dims("head_dim", -2, 128)
    assert (_check.count("n", np.int32(3)), _check.tokens("L", 1), _check.dims("d", 5, 8)) == (3, 1, 5)


# --- did_you_mean: the suggestion of every unknown-name error ---------------------------------------------------


def test_did_you_mean_lists_up_to_three_close_names_or_nothing():
    known = ["sin_slowest_period", "sin_fastest_period", "sin_paper_slowest_period", "rope_pairs_total_qwen3_8b"]
    assert _check.did_you_mean("sin_slowest_perid", known) == (
        " Did you mean 'sin_slowest_period', 'sin_paper_slowest_period', 'sin_fastest_period'?")
    assert _check.did_you_mean("qwen3_8b_pairs", {"qwen3_8b": 1, "gpt2": 2}) == " Did you mean 'qwen3_8b'?"
    assert _check.did_you_mean("zzzz", known) == ""
