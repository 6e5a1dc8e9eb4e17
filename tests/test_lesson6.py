"""Lesson 6 (partial RoPE, NoPE layers, MLA): the numbers the page quotes and every figure.

What the tests compare against, part by part:

- Lesson 6: partial RoPE, layer patterns and the NoPE counter (posenc.hybrid), and the page's numbers. References:
  transformers' own config classes for the layer patterns (their ``layer_types``), facts.md §1–2 for the rotary
  widths and counts, and the closed form 1/(t + 1) of a softmax over t + 1 equal scores for the causal counter.
- Lesson 6's new computations and the numbers its page quotes. References: hand-built 2×2 rotation blocks and lesson
  3's Σcos closed form for the self-score; facts.md §1 and the configs' own values (typed here, not read back) for
  head dims, layer counts, the q/k shares and DeepSeek-V3's cache; DeepSeek-V2 §2.1 for absorption; Llama 4's
  formula 1 + a·ln(⌊(p+1)/f⌋ + 1) for its NoPE query scale.
- What lesson 6's and the M-RoPE page's figures show, and that they fit a phone. Each
  figure is drawn as the build draws it (tests/figure_support.py) and its plotted data and labels are read back and
  compared, in order, with what posenc computes and, where a closed form or the configs' own values exist, with
  those. A reversed or truncated series fails.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from figures_src import _style
from figures_src import lesson6 as figures_lesson6
from posenc import configs, hybrid
from posenc import configs, hybrid, mla
from posenc import configs, hybrid, mla, sinusoidal
from posenc import examples as ex
from posenc import quantities as numbers
from posenc import quantities as q
from posenc.quantities import text as num
from figures_src.build import load_all
from figure_support import ax_texts, bar_heights, drawn, legend_labels, rect_rows, registered, rgb, tick_labels


def test_model_masks_match_facts_md():
    # facts.md §1: Qwen3-Next 256 × 0.25 → 64 rotary dims; GLM-4.5 half of 128 → 64; DeepSeek-V3 rope 64 + nope 128
    for key, width, rot in (("qwen3_next_80b_a3b", 256, 64), ("glm45", 128, 64), ("deepseek_v3", 192, 64), ("qwen3_8b", 128, 128)):
        mask = hybrid.model_rotary_mask(configs.load(key))
        assert (mask.size, int(mask.sum())) == (width, rot), key
        assert mask[:rot].all(), key
    assert numbers.value("qwen3next_rotary_last_dim") == 63 and numbers.value("qwen3next_last_dim") == 255
    assert hybrid.model_rotary_mask(configs.load("glm45")).mean() == pytest.approx(0.5)
    assert hybrid.model_rotary_mask(configs.load("deepseek_v3")).size == 192


def _turning_dims_by_loop(head_dim, theta, L, frac=1.0):
    d = int(head_dim * frac)
    return 2 * sum(1 for i in range(d // 2) if 2 * math.pi * theta ** (2 * i / d) <= L)


def test_turning_dims():
    assert numbers.value("turning_dims_qwen3_8b") == _turning_dims_by_loop(128, 1e6, 32_768) == 2 * (64 - 24)
    assert numbers.value("turning_dims_qwen3_next_80b_a3b") == _turning_dims_by_loop(256, 1e7, 262_144, 0.25) == 2 * (32 - 10)
    assert numbers.value("turning_dims_share_qwen3_next_80b_a3b") == pytest.approx(44 / 256)
    assert numbers.value("turning_dims_share_glm45") == pytest.approx(_turning_dims_by_loop(128, 1e6, 131_072, 0.5) / 128)


def test_layer_counts_quoted_on_the_page():
    kinds = hybrid.layer_kinds(configs.load("qwen3_next_80b_a3b"))
    assert len(kinds) == 48 and kinds.count("global") == 12  # facts.md §1: every 4th of 48 layers
    assert numbers.value("qwen3next_full_attention_share") == pytest.approx(0.25)
    assert numbers.value("qwen3next_first_full_layer") == 4
    assert hybrid.layer_kinds(configs.load("gemma3_27b"), 12).index("global") + 1 == 6  # 5 local then 1 global
    assert numbers.value("gemma3_global_share") == pytest.approx(10 / 62)  # 62 layers, global where (i + 1) % 6 == 0
    assert hybrid.layer_kinds(configs.load("qwen3_8b"), 5) == ["global"] * 5


def test_gemma3_local_and_global_spectra():
    # local layers: θ 10,000 within the 1,024-token window; global: θ 1,000,000 divided by the linear factor 8
    local_not = sum(1 for i in range(64) if 2 * math.pi * 1e4 ** (2 * i / 128) > 1024)
    assert numbers.value("gemma3_local_pairs_not_turning_in_window") == local_not
    assert numbers.value("gemma3_local_turning_pairs_in_window") == 64 - local_not
    global_not = sum(1 for i in range(64) if 8 * 2 * math.pi * 1e6 ** (2 * i / 128) > 131_072)
    assert numbers.value("gemma3_global_pairs_not_turning_scaled") == global_not


def test_counter_numbers():
    n = len(ex.SENTENCE)
    for t in range(n):
        assert numbers.value(f"nope_marker_{t}") == pytest.approx(1 / (t + 1))
        assert numbers.value(f"nope_recovered_{t}") == pytest.approx(t)
    assert numbers.value("nope_marker_bidirectional") == pytest.approx(1 / n)
    assert numbers.value("nope_gap_near") == pytest.approx(1 / 4 - 1 / 5)  # t = 3
    assert hybrid.counter_gap(32_768) == pytest.approx(1 / 32_769 - 1 / 32_770)
    assert numbers.text("nope_gap_far").startswith("9.3×10")


def _blocks(angles: np.ndarray, dim: int, convention: str) -> np.ndarray:
    """The full rotation matrix, built pair by pair from 2×2 blocks (independent of posenc.rope.rotate)."""
    r = np.eye(dim)
    half = len(angles)
    for i, a in enumerate(angles):
        x, y = (2 * i, 2 * i + 1) if convention == "interleaved" else (i, i + half)
        r[[x, x, y, y], [x, y, x, y]] = [math.cos(a), -math.sin(a), math.sin(a), math.cos(a)]
    return r


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
    assert q.text("l6_self_energies", "en") == ", ".join(f"{e:.2f}" for e in energies)  # a list, joined as English joins one
    sin_curve = [sinusoidal.dot_closed_form(int(k), ex.SIN_DIM) for k in ks]
    assert q.value("l6_sum_cos_min_share") == pytest.approx(min(sin_curve) / sin_curve[0])
    assert q.value("l6_self_score_min_share") > 0 > q.value("l6_sum_cos_min_share")  # the page's contrast


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
    assert q.text("ex_smollm3_nope_layer_numbers", "en") == ", ".join(str(i) for i in range(4, 37, 4))
    assert q.text("ex_gemma_global_layers", "en") == "6, 12"


def test_partial_rotary_of_2021_to_2023_by_hand():
    # GPT-J: pe_rotary_dims 64 of d_head 256; GPT-NeoX-20B: 6144 / 64 = 96 per head, rotary_pct 0.25;
    # Pythia-6.9B: 4096 / 32 = 128, rotary_pct 0.25
    for key, rot in (("gptj_6b", 64), ("gpt_neox_20b", 24), ("pythia_6_9b", 32)):
        assert q.value(f"rope_rotary_dim_{key}") == rot, key
        assert q.value(f"rope_rotary_share_{key}") == pytest.approx(0.25), key


def test_partial_rotary_against_p_rope_by_hand():
    # Qwen3-Next: head 256, 64 rotary dims, θ 1e7 (unverified), context 262,144. The whole head's slowest pair is
    # θ^(−254/256); transformers' partial RoPE spreads θ^(−2i/64) so its slowest is θ^(−62/64); p-RoPE keeps the full
    # head's fastest 32 pairs, the slowest of them θ^(−62/256).
    theta, L = 1e7, 262_144
    assert q.value("qwen3next_slowest_period_full_head") == pytest.approx(2 * math.pi * theta ** (254 / 256))
    assert q.value("qwen3next_slowest_period_partial") == pytest.approx(2 * math.pi * theta ** (62 / 64))
    assert q.value("qwen3next_slowest_period_prope") == pytest.approx(2 * math.pi * theta ** (62 / 256))
    assert q.value("qwen3next_pairs_full_head") == 128 and q.value("qwen3next_prope_pairs") == 32
    assert q.value("qwen3next_pairs_not_turning_full_head") == sum(
        1 for i in range(128) if 2 * math.pi * theta ** (2 * i / 256) > L)
    assert q.value("qwen3next_prope_pairs_not_turning") == 0
    # exercise 6, GPT-NeoX-20B (head 96, 24 rotary dims, θ 10,000, context 2,048)
    assert q.value("ex_neox_pairs") == 12
    assert q.value("ex_neox_slowest_period_partial") == pytest.approx(2 * math.pi * 1e4 ** (22 / 24))
    assert q.value("ex_neox_slowest_period_prope") == pytest.approx(2 * math.pi * 1e4 ** (22 / 96))
    assert q.value("ex_neox_pairs_not_turning_partial") == sum(1 for i in range(12) if 2 * math.pi * 1e4 ** (2 * i / 24) > 2048)
    assert q.value("ex_neox_pairs_not_turning_prope") == 0


def test_wavelength_steps_separate_dims_from_base():
    # θ^(2/d_rot): Qwen3-8B 1e6 over 128 dims; Qwen3-Next's 64 rotary dims at the same base; then at its own 1e7
    assert q.value("wavelength_step_qwen3_8b") == pytest.approx(1e6 ** (2 / 128))
    assert q.value("wavelength_step_qwen3next_dims_at_qwen3_8b_base") == pytest.approx(1e6 ** (2 / 64))
    assert q.value("wavelength_step_qwen3next") == pytest.approx(1e7 ** (2 / 64))
    assert q.text("wavelength_step_qwen3next_dims_at_qwen3_8b_base") == "1.540"


def test_no_position_in_any_attention_layer_counts():
    # Kimi Linear 48B: full_attn_layers [4, 8, 12, 16, 20, 24, 27] of 27; Jamba v0.1: attention where i % 8 == 4, 32 layers
    assert (q.value("nope_layers_kimi_linear_48b"), q.value("nope_other_layers_kimi_linear_48b")) == (7, 20)
    assert (q.value("nope_layers_jamba_v01"), q.value("nope_other_layers_jamba_v01")) == (4, 28)
    assert q.text("ex_kimi_mla_layer_numbers") == "4、8、12、16、20、24、27"
    assert q.text("ex_kimi_mla_layer_numbers", "en") == "4, 8, 12, 16, 20, 24, 27"


def test_mistral_pairs_within_its_window():
    # every layer of Mistral 7B v0.1 slides a 4,096-token window; head 128, θ 10,000 (Llama 2 7B's θ, dims and length)
    assert q.value("rope_pairs_not_turning_window_mistral_7b_v01") == sum(
        1 for i in range(64) if 2 * math.pi * 1e4 ** (2 * i / 128) > 4096) == q.value("rope_pairs_not_turning_llama2_7b")


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


def test_deepseek_cache_numbers():
    mla_elems, mha_elems = (512 + 64) * 61, 128 * (128 + 64 + 128) * 61
    assert q.value("mla_cache_elements_deepseek_v3") == mla_elems
    assert q.value("mha_cache_elements_deepseek_v3") == mha_elems
    assert q.value("mla_cache_kib_deepseek_v3") == pytest.approx(2 * mla_elems / 1024)
    assert q.value("mha_cache_kib_deepseek_v3") == pytest.approx(2 * mha_elems / 1024)
    assert q.value("mla_cache_ratio_deepseek_v3") == pytest.approx(mha_elems / mla_elems)
    assert q.value("deepseek_qk_head_dim") == 192
    assert q.value("rope_query_share_deepseek_v3") == pytest.approx(64 / 192)


def test_gemma3_global_share_counts_the_whole_27b_model():
    from transformers import Gemma3TextConfig

    # transformers' rule: layer i is full attention when (i + 1) % sliding_window_pattern == 0 (pattern 6)
    types = Gemma3TextConfig(num_hidden_layers=62).layer_types
    assert types.count("full_attention") == 10
    assert q.value("gemma3_global_share") == pytest.approx(10 / 62)
    assert q.text("gemma3_global_share") == "16.1%"  # not 1/6 = 16.7%: 62 layers end on two local ones


def test_cache_factors_with_keys_as_wide_as_values():
    # DeepSeek-V2 Table 1: MHA 2·n_h·d_h·l, GQA 2·n_g·d_h·l, MLA (d_c + d_R)·l; here d_h = 128 (V3's v_head_dim),
    # n_h = 128, n_g = 8 (Llama 3 8B), l = 61, d_c = 512, d_R = 64
    mla_elems, gqa_elems, mha_elems = (512 + 64) * 61, 2 * 8 * 128 * 61, 2 * 128 * 128 * 61
    assert q.value("gqa_cache_elements_deepseek_v3_equal_kv") == gqa_elems
    assert q.value("gqa_cache_ratio_deepseek_v3_equal_kv") == pytest.approx(gqa_elems / mla_elems)
    assert q.text("gqa_cache_ratio_deepseek_v3_equal_kv") == "3.6"
    assert q.value("mha_cache_ratio_deepseek_v3_equal_kv") == pytest.approx(mha_elems / mla_elems)
    assert q.text("mha_cache_ratio_deepseek_v3_equal_kv") == "57"
    # with V3's own wider keys (128 + 64) both factors are larger
    assert q.value("gqa_cache_ratio_deepseek_v3") > q.value("gqa_cache_ratio_deepseek_v3_equal_kv")


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


def test_llama4_scale_numbers():
    # released config: floor_scale 8192, attn_scale 0.1
    assert q.value("llama4_scale_onset") == 8191
    assert q.value("llama4_scale_at_onset") == pytest.approx(1 + 0.1 * math.log(2))
    assert q.value("llama4_scale_far") == pytest.approx(1 + 0.1 * math.log(math.floor(10_000_000 / 8192) + 1))


# --- figures -------------------------------------------------------------------------------------------------------


def test_partial_rotary_dims_draws_each_models_segments():
    # facts.md §1: Qwen3-8B turns all 128 dims; GLM-4.5 64 of 128; Qwen3-Next 64 of 256 (partial 0.25)
    expected_rotary = {"qwen3_8b": (128, 128), "glm45": (128, 64), "qwen3_next_80b_a3b": (256, 64)}
    with drawn("partial_rotary_dims") as fig:
        ax = fig.axes[0]
        rows = rect_rows(ax)
        assert len(rows) == len(ex.PARTIAL_MODELS)
        for row, key, title in zip(rows, ex.PARTIAL_MODELS, ax_texts(ax)):
            d = hybrid.head_dims(configs.load(key))
            assert (d.width, d.rotary) == expected_rotary[key]
            widths = [r.get_width() for r in row]
            assert widths == [w for w in (d.turning, d.not_turning, d.plain) if w > 0], key
            assert row[0].get_x() == 0 and sum(widths) == d.width
            assert title.startswith(configs.load(key).name.split(" (")[0]) and f"{d.width} 维里 {d.rotary} 维旋转" in title
        assert tick_labels(ax, "x") == ["0", "64", "128", "192", "256"]
        assert legend_labels(fig) == ["旋转，上下文内转得满一圈", "旋转，转不满一圈", "不旋转（不带位置）"]


def _kind_of(rect, theme) -> str:
    """Back from a drawn cell to its layer kind: hatched = NoPE, else by face colour."""
    if rect.get_hatch():
        return "nope_global"
    face = rgb(rect.get_facecolor())
    for kind, (idx, _h) in figures_lesson6.PATTERN_STYLE.items():
        ref = theme.muted if idx is None else theme.series[idx]
        if kind != "nope_global" and face == rgb(ref):
            return kind
    raise AssertionError(f"cell colour {face} is no layer kind")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_layer_patterns_draws_each_models_layers_in_order(theme):
    with drawn("layer_patterns", theme) as fig:
        ax = fig.axes[0]
        rows = rect_rows(ax)
        assert len(rows) == len(ex.LAYER_MODELS)
        for row, key in zip(rows, ex.LAYER_MODELS):
            drawn_kinds = [_kind_of(r, _style.THEMES[theme]) for r in row]
            assert drawn_kinds == hybrid.layer_pattern(configs.load(key), ex.LAYERS_DRAWN), key
        titles = ax_texts(ax)
        assert [t.split(" · ")[0] for t in titles] == [configs.load(k).name.split(" (")[0] for k in ex.LAYER_MODELS]
        assert tick_labels(ax, "x") == [str(i + 1) for i in range(0, ex.LAYERS_DRAWN, 4)]
        assert len(legend_labels(fig)) == len(hybrid.PATTERN_KINDS)


def test_layer_pattern_titles_carry_the_counts():
    # Independent of posenc: every 4th of Llama 4 Scout's 48 layers and SmolLM3's 36 is NoPE (configs'
    # no_rope_layers lists); Command R7B's 32 layers are 3 sliding + 1 global (sliding_window_pattern 4);
    # Gemma 3 27B's 62 layers (google-deepmind/gemma) are global at every 6th, so 10 of them.
    with drawn("layer_patterns") as fig:
        titles = dict(zip(ex.LAYER_MODELS, ax_texts(fig.axes[0])))
    assert titles["llama4_scout"].endswith("48 层：36 层分块+RoPE，12 层全局 NoPE")
    assert titles["smollm3_3b"].endswith("36 层：27 层全局+RoPE，9 层全局 NoPE")
    assert titles["command_r7b"].endswith("32 层（未核实）：24 层局部+RoPE，8 层全局 NoPE")
    assert titles["qwen3_next_80b_a3b"].endswith("48 层：12 层全局+RoPE，36 层线性注意力")
    # Kimi Linear's released config: MLA at layers 4, 8, …, 24, 27 of 27; Jamba: attention at i % 8 == 4 of 32
    assert titles["kimi_linear_48b"] == "Kimi Linear · 27 层：7 层全局 NoPE，20 层线性注意力"
    assert titles["jamba_v01"] == "Jamba · 32 层：4 层全局 NoPE，28 层 Mamba"
    assert titles["gemma3_27b"].endswith("62 层：10 层全局+RoPE，52 层局部+RoPE")
    assert titles["glm45"].endswith("每一层：都是全局+RoPE")


def test_layer_pattern_titles_in_english():
    # the same counts as above, in the English figure's words (figures_src/labels/en.yaml, section lesson6)
    from figures_src import in_language

    with in_language("en"), drawn("layer_patterns") as fig:
        titles = dict(zip(ex.LAYER_MODELS, ax_texts(fig.axes[0])))
        ticks = tick_labels(fig.axes[0], "x")
    assert titles["llama4_scout"].endswith("48 layers: 36 chunked+RoPE, 12 global NoPE")
    assert titles["command_r7b"].endswith("32 layers (unverified): 24 local+RoPE, 8 global NoPE")
    assert titles["jamba_v01"] == "Jamba · 32 layers: 4 global NoPE, 28 Mamba"
    assert titles["gemma3_27b"].endswith("62 layers: 10 global+RoPE, 52 local+RoPE")
    assert titles["glm45"].endswith("every layer: all global+RoPE")
    assert ticks == [str(i + 1) for i in range(0, ex.LAYERS_DRAWN, 4)]


def test_mla_cache_bars_are_the_per_token_caches():
    # config_671B.json: kv_lora_rank 512, qk_rope_head_dim 64, 61 layers; 128 heads, k 128 + 64, v 128; bf16 = 2 bytes
    expected = [(512 + 64) * 61 * 2 / 1024, 128 * (192 + 128) * 61 * 2 / 1024]
    with drawn("mla_cache") as fig:
        ax = fig.axes[0]
        rows = rect_rows(ax)
        assert [r[0].get_width() for r in rows] == pytest.approx(expected)
        cmp = mla.for_model(configs.load(ex.MLA_MODEL))
        assert [r[0].get_width() for r in rows] == pytest.approx([cmp.bytes()["mla"] / 1024, cmp.bytes()["mha_full_keys"] / 1024])
        labels = ax_texts(ax)
        assert labels[0].startswith("MLA") and labels[1] == f" {num('mla_cache_kib_deepseek_v3')} KiB"
        # the cached vectors carry the names the text gives them, not the DeepSeek report's k^R
        assert "$c^{KV}$" in labels[0] and "$R_n k^{\\mathrm{rope}}_n$" in labels[0] and "k_R" not in labels[0]
        assert labels[2].startswith("多头注意力") and labels[3] == f" {num('mha_cache_kib_deepseek_v3')} KiB"


@pytest.mark.parametrize("page", ["docs/lessons/06-partial-nope.md", "docs/lessons/06-partial-nope.en.md"])
def test_the_parts_of_a_head_have_one_name_each(page):
    """Partial RoPE and MLA name the two parts of a head alike: rope (rotated by position) and nope (no position)."""
    text = (Path(__file__).resolve().parents[1] / page).read_text(encoding="utf-8")
    parts = set(re.findall(r"[qk]\^\{\\text\{([a-z]+)\}\}", text))
    assert parts == {"rope", "nope"}


def test_nope_counter_bars_and_gap_curve():
    n = len(ex.SENTENCE)
    with drawn("nope_counter") as fig:
        top, bottom = fig.axes
        assert top.get_position().y0 > bottom.get_position().y1  # stacked, top above bottom
        heights = bar_heights(top)
        np.testing.assert_allclose(heights[:n], 1.0 / (np.arange(n) + 1))  # causal: 1/(t+1), in order
        np.testing.assert_allclose(heights[n:], np.full(n, 1.0 / n))  # no mask: 1/n
        assert tick_labels(top, "x") == [f"{c}\n{i}" for i, c in enumerate(ex.SENTENCE)]
        assert legend_labels(fig)[:2] == ["因果掩码", "无掩码"]
        x, y = (np.asarray(a, float) for a in bottom.get_lines()[0].get_data())
        assert x[0] == 1 and x[-1] == ex.COUNTER_CURVE_MAX and np.all(np.diff(x) > 0)
        np.testing.assert_allclose(y, 1 / (x + 1) - 1 / (x + 2), rtol=1e-12)
        marked = [ln.get_xdata()[0] for ln in bottom.get_lines()[1:]]
        assert marked == [ex.NEAR_POSITION, configs.load(ex.COUNTER_FAR_MODEL)["context"]]

FIGURES = ("partial_rotary_dims", "layer_patterns", "mla_cache", "nope_counter")  # each has its content test above


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson6") == sorted(FIGURES)


def test_alt_texts_quote_the_drawn_numbers():
    specs = load_all()
    alt = specs["layer_patterns"].alt_text()
    assert "Llama 4 Scout · 48 层" in alt
    assert num("mla_cache_ratio_deepseek_v3") in specs["mla_cache"].alt_text()


def test_content_dependent_position_is_research_in_attention_and_shipped_in_the_linear_layers():
    """The fold on PaTH, FoX and CoPE: no configuration the course collects uses them in its attention layers
    (each model's position kind is one the course teaches), while the linear-attention layers of Qwen3-Next and
    Kimi Linear compute their decay gate from each token's hidden state (the pinned transformers' reference code)."""
    import inspect
    from pathlib import Path

    from transformers.models.kimi_linear import modeling_kimi_linear
    from transformers.models.qwen3_next import modeling_qwen3_next

    kinds = {configs.load(k).position for k in configs.keys()}
    assert kinds <= {"learned", "alibi", "t5", "rope", "mrope", "nope"}, kinds
    assert not kinds & {"path", "fox", "cope"}
    gdn = inspect.getsource(modeling_qwen3_next.Qwen3NextGatedDeltaNet)
    assert "self.in_proj_ba(hidden_states)" in gdn and "F.softplus(a.float() + self.dt_bias)" in gdn
    assert "self.f_b_proj(self.f_a_proj(hidden_states))" in inspect.getsource(modeling_kimi_linear.KimiLinearForgetGate)
    assert configs.load("kimi_linear_48b").position == "nope"  # its MLA layers: position is left to KDA
    root = Path(__file__).resolve().parent.parent / "docs" / "lessons"
    for name, scope in (("06-partial-nope.md", "本课程收录的"), ("06-partial-nope.en.md", "this course collects")):
        line = next(line for line in (root / name).read_text(encoding="utf-8").splitlines() if "CoPE" in line and "PaTH" in line)
        assert scope in line and 'num("l4_models_total")' in line and 'fact("kda_finer_gating")' in line, name
