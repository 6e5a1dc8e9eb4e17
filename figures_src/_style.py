"""How figures look: the CJK font, the light and dark palettes, deterministic SVG output."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("svg")  # no GUI backend; figures are only ever written as SVG

from matplotlib import font_manager  # noqa: E402

# Preferred CJK fonts, best first, with where Debian's packages put them.
CJK_FONTS = [
    ("Noto Sans CJK SC", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    ("WenQuanYi Micro Hei", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
]
FIX = "run `make setup` (it installs fonts-noto-cjk) or `sudo apt-get install fonts-noto-cjk`"


# Phone rule: at 390 CSS px the content column is about 358 px wide. An SVG's
# natural width is its width in inches × 96 CSS px; at most 4.8 in (461 px) it renders at
# ≥ 0.75 of its natural size there, and text of ≥ 9 pt (12 CSS px natural) stays ≥ 9 CSS px.
# Multi-panel figures stack their panels vertically to fit. tests/test_figure_phone.py checks both.
PHONE_MAX_WIDTH_IN = 4.8
MIN_TEXT_PT = 9.0


class MissingFont(RuntimeError):
    pass


class MissingGlyph(RuntimeError):
    pass


class ChineseInEnglishFigure(RuntimeError):
    """A figure drawn for the English site still draws a CJK character (figures_src/labels/en.yaml lacks it)."""


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
        # Lines of many points (1,024-position curves) are simplified as they are written: vertices
        # that deviate less than 1/4 pt from the drawn line are dropped. The Line2D keeps every point
        # (what the figure tests read); only the SVG's path gets shorter.
        "path.simplify": True,
        "path.simplify_threshold": 0.25,  # points (SVG units): a sixth of a 1.5 pt data line
    }


def drawn_texts(fig) -> list[str]:
    """Every text a figure draws (titles, labels, tick labels, legends, annotations)."""
    from matplotlib.text import Text

    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def render_svg(spec, theme: Theme, lang: str = "zh") -> bytes:
    """Draw ``spec`` in ``theme`` for pages in ``lang`` and return deterministic SVG bytes.

    A glyph missing from the CJK font is an error, not a box on the page; so is a CJK character in a
    figure drawn in English (its text belongs in figures_src/labels/en.yaml).
    """
    import io

    import matplotlib.pyplot as plt

    from figures_src import _labels

    with matplotlib.rc_context(rc_params(theme)), warnings.catch_warnings(record=True) as caught, _labels.in_language(lang):
        warnings.simplefilter("always")
        fig = plt.figure(figsize=spec.size)
        try:
            spec.draw(fig, theme)
            buf = io.BytesIO()
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
            chinese = [t for t in drawn_texts(fig) if _labels.CJK.search(t)] if lang != "zh" else []
        finally:
            plt.close(fig)
    if chinese:
        raise ChineseInEnglishFigure(f"figure {spec.name!r} ({lang}, {theme.name}) draws {chinese[:3]!r}: take its words from "
                                     f"figures_src/labels/{lang}.yaml (T(...)), not from Chinese text in the code or data")
    for w in caught:
        text = str(w.message)
        if "missing from" in text and "Glyph" in text:
            raise MissingGlyph(f"figure {spec.name!r} ({theme.name}): {text} Replace the character or use a font that has it.")
    return compact_svg(buf.getvalue())


# Compact SVG (no figure over 120 KB). matplotlib's SVG is verbose; these rewrites draw the
# same picture in fewer bytes. Each one is exact SVG equivalence or a rounding far below a pixel:
# - path data with relative moves ("l.3-1.5" for "L 42.638099 -179.467348"), on coordinates rounded
#   to one decimal: a point moves at most 0.05 pt (1/15 CSS px), a fraction of the thinnest line (0.8 pt);
#   deltas are taken between rounded points, so nothing drifts;
# - glyph outlines (written at 1/6400 em with scale(1/64)) at 1/200 em (0.05 pt at 10 pt), the scale 32× larger;
# - positions and translations rounded to one decimal, like path coordinates;
# - a glyph placed with transform="translate(x 0)" placed with x="x" (the same translation);
# - ids that are referenced (glyphs "NotoSansCJKsc-Regular-4e2d", markers, clip paths) renamed to short
#   ones ("_0", "_1", … in order of first appearance); matplotlib's unreferenced ids ("line2d_12") dropped
#   (the figure code's own gids, "box:rope:learned", stay);
# - a group of markers that all carry the same style gets the style once, on the group (it is inherited);
# - no indentation, no spaces inside style attributes, no comments (the text each glyph run spells;
#   the page's alt text says what the figure shows) and no RDF metadata block;
# - href="#…" for xlink:href="#…" (SVG 2; every browser since 2019 (Safari 12.1) reads it).
COORD_DECIMALS = 1
GLYPH_DIVISOR = 32
_PATH_DATA = re.compile(rb'(\sd=")([^"]*)(")')
_PATH_TOKEN = re.compile(rb"[A-Za-z]|-?\d+(?:\.\d+)?")
_ARITY = {b"M": 2, b"L": 2, b"Q": 4, b"C": 6, b"z": 0}  # the commands matplotlib writes
_POSITION = re.compile(rb'(\s(?:x|y)=")(-?\d+\.\d+)(")')
_TRANSLATE = re.compile(rb'(translate\()([^)]*)(\))')
_LONG_DECIMAL = re.compile(rb"-?\d+\.\d{%d,}" % (COORD_DECIMALS + 1))
_GLYPH = re.compile(rb'(<path id="[^"]+" d=")([^"]*)" transform="scale\(0\.015625\)"')
_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
_USE_SHIFT = re.compile(rb'(<use xlink:href="#[^"]+") transform="translate\((-?[\d.]+) 0\)"')
_REF = re.compile(rb'xlink:href="#([^"]+)"|url\(#([^)]+)\)')
_ID = re.compile(rb' id="([^"]+)"')
_ID_OR_REF = re.compile(rb'( id="|xlink:href="#|url\(#)([^")]+)([")])')
_AUTO_ID = re.compile(rb"[A-Za-z.]+_\d+")  # matplotlib's own element ids: "line2d_12", "matplotlib.axis_1"
_STYLE_ATTR = re.compile(rb'style="[^"]*"')
_UNIT = 10**COORD_DECIMALS
_MARKERS = re.compile(rb'(<g(?: clip-path="[^"]*")?)>((?:\s*<use xlink:href="#[^"]*" x="[^"]*" y="[^"]*" style="[^"]*"/>)+)(\s*</g>)')
_STYLE = re.compile(rb' style="([^"]*)"')


def _fixed(n: int) -> bytes:
    """An integer count of 1/_UNIT as the shortest decimal: 150 → "1.5", -5 → "-.05"."""
    whole, frac = divmod(abs(n), _UNIT)
    text = f"{whole}.{frac:0{COORD_DECIMALS}d}".rstrip("0").rstrip(".") or "0"
    if text.startswith("0."):
        text = text[1:]
    return (("-" if n < 0 else "") + text).encode()


def relative_path(d: bytes) -> bytes:
    """matplotlib's absolute path data (M/L/Q/C/z) as relative path data on rounded coordinates.

    Anything else (another command, a stray token) is returned unchanged.
    """
    if _PATH_TOKEN.sub(b"", d).strip():
        return d
    tokens = _PATH_TOKEN.findall(d)
    out: list[bytes] = []
    cx = cy = sx = sy = 0
    implied = None  # the command a bare number after the last one continues
    i = 0
    while i < len(tokens):
        cmd = tokens[i]
        arity = _ARITY.get(cmd)
        if arity is None:
            return d
        values = tokens[i + 1:i + 1 + arity]
        if len(values) != arity or any(v.isalpha() for v in values):
            return d
        i += 1 + arity
        if cmd == b"z":
            out.append(b"z")
            cx, cy, implied = sx, sy, None
            continue
        pts = [round(float(v) * _UNIT) for v in values]
        first = not out
        rel = cmd.lower()
        nums = pts if first else [p - (cx if k % 2 == 0 else cy) for k, p in enumerate(pts)]
        letter = b"M" if first else rel
        if letter != implied:
            out.append(letter)
        for n in nums:
            text = _fixed(n)
            if not out[-1].isalpha() and not text.startswith(b"-"):
                out.append(b" ")  # a minus sign separates numbers by itself; anything else needs a space
            out.append(text)
        cx, cy = pts[-2], pts[-1]
        if cmd == b"M":
            sx, sy = cx, cy
        # numbers after a moveto continue as linetos, absolute after "M" and relative after "m"
        implied = {b"M": b"L", b"m": b"l"}.get(letter, letter)
    return b"".join(out)


def _relative_group(m: re.Match) -> bytes:
    return m.group(1) + relative_path(m.group(2)) + m.group(3)


def _round_number(m: re.Match) -> bytes:
    text = f"{round(float(m.group(0)), COORD_DECIMALS):.{COORD_DECIMALS}f}".rstrip("0").rstrip(".")
    return b"0" if text == "-0" else text.encode()


def _round_group(m: re.Match) -> bytes:
    return m.group(1) + _LONG_DECIMAL.sub(_round_number, m.group(2)) + m.group(3)


def _coarser_glyph(m: re.Match) -> bytes:
    outline = _NUMBER.sub(lambda n: b"%d" % round(float(n.group(0)) / GLYPH_DIVISOR), m.group(2))
    return m.group(1) + outline + b'" transform="scale(%s)"' % repr(GLYPH_DIVISOR / 64).encode()


def _short_ids(svg: bytes) -> bytes:
    refs: dict[bytes, bytes] = {}
    for m in _REF.finditer(svg):
        refs.setdefault(m.group(1) or m.group(2), b"_" + np.base_repr(len(refs), 36).lower().encode())
    taken = set(_ID.findall(svg)) - set(refs)
    if taken & set(refs.values()):
        raise ValueError(f"short ids collide with ids in the figure: {sorted(taken & set(refs.values()))}")

    def rename(m: re.Match) -> bytes:
        name = m.group(2)
        if name in refs:
            return m.group(1) + refs[name] + m.group(3)
        return b"" if m.group(1) == b' id="' and _AUTO_ID.fullmatch(name) else m.group(0)

    return _ID_OR_REF.sub(rename, svg)


def _shared_marker_style(m: re.Match) -> bytes:
    styles = set(_STYLE.findall(m.group(2)))
    if len(styles) != 1:
        return m.group(0)
    return m.group(1) + b' style="%s">' % styles.pop() + _STYLE.sub(b"", m.group(2)) + m.group(3)


def compact_svg(svg: bytes) -> bytes:
    """``svg`` as matplotlib wrote it, in fewer bytes (see the rules above); deterministic."""
    svg = _GLYPH.sub(_coarser_glyph, svg)  # before rounding: glyph units are not points
    svg = _PATH_DATA.sub(_relative_group, svg)
    for pattern in (_POSITION, _TRANSLATE):
        svg = pattern.sub(_round_group, svg)
    svg = _USE_SHIFT.sub(rb'\1 x="\2"', svg)
    svg = _short_ids(svg)
    svg = _MARKERS.sub(_shared_marker_style, svg)
    svg = _STYLE_ATTR.sub(lambda m: m.group(0).replace(b": ", b":").replace(b"; ", b";"), svg)
    svg = re.sub(rb"<!--.*?-->\n?|<metadata>.*?</metadata>\n?", b"", svg, flags=re.S)
    svg = svg.replace(b' xlink:href="#', b' href="#')
    return re.sub(rb"\n[ \t]+", b"\n", svg)
