"""naive's and learned's argument checks name the argument the caller wrote (and refuse a bool as a number)."""

from __future__ import annotations

import pytest

from posenc import configs, learned, naive

BAD = [
    (lambda: naive.normalised_position(True, 6), "value"),  # a bool is not a point on the scale, though 0 ≤ True ≤ 1
    (lambda: naive.normalised_position(False, 6), "value"),
    (lambda: naive.normalised_position("0.5", 6), "value"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), -1), "p"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), 1.0), "p"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
