"""Lesson 2 figures: adding the raw index, squeezing it into [0, 1], and GPT-2's learned table.

Each draws what posenc.naive and posenc.learned compute for posenc.examples' values, at phone width.
"""

from __future__ import annotations

import numpy as np

from figures_src import figure
from posenc import configs, learned, naive
from posenc import examples as ex
from posenc.quantities import text as num

TICK = 9  # pt: the phone rule's smallest text


def _scales() -> tuple[tuple[float, str, str], ...]:
    """(content RMS, legend label, the quantity that quotes the ratio at the probe) for each curve."""
    return ((ex.UNIT_CONTENT_RMS, f"内容均方根 = {num('l2_unit_rms')}", "naive_ratio_unit"),
            (ex.PROJECT_EMBED_STD, f"内容按初始化 std = {num('embed_init_std')}", "naive_ratio_init"))


@figure(
    "l2_naive_ratio",
    alt=lambda: (
        f"双对数坐标的折线图：横轴是位置，从 1 到 {num('l2_ratio_max_position')}；纵轴是内容占位置信号的比例。"
        f"两条直线都随位置下降。内容均方根为 {num('l2_unit_rms')} 的那条在位置 {num('naive_probe_position')} 处是 {num('naive_ratio_unit')}；"
        f"按初始化标准差 {num('embed_init_std')} 的那条低了一截，同一位置只有 {num('naive_ratio_init')}。"
    ),
    caption=lambda: (
        f"把编号 p 直接加进每一维：内容占位置信号的比例是「内容均方根 ÷ p」。虚线是两者一样大（100%）。"
        f"圆点标出位置 {num('naive_probe_position')}：{num('naive_ratio_unit')} 与 {num('naive_ratio_init')}。"
    ),
    size=(4.8, 3.6),
)
def l2_naive_ratio(fig, theme):
    ps = np.arange(1, ex.RATIO_MAX_POSITION + 1)
    probe = ex.NAIVE_PROBE_POSITION
    ax = fig.add_subplot()
    for k, (rms, label, name) in enumerate(_scales()):
        ax.plot(ps, naive.raw_index_content_ratios(ps, rms) * 100, color=theme.series[k], linewidth=1.8, label=label)
        r = naive.raw_index_content_ratio(probe, rms)
        ax.plot([probe], [r * 100], "o", color=theme.series[k], markersize=6)
        ax.annotate(f"p = {probe}：{num(name)}", (probe, r * 100), textcoords="offset points", xytext=(6, 5),
                    fontsize=TICK, color=theme.fg)
    ax.axhline(100, color=theme.muted, linestyle="--", linewidth=0.9)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("位置 p（对数刻度）")
    ax.set_ylabel("内容 ÷ 位置信号（%）")
    ax.tick_params(labelsize=TICK)
    ax.grid(True, which="major")
    ax.legend(fontsize=TICK, loc="lower left")


@figure(
    "l2_normalised",
    alt=lambda: (
        f"三条从 0 到 1 的数轴上下排列，点表示每个 token 归一化后的位置。第一条是 {num('l2_norm_short')} 个 token，相邻两点隔 {num('l2_norm_step_short')}；"
        f"第二条是再生成一个 token 后的 {num('l2_norm_len_after')} 个 token，位置 {num('l2_norm_probe')} 的点从 {num('l2_norm_probe_before')} 挪到了 {num('l2_norm_probe_after')}；"
        f"第三条是 {num('l2_norm_long')} 个 token，点密得多，同样 {num('l2_norm_step_short')} 的一段里装了 {num('l2_norm_gap_tokens_long')} 个间隔。"
    ),
    caption=lambda: (
        f"把位置压到 [0, 1]：同一段长度 {num('l2_norm_step_short')}（浅色底纹），在短句里是相邻两个字，在长文里隔了 {num('l2_norm_gap_tokens_long')} 个 token；"
        f"多生成一个字，位置 {num('l2_norm_probe')} 的值就从 {num('l2_norm_probe_before')} 变成 {num('l2_norm_probe_after')}。"
    ),
    size=(4.8, 3.4),
)
def l2_normalised(fig, theme):
    short, long_ = ex.NORMALISED_SHORT, ex.NORMALISED_LONG
    probe = ex.NORMALISED_PROBE
    gap = naive.normalised_step(short)
    rows = [(short, f"{short} 个 token", True), (short + 1, f"{short + 1} 个 token（多生成一个）", True),
            (long_, f"{long_} 个 token", False)]
    ax = fig.add_subplot()
    for k, (length, label, dots) in enumerate(rows):
        y = len(rows) - 1 - k
        vals = naive.normalised_index(length)
        ax.hlines(y, 0, 1, color=theme.muted, linewidth=1)
        ax.axvspan(0, gap, ymin=(y + 0.2) / len(rows), ymax=(y + 0.6) / len(rows), color=theme.panel, zorder=0)
        ax.plot(vals, np.full_like(vals, y), "o" if dots else "|", color=theme.series[0], markersize=6 if dots else 9)
        if dots:
            v = naive.normalised_value(probe, length)
            ax.plot([v], [y], "o", color=theme.series[1], markersize=9)
            ax.annotate(f"位置 {probe} → {num('l2_norm_probe_before' if length == short else 'l2_norm_probe_after')}",
                        (v, y), textcoords="offset points", xytext=(0, -16), ha="center", fontsize=TICK, color=theme.fg)
        ax.text(0, y + 0.3, label, ha="left", va="bottom", fontsize=TICK)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.7, len(rows) - 0.1)
    ax.set_yticks([])
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.tick_params(labelsize=TICK)
    ax.set_xlabel("归一化后的位置 p / (长度 − 1)", fontsize=TICK)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)


@figure(
    "l2_table_rows",
    alt=lambda: (
        f"一条横向的色带表示 GPT-2 的位置表：位置 0 到 {num('gpt2_last_row')} 各有一行。"
        f"如果训练序列只有 {num('project_train_len')} 个 token，只有前 {num('l2_rows_trained')} 行拿到过梯度，"
        f"后面 {num('l2_rows_untouched')} 行一直停在随机初始值。位置 {num('gpt2_context')} 起是虚线框，表示表里没有这些行。"
    ),
    caption=lambda: (
        f"GPT-2 尺寸的位置表（{num('gpt2_context')} 行）。训练长度为 {num('project_train_len')} 时，一次反向传播里只有前 {num('l2_rows_trained')} 行的梯度不为 0；"
        f"位置 {num('gpt2_context')} 及以后根本没有行可查。"
    ),
    size=(4.8, 2.4),
)
def l2_table_rows(fig, theme):
    cfg = configs.load("gpt2")
    rows = learned.last_row(cfg) + 1
    touched = learned.rows_with_gradient(rows, ex.PROJECT_TRAIN_LEN)
    n_trained = int(touched.sum())
    beyond = rows / 3  # how much of the missing part is drawn: a stub, the missing rows never end
    ax = fig.add_subplot()
    ax.broken_barh([(0, n_trained)], (0, 1), color=theme.series[2])
    ax.broken_barh([(n_trained, rows - n_trained)], (0, 1), color=theme.series[4])
    ax.broken_barh([(rows, beyond)], (0, 1), facecolor="none", edgecolor=theme.muted, linestyle="--", hatch="//")
    ax.text(0, 1.12, f"0–{num('l2_rows_trained_last')}\n拿到梯度", ha="left", va="bottom", fontsize=TICK)
    ax.text(n_trained + (rows - n_trained) / 2, 1.12, f"{num('l2_rows_trained')}–{num('gpt2_last_row')}\n停在初始值",
            ha="center", va="bottom", fontsize=TICK)
    ax.text(rows + beyond, 1.12, f"{num('gpt2_context')} 起\n查无此行", ha="right", va="bottom", fontsize=TICK)
    ax.set_xlim(0, rows + beyond)
    ax.set_ylim(0, 2.3)
    ax.set_yticks([])
    ax.set_xticks([0, n_trained, rows], ["0", num("l2_rows_trained"), num("gpt2_context")])
    ax.tick_params(labelsize=TICK)
    ax.set_xlabel("位置（= 位置表的行号）", fontsize=TICK)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
