"""rope honours its arguments: pair indices that index, and errors that name the argument the caller wrote."""

from __future__ import annotations

import numpy as np
import pytest

from posenc import rope


@pytest.mark.parametrize("d", [2, 8, 64])
def test_pair_of_dim_indexes_each_dims_frequency(d):
    # each dim turns at its pair's frequency: transformers' rotate_half layout repeats the frequencies as two
    # halves (emb = torch.cat((freqs, freqs), dim=-1)); RoFormer's interleaved layout repeats each one twice
    inv = rope.inverse_frequencies(d, 10_000.0)
    np.testing.assert_array_equal(inv[rope.pair_of_dim(d, "half")], np.concatenate([inv, inv]))
    np.testing.assert_array_equal(inv[rope.pair_of_dim(d, "interleaved")], np.repeat(inv, 2))


BAD = [
    (lambda: rope.pair_of_dim(7, "half"), "dim"),
    (lambda: rope.pair_of_dim(0, "interleaved"), "dim"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
