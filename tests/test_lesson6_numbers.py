"""Lesson 6's new computations and the numbers its page quotes.

References: hand-built 2×2 rotation blocks and lesson 3's Σcos closed form for the self-score;
facts.md §1 and the configs' own values (typed here, not read back) for head dims, layer
counts, the q/k shares and DeepSeek-V3's cache; DeepSeek-V2 §2.1 for absorption; Llama 4's
formula 1 + a·ln(⌊(p+1)/f⌋ + 1) for its NoPE query scale.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from posenc import configs, hybrid, mla, rope, sinusoidal
from posenc import examples as ex
from posenc import quantities as q

FAST = settings(max_examples=30, deadline=None)


# --- a vector scored against itself -------------------------------------------------------------------------


def _blocks(angles: np.ndarray, dim: int, convention: str) -> np.ndarray:
    """The full rotation matrix, built pair by pair from 2×2 blocks (independent of posenc.rope.rotate)."""
    r = np.eye(dim)
    half = len(angles)
    for i, a in enumerate(angles):
        x, y = (2 * i, 2 * i + 1) if convention == "interleaved" else (i, i + half)
        r[[x, x, y, y], [x, y, x, y]] = [math.cos(a), -math.sin(a), math.sin(a), math.cos(a)]
    return r


@FAST
@given(pairs=st.integers(1, 8), extra=st.integers(0, 3), seed=st.integers(0, 2**16),
       convention=st.sampled_from(["interleaved", "half"]), k=st.integers(0, 5000))
@example(pairs=4, extra=0, seed=0, convention="half", k=0)
def test_self_scores_equal_rotation_matrices_and_the_closed_form(pairs, extra, seed, convention, k):
    dim = 2 * pairs + 2 * extra  # extra dims: partial RoPE's pass-through part
    qv = np.random.default_rng(seed).standard_normal(dim)
    inv = rope.inverse_frequencies(2 * pairs, 10_000)
    m = 7
    ref = (_blocks(m * inv, dim, convention) @ qv) @ (_blocks((m + k) * inv, dim, convention) @ qv)
    got = rope.self_scores(qv, [k], inv, convention)[0]
    closed = rope.self_scores_closed_form(qv, [k], inv, convention)[0]
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-9)
    assert closed == pytest.approx(ref, rel=1e-9, abs=1e-9)


def test_unit_pairs_give_lesson_threes_curve():
    d, ks = ex.SIN_DIM, np.arange(ex.MAX_DISTANCE + 1)
    unit = np.zeros(d)
    unit[1::2] = 1.0  # every pair (0, 1): length 1, not (1, 0), and the curve is the same
    curve = rope.self_scores(unit, ks, rope.inverse_frequencies(d, ex.DEFAULT_BASE))
    np.testing.assert_allclose(curve, [sinusoidal.dot_closed_form(int(k), d) for k in ks], atol=1e-9)


def test_pair_energies_follow_the_layout():
    v = np.arange(1.0, 9.0)  # 1 … 8
    np.testing.assert_array_equal(rope.pair_energies(v, 4, "interleaved"), [1 + 4, 9 + 16, 25 + 36, 49 + 64])
    np.testing.assert_array_equal(rope.pair_energies(v, 4, "half"), [1 + 25, 4 + 36, 9 + 49, 16 + 64])
    np.testing.assert_array_equal(rope.pair_energies(v, 2, "half"), [1 + 9, 4 + 16])  # partial: rotary dims only


def test_self_score_numbers():
    qv = np.random.default_rng(ex.SELF_SCORE_SEED).standard_normal(ex.SIN_DIM)
    ks = np.arange(ex.MAX_DISTANCE + 1)
    omega = ex.DEFAULT_BASE ** (-2 * np.arange(ex.SIN_DIM // 2) / ex.SIN_DIM)
    ref = np.array([(_blocks(0 * omega, ex.SIN_DIM, "interleaved") @ qv) @ (_blocks(k * omega, ex.SIN_DIM, "interleaved") @ qv)
                    for k in ks])
    assert q.value("l6_self_score_start") == pytest.approx(qv @ qv)
    assert q.value("l6_self_score_min") == pytest.approx(ref.min())
    assert q.value("l6_self_score_min_k") == int(np.argmin(ref))
    assert q.value("l6_self_score_min_share") == pytest.approx(ref.min() / ref[0])
    energies = qv[0::2] ** 2 + qv[1::2] ** 2
    assert q.value("l6_self_heaviest_pair") == int(np.argmax(energies))
    assert q.text("l6_self_energies") == "、".join(f"{e:.2f}" for e in energies)
    sin_curve = [sinusoidal.dot_closed_form(int(k), ex.SIN_DIM) for k in ks]
    assert q.value("l6_sum_cos_min_share") == pytest.approx(min(sin_curve) / sin_curve[0])
    assert q.value("l6_self_score_min_share") > 0 > q.value("l6_sum_cos_min_share")  # the page's contrast


# --- head dims, layer patterns, periods -----------------------------------------------------------------------


def test_head_dims_against_facts_md():
    # facts.md §1–2: Qwen3-8B 128 dims, 24 of 64 pairs not turning in 32,768; Qwen3-Next 256 × 0.25 → 64,
    # 10 of 32 pairs not turning in 262,144; DeepSeek-V3 rope 64 + nope 128, 9 of 32 not turning in 4,096
    assert hybrid.head_dims(configs.load("qwen3_8b")) == hybrid.HeadDims(128, 128, 2 * (64 - 24))
    assert hybrid.head_dims(configs.load("qwen3_next_80b_a3b")) == hybrid.HeadDims(256, 64, 2 * (32 - 10))
    d = hybrid.head_dims(configs.load("deepseek_v3"))
    assert (d.width, d.rotary, d.turning, d.plain, d.not_turning) == (192, 64, 2 * (32 - 9), 128, 18)


def test_pattern_period_is_the_smallest_repeat():
    expected = {"llama4_scout": 4, "smollm3_3b": 4, "command_r7b": 4, "command_a": 4, "qwen3_next_80b_a3b": 4,
                "gemma3_27b": 6, "gpt_oss": 2, "glm45": 1, "qwen3_8b": 1}
    for key, period in expected.items():
        cfg = configs.load(key)
        assert hybrid.pattern_period(cfg) == period, key
        pattern = hybrid.layer_pattern(cfg, 4 * period)
        assert pattern == pattern[:period] * 4, key
        assert all(pattern != pattern[:p] * (4 * period // p) for p in range(1, period) if (4 * period) % p == 0), key


def test_layer_counts_on_the_page():
    # no_rope_layers of the released configs: [1,1,1,0] × 12 (Llama 4 Scout, 48 layers), SmolLM3 36 layers
    # every 4th NoPE; Cohere2 sliding_window_pattern 4 over 32 (R7B) and 64 (A) layers
    for key, rope_n, nope_n in (("llama4_scout", 36, 12), ("smollm3_3b", 27, 9), ("command_r7b", 24, 8), ("command_a", 48, 16)):
        assert (q.value(f"rope_layers_{key}"), q.value(f"nope_layers_{key}")) == (rope_n, nope_n), key
    assert q.value("rope_layers_qwen3_next_80b_a3b") == 12 and q.value("qwen3next_deltanet_layers") == 36
    assert q.value("nope_layer_period") == 4 and q.value("gemma3_period") == 6
    assert q.value("gptoss_full_attention_share") == pytest.approx(0.5)
    assert q.text("ex_smollm3_nope_layer_numbers") == "、".join(str(i) for i in range(4, 37, 4))
    assert q.text("ex_gemma_global_layers") == "6、12" and q.value("ex_gemma_globals") == 2


def test_qwen3_next_shares_by_hand():
    # config: 48 layers, every 4th full attention (16 q heads, 2 kv heads, head_dim 256, 64 of them rotary);
    # the other 36 Gated DeltaNet, q and k each 16 heads × 128
    qd, qr = 12 * 16 * 256 + 36 * 16 * 128, 12 * 16 * 64
    kd, kr = 12 * 2 * 256 + 36 * 16 * 128, 12 * 2 * 64
    assert (q.value("query_dims_qwen3_next_80b_a3b"), q.value("query_rope_dims_qwen3_next_80b_a3b")) == (qd, qr)
    assert (q.value("key_dims_qwen3_next_80b_a3b"), q.value("key_rope_dims_qwen3_next_80b_a3b")) == (kd, kr)
    assert q.value("rope_query_share_qwen3_next_80b_a3b") == pytest.approx(0.10)
    assert q.text("rope_key_share_qwen3_next_80b_a3b") == "1.92%"
    assert q.value("qwen3next_rope_layer_dim_share") == pytest.approx(0.25 * 0.25)
    assert q.value("qwen3next_linear_qk_dims") == 16 * 128


# --- MLA --------------------------------------------------------------------------------------------------------


def test_deepseek_cache_numbers():
    mla_elems, mha_elems = (512 + 64) * 61, 128 * (128 + 64 + 128) * 61
    assert q.value("mla_cache_elements_deepseek_v3") == mla_elems
    assert q.value("mha_cache_elements_deepseek_v3") == mha_elems
    assert q.value("mla_cache_kib_deepseek_v3") == pytest.approx(2 * mla_elems / 1024)
    assert q.value("mha_cache_kib_deepseek_v3") == pytest.approx(2 * mha_elems / 1024)
    assert q.value("mla_cache_ratio_deepseek_v3") == pytest.approx(mha_elems / mla_elems)
    assert q.value("deepseek_qk_head_dim") == 192
    assert q.value("rope_query_share_deepseek_v3") == pytest.approx(64 / 192)


@FAST
@given(seed=st.integers(0, 10_000), rope_dim=st.sampled_from([2, 4, 8]))
def test_absorption_demo_holds_fails_holds(seed, rope_dim):
    demo = mla.absorption_demo(8, 6, 5, 7, rope_dim, 10_000, seed)
    assert demo.plain <= 1e-12 * demo.max_score
    assert demo.decoupled <= 1e-12 * max(demo.max_score, 1.0) * 10
    assert demo.rope_on_keys > 1e-3 * demo.max_score


def test_absorption_numbers_on_the_page():
    demo = mla.absorption_demo(base=ex.DEFAULT_BASE, **ex.MLA_DEMO)
    inst = mla.random_instance(ex.MLA_DEMO["head_dim"], ex.MLA_DEMO["q_rank"], ex.MLA_DEMO["kv_rank"],
                               ex.MLA_DEMO["length"], ex.MLA_DEMO["seed"])
    # the explicit scores, built here from the instance's matrices with hand-made rotation blocks
    omega = ex.DEFAULT_BASE ** (-2 * np.arange(ex.MLA_DEMO["head_dim"] // 2) / ex.MLA_DEMO["head_dim"])
    qs, ks = inst.c_q @ inst.w_uq.T, inst.c_kv @ inst.w_uk.T
    rot = [_blocks(t * omega, ex.MLA_DEMO["head_dim"], "interleaved") for t in range(ex.MLA_DEMO["length"])]
    explicit = np.array([[(rot[t] @ qs[t]) @ (rot[s] @ ks[s]) for s in range(len(ks))] for t in range(len(qs))])
    absorbed = inst.c_q @ (inst.w_uq.T @ inst.w_uk) @ inst.c_kv.T
    assert q.value("mla_gap_rope_on_keys") == pytest.approx(np.abs(explicit - absorbed).max())
    assert q.value("mla_max_score") == pytest.approx(np.abs(explicit).max())
    assert demo.plain < 1e-12 and demo.decoupled < 1e-12
    assert q.text("mla_gap_plain").endswith(("⁻¹⁴", "⁻¹⁵", "⁻¹⁶")) and q.text("mla_gap_decoupled").endswith(("⁻¹³", "⁻¹⁴", "⁻¹⁵", "⁻¹⁶"))


# --- Llama 4 ----------------------------------------------------------------------------------------------------


def test_llama4_scale_numbers():
    # released config: floor_scale 8192, attn_scale 0.1
    assert q.value("llama4_scale_onset") == 8191
    assert q.value("llama4_scale_at_onset") == pytest.approx(1 + 0.1 * math.log(2))
    assert q.value("llama4_scale_far") == pytest.approx(1 + 0.1 * math.log(math.floor(10_000_000 / 8192) + 1))


# --- bad input --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call, match", [
    (lambda: rope.pair_energies(np.ones(4), 3), "n_pairs"),
    (lambda: rope.pair_energies(np.ones(4), 1, "sideways"), "convention"),
    (lambda: rope.self_scores(np.ones((2, 4)), [0], rope.inverse_frequencies(4, 10_000)), "q must be one"),
    (lambda: rope.self_scores(np.ones(4), [-1], rope.inverse_frequencies(4, 10_000)), "distances"),
    (lambda: rope.self_scores_closed_form(np.ones(2), [1], rope.inverse_frequencies(4, 10_000)), "inv_freq"),
    (lambda: hybrid.pattern_period(configs.load("gpt2")), "RoPE model"),
    (lambda: hybrid.head_dims(configs.load("gpt2")), "RoPE model"),
    (lambda: mla.absorption_demo(8, 6, 5, 7, 3, 10_000, 0), "rope_head_dim"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
