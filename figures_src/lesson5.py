"""Lesson 5 figures: PI, NTK-aware, YaRN and Llama 3.1's scaling on the real configs in models.yaml.

Everything plotted comes from posenc.scaling and the helpers in
posenc.quantities.lesson5 (methods_for, angle_overshoot, paper_interpolation_weight);
the figures only draw it.
"""

from __future__ import annotations

import numpy as np

from figures_src import figure
from posenc import configs, rope, scaling
from posenc import examples as ex
from posenc.quantities import lesson5 as L5
from posenc.quantities import text as num
from posenc.quantities import value

METHODS = (("linear", "PI（线性插值）"), ("ntk", "NTK-aware"), ("yarn", "YaRN"))


def _qwen3():
    cfg = configs.load(ex.SCALING_MODEL)
    sc = cfg["scaling"]
    return cfg, sc["factor"], sc["original_max_position_embeddings"]


def _qwen3_desc() -> str:
    cfg, _, L = _qwen3()
    return f"head_dim {cfg['head_dim']}，θ = {cfg['rope_theta']:,}，原生 {L:,}"


def _yarn_pairs():
    cfg, s, L = _qwen3()
    return scaling.yarn_pairs(cfg["head_dim"], cfg["rope_theta"], s, L)


def _style_axes(ax, theme):
    ax.grid(True, which="major")
    ax.set_axisbelow(True)


@figure(
    "scaling_wavelengths_qwen3",
    alt=lambda: (
        f"对数纵轴的散点折线图：横轴是 Qwen3-8B 的 {num('rope_pairs_total_qwen3_8b')} 个频率对，纵轴是每一对转一圈要多少个 token。"
        f"灰色是原始周期；PI 把每一对的周期都乘以 {num('qwen3_yarn_factor')}，整条线平移上去；NTK-aware 在第 0 对完全不动，越往后拉长得越多，"
        f"最后一对正好乘以 {num('qwen3_yarn_factor')}；YaRN 在第 {num('qwen3_yarn_low')} 对以前与原始重合，第 {num('qwen3_yarn_high')} 对以后与 PI 重合，"
        f"中间的浅色带里逐渐过渡。两条虚线分别是原生长度 {_qwen3()[2]:,} 与扩展后的 {num('qwen3_yarn_context')}。"
    ),
    caption=lambda: (
        f"Qwen3-8B（{_qwen3_desc()}）扩展 {num('qwen3_yarn_factor')} 倍：三种方法各把每一对的周期拉长多少。"
        f"浅色带是 YaRN 的过渡区间（第 {num('qwen3_yarn_low')}～{num('qwen3_yarn_high')} 对）。"
    ),
    size=(7.2, 4.0),
)
def scaling_wavelengths_qwen3(fig, theme):
    cfg, s, L = _qwen3()
    freqs = L5.methods_for(ex.SCALING_MODEL)
    t = _yarn_pairs()
    j = np.arange(len(freqs["none"]))
    ax = fig.add_subplot()
    ax.axvspan(t.low, t.high, color=theme.panel, zorder=0, label="YaRN 过渡区间")
    ax.plot(j, rope.wavelengths(freqs["none"]), "o", color=theme.muted, markersize=6, label="原始", zorder=2)
    styles = {"linear": ("-", "s"), "ntk": ("--", "^"), "yarn": (":", "D")}
    for k, (key, label) in enumerate(METHODS):
        ls, marker = styles[key]
        ax.plot(j, rope.wavelengths(freqs[key]), linestyle=ls, marker=marker, markersize=3, linewidth=1.3,
                color=theme.series[k], label=label, zorder=3)
    for value, text in ((L, f"原生 L = {L:,}"), (s * L, f"s·L = {int(s * L):,}")):
        ax.axhline(value, color=theme.fg, linestyle=(0, (4, 3)), linewidth=0.8)
        ax.text(0.5, value * 1.25, text, fontsize=8, color=theme.fg, va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel("第 i 对（0 最快）")
    ax.set_ylabel("周期 λ（token，对数刻度）")
    ax.set_xlim(-1, len(j))
    _style_axes(ax, theme)
    ax.legend(ncols=5, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16))


@figure(
    "scaling_slowdown_per_pair",
    alt=lambda: (
        f"两幅折线图。左图是 Qwen3-8B 扩展 {num('qwen3_yarn_factor')} 倍时每一对的频率被除以几：PI 是一条水平线，每一对都除以 {num('qwen3_yarn_factor')}；"
        f"NTK-aware 从第 0 对的 {num('ntk_qwen3_fastest_slowdown')} 平滑升到最后一对的 {num('ntk_qwen3_slowest_slowdown')}；"
        f"YaRN 到第 {num('qwen3_yarn_low')} 对为止是 1，从第 {num('qwen3_yarn_high')} 对起是 {num('qwen3_yarn_factor')}，中间线性过渡。"
        f"右图是 Llama 3.1 8B：前 {num('llama31_unchanged')} 对是 1，后 {num('llama31_scaled')} 对是 {num('llama31_factor')}，"
        f"中间 {num('llama31_smoothed')} 对平滑过渡，三段用不同底色标出。"
    ),
    caption=lambda: (
        f"每一对的频率被除以几（ω / ω′）。左：Qwen3-8B ×{num('qwen3_yarn_factor')} 的三种方法；"
        f"右：Llama 3.1 8B ×{num('llama31_factor')} 的三段（{num('llama31_unchanged')} / {num('llama31_smoothed')} / {num('llama31_scaled')} 对）。"
    ),
    size=(7.2, 3.6),
)
def scaling_slowdown_per_pair(fig, theme):
    left, right = fig.subplots(1, 2, sharey=False)
    freqs = L5.methods_for(ex.SCALING_MODEL)
    j = np.arange(len(freqs["none"]))
    markers = {"linear": "s", "ntk": "^", "yarn": "D"}
    for k, (key, label) in enumerate(METHODS):
        left.plot(j, freqs["none"] / freqs[key], marker=markers[key], markersize=2.5, linewidth=1.3,
                  color=theme.series[k], label=label)
    left.set_title("Qwen3-8B", fontsize=10)
    left.set_xlabel("第 i 对")
    left.set_ylabel("ω / ω′（频率被除以几）")
    left.legend(fontsize=8, loc="lower right")
    _style_axes(left, theme)

    cfg = configs.load("llama31_8b")
    sc = cfg["scaling"]
    omega = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"])
    scaled, _ = scaling.for_model(cfg)
    jj = np.arange(len(omega))
    ratio = omega / scaled
    unchanged, smoothed = value("llama31_unchanged"), value("llama31_smoothed")
    bands = ((0, unchanged, "不变"), (unchanged, unchanged + smoothed, "平滑"), (unchanged + smoothed, len(omega), f"除以 {sc['factor']:g}"))
    right.axvspan(bands[1][0] - 0.5, bands[1][1] - 0.5, color=theme.panel, zorder=0)
    for a, b, label in bands:
        if a:
            right.axvline(a - 0.5, color=theme.muted, linewidth=0.6, linestyle=":")
        right.text((a + b - 1) / 2, sc["factor"] * 1.04, label, ha="center", va="bottom", fontsize=8, color=theme.fg)
    right.plot(jj, ratio, marker="o", markersize=2.5, linewidth=1.3, color=theme.series[3])
    right.set_ylim(0.5, sc["factor"] * 1.2)
    right.set_title("Llama 3.1 8B", fontsize=10)
    right.set_xlabel("第 i 对")
    _style_axes(right, theme)
    fig.subplots_adjust(wspace=0.28)


@figure(
    "yarn_ramp_paper_vs_code",
    alt=lambda: (
        f"折线图：横轴是 Qwen3-8B 的频率对编号，顶部另标出对应的圈数 r；纵轴是插值权重（0 表示保持原频率，1 表示除以 {num('qwen3_yarn_factor')}）。"
        f"代码的 ramp 是一条从第 {num('qwen3_yarn_low')} 对到第 {num('qwen3_yarn_high')} 对的直线；论文按圈数 r 定义的 1−γ(r) 在同一区间里是一条先陡后缓的曲线，"
        f"两者在第 {num('qwen3_ramp_gap_pair')} 对相差最大，{num('qwen3_ramp_gap_paper')} 对 {num('qwen3_ramp_gap_code')}。"
        f"两条竖虚线是取整前的边界 {num('qwen3_yarn_low_exact')} 和 {num('qwen3_yarn_high_exact')}。"
    ),
    caption=lambda: (
        f"同一个 YaRN，两种写法的插值权重（Qwen3-8B ×{num('qwen3_yarn_factor')}）：论文在圈数 r 上线性，代码在对编号 i 上线性；"
        f"两端完全一致，中间最多差 {num('qwen3_ramp_gap')}。"
    ),
    size=(7.2, 3.8),
)
def yarn_ramp_paper_vs_code(fig, theme):
    cfg, s, L = _qwen3()
    t = _yarn_pairs()
    paper = L5.paper_interpolation_weight(t.rotations)
    ax = fig.add_subplot()
    ax.plot(t.pair, t.ramp, marker="o", markersize=3, linewidth=1.5, color=theme.series[0], label="代码：在对编号 i 上线性（transformers 等）")
    ax.plot(t.pair, paper, marker="s", markersize=3, linewidth=1.2, linestyle="--", color=theme.series[1], label="论文：1 − γ(r)，在圈数 r 上线性")
    for x in (value("qwen3_yarn_low_exact"), value("qwen3_yarn_high_exact")):
        ax.axvline(x, color=theme.muted, linestyle=":", linewidth=1)
    gap = value("qwen3_ramp_gap_pair")
    ax.annotate("", xy=(gap, t.ramp[gap]), xytext=(gap, paper[gap]),
                arrowprops={"arrowstyle": "<->", "color": theme.fg, "linewidth": 0.9})
    ax.set_xlim(t.low - 6, t.high + 6)
    ax.set_ylim(-0.05, 1.1)
    ax.set_xlabel("第 i 对")
    ax.set_ylabel("插值权重（0 = 原频率，1 = 除以 s）")
    _style_axes(ax, theme)
    top = ax.twiny()
    top.set_xlim(ax.get_xlim())
    r_ticks = [32, 16, 8, 4, 2, 1]
    top.set_xticks([scaling.yarn_correction_dim(r, cfg["head_dim"], cfg["rope_theta"], L) for r in r_ticks],
                   [f"r = {r}" for r in r_ticks], fontsize=8)
    top.tick_params(colors=theme.fg)
    ax.legend(fontsize=8, loc="lower right")


@figure(
    "scaling_angle_overshoot",
    alt=lambda: (
        f"折线图：横轴是 Qwen3-8B 在原生长度内转不满一圈的 {num('qwen3_extrapolate_beyond_pairs')} 个频率对，纵轴是扩展到 {num('qwen3_yarn_context')} 后"
        f"这一对转到的最大角度是训练时最大角度的几倍。不缩放时每一对都是 {num('qwen3_extrapolate_overshoot')} 倍；PI 和 YaRN 都正好是 1；"
        f"NTK-aware 从第 {num('ntk_qwen3_max_overshoot_pair')} 对的 {num('ntk_qwen3_max_overshoot')} 倍逐渐降到最后一对的 1 倍，"
        f"有 {num('ntk_qwen3_beyond_pairs')} 对超过 1。"
    ),
    caption=lambda: (
        f"扩展到 {num('qwen3_yarn_context')} 后，慢频率对转到的最大角度 ÷ 训练时见过的最大角度（Qwen3-8B）。"
        "高于 1 的部分，是模型从没见过的角度。"
    ),
    size=(7.2, 3.4),
)
def scaling_angle_overshoot(fig, theme):
    cfg, s, L = _qwen3()
    freqs = L5.methods_for(ex.SCALING_MODEL)
    ax = fig.add_subplot()
    series = (("none", "不缩放", theme.muted, "o"),) + tuple(
        (key, label, theme.series[k], "s^D"[k]) for k, (key, label) in enumerate(METHODS))
    for key, label, color, marker in series:
        over = L5.angle_overshoot(freqs["none"], freqs[key], L, s)
        idx = np.flatnonzero(~np.isnan(over))
        ax.plot(idx, over[idx], marker=marker, markersize=3, linewidth=1.2, color=color, label=label,
                linestyle="--" if key == "yarn" else "-")
    ax.axhline(1, color=theme.fg, linewidth=0.8, linestyle=(0, (4, 3)))
    ax.text(ax.get_xlim()[0] + 0.3, 0.93, "训练时见过的最大角度", fontsize=8, color=theme.fg, va="top")
    ax.set_xlabel("第 i 对（只画原生长度内转不满一圈的）")
    ax.set_ylabel("最大角度 ÷ 训练所见")
    ax.set_ylim(0, s * 1.12)
    _style_axes(ax, theme)
    ax.legend(ncols=4, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2))
