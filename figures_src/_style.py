"""How figures look: the CJK font, the light and dark palettes, deterministic SVG output."""

from __future__ import annotations

import shutil
import subprocess
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import matplotlib

matplotlib.use("svg")  # no GUI backend; figures are only ever written as SVG

from matplotlib import font_manager  # noqa: E402

# Preferred CJK fonts, best first, with where Debian's packages put them.
CJK_FONTS = [
    ("Noto Sans CJK SC", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    ("WenQuanYi Micro Hei", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
]
FIX = "run `make setup` (it installs fonts-noto-cjk) or `sudo apt-get install fonts-noto-cjk`"


# Phone rule (issue 18): at 390 CSS px the content column is about 358 px wide. An SVG's
# natural width is its width in inches × 96 CSS px; at most 4.8 in (461 px) it renders at
# ≥ 0.75 of its natural size there, and text of ≥ 9 pt (12 CSS px natural) stays ≥ 9 CSS px.
# Multi-panel figures stack their panels vertically to fit. tests/test_figure_phone.py checks both.
PHONE_MAX_WIDTH_IN = 4.8
MIN_TEXT_PT = 9.0


class MissingFont(RuntimeError):
    pass


class MissingGlyph(RuntimeError):
    pass


@lru_cache(maxsize=None)
def cjk_font() -> tuple[str, str]:
    """(family, file) of the CJK font figures use, registered with matplotlib.

    matplotlib caches its font list, so a font installed after that cache was
    built is invisible until registered explicitly with addfont().
    """
    for family, path in CJK_FONTS:
        if Path(path).exists():
            font_manager.fontManager.addfont(path)
            return family, path
    if shutil.which("fc-match"):
        out = subprocess.run(["fc-match", "-f", "%{family[0]}\t%{file}", ":lang=zh-cn"], capture_output=True, text=True)
        family, _, path = out.stdout.partition("\t")
        if path and Path(path).exists() and any(k in family for k in ("CJK", "Hei", "Song", "Ming", "Kai")):
            font_manager.fontManager.addfont(path)
            return family, path
    raise MissingFont(f"no CJK font found for figure labels (looked for {', '.join(f for f, _ in CJK_FONTS)}); {FIX}")


@dataclass(frozen=True)
class Theme:
    """Colours for one colour scheme. Series colours are chosen to read on both backgrounds."""

    name: str
    fg: str  # text, axes
    muted: str  # grid, secondary lines
    panel: str  # faint fills
    series: tuple[str, ...]  # categorical colours (Okabe–Ito, colour-blind safe)
    cmap: str  # diverging colormap for signed values
    seq_cmap: str  # sequential colormap


_SERIES_LIGHT = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
_SERIES_DARK = ("#56B4E9", "#FF8C42", "#3DD6A3", "#E59CC9", "#F0C03A", "#9AD3F5", "#FFFFFF")

THEMES = {
    "light": Theme("light", fg="#1f2328", muted="#8c959f", panel="#eef1f4", series=_SERIES_LIGHT, cmap="RdBu_r", seq_cmap="viridis"),
    "dark": Theme("dark", fg="#e6edf3", muted="#7d8590", panel="#2b3036", series=_SERIES_DARK, cmap="RdBu_r", seq_cmap="viridis"),
}


def rc_params(theme: Theme) -> dict:
    family, _ = cjk_font()
    return {
        "font.family": [family],
        "font.size": 10,
        "axes.unicode_minus": True,
        "mathtext.fontset": "dejavusans",
        "svg.fonttype": "path",  # glyphs as paths: the reader needs no font, output is byte-stable
        "svg.hashsalt": "posenc",  # fixed ids, so two builds give identical files
        "figure.facecolor": "none",  # transparent: the page's own background shows through
        "axes.facecolor": "none",
        "savefig.facecolor": "none",
        "savefig.transparent": True,
        "text.color": theme.fg,
        "axes.labelcolor": theme.fg,
        "axes.edgecolor": theme.muted,
        "xtick.color": theme.fg,
        "ytick.color": theme.fg,
        "grid.color": theme.muted,
        "grid.alpha": 0.35,
        "axes.prop_cycle": matplotlib.cycler(color=list(theme.series)),
        "legend.frameon": False,
        "path.simplify": False,
    }


def render_svg(spec, theme: Theme) -> bytes:
    """Draw ``spec`` in ``theme`` and return deterministic SVG bytes.

    A glyph missing from the CJK font is an error, not a box on the page.
    """
    import io

    import matplotlib.pyplot as plt

    with matplotlib.rc_context(rc_params(theme)), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = plt.figure(figsize=spec.size)
        try:
            spec.draw(fig, theme)
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    for w in caught:
        text = str(w.message)
        if "missing from" in text and "Glyph" in text:
            raise MissingGlyph(f"figure {spec.name!r} ({theme.name}): {text} Replace the character or use a font that has it.")
    return buf.getvalue()
