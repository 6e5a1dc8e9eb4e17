"""Lesson 2 (the raw index, learned tables): the numbers the page quotes, against closed forms, and every figure drawn
and compared with what posenc computes.
"""

from __future__ import annotations

import numpy as np
import pytest

from figure_support import all_lines, drawn, legend_labels, lines, registered, tick_labels
from posenc import configs, learned, naive
from posenc import examples as ex
from posenc import quantities
from posenc import quantities as numbers


def percent(text: str) -> tuple[float, int]:
    """"2.7%" → (0.027, 1): the value a reader sees and how many decimals it shows."""
    assert text.endswith("%") and text.count("%") == 1, text
    digits = text[:-1]
    return float(digits) / 100, len(digits.partition(".")[2])


def test_page_ratios_are_the_ratios_at_the_probe_position_rounded_as_printed():
    p = numbers.value("naive_probe_position")
    for name, rms in (("naive_ratio_unit", 1.0), ("naive_ratio_init", 0.02)):  # 0.02: the project's init std
        assert numbers.value(name) == pytest.approx(rms / p, rel=1e-15), name
        shown, decimals = percent(numbers.text(name))
        assert abs(shown - rms / p) <= 0.5 * 10.0 ** -(decimals + 2), (name, numbers.text(name))
        assert decimals >= 1 and shown > 0  # never printed as 0% or 3%


def test_lesson2_numbers_follow_the_closed_forms():
    assert naive.position_where_share_falls_to(0.01, 1.0) == 100  # 1/p ≤ 1% first at p = 100
    assert naive.normalised_position(0.5, 6) == pytest.approx(2.5) and naive.normalised_position(0.5, 101) == pytest.approx(50)
    for length in (2, 6, 101):
        for p in range(length):
            assert naive.normalised_position(naive.normalised_value(p, length), length) == pytest.approx(p)
    gpt2 = configs.load("gpt2")
    last = learned.last_row(gpt2)
    assert learned.has_row(gpt2, last) and not learned.has_row(gpt2, last + 1)
    assert learned.rows_to_reach(gpt2, last) == 0 and learned.rows_to_reach(gpt2, last + 1) == 1
    assert learned.rows_to_reach(gpt2, ex.FAR_POSITION) == ex.FAR_POSITION - last
    assert quantities.text("l2_one_percent_p") == "100" and quantities.text("l2_rows_missing_far") == f"{ex.FAR_POSITION - last:,}"


def test_l2_naive_ratio_draws_both_curves_and_the_probe():
    ps = np.arange(1, ex.RATIO_MAX_POSITION + 1)
    scales = ((ex.UNIT_CONTENT_RMS, f"内容均方根 = {quantities.text('l2_unit_rms')}"),
              (ex.PROJECT_EMBED_STD, f"内容按初始化 std = {quantities.text('embed_init_std')}"))
    with drawn("l2_naive_ratio") as fig:
        ax = fig.axes[0]
        curves = lines(ax)
        assert list(curves) == [label for _, label in scales] == legend_labels(fig)
        for rms, label in scales:
            x, y = curves[label]
            np.testing.assert_array_equal(x, ps)
            np.testing.assert_allclose(y, naive.raw_index_content_ratios(ps, rms) * 100, rtol=1e-15)
        probes = [(x, y) for x, y in all_lines(ax) if x.size == 1]
        expect = [naive.raw_index_content_ratio(ex.NAIVE_PROBE_POSITION, rms) * 100 for rms, _ in scales]
        assert [(float(x[0]), float(y[0])) for x, y in probes] == [(ex.NAIVE_PROBE_POSITION, e) for e in expect]
        notes = [t.get_text() for t in ax.texts]
        assert notes == [f"p = {ex.NAIVE_PROBE_POSITION}：{quantities.text(n)}" for n in ("naive_ratio_unit", "naive_ratio_init")]


def test_l2_normalised_draws_the_three_scales():
    lengths = (ex.NORMALISED_SHORT, ex.NORMALISED_SHORT + 1, ex.NORMALISED_LONG)
    with drawn("l2_normalised") as fig:
        ax = fig.axes[0]
        drawn_lines = [(x, y) for x, y in all_lines(ax)]
        rows = [(x, y) for x, y in drawn_lines if x.size > 1]
        assert len(rows) == 3
        for (x, y), length, level in zip(rows, lengths, (2, 1, 0)):
            np.testing.assert_allclose(x, naive.normalised_index(length), rtol=1e-15)
            assert np.all(y == level)
        probes = [float(x[0]) for x, _ in drawn_lines if x.size == 1]
        assert probes == [naive.normalised_value(ex.NORMALISED_PROBE, n) for n in lengths[:2]]
        labels = [t.get_text() for t in ax.texts]
        for n in lengths:
            assert any(lbl.startswith(f"{n} 个 token") for lbl in labels), n


def test_l2_table_rows_draws_trained_untouched_and_missing_rows():
    gpt2 = configs.load("gpt2")
    rows = learned.last_row(gpt2) + 1
    trained = int(learned.rows_with_gradient(rows, ex.PROJECT_TRAIN_LEN).sum())
    with drawn("l2_table_rows") as fig:
        ax = fig.axes[0]
        spans = [tuple(np.round(c.get_paths()[0].get_extents().intervalx, 9)) for c in ax.collections]
        assert spans[:2] == [(0, trained), (trained, rows)] and spans[2][0] == rows
        assert tick_labels(ax, "x") == ["0", quantities.text("l2_rows_trained"), quantities.text("gpt2_context")]


FIGURES = ("l2_naive_ratio", "l2_normalised", "l2_table_rows")  # each has its content test above


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson2") == sorted(FIGURES)
