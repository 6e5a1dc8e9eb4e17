"""Lesson 4's input checks at their edges: the shortest sentence a shift experiment takes, and the one-pair
helpers' errors, each naming the argument the caller passed (exact messages)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import shift
from expect import raises_exactly


def test_two_tokens_are_enough_for_a_shift_experiment():
    # The smallest sentence with a pair of distinct positions: RoPE's two-token scores do not move under a shift.
    assert shift.scores("猫鱼", 4, "rope", 4, 0).shape == (2, 2)
    assert shift.shift_change("猫鱼", 4, "rope", 4, 0) < 1e-12
    assert shift.position_part_scores("猫鱼", 0, 4, 0).shape == (2, 2)
    with pytest.raises(ValueError, match="^text must be a string of at least two tokens, got '鱼'"):
        shift.scores("鱼", 0, "rope", 4, 0)


def test_pair_helpers_accept_integer_pairs():
    # Integer q, k (as a reader types them) give the same numbers as the floats, by RoFormer's 2-D formula.
    assert shift.pair_score_polar((1, 0), (0, 2), 1, 3, 0.5) == pytest.approx(2 * math.cos(math.pi / 2 + 1.0), abs=1e-15)
    np.testing.assert_allclose(shift.add_pair((1, 0), 2, 0.25), [1 + math.sin(0.5), math.cos(0.5)], rtol=1e-15)


POLAR_ARGS = {"q": (1.0, 0.0), "k": (0.0, 1.0), "m": 0, "n": 1, "omega": 0.5}


@pytest.mark.parametrize("call, message", [
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "q": (1, 2, 3)}),
     "q must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. q=(1.0, 0.4)"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "k": (np.inf, 0)}),
     "k must be two finite numbers (one pair of dims), got (inf, 0); pass e.g. k=(1.0, 0.4)"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "m": -1}), "m must be a non-negative integer position, got -1; pass e.g. m=10"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "n": 1.5}), "n must be a non-negative integer position, got 1.5; pass e.g. n=10"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "omega": 0.0}),
     "omega must be a positive angular frequency (radians per token), got 0.0; take one from rope.inverse_frequencies()"),
    (lambda: shift.add_pair((1, 2, 3), 0, 1.0), "v must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. v=(1.0, 0.4)"),
    (lambda: shift.add_pair((1, 2), -3, 1.0), "m must be a non-negative integer position, got -3; pass e.g. m=10"),
    (lambda: shift.add_pair((1, 2), 3, -1.0),
     "omega must be a positive angular frequency (radians per token), got -1.0; take one from rope.inverse_frequencies()"),
    (lambda: shift.convention_scores("猫吃鱼", start=-1, d=4, seed=0), "start must be a non-negative integer position, got -1; pass e.g. start=10"),
    (lambda: shift.same_vector_scores(-1, 4), "max_distance must be a positive integer, got -1; pass e.g. max_distance=200"),
])
def test_bad_input_messages_name_the_argument(call, message):
    with raises_exactly(message):
        call()
