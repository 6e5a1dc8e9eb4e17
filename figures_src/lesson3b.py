"""Lesson 3b figures: a bias on the attention score that depends on distance only (Shaw, T5's buckets, ALiBi).

Two figures are the static content of the page's widgets (alibi-bias, t5-buckets) and show each
widget's starting state; the example parameters come from posenc.examples, which the widget() macro
also writes into the page. The others draw the example sentence's attention with and without ALiBi,
and the reach of every head of two real ALiBi models.
Every number is computed by posenc.relative; the texts quote posenc.quantities.
"""

from __future__ import annotations

import numpy as np

from figures_src import cell_values, colorbar, figure, heatmap
from posenc import configs, relative
from posenc import examples as ex
from posenc.quantities import text as num
from posenc.quantities import value

# The widgets' starting values, read by tests/browser/test_widgets.py (keep these names).
ALIBI_HEADS, ALIBI_HEAD, ALIBI_DISTANCE, ALIBI_SPAN, ALIBI_FACTOR = (
    ex.ALIBI_HEADS, ex.ALIBI_HEAD, ex.ALIBI_DISTANCE, ex.ALIBI_SPAN, ex.ALIBI_FACTOR)
T5_NUM_BUCKETS, T5_MAX_DISTANCE = ex.t5_buckets()
T5_BIDIRECTIONAL, T5_DISTANCE = ex.T5_BIDIRECTIONAL, ex.T5_DISTANCE

WIDTH = 4.8  # _style.PHONE_MAX_WIDTH_IN: the widest a figure may be (390 px phones)


# --- ALiBi: slopes and weight factors (the alibi-bias widget's fallback) --------------------------


@figure(
    "alibi_slopes_weights",
    alt=lambda: (
        f"上下两张图。上图是 {num('alibi_demo_heads')} 个头的 ALiBi 斜率 a_h，纵轴按 2 的幂取对数刻度，从 {num('alibi_demo_slope_first')} "
        f"到 {num('alibi_demo_slope_last')}。下图是每个头的权重因子 exp(−a_h·(m − n)) 随距离 m − n 从 0 到 {num('alibi_demo_span')} 的变化："
        f"斜率最大的头在距离 {num('alibi_demo_reach_min')} 就降到 1/{num('alibi_demo_factor')}，斜率最小的头到 {num('alibi_demo_span')} 还剩 {num('alibi_demo_weight_left')}。"
        f"加粗的是第 {num('alibi_demo_head')} 个头，a_h = {num('alibi_demo_slope')}，偏置在距离 {num('alibi_demo_reach')} 处把权重压到 1/{num('alibi_demo_factor')}（水平虚线）。"
    ),
    caption=lambda: (
        f"ALiBi，{num('alibi_demo_heads')} 个头。上：每个头的斜率 a_h；下：偏置 −a_h·(m − n) 让距离 m − n 处的键的权重乘上 exp(−a_h·(m − n))，"
        f"虚线是 1/{num('alibi_demo_factor')}。加粗的是第 {num('alibi_demo_head')} 个头。"
    ),
    size=(WIDTH, 6.0),
)
def alibi_slopes_weights(fig, theme):
    slopes = relative.alibi_slopes(ALIBI_HEADS)
    reach = relative.alibi_reaches(ALIBI_HEADS, ALIBI_FACTOR)
    heads = np.arange(1, ALIBI_HEADS + 1)
    top, bottom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 1.4], "hspace": 0.55})
    chosen = ALIBI_HEAD - 1

    top.plot(heads, slopes, "o", color=theme.muted, markersize=6, label="各个头")
    top.plot(heads[chosen], slopes[chosen], "o", color=theme.series[1], markersize=9, label=f"第 {ALIBI_HEAD} 个头")
    top.set_yscale("log", base=2)
    top.set_xticks(heads)
    top.set_xlabel("头 h")
    top.set_ylabel("斜率 $a_h$")
    top.grid(True, axis="y", linewidth=0.5)

    r = np.linspace(0, ALIBI_SPAN, 513)
    for i, m in enumerate(slopes):
        if i != chosen:
            bottom.plot(r, relative.alibi_weight_ratio(m, r), color=theme.muted, linewidth=0.9)
    bottom.plot(r, relative.alibi_weight_ratio(slopes[chosen], r), color=theme.series[1], linewidth=2.4, label=f"第 {ALIBI_HEAD} 个头")
    bottom.axhline(1 / ALIBI_FACTOR, color=theme.fg, linewidth=0.9, linestyle="--")
    if reach[chosen] <= ALIBI_SPAN:
        bottom.axvline(reach[chosen], color=theme.series[1], linewidth=0.9, linestyle="--")
        bottom.annotate(f"{num('alibi_demo_reach')} 个 token", xy=(reach[chosen], 1 / ALIBI_FACTOR), xytext=(8, 14),
                        textcoords="offset points", color=theme.fg, fontsize=9)
    bottom.plot([], [], color=theme.muted, linewidth=0.9, label="其他头")
    bottom.set_xlim(0, ALIBI_SPAN)
    bottom.set_ylim(0, 1.02)
    bottom.set_xlabel("距离 $m-n$（往前数的 token 数）")
    bottom.set_ylabel("权重因子 $e^{-a_h(m-n)}$")
    bottom.grid(True, linewidth=0.5)
    bottom.legend(loc="upper right", fontsize=9)


# --- T5's buckets (the t5-buckets widget's fallback) ----------------------------------------------


@figure(
    "t5_bucket_staircase",
    alt=lambda: (
        f"阶梯图，横轴是键到查询的距离（对数刻度），纵轴是 T5 的桶号。num_buckets = {T5_NUM_BUCKETS}，max_distance = {T5_MAX_DISTANCE}，"
        f"双向时每个方向 {num('t5_enc_one_side')} 个桶：距离 0 到 {num('t5_enc_exact_last')} 每个距离一个桶；从 {num('t5_enc_max_exact')} 起台阶越来越宽，"
        f"倒数第二个桶管距离 {num('t5_enc_widest_first')} 到 {num('t5_enc_widest_last')}；距离 {num('t5_enc_last_from')} 起全部落进桶 {num('t5_enc_last_bucket')}。"
        f"浅色的第二条阶梯是单向（解码器）时的桶：{T5_NUM_BUCKETS} 个桶全给前面的键，精确区到距离 {num('t5_dec_exact_last')}，"
        f"距离 {num('t5_dec_last_from')} 起全部落进桶 {num('t5_dec_last_bucket')}。"
    ),
    caption=lambda: (
        f"T5 的相对位置桶（num_buckets = {T5_NUM_BUCKETS}，max_distance = {T5_MAX_DISTANCE}），键在查询前面的一侧。"
        "虚线左边是编码器的精确区，一个距离一个桶；右边的桶按对数变宽，最后一个桶收下所有更远的距离。"
    ),
    size=(WIDTH, 3.8),
)
def t5_bucket_staircase(fig, theme):
    ax = fig.add_subplot()
    far = 2 * T5_MAX_DISTANCE
    for bidirectional, color, width, label in ((False, theme.muted, 1.3, "单向（解码器）"), (True, theme.series[0], 2.2, "双向（编码器）")):
        edges = relative.t5_bucket_edges(bidirectional, T5_NUM_BUCKETS, T5_MAX_DISTANCE)
        xs, ys = [], []
        for k, (b, first, last) in enumerate(edges):
            end = far if k == len(edges) - 1 else last + 1
            xs += [first + 1, end + 1]  # log axis: distance + 1, so distance 0 has a place
            ys += [b, b]
        ax.plot(xs, ys, color=color, linewidth=width, label=label, solid_joinstyle="miter")
    max_exact = value("t5_enc_max_exact")  # the encoder's: half of its buckets per direction
    for d, text in ((max_exact, "max_exact"), (T5_MAX_DISTANCE, "max_distance")):
        ax.axvline(d + 1, color=theme.fg, linewidth=0.8, linestyle="--")
        ax.annotate(text, xy=(d + 1, 0), xytext=(3, 3), textcoords="offset points", fontsize=9, color=theme.fg, rotation=90)
    ax.set_xscale("log")
    ticks = [2**k - 1 for k in range(0, int(np.log2(far)) + 1, 2)]  # 0, 3, 15, 63, 255: evenly spaced on the log axis
    ax.set_xticks([t + 1 for t in ticks])
    ax.set_xticklabels([str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(1, far + 1)
    ax.set_xlabel("距离 $m-n$（对数刻度）")
    ax.set_ylabel("桶号")
    ax.grid(True, linewidth=0.5)
    ax.legend(loc="upper left", fontsize=9)


# --- the example sentence with and without ALiBi ----------------------------------------------------


def _sentence_weights():
    n = len(ex.SENTENCE)
    scores = relative.content_scores(ex.SENTENCE, ex.ATTN_D, ex.ATTN_SEED)
    bias = relative.alibi_causal_bias_at(ex.ALIBI_HEADS, np.arange(n))[ex.ALIBI_SENTENCE_HEAD - 1]
    return relative.biased_weights(scores, relative.causal_bias(n)), relative.biased_weights(scores, bias)


@figure(
    "alibi_sentence_weights",
    alt=lambda: (
        f"上下两张 {num('l1_main_len')}×{num('l1_main_len')} 的热力图，行是查询、列是键，都是句子「{ex.SENTENCE}」在第 1 课那个随机注意力头里的权重，"
        f"右上角被因果掩码遮住。上图不加任何位置信息；下图给分数加上 ALiBi 偏置（斜率 {num('l3b_sentence_slope')}）。"
        f"加上之后权重往对角线靠：最后一个字给自己的权重从 {num('l3b_last_self_nope')} 升到 {num('l3b_last_self_alibi')}，"
        f"给第一个字的从 {num('l3b_last_first_nope')} 降到 {num('l3b_last_first_alibi')}。"
    ),
    caption=lambda: (
        f"同一个注意力头（第 1 课，d = {num('l1_d')}，种子 {num('l1_seed')}）看例句。上：只有因果掩码；"
        f"下：再加 ALiBi 偏置 −a_h·(m − n)，a_h = {num('l3b_sentence_slope')}。每格是权重，每行加起来是 1。"
    ),
    size=(WIDTH, 7.4),
)
def alibi_sentence_weights(fig, theme):
    chars = list(ex.SENTENCE)
    n = len(chars)
    causal = np.tril(np.ones((n, n), dtype=bool))
    axes = fig.subplots(2, 1, gridspec_kw={"hspace": 0.45})
    titles = ("只有因果掩码（没有位置信息）", f"加上 ALiBi 偏置（斜率 {num('l3b_sentence_slope')}）")
    for ax, weights, title in zip(axes, _sentence_weights(), titles):
        shown = np.where(causal, weights, np.nan)
        im = heatmap(ax, shown, theme, 0, 1, [f"{c}\n{j}" for j, c in enumerate(chars)], [f"{c} {j}" for j, c in enumerate(chars)])
        ax.tick_params(length=0)
        cell_values(ax, {(i, j): f"{weights[i, j]:.2f}" for i in range(n) for j in range(i + 1)},
                    lambda i, j, weights=weights: weights[i, j] < 0.6, 9)
        ax.set_title(title, fontsize=10)
        ax.set_ylabel("查询（位置）")
    axes[-1].set_xlabel("键（位置）")
    colorbar(fig, im, axes, "注意力权重", shrink=0.6, pad=0.03)


# --- every head's reach in two real ALiBi models ----------------------------------------------------


@figure(
    "alibi_reach_heads",
    alt=lambda: (
        f"上下两张散点图，横轴是头的编号，纵轴是作用范围 ln {num('alibi_demo_factor')} / a_h（token，对数刻度）："
        f"偏置单独把一个键的权重压到 1/{num('alibi_demo_factor')} 的距离。上图 MPT-7B 的 {configs.load('mpt_7b')['heads']} 个头，"
        f"从 {num('alibi_reach_min_mpt_7b')} 到 {num('alibi_reach_max_mpt_7b')} 个 token，沿头号稳步变远；"
        f"下图 BLOOM 的 {configs.load('bloom_176b')['heads']} 个头，前 {num('alibi_power_heads_bloom_176b')} 个按 2 的幂规则，"
        f"后 {num('alibi_extra_heads_bloom_176b')} 个（空心）是补上的，作用范围又从很近开始。两个模型都没有一个头的作用范围够到训练长度 "
        f"{configs.load('mpt_7b')['context']:,}（顶上的虚线）。"
    ),
    caption=lambda: (
        f"每个头的作用范围：偏置单独把权重压到 1/{num('alibi_demo_factor')} 的距离。两条浅色虚线是 {num('alibi_reach_near')} 和 "
        f"{num('alibi_reach_far')} 个 token（看近、看远的界线），深色虚线是训练长度。"
    ),
    size=(WIDTH, 6.4),
)
def alibi_reach_heads(fig, theme):
    axes = fig.subplots(len(ex.REACH_MODELS), 1, gridspec_kw={"hspace": 0.6})
    for ax, key in zip(axes, ex.REACH_MODELS):
        cfg = configs.load(key)
        n = cfg["heads"]
        reach = relative.alibi_reaches(n, ex.ALIBI_FACTOR)
        extra = relative.alibi_extra_heads(n)
        heads = np.arange(1, n + 1)
        ax.plot(heads[~extra], reach[~extra], "o", color=theme.series[0], markersize=4, label="2 的幂规则")
        if extra.any():
            ax.plot(heads[extra], reach[extra], "o", markerfacecolor="none", color=theme.series[1], markersize=4, label="补上的头")
        for level in (ex.REACH_NEAR, ex.REACH_FAR):
            ax.axhline(level, color=theme.muted, linewidth=0.9, linestyle="--")
        ax.axhline(cfg["context"], color=theme.fg, linewidth=1.1, linestyle="--")
        ax.annotate(f"训练长度 {cfg['context']:,}", xy=(1, cfg["context"]), xytext=(0, -12), textcoords="offset points",
                    fontsize=9, color=theme.fg)
        ax.set_yscale("log")
        ax.set_ylim(1, cfg["context"] * 2)
        ax.set_xlim(0, n + 1)
        ax.set_title(f"{cfg.name}，{n} 个头", fontsize=10)
        ax.set_xlabel("头 h")
        ax.set_ylabel("作用范围（token）")
        ax.grid(True, axis="y", linewidth=0.5)
        ax.legend(loc="upper left", bbox_to_anchor=(0.0, 0.86), fontsize=9)  # under the label, where no head reaches
