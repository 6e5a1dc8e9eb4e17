"""Inputs are checked in their own dtype before any conversion to float, so a string or a complex number
is refused with posenc's message (naming the argument), not parsed silently or refused by numpy."""

from __future__ import annotations

import numpy as np

from expect import raises_exactly
from posenc import attention as at
from posenc import mla, scaling, shift

HEAD = at.make_head(2, seed=0)


def test_attention_refuses_complex_and_string_vectors_by_name():
    with raises_exactly("x must hold real numbers, got dtype complex128"):
        at.attend([[1 + 0j, 0.0], [0.0, 1.0]], HEAD)
    with raises_exactly("x must hold real numbers, got dtype <U3"):
        at.attend([["1.0", "0.0"], ["0.0", "1.0"]], HEAD)


def test_attention_takes_integer_lists_as_the_same_floats():
    ints = at.attend([[1, 0], [0, 1]], HEAD).out
    floats = at.attend(np.array([[1.0, 0.0], [0.0, 1.0]]), HEAD).out
    np.testing.assert_array_equal(ints, floats)


def test_a_pair_given_as_strings_is_refused_not_parsed():
    with raises_exactly("v must be two finite numbers (one pair of dims), got ('1.0', '0.4'); pass e.g. v=(1.0, 0.4)"):
        shift.rotate_pair(("1.0", "0.4"), 0.3)
    # integers are numbers: the same rotation as the floats
    np.testing.assert_array_equal(shift.rotate_pair((1, 0), 0.3), shift.rotate_pair((1.0, 0.0), 0.3))


def test_yarn_paper_ramp_names_rotations_for_a_string():
    with raises_exactly("rotations must be a non-empty 1-D array of positive finite turn counts r = L/λ, got ['two']; "
                        "e.g. scaling.yarn_pairs(...).rotations"):
        scaling.yarn_paper_ramp(["two"])
    # integer turn counts give the float answer: γ(r) = (r − 1)/31 between α = 1 and β = 32, so 1 − γ(2) = 30/31
    np.testing.assert_allclose(scaling.yarn_paper_ramp([1, 2, 32]), [1.0, 30 / 31, 0.0], rtol=0, atol=1e-15)


def test_gqa_cache_blames_kv_heads():
    with raises_exactly("kv_heads must be a positive integer, got 0"):
        mla.gqa_cache_elements(0, 128, 4)
    assert mla.gqa_cache_elements(8, 128, 4) == 2 * 8 * 128 * 4  # 2·n_g·d_h·l, DeepSeek-V2 Table 1
