"""KaTeX's fonts cut to the characters the formulas draw (tools/build/katex_fonts.py): which characters count,
the subset holding them and nothing it need not, the same bytes every time, the cache, and a subset that
lacks a character failing the build with the font and the character."""

from __future__ import annotations

import pytest
from mkdocs.exceptions import PluginError

from tools.build import katex_fonts as kf
from tools.build import katex_render as kr

MAIN = kf.FONTS / "KaTeX_Main-Regular.woff2"


@pytest.fixture(scope="module")
def omega_page(tmp_path_factory):
    """A page with one formula, set by the site's own KaTeX."""
    renderer = kr.Renderer(cache_dir=tmp_path_factory.mktemp("katex"))
    try:
        page, count = kr.render_page(r"<html><body><p>角频率 \(\omega_i = \theta^{-2i/d}\) 与 &lt;</p></body></html>",
                                     renderer.render, "x.md")
    finally:
        renderer.close(save=False)
    assert count == 1
    return page


def test_the_characters_are_those_katex_draws_not_its_mathml_or_tex(omega_page):
    chars = kf.formula_characters(omega_page)
    assert set("ωi=θ2/d") | {"\u2212"} <= chars  # KaTeX draws the minus sign as U+2212
    # the MathML copy has "-" and the TeX annotation "\omega"; the page's own text is not a formula
    assert not chars & set("-\\omegat{}角频率与<")


def test_a_subset_holds_the_characters_asked_for_and_drops_the_rest(tmp_path):
    original = kf.cmap(MAIN.read_bytes())
    wanted = set("x=2+") | {"\u2212"}
    data = kf.subset(MAIN, wanted, tmp_path)
    assert data[:4] == b"wOF2"
    kept = kf.cmap(data)
    assert wanted <= kept and "§" in original and "§" not in kept and len(kept) < 20
    assert len(data) < MAIN.stat().st_size / 3


def test_a_subset_is_the_same_bytes_every_time_and_cached_by_content(tmp_path, monkeypatch):
    first = kf.subset(MAIN, set("abc"), tmp_path / "one")
    assert kf.subset(MAIN, set("abc"), tmp_path / "two") == first  # made again from nothing: same bytes
    cached = list((tmp_path / "one").iterdir())
    assert len(cached) == 1 and cached[0].read_bytes() == first
    from fontTools import subset

    monkeypatch.setattr(subset, "Subsetter", lambda *a, **k: pytest.fail("a cached subset was made again"))
    assert kf.subset(MAIN, set("abc"), tmp_path / "one") == first
    assert kf._key(MAIN.read_bytes(), "abc") != kf._key(MAIN.read_bytes(), "abd")


def test_every_katex_font_is_written_into_the_site_cut_to_the_formulas_characters(tmp_path, omega_page):
    site = tmp_path / "site"
    (site / "lessons" / "x").mkdir(parents=True)
    (site / "lessons" / "x" / "index.html").write_text(omega_page, encoding="utf-8")
    count, before, after = kf.write_subsets(site, cache_dir=tmp_path / "cache")
    written = sorted(p.name for p in (site / kf.SITE_FONTS).iterdir())
    assert written == sorted(p.name for p in kf.FONTS.glob("*.woff2"))
    assert after < before / 3
    main = kf.cmap((site / kf.SITE_FONTS / MAIN.name).read_bytes())
    math = kf.cmap((site / kf.SITE_FONTS / "KaTeX_Math-Italic.woff2").read_bytes())
    assert "θ" in math and "ω" in math and "=" in main and "(" in main  # "(": KaTeX's CSS numbers equations
    assert "§" not in main and count == len(kf.formula_characters(omega_page) | kf.ALWAYS)


def test_a_subset_that_lacks_a_character_the_formulas_draw_fails_the_build(tmp_path, omega_page, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(omega_page, encoding="utf-8")
    made = kf.subset
    # a subset (from a stale or broken cache, or a subsetter that drops a glyph) without θ
    monkeypatch.setattr(kf, "subset", lambda path, chars, cache_dir:
                        made(path, chars - {"θ"} if path.name == "KaTeX_Math-Italic.woff2" else chars, cache_dir))
    with pytest.raises(PluginError, match=r"KaTeX_Math-Italic\.woff2: the subset lacks characters the formulas draw: 'θ' \(U\+03B8\)"):
        kf.write_subsets(site, cache_dir=tmp_path / "cache")
