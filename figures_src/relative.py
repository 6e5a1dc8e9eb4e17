"""Lesson 3b figures: a bias on the attention score that depends on distance only (ALiBi, T5's buckets).

Each figure is the static content of a widget on the page (alibi-bias, t5-buckets) and shows
that widget's starting state. The example parameters come from posenc.examples, which the widget()
macro also writes into the page as the widgets' data-* attributes.
"""

from __future__ import annotations

import numpy as np

from figures_src import figure
from posenc import examples as ex
from posenc import relative
from posenc.formatting import format_value

ALIBI_HEADS, ALIBI_HEAD, ALIBI_DISTANCE, ALIBI_SPAN, ALIBI_FACTOR = (
    ex.ALIBI_HEADS, ex.ALIBI_HEAD, ex.ALIBI_DISTANCE, ex.ALIBI_SPAN, ex.ALIBI_FACTOR)
T5_NUM_BUCKETS, T5_MAX_DISTANCE = ex.t5_buckets()
T5_BIDIRECTIONAL, T5_DISTANCE = ex.T5_BIDIRECTIONAL, ex.T5_DISTANCE


def _f(x, fmt=",.1f") -> str:
    return format_value(float(x), fmt)


def _slopes_and_reach():
    slopes = relative.alibi_slopes(ALIBI_HEADS)
    reach = [relative.alibi_reach(m, ALIBI_FACTOR) for m in slopes]
    return slopes, reach


def _alibi_alt() -> str:
    slopes, reach = _slopes_and_reach()
    h = ALIBI_HEAD
    left = relative.alibi_weight_ratio(slopes.min(), ALIBI_SPAN)
    return (
        f"上下两张图。上图是 {ALIBI_HEADS} 个头的 ALiBi 斜率 m，纵轴按 2 的幂取对数刻度，从 {_f(slopes.max(), '.4g')} "
        f"到 {_f(slopes.min(), '.4g')}。下图是每个头的权重因子 exp(−m·r) 随距离 r 从 0 到 {ALIBI_SPAN} 的变化："
        f"斜率最大的头在距离 {_f(min(reach))} 就降到 1/{ALIBI_FACTOR}，斜率最小的头到 {ALIBI_SPAN} 还剩 {_f(left, '.2f')}。"
        f"加粗的是第 {h} 个头，m = {_f(slopes[h - 1], '.4g')}，偏置 −m·r 在距离 {_f(reach[h - 1])} 处把权重压到 1/{ALIBI_FACTOR}（水平虚线）。"
    )


@figure(
    "alibi_slopes_weights",
    alt=_alibi_alt,
    caption=lambda: (
        f"ALiBi，{ALIBI_HEADS} 个头。上：每个头的斜率 m；下：偏置 −m·r 让距离 r 处的键的权重乘上 exp(−m·r)，"
        f"虚线是 1/{ALIBI_FACTOR}。加粗的是第 {ALIBI_HEAD} 个头。"
    ),
    size=(6.4, 6.0),
)
def alibi_slopes_weights(fig, theme):
    slopes, reach = _slopes_and_reach()
    heads = np.arange(1, ALIBI_HEADS + 1)
    top, bottom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 1.4], "hspace": 0.55})
    chosen = ALIBI_HEAD - 1

    top.plot(heads, slopes, "o", color=theme.muted, markersize=6)
    top.plot(heads[chosen], slopes[chosen], "o", color=theme.series[1], markersize=9)
    top.set_yscale("log", base=2)
    top.set_xticks(heads)
    top.set_xlabel("头 h")
    top.set_ylabel("斜率 m")
    top.grid(True, axis="y", linewidth=0.5)

    r = np.linspace(0, ALIBI_SPAN, 513)
    for i, m in enumerate(slopes):
        if i != chosen:
            bottom.plot(r, relative.alibi_weight_ratio(m, r), color=theme.muted, linewidth=0.9)
    bottom.plot(r, relative.alibi_weight_ratio(slopes[chosen], r), color=theme.series[1], linewidth=2.4, label=f"第 {ALIBI_HEAD} 个头")
    bottom.axhline(1 / ALIBI_FACTOR, color=theme.fg, linewidth=0.9, linestyle="--")
    if reach[chosen] <= ALIBI_SPAN:
        bottom.axvline(reach[chosen], color=theme.series[1], linewidth=0.9, linestyle="--")
        bottom.annotate(
            f"r = {_f(reach[chosen])}", xy=(reach[chosen], 1 / ALIBI_FACTOR), xytext=(8, 14), textcoords="offset points", color=theme.fg, fontsize=9
        )
    bottom.plot([], [], color=theme.muted, linewidth=0.9, label="其他头")
    bottom.set_xlim(0, ALIBI_SPAN)
    bottom.set_ylim(0, 1.02)
    bottom.set_xlabel("距离 r（往前数的 token 数）")
    bottom.set_ylabel("权重因子 exp(−m·r)")
    bottom.grid(True, linewidth=0.5)
    bottom.legend(loc="upper right", fontsize=9)


def _t5_edges(bidirectional: bool):
    return relative.t5_bucket_edges(bidirectional, T5_NUM_BUCKETS, T5_MAX_DISTANCE)


def _t5_alt() -> str:
    edges = _t5_edges(T5_BIDIRECTIONAL)
    one_side = T5_NUM_BUCKETS // 2 if T5_BIDIRECTIONAL else T5_NUM_BUCKETS
    max_exact = one_side // 2
    last_b, last_first, _ = edges[-1]
    widest = edges[-2]
    return (
        f"阶梯图，横轴是键到查询的距离（对数刻度），纵轴是 T5 的桶号。num_buckets = {T5_NUM_BUCKETS}，max_distance = {T5_MAX_DISTANCE}，"
        f"双向时每个方向 {one_side} 个桶：距离 0 到 {max_exact - 1} 每个距离一个桶；从 {max_exact} 起台阶越来越宽，"
        f"倒数第二个桶管距离 {widest[1]} 到 {widest[2]}；距离 {last_first} 起全部落进桶 {last_b}。"
        f"浅色的第二条阶梯是单向（解码器）时的桶：{T5_NUM_BUCKETS} 个桶全给前面的键，精确区也长一倍。"
    )


@figure(
    "t5_bucket_staircase",
    alt=_t5_alt,
    caption=lambda: (
        f"T5 的相对位置桶（num_buckets = {T5_NUM_BUCKETS}，max_distance = {T5_MAX_DISTANCE}），键在查询前面的一侧。"
        "虚线左边是精确区，一个距离一个桶；右边的桶按对数变宽，最后一个桶收下所有更远的距离。"
    ),
    size=(6.4, 4.0),
)
def t5_bucket_staircase(fig, theme):
    ax = fig.add_subplot()
    far = 2 * T5_MAX_DISTANCE
    for bidirectional, color, width, label in ((False, theme.muted, 1.3, "单向（解码器）"), (True, theme.series[0], 2.2, "双向（编码器）")):
        edges = _t5_edges(bidirectional)
        xs, ys = [], []
        for k, (b, first, last) in enumerate(edges):
            end = far if k == len(edges) - 1 else last + 1
            xs += [first + 1, end + 1]  # log axis: distance + 1, so distance 0 has a place
            ys += [b, b]
        ax.plot(xs, ys, color=color, linewidth=width, label=label, solid_joinstyle="miter")
    one_side = T5_NUM_BUCKETS // 2 if T5_BIDIRECTIONAL else T5_NUM_BUCKETS
    max_exact = one_side // 2
    for d, text in ((max_exact, f"max_exact = {max_exact}"), (T5_MAX_DISTANCE, f"max_distance = {T5_MAX_DISTANCE}")):
        ax.axvline(d + 1, color=theme.fg, linewidth=0.8, linestyle="--")
        ax.annotate(text, xy=(d + 1, 0), xytext=(4, 4), textcoords="offset points", fontsize=9, color=theme.fg)
    ax.set_xscale("log")
    ticks = [2**k - 1 for k in range(int(np.log2(far)) + 1)]  # 0, 1, 3, 7, …: evenly spaced on the log axis
    ax.set_xticks([t + 1 for t in ticks])
    ax.set_xticklabels([str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(1, far + 1)
    ax.set_xlabel("距离 |j − i|（对数刻度）")
    ax.set_ylabel("桶号")
    ax.grid(True, linewidth=0.5)
    ax.legend(loc="upper left", fontsize=9)
