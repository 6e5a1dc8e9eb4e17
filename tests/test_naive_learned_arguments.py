"""naive's and learned's argument checks name the argument the caller wrote (and refuse a bool as a number);
naive's closed form for the share threshold agrees with the definition where floating point rounds the quotient."""

from __future__ import annotations

from itertools import count

import pytest

from posenc import configs, learned, naive


@pytest.mark.parametrize("share, content_rms", [(0.01, 0.07), (0.3, 2.1), (0.02, 0.14), (0.3, 4.2)])
def test_share_threshold_where_the_quotient_rounds_up(share, content_rms):
    # content_rms / share computes to a hair above a whole number (0.07 / 0.01 = 7.000000000000001), so the
    # ceiling overshoots by one; the answer is still the first p with content_rms / p ≤ share, found by counting
    assert content_rms / share > round(content_rms / share)
    first = next(p for p in count(1) if content_rms / p <= share)
    assert naive.position_where_share_falls_to(share, content_rms) == first


BAD = [
    (lambda: naive.normalised_position(True, 6), "value"),  # a bool is not a point on the scale, though 0 ≤ True ≤ 1
    (lambda: naive.normalised_position(False, 6), "value"),
    (lambda: naive.normalised_position("0.5", 6), "value"),
    (lambda: naive.position_where_share_falls_to(True, 1.0), "share"),
    (lambda: naive.position_where_share_falls_to(0.01, 0.0), "content_rms"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), -1), "p"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), 1.0), "p"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
