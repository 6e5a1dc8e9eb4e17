"""Training-experiment figures (lessons 3, 3b, 4, 5, 6 and the results page), drawn from the committed results.

Every curve comes from posenc.experiment.figures, which reads
posenc/experiment/results/full.json (listed in INPUTS, so a new results file
redraws these figures). With several seeds a curve is the mean over seeds and
the shaded band spans the lowest to the highest seed; the paired-difference
figure draws every seed as a dot. A lesson's figures show only the methods it
and the lessons before it teach; the results page shows all seven.

Phone rule (figures_src/_style.py): every figure is at most 4.8 in wide with text of
at least 9 pt, so legends sit below the axes (never over the data) and a figure
with many lines stacks two panels.
"""

from __future__ import annotations

import numpy as np

from figures_src import figure
from posenc.experiment import claims
from posenc.experiment import figures as F
from posenc.quantities import text as num

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

# One colour per position method in every figure (an index into theme.series, which has seven).
# NoPE takes the neutral black/white; RoPE's two variants are far apart (blue, orange) so
# exp_partial_rope reads in both themes. The √d control shares plain sinusoidal's colour, dashed.
METHOD_SERIES = {"nope": 6, "learned": 1, "sinusoidal": 2, "sinusoidal_scaled": 2, "alibi": 3, "rope": 0, "rope_partial": 4}
# RoPE's frequency changes (evaluation-time scaling, and the continued-training extension):
# plain RoPE keeps its method colour; the same change has the same colour and dash in both.
VARIANT_SERIES = {"rope": 0, "pi": 1, "ntk": 2, "yarn": 3, "abf": 4}
VARIANT_STYLES = {"rope": "-", "pi": (0, (1, 1.5)), "ntk": "-.", "yarn": "--", "abf": (0, (6, 1.5, 1, 1.5, 1, 1.5))}

# Which methods each lesson's figures show: what that lesson and the ones before it teach.
LESSON3_METHODS = ("nope", "learned", "sinusoidal", "sinusoidal_scaled")
ALIBI_METHODS = ("nope", "learned", "sinusoidal_scaled", "alibi")
ROPE_METHODS = ("nope", "sinusoidal_scaled", "alibi", "rope")
# exp_all_position_loss (the results page): seven lines in one panel are too many for a phone, so two
# stacked panels, the position added to the input vs the position inside attention; no encoding in both.
POSITION_PANELS = (
    ("位置加在输入上", ("nope", "learned", "sinusoidal", "sinusoidal_scaled")),
    ("位置放进注意力里", ("nope", "alibi", "rope", "rope_partial")),
)
# exp_paired_differences: each method minus a reference, seed by seed; inside the training length
# against RoPE (the lowest mean), beyond it against no encoding (the flattest).
PAIRED_PANELS = (
    ("训练长度之内：减去 RoPE", "rope", ("alibi", "rope_partial", "sinusoidal_scaled", "nope", "learned"), "in"),
    ("训练长度之外：减去不加位置编码", "nope", ("alibi", "learned", "rope", "sinusoidal_scaled", "rope_partial"), "beyond"),
)
PARTIAL_METHODS = ("nope", "rope", "rope_partial")
NOPE_VS_ROPE = ("nope", "rope")

UNIGRAM_LABEL = "只按字频猜（基线）"
VALIDATION_LABEL = "训练结束时的验证 loss"
PRETRAINED_LABEL = "预训练结束时的水平"
YARN_AT_EVALUATION_LABEL = "RoPE + YaRN（推理时）"
LOSS_LABEL = "loss（nats，越低越好）"
SEED_LABEL = "一个种子上的差"


def _said(*names: str) -> str:
    """The checked sentences a figure shows, for its alt text: what the figure says is what the page says."""
    return "；".join(claims.check(n) for n in names) + "。"


def _colour(theme, method: str) -> str:
    return theme.series[METHOD_SERIES[method]]


def _style(method: str) -> str:
    return "--" if method == "sinusoidal_scaled" else "-"


def _line(ax, curve, colour, linestyle="-", linewidth=1.5, label=None):
    """A curve's mean over seeds, with its seed band (lowest to highest) when there are several."""
    if curve.seeds > 1:
        ax.fill_between(*F.band_points(curve, BAND_POINTS), color=colour, alpha=0.18, linewidth=0)
    ax.plot(curve.x, curve.mean, linestyle=linestyle, color=colour, linewidth=linewidth, label=label or curve.label)


def _method_lines(ax, theme, curves):
    for c in curves:
        _line(ax, c, _colour(theme, c.key), _style(c.key))


def _variant_lines(ax, theme, curves):
    for c in curves:
        _line(ax, c, theme.series[VARIANT_SERIES[c.key]], VARIANT_STYLES[c.key], 1.6)


def _seeds_text() -> str:
    n = num("exp_seeds")
    return "单个种子" if n == "1" else f"{n} 个种子的平均，色带是种子之间的最低到最高"


def _unigram(ax, theme):
    ax.axhline(F.unigram_baseline(), color=theme.muted, linestyle=":", linewidth=1.4, label=UNIGRAM_LABEL)


def _vline(ax, theme, x: int, text: str):
    """A vertical dashed line with its name at the top, just right of it."""
    ax.axvline(x, color=theme.fg, linestyle=(0, (4, 3)), linewidth=0.9)
    ax.annotate(text, xy=(x, 1.0), xycoords=("data", "axes fraction"),
                xytext=(3, -3), textcoords="offset points", ha="left", va="top", fontsize=FS, color=theme.fg)


def _train_length(ax, theme):
    _vline(ax, theme, F.train_length(), f"训练长度 {F.train_length()}")


def _axes(ax, xlabel: str | None):
    if xlabel:
        ax.set_xlabel(xlabel)
    ax.set_ylabel(LOSS_LABEL)
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
    alt=lambda: (
        f"折线图：横轴是训练步数 0 到 {num('exp_steps')}，纵轴是训练 loss，不加位置编码、可学习位置表、sinusoidal 各一条线，"
        f"乘了 √d 的 sinusoidal 是与不乘的同色虚线，点线是只按字频猜的基线 {num('exp_unigram_loss')}，"
        f"右端的圆点是训练结束时验证集上（位置 0 到 {num('exp_train_last')}）的 loss。图例在图下方。"
        + _said("sin_worse_in_distribution", "sin_stalls_on_most_seeds", "sqrt_d_learns_every_seed")
    ),
    caption=lambda: (
        f"四组位置方案的训练 loss（{TRAIN_SMOOTH} 步滑动平均；{_seeds_text()}），右端圆点是训练结束时的验证 loss"
        f"（验证序列的位置 0 到 {num('exp_train_last')}，竖线是种子之间的最低到最高）。"
        f"同一份语料、同一组超参数，每组 {num('exp_steps')} 步 × batch {num('exp_batch')}，训练长度 {num('project_train_len')}。"
    ),
    size=(WIDTH, 5.0),
)
def exp_training_curves(fig, theme):
    ax = _single(fig)
    _method_lines(ax, theme, F.training_curves(methods=LESSON3_METHODS, smooth=TRAIN_SMOOTH))
    for v in F.final_validation(methods=LESSON3_METHODS):
        # validation at the end, drawn just right of the last step so it does not hide the curve
        ax.errorbar(v.x + 8, v.mean, yerr=[v.mean - v.low, v.high - v.mean], fmt="o", markersize=4,
                    color=_colour(theme, v.key), mfc="none" if v.key == "sinusoidal_scaled" else _colour(theme, v.key),
                    capsize=2, linewidth=1)
    ax.plot([], [], "o", color=theme.fg, markersize=4, label=VALIDATION_LABEL)
    _unigram(ax, theme)
    _axes(ax, "训练步数")
    _legend_below(fig, ax)


@figure(
    "exp_learning_curves",
    alt=lambda: (
        f"折线图：横轴是训练步数，每 {num('exp_curve_every')} 步一个点，到第 {num('exp_steps')} 步；"
        f"纵轴是验证序列位置 0 到 {num('exp_train_last')} 的平均 loss；不加位置编码、可学习位置表、sinusoidal、乘了 √d 的 sinusoidal 各一条线，"
        f"点线是只按字频猜的基线，竖虚线标出训练一半的第 {num('exp_half_way')} 步。图例在图下方。"
        + _said("sin_flat_half_way", "others_below_unigram_half_way")
    ),
    caption=lambda: (
        f"学习曲线：训练过程中每隔 {num('exp_curve_every')} 步，在验证序列的位置 0 到 {num('exp_train_last')} 上测一次 loss"
        f"（{_seeds_text()}）。竖虚线是训练一半（第 {num('exp_half_way')} 步），点线是只按字频猜的基线。"
    ),
    size=(WIDTH, 5.0),
)
def exp_learning_curves(fig, theme):
    ax = _single(fig)
    _method_lines(ax, theme, F.learning_curves(methods=LESSON3_METHODS))
    _unigram(ax, theme)
    _vline(ax, theme, claims.half_way(), "训练一半")
    ax.set_xlim(0, int(claims.config()["steps"]))
    _axes(ax, "训练步数")
    _legend_below(fig, ax)


@figure(
    "exp_position_loss",
    alt=lambda: (
        f"折线图：横轴是验证序列里的位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，"
        "不加位置编码、可学习位置表、sinusoidal、乘了 √d 的 sinusoidal（同色虚线）各一条线，点线是只按字频猜的基线，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。图例在图下方。"
        + _said("sin_scaled_rises", "learned_rises_less", "nope_flat_past_train_len")
    ),
    caption=lambda: (
        f"按位置拆开的验证 loss：模型只见过长 {num('project_train_len')} 的序列，评测用长 {num('exp_eval_len')} 的序列"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
        "虚线是只多乘了 √d_model 的对照组。"
    ),
    size=(WIDTH, 4.6),
)
def exp_position_loss(fig, theme):
    ax = _single(fig)
    curves = F.position_curves(methods=LESSON3_METHODS, smooth=POSITION_SMOOTH)
    _method_lines(ax, theme, curves)
    _unigram(ax, theme)
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, "位置（token）")
    _legend_below(fig, ax)


# --- lesson 3b -----------------------------------------------------------------------------------------


@figure(
    "exp_alibi_position_loss",
    alt=lambda: (
        f"折线图：横轴是验证序列里的位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，"
        "不加位置编码、可学习位置表、乘了 √d 的 sinusoidal、ALiBi 各一条线，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。图例在图下方。"
        + _said("alibi_flat_past_train_len", "alibi_beats_additive_beyond", "alibi_beats_nope_in_distribution")
    ),
    caption=lambda: (
        f"ALiBi 与前几课几种做法的逐位置验证 loss：只在长 {num('project_train_len')} 的序列上训练，评测到位置 {num('exp_eval_last')}"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
    ),
    size=(WIDTH, 4.3),
)
def exp_alibi_position_loss(fig, theme):
    _position_loss_of(fig, theme, ALIBI_METHODS, ncols=2)


# --- lesson 4 ------------------------------------------------------------------------------------------


@figure(
    "exp_rope_position_loss",
    alt=lambda: (
        f"折线图：横轴是验证序列里的位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，"
        "不加位置编码、乘了 √d 的 sinusoidal、ALiBi、RoPE 各一条线，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。图例在图下方。"
        + _said("rope_and_alibi_no_clear_difference", "rope_rises", "alibi_beats_rope_beyond")
    ),
    caption=lambda: (
        f"RoPE 与前几课几种做法的逐位置验证 loss：只在长 {num('project_train_len')} 的序列上训练，评测到位置 {num('exp_eval_last')}"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
    ),
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
    _axes(ax, "位置（token）")
    _legend_below(fig, ax, ncols=ncols)


# --- lesson 5 ------------------------------------------------------------------------------------------


@figure(
    "exp_rope_scaling",
    alt=lambda: (
        f"折线图：同一个只在长度 {num('project_train_len')} 上训练过的 RoPE 模型，评测长 {num('exp_eval_len')} 的序列时"
        f"不缩放、用位置插值、NTK-aware、YaRN 四种做法各一条线，不加位置编码的模型的一条线作参照，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。图例在图下方。"
        + _said("pi_needs_finetuning", "ntk_costs_a_little_in_distribution", "ntk_yarn_help_rope_beyond", "yarn_flat_past_train_len")
    ),
    caption=lambda: (
        f"不微调，只在推理时换频率：训练好的 RoPE 模型按 s = {num('exp_eval_len')} ÷ {num('project_train_len')} 缩放后的逐位置 loss"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
    ),
    size=(WIDTH, 4.3),
)
def exp_rope_scaling(fig, theme):
    ax = _single(fig)
    (nope,) = F.position_curves(methods=("nope",), smooth=POSITION_SMOOTH)
    ax.plot(nope.x, nope.mean, "-", color=_colour(theme, "nope"), linewidth=1.0, label=nope.label)
    curves = F.scaling_curves(smooth=POSITION_SMOOTH)
    _variant_lines(ax, theme, curves)
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, "位置（token）")
    _legend_below(fig, ax)


@figure(
    "exp_extension_recovery",
    alt=lambda: (
        f"折线图：横轴是继续训练的步数 0 到 {num('exp_ext_steps')}，纵轴是训练长度之内（位置 0 到 {num('exp_train_last')}）的 loss，"
        "频率不变的 RoPE 对照组、位置插值、NTK-aware、YaRN、ABF 五种做法各一条线，"
        f"灰色横带是预训练结束时的水平上下各 {num('exp_recovered')}。图例在图下方。"
        + _said("ext_big_base_change_hurts_first", "ext_ntk_yarn_recover", "ext_abf_slowest", "ext_pi_not_recovered")
    ),
    caption=lambda: (
        f"把预训练好的 RoPE 模型换上新频率，在长 {num('exp_ext_len')} 的序列上继续训练 {num('exp_ext_steps')} 步："
        f"训练长度之内的 loss 每 {num('exp_ext_curve_every')} 步测一次，最左端的点是换了频率、还没开始训练时"
        f"（{_seeds_text()}）。灰色横带是预训练结束时的水平 {num('exp_pretrained_in')} 上下各 {num('exp_recovered')}。"
    ),
    size=(WIDTH, 4.3),
)
def exp_extension_recovery(fig, theme):
    ax = _single(fig)
    low, level, high = F.recovered_band()
    ax.axhspan(low, high, color=theme.muted, alpha=0.3, linewidth=0)
    ax.axhline(level, color=theme.muted, linewidth=1.0, label=PRETRAINED_LABEL)
    curves = F.extension_recovery()
    _variant_lines(ax, theme, curves)
    ax.set_xlim(curves[0].x[0], curves[0].x[-1])
    _axes(ax, "继续训练的步数")
    _legend_below(fig, ax)


@figure(
    "exp_extension_positions",
    alt=lambda: (
        f"折线图：继续训练之后，横轴是位置 0 到 {num('exp_ext_eval_last')}，纵轴是该位置的平均 loss，"
        "频率不变的 RoPE 对照组、位置插值、NTK-aware、YaRN、ABF 五种做法各一条线，"
        f"竖虚线分别标出预训练的训练长度 {num('project_train_len')} 和继续训练的新长度 {num('exp_ext_len')}。图例在图下方。"
        + _said("ext_pi_worst_in_new_range", "ext_control_as_good", "ext_yarn_pi_rise_past_new_length",
                "ext_others_rise_less_than_yarn")
    ),
    caption=lambda: (
        f"继续训练 {num('exp_ext_steps')} 步之后的逐位置 loss，评测到位置 {num('exp_ext_eval_last')}"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，新长度两侧分开算；{_seeds_text()}）。"
        f"左边的竖虚线是预训练的长度 {num('project_train_len')}，右边的是继续训练的新长度 {num('exp_ext_len')}。"
    ),
    size=(WIDTH, 4.3),
)
def exp_extension_positions(fig, theme):
    ax = _single(fig)
    curves = F.extension_positions("after", smooth=POSITION_SMOOTH)
    _variant_lines(ax, theme, curves)
    _train_length(ax, theme)
    _vline(ax, theme, F.extension_length(), f"新长度 {F.extension_length()}")
    _positions_xlim(ax, curves[0])
    _axes(ax, "位置（token）")
    _legend_below(fig, ax)


# --- lesson 6 ------------------------------------------------------------------------------------------


@figure(
    "exp_nope_vs_rope",
    alt=lambda: (
        f"折线图：横轴是位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，NoPE、直接外推的 RoPE、推理时用 YaRN 的 RoPE 各一条线，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。图例在图下方。"
        + _said("rope_beats_nope_in_distribution", "nope_beats_rope_beyond", "yarn_rope_beats_nope_beyond")
    ),
    caption=lambda: (
        f"NoPE 与 RoPE：训练长度之内谁好，之外谁好（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
    ),
    size=(WIDTH, 3.9),
)
def exp_nope_vs_rope(fig, theme):
    ax = _single(fig)
    curves = F.position_curves(methods=NOPE_VS_ROPE, smooth=POSITION_SMOOTH)
    _method_lines(ax, theme, curves)
    (yarn,) = F.scaling_curves(names=("yarn",), smooth=POSITION_SMOOTH)
    _line(ax, yarn, theme.series[VARIANT_SERIES["yarn"]], VARIANT_STYLES["yarn"], 1.6, label=YARN_AT_EVALUATION_LABEL)
    _train_length(ax, theme)
    _positions_xlim(ax, curves[0])
    _axes(ax, "位置（token）")
    _legend_below(fig, ax, ncols=3)


@figure(
    "exp_partial_rope",
    alt=lambda: (
        f"折线图：横轴是验证序列里的位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，"
        f"NoPE（不加位置编码）、RoPE、只转每个头四分之一维度的部分 RoPE 各一条线，位置 {num('project_train_len')} 处的竖虚线标出训练长度。图例在图下方。"
        + _said("partial_no_clear_difference_from_rope", "partial_beats_nope", "partial_rises_beyond")
    ),
    caption=lambda: (
        f"部分 RoPE 与全转的 RoPE、不加位置编码的 NoPE：逐位置验证 loss，评测到位置 {num('exp_eval_last')}"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
    ),
    size=(WIDTH, 3.9),
)
def exp_partial_rope(fig, theme):
    _position_loss_of(fig, theme, PARTIAL_METHODS, ncols=2)


# --- the results page: all seven methods ----------------------------------------------------------------


@figure(
    "exp_all_position_loss",
    alt=lambda: (
        f"上下两幅折线图，横轴都是验证序列里的位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，纵轴刻度相同。"
        "上图是把位置加在输入上的方案：可学习位置表、sinusoidal、乘了 √d 的 sinusoidal（同色虚线）；"
        "下图是把位置放进注意力里的方案：ALiBi、RoPE、部分 RoPE；两幅都画了不加位置编码的模型作参照和只按字频猜的基线（点线），"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。每幅图的图例在它下方。"
        + _said("top_three_no_clear_difference", "top_three_beat_the_rest", "all_but_sin_beat_unigram")
    ),
    caption=lambda: (
        f"七组位置方案按位置拆开的验证 loss：模型只见过长 {num('project_train_len')} 的序列，评测用长 {num('exp_eval_len')} 的序列"
        f"（{POSITION_SMOOTH} 个位置的滑动平均，训练长度两侧分开算；{_seeds_text()}）。"
        "七组分两幅画，不加位置编码的模型两幅都有；虚线是只多乘了 √d_model 的对照组。"
    ),
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
        ax.set_title(title, fontsize=10, loc="left")
        _axes(ax, "位置（token）")
        ax.xaxis.set_tick_params(labelbottom=True)
        ax.legend(ncols=2, fontsize=FS, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                  handlelength=2.4, columnspacing=1.0, handletextpad=0.5)


@figure(
    "exp_paired_differences",
    alt=lambda: (
        "上下两幅点图。上图每一行是一种位置方案在训练长度之内的 loss 减去同一个种子的 RoPE，"
        "下图每一行是训练长度之外的 loss 减去同一个种子的不加位置编码的模型；"
        f"小点是 {num('exp_seeds')} 个种子各自的差，黑色横线和方块是均值和它的 95% 区间，"
        f"灰带是正负 {num('exp_same')} 的「差不多」，两条虚线是正负 {num('exp_clearly')} 的「明显」门槛。"
        + _said("top_three_no_clear_difference", "top_three_beat_the_rest")
    ),
    caption=lambda: (
        f"逐种子相减：每个小点是一个种子上两组之差（nats），黑色横线是 {num('exp_seeds')} 个种子的均值和它的 95% 区间。"
        f"区间整个落在灰带（正负 {num('exp_same')}）里叫「差不多」，整个越过虚线（{num('exp_clearly')}）才叫「明显」。"
    ),
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
        ax.set_yticks(range(len(rows)), [r.label for r in reversed(rows)])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_title(title, fontsize=10, loc="left")
        ax.set_xlabel("两组之差（nats）")
        ax.grid(True, axis="x")
        ax.set_axisbelow(True)
    ax.plot([], [], "o", markersize=3, color=theme.muted, label=SEED_LABEL)
    ax.errorbar([], [], xerr=[], fmt="s", markersize=5, color=theme.fg, capsize=3, linewidth=1.4, label=f"均值和 {num('exp_level')} 区间")
    _legend_below(fig, ax)
