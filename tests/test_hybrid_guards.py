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
    # transformers' Llama4TextConfig defaults (the installed version): floor_scale 8192, attn_scale 0.1.
    # The scale leaves p = 8190 alone and first grows at p = 8191: 1 + 0.1 · ln 2.
    np.testing.assert_allclose(hybrid.llama4_attn_scale([0, 8190, 8191, 2 * 8192 - 1]),
                               [1.0, 1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(3)], rtol=1e-15)


def _without(cfg, name):
    return dataclasses.replace(cfg, fields={k: v for k, v in cfg.fields.items() if k != name})


NOT_ROPE = r"^cfg must be a RoPE model from posenc\.configs\.load\(\), got {}; e\.g\. configs\.load\('qwen3_next_80b_a3b'\)$"
QWEN3_NEXT = configs.load("qwen3_next_80b_a3b")


@pytest.mark.parametrize("call, match", [
    # which models: RoPE models from posenc.configs, named in the error when they are not
    (lambda: hybrid.model_rotary_mask(configs.load("gpt2")), NOT_ROPE.format("'gpt2'")),
    (lambda: hybrid.model_rotary_mask(configs.load("qwen25_vl_7b")), NOT_ROPE.format("'qwen25_vl_7b'")),
    (lambda: hybrid.layer_kinds("qwen3_8b", 4), NOT_ROPE.format("'str'")),
    # layer counts
    (lambda: hybrid.layer_kinds(configs.load("gemma3_27b")),
     r"^model 'gemma3_27b' has no 'layers' field; pass n_layers to draw its pattern over that many layers$"),
    (lambda: hybrid.layer_kinds(configs.load("qwen3_8b"), 0),
     r"^n_layers must be a positive integer, got 0; pass e\.g\. n_layers=12$"),
    (lambda: hybrid.layer_kinds(configs.load("qwen3_8b"), True), r"^n_layers must be a positive integer, got True"),
    (lambda: hybrid.layer_kinds(configs.load("qwen3_8b"), 4.0), r"^n_layers must be a positive integer, got 4\.0"),
    # the fields rope_dim_shares needs, each named with what it is for
    (lambda: hybrid.rope_dim_shares(configs.load("gemma3_27b")),
     r"^model 'gemma3_27b' has no 'heads' field, which rope_dim_shares needs \(query heads per attention layer\); "
     r"add it with source and tag to posenc/data/models\*\.yaml$"),
    (lambda: hybrid.rope_dim_shares(_without(configs.load("qwen3_8b"), "layers")),
     r"^model 'qwen3_8b' has no 'layers' field, which rope_dim_shares needs \(the sum runs over layers\)"),
    (lambda: hybrid.rope_dim_shares(_without(QWEN3_NEXT, "linear_num_key_heads")),
     r"has no 'linear_num_key_heads' field, which rope_dim_shares needs \(Gated DeltaNet q/k heads\)"),
    (lambda: hybrid.rope_dim_shares(_without(QWEN3_NEXT, "linear_key_head_dim")),
     r"has no 'linear_key_head_dim' field, which rope_dim_shares needs \(Gated DeltaNet q/k head width\)"),
    # the NoPE counter
    (lambda: hybrid.causal_counter(1), r"^n must be an integer of at least 2 tokens, got 1; pass e\.g\. n=8$"),
    (lambda: hybrid.causal_counter(True), r"^n must be an integer of at least 2 tokens, got True"),
    (lambda: hybrid.causal_counter(4.0), r"^n must be an integer of at least 2 tokens, got 4\.0"),
    (lambda: hybrid.causal_counter(4, causal="yes"), r"^causal must be True or False, got 'yes'$"),
    (lambda: hybrid.counter_position(0.0), r"^value must be a marker in \(0, 1\] \(an output of causal_counter\), got 0\.0$"),
    (lambda: hybrid.counter_position(1.5), r"^value must be a marker in \(0, 1\]"),
    (lambda: hybrid.counter_position(True), r"^value must be a marker in \(0, 1\]"),
    (lambda: hybrid.counter_position("0.5"), r"^value must be a marker in \(0, 1\]"),
    (lambda: hybrid.counter_gap(-1), r"^t must be a non-negative integer position, got -1$"),
    (lambda: hybrid.counter_gap(True), r"^t must be a non-negative integer position, got True$"),
    (lambda: hybrid.counter_gap(1.0), r"^t must be a non-negative integer position, got 1\.0$"),
    # Llama 4's query scale
    (lambda: hybrid.llama4_attn_scale([-1, 2]), r"^positions must be non-negative"),
    (lambda: hybrid.llama4_attn_scale([1, 2], floor_scale=0), r"^floor_scale must be a positive finite number, got 0$"),
    (lambda: hybrid.llama4_attn_scale([1, 2], attn_scale=-0.1), r"^attn_scale must be a positive finite number"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_the_smallest_inputs_are_allowed():
    # one layer; two tokens (1 and 1/2 causally, 1/2 each without the mask); the first marker 1 is position 0;
    # the gap between positions 0 and 1 is 1 − 1/2
    assert hybrid.layer_kinds(configs.load("qwen3_8b"), 1) == ["global"]
    np.testing.assert_allclose(hybrid.causal_counter(2), [1.0, 0.5], rtol=1e-12)
    np.testing.assert_allclose(hybrid.causal_counter(2, causal=False), [0.5, 0.5], rtol=1e-12)
    assert hybrid.counter_position(1.0) == 0.0
    assert hybrid.counter_position(0.25) == 3.0
    assert hybrid.counter_gap(0) == 0.5
    assert hybrid.counter_gap(np.int64(2)) == pytest.approx(1 / 3 - 1 / 4, rel=1e-15)


def test_rotary_mask_selects_the_first_dims_by_default_all():
    # a boolean mask: indexing a head's dims with it picks the rotary ones (transformers' q[..., :dim])
    mask = hybrid.rotary_mask(8, 0.5)
    assert mask.dtype == bool
    np.testing.assert_array_equal(np.arange(8)[mask], [0, 1, 2, 3])
    np.testing.assert_array_equal(np.arange(8)[~mask], [4, 5, 6, 7])
    # without a fraction RoPE turns the whole head
    np.testing.assert_array_equal(hybrid.rotary_mask(8), np.ones(8, dtype=bool))
