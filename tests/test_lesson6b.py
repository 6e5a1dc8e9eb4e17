"""The M-RoPE page (lesson 6b): posenc.mrope.axis_frequencies, the score's dependence on ID differences only,
and the numbers the page quotes.

References: the worked example by hand (the rule of transformers' get_rope_index, checked against it in
tests/test_mrope.py), the configs' mrope_section and θ typed here, and hand-built rotations.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import configs, mrope, rope
from posenc import examples as ex
from posenc import quantities as q

FAST = settings(max_examples=30, deadline=None)


def test_axis_frequencies_split_the_head():
    inv = rope.inverse_frequencies(128, 1_000_000)
    contiguous = mrope.axis_frequencies(inv, [16, 24, 24])
    np.testing.assert_array_equal(contiguous["temporal"], inv[:16])
    np.testing.assert_array_equal(contiguous["height"], inv[16:40])
    np.testing.assert_array_equal(contiguous["width"], inv[40:])
    inter = mrope.axis_frequencies(inv, [24, 20, 20], interleaved=True)
    np.testing.assert_array_equal(inter["width"], inv[2:60:3])
    np.testing.assert_array_equal(inter["height"], inv[1:60:3])
    np.testing.assert_array_equal(np.sort(np.concatenate(list(inter.values()))), np.sort(inv))


def _turn(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Half-layout rotation of one vector by per-pair angles (transformers' rotate_half convention)."""
    h = len(angles)
    a, b = x[:h], x[h:2 * h]
    return np.concatenate([a * np.cos(angles) - b * np.sin(angles), a * np.sin(angles) + b * np.cos(angles)])


@FAST
@given(shift=st.integers(1, 500), seed=st.integers(0, 2**16), interleaved=st.booleans())
def test_scores_depend_only_on_id_differences(shift, seed, interleaved):
    section = [24, 20, 20] if interleaved else [16, 24, 24]
    inv = rope.inverse_frequencies(128, 1_000_000)
    ids = mrope.position_ids(ex.mrope_segments())
    rng = np.random.default_rng(seed)
    qs, ks = rng.standard_normal((2, ids.shape[1], 128))

    def scores(id_rows):
        ang = mrope.angles(id_rows, inv, section, interleaved)
        qr = np.array([_turn(v, a) for v, a in zip(qs, ang)])
        kr = np.array([_turn(v, a) for v, a in zip(ks, ang)])
        return qr @ kr.T

    np.testing.assert_allclose(scores(ids + shift), scores(ids), atol=1e-9)
    moved = ids.copy()
    moved[2, 3] += 1  # one image token one column further right: its scores change
    assert np.abs(scores(moved) - scores(ids)).max() > 1e-9


def test_example_numbers():
    assert q.text("mrope_ex_ids_temporal") == "0、1、2、3、3、3、3、3、3、6、7"
    assert q.text("mrope_ex_ids_height") == "0、1、2、3、3、3、4、4、4、6、7"
    assert q.text("mrope_ex_ids_width") == "0、1、2、3、4、5、3、4、5、6、7"
    assert (q.value("mrope_ex_grid_h"), q.value("mrope_ex_grid_w"), q.value("mrope_ex_image_tokens")) == (2, 3, 6)
    assert (q.value("mrope_ex_tokens"), q.value("mrope_ex_image_start"), q.value("mrope_ex_after_start")) == (11, 3, 6)
    assert (q.value("mrope_ex_max_id"), q.value("mrope_ex_next_id"), q.value("mrope_ex_delta")) == (7, 8, -3)
    # a 32 × 32-patch image: 16 × 16 tokens, the text after it at ID max(16, 16) = 16
    assert (q.value("mrope_big_tokens"), q.value("mrope_big_ids")) == (256, 16)
    # exercise: a second copy of the image after the example starts at 8 and reaches 8 + 2 on the width axis
    assert (q.value("ex_mrope_second_text"), q.value("ex_mrope_second_max")) == (8, 10)


def test_section_numbers():
    # Qwen2.5-VL [16, 24, 24] contiguous, θ 1e6; Qwen3-VL [24, 20, 20] interleaved, θ 5e6 (both θ unverified)
    assert [q.value(f"mrope_pairs_{a}_qwen25_vl_7b") for a in mrope.AXES] == [16, 24, 24]
    assert [q.value(f"mrope_pairs_{a}_qwen3_vl_235b_a22b") for a in mrope.AXES] == [24, 20, 20]
    assert q.value("mrope_first_width_pair_qwen25_vl_7b") == 40 and q.value("mrope_first_width_pair_qwen3_vl_235b_a22b") == 2
    assert q.value("mrope_pairs_total") == 64
    deg = lambda theta, j: math.degrees(theta ** (-2 * j / 128))  # noqa: E731  pair j's angle per ID step
    assert q.value("mrope_fastest_deg_height_qwen25_vl_7b") == pytest.approx(deg(1e6, 16))
    assert q.value("mrope_fastest_deg_width_qwen25_vl_7b") == pytest.approx(deg(1e6, 40))
    assert q.value("mrope_fastest_deg_height_qwen3_vl_235b_a22b") == pytest.approx(deg(5e6, 1))
    assert q.value("mrope_fastest_deg_width_qwen3_vl_235b_a22b") == pytest.approx(deg(5e6, 2))


def test_text_only_ids_make_plain_rope_angles():
    ids = mrope.position_ids([mrope.Text(9)])
    inv = rope.inverse_frequencies(128, 1_000_000)
    np.testing.assert_allclose(mrope.angles(ids, inv, [16, 24, 24]), np.arange(9)[:, None] * inv[None, :])


def test_axis_frequencies_bad_input():
    with pytest.raises(ValueError, match="inv_freq"):
        mrope.axis_frequencies(np.ones(10), [16, 24, 24])
    with pytest.raises(ValueError, match="mrope_section"):
        mrope.axis_frequencies(np.ones(64), [16, 48])
