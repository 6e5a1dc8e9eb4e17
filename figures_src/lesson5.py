"""Lesson 5 figures: PI, NTK-aware, YaRN, Llama 3.1 and base raising on real configs, and RULER's rows.

Everything plotted comes from posenc: ``scaling.methods_for`` / ``angle_overshoot`` /
``yarn_pairs_for_model`` / ``llama3_bands_for_model`` for the frequencies (each model's
own YaRN betas, truncate and mscale included), ``long_context`` for the base changes
and RULER's window vs effective length. The figures only draw it.

Phone rule (issue 18): every figure is at most _style.PHONE_MAX_WIDTH_IN wide once
trimmed, every text at least _style.MIN_TEXT_PT; two-panel figures stack vertically.
"""

from __future__ import annotations

import numpy as np

from figures_src import _style, figure
from posenc import configs, facts, long_context, rope, scaling
from posenc import examples as ex
from posenc.quantities import text as num
from posenc.quantities import value

WIDTH = _style.PHONE_MAX_WIDTH_IN
SMALL = _style.MIN_TEXT_PT  # legends, annotations

# How the figures name the methods of scaling.COMPARED_METHODS.
LABELS = {"none": "不缩放", "linear": "PI（位置插值）", "ntk": "NTK-aware", "yarn": "YaRN"}
MARKERS = {"none": "o", "linear": "s", "ntk": "^", "yarn": "D"}


def _model():
    return configs.load(ex.SCALING_MODEL)


def _yarn():
    return scaling.yarn_pairs_for_model(_model())


def _original_context() -> int:
    return _model()["scaling"]["original_max_position_embeddings"]


def _fact(name: str) -> str:
    return facts.get(name).text


def _codellama_length(attr: str) -> str:
    return f"{getattr(long_context.base_raise('codellama'), attr):,}"


def _colour(theme, method: str) -> str:
    return theme.muted if method == "none" else theme.series[scaling.COMPARED_METHODS.index(method) - 1]


def _grid(ax):
    ax.grid(True, which="major")
    ax.set_axisbelow(True)


@figure(
    "scaling_wavelengths_qwen3",
    alt=lambda: (
        f"对数纵轴的折线图：横轴是 Qwen3-8B 的 {num('rope_pairs_total_qwen3_8b')} 个频率对，纵轴是每一对转一圈要多少个 token。"
        f"灰色是原始周期；PI 把每一对的周期都乘以 {num('qwen3_yarn_factor')}，整条线平移上去；NTK-aware 在第 0 对完全不动，越往后拉长得越多，"
        f"最后一对正好乘以 {num('qwen3_yarn_factor')}；YaRN 在第 {num('qwen3_yarn_low')} 对以前与原始重合，第 {num('qwen3_yarn_high')} 对以后与 PI 重合，"
        f"中间的浅色带里逐渐过渡。两条虚线分别是原生长度 {_original_context():,} 与扩展后的 {num('qwen3_yarn_context')}。"
    ),
    caption=lambda: (
        f"Qwen3-8B 扩展 {num('qwen3_yarn_factor')} 倍：三种方法各把每一对的周期拉长多少。"
        f"浅色带是 YaRN 的过渡区间（第 {num('qwen3_yarn_low')}～{num('qwen3_yarn_high')} 对）。"
    ),
    size=(WIDTH, 3.9),
)
def scaling_wavelengths_qwen3(fig, theme):
    t = _yarn()
    freqs = scaling.methods_for(_model())
    j = np.arange(len(freqs["none"]))
    ax = fig.add_subplot()
    ax.axvspan(t.low, t.high, color=theme.panel, zorder=0, label="YaRN 过渡区间")
    for method in scaling.COMPARED_METHODS:
        ax.plot(j, rope.wavelengths(freqs[method]), marker=MARKERS[method], markersize=3 if method != "none" else 4,
                linewidth=0 if method == "none" else 1.3, linestyle={"ntk": "--", "yarn": ":"}.get(method, "-"),
                color=_colour(theme, method), label=LABELS[method], zorder=3 if method != "none" else 2)
    for level, text in ((_original_context(), f"原生 {_original_context():,}"),
                        (value("qwen3_yarn_context"), f"扩展后 {num('qwen3_yarn_context')}")):
        ax.axhline(level, color=theme.fg, linestyle=(0, (4, 3)), linewidth=0.8)
        ax.text(0.5, level * 1.3, text, fontsize=SMALL, color=theme.fg, va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel("第 i 对（0 最快）")
    ax.set_ylabel("周期 λ（token）")
    ax.set_xlim(-1, len(j))
    _grid(ax)
    ax.legend(ncols=3, fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.45, -0.2), columnspacing=1.0, handlelength=1.8)


@figure(
    "scaling_slowdown_per_pair",
    alt=lambda: (
        f"上下两幅折线图。上图是 Qwen3-8B 扩展 {num('qwen3_yarn_factor')} 倍时每一对的频率被除以几：PI 是一条水平线，每一对都除以 {num('qwen3_yarn_factor')}；"
        f"NTK-aware 从第 0 对的 {num('ntk_qwen3_fastest_slowdown')} 平滑升到最后一对的 {num('ntk_qwen3_slowest_slowdown')}；"
        f"YaRN 到第 {num('qwen3_yarn_low')} 对为止是 1，从第 {num('qwen3_yarn_high')} 对起是 {num('qwen3_yarn_factor')}，中间线性过渡。"
        f"下图是 Llama 3.1 8B：前 {num('llama31_unchanged')} 对是 1，后 {num('llama31_scaled')} 对是 {num('llama31_factor')}，"
        f"中间 {num('llama31_smoothed')} 对平滑过渡，平滑段用底色标出。"
    ),
    caption=lambda: (
        f"每一对的频率被除以几（ω / ω′）。上：Qwen3-8B ×{num('qwen3_yarn_factor')} 的三种方法；"
        f"下：Llama 3.1 8B ×{num('llama31_factor')} 的三段（{num('llama31_unchanged')} / {num('llama31_smoothed')} / {num('llama31_scaled')} 对）。"
    ),
    size=(WIDTH, 5.8),
)
def scaling_slowdown_per_pair(fig, theme):
    top, bottom = fig.subplots(2, 1)
    freqs = scaling.methods_for(_model())
    j = np.arange(len(freqs["none"]))
    for method in scaling.COMPARED_METHODS[1:]:
        top.plot(j, freqs["none"] / freqs[method], marker=MARKERS[method], markersize=2.5, linewidth=1.3,
                 color=_colour(theme, method), label=LABELS[method])
    top.set_title("Qwen3-8B", fontsize=10)
    top.set_ylabel("ω / ω′")
    top.legend(fontsize=SMALL, loc="upper left")
    _grid(top)

    llama = configs.load("llama31_8b")
    omega = rope.inverse_frequencies(llama["head_dim"], llama["rope_theta"])
    scaled, _ = scaling.for_model(llama)
    bands = scaling.llama3_bands_for_model(llama)
    jj = np.arange(len(omega))
    smooth = np.flatnonzero(bands == "smoothed")
    bottom.axvspan(smooth[0] - 0.5, smooth[-1] + 0.5, color=theme.panel, zorder=0)
    factor = llama["scaling"]["factor"]
    names = {"kept": "不变", "smoothed": "平滑", "scaled": f"除以 {factor:g}"}
    for band in scaling.LLAMA3_BANDS:
        idx = np.flatnonzero(bands == band)
        bottom.text(idx.mean(), factor * 1.05, names[band], ha="center", va="bottom", fontsize=SMALL, color=theme.fg)
    bottom.plot(jj, omega / scaled, marker="o", markersize=2.5, linewidth=1.3, color=theme.series[3])
    bottom.set_ylim(0.5, factor * 1.3)
    bottom.set_title("Llama 3.1 8B", fontsize=10)
    bottom.set_xlabel("第 i 对")
    bottom.set_ylabel("ω / ω′")
    _grid(bottom)
    fig.subplots_adjust(hspace=0.45)


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
    size=(WIDTH, 3.8),
)
def yarn_ramp_paper_vs_code(fig, theme):
    cfg, t = _model(), _yarn()
    ax = fig.add_subplot()
    ax.plot(t.pair, t.ramp, marker="o", markersize=3, linewidth=1.5, color=theme.series[0], label="代码：在对编号 i 上线性")
    ax.plot(t.pair, t.paper_ramp, marker="s", markersize=3, linewidth=1.2, linestyle="--", color=theme.series[1],
            label="论文：1 − γ(r)，在圈数 r 上线性")
    for x in (t.low_exact, t.high_exact):
        ax.axvline(x, color=theme.muted, linestyle=":", linewidth=1)
    gap = t.largest_ramp_gap()
    ax.annotate("", xy=(gap, t.ramp[gap]), xytext=(gap, t.paper_ramp[gap]),
                arrowprops={"arrowstyle": "<->", "color": theme.fg, "linewidth": 0.9})
    ax.set_xlim(t.low - 4, t.high + 4)
    ax.set_ylim(-0.05, 1.1)
    ax.set_xlabel("第 i 对")
    ax.set_ylabel("插值权重（1 = 除以 s）")
    _grid(ax)
    top = ax.twiny()
    top.set_xlim(ax.get_xlim())
    turns = t.beta_fast / 2.0 ** np.arange(int(np.log2(t.beta_fast / t.beta_slow)) + 1)  # β, β/2, …, α
    top.set_xticks([scaling.yarn_correction_dim(r, cfg["head_dim"], cfg["rope_theta"], _original_context()) for r in turns],
                   [f"{r:g}" for r in turns], fontsize=SMALL)
    top.set_xlabel("圈数 r", fontsize=SMALL)
    top.tick_params(colors=theme.fg)
    ax.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.2))


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
        "高于 1 的部分就是越界：模型从没见过的角度。"
    ),
    size=(WIDTH, 3.6),
)
def scaling_angle_overshoot(fig, theme):
    s, L = _model()["scaling"]["factor"], _original_context()
    freqs = scaling.methods_for(_model())
    ax = fig.add_subplot()
    for method in scaling.COMPARED_METHODS:
        over = scaling.angle_overshoot(freqs["none"], freqs[method], L, s)
        idx = np.flatnonzero(~np.isnan(over))
        ax.plot(idx, over[idx], marker=MARKERS[method], markersize=3, linewidth=1.2, color=_colour(theme, method),
                label=LABELS[method], linestyle="--" if method == "yarn" else "-")
    ax.axhline(1, color=theme.fg, linewidth=0.8, linestyle=(0, (4, 3)))
    ax.text(ax.get_xlim()[0] + 0.3, 0.9, "训练时见过的最大角度", fontsize=SMALL, color=theme.fg, va="top")
    ax.set_xlabel("第 i 对（只画转不满一圈的）")
    ax.set_ylabel("最大角度 ÷ 训练所见")
    ax.set_ylim(0, s * 1.12)
    _grid(ax)
    ax.legend(ncols=2, fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.2))


@figure(
    "abf_wavelengths_codellama",
    alt=lambda: (
        f"对数纵轴的折线图：横轴是 Code Llama 每个头的 {num('rope_pairs_total_llama2_7b')} 个频率对，纵轴是每一对转一圈要多少个 token。"
        f"下面一条是底数 θ = {_fact('codellama_base_before')} 时的周期，上面一条是 θ = {_fact('codellama_base_after')} 时的周期："
        f"第 0 对两条线重合，越往后拉得越开，最后一对从 {num('abf_codellama_slowest_wavelength_before')} 拉长到 {num('abf_codellama_slowest_wavelength_after')}，"
        f"差 {num('abf_codellama_ntk_factor')} 倍。三条水平虚线是 {_codellama_length('length')}、{_codellama_length('new_length')} 和 {_codellama_length('far')} 个 token："
        f"周期在线以下的对，在这个长度内转满了一圈。"
    ),
    caption=lambda: (
        f"Code Llama 把 θ 从 {_fact('codellama_base_before')} 调到 {_fact('codellama_base_after')}：每一对的周期各拉长多少。"
        f"虚线以下的对在那个长度内转满一圈：{_codellama_length('length')} 内原来有 {num('abf_codellama_turned_before')} 对，"
        f"调底数后 {_codellama_length('new_length')} 内只有 {num('abf_codellama_turned_after')} 对。"
    ),
    size=(WIDTH, 3.9),
)
def abf_wavelengths_codellama(fig, theme):
    case = long_context.base_raise("codellama")
    j = np.arange(case.head_dim // 2)
    before = rope.wavelengths(rope.inverse_frequencies(case.head_dim, case.base))
    after = rope.wavelengths(rope.inverse_frequencies(case.head_dim, case.new_base))
    ax = fig.add_subplot()
    ax.plot(j, before, marker="o", markersize=3, linewidth=1.3, color=theme.series[0], label=f"θ = {case.base:,.0f}")
    ax.plot(j, after, marker="s", markersize=3, linewidth=1.3, color=theme.series[1], label=f"θ = {case.new_base:,.0f}")
    lines = ((case.length, (0, (2, 2)), "原训练长度"), (case.new_length, (0, (5, 3)), "新训练长度"),
             (case.far, "-.", "自报可用到"))
    for level, style, what in lines:
        ax.axhline(level, color=theme.fg, linestyle=style, linewidth=0.8)
        ax.text(0, level * 1.2, f"{what} {level:,}", fontsize=SMALL, color=theme.fg, ha="left", va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel("第 i 对（0 最快）")
    ax.set_ylabel("周期 λ（token）")
    ax.set_xlim(-1, len(j))
    ax.set_ylim(top=after[-1] * 40)
    _grid(ax)
    ax.legend(fontsize=SMALL, loc="upper left", ncols=2)


@figure(
    "ruler_window_vs_effective",
    alt=lambda: (
        f"点线图，横轴是 token 数（对数刻度）。RULER 表里的 {num('ruler_rows_count')} 个模型各占一行："
        f"空心圆是声称的上下文窗口，实心圆是有效长度（RULER 分数仍高于门槛的最长长度），两者之间连一条线。"
        f"每个模型的实心圆都在空心圆左边，右边写着两者之比，最高 {num('ruler_share_max')}，最低 {num('ruler_share_min')}。"
    ),
    caption=lambda: (
        f"窗口 ≠ 有效长度：RULER 表中声称的窗口（空心）和有效长度（实心），右侧是有效 ÷ 声称。"
        f"Qwen3-8B 一行是 Qwen 团队自报的分数。"
    ),
    size=(WIDTH, 4.6),
)
def ruler_window_vs_effective(fig, theme):
    rows = long_context.ruler_rows()
    ax = fig.add_subplot()
    y = np.arange(len(rows))[::-1] * 1.5  # first row on top; room above each row for its name
    claimed = np.array([r.claimed_tokens for r in rows])
    effective = np.array([r.effective_tokens for r in rows])
    ax.hlines(y, effective, claimed, color=theme.muted, linewidth=2)
    ax.plot(claimed, y, "o", markersize=7, markerfacecolor="none", markeredgecolor=theme.series[1],
            markeredgewidth=1.5, label="声称的窗口")
    ax.plot(effective, y, "o", markersize=7, color=theme.series[0], label="有效长度")
    for yy, r in zip(y, rows):
        ax.text(2 ** 12, yy + 0.35, r.model, fontsize=SMALL, color=theme.fg, va="bottom", ha="left")
        share = f"{r.share:.1%}" if r.share < 0.1 else f"{r.share:.0%}"
        ax.text(r.claimed_tokens * 1.4, yy, share, fontsize=SMALL, color=theme.fg, va="center", ha="left")
    ax.set_xscale("log", base=2)
    ticks = [2 ** k for k in range(12, 22, 2)]
    ax.set_xticks(ticks, [f"{t // 1024:,}K" if t < 2 ** 20 else f"{t // 2 ** 20}M" for t in ticks], fontsize=SMALL)
    ax.set_xlim(2 ** 12, 2 ** 22)
    ax.set_ylim(y[-1] - 0.6, y[0] + 1.2)
    ax.set_yticks([])
    ax.set_xlabel("token 数（对数刻度）")
    ax.grid(True, axis="x")
    ax.set_axisbelow(True)
    ax.legend(fontsize=SMALL, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.16))
