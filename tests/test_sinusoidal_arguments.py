"""sinusoidal's argument checks name the argument the caller wrote."""

from __future__ import annotations

import math

import pytest

from posenc import sinusoidal

BAD = [
    (lambda: sinusoidal.period_ratio(7), "d"),  # dimensions come in sin/cos pairs
    (lambda: sinusoidal.period_ratio(16, 1.0), "base"),
    (lambda: sinusoidal.period_limit(1.0), "base"),  # base 1 gives every pair the same frequency
    (lambda: sinusoidal.period_limit(math.inf), "base"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
