"""Training-experiment figures (lessons 3, 3b, 4, 5, 6 and the results page), drawn from the committed results.

Every curve comes from posenc.experiment.figures, which reads
posenc/experiment/results/full.json (listed in INPUTS, so a new results file
redraws these figures). With several seeds a curve is the mean over seeds and
the shaded band spans the lowest to the highest seed; the paired-difference
figure draws every seed as a dot. A lesson's figures show only the methods it
and the lessons before it teach; the results page shows them all.
Names, colours, dashes and families come from the records in posenc/experiment/course.py.

Phone rule (figures_src/_style.py): every figure is at most 4.8 in wide with text of
at least 9 pt, so legends sit below the axes (never over the data) and a figure
with many lines stacks two panels.
"""

from __future__ import annotations

import numpy as np

from figures_src import figure, language, num, texts
from posenc.experiment import claims, course
from posenc.formatting import count_words
from posenc.experiment import figures as F

T = texts(__name__)  # every word these figures draw: figures_src/labels/<lang>.yaml, section experiment

INPUTS = ["posenc/experiment/results/full.json"]

# Smoothing windows: a training step is one batch of 16, and a position's loss a mean
# over ≈170 windows (the same text for every method), so both jitter; these windows show the trend, not the noise.
TRAIN_SMOOTH = 20
POSITION_SMOOTH = 32

# A seed band is drawn at about this many points (a 1,024-position band at every 4th): ~1 pt apart
# across the axes, finer than the band's smoothed wiggles. The mean line keeps every point.
BAND_POINTS = 256

FS = 9  # legend and annotation text: the phone minimum (_style.MIN_TEXT_PT)
WIDTH = 4.6  # figure width in inches; with the tight bounding box it stays under _style.PHONE_MAX_WIDTH_IN

# One colour per position method in every figure (an index into theme.series), and one per RoPE frequency
# change, the same in the evaluation-time scaling and the continued-training extension: the records' colours.
METHOD_SERIES = {m.key: m.colour for m in course.METHOD_RECORDS}
VARIANT_SERIES = {v.key: v.colour for v in course.VARIANT_RECORDS}
VARIANT_STYLES = {v.key: v.style for v in course.VARIANT_RECORDS}

# Which methods each lesson's figures show: what that lesson and the ones before it teach.
LESSON3_METHODS = ("nope", "learned", "sinusoidal", "sinusoidal_scaled")
ALIBI_METHODS = ("nope", "learned", "sinusoidal_scaled", "alibi")
ROPE_METHODS = ("nope", "sinusoidal_scaled", "alibi", "rope")
# exp_all_position_loss (the results page): every method in one panel is too many lines for a phone, so two
# stacked panels by family, the position added to the input vs the position inside attention; no encoding in both.
POSITION_PANELS = (
    ("panel_added", course.in_family("none") + course.in_family("input")),
    ("panel_attention", course.in_family("none") + course.in_family("attention")),
)
# exp_paired_differences: each method minus a reference, seed by seed; inside the training length
# against RoPE (the lowest mean), beyond it against no encoding (the flattest).
PAIRED_PANELS = (
    ("panel_paired_in", "rope", ("alibi", "rope_partial", "sinusoidal_scaled", "nope", "learned"), "in"),
    ("panel_paired_beyond", "nope", ("alibi", "learned", "rope", "sinusoidal_scaled", "rope_partial"), "beyond"),
)
PARTIAL_METHODS = ("nope", "rope", "rope_partial")
NOPE_VS_ROPE = ("nope", "rope")



# The registered quantities the alt texts and captions quote; each fills the {field} of its own name.
QUOTED = (
    "exp_batch",
    "exp_clearly",
    "exp_extension_count",
    "exp_method_count",
    "exp_scaling_count",
    "exp_curve_every",
    "exp_eval_last",
    "exp_eval_len",
    "exp_ext_curve_every",
    "exp_ext_eval_last",
    "exp_ext_len",
    "exp_ext_steps",
    "exp_half_way",
    "exp_level",
    "exp_pretrained_in",
    "exp_recovered",
    "exp_same",
    "exp_seeds",
    "exp_steps",
    "exp_train_last",
    "exp_unigram_loss",
    "project_train_len",
)


def _text(key: str, **values) -> str:
    """An alt text or caption from the label table, its fields filled: every quantity of QUOTED, the seeds,
    the smoothing windows, and ``values`` (the checked sentences, ``said``)."""
    return T(key, **{n: num(n) for n in QUOTED}, seeds=_seeds_text(), smooth=POSITION_SMOOTH, train_smooth=TRAIN_SMOOTH, **values)


def _said(*names: str) -> str:
    """The checked sentences a figure shows, for its alt text: what the figure says is what the page says."""
    said = ""
    for n in names:
        sentence = claims.check(n, lang=language())
        if said:
            # a checked sentence written to follow a comma ("while the control …", "and it also beats …")
            # continues the one before; any other starts a new sentence
            said += T("said_continue" if sentence[:1].islower() else "said_join")
        said += sentence
    return said[:1].upper() + said[1:] + T("said_end")


def _colour(theme, method: str) -> str:
    return theme.series[METHOD_SERIES[method]]


def _style(method: str) -> str:
    return "--" if course.method(method).dashed else "-"


def _name(method: str) -> str:
    return course.method(method).label(language())


def _line(ax, curve, colour, label, linestyle="-", linewidth=1.5):
    """A curve's mean over seeds, with its seed band (lowest to highest) when there are several."""
    if curve.seeds > 1:
        ax.fill_between(*F.band_points(curve, BAND_POINTS), color=colour, alpha=0.18, linewidth=0)
    ax.plot(curve.x, curve.mean, linestyle=linestyle, color=colour, linewidth=linewidth, label=label)


def _method_lines(ax, theme, curves):
    for c in curves:
        _line(ax, c, _colour(theme, c.key), _name(c.key), _style(c.key))


def _variant_lines(ax, theme, curves, kind: str):
    """RoPE's frequency changes: ``kind`` "scaling" (at evaluation) or "extension" (continued training)."""
    for c in curves:
        _line(ax, c, theme.series[VARIANT_SERIES[c.key]], course.variant(c.key).label(kind, language()), VARIANT_STYLES[c.key], 1.6)


def _seeds_text() -> str:
    n = num("exp_seeds")
    return T("seeds_one") if n == "1" else T("seeds_many", n=n)


def _unigram(ax, theme):
    ax.axhline(F.unigram_baseline(), color=theme.muted, linestyle=":", linewidth=1.4, label=T("unigram"))


def _vline(ax, theme, x: int, text: str):
    """A vertical dashed line with its name at the top, just right of it."""
    ax.axvline(x, color=theme.fg, linestyle=(0, (4, 3)), linewidth=0.9)
    ax.annotate(text, xy=(x, 1.0), xycoords=("data", "axes fraction"),
                xytext=(3, -3), textcoords="offset points", ha="left", va="top", fontsize=FS, color=theme.fg)


def _train_length(ax, theme):
    _vline(ax, theme, F.train_length(), T("train_length", n=F.train_length()))


def _axes(ax, xlabel: str | None):
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_ylabel(T("loss"))
    ax.grid(True)
    ax.set_axisbelow(True)


def _legend_below(fig, ax, ncols: int = 2):
    """The figure's legend under the axes (constrained layout makes room), never over the data."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=ncols, fontsize=FS,
               handlelength=2.4, columnspacing=1.0, handletextpad=0.5)


def _single(fig):
    fig.set_layout_engine("constrained")
    return fig.add_subplot()


def _positions_xlim(ax, curve):
    ax.set_xlim(0, len(curve.x) - 1)


# --- lesson 3 ------------------------------------------------------------------------------------------


@figure(
    "exp_training_curves",
    alt=lambda: _text("alt.exp_training_curves", said=_said("sin_worse_in_distribution", "sin_stalls_on_most_seeds", "sqrt_d_learns_every_seed")),
    caption=lambda: _text("caption.exp_training_curves", methods=count_words(len(LESSON3_METHODS))[language()]),
    size=(WIDTH, 5.0),
)
def exp_training_curves(fig, theme):
    ax = _single(fig)
    _method_lines(ax, theme, F.training_curves(methods=LESSON3_METHODS, smooth=TRAIN_SMOOTH))
    for v in F.final_validation(methods=LESSON3_METHODS):
        # validation at the end, drawn just right of the last step so it does not hide the curve
        ax.errorbar(v.x + 8, v.mean, yerr=[v.mean - v.low, v.high - v.mean], fmt="o", markersize=4,
                    color=_colour(theme, v.key), mfc="none" if course.method(v.key).dashed else _colour(theme, v.key),
                    capsize=2, linewidth=1)
    ax.plot([], [], "o", color=theme.fg, markersize=4, label=T("validation"))
    _unigram(ax, theme)
    _axes(ax, T("steps"))
    _legend_below(fig, ax)


@figure(
    "exp_learning_curves",
    alt=lambda: _text("alt.exp_learning_curves", said=_said("sin_slightly_above_unigram_half_way", "others_below_unigram_half_way")),
    caption=lambda: _text("caption.exp_learning_curves"),
    size=(WIDTH, 5.0),
)
def exp_learning_curves(fig, theme):
    ax = _single(fig)
    _method_lines(ax, theme, F.learning_curves(methods=LESSON3_METHODS))
    _unigram(ax, theme)
    _vline(ax, theme, claims.half_way(), T("half_way"))
    ax.set_xlim(0, int(claims.config()["steps"]))
    _axes(ax, T("steps"))
    _legend_below(fig, ax)


@figure(
    "exp_position_loss",
    alt=lambda: _text("alt.exp_position_loss", said=_said("sin_scaled_rises", "learned_rises_less", "nope_rises_slightly_past_train_len")),
    caption=lambda: _text("caption.exp_position_loss"),
    size=(WIDTH, 4.6),
)
def exp_position_loss(fig, theme):
    ax = _single(fig)
    curves = F.position_curves(methods=LESSON3_METHODS, smooth=POSITION_SMOOTH)
    _method_lines(ax, theme, curves)
    _unigram(ax, theme)
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, T("position"))
    _legend_below(fig, ax)


# --- lesson 3b -----------------------------------------------------------------------------------------


@figure(
    "exp_alibi_position_loss",
    alt=lambda: _text("alt.exp_alibi_position_loss", said=_said("alibi_falls_slightly_past_train_len", "alibi_beats_additive_beyond", "alibi_beats_nope_in_distribution")),
    caption=lambda: _text("caption.exp_alibi_position_loss"),
    size=(WIDTH, 4.3),
)
def exp_alibi_position_loss(fig, theme):
    _position_loss_of(fig, theme, ALIBI_METHODS, ncols=2)


# --- lesson 4 ------------------------------------------------------------------------------------------


@figure(
    "exp_rope_position_loss",
    alt=lambda: _text("alt.exp_rope_position_loss", said=_said("rope_alibi_close_in_distribution", "rope_rises", "alibi_beats_rope_beyond")),
    caption=lambda: _text("caption.exp_rope_position_loss"),
    size=(WIDTH, 4.3),
)
def exp_rope_position_loss(fig, theme):
    _position_loss_of(fig, theme, ROPE_METHODS, ncols=2)


def _position_loss_of(fig, theme, methods, ncols):
    """One panel: the per-position loss of ``methods`` to eval_len, the training length marked."""
    ax = _single(fig)
    curves = F.position_curves(methods=methods, smooth=POSITION_SMOOTH)
    _method_lines(ax, theme, curves)
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, T("position"))
    _legend_below(fig, ax, ncols=ncols)


# --- lesson 5 ------------------------------------------------------------------------------------------


@figure(
    "exp_rope_scaling",
    alt=lambda: _text("alt.exp_rope_scaling", said=_said("pi_needs_finetuning", "ntk_costs_a_little_in_distribution", "ntk_yarn_help_rope_beyond", "yarn_rise_within_same_band")),
    caption=lambda: _text("caption.exp_rope_scaling"),
    size=(WIDTH, 4.3),
)
def exp_rope_scaling(fig, theme):
    ax = _single(fig)
    (nope,) = F.position_curves(methods=("nope",), smooth=POSITION_SMOOTH)
    ax.plot(nope.x, nope.mean, "-", color=_colour(theme, "nope"), linewidth=1.0, label=_name("nope"))
    curves = F.scaling_curves(smooth=POSITION_SMOOTH)
    _variant_lines(ax, theme, curves, "scaling")
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, T("position"))
    _legend_below(fig, ax)


@figure(
    "exp_extension_recovery",
    alt=lambda: _text("alt.exp_extension_recovery", said=_said("ext_big_base_change_hurts_first", "ext_ntk_slightly_below_yarn_within_pretraining", "ext_abf_later_than_ntk_and_yarn", "ext_pi_not_recovered")),
    caption=lambda: _text("caption.exp_extension_recovery"),
    size=(WIDTH, 4.3),
)
def exp_extension_recovery(fig, theme):
    ax = _single(fig)
    low, level, high = F.recovered_band()
    ax.axhspan(low, high, color=theme.muted, alpha=0.3, linewidth=0)
    ax.axhline(level, color=theme.muted, linewidth=1.0, label=T("pretrained"))
    curves = F.extension_recovery()
    _variant_lines(ax, theme, curves, "extension")
    ax.set_xlim(curves[0].x[0], curves[0].x[-1])
    _axes(ax, T("ext_steps"))
    _legend_below(fig, ax)


@figure(
    "exp_extension_positions",
    alt=lambda: _text("alt.exp_extension_positions", said=_said("ext_pi_worst_in_new_range", "ext_control_ties_ntk_slightly_beats_yarn", "ext_yarn_pi_rise_past_new_length",
                "ext_others_rise_less_than_yarn")),
    caption=lambda: _text("caption.exp_extension_positions"),
    size=(WIDTH, 4.3),
)
def exp_extension_positions(fig, theme):
    ax = _single(fig)
    curves = F.extension_positions("after", smooth=POSITION_SMOOTH)
    _variant_lines(ax, theme, curves, "extension")
    _train_length(ax, theme)
    _vline(ax, theme, F.extension_length(), T("new_length", n=F.extension_length()))
    _positions_xlim(ax, curves[0])
    _axes(ax, T("position"))
    _legend_below(fig, ax)


# --- lesson 6 ------------------------------------------------------------------------------------------


@figure(
    "exp_nope_vs_rope",
    alt=lambda: _text("alt.exp_nope_vs_rope", said=_said("rope_beats_nope_in_distribution", "nope_beats_rope_beyond", "yarn_rope_beats_nope_beyond")),
    caption=lambda: _text("caption.exp_nope_vs_rope"),
    size=(WIDTH, 3.9),
)
def exp_nope_vs_rope(fig, theme):
    ax = _single(fig)
    curves = F.position_curves(methods=NOPE_VS_ROPE, smooth=POSITION_SMOOTH)
    _method_lines(ax, theme, curves)
    (yarn,) = F.scaling_curves(names=("yarn",), smooth=POSITION_SMOOTH)
    _line(ax, yarn, theme.series[VARIANT_SERIES["yarn"]], T("yarn_at_evaluation"), VARIANT_STYLES["yarn"], 1.6)
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, T("position"))
    _legend_below(fig, ax, ncols=3)


@figure(
    "exp_partial_rope",
    alt=lambda: _text("alt.exp_partial_rope", said=_said("partial_within_same_band_of_rope", "partial_beats_nope", "partial_rises_beyond")),
    caption=lambda: _text("caption.exp_partial_rope"),
    size=(WIDTH, 3.9),
)
def exp_partial_rope(fig, theme):
    _position_loss_of(fig, theme, PARTIAL_METHODS, ncols=2)


# --- the results page: every method ----------------------------------------------------------------------


@figure(
    "exp_all_position_loss",
    alt=lambda: _text("alt.exp_all_position_loss", said=_said("top_three_close_in_distribution", "top_three_beat_the_rest", "all_but_sin_beat_unigram")),
    caption=lambda: _text("caption.exp_all_position_loss"),
    size=(WIDTH, 7.4),
)
def exp_all_position_loss(fig, theme):
    fig.set_layout_engine("constrained", h_pad=0.12)
    axes = fig.subplots(len(POSITION_PANELS), 1, sharex=True, sharey=True)
    for ax, (title, methods) in zip(axes, POSITION_PANELS):
        curves = F.position_curves(methods=methods, smooth=POSITION_SMOOTH)
        _method_lines(ax, theme, curves)
        _unigram(ax, theme)
        _train_length(ax, theme)
        _positions_xlim(ax, curves[0])
        ax.set_title(T(title), fontsize=10, loc="left")
        _axes(ax, T("position"))
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.legend(ncols=2, fontsize=FS, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                  handlelength=2.4, columnspacing=1.0, handletextpad=0.5)


@figure(
    "exp_paired_differences",
    alt=lambda: _text("alt.exp_paired_differences", said=_said("top_three_close_in_distribution", "top_three_beat_the_rest")),
    caption=lambda: _text("caption.exp_paired_differences"),
    size=(WIDTH, 6.6),
)
def exp_paired_differences(fig, theme):
    fig.set_layout_engine("constrained", h_pad=0.12)
    margins = F.margins()
    for ax, (title, reference, methods, span) in zip(fig.subplots(len(PAIRED_PANELS), 1), PAIRED_PANELS):
        rows = F.paired_differences(reference, methods, span)
        ax.axvspan(-margins["same"], margins["same"], color=theme.muted, alpha=0.25, linewidth=0)
        for x in (-margins["clearly"], 0.0, margins["clearly"]):
            ax.axvline(x, color=theme.fg, linestyle=(0, (4, 3)) if x else "-", linewidth=0.8)
        for i, row in enumerate(rows):
            y = len(rows) - 1 - i
            # the seeds spread over a thin strip so equal values stay visible; the offsets are fixed, not random
            offsets = (np.arange(len(row.values)) / max(1, len(row.values) - 1) - 0.5) * 0.36
            ax.plot(row.values, y + offsets, "o", markersize=3, color=_colour(theme, row.key), alpha=0.8)
            ax.errorbar(row.estimate.mean, y, xerr=row.estimate.half_width, fmt="s", markersize=5,
                        color=theme.fg, capsize=3, linewidth=1.4)
        ax.set_yticks(range(len(rows)), [_name(r.key) for r in reversed(rows)])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_title(T(title), fontsize=10, loc="left")
        ax.set_xlabel(T("difference"))
        ax.grid(True, axis="x")
        ax.set_axisbelow(True)
    ax.plot([], [], "o", markersize=3, color=theme.muted, label=T("seed_difference"))
    ax.errorbar([], [], xerr=[], fmt="s", markersize=5, color=theme.fg, capsize=3, linewidth=1.4, label=T("mean_interval", level=num("exp_level")))
    _legend_below(fig, ax)
