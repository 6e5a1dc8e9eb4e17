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
    # [1, 3, 3] lays out contiguously but cannot interleave (width would need pair 8 of 7)
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
