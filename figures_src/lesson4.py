"""Lesson 4 figures: RoPE turns q and k; the shift experiment; the two code layouts; real models' spectra;
why a distance that acts through the content (RoPE) differs from a bias added to the score (ALiBi).

Everything drawn comes from posenc.shift, posenc.rope and the model configs; the figures only lay it out.
Phone rule (figures_src/_style.py): at most PHONE_MAX_WIDTH_IN wide, text at least MIN_TEXT_PT,
panels stacked vertically.
"""

from __future__ import annotations

import matplotlib.lines
import matplotlib.patches
import numpy as np

from figures_src import colorbar, figure, heatmap
from figures_src._style import MIN_TEXT_PT, PHONE_MAX_WIDTH_IN
from posenc import configs, relative, rope, shift
from posenc import examples as ex
from posenc.formatting import format_value
from posenc.quantities import text as num
from posenc.quantities.lesson4 import why_rope_demo

FS = MIN_TEXT_PT
W = PHONE_MAX_WIDTH_IN


def _unit_axes(ax, theme, lim):
    ax.set_aspect("equal")
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.axhline(0, color=theme.muted, linewidth=0.6)
    ax.axvline(0, color=theme.muted, linewidth=0.6)
    circle = matplotlib.patches.Circle((0, 0), 1.0, fill=False, edgecolor=theme.muted, linewidth=0.8, linestyle=":")
    ax.add_patch(circle)
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)


def _arrow(ax, v, color, style, label):
    ax.annotate("", xy=(v[0], v[1]), xytext=(0, 0), arrowprops=dict(arrowstyle="-|>", color=color, linewidth=1.8, linestyle=style, shrinkA=0, shrinkB=0))
    ax.text(v[0] * 1.14, v[1] * 1.14, label, color=color, fontsize=FS, ha="center", va="center")


def pair_positions() -> tuple[tuple[int, int], tuple[int, int]]:
    """(m, n) of q and k before and after the shift, as the rope-pair figure draws them."""
    return (ex.PAIR_M, ex.PAIR_N), (ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT)


@figure(
    "rope_pair_turn",
    alt=lambda: (
        f"上下两张图。上图是 RoPE：同一个频率对里，q 转过 m·ω、k 转过 n·ω。实线是 m = {num('l4_pair_m')}、n = {num('l4_pair_n')}，"
        f"虚线是两者都往后移 {num('sin_shift')} 之后；q 和 k 各自转到了新方向，但它们之间的夹角不变，分数两次都是 {num('l4_pair_rope')}。"
        f"下图是把正弦位置编码的一对数加到 q、k 上：平移前分数 {num('l4_pair_added')}，平移后变成 {num('l4_pair_added_shifted')}。"
    ),
    caption=lambda: (
        f"一个频率对（第 {num('l4_pair_index')} 对，ω = {num('l4_pair_omega')}），q = {num('l4_pair_q')}，k = {num('l4_pair_k')}。"
        f"实线：m = {num('l4_pair_m')}、n = {num('l4_pair_n')}；虚线：都加 {num('sin_shift')}。上面旋转，夹角不变；下面相加，分数变了。"
    ),
    size=(W, 7.4),
)
def rope_pair_turn(fig, theme):
    q, k = np.asarray(ex.PAIR_Q), np.asarray(ex.PAIR_K)
    w = shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM)
    (m0, n0), (m1, n1) = pair_positions()
    top, bottom = fig.subplots(2, 1)
    arrows = {top: [], bottom: []}
    for (m, n), style in zip(pair_positions(), ("-", "--")):
        arrows[top] += [(shift.rotate_pair(q, m * w), 0, style, f"q({m})"), (shift.rotate_pair(k, n * w), 1, style, f"k({n})")]
        arrows[bottom] += [(shift.add_pair(q, m, w), 0, style, f"q+PE({m})"), (shift.add_pair(k, n, w), 1, style, f"k+PE({n})")]
    for ax, drawn in arrows.items():
        _unit_axes(ax, theme, 1.35 * max(1.0, max(float(np.abs(v).max()) for v, *_ in drawn)))
        for v, series, style, label in drawn:
            _arrow(ax, v, theme.series[series], style, label)
    r0, a0 = shift.pair_scores(q, k, m0, n0, w)
    r1, a1 = shift.pair_scores(q, k, m1, n1, w)
    top.set_title(f"RoPE：旋转　分数 {format_value(r0, '.4f')} → {format_value(r1, '.4f')}", fontsize=FS + 1)
    bottom.set_title(f"正弦相加　分数 {format_value(a0, '.4f')} → {format_value(a1, '.4f')}", fontsize=FS + 1)
    handles = [
        matplotlib.lines.Line2D([], [], color=theme.fg, linewidth=1.6, label=f"m = {m0}，n = {n0}"),
        matplotlib.lines.Line2D([], [], color=theme.fg, linewidth=1.6, linestyle="--", label=f"都加 {ex.SHIFT}"),
    ]
    fig.legend(handles=handles, loc="lower center", ncols=2, fontsize=FS, bbox_to_anchor=(0.5, 0.0))
    fig.subplots_adjust(hspace=0.12, bottom=0.06, top=0.96)


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def drawable(text: str) -> str:
    """A quantity's printed text as matplotlib can draw it: "4.4×10⁻¹⁶" → 4.4×10^−16 in mathtext
    (the CJK font has no superscript minus)."""
    if "×10" not in text:
        return text
    mantissa, exponent = text.split("×10")
    return f"{mantissa}$\\times 10^{{{exponent.translate(_SUPERSCRIPT)}}}$"


# Each method's panel title, and the registered number that quotes its largest change.
METHOD_TITLES = {"input": "正弦加在输入上", "qk": "正弦加在 q、k 上", "rope": "RoPE：旋转 q、k"}
METHOD_MAX = {"input": "l4_shift_input_max_diff", "qk": "l4_shift_qk_max_diff", "rope": "l4_shift_rope_max_diff"}


@figure(
    "rope_shift_scores",
    alt=lambda: (
        f"三张上下排列的 {num('l1_main_len')}×{num('l1_main_len')} 热力图，每格是句子「{ex.SENTENCE}」整句往后平移 {num('sin_shift')} 个位置前后，"
        f"同一对 token 的注意力分数差了多少（绝对值），三张图共用一个颜色刻度。第一张把正弦位置编码加在输入上，最大差 {num('l4_shift_input_max_diff')}；"
        f"第二张把正弦加在投影后的 q、k 上，最大差 {num('l4_shift_qk_max_diff')}；第三张用 RoPE 旋转 q、k，整张图一片零，最大差只有 {num('l4_shift_rope_max_diff')}。"
    ),
    caption=lambda: (
        f"整句平移 +{num('sin_shift')} 前后，整个注意力分数 q·k/√d 的变化 |ΔS|（d = {num('l4_dim')}，随机种子 {num('l4_seed')} 的 W_q、W_k 和 token 向量）。"
        "只有 RoPE 一格都不变。"
    ),
    size=(W, 10.0),
)
def rope_shift_scores(fig, theme):
    chars = list(ex.SENTENCE)
    n = len(chars)
    diffs = {m: shift.score_changes(ex.SENTENCE, ex.SHIFT, m, ex.L4_DIM, ex.L4_SEED) for m in shift.METHODS}
    hi = max(float(d.max()) for d in diffs.values())
    axes = fig.subplots(len(shift.METHODS), 1, gridspec_kw={"hspace": 0.3})
    for ax, (method, d) in zip(axes, diffs.items()):
        im = heatmap(ax, d, theme, 0, hi, chars, chars, FS)
        ax.set_title(f"{METHOD_TITLES[method]}　最大 {drawable(num(METHOD_MAX[method]))}", fontsize=FS + 1)
    colorbar(fig, im, axes, "|ΔS|：平移前后分数之差的绝对值", FS, orientation="horizontal", shrink=0.8, pad=0.05, aspect=30)


def _pairs_text(convention: str) -> str:
    """Alt-text label: the dims one RoPE layout turns together, "0 和 1、2 和 3…"."""
    return "、".join(f"{a} 和 {b}" for a, b in rope.convention_pairs(ex.CONVENTION_DIM, convention))


@figure(
    "rope_conventions",
    alt=lambda: (
        f"两行方格，每行 {num('l4_perm_d')} 格，表示一个 {num('l4_perm_d')} 维向量；同一种颜色的两格是 RoPE 一起旋转的一对。"
        f"上一行是 interleaved 写法，相邻两维成对：{_pairs_text('interleaved')}。下一行是 rotate_half 写法，前一半和后一半对应位置成对：{_pairs_text('half')}。"
        f"两行之间的连线表示排列 {num('l4_perm')}：把上一行的维度按它重排，就得到下一行的配对。"
    ),
    caption=lambda: (
        f"同一个 {num('l4_perm_d')} 维的 q，两种代码写法的配对方式。颜色相同的两格一起转；"
        f"连线是把 interleaved 的维度重排成 rotate_half 的排列 {num('l4_perm')}。"
    ),
    size=(W, 3.0),
)
def rope_conventions(fig, theme):
    d = ex.CONVENTION_DIM
    perm = rope.convention_permutation(d)
    ax = fig.add_subplot()
    ax.set_xlim(-0.1, d)
    ax.set_ylim(-0.2, 3.6)
    ax.axis("off")
    rows = {"interleaved": (2.0, "interleaved", np.arange(d)), "half": (0.0, "rotate_half", perm)}
    for convention, (y, title, held) in rows.items():
        ax.text(-0.05, y + 1.0, title, ha="left", va="center", fontsize=FS, color=theme.fg)
        owner = rope.pair_of_dim(d, convention)
        for j in range(d):
            color = theme.series[int(owner[j]) % len(theme.series)]
            ax.add_patch(matplotlib.patches.Rectangle((j, y), 0.9, 0.8, facecolor=color, edgecolor=color, linewidth=1.6, alpha=0.35))
            # what sits in this slot: interleaved holds dim j; rotate_half slot j holds interleaved dim perm[j]
            ax.text(j + 0.45, y + 0.4, str(int(held[j])), ha="center", va="center", fontsize=FS + 1, color=theme.fg, fontweight="bold")
    for slot, src in enumerate(perm):
        ax.plot([src + 0.45, slot + 0.45], [2.0, 0.8], color=theme.muted, linewidth=0.8)
    ax.text(d / 2, 3.45, "格子里的数：原来的维度编号；同色两格 = 一对", ha="center", va="center", fontsize=FS, color=theme.fg)


# --- real models' spectra ------------------------------------------------------------------------------------

def _short_name(cfg) -> str:
    return cfg.name.split(" (")[0]


def _spectrum_alt() -> str:
    parts = []
    for key in ex.SPECTRUM_MODELS:
        cfg = configs.load(key)
        sp = rope.model_spectrum(cfg)
        parts.append(f"{_short_name(cfg)}：{sp.pairs} 对里 {sp.count_not_turning} 对高于上下文线 {sp.context:,}")
    return (
        f"{len(ex.SPECTRUM_MODELS)} 张上下排列的小图，每张是一个真实模型每个头的 RoPE 频率对：横轴是第几对，纵轴是这一对转一圈要多少个 token（对数刻度），"
        "水平虚线是模型的原生上下文长度，高于虚线的点（换了颜色）在上下文里一圈都转不满。" + "；".join(parts) + "。"
    )


@figure(
    "rope_spectrum",
    alt=_spectrum_alt,
    caption=lambda: (
        "每个头的频率对转一圈需要的 token 数（对数刻度）与原生上下文长度（虚线）。虚线以上的对在上下文里转不满一圈。"
    ),
    size=(W, 7.0),
)
def rope_spectrum(fig, theme):
    axes = fig.subplots(len(ex.SPECTRUM_MODELS), 1, sharey=True, gridspec_kw={"hspace": 0.8})
    for ax, key in zip(axes, ex.SPECTRUM_MODELS):
        cfg = configs.load(key)
        sp = rope.model_spectrum(cfg)
        idx = np.arange(sp.pairs)
        above = sp.not_turning
        ax.scatter(idx[~above], sp.wavelengths[~above], s=9, color=theme.series[0], label="转得满一圈")
        ax.scatter(idx[above], sp.wavelengths[above], s=9, color=theme.series[1], label="转不满一圈")
        ax.axhline(sp.context, color=theme.fg, linestyle="--", linewidth=0.9)
        ax.text(0, sp.context * 2.2, f"上下文 {sp.context:,}", fontsize=FS, color=theme.fg, va="bottom")
        ax.set_yscale("log")
        ax.set_yticks([1e1, 1e3, 1e5, 1e7])
        ax.set_xlim(-1, sp.pairs)
        theta = cfg.field("rope_theta")
        mark = "（未核实）" if theta.tag == "U" else ""
        ax.set_title(f"{_short_name(cfg)}：{sp.count_not_turning}/{sp.pairs} 对转不满\nθ = {theta.value:,.0f}{mark}",
                     fontsize=FS, loc="left")
        ax.grid(True, which="major", axis="y")
        ax.tick_params(labelsize=FS)
    axes[-1].set_xlabel("频率对编号 i", fontsize=FS)
    fig.supylabel("转一圈的 token 数", fontsize=FS)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=2, fontsize=FS, bbox_to_anchor=(0.5, 0.0))
    fig.subplots_adjust(bottom=0.14, top=0.94)


# --- why big models chose RoPE over ALiBi -----------------------------------------------------------------------


@figure(
    "rope_vs_alibi_by_distance",
    alt=lambda: (
        f"上下两张折线图，横轴都是距离 m − n，也就是键在查询前面多少个 token（0 到 {num('l4_why_rope_span')}），纵轴是分数。"
        f"两条线是同一个查询对两种不同内容的键。上图 ALiBi：内容分加上同一条斜线，两条线互相平行，都在距离 {num('l4_why_alibi_peak')} 最高。"
        f"下图 RoPE：两条线形状不同，一条在距离 {num('l4_why_rope_peak_a')} 最高，另一条在距离 {num('l4_why_rope_peak_b')} 最高。"
    ),
    caption=lambda: (
        f"同一个查询、两种键内容，分数随距离 m − n 怎么变（d = {num('sin_demo_d')}，不除以 √d）。上：ALiBi（斜率 a = {num('alibi_demo_slope')}），"
        f"偏置对谁都一样，最近的键永远最高；下：RoPE，距离通过旋转进到内容里，两种键各自在距离 {num('l4_why_rope_peak_a')} 和 {num('l4_why_rope_peak_b')} 最高。"
    ),
    size=(W, 5.6),
)
def rope_vs_alibi_by_distance(fig, theme):
    inv, q, keys, slope = why_rope_demo()
    r = np.arange(ex.WHY_ROPE_SPAN + 1)
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"hspace": 0.35})
    for j, (k, label) in enumerate(zip(keys, ("键内容甲", "键内容乙"))):
        style = dict(color=theme.series[j], linewidth=1.8, linestyle=("-", "--")[j], label=label)
        alibi = relative.alibi_scores_by_distance(q, k, slope, ex.WHY_ROPE_SPAN)
        rope_s = relative.rope_scores_by_distance(q, k, inv, ex.WHY_ROPE_SPAN)
        top.plot(r, alibi, **style)
        bottom.plot(r, rope_s, **style)
        for ax, s in ((top, alibi), (bottom, rope_s)):
            peak = int(np.argmax(s))
            ax.plot([peak], [s[peak]], "o", color=theme.series[j], markersize=7)
    top.set_title("ALiBi：内容分 − a·(m − n)", fontsize=FS + 1)
    bottom.set_title("RoPE：旋转后的 q·k", fontsize=FS + 1)
    for ax in (top, bottom):
        ax.set_ylabel("分数", fontsize=FS)
        ax.grid(True, linewidth=0.5)
        ax.tick_params(labelsize=FS)
        ax.legend(loc="lower left", fontsize=FS)
    bottom.set_xlabel("m − n：键在查询前面多少个 token", fontsize=FS)
    bottom.set_xlim(0, ex.WHY_ROPE_SPAN)
