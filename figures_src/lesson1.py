"""Lesson 1 figures: a seeded single-head self-attention (posenc.attention) before and after a swap."""

from __future__ import annotations

import numpy as np

from figures_src import figure
from posenc import attention as at
from posenc import examples as ex
from posenc.quantities import text as num


def _labels(text: str) -> list[str]:
    return [f"{ch} {k}" for k, ch in enumerate(text)]


def _swap_results(positions: bool):
    text, i, j = ex.SWAP_MAIN
    perm = at.swap(len(text), i, j)
    swapped = at.permute_text(text, perm)
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    a = at.attend(at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED, positions), head)
    b = at.attend(at.sentence_input(swapped, ex.ATTN_D, ex.ATTN_SEED, positions), head)
    return text, swapped, perm, a, b


@figure(
    "l1_swap_outputs",
    alt=lambda: (
        f"四张热力图排成两行两列，每张有 {num('l1_main_len')} 行（每个字一行）、{num('l1_d')} 列（输出向量的每一维）。"
        f"左列是「{num('l1_main_a')}」，右列是「{num('l1_main_b')}」。上面一行不加位置信息："
        f"右图只是把左图位置 {num('l1_main_i')} 和位置 {num('l1_main_j')} 两行对调，每个字自己的那一行颜色一模一样，最大差值 {num('l1_main_diff_nopos')}。"
        f"下面一行加了位置向量：同一个字在两句里的颜色变了，最大差值 {num('l1_main_diff_pos')}。"
    ),
    caption=lambda: (
        f"单头自注意力的输出（d = {num('l1_d')}，种子 {num('l1_seed')}）。每行标着字和它的位置。"
        f"上：没有位置信息，交换后每个字的输出原样跟着字走（最大差值 {num('l1_main_diff_nopos')}）；"
        f"下：加上位置向量，同一个字的输出变了（最大差值 {num('l1_main_diff_pos')}）。"
    ),
    size=(7.2, 5.4),
)
def l1_swap_outputs(fig, theme):
    fig.set_layout_engine("constrained")
    axes = fig.subplots(2, 2)
    for r, positions in enumerate((False, True)):
        text, swapped, _perm, a, b = _swap_results(positions)
        lim = float(max(np.abs(a.out).max(), np.abs(b.out).max()))
        for c, (sentence, res) in enumerate(((text, a), (swapped, b))):
            ax = axes[r, c]
            im = ax.imshow(res.out, cmap=theme.cmap, vmin=-lim, vmax=lim, aspect="auto")
            ax.set_yticks(range(len(sentence)), _labels(sentence), fontsize=9)
            ax.set_xticks(range(res.out.shape[1]), [str(k) for k in range(res.out.shape[1])], fontsize=7)
            ax.set_title(f"{'加位置向量' if positions else '无位置信息'}：{sentence}", fontsize=10)
            if r == 1:
                ax.set_xlabel("输出向量的维度", fontsize=8)
        fig.colorbar(im, ax=list(axes[r]), shrink=0.9, pad=0.02)


@figure(
    "l1_permutation",
    alt=lambda: (
        f"三张 {num('l1_main_len')}×{num('l1_main_len')} 的方阵并排。第一张是交换矩阵 P：对角线上除了位置 {num('l1_main_i')}、{num('l1_main_j')} 两行，"
        f"其余都是 1，这两行的 1 互换了列。第二张是「{num('l1_main_a')}」的注意力权重，第三张是「{num('l1_main_b')}」的注意力权重："
        f"第三张恰好是第二张把位置 {num('l1_main_i')}、{num('l1_main_j')} 的两行和两列同时对调，误差 {num('l1_weights_equiv_err')}。"
    ),
    caption=lambda: (
        f"排列矩阵的视角。交换两个字就是左乘 P；没有位置信息时，权重矩阵变成 P·A·Pᵀ（行、列一起换），"
        f"输出变成 P·Out，误差分别只有 {num('l1_weights_equiv_err')} 和 {num('l1_out_equiv_err')}。"
    ),
    size=(7.6, 3.0),
)
def l1_permutation(fig, theme):
    text, swapped, perm, a, b = _swap_results(False)
    p = at.permutation_matrix(perm)
    n = len(text)
    fig.set_layout_engine("constrained")
    axes = fig.subplots(1, 3)
    ax = axes[0]
    rows, cols = np.nonzero(p)
    ax.scatter(cols, rows, s=120, color=theme.series[0], marker="s")
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(n), _labels(text), fontsize=8)
    ax.set_yticks(range(n), _labels(swapped), fontsize=8)
    ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
    ax.grid(True, which="minor", linewidth=0.6)
    ax.tick_params(which="minor", length=0)
    ax.set_title("P（方块 = 1）", fontsize=10)
    ax.set_xlabel("原句的行", fontsize=8)
    ax.set_ylabel("交换后的行", fontsize=8)
    for ax, sentence, res, title in ((axes[1], text, a, r"$A(X)$"), (axes[2], swapped, b, r"$A(PX) = P\,A(X)\,P^{T}$")):
        im = ax.imshow(res.weights, cmap=theme.seq_cmap, vmin=0, vmax=float(max(a.weights.max(), b.weights.max())))
        ax.set_xticks(range(n), list(sentence), fontsize=9)
        ax.set_yticks(range(n), list(sentence), fontsize=9)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("被看的字（key）", fontsize=8)
    axes[1].set_ylabel("看的字（query）", fontsize=8)
    fig.colorbar(im, ax=list(axes[1:]), shrink=0.8, pad=0.02, label="注意力权重")


@figure(
    "l1_causal",
    alt=lambda: (
        f"两张 {num('l1_causal_len')}×{num('l1_causal_len')} 的注意力权重图，左边是「{num('l1_causal_a')}」，右边是「{num('l1_causal_b')}」，都加了因果掩码，"
        "右上三角被遮住、留空。前几行不同：被交换的字在两句里能看到的字不一样多。"
        f"最后一行「{num('l1_causal_last_char')}」在两句里都看到同样 {num('l1_causal_len')} 个字，权重只是换了列，它的输出差值为 {num('l1_causal_last_diff_1')}。"
    ),
    caption=lambda: (
        f"因果掩码只决定谁能看见谁（留空的格子是被遮住的）。被交换的字能看到的范围变了，输出跟着变（最大差值 {num('l1_causal_moved_diff_1')}）；"
        f"最后一个字「{num('l1_causal_last_char')}」在两句里看到的是同一组字，一层注意力里它的输出完全相同（差值 {num('l1_causal_last_diff_1')}）。"
    ),
    size=(7.2, 3.2),
)
def l1_causal(fig, theme):
    text, i, j = ex.CAUSAL
    swapped = at.permute_text(text, at.swap(len(text), i, j))
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    mask = at.causal_mask(len(text))
    results = [at.attend(at.sentence_input(s, ex.ATTN_D, ex.ATTN_SEED), head, mask) for s in (text, swapped)]
    top = float(max(r.weights.max() for r in results))
    fig.set_layout_engine("constrained")
    axes = fig.subplots(1, 2)
    n = len(text)
    for ax, sentence, res in zip(axes, (text, swapped), results):
        shown = np.ma.masked_where(~mask, res.weights)  # forbidden cells stay transparent
        im = ax.imshow(shown, cmap=theme.seq_cmap, vmin=0, vmax=top)
        ax.set_xticks(range(n), _labels(sentence), fontsize=8)
        ax.set_yticks(range(n), _labels(sentence), fontsize=8)
        ax.set_xticks(np.arange(n + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n + 1) - 0.5, minor=True)
        ax.grid(True, which="minor", linewidth=0.6)
        ax.tick_params(which="minor", length=0)
        ax.set_title(f"因果掩码：{sentence}", fontsize=10)
        ax.set_xlabel("被看的字（key）", fontsize=8)
    axes[0].set_ylabel("看的字（query）", fontsize=8)
    fig.colorbar(im, ax=list(axes), shrink=0.85, pad=0.02, label="注意力权重")
