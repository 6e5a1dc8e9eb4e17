"""posenc.hybrid's layer patterns and RoPE shares against transformers' configuration and modeling code."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import configs, hybrid

import torch  # a hard dependency: a missing torch fails, never skips
from transformers import AttentionInterface  # noqa: E402
from transformers.models.cohere2.configuration_cohere2 import Cohere2Config  # noqa: E402
from transformers.models.llama4.configuration_llama4 import Llama4TextConfig  # noqa: E402
from transformers.models.llama4.modeling_llama4 import Llama4TextAttention  # noqa: E402
from transformers.models.qwen3_next.configuration_qwen3_next import Qwen3NextConfig  # noqa: E402
from transformers.models.qwen3_next.modeling_qwen3_next import (  # noqa: E402
    Qwen3NextAttention, Qwen3NextGatedDeltaNet, Qwen3NextRotaryEmbedding)
from transformers.models.smollm3.configuration_smollm3 import SmolLM3Config  # noqa: E402

FAST = settings(max_examples=30, deadline=None)


# --- layer patterns from the configs vs transformers' own rules ---------------------------------------------


def test_llama4_scout_pattern_matches_transformers():
    cfg = configs.load("llama4_scout")
    ref = Llama4TextConfig(num_hidden_layers=cfg["layers"], no_rope_layer_interval=cfg["nope_layer_interval"],
                           attention_chunk_size=cfg["attention_chunk_size"])
    assert hybrid.rope_layers(cfg) == [bool(x) for x in ref.no_rope_layers]  # 1 = RoPE in transformers
    assert hybrid.layer_kinds(cfg) == ["chunked" if t == "chunked_attention" else "global" for t in ref.layer_types]
    assert hybrid.pattern_counts(cfg) == {"rope_global": 0, "rope_local": 0, "rope_chunked": 36, "nope_global": 12, "linear": 0}


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


# --- the real share of q/k dims with RoPE --------------------------------------------------------------------


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


# --- Llama 4's query temperature on NoPE layers ---------------------------------------------------------------


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
    (lambda: hybrid.rope_layers(configs.load("gpt2")), "RoPE model"),
    (lambda: hybrid.llama4_attn_scale([-1, 2]), "non-negative"),
    (lambda: hybrid.llama4_attn_scale([1, 2], floor_scale=0), "floor_scale"),
    (lambda: hybrid.llama4_attn_scale([1, 2], attn_scale=-0.1), "attn_scale"),
    (lambda: hybrid.layer_pattern(configs.load("gemma3_27b")), "n_layers"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
