"""posenc.hybrid's guards and defaults: errors that name the model or argument and what is wrong, and
Llama 4's query-scale defaults."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest

from posenc import configs, hybrid


def _with(cfg, **values):
    """The config with extra or changed fields: a hypothetical model, for the guards no shipped config reaches."""
    extra = {name: configs.Field(v, "test: hypothetical", "U") for name, v in values.items()}
    return dataclasses.replace(cfg, fields=dict(cfg.fields, **extra))


def test_head_dims_reports_frequencies_and_mask_that_disagree():
    # An MLA model's mask marks its whole decoupled RoPE part (deepseek_v3: head_dim = d_R = 64 dims) as
    # rotary, while a rotary_fraction of 0.5 would give frequencies for only 32 of them (16 pairs). No
    # shipped config does this (configs.load checks them); the guard is for one that drifts.
    dsv3 = configs.load("deepseek_v3")
    assert dsv3["head_dim"] == 64
    with pytest.raises(ValueError, match=re.escape(
            "model 'deepseek_v3': 32 rotary dims from its frequencies but 64 in its mask")):
        hybrid.head_dims(_with(dsv3, rotary_fraction=0.5))


def test_layer_pattern_names_the_kinds_it_cannot_describe():
    # Gemma 3's 5 local + 1 global layers, with RoPE left out of every 5th layer: layer 4 (the 5th) is a
    # sliding-window layer without RoPE, "nope_local", which PATTERN_KINDS has no source for.
    odd = _with(configs.load("gemma3_27b"), nope_layer_interval=5)
    with pytest.raises(ValueError, match=re.escape(
            "model 'gemma3_27b' gives layer kinds ['nope_local'] that posenc does not describe; extend PATTERN_KINDS")):
        hybrid.layer_pattern(odd, 6)


def test_llama4_attn_scale_defaults_are_llama4s():
    # transformers' Llama4TextConfig defaults (the installed version): floor_scale 8192, attn_scale 0.1. The scale leaves p = 8190 alone and first grows at p = 8191: 1 + 0.1 · ln 2.
    np.testing.assert_allclose(hybrid.llama4_attn_scale([0, 8190, 8191, 2 * 8192 - 1]),
                               [1.0, 1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(3)], rtol=1e-15)


@pytest.mark.parametrize("call, match", [
    (lambda: hybrid.llama4_attn_scale([-1, 2]), r"^positions must be non-negative"),
    (lambda: hybrid.llama4_attn_scale([1, 2], floor_scale=0), r"^floor_scale must be a positive finite number, got 0$"),
    (lambda: hybrid.llama4_attn_scale([1, 2], attn_scale=-0.1), r"^attn_scale must be a positive finite number"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()
