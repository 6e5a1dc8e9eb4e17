"""Lesson 1 figures: a seeded single-head self-attention (posenc.attention) before and after a swap.

Every figure draws a ``posenc.attention.Swap`` (the same object lesson 1's numbers read) and
stacks its panels vertically, so it stays legible at phone width (figures_src/_style.py).
"""

from __future__ import annotations

import numpy as np

from figures_src import colorbar, figure, heatmap, language, num, texts
from posenc import attention as at
from posenc import examples as ex
from posenc import tokenize

T = texts(__name__)
TICK = 9  # pt: the phone rule's smallest text


def _tokens(text) -> list[str]:
    """The tokens of one of the drawn language's examples: characters (Chinese) or words (English)."""
    return tokenize.tokens(text)


def _sentence(text: str) -> str:
    return T("token_join").join(_tokens(text))


def _labels(text: str) -> list[str]:
    return [f"{tok} {k}" for k, tok in enumerate(_tokens(text))]


def _nums(*names: str) -> dict[str, str]:
    """The registered quantities an alt text or caption quotes, printed in the language being described."""
    return {name: num(name) for name in names}


def _swap(positions: bool) -> at.Swap:
    text, i, j = ex.texts(language()).swap_main  # the drawn edition's own sentence
    return at.swap_experiment(text, i, j, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, positions)


def _causal() -> at.Swap:
    text, i, j = ex.texts(language()).causal
    return at.swap_experiment(text, i, j, at.make_head(ex.ATTN_D, ex.ATTN_SEED), ex.ATTN_SEED, causal=True)


def _grid(ax, n_rows: int, n_cols: int) -> None:
    ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
    ax.grid(True, which="minor", linewidth=0.6)
    ax.tick_params(which="minor", length=0)


@figure(
    "l1_swap_outputs",
    alt=lambda: T("alt.l1_swap_outputs", **_nums("l1_main_len", "l1_d", "l1_main_a", "l1_main_b", "l1_main_i", "l1_main_j",
                                                  "l1_main_diff_nopos", "l1_main_diff_pos")),
    caption=lambda: T("caption.l1_swap_outputs", **_nums("l1_d", "l1_seed", "l1_main_diff_nopos", "l1_main_diff_pos")),
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
            ax.set_title(T("with_positions" if positions else "no_positions", sentence=_sentence(sentence)), fontsize=10)
        axes[2 * r + 1].set_xlabel(T("output_dims"), fontsize=TICK)
        colorbar(fig, im, axes[2 * r:2 * r + 2], None, TICK, shrink=0.9, pad=0.02)


@figure(
    "l1_permutation",
    alt=lambda: T("alt.l1_permutation", **_nums("l1_main_len", "l1_main_i", "l1_main_j", "l1_main_a", "l1_main_b",
                                                 "l1_weights_equiv_err")),
    caption=lambda: T("caption.l1_permutation", **_nums("l1_weights_equiv_err", "l1_out_equiv_err")),
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
    ax.set_title(T("p_title"), fontsize=10)
    ax.set_xlabel(T("rows_before"), fontsize=TICK)
    ax.set_ylabel(T("rows_after"), fontsize=TICK)
    top = float(max(sw.before.weights.max(), sw.after.weights.max()))
    for ax, sentence, res, title in ((axes[1], sw.text, sw.before, r"$A(X)$"), (axes[2], sw.swapped, sw.after, r"$A(\Pi X) = \Pi\,A(X)\,\Pi^{T}$")):
        im = heatmap(ax, res.weights, theme, 0, top, _tokens(sentence), _tokens(sentence), TICK)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(T("key_axis"), fontsize=TICK)
        ax.set_ylabel(T("query_axis"), fontsize=TICK)
    colorbar(fig, im, axes[1:], T("weight"), TICK, shrink=0.8, pad=0.02)


@figure(
    "l1_causal",
    alt=lambda: T("alt.l1_causal", **_nums("l1_causal_len", "l1_causal_a", "l1_causal_b", "l1_causal_last_char", "l1_causal_last_diff_1")),
    caption=lambda: T("caption.l1_causal", **_nums("l1_causal_moved_diff_1", "l1_causal_last_char", "l1_causal_last_diff_1")),
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
        ax.set_title(T("causal_title", sentence=_sentence(sentence)), fontsize=10)
        ax.set_xlabel(T("key_axis"), fontsize=TICK)
        ax.set_ylabel(T("query_axis"), fontsize=TICK)
    colorbar(fig, im, axes, T("weight"), TICK, shrink=0.85, pad=0.02)
