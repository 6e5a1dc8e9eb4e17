"""Lesson 5 figures: PI, NTK-aware, YaRN, Llama 3.1 and base raising on real configs, and RULER's rows.

Everything plotted comes from posenc: ``scaling.methods_for`` / ``angle_overshoot`` /
``yarn_pairs_for_model`` / ``llama3_bands_for_model`` for the frequencies (each model's
own YaRN betas, truncate and mscale included), ``long_context`` for the base changes
and RULER's window vs effective length. The figures only draw it.

Phone rule: every figure is at most _style.PHONE_MAX_WIDTH_IN wide once
trimmed, every text at least _style.MIN_TEXT_PT; two-panel figures stack vertically.
"""

from __future__ import annotations

import numpy as np

from figures_src import _style, figure, language, num, texts
from posenc import configs, facts, long_context, rope, scaling
from posenc import examples as ex
from posenc.quantities import value

T = texts(__name__)  # every word these figures draw: figures_src/labels/<lang>.yaml, section lesson5

WIDTH = _style.PHONE_MAX_WIDTH_IN
SMALL = _style.MIN_TEXT_PT  # legends, annotations

# The methods of scaling.COMPARED_METHODS, as the figures name them: T(f"method.{method}").
MARKERS = {"none": "o", "linear": "s", "ntk": "^", "yarn": "D"}


def _model():
    return configs.load(ex.SCALING_MODEL)


def _yarn():
    return scaling.yarn_pairs_for_model(_model())


def _original_context() -> int:
    return _model()["scaling"]["original_max_position_embeddings"]


def _fact(name: str) -> str:
    return facts.get(name).text_in(language())


def _codellama_length(attr: str) -> str:
    return f"{getattr(long_context.base_raise('codellama'), attr):,}"


def _colour(theme, method: str) -> str:
    return theme.muted if method == "none" else theme.series[scaling.COMPARED_METHODS.index(method) - 1]


def _grid(ax):
    ax.grid(True, which="major")
    ax.set_axisbelow(True)


@figure(
    "scaling_wavelengths_qwen3",
    alt=lambda: T("alt.scaling_wavelengths_qwen3", pairs=num("rope_pairs_total_qwen3_8b"), s=num("qwen3_yarn_factor"),
                  low=num("qwen3_yarn_low"), high=num("qwen3_yarn_high"), native=f"{_original_context():,}",
                  extended=num("qwen3_yarn_context")),
    caption=lambda: T("caption.scaling_wavelengths_qwen3", s=num("qwen3_yarn_factor"), low=num("qwen3_yarn_low"),
                      high=num("qwen3_yarn_high")),
    size=(WIDTH, 3.9),
)
def scaling_wavelengths_qwen3(fig, theme):
    t = _yarn()
    freqs = scaling.methods_for(_model())
    j = np.arange(len(freqs["none"]))
    ax = fig.add_subplot()
    ax.axvspan(t.low, t.high, color=theme.panel, zorder=0, label=T("yarn_band"))
    for method in scaling.COMPARED_METHODS:
        ax.plot(j, rope.wavelengths(freqs[method]), marker=MARKERS[method], markersize=3 if method != "none" else 4,
                linewidth=0 if method == "none" else 1.3, linestyle={"ntk": "--", "yarn": ":"}.get(method, "-"),
                color=_colour(theme, method), label=T(f"method.{method}"), zorder=3 if method != "none" else 2)
    for level, text in ((_original_context(), T("native", n=f"{_original_context():,}")),
                        (value("qwen3_yarn_context"), T("extended", n=num("qwen3_yarn_context")))):
        ax.axhline(level, color=theme.fg, linestyle=(0, (4, 3)), linewidth=0.8)
        ax.text(0.5, level * 1.3, text, fontsize=SMALL, color=theme.fg, va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel(T("pair_fastest"))
    ax.set_ylabel(T("period"))
    ax.set_xlim(-1, len(j))
    _grid(ax)
    ax.legend(ncols=3, fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.45, -0.2), columnspacing=1.0, handlelength=1.8)


@figure(
    "scaling_slowdown_per_pair",
    alt=lambda: T("alt.scaling_slowdown_per_pair", s=num("qwen3_yarn_factor"), ntk_first=num("ntk_qwen3_fastest_slowdown"),
                  ntk_last=num("ntk_qwen3_slowest_slowdown"), low=num("qwen3_yarn_low"), high=num("qwen3_yarn_high"),
                  unchanged=num("llama31_unchanged"), scaled=num("llama31_scaled"), factor=num("llama31_factor"),
                  smoothed=num("llama31_smoothed")),
    caption=lambda: T("caption.scaling_slowdown_per_pair", s=num("qwen3_yarn_factor"), factor=num("llama31_factor"),
                      unchanged=num("llama31_unchanged"), smoothed=num("llama31_smoothed"), scaled=num("llama31_scaled")),
    size=(WIDTH, 5.8),
)
def scaling_slowdown_per_pair(fig, theme):
    top, bottom = fig.subplots(2, 1)
    freqs = scaling.methods_for(_model())
    j = np.arange(len(freqs["none"]))
    for method in scaling.COMPARED_METHODS[1:]:
        top.plot(j, freqs["none"] / freqs[method], marker=MARKERS[method], markersize=2.5, linewidth=1.3,
                 color=_colour(theme, method), label=T(f"method.{method}"))
    top.set_title("Qwen3-8B", fontsize=10)
    top.set_ylabel("ω / ω′")
    top.legend(fontsize=SMALL, loc="upper left")
    _grid(top)

    llama = configs.load("llama31_8b")
    omega = rope.inverse_frequencies(llama["head_dim"], llama["rope_theta"])
    scaled, _ = scaling.for_model(llama)
    bands = scaling.llama3_bands_for_model(llama)
    jj = np.arange(len(omega))
    smooth = np.flatnonzero(bands == "smoothed")
    bottom.axvspan(smooth[0] - 0.5, smooth[-1] + 0.5, color=theme.panel, zorder=0)
    factor = llama["scaling"]["factor"]
    for band in scaling.LLAMA3_BANDS:
        idx = np.flatnonzero(bands == band)
        bottom.text(idx.mean(), factor * 1.05, T(f"band.{band}", s=f"{factor:g}"), ha="center", va="bottom", fontsize=SMALL, color=theme.fg)
    bottom.plot(jj, omega / scaled, marker="o", markersize=2.5, linewidth=1.3, color=theme.series[3])
    bottom.set_ylim(0.5, factor * 1.3)
    bottom.set_title("Llama 3.1 8B", fontsize=10)
    bottom.set_xlabel(T("pair"))
    bottom.set_ylabel("ω / ω′")
    _grid(bottom)
    fig.subplots_adjust(hspace=0.45)


@figure(
    "yarn_ramp_paper_vs_code",
    alt=lambda: T("alt.yarn_ramp_paper_vs_code", s=num("qwen3_yarn_factor"), low=num("qwen3_yarn_low"),
                  high=num("qwen3_yarn_high"), gap_pair=num("qwen3_ramp_gap_pair"), paper=num("qwen3_ramp_gap_paper"),
                  code=num("qwen3_ramp_gap_code"), low_exact=num("qwen3_yarn_low_exact"),
                  high_exact=num("qwen3_yarn_high_exact")),
    caption=lambda: T("caption.yarn_ramp_paper_vs_code", s=num("qwen3_yarn_factor"), gap=num("qwen3_ramp_gap")),
    size=(WIDTH, 3.8),
)
def yarn_ramp_paper_vs_code(fig, theme):
    cfg, t = _model(), _yarn()
    ax = fig.add_subplot()
    ax.plot(t.pair, t.ramp, marker="o", markersize=3, linewidth=1.5, color=theme.series[0], label=T("ramp_code"))
    ax.plot(t.pair, t.paper_ramp, marker="s", markersize=3, linewidth=1.2, linestyle="--", color=theme.series[1],
            label=T("ramp_paper"))
    for x in (t.low_exact, t.high_exact):
        ax.axvline(x, color=theme.muted, linestyle=":", linewidth=1)
    gap = t.largest_ramp_gap()
    ax.annotate("", xy=(gap, t.ramp[gap]), xytext=(gap, t.paper_ramp[gap]),
                arrowprops={"arrowstyle": "<->", "color": theme.fg, "linewidth": 0.9})
    ax.set_xlim(t.low - 4, t.high + 4)
    ax.set_ylim(-0.05, 1.1)
    ax.set_xlabel(T("pair"))
    ax.set_ylabel(T("weight"))
    _grid(ax)
    top = ax.twiny()
    top.set_xlim(ax.get_xlim())
    turns = t.beta_fast / 2.0 ** np.arange(int(np.log2(t.beta_fast / t.beta_slow)) + 1)  # β, β/2, …, α
    top.set_xticks([scaling.yarn_correction_dim(r, cfg["head_dim"], cfg["rope_theta"], _original_context()) for r in turns],
                   [f"{r:g}" for r in turns], fontsize=SMALL)
    top.set_xlabel(T("turns"), fontsize=SMALL)
    top.tick_params(colors=theme.fg)
    ax.legend(fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.2))


@figure(
    "scaling_angle_overshoot",
    alt=lambda: T("alt.scaling_angle_overshoot", pairs=num("qwen3_extrapolate_beyond_pairs"), extended=num("qwen3_yarn_context"),
                  none=num("qwen3_extrapolate_overshoot"), worst_pair=num("ntk_qwen3_max_overshoot_pair"),
                  worst=num("ntk_qwen3_max_overshoot"), beyond=num("ntk_qwen3_beyond_pairs")),
    caption=lambda: T("caption.scaling_angle_overshoot", extended=num("qwen3_yarn_context")),
    size=(WIDTH, 3.6),
)
def scaling_angle_overshoot(fig, theme):
    s, L = _model()["scaling"]["factor"], _original_context()
    freqs = scaling.methods_for(_model())
    ax = fig.add_subplot()
    for method in scaling.COMPARED_METHODS:
        over = scaling.angle_overshoot(freqs["none"], freqs[method], L, s)
        idx = np.flatnonzero(~np.isnan(over))
        ax.plot(idx, over[idx], marker=MARKERS[method], markersize=3, linewidth=1.2, color=_colour(theme, method),
                label=T(f"method.{method}"), linestyle="--" if method == "yarn" else "-")
    ax.axhline(1, color=theme.fg, linewidth=0.8, linestyle=(0, (4, 3)))
    ax.text(ax.get_xlim()[0] + 0.3, 0.9, T("largest_seen"), fontsize=SMALL, color=theme.fg, va="top")
    ax.set_xlabel(T("pair_not_turning"))
    ax.set_ylabel(T("overshoot"))
    ax.set_ylim(0, s * 1.12)
    _grid(ax)
    ax.legend(ncols=2, fontsize=SMALL, loc="upper center", bbox_to_anchor=(0.5, -0.2))


@figure(
    "abf_wavelengths_codellama",
    alt=lambda: T("alt.abf_wavelengths_codellama", pairs=num("rope_pairs_total_llama2_7b"), before=_fact("codellama_base_before"),
                  after=_fact("codellama_base_after"), slowest_before=num("abf_codellama_slowest_wavelength_before"),
                  slowest_after=num("abf_codellama_slowest_wavelength_after"), stretch=num("abf_codellama_ntk_factor"),
                  length=_codellama_length("length"), new_length=_codellama_length("new_length"), far=_codellama_length("far")),
    caption=lambda: T("caption.abf_wavelengths_codellama", before=_fact("codellama_base_before"),
                      after=_fact("codellama_base_after"), length=_codellama_length("length"),
                      turned_before=num("abf_codellama_turned_before"), new_length=_codellama_length("new_length"),
                      turned_after=num("abf_codellama_turned_after")),
    size=(WIDTH, 3.9),
)
def abf_wavelengths_codellama(fig, theme):
    case = long_context.base_raise("codellama")
    j = np.arange(case.head_dim // 2)
    before = rope.wavelengths(rope.inverse_frequencies(case.head_dim, case.base))
    after = rope.wavelengths(rope.inverse_frequencies(case.head_dim, case.new_base))
    ax = fig.add_subplot()
    ax.plot(j, before, marker="o", markersize=3, linewidth=1.3, color=theme.series[0], label=f"θ = {case.base:,.0f}")
    ax.plot(j, after, marker="s", markersize=3, linewidth=1.3, color=theme.series[1], label=f"θ = {case.new_base:,.0f}")
    lines = ((case.length, (0, (2, 2)), "old_length"), (case.new_length, (0, (5, 3)), "new_length"),
             (case.far, "-.", "reported_usable"))
    for level, style, what in lines:
        ax.axhline(level, color=theme.fg, linestyle=style, linewidth=0.8)
        ax.text(0, level * 1.2, T(what, n=f"{level:,}"), fontsize=SMALL, color=theme.fg, ha="left", va="bottom")
    ax.set_yscale("log")
    ax.set_xlabel(T("pair_fastest"))
    ax.set_ylabel(T("period"))
    ax.set_xlim(-1, len(j))
    ax.set_ylim(top=after[-1] * 40)
    _grid(ax)
    ax.legend(fontsize=SMALL, loc="upper left", ncols=2)


@figure(
    "ruler_window_vs_effective",
    alt=lambda: T("alt.ruler_window_vs_effective", rows=num("ruler_rows_count"), most=num("ruler_share_max"),
                  least=num("ruler_share_min")),
    caption=lambda: T("caption.ruler_window_vs_effective", printed=_fact("ruler_qwen3_8b_effective_printed")),
    size=(WIDTH, 4.6),
)
def ruler_window_vs_effective(fig, theme):
    rows = long_context.ruler_rows()
    ax = fig.add_subplot()
    y = np.arange(len(rows))[::-1] * 1.5  # first row on top; room above each row for its name
    claimed = np.array([r.claimed_tokens for r in rows])
    effective = np.array([r.effective_tokens for r in rows])
    ax.hlines(y, effective, claimed, color=theme.muted, linewidth=2)
    ax.plot(claimed, y, "o", markersize=7, markerfacecolor="none", markeredgecolor=theme.series[1],
            markeredgewidth=1.5, label=T("claimed"))
    ax.plot(effective, y, "o", markersize=7, color=theme.series[0], label=T("effective"))
    for yy, r in zip(y, rows):
        ax.text(2 ** 12, yy + 0.35, r.model, fontsize=SMALL, color=theme.fg, va="bottom", ha="left")
        share = f"{r.share:.1%}" if r.share < 0.1 else f"{r.share:.0%}"
        ax.text(r.claimed_tokens * 1.4, yy, share, fontsize=SMALL, color=theme.fg, va="center", ha="left")
    ax.set_xscale("log", base=2)
    ticks = [2 ** k for k in range(12, 22, 2)]
    ax.set_xticks(ticks, [f"{t // 1024:,}K" if t < 2 ** 20 else f"{t // 2 ** 20}M" for t in ticks], fontsize=SMALL)
    ax.set_xlim(2 ** 12, 2 ** 22)
    ax.set_ylim(y[-1] - 0.6, y[0] + 1.2)
    ax.set_yticks([])
    ax.set_xlabel(T("tokens_log"))
    ax.grid(True, axis="x")
    ax.set_axisbelow(True)
    ax.legend(fontsize=SMALL, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.16))
