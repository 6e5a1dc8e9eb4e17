"""Site wiring that needs no build: the BibTeX macro, the verification tags' tooltips, the phone
constants' arithmetic (the notebooks' setup cell: tests/test_notebook_download.py)."""

from __future__ import annotations

import re

from macro_env import MacroEnv


def test_citation_bibtex_macro_is_a_bibtex_block_from_citation_cff():
    from tools.build.citation import bibtex_entry

    for page, lang in (("index.md", "zh"), ("index.en.md", "en")):
        block = MacroEnv(page).macros["citation_bibtex"]()
        assert block.startswith("```bibtex\n@software{") and block.endswith("\n```")
        assert block == f"```bibtex\n{bibtex_entry(lang=lang).rstrip()}\n```"
    assert "origtitle" in MacroEnv("index.en.md").macros["citation_bibtex"]()


def test_verification_tags_read_distinctly():
    from posenc.facts import TAGS
    from tools.build.macros import tag_badge

    titles = {tag: re.search(r'title="([^"]*)"', tag_badge(tag, "某来源")).group(1) for tag in TAGS}
    openings = {tag: title.split("：")[0] for tag, title in titles.items()}
    assert len(set(openings.values())) == len(TAGS), openings
    assert not titles["V3"].startswith("已核实") and not titles["U"].startswith("已核实"), titles
    assert all(title.endswith("来源：某来源") for title in titles.values())
    assert all('data-search-exclude="tag"' in tag_badge(tag, "x") for tag in TAGS)


def test_phone_constants_fit_the_measured_column():
    """figures_src/_style.py's limit against Material's column at 390 px (measured in Chromium: the
    article is 390 − 2 × 16 = 358 px wide; extra.css lets a figure span all 390 px on a phone)."""
    from figures_src import _style

    natural_px = _style.PHONE_MAX_WIDTH_IN * 96
    assert 358 / natural_px >= 0.75  # even in the plain column
    assert _style.MIN_TEXT_PT * 96 / 72 * (358 / natural_px) >= 9  # 9 pt text stays ≥ 9 CSS px
