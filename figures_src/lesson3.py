"""Lesson 3 figures: sinusoidal position encoding at d = examples.SIN_DIM, base = sinusoidal.DEFAULT_BASE.

Everything drawn comes from posenc.sinusoidal and posenc.clock; the figures only lay it out.
Phone rule (figures_src/_style.py): at most PHONE_MAX_WIDTH_IN wide, text at least MIN_TEXT_PT,
panels stacked vertically.
"""

from __future__ import annotations

import matplotlib.lines
import matplotlib.patches
import numpy as np

from figures_src import cell_values, colorbar, figure, heatmap
from figures_src._style import MIN_TEXT_PT, PHONE_MAX_WIDTH_IN
from posenc import clock, sinusoidal
from posenc import examples as ex
from posenc.formatting import format_value
from posenc.quantities import text as num

FS = MIN_TEXT_PT  # every label in these figures
W = PHONE_MAX_WIDTH_IN


def period_label(period: float) -> str:
    """A period as the prose prints it: two decimals below 100 tokens, whole tokens above."""
    return format_value(float(period), ".2f" if period < 100 else ",.0f")


def _clock_face(ax, theme):
    ax.set_theta_zero_location("N")
    ax.set_theta_direction(-1)  # clockwise, like a clock
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    ax.set_xticks(np.linspace(0, 2 * np.pi, 4, endpoint=False))
    ax.set_xticklabels([])
    ax.grid(True, linewidth=0.5)


@figure(
    "sin_clock",
    alt=lambda: (
        f"{num('sin_demo_pairs')} 个钟面排成两行，每个钟面一根指针，表示位置 {num('sin_near_position')} 时第 i 个频率对的角度 p·ω_i。"
        f"第 0 对转得最快，周期 {num('sin_fastest_period')} 个 token；越往后越慢，最后一对周期 {num('sin_slowest_period')} 个 token，几乎没动。"
    ),
    caption=lambda: (
        f"位置 p = {num('sin_near_position')} 时的 {num('sin_demo_pairs')} 根指针（d = {num('sin_demo_d')}，base = {num('sin_base')}）。"
        "每个钟面下标出这一对转一圈需要的 token 数。"
    ),
    size=(W, 3.3),
)
def sin_clock(fig, theme):
    angles = sinusoidal.hand_angles(ex.NEAR_POSITION, ex.SIN_DIM)
    periods = sinusoidal.periods(ex.SIN_DIM)
    cols = 4
    rows = int(np.ceil(len(angles) / cols))
    for i, (angle, period) in enumerate(zip(angles, periods)):
        ax = fig.add_subplot(rows, cols, i + 1, projection="polar")
        _clock_face(ax, theme)
        ax.plot([0, angle], [0, 0.92], color=theme.series[0], linewidth=2.2, solid_capstyle="round")
        ax.plot([angle], [0.92], "o", color=theme.series[1], markersize=4)
        ax.set_title(f"i = {i}", fontsize=FS, pad=3)
        ax.set_xlabel(f"周期 {period_label(period)}", fontsize=FS, labelpad=3)
    fig.subplots_adjust(left=0.03, right=0.97, top=0.9, bottom=0.1, hspace=0.75, wspace=0.45)


@figure(
    "sin_encoding_bars",
    alt=lambda: (
        f"三张上下排列的柱状图，分别是位置 {num('sin_near_position')}、{num('gpt2_context')} 和 {num('sin_far_position')} 的 {num('sin_demo_d')} 个编码值。"
        "每张图里偶数维是 sin、奇数维是 cos，所有柱子都落在 −1 到 1 的虚线之间，包括 GPT-2 位置表查不到的两个位置。"
    ),
    caption=lambda: f"三个位置的 {num('sin_demo_d')} 维编码。虚线是 ±1：位置再大，每个分量也不会越界。",
    size=(W, 5.4),
)
def sin_encoding_bars(fig, theme):
    positions = ex.encoding_positions()
    dims = np.arange(ex.SIN_DIM)
    colors = [theme.series[0] if j % 2 == 0 else theme.series[1] for j in dims]
    axes = fig.subplots(len(positions), 1, sharex=True)
    for ax, p in zip(axes, positions):
        ax.bar(dims, sinusoidal.encode(p, ex.SIN_DIM), color=colors, width=0.75)
        for y in (-1, 1):
            ax.axhline(y, color=theme.muted, linestyle="--", linewidth=0.8)
        ax.axhline(0, color=theme.muted, linewidth=0.6)
        ax.set_ylim(-1.3, 1.3)
        ax.set_yticks([-1, 0, 1])
        ax.tick_params(labelsize=FS)
        ax.set_title(f"p = {p:,}", fontsize=FS, loc="left", pad=3)
    axes[-1].set_xticks(dims, [str(j) for j in dims], fontsize=FS)
    axes[-1].set_xlabel("维度", fontsize=FS)
    handles = [matplotlib.patches.Patch(color=theme.series[0], label="偶数维：sin"),
               matplotlib.patches.Patch(color=theme.series[1], label="奇数维：cos")]
    fig.legend(handles=handles, loc="lower center", ncols=2, fontsize=FS, bbox_to_anchor=(0.5, -0.01))
    fig.subplots_adjust(hspace=0.5, bottom=0.16, top=0.95)


@figure(
    "sin_heatmap_shift",
    alt=lambda: (
        f"两张上下排列的 {num('l1_main_len')}×{num('l1_main_len')} 热力图：上面是句子「{ex.SENTENCE}」从位置 0 起的两两位置编码点积，"
        f"下面是整句往后平移 {num('sin_shift')} 个位置后的同一张表。两张图颜色完全一样，最大差值只有 {num('sin_shift_max_diff')}，是浮点舍入。"
    ),
    caption=lambda: f"整句平移 +{num('sin_shift')}：每个字的绝对位置都变了，两两点积一格不变（最大差值 {num('sin_shift_max_diff')}）。",
    size=(W, 8.4),
)
def sin_heatmap_shift(fig, theme):
    chars = list(ex.SENTENCE)
    n = len(chars)
    starts = (0, ex.SHIFT)
    mats = [sinusoidal.dot_matrix(np.arange(n) + s, ex.SIN_DIM) for s in starts]
    lo, hi = float(np.min(mats)), float(np.max(mats))  # one shared scale, so equal colours mean equal values
    axes = fig.subplots(len(starts), 1, gridspec_kw={"hspace": 0.32})
    for ax, start, mat in zip(axes, starts, mats):
        im = heatmap(ax, mat, theme, lo, hi, [f"{c}\n{start + j}" for j, c in enumerate(chars)],
                     [f"{c} {start + j}" for j, c in enumerate(chars)], FS)
        cell_values(ax, {(a, b): format_value(float(mat[a, b]), ".2f") for a in range(n) for b in range(n)},
                    lambda a, b, mat=mat: (mat[a, b] - lo) / (hi - lo) < 0.6, FS)
        ax.set_title(f"从位置 {start} 开始", fontsize=FS + 1)
    colorbar(fig, im, axes, "PE(a)·PE(b)", FS, shrink=0.6, pad=0.03)


@figure(
    "sin_dot_vs_distance",
    alt=lambda: (
        f"折线图：横轴是距离 k，从 0 到 {num('sin_max_distance')}；纵轴是 PE(p)·PE(p+k)。几条从不同起点 p 算出的曲线与公式 Σcos(kω_i) 完全重合："
        f"k = 0 时等于 {num('sin_self_dot')}，随后起伏下降，在这个范围里最低是 k = {num('sin_dot_min_k')} 处的 {num('sin_dot_min')}。点积只取决于距离。"
    ),
    caption=lambda: "PE(p)·PE(p+k) 随距离 k 的变化：起点 p 换成几个完全不同的值，曲线都落在同一条 Σᵢcos(kωᵢ) 上。",
    size=(W, 3.6),
)
def sin_dot_vs_distance(fig, theme):
    ks = np.arange(ex.MAX_DISTANCE + 1)
    ax = fig.add_subplot()
    ax.plot(ks, clock.dot_curve(ex.MAX_DISTANCE, ex.SIN_DIM), color=theme.fg, linewidth=3.5, alpha=0.25,
            label=r"$\sum_i \cos(k\,\omega_i)$")
    for j, p in enumerate(ex.DOT_STARTS):
        ax.plot(ks, clock.dots_from(p, ex.MAX_DISTANCE, ex.SIN_DIM), color=theme.series[j], linewidth=1.1,
                linestyle=("-", "--", ":")[j % 3], label=f"p = {p:,}")
    ax.axhline(0, color=theme.muted, linewidth=0.6)
    ax.set_xlabel("距离 k（token）", fontsize=FS)
    ax.set_ylabel("PE(p)·PE(p+k)", fontsize=FS)
    ax.tick_params(labelsize=FS)
    ax.grid(True)
    ax.legend(ncols=2, fontsize=FS, loc="upper center", bbox_to_anchor=(0.5, -0.19))


@figure(
    "sin_periods",
    alt=lambda: (
        f"对数纵轴的柱状图，{num('sin_demo_pairs')} 根柱子依次是每个频率对的周期：从 {num('sin_fastest_period')} 个 token 开始，"
        f"每往后一对乘以 {num('sin_period_ratio')}，最后一对是 {num('sin_slowest_period')} 个 token。"
    ),
    caption=lambda: f"周期从 2π 开始按等比数列增长（d = {num('sin_demo_d')}），纵轴是对数刻度。",
    size=(W, 3.2),
)
def sin_periods(fig, theme):
    periods = sinusoidal.periods(ex.SIN_DIM)
    ax = fig.add_subplot()
    idx = np.arange(len(periods))
    ax.bar(idx, periods, color=theme.series[0], width=0.6)
    ax.set_yscale("log")
    for i, v in zip(idx, periods):
        ax.text(i, v * 1.2, period_label(v), ha="center", va="bottom", fontsize=FS)
    ax.set_xticks(idx, [str(i) for i in idx], fontsize=FS)
    ax.set_xlabel("频率对 i", fontsize=FS)
    ax.set_ylabel("周期（token）", fontsize=FS)
    ax.tick_params(labelsize=FS)
    ax.set_ylim(1, periods[-1] * 8)
    ax.grid(True, axis="y", which="major")


def rotation_starts() -> tuple[int, int]:
    """The two start positions of the rotation figure: the near example and GPT-2's first missing row."""
    return ex.NEAR_POSITION, ex.encoding_positions()[1]


@figure(
    "sin_shift_rotation",
    alt=lambda: (
        f"上下两组钟面，每组 {ex.ROTATION_PAIRS} 个，对应第 0 到第 {ex.ROTATION_PAIRS - 1} 个频率对。上一组起点是位置 {num('sin_near_position')}，"
        f"下一组起点是位置 {num('gpt2_context')}。每个钟面上实线是这一对在位置 p 时的方向，虚线是在位置 p+{num('sin_shift')} 时的方向，"
        "两条线之间的弧标出转过的角度。同一列的两个钟面，起点的方向不同，转过的角度却完全一样：平移只取决于距离，是每一对转一个固定角度。"
    ),
    caption=lambda: (
        f"往后平移 k = {num('sin_shift')} 个位置：每一对都转过固定角度 k·ωᵢ（图中只画转动明显的前 {ex.ROTATION_PAIRS} 对），"
        f"和起点是 {num('sin_near_position')} 还是 {num('gpt2_context')} 无关。"
    ),
    size=(W, 4.2),
)
def sin_shift_rotation(fig, theme):
    k = ex.SHIFT
    turn = clock.turn_angles(k, ex.SIN_DIM)
    rows = fig.subfigures(2, 1, hspace=0.0)
    for sub, p in zip(rows, rotation_starts()):
        sub.suptitle(f"起点 p = {p:,}", fontsize=FS + 1, y=0.99)
        before = sinusoidal.hand_angles(p, ex.SIN_DIM)
        after = sinusoidal.hand_angles(p + k, ex.SIN_DIM)
        for i in range(ex.ROTATION_PAIRS):
            ax = sub.add_subplot(1, ex.ROTATION_PAIRS, i + 1, projection="polar")
            _clock_face(ax, theme)
            arc = before[i] + np.linspace(0, turn[i], 60)
            ax.plot(arc, np.full_like(arc, 0.55), color=theme.series[2], linewidth=2.4)
            ax.plot([0, before[i]], [0, 0.92], color=theme.series[0], linewidth=2.2, solid_capstyle="round")
            ax.plot([0, after[i]], [0, 0.92], color=theme.series[1], linewidth=2.0, linestyle="--")
            ax.set_title(f"i = {i}", fontsize=FS, pad=2)
            ax.set_xlabel(f"转 {format_value(float(np.degrees(turn[i])), '.1f')}°", fontsize=FS, labelpad=2)
        sub.subplots_adjust(left=0.03, right=0.97, top=0.8, bottom=0.16, wspace=0.45)
    handles = [
        matplotlib.lines.Line2D([], [], color=theme.series[0], linewidth=2.2, label="位置 p"),
        matplotlib.lines.Line2D([], [], color=theme.series[1], linewidth=2.0, linestyle="--", label=f"位置 p + {k}"),
        matplotlib.lines.Line2D([], [], color=theme.series[2], linewidth=2.4, label="转过的角度"),
    ]
    fig.legend(handles=handles, loc="lower center", ncols=3, fontsize=FS, bbox_to_anchor=(0.5, -0.05))
