"""Lesson 6b (M-RoPE): the numbers the page quotes and every figure.

What the tests compare against, part by part:

- The M-RoPE page (lesson 6b): posenc.mrope.axis_frequencies, the score's dependence on ID differences only, and the
  numbers the page quotes. References: the worked example by hand (the rule of transformers' get_rope_index, checked
  against it in tests/test_mrope.py), the configs' mrope_section and θ typed here, and hand-built rotations.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from figures_src import _style
from posenc import configs, mrope
from posenc import examples as ex
from posenc import quantities as q
from figures_src.build import load_all
from figure_support import ax_texts, drawn, legend_labels, rect_rows, rectangles, registered, rgb, tick_labels


def test_example_numbers():
    assert q.text("mrope_ex_ids_temporal") == "0、1、2、3、3、3、3、3、3、6、7"
    assert q.text("mrope_ex_ids_height") == "0、1、2、3、3、3、4、4、4、6、7"
    assert q.text("mrope_ex_ids_width") == "0、1、2、3、4、5、3、4、5、6、7"
    assert (q.value("mrope_ex_grid_h"), q.value("mrope_ex_grid_w"), q.value("mrope_ex_image_tokens")) == (2, 3, 6)
    assert (q.value("mrope_ex_tokens"), q.value("mrope_ex_image_start"), q.value("mrope_ex_after_start")) == (11, 3, 6)
    assert (q.value("mrope_ex_max_id"), q.value("mrope_ex_next_id"), q.value("mrope_ex_delta")) == (7, 8, -3)
    # a 32 × 32-patch image: 16 × 16 tokens, the text after it at ID max(16, 16) = 16
    assert (q.value("mrope_big_tokens"), q.value("mrope_big_ids")) == (256, 16)
    # exercise: a second copy of the image after the example starts at 8 and reaches 8 + 2 on the width axis
    assert (q.value("ex_mrope_second_text"), q.value("ex_mrope_second_max")) == (8, 10)


def test_section_numbers():
    # Qwen2.5-VL [16, 24, 24] contiguous, θ 1e6; Qwen3-VL [24, 20, 20] interleaved, θ 5e6 (both θ unverified)
    assert [q.value(f"mrope_pairs_{a}_qwen25_vl_7b") for a in mrope.AXES] == [16, 24, 24]
    assert [q.value(f"mrope_pairs_{a}_qwen3_vl_235b_a22b") for a in mrope.AXES] == [24, 20, 20]
    assert q.value("mrope_first_width_pair_qwen25_vl_7b") == 40 and q.value("mrope_first_width_pair_qwen3_vl_235b_a22b") == 2
    assert q.value("mrope_pairs_total") == 64
    deg = lambda theta, j: math.degrees(theta ** (-2 * j / 128))  # noqa: E731  pair j's angle per ID step
    assert q.value("mrope_fastest_deg_height_qwen25_vl_7b") == pytest.approx(deg(1e6, 16))
    assert q.value("mrope_fastest_deg_width_qwen25_vl_7b") == pytest.approx(deg(1e6, 40))
    assert q.value("mrope_fastest_deg_height_qwen3_vl_235b_a22b") == pytest.approx(deg(5e6, 1))
    assert q.value("mrope_fastest_deg_width_qwen3_vl_235b_a22b") == pytest.approx(deg(5e6, 2))


# --- figures -------------------------------------------------------------------------------------------------------


def test_mrope_position_ids_table_matches_the_worked_example():
    # 3 text tokens, a 4 × 6-patch image (2 × 3 tokens after 2 × 2 merging), 2 text tokens: by hand
    # (the same rule transformers' get_rope_index follows, tests/test_mrope.py)
    by_hand = [[0, 1, 2, 3, 3, 3, 3, 3, 3, 6, 7],
               [0, 1, 2, 3, 3, 3, 4, 4, 4, 6, 7],
               [0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7]]
    ids = mrope.model_position_ids(configs.load(ex.MROPE_MODEL), ex.mrope_segments())
    np.testing.assert_array_equal(ids, by_hand)
    with drawn("mrope_position_ids") as fig:
        ax = fig.axes[0]
        cells = ax_texts(ax)
        n = ids.shape[1]
        rows = [cells[r * (n + 1):(r + 1) * (n + 1)] for r in range(4)]
        assert [row[0] for row in rows] == ["token", "时间", "高度", "宽度"]
        assert rows[0][1:] == ["文"] * 3 + ["图"] * 6 + ["文"] * 2
        for r, axis_row in enumerate(by_hand, start=1):
            assert rows[r][1:] == [str(v) for v in axis_row]
        shaded = [r.get_x() for r in rectangles(ax) if r.get_facecolor()[3] > 0 and r.get_y() < 0.5 and r.get_y() > -0.5]
        assert sorted(shaded) == list(range(3, 9))  # the image's columns


def test_mrope_pair_axes_rows():
    # Qwen2.5-VL mrope_section [16, 24, 24], contiguous; Qwen3-VL [24, 20, 20], pair j → j mod 3 while H, W last
    contiguous = [0] * 16 + [1] * 24 + [2] * 24
    interleaved = [j % 3 for j in range(60)] + [0] * 4
    with drawn("mrope_pair_axes", "dark") as fig:
        ax = fig.axes[0]
        theme = _style.THEMES["dark"]
        color_axis = {rgb(theme.series[1]): 0, rgb(theme.series[0]): 1, rgb(theme.series[2]): 2}
        rows = rect_rows(ax)
        got = [[color_axis[rgb(r.get_facecolor())] for r in row] for row in rows]
        assert got == [contiguous, interleaved]
        assert got[0] == mrope.model_pair_axes(configs.load(ex.MROPE_MODEL)).tolist()
        assert got[1] == mrope.model_pair_axes(configs.load(ex.MROPE_INTERLEAVED_MODEL)).tolist()
        assert tick_labels(ax, "x") == ["0", "16", "32", "48", "63"]
        assert legend_labels(fig) == ["跟时间编号", "跟高度编号", "跟宽度编号"]
        titles = ax_texts(ax)
        assert "[16, 24, 24]" in titles[0] and "连续" in titles[0] and "[24, 20, 20]" in titles[1] and "交错" in titles[1]

FIGURES = ("mrope_position_ids", "mrope_pair_axes")  # each has its content test above


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson6b") == sorted(FIGURES)


def test_alt_texts_quote_the_drawn_numbers():
    assert "0、1、2、3、3、3、3、3、3、6、7" in load_all()["mrope_position_ids"].alt_text()
