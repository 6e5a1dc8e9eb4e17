"""posenc.mrope's per-axis frequencies and angles, on small cases worked by hand; no torch.

The layouts (module docstring): contiguous (Qwen2-VL) gives pairs 0 … n_T−1 to the temporal ID,
the next n_H to height, the last n_W to width. Interleaved (Qwen3-VL, transformers
``apply_interleaved_mrope``): pair j goes to height when j ≡ 1 (mod 3) and j < 3·n_H, to width when
j ≡ 2 (mod 3) and j < 3·n_W, to temporal otherwise. The expected pairs below are worked out from those
rules by hand; test_mrope.py checks the layouts themselves against transformers.
"""

from __future__ import annotations

import numpy as np
import pytest

from posenc import mrope

# Four pairs with distinct, decreasing frequencies, so each expected split can be read off by eye.
OMEGA4 = np.array([1.0, 0.5, 0.25, 0.125])


def test_contiguous_split_is_the_default_by_hand():
    # [1, 1, 2]: pair 0 → T, pair 1 → H, pairs 2 and 3 → W.
    got = mrope.axis_frequencies(OMEGA4, [1, 1, 2])
    assert list(got) == ["temporal", "height", "width"]
    np.testing.assert_array_equal(got["temporal"], [1.0])
    np.testing.assert_array_equal(got["height"], [0.5])
    np.testing.assert_array_equal(got["width"], [0.25, 0.125])


def test_interleaved_split_by_hand():
    # [2, 1, 1] interleaved: pair 1 → H (1 < 3), pair 2 → W (2 < 3), pairs 0 and 3 → T.
    got = mrope.axis_frequencies(OMEGA4, [2, 1, 1], interleaved=True)
    np.testing.assert_array_equal(got["temporal"], [1.0, 0.125])
    np.testing.assert_array_equal(got["height"], [0.5])
    np.testing.assert_array_equal(got["width"], [0.25])
    # the same section laid out contiguously: pairs 0, 1 → T, 2 → H, 3 → W
    flat = mrope.axis_frequencies(OMEGA4, [2, 1, 1], interleaved=False)
    np.testing.assert_array_equal(flat["temporal"], [1.0, 0.5])
    np.testing.assert_array_equal(flat["height"], [0.25])
    np.testing.assert_array_equal(flat["width"], [0.125])


def test_each_axis_lists_its_frequencies_fastest_first_whatever_the_input_order():
    # inv_freq given slowest first: width still holds the last two pairs (0.5 and 1.0), listed 1.0 then 0.5.
    got = mrope.axis_frequencies(OMEGA4[::-1], [1, 1, 2])
    np.testing.assert_array_equal(got["temporal"], [0.125])
    np.testing.assert_array_equal(got["height"], [0.25])
    np.testing.assert_array_equal(got["width"], [1.0, 0.5])
    # three pairs on one axis, shuffled: all three come back, in decreasing order
    got = mrope.axis_frequencies([0.2, 0.9, 0.1, 0.5, 0.7], [3, 1, 1])
    np.testing.assert_array_equal(got["temporal"], [0.9, 0.2, 0.1])


def test_qwen3_vl_section_interleaved_by_hand():
    # Qwen3-VL's [24, 20, 20] over 64 pairs: H takes j = 1, 4, …, 58; W takes j = 2, 5, …, 59;
    # T takes j = 0, 3, …, 57 and the four pairs 60 … 63 past the interleaved block.
    omega = 1e6 ** (-np.arange(64) / 64)
    got = mrope.axis_frequencies(omega, [24, 20, 20], interleaved=True)
    np.testing.assert_array_equal(got["height"], omega[[1 + 3 * i for i in range(20)]])
    np.testing.assert_array_equal(got["width"], omega[[2 + 3 * i for i in range(20)]])
    np.testing.assert_array_equal(got["temporal"], omega[[3 * i for i in range(20)] + [60, 61, 62, 63]])
    # contiguous [16, 24, 24] (Qwen2-VL): T the fastest 16, W the slowest 24
    got = mrope.axis_frequencies(omega, [16, 24, 24])
    np.testing.assert_array_equal(got["width"], omega[40:])
    assert got["width"].max() < got["height"].min() < got["height"].max() < got["temporal"].min()


def test_frequencies_come_back_in_float64_from_float32_input():
    # A model stores inv_freq in float32 (transformers' buffer). The frequencies come back in float64, so a
    # caller's position × ω at long context keeps float64 precision instead of float32's (~0.002 rad at 1e5).
    omega32 = (10_000.0 ** (-np.arange(4) / 4)).astype(np.float32)
    got = mrope.axis_frequencies(omega32, [1, 1, 2])
    for name in mrope.AXES:
        assert got[name].dtype == np.float64
    position = 123_457
    angles = position * got["width"]
    exact = position * omega32[2:].astype(np.float64)  # the float32 values, multiplied in float64
    np.testing.assert_allclose(angles, exact, rtol=0, atol=1e-9)


def test_angles_follow_the_interleaved_layout_by_hand():
    # one token with IDs T = 5, H = 7, W = 11; [2, 1, 1] interleaved → axes T, H, W, T
    ids = np.array([[5], [7], [11]])
    np.testing.assert_allclose(mrope.angles(ids, OMEGA4, [2, 1, 1], interleaved=True),
                               [[5 * 1.0, 7 * 0.5, 11 * 0.25, 5 * 0.125]], rtol=0, atol=1e-15)
    # contiguous → axes T, T, H, W
    np.testing.assert_allclose(mrope.angles(ids, OMEGA4, [2, 1, 1]),
                               [[5 * 1.0, 5 * 0.5, 7 * 0.25, 11 * 0.125]], rtol=0, atol=1e-15)
