"""Lesson 6b figures (选读, M-RoPE): the three position-ID rows of a small text–image–text example, and which
rotary pair follows which ID in Qwen2.5-VL (contiguous sections) and Qwen3-VL (interleaved).

Both draw posenc.mrope's results (model_position_ids, model_pair_axes), the same calls the
numbers in posenc/quantities/lesson6b.py make. Phone layout: 4.8 in wide, text ≥ 9 pt.
"""

from __future__ import annotations

import matplotlib.patches
import numpy as np

from figures_src import figure
from posenc import configs, mrope
from posenc import examples as ex
from posenc.quantities import text as num

FONT = 9
AXIS_ZH = {"temporal": "时间", "height": "高度", "width": "宽度"}


def _ids() -> np.ndarray:
    return mrope.model_position_ids(configs.load(ex.MROPE_MODEL), ex.mrope_segments())


def _kinds() -> list[str]:
    """'文' or '图' for each token of the example, in order."""
    out = []
    for seg in ex.mrope_segments():
        if isinstance(seg, mrope.Text):
            out += ["文"] * seg.length
        else:
            out += ["图"] * mrope.image_tokens(seg, configs.load(ex.MROPE_MODEL)["spatial_merge_size"])
    return out


@figure(
    "mrope_position_ids",
    alt=lambda: (
        f"一张表格：{num('mrope_ex_tokens')} 列是例子里的 {num('mrope_ex_tokens')} 个 token（{num('mrope_ex_text_before')} 个文字、"
        f"{num('mrope_ex_image_tokens')} 个图片 token、{num('mrope_ex_text_after')} 个文字），下面三行是它们的时间、高度、宽度编号。"
        f"时间编号：{num('mrope_ex_ids_temporal')}；高度编号：{num('mrope_ex_ids_height')}；宽度编号：{num('mrope_ex_ids_width')}。"
        f"文字 token 三行相同，图片 token 的高度、宽度编号是它在 {num('mrope_ex_grid_h')} × {num('mrope_ex_grid_w')} 网格里的行、列加上起点 "
        f"{num('mrope_ex_image_start')}；图片后的文字从 {num('mrope_ex_after_start')} 接着数。"
    ),
    caption=lambda: (
        f"文字、一张 {num('mrope_ex_patches_h')} × {num('mrope_ex_patches_w')} 个 patch 的图（合并成 "
        f"{num('mrope_ex_grid_h')} × {num('mrope_ex_grid_w')} 个 token）、文字：每个 token 的三个位置编号。"
        "着色的列是图片 token。"
    ),
    size=(4.8, 2.3),
)
def mrope_position_ids(fig, theme):
    ax = fig.add_subplot()
    ids, kinds = _ids(), _kinds()
    rows = [("token", kinds)] + [(AXIS_ZH[a], [str(int(v)) for v in ids[i]]) for i, a in enumerate(mrope.AXES)]
    n = ids.shape[1]
    for r, (label, cells) in enumerate(rows):
        y = -r
        ax.text(-0.15, y, label, ha="right", va="center", fontsize=FONT, color=theme.fg)
        for c, cell in enumerate(cells):
            image = kinds[c] == "图"
            ax.add_patch(matplotlib.patches.Rectangle((c, y - 0.45), 1, 0.9, facecolor=theme.series[0] if image else "none",
                                                      alpha=0.25 if image else 1.0, edgecolor=theme.muted, linewidth=0.6))
            ax.text(c + 0.5, y, cell, ha="center", va="center", fontsize=FONT, color=theme.fg)
    ax.set_xlim(-1.6, n)
    ax.set_ylim(-len(rows) + 0.45, 0.55)
    ax.axis("off")


def _axes_row(key: str) -> np.ndarray:
    return mrope.model_pair_axes(configs.load(key))


def _row_title(key: str) -> str:
    cfg = configs.load(key)
    layout = "交错" if cfg.get("mrope_interleaved", False) else "连续分段"
    return f"{cfg.name.split(' (')[0]}（{layout}，mrope_section = {list(cfg['mrope_section'])}）"


@figure(
    "mrope_pair_axes",
    alt=lambda: (
        f"两行色块，每行 {num('mrope_pairs_total')} 格，是一个注意力头的 {num('mrope_pairs_total')} 个频率对，左边转得最快、右边最慢；"
        "颜色表示这一对跟时间、高度还是宽度编号转。"
        f"上面一行 {_row_title(ex.MROPE_MODEL)}：前 {num('mrope_pairs_temporal_qwen25_vl_7b')} 对跟时间，接着 "
        f"{num('mrope_pairs_height_qwen25_vl_7b')} 对跟高度，最后 {num('mrope_pairs_width_qwen25_vl_7b')} 对跟宽度，"
        f"宽度从第 {num('mrope_first_width_pair_qwen25_vl_7b')} 对才开始。"
        f"下面一行 {_row_title(ex.MROPE_INTERLEAVED_MODEL)}：时间、高度、宽度三种颜色轮流出现，宽度从第 "
        f"{num('mrope_first_width_pair_qwen3_vl_235b_a22b')} 对就开始，最后几对全归时间。"
    ),
    caption="每个头的频率对（左快右慢）分给三个位置编号：连续分段让宽度只拿到最慢的一段，交错让三个编号都拿到快、慢各种频率。",
    size=(4.8, 2.6),
)
def mrope_pair_axes(fig, theme):
    ax = fig.add_subplot()
    models = (ex.MROPE_MODEL, ex.MROPE_INTERLEAVED_MODEL)
    colors = [theme.series[1], theme.series[0], theme.series[2]]  # temporal, height, width
    for row, key in enumerate(models):
        axes = _axes_row(key)
        y = -row * 1.5
        for j, axis in enumerate(axes):
            ax.add_patch(matplotlib.patches.Rectangle((j, y - 0.35), 1, 0.7, facecolor=colors[axis], edgecolor="none"))
        ax.text(0, y + 0.45, _row_title(key), ha="left", va="bottom", fontsize=FONT, color=theme.fg)
    total = len(_axes_row(models[0]))
    ax.set_xlim(0, total)
    ax.set_ylim(-1.5 * (len(models) - 1) - 0.5, 1.05)
    ticks = [0, total // 4, total // 2, 3 * total // 4, total - 1]
    ax.set_xticks([t + 0.5 for t in ticks], [str(t) for t in ticks])
    ax.tick_params(labelsize=FONT, length=0)
    ax.set_xlabel("第几对（左边转得快，右边转得慢）", fontsize=FONT)
    ax.set_yticks([])
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    handles = [matplotlib.patches.Patch(facecolor=colors[i], label=f"跟{AXIS_ZH[a]}编号") for i, a in enumerate(mrope.AXES)]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.32), ncols=3, fontsize=FONT, frameon=False)
