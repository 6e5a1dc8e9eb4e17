"""sinusoidal's argument checks name the argument the caller wrote."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import sinusoidal

def test_a_table_of_one_position():
    # table(1) is position 0 alone: sin 0 = 0 and cos 0 = 1 in every pair
    np.testing.assert_array_equal(sinusoidal.table(1, 4, 9.0), [[0.0, 1.0, 0.0, 1.0]])


BAD = [
    (lambda: sinusoidal.angular_frequencies(15), "d"),
    (lambda: sinusoidal.angular_frequencies(16, 1.0), "base"),
    (lambda: sinusoidal.period_ratio(7), "d"),  # dimensions come in sin/cos pairs
    (lambda: sinusoidal.period_ratio(16, 1.0), "base"),
    (lambda: sinusoidal.period_limit(1.0), "base"),  # base 1 gives every pair the same frequency
    (lambda: sinusoidal.period_limit(math.inf), "base"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
