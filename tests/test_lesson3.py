"""Lesson 3 (sinusoidal position encoding): the numbers the page quotes, its torch walk-through snippets, and every
figure drawn and compared with what posenc computes.

What the tests compare against, part by part:

- Lesson 3: posenc.clock, the torch walk-through snippets, and the numbers the page quotes. References are written
  independently of the code under test: the §3.5 formula term by term with math.sin/math.cos, brute-force pairwise
  loops, and closed forms derived on paper (Vaswani et al. 2017 §3.4–§3.5).
- Lessons 3 and 4: every figure is drawn and what it plots is compared with what posenc computes for it. Each test
  reads the drawn Figure (tests/figure_support.py): plotted data in order, tick and legend labels, titles and the
  numbers printed on the figure. A reversed, truncated or shifted series, a mislabelled panel or a number that
  disagrees with the registered quantity fails here. The phone rule (figures_src/_style.py) is checked for every
  figure in tests/test_figure_phone.py and tests/test_figures.py.
"""

from __future__ import annotations

import importlib.util
import math
import os
from pathlib import Path
import re
import subprocess
import sys

import numpy as np
import pytest
import yaml

from figure_support import all_lines, bar_heights, drawn, legend_labels, registered, tick_labels
from posenc import clock
from posenc import clock, sinusoidal
from posenc import examples as ex
from posenc import quantities
from posenc import quantities as numbers
from posenc import sinusoidal as S


ROOT = Path(__file__).resolve().parent.parent


SNIPPETS = ROOT / "docs" / "snippets"


def pe_loop(p, d, base=10_000.0):
    """PE(p) written out from §3.5: sin on even dims, cos on odd dims, ω_i = base^(−2i/d)."""
    return np.array([(math.sin if j % 2 == 0 else math.cos)(p / base ** (2 * (j // 2) / d)) for j in range(d)])


def _load_snippet(name):
    spec = importlib.util.spec_from_file_location(name, SNIPPETS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # the printing part sits under __main__ and does not run here
    return mod


def _run_snippet(name):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(SNIPPETS / f"{name}.py")], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("max_len, d", [(10, 8), (200, 16), (ex.WALKTHROUGH_MAX_LEN, ex.WALKTHROUGH_DIM)])
def test_snippet_torch_table_equals_posenc_table(max_len, d):
    mod = _load_snippet("lesson3_table")
    t = mod.sinusoidal_table(max_len, d).double().numpy()
    # float32: the angle p·ω is rounded to about p·6e-8 radians, so allow that much (p < 5,000 → < 1e-3)
    np.testing.assert_allclose(t, S.table(max_len, d), atol=1e-3)
    m = min(max_len, 50)
    np.testing.assert_allclose(t[:m], S.table(m, d), atol=1e-5)
    np.testing.assert_allclose(t[7], pe_loop(7, d), atol=1e-6)


def test_cat_fish_snippet_shows_same_rows_without_positions_and_different_with():
    lines = _run_snippet("lesson3_cat_fish").strip().splitlines()
    assert len(lines) == 2
    no_pos, with_pos = lines
    assert "差值: 0.0 " in no_pos and no_pos.endswith("True")
    diff = float(with_pos.split("差值:")[1].split("|")[0])
    assert diff > 0.1 and with_pos.endswith("False")


def test_bounded_snippet_reports_the_tables_true_extremes_and_length():
    out = _run_snippet("lesson3_bounded").splitlines()
    d = ex.WALKTHROUGH_DIM
    assert len(out) == 3
    for line, max_len in zip(out[:2], (10, ex.WALKTHROUGH_MAX_LEN)):
        assert f"{max_len:,}" in line
        ref = np.array([pe_loop(p, d) for p in range(max_len)])
        # printed to 4 decimals from a float32 table: angles p·ω carry up to 2·2⁻²⁴·p of rounding
        tol = 5e-5 + 2 * 2.0**-24 * max_len
        lo = float(line.split("最小值")[1].split()[0])
        hi = float(line.split("最大值")[1].split()[0])
        assert abs(lo - ref.min()) <= tol and abs(hi - ref.max()) <= tol, line
        shortest, longest = (float(x) for x in line.split("向量长度")[1].split("~"))
        # every PE(p) has length √(d/2): sin² + cos² = 1 in each of the d/2 pairs
        assert shortest == longest == pytest.approx(math.sqrt(d / 2), abs=5e-5)
    assert f"{math.sqrt(d / 2):.4f}" in out[-1]


def v(name):
    return numbers.value(name)


def test_lookup_marks_follow_the_gpt2_config_file():
    raw = yaml.safe_load((ROOT / "posenc" / "data" / "models.yaml").read_text(encoding="utf-8"))
    rows = raw["gpt2"]["fields"]["context"]["value"]
    for name, p in [("first", 0), ("second", 1), ("last", rows - 1), ("context", rows), ("far", ex.FAR_POSITION)]:
        for lang in ("zh", "en"):  # a PerLanguage value: the mark opens the words in each language
            assert numbers.text(f"lookup_mark_{name}", lang).startswith("✓" if p < rows else "✗"), (name, lang)


def test_nearest_pair_in_the_far_range_is_adjacent_positions():
    # brute force on a range that fits in memory; the closed form covers the rest
    n = 2_000
    pe = S.table(n, ex.SIN_DIM)
    sq = (pe**2).sum(1)
    dist2 = sq[:, None] + sq[None, :] - 2 * pe @ pe.T
    np.fill_diagonal(dist2, np.inf)
    a, b = np.unravel_index(np.argmin(dist2), dist2.shape)
    assert abs(a - b) == v("sin_nearest_k") == 1
    assert math.sqrt(dist2[a, b]) == pytest.approx(v("sin_nearest_distance"), abs=1e-9)
    assert v("sin_nearest_distance") == pytest.approx(np.linalg.norm(pe_loop(1, 16) - pe_loop(0, 16)))


def test_dot_curve_numbers_match_a_direct_loop():
    dots = [pe_loop(50, 16) @ pe_loop(50 + k, 16) for k in range(ex.MAX_DISTANCE + 1)]
    first_rise = next(k for k in range(len(dots) - 1) if dots[k + 1] > dots[k])
    assert v("sin_dot_first_rise_k") == first_rise
    assert v("sin_dot_at_first_rise") == pytest.approx(dots[first_rise], abs=1e-9)
    assert v("sin_dot_after_first_rise") > v("sin_dot_at_first_rise")
    assert v("sin_dot_min_k") == int(np.argmin(dots))
    assert v("sin_dot_k1") == pytest.approx(dots[1], abs=1e-9)


def test_exercise_dot_product_matches_the_two_vectors():
    far = yaml.safe_load((ROOT / "posenc" / "data" / "models.yaml").read_text(encoding="utf-8"))["gpt2"]["fields"]["context"]["value"]
    direct = pe_loop(ex.NEAR_POSITION, 16) @ pe_loop(far, 16)
    assert v("ex_dot_k") == far - ex.NEAR_POSITION
    assert v("ex_dot_value") == pytest.approx(direct, abs=1e-9)
    # every sinusoidal vector has squared length d/2 (one sin² + cos² per pair), so cos θ = dot / (d/2)
    assert v("ex_dot_angle") == pytest.approx(math.degrees(math.acos(direct / 8)), abs=1e-9)
    assert 90 < v("ex_dot_angle") < 110  # the lesson: slightly more than a right angle, far from opposite


def test_init_scale_numbers_follow_from_the_definitions():
    rms = 1 / math.sqrt(2)
    assert v("ex_paper_scaled_ratio") == pytest.approx(ex.PROJECT_EMBED_STD * math.sqrt(S.PAPER_DIM) / rms)
    assert v("sin_paper_slowest_shortfall") == pytest.approx(1 - 10_000 ** (-2 / S.PAPER_DIM))


def test_clock_numbers():
    assert v("sin_fastest_step_deg") == pytest.approx(180 / math.pi)
    assert v("sin_pe_norm") == pytest.approx(math.sqrt(ex.SIN_DIM / 2))
    lams = [2 * math.pi * 10_000 ** (2 * i / ex.PROJECT_D_MODEL) for i in range(ex.PROJECT_D_MODEL // 2)]
    full = sum(1 for lam in lams if lam <= ex.PROJECT_TRAIN_LEN)
    assert v("project_sin_pairs_total") == len(lams)
    assert v("project_sin_pairs_not_turning") == len(lams) - full
    assert v("project_sin_slowest_turn") == pytest.approx(ex.PROJECT_TRAIN_LEN / lams[-1])


def test_rotation_block_numbers_turn_pair_zero_forward():
    theta = ex.SHIFT * 1.0  # ω_0 = 1
    c, s = v("sin_block_cos"), v("sin_block_sin")
    p = 12
    x = np.array([math.sin(p), math.cos(p)])
    turned = np.array([[c, s], [-s, c]]) @ x
    np.testing.assert_allclose(turned, [math.sin(p + theta), math.cos(p + theta)], atol=1e-12)


def test_relative_example_gap_survives_a_shift():
    assert v("rel_b_pos") - v("rel_a_pos") == v("rel_b_pos_shifted") - v("rel_a_pos_shifted") == v("rel_gap")
    assert ex.SENTENCE[v("rel_a_pos") : v("rel_a_pos") + 2] == "小明"
    assert ex.SENTENCE[v("rel_b_pos") : v("rel_b_pos") + 2] == "小王"


def test_the_heatmap_far_start_is_still_rounding_but_larger_than_a_small_shift():
    # the angles p·ω_i near the far position are large, so their float64 rounding is too: the page says the
    # reading grows there, and it must still be rounding (far below the table's entries, of order d/2)
    far, near = v("sin_far_shift_max_diff"), v("sin_shift_max_diff")
    assert far < 1e-9
    assert far > 100 * near


def test_projection_breaks_what_the_bare_dot_product_keeps():
    assert v("sin_shift_max_diff") < 1e-9
    assert v("sin_pos_score_shift_change") > 0.1 * v("sin_pos_score_max_abs")


# --- figures -------------------------------------------------------------------------------------------------------


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


FIGURES = ('sin_clock', 'sin_encoding_bars', 'sin_heatmap_shift', 'sin_dot_vs_distance', 'sin_periods', 'sin_shift_rotation')  # each has its content test above


def test_every_figure_of_the_lesson_has_a_content_test_here():
    assert registered("figures_src.lesson3") == sorted(FIGURES)


def test_learned_against_sinusoidal_scaled_is_read_from_the_committed_runs():
    """Lesson 3 sets the paper's Table 3 (learned vs sinusoidal × √d_model) beside the same pair in our run."""
    import json

    from posenc import quantities as q

    runs = json.loads((Path(__file__).resolve().parents[1] / "posenc/experiment/results/full.json").read_text())["runs"]
    by_seed = {m: {r["seed"]: r["val_loss_128"] for r in runs[m]} for m in ("learned", "sinusoidal_scaled")}
    diffs = np.array([by_seed["learned"][s] - by_seed["sinusoidal_scaled"][s] for s in sorted(by_seed["learned"])])
    assert len(diffs) == 16 and (diffs > 0).all()  # the learned table is behind on every seed
    half = 2.131449545559323 * diffs.std(ddof=1) / math.sqrt(len(diffs))  # t quantile, 15 degrees of freedom
    assert q.text("exp_diff_learned_sin_scaled_in") == f"{diffs.mean():+.3f} ± {half:.3f}"
    assert q.value("exp_ppl_learned_sin_scaled_in") == pytest.approx(math.expm1(diffs.mean()))
