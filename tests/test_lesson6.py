"""Lesson 6: partial RoPE, layer patterns and the NoPE counter (posenc.hybrid), and the page's numbers.

References: transformers' own config classes for the layer patterns (their
``layer_types``), facts.md §1–2 for the rotary widths and counts, and the closed
form 1/(t + 1) of a softmax over t + 1 equal scores for the causal counter.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import configs, hybrid, rope
from posenc import examples as ex
from posenc import quantities as numbers
from expect import raises_exactly

FAST = settings(max_examples=30, deadline=None)


# --- which dims turn -----------------------------------------------------------------------------------------


@given(head=st.sampled_from([8, 64, 128, 256]), frac=st.sampled_from([0.25, 0.5, 1.0]))
@FAST
def test_rotary_mask_is_the_first_int_head_dim_times_fraction_dims(head, frac):
    mask = hybrid.rotary_mask(head, frac)
    dim = int(head * frac)  # transformers: dim = int(head_dim * partial_rotary_factor)
    assert mask.shape == (head,) and mask.sum() == dim
    assert mask[:dim].all() and not mask[dim:].any()


def test_model_masks_match_facts_md():
    # facts.md §1: Qwen3-Next 256 × 0.25 → 64 rotary dims; GLM-4.5 half of 128 → 64; DeepSeek-V3 rope 64 + nope 128
    for key, width, rot in (("qwen3_next_80b_a3b", 256, 64), ("glm45", 128, 64), ("deepseek_v3", 192, 64), ("qwen3_8b", 128, 128)):
        mask = hybrid.model_rotary_mask(configs.load(key))
        assert (mask.size, int(mask.sum())) == (width, rot), key
        assert mask[:rot].all(), key
    assert numbers.value("qwen3next_rotary_last_dim") == 63 and numbers.value("qwen3next_last_dim") == 255
    assert hybrid.model_rotary_mask(configs.load("glm45")).mean() == pytest.approx(0.5)
    assert hybrid.model_rotary_mask(configs.load("deepseek_v3")).size == 192


@given(shift=st.integers(0, 100_000), seed=st.integers(0, 2**16))
@FAST
def test_pass_through_dims_add_a_position_free_term(shift, seed):
    """Partial RoPE: score = rotated part (depends on n − m) + pass-through part (no position at all)."""
    head, frac = 16, 0.25
    mask = hybrid.rotary_mask(head, frac)
    inv = rope.inverse_frequencies(head, 10_000, frac)
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 5, head))
    pos = np.arange(5) + shift
    qr, kr = rope.rotate(q, pos, inv, "half"), rope.rotate(k, pos, inv, "half")
    pass_part = q[:, ~mask] @ k[:, ~mask].T
    np.testing.assert_array_equal(qr[:, ~mask], q[:, ~mask])
    np.testing.assert_allclose(qr @ kr.T - qr[:, mask] @ kr[:, mask].T, pass_part, atol=1e-12)
    q0, k0 = rope.rotate(q, np.arange(5), inv, "half"), rope.rotate(k, np.arange(5), inv, "half")
    np.testing.assert_allclose(qr @ kr.T, q0 @ k0.T, atol=1e-9)


def _turning_dims_by_loop(head_dim, theta, L, frac=1.0):
    d = int(head_dim * frac)
    return 2 * sum(1 for i in range(d // 2) if 2 * math.pi * theta ** (2 * i / d) <= L)


def test_turning_dims():
    assert numbers.value("turning_dims_qwen3_8b") == _turning_dims_by_loop(128, 1e6, 32_768) == 2 * (64 - 24)
    assert numbers.value("turning_dims_qwen3_next_80b_a3b") == _turning_dims_by_loop(256, 1e7, 262_144, 0.25) == 2 * (32 - 10)
    assert numbers.value("turning_dims_share_qwen3_next_80b_a3b") == pytest.approx(44 / 256)
    assert numbers.value("turning_dims_share_glm45") == pytest.approx(_turning_dims_by_loop(128, 1e6, 131_072, 0.5) / 128)


# --- layer patterns against transformers' config classes --------------------------------------------------------


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


def test_layer_counts_quoted_on_the_page():
    kinds = hybrid.layer_kinds(configs.load("qwen3_next_80b_a3b"))
    assert len(kinds) == 48 and kinds.count("global") == 12  # facts.md §1: every 4th of 48 layers
    assert numbers.value("qwen3next_full_attention_share") == pytest.approx(0.25)
    assert numbers.value("qwen3next_first_full_layer") == 4
    assert hybrid.layer_kinds(configs.load("gemma3_27b"), 12).index("global") + 1 == 6  # 5 local then 1 global
    assert numbers.value("gemma3_global_share") == pytest.approx(1 / 6)
    assert hybrid.layer_kinds(configs.load("qwen3_8b"), 5) == ["global"] * 5


def test_gemma3_local_and_global_spectra():
    # local layers: θ 10,000 within the 1,024-token window; global: θ 1,000,000 divided by the linear factor 8
    local_not = sum(1 for i in range(64) if 2 * math.pi * 1e4 ** (2 * i / 128) > 1024)
    assert numbers.value("gemma3_local_pairs_not_turning_in_window") == local_not
    assert numbers.value("gemma3_local_turning_pairs_in_window") == 64 - local_not
    global_not = sum(1 for i in range(64) if 8 * 2 * math.pi * 1e6 ** (2 * i / 128) > 131_072)
    assert numbers.value("gemma3_global_pairs_not_turning_scaled") == global_not


# --- NoPE: the causal counter --------------------------------------------------------------------------------------


@given(n=st.integers(2, 300))
@FAST
def test_causal_counter_is_one_over_t_plus_one(n):
    out = hybrid.causal_counter(n)
    np.testing.assert_allclose(out, 1.0 / (np.arange(n) + 1), rtol=1e-12)
    np.testing.assert_allclose([hybrid.counter_position(float(v)) for v in out], np.arange(n), atol=1e-9)
    np.testing.assert_allclose(hybrid.causal_counter(n, causal=False), np.full(n, 1.0 / n), rtol=1e-12)


def test_counter_numbers():
    n = len(ex.SENTENCE)
    for t in range(n):
        assert numbers.value(f"nope_marker_{t}") == pytest.approx(1 / (t + 1))
        assert numbers.value(f"nope_recovered_{t}") == pytest.approx(t)
    assert numbers.value("nope_marker_bidirectional") == pytest.approx(1 / n)
    assert numbers.value("nope_gap_near") == pytest.approx(1 / 4 - 1 / 5)  # t = 3
    assert hybrid.counter_gap(32_768) == pytest.approx(1 / 32_769 - 1 / 32_770)
    assert numbers.text("nope_gap_far").startswith("9.3×10")


# --- bad input ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, word",
    [
        (lambda: hybrid.rotary_mask(128, 0.0), "rotary_fraction"),
        (lambda: hybrid.rotary_mask(-4), "head_dim"),
        (lambda: hybrid.model_rotary_mask(configs.load("gpt2")), "cfg"),
        (lambda: hybrid.layer_kinds(configs.load("gemma3_27b")), "n_layers"),
        (lambda: hybrid.layer_kinds(configs.load("gpt_oss"), 0), "n_layers"),
        (lambda: hybrid.causal_counter(1), "n"),
        (lambda: hybrid.causal_counter(4, causal="yes"), "causal"),
        (lambda: hybrid.counter_position(0.0), "value"),
        (lambda: hybrid.counter_gap(-1), "t"),
    ],
)
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()


# --- exact messages and edges ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: hybrid.model_rotary_mask(configs.load("gpt2")),
         "cfg must be a RoPE model from posenc.configs.load(), got 'gpt2'; e.g. configs.load('qwen3_next_80b_a3b')"),
        (lambda: hybrid.layer_kinds({"position": "rope"}),
         "cfg must be a RoPE model from posenc.configs.load(), got 'dict'; e.g. configs.load('qwen3_next_80b_a3b')"),
        (lambda: hybrid.layer_kinds(configs.load("gemma3_27b")),
         "model 'gemma3_27b' has no 'layers' field; pass n_layers to draw its pattern over that many layers"),
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
