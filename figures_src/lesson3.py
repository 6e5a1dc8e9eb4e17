"""Lesson 3 figures: sinusoidal position encoding at d = examples.SIN_DIM, base = sinusoidal.DEFAULT_BASE.

Everything drawn comes from posenc.sinusoidal and posenc.clock; the figures only lay it out.
Phone rule (figures_src/_style.py): at most PHONE_MAX_WIDTH_IN wide, text at least MIN_TEXT_PT,
panels stacked vertically.
"""

from __future__ import annotations

import matplotlib.lines
import matplotlib.patches
import numpy as np

from figures_src import cell_values, colorbar, figure, heatmap, language, num, texts
from figures_src._style import MIN_TEXT_PT, PHONE_MAX_WIDTH_IN
from posenc import clock, sinusoidal, tokenize
from posenc import examples as ex
from posenc.formatting import format_value

T = texts(__name__)  # every word these figures draw: figures_src/labels/<lang>.yaml, section lesson3
FS = MIN_TEXT_PT  # every label in these figures
W = PHONE_MAX_WIDTH_IN

# Each edition draws its own example sentence (posenc.examples.texts): the Chinese heat map labels each token
# with its character and position, the English one with its position only. So these texts fill different
# fields in the two tables.
FIELDS_MAY_DIFFER = ("col_label", "row_label", "alt.sin_heatmap_shift")


def period_label(period: float) -> str:
    """A period as the prose prints it: two decimals below 100 tokens, whole tokens above."""
    return format_value(float(period), ".2f" if period < 100 else ",.0f", language())


def _clock_face(ax, theme):
    ax.set_theta_zero_location("N")
    ax.set_theta_direction(-1)  # clockwise, like a clock
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    ax.set_xticks(np.linspace(0, 2 * np.pi, 4, endpoint=False))
    ax.set_xticklabels([])
    ax.grid(True, linewidth=0.5)


@figure(
    "sin_clock",
    alt=lambda: T("alt.sin_clock", pairs=num("sin_demo_pairs"), near=num("sin_near_position"),
                  fastest=num("sin_fastest_period"), slowest=num("sin_slowest_period")),
    caption=lambda: T("caption.sin_clock", near=num("sin_near_position"), pairs=num("sin_demo_pairs"),
                      d=num("sin_demo_d"), base=num("sin_base")),
    size=(W, 3.3),
)
def sin_clock(fig, theme):
    angles = sinusoidal.hand_angles(ex.NEAR_POSITION, ex.SIN_DIM)
    periods = sinusoidal.periods(ex.SIN_DIM)
    cols = 4
    rows = int(np.ceil(len(angles) / cols))
    for i, (angle, period) in enumerate(zip(angles, periods)):
        ax = fig.add_subplot(rows, cols, i + 1, projection="polar")
        _clock_face(ax, theme)
        ax.plot([0, angle], [0, 0.92], color=theme.series[0], linewidth=2.2, solid_capstyle="round")
        ax.plot([angle], [0.92], "o", color=theme.series[1], markersize=4)
        ax.set_title(f"i = {i}", fontsize=FS, pad=3)
        ax.set_xlabel(T("period", period=period_label(period)), fontsize=FS, labelpad=3)
    fig.subplots_adjust(left=0.03, right=0.97, top=0.9, bottom=0.1, hspace=0.75, wspace=0.45)


@figure(
    "sin_encoding_bars",
    alt=lambda: T("alt.sin_encoding_bars", near=num("sin_near_position"), context=num("gpt2_context"),
                  far=num("sin_far_position"), d=num("sin_demo_d")),
    caption=lambda: T("caption.sin_encoding_bars", d=num("sin_demo_d")),
    size=(W, 5.4),
)
def sin_encoding_bars(fig, theme):
    positions = ex.encoding_positions()
    dims = np.arange(ex.SIN_DIM)
    colors = [theme.series[0] if j % 2 == 0 else theme.series[1] for j in dims]
    axes = fig.subplots(len(positions), 1, sharex=True)
    for ax, p in zip(axes, positions):
        ax.bar(dims, sinusoidal.encode(p, ex.SIN_DIM), color=colors, width=0.75)
        for y in (-1, 1):
            ax.axhline(y, color=theme.muted, linestyle="--", linewidth=0.8)
        ax.axhline(0, color=theme.muted, linewidth=0.6)
        ax.set_ylim(-1.3, 1.3)
        ax.set_yticks([-1, 0, 1])
        ax.tick_params(labelsize=FS)
        ax.set_title(f"p = {p:,}", fontsize=FS, loc="left", pad=3)
    axes[-1].set_xticks(dims, [str(j) for j in dims], fontsize=FS)
    axes[-1].set_xlabel(T("dimension"), fontsize=FS)
    handles = [matplotlib.patches.Patch(color=theme.series[0], label=T("even_sin")),
               matplotlib.patches.Patch(color=theme.series[1], label=T("odd_cos"))]
    fig.legend(handles=handles, loc="lower center", ncols=2, fontsize=FS, bbox_to_anchor=(0.5, -0.01))
    fig.subplots_adjust(hspace=0.5, bottom=0.16, top=0.95)


@figure(
    "sin_heatmap_shift",
    alt=lambda: T("alt.sin_heatmap_shift", n=num("l1_main_len"), sentence=tokenize.join(ex.texts(language()).sentence), shift=num("sin_shift"),
                  diff=num("sin_shift_max_diff")),
    caption=lambda: T("caption.sin_heatmap_shift", shift=num("sin_shift"), diff=num("sin_shift_max_diff")),
    size=(W, 8.4),
)
def sin_heatmap_shift(fig, theme):
    chars = tokenize.tokens(ex.texts(language()).sentence)  # the drawn edition's sentence
    n = len(chars)
    starts = (0, ex.SHIFT)
    mats = [sinusoidal.dot_matrix(np.arange(n) + s, ex.SIN_DIM) for s in starts]
    lo, hi = float(np.min(mats)), float(np.max(mats))  # one shared scale, so equal colours mean equal values
    axes = fig.subplots(len(starts), 1, gridspec_kw={"hspace": 0.32})
    for ax, start, mat in zip(axes, starts, mats):
        im = heatmap(ax, mat, theme, lo, hi, [T("col_label", char=c, p=start + j) for j, c in enumerate(chars)],
                     [T("row_label", char=c, p=start + j) for j, c in enumerate(chars)], FS)
        cell_values(ax, {(a, b): format_value(float(mat[a, b]), ".2f") for a in range(n) for b in range(n)},
                    lambda a, b, mat=mat: (mat[a, b] - lo) / (hi - lo) < 0.6, FS)
        ax.set_title(T("from_position", start=start), fontsize=FS + 1)
    colorbar(fig, im, axes, "PE(m)·PE(n)", FS, shrink=0.6, pad=0.03)


@figure(
    "sin_dot_vs_distance",
    alt=lambda: T("alt.sin_dot_vs_distance", max=num("sin_max_distance"), self_dot=num("sin_self_dot"),
                  min_k=num("sin_dot_min_k"), min=num("sin_dot_min")),
    caption=lambda: T("caption.sin_dot_vs_distance"),
    size=(W, 3.6),
)
def sin_dot_vs_distance(fig, theme):
    ks = np.arange(ex.MAX_DISTANCE + 1)
    ax = fig.add_subplot()
    ax.plot(ks, clock.dot_curve(ex.MAX_DISTANCE, ex.SIN_DIM), color=theme.fg, linewidth=3.5, alpha=0.25,
            label=r"$\sum_i \cos(k\,\omega_i)$")
    for j, p in enumerate(ex.DOT_STARTS):
        ax.plot(ks, clock.dots_from(p, ex.MAX_DISTANCE, ex.SIN_DIM), color=theme.series[j], linewidth=1.1,
                linestyle=("-", "--", ":")[j % 3], label=f"p = {p:,}")
    ax.axhline(0, color=theme.muted, linewidth=0.6)
    ax.set_xlabel(T("distance"), fontsize=FS)
    ax.set_ylabel("PE(p)·PE(p+k)", fontsize=FS)
    ax.tick_params(labelsize=FS)
    ax.grid(True)
    ax.legend(ncols=2, fontsize=FS, loc="upper center", bbox_to_anchor=(0.5, -0.19))


@figure(
    "sin_periods",
    alt=lambda: T("alt.sin_periods", pairs=num("sin_demo_pairs"), fastest=num("sin_fastest_period"),
                  ratio=num("sin_period_ratio"), slowest=num("sin_slowest_period")),
    caption=lambda: T("caption.sin_periods", d=num("sin_demo_d")),
    size=(W, 3.2),
)
def sin_periods(fig, theme):
    periods = sinusoidal.periods(ex.SIN_DIM)
    ax = fig.add_subplot()
    idx = np.arange(len(periods))
    ax.bar(idx, periods, color=theme.series[0], width=0.6)
    ax.set_yscale("log")
    for i, v in zip(idx, periods):
        ax.text(i, v * 1.2, period_label(v), ha="center", va="bottom", fontsize=FS)
    ax.set_xticks(idx, [str(i) for i in idx], fontsize=FS)
    ax.set_xlabel(T("pair_i"), fontsize=FS)
    ax.set_ylabel(T("period_tokens"), fontsize=FS)
    ax.tick_params(labelsize=FS)
    ax.set_ylim(1, periods[-1] * 8)
    ax.grid(True, axis="y", which="major")


def rotation_starts() -> tuple[int, int]:
    """The two start positions of the rotation figure: the near example and GPT-2's first missing row."""
    return ex.NEAR_POSITION, ex.encoding_positions()[1]


@figure(
    "sin_shift_rotation",
    alt=lambda: T("alt.sin_shift_rotation", pairs=ex.ROTATION_PAIRS, last=ex.ROTATION_PAIRS - 1,
                  near=num("sin_near_position"), context=num("gpt2_context"), shift=num("sin_shift")),
    caption=lambda: T("caption.sin_shift_rotation", shift=num("sin_shift"), pairs=ex.ROTATION_PAIRS,
                      near=num("sin_near_position"), context=num("gpt2_context")),
    size=(W, 4.2),
)
def sin_shift_rotation(fig, theme):
    k = ex.SHIFT
    turn = clock.turn_angles(k, ex.SIN_DIM)
    rows = fig.subfigures(2, 1, hspace=0.0)
    for sub, p in zip(rows, rotation_starts()):
        sub.suptitle(T("start_p", p=f"{p:,}"), fontsize=FS + 1, y=0.99)
        before = sinusoidal.hand_angles(p, ex.SIN_DIM)
        after = sinusoidal.hand_angles(p + k, ex.SIN_DIM)
        for i in range(ex.ROTATION_PAIRS):
            ax = sub.add_subplot(1, ex.ROTATION_PAIRS, i + 1, projection="polar")
            _clock_face(ax, theme)
            arc = before[i] + np.linspace(0, turn[i], 60)
            ax.plot(arc, np.full_like(arc, 0.55), color=theme.series[2], linewidth=2.4)
            ax.plot([0, before[i]], [0, 0.92], color=theme.series[0], linewidth=2.2, solid_capstyle="round")
            ax.plot([0, after[i]], [0, 0.92], color=theme.series[1], linewidth=2.0, linestyle="--")
            ax.set_title(f"i = {i}", fontsize=FS, pad=2)
            ax.set_xlabel(T("turned", deg=format_value(float(np.degrees(turn[i])), ".1f", language())), fontsize=FS, labelpad=2)
        sub.subplots_adjust(left=0.03, right=0.97, top=0.8, bottom=0.16, wspace=0.45)
    handles = [
        matplotlib.lines.Line2D([], [], color=theme.series[0], linewidth=2.2, label=T("position_p")),
        matplotlib.lines.Line2D([], [], color=theme.series[1], linewidth=2.0, linestyle="--", label=T("position_pk", k=k)),
        matplotlib.lines.Line2D([], [], color=theme.series[2], linewidth=2.4, label=T("angle_turned")),
    ]
    fig.legend(handles=handles, loc="lower center", ncols=3, fontsize=FS, bbox_to_anchor=(0.5, -0.05))
