"""Training-experiment figures (lessons 3, 5 and 6), drawn from the committed results.

Every curve comes from posenc.experiment.figures, which reads
posenc/experiment/results/full.json (listed in INPUTS, so a new results file
redraws these figures). With several seeds a curve is the mean over seeds and
the shaded band spans the lowest to the highest seed.
"""

from __future__ import annotations

from figures_src import figure
from posenc.experiment import claims
from posenc.experiment import figures as F
from posenc.experiment.config import METHODS
from posenc.quantities import text as num

INPUTS = ["posenc/experiment/results/full.json"]

# Smoothing windows: a training step is one batch of 16, and a position's loss a mean
# over ≈170 windows (the same text for every method), so both jitter; these windows show the trend, not the noise.
TRAIN_SMOOTH = 20
POSITION_SMOOTH = 32


def _said(*names: str) -> str:
    """The checked sentences a figure shows, for its alt text: what the figure says is what the page says."""
    return "；".join(claims.check(n) for n in names) + "。"


def _colour(theme, method: str) -> str:
    """One colour per method in every figure; the √d control shares plain sinusoidal's."""
    order = {m: i for i, m in enumerate(METHODS)}
    order["sinusoidal_scaled"] = order["sinusoidal"]
    return theme.series[order[method]]


def _style(method: str) -> str:
    return "--" if method == "sinusoidal_scaled" else "-"


def _line(ax, curve, colour, linestyle="-", linewidth=1.5, label=None):
    """A curve's mean over seeds, with its seed band (lowest to highest) when there are several."""
    if curve.seeds > 1:
        ax.fill_between(curve.x, curve.low, curve.high, color=colour, alpha=0.18, linewidth=0)
    ax.plot(curve.x, curve.mean, linestyle=linestyle, color=colour, linewidth=linewidth, label=label or curve.label)


def _seeds_text() -> str:
    n = num("exp_seeds")
    return "单个种子" if n == "1" else f"{n} 个种子的平均，色带是种子间的最低到最高"


def _unigram(ax, theme):
    ax.axhline(F.unigram_baseline(), color=theme.muted, linestyle=":", linewidth=1.4, label="只按字频猜（基线）")


def _train_length(ax, theme):
    L = F.train_length()
    ax.axvline(L, color=theme.fg, linestyle=(0, (4, 3)), linewidth=0.9)
    ax.annotate(f"训练长度 {L}", xy=(L, 1.0), xycoords=("data", "axes fraction"),
                xytext=(4, -4), textcoords="offset points", ha="left", va="top", fontsize=8, color=theme.fg)


def _finish(ax, xlabel: str, ncols: int = 3):
    ax.set_xlabel(xlabel)
    ax.set_ylabel("loss（nats，越低越好）")
    ax.grid(True)
    ax.set_axisbelow(True)
    ax.legend(ncols=ncols, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18))


@figure(
    "exp_training_curves",
    alt=lambda: (
        f"折线图：横轴是训练步数 0 到 {num('exp_steps')}，纵轴是训练 loss，五种位置方案各一条线，"
        f"乘了 √d 的 sinusoidal 是与不乘的同色虚线，点线是只按字频猜的基线 {num('exp_unigram_loss')}，"
        f"右端的圆点是训练结束时验证集上（位置 0 到 {num('exp_train_last')}）的 loss。"
        + _said("sin_worse_in_distribution", "sin_stalls_on_some_seed", "sqrt_d_learns_every_seed")
    ),
    caption=lambda: (
        f"五种位置方案的训练 loss（{TRAIN_SMOOTH} 步滑动平均；{_seeds_text()}），右端圆点是训练结束时的验证 loss"
        f"（验证序列的位置 0 到 {num('exp_train_last')}，竖线是种子间的最低到最高）。"
        f"同一份语料、同一组超参数，每组 {num('exp_steps')} 步 × batch {num('exp_batch')}，训练长度 {num('project_train_len')}。"
    ),
    size=(7.0, 4.0),
)
def exp_training_curves(fig, theme):
    ax = fig.add_subplot()
    for c in F.training_curves(smooth=TRAIN_SMOOTH):
        _line(ax, c, _colour(theme, c.key), _style(c.key))
    for v in F.final_validation():
        # validation at the end, drawn just right of the last step so it does not hide the curve
        ax.errorbar(v.x + 8, v.mean, yerr=[v.mean - v.low, v.high - v.mean], fmt="o", markersize=4,
                    color=_colour(theme, v.key), mfc="none" if v.key == "sinusoidal_scaled" else _colour(theme, v.key),
                    capsize=2, linewidth=1)
    ax.plot([], [], "o", color=theme.fg, markersize=4, label="训练结束时的验证 loss")
    _unigram(ax, theme)
    _finish(ax, "训练步数")


@figure(
    "exp_position_loss",
    alt=lambda: (
        f"折线图：横轴是验证序列里的位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，五种位置方案各一条线，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。"
        + _said("rope_best_in_distribution", "rope_and_sin_scaled_rise", "learned_rises_a_little", "nope_flat_past_train_len")
    ),
    caption=lambda: (
        f"按位置拆开的验证 loss：模型只见过长 {num('project_train_len')} 的序列，评测用长 {num('exp_eval_len')} 的序列"
        f"（{POSITION_SMOOTH} 个位置的滑动平均；{_seeds_text()}）。虚线是只多乘了 √d_model 的对照组。"
    ),
    size=(7.0, 4.2),
)
def exp_position_loss(fig, theme):
    ax = fig.add_subplot()
    for c in F.position_curves(smooth=POSITION_SMOOTH):
        _line(ax, c, _colour(theme, c.key), _style(c.key))
    _train_length(ax, theme)
    _unigram(ax, theme)
    ax.set_xlim(0, len(c.x) - 1)
    _finish(ax, "位置（token）")


_SCALING_STYLES = {"rope": "-", "pi": (0, (1, 1.5)), "ntk": "-.", "yarn": "--"}


def _scaling_colours(theme) -> dict[str, str]:
    """Plain RoPE keeps its colour from the other figures; the scalings take the unused ones."""
    return {"rope": _colour(theme, "rope"), "pi": theme.series[5], "ntk": theme.series[3], "yarn": theme.series[2]}


@figure(
    "exp_rope_scaling",
    alt=lambda: (
        f"折线图：同一个只在长度 {num('project_train_len')} 上训练过的 RoPE 模型，评测长 {num('exp_eval_len')} 的序列时"
        f"不缩放、用 Position Interpolation、NTK-aware、YaRN 四种做法各一条线，灰色细线是 NoPE 模型作参照，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。"
        + _said("pi_needs_finetuning", "ntk_keeps_in_distribution", "ntk_yarn_help_rope_beyond", "yarn_flat_past_train_len")
    ),
    caption=lambda: (
        f"不微调，只在推理时换频率：训练好的 RoPE 模型按 s = {num('exp_eval_len')} ÷ {num('project_train_len')} 缩放后的逐位置 loss"
        f"（{POSITION_SMOOTH} 个位置的滑动平均；{_seeds_text()}）。"
    ),
    size=(7.0, 4.2),
)
def exp_rope_scaling(fig, theme):
    ax = fig.add_subplot()
    (nope,) = F.position_curves(methods=("nope",), smooth=POSITION_SMOOTH)
    ax.plot(nope.x, nope.mean, "-", color=theme.muted, linewidth=1.0, label=nope.label)
    for c in F.scaling_curves(smooth=POSITION_SMOOTH):
        _line(ax, c, _scaling_colours(theme)[c.key], _SCALING_STYLES[c.key], 1.6)
    _train_length(ax, theme)
    ax.set_xlim(0, len(c.x) - 1)
    _finish(ax, "位置（token）", ncols=5)


@figure(
    "exp_nope_vs_rope",
    alt=lambda: (
        f"折线图：横轴是位置 0 到 {num('exp_eval_last')}，纵轴是该位置的平均 loss，NoPE、直接外推的 RoPE、推理时用 YaRN 的 RoPE 各一条线，"
        f"位置 {num('project_train_len')} 处的竖虚线标出训练长度。"
        + _said("rope_beats_nope_in_distribution", "nope_beats_rope_beyond", "yarn_rope_beats_nope_beyond")
    ),
    caption=lambda: (
        f"NoPE 与 RoPE：训练长度之内谁好，之外谁好（{POSITION_SMOOTH} 个位置的滑动平均；{_seeds_text()}）。"
    ),
    size=(7.0, 4.0),
)
def exp_nope_vs_rope(fig, theme):
    ax = fig.add_subplot()
    curves = F.position_curves(methods=("nope", "rope"), smooth=POSITION_SMOOTH)
    curves += F.scaling_curves(names=("yarn",), smooth=POSITION_SMOOTH)
    colours = (_colour(theme, "nope"), _colour(theme, "rope"), _scaling_colours(theme)["yarn"])
    for c, colour, ls in zip(curves, colours, ("-", "-", "--")):
        _line(ax, c, colour, ls, 1.6, label="RoPE + YaRN（推理时）" if c.key == "yarn" else None)
    _train_length(ax, theme)
    ax.set_xlim(0, len(c.x) - 1)
    _finish(ax, "位置（token）")
