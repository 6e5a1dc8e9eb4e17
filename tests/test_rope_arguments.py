"""rope honours its arguments: pair indices that index, integer vectors read as numbers, the edges of each
count check, and errors that name the argument the caller wrote."""

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


def test_pair_energies_of_an_integer_vector_do_not_wrap_around():
    # |q_i|² = (2³²)² = 2⁶⁴ is exact in float64 but wraps to 0 in int64: integer input is read as numbers
    assert rope.pair_energies(np.array([2**32, 0, 3, 4]), 2).tolist() == [2.0**64, 25.0]
    # the pass-through dims (partial RoPE) add their |q_pass|² at every distance, also without wrapping
    got = rope.self_scores_closed_form(np.array([0, 0, 2**32]), [0, 5], [1.0])
    np.testing.assert_array_equal(got, [2.0**64, 2.0**64])


def test_rotate_turns_an_integer_vector_as_numbers():
    # (1, 0) turned by m·ω = m radians is (cos m, sin m); an integer input must not truncate the result to integers
    out = rope.rotate(np.array([[1, 0], [1, 0], [0, 2]]), [0, 1, 2], [1.0])
    np.testing.assert_allclose(out, [[1.0, 0.0], [np.cos(1.0), np.sin(1.0)], [-2 * np.sin(2.0), 2 * np.cos(2.0)]], atol=1e-15)


def test_edges_of_the_count_checks():
    # a context of one token is a context: pair 0 (λ = 2π) does not finish a turn within it
    assert rope.pairs_not_completing_turn([1.0], 1) == 1
    # head_dim = 1 is a positive integer; what is wrong is the odd number of rotary dims it gives
    with pytest.raises(ValueError, match=r"^head_dim=1 × rotary_fraction=1.0 gives 1 rotary dims"):
        rope.rotary_dim(1)


INV4 = rope.inverse_frequencies(4, 10_000.0)

BAD = [
    (lambda: rope.pair_of_dim(7, "half"), "dim"),
    (lambda: rope.pair_of_dim(0, "interleaved"), "dim"),
    (lambda: rope.spectrum(INV4, 0), "context"),
    (lambda: rope.rotary_dim(128, "half"), "rotary_fraction"),
    (lambda: rope.wavelengths([1.0, 0.0]), "inv_freq"),  # a pair that never turns has no wavelength
    (lambda: rope.rotate(np.zeros((1, 4)), [0], [1.0, -0.5]), "inv_freq"),
    (lambda: rope.pair_energies(np.ones((2, 4)), 1), "q"),
    (lambda: rope.pair_energies(np.ones(4), True), "n_pairs"),  # a bool is not a count of pairs
    (lambda: rope.pair_energies(np.ones(4), 1.0), "n_pairs"),
    (lambda: rope.pair_energies(np.ones(4), 0), "n_pairs"),  # zero pairs: nothing to measure
    (lambda: rope.pair_energies(np.ones(1), 1), "n_pairs"),  # a one-dim q is a vector; it is too short for a pair
    (lambda: rope.self_scores([1.0, np.nan, 0.0, 0.0], [1], INV4), "q"),
    (lambda: rope.self_scores(np.ones(4), [-1], INV4), "distances"),
    (lambda: rope.self_scores_closed_form(np.ones((2, 4)), [1], INV4), "q"),
    (lambda: rope.self_scores_closed_form(np.ones(4), [-1], INV4), "distances"),
    (lambda: rope.self_scores_closed_form(np.ones(4), [1], [1.0, -1.0]), "inv_freq"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
