"""Lesson 4 figures: RoPE turns q and k; the shift experiment; the two code layouts; real models' spectra;
why a distance that acts through the content (RoPE) differs from a bias added to the score (ALiBi).

Everything drawn comes from posenc.shift, posenc.rope and the model configs; the figures only lay it out.
Phone rule (figures_src/_style.py): at most PHONE_MAX_WIDTH_IN wide, text at least MIN_TEXT_PT,
panels stacked vertically. Every word comes from figures_src/labels/<lang>.yaml, section lesson4.
"""

from __future__ import annotations

import matplotlib.lines
import matplotlib.patches
import numpy as np

from figures_src import colorbar, figure, heatmap, language, num, texts
from figures_src._style import MIN_TEXT_PT, PHONE_MAX_WIDTH_IN
from posenc import configs, relative, rope, shift, tokenize
from posenc import examples as ex
from posenc.formatting import format_value
from posenc.quantities.lesson4 import why_rope_demo

# This module's words: figures_src/labels/<lang>.yaml, section lesson4.
T = texts(__name__)
# Keys whose fields differ between the languages, and why: the example sentence is Chinese, so the Chinese
# heatmap ticks are its characters and the Chinese alt text quotes it, while the English drawing labels the
# tokens by position and its alt text names the sentence in words (an English figure draws no Chinese).
FIELDS_MAY_DIFFER = ("token", "alt.rope_shift_scores")

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
    alt=lambda: T(
        "alt.rope_pair_turn", m=num("l4_pair_m"), n=num("l4_pair_n"), shift=num("sin_shift"), rope=num("l4_pair_rope"),
        added=num("l4_pair_added"), added_shifted=num("l4_pair_added_shifted"),
    ),
    caption=lambda: T(
        "caption.rope_pair_turn", index=num("l4_pair_index"), omega=num("l4_pair_omega"), q=num("l4_pair_q"),
        k=num("l4_pair_k"), m=num("l4_pair_m"), n=num("l4_pair_n"), shift=num("sin_shift"),
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
    top.set_title(T("pair_rope_title", before=format_value(r0, ".4f"), after=format_value(r1, ".4f")), fontsize=FS + 1)
    bottom.set_title(T("pair_added_title", before=format_value(a0, ".4f"), after=format_value(a1, ".4f")), fontsize=FS + 1)
    handles = [
        matplotlib.lines.Line2D([], [], color=theme.fg, linewidth=1.6, label=T("pair_legend_before", m=m0, n=n0)),
        matplotlib.lines.Line2D([], [], color=theme.fg, linewidth=1.6, linestyle="--", label=T("pair_legend_shifted", shift=ex.SHIFT)),
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


# Each method's registered number that quotes its largest change (its panel title: T("method.<method>")).
METHOD_MAX = {"input": "l4_shift_input_max_diff", "qk": "l4_shift_qk_max_diff", "rope": "l4_shift_rope_max_diff"}


@figure(
    "rope_shift_scores",
    alt=lambda: T(
        "alt.rope_shift_scores", len=num("l1_main_len"), sentence=tokenize.join(ex.texts(language()).sentence), shift=num("sin_shift"),
        input=num("l4_shift_input_max_diff"), qk=num("l4_shift_qk_max_diff"), rope=num("l4_shift_rope_max_diff"),
    ),
    caption=lambda: T("caption.rope_shift_scores", shift=num("sin_shift"), d=num("l4_dim"), seed=num("l4_seed")),
    size=(W, 10.0),
)
def rope_shift_scores(fig, theme):
    text = ex.texts(language()).sentence  # the drawn edition's sentence, as its prose numbers
    ticks = [T("token", char=c, i=i) for i, c in enumerate(tokenize.tokens(text))]  # its characters (zh), its positions (en)
    diffs = {m: shift.score_changes(text, ex.SHIFT, m, ex.L4_DIM, ex.L4_SEED) for m in shift.METHODS}
    hi = max(float(d.max()) for d in diffs.values())
    axes = fig.subplots(len(shift.METHODS), 1, gridspec_kw={"hspace": 0.3})
    for ax, (method, d) in zip(axes, diffs.items()):
        im = heatmap(ax, d, theme, 0, hi, ticks, ticks, FS)
        ax.set_title(T("method_title", method=T(f"method.{method}"), max=drawable(num(METHOD_MAX[method]))), fontsize=FS + 1)
    colorbar(fig, im, axes, T("shift_colorbar"), FS, orientation="horizontal", shrink=0.8, pad=0.05, aspect=30)


def _pairs_text(convention: str) -> str:
    """Alt-text label: the dims one RoPE layout turns together, "0 和 1、2 和 3…" ("0 with 1, 2 with 3…")."""
    return T("pairs_join").join(T("pairs_item", a=a, b=b) for a, b in rope.convention_pairs(ex.CONVENTION_DIM, convention))


@figure(
    "rope_conventions",
    alt=lambda: T(
        "alt.rope_conventions", d=num("l4_perm_d"), interleaved=_pairs_text("interleaved"), half=_pairs_text("half"),
        perm=num("l4_perm"),
    ),
    caption=lambda: T("caption.rope_conventions", d=num("l4_perm_d"), perm=num("l4_perm")),
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
    ax.text(d / 2, 3.45, T("conventions_note"), ha="center", va="center", fontsize=FS, color=theme.fg)


# --- real models' spectra ------------------------------------------------------------------------------------

def _short_name(cfg) -> str:
    return cfg.name.split(" (")[0]


def _spectrum_alt() -> str:
    parts = []
    for key in ex.SPECTRUM_MODELS:
        cfg = configs.load(key)
        sp = rope.model_spectrum(cfg)
        parts.append(T("spectrum_alt_item", model=_short_name(cfg), pairs=sp.pairs, count=sp.count_not_turning, context=f"{sp.context:,}"))
    return T("alt.rope_spectrum", n=len(ex.SPECTRUM_MODELS), parts=T("spectrum_alt_join").join(parts))


@figure(
    "rope_spectrum",
    alt=_spectrum_alt,
    caption=lambda: T("caption.rope_spectrum"),
    size=(W, 7.0),
)
def rope_spectrum(fig, theme):
    axes = fig.subplots(len(ex.SPECTRUM_MODELS), 1, sharey=True, gridspec_kw={"hspace": 0.8})
    for ax, key in zip(axes, ex.SPECTRUM_MODELS):
        cfg = configs.load(key)
        sp = rope.model_spectrum(cfg)
        idx = np.arange(sp.pairs)
        above = sp.not_turning
        ax.scatter(idx[~above], sp.wavelengths[~above], s=9, color=theme.series[0], label=T("turning"))
        ax.scatter(idx[above], sp.wavelengths[above], s=9, color=theme.series[1], label=T("not_turning"))
        ax.axhline(sp.context, color=theme.fg, linestyle="--", linewidth=0.9)
        ax.text(0, sp.context * 2.2, T("context_line", context=f"{sp.context:,}"), fontsize=FS, color=theme.fg, va="bottom")
        ax.set_yscale("log")
        ax.set_yticks([1e1, 1e3, 1e5, 1e7])
        ax.set_xlim(-1, sp.pairs)
        theta = cfg.field("rope_theta")
        mark = T("unverified") if theta.tag == "U" else ""
        ax.set_title(T("spectrum_title", model=_short_name(cfg), count=sp.count_not_turning, pairs=sp.pairs,
                       theta=f"{theta.value:,.0f}", mark=mark), fontsize=FS, loc="left")
        ax.grid(True, which="major", axis="y")
        ax.tick_params(labelsize=FS)
    axes[-1].set_xlabel(T("spectrum_xlabel"), fontsize=FS)
    fig.supylabel(T("spectrum_ylabel"), fontsize=FS)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=2, fontsize=FS, bbox_to_anchor=(0.5, 0.0))
    fig.subplots_adjust(bottom=0.14, top=0.94)


# --- why big models chose RoPE over ALiBi -----------------------------------------------------------------------


@figure(
    "rope_vs_alibi_by_distance",
    alt=lambda: T(
        "alt.rope_vs_alibi_by_distance", span=num("l4_why_rope_span"), alibi_peak=num("l4_why_alibi_peak"),
        peak_a=num("l4_why_rope_peak_a"), peak_b=num("l4_why_rope_peak_b"),
    ),
    caption=lambda: T(
        "caption.rope_vs_alibi_by_distance", d=num("sin_demo_d"), slope=num("alibi_demo_slope"),
        peak_a=num("l4_why_rope_peak_a"), peak_b=num("l4_why_rope_peak_b"),
    ),
    size=(W, 5.6),
)
def rope_vs_alibi_by_distance(fig, theme):
    inv, q, keys, slope = why_rope_demo()
    r = np.arange(ex.WHY_ROPE_SPAN + 1)
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"hspace": 0.35})
    for j, (k, label) in enumerate(zip(keys, (T("key_a"), T("key_b")))):
        style = dict(color=theme.series[j], linewidth=1.8, linestyle=("-", "--")[j], label=label)
        alibi = relative.alibi_scores_by_distance(q, k, slope, ex.WHY_ROPE_SPAN)
        rope_s = relative.rope_scores_by_distance(q, k, inv, ex.WHY_ROPE_SPAN)
        top.plot(r, alibi, **style)
        bottom.plot(r, rope_s, **style)
        for ax, s in ((top, alibi), (bottom, rope_s)):
            peak = int(np.argmax(s))
            ax.plot([peak], [s[peak]], "o", color=theme.series[j], markersize=7)
    top.set_title(T("alibi_title"), fontsize=FS + 1)
    bottom.set_title(T("rope_title"), fontsize=FS + 1)
    for ax in (top, bottom):
        ax.set_ylabel(T("score"), fontsize=FS)
        ax.grid(True, linewidth=0.5)
        ax.tick_params(labelsize=FS)
        ax.legend(loc="lower left", fontsize=FS)
    bottom.set_xlabel(T("distance"), fontsize=FS)
    bottom.set_xlim(0, ex.WHY_ROPE_SPAN)
