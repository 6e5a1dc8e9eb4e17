"""Draw a registered figure into a matplotlib Figure, and read back what it plots.

Figure-content tests compare these readings with what posenc computes for the
figure, so a reversed, truncated or mislabelled series fails a test:

    with drawn("sin_periods") as fig:
        ax = fig.axes[0]
        np.testing.assert_allclose(bar_heights(ax), sinusoidal.periods(ex.SIN_DIM))
        assert tick_labels(ax, "x")[:2] == ["0", "1"]
"""

from __future__ import annotations

import contextlib

import matplotlib
import numpy as np

from figures_src import _style
from figures_src.build import load_all


def registered(module: str) -> list[str]:
    """The figures a figure module registers (``"figures_src.lesson3"``), sorted: each lesson's test file
    checks that it has a content test for every one."""
    return sorted(n for n, spec in load_all().items() if spec.module == module)


@contextlib.contextmanager
def drawn(name: str, theme: str = "light"):
    """The figure ``name`` drawn in ``theme`` exactly as the build draws it (same rc params and size)."""
    import matplotlib.pyplot as plt

    spec = load_all()[name]
    with matplotlib.rc_context(_style.rc_params(_style.THEMES[theme])):
        fig = plt.figure(figsize=spec.size)
        try:
            spec.draw(fig, _style.THEMES[theme])
            fig.canvas.draw()  # lay out text, so tick labels and sizes are final
            yield fig
        finally:
            plt.close(fig)


def lines(ax) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """label → (x, y) of every labelled line (legend entries), in drawing order."""
    return {ln.get_label(): (np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float))
            for ln in ax.get_lines() if not ln.get_label().startswith("_")}


def all_lines(ax) -> list[tuple[np.ndarray, np.ndarray]]:
    """(x, y) of every line, labelled or not, in drawing order."""
    return [(np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float)) for ln in ax.get_lines()]


def rectangles(ax) -> list[matplotlib.patches.Rectangle]:
    return [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]


def rect_rows(ax) -> list[list[matplotlib.patches.Rectangle]]:
    """Rectangles grouped by their row (same y), top row first, each row left to right."""
    by_y: dict[float, list] = {}
    for r in rectangles(ax):
        by_y.setdefault(round(r.get_y(), 6), []).append(r)
    return [sorted(row, key=lambda r: r.get_x()) for _y, row in sorted(by_y.items(), reverse=True)]


def rgb(c) -> tuple:
    """A colour as (r, g, b) rounded to 4 decimals, so a named colour and its hex compare equal."""
    return tuple(np.round(matplotlib.colors.to_rgba(c)[:3], 4))


def ax_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def bar_heights(ax) -> np.ndarray:
    return np.array([p.get_height() for p in rectangles(ax)])


def tick_labels(ax, axis: str = "x") -> list[str]:
    ticks = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    return [t.get_text() for t in ticks if t.get_visible() and t.get_text()]


def legend_labels(fig) -> list[str]:
    out = []
    for leg in [*(ax.get_legend() for ax in fig.axes), *fig.legends]:
        if leg is not None:
            out += [t.get_text() for t in leg.get_texts()]
    return out


def texts(fig) -> list[matplotlib.text.Text]:
    """Every visible, non-empty text artist of the figure (titles, labels, ticks, legends, annotations)."""
    return [t for t in fig.findobj(matplotlib.text.Text) if t.get_visible() and t.get_text().strip()]
