"""Lesson 2 figures: adding the raw index, squeezing it into [0, 1], and GPT-2's learned table.

Each draws what posenc.naive and posenc.learned compute for posenc.examples' values, at phone width.
"""

from __future__ import annotations

import numpy as np

from figures_src import figure, num, texts
from posenc import configs, learned, naive
from posenc import examples as ex

TICK = 9  # pt: the phone rule's smallest text

# This module's words: figures_src/labels/<lang>.yaml, section lesson2.
T = texts(__name__)


def _scales() -> tuple[tuple[float, str, str], ...]:
    """(content RMS, legend label, the quantity that quotes the ratio at the probe) for each curve."""
    return ((ex.UNIT_CONTENT_RMS, T("legend_unit", rms=num("l2_unit_rms")), "naive_ratio_unit"),
            (ex.PROJECT_EMBED_STD, T("legend_init", std=num("embed_init_std")), "naive_ratio_init"))


@figure(
    "l2_naive_ratio",
    alt=lambda: T("alt.l2_naive_ratio", max=num("l2_ratio_max_position"), rms=num("l2_unit_rms"),
                  probe=num("naive_probe_position"), ratio_unit=num("naive_ratio_unit"), std=num("embed_init_std"),
                  ratio_init=num("naive_ratio_init")),
    caption=lambda: T("caption.l2_naive_ratio", probe=num("naive_probe_position"), ratio_unit=num("naive_ratio_unit"),
                      ratio_init=num("naive_ratio_init")),
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
        ax.annotate(T("probe", p=probe, ratio=num(name)), (probe, r * 100), textcoords="offset points", xytext=(6, 5),
                    fontsize=TICK, color=theme.fg)
    ax.axhline(100, color=theme.muted, linestyle="--", linewidth=0.9)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(T("xlabel_log"))
    ax.set_ylabel(T("ylabel_ratio"))
    ax.tick_params(labelsize=TICK)
    ax.grid(True, which="major")
    ax.legend(fontsize=TICK, loc="lower left")


@figure(
    "l2_normalised",
    alt=lambda: T("alt.l2_normalised", short=num("l2_norm_short"), step=num("l2_norm_step_short"),
                  after=num("l2_norm_len_after"), probe=num("l2_norm_probe"), before_value=num("l2_norm_probe_before"),
                  after_value=num("l2_norm_probe_after"), long=num("l2_norm_long"), gap=num("l2_norm_gap_tokens_long")),
    caption=lambda: T("caption.l2_normalised", step=num("l2_norm_step_short"), gap=num("l2_norm_gap_tokens_long"),
                      probe=num("l2_norm_probe"), before_value=num("l2_norm_probe_before"),
                      after_value=num("l2_norm_probe_after")),
    size=(4.8, 3.4),
)
def l2_normalised(fig, theme):
    short, long_ = ex.NORMALISED_SHORT, ex.NORMALISED_LONG
    probe = ex.NORMALISED_PROBE
    gap = naive.normalised_step(short)
    rows = [(short, T("row_tokens", n=short), True), (short + 1, T("row_generated", n=short + 1), True),
            (long_, T("row_tokens", n=long_), False)]
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
            ax.annotate(T("probe_moved", p=probe, value=num("l2_norm_probe_before" if length == short else "l2_norm_probe_after")),
                        (v, y), textcoords="offset points", xytext=(0, -16), ha="center", fontsize=TICK, color=theme.fg)
        ax.text(0, y + 0.3, label, ha="left", va="bottom", fontsize=TICK)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.7, len(rows) - 0.1)
    ax.set_yticks([])
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.tick_params(labelsize=TICK)
    ax.set_xlabel(T("xlabel_normalised"), fontsize=TICK)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)


@figure(
    "l2_table_rows",
    alt=lambda: T("alt.l2_table_rows", last=num("gpt2_last_row"), train_len=num("project_train_len"),
                  trained=num("l2_rows_trained"), untouched=num("l2_rows_untouched"), context=num("gpt2_context")),
    caption=lambda: T("caption.l2_table_rows", context=num("gpt2_context"), train_len=num("project_train_len"),
                      trained=num("l2_rows_trained")),
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
    ax.text(0, 1.12, T("rows_trained", last=num("l2_rows_trained_last")), ha="left", va="bottom", fontsize=TICK)
    ax.text(n_trained + (rows - n_trained) / 2, 1.12, T("rows_untouched", first=num("l2_rows_trained"), last=num("gpt2_last_row")),
            ha="center", va="bottom", fontsize=TICK)
    ax.text(rows + beyond, 1.12, T("rows_missing", context=num("gpt2_context")), ha="right", va="bottom", fontsize=TICK)
    ax.set_xlim(0, rows + beyond)
    ax.set_ylim(0, 2.3)
    ax.set_yticks([])
    ax.set_xticks([0, n_trained, rows], ["0", num("l2_rows_trained"), num("gpt2_context")])
    ax.tick_params(labelsize=TICK)
    ax.set_xlabel(T("xlabel_rows"), fontsize=TICK)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
