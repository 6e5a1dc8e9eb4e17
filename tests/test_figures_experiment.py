"""What the training-experiment figures show, and where their legends sit.

Each figure is drawn as the build draws it (tests/figure_support.py) and every labelled line is read
back and compared, in order and point by point, with the results as posenc.experiment.claims returns
them: raw per-seed arrays averaged here (not the figure's own accessor) where the figure does not
smooth, posenc.experiment.figures' smoothed curves where it does (its smoothing is tested in
tests/test_experiment.py). A reversed, truncated or swapped series fails. Legends use the labels
module's names; each method keeps one colour in every figure; alt texts quote the checked sentences.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

from figures_src import _style
from figures_src import experiment as expfig
from figures_src.build import load_all
from posenc.experiment import claims
from posenc.experiment import figures as F
from posenc.experiment.config import EXTENSIONS, METHODS
from posenc.experiment import course
from posenc.experiment.course import EXTENSION_LABELS, METHOD_LABELS, ROPE_SCALING_LABELS
from posenc.formatting import count_words
from figure_support import all_lines, drawn, legend_labels, lines

FIGURES = ("exp_training_curves", "exp_learning_curves", "exp_position_loss", "exp_alibi_position_loss", "exp_rope_position_loss",
           "exp_rope_scaling", "exp_extension_recovery", "exp_extension_positions", "exp_nope_vs_rope", "exp_partial_rope",
           "exp_all_position_loss", "exp_paired_differences")

# The claims each figure's alt text quotes (the brief of each figure: what it shows).
QUOTED = {
    "exp_training_curves": ("sin_worse_in_distribution", "sin_stalls_on_most_seeds", "sqrt_d_learns_every_seed"),
    "exp_learning_curves": ("sin_slightly_above_unigram_half_way", "others_below_unigram_half_way"),
    "exp_position_loss": ("sin_scaled_rises", "learned_rises_less", "nope_rises_slightly_past_train_len"),
    "exp_alibi_position_loss": ("alibi_falls_slightly_past_train_len", "alibi_beats_additive_beyond", "alibi_beats_nope_in_distribution"),
    "exp_rope_position_loss": ("rope_alibi_close_in_distribution", "rope_rises", "alibi_beats_rope_beyond"),
    "exp_rope_scaling": ("pi_needs_finetuning", "ntk_costs_a_little_in_distribution", "ntk_yarn_help_rope_beyond", "yarn_rise_within_same_band"),
    "exp_extension_recovery": ("ext_big_base_change_hurts_first", "ext_ntk_slightly_below_yarn_within_pretraining", "ext_abf_later_than_ntk_and_yarn", "ext_pi_not_recovered"),
    "exp_extension_positions": ("ext_pi_worst_in_new_range", "ext_control_ties_ntk_slightly_beats_yarn", "ext_yarn_pi_rise_past_new_length",
                                "ext_others_rise_less_than_yarn"),
    "exp_nope_vs_rope": ("rope_beats_nope_in_distribution", "nope_beats_rope_beyond", "yarn_rope_beats_nope_beyond"),
    "exp_partial_rope": ("partial_within_same_band_of_rope", "partial_beats_nope", "partial_rises_beyond"),
    "exp_all_position_loss": ("top_three_close_in_distribution", "top_three_beat_the_rest", "all_but_sin_beat_unigram"),
    "exp_paired_differences": ("top_three_close_in_distribution", "top_three_beat_the_rest"),
}


def _same(actual: np.ndarray, expected: np.ndarray, what: str):
    """Equal point by point; and the expected series is not its own reverse, so order is really checked."""
    expected = np.asarray(expected, float)
    assert actual.shape == expected.shape, f"{what}: {actual.shape} points drawn, {expected.shape} expected"
    np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-12, err_msg=what)
    assert not np.allclose(expected, expected[::-1]), f"{what}: the series reads the same reversed; the test would not see it"


def _curve_lines(ax, curves, labels=None):
    """The labelled lines of ``ax`` that are curves, in order, equal ``curves`` (x and mean)."""
    drawn_lines = lines(ax)
    want = [c.label for c in curves] if labels is None else list(labels)
    got = [label for label in drawn_lines if label in want]
    assert got == want, f"lines drawn {got}, expected {want}"
    for label, c in zip(want, curves):
        x, y = drawn_lines[label]
        _same(x, c.x, f"{label} x")
        _same(y, c.mean, f"{label} y")


def _seed_mean(rows: np.ndarray) -> np.ndarray:
    return np.asarray(rows, float).mean(axis=0)


def _colour(line) -> tuple:
    return tuple(np.round(matplotlib.colors.to_rgba(line.get_color()), 4))


def _hline_y(ax, label: str) -> float:
    x, y = lines(ax)[label]
    assert y[0] == y[-1], f"{label} is not horizontal"
    return float(y[0])


def _vlines_x(ax) -> list[float]:
    return [float(x[0]) for x, _ in all_lines(ax) if len(x) == 2 and x[0] == x[1]]


# --- registration, phone rule, alt texts ----------------------------------------------------------------------


def test_the_module_registers_exactly_these_figures():
    assert sorted(n for n, s in load_all().items() if s.module == "figures_src.experiment") == sorted(FIGURES)


@pytest.mark.parametrize("name", FIGURES)
def test_every_panel_has_a_legend_that_sits_outside_the_data(name):
    # text size and stacked panels: tests/test_figure_phone.py, for every figure; the layout is the same in both themes
    with drawn(name) as fig:
        axes = [ax for ax in fig.axes if ax.get_visible()]
        for ax in axes:  # legends sit below their axes, never over the data
            legends = [leg for leg in (ax.get_legend(), *fig.legends) if leg is not None]
            assert legends, f"{name}: no legend"
        renderer = fig._get_renderer()
        for leg in [ax.get_legend() for ax in axes if ax.get_legend()] + list(fig.legends):
            box = leg.get_window_extent(renderer)
            for ax in axes:
                inside = ax.get_window_extent(renderer)
                assert box.y1 <= inside.y0 + 1 or box.y0 >= inside.y1 - 1 or box.x0 >= inside.x1 or box.x1 <= inside.x0, (
                    f"{name}: a legend overlaps an axes")


@pytest.mark.parametrize("name", FIGURES)
def test_alt_text_quotes_the_checked_sentences(name):
    alt = load_all()[name].alt_text()
    for claim in QUOTED[name]:
        assert claims.check(claim) in alt, f"{name}: alt text lacks claim {claim!r}"
    assert "〔" not in alt
    from posenc.experiment import frozen

    for failed in frozen.REWORDED:  # a sentence that failed the replication is quoted nowhere, its rewording instead
        assert claims.check(failed) not in alt, f"{name}: alt text quotes {failed!r}, which failed the replication"


@pytest.mark.parametrize("name, methods", [("exp_training_curves", expfig.LESSON3_METHODS), ("exp_all_position_loss", METHODS)])
def test_figures_count_their_methods_right(name, methods):
    spec = load_all()[name]
    text = spec.alt_text() + spec.caption_text()
    for claim in QUOTED[name]:  # the checked sentences count in their own words ("其余六组")
        text = text.replace(claims.check(claim), "")
    assert f"{count_words(len(methods))['zh']}组" in text, f"{name}: alt or caption does not say how many methods"
    wrong = [f"{count_words(n)['zh']}组" for n in range(2, 11) if n != len(methods) and f"{count_words(n)['zh']}组" in text]
    assert not wrong, f"{name}: a wrong count of methods in alt or caption: {wrong}"


@pytest.mark.parametrize("name, lesson", [("exp_training_curves", "03-sinusoidal.md"), ("exp_learning_curves", "03-sinusoidal.md"),
                                          ("exp_position_loss", "03-sinusoidal.md"), ("exp_alibi_position_loss", "03b-relative-bias.md"),
                                          ("exp_rope_position_loss", "04-rope.md")])
def test_a_lessons_figures_show_only_methods_taught_by_then(name, lesson):
    # A learner meets ALiBi in 3b, RoPE in 4 and partial RoPE in 6 (each record's lesson): an earlier figure may not draw them.
    later = [m for m in METHODS if m not in course.taught_by(lesson)]
    assert later, "every method is taught by then: the test would check nothing"
    with drawn(name) as fig:
        labels = set(legend_labels(fig)) | {t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()}
    assert not labels & {METHOD_LABELS[m] for m in later}, f"{name} draws a method taught after lesson {lesson}"


@pytest.mark.parametrize("name", ["exp_extension_recovery", "exp_extension_positions"])
def test_extension_figures_count_the_variants(name):
    assert f"{count_words(len(EXTENSIONS))['zh']}种" in load_all()[name].alt_text()


# --- one colour per method, one per variant -----------------------------------------------------------------------


def test_each_method_has_its_own_colour_but_the_sqrt_d_control():
    assert set(expfig.METHOD_SERIES) == set(METHODS)
    idx = {m: expfig.METHOD_SERIES[m] for m in METHODS if m != "sinusoidal_scaled"}
    assert len(set(idx.values())) == len(idx), idx
    assert expfig.METHOD_SERIES["sinusoidal_scaled"] == expfig.METHOD_SERIES["sinusoidal"]
    assert max(expfig.METHOD_SERIES.values()) < len(_style.THEMES["light"].series)
    assert set(expfig.VARIANT_SERIES) == set(EXTENSIONS)
    assert len(set(expfig.VARIANT_SERIES.values())) == len(EXTENSIONS)
    assert expfig.VARIANT_SERIES["rope"] == expfig.METHOD_SERIES["rope"]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_method_or_variant_has_the_same_colour_in_every_figure(theme):
    by_label: dict[str, set] = {}
    for name in FIGURES:
        with drawn(name, theme) as fig:
            for ax in fig.axes:
                for ln in ax.get_lines():
                    by_label.setdefault(ln.get_label(), set()).add(_colour(ln))
    series = _style.THEMES[theme].series
    for m in METHODS:
        assert by_label[METHOD_LABELS[m]] == {_colour(matplotlib.lines.Line2D([], [], color=series[expfig.METHOD_SERIES[m]]))}, m
    for v in EXTENSIONS:
        want = {_colour(matplotlib.lines.Line2D([], [], color=series[expfig.VARIANT_SERIES[v]]))}
        assert by_label[EXTENSION_LABELS[v]] == want, v
        if v in ROPE_SCALING_LABELS and v != "rope":
            assert by_label[ROPE_SCALING_LABELS[v]] == want, v


# --- lesson 3 ------------------------------------------------------------------------------------------------------


def test_training_curves():
    methods = expfig.LESSON3_METHODS
    curves = F.training_curves(methods=methods, smooth=expfig.TRAIN_SMOOTH)
    assert [c.key for c in curves] == list(methods)
    with drawn("exp_training_curves") as fig:
        (ax,) = fig.axes
        _curve_lines(ax, curves)
        assert _hline_y(ax, expfig.T("unigram")) == pytest.approx(claims.unigram_loss())
        # the end-of-training validation points: one per method, its mean over seeds of the 0–127 loss
        points = [(ln.get_xdata(), ln.get_ydata()) for ln in ax.get_lines()
                  if ln.get_marker() == "o" and len(ln.get_xdata()) == 1]
        assert len(points) == len(methods)
        for (x, y), m in zip(points, methods):
            assert x[0] > int(claims.config()["steps"]) - 1
            assert y[0] == pytest.approx(_seed_mean(claims.position_losses(m))[: claims.TRAIN_LEN].mean())
        assert legend_labels(fig) == [METHOD_LABELS[m] for m in methods] + [expfig.T("validation"), expfig.T("unigram")]


def test_learning_curves():
    with drawn("exp_learning_curves") as fig:
        (ax,) = fig.axes
        drawn_lines = lines(ax)
        methods = expfig.LESSON3_METHODS
        assert [k for k in drawn_lines if k in METHOD_LABELS.values()] == [METHOD_LABELS[m] for m in methods]
        steps = claims.curve_steps()
        for m in methods:
            x, y = drawn_lines[METHOD_LABELS[m]]
            _same(x, steps, m)
            _same(y, _seed_mean(claims.val_curves(m)), m)
        assert _hline_y(ax, expfig.T("unigram")) == pytest.approx(claims.unigram_loss())
        assert _vlines_x(ax) == [claims.half_way()]
        assert legend_labels(fig) == [METHOD_LABELS[m] for m in methods] + [expfig.T("unigram")]


def test_lesson3_position_loss():
    methods = expfig.LESSON3_METHODS
    with drawn("exp_position_loss") as fig:
        (ax,) = fig.axes
        _curve_lines(ax, F.position_curves(methods=methods, smooth=expfig.POSITION_SMOOTH))
        assert _vlines_x(ax) == [claims.TRAIN_LEN]
        assert _hline_y(ax, expfig.T("unigram")) == pytest.approx(claims.unigram_loss())
        assert legend_labels(fig) == [METHOD_LABELS[m] for m in methods] + [expfig.T("unigram")]


def test_all_position_loss_two_panels_cover_every_method():
    assert {m for _, ms in expfig.POSITION_PANELS for m in ms} == set(METHODS)
    with drawn("exp_all_position_loss") as fig:
        assert len(fig.axes) == len(expfig.POSITION_PANELS)
        top, bottom = fig.axes
        assert top.get_position().y0 > bottom.get_position().y1  # stacked, top first
        assert top.get_ylim() == bottom.get_ylim()  # one scale, so the panels compare
        for ax, (title, methods) in zip(fig.axes, expfig.POSITION_PANELS):
            assert ax.get_title(loc="left") == expfig.T(title)
            _curve_lines(ax, F.position_curves(methods=methods, smooth=expfig.POSITION_SMOOTH))
            assert _vlines_x(ax) == [claims.TRAIN_LEN]
            assert _hline_y(ax, expfig.T("unigram")) == pytest.approx(claims.unigram_loss())
            assert ax.get_legend() is not None
            assert [t.get_text() for t in ax.get_legend().get_texts()] == [METHOD_LABELS[m] for m in methods] + [expfig.T("unigram")]


def test_position_curves_are_the_seed_means_of_the_results():
    """The smoothed accessor the position figures draw, unsmoothed, is the plain mean over seeds of the results."""
    for c in F.position_curves(smooth=1):
        _same(c.mean, _seed_mean(claims.position_losses(c.key)), c.key)


# --- the results page: every seed of every paired difference ------------------------------------------------------


def test_paired_differences_draw_every_seed_and_its_interval():
    with drawn("exp_paired_differences") as fig:
        assert len(fig.axes) == len(expfig.PAIRED_PANELS)
        for ax, (title, reference, methods, span) in zip(fig.axes, expfig.PAIRED_PANELS):
            assert ax.get_title(loc="left") == expfig.T(title)
            rows = F.paired_differences(reference, methods, span)
            dots = [ln for ln in ax.get_lines() if ln.get_marker() == "o" and len(ln.get_xdata())]  # not the legend's sample
            assert len(dots) == len(rows)
            for ln, row in zip(dots, rows):
                per_seed = SPANS_FOR_TEST[span](row.key) - SPANS_FOR_TEST[span](reference)
                _same(np.asarray(ln.get_xdata()), per_seed, f"{row.key} − {reference} per seed")
                assert row.estimate.mean == pytest.approx(per_seed.mean())
            assert [t.get_text() for t in ax.get_yticklabels()] == [METHOD_LABELS[m] for m in reversed(methods)]
            # the band of "about the same" and the lines of "clearly", at the margins stats.py defines
            (band,) = [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle) and p.get_width() < 1]
            assert (band.get_x(), band.get_x() + band.get_width()) == pytest.approx((-F.margins()["same"], F.margins()["same"]))
            assert sorted(_vlines_x(ax)) == pytest.approx([-F.margins()["clearly"], 0.0, F.margins()["clearly"]])


SPANS_FOR_TEST = {"in": lambda m: np.array([np.mean(u["position_loss"][:128]) for u in claims.results()["runs"][m]]),
                  "beyond": lambda m: np.array([np.mean(u["position_loss"][128:]) for u in claims.results()["runs"][m]])}


# --- lesson 3b, 4, 6 ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, methods", [("exp_alibi_position_loss", ("nope", "learned", "sinusoidal_scaled", "alibi")),
                                           ("exp_rope_position_loss", ("nope", "sinusoidal_scaled", "alibi", "rope")),
                                           ("exp_partial_rope", ("nope", "rope", "rope_partial"))])
def test_method_position_figures(name, methods):
    with drawn(name) as fig:
        (ax,) = fig.axes
        _curve_lines(ax, F.position_curves(methods=methods, smooth=expfig.POSITION_SMOOTH))
        assert _vlines_x(ax) == [claims.TRAIN_LEN]
        assert ax.get_xlim() == (0, int(claims.config()["eval_len"]) - 1)
        assert legend_labels(fig) == [METHOD_LABELS[m] for m in methods]


def test_nope_vs_rope():
    curves = F.position_curves(methods=("nope", "rope"), smooth=expfig.POSITION_SMOOTH)
    curves += F.scaling_curves(names=("yarn",), smooth=expfig.POSITION_SMOOTH)
    labels = [METHOD_LABELS["nope"], METHOD_LABELS["rope"], expfig.T("yarn_at_evaluation")]
    with drawn("exp_nope_vs_rope") as fig:
        (ax,) = fig.axes
        _curve_lines(ax, curves, labels)
        assert _vlines_x(ax) == [claims.TRAIN_LEN]
        assert legend_labels(fig) == labels


# --- lesson 5 -----------------------------------------------------------------------------------------------------


def test_rope_scaling():
    names = ("rope", *claims.SCALINGS)
    (nope,) = F.position_curves(methods=("nope",), smooth=expfig.POSITION_SMOOTH)
    curves = [nope, *F.scaling_curves(names=names, smooth=expfig.POSITION_SMOOTH)]
    with drawn("exp_rope_scaling") as fig:
        (ax,) = fig.axes
        _curve_lines(ax, curves)
        assert _vlines_x(ax) == [claims.TRAIN_LEN]
        assert legend_labels(fig) == [METHOD_LABELS["nope"]] + [ROPE_SCALING_LABELS[n] for n in names]


def test_recovered_band_is_the_pretrained_level_plus_minus_the_margin():
    low, level, high = F.recovered_band()
    # the pre-trained level: the RoPE model's last learning-curve point, mean over seeds
    assert level == pytest.approx(_seed_mean(claims.val_curves("rope"))[-1])
    assert (level - low, high - level) == pytest.approx((claims.RECOVERED, claims.RECOVERED))


def test_extension_recovery():
    with drawn("exp_extension_recovery") as fig:
        (ax,) = fig.axes
        drawn_lines = lines(ax)
        assert [k for k in drawn_lines if k in EXTENSION_LABELS.values()] == [EXTENSION_LABELS[v] for v in EXTENSIONS]
        steps = claims.extension_steps()
        assert steps[0] == 0 and steps[-1] == int(claims.config()["ext_steps"])
        for v in EXTENSIONS:
            x, y = drawn_lines[EXTENSION_LABELS[v]]
            _same(x, steps, v)
            _same(y, _seed_mean(claims.extension_curves(v)), v)
        low, level, high = F.recovered_band()
        assert _hline_y(ax, expfig.T("pretrained")) == pytest.approx(level)
        spans = [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]
        assert len(spans) == 1
        y0, y1 = spans[0].get_y(), spans[0].get_y() + spans[0].get_height()
        assert (y0, y1) == pytest.approx((low, high))
        assert legend_labels(fig) == [expfig.T("pretrained")] + [EXTENSION_LABELS[v] for v in EXTENSIONS]


def test_extension_positions_after_the_continued_training():
    curves = F.extension_positions("after", smooth=expfig.POSITION_SMOOTH)
    assert len(curves[0].x) == int(claims.config()["ext_eval_len"])
    with drawn("exp_extension_positions") as fig:
        (ax,) = fig.axes
        _curve_lines(ax, curves)
        assert _vlines_x(ax) == [claims.TRAIN_LEN, int(claims.config()["ext_len"])]
        assert legend_labels(fig) == [EXTENSION_LABELS[v] for v in EXTENSIONS]
    # "after", not "before": the zero-shot curves differ, and the figure must not show them
    before = F.extension_positions("before", smooth=expfig.POSITION_SMOOTH)
    assert not np.allclose(before[1].mean, curves[1].mean)
    for c in F.extension_positions("after"):  # unsmoothed: the plain mean over seeds
        _same(c.mean, _seed_mean(claims.extension_position_losses(c.key, "after")), c.key)


def _bands(ax) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(x, low, high) of each seed band (fill_between) of ``ax``, in drawing order."""
    out = []
    for c in ax.collections:
        if type(c).__name__ != "FillBetweenPolyCollection":
            continue
        (path,) = c.get_paths()
        v = path.vertices  # (x0, high0), then (x, low) forward, (x_end, high_end), then (x, high) backward
        n = (len(v) - 3) // 2
        low, high = v[1:n + 1], v[n + 2:2 * n + 2][::-1]
        assert np.array_equal(low[:, 0], high[:, 0])
        out.append((low[:, 0], low[:, 1], high[:, 1]))
    return out


@pytest.mark.parametrize("name, curves, split", [
    ("exp_extension_positions", lambda: F.extension_positions("after", smooth=expfig.POSITION_SMOOTH), "ext_len"),
    ("exp_rope_scaling", lambda: F.scaling_curves(smooth=expfig.POSITION_SMOOTH), "train_len"),
])
def test_seed_bands_are_every_kth_point_with_the_break_and_the_end(name, curves, split):
    """A band is drawn at about BAND_POINTS points: every k-th, both sides of the break, the last."""
    curves = [c for c in curves() if c.seeds > 1]
    assert curves, "these figures have several seeds, so they draw bands"
    n, brk = len(curves[0].x), int(claims.config()[split])
    k = int(np.ceil(n / expfig.BAND_POINTS))
    assert k > 1, "the band is thinned"
    idx = sorted(set(range(0, n, k)) | {n - 1, brk - 1, brk})
    with drawn(name) as fig:
        (ax,) = fig.axes
        bands = _bands(ax)
    assert len(bands) == len(curves)
    for (x, low, high), c in zip(bands, curves):
        _same(x, c.x[idx], f"{c.key} band x")
        _same(low, c.low[idx], f"{c.key} band low")
        _same(high, c.high[idx], f"{c.key} band high")


def test_band_points_rejects_a_bad_count():
    (c,) = F.position_curves(methods=("rope",), smooth=expfig.POSITION_SMOOTH)
    with pytest.raises(ValueError, match="most"):
        F.band_points(c, 1)

