"""Lesson 2's token-mixing helpers (``others_moved``, ``row_difference``, ``layer_norm``): their definitions
checked on hand-derived cases and against attention run directly, and their errors, which name the argument."""

from __future__ import annotations


import numpy as np
import pytest

from posenc import attention as at
from expect import raises_exactly


def _square_of_sum(h: np.ndarray) -> np.ndarray:
    """A layer that mixes every row: each output row is (sum of the input rows)², element by element."""
    return np.repeat((h.sum(axis=0, keepdims=True)) ** 2, len(h), axis=0)


def test_others_moved_adds_the_change_to_the_row():
    # X = three rows of 1: the sum is 3, every output row 9. Adding 2 to row 0 makes the sum 5, every
    # output row 25, so every other row moved by 16 (replacing row 0 by 2 would give 16 − 9 = 7,
    # subtracting it 1 − 9 = −8).
    x = np.ones((3, 1))
    assert at.others_moved(_square_of_sum, x, 0, [2.0]) == 16.0
    assert at.others_moved(_square_of_sum, x, 2, np.array([-4.0])) == 8.0  # sum −1: 1 − 9


def test_others_moved_is_the_largest_change_of_attention_on_the_other_rows():
    # The definition, computed here by running the head on X and on X with the change added to one row.
    rng = np.random.default_rng(11)
    x, change, head = rng.normal(size=(4, 6)), rng.normal(size=6), at.make_head(6, 3)
    row = 1
    x2 = x.copy()
    x2[row] = x[row] + change
    before, after = at.attend(x, head).out, at.attend(x2, head).out
    expected = max(np.abs(after[r] - before[r]).max() for r in (0, 2, 3))
    assert at.others_moved(lambda h: at.attend(h, head).out, x, row, change) == pytest.approx(expected, rel=1e-12)
    assert expected > 0.01  # attention mixes rows, so the check is not 0 against 0


def test_others_moved_of_a_single_row_is_zero():
    # One token: no other row exists, so nothing else can move, whatever the layer does.
    assert at.others_moved(_square_of_sum, np.ones((1, 3)), 0, np.ones(3)) == 0.0


def test_layer_norm_eps_enters_the_denominator():
    # Row (0, 2): mean 1, variance 1, so LayerNorm gives (−1, 1)/√(1 + eps).
    out = at.layer_norm(np.array([[0.0, 2.0]]), eps=3.0)
    np.testing.assert_allclose(out, [[-0.5, 0.5]], rtol=1e-15)


@pytest.mark.parametrize("call, message", [
    (lambda: at.layer_norm(np.ones((2, 4)), eps=0), "eps must be a positive finite number, got 0"),
    (lambda: at.layer_norm(np.ones((2, 4)), eps=-1e-5), "eps must be a positive finite number, got -1e-05"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), -1, np.ones(4)),
     "row must be a non-negative integer position, got -1; positions count from 0"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 1.0, np.ones(4)),
     "row must be an integer position, got the float 1.0; pass int(1.0)"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 2, np.ones(4)), "row must be below the 2 rows of x, got 2"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 0, np.ones(3)), "change must be one row of width 4, got shape (3,)"),
    (lambda: at.row_difference(np.ones((2, 2)), 0),
     "pass exactly one of row_b (compare two rows of out) or other (compare out with other at the same row)"),
    (lambda: at.row_difference(np.ones((2, 2)), 0, 1, other=np.ones((2, 2))),
     "pass exactly one of row_b (compare two rows of out) or other (compare out with other at the same row)"),
])
def test_bad_input_messages_name_the_argument(call, message):
    with raises_exactly(message):
        call()
