"""Lesson 6b figures (optional, M-RoPE): the three position-ID rows of a small text–image–text example, and which
rotary pair follows which ID in Qwen2.5-VL (contiguous sections) and Qwen3-VL (interleaved).

Both draw posenc.mrope's results (model_position_ids, model_pair_axes), the same calls the
numbers in posenc/quantities/lesson6b.py make. Phone layout: 4.8 in wide, text ≥ 9 pt.
"""

from __future__ import annotations

import matplotlib.patches
import numpy as np

from figures_src import figure, num, texts
from posenc import configs, mrope
from posenc import examples as ex

FONT = 9

# This module's words: figures_src/labels/<lang>.yaml, section lesson6b (axis.<name>: posenc.mrope.AXES' names).
T = texts(__name__)


def _ids() -> np.ndarray:
    return mrope.model_position_ids(configs.load(ex.MROPE_MODEL), ex.mrope_segments())


def _kinds() -> list[str]:
    """'text' or 'image' for each token of the example, in order."""
    out = []
    for seg in ex.mrope_segments():
        if isinstance(seg, mrope.Text):
            out += ["text"] * seg.length
        else:
            out += ["image"] * mrope.image_tokens(seg, configs.load(ex.MROPE_MODEL)["spatial_merge_size"])
    return out


@figure(
    "mrope_position_ids",
    alt=lambda: T("alt.mrope_position_ids", tokens=num("mrope_ex_tokens"), before=num("mrope_ex_text_before"),
                  image=num("mrope_ex_image_tokens"), after=num("mrope_ex_text_after"), temporal=num("mrope_ex_ids_temporal"),
                  height=num("mrope_ex_ids_height"), width=num("mrope_ex_ids_width"), grid_h=num("mrope_ex_grid_h"),
                  grid_w=num("mrope_ex_grid_w"), start=num("mrope_ex_image_start"), after_start=num("mrope_ex_after_start")),
    caption=lambda: T("caption.mrope_position_ids", patches_h=num("mrope_ex_patches_h"), patches_w=num("mrope_ex_patches_w"),
                      grid_h=num("mrope_ex_grid_h"), grid_w=num("mrope_ex_grid_w")),
    size=(4.8, 2.3),
)
def mrope_position_ids(fig, theme):
    ax = fig.add_subplot()
    ids, kinds = _ids(), _kinds()
    rows = [("token", [T(f"cell.{k}") for k in kinds])] + [(T(f"axis.{a}"), [str(int(v)) for v in ids[i]]) for i, a in enumerate(mrope.AXES)]
    n = ids.shape[1]
    for r, (label, cells) in enumerate(rows):
        y = -r
        ax.text(-0.15, y, label, ha="right", va="center", fontsize=FONT, color=theme.fg)
        for c, cell in enumerate(cells):
            image = kinds[c] == "image"
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
    layout = T("layout.interleaved") if cfg.get("mrope_interleaved", False) else T("layout.contiguous")
    return T("row_title", model=cfg.name.split(" (")[0], layout=layout, section=list(cfg["mrope_section"]))


@figure(
    "mrope_pair_axes",
    alt=lambda: T("alt.mrope_pair_axes", total=num("mrope_pairs_total"), upper=_row_title(ex.MROPE_MODEL),
                  temporal=num("mrope_pairs_temporal_qwen25_vl_7b"), height=num("mrope_pairs_height_qwen25_vl_7b"),
                  width=num("mrope_pairs_width_qwen25_vl_7b"), first_width=num("mrope_first_width_pair_qwen25_vl_7b"),
                  lower=_row_title(ex.MROPE_INTERLEAVED_MODEL),
                  first_width_interleaved=num("mrope_first_width_pair_qwen3_vl_235b_a22b")),
    caption=lambda: T("caption.mrope_pair_axes"),
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
    ax.set_xlabel(T("xlabel_pairs"), fontsize=FONT)
    ax.set_yticks([])
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    handles = [matplotlib.patches.Patch(facecolor=colors[i], label=T("legend", axis=T(f"axis.{a}"))) for i, a in enumerate(mrope.AXES)]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0, -0.32), ncols=3, fontsize=FONT, frameon=False)
