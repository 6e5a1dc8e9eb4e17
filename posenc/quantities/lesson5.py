"""Numbers lesson 5 (long context: PI → NTK-aware → YaRN, Llama 3) quotes.

Computed from posenc.scaling with the models' own settings from models.yaml.
Besides single numbers, three helpers live here because only lesson 5 needs
them (the figures in figures_src/lesson5.py draw them too):

    paper_interpolation_weight   the YaRN paper's ramp 1 − γ(r), written over r = L/λ
    angle_overshoot              how far past its trained angles each pair turns after scaling
    qwen3_methods                Qwen3-8B's frequencies under no scaling, PI, NTK-aware and YaRN

Two computed tables (YaRN pair by pair, the YaRN paper's Table 2) are
registered as numbers whose value is a ready Markdown table (fmt "").
"""

from __future__ import annotations

import math

import numpy as np

from .. import configs, facts, rope, scaling
from .. import examples as ex
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


@number("qwen3_yarn_low", ",", "Qwen3-8B YaRN 的下边界：编号不超过它的频率对保持原频率")
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

@number("ntk_example_base", ",.0f", "NTK-aware：θ=10,000、s=4、d=128 时的新 base θ·s^(d/(d−2))")
def _():
    return scaling.ntk_aware_base(**ex.NTK_EXAMPLE)


@number("ntk_example_factor", ",", "NTK-aware 例子里的缩放倍数 s")
def _():
    return ex.NTK_EXAMPLE["factor"]


@number("ntk_example_naive_base", ",", "若直接把 base 乘以 s（不加指数修正）得到的 base")
def _():
    return ex.NTK_EXAMPLE["base"] * ex.NTK_EXAMPLE["factor"]


@number("yarn_temperature_s8", ".3f", "YaRN 论文 Eq. 22：s=8 时的 0.1·ln s + 1")
def _():
    return scaling.yarn_attention_factor(ex.YARN_TEMPERATURE_EXAMPLE_S)


# === helpers lesson 5 and its figures share ==========================================================


def _rotations_array(name: str, r) -> np.ndarray:
    arr = np.asarray(r, dtype=np.float64)
    if arr.ndim > 1 or arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must be a non-empty 1-D array of positive finite turn counts r = L/λ, got {r!r}; "
                         f"e.g. scaling.yarn_pairs(...).rotations")
    return np.atleast_1d(arr)


def paper_interpolation_weight(rotations, alpha: float = scaling.YARN_BETA_SLOW,
                               beta: float = scaling.YARN_BETA_FAST) -> np.ndarray:
    """The YaRN paper's NTK-by-parts ramp, written over r = L/λ (Peng et al. 2023, arXiv:2309.00071).

    The paper defines γ(r) = 0 for r < α, 1 for r > β, (r − α)/(β − α) between,
    and the new frequency h(θ_d) = (1 − γ(r))·θ_d/s + γ(r)·θ_d, with α = 1, β = 32
    for Llama. This returns 1 − γ(r): the weight on the interpolated frequency
    θ_d/s, the same meaning as ``scaling.yarn_ramp``. The difference is the
    variable: the paper is linear in r, the reference code (jquesnelle/yarn,
    transformers ``_compute_yarn_parameters``, DeepSeek-V3 ``precompute_freqs_cis``)
    is linear in the pair index j between floor/ceil of the correction dims,
    and j is linear in ln r. Both give 0 for r ≥ β and 1 for r ≤ α.
    """
    r = _rotations_array("rotations", rotations)
    a = scaling._check.positive("alpha", alpha)
    b = scaling._check.positive("beta", beta)
    if b <= a:
        raise ValueError(f"beta must exceed alpha (the ramp runs from α to β turns), got alpha={a}, beta={b}; the paper uses alpha=1, beta=32")
    gamma = np.clip((r - a) / (b - a), 0.0, 1.0)
    return 1.0 - gamma


def angle_overshoot(omega, scaled, original_context: int, factor: float) -> np.ndarray:
    """Per pair: the largest angle reached in s·L tokens after scaling ÷ the largest reached in L tokens before.

    The ratio is s·ω'_j/ω_j (positions run up to s·L and L). It only matters
    for a pair that never completes a turn within L (λ_j > L, lesson 4): such a
    pair only ever saw angles up to L·ω_j in training, so a ratio above 1 means
    it now points where it never pointed (the YaRN paper's "out-of-bound" values
    of NTK-aware scaling). Pairs that do complete a turn within L have seen every
    angle; they get NaN.
    """
    omega = rope._inv_freq("omega", omega)
    scaled = rope._inv_freq("scaled", scaled)
    if omega.shape != scaled.shape:
        raise ValueError(f"omega and scaled must have one frequency per pair each, got {omega.shape} and {scaled.shape}; "
                         f"pass the frequencies before and after scaling of the same model")
    L = rope._context("original_context", original_context)
    s = scaling._factor("factor", factor)
    ratio = s * scaled / omega
    return np.where(rope.wavelengths(omega) > L, ratio, np.nan)


def pairs_beyond_trained_angles(omega, scaled, original_context: int, factor: float) -> int:
    """How many never-turning pairs reach angles past what training showed them (overshoot > 1, float slack 1e-9)."""
    over = angle_overshoot(omega, scaled, original_context, factor)
    return int(np.sum(np.nan_to_num(over, nan=0.0) > 1.0 + 1e-9))


def methods_for(key: str = "qwen3_8b", factor: float | None = None) -> dict[str, np.ndarray]:
    """A models.yaml model's per-pair frequencies: unscaled, PI, NTK-aware and YaRN at its own YaRN factor.

    YaRN uses the model's own YaRN settings (``scaling.for_model``) when it has
    them and the paper's defaults otherwise; ``factor`` overrides s for PI and
    NTK-aware (and YaRN when the model has no YaRN config).
    """
    cfg = configs.load(key)
    sc = cfg.get("scaling") or {}
    s = factor if factor is not None else sc.get("factor")
    if s is None:
        raise ValueError(f"model {key!r} has no scaling factor in models.yaml; pass factor=, e.g. factor=4.0")
    d, theta, frac = cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0)
    if sc.get("rope_type") == "yarn" and factor in (None, sc.get("factor")):
        yarn_freq = scaling.for_model(cfg)[0]
    else:
        L = sc.get("original_max_position_embeddings", cfg["context"])
        yarn_freq = scaling.yarn(d, theta, s, L, rotary_fraction=frac)[0]
    return {
        "none": rope.inverse_frequencies(d, theta, frac),
        "linear": scaling.linear(d, theta, s, frac)[0],
        "ntk": scaling.ntk_aware(d, theta, s, frac)[0],
        "yarn": yarn_freq,
    }


# === tables ============================================================================================

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
    rows = {0, lo // 2, lo, lo + 1, hi - 1, hi, hi + 1, (hi + n - 1) // 2, n - 1}
    rows |= set(range(lo + 1, hi, max(1, (hi - lo) // 5)))
    return sorted(r for r in rows if 0 <= r < n)


def yarn_table_markdown(t: scaling.YarnPairs, factor: float, rows: list[int] | None = None,
                        alpha: float = scaling.YARN_BETA_SLOW, beta: float = scaling.YARN_BETA_FAST) -> str:
    """A Markdown table of ``t`` (see scaling.yarn_pairs), one row per pair in ``rows`` (all when None).

    Columns: pair i, wavelength λ_i, r_i = L/λ_i, the paper's weight 1 − γ(r_i),
    the code's ramp_i, the band, ω'_i/ω_i and the final ω'_i.
    """
    s = scaling._factor("factor", factor)
    paper = paper_interpolation_weight(t.rotations, alpha, beta)
    omega = 2 * np.pi / t.wavelength
    idx = range(len(t.pair)) if rows is None else rows
    head = ("| 对 $i$ | 周期 $\\lambda_i$（token） | 圈数 $r_i = L/\\lambda_i$ | 论文 $1-\\gamma(r_i)$ | 代码 $\\text{ramp}_i$ "
            "| 区段 | $\\omega_i'/\\omega_i$ | 最终频率 $\\omega_i'$ |")
    lines = [head, "|---:|---:|---:|---:|---:|:--|---:|---:|"]
    for j in idx:
        ramp = float(t.ramp[j])
        band = "保持原频率" if ramp == 0 else f"除以 {s:g}" if ramp == 1 else "过渡"
        lines.append(
            f"| {int(t.pair[j])} | {_tokens(float(t.wavelength[j]))} | {_turns(float(t.rotations[j]))} | {paper[j]:.3f} "
            f"| {ramp:.3f} | {band} | {t.inv_freq[j] / omega[j]:.3f} | {_sci(float(t.inv_freq[j]))} |"
        )
    return "\n".join(lines)


# YaRN paper Table 2 (Llama 2 fine-tuned with YaRN, s = 32): the evaluation lengths and the facts per row.
YARN_TABLE2_LENGTHS = ("8k", "32k", "64k", "98k", "128k")
YARN_TABLE2_ROWS = (("Llama 2 7B", "7b"), ("Llama 2 13B", "13b"))


def yarn_table2_markdown() -> str:
    """The YaRN paper's Table 2 perplexities as a Markdown table, every cell read from facts_lesson5.yaml."""
    head = "| 模型（YaRN 微调，s = " + facts.get("yarn_s_128k").text + "） | " + " | ".join(YARN_TABLE2_LENGTHS) + " |"
    lines = [head, "|:--|" + "---:|" * len(YARN_TABLE2_LENGTHS)]
    for label, size in YARN_TABLE2_ROWS:
        cells = [facts.get(f"yarn_t2_{size}_ppl_{n}").text for n in YARN_TABLE2_LENGTHS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# === more numbers lesson 5 quotes =====================================================================


def _qwen3():
    cfg = configs.load("qwen3_8b")
    sc = cfg["scaling"]
    return cfg, sc["factor"], sc["original_max_position_embeddings"]


@number("qwen3_yarn_table", "", "Qwen3-8B YaRN ×4 逐对表（挑出的行）：周期、圈数 r、论文与代码的插值权重、最终频率")
def _():
    t = _yarn_table("qwen3_8b")
    return yarn_table_markdown(t, _qwen3()[1], table_rows(t))


@number("qwen3_yarn_table_full", "", "Qwen3-8B YaRN ×4 逐对表（全部 64 对）")
def _():
    return yarn_table_markdown(_yarn_table("qwen3_8b"), _qwen3()[1])


@number("yarn_table2", "", "YaRN 论文表 2：Llama 2 7B/13B 用 YaRN（s=32）微调后在各长度上的困惑度（作者自报）")
def _():
    return yarn_table2_markdown()


# --- direct extrapolation and PI ---


@number("qwen3_extrapolate_beyond_pairs", ",", "Qwen3-8B 不缩放直接用到 131,072 时，转到训练没见过角度的频率对数")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return pairs_beyond_trained_angles(m["none"], m["none"], L, s)


@number("qwen3_extrapolate_overshoot", "g", "不缩放时，这些频率对最大角度是训练所见最大角度的几倍（= s）")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return round(float(np.nanmax(angle_overshoot(m["none"], m["none"], L, s))), 12)


@number("pi_qwen3_step_before", ".1f", "Qwen3-8B 第 0 对每个 token 转过的角度（度），缩放前")
def _():
    return math.degrees(methods_for("qwen3_8b")["none"][0])


@number("pi_qwen3_step_after", ".1f", "Qwen3-8B 第 0 对每个 token 转过的角度（度），PI ×4 之后")
def _():
    return math.degrees(methods_for("qwen3_8b")["linear"][0])


@number("pi_qwen3_beyond_pairs", ",", "PI ×4 之后 Qwen3-8B 在 131,072 内转到没见过角度的频率对数")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return pairs_beyond_trained_angles(m["none"], m["linear"], L, s)


# --- NTK-aware ---


@number("ntk_qwen3_base", ",.0f", "NTK-aware ×4 作用在 Qwen3-8B（θ=1,000,000，d=128）上的新 base")
def _():
    cfg, s, _ = _qwen3()
    return scaling.ntk_aware_base(cfg["rope_theta"], s, cfg["head_dim"])


@number("ntk_qwen3_exponent", ".4f", "NTK-aware 的指数 d/(d−2)，d=128")
def _():
    d = configs.load("qwen3_8b")["head_dim"]
    return d / (d - 2)


@number("ntk_qwen3_mid_pair", ",", "NTK-aware 例子里看的中间一对的编号（d/4）")
def _():
    return len(methods_for("qwen3_8b")["none"]) // 2


@number("ntk_qwen3_mid_slowdown", ".2f", "NTK-aware ×4 让 Qwen3-8B 中间一对（j=32）慢了几倍")
def _():
    m = methods_for("qwen3_8b")
    j = len(m["none"]) // 2
    return m["none"][j] / m["ntk"][j]


@number("ntk_qwen3_slowest_slowdown", "g", "NTK-aware ×4 让 Qwen3-8B 最慢一对慢了几倍（应正好是 s）")
def _():
    m = methods_for("qwen3_8b")
    return round(float(m["none"][-1] / m["ntk"][-1]), 12)


@number("ntk_qwen3_fastest_slowdown", "g", "NTK-aware ×4 让 Qwen3-8B 第 0 对慢了几倍（应正好是 1）")
def _():
    m = methods_for("qwen3_8b")
    return round(float(m["none"][0] / m["ntk"][0]), 12)


@number("ntk_qwen3_beyond_pairs", ",", "NTK-aware ×4 之后 Qwen3-8B 在 131,072 内转到没见过角度的频率对数")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return pairs_beyond_trained_angles(m["none"], m["ntk"], L, s)


@number("ntk_qwen3_max_overshoot", ".2f", "NTK-aware ×4：没转满一圈的频率对里，最大角度超出训练所见的最大倍数")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return float(np.nanmax(angle_overshoot(m["none"], m["ntk"], L, s)))


@number("ntk_qwen3_max_overshoot_pair", ",", "NTK-aware ×4：超出最多的是哪一对")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return int(np.nanargmax(angle_overshoot(m["none"], m["ntk"], L, s)))


@number("ntk_example_naive_slowdown", ".3f", "θ=10,000、d=128 时若把 base 直接乘 4，最慢一对只慢了几倍")
def _():
    e = ex.NTK_EXAMPLE
    d = e["dim"]
    omega = rope.inverse_frequencies(d, e["base"])
    naive = rope.inverse_frequencies(d, e["base"] * e["factor"])
    return omega[-1] / naive[-1]


# --- YaRN on Qwen3-8B ---


@number("yarn_beta_fast", "g", "YaRN 的 β（transformers 的 beta_fast）：转满这么多圈的频率对保持原频率")
def _():
    return scaling.YARN_BETA_FAST


@number("yarn_beta_slow", "g", "YaRN 的 α（transformers 的 beta_slow）：转不满这么多圈的频率对整体除以 s")
def _():
    return scaling.YARN_BETA_SLOW


@number("qwen3_yarn_low_exact", ".2f", "Qwen3-8B 转满 32 圈的频率对编号（取整前）")
def _():
    cfg, s, L = _qwen3()
    return scaling.yarn_correction_dim(scaling.YARN_BETA_FAST, cfg["head_dim"], cfg["rope_theta"], L)


@number("qwen3_yarn_high_exact", ".2f", "Qwen3-8B 正好转 1 圈的频率对编号（取整前）")
def _():
    cfg, s, L = _qwen3()
    return scaling.yarn_correction_dim(scaling.YARN_BETA_SLOW, cfg["head_dim"], cfg["rope_theta"], L)


@number("qwen3_yarn_beyond_pairs", ",", "YaRN ×4 之后 Qwen3-8B 在 131,072 内转到没见过角度的频率对数")
def _():
    cfg, s, L = _qwen3()
    m = methods_for("qwen3_8b")
    return pairs_beyond_trained_angles(m["none"], m["yarn"], L, s)


def _ramp_gap():
    t = _yarn_table("qwen3_8b")
    paper = paper_interpolation_weight(t.rotations)
    gap = np.abs(paper - t.ramp)
    j = int(np.argmax(gap))
    return j, float(gap[j]), float(paper[j]), float(t.ramp[j]), float(t.rotations[j])


@number("qwen3_ramp_gap_pair", ",", "Qwen3-8B ×4：论文的 1−γ(r) 与代码的 ramp 相差最大的那一对")
def _():
    return _ramp_gap()[0]


@number("qwen3_ramp_gap", ".2f", "Qwen3-8B ×4：论文的 1−γ(r) 与代码的 ramp 的最大差")
def _():
    return _ramp_gap()[1]


@number("qwen3_ramp_gap_paper", ".2f", "差最大那一对按论文算的插值权重 1−γ(r)")
def _():
    return _ramp_gap()[2]


@number("qwen3_ramp_gap_code", ".2f", "差最大那一对按代码算的插值权重 ramp")
def _():
    return _ramp_gap()[3]


@number("qwen3_ramp_gap_r", ".2f", "差最大那一对在 32,768 内转的圈数 r")
def _():
    return _ramp_gap()[4]


@number("qwen3_config_max_positions_ratio", "g", "Qwen3-8B config 的 max_position_embeddings ÷ 预训练长度（40,960 ÷ 32,768）")
def _():
    cfg = configs.load("qwen3_8b")
    return cfg["max_position_embeddings"] / cfg["context"]


# --- DeepSeek-V3 and gpt-oss ---


@number("deepseek_yarn_factor", "g", "DeepSeek-V3 的 YaRN 倍数 s")
def _():
    return configs.load("deepseek_v3")["scaling"]["factor"]


@number("deepseek_yarn_kept", ",", "DeepSeek-V3 YaRN 中保持原频率的频率对数")
def _():
    return _yarn_table("deepseek_v3").kept


@number("deepseek_yarn_blended", ",", "DeepSeek-V3 YaRN 中处于过渡带的频率对数")
def _():
    return _yarn_table("deepseek_v3").blended


@number("deepseek_yarn_interpolated", ",", "DeepSeek-V3 YaRN 中整体除以 40 的频率对数")
def _():
    return _yarn_table("deepseek_v3").interpolated


@number("deepseek_mscale", ".4f", "DeepSeek-V3：0.1·ln 40 + 1（它的 mscale）")
def _():
    sc = configs.load("deepseek_v3")["scaling"]
    return scaling.yarn_mscale(sc["factor"], sc["mscale_all_dim"])


@number("gptoss_yarn_factor", "g", "gpt-oss 的 YaRN 倍数 s")
def _():
    return configs.load("gpt_oss")["scaling"]["factor"]


@number("gptoss_low_if_truncated", ",", "gpt-oss 的下边界若像 transformers 默认那样向下取整")
def _():
    return math.floor(_yarn_table("gpt_oss").low)


@number("gptoss_high_if_truncated", ",", "gpt-oss 的上边界若像 transformers 默认那样向上取整")
def _():
    return math.ceil(_yarn_table("gpt_oss").high)


@number("gptoss_ex_pair", ",", "练习里看的 gpt-oss 频率对编号")
def _():
    return ex.GPTOSS_EXERCISE_PAIR


@number("gptoss_ex_ramp", ".3f", "gpt-oss 第 13 对的 ramp（不取整，gpt-oss 的做法）")
def _():
    t = _yarn_table("gpt_oss")
    return t.ramp[ex.GPTOSS_EXERCISE_PAIR]


@number("gptoss_ex_ramp_truncated", ".3f", "gpt-oss 第 13 对的 ramp（若取整）")
def _():
    t = _yarn_table("gpt_oss")
    return scaling.yarn_ramp(math.floor(t.low), math.ceil(t.high), len(t.pair))[ex.GPTOSS_EXERCISE_PAIR]


# --- Llama 3.1 ---


def _llama31_cfg():
    cfg = configs.load("llama31_8b")
    return cfg, cfg["scaling"]


@number("llama31_factor", "g", "Llama 3.1 的缩放倍数 s")
def _():
    return _llama31_cfg()[1]["factor"]


@number("llama31_low_freq_factor", "g", "Llama 3.1 的 low_freq_factor")
def _():
    return _llama31_cfg()[1]["low_freq_factor"]


@number("llama31_high_freq_factor", "g", "Llama 3.1 的 high_freq_factor")
def _():
    return _llama31_cfg()[1]["high_freq_factor"]


@number("llama31_original_context", ",", "Llama 3.1 的原始上下文 original_max_position_embeddings")
def _():
    return _llama31_cfg()[1]["original_max_position_embeddings"]


@number("llama31_factor_times_original", ",", "Llama 3.1 的 factor × original_max_position_embeddings（8 × 8,192），注意它不等于 131,072")
def _():
    sc = _llama31_cfg()[1]
    return int(sc["factor"] * sc["original_max_position_embeddings"])


def _llama31_smoothed_pairs() -> np.ndarray:
    cfg, sc = _llama31_cfg()
    lam = rope.wavelengths(rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"]))
    L = sc["original_max_position_embeddings"]
    return np.flatnonzero((lam >= L / sc["high_freq_factor"]) & (lam <= L / sc["low_freq_factor"]))


@number("llama31_smooth_first", ",", "Llama 3.1 平滑段的第一对编号")
def _():
    return int(_llama31_smoothed_pairs()[0])


@number("llama31_smooth_last", ",", "Llama 3.1 平滑段的最后一对编号")
def _():
    return int(_llama31_smoothed_pairs()[-1])


@number("ntk_example_theta", ",", "NTK-aware 例子里的原底数 θ")
def _():
    return ex.NTK_EXAMPLE["base"]


@number("ntk_example_dim", ",", "NTK-aware 例子里的旋转维数 d")
def _():
    return ex.NTK_EXAMPLE["dim"]



@number("yarn_temperature_example_s", "g", "YaRN 论文 Eq. 22 举例用的 s")
def _():
    return ex.YARN_TEMPERATURE_EXAMPLE_S


@number("qwen3_pair0_turns", ",.0f", "Qwen3-8B 第 0 对在 32,768 个 token 内转的圈数")
def _():
    return _yarn_table("qwen3_8b").rotations[0]
