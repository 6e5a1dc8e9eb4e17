"""Lesson 4 figures: RoPE turns q and k; the shift experiment; the two code layouts; real models' spectra."""

from __future__ import annotations

import matplotlib.lines
import matplotlib.patches
import numpy as np

from figures_src import figure
from posenc import configs, rope, shift
from posenc import examples as ex
from posenc.quantities import text as num


def _f(x: float) -> str:
    return f"{x:.4f}".replace("-", "−")


def _unit_axes(ax, theme, lim=1.9):
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


def _arrow(ax, v, color, style="-", label=None):
    ax.annotate("", xy=(v[0], v[1]), xytext=(0, 0), arrowprops=dict(arrowstyle="-|>", color=color, linewidth=1.8, linestyle=style, shrinkA=0, shrinkB=0))
    if label:
        ax.text(v[0] * 1.12, v[1] * 1.12, label, color=color, fontsize=9, ha="center", va="center")


@figure(
    "rope_pair_turn",
    alt=lambda: (
        f"左右两张图。左图是 RoPE：同一对维度里，q 转过 m·ω、k 转过 n·ω。实线是 m = {num('l4_pair_m')}、n = {num('l4_pair_n')}，"
        f"虚线是两者都往后移 {num('sin_shift')} 之后；两支箭头各自转到了新方向，但它们之间的夹角不变，分数两次都是 {num('l4_pair_rope')}。"
        f"右图是把正弦的一对数加到 q、k 上：平移前分数 {num('l4_pair_added')}，平移后变成 {num('l4_pair_added_shifted')}。"
    ),
    caption=lambda: (
        f"一对维度（第 {num('l4_pair_index')} 对，ω = {num('l4_pair_omega')}），q = {num('l4_pair_q')}，k = {num('l4_pair_k')}。"
        f"实线：m = {num('l4_pair_m')}、n = {num('l4_pair_n')}；虚线：都加 {num('sin_shift')}。左边旋转，夹角不变；右边相加，分数变了。"
    ),
    size=(7.2, 3.6),
)
def rope_pair_turn(fig, theme):
    q, k = np.asarray(ex.PAIR_Q), np.asarray(ex.PAIR_K)
    w = shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM)
    starts = ((ex.PAIR_M, ex.PAIR_N, "-"), (ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT, "--"))
    left, right = fig.subplots(1, 2)
    for ax in (left, right):
        _unit_axes(ax, theme)
    for m, n, style in starts:
        qm, kn = shift.rotate_pair(q, m * w), shift.rotate_pair(k, n * w)
        _arrow(left, qm, theme.series[0], style, f"q({m})")
        _arrow(left, kn, theme.series[1], style, f"k({n})")
        qa = q + [np.sin(m * w), np.cos(m * w)]
        ka = k + [np.sin(n * w), np.cos(n * w)]
        _arrow(right, qa, theme.series[0], style, f"q+PE({m})")
        _arrow(right, ka, theme.series[1], style, f"k+PE({n})")
    r0, a0 = shift.pair_scores(q, k, ex.PAIR_M, ex.PAIR_N, w)
    r1, a1 = shift.pair_scores(q, k, ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT, w)
    left.set_title(f"RoPE：旋转\n分数 {_f(r0)} → {_f(r1)}", fontsize=10)
    right.set_title(f"正弦相加\n分数 {_f(a0)} → {_f(a1)}", fontsize=10)
    right.set_xlim(-2.2, 2.2)
    right.set_ylim(-2.2, 2.2)
    handles = [
        matplotlib.lines.Line2D([], [], color=theme.fg, linewidth=1.6, label=f"m = {ex.PAIR_M}, n = {ex.PAIR_N}"),
        matplotlib.lines.Line2D([], [], color=theme.fg, linewidth=1.6, linestyle="--", label=f"都加 {ex.SHIFT}"),
    ]
    fig.legend(handles=handles, loc="lower center", ncols=2, fontsize=8, bbox_to_anchor=(0.5, -0.02))


_METHOD_TITLES = {"input": "正弦加在输入上", "qk": "正弦加在 q、k 上", "rope": "RoPE：旋转 q、k"}


@figure(
    "rope_shift_scores",
    alt=lambda: (
        f"三张 {num('l1_main_len')}×{num('l1_main_len')} 的热力图并排，每格是句子「{ex.SENTENCE}」整句往后平移 {num('sin_shift')} 个位置前后，"
        f"同一对 token 的注意力分数差了多少（绝对值），三张图共用一个颜色刻度。左边把正弦位置编码加在输入上，最大差 {num('l4_shift_input_max_diff')}；"
        f"中间把正弦加在投影后的 q、k 上，最大差 {num('l4_shift_qk_max_diff')}；右边用 RoPE 旋转 q、k，整张图一片零，最大差只有 {num('l4_shift_rope_max_diff')}。"
    ),
    caption=lambda: (
        f"整句平移 +{num('sin_shift')} 前后，注意力分数的变化 |ΔS|（d = {num('sin_demo_d')}，随机种子 {num('l4_seed')} 的 W_q、W_k 和 token 向量）。"
        f"只有 RoPE 一格都不变。"
    ),
    size=(7.6, 3.0),
)
def rope_shift_scores(fig, theme):
    chars = list(ex.SENTENCE)
    n = len(chars)
    diffs = {m: np.abs(shift.scores(ex.SENTENCE, ex.SHIFT, m, ex.L4_DIM, ex.L4_SEED) - shift.scores(ex.SENTENCE, 0, m, ex.L4_DIM, ex.L4_SEED))
             for m in shift.METHODS}
    hi = max(float(d.max()) for d in diffs.values())
    axes = fig.subplots(1, len(shift.METHODS))
    for ax, (method, d) in zip(axes, diffs.items()):
        im = ax.imshow(d, cmap=theme.seq_cmap, vmin=0, vmax=hi)
        ax.set_xticks(range(n), chars, fontsize=8)
        ax.set_yticks(range(n), chars, fontsize=8)
        ax.set_title(f"{_METHOD_TITLES[method]}\n最大 {d.max():.2g}", fontsize=9)
    cbar = fig.colorbar(im, ax=list(axes), shrink=0.8)
    cbar.set_label("|ΔS|")


def _pairs_text(convention: str) -> str:
    """Alt-text label: the dims one RoPE layout turns together, "0 和 1、2 和 3…" (posenc.rope's docstring)."""
    h = ex.CONVENTION_DIM // 2
    pairs = [(2 * i, 2 * i + 1) if convention == "interleaved" else (i, i + h) for i in range(h)]
    return "、".join(f"{a} 和 {b}" for a, b in pairs)


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
    size=(7.2, 2.8),
)
def rope_conventions(fig, theme):
    d = ex.CONVENTION_DIM
    perm = rope.convention_permutation(d)
    h = d // 2
    ax = fig.add_subplot()
    ax.set_xlim(-1.6, d)
    ax.set_ylim(-0.6, 3.0)
    ax.axis("off")
    rows = {"interleaved": 2.0, "rotate_half": 0.0}
    pair_of = {"interleaved": lambda j: j // 2, "rotate_half": lambda j: j % h}
    for name, y in rows.items():
        ax.text(-0.3, y + 0.4, name, ha="right", va="center", fontsize=9, color=theme.fg)
        for j in range(d):
            color = theme.series[pair_of[name](j) % len(theme.series)]
            ax.add_patch(matplotlib.patches.Rectangle((j, y), 0.9, 0.8, facecolor=color, edgecolor=color, linewidth=1.6, alpha=0.35))
            # what sits in this slot: interleaved holds dim j; rotate_half slot j holds interleaved dim perm[j]
            label = j if name == "interleaved" else int(perm[j])
            ax.text(j + 0.45, y + 0.4, str(label), ha="center", va="center", fontsize=10, color=theme.fg, fontweight="bold")
    for slot, src in enumerate(perm):
        ax.plot([src + 0.45, slot + 0.45], [2.0, 0.8], color=theme.muted, linewidth=0.8)
    ax.text(d / 2 - 0.05, 2.95, "格子里的数：原来的维度编号；同色两格 = 一对", ha="center", va="center", fontsize=8, color=theme.fg)


# --- real models' spectra ------------------------------------------------------------------------------------

def _spectrum(key):
    cfg = configs.load(key)
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    return cfg, rope.wavelengths(inv), rope.pairs_not_completing_turn(inv, cfg["context"])


def _spectrum_alt() -> str:
    parts = []
    for key in ex.SPECTRUM_MODELS:
        cfg, lam, bad = _spectrum(key)
        parts.append(f"{cfg.name.split(' (')[0]}：{len(lam)} 对里 {bad} 对高于上下文线 {cfg['context']:,}")
    return (
        f"{len(ex.SPECTRUM_MODELS)} 张小图，每张是一个真实模型每个头的 RoPE 频率对：横轴是第几对，纵轴是这一对转一圈要多少个 token（对数刻度），"
        "水平虚线是模型的原生上下文长度，高于虚线的点（换了颜色）在上下文里一圈都转不满。" + "；".join(parts) + "。"
        "Qwen3-Next 的底数未核实。"
    )


@figure(
    "rope_spectrum",
    alt=_spectrum_alt,
    caption=lambda: (
        "每个头的频率对转一圈需要的 token 数（对数刻度）与原生上下文长度（虚线）。虚线以上的对在上下文里转不满一圈。"
        "配置来自 posenc/data/models.yaml；Qwen3-Next 的 θ 未核实。"
    ),
    size=(7.6, 5.2),
)
def rope_spectrum(fig, theme):
    axes = fig.subplots(2, 3, sharey=True).ravel()
    for ax, key in zip(axes, ex.SPECTRUM_MODELS):
        cfg, lam, bad = _spectrum(key)
        L = cfg["context"]
        idx = np.arange(len(lam))
        above = lam > L
        ax.scatter(idx[~above], lam[~above], s=7, color=theme.series[0], label="转得满一圈")
        ax.scatter(idx[above], lam[above], s=7, color=theme.series[1], label="转不满一圈")
        ax.axhline(L, color=theme.fg, linestyle="--", linewidth=0.9)
        ax.text(0, L * 1.6, f"上下文 {L:,}", fontsize=7, color=theme.fg, va="bottom")
        ax.set_yscale("log")
        theta = cfg.field("rope_theta")
        mark = "（θ 未核实）" if theta.tag == "U" else ""
        ax.set_title(f"{cfg.name.split(' (')[0]}\nθ = {theta.value:,.0f}{mark} · {bad}/{len(lam)} 对", fontsize=8)
        ax.grid(True, which="major", axis="y")
        ax.tick_params(labelsize=7)
    for ax in axes[3:]:
        ax.set_xlabel("频率对编号 i", fontsize=8)
    for ax in axes[::3]:
        ax.set_ylabel("转一圈的 token 数", fontsize=8)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=2, fontsize=8, bbox_to_anchor=(0.5, -0.03))
    fig.subplots_adjust(hspace=0.55, wspace=0.12, bottom=0.13)
