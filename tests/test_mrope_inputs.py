"""posenc.mrope's contract for bad input: a ValueError that names the argument (or the model) and the fix.

Complements the table in test_mrope.py (position_ids, pair_axes, angles) with the per-axis helpers and the
model wrappers, and checks that the wrappers take the model's own spatial_merge_size.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from posenc import configs, mrope

TEXT_MODEL = configs.load("qwen3_8b")  # plain RoPE, no M-RoPE fields
VL = configs.load("qwen25_vl_7b")


@pytest.mark.parametrize("call, match", [
    # 5 frequencies for a 64-pair section: the message gives both counts and the head_dim to build
    (lambda: mrope.axis_frequencies(np.ones(5), [16, 24, 24]),
     r"inv_freq has \(5,\) frequencies but mrope_section \[16, 24, 24\] has 64 pairs; build inv_freq for head_dim"),
    # the right count but two-dimensional (a batch of frequency rows)
    (lambda: mrope.axis_frequencies(np.ones((4, 2)), [1, 1, 2]),
     r"inv_freq has \(4, 2\) frequencies but mrope_section \[1, 1, 2\] has 4 pairs"),
    (lambda: mrope.angles(np.zeros((3, 2), dtype=int), np.ones((4, 2)), [1, 1, 2]), r"inv_freq has \(4, 2\)"),
    # [1, 3, 3] lays out contiguously but cannot interleave (height would need pairs 1, 4, 7 of 0 … 6)
    (lambda: mrope.axis_frequencies(np.ones(7), [1, 3, 3], interleaved=True), "cannot be interleaved"),
    (lambda: mrope.axis_pair_counts([1, 3, 3], interleaved=True), "cannot be interleaved"),
    (lambda: mrope.axis_frequencies(np.ones(4), [1, 1, 2], interleaved=None), "interleaved must be True"),
    # the model wrappers name the model they were given, or the type of what they got instead
    (lambda: mrope.model_position_ids(TEXT_MODEL, [mrope.Text(1)]), r"M-RoPE model .* got 'qwen3_8b'"),
    (lambda: mrope.model_position_ids("qwen25_vl_7b", [mrope.Text(1)]), r"got 'str'; e\.g\. configs\.load"),
    (lambda: mrope.model_pair_axes(TEXT_MODEL), r"M-RoPE model .* got 'qwen3_8b'"),
    (lambda: mrope.model_pair_axes("qwen25_vl_7b"), r"got 'str'; e\.g\. configs\.load\('qwen25_vl_7b'\)"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


NOT_THREE = r"^mrope_section must be three pair counts \(temporal, height, width\), got {}; Qwen2-VL uses \[16, 24, 24\]$"


@pytest.mark.parametrize("call, match", [
    # images: the grid's fields by name, still images only, sides divisible by the merge size
    (lambda: mrope.merged_grid("4x6"), r"^image must be a posenc\.mrope\.Image\(t, h, w\), got str$"),
    (lambda: mrope.merged_grid(mrope.Image(0, 2, 2)), r"^image\.t must be a positive integer, got 0$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 0, 2)), r"^image\.h must be a positive integer, got 0$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 2, -2)), r"^image\.w must be a positive integer, got -2$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 2, 2), 0), r"^spatial_merge_size must be a positive integer, got 0$"),
    (lambda: mrope.merged_grid(mrope.Image(2, 2, 2)),
     r"^image\.t must be 1 \(a still image\); got 2: videos are not handled by posenc\.mrope$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 3, 4)),
     r"^image grid 3 × 4 patches is not divisible by spatial_merge_size 2; the vision encoder merges 2 × 2 patches, "
     r"so both sides must be multiples of 2$"),
    (lambda: mrope.merged_grid(mrope.Image(1, 4, 3)), r"^image grid 4 × 3 patches is not divisible"),
    (lambda: mrope.image_tokens(mrope.Image(1, 4, 4), 3), r"^image grid 4 × 4 patches is not divisible by spatial_merge_size 3"),
    # sequences
    (lambda: mrope.position_ids([]), r"^segments is empty; pass e\.g\. \[Text\(3\), Image\(1, 4, 6\), Text\(2\)\]$"),
    (lambda: mrope.position_ids([mrope.Text(0)]), r"^Text\.length must be a positive integer, got 0$"),
    (lambda: mrope.position_ids([mrope.Text(True)]), r"^Text\.length must be a positive integer, got True$"),
    (lambda: mrope.position_ids([mrope.Text(2.0)]), r"^Text\.length must be a positive integer, got 2\.0$"),
    (lambda: mrope.position_ids([mrope.Text(2), "hello"]), r"^segments must hold Text and Image items, got str$"),
    (lambda: mrope.position_ids([mrope.Text(2)], spatial_merge_size=0), r"^spatial_merge_size must be"),
    (lambda: mrope.position_ids([mrope.Image(1, 4, 4)], spatial_merge_size=3), r"divisible by spatial_merge_size 3"),
    # position IDs as arrays
    (lambda: mrope.rope_delta(np.zeros((2, 4), dtype=int)),
     r"^ids must have shape \(3, N\) \(temporal, height, width rows\), got \(2, 4\); build them with position_ids\(\)$"),
    (lambda: mrope.rope_delta(np.zeros(3, dtype=int)), r"^ids must have shape \(3, N\) .* got \(3,\)"),
    (lambda: mrope.rope_delta(np.zeros((3, 0), dtype=int)), r"^ids must have shape \(3, N\) .* got \(3, 0\)"),
    (lambda: mrope.rope_delta(np.zeros((3, 2))), r"^ids must be non-negative integers; build them with position_ids\(\)$"),
    (lambda: mrope.rope_delta(np.array([[0, 1], [0, -1], [0, 1]])), r"^ids must be non-negative integers"),
    # sections
    (lambda: mrope.pair_axes([16, 24]), NOT_THREE.format(r"\[16, 24\]")),
    (lambda: mrope.pair_axes([16, 24, 24, 1]), NOT_THREE.format(r"\[16, 24, 24, 1\]")),
    (lambda: mrope.pair_axes("16 24 24"), NOT_THREE.format("'16 24 24'")),
    (lambda: mrope.pair_axes(64), NOT_THREE.format("64")),
    (lambda: mrope.pair_axes([0, 24, 24]), r"^mrope_section\[0\] must be a positive integer, got 0$"),
    (lambda: mrope.pair_axes([16, 0, 24]), r"^mrope_section\[1\] must be"),
    (lambda: mrope.pair_axes([16, 24, 0]), r"^mrope_section\[2\] must be"),
    (lambda: mrope.pair_axes([1, 3, 3], interleaved=True),
     r"^mrope_section \[1, 3, 3\] cannot be interleaved: axis height would need pair 7 of 7; Qwen3-VL uses \[24, 20, 20\]$"),
    (lambda: mrope.pair_axes([2, 1, 3], interleaved=True),
     r"^mrope_section \[2, 1, 3\] cannot be interleaved: axis width would need pair 8 of 6"),
    (lambda: mrope.pair_axes([16, 24, 24], interleaved="yes"),
     r"^interleaved must be True \(Qwen3-VL\) or False \(Qwen2-VL\), got 'yes'$"),
])
def test_bad_ids_and_sections_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_what_the_checks_accept():
    # a section as a list, tuple or array; counts as NumPy integers; unsigned IDs
    for section in ([1, 1, 2], (1, 1, 2), np.array([1, 1, 2]), [np.int64(1), 1, 2]):
        np.testing.assert_array_equal(mrope.pair_axes(section), [0, 1, 2, 2])
    np.testing.assert_array_equal(mrope.pair_axes([1, 1, 1], interleaved=True), [0, 1, 2])
    assert mrope.rope_delta(np.array([[0, 1, 2]] * 3, dtype=np.uint8)) == 0
    assert mrope.rope_delta(np.array([[0]] * 3)) == 0
    np.testing.assert_array_equal(mrope.position_ids(mrope.Text(np.int64(1))), [[0], [0], [0]])


def test_a_lone_segment_need_not_be_in_a_list():
    np.testing.assert_array_equal(mrope.position_ids(mrope.Text(3)), [[0, 1, 2]] * 3)
    # a 2 × 2-token image alone: T stays 0, H = row, W = column
    np.testing.assert_array_equal(mrope.position_ids(mrope.Image(1, 4, 4)), [[0, 0, 0, 0], [0, 0, 1, 1], [0, 1, 0, 1]])


def test_image_tokens_count_the_merged_grid():
    # 4 × 6 patches merged 2 × 2 (the default) → 2 × 3 = 6 tokens; merged 4 × 4, 8 × 4 patches → 2 × 1 = 2
    assert mrope.image_tokens(mrope.Image(1, 4, 6)) == 6
    assert mrope.merged_grid(mrope.Image(1, 4, 6)) == (1, 2, 3)
    assert mrope.image_tokens(mrope.Image(1, 8, 4), 4) == 2
    assert mrope.merged_grid(mrope.Image(1, 8, 4), 4) == (1, 2, 1)
    assert mrope.image_tokens(mrope.Image(1, 1, 1), 1) == 1
    # counts of tokens are Python ints (usable as range() bounds), not floats from a true division
    assert all(type(v) is int for v in mrope.merged_grid(mrope.Image(1, 4, 6)))
    assert type(mrope.image_tokens(mrope.Image(1, 4, 6))) is int
    # the merge size reaches position_ids: 8 × 4 patches merged 4 × 4 are two tokens in one row
    np.testing.assert_array_equal(mrope.position_ids([mrope.Image(1, 8, 4)], 4), [[0, 0], [0, 1], [0, 0]])


def test_contiguous_section_counts_even_if_it_could_not_interleave():
    assert mrope.axis_pair_counts([1, 3, 3]) == {"temporal": 1, "height": 3, "width": 3}


def _with_merge_size(cfg, k):
    fields = dict(cfg.fields, spatial_merge_size=configs.Field(k, "test: a hypothetical encoder merging k × k", "U"))
    return dataclasses.replace(cfg, fields=fields)


def test_model_position_ids_use_the_models_merge_size():
    # A 4 × 8-patch image: merged 2 × 2 it is 2 × 4 tokens; merged 4 × 4 it is 1 × 2 tokens.
    segs = [mrope.Text(1), mrope.Image(1, 4, 8), mrope.Text(1)]
    np.testing.assert_array_equal(mrope.model_position_ids(VL, segs), [
        [0, 1, 1, 1, 1, 1, 1, 1, 1, 5],
        [0, 1, 1, 1, 1, 2, 2, 2, 2, 5],
        [0, 1, 2, 3, 4, 1, 2, 3, 4, 5],
    ])
    np.testing.assert_array_equal(mrope.model_position_ids(_with_merge_size(VL, 4), segs), [
        [0, 1, 1, 3],
        [0, 1, 1, 3],
        [0, 1, 2, 3],
    ])


def test_a_tall_image_moves_the_next_text_by_its_height():
    # 6 × 2 patches merged 2 × 2: 3 rows of 1 token. Text after it continues at 1 + max(1, 3, 1) = 4.
    ids = mrope.position_ids([mrope.Text(1), mrope.Image(1, 6, 2), mrope.Text(1)])
    np.testing.assert_array_equal(ids, [[0, 1, 1, 1, 4], [0, 1, 2, 3, 4], [0, 1, 1, 1, 4]])
