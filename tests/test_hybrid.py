"""posenc.hybrid: partial RoPE, layer patterns and the NoPE counter against transformers' configuration and modeling
code; guards and defaults.

What the tests compare against, part by part:

- posenc.hybrid's layer patterns and RoPE shares against transformers' configuration and modeling code.
- posenc.hybrid's guards and defaults: errors that name the model or argument and what is wrong, and Llama 4's
  query-scale defaults.
"""

from __future__ import annotations

import dataclasses
import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch  # a hard dependency: a missing torch fails, never skips
from transformers import AttentionInterface  # noqa: E402
from transformers.models.cohere2.configuration_cohere2 import Cohere2Config  # noqa: E402
from transformers.models.llama4.configuration_llama4 import Llama4TextConfig  # noqa: E402
from transformers.models.llama4.modeling_llama4 import Llama4TextAttention  # noqa: E402
from transformers.models.qwen3_next.configuration_qwen3_next import Qwen3NextConfig  # noqa: E402
from transformers.models.qwen3_next.modeling_qwen3_next import (  # noqa: E402
    Qwen3NextAttention, Qwen3NextGatedDeltaNet, Qwen3NextRotaryEmbedding)
from transformers.models.smollm3.configuration_smollm3 import SmolLM3Config  # noqa: E402

from expect import raises_exactly
from posenc import configs, hybrid, rope
from posenc import quantities as q


FAST = settings(max_examples=30, deadline=None)


def test_llama4_scout_pattern_matches_transformers():
    cfg = configs.load("llama4_scout")
    ref = Llama4TextConfig(num_hidden_layers=cfg["layers"], no_rope_layer_interval=cfg["nope_layer_interval"],
                           attention_chunk_size=cfg["attention_chunk_size"])
    assert hybrid.rope_layers(cfg) == [bool(x) for x in ref.no_rope_layers]  # 1 = RoPE in transformers
    assert hybrid.layer_kinds(cfg) == ["chunked" if t == "chunked_attention" else "global" for t in ref.layer_types]
    assert hybrid.pattern_counts(cfg) == {"rope_global": 0, "rope_local": 0, "rope_chunked": 36, "nope_global": 12,
                                          "linear": 0, "mamba": 0}


def test_smollm3_pattern_matches_transformers():
    cfg = configs.load("smollm3_3b")
    ref = SmolLM3Config(num_hidden_layers=cfg["layers"], no_rope_layer_interval=cfg["nope_layer_interval"])
    assert hybrid.rope_layers(cfg) == [bool(x) for x in ref.no_rope_layers]
    assert set(hybrid.layer_kinds(cfg)) == {"global"}
    assert hybrid.pattern_counts(cfg)["nope_global"] == 36 // 4


@pytest.mark.parametrize("key", ["command_r7b", "command_a"])
def test_command_pattern_matches_transformers(key):
    cfg = configs.load(key)
    ref = Cohere2Config(num_hidden_layers=cfg["layers"], sliding_window_pattern=cfg["local_layers_per_global"] + 1)
    kinds = ["local" if t == "sliding_attention" else "global" for t in ref.layer_types]
    assert hybrid.layer_kinds(cfg) == kinds
    # modeling_cohere2: RoPE only where the layer has a sliding window
    assert hybrid.rope_layers(cfg) == [t == "sliding_attention" for t in ref.layer_types]
    assert hybrid.layer_pattern(cfg)[:4] == ["rope_local"] * 3 + ["nope_global"]


def test_qwen3_next_pattern_matches_transformers():
    cfg = configs.load("qwen3_next_80b_a3b")
    ref = Qwen3NextConfig(num_hidden_layers=cfg["layers"], full_attention_interval=cfg["full_attention_interval"])
    assert hybrid.layer_kinds(cfg) == ["linear" if t == "linear_attention" else "global" for t in ref.layer_types]
    assert hybrid.rope_layers(cfg) == [t == "full_attention" for t in ref.layer_types]


def test_existing_patterns_unchanged():
    # Gemma 3 and gpt-oss keep RoPE in every layer; their kinds are as before.
    for key, n in (("gemma3_27b", 12), ("gpt_oss", 6)):
        cfg = configs.load(key)
        assert all(hybrid.rope_layers(cfg, n))
        assert [k.split("_")[1] for k in hybrid.layer_pattern(cfg, n)] == hybrid.layer_kinds(cfg, n)


@FAST
@given(st.integers(1, 12), st.integers(1, 96))
def test_nope_interval_rule(interval, layers):
    cfg = configs.ModelConfig("toy", "toy", "rope", {
        "context": configs.Field(4096, "t", "U"), "head_dim": configs.Field(64, "t", "U"),
        "rope_theta": configs.Field(10_000, "t", "U"), "nope_layer_interval": configs.Field(interval, "t", "U")})
    ref = SmolLM3Config(num_hidden_layers=layers, no_rope_layer_interval=interval)
    assert hybrid.rope_layers(cfg, layers) == [bool(x) for x in ref.no_rope_layers]


def test_qwen3_next_rope_shares_from_the_modules():
    """Count q and k widths from transformers' own Qwen3-Next layers, built on the meta device (no memory)."""
    cfg = configs.load("qwen3_next_80b_a3b")
    ref = Qwen3NextConfig(
        num_hidden_layers=cfg["layers"], full_attention_interval=cfg["full_attention_interval"], hidden_size=cfg["hidden"],
        num_attention_heads=cfg["heads"], num_key_value_heads=cfg["kv_heads"], head_dim=cfg["head_dim"],
        partial_rotary_factor=cfg["rotary_fraction"], linear_num_key_heads=cfg["linear_num_key_heads"],
        linear_num_value_heads=cfg["linear_num_value_heads"], linear_key_head_dim=cfg["linear_key_head_dim"],
        linear_value_head_dim=cfg["linear_value_head_dim"])
    rotary = 2 * Qwen3NextRotaryEmbedding(ref).inv_freq.shape[0]  # dims turned per head
    q = qr = k = kr = 0
    with torch.device("meta"):
        for i, kind in enumerate(ref.layer_types):
            if kind == "linear_attention":
                lin = Qwen3NextGatedDeltaNet(ref, i)
                q, k = q + lin.key_dim, k + lin.key_dim  # q and k are both num_k_heads × head_k_dim wide
            else:
                attn = Qwen3NextAttention(ref, i)
                heads_q = attn.q_proj.out_features // (2 * attn.head_dim)  # q_proj emits query and output gate
                heads_k = attn.k_proj.out_features // attn.head_dim
                q, k = q + heads_q * attn.head_dim, k + heads_k * attn.head_dim
                qr, kr = qr + heads_q * rotary, kr + heads_k * rotary
    s = hybrid.rope_dim_shares(cfg)
    assert (s.query_dims, s.query_rope, s.key_dims, s.key_rope) == (q, qr, k, kr)
    assert s.query_share == pytest.approx(qr / q)
    assert s.key_share == pytest.approx(kr / k)
    # the simple estimate is 25 % of layers × 25 % of each head, which is neither real share
    assert s.simple_product == pytest.approx(0.25 * 0.25)
    assert s.query_share != pytest.approx(s.simple_product) and s.key_share != pytest.approx(s.simple_product)


def test_uniform_models_share_equals_simple_product():
    for key in ("llama4_scout", "smollm3_3b", "command_r7b"):
        s = hybrid.rope_dim_shares(configs.load(key))
        assert s.query_share == s.key_share == s.simple_product == s.layer_share == pytest.approx(0.75)


def test_mla_share_is_the_decoupled_part():
    s = hybrid.rope_dim_shares(configs.load("deepseek_v3"))
    # DeepSeek-V3 config_671B.json: qk_rope_head_dim 64 of 64 + qk_nope_head_dim 128 per head, every layer
    assert s.query_share == s.key_share == pytest.approx(64 / (64 + 128))


def test_llama4_attn_scale_closed_form():
    scale = hybrid.llama4_attn_scale(np.arange(3 * 8192), 8192, 0.1)
    assert np.all(scale[:8191] == 1.0)  # untouched below floor_scale − 1
    assert scale[8191] == pytest.approx(1 + 0.1 * math.log(2))
    assert scale[2 * 8192 - 1] == pytest.approx(1 + 0.1 * math.log(3))
    assert np.all(np.diff(scale) >= 0)


def test_llama4_attn_scale_matches_transformers():
    captured = {}

    def capture(module, q, k, v, mask, **kw):
        captured["q"] = q.detach().clone()
        return torch.zeros(q.shape[0], q.shape[2], q.shape[1], q.shape[3]), None

    AttentionInterface.register("posenc_capture", capture)

    def queries(tuning):
        cfg = Llama4TextConfig(hidden_size=16, num_attention_heads=2, num_key_value_heads=1, head_dim=8,
                               num_hidden_layers=1, no_rope_layers=[0], attn_temperature_tuning=tuning, floor_scale=3,
                               attn_scale=0.1, use_qk_norm=False, intermediate_size=16, intermediate_size_mlp=16,
                               vocab_size=10)
        cfg._attn_implementation = "posenc_capture"
        torch.manual_seed(0)
        attn = Llama4TextAttention(cfg, 0)
        attn(torch.randn(1, 20, 16), position_embeddings=None, attention_mask=None)
        return captured["q"].double()

    ratio = (queries(True) / queries(False))[0, 0, :, 0].numpy()
    np.testing.assert_allclose(hybrid.llama4_attn_scale(np.arange(20), 3, 0.1), ratio, rtol=1e-6)


@pytest.mark.parametrize("call, match", [
    (lambda: hybrid.rope_dim_shares(configs.load("gemma3_27b")), "heads"),
    (lambda: hybrid.rope_layers(configs.load("gpt2")), "RoPE or NoPE model"),
    (lambda: hybrid.llama4_attn_scale([-1, 2]), "non-negative"),
    (lambda: hybrid.llama4_attn_scale([1, 2], floor_scale=0), "floor_scale"),
    (lambda: hybrid.llama4_attn_scale([1, 2], attn_scale=-0.1), "attn_scale"),
    (lambda: hybrid.layer_pattern(configs.load("gpt_oss")), "n_layers"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- guards and defaults -------------------------------------------------------------------------------------------


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
NOT_LAYERED = (r"^cfg must be a RoPE or NoPE model from posenc\.configs\.load\(\), got {}; "
               r"e\.g\. configs\.load\('qwen3_next_80b_a3b'\) or configs\.load\('kimi_linear_48b'\)$")


QWEN3_NEXT = configs.load("qwen3_next_80b_a3b")


@pytest.mark.parametrize("call, match", [
    # which models: RoPE models from posenc.configs, named in the error when they are not
    (lambda: hybrid.model_rotary_mask(configs.load("gpt2")), NOT_ROPE.format("'gpt2'")),
    (lambda: hybrid.model_rotary_mask(configs.load("qwen25_vl_7b")), NOT_ROPE.format("'qwen25_vl_7b'")),
    (lambda: hybrid.layer_kinds("qwen3_8b", 4), NOT_LAYERED.format("'str'")),
    (lambda: hybrid.layer_kinds(configs.load("gpt2"), 4), NOT_LAYERED.format("'gpt2'")),
    (lambda: hybrid.head_dims(configs.load("kimi_linear_48b")), NOT_ROPE.format("'kimi_linear_48b'")),
    (lambda: hybrid.rope_dim_shares(configs.load("jamba_v01")), NOT_ROPE.format("'jamba_v01'")),
    # p-RoPE
    (lambda: hybrid.p_rope_frequencies(256, 1e7, 0), r"^p must be a number in \(0, 1\] \(the share of the head's pairs"),
    (lambda: hybrid.p_rope_frequencies(256, 1e7, 1.5), r"^p must be a number in \(0, 1\]"),
    (lambda: hybrid.p_rope_frequencies(256, 1e7, True), r"^p must be a number in \(0, 1\]"),
    (lambda: hybrid.p_rope_frequencies(8, 1e4, 0.2), r"^p = 0\.2 keeps int\(p · 8 // 2\) = 0 of the 4 pairs; raise p or head_dim$"),
    (lambda: hybrid.p_rope_frequencies(255, 1e4, 0.5), r"^head_dim must be a positive even integer"),
    (lambda: hybrid.p_rope_frequencies(256, 1, 0.5), r"^base must be greater than 1"),
    # layer counts
    (lambda: hybrid.layer_kinds(configs.load("gpt_oss")),
     r"^model 'gpt_oss' has no 'layers' field; pass n_layers to draw its pattern over that many layers$"),
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


# --- rotary masks, layer kinds, the causal counter -----------------------------------------------------------------


@given(head=st.sampled_from([8, 64, 128, 256]), frac=st.sampled_from([0.25, 0.5, 1.0]))
@FAST
def test_rotary_mask_is_the_first_int_head_dim_times_fraction_dims(head, frac):
    mask = hybrid.rotary_mask(head, frac)
    dim = int(head * frac)  # transformers: dim = int(head_dim * partial_rotary_factor)
    assert mask.shape == (head,) and mask.sum() == dim
    assert mask[:dim].all() and not mask[dim:].any()


@pytest.fixture(scope="module")
def hf_layer_types():
    from transformers import Gemma3TextConfig, GptOssConfig, Qwen3NextConfig

    return {
        "qwen3_next_80b_a3b": Qwen3NextConfig(num_hidden_layers=48).layer_types,
        "gemma3_27b": Gemma3TextConfig(num_hidden_layers=24).layer_types,
        "gpt_oss": GptOssConfig(num_hidden_layers=24).layer_types,
    }


def test_layer_kinds_match_transformers(hf_layer_types):
    name = {"full_attention": "global", "sliding_attention": "local", "linear_attention": "linear"}
    for key, types in hf_layer_types.items():
        ours = hybrid.layer_kinds(configs.load(key), len(types))
        assert ours == [name[t] for t in types], key


@given(n=st.integers(2, 300))
@FAST
def test_causal_counter_is_one_over_t_plus_one(n):
    out = hybrid.causal_counter(n)
    np.testing.assert_allclose(out, 1.0 / (np.arange(n) + 1), rtol=1e-12)
    np.testing.assert_allclose([hybrid.counter_position(float(v)) for v in out], np.arange(n), atol=1e-9)
    np.testing.assert_allclose(hybrid.causal_counter(n, causal=False), np.full(n, 1.0 / n), rtol=1e-12)


@pytest.mark.parametrize(
    "call, word",
    [
        (lambda: hybrid.rotary_mask(128, 0.0), "rotary_fraction"),
        (lambda: hybrid.rotary_mask(-4), "head_dim"),
        (lambda: hybrid.model_rotary_mask(configs.load("gpt2")), "cfg"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss")), "n_layers"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss"), 0), "n_layers"),
        (lambda: hybrid.causal_counter(1), "n"),
        (lambda: hybrid.causal_counter(4, causal="yes"), "causal"),
        (lambda: hybrid.counter_position(0.0), "value"),
        (lambda: hybrid.counter_gap(-1), "t"),
    ],
)
def test_layer_and_counter_helpers_name_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: hybrid.model_rotary_mask(configs.load("gpt2")),
         "cfg must be a RoPE model from posenc.configs.load(), got 'gpt2'; e.g. configs.load('qwen3_next_80b_a3b')"),
        (lambda: hybrid.layer_kinds({"position": "rope"}),
         "cfg must be a RoPE or NoPE model from posenc.configs.load(), got 'dict'; "
         "e.g. configs.load('qwen3_next_80b_a3b') or configs.load('kimi_linear_48b')"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss")),
         "model 'gpt_oss' has no 'layers' field; pass n_layers to draw its pattern over that many layers"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss"), 0), "n_layers must be a positive integer, got 0; pass e.g. n_layers=12"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss"), 2.0), "n_layers must be a positive integer, got 2.0; pass e.g. n_layers=12"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss"), True), "n_layers must be a positive integer, got True; pass e.g. n_layers=12"),
        (lambda: hybrid.causal_counter(1), "n must be an integer of at least 2 tokens, got 1; pass e.g. n=8"),
        (lambda: hybrid.causal_counter(3.0), "n must be an integer of at least 2 tokens, got 3.0; pass e.g. n=8"),
        (lambda: hybrid.causal_counter(True), "n must be an integer of at least 2 tokens, got True; pass e.g. n=8"),
        (lambda: hybrid.causal_counter(4, causal=1), "causal must be True or False, got 1"),
        (lambda: hybrid.counter_position(0.0), "value must be a marker in (0, 1] (an output of causal_counter), got 0.0"),
        (lambda: hybrid.counter_position(1.5), "value must be a marker in (0, 1] (an output of causal_counter), got 1.5"),
        (lambda: hybrid.counter_position(True), "value must be a marker in (0, 1] (an output of causal_counter), got True"),
        (lambda: hybrid.counter_position("0.5"), "value must be a marker in (0, 1] (an output of causal_counter), got '0.5'"),
        (lambda: hybrid.counter_gap(-1), "t must be a non-negative integer position, got -1"),
        (lambda: hybrid.counter_gap(1.0), "t must be a non-negative integer position, got 1.0"),
        (lambda: hybrid.counter_gap(True), "t must be a non-negative integer position, got True"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_hybrid_edges():
    assert hybrid.rotary_mask(4).tolist() == [True] * 4  # a full rotary head by default
    assert hybrid.rotary_mask(8, 0.25).tolist() == [True, True] + [False] * 6
    deepseek = hybrid.model_rotary_mask(configs.load("deepseek_v3"))
    assert deepseek.dtype == bool and deepseek.tolist() == [True] * 64 + [False] * 128
    assert hybrid.model_rotary_mask(configs.load("qwen3_8b")).dtype == bool
    # Qwen3-Next: layer i is full attention when (i + 1) % 4 == 0 (transformers' layer_types)
    assert hybrid.layer_kinds(configs.load("qwen3_next_80b_a3b"), 8) == ["linear", "linear", "linear", "global"] * 2
    assert hybrid.layer_kinds(configs.load("gemma3_27b"), np.int64(6)) == ["local"] * 5 + ["global"]
    assert hybrid.layer_kinds(configs.load("gpt_oss"), 1) == ["local"]  # one layer is a valid stack
    assert hybrid.counter_position(1) == 0.0 and hybrid.counter_position(0.25) == 3.0
    assert hybrid.counter_gap(0) == 0.5 and hybrid.counter_gap(np.int64(1)) == pytest.approx(1 / 6, rel=1e-15)
    assert hybrid.causal_counter(np.int64(2)).tolist() == [1.0, 0.5]
    np.testing.assert_allclose(hybrid.causal_counter(3, causal=False), [1 / 3] * 3, rtol=1e-15)


# --- head dims and pattern periods ---------------------------------------------------------------------------------


def test_head_dims_against_facts_md():
    # facts.md §1–2: Qwen3-8B 128 dims, 24 of 64 pairs not turning in 32,768; Qwen3-Next 256 × 0.25 → 64,
    # 10 of 32 pairs not turning in 262,144; DeepSeek-V3 rope 64 + nope 128, 9 of 32 not turning in 4,096
    assert hybrid.head_dims(configs.load("qwen3_8b")) == hybrid.HeadDims(128, 128, 2 * (64 - 24))
    assert hybrid.head_dims(configs.load("qwen3_next_80b_a3b")) == hybrid.HeadDims(256, 64, 2 * (32 - 10))
    d = hybrid.head_dims(configs.load("deepseek_v3"))
    assert (d.width, d.rotary, d.turning, d.plain, d.not_turning) == (192, 64, 2 * (32 - 9), 128, 18)


def test_pattern_period_is_the_smallest_repeat():
    expected = {"llama4_scout": 4, "smollm3_3b": 4, "command_r7b": 4, "command_a": 4, "qwen3_next_80b_a3b": 4,
                "gemma3_27b": 6, "gpt_oss": 2, "glm45": 1, "qwen3_8b": 1, "jamba_v01": 8}
    for key, period in expected.items():
        cfg = configs.load(key)
        assert hybrid.pattern_period(cfg) == period, key
        pattern = hybrid.layer_pattern(cfg, 4 * period)
        assert pattern == pattern[:period] * 4, key
        assert all(pattern != pattern[:p] * (4 * period // p) for p in range(1, period) if (4 * period) % p == 0), key


# --- models without positions (Kimi Linear, Jamba) and p-RoPE ------------------------------------------------------


def test_kimi_linear_pattern_matches_transformers():
    from transformers.models.kimi_linear.configuration_kimi_linear import KimiLinearConfig

    cfg = configs.load("kimi_linear_48b")
    listed = cfg["full_attention_layers"]
    ref = KimiLinearConfig(num_hidden_layers=cfg["layers"], linear_attn_config={
        "full_attn_layers": listed, "kda_layers": [i for i in range(1, cfg["layers"] + 1) if i not in listed]})
    assert hybrid.layer_kinds(cfg) == ["global" if t == "full_attention" else "linear" for t in ref.layer_types]
    assert hybrid.rope_layers(cfg) == [False] * 27  # every released checkpoint: mla_use_nope
    # the tech report's 3:1 KDA-to-MLA design, six times over 24 layers, then KDA, KDA, MLA
    assert hybrid.layer_pattern(cfg) == (["linear"] * 3 + ["nope_global"]) * 6 + ["linear"] * 2 + ["nope_global"]
    assert hybrid.pattern_counts(cfg) == {"rope_global": 0, "rope_local": 0, "rope_chunked": 0, "nope_global": 7,
                                          "linear": 20, "mamba": 0}
    assert hybrid.pattern_period(cfg) == 27  # the last three layers break the 4-layer repeat


def test_jamba_pattern_matches_transformers():
    from transformers.models.jamba.configuration_jamba import JambaConfig

    cfg = configs.load("jamba_v01")
    ref = JambaConfig(num_hidden_layers=cfg["layers"], attn_layer_period=cfg["attention_layer_period"],
                      attn_layer_offset=cfg["attention_layer_offset"])
    assert hybrid.layer_kinds(cfg) == ["global" if t == "attention" else "mamba" for t in ref.layers_block_type]
    assert not any(hybrid.rope_layers(cfg))
    assert hybrid.pattern_counts(cfg)["nope_global"] == 4 and hybrid.pattern_counts(cfg)["mamba"] == 28  # 1 : 7
    assert hybrid.pattern_period(cfg) == 8
    assert hybrid.layer_pattern(cfg, 8) == ["mamba"] * 4 + ["nope_global"] + ["mamba"] * 3


@pytest.mark.parametrize("head_dim, base, p", [(256, 1e7, 0.25), (128, 1e6, 0.5), (96, 1e4, 0.25), (64, 5e5, 0.75),
                                               (128, 1e4, 1.0), (256, 1e6, 0.3)])
def test_p_rope_frequencies_equal_transformers_proportional_rope(head_dim, base, p):
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    ref_cfg = LlamaConfig(head_dim=head_dim, hidden_size=head_dim, num_attention_heads=1,
                          rope_parameters={"rope_type": "proportional", "partial_rotary_factor": p, "rope_theta": base})
    ref, _ = ROPE_INIT_FUNCTIONS["proportional"](ref_cfg)
    np.testing.assert_allclose(hybrid.p_rope_frequencies(head_dim, base, p), ref.double().numpy(), rtol=1e-6, atol=0)


def test_p_rope_keeps_the_fast_end_where_partial_rotary_keeps_the_whole_ladder():
    # Same number of turning pairs (a quarter of 128), two different frequency sets: p-RoPE keeps the full head's
    # 32 fastest pairs θ^(−2i/256); partial_rotary_factor spreads θ^(−2i/64) over 32 pairs, down to θ^(−62/64).
    theta = 1e7
    prope = hybrid.p_rope_frequencies(256, theta, 0.25)
    full = rope.inverse_frequencies(256, theta)
    partial = rope.inverse_frequencies(256, theta, 0.25)
    np.testing.assert_allclose(prope[:32], full[:32], rtol=1e-15)
    assert not prope[32:].any()
    assert prope[31] == pytest.approx(theta ** (-62 / 256)) and partial[-1] == pytest.approx(theta ** (-62 / 64))
    assert partial[-1] < 1e-6 < prope[31]  # one nearly as slow as 1/θ, the other turns in a few hundred tokens
