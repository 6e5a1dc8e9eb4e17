"""What lesson 6's and the M-RoPE page's figures show (issue 21 item 2), and that they fit a phone (issue 18).

Each figure is drawn as the build draws it (tests/figure_support.py) and its plotted
data and labels are read back and compared, in order, with what posenc computes and,
where a closed form or the configs' own values exist, with those. A reversed or
truncated series fails.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

from figures_src import _style
from figures_src import lesson6 as figures_lesson6
from figures_src.build import load_all
from posenc import configs, hybrid, mla, mrope
from posenc import examples as ex
from posenc.quantities import text as num
from tests.figure_support import bar_heights, drawn, legend_labels, tick_labels

LESSON6 = ("partial_rotary_dims", "layer_patterns", "mla_cache", "nope_counter")
LESSON6B = ("mrope_position_ids", "mrope_pair_axes")


def _rects(ax) -> list[matplotlib.patches.Rectangle]:
    return [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]


def _rows(ax) -> list[list[matplotlib.patches.Rectangle]]:
    """Rectangles grouped by their row (same y), top row first, each row left to right."""
    by_y: dict[float, list] = {}
    for r in _rects(ax):
        by_y.setdefault(round(r.get_y(), 6), []).append(r)
    return [sorted(row, key=lambda r: r.get_x()) for _y, row in sorted(by_y.items(), reverse=True)]


def _color(c) -> tuple:
    return tuple(np.round(matplotlib.colors.to_rgba(c)[:3], 4))


def _ax_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


# --- every figure of these two pages has its test here -----------------------------------------------------


def test_every_figure_of_lesson6_and_6b_is_registered_here():
    mine = {n for n, spec in load_all().items() if spec.module in ("figures_src.lesson6", "figures_src.lesson6b")}
    assert mine == set(LESSON6) | set(LESSON6B)


# --- lesson 6 ---------------------------------------------------------------------------------------------------


def test_partial_rotary_dims_draws_each_models_segments():
    # facts.md §1: Qwen3-8B turns all 128 dims; GLM-4.5 64 of 128; Qwen3-Next 64 of 256 (partial 0.25)
    expected_rotary = {"qwen3_8b": (128, 128), "glm45": (128, 64), "qwen3_next_80b_a3b": (256, 64)}
    with drawn("partial_rotary_dims") as fig:
        ax = fig.axes[0]
        rows = _rows(ax)
        assert len(rows) == len(ex.PARTIAL_MODELS)
        for row, key, title in zip(rows, ex.PARTIAL_MODELS, _ax_texts(ax)):
            d = hybrid.head_dims(configs.load(key))
            assert (d.width, d.rotary) == expected_rotary[key]
            widths = [r.get_width() for r in row]
            assert widths == [w for w in (d.turning, d.not_turning, d.plain) if w > 0], key
            assert row[0].get_x() == 0 and sum(widths) == d.width
            assert title.startswith(configs.load(key).name.split(" (")[0]) and f"{d.width} 维里 {d.rotary} 维旋转" in title
        assert tick_labels(ax, "x") == ["0", "64", "128", "192", "256"]
        assert legend_labels(fig) == ["旋转，上下文内转得满一圈", "旋转，转不满一圈", "不旋转（不带位置）"]


def _kind_of(rect, theme) -> str:
    """Back from a drawn cell to its layer kind: hatched = NoPE, else by face colour."""
    if rect.get_hatch():
        return "nope_global"
    face = _color(rect.get_facecolor())
    for kind, (_label, idx, _h) in figures_lesson6.PATTERN_STYLE.items():
        ref = theme.muted if idx is None else theme.series[idx]
        if kind != "nope_global" and face == _color(ref):
            return kind
    raise AssertionError(f"cell colour {face} is no layer kind")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_layer_patterns_draws_each_models_layers_in_order(theme):
    with drawn("layer_patterns", theme) as fig:
        ax = fig.axes[0]
        rows = _rows(ax)
        assert len(rows) == len(ex.LAYER_MODELS)
        for row, key in zip(rows, ex.LAYER_MODELS):
            drawn_kinds = [_kind_of(r, _style.THEMES[theme]) for r in row]
            assert drawn_kinds == hybrid.layer_pattern(configs.load(key), ex.LAYERS_DRAWN), key
        titles = _ax_texts(ax)
        assert [t.split(" · ")[0] for t in titles] == [configs.load(k).name.split(" (")[0] for k in ex.LAYER_MODELS]
        assert tick_labels(ax, "x") == [str(i + 1) for i in range(0, ex.LAYERS_DRAWN, 4)]
        assert len(legend_labels(fig)) == len(hybrid.PATTERN_KINDS)


def test_layer_pattern_titles_carry_the_counts():
    # Independent of posenc: every 4th of Llama 4 Scout's 48 layers and SmolLM3's 36 is NoPE (configs'
    # no_rope_layers lists); Command R7B's 32 layers are 3 sliding + 1 global (sliding_window_pattern 4).
    with drawn("layer_patterns") as fig:
        titles = dict(zip(ex.LAYER_MODELS, _ax_texts(fig.axes[0])))
    assert titles["llama4_scout"].endswith("48 层：36 层分块+RoPE，12 层全局 NoPE")
    assert titles["smollm3_3b"].endswith("36 层：27 层全局+RoPE，9 层全局 NoPE")
    assert titles["command_r7b"].endswith("32 层（未核实）：24 层局部+RoPE，8 层全局 NoPE")
    assert titles["qwen3_next_80b_a3b"].endswith("48 层：12 层全局+RoPE，36 层DeltaNet")
    assert titles["gemma3_27b"].endswith("每 6 层：1 层全局+RoPE，5 层局部+RoPE")
    assert titles["glm45"].endswith("每一层：都是全局+RoPE")


def test_mla_cache_bars_are_the_per_token_caches():
    # config_671B.json: kv_lora_rank 512, qk_rope_head_dim 64, 61 layers; 128 heads, k 128 + 64, v 128; bf16 = 2 bytes
    expected = [(512 + 64) * 61 * 2 / 1024, 128 * (192 + 128) * 61 * 2 / 1024]
    with drawn("mla_cache") as fig:
        ax = fig.axes[0]
        rows = _rows(ax)
        assert [r[0].get_width() for r in rows] == pytest.approx(expected)
        cmp = mla.for_model(configs.load(ex.MLA_MODEL))
        assert [r[0].get_width() for r in rows] == pytest.approx([cmp.bytes()["mla"] / 1024, cmp.bytes()["mha_full_keys"] / 1024])
        labels = _ax_texts(ax)
        assert labels[0].startswith("MLA") and labels[1] == f" {num('mla_cache_kib_deepseek_v3')} KiB"
        assert labels[2].startswith("多头注意力") and labels[3] == f" {num('mha_cache_kib_deepseek_v3')} KiB"


def test_nope_counter_bars_and_gap_curve():
    n = len(ex.SENTENCE)
    with drawn("nope_counter") as fig:
        top, bottom = fig.axes
        assert top.get_position().y0 > bottom.get_position().y1  # stacked, top above bottom
        heights = bar_heights(top)
        np.testing.assert_allclose(heights[:n], 1.0 / (np.arange(n) + 1))  # causal: 1/(t+1), in order
        np.testing.assert_allclose(heights[n:], np.full(n, 1.0 / n))  # no mask: 1/n
        assert tick_labels(top, "x") == [f"{c}\n{i}" for i, c in enumerate(ex.SENTENCE)]
        assert legend_labels(fig)[:2] == ["因果掩码", "无掩码"]
        x, y = (np.asarray(a, float) for a in bottom.get_lines()[0].get_data())
        assert x[0] == 1 and x[-1] == ex.COUNTER_CURVE_MAX and np.all(np.diff(x) > 0)
        np.testing.assert_allclose(y, 1 / (x + 1) - 1 / (x + 2), rtol=1e-12)
        marked = [ln.get_xdata()[0] for ln in bottom.get_lines()[1:]]
        assert marked == [ex.NEAR_POSITION, configs.load(ex.COUNTER_FAR_MODEL)["context"]]


# --- lesson 6b: M-RoPE ------------------------------------------------------------------------------------------


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
        cells = _ax_texts(ax)
        n = ids.shape[1]
        rows = [cells[r * (n + 1):(r + 1) * (n + 1)] for r in range(4)]
        assert [row[0] for row in rows] == ["token", "时间", "高度", "宽度"]
        assert rows[0][1:] == ["文"] * 3 + ["图"] * 6 + ["文"] * 2
        for r, axis_row in enumerate(by_hand, start=1):
            assert rows[r][1:] == [str(v) for v in axis_row]
        shaded = [r.get_x() for r in _rects(ax) if r.get_facecolor()[3] > 0 and r.get_y() < 0.5 and r.get_y() > -0.5]
        assert sorted(shaded) == list(range(3, 9))  # the image's columns


def test_mrope_pair_axes_rows():
    # Qwen2.5-VL mrope_section [16, 24, 24], contiguous; Qwen3-VL [24, 20, 20], pair j → j mod 3 while H, W last
    contiguous = [0] * 16 + [1] * 24 + [2] * 24
    interleaved = [j % 3 for j in range(60)] + [0] * 4
    with drawn("mrope_pair_axes", "dark") as fig:
        ax = fig.axes[0]
        theme = _style.THEMES["dark"]
        color_axis = {_color(theme.series[1]): 0, _color(theme.series[0]): 1, _color(theme.series[2]): 2}
        rows = _rows(ax)
        got = [[color_axis[_color(r.get_facecolor())] for r in row] for row in rows]
        assert got == [contiguous, interleaved]
        assert got[0] == mrope.model_pair_axes(configs.load(ex.MROPE_MODEL)).tolist()
        assert got[1] == mrope.model_pair_axes(configs.load(ex.MROPE_INTERLEAVED_MODEL)).tolist()
        assert tick_labels(ax, "x") == ["0", "16", "32", "48", "63"]
        assert legend_labels(fig) == ["跟时间编号", "跟高度编号", "跟宽度编号"]
        titles = _ax_texts(ax)
        assert "[16, 24, 24]" in titles[0] and "连续" in titles[0] and "[24, 20, 20]" in titles[1] and "交错" in titles[1]


def test_alt_texts_quote_the_drawn_numbers():
    specs = load_all()
    assert "0、1、2、3、3、3、3、3、3、6、7" in specs["mrope_position_ids"].alt_text()
    alt = specs["layer_patterns"].alt_text()
    assert "Llama 4 Scout · 48 层" in alt
    assert num("mla_cache_ratio_deepseek_v3") in specs["mla_cache"].alt_text()
