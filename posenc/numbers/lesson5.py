"""Numbers lesson 5 (long context: PI → NTK-aware → YaRN, Llama 3) quotes.

Computed from posenc.scaling with the models' own settings from models.yaml.
"""

from __future__ import annotations

from .. import configs, scaling
from . import number


def _yarn_table(key: str) -> scaling.YarnPairs:
    cfg = configs.load(key)
    sc = cfg["scaling"]
    return scaling.yarn_pairs(
        cfg["head_dim"], cfg["rope_theta"], sc["factor"], sc["original_max_position_embeddings"],
        sc.get("beta_fast") or scaling.YARN_BETA_FAST, sc.get("beta_slow") or scaling.YARN_BETA_SLOW,
        sc.get("truncate", True), sc.get("mscale"), sc.get("mscale_all_dim"), sc.get("attention_factor"),
        cfg.get("rotary_fraction", 1.0),
    )


# --- Qwen3-8B with YaRN ×4 ---------------------------------------------------------------------------


@number("qwen3_yarn_context", ",", "Qwen3-8B 用 YaRN（factor 4）扩展后的上下文长度")
def _():
    sc = configs.load("qwen3_8b")["scaling"]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


@number("qwen3_yarn_factor", "g", "Qwen3-8B 文档给出的 YaRN 缩放倍数")
def _():
    return configs.load("qwen3_8b")["scaling"]["factor"]


@number("qwen3_yarn_low", ",", "Qwen3-8B YaRN 的下边界：编号低于它的频率对保持原频率")
def _():
    return _yarn_table("qwen3_8b").low


@number("qwen3_yarn_high", ",", "Qwen3-8B YaRN 的上边界：编号不低于它的频率对频率除以 4")
def _():
    return _yarn_table("qwen3_8b").high


@number("qwen3_yarn_attention_factor", ".4f", "Qwen3-8B YaRN 乘在 cos/sin 上的系数 0.1·ln 4 + 1")
def _():
    return _yarn_table("qwen3_8b").attention_factor


@number("qwen3_yarn_logit_scale", ".4f", "Qwen3-8B YaRN 让注意力 logit 放大的倍数（系数的平方）")
def _():
    return _yarn_table("qwen3_8b").attention_factor ** 2


@number("qwen3_yarn_kept", ",", "Qwen3-8B YaRN 中频率完全不变的频率对数")
def _():
    return _yarn_table("qwen3_8b").kept


@number("qwen3_yarn_blended", ",", "Qwen3-8B YaRN 中处于过渡带、按比例混合的频率对数")
def _():
    return _yarn_table("qwen3_8b").blended


@number("qwen3_yarn_interpolated", ",", "Qwen3-8B YaRN 中频率整体除以 4 的频率对数")
def _():
    return _yarn_table("qwen3_8b").interpolated


# --- DeepSeek-V3 with YaRN ×40 -----------------------------------------------------------------------


@number("deepseek_yarn_context", ",", "DeepSeek-V3 YaRN（factor 40 × 4,096）对应的上下文长度")
def _():
    sc = configs.load("deepseek_v3")["scaling"]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


@number("deepseek_yarn_low", ",", "DeepSeek-V3 YaRN 的下边界（64 维旋转部分）")
def _():
    return _yarn_table("deepseek_v3").low


@number("deepseek_yarn_high", ",", "DeepSeek-V3 YaRN 的上边界（64 维旋转部分）")
def _():
    return _yarn_table("deepseek_v3").high


@number("deepseek_yarn_attention_factor", ".4f", "transformers 按 DeepSeek-V3 的 mscale/mscale_all_dim（1/1）算出的 cos/sin 系数")
def _():
    return _yarn_table("deepseek_v3").attention_factor


@number("deepseek_softmax_scale_multiplier", ".3f", "DeepSeek-V3 官方推理代码乘在 softmax 缩放上的 mscale²，mscale = 0.1·ln 40 + 1")
def _():
    sc = configs.load("deepseek_v3")["scaling"]
    return scaling.yarn_mscale(sc["factor"], sc["mscale_all_dim"]) ** 2


# --- gpt-oss with YaRN ×32, no rounding ----------------------------------------------------------------


@number("gptoss_yarn_low", ".2f", "gpt-oss YaRN 的下边界（truncate=false，不取整）")
def _():
    return _yarn_table("gpt_oss").low


@number("gptoss_yarn_high", ".2f", "gpt-oss YaRN 的上边界（truncate=false，不取整）")
def _():
    return _yarn_table("gpt_oss").high


@number("gptoss_yarn_attention_factor", ".4f", "gpt-oss YaRN 乘在 cos/sin 上的系数 0.1·ln 32 + 1")
def _():
    return _yarn_table("gpt_oss").attention_factor


@number("gptoss_yarn_context", ",", "gpt-oss YaRN（factor 32 × 4,096）对应的上下文长度")
def _():
    sc = configs.load("gpt_oss")["scaling"]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


# --- Llama 3.1's three bands ---------------------------------------------------------------------------


def _llama31_split() -> dict[str, int]:
    cfg = configs.load("llama31_8b")
    sc = cfg["scaling"]
    return scaling.llama3_split(cfg["head_dim"], cfg["rope_theta"], sc["low_freq_factor"], sc["high_freq_factor"],
                                sc["original_max_position_embeddings"])


@number("llama31_unchanged", ",", "Llama 3.1 8B 中周期短于 2,048 token、频率不变的频率对数")
def _():
    return _llama31_split()["unchanged"]


@number("llama31_scaled", ",", "Llama 3.1 8B 中周期长于 8,192 token、频率除以 8 的频率对数")
def _():
    return _llama31_split()["scaled"]


@number("llama31_smoothed", ",", "Llama 3.1 8B 中处于两者之间、平滑过渡的频率对数")
def _():
    return _llama31_split()["smoothed"]


@number("llama31_high_freq_wavelength", ",.0f", "Llama 3.1 的高频分界周期 original ÷ high_freq_factor（token）")
def _():
    sc = configs.load("llama31_8b")["scaling"]
    return sc["original_max_position_embeddings"] / sc["high_freq_factor"]


@number("llama31_low_freq_wavelength", ",.0f", "Llama 3.1 的低频分界周期 original ÷ low_freq_factor（token）")
def _():
    sc = configs.load("llama31_8b")["scaling"]
    return sc["original_max_position_embeddings"] / sc["low_freq_factor"]


# --- NTK-aware and the YaRN paper's worked numbers -----------------------------------------------------

NTK_EXAMPLE = {"base": 10_000, "factor": 4, "dim": 128}  # the example lesson 5 works through


@number("ntk_example_base", ",.0f", "NTK-aware：θ=10,000、s=4、d=128 时的新 base θ·s^(d/(d−2))")
def _():
    return scaling.ntk_aware_base(**NTK_EXAMPLE)


@number("ntk_example_factor", ",", "NTK-aware 例子里的缩放倍数 s")
def _():
    return NTK_EXAMPLE["factor"]


@number("ntk_example_naive_base", ",", "若直接把 base 乘以 s（不加指数修正）得到的 base")
def _():
    return NTK_EXAMPLE["base"] * NTK_EXAMPLE["factor"]


@number("yarn_temperature_s8", ".3f", "YaRN 论文 Eq. 22：s=8 时的 0.1·ln s + 1")
def _():
    return scaling.yarn_attention_factor(8)
