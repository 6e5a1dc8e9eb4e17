"""Lesson 1 figures: a seeded single-head self-attention (posenc.attention) before and after a swap.

Every figure draws a ``posenc.attention.Swap`` (the same object lesson 1's numbers read) and
stacks its panels vertically, so it stays legible at phone width (figures_src/_style.py).
"""

from __future__ import annotations

import numpy as np

from figures_src import colorbar, figure, heatmap
from posenc import attention as at
from posenc import examples as ex
from posenc.quantities import text as num

TICK = 9  # pt: the phone rule's smallest text


def _labels(text: str) -> list[str]:
    return [f"{ch} {k}" for k, ch in enumerate(text)]


def _swap(positions: bool) -> at.Swap:
    text, i, j = ex.SWAP_MAIN
    return at.swap_experiment(text, i, j, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, positions)


def _causal() -> at.Swap:
    text, i, j = ex.CAUSAL
    return at.swap_experiment(text, i, j, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, causal=True)


def _grid(ax, n_rows: int, n_cols: int) -> None:
    ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
    ax.grid(True, which="minor", linewidth=0.6)
    ax.tick_params(which="minor", length=0)


@figure(
    "l1_swap_outputs",
    alt=lambda: (
        f"四张热力图上下排成一列，每张有 {num('l1_main_len')} 行（每个字一行，标着字和它的位置）、{num('l1_d')} 列（输出向量的每一维）。"
        f"第一、二张不加位置信息，分别是「{num('l1_main_a')}」和「{num('l1_main_b')}」：第二张只是把第一张位置 {num('l1_main_i')} 和位置 {num('l1_main_j')} 两行对调，"
        f"每个字自己那一行的颜色一模一样，最大差值 {num('l1_main_diff_nopos')}。"
        f"第三、四张是加了位置向量的同样两句：同一个字在两句里的颜色变了，最大差值 {num('l1_main_diff_pos')}。"
    ),
    caption=lambda: (
        f"单头自注意力的输出（d = {num('l1_d')}，种子 {num('l1_seed')}）。每行标着字和它的位置。"
        f"上两张：没有位置信息，交换后每个字的输出原样跟着字走（最大差值 {num('l1_main_diff_nopos')}）；"
        f"下两张：加上位置向量，同一个字的输出变了（最大差值 {num('l1_main_diff_pos')}）。"
    ),
    size=(4.6, 8.4),
)
def l1_swap_outputs(fig, theme):
    fig.set_layout_engine("constrained")
    axes = fig.subplots(4, 1)
    for r, positions in enumerate((False, True)):
        sw = _swap(positions)
        lim = float(max(np.abs(sw.before.out).max(), np.abs(sw.after.out).max()))
        for c, (sentence, res) in enumerate(((sw.text, sw.before), (sw.swapped, sw.after))):
            ax = axes[2 * r + c]
            im = heatmap(ax, res.out, theme, -lim, lim, [str(k) for k in range(res.out.shape[1])], _labels(sentence), TICK,
                         cmap=theme.cmap, aspect="auto")
            ax.set_title(f"{'加位置向量' if positions else '无位置信息'}：{sentence}", fontsize=10)
        axes[2 * r + 1].set_xlabel("输出向量的维度", fontsize=TICK)
        colorbar(fig, im, axes[2 * r:2 * r + 2], None, TICK, shrink=0.9, pad=0.02)


@figure(
    "l1_permutation",
    alt=lambda: (
        f"三张 {num('l1_main_len')}×{num('l1_main_len')} 的方阵上下排列。第一张是交换矩阵 P：对角线上除了位置 {num('l1_main_i')}、{num('l1_main_j')} 两行，"
        f"其余都是 1，这两行的 1 互换了列。第二张是「{num('l1_main_a')}」的注意力权重，第三张是「{num('l1_main_b')}」的注意力权重："
        f"第三张恰好是第二张把位置 {num('l1_main_i')}、{num('l1_main_j')} 的两行和两列同时对调，误差 {num('l1_weights_equiv_err')}。"
    ),
    caption=lambda: (
        f"排列矩阵的视角。交换两个字就是左乘 P；没有位置信息时，权重矩阵变成 P·A·Pᵀ（行、列一起换），"
        f"输出变成 P·Out，误差分别只有 {num('l1_weights_equiv_err')} 和 {num('l1_out_equiv_err')}。"
    ),
    size=(4.2, 9.6),
)
def l1_permutation(fig, theme):
    sw = _swap(False)
    p = at.permutation_matrix(sw.perm)
    n = len(sw.perm)
    fig.set_layout_engine("constrained")
    axes = fig.subplots(3, 1)
    ax = axes[0]
    rows, cols = np.nonzero(p)
    ax.scatter(cols, rows, s=120, color=theme.series[0], marker="s")
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(n), _labels(sw.text), fontsize=TICK)
    ax.set_yticks(range(n), _labels(sw.swapped), fontsize=TICK)
    _grid(ax, n, n)
    ax.set_title("P（方块 = 1）", fontsize=10)
    ax.set_xlabel("原句的行", fontsize=TICK)
    ax.set_ylabel("交换后的行", fontsize=TICK)
    top = float(max(sw.before.weights.max(), sw.after.weights.max()))
    for ax, sentence, res, title in ((axes[1], sw.text, sw.before, r"$A(X)$"), (axes[2], sw.swapped, sw.after, r"$A(PX) = P\,A(X)\,P^{T}$")):
        im = heatmap(ax, res.weights, theme, 0, top, list(sentence), list(sentence), TICK)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("被看的字（key）", fontsize=TICK)
        ax.set_ylabel("看的字（query）", fontsize=TICK)
    colorbar(fig, im, axes[1:], "注意力权重", TICK, shrink=0.8, pad=0.02)


@figure(
    "l1_causal",
    alt=lambda: (
        f"两张 {num('l1_causal_len')}×{num('l1_causal_len')} 的注意力权重图上下排列，上面是「{num('l1_causal_a')}」，下面是「{num('l1_causal_b')}」，都加了因果掩码，"
        "右上三角被遮住、留空。前几行不同：被交换的字在两句里能看到的字不一样多。"
        f"最后一行「{num('l1_causal_last_char')}」在两句里都看到同样 {num('l1_causal_len')} 个字，权重只是换了列，它的输出差值为 {num('l1_causal_last_diff_1')}。"
    ),
    caption=lambda: (
        f"因果掩码只决定谁能看见谁（留空的格子是被遮住的）。被交换的字能看到的范围变了，输出跟着变（最大差值 {num('l1_causal_moved_diff_1')}）；"
        f"最后一个字「{num('l1_causal_last_char')}」在两句里看到的是同一组字，一层注意力里它的输出只差舍入误差（{num('l1_causal_last_diff_1')}）。"
    ),
    size=(4.2, 6.6),
)
def l1_causal(fig, theme):
    sw = _causal()
    mask = at.causal_mask(len(sw.perm))
    top = float(max(sw.before.weights.max(), sw.after.weights.max()))
    fig.set_layout_engine("constrained")
    axes = fig.subplots(2, 1)
    n = len(sw.perm)
    for ax, sentence, res in zip(axes, (sw.text, sw.swapped), (sw.before, sw.after)):
        shown = np.ma.masked_where(~mask, res.weights)  # forbidden cells stay transparent
        im = heatmap(ax, shown, theme, 0, top, _labels(sentence), _labels(sentence), TICK)
        _grid(ax, n, n)
        ax.set_title(f"因果掩码：{sentence}", fontsize=10)
        ax.set_xlabel("被看的字（key）", fontsize=TICK)
        ax.set_ylabel("看的字（query）", fontsize=TICK)
    colorbar(fig, im, axes, "注意力权重", TICK, shrink=0.85, pad=0.02)
