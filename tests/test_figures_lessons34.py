"""Lessons 3 and 4: every figure is drawn and what it plots is compared with what posenc computes for it.

Each test reads the drawn Figure (tests/figure_support.py): plotted data in order, tick and legend
labels, titles and the numbers printed on the figure. A reversed, truncated or shifted series, a
mislabelled panel or a number that disagrees with the registered quantity fails here. The phone rule
(figures_src/_style.py) is checked for every figure in tests/test_figure_phone.py and tests/test_figures.py.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from figure_support import all_lines, bar_heights, drawn, legend_labels, tick_labels

from figures_src.build import load_all
from posenc import clock, configs, rope, shift, sinusoidal
from posenc import examples as ex
from posenc import quantities

LESSON_FIGURES = sorted(n for n, s in load_all().items() if s.module in ("figures_src.lesson3", "figures_src.lesson4"))


def number_in(label: str) -> float:
    """The first number printed in a label ("周期 19,869" → 19869.0, "转 213.0°" → 213.0, "−0.22" → −0.22)."""
    m = re.search(r"[−-]?\d[\d,]*(?:\.\d+)?", label)
    assert m, f"no number in {label!r}"
    return float(m.group(0).replace(",", "").replace("−", "-"))


def printed(label: str, value: float) -> bool:
    """Whether ``label`` prints ``value`` to the precision it shows."""
    text = re.search(r"[−-]?\d[\d,]*(?:\.(\d+))?", label)
    decimals = len(text.group(1) or "")
    return abs(number_in(label) - value) <= 0.5 * 10 ** -decimals + 1e-12


def polar_axes(fig):
    return [ax for ax in fig.axes if ax.name == "polar"]


# --- lesson 3 -------------------------------------------------------------------------------------------------------


def test_sin_clock_draws_each_pairs_hand_and_period_in_order():
    angles = sinusoidal.hand_angles(ex.NEAR_POSITION, ex.SIN_DIM)
    periods = sinusoidal.periods(ex.SIN_DIM)
    with drawn("sin_clock") as fig:
        axes = polar_axes(fig)
        assert len(axes) == len(angles) == ex.SIN_DIM // 2
        for i, ax in enumerate(axes):
            hand_x, hand_y = all_lines(ax)[0]
            assert hand_x[-1] == pytest.approx(angles[i]) and hand_x[0] == 0
            assert ax.get_title() == f"i = {i}"
            assert ax.get_xlabel().startswith("周期") and printed(ax.get_xlabel(), periods[i]), (i, ax.get_xlabel())


def test_sin_encoding_bars_are_the_three_encodings():
    with drawn("sin_encoding_bars") as fig:
        axes = [ax for ax in fig.axes if ax.patches]
        assert len(axes) == len(ex.encoding_positions())
        for ax, p in zip(axes, ex.encoding_positions()):
            np.testing.assert_allclose(bar_heights(ax), sinusoidal.encode(p, ex.SIN_DIM), atol=1e-12)
            assert ax.get_title(loc="left") == f"p = {p:,}"
        assert tick_labels(axes[-1], "x") == [str(j) for j in range(ex.SIN_DIM)]
        assert legend_labels(fig) == ["偶数维：sin", "奇数维：cos"]


def test_sin_heatmap_shift_shows_the_dot_matrices_before_and_after():
    n = len(ex.SENTENCE)
    with drawn("sin_heatmap_shift") as fig:
        maps = [ax for ax in fig.axes if ax.get_images()]
        assert len(maps) == 2
        for ax, start in zip(maps, (0, ex.SHIFT)):
            expected = sinusoidal.dot_matrix(np.arange(n) + start, ex.SIN_DIM)
            np.testing.assert_allclose(np.asarray(ax.get_images()[0].get_array()), expected, atol=1e-12)
            assert tick_labels(ax, "x") == [f"{c}\n{start + j}" for j, c in enumerate(ex.SENTENCE)]
            cells = [number_in(t.get_text()) for t in ax.texts]
            np.testing.assert_allclose(cells, expected.ravel(), atol=0.005 + 1e-12)
            assert ax.get_title() == f"从位置 {start} 开始"


def test_sin_dot_vs_distance_draws_the_closed_form_and_each_start():
    ks = np.arange(ex.MAX_DISTANCE + 1)
    with drawn("sin_dot_vs_distance") as fig:
        [ax] = fig.axes
        drawn_lines = [(ln.get_label(), np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float))
                       for ln in ax.get_lines() if not ln.get_label().startswith("_")]
        assert [label for label, *_ in drawn_lines] == [r"$\sum_i \cos(k\,\omega_i)$"] + [f"p = {p:,}" for p in ex.DOT_STARTS]
        _, x, y = drawn_lines[0]
        np.testing.assert_array_equal(x, ks)
        np.testing.assert_allclose(y, clock.dot_curve(ex.MAX_DISTANCE, ex.SIN_DIM), atol=1e-12)
        for (_, x, y), p in zip(drawn_lines[1:], ex.DOT_STARTS):
            np.testing.assert_array_equal(x, ks)
            np.testing.assert_allclose(y, clock.dots_from(p, ex.MAX_DISTANCE, ex.SIN_DIM), atol=1e-12)


def test_sin_periods_bars_and_their_printed_values():
    periods = sinusoidal.periods(ex.SIN_DIM)
    with drawn("sin_periods") as fig:
        [ax] = fig.axes
        np.testing.assert_allclose(bar_heights(ax), periods, rtol=1e-12)
        labels = [t.get_text() for t in ax.texts]
        assert len(labels) == len(periods) and all(printed(t, v) for t, v in zip(labels, periods)), labels
        assert labels[0] == quantities.text("sin_fastest_period") and labels[-1] == quantities.text("sin_slowest_period")
        assert tick_labels(ax, "x") == [str(i) for i in range(len(periods))]


def test_sin_shift_rotation_turns_every_pair_by_the_same_angle_from_both_starts():
    k = ex.SHIFT
    turn = clock.turn_angles(k, ex.SIN_DIM)
    starts = (ex.NEAR_POSITION, ex.encoding_positions()[1])
    with drawn("sin_shift_rotation") as fig:
        axes = polar_axes(fig)
        assert len(axes) == len(starts) * ex.ROTATION_PAIRS
        assert [sub._suptitle.get_text() for sub in fig.subfigs] == [f"起点 p = {p:,}" for p in starts]
        for row, p in enumerate(starts):
            before, after = sinusoidal.hand_angles(p, ex.SIN_DIM), sinusoidal.hand_angles(p + k, ex.SIN_DIM)
            for i in range(ex.ROTATION_PAIRS):
                ax = axes[row * ex.ROTATION_PAIRS + i]
                arc, hand_p, hand_pk = all_lines(ax)
                assert arc[0][0] == pytest.approx(before[i]) and arc[0][-1] == pytest.approx(before[i] + turn[i])
                assert hand_p[0][-1] == pytest.approx(before[i]) and hand_pk[0][-1] == pytest.approx(after[i])
                assert ax.get_title() == f"i = {i}"
                assert printed(ax.get_xlabel(), np.degrees(turn[i])), ax.get_xlabel()
        assert legend_labels(fig) == ["位置 p", f"位置 p + {k}", "转过的角度"]


# --- lesson 4 -------------------------------------------------------------------------------------------------------


def test_rope_pair_turn_draws_rotated_and_added_vectors():
    q, k = np.asarray(ex.PAIR_Q), np.asarray(ex.PAIR_K)
    w = shift.pair_omega(ex.PAIR_INDEX, ex.L4_DIM)
    moves = ((ex.PAIR_M, ex.PAIR_N), (ex.PAIR_M + ex.SHIFT, ex.PAIR_N + ex.SHIFT))
    rotated = [v for m, n in moves for v in (shift.rotate_pair(q, m * w), shift.rotate_pair(k, n * w))]
    added = [v for m, n in moves for v in (shift.add_pair(q, m, w), shift.add_pair(k, n, w))]
    with drawn("rope_pair_turn") as fig:
        top, bottom = fig.axes
        for ax, expected in ((top, rotated), (bottom, added)):
            tips = [np.asarray(a.xy) for a in ax.texts if hasattr(a, "xy")]
            np.testing.assert_allclose(tips, expected, atol=1e-12)
        rope0, rope1 = [shift.pair_scores(q, k, m, n, w)[0] for m, n in moves]
        add0, add1 = [shift.pair_scores(q, k, m, n, w)[1] for m, n in moves]
        for title, (a, b), names in ((top.get_title(), (rope0, rope1), ("l4_pair_rope", "l4_pair_rope_shifted")),
                                     (bottom.get_title(), (add0, add1), ("l4_pair_added", "l4_pair_added_shifted"))):
            shown = title.split("分数")[1].split("→")
            assert printed(shown[0], a) and printed(shown[1], b), title
            assert [s.strip() for s in shown] == [quantities.text(n) for n in names]


def test_rope_shift_scores_are_the_score_changes_of_each_method():
    with drawn("rope_shift_scores") as fig:
        maps = [ax for ax in fig.axes if ax.get_images() and ax.get_title()]
        assert len(maps) == len(shift.METHODS)
        for ax, method, name in zip(maps, shift.METHODS, ("l4_shift_input_max_diff", "l4_shift_qk_max_diff", "l4_shift_rope_max_diff")):
            expected = shift.score_changes(ex.SENTENCE, ex.SHIFT, method, ex.L4_DIM, ex.L4_SEED)
            np.testing.assert_allclose(np.asarray(ax.get_images()[0].get_array()), expected, atol=1e-12)
            assert tick_labels(ax, "x") == list(ex.SENTENCE) == tick_labels(ax, "y")
            title = ax.get_title()
            value = quantities.text(name)
            assert (value in title) if "×10" not in value else (value.split("×")[0] in title and "10^{" in title), (title, value)


def test_rope_conventions_cells_colours_and_links_follow_the_permutation():
    d = ex.CONVENTION_DIM
    perm = rope.convention_permutation(d)
    with drawn("rope_conventions") as fig:
        [ax] = fig.axes
        cells = [t for t in ax.texts if t.get_text().isdigit()]
        assert [int(t.get_text()) for t in cells] == list(range(d)) + [int(j) for j in perm]
        colours = [p.get_facecolor() for p in ax.patches]
        for convention, row in (("interleaved", colours[:d]), ("half", colours[d:])):
            owner = rope.pair_of_dim(d, convention)
            for a in range(d):
                for b in range(d):
                    assert (row[a] == row[b]) == (owner[a] == owner[b]), (convention, a, b)
        links = all_lines(ax)
        np.testing.assert_allclose([x - 0.45 for x, _ in links], [(s, j) for j, s in enumerate(perm)], atol=1e-12)


def test_rope_spectrum_panels_are_each_models_wavelengths_and_context():
    with drawn("rope_spectrum") as fig:
        panels = [ax for ax in fig.axes if ax.collections]
        assert len(panels) == len(ex.SPECTRUM_MODELS)
        for ax, key in zip(panels, ex.SPECTRUM_MODELS):
            cfg = configs.load(key)
            sp = rope.model_spectrum(cfg)
            idx = np.arange(sp.pairs)
            turning, not_turning = (np.asarray(c.get_offsets()) for c in ax.collections)
            np.testing.assert_allclose(turning, np.c_[idx[~sp.not_turning], sp.wavelengths[~sp.not_turning]])
            np.testing.assert_allclose(not_turning, np.c_[idx[sp.not_turning], sp.wavelengths[sp.not_turning]])
            [context_line] = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
            assert np.asarray(context_line.get_ydata(), float)[0] == sp.context == cfg["context"]
            title = ax.get_title(loc="left")
            assert title.startswith(cfg.name.split(" (")[0]) and f"{sp.count_not_turning}/{sp.pairs}" in title
            assert ("未核实" in title) == (cfg.field("rope_theta").tag == "U")
        assert legend_labels(fig) == ["转得满一圈", "转不满一圈"]


def test_every_lesson34_figure_has_a_content_test():
    tested = {"sin_clock", "sin_encoding_bars", "sin_heatmap_shift", "sin_dot_vs_distance", "sin_periods", "sin_shift_rotation",
              "rope_pair_turn", "rope_shift_scores", "rope_conventions", "rope_spectrum"}
    assert set(LESSON_FIGURES) == tested
