"""Every figure is legible on a phone, checked without a browser.

- The SVG the site serves (both themes) is at most ``_style.PHONE_MAX_WIDTH_IN`` wide. The width is the SVG's own: the build
  saves with ``bbox_inches="tight"``, so the drawn size is the figure's tight bounding box
  (labels that stick out included) plus the padding, not its ``size=`` argument.
- Every text in it (ticks, axis labels, titles, legends, annotations, colour-bar labels) is at
  least ``_style.MIN_TEXT_PT``.
- Its panels are stacked in one column, never side by side (a phone has no room for two), except the
  figures listed in ``SIDE_BY_SIDE`` with their reason.

The width is read from the session build's SVGs, in tests/test_figures.py, so that this file runs
beside the build instead of after it. Why those numbers: see ``figures_src/_style.py``;
tests/browser/test_browser_gates.py checks the rendered pages at 390 px. Figures drawn from the experiment's results are skipped while
POSENC_EXPERIMENT_PENDING=1 (the build does not draw them either).
"""

from __future__ import annotations

import re

import pytest

from figure_support import drawn, texts
from figures_src import _style
from figures_src.build import _needs_pending_results, load_all

FIGURES = sorted(load_all())


def svg_size_in(svg: bytes) -> tuple[float, float]:
    """(width, height) in inches of an SVG matplotlib wrote (its width and height are in pt)."""
    m = re.search(rb'<svg[^>]*\swidth="([\d.]+)pt"\s+height="([\d.]+)pt"', svg)
    assert m, "matplotlib's SVG has no width/height in pt"
    return float(m.group(1)) / 72, float(m.group(2)) / 72


def _skip_pending(name: str):
    spec = load_all()[name]
    if _needs_pending_results(spec):
        pytest.skip(f"{name} draws the experiment's results, which are pending")
    return spec


# Figures whose panels sit side by side on purpose: small polar clock faces, one per pair of dimensions,
# several to a row, each titled only "i = …" (their text still passes the size rule above).
SIDE_BY_SIDE = {"sin_clock": "a grid of clock faces", "sin_shift_rotation": "rows of clock faces"}


@pytest.mark.parametrize("name", FIGURES)
def test_figure_text_is_large_enough_and_panels_stack(name):
    spec = _skip_pending(name)
    with drawn(name) as fig:
        small = sorted({(t.get_fontsize(), t.get_text().strip()[:24]) for t in texts(fig) if t.get_fontsize() < _style.MIN_TEXT_PT - 1e-9})
        boxes = [ax.get_position() for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    assert not small, (
        f"figure {name!r} ({spec.where}) has text under {_style.MIN_TEXT_PT} pt: "
        + ", ".join(f"{text!r} {size:g} pt" for size, text in small[:8]) + (" …" if len(small) > 8 else ""))
    if name in SIDE_BY_SIDE:
        return
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a.bounds != b.bounds:  # twin axes share their box
                assert a.y1 <= b.y0 + 1e-9 or b.y1 <= a.y0 + 1e-9, (
                    f"figure {name!r} ({spec.where}): two panels side by side; on a phone, stack them in one column "
                    "(or list the figure in SIDE_BY_SIDE with the reason)")


def test_the_side_by_side_exceptions_are_figures_with_panels_side_by_side():
    for name in SIDE_BY_SIDE:
        with drawn(name) as fig:
            x0 = {round(ax.get_position().x0, 3) for ax in fig.axes if ax.get_visible()}
        assert len(x0) > 1, f"{name} stacks its panels now: remove it from SIDE_BY_SIDE"


def test_the_width_check_reads_the_tight_box_not_the_size_argument():
    """A narrow size= with a label that sticks out is as wide as its label: the check sees that."""
    import matplotlib

    from figures_src import FigureSpec

    def draw(fig, theme):
        ax = fig.add_subplot()
        ax.set_ylabel("一个很长很长很长很长很长很长很长很长的纵轴标签", rotation=0, ha="right")

    spec = FigureSpec("wide_label", draw, "alt", "", (3.0, 2.0), __name__)
    width, _ = svg_size_in(_style.render_svg(spec, _style.THEMES["light"]))
    assert width > 3.0 + 1.0, width
    assert matplotlib.get_backend().lower() == "svg"


def test_the_text_check_finds_a_small_tick_label():
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(_style.rc_params(_style.THEMES["light"])):
        fig = plt.figure(figsize=(3, 2))
        ax = fig.add_subplot()
        ax.tick_params(labelsize=6)
        fig.canvas.draw()
        sizes = [t.get_fontsize() for t in texts(fig)]
        plt.close(fig)
    assert min(sizes) == 6
