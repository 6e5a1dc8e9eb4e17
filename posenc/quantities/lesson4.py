"""Numbers lesson 4 (RoPE) quotes; lessons 3, 5 and 6 and the home page quote its per-model counts.

A pair "does not complete a turn" when its wavelength λ_i = 2π/ω_i exceeds the
context L (posenc.rope.pairs_not_completing_turn). Per-model numbers use the
native context from models.yaml unless the name says otherwise.
"""

from __future__ import annotations


import numpy as np

from .. import clock, configs, examples as ex, relative, rope, shift
from ..formatting import PerLanguage
from ..sinusoidal import DEFAULT_BASE
from . import family, number
from .lesson1 import tiny


def _spectrum(key: str, context: int | None = None, base: float | None = None) -> rope.Spectrum:
    return rope.model_spectrum(configs.load(key), context, base)


# --- Qwen3-8B in more detail ------------------------------------------------------------------------


@number("qwen3_first_not_turning_pair", ",", "Qwen3-8B 第一个在 32,768 个 token 内转不满一圈的频率对编号（从 0 数）")
def _():
    return _spectrum("qwen3_8b").first_not_turning


@number("qwen3_wavelength_last_turning", ",.0f", "Qwen3-8B 最后一个能转满一圈的频率对的周期（token）")
def _():
    return _spectrum("qwen3_8b").last_turning_wavelength


@number("qwen3_wavelength_first_not_turning", ",.0f", "Qwen3-8B 第一个转不满一圈的频率对的周期（token）")
def _():
    return _spectrum("qwen3_8b").first_not_turning_wavelength


@number("qwen3_slowest_wavelength", ",.0f", "Qwen3-8B 最慢一对转一圈要多少个 token")
def _():
    return float(_spectrum("qwen3_8b").wavelengths[-1])


@number("qwen3_pairs_not_turning_at_config_max", ",", "Qwen3-8B 按 config 的 max_position_embeddings（40,960）计算时转不满一圈的频率对数")
def _():
    return _spectrum("qwen3_8b", configs.load("qwen3_8b")["max_position_embeddings"]).count_not_turning


@number("qwen3_pairs_not_turning_at_yarn_context", ",", "Qwen3-8B 在 YaRN 目标长度 131,072 内转不满一圈的频率对数（不缩放时）")
def _():
    return _spectrum("qwen3_8b", configs.load("qwen3_8b")["scaled_context"]).count_not_turning


@number("qwen3next_pairs_not_turning_theta5e6", ",", "若 Qwen3-Next 的 θ 是 5,000,000（Qwen3-Coder-Next 的值），262,144 内转不满一圈的频率对数")
def _():
    return _spectrum("qwen3_next_80b_a3b", base=5_000_000).count_not_turning


# --- per model: rope_pairs_not_turning_<key>, rope_pairs_total_<key>, rope_rotary_dim_<key> -------------
# Registered for the models the pages quote, not for every model in models.yaml (a quantity no page quotes
# fails tests/test_numbers.py): lesson 4's table (examples.ROPE_TABLE_MODELS); DeepSeek-V3 and gpt-oss, which
# lesson 4's #next and lesson 5 quote; Qwen3-Next (lesson 4's folded note on its sources, lesson 6) and GLM-4.5
# (lesson 6). Mistral 7B v0.1 is not counted at a native context: every score it computes is within its
# attention window (l4_mistral_window_pairs_not_turning).


ROPE_COUNTS = family(("rope_pairs_not_turning_{}", "rope_pairs_total_{}", "rope_rotary_dim_{}"), {
    "llama2_7b": ("rope_pairs_not_turning_llama2_7b", "rope_pairs_total_llama2_7b", "rope_rotary_dim_llama2_7b"),
    "llama3_8b": ("rope_pairs_not_turning_llama3_8b", "rope_pairs_total_llama3_8b", "rope_rotary_dim_llama3_8b"),
    "qwen3_8b": ("rope_pairs_not_turning_qwen3_8b", "rope_pairs_total_qwen3_8b", "rope_rotary_dim_qwen3_8b"),
    "deepseek_v3": ("rope_pairs_not_turning_deepseek_v3", "rope_pairs_total_deepseek_v3", "rope_rotary_dim_deepseek_v3"),
    "gpt_oss": ("rope_pairs_not_turning_gpt_oss", "rope_pairs_total_gpt_oss", "rope_rotary_dim_gpt_oss"),
    "qwen3_next_80b_a3b": ("rope_pairs_not_turning_qwen3_next_80b_a3b", "rope_pairs_total_qwen3_next_80b_a3b",
                           "rope_rotary_dim_qwen3_next_80b_a3b"),
    "glm45": ("rope_pairs_not_turning_glm45", "rope_pairs_total_glm45", "rope_rotary_dim_glm45"),
    "mistral_7b_v01": ("rope_pairs_not_turning_mistral_7b_v01", "rope_pairs_total_mistral_7b_v01", "rope_rotary_dim_mistral_7b_v01"),
}, members=ex.ROPE_TABLE_MODELS + ("deepseek_v3", "gpt_oss", "qwen3_next_80b_a3b", "glm45", "mistral_7b_v01"))


def register_rope_family(key: str) -> None:
    """The three per-model RoPE counts of model ``key`` (see the naming scheme in __init__.py)."""
    name = configs.load(key).name
    not_turning, total, rotary = ROPE_COUNTS[key]

    @number(not_turning, ",", f"{name} 在原生上下文长度内转不满一圈的 RoPE 频率对数")
    def _():
        return _spectrum(key).count_not_turning

    @number(total, ",", f"{name} 每个头的 RoPE 频率对总数")
    def _():
        return _spectrum(key).pairs

    @number(rotary, ",", f"{name} 每个头参与旋转的维数")
    def _():
        cfg = configs.load(key)
        return rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))


for _key in ROPE_COUNTS:
    register_rope_family(_key)


# --- lesson 4's experiments (posenc/shift.py) ----------------------------------------------------------


@number("l4_dim", "d", "第 4 课实验里注意力头的维数 d（L4_DIM）")
def _():
    return ex.L4_DIM


@number("l4_seed", "d", "第 4 课实验里 W_q、W_k 和 token 向量的随机种子")
def _():
    return ex.L4_SEED


@number("l4_abs_near", "d", "同一个词放在两个绝对位置上：近的那个")
def _():
    return ex.ABS_POSITIONS[0]


@number("l4_abs_far", "d", "同一个词放在两个绝对位置上：远的那个")
def _():
    return ex.ABS_POSITIONS[1]


def _change(lang: str, method: str) -> float:
    return shift.shift_change(ex.texts(lang).sentence, ex.SHIFT, method, ex.L4_DIM, ex.L4_SEED)


# Setup of every l4_shift_* / l4_score_* number: the example sentence, one seeded head (W_q, W_k and
# token vectors from posenc.shift.head_and_tokens, d = L4_DIM, seed L4_SEED), the whole score
# q·k/√d (content and position); the sentence moved on by SHIFT. Lesson 3's sin_pos_score_* numbers
# take the position part of the "input" score alone.


@number("l4_shift_input_max_diff", ".2f", "正弦位置编码加在输入上：例句整句平移 SHIFT 后，整个注意力分数 q·k/√d 的最大变化（d = L4_DIM，种子 L4_SEED）")
def _(lang):
    return _change(lang, "input")


@number("l4_shift_qk_max_diff", ".2f", "正弦位置编码加在投影后的 q、k 上：整句平移后整个注意力分数的最大变化（同上设定）")
def _(lang):
    return _change(lang, "qk")


@number("l4_shift_rope_max_diff", "", "RoPE：整句平移后整个注意力分数的最大变化（同上设定；浮点舍入量级）")
def _(lang):
    return tiny(_change(lang, "rope"))


@number("l4_score_max_abs_input", ".2f", "正弦加在输入上时，平移前分数的最大绝对值（尺度参照）")
def _(lang):
    return float(abs(shift.scores(ex.texts(lang).sentence, 0, "input", ex.L4_DIM, ex.L4_SEED)).max())


@number("l4_score_max_abs_qk", ".2f", "正弦加在 q、k 上时，平移前分数的最大绝对值（尺度参照）")
def _(lang):
    return float(abs(shift.scores(ex.texts(lang).sentence, 0, "qk", ex.L4_DIM, ex.L4_SEED)).max())


@number("l4_score_max_abs_rope", ".2f", "RoPE 时，平移前分数的最大绝对值（尺度参照）")
def _(lang):
    return float(abs(shift.scores(ex.texts(lang).sentence, 0, "rope", ex.L4_DIM, ex.L4_SEED)).max())


# --- one pair by hand (the widget's defaults) -----------------------------------------------------------


def _pair(m: int, n: int) -> tuple[float, float]:
    return shift.pair_scores(ex.PAIR_Q, ex.PAIR_K, m, n, shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM))


@number("l4_pair_q", "", "手算那一对的 q（旋转前）")
def _():
    return "({:g}, {:g})".format(*ex.PAIR_Q)


@number("l4_pair_k", "", "手算那一对的 k（旋转前）")
def _():
    return "({:g}, {:g})".format(*ex.PAIR_K)


@number("l4_pair_m", "d", "手算那一对里 q 的位置 m")
def _():
    return ex.PAIR_M


@number("l4_pair_n", "d", "手算那一对里 k 的位置 n")
def _():
    return ex.PAIR_N


@number("l4_pair_m_shifted", "d", "平移后 q 的位置")
def _():
    return ex.PAIR_M + ex.SHIFT


@number("l4_pair_n_shifted", "d", "平移后 k 的位置")
def _():
    return ex.PAIR_N + ex.SHIFT


@number("l4_pair_offset", "d", "手算那一对的距离 m − n（q 在 k 之后时为正）")
def _():
    return ex.PAIR_M - ex.PAIR_N


@number("l4_pair_index", "d", "手算的是第几对")
def _():
    return ex.PAIR_INDEX


@number("l4_pair_omega", "g", "手算那一对的角速度 ω（弧度/token）")
def _():
    return shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM)


@number("l4_pair_rope", ".4f", "RoPE：q 在 m、k 在 n 时这一对的分数")
def _():
    return _pair(ex.PAIR_M, ex.PAIR_N)[0]


@number("l4_pair_rope_shifted", ".4f", "RoPE：整体平移后这一对的分数")
def _():
    return _pair(ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT)[0]


@number("l4_pair_added", ".4f", "正弦相加：q 在 m、k 在 n 时这一对的分数")
def _():
    return _pair(ex.PAIR_M, ex.PAIR_N)[1]


@number("l4_pair_added_shifted", ".4f", "正弦相加：整体平移后这一对的分数")
def _():
    return _pair(ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT)[1]


@number("l4_pair_rope_formula", ".4f", "|q||k|cos((m − n)ω + φ_q − φ_k)：不旋转、直接按公式算的分数")
def _():
    return shift.pair_score_polar(ex.PAIR_Q, ex.PAIR_K, ex.PAIR_M, ex.PAIR_N, shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM))


# --- the two code layouts ----------------------------------------------------------------------------------

@number("l4_perm_d", "d", "写出整个排列时用的维度")
def _():
    return ex.CONVENTION_DIM


@number("l4_perm", "", "interleaved → rotate_half 的维度排列（d = l4_perm_d）")
def _():
    return "[" + ", ".join(str(int(i)) for i in rope.convention_permutation(ex.CONVENTION_DIM)) + "]"


@number("l4_convention_naive_diff", ".2f", "同一个头的权重不换位、直接换写法时，分数的最大差值（同上设定）")
def _(lang):
    a, b = shift.convention_scores(ex.texts(lang).sentence, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights=False)
    return float(abs(a - b).max())


# --- RoPE of two equal vectors is lesson 3's curve --------------------------------------------------------


@number("l4_same_vector_vs_sin_max_diff", "", "q = k 时 RoPE 分数曲线与第 3 课 Σcos(kω_i) 的最大差值")
def _():
    curve = shift.same_vector_scores(ex.MAX_DISTANCE, ex.L4_DIM)
    return tiny(float(abs(curve - clock.dot_curve(ex.MAX_DISTANCE, ex.L4_DIM)).max()))


# --- the real models ------------------------------------------------------------------------------------------


def _models_using(position: str) -> list:
    return [configs.load(k) for k in configs.keys() if configs.load(k).position == position]


# How lesson 4 names the position methods of the models it does not count as RoPE, in each language
# (the English page reads "the others use …"). A new kind in models.yaml fails here until it is named,
# so the sentence never leaves a model out.
_OTHER_KINDS = {
    "learned": PerLanguage(zh="可学习位置表", en="a learned position embedding"),
    "alibi": PerLanguage(zh="ALiBi", en="ALiBi"),
    "t5": PerLanguage(zh="T5 的相对位置偏置", en="T5's relative position bias"),
    "nope": PerLanguage(zh="注意力层一律不加位置编码", en="no positional encoding in any attention layer"),
}


@number("l4_rope_models", "d", "models.yaml 里用 RoPE 的模型数（不含多模态的 M-RoPE）")
def _():
    return len(_models_using("rope"))


@number("l4_mrope_models", "d", "models.yaml 里用 M-RoPE（RoPE 的多模态变体）的模型数")
def _():
    return len(_models_using("mrope"))


@number("l4_alibi_models", "d", "models.yaml 里用 ALiBi 的模型数（RoPE 的同代对手）")
def _():
    return len(_models_using("alibi"))


@number("l4_models_other_positions", "", "models.yaml 里其余模型用的位置方案和个数（一段文字）")
def _():
    kinds = [configs.load(k).position for k in configs.keys()]
    unnamed = sorted(set(kinds) - set(_OTHER_KINDS) - {"rope", "mrope"})
    if unnamed:
        raise ValueError(f"models.yaml has position kind(s) {unnamed} that lesson 4 does not name; add them to _OTHER_KINDS")
    named = [kind for kind in _OTHER_KINDS if kind in kinds]
    return PerLanguage(
        zh="、".join(f"{_OTHER_KINDS[kind]['zh']} {kinds.count(kind)} 个" for kind in named),
        en=", ".join(f"{_OTHER_KINDS[kind]['en']} ({kinds.count(kind)})" for kind in named),
    )


@number("l4_models_total", "d", "models.yaml 里收录的模型总数")
def _():
    return len(configs.keys())


@number("l4_llama2_first_not_turning", ",", "Llama 2 7B 第一个在 4,096 内转不满一圈的频率对编号")
def _():
    return _spectrum("llama2_7b").first_not_turning


@number("l4_llama2_wavelength_first_not_turning", ",.0f", "Llama 2 7B 第一个转不满一圈的频率对的周期")
def _():
    return _spectrum("llama2_7b").first_not_turning_wavelength


@number("qwen3next_first_not_turning_pair", ",", "Qwen3-Next 第一个在原生上下文内转不满一圈的频率对编号")
def _():
    return _spectrum("qwen3_next_80b_a3b").first_not_turning


@number("l4_mistral_window_pairs_not_turning", ",", "Mistral 7B v0.1：按它的注意力窗口（sliding_window）算，每个头转不满一圈的频率对数")
def _():
    cfg = configs.load("mistral_7b_v01")
    return rope.model_spectrum(cfg, cfg["sliding_window"]).count_not_turning


@number("qwen3_slowest_turns_in_context", ".2%", "Qwen3-8B 最慢一对在原生上下文内转过的圈数")
def _():
    return _spectrum("qwen3_8b").slowest_turns


# --- why big models chose RoPE over ALiBi (the end of lesson 4) ----------------------------------------------
# One query and two key contents (examples.WHY_ROPE_*): each key is the query turned back by one of
# WHY_ROPE_PREFERRED tokens (posenc.relative.rope_key_preferring), so under RoPE each content scores highest
# at its own distance; ALiBi adds the same −a·(m − n) to both, so both peak at the nearest key.


def why_rope_demo():
    """(inverse frequencies, the query, the two key contents, ALiBi's slope) of that comparison."""
    inv = rope.inverse_frequencies(ex.SIN_DIM, DEFAULT_BASE)
    q = np.random.default_rng(ex.WHY_ROPE_SEED).standard_normal(ex.SIN_DIM)
    keys = [relative.rope_key_preferring(q, delta, inv) for delta in ex.WHY_ROPE_PREFERRED]
    return inv, q, keys, float(relative.alibi_slopes(ex.ALIBI_HEADS)[ex.ALIBI_HEAD - 1])


def _rope_peak(which: int) -> int:
    inv, q, keys, _ = why_rope_demo()
    return int(np.argmax(relative.rope_scores_by_distance(q, keys[which], inv, ex.WHY_ROPE_SPAN)))


@number("l4_why_rope_peak_a", "d", "RoPE：同一个查询对第一种键内容，分数最高的距离 m − n")
def _():
    return _rope_peak(0)


@number("l4_why_rope_peak_b", "d", "RoPE：同一个查询对第二种键内容，分数最高的距离 m − n")
def _():
    return _rope_peak(1)


@number("l4_why_alibi_peak", "d", "ALiBi：同样两种键内容，分数最高的距离（两种都一样）")
def _():
    inv, q, keys, slope = why_rope_demo()
    peaks = {int(np.argmax(relative.alibi_scores_by_distance(q, k, slope, ex.WHY_ROPE_SPAN))) for k in keys}
    if len(peaks) != 1:
        raise ValueError(f"ALiBi's peaks differ between key contents: {peaks}; a bias that depends only on distance cannot do that")
    return peaks.pop()


@number("l4_why_rope_span", "d", "比较分数随距离变化时看到多远")
def _():
    return ex.WHY_ROPE_SPAN
