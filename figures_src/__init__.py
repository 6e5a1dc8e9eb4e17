"""Figure definitions: each figure is a function that draws what posenc computes.

    @figure("sin_clock", alt="……中文替代文本……", caption="……")
    def sin_clock(fig, theme):
        angles = sinusoidal.hand_angles(ex.NEAR_POSITION, ex.SIN_DIM)   # posenc computes …
        ax = fig.add_subplot(projection="polar")     # … the figure only draws
        ...

``theme`` carries the colours of the light or dark variant; draw with them and
never hard-code a colour, so both variants stay readable. ``alt`` and
``caption`` may be callables, for text that quotes computed numbers.
Lessons place a figure with ``{{ figure("sin_clock") }}``.

Every module in this package (except those starting with "_") is loaded by
``figures_src.build``, so a new lesson's figure module needs no registration.

Figures in two languages. A figure module takes every word it draws, and its alt text and caption,
from its section of the label tables, ``figures_src/labels/zh.yaml`` and ``figures_src/labels/en.yaml``
(one table per language, the same keys in both)::

    T = texts(__name__)                                   # this module's section of the tables
    @figure("sin_clock", alt=lambda: T("sin_clock.alt", n=num("sin_dims")), caption=lambda: T("sin_clock.caption"))
    def sin_clock(fig, theme):
        ax.set_xlabel(T("position"))                      # "位置" or "position", as the figure is drawn

``T(key, **values)`` is the text in the language being drawn, with ``{name}`` fields filled in;
``num(name)`` is a registered quantity as that language prints it. A module with a section in
``labels/en.yaml`` is drawn in both languages; the others are drawn once and the English site shows
the Chinese drawing, until they are converted (CONTRIBUTING.md: "How to change a lesson in both languages").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from posenc.quantities import call_site

Text = Union[str, Callable[[], str]]

from figures_src._labels import in_language, language  # noqa: E402,F401  (the language being drawn)


def texts(module: str):
    """``T(key, **values)``: the text of ``key`` in module ``module``'s section of the label table of the
    language being drawn (figures_src/_labels.py)."""
    from figures_src import _labels

    return _labels.Texts(module.rpartition(".")[2])


def num(name: str) -> str:
    """A registered quantity, printed as the language being drawn prints it (posenc/formatting.py)."""
    from posenc import quantities

    return quantities.text(name, language())


@dataclass(frozen=True)
class FigureSpec:
    name: str
    draw: Callable
    alt: Text
    caption: Text
    size: tuple[float, float]
    module: str
    where: str = "?"  # file:line of the @figure(...) line

    def alt_text(self, lang: str = "zh") -> str:
        with in_language(lang):
            return self.alt() if callable(self.alt) else self.alt

    def caption_text(self, lang: str = "zh") -> str:
        with in_language(lang):
            return self.caption() if callable(self.caption) else self.caption


REGISTRY: dict[str, FigureSpec] = {}


def figure(name: str, *, alt: Text, caption: Text = "", size: tuple[float, float] = (6.4, 3.6)):
    """Register ``draw(fig, theme)`` as the figure ``name`` (alt text is required)."""
    if not name.replace("_", "").isalnum():
        raise ValueError(f"figure name {name!r} must be letters, digits and underscores (it becomes a file name)")
    where = call_site(__file__)

    def register(draw: Callable):
        if name in REGISTRY:
            raise ValueError(f"figure {name!r} is defined twice: at {REGISTRY[name].where} and at {where}; rename one")
        if not alt:
            raise ValueError(f"figure {name!r} ({where}) needs alt text for screen readers")
        REGISTRY[name] = FigureSpec(name, draw, alt, caption, size, draw.__module__, where)
        return draw

    return register


# --- drawing helpers shared by the figure modules ------------------------------------------------------------------

DARK_CELL_TEXT, LIGHT_CELL_TEXT = "#ffffff", "#111111"  # a cell's value printed on it: white on dark cells, near-black on light


def heatmap(ax, values, theme, vmin: float, vmax: float, xlabels, ylabels, fontsize=None, cmap=None, aspect=None):
    """A matrix as coloured cells (rows top to bottom), its columns and rows labelled; returns the image for
    ``colorbar``. The colours are the theme's sequential map unless ``cmap`` is given; masked or NaN cells stay
    transparent."""
    size = {} if fontsize is None else {"fontsize": fontsize}
    im = ax.imshow(values, cmap=cmap or theme.seq_cmap, vmin=vmin, vmax=vmax, **({} if aspect is None else {"aspect": aspect}))
    ax.set_xticks(range(len(xlabels)), list(xlabels), **size)
    ax.set_yticks(range(len(ylabels)), list(ylabels), **size)
    return im


def cell_values(ax, texts: dict, dark, fontsize) -> None:
    """Each cell's text printed on it, ``texts`` mapping (row, column) → text, in that order; ``dark(row, column)``
    says which cells are dark enough for white text (viridis, the sequential map, is dark at its low end)."""
    for (row, col), text in texts.items():
        ax.text(col, row, text, ha="center", va="center", fontsize=fontsize, color=DARK_CELL_TEXT if dark(row, col) else LIGHT_CELL_TEXT)


def colorbar(fig, image, axes, label: str | None = None, fontsize=None, **placement):
    """One colour scale for ``axes`` (a list), labelled, its numbers at ``fontsize``; ``placement`` goes to
    matplotlib's ``Figure.colorbar`` (shrink, pad, orientation …)."""
    bar = fig.colorbar(image, ax=list(axes), **placement)
    if label is not None:
        bar.set_label(label, **({} if fontsize is None else {"fontsize": fontsize}))
    if fontsize is not None:
        bar.ax.tick_params(labelsize=fontsize)
    return bar
