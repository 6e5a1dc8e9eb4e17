"""Lesson 5's figures show what posenc computes, in order, with their labels; and they fit a phone.

Each figure is drawn as the build draws it (tests/figure_support.py) and its plotted
data are compared with posenc's values for the same model: a reversed, truncated or
mislabelled series fails. The phone rule (issue 18): trimmed width ≤ PHONE_MAX_WIDTH_IN,
every text ≥ MIN_TEXT_PT, in both themes.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from figures_src import lesson5 as F
from posenc import configs, long_context, rope, scaling
from posenc import examples as ex
from posenc.quantities import value
from tests.figure_support import all_lines, drawn, legend_labels, lines, tick_labels

FIGURES = ("scaling_wavelengths_qwen3", "scaling_slowdown_per_pair", "yarn_ramp_paper_vs_code",
           "scaling_angle_overshoot", "abf_wavelengths_codellama", "ruler_window_vs_effective")

QWEN = configs.load(ex.SCALING_MODEL)
S = QWEN["scaling"]["factor"]
L = QWEN["scaling"]["original_max_position_embeddings"]
LABELS = ["不缩放", "PI（位置插值）", "NTK-aware", "YaRN"]


def methods():
    return scaling.methods_for(QWEN)


def hlines(ax) -> list[float]:
    """y of every horizontal rule (axhline: two points with equal y spanning the axes)."""
    return [float(y[0]) for x, y in all_lines(ax) if len(y) == 2 and y[0] == y[1] and tuple(x) == (0.0, 1.0)]


def vlines(ax) -> list[float]:
    return [float(x[0]) for x, y in all_lines(ax) if len(x) == 2 and x[0] == x[1] and tuple(y) == (0.0, 1.0)]


# --- one test per figure ------------------------------------------------------------------------------


def test_scaling_wavelengths_qwen3():
    m = methods()
    with drawn("scaling_wavelengths_qwen3") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == LABELS
        for label, method in zip(LABELS, scaling.COMPARED_METHODS):
            x, y = got[label]
            np.testing.assert_array_equal(x, np.arange(len(m[method])))
            np.testing.assert_allclose(y, rope.wavelengths(m[method]), rtol=1e-12)
        assert sorted(hlines(ax)) == [L, S * L]
        t = scaling.yarn_pairs_for_model(QWEN)
        span = [p for p in ax.patches if p.get_label() == "YaRN 过渡区间"][0]
        x0, x1 = span.get_x(), span.get_x() + span.get_width()
        assert (x0, x1) == (t.low, t.high) == (value("qwen3_yarn_low"), value("qwen3_yarn_high"))
        assert ax.get_yscale() == "log" and "token" in ax.get_ylabel()
        assert "YaRN 过渡区间" in legend_labels(fig)
        label_texts = [x.get_text() for x in ax.texts]
        assert label_texts == [f"原生 {L:,}", f"扩展后 {int(S * L):,}"]


def test_scaling_slowdown_per_pair():
    m = methods()
    with drawn("scaling_slowdown_per_pair") as fig:
        top, bottom = fig.axes
        assert top.get_position().y0 > bottom.get_position().y1  # Qwen3 on top, stacked
        got = lines(top)
        assert list(got) == LABELS[1:]
        for label, method in zip(LABELS[1:], scaling.COMPARED_METHODS[1:]):
            np.testing.assert_allclose(got[label][1], m["none"] / m[method], rtol=1e-12)
        llama = configs.load("llama31_8b")
        omega = rope.inverse_frequencies(llama["head_dim"], llama["rope_theta"])
        (x, y), = all_lines(bottom)
        np.testing.assert_array_equal(x, np.arange(len(omega)))
        np.testing.assert_allclose(y, omega / scaling.for_model(llama)[0], rtol=1e-12)
        assert [t.get_text() for t in bottom.texts] == ["不变", "平滑", f"除以 {llama['scaling']['factor']:g}"]
        xs = [t.get_position()[0] for t in bottom.texts]
        assert xs == sorted(xs)
        first, last = value("llama31_smooth_first"), value("llama31_smooth_last")
        span = bottom.patches[0]
        assert (span.get_x(), span.get_x() + span.get_width()) == (first - 0.5, last + 0.5)
        assert [top.get_title(), bottom.get_title()] == ["Qwen3-8B", "Llama 3.1 8B"]


def test_yarn_ramp_paper_vs_code():
    t = scaling.yarn_pairs_for_model(QWEN)
    with drawn("yarn_ramp_paper_vs_code") as fig:
        ax, top = fig.axes
        (code_label, (xc, yc)), (paper_label, (xp, yp)) = lines(ax).items()
        assert "代码" in code_label and "论文" in paper_label
        np.testing.assert_array_equal(xc, np.arange(len(t.pair)))
        np.testing.assert_allclose(yc, t.ramp, atol=0)
        gamma = [0.0 if r < 1 else 1.0 if r > 32 else (r - 1) / 31 for r in t.rotations]
        np.testing.assert_allclose(yp, 1 - np.array(gamma), atol=1e-15)
        assert vlines(ax) == pytest.approx([value("qwen3_yarn_low_exact"), value("qwen3_yarn_high_exact")])
        # the top axis: turns r = 32, 16, …, 1 at the pair index where a pair turns r times in L
        assert tick_labels(top, "x") == ["32", "16", "8", "4", "2", "1"]
        d, theta = QWEN["head_dim"], QWEN["rope_theta"]
        expected = [d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta)) for r in (32, 16, 8, 4, 2, 1)]
        np.testing.assert_allclose(top.get_xticks(), expected, rtol=1e-12)
        arrow = [c for c in ax.texts if isinstance(c, matplotlib.text.Annotation)][0]
        gap = value("qwen3_ramp_gap_pair")
        assert arrow.xy == (gap, t.ramp[gap]) and arrow.xyann == (gap, t.paper_ramp[gap])


def test_scaling_angle_overshoot():
    m = methods()
    never = [j for j in range(len(m["none"])) if 2 * math.pi / m["none"][j] > L]
    with drawn("scaling_angle_overshoot") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == LABELS
        for label, method in zip(LABELS, scaling.COMPARED_METHODS):
            x, y = got[label]
            np.testing.assert_array_equal(x, never)
            np.testing.assert_allclose(y, S * m[method][never] / m["none"][never], rtol=1e-12)
        assert hlines(ax) == [1.0]
        assert got["NTK-aware"][1][0] == pytest.approx(value("ntk_qwen3_max_overshoot"), rel=1e-12)


def test_abf_wavelengths_codellama():
    case = long_context.base_raise("codellama")
    with drawn("abf_wavelengths_codellama") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == [f"θ = {case.base:,.0f}", f"θ = {case.new_base:,.0f}"] == ["θ = 10,000", "θ = 1,000,000"]
        i = np.arange(case.head_dim // 2)
        for (x, y), theta in zip(got.values(), (case.base, case.new_base)):
            np.testing.assert_array_equal(x, i)
            np.testing.assert_allclose(y, 2 * np.pi * theta ** (2 * i / case.head_dim), rtol=1e-12)
        assert hlines(ax) == [case.length, case.new_length, case.far] == [4096, 16_384, 100_000]
        assert [t.get_text() for t in ax.texts] == ["原训练长度 4,096", "新训练长度 16,384", "自报可用到 100,000"]
        assert ax.get_yscale() == "log"


def test_ruler_window_vs_effective():
    rows = long_context.ruler_rows()
    with drawn("ruler_window_vs_effective") as fig:
        ax = fig.axes[0]
        got = lines(ax)
        assert list(got) == ["声称的窗口", "有效长度"]
        (xc, yc), (xe, ye) = got.values()
        assert list(yc) == sorted(yc, reverse=True) and list(ye) == list(yc)  # first row on top
        np.testing.assert_array_equal(xc, [long_context.window_tokens(r.claimed) for r in rows])
        np.testing.assert_array_equal(xe, [long_context.window_tokens(r.effective) for r in rows])
        words = [t.get_text() for t in ax.texts]
        assert words[0::2] == [r.model for r in rows]
        assert words[1::2] == ["25%", "50%", "50%", "50%", "16%", "1.6%", "50%"]
        assert tick_labels(ax, "x") == ["4K", "16K", "64K", "256K", "1M"]
        assert ax.get_xscale() == "log"


def test_figure_module_draws_every_registered_lesson5_figure():
    from figures_src.build import load_all

    mine = sorted(n for n, spec in load_all().items() if spec.module == F.__name__)
    assert mine == sorted(FIGURES)
