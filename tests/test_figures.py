"""The figure pipeline: alt text, deterministic SVG, the cache (and why it cannot serve a stale drawing), CJK glyphs."""

import re
import sys
import types

import pytest

from figures_src import FigureSpec, _style, build
from test_figure_phone import FIGURES, _skip_pending, svg_size_in

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_figure_has_chinese_alt_text_and_caption():
    for name, spec in build.load_all().items():
        assert CJK.search(spec.alt_text()), f"{name}: alt text must be Chinese"
        assert len(spec.alt_text()) >= 20, f"{name}: alt text should describe what the figure shows"


def _built_figures(site_dir) -> dict[str, dict[str, bytes]]:
    """The SVGs the session's site build serves (figures/<name>.<theme>.svg): every figure in both themes."""
    return {name: {theme: (site_dir / "figures" / f"{name}.{theme}.svg").read_bytes() for theme in _style.THEMES}
            for name in build.load_all()}


@pytest.mark.build
def test_a_clean_render_gives_the_built_bytes_and_a_rerender_draws_nothing(site_dir, tmp_path):
    # The site build drew every figure (with an empty cache in a fresh clone, as CI runs it); here one figure of
    # every module is drawn again, in this process and with no cache. What could make an SVG differ (hash salt,
    # metadata dates, set order) is per backend or per module, and tests/test_gates.py compares every file of
    # two whole clean builds anyway.
    built = _built_figures(site_dir)
    sample = {}
    for name, spec in build.load_all().items():
        sample.setdefault(spec.module, name)
    fresh = build.render_all(tmp_path, use_cache=False, only=set(sample.values()))
    assert len(fresh.drawn) == 2 * len(sample)
    for name in sample.values():
        for theme, path in fresh.paths[name].items():
            assert path.read_bytes() == built[name][theme], f"{name}.{theme} differs between the build and a fresh render"
    for name, themes in built.items():
        for theme, svg in themes.items():
            assert b"<dc:date>" not in svg, f"{name}.{theme}: SVG metadata must not carry a date"
    again = build.render_all(tmp_path, only=set(sample.values()))
    assert again.drawn == [] and len(again.cached) == 2 * len(sample)


@pytest.mark.build
@pytest.mark.parametrize("name", FIGURES)
def test_figure_fits_a_phone(name, site_dir):
    """The SVGs the site serves (the session build's, in both themes) are narrow enough for a phone
    (tests/test_figure_phone.py: the rule, and the text-size check)."""
    spec = _skip_pending(name)
    for theme in _style.THEMES:
        width, _ = svg_size_in((site_dir / "figures" / f"{name}.{theme}.svg").read_bytes())
        assert width <= _style.PHONE_MAX_WIDTH_IN + 1e-6, (
            f"figure {name!r} ({spec.where}, {theme}) is {width:.2f} in wide as drawn (tight bounding box), over the phone "
            f"limit of {_style.PHONE_MAX_WIDTH_IN} in: narrow it (size=, fewer or shorter labels) or stack its panels vertically")


@pytest.mark.build
def test_light_and_dark_variants_differ(site_dir):
    for name, themes in _built_figures(site_dir).items():
        light, dark = themes["light"].decode("utf-8"), themes["dark"].decode("utf-8")
        assert light != dark, f"{name}: dark variant is identical to light"
        assert _style.THEMES["dark"].fg in dark and _style.THEMES["light"].fg in light


def _fake_module(tmp_path, source: str) -> str:
    path = tmp_path / "fake_fig_module.py"
    path.write_text(source)
    mod = types.ModuleType("fake_fig_module")
    mod.__file__ = str(path)
    sys.modules["fake_fig_module"] = mod
    return path


def test_cache_key_follows_the_figure_code(tmp_path):
    path = _fake_module(tmp_path, "A = 1\n")
    spec = FigureSpec("fake", lambda fig, theme: None, "假的图", "", (2, 2), "fake_fig_module")
    k1 = build.cache_key(spec, "light")
    assert build.cache_key(spec, "light") == k1  # stable
    assert build.cache_key(spec, "dark") != k1  # per theme
    path.write_text("A = 2\n")
    assert build.cache_key(spec, "light") != k1  # code edit → redraw


def test_cache_key_follows_the_quantities_a_figure_module_quotes(tmp_path, monkeypatch):
    """A label may print a registered quantity (lesson 2's legend prints embed_init_std): its text is in the key."""
    from posenc import quantities

    _fake_module(tmp_path, "LABEL = 'embed_init_std'\n")
    spec = FigureSpec("fake", lambda fig, theme: None, "假的图", "", (2, 2), "fake_fig_module")
    k1 = build.cache_key(spec, "light")
    real = quantities.text
    monkeypatch.setattr(quantities, "text", lambda name, lang="zh": "0.03" if name == "embed_init_std" else real(name, lang))
    assert build.cache_key(spec, "light") != k1


def test_the_build_draws_missing_figures_in_a_fresh_process_and_nothing_when_unchanged(tmp_path, monkeypatch):
    """render_all(fresh_process=True) is what the build calls: it draws with the code on disk, never with modules
    an earlier build imported, and a rebuild with nothing changed starts no drawing process at all."""
    only = {"rope_conventions"}
    first = build.render_all(tmp_path, fresh_process=True, only=only)
    assert sorted(first.drawn) == ["rope_conventions.dark", "rope_conventions.light"]
    fresh = build.render_all(tmp_path / "inproc", use_cache=False, only=only)  # drawn here, from the same code
    for theme in ("light", "dark"):
        assert first.paths["rope_conventions"][theme].read_bytes() == fresh.paths["rope_conventions"][theme].read_bytes()

    def no_process(*args, **kwargs):
        raise AssertionError("a no-change rebuild started a drawing process")

    monkeypatch.setattr(build.subprocess, "run", no_process)
    again = build.render_all(tmp_path, fresh_process=True, only=only)
    assert again.drawn == [] and sorted(again.cached) == ["rope_conventions.dark", "rope_conventions.light"]


def test_a_source_edited_while_drawing_discards_the_drawings(tmp_path, monkeypatch):
    digests = iter(["before", "after: someone saved a file"])
    monkeypatch.setattr(build, "sources_digest", lambda: next(digests))
    with pytest.raises(build.SourcesChanged, match="build again"):
        build.render_all(tmp_path, use_cache=False, only={"rope_conventions"})
    assert not list(tmp_path.glob("*.svg")), "a drawing made while its code changed must not stay in the cache"


def test_a_missing_glyph_is_an_error():
    def draw(fig, theme):
        fig.add_subplot().set_title("位置 \U0001fab8")  # a glyph no CJK font carries

    spec = FigureSpec("glyph_test", draw, "测试", "", (2, 2), __name__)
    with pytest.raises(_style.MissingGlyph, match="glyph_test"):
        _style.render_svg(spec, _style.THEMES["light"])


def test_missing_cjk_font_names_the_fix(monkeypatch):
    monkeypatch.setattr(_style, "CJK_FONTS", [("Nope Sans", "/nonexistent/font.ttc")])
    monkeypatch.setattr(_style.shutil, "which", lambda name: None)
    _style.cjk_font.cache_clear()
    try:
        with pytest.raises(_style.MissingFont, match="make setup"):
            _style.cjk_font()
    finally:
        _style.cjk_font.cache_clear()


def test_chinese_labels_are_drawn_with_the_cjk_font():
    family, path = _style.cjk_font()
    assert any(k in family for k in ("CJK", "Hei")), family
    from matplotlib.ft2font import FT2Font

    font = FT2Font(path)
    assert font.get_char_index(ord("位")) != 0


def test_a_figure_depends_only_on_the_posenc_modules_it_uses():
    build.load_all()
    deps = {p.name for p in build.posenc_dependencies(sys.modules["figures_src.lesson3"])}
    assert "sinusoidal.py" in deps  # what lesson 3 draws from
    assert "rope.py" not in deps and "scaling.py" not in deps  # editing these must not redraw lesson 3
