"""Numbers lesson 5 (long context: PI → NTK-aware → YaRN, Llama 3, ABF, effective length) quotes.

Every value is computed by posenc (``posenc.scaling`` for the frequencies,
``posenc.long_context`` for the real base changes and RULER's rows) from the models'
own settings in models.yaml and the facts files; this module only picks and formats.
Four computed tables (YaRN pair by pair, the YaRN paper's Table 2, the base changes,
RULER's window vs effective length) are registered as numbers whose value is a ready
Markdown table (fmt "").
"""

from __future__ import annotations

import math

import numpy as np

from .. import configs, facts, long_context, numerics, rope, rope_bounds, scaling
from .. import examples as ex
from ..formatting import PerLanguage, format_value
from . import number


def _cfg(key: str):
    return configs.load(key)


def _yarn(key: str) -> scaling.YarnPairs:
    return scaling.yarn_pairs_for_model(_cfg(key))


def _qwen3():
    """Qwen3-8B's config, its YaRN factor s and original context L."""
    cfg = _cfg(ex.SCALING_MODEL)
    sc = cfg["scaling"]
    return cfg, sc["factor"], sc["original_max_position_embeddings"]


def _methods() -> dict[str, np.ndarray]:
    return scaling.methods_for(_cfg(ex.SCALING_MODEL))


def _overshoot(method: str) -> np.ndarray:
    _, s, L = _qwen3()
    m = _methods()
    return scaling.angle_overshoot(m["none"], m[method], L, s)


def _beyond(method: str) -> int:
    _, s, L = _qwen3()
    m = _methods()
    return scaling.pairs_beyond_trained_angles(m["none"], m[method], L, s)


# --- Qwen3-8B with YaRN ×4 ---------------------------------------------------------------------------


@number("qwen3_yarn_context", ",", "Qwen3-8B 用 YaRN（factor 4）扩展后的上下文长度")
def _():
    sc = _cfg("qwen3_8b")["scaling"]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


@number("qwen3_yarn_factor", "g", "Qwen3-8B 文档给出的 YaRN 缩放倍数")
def _():
    return _cfg("qwen3_8b")["scaling"]["factor"]


@number("qwen3_yarn_low", ",", "Qwen3-8B YaRN 的下边界：编号不超过它的频率对保持原频率")
def _():
    return _yarn("qwen3_8b").low


@number("qwen3_yarn_high", ",", "Qwen3-8B YaRN 的上边界：编号不低于它的频率对频率除以 4")
def _():
    return _yarn("qwen3_8b").high


@number("qwen3_yarn_low_exact", ".2f", "Qwen3-8B 转满 β_fast 圈的频率对编号（取整前）")
def _():
    return _yarn("qwen3_8b").low_exact


@number("qwen3_yarn_high_exact", ".2f", "Qwen3-8B 正好转 β_slow 圈的频率对编号（取整前）")
def _():
    return _yarn("qwen3_8b").high_exact


@number("qwen3_yarn_attention_factor", ".4f", "Qwen3-8B YaRN 乘在 cos/sin 上的系数 0.1·ln 4 + 1")
def _():
    return _yarn("qwen3_8b").attention_factor


@number("qwen3_yarn_logit_scale", ".4f", "Qwen3-8B YaRN 让注意力 logit 放大的倍数（系数的平方）")
def _():
    return _yarn("qwen3_8b").attention_factor ** 2


@number("qwen3_yarn_kept", ",", "Qwen3-8B YaRN 中频率完全不变的频率对数")
def _():
    return _yarn("qwen3_8b").kept


@number("qwen3_yarn_blended", ",", "Qwen3-8B YaRN 中处于过渡带、按比例混合的频率对数")
def _():
    return _yarn("qwen3_8b").blended


@number("qwen3_yarn_interpolated", ",", "Qwen3-8B YaRN 中频率整体除以 4 的频率对数")
def _():
    return _yarn("qwen3_8b").interpolated


@number("qwen3_yarn_beyond_pairs", ",", "YaRN ×4 之后 Qwen3-8B 在 131,072 内转到没见过角度的频率对数")
def _():
    return _beyond("yarn")


@number("qwen3_pair0_turns", ",.0f", "Qwen3-8B 第 0 对在 32,768 个 token 内转的圈数")
def _():
    return _yarn("qwen3_8b").rotations[0]


@number("qwen3_config_max_positions_ratio", "g", "Qwen3-8B config 的 max_position_embeddings ÷ 预训练长度（40,960 ÷ 32,768）")
def _():
    cfg = _cfg("qwen3_8b")
    return cfg["max_position_embeddings"] / cfg["context"]


@number("yarn_beta_fast", "g", "YaRN 的 β（transformers 的 beta_fast）：转满这么多圈的频率对保持原频率")
def _():
    return scaling.YARN_BETA_FAST


@number("yarn_beta_slow", "g", "YaRN 的 α（transformers 的 beta_slow）：转不满这么多圈的频率对整体除以 s")
def _():
    return scaling.YARN_BETA_SLOW


@number("yarn_temperature_s8", ".3f", "YaRN 论文 Eq. 22：s=8 时的 0.1·ln s + 1")
def _():
    return scaling.yarn_attention_factor(ex.YARN_TEMPERATURE_EXAMPLE_S)


@number("yarn_temperature_example_s", "g", "YaRN 论文 Eq. 22 举例用的 s")
def _():
    return ex.YARN_TEMPERATURE_EXAMPLE_S


# --- the paper's ramp against the code's (YarnPairs.paper_ramp) -----------------------------------------


def _ramp_gap() -> tuple[int, scaling.YarnPairs]:
    t = _yarn("qwen3_8b")
    return t.largest_ramp_gap(), t


@number("qwen3_ramp_gap_pair", ",", "Qwen3-8B ×4：论文的 1−γ(r) 与代码的 ramp 相差最大的那一对")
def _():
    return _ramp_gap()[0]


@number("qwen3_ramp_gap", ".2f", "Qwen3-8B ×4：论文的 1−γ(r) 与代码的 ramp 的最大差")
def _():
    j, t = _ramp_gap()
    return abs(t.paper_ramp[j] - t.ramp[j])


@number("qwen3_ramp_gap_paper", ".2f", "差最大那一对按论文算的插值权重 1−γ(r)")
def _():
    j, t = _ramp_gap()
    return t.paper_ramp[j]


@number("qwen3_ramp_gap_code", ".2f", "差最大那一对按代码算的插值权重 ramp")
def _():
    j, t = _ramp_gap()
    return t.ramp[j]


@number("qwen3_ramp_gap_r", ".2f", "差最大那一对在 32,768 内转的圈数 r")
def _():
    j, t = _ramp_gap()
    return t.rotations[j]


# --- direct extrapolation and PI on Qwen3-8B ---------------------------------------------------------------


@number("qwen3_extrapolate_beyond_pairs", ",", "Qwen3-8B 不缩放直接用到 131,072 时，转到训练没见过角度的频率对数")
def _():
    return _beyond("none")


@number("qwen3_extrapolate_overshoot", "g", "不缩放时，这些频率对最大角度是训练所见最大角度的几倍（= s）")
def _():
    return round(float(np.nanmax(_overshoot("none"))), 12)


@number("pi_qwen3_step_before", ".1f", "Qwen3-8B 第 0 对每个 token 转过的角度（度），缩放前")
def _():
    return math.degrees(_methods()["none"][0])


@number("pi_qwen3_step_after", ".1f", "Qwen3-8B 第 0 对每个 token 转过的角度（度），PI ×4 之后")
def _():
    return math.degrees(_methods()["linear"][0])


@number("pi_qwen3_beyond_pairs", ",", "PI ×4 之后 Qwen3-8B 在 131,072 内转到没见过角度的频率对数")
def _():
    return _beyond("linear")


# --- NTK-aware ----------------------------------------------------------------------------------------------


@number("ntk_example_base", ",.0f", "NTK-aware：θ=10,000、s=4、d=128 时的新 base θ·s^(d/(d−2))")
def _():
    return scaling.ntk_aware_base(**ex.NTK_EXAMPLE)


@number("ntk_example_factor", ",", "NTK-aware 例子里的缩放倍数 s")
def _():
    return ex.NTK_EXAMPLE["factor"]


@number("ntk_example_theta", ",", "NTK-aware 例子里的原底数 θ")
def _():
    return ex.NTK_EXAMPLE["base"]


@number("ntk_example_dim", ",", "NTK-aware 例子里的旋转维数 d")
def _():
    return ex.NTK_EXAMPLE["dim"]


@number("ntk_example_naive_base", ",", "若直接把 base 乘以 s（不加指数修正）得到的 base")
def _():
    return ex.NTK_EXAMPLE["base"] * ex.NTK_EXAMPLE["factor"]


@number("ntk_example_naive_slowdown", ".3f", "θ=10,000、d=128 时若把 base 直接乘 4，最慢一对只慢了几倍")
def _():
    e = ex.NTK_EXAMPLE
    base = rope.inverse_frequencies(e["dim"], e["base"])
    naive = rope.inverse_frequencies(e["dim"], e["base"] * e["factor"])
    return base[-1] / naive[-1]


@number("ntk_qwen3_base", ",.0f", "NTK-aware ×4 作用在 Qwen3-8B（θ=1,000,000，d=128）上的新 base")
def _():
    cfg, s, _ = _qwen3()
    return scaling.ntk_aware_base(cfg["rope_theta"], s, cfg["head_dim"])


@number("ntk_qwen3_exponent", ".4f", "NTK-aware 的指数 d/(d−2)，d=128")
def _():
    d = _qwen3()[0]["head_dim"]
    return d / (d - 2)


@number("ntk_qwen3_mid_pair", ",", "NTK-aware 例子里看的中间一对的编号（d/4）")
def _():
    return len(_methods()["none"]) // 2


@number("ntk_qwen3_mid_slowdown", ".2f", "NTK-aware ×4 让 Qwen3-8B 中间一对（j=32）慢了几倍")
def _():
    m = _methods()
    j = len(m["none"]) // 2
    return m["none"][j] / m["ntk"][j]


@number("ntk_qwen3_slowest_slowdown", "g", "NTK-aware ×4 让 Qwen3-8B 最慢一对慢了几倍（应正好是 s）")
def _():
    m = _methods()
    return round(float(m["none"][-1] / m["ntk"][-1]), 12)


@number("ntk_qwen3_fastest_slowdown", "g", "NTK-aware ×4 让 Qwen3-8B 第 0 对慢了几倍（应正好是 1）")
def _():
    m = _methods()
    return round(float(m["none"][0] / m["ntk"][0]), 12)


@number("ntk_qwen3_beyond_pairs", ",", "NTK-aware ×4 之后 Qwen3-8B 在 131,072 内转到没见过角度的频率对数")
def _():
    return _beyond("ntk")


@number("ntk_qwen3_max_overshoot", ".2f", "NTK-aware ×4：没转满一圈的频率对里，最大角度超出训练所见的最大倍数")
def _():
    return float(np.nanmax(_overshoot("ntk")))


@number("ntk_qwen3_max_overshoot_pair", ",", "NTK-aware ×4：超出最多的是哪一对")
def _():
    return int(np.nanargmax(_overshoot("ntk")))


# --- DeepSeek-V3 with YaRN ×40 -----------------------------------------------------------------------


@number("deepseek_yarn_factor", "g", "DeepSeek-V3 的 YaRN 倍数 s")
def _():
    return _cfg("deepseek_v3")["scaling"]["factor"]


@number("deepseek_yarn_context", ",", "DeepSeek-V3 YaRN（factor 40 × 4,096）对应的上下文长度")
def _():
    sc = _cfg("deepseek_v3")["scaling"]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


@number("deepseek_yarn_low", ",", "DeepSeek-V3 YaRN 的下边界（64 维旋转部分）")
def _():
    return _yarn("deepseek_v3").low


@number("deepseek_yarn_high", ",", "DeepSeek-V3 YaRN 的上边界（64 维旋转部分）")
def _():
    return _yarn("deepseek_v3").high


@number("deepseek_yarn_kept", ",", "DeepSeek-V3 YaRN 中保持原频率的频率对数")
def _():
    return _yarn("deepseek_v3").kept


@number("deepseek_yarn_blended", ",", "DeepSeek-V3 YaRN 中处于过渡带的频率对数")
def _():
    return _yarn("deepseek_v3").blended


@number("deepseek_yarn_interpolated", ",", "DeepSeek-V3 YaRN 中整体除以 40 的频率对数")
def _():
    return _yarn("deepseek_v3").interpolated


@number("deepseek_yarn_attention_factor", ".4f", "transformers 按 DeepSeek-V3 的 mscale/mscale_all_dim（1/1）算出的 cos/sin 系数")
def _():
    return _yarn("deepseek_v3").attention_factor


@number("deepseek_mscale", ".4f", "DeepSeek-V3：0.1·ln 40 + 1（它的 mscale）")
def _():
    sc = _cfg("deepseek_v3")["scaling"]
    return scaling.yarn_mscale(sc["factor"], sc["mscale_all_dim"])


@number("deepseek_softmax_scale_multiplier", ".3f", "DeepSeek-V3 官方推理代码乘在 softmax 缩放上的 mscale²，mscale = 0.1·ln 40 + 1")
def _():
    sc = _cfg("deepseek_v3")["scaling"]
    return scaling.yarn_mscale(sc["factor"], sc["mscale_all_dim"]) ** 2


# --- gpt-oss with YaRN ×32, no rounding ----------------------------------------------------------------


@number("gptoss_yarn_factor", "g", "gpt-oss 的 YaRN 倍数 s")
def _():
    return _cfg("gpt_oss")["scaling"]["factor"]


@number("gptoss_yarn_context", ",", "gpt-oss YaRN（factor 32 × 4,096）对应的上下文长度")
def _():
    sc = _cfg("gpt_oss")["scaling"]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


@number("gptoss_yarn_low", ".2f", "gpt-oss YaRN 的下边界（truncate=false，不取整）")
def _():
    return _yarn("gpt_oss").low


@number("gptoss_yarn_high", ".2f", "gpt-oss YaRN 的上边界（truncate=false，不取整）")
def _():
    return _yarn("gpt_oss").high


@number("gptoss_yarn_attention_factor", ".4f", "gpt-oss YaRN 乘在 cos/sin 上的系数 0.1·ln 32 + 1")
def _():
    return _yarn("gpt_oss").attention_factor


@number("gptoss_low_if_truncated", ",", "gpt-oss 的下边界若像 transformers 默认那样向下取整")
def _():
    return math.floor(_yarn("gpt_oss").low)


@number("gptoss_high_if_truncated", ",", "gpt-oss 的上边界若像 transformers 默认那样向上取整")
def _():
    return math.ceil(_yarn("gpt_oss").high)


@number("gptoss_ex_pair", ",", "练习里看的 gpt-oss 频率对编号")
def _():
    return ex.GPTOSS_EXERCISE_PAIR


@number("gptoss_ex_ramp", ".3f", "gpt-oss 第 13 对的 ramp（不取整，gpt-oss 的做法）")
def _():
    return _yarn("gpt_oss").ramp[ex.GPTOSS_EXERCISE_PAIR]


@number("gptoss_ex_ramp_truncated", ".3f", "gpt-oss 第 13 对的 ramp（若取整）")
def _():
    t = _yarn("gpt_oss")
    return scaling.yarn_ramp(math.floor(t.low), math.ceil(t.high), len(t.pair))[ex.GPTOSS_EXERCISE_PAIR]


# --- Llama 3.1's three bands ---------------------------------------------------------------------------


def _llama31_bands() -> np.ndarray:
    return scaling.llama3_bands_for_model(_cfg("llama31_8b"))


def _llama31_scaling() -> dict:
    return _cfg("llama31_8b")["scaling"]


@number("llama31_unchanged", ",", "Llama 3.1 8B 中周期短于 2,048 token、频率不变的频率对数")
def _():
    return int(np.sum(_llama31_bands() == "kept"))


@number("llama31_scaled", ",", "Llama 3.1 8B 中周期长于 8,192 token、频率除以 8 的频率对数")
def _():
    return int(np.sum(_llama31_bands() == "scaled"))


@number("llama31_smoothed", ",", "Llama 3.1 8B 中处于两者之间、平滑过渡的频率对数")
def _():
    return int(np.sum(_llama31_bands() == "smoothed"))


@number("llama31_smooth_first", ",", "Llama 3.1 平滑段的第一对编号")
def _():
    return int(np.flatnonzero(_llama31_bands() == "smoothed")[0])


@number("llama31_smooth_last", ",", "Llama 3.1 平滑段的最后一对编号")
def _():
    return int(np.flatnonzero(_llama31_bands() == "smoothed")[-1])


@number("llama31_high_freq_wavelength", ",.0f", "Llama 3.1 的高频分界周期 original ÷ high_freq_factor（token）")
def _():
    sc = _llama31_scaling()
    return sc["original_max_position_embeddings"] / sc["high_freq_factor"]


@number("llama31_low_freq_wavelength", ",.0f", "Llama 3.1 的低频分界周期 original ÷ low_freq_factor（token）")
def _():
    sc = _llama31_scaling()
    return sc["original_max_position_embeddings"] / sc["low_freq_factor"]


@number("llama31_factor", "g", "Llama 3.1 的缩放倍数 s")
def _():
    return _llama31_scaling()["factor"]


@number("llama31_low_freq_factor", "g", "Llama 3.1 的 low_freq_factor")
def _():
    return _llama31_scaling()["low_freq_factor"]


@number("llama31_high_freq_factor", "g", "Llama 3.1 的 high_freq_factor")
def _():
    return _llama31_scaling()["high_freq_factor"]


@number("llama31_original_context", ",", "Llama 3.1 的原始上下文 original_max_position_embeddings")
def _():
    return _llama31_scaling()["original_max_position_embeddings"]


@number("llama31_factor_times_original", ",", "Llama 3.1 的 factor × original_max_position_embeddings（8 × 8,192），注意它不等于 131,072")
def _():
    sc = _llama31_scaling()
    return int(sc["factor"] * sc["original_max_position_embeddings"])


# --- base raising (ABF): Code Llama worked through, then every case (posenc.long_context) ------------------


def _codellama():
    return long_context.base_raise("codellama")


def _codellama_freqs():
    c = _codellama()
    return rope.inverse_frequencies(c.head_dim, c.base), rope.inverse_frequencies(c.head_dim, c.new_base)


@number("abf_codellama_slowest_wavelength_before", ",.0f", "Code Llama 调底数前（θ=10,000）最慢一对的周期（token）")
def _():
    return rope.wavelengths(_codellama_freqs()[0])[-1]


@number("abf_codellama_slowest_wavelength_after", ",.0f", "Code Llama 调底数后（θ=1,000,000）最慢一对的周期（token）")
def _():
    return rope.wavelengths(_codellama_freqs()[1])[-1]


@number("abf_codellama_mid_pair", ",", "ABF 例子里看的中间一对的编号（d/4）")
def _():
    return _codellama().head_dim // 4


@number("abf_codellama_mid_stretch", ".3g", "Code Llama 调底数后中间一对（d/4）的周期拉长几倍：(θ'/θ)^(1/2)")
def _():
    before, after = (rope.wavelengths(f) for f in _codellama_freqs())
    j = _codellama().head_dim // 4
    return after[j] / before[j]


@number("abf_codellama_ntk_factor", ".2f", "Code Llama 的 θ 10,000 → 1,000,000（d=128）等于 NTK-aware 取多大的 s；也是最慢一对周期拉长的倍数")
def _():
    return _codellama().ntk_factor()


@number("abf_codellama_length_ratio", "g", "Code Llama 长上下文微调把训练长度扩了几倍（16,384 ÷ 4,096）")
def _():
    c = _codellama()
    return c.new_length / c.length


@number("abf_codellama_turned_before", ",", "θ=10,000、4,096 个 token 内转满一圈的频率对数（Llama 2 / Code Llama 之前）")
def _():
    return _codellama().change().turned_before


@number("abf_codellama_turned_after", ",", "θ=1,000,000、16,384 个 token 内转满一圈的频率对数（Code Llama）")
def _():
    return _codellama().change().turned_after


@number("abf_codellama_slowest_share_before", ".1%", "θ=10,000 时最慢一对在 4,096 个 token 内转过的圈的比例")
def _():
    return _codellama().change().slowest_fraction_before


@number("abf_codellama_slowest_share_after", ".2%", "θ=1,000,000 时最慢一对在 16,384 个 token 内转过的圈的比例")
def _():
    return _codellama().change().slowest_fraction_after


@number("abf_codellama_far_turns_before", ".2f", "若仍是 θ=10,000，最慢一对到位置 100,000 时转了几圈")
def _():
    c = _codellama()
    return c.far / rope.wavelengths(_codellama_freqs()[0])[-1]


@number("abf_codellama_far_turned_after", ",", "θ=1,000,000 时到位置 100,000 为止转满一圈的频率对数")
def _():
    return scaling.pairs_completing_turn(_codellama_freqs()[1], _codellama().far)


@number("abf_codellama_far_share_after", ".1%", "θ=1,000,000 时最慢一对到位置 100,000 转过的圈的比例")
def _():
    return scaling.turn_fraction(_codellama_freqs()[1], _codellama().far)[-1]


def _arrow(before: str, after: str) -> str:
    return f"{before} → {after}"


_ABF_HEAD = {
    "zh": "| 案例 | 底数 $\\theta$ | 训练长度 | 转满一圈的对 | 最慢一对转过 | NTK-aware 扩几倍会换出这个底数 |",
    "en": "| case | base $\\theta$ | training length | pairs completing a turn | slowest pair covers | NTK-aware extension that gives this base |",
}
_OF_PAIRS = {"zh": "（共 {n}）", "en": " (of {n})"}


def abf_cases_markdown(lang: str) -> str:
    """The real base changes as a Markdown table, in ``lang``."""
    lines = [_ABF_HEAD[lang], "|:--|--:|--:|--:|--:|--:|"]
    for c in long_context.base_raises():
        ch = c.change()
        lines.append(
            f"| {c.label_in(lang)} | {_arrow(format_value(c.base, ','), format_value(c.new_base, ','))} "
            f"| {_arrow(format_value(c.length, ','), format_value(c.new_length, ','))} "
            f"| {_arrow(str(ch.turned_before), str(ch.turned_after))}{_OF_PAIRS[lang].format(n=ch.pairs)} "
            f"| {_arrow(format_value(ch.slowest_fraction_before, '.2%'), format_value(ch.slowest_fraction_after, '.2%'))} "
            f"| {format_value(c.ntk_factor(), '.3g')} |"
        )
    return "\n".join(lines)


@number("abf_cases_table", "", "真实的调底数（ABF）案例：θ、训练长度、转满一圈的对数、最慢一对转过的比例、等效 NTK 倍数")
def _():
    return PerLanguage(zh=abf_cases_markdown("zh"), en=abf_cases_markdown("en"))


@number("abf_cases_fewer_turned", ",", "表里的调底数案例中，训练长度变长、转满一圈的对数却没有变多的案例数")
def _():
    return sum(c.change().turned_after <= c.change().turned_before for c in long_context.base_raises())


@number("abf_cases_count", ",", "表里的调底数案例数")
def _():
    return len(long_context.base_raises())


# --- window ≠ effective length (RULER) -----------------------------------------------------------------


_RULER_HEAD = {"zh": "| 模型 | 声称长度 | 有效长度 | 有效 ÷ 声称 |",
               "en": "| model | claimed length | effective length | effective ÷ claimed |"}
# The Qwen row's scores are Qwen's own, and RULER's table prints an effective length at which the score is already
# under the threshold; the row shows the length by the threshold (the fact ruler_qwen3_8b_effective) and says what
# the table prints, so that the cell, the ratio and the chart agree with the text.
_SELF_REPORTED = {"zh": "（分数由 Qwen 团队自报；RULER 表里印的是 {printed}，这里按门槛算，见表下）",
                  "en": " (scores reported by Qwen; RULER's table prints {printed}, here it is by the threshold, see below the table)"}


def ruler_markdown(lang: str) -> str:
    """The RULER rows as a Markdown table, in ``lang``."""
    lines = [_RULER_HEAD[lang], "|:--|--:|--:|--:|"]
    for r in long_context.ruler_rows():
        model = r.model + (_SELF_REPORTED[lang].format(printed=facts.get("ruler_qwen3_8b_effective_printed").value)
                           if r.key == "qwen3_8b" else "")
        share = format_value(r.share, ".1%" if r.share < 0.1 else ".0%", lang)
        lines.append(f"| {model} | {r.claimed} | {r.effective} | {share} |")
    return "\n".join(lines)


@number("ruler_table", "", "RULER 表：声称长度、有效长度和两者之比（作者与 Qwen 团队报告）")
def _():
    return PerLanguage(zh=ruler_markdown("zh"), en=ruler_markdown("en"))


@number("ruler_share_max", ".0%", "RULER 表所列模型里，有效长度占声称长度的最大比例")
def _():
    return max(r.share for r in long_context.ruler_rows())


@number("ruler_share_min", ".1%", "RULER 表所列模型里，有效长度占声称长度的最小比例")
def _():
    return min(r.share for r in long_context.ruler_rows())


@number("ruler_rows_count", ",", "本课列出的 RULER 表行数")
def _():
    return len(long_context.ruler_rows())


@number("ruler_share_llama31_8b", ".0%", "Llama 3.1 8B 在 RULER 上的有效长度占声称长度的比例")
def _():
    return next(r.share for r in long_context.ruler_rows() if r.key == "llama31_8b")


# === tables of the YaRN section =====================================================================

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _sci(x: float) -> str:
    """1.23×10⁻⁴ (three significant digits)."""
    mantissa, exponent = f"{x:.2e}".split("e")
    if int(exponent) == 0:
        return mantissa
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def _tokens(x: float) -> str:
    return f"{x:,.2f}" if x < 100 else f"{x:,.0f}"


def _turns(r: float) -> str:
    if r < 1:
        return f"{r:.3f}"
    return f"{r:,.2f}" if r < 10 else f"{r:,.1f}" if r < 1000 else f"{r:,.0f}"


def table_rows(t: scaling.YarnPairs) -> list[int]:
    """The pairs the short YaRN table shows: a few kept, every third through the ramp, a few interpolated."""
    n = len(t.pair)
    lo, hi = int(math.floor(t.low)), int(math.ceil(t.high))
    rows = {0, lo // 2, lo, lo + 1, hi - 1, hi, hi + 1, (hi + n - 1) // 2, n - 1, t.largest_ramp_gap()}
    rows |= set(range(lo + 1, hi, max(1, (hi - lo) // 5)))
    return sorted(r for r in rows if 0 <= r < n)


_YARN_HEAD = {
    "zh": "| 对 i | 周期 λᵢ（token） | 圈数 rᵢ = L/λᵢ | 论文 1−γ(rᵢ) | 代码 rampᵢ | 区段 | ω′ᵢ/ωᵢ | 最终频率 ω′ᵢ |",
    "en": "| pair i | period λᵢ (tokens) | turns rᵢ = L/λᵢ | paper 1−γ(rᵢ) | code rampᵢ | band | ω′ᵢ/ωᵢ | final frequency ω′ᵢ |",
}
_YARN_BAND = {"zh": ("保持原频率", "除以 {s}", "过渡"), "en": ("unchanged", "divided by {s}", "blend")}


def yarn_table_markdown(t: scaling.YarnPairs, rows: list[int] | None = None, lang: str = "zh") -> str:
    """A Markdown table of ``t`` (see scaling.yarn_pairs), one row per pair in ``rows`` (all when None), in ``lang``.

    Columns: pair i, wavelength λ_i, r_i = L/λ_i, the paper's weight 1 − γ(r_i),
    the code's ramp_i, the band, ω'_i/ω_i and the final ω'_i.
    """
    n = len(t.pair)
    idx = range(n) if rows is None else rows
    if any(isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < n for j in idx):
        raise ValueError(f"rows must be pair indices 0 … {n - 1}, got {rows!r}; e.g. table_rows(t)")
    omega = 2 * np.pi / t.wavelength
    paper = t.paper_ramp
    # headers in plain Unicode, not TeX: a formula in a header is set by KaTeX into a few hundred bytes of markup
    kept, divided, blend = _YARN_BAND[lang]
    # default alignment: each of up to 8 × 64 cells would otherwise carry a style attribute
    lines = [_YARN_HEAD[lang], "|---|---|---|---|---|---|---|---|"]
    for j in idx:
        ramp = float(t.ramp[j])
        band = kept if ramp == 0 else divided.format(s=f"{t.factor:g}") if ramp == 1 else blend
        lines.append(
            f"| {int(t.pair[j])} | {_tokens(float(t.wavelength[j]))} | {_turns(float(t.rotations[j]))} | {paper[j]:.3f} "
            f"| {ramp:.3f} | {band} | {t.inv_freq[j] / omega[j]:.3f} | {_sci(float(t.inv_freq[j]))} |"
        )
    return "\n".join(lines)


@number("qwen3_yarn_table", "", "Qwen3-8B YaRN ×4 逐对表（挑出的行）：周期、圈数 r、论文与代码的插值权重、最终频率")
def _():
    t = _yarn("qwen3_8b")
    return PerLanguage(zh=yarn_table_markdown(t, table_rows(t)), en=yarn_table_markdown(t, table_rows(t), "en"))


@number("qwen3_yarn_table_full", "", "Qwen3-8B YaRN ×4 逐对表（全部 64 对）")
def _():
    t = _yarn("qwen3_8b")
    return PerLanguage(zh=yarn_table_markdown(t), en=yarn_table_markdown(t, lang="en"))


# YaRN paper Table 2 (Llama 2 fine-tuned with YaRN, s = 32): the evaluation lengths and the facts per row.
YARN_TABLE2_LENGTHS = ("8k", "32k", "64k", "98k", "128k")
YARN_TABLE2_ROWS = (("Llama 2 7B", "7b"), ("Llama 2 13B", "13b"))


_TABLE2_MODEL = {"zh": "模型（YaRN 微调，s = {s}）", "en": "model (fine-tuned with YaRN, s = {s})"}


def yarn_table2_markdown(lang: str = "zh") -> str:
    """The YaRN paper's Table 2 perplexities as a Markdown table, every cell read from facts_lesson5.yaml."""
    model = _TABLE2_MODEL[lang].format(s=facts.get("yarn_s_128k").text_in(lang))
    head = "| " + model + " | " + " | ".join(YARN_TABLE2_LENGTHS) + " |"
    lines = [head, "|:--|" + "---:|" * len(YARN_TABLE2_LENGTHS)]
    for label, size in YARN_TABLE2_ROWS:
        cells = [facts.get(f"yarn_t2_{size}_ppl_{n}").text for n in YARN_TABLE2_LENGTHS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


@number("yarn_table2", "", "YaRN 论文表 2：Llama 2 7B/13B 用 YaRN（s=32）微调后在各长度上的困惑度（作者自报）")
def _():
    return PerLanguage(zh=yarn_table2_markdown("zh"), en=yarn_table2_markdown("en"))


@number("abf_codellama_far_over_length", ".1f", "Code Llama 自报可用的 100,000 是它新训练长度 16,384 的几倍")
def _():
    c = _codellama()
    return c.far / c.new_length


# === deep dives ==========================================================================

# --- ABF: SmolLM3's first long stage by the config (the table) and by the release blog -------------------------


def _smol(which: str) -> long_context.BaseRaise:
    return long_context.base_raise("smollm3_32k") if which == "config" else long_context.smollm3_blog_variant()


@number("abf_smollm3_turned_config", ",", "SmolLM3 第一段按训练配置（θ=2,000,000）在 32,768 内转满一圈的对数")
def _():
    return _smol("config").change().turned_after


@number("abf_smollm3_turned_blog", ",", "SmolLM3 第一段按发布博客（θ=1.5M）在 32,768 内转满一圈的对数")
def _():
    return _smol("blog").change().turned_after


@number("abf_smollm3_turned_before", ",", "SmolLM3 主体预训练（θ=50,000，4,096）转满一圈的对数")
def _():
    return _smol("config").change().turned_before


@number("abf_smollm3_share_config", ".2%", "SmolLM3 第一段按训练配置，最慢一对在 32,768 内转过的比例")
def _():
    return _smol("config").change().slowest_fraction_after


@number("abf_smollm3_share_blog", ".2%", "SmolLM3 第一段按发布博客，最慢一对在 32,768 内转过的比例")
def _():
    return _smol("blog").change().slowest_fraction_after


@number("abf_smollm3_ntk_config", ".3g", "SmolLM3 第一段按训练配置：NTK-aware 扩几倍会换出这个底数")
def _():
    return _smol("config").ntk_factor()


@number("abf_smollm3_ntk_blog", ".3g", "SmolLM3 第一段按发布博客：NTK-aware 扩几倍会换出这个底数")
def _():
    return _smol("blog").ntk_factor()


# --- LongRoPE on Phi-3.5-mini ------------------------------------------------------------------------------------


def _phi():
    cfg = _cfg(ex.LONGROPE_MODEL)
    kind, kwargs = scaling.scaling_arguments(cfg)
    short, _ = scaling.longrope(**kwargs)
    long_, att = scaling.longrope(**{**kwargs, "seq_len": cfg["max_position_embeddings"]})
    omega = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"])
    return cfg, kwargs, omega, short, long_, att


def _phi_factor() -> float:
    cfg = _cfg(ex.LONGROPE_MODEL)
    return cfg["max_position_embeddings"] / cfg["context"]


@number("longrope_phi35_pairs", ",", "Phi-3.5-mini 每个头的频率对数（short/long 两个列表各有这么多项）")
def _():
    return len(_phi()[2])


@number("longrope_phi35_factor", "g", "Phi-3.5-mini 的 s = max_position_embeddings ÷ original_max_position_embeddings")
def _():
    return _phi_factor()


@number("longrope_phi35_short_max", ".2f", "Phi-3.5-mini short_factor 的最大值")
def _():
    return max(_phi()[1]["short_factor"])


@number("longrope_phi35_long_min", ".2f", "Phi-3.5-mini long_factor 的最小值（第 0 对）")
def _():
    return min(_phi()[1]["long_factor"])


@number("longrope_phi35_long_max", ".2f", "Phi-3.5-mini long_factor 的最大值（最慢一对）")
def _():
    return max(_phi()[1]["long_factor"])


@number("longrope_phi35_long_above_s", ",", "Phi-3.5-mini long_factor 中大于 s（比位置插值压得还多）的对数")
def _():
    return int(np.sum(np.asarray(_phi()[1]["long_factor"]) > _phi_factor()))


@number("longrope_phi35_first_above_s", ",", "Phi-3.5-mini long_factor 第一次大于 s 的那一对的编号")
def _():
    return int(np.flatnonzero(np.asarray(_phi()[1]["long_factor"]) > _phi_factor())[0])


@number("longrope_phi35_not_turning", ",", "Phi-3.5-mini 不缩放时在 4,096 内转不满一圈的对数")
def _():
    cfg, _, omega, *_ = _phi()
    return rope.pairs_not_completing_turn(omega, cfg["context"])


@number("longrope_phi35_not_turning_short", ",", "Phi-3.5-mini 用 short_factor 时在 4,096 内转不满一圈的对数")
def _():
    cfg, _, _, short, _, _ = _phi()
    return rope.pairs_not_completing_turn(short, cfg["context"])


@number("longrope_phi35_beyond_long", ",", "Phi-3.5-mini 用 long_factor 扩到 131,072 时转到训练没见过角度的对数")
def _():
    cfg, _, omega, _, long_, _ = _phi()
    return scaling.pairs_beyond_trained_angles(omega, long_, cfg["context"], _phi_factor())


@number("longrope_phi35_attention_factor", ".4f", "Phi-3.5-mini 乘在 cos/sin 上的系数 √(1 + ln 32 / ln 4,096)")
def _():
    return _phi()[5]


@number("longrope_phi35_logit_scale", ".4f", "Phi-3.5-mini 的注意力 logit 放大倍数（系数的平方）")
def _():
    return _phi()[5] ** 2


@number("longrope_phi35_yarn_factor", ".4f", "同样 s=32 时 YaRN 的系数 0.1·ln 32 + 1，作对照")
def _():
    return scaling.yarn_attention_factor(_phi_factor())


# --- Liu et al.'s critical dimension and Men et al.'s base test on the course's configs ----------------------------


def _bound_rows(lang: str = "zh") -> list[tuple[str, int, float, int]]:
    """(label, head_dim, base, length) for each row: the models as trained, then the recipes' long stages."""
    rows = [(_cfg(k).name, _cfg(k)["head_dim"], _cfg(k)["rope_theta"], _cfg(k)["context"]) for k in ex.BOUND_MODELS]
    for key in ex.BOUND_RECIPES:
        c = long_context.base_raise(key)
        rows.append((c.label_in(lang), c.head_dim, c.new_base, c.new_length))
    return rows


def men_table_fact(length: int) -> str:
    """The facts name of Men et al.'s Table 2 entry for a power-of-two length (4,096 → men_t2_4k)."""
    return f"men_t2_{length // 1024}k"


_BOUNDS_HEAD = {
    "zh": "| 配置 | 底数 θ | 训练长度 L | Liu 的 d_extra | 转不满一圈的对 | B 的最小值 | B 第一次小于 0 的距离 | Men 表 2 的下界 |",
    "en": ("| config | base θ | training length L | Liu's d_extra | pairs not completing a turn | minimum of B "
           "| first distance with B < 0 | Men's Table 2 bound |"),
}


def bounds_table_markdown(lang: str = "zh") -> str:
    lines = [_BOUNDS_HEAD[lang], "|:--|--:|--:|--:|--:|--:|--:|--:|"]
    for label, d, base, L in _bound_rows(lang):
        check = rope_bounds.check_base(d, base, L)
        extra = rope_bounds.critical_dimension(d, base, L)
        first = "—" if check.passes else format_value(check.first_negative, ",")
        lines.append(f"| {label} | {format_value(base, ',')} | {format_value(L, ',')} | {extra} | {d // 2 - extra // 2} "
                     f"| {format_value(check.minimum, '.2f')} | {first} | {facts.get(men_table_fact(L)).text} |")
    return "\n".join(lines)


@number("men_bounds_table", "", "Liu 的临界维度与 Men 的 B≥0 检验，算在本课的真实配置上（表 2 的值为论文自报）")
def _():
    return PerLanguage(zh=bounds_table_markdown("zh"), en=bounds_table_markdown("en"))


@number("liu_d_extra_llama2_7b", ",", "Liu et al. 的临界维度：Llama 2（θ=10,000，L=4,096）")
def _():
    c = _cfg("llama2_7b")
    return rope_bounds.critical_dimension(c["head_dim"], c["rope_theta"], c["context"])


@number("liu_d_extra_qwen3_8b", ",", "Liu et al. 的临界维度：Qwen3-8B（θ=1,000,000，L=32,768）")
def _():
    c = _cfg("qwen3_8b")
    return rope_bounds.critical_dimension(c["head_dim"], c["rope_theta"], c["context"])


def _men(key: str) -> rope_bounds.BaseCheck:
    c = _cfg(key)
    return rope_bounds.check_base(c["head_dim"], c["rope_theta"], c["context"])


@number("men_first_negative_qwen3_8b", ",", "Qwen3-8B（θ=1e6）：B_{m,θ} 第一次小于 0 的距离 m")
def _():
    return _men("qwen3_8b").first_negative


@number("men_minimum_qwen3_8b", ".2f", "Qwen3-8B：B_{m,θ} 在 0 … 32,768 上的最小值")
def _():
    return _men("qwen3_8b").minimum


@number("men_first_negative_llama2_7b", ",", "Llama 2（θ=10,000）：B_{m,θ} 第一次小于 0 的距离 m")
def _():
    return _men("llama2_7b").first_negative


def _men_32k(base: float) -> rope_bounds.BaseCheck:
    return rope_bounds.check_base(_cfg("qwen3_8b")["head_dim"], base, _cfg("qwen3_8b")["context"])


@number("men_table_base_32k_minimum", ".2f", "Men 表 2 给 32k 的下界 6.4e5，在 0 … 32,768 上 B 的最小值（小于 0：不过）")
def _():
    return _men_32k(facts.get("men_t2_32k").value).minimum


@number("men_neighbour_base_32k", ",", "比表 2 的 32k 下界低一档的底数（两位有效数字）")
def _():
    return ex.MEN_NEIGHBOUR_BASE_32K


@number("men_neighbour_base_32k_minimum", ".2f", "这个更小的底数在 0 … 32,768 上 B 的最小值（不小于 0：通过）")
def _():
    return _men_32k(ex.MEN_NEIGHBOUR_BASE_32K).minimum


# --- bfloat16 vs float32 angles on Qwen3-8B ------------------------------------------------------------------------


def _bf16_positions() -> dict[str, int]:
    """Qwen3-8B's last trained position (L − 1) and the last one of its YaRN window (s·L − 1)."""
    cfg, s, L = _qwen3()
    return {"train_end": L - 1, "yarn_end": int(s * L) - 1}


def _bf16(where: str, precision: str) -> np.ndarray:
    cfg = _cfg(ex.SCALING_MODEL)
    return numerics.angle_errors(_bf16_positions()[where], cfg["head_dim"], cfg["rope_theta"], precision)


@number("bf16_position_train_end", ",", "Qwen3-8B 训练长度里的最后一个位置 L−1")
def _():
    return _bf16_positions()["train_end"]


@number("bf16_position_yarn_end", ",", "Qwen3-8B 用 YaRN 扩展后的最后一个位置 s·L−1")
def _():
    return _bf16_positions()["yarn_end"]


@number("bf16_rounded_train_end", ",", "位置 32,767 存成 bf16 后的值")
def _():
    return int(numerics.to_bfloat16(_bf16_positions()["train_end"]))


@number("bf16_spacing_train_end", ",", "bf16 在位置 32,767 附近相邻两个可表示值的间隔")
def _():
    return numerics.bf16_spacing(_bf16_positions()["train_end"])


@number("bf16_spacing_yarn_end", ",", "bf16 在位置 131,071 附近相邻两个可表示值的间隔")
def _():
    return numerics.bf16_spacing(_bf16_positions()["yarn_end"])


@number("bf16_angle_error_train_end", ".1f", "Qwen3-8B 在位置 32,767：bf16 算出的角度与精确值的最大误差（弧度）")
def _():
    return _bf16("train_end", "bfloat16").max()


@number("bf16_angle_error_yarn_end", ".1f", "Qwen3-8B 在位置 131,071：bf16 算出的角度的最大误差（弧度）")
def _():
    return _bf16("yarn_end", "bfloat16").max()


@number("bf16_pairs_beyond_pi_train_end", ",", "Qwen3-8B 在位置 32,767：bf16 角度误差超过 π 的对数")
def _():
    return int(np.sum(_bf16("train_end", "bfloat16") > math.pi))


@number("bf16_pairs_beyond_pi_yarn_end", ",", "Qwen3-8B 在位置 131,071：bf16 角度误差超过 π 的对数")
def _():
    return int(np.sum(_bf16("yarn_end", "bfloat16") > math.pi))


@number("bf16_fp32_error_train_end", ".4f", "Qwen3-8B 在位置 32,767：fp32 算出的角度的最大误差（弧度）")
def _():
    return _bf16("train_end", "float32").max()


@number("bf16_fp32_error_yarn_end", ".4f", "Qwen3-8B 在位置 131,071：fp32 算出的角度的最大误差（弧度）")
def _():
    return _bf16("yarn_end", "float32").max()


def _fp32_transformers(where: str) -> np.ndarray:
    cfg = _cfg(ex.SCALING_MODEL)
    return numerics.transformers_float32_angle_errors(_bf16_positions()[where], cfg["head_dim"], cfg["rope_theta"])


@number("bf16_fp32_hf_error_train_end", ".4f", "Qwen3-8B 在位置 32,767：用 transformers 自己的 fp32 inv_freq 算出的角度的最大误差（弧度）")
def _():
    return _fp32_transformers("train_end").max()


@number("bf16_fp32_hf_error_yarn_end", ".4f", "Qwen3-8B 在位置 131,071：用 transformers 自己的 fp32 inv_freq 算出的角度的最大误差（弧度）")
def _():
    return _fp32_transformers("yarn_end").max()


@number("bf16_cos_sin_cast_error", ".4f", "fp32 的 cos/sin 表转成 bf16 时每一项最多变多少（Qwen3-8B，位置 131,071）")
def _():
    cfg = _cfg(ex.SCALING_MODEL)
    return numerics.cos_sin_cast_error(_bf16_positions()["yarn_end"], cfg["head_dim"], cfg["rope_theta"])


@number("bf16_exact_integers", ",", "bf16 能精确表示的最大的一段连续整数到多少（2 的「有效位数」次方）")
def _():
    return numerics.largest_exact_integer()
