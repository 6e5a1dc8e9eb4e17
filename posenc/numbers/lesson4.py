"""Numbers lesson 4 (RoPE) quotes; lesson 3's timeline quotes the qwen3_* / qwen3next_* ones.

A pair "does not complete a turn" when its wavelength λ_i = 2π/ω_i exceeds the
context L (posenc.rope.pairs_not_completing_turn). Per-model numbers use the
native context from models.yaml unless the name says otherwise.
"""

from __future__ import annotations

import numpy as np

from .. import configs, demo, rope, shift, sinusoidal
from . import number
from .lesson1 import tiny


def _inv_freq(key: str, base: float | None = None):
    cfg = configs.load(key)
    return rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"] if base is None else base, cfg.get("rotary_fraction", 1.0))


def _not_turning(key: str, context: int | None = None, base: float | None = None) -> int:
    cfg = configs.load(key)
    return rope.pairs_not_completing_turn(_inv_freq(key, base), cfg["context"] if context is None else context)


# --- the two models lesson 3's timeline quotes -------------------------------------------------------


@number("qwen3_pairs_not_turning", ",", "Qwen3-8B（head_dim 128，θ=1,000,000）在 32,768 个 token 内转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_8b")


@number("qwen3_pairs_total", ",", "Qwen3-8B 每个头的 RoPE 频率对总数（head_dim/2）")
def _():
    return len(_inv_freq("qwen3_8b"))


@number("qwen3next_pairs_not_turning", ",", "Qwen3-Next-80B-A3B（旋转 64 维，θ=10,000,000）在 262,144 个 token 内转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_next_80b_a3b")


@number("qwen3next_pairs_total", ",", "Qwen3-Next-80B-A3B 每个头的 RoPE 频率对总数（256 维 × 25% ÷ 2）")
def _():
    return len(_inv_freq("qwen3_next_80b_a3b"))


# --- Qwen3-8B in more detail ------------------------------------------------------------------------


@number("qwen3_first_not_turning_pair", ",", "Qwen3-8B 第一个在 32,768 个 token 内转不满一圈的频率对编号（从 0 数）")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_8b"))
    return int((lam > configs.load("qwen3_8b")["context"]).argmax())


@number("qwen3_wavelength_last_turning", ",.0f", "Qwen3-8B 最后一个能转满一圈的频率对的周期（token）")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_8b"))
    return float(lam[lam <= configs.load("qwen3_8b")["context"]].max())


@number("qwen3_wavelength_first_not_turning", ",.0f", "Qwen3-8B 第一个转不满一圈的频率对的周期（token）")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_8b"))
    return float(lam[lam > configs.load("qwen3_8b")["context"]].min())


@number("qwen3_slowest_wavelength", ",.0f", "Qwen3-8B 最慢一对转一圈要多少个 token")
def _():
    return float(rope.wavelengths(_inv_freq("qwen3_8b"))[-1])


@number("qwen3_pairs_not_turning_at_config_max", ",", "Qwen3-8B 按 config 的 max_position_embeddings（40,960）计算时转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_8b", configs.load("qwen3_8b")["max_position_embeddings"])


@number("qwen3_pairs_not_turning_at_yarn_context", ",", "Qwen3-8B 在 YaRN 目标长度 131,072 内转不满一圈的频率对数（不缩放时）")
def _():
    return _not_turning("qwen3_8b", configs.load("qwen3_8b")["scaled_context"])


@number("qwen3next_pairs_not_turning_theta5e6", ",", "若 Qwen3-Next 的 θ 是 5,000,000（Qwen3-Coder-Next 的值），262,144 内转不满一圈的频率对数")
def _():
    return _not_turning("qwen3_next_80b_a3b", base=5_000_000)


@number("llama31_pairs_not_turning_128k", ",", "Llama 3.1 8B（θ=500,000，不计缩放）在 131,072 个 token 内转不满一圈的频率对数")
def _():
    return _not_turning("llama31_8b", configs.load("llama31_8b")["max_position_embeddings"])


# --- every RoPE model in models.yaml: rope_pairs_not_turning_<key>, rope_pairs_total_<key> -------------


def _register_model(key: str) -> None:
    name = configs.load(key).name

    @number(f"rope_pairs_not_turning_{key}", ",", f"{name} 在原生上下文长度内转不满一圈的 RoPE 频率对数")
    def _():
        return _not_turning(key)

    @number(f"rope_pairs_total_{key}", ",", f"{name} 每个头的 RoPE 频率对总数")
    def _():
        return len(_inv_freq(key))

    @number(f"rope_rotary_dim_{key}", ",", f"{name} 每个头参与旋转的维数")
    def _():
        cfg = configs.load(key)
        return rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))


for _key in configs.keys():
    if configs.load(_key).position == "rope":
        _register_model(_key)


# --- the small example of lesson 4 (same as lesson 3's 16-dim clock) -----------------------------------


@number("rope_demo_slowest_wavelength", ",.0f", "16 维、base 10,000 时最慢一对转一圈要多少个 token")
def _():
    return float(rope.wavelengths(rope.inverse_frequencies(16, 10_000))[-1])


# --- lesson 4's experiments (posenc/shift.py) ----------------------------------------------------------


@number("l4_d", "d", "第 4 课实验的维度 d（和第 3 课的演示相同）")
def _():
    return sinusoidal.DEMO_DIM


@number("l4_pairs", "d", "第 4 课实验维度下的频率对数 d/2")
def _():
    return sinusoidal.DEMO_DIM // 2


@number("l4_seed", "d", "第 4 课实验里 W_q、W_k 和 token 向量的随机种子")
def _():
    return shift.SEED


@number("l4_base", ",.0f", "第 4 课实验的底数 θ")
def _():
    return sinusoidal.DEFAULT_BASE


@number("l4_base_attr", ".0f", "widget 的 data-base 属性（不带千位分隔符）")
def _():
    return sinusoidal.DEFAULT_BASE


def _change(method: str) -> float:
    return shift.shift_change(demo.SENTENCE, demo.SHIFT, method)


@number("l4_shift_input_max_diff", ".2f", "正弦编码加在输入上：整句平移后注意力分数的最大变化")
def _():
    return _change("input")


@number("l4_shift_qk_max_diff", ".2f", "正弦编码加在投影后的 q、k 上：整句平移后注意力分数的最大变化")
def _():
    return _change("qk")


@number("l4_shift_rope_max_diff", "", "RoPE：整句平移后注意力分数的最大变化（浮点舍入量级）")
def _():
    return tiny(_change("rope"))


@number("l4_score_max_abs_input", ".2f", "正弦加在输入上时，平移前分数的最大绝对值（尺度参照）")
def _():
    return float(abs(shift.scores(demo.SENTENCE, 0, "input")).max())


@number("l4_score_max_abs_qk", ".2f", "正弦加在 q、k 上时，平移前分数的最大绝对值（尺度参照）")
def _():
    return float(abs(shift.scores(demo.SENTENCE, 0, "qk")).max())


@number("l4_score_max_abs_rope", ".2f", "RoPE 时，平移前分数的最大绝对值（尺度参照）")
def _():
    return float(abs(shift.scores(demo.SENTENCE, 0, "rope")).max())


# --- one pair by hand (the widget's defaults) -----------------------------------------------------------


def _pair(m: int, n: int) -> tuple[float, float]:
    return shift.pair_scores(shift.PAIR_Q, shift.PAIR_K, m, n, shift.pair_omega())


@number("l4_pair_q", "", "手算那一对的 q（旋转前）")
def _():
    return "({:g}, {:g})".format(*shift.PAIR_Q)


@number("l4_pair_k", "", "手算那一对的 k（旋转前）")
def _():
    return "({:g}, {:g})".format(*shift.PAIR_K)


@number("l4_pair_q_attr", "", "widget 的 data-q 属性")
def _():
    return "{:g},{:g}".format(*shift.PAIR_Q)


@number("l4_pair_k_attr", "", "widget 的 data-k 属性")
def _():
    return "{:g},{:g}".format(*shift.PAIR_K)


@number("l4_pair_m", "d", "手算那一对里 q 的位置 m")
def _():
    return shift.PAIR_M


@number("l4_pair_n", "d", "手算那一对里 k 的位置 n")
def _():
    return shift.PAIR_N


@number("l4_pair_m_shifted", "d", "平移后 q 的位置")
def _():
    return shift.PAIR_M + demo.SHIFT


@number("l4_pair_n_shifted", "d", "平移后 k 的位置")
def _():
    return shift.PAIR_N + demo.SHIFT


@number("l4_pair_offset", "d", "n − m")
def _():
    return shift.PAIR_N - shift.PAIR_M


@number("l4_pair_index", "d", "手算的是第几对")
def _():
    return shift.PAIR_INDEX


@number("l4_pair_omega", "g", "手算那一对的角速度 ω（弧度/token）")
def _():
    return shift.pair_omega()


@number("l4_pair_rope", ".4f", "RoPE：q 在 m、k 在 n 时这一对的分数")
def _():
    return _pair(shift.PAIR_M, shift.PAIR_N)[0]


@number("l4_pair_rope_shifted", ".4f", "RoPE：整体平移后这一对的分数")
def _():
    return _pair(shift.PAIR_M + demo.SHIFT, shift.PAIR_N + demo.SHIFT)[0]


@number("l4_pair_added", ".4f", "正弦相加：q 在 m、k 在 n 时这一对的分数")
def _():
    return _pair(shift.PAIR_M, shift.PAIR_N)[1]


@number("l4_pair_added_shifted", ".4f", "正弦相加：整体平移后这一对的分数")
def _():
    return _pair(shift.PAIR_M + demo.SHIFT, shift.PAIR_N + demo.SHIFT)[1]


@number("l4_pair_rope_formula", ".4f", "|q||k|cos(φ_k − φ_q + (n−m)ω)：不旋转、直接按公式算的分数")
def _():
    q, k = np.asarray(shift.PAIR_Q), np.asarray(shift.PAIR_K)
    phi_q, phi_k = np.arctan2(q[1], q[0]), np.arctan2(k[1], k[0])
    return float(np.linalg.norm(q) * np.linalg.norm(k) * np.cos(phi_k - phi_q + (shift.PAIR_N - shift.PAIR_M) * shift.pair_omega()))


# --- the two code layouts ----------------------------------------------------------------------------------

CONVENTION_DEMO_DIM = 8  # small enough to print the whole permutation


@number("l4_perm_d", "d", "写出整个排列时用的维度")
def _():
    return CONVENTION_DEMO_DIM


@number("l4_perm", "", "interleaved → rotate_half 的维度排列（d = 8）")
def _():
    return "[" + ", ".join(str(int(i)) for i in rope.convention_permutation(CONVENTION_DEMO_DIM)) + "]"


@number("l4_convention_max_diff", "", "同一组权重按排列换位后，两种写法算出的分数最大差值")
def _():
    a, b = shift.convention_scores(demo.SENTENCE)
    return tiny(float(abs(a - b).max()))


@number("l4_convention_naive_diff", ".2f", "权重不换位、直接换写法时，分数的最大差值")
def _():
    a, b = shift.convention_scores(demo.SENTENCE, permute_weights=False)
    return float(abs(a - b).max())


# --- RoPE of two equal vectors is lesson 3's curve --------------------------------------------------------


@number("l4_same_vector_vs_sin_max_diff", "", "q = k 时 RoPE 分数曲线与第 3 课 Σcos(kω_i) 的最大差值")
def _():
    curve = shift.same_vector_scores(demo.MAX_DISTANCE)
    ref = np.array([sinusoidal.dot_closed_form(k, sinusoidal.DEMO_DIM) for k in range(demo.MAX_DISTANCE + 1)])
    return tiny(float(abs(curve - ref).max()))


# --- the real models ------------------------------------------------------------------------------------------


@number("l4_rope_models", "d", "models.yaml 里用 RoPE 的模型数")
def _():
    return sum(configs.load(k).position == "rope" for k in configs.keys())


@number("l4_models_total", "d", "models.yaml 里收录的模型总数")
def _():
    return len(configs.keys())


@number("l4_llama2_first_not_turning", ",", "Llama 2 7B 第一个在 4,096 内转不满一圈的频率对编号")
def _():
    lam = rope.wavelengths(_inv_freq("llama2_7b"))
    return int((lam > configs.load("llama2_7b")["context"]).argmax())


@number("l4_llama2_wavelength_first_not_turning", ",.0f", "Llama 2 7B 第一个转不满一圈的频率对的周期")
def _():
    lam = rope.wavelengths(_inv_freq("llama2_7b"))
    return float(lam[lam > configs.load("llama2_7b")["context"]].min())


@number("qwen3next_first_not_turning_pair", ",", "Qwen3-Next 第一个在原生上下文内转不满一圈的频率对编号")
def _():
    lam = rope.wavelengths(_inv_freq("qwen3_next_80b_a3b"))
    return int((lam > configs.load("qwen3_next_80b_a3b")["context"]).argmax())


@number("qwen3_turning_share", ".1%", "Qwen3-8B 每个头里在原生上下文内至少转满一圈的频率对比例")
def _():
    return 1 - _not_turning("qwen3_8b") / len(_inv_freq("qwen3_8b"))


@number("qwen3_slowest_turns_in_context", ".2%", "Qwen3-8B 最慢一对在原生上下文内转过的圈数")
def _():
    return configs.load("qwen3_8b")["context"] / float(rope.wavelengths(_inv_freq("qwen3_8b"))[-1])
