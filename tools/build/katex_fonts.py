"""KaTeX's fonts cut down to the characters the site's formulas use.

A piece of the site-level post-build step (tools/build/post_build.py ``finish_site``), after
tools/build/katex_render.py has set every formula; it needs no MkDocs. KaTeX's fonts carry every glyph
TeX's math can ask for; a page draws a few dozen of them, and its formulas stay invisible until the
fonts they use have arrived (KaTeX's @font-face rules say font-display: block). On a slow phone the
two fonts nearly every formula uses, KaTeX_Main-Regular and KaTeX_Math-Italic, were 43 KB of the
first load. After the build, every built page in the site folder is read (so a page built by an
earlier or a parallel pass, another edition's included), the characters drawn by its formulas are
collected (the text of KaTeX's visible markup, `katex-html`; the MathML copy is for screen readers
and is drawn with the browser's own math font), and each of KaTeX's WOFF2 fonts is written into
site/vendor/katex/fonts/ holding only those of its glyphs. Which of KaTeX's fonts draws a character
depends on KaTeX's classes and stylesheet; a character is kept in every KaTeX font that has it, so
no font lacks a character some formula could draw with it. The subsets carry no TrueType hinting (the
instructions that fit outlines to a coarse pixel grid, which phones and macOS ignore and Windows uses
at small sizes): it was a fifth of each subset's bytes. Main-Regular and Math-Italic, 43 KB as KaTeX
ships them, come to about 18 KB.

A subset is cached by content in .cache/katex-fonts/ (keyed on the original font, the characters,
fontTools' and brotli's versions and the subsetting options): a build that adds no new character
reuses it, and the same inputs give the same bytes. Each subset is read back and checked: a font that
lacks a character the formulas use and the original font has fails the build, naming the font and
the characters.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
from pathlib import Path

try:
    from mkdocs.exceptions import PluginError
except ImportError:  # used without MkDocs: the post-build step needs no generator (tools/build/post_build.py)
    class PluginError(Exception):
        """A subset lacks a character, or KaTeX's fonts are missing."""

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "node_modules" / "katex" / "dist" / "fonts"
SITE_FONTS = Path("vendor") / "katex" / "fonts"  # where katex.min.css (vendor/katex/) finds them
CACHE_DIR = ROOT / ".cache" / "katex-fonts"

# Drawn by KaTeX's stylesheet, not by the markup: an equation's number, "(" counter ")", in KaTeX_Main.
# And the space, which every KaTeX font has: a font no formula draws from keeps a character map
# (fontTools drops the map of a font left with no character), a valid font should a browser fetch it.
ALWAYS = frozenset("()0123456789 ")

_VISIBLE = '<span class="katex-html" aria-hidden="true">'
_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)(?:[^\"'>]|\"[^\"]*\"|'[^']*')*?(/?)>")


def formula_characters(page_html: str) -> set[str]:
    """The characters KaTeX's visible markup draws in ``page_html`` (entities decoded)."""
    chars: set[str] = set()
    start = page_html.find(_VISIBLE)
    while start != -1:
        pos, depth = start + len(_VISIBLE), 1
        while depth:
            tag = _TAG.search(page_html, pos)
            if tag is None:
                raise PluginError(f"KaTeX markup that never closes at character {start}: {page_html[start:start + 120]!r}")
            chars.update(html.unescape(page_html[pos:tag.start()]))
            if tag.group(1):
                depth -= 1
            elif not tag.group(3):
                depth += 1
            pos = tag.end()
        start = page_html.find(_VISIBLE, pos)
    return chars


def site_characters(site_dir: Path) -> set[str]:
    """The characters the formulas of every built page under ``site_dir`` draw."""
    chars: set[str] = set()
    for page in sorted(Path(site_dir).rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if _VISIBLE in text:
            chars |= formula_characters(text)
    return chars


def _options():
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # see the module docstring
    options.recalc_timestamp = False  # keep head.modified: the same inputs give the same bytes
    return options


def _key(font: bytes, chars: str) -> str:
    import brotli
    import fontTools

    options = sorted((k, repr(v)) for k, v in vars(_options()).items())
    parts = [font, chars.encode(), fontTools.version.encode(), brotli.__version__.encode(), repr(options).encode()]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:20]


def cmap(data: bytes) -> set[str]:
    """The characters a font (any flavour fontTools reads) maps to a glyph."""
    import io

    from fontTools.ttLib import TTFont

    with TTFont(io.BytesIO(data), lazy=True) as font:
        return {chr(c) for c in font.getBestCmap() or ()}


def subset(font_path: Path, chars: set[str], cache_dir: Path = CACHE_DIR) -> bytes:
    """``font_path`` as WOFF2 with only its glyphs for ``chars`` (and what they need); cached by content."""
    import io

    from fontTools import subset as ft

    original = font_path.read_bytes()
    wanted = "".join(sorted(chars))
    cached = cache_dir / f"{font_path.stem}.{_key(original, wanted)}.woff2"
    if cached.is_file():
        return cached.read_bytes()
    options = _options()
    font = ft.load_font(io.BytesIO(original), options, dontLoadGlyphNames=True)
    subsetter = ft.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in wanted])
    subsetter.subset(font)
    out = io.BytesIO()
    ft.save_font(font, out, options)
    font.close()
    data = out.getvalue()
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, cached)
    return data


def write_subsets(site_dir: Path, fonts_dir: Path = FONTS, cache_dir: Path = CACHE_DIR) -> tuple[int, int, int]:
    """Write every KaTeX WOFF2 font into ``site_dir``, cut to the characters its formulas draw.

    Returns (characters, bytes before, bytes after). A subset that lacks a character the formulas
    draw and the original font has is a PluginError naming both.
    """
    originals = sorted(fonts_dir.glob("*.woff2"))
    if not originals:
        raise PluginError(f"no KaTeX fonts in {fonts_dir}: run `make setup` (it runs `npm ci`)")
    used = site_characters(site_dir) | ALWAYS
    out_dir = Path(site_dir) / SITE_FONTS
    out_dir.mkdir(parents=True, exist_ok=True)
    before = after = 0
    for path in originals:
        original = path.read_bytes()
        needed = used & cmap(original)
        data = subset(path, needed, cache_dir)
        missing = needed - cmap(data)
        if missing:
            shown = " ".join(f"{c!r} (U+{ord(c):04X})" for c in sorted(missing))
            raise PluginError(f"{path.name}: the subset lacks characters the formulas draw: {shown}; "
                              f"delete {cache_dir.relative_to(ROOT) if cache_dir.is_relative_to(ROOT) else cache_dir} and build again")
        (out_dir / path.name).write_bytes(data)
        before += len(original)
        after += len(data)
    return len(used), before, after
