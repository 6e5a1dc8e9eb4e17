"""What each in-page experiment draws, against posenc: the SVG geometry, not only the numbers.

tests/browser/test_widgets.py reads back every number a widget prints (data-value); this file reads what it
draws and checks the picture says the same thing, in posenc's numbers computed here:

    sin-clock         each hand's end point: clockwise from 12 o'clock by posenc's angle p·ω_i, i.e. its
                      horizontal part is PE(p)[2i] = sin and its upward part PE(p)[2i+1] = cos
    sin-heatmap       each cell's colour: its value's position on one scale, lo … hi of the dot product over the
                      distances the table holds (posenc's closed form), through matplotlib's viridis
    alibi-bias        the bias line from 0 down to −m·span (negative is down), the weight curve exp(−m·r), the
                      slopes on their log₂ axis, each read through the plot's own tick labels
    t5-buckets        the "widest bucket" count and the staircase: each step at its bucket's height
    scaling-explorer  each pair's period on the log axis, the L and s·L lines, and the yes/no columns
    sin-dot           the curve and the point: PE(p)·PE(p+k) on the plot's axis
    rope-pair         the arrows q and k: turned by m·ω and n·ω, counter-clockwise, y up
    content-position  the point on the curve: content RMS / p on the plot's log axes

A plot's axis is read from its own tick labels and grid lines (a value → a coordinate, fitted), and every
plot must put larger values higher: an axis that runs the other way fails however its labels read.
swap-attention and the data-flow panel draw no picture (tables and text, checked in test_widgets.py and
test_dataflow_panel.py).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from posenc import naive, relative, rope, scaling, sinusoidal
from posenc import configs

from test_widgets import LESSON, _assert_mounted, _live, open_widget, value

pytestmark = [pytest.mark.build, pytest.mark.browser]

SUP = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


# --- reading a plot -------------------------------------------------------------------------------


def tick_value(text: str) -> float:
    """A tick label as a number: "−0.50", "1,024", "2⁻⁸", "10³", "0.01%"."""
    t = text.strip().replace("\u2212", "-").replace(",", "")
    pct = t.endswith("%")
    t = t.rstrip("%")
    m = re.fullmatch(r"(2|10)([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)", t)
    v = float(m.group(1)) ** int(m.group(2).translate(SUP)) if m else float(t)
    return v / 100 if pct else v


Y_TICKS = """svg => [...svg.querySelectorAll('line.pe-plot__grid')].map(l => {
  const label = l.nextElementSibling;
  return [Number(l.getAttribute('y1')), label && label.matches('text.pe-plot__tick') ? label.textContent : null];
})"""
X_TICKS = """svg => [...svg.querySelectorAll('text.pe-plot__tick[text-anchor="middle"]')]
  .map(t => [Number(t.getAttribute('x')), t.textContent])"""


def printed_precision(text: str) -> float:
    """Half a unit of a label's last printed digit: how far the label may be from the value it rounds."""
    t = text.strip().rstrip("%")
    return 0.5 * 10 ** -len(t.split(".")[1]) if "." in t else 0.5


class Axis:
    """value → coordinate from a plot's tick labels: a straight-line fit on the value, or on log(value + shift).

    ``exact``: the values the grid lines stand for (posenc's), when the labels print them rounded; each
    label must then read its value to the label's printed precision, and the fit uses the exact values.
    """

    def __init__(self, pairs, log: int | None = None, shift: float = 0.0, exact=None):
        pts = []
        for coord, text in pairs:
            try:
                v = tick_value(text)
            except (TypeError, ValueError):
                continue  # the axis title
            if exact is not None:
                want = exact[len(pts)]
                assert abs(v - want) <= printed_precision(text) * 1.01, f"tick label {text!r} does not read {want}"
                v = want
            pts.append((coord, math.log(v + shift, log) if log else v))
        assert len(pts) >= 2, f"fewer than two numeric tick labels: {pairs}"
        c, v = np.array(pts).T
        self.slope, self.icept = np.polyfit(v, c, 1)
        assert np.allclose(self.slope * v + self.icept, c, atol=0.05), f"tick labels not evenly placed: {pts}"
        self.log, self.shift = log, shift

    def to_value(self, coord):
        v = (np.asarray(coord, dtype=float) - self.icept) / self.slope
        return self.log**v - self.shift if self.log else v


def y_axis(svg, log=None, exact=None) -> Axis:
    axis = Axis(svg.evaluate(Y_TICKS), log, exact=exact)
    assert axis.slope < 0, "the plot puts larger values lower: its vertical axis is upside down"
    return axis


def x_axis(svg, log=None, shift=0.0) -> Axis:
    axis = Axis(svg.evaluate(X_TICKS), log, shift)
    assert axis.slope > 0, "the plot puts larger values to the left"
    return axis


def polyline(loc) -> np.ndarray:
    return np.array([[float(c) for c in p.split(",")] for p in loc.get_attribute("points").split()])


def attr(loc, name: str) -> float:
    return float(loc.get_attribute(name))


def assert_inside_drawing(svg, where) -> None:
    """Every part of the plot lies inside its viewBox, within a unit: a text's box reaches past its baseline by the
    font's descent (an axis title at the bottom edge)."""
    (vx0, vy0, vx1, vy1), parts = svg.evaluate("""svg => { const v = svg.viewBox.baseVal;
      return [[v.x, v.y, v.x + v.width, v.y + v.height],
              [...svg.children].map(e => { const b = e.getBBox(); return [e.tagName, b.x, b.y, b.x + b.width, b.y + b.height]; })]; }""")
    for tag, x0, y0, x1, y1 in parts:
        assert vx0 - 1 <= x0 and x1 <= vx1 + 1 and vy0 - 1 <= y0 and y1 <= vy1 + 1, (tag, (x0, y0, x1, y1), (vx0, vy0, vx1, vy1), where)


# --- lesson 3: sin-clock --------------------------------------------------------------------------


def test_sin_clock_hands_point_clockwise_from_twelve_by_posenc_angles(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-clock")
    base = float(el.locator('[data-pe-input="base"]').input_value().replace(",", ""))
    presets = [int(p) for p in el.get_attribute("data-presets").split(",")]
    for p in [None, *presets, 7]:
        if p == 7:
            el.locator('[data-pe-input="position"]').fill("7")
        elif p is not None:
            el.locator(f'[data-preset="{p}"]').click()
        p = int(value(el.locator('[data-pe-out="position"]')))
        d = int(el.locator('[data-pe-input="d"]').input_value())
        hands = el.locator("line.pe-clock__hand").evaluate_all(
            "els => els.map(e => ['x1', 'y1', 'x2', 'y2'].map(a => Number(e.getAttribute(a))))")
        assert len(hands) == d // 2
        x1, y1, x2, y2 = np.array(hands).T
        length = np.hypot(x2 - x1, y2 - y1)
        assert np.ptp(length) < 0.01 and length.min() > 10, f"hands of unequal length: {length}"
        right, up = (x2 - x1) / length, (y1 - y2) / length  # SVG's y runs down
        angle = sinusoidal.hand_angles(p, d, base)
        pe = sinusoidal.encode(p, d, base)
        # clockwise from 12 o'clock by angle: the hand's horizontal part is sin, its upward part cos
        np.testing.assert_allclose(right, np.sin(angle), atol=1e-3, err_msg=f"p = {p}: horizontal parts")
        np.testing.assert_allclose(up, np.cos(angle), atol=1e-3, err_msg=f"p = {p}: upward parts")
        np.testing.assert_allclose(right, pe[0::2], atol=1e-3, err_msg=f"p = {p}: the hand's sin is not PE[2i]")
        np.testing.assert_allclose(up, pe[1::2], atol=1e-3, err_msg=f"p = {p}: the hand's cos is not PE[2i+1]")
        # 12 o'clock is where each face's tick mark is
        ticks = np.array(el.locator("line.pe-clock__tick").evaluate_all(
            "els => els.map(e => ['x1', 'y1', 'x2', 'y2'].map(a => Number(e.getAttribute(a))))")).T
        np.testing.assert_allclose(ticks[0], x1, atol=1e-9)
        assert (ticks[1] < y1).all()
    sp.assert_clean()


HANDS = """svg => [...svg.querySelectorAll('line.pe-clock__hand')].map(hand => {
  const face = hand.previousElementSibling.previousElementSibling;  // the face circle, then the 12 o'clock tick
  const tip = hand.nextElementSibling, label = face.previousElementSibling;
  return {hand: ['x1', 'y1', 'x2', 'y2'].map(a => Number(hand.getAttribute(a))), tip: ['cx', 'cy'].map(a => Number(tip.getAttribute(a))), tipDrawn: tip.matches('.pe-clock__tip') && Number(tip.getAttribute('r')) > 0,
          face: ['cx', 'cy', 'r'].map(a => Number(face.getAttribute(a))), label: label.textContent,
          period: tip.nextElementSibling.nextElementSibling.textContent};
})"""


@pytest.mark.parametrize("width, columns", [(1280, 8), (390, 4)], ids=["desktop", "phone"])
def test_sin_clock_faces_carry_their_index_period_and_a_tip_at_each_hands_end(visit, site_dir, width, columns):
    """Each face is labelled i = 0 … d/2 − 1 and with its period (2 decimals below 100, whole above), its hand starts
    at the face's centre and ends in a round tip, inside the face; with more than eight faces a desktop lays them out
    eight to a row and a phone four; the text alternative counts the faces and names the shortest and longest period."""
    sp, el = open_widget(visit, site_dir, "sin-clock", viewport={"width": width, "height": 900})
    svg = el.locator("svg.pe-clock")
    for d in (16, 64):
        el.locator('[data-pe-input="d"]').fill(str(d))
        base = float(el.locator('[data-pe-input="base"]').input_value().replace(",", ""))
        faces = svg.evaluate(HANDS)
        periods = sinusoidal.periods(d, base)
        assert len(faces) == d // 2
        assert [f["label"] for f in faces] == [f"i = {i}" for i in range(d // 2)]
        assert [f["period"].split()[-1] for f in faces] == [f"{v:,.2f}" if v < 100 else f"{v:,.0f}" for v in periods]
        for f in faces:
            (x1, y1, x2, y2), (cx, cy, r) = f["hand"], f["face"]
            assert (x1, y1) == (cx, cy) and f["tip"] == [x2, y2] and math.hypot(x2 - cx, y2 - cy) < r
            assert f["tipDrawn"], "the hand's tip is a circle with a radius, styled as a tip"
        per_row = len({f["face"][0] for f in faces})
        assert per_row == (4 if d // 2 <= 8 else columns), (d, width, per_row)
        label = svg.get_attribute("aria-label")
        assert str(d // 2) in label and f"{periods[0]:,.2f}" in label and f"{periods[-1]:,.0f}" in label, label
    sp.assert_clean()


LAYOUT = """svg => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const faces = [...svg.querySelectorAll('circle.pe-clock__face')].map(face => {
    // each face is drawn as: its label, the circle, the 12 o'clock tick, the hand, its tip, the hub, the period
    const label = face.previousElementSibling, tick = face.nextElementSibling;
    const hub = tick.nextElementSibling.nextElementSibling.nextElementSibling, period = hub.nextElementSibling;
    return { parts: [box(label), box(face), box(period)], cx: Number(face.getAttribute('cx')), cy: Number(face.getAttribute('cy')),
             r: Number(face.getAttribute('r')), tick: ['x1', 'y1', 'x2', 'y2'].map(a => Number(tick.getAttribute(a))),
             hubFill: getComputedStyle(hub).fill, textFill: getComputedStyle(label).fill };
  });
  return { faces, view: svg.getAttribute('viewBox').split(' ').map(Number), all: box(svg) };
}"""


@pytest.mark.parametrize("width, columns", [(1280, 8), (390, 4)], ids=["desktop", "phone"])
def test_sin_clock_faces_fill_the_drawing_in_reading_order_without_overlapping(visit, site_dir, width, columns):
    """The faces (each with its label above and its period below, both centred on it, a short tick at 12 o'clock and a
    hub in the text's colour) are laid out in rows, left to right and top to bottom, i = 0 first; no face's parts touch
    another face's; everything drawn lies inside the drawing's viewBox, and
    the viewBox leaves no more than a quarter of a face's cell empty at any edge (an empty band would shrink the faces
    on a phone)."""
    sp, el = open_widget(visit, site_dir, "sin-clock", viewport={"width": width, "height": 900})
    svg = el.locator("svg.pe-clock")
    for d in (8, 16, 64):
        el.locator('[data-pe-input="d"]').fill(str(d))
        got = svg.evaluate(LAYOUT)
        faces, (vx, vy, vw, vh), (x0, y0, x1, y1) = got["faces"], got["view"], got["all"]
        n = d // 2
        per_row = 4 if n <= 8 else columns
        assert len(faces) == n
        # a text's box is its font's line box: "i = 0" set at y = 10 has a box from about y = -6, above its digits
        slack = 8
        assert (vx, vy) == (0, 0) and x0 >= -slack and y0 >= -slack and x1 <= vw + slack and y1 <= vh + slack, (d, got["view"], got["all"])
        cell = vw / per_row
        assert x0 <= cell / 4 and y0 <= cell / 4 and vw - x1 <= cell / 4 and vh - y1 <= cell / 4, (d, got["view"], got["all"])
        for i, f in enumerate(faces):  # reading order: row i // per_row, column i % per_row
            row, col = divmod(i, per_row)
            assert f["cx"] == pytest.approx(faces[col]["cx"]) and f["cy"] == pytest.approx(faces[row * per_row]["cy"]), (d, i)
            if col:
                assert f["cx"] > faces[i - 1]["cx"], (d, i)
            if row:
                assert f["cy"] > faces[i - per_row]["cy"], (d, i)
        for i, f in enumerate(faces):
            (lx0, ly0, lx1, ly1), (_, fy0, _, fy1), (px0, py0, px1, py1) = f["parts"]
            cx, cy, r = f["cx"], f["cy"], f["r"]
            assert abs((lx0 + lx1) / 2 - cx) < 1 and abs((px0 + px1) / 2 - cx) < 1, (d, i, "label and period centred on the face")
            assert ly1 <= fy0 + 2 and py0 >= fy1 - 2, (d, i, "the label above the face, the period below it")
            tx1, ty1, tx2, ty2 = f["tick"]
            assert tx1 == tx2 == cx and cy - r - 1 <= min(ty1, ty2) and max(ty1, ty2) < cy - r / 2, (d, i, "a short tick at 12 o'clock", f["tick"])
            assert f["hubFill"] == f["textFill"], (d, i, "the hub is drawn in the text's colour", f["hubFill"], f["textFill"])
        touching = [(i, j) for i in range(n) for j in range(i + 1, n)
                    if any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for a in faces[i]["parts"] for b in faces[j]["parts"])]
        assert not touching, (d, touching[:5])
    sp.assert_clean()


# --- lesson 3: sin-heatmap ------------------------------------------------------------------------


def viridis_rgb(t: np.ndarray) -> np.ndarray:
    """matplotlib's viridis at 10 evenly spaced stops, linear in between (the widget's table of stops), in 0 … 255."""
    import matplotlib

    cmap = matplotlib.colormaps["viridis"]
    stops = np.array([matplotlib.colors.to_rgb(cmap(k / 9)) for k in range(10)]) * 255
    x = np.clip(t, 0, 1) * 9
    i = np.minimum(np.floor(x).astype(int), 8)
    f = (x - i)[..., None]
    return stops[i] + (stops[i + 1] - stops[i]) * f


def test_sin_heatmap_colours_sit_on_one_scale_from_posenc(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-heatmap")
    d, base = int(el.get_attribute("data-d")), float(el.get_attribute("data-base"))
    n = len(el.get_attribute("data-sentence"))
    by_distance = [sinusoidal.dot_closed_form(k, d, base) for k in range(n)]
    lo, hi = min(by_distance), max(by_distance)
    for press in range(2):
        start = int(value(el.locator('[data-pe-out="start"]')))
        cells = el.locator("td[data-a]").evaluate_all(
            "els => els.map(e => [Number(e.dataset.a), Number(e.dataset.b), getComputedStyle(e).backgroundColor])")
        assert len(cells) == n * n
        want = sinusoidal.dot_matrix(np.arange(n) + start, d, base)
        got = np.array([[float(c) for c in re.findall(r"[\d.]+", bg)[:3]] for _, _, bg in cells])
        ab = np.array([(a, b) for a, b, _ in cells])
        expected = viridis_rgb((want[ab[:, 0], ab[:, 1]] - lo) / (hi - lo))
        worst = np.abs(got - expected).max()
        assert worst <= 1.5, f"start {start}: a cell's colour is {worst:.1f} units off its value's place on the scale"
        # the ends of the scale: the largest value is viridis' yellow end, the smallest its purple end
        k_hi = np.argmax(want[ab[:, 0], ab[:, 1]])
        np.testing.assert_allclose(got[k_hi], viridis_rgb(np.array(1.0)), atol=1.5)
        el.locator("[data-pe-shift]").click()
    sp.assert_clean()


def contrast_ratio(fg: str, bg: str) -> float:
    """WCAG 2's contrast ratio of two computed CSS colours ("rgb(r, g, b)")."""
    def luminance(css: str) -> float:
        c = np.array([float(x) for x in re.findall(r"[\d.]+", css)[:3]]) / 255
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


TABLE = """el => {
  const t = el.querySelector('table.pe-heatmap');
  const text = e => e.textContent.replace(/\\s+/g, ' ').trim();
  return {
    caption: text(t.querySelector('caption')),
    corner: t.querySelectorAll('thead tr > td').length,
    cols: [...t.querySelectorAll('thead th')].map(th => [th.scope, th.firstChild.textContent, th.querySelector('small').textContent]),
    rows: [...t.querySelectorAll('tbody th')].map(th => [th.scope, th.firstChild.textContent.trim(), th.querySelector('small').textContent]),
    cells: [...t.querySelectorAll('tbody td')].map(td => [getComputedStyle(td.querySelector('[data-pe-cell]')).color,
                                                          getComputedStyle(td).backgroundColor]),
  };
}"""


@pytest.mark.parametrize("lang, scheme", [("zh", "light"), ("en", "light"), ("zh", "dark")])
def test_sin_heatmap_labels_each_row_and_column_and_every_number_stays_readable(visit, site_dir, lang, scheme):
    """The table's own words: its caption names the encoding, each row and column header its token (a Chinese
    character; an English word) and position (start + j: they move with the shift), scoped so that a screen reader
    names both for each cell; and each cell's number is printed in a colour that stands out from that cell's place on
    the scale (WCAG AA, 4.5:1), in either colour scheme (the page's own text colour differs)."""
    sp, el = open_widget(visit, site_dir, "sin-heatmap", lang, color_scheme=scheme)
    sentence, d = el.get_attribute("data-sentence"), el.get_attribute("data-d")
    base = f"{int(float(el.get_attribute('data-base'))):,}"
    chars = sentence.split() if lang == "en" else list(sentence)  # posenc/tokenize.py's tokens of each edition
    for press in range(2):
        start = int(value(el.locator('[data-pe-out="start"]')))
        shown = el.evaluate(TABLE)
        assert f"d_model = {d}" in shown["caption"] and f"base = {base}" in shown["caption"], shown["caption"]
        assert shown["corner"] == 1, "the header row starts with one empty corner cell above the row headers"
        positions = [f"{start + j:,}" for j in range(len(chars))]
        assert shown["cols"] == [["col", c, p] for c, p in zip(chars, positions)]
        assert shown["rows"] == [["row", c, p] for c, p in zip(chars, positions)]
        ratios = [contrast_ratio(fg, bg) for fg, bg in shown["cells"]]
        assert len(ratios) == len(chars) ** 2 and min(ratios) >= 4.5, f"a cell's number is hard to read on its colour: {min(ratios):.2f}:1"
        el.locator("[data-pe-shift]").click()
    sp.assert_clean()


# --- lesson 3b: alibi-bias ------------------------------------------------------------------------


def test_alibi_bias_plots_draw_posenc_bias_weights_and_slopes(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    span = int(el.get_attribute("data-span"))
    plots = el.locator("svg.pe-plot")
    assert plots.count() == 3
    slopes_svg, bias_svg, weight_svg = plots.nth(0), plots.nth(1), plots.nth(2)
    for heads, head in [(None, None), (8, 1), (12, 11), (16, 16)]:
        if heads is not None:
            el.locator('[data-pe-input="heads"]').fill(str(heads))
            el.locator('[data-pe-input="head"]').select_option(str(head))
        n = int(el.locator('[data-pe-input="heads"]').input_value())
        h = int(value(el.locator('[data-pe-out="head"]')))
        r = value(el.locator('[data-pe-out="distance"]'))
        slopes = relative.alibi_slopes(n)
        m = slopes[h - 1]
        # the bias line: from (0, 0) down to (span, −m·span); negative is below zero
        ya, xa = y_axis(bias_svg, exact=[0, -m * span / 2, -m * span]), x_axis(bias_svg)
        line = bias_svg.locator("line.pe-plot__line")
        assert xa.to_value(attr(line, "x1")) == pytest.approx(0, abs=1e-6)
        assert xa.to_value(attr(line, "x2")) == pytest.approx(span, rel=1e-6)
        assert ya.to_value(attr(line, "y1")) == pytest.approx(0, abs=1e-6 * m * span)
        assert ya.to_value(attr(line, "y2")) == pytest.approx(-m * span, rel=1e-6)
        assert attr(line, "y2") > attr(line, "y1"), "the bias falls with distance: its line must go down"
        dot = bias_svg.locator("circle.pe-plot__dot")
        assert xa.to_value(attr(dot, "cx")) == pytest.approx(r, abs=1e-6 * span)
        assert ya.to_value(attr(dot, "cy")) == pytest.approx(-m * r, abs=1e-6 * m * span)
        # the weight curve exp(−m·r), points rounded to 0.1 px
        ya, xa = y_axis(weight_svg), x_axis(weight_svg)
        pts = polyline(weight_svg.locator("polyline.pe-plot__line"))
        rs = np.linspace(0, span, len(pts))  # evenly spaced samples from 0 to span
        np.testing.assert_allclose(xa.to_value(pts[:, 0]), rs, atol=0.06 / xa.slope)
        np.testing.assert_allclose(ya.to_value(pts[:, 1]), relative.alibi_weight_ratio(m, rs), atol=0.06 / abs(ya.slope))
        # the slopes, one point per head on a log₂ axis, the chosen head marked
        ya = y_axis(slopes_svg, log=2)
        cy = np.array(slopes_svg.locator("circle.pe-plot__point").evaluate_all("els => els.map(e => Number(e.getAttribute('cy')))"))
        np.testing.assert_allclose(ya.to_value(cy), slopes, rtol=1e-9)
        mark = slopes_svg.locator("circle.pe-plot__dot")
        assert ya.to_value(attr(mark, "cy")) == pytest.approx(m, rel=1e-9)
    sp.assert_clean()


def test_alibi_bias_weight_plot_marks_one_fth_and_its_distance_and_draws_the_other_heads_faintly(visit, site_dir):
    """The weight plot (0, 0.5, 1 on its axis): a dashed line at 1/f and, where it falls within the axis, one at the
    distance ln f / a_h where the chosen head reaches it; one faint curve exp(−a_h·r) per other head (every k-th head
    beyond 64 curves), the chosen one's cursor at the distance read out. On the slopes plot the heads stand in order,
    evenly, and the marked point is the chosen head's; its axis title says how many heads were added."""
    sp, el = open_widget(visit, site_dir, "alibi-bias")
    span, f = int(el.get_attribute("data-span")), float(el.get_attribute("data-factor"))
    plots = el.locator("svg.pe-plot")
    slopes_svg, weight_svg = plots.nth(0), plots.nth(2)
    for heads, head, r in [(None, None, None), (8, 8, 100), (112, 3, 0), (1, 1, span)]:
        if heads is not None:
            el.locator('[data-pe-input="heads"]').fill(str(heads))
            el.locator('[data-pe-input="head"]').select_option(str(head))
            el.locator('[data-pe-input="distance"]').fill(str(r))
        n = int(el.locator('[data-pe-input="heads"]').input_value())
        h = int(value(el.locator('[data-pe-out="head"]')))
        r = int(value(el.locator('[data-pe-out="distance"]')))
        slopes = relative.alibi_slopes(n)
        m, reach = slopes[h - 1], relative.alibi_reach(slopes[h - 1], f)
        assert [text for _, text in weight_svg.evaluate(Y_TICKS)] == ["0", "0.5", "1"]
        ya, xa = y_axis(weight_svg), x_axis(weight_svg)
        refs = weight_svg.locator("line.pe-plot__ref")
        across = [k for k in range(refs.count()) if attr(refs.nth(k), "y1") == attr(refs.nth(k), "y2")]
        upright = [k for k in range(refs.count()) if attr(refs.nth(k), "x1") == attr(refs.nth(k), "x2")]
        assert len(across) == 1 and ya.to_value(attr(refs.nth(across[0]), "y1")) == pytest.approx(1 / f, abs=1e-9)
        assert len(upright) == (reach <= span), (n, h, reach, span)
        if upright:
            assert xa.to_value(attr(refs.nth(upright[0]), "x1")) == pytest.approx(reach, rel=1e-9)
        every = math.ceil(n / 64)
        others = [slopes[i] for i in range(n) if i != h - 1 and i % every == 0]
        faint = weight_svg.locator("polyline.pe-plot__faint")
        assert faint.count() == len(others), (n, h)
        for k, slope in enumerate(others):
            pts = polyline(faint.nth(k))
            rs = np.linspace(0, span, len(pts))  # evenly spaced samples from 0 to span (x rounded to 0.1 px)
            np.testing.assert_allclose(xa.to_value(pts[:, 0]), rs, atol=0.06 / xa.slope)
            np.testing.assert_allclose(ya.to_value(pts[:, 1]), relative.alibi_weight_ratio(slope, rs), atol=0.06 / abs(ya.slope))
        cursor, dot = weight_svg.locator("line.pe-plot__cursor"), weight_svg.locator("circle.pe-plot__dot")
        assert xa.to_value(attr(cursor, "x1")) == pytest.approx(r, abs=1e-6 * span) == xa.to_value(attr(dot, "cx"))
        assert ya.to_value(attr(dot, "cy")) == pytest.approx(float(relative.alibi_weight_ratio(m, r)), abs=1e-9)
        # the slopes plot: heads 1 … n from left to right, evenly; the mark on head h's point
        cx = np.array(slopes_svg.locator("circle.pe-plot__point").evaluate_all("els => els.map(e => Number(e.getAttribute('cx')))"))
        assert len(cx) == n and (n == 1 or np.allclose(np.diff(cx), np.diff(cx)[0]) and np.diff(cx)[0] > 0)
        mark = slopes_svg.locator("circle.pe-plot__dot")
        point = slopes_svg.locator("circle.pe-plot__point").nth(h - 1)
        assert (attr(mark, "cx"), attr(mark, "cy")) == (attr(point, "cx"), attr(point, "cy"))
        added = n - 2 ** int(math.log2(n))
        title = slopes_svg.locator("text.pe-plot__tick").last.text_content()
        assert f"1 … {n:,}" in title and (f"补上的 {added} 个头" in title) == (added > 0), title
    sp.assert_clean()


# --- lesson 3b: t5-buckets ------------------------------------------------------------------------


def test_t5_buckets_widest_count_and_staircase_match_posenc(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "t5-buckets")
    svg = el.locator("svg.pe-plot")
    for settings in [None, ("true", 32, 128), ("false", 32, 128), ("true", 16, 20), ("false", 20, 17)]:
        if settings is not None:
            bi, nb, md = settings
            el.locator(f'[data-pe-input="bidirectional-{bi}"]').check()
            el.locator('[data-pe-input="num-buckets"]').fill(str(nb))
            el.locator('[data-pe-input="max-distance"]').fill(str(md))
        bi = el.locator('[data-pe-input="bidirectional-true"]').is_checked()
        nb = int(el.locator('[data-pe-input="num-buckets"]').input_value())
        md = int(el.locator('[data-pe-input="max-distance"]').input_value())
        # posenc's bucket for every distance to a key before the query, up to twice max_distance
        dist = np.arange(0, 2 * md + 1)
        bucket = relative.t5_bucket(-dist, bidirectional=bi, num_buckets=nb, max_distance=md)
        last = bucket.max()  # open-ended: every farther distance lands in it too
        widths = np.bincount(bucket)[:last]
        finite = widths[widths > 0]
        if len(finite) and finite.max() > 1:
            assert value(el.locator('[data-pe-out="widest"]')) == finite.max(), (bi, nb, md)
        # the staircase: each flat step sits at its bucket's height over that bucket's first distance
        ya = y_axis(svg)
        pts = polyline(svg.locator("polyline.pe-plot__line--step"))
        steps = pts.reshape(-1, 2, 2)  # (start, end) of each step
        np.testing.assert_array_equal(steps[:, 0, 1], steps[:, 1, 1])
        heights = ya.to_value(steps[:, 0, 1])
        np.testing.assert_allclose(heights, np.unique(bucket), atol=0.06 / abs(ya.slope), err_msg=f"{(bi, nb, md)}")
        # and each step starts where posenc's bucket starts (the distance axis is log₁₀(distance + 1))
        xa = x_axis(svg, log=10, shift=1)
        firsts = np.array([dist[bucket == b][0] for b in np.unique(bucket)])
        np.testing.assert_allclose(np.log10(xa.to_value(steps[:, 0, 0]) + 1), np.log10(firsts + 1), atol=0.06 / xa.slope,
                                   err_msg=f"{(bi, nb, md)}")
        # the plot's text alternative names where the top bucket starts (not max_distance, which it may precede)
        assert f"{firsts[-1]:,} 起都是桶 {last}" in svg.get_attribute("aria-label"), (svg.get_attribute("aria-label"), (bi, nb, md))
    sp.assert_clean()


def test_t5_buckets_steps_join_up_to_twice_max_distance_and_the_dot_marks_the_looked_up_bucket(visit, site_dir):
    """Each step ends where the next bucket starts, the last one at 2·max_distance (farther is off the plot); the
    bucket axis is labelled 0, half the top bucket and the top bucket; and the dot sits at the distance looked up and
    its bucket on the keys-before side (a key after the query: the other half's bucket less the buckets per direction,
    bidirectional, or distance 0's bucket, causal), held at 2·max_distance beyond it."""
    sp, el = open_widget(visit, site_dir, "t5-buckets")
    svg = el.locator("svg.pe-plot")
    box = el.locator('[data-pe-input="distance"]')
    for bi, nb, md, dist in [("true", 32, 128, 5), ("true", 32, 128, -40), ("true", 32, 128, 1000), ("false", 32, 128, 100),
                             ("false", 32, 128, -40), ("false", 20, 17, 16), ("true", 16, 20, -21)]:
        el.locator(f'[data-pe-input="bidirectional-{bi}"]').check()
        el.locator('[data-pe-input="num-buckets"]').fill(str(nb))
        el.locator('[data-pe-input="max-distance"]').fill(str(md))
        box.fill(str(dist))
        both = bi == "true"
        distances = np.arange(0, 2 * md + 1)
        bucket = relative.t5_bucket(-distances, bidirectional=both, num_buckets=nb, max_distance=md)
        top = int(bucket.max())
        ticks = svg.evaluate(Y_TICKS)
        assert [text for _, text in ticks] == [f"{b:,}" for b in (0, round(top / 2), top)], (ticks, bi, nb, md)
        ya, xa = y_axis(svg), x_axis(svg, log=10, shift=1)
        steps = polyline(svg.locator("polyline.pe-plot__line--step")).reshape(-1, 2, 2)
        np.testing.assert_array_equal(steps[1:, 0, 0], steps[:-1, 1, 0])  # no gap and no overlap between steps
        assert xa.to_value(steps[-1, 1, 0]) == pytest.approx(2 * md, rel=0.01), (bi, nb, md)
        seen = min(abs(dist), 2 * md) if (both or dist >= 0) else 0  # a causal key after the query: distance 0's bucket
        own = int(relative.t5_bucket(np.array(-seen), bidirectional=both, num_buckets=nb, max_distance=md))
        if both and dist < 0:  # posenc's bucket for the key after the query is the other half's
            assert int(value(el.locator('[data-pe-out="bucket"]'))) == own + nb // 2
        dot = svg.locator("circle.pe-plot__dot")
        assert xa.to_value(attr(dot, "cx")) == pytest.approx(seen, abs=0.01 * (seen + 1)), (bi, nb, md, dist)
        assert ya.to_value(attr(dot, "cy")) == pytest.approx(own, abs=0.06 / abs(ya.slope)), (bi, nb, md, dist)
    sp.assert_clean()


# The plot's parts, in its own units: each grid and reference line with the label after it (box: x0, y0, x1, y1) and
# whether it is dashed, the axis title (the last text), each text's size and colour, the text alternative.
T5_LAYOUT = """svg => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const at = (e, a) => Number(e.getAttribute(a));
  const lines = (cls) => [...svg.querySelectorAll('line.' + cls)].map(l => {
    const label = l.nextElementSibling && l.nextElementSibling.matches('text') ? l.nextElementSibling : null;
    return {x1: at(l, 'x1'), x2: at(l, 'x2'), y1: at(l, 'y1'), y2: at(l, 'y2'), dashed: getComputedStyle(l).strokeDasharray !== 'none',
            label: label && box(label), text: label && label.textContent};
  });
  const texts = [...svg.querySelectorAll('text')];
  return {grid: lines('pe-plot__grid'), refs: lines('pe-plot__ref'), title: box(texts[texts.length - 1]),
          fonts: texts.map(t => [getComputedStyle(t).fontSize, getComputedStyle(t).fill]), aria: svg.getAttribute('aria-label')};
}"""


def test_t5_buckets_plot_labels_each_line_beside_it_inside_the_drawing(visit, site_dir):
    """The staircase's frame: grid lines across the plot from distance 0 to 2·max_distance, each labelled on its left at
    its own height; the dashed lines at 0, max_exact and max_distance from the top bucket's line down to bucket 0's, each
    labelled under the plot, centred on it; the axis title under those labels, centred on the plot, set as they are;
    every part inside the drawing; the text alternative naming the exact range and where the last bucket starts. On a
    phone and a desktop, at T5's settings and at others."""
    for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
        sp, el = open_widget(visit, site_dir, "t5-buckets", viewport=viewport)
        svg = el.locator("svg.pe-plot")
        for bi, nb, md in [("true", 32, 128), ("false", 32, 128), ("true", 16, 1000), ("false", 20, 17)]:
            el.locator(f'[data-pe-input="bidirectional-{bi}"]').check()
            el.locator('[data-pe-input="num-buckets"]').fill(str(nb))
            el.locator('[data-pe-input="max-distance"]').fill(str(md))
            where = (viewport["width"], bi, nb, md)
            one_side = nb // 2 if bi == "true" else nb
            edges = relative.t5_bucket_edges(bi == "true", nb, md)
            d = svg.evaluate(T5_LAYOUT)
            assert_inside_drawing(svg, where)
            steps = polyline(svg.locator("polyline.pe-plot__line--step"))
            left, right = steps[0, 0], steps[-1, 0]  # distance 0 and 2·max_distance
            bottom = max(g["y1"] for g in d["grid"])  # bucket 0's line
            top = min(g["y1"] for g in d["grid"])
            for g in d["grid"]:
                assert g["y1"] == g["y2"] and (g["x1"], g["x2"]) == pytest.approx((left, right), abs=0.1), (g, where)
                lx0, ly0, lx1, ly1 = g["label"]
                assert lx1 <= g["x1"] and abs((ly0 + ly1) / 2 - g["y1"]) < 4, (g, where)  # left of the plot, at its height
                assert not g["dashed"], (g, where)
            assert [r["text"] for r in d["refs"]] == [f"{v:,}" for v in (0, one_side // 2, md)], where  # 0, max_exact, max_distance
            for r in d["refs"]:
                assert r["x1"] == r["x2"] and (r["y1"], r["y2"]) == pytest.approx((top, bottom), abs=0.1), (r, where)
                lx0, ly0, lx1, ly1 = r["label"]
                assert ly0 >= r["y2"] and abs((lx0 + lx1) / 2 - r["x1"]) < 1, (r, where)  # under the plot, centred on its line
                assert r["dashed"], (r, where)
            tx0, ty0, tx1, ty1 = d["title"]
            # under the distance labels: a text's box reaches the font's descent below its digits, so they may touch by 3
            assert ty0 >= max(r["label"][3] for r in d["refs"]) - 3, (d["title"], where)
            # centred on the plot (t5-buckets.js centres it on the plot and its right margin together: 7 units to the right)
            assert abs((tx0 + tx1) / 2 - (left + right) / 2) < 8, (d["title"], left, right, where)
            assert len(set(map(tuple, d["fonts"]))) == 1, (d["fonts"], where)  # the title set as the tick labels are
            assert d["aria"] == (f"阶梯图：距离 0 到 {one_side // 2 - 1:,} 每个距离一个桶，之后台阶越来越宽，"
                                 f"距离 {edges[-1][1]:,} 起都是桶 {edges[-1][0]:,}"), (d["aria"], where)
        sp.assert_clean()


# --- lesson 5: scaling-explorer -------------------------------------------------------------------


def test_scaling_explorer_plot_and_columns_match_posenc(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    svg = el.locator("svg.pe-plot")
    cfg = configs.load("qwen3_8b")
    hd, theta, L = cfg["head_dim"], cfg["rope_theta"], cfg["context"]
    before = rope.inverse_frequencies(hd, theta)
    for method, factor, after in [
        ("ntk", 4, scaling.ntk_aware(hd, theta, 4.0)[0]),
        ("linear", 8, scaling.linear(hd, theta, 8.0)[0]),
        ("yarn", 4, scaling.yarn(hd, theta, 4.0, cfg["scaling"]["original_max_position_embeddings"])[0]),
        ("ntk", 1.5, scaling.ntk_aware(hd, theta, 1.5)[0]),
    ]:
        el.locator('[data-pe-input="model"]').select_option("qwen3_8b")
        el.locator('[data-pe-input="method"]').select_option(method)
        el.locator('[data-pe-input="factor"]').fill(str(factor))
        target = round(factor * L)
        lam, lam_after = rope.wavelengths(before), rope.wavelengths(after)
        ya = y_axis(svg, log=10)
        cy = lambda sel: np.array(svg.locator(sel).evaluate_all("els => els.map(e => Number(e.getAttribute('cy')))"))  # noqa: E731
        np.testing.assert_allclose(ya.to_value(cy("circle.pe-plot__point:not(.pe-plot__point--after)")), lam, rtol=1e-9)
        np.testing.assert_allclose(ya.to_value(cy("circle.pe-plot__point--after")), lam_after, rtol=1e-9)
        refs = svg.locator("line.pe-plot__ref").evaluate_all("els => els.map(e => Number(e.getAttribute('y1')))")
        np.testing.assert_allclose(ya.to_value(refs), [L, target] if target != L else [L], rtol=1e-9)
        # the yes/no columns: a full turn within L before, within s·L after (posenc's count of pairs not turning)
        rows = el.locator("tbody tr").evaluate_all("els => els.map(r => [...r.cells].map(c => c.className))")
        turn = np.array([r[6] == "pe-yes" for r in rows])
        turn_scaled = np.array([r[7] == "pe-yes" for r in rows])
        assert all(r[6] in ("pe-yes", "pe-no") and r[7] in ("pe-yes", "pe-no") for r in rows)
        np.testing.assert_array_equal(turn, lam <= L, err_msg=f"{method} ×{factor}: 'a full turn within L'")
        np.testing.assert_array_equal(turn_scaled, lam_after <= target, err_msg=f"{method} ×{factor}: 'a full turn within s·L'")
        assert (~turn_scaled).sum() == rope.pairs_not_completing_turn(after, target)
        # the overshoot column marks exactly the pairs posenc counts as overshooting
        over = scaling.angle_overshoot(before, after, L, factor)
        marked = np.array([r[8] == "pe-no" for r in rows])
        np.testing.assert_array_equal(marked, np.nan_to_num(over, nan=0.0) > 1 + 1e-9)
        assert marked.sum() == scaling.pairs_beyond_trained_angles(before, after, L, factor)
    sp.assert_clean()


def test_scaling_explorer_puts_each_pair_in_its_own_column_and_labels_the_dashed_lines(visit, site_dir):
    """Pair i's two points (before, after) share one column, the columns evenly spaced from pair 0 on the left; the
    axis title names the last pair; each dashed line carries its label, L = … and s·L = …, at its left end, just above
    or (only when the two lines are close) just below it; the text alternative names both lengths. Every part lies
    inside the drawing, the columns fill the grid's width, and the grid has a line for each power of ten that the
    periods before and after, L and s·L span."""
    sp, el = open_widget(visit, site_dir, "scaling-explorer")
    svg = el.locator("svg.pe-plot")
    for key, factor in [("qwen3_8b", "4"), ("glm45", "1.2"), ("deepseek_v3", "40")]:
        el.locator('[data-pe-input="model"]').select_option(key)
        el.locator('[data-pe-input="factor"]').fill(factor)
        cfg = configs.load(key)
        fraction = cfg.get("rotary_fraction", 1.0)
        n = len(rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], fraction))
        L, target = cfg["context"], round(float(factor) * cfg["context"])
        cx = lambda sel: np.array(svg.locator(sel).evaluate_all("els => els.map(e => Number(e.getAttribute('cx')))"))  # noqa: E731
        before, after = cx("circle.pe-plot__point:not(.pe-plot__point--after)"), cx("circle.pe-plot__point--after")
        assert len(before) == n and np.array_equal(before, after)
        assert np.allclose(np.diff(before), np.diff(before)[0]) and np.diff(before)[0] > 0
        assert f"0 … {n - 1}" in svg.locator("text.pe-plot__tick").last.text_content()
        ya = y_axis(svg, log=10)
        lines = svg.locator("line.pe-plot__ref")
        labels = svg.locator("text.pe-plot__label")
        assert labels.all_text_contents() == [f"L = {L:,}", f"s·L = {target:,}"]
        for k, length in enumerate((L, target)):
            y_line = attr(lines.nth(k), "y1")
            assert ya.to_value(y_line) == pytest.approx(length, rel=1e-9)
            gap = attr(labels.nth(k), "y") - y_line  # the text's baseline: −5 above the line, +15 below it
            assert round(gap, 6) in (-5, 15), (key, factor, length, gap)
            assert attr(labels.nth(k), "x") < attr(lines.nth(k), "x1") + 10
        label = svg.get_attribute("aria-label")
        assert f"L = {L:,}" in label and f"s·L = {target:,}" in label, label
        # both labels sit above their lines unless the lines are closer than two labels' height
        heights = labels.evaluate_all("els => els.map(e => e.getBBox().height)")
        y_lines = [attr(lines.nth(k), "y1") for k in range(2)]
        if abs(y_lines[0] - y_lines[1]) >= 2 * max(heights):
            assert [round(attr(labels.nth(k), "y") - y_lines[k], 6) for k in range(2)] == [-5, -5], (key, factor)
        # the frame: every part inside the drawing; the columns fill the grid lines' width, each pair in the middle of
        # its column; one grid line per power of ten from below the shortest period (or L) to above the longest
        assert_inside_drawing(svg, (key, factor))
        grid = svg.locator("line.pe-plot__grid")
        left, right = attr(grid.first, "x1"), attr(grid.first, "x2")
        step = np.diff(before)[0]
        assert before[0] - left == pytest.approx(step / 2) and right - before[-1] == pytest.approx(step / 2), (key, factor)
        # the periods before (posenc) and after (the table's, checked against posenc in test_widgets.py), L and s·L
        after_periods = el.locator('[data-pe-col="lambda-scaled"]').evaluate_all("els => els.map(e => Number(e.dataset.value))")
        periods = np.concatenate([rope.wavelengths(rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], fraction)),
                                  after_periods, [L, target]])
        lo, hi = int(np.floor(np.log10(periods.min()))), int(np.ceil(np.log10(periods.max())))
        decades = [tick_value(t) for t in svg.locator("line.pe-plot__grid + text").all_text_contents()]
        assert decades == [10.0**e for e in range(lo, hi + 1)], (decades, lo, hi, key)
        cy = np.array(svg.locator("circle").evaluate_all("els => els.map(e => Number(e.getAttribute('cy')))"))
        y_grid = np.array(grid.evaluate_all("els => els.map(e => Number(e.getAttribute('y1')))"))
        assert y_grid.min() <= cy.min() and cy.max() <= y_grid.max(), (key, factor)
    sp.assert_clean()


# --- lesson 3: sin-dot ----------------------------------------------------------------------------


def test_sin_dot_curve_and_point_are_posenc_dot_products(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "sin-dot")
    svg = el.locator("svg.pe-plot")
    d, base = int(el.get_attribute("data-d")), float(el.get_attribute("data-base"))
    for p, k in [(None, None), (300, 37), (100_000, 0)]:
        if p is not None:
            el.locator(f'[data-preset="{p}"]').click()
            el.locator('[data-pe-input="k"]').fill(str(k))
        p = int(value(el.locator('[data-pe-out="position"]')))
        k = int(value(el.locator('[data-pe-out="k"]')))
        ya, xa = y_axis(svg), x_axis(svg)
        pts = polyline(svg.locator("polyline.pe-plot__line"))
        ks = np.rint(xa.to_value(pts[:, 0])).astype(int)
        np.testing.assert_array_equal(ks, np.arange(len(ks)))
        want = np.array([sinusoidal.dot(p, p + j, d, base) for j in ks])
        np.testing.assert_allclose(ya.to_value(pts[:, 1]), want, atol=0.06 / abs(ya.slope))
        dot = svg.locator("circle.pe-plot__dot")
        assert xa.to_value(attr(dot, "cx")) == pytest.approx(k, abs=1e-6)
        assert ya.to_value(attr(dot, "cy")) == pytest.approx(sinusoidal.dot(p, p + k, d, base), abs=1e-6)
    sp.assert_clean()


def test_sin_dot_faint_line_is_the_closed_form_and_everything_stays_inside_the_plot(visit, site_dir):
    """The wide faint line is Σᵢ cos(k·ωᵢ) for every k on the axis (posenc's closed form, no p in it); the axis reads
    0, d/4 and d/2; the cursor stands at the k read out; and both lines, however low the dot product dips, stay
    between the plot's top and bottom (the cursor spans exactly that, above the distance axis's numbers)."""
    sp, el = open_widget(visit, site_dir, "sin-dot")
    svg = el.locator("svg.pe-plot")
    d, base, k_max = int(el.get_attribute("data-d")), float(el.get_attribute("data-base")), int(el.get_attribute("data-max"))
    assert [text for _, text in svg.evaluate(Y_TICKS)] == [f"{v:g}" for v in (0, d / 4, d / 2)]
    ya, xa = y_axis(svg), x_axis(svg)
    ghost = polyline(svg.locator("polyline.pe-plot__ghost"))
    ks = np.rint(xa.to_value(ghost[:, 0])).astype(int)
    np.testing.assert_array_equal(ks, np.arange(k_max + 1))
    closed = np.array([sinusoidal.dot_closed_form(int(k), d, base) for k in ks])
    np.testing.assert_allclose(ya.to_value(ghost[:, 1]), closed, atol=0.06 / abs(ya.slope))
    assert closed.min() < 0  # the check below sees a dip under zero
    for p, k in [(None, None), (300, 37), (100_000, k_max)]:
        if p is not None:
            el.locator(f'[data-preset="{p}"]').press("Enter")  # by keyboard: a loaded run can lose a mouse click
            el.locator('[data-pe-input="k"]').fill(str(k))
        k = int(value(el.locator('[data-pe-out="k"]')))
        cursor = svg.locator("line.pe-plot__cursor")
        assert attr(cursor, "x1") == attr(cursor, "x2") and xa.to_value(attr(cursor, "x1")) == pytest.approx(k, abs=1e-6)
        top, bottom = attr(cursor, "y1"), attr(cursor, "y2")
        for line in (ghost, polyline(svg.locator("polyline.pe-plot__line"))):
            assert top - 0.05 <= line[:, 1].min() and line[:, 1].max() <= bottom + 0.05, (top, bottom, line[:, 1].min(), line[:, 1].max())
        # and the cursor stops inside the drawing, above the line the distance axis's numbers and its title stand on
        height = svg.evaluate("s => s.viewBox.baseVal.height")
        under = svg.evaluate("s => [...s.querySelectorAll('text.pe-plot__tick[text-anchor=\"middle\"]')].map((t) => Number(t.getAttribute('y')))")
        assert 0 <= top and bottom <= height and len(under) == 4 and bottom < min(under), (top, bottom, height, under)
    sp.assert_clean()


def test_sin_dot_lays_out_its_plot_where_a_reader_reads_it(visit, site_dir):
    """check_plot_layout on sin-dot's distance axis (labelled 0, max/2 and max, at 0, ½ and 1 of the plot's width) at its
    first start and distance, then after a preset and a typed distance (the curve and the point move, the frame does not)."""
    sp, el = open_widget(visit, site_dir, "sin-dot")
    svg = el.locator("svg.pe-plot")
    k_max = int(el.get_attribute("data-max"))
    for p, k in [(None, None), (300, 37), (100_000, k_max)]:
        if p is not None:
            el.locator(f'[data-preset="{p}"]').press("Enter")  # by keyboard: a loaded run can lose a mouse click
            el.locator('[data-pe-input="k"]').fill(str(k))
        lay = check_plot_layout(svg, lambda distance: distance / k_max)
        assert [tick_value(t["text"]) for t in lay["ticks"]] == [0, round(k_max / 2), k_max]
        assert lay["dot"] is not None
    sp.assert_clean()


# --- lesson 4: rope-pair --------------------------------------------------------------------------


def test_rope_pair_arrows_turn_counterclockwise_by_posenc_angles(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "rope-pair")
    q0 = [float(v) for v in el.get_attribute("data-q").split(",")]
    k0 = [float(v) for v in el.get_attribute("data-k").split(",")]
    d, base = int(el.get_attribute("data-d")), float(el.get_attribute("data-base"))
    radius = float(el.locator("circle.pe-pair__circle").get_attribute("r"))
    for pair, shifts in [(None, 0), ("2", 1), ("0", 2)]:
        if pair is not None:
            el.locator('[data-pe-input="pair"]').select_option(pair)
            for _ in range(shifts):
                el.locator("[data-pe-shift]").click()
        i = int(el.locator('[data-pe-input="pair"]').input_value())
        m = int(float(el.locator('[data-pe-input="m"]').input_value().replace(",", "")))
        n = int(float(el.locator('[data-pe-input="n"]').input_value().replace(",", "")))
        omega = rope.inverse_frequencies(d, base)[i : i + 1]
        for name, vec, pos in [("q", q0, m), ("k", k0, n)]:
            arrow = el.locator(f"line.pe-pair__{name}")
            want = rope.rotate(np.array([vec]), [pos], omega)[0]
            drawn = np.array([attr(arrow, "x2"), -attr(arrow, "y2")]) / radius  # SVG's y runs down
            np.testing.assert_allclose(drawn, want, atol=0.01 / radius, err_msg=f"pair {i}: {name} at {pos}")
    sp.assert_clean()


# --- lesson 2: content-position -------------------------------------------------------------------


def test_content_position_point_sits_on_posenc_ratio(visit, site_dir):
    sp, el = open_widget(visit, site_dir, "content-position")
    svg = el.locator("svg.pe-plot")
    point = svg.locator('[data-pe-out="point"]')
    sigmas = el.locator('[data-pe-input="rms"] option').evaluate_all("els => els.map(e => e.value)")
    assert len(sigmas) >= 2
    cases = [(None, None)] + [(p, sigmas[-1]) for p in el.get_attribute("data-presets").split(",")] + [(None, sigmas[0])]
    for preset, sigma in cases:
        if sigma is not None:
            el.locator('[data-pe-input="rms"]').select_option(sigma)
        if preset is not None:
            el.locator(f'[data-preset="{preset}"]').click()
        p = int(value(el.locator('[data-pe-out="position"]')))
        rms = float(el.locator('[data-pe-input="rms"]').input_value())
        ya, xa = y_axis(svg, log=10), x_axis(svg, log=10)
        if p == 0:
            assert point.count() == 0
            continue
        assert xa.to_value(attr(point, "cx")) == pytest.approx(p, rel=1e-9)
        assert ya.to_value(attr(point, "cy")) == pytest.approx(naive.raw_index_content_ratio(p, rms), rel=1e-9)
        # the curve of the chosen σ carries the point: content RMS / p at every position it draws
        pts = polyline(svg.locator("polyline.pe-plot__line:not(.pe-plot__line--before)"))
        ps = xa.to_value(pts[:, 0])
        want = naive.raw_index_content_ratios(np.rint(ps).astype(int), rms)
        np.testing.assert_allclose(np.log10(ya.to_value(pts[:, 1])), np.log10(want), atol=0.06 / abs(ya.slope) + 0.06 / xa.slope)
    sp.assert_clean()


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def test_content_position_writes_its_axes_as_a_reader_reads_them(visit, site_dir):
    """The ratio axis is in percent, one line per power of ten: written out down to 0.01 %, as a power of ten below
    (10⁻³ %, not 0.001 %); the position axis 1, 10, 100, 1,000, then 10⁴, 10⁵ …: each label is the value its line
    stands for, so the reader reads the plot as the widget computes it."""
    sp, el = open_widget(visit, site_dir, "content-position")
    svg = el.locator("svg.pe-plot")
    el.locator('[data-pe-input="rms"]').select_option(el.get_attribute("data-rms").split(",")[-1])
    el.locator('[data-pe-input="position"]').fill("100000")
    ys = svg.evaluate(Y_TICKS)
    exps = [round(math.log10(tick_value(text) * 100)) for _, text in ys]  # each label as a power of ten, in percent
    assert exps == list(range(exps[0], exps[0] + len(exps))) and min(exps) < -2 < 0 < max(exps), ys
    assert [text for _, text in ys] == [(f"{10.0 ** k:.{max(0, -k)}f}%" if k >= -2 else f"10{str(k).translate(SUPERSCRIPT)}%") for k in exps]
    xs = [text for _, text in svg.evaluate(X_TICKS) if text[:1].isdigit()]
    assert xs == ["1", "10", "100", "1,000", "10⁴", "10⁵"], xs
    sp.assert_clean()


# Each page option of content-position that is readable but does not fit, and the attribute its message names.
CONTENT_POSITION_BAD_OPTIONS = [("max", "9"), ("rows", "0"), ("width", "0"), ("position", "-1"), ("presets", "0,-5")]


def test_content_position_refuses_each_page_option_that_does_not_fit(visit, site_dir):
    from test_widgets import MOUNT_BARE

    sp, el = open_widget(visit, site_dir, "content-position")
    good = {f"data-{k}": el.get_attribute(f"data-{k}") for k in ("position", "rms", "max", "presets", "rows", "width")}
    assert sp.page.evaluate(MOUNT_BARE, ["content-position", good])[0] == "mounted"
    for key, bad in CONTENT_POSITION_BAD_OPTIONS:
        error, shown = sp.page.evaluate(MOUNT_BARE, ["content-position", {**good, f"data-{key}": bad}])
        assert error != "mounted" and f"data-{key}" in shown, (key, bad, shown)
    # an RMS of 0 or less: the message quotes the values as the page wrote them
    error, shown = sp.page.evaluate(MOUNT_BARE, ["content-position", {**good, "data-rms": "1,0"}])
    assert error != "mounted" and 'data-rms="1,0"' in shown, shown
    sp.assert_clean()

def test_content_position_draws_every_sigma_and_widens_its_axis_to_reach_p(visit, site_dir):
    """Beside the chosen σ's line, every other σ the page offers gets a faint line of its own content RMS / p; the
    position axis runs from 1 to data-max, or to p where p lies farther (the text alternative says where), so the
    lines end there and the point stays on the plot."""
    sp, el = open_widget(visit, site_dir, "content-position")
    svg = el.locator("svg.pe-plot")
    k_max = int(el.get_attribute("data-max"))
    written = el.get_attribute("data-rms").split(",")  # as the page writes them: the options' values
    sigmas = [float(v) for v in written]
    box = el.locator('[data-pe-input="position"]')
    for pick, p in [(0, 37), (-1, 100_000), (0, k_max), (-1, 3)]:
        el.locator('[data-pe-input="rms"]').select_option(written[pick])
        chosen = sigmas[pick]
        box.fill(str(p))
        top = max(k_max, p)
        assert f"{top:,}" in svg.get_attribute("aria-label"), svg.get_attribute("aria-label")
        ya, xa = y_axis(svg, log=10), x_axis(svg, log=10)
        faint = svg.locator("polyline.pe-plot__line--before")
        others = [r for r in sigmas if r != chosen]
        assert faint.count() == len(others)
        for k, rms in enumerate(others):
            pts = polyline(faint.nth(k))
            ps = np.rint(xa.to_value(pts[:, 0])).astype(int)
            assert ps[0] == 1 and ps[-1] == pytest.approx(top, rel=0.01), (ps[0], ps[-1], top)
            np.testing.assert_allclose(np.log10(ya.to_value(pts[:, 1])), np.log10(naive.raw_index_content_ratios(ps, rms)),
                                       atol=0.06 / abs(ya.slope) + 0.06 / xa.slope)
        chosen_line = polyline(svg.locator("polyline.pe-plot__line:not(.pe-plot__line--before)"))
        assert xa.to_value(chosen_line[-1, 0]) == pytest.approx(top, rel=0.01)
        assert xa.to_value(attr(svg.locator('[data-pe-out="point"]'), "cx")) == pytest.approx(p, rel=1e-9)
    sp.assert_clean()


# Where each part of a plot lies: the grid lines (x1, x2, y1, y2), every text's box and anchor, the lines' points,
# the point, and each text's colour and size as drawn (the classes' styles).
PLOT_LAYOUT = """svg => {
  const n = (e, a) => Number(e.getAttribute(a));
  const probe = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  probe.style.fill = 'var(--md-accent-fg-color)';
  svg.append(probe);
  const accent = getComputedStyle(probe).fill;
  probe.remove();
  const dot = svg.querySelector('circle');  // the plot's one point (found by its shape: a missing class must show)
  return {
    view: [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height],
    grid: [...svg.querySelectorAll('line.pe-plot__grid')].map(l => [n(l, 'x1'), n(l, 'x2'), n(l, 'y1'), n(l, 'y2')]),
    texts: [...svg.querySelectorAll('text')].map(t => {
      const b = t.getBBox(), c = getComputedStyle(t);
      return {text: t.textContent, box: [b.x, b.y, b.x + b.width, b.y + b.height], anchor: t.getAttribute('text-anchor'),
              look: [c.fill, c.fontSize]};
    }),
    lines: [...svg.querySelectorAll('polyline')].map(l => l.getAttribute('points').split(' ').map(p => p.split(',').map(Number))),
    dot: dot && [n(dot, 'cx'), n(dot, 'cy'), n(dot, 'r'), getComputedStyle(dot).fill],
    accent,
  };
}"""


def check_plot_layout(svg, x_fraction) -> dict:
    """A line plot's parts where a reader expects them (sin-dot's and content-position's drawings):

    - the plot (its grid lines, horizontal, of one length and evenly spaced) filling most of the drawing and everything
      inside the drawing (its viewBox), each line running from the plot's left edge to its right edge;
    - each value label left of the plot beside its grid line; each position label under the plot and the lines, centred
      at ``x_fraction(its value)`` of the plot's width; the axis title under those, centred under the plot;
    - every label in one colour and size, the point in the accent colour.

    Returns the layout read (PLOT_LAYOUT) with the plot's edges, for a widget's own checks."""
    lay = svg.evaluate(PLOT_LAYOUT)
    w, h = lay["view"]
    grid = np.array(lay["grid"])
    assert len(grid) >= 2 and np.all(grid[:, 2] == grid[:, 3]), f"grid lines not horizontal: {grid}"
    assert np.ptp(grid[:, 0]) == 0 and np.ptp(grid[:, 1]) == 0, "grid lines of different lengths"
    left, right = grid[0, 0], grid[0, 1]
    ys = np.sort(grid[:, 2])
    assert np.allclose(np.diff(ys), np.diff(ys)[0], atol=1e-6) and np.diff(ys)[0] > 0, f"grid lines not evenly spaced: {ys}"
    upper, lower = ys[0], ys[-1]
    assert 0 <= left < right <= w and 0 <= upper < lower <= h, (left, right, upper, lower, w, h)
    assert right - left > w / 2 and lower - upper > h / 2, f"the plot fills {right - left} × {lower - upper} of the {w} × {h} drawing"
    lines = [np.array(pts) for pts in lay["lines"]]
    for pts in lines:
        assert pts[0, 0] == pytest.approx(left, abs=0.06) and pts[-1, 0] == pytest.approx(right, abs=0.06), (pts[0], pts[-1], left, right)
        assert 0 <= pts[:, 1].min() and pts[:, 1].max() <= h, "a line leaves the drawing"
    bottom = max([lower] + [pts[:, 1].max() for pts in lines])
    if lay["dot"] is not None:
        cx, cy, r, fill = lay["dot"]
        assert left <= cx <= right and 0 <= cy - r and cy + r <= h
        assert fill == lay["accent"], f"the point is drawn in {fill}, not the accent colour {lay['accent']}"
    texts = lay["texts"]
    # A text's box is its font's whole line (ascent and descent), its glyphs a little inside: 2 px of slack; a label
    # centred on the axis's end may reach past the drawing's edge by half its width (widgets.css lets it show).
    for t in texts:
        x0, y0, x1, y1 = t["box"]
        half = (x1 - x0) / 2
        assert -half <= x0 and x1 <= w + half and -2 <= y0 and y1 <= h + 2, f"label {t['text']!r} at {t['box']} leaves the {w} × {h} drawing"
    assert len({tuple(t["look"]) for t in texts}) == 1, f"labels in different colours or sizes: {[(t['text'], t['look']) for t in texts]}"

    value_labels = [t for t in texts if t["anchor"] == "end"]
    assert len(value_labels) == len(grid)
    for (_, _, y, _), t in zip(grid, value_labels):
        x0, y0, x1, y1 = t["box"]
        assert left - 12 <= x1 <= left and abs((y0 + y1) / 2 - y) <= 4, (t["text"], t["box"], left, y)

    below = [t for t in texts if t["anchor"] == "middle"]
    ticks = [t for t in below if t["text"][:1].isdigit()]
    titles = [t for t in below if not t["text"][:1].isdigit()]
    assert ticks and len(titles) == 1, (ticks, titles)
    for t in ticks:
        x0, y0, x1, y1 = t["box"]
        assert (x0 + x1) / 2 == pytest.approx(left + x_fraction(tick_value(t["text"])) * (right - left), abs=1), (t["text"], t["box"])
        assert bottom - 2 < y0, f"position label {t['text']!r} at {t['box']} is not under the plot (bottom {bottom})"
    x0, y0, x1, y1 = titles[0]["box"]
    # (boxes of two lines of text may overlap by their descent and ascent; the title's middle is past the labels')
    assert (y0 + y1) / 2 > max(t["box"][3] for t in ticks) - 2, "the axis title is not under the position labels"
    assert abs((x0 + x1) / 2 - (left + right) / 2) <= 0.05 * (right - left), (titles[0]["box"], left, right)
    return {**lay, "edges": (left, right, upper, lower), "value_labels": value_labels, "ticks": ticks}


def check_content_position_layout(svg, sigmas: list[float], top: int) -> None:
    """check_plot_layout on its log axes (a position label at log₁₀ p / log₁₀ top of the width), and content-position's
    own: the lines and the point between the top and bottom grid lines, which run one per power of ten from the one at
    or under the smallest ratio drawn (the smallest σ at p = top) to the one at or over the largest, and never under
    100 % (the largest σ at p = 1)."""
    lay = check_plot_layout(svg, lambda p: math.log10(p) / math.log10(top))
    _, _, upper, lower = lay["edges"]
    for pts in map(np.array, lay["lines"]):
        assert upper - 0.06 <= pts[:, 1].min() and pts[:, 1].max() <= lower + 0.06, (pts[:, 1].min(), pts[:, 1].max(), upper, lower)
    if lay["dot"] is not None:
        assert upper <= lay["dot"][1] <= lower
    decades = sorted(round(math.log10(tick_value(t["text"]))) for t in lay["value_labels"])
    largest = max(naive.raw_index_content_ratio(1, s) for s in sigmas)
    smallest = min(naive.raw_index_content_ratio(top, s) for s in sigmas)
    assert decades == list(range(math.floor(math.log10(smallest)), max(0, math.ceil(math.log10(largest))) + 1)), (decades, smallest, largest)
    assert [round(math.log10(tick_value(t["text"]))) for t in lay["ticks"]] == list(range(math.floor(math.log10(top)) + 1))


def test_content_position_lays_out_its_plot_where_a_reader_reads_it(visit, site_dir):
    """check_content_position_layout on the page's widget (each σ, p = 0, a p past data-max, a small p), then on one
    mounted with a σ above 1, whose ratio reaches past 100 % (the grid then goes up to 1,000 %)."""
    from test_widgets import MOUNT_BARE

    sp, el = open_widget(visit, site_dir, "content-position")
    svg = el.locator("svg.pe-plot")
    k_max = int(el.get_attribute("data-max"))
    written = el.get_attribute("data-rms").split(",")
    sigmas = [float(v) for v in written]
    box = el.locator('[data-pe-input="position"]')
    for pick, p in [(0, None), (-1, 0), (-1, 100_000), (0, 3)]:
        el.locator('[data-pe-input="rms"]').select_option(written[pick])
        if p is not None:
            box.fill(str(p))
        p = int(value(el.locator('[data-pe-out="position"]')))
        assert (svg.locator('[data-pe-out="point"]').count() == 0) == (p == 0)
        check_content_position_layout(svg, sigmas, max(k_max, p))

    options = {f"data-{k}": el.get_attribute(f"data-{k}") for k in ("position", "max", "presets", "rows", "width")}
    options["data-rms"] = "3,0.02"
    assert sp.page.evaluate(MOUNT_BARE, ["content-position", options])[0] == "mounted"
    bare = sp.page.locator("article > .pe-widget").last.locator("svg.pe-plot")
    check_content_position_layout(bare, [3, 0.02], max(k_max, int(options["data-position"])))
    sp.assert_clean()
