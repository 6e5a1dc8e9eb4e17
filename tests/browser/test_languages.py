"""The two editions in the browser (tools/build/i18n.py, docs/javascripts/alternate.js, lazy-search.js): the language
selector lands on the same page in the other language, also after an instant navigation, with the page's
language in <html lang>; an English page's search lists English pages."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.build]


def _switch(page, lang: str) -> None:
    page.locator(".md-header .md-select").first.hover()
    page.locator(f'.md-select__link[hreflang="{lang}"]').first.click()


def test_the_selector_lands_on_the_same_page_after_an_instant_navigation(visit, site_url):
    sp = visit("lessons/04-rope/", wait="load")
    page = sp.page
    # an instant navigation keeps the first page's header, selector included
    page.locator('.md-nav__link[href$="05-long-context/"]').first.click()
    page.wait_for_url("**/lessons/05-long-context/")
    assert page.evaluate("document.documentElement.lang") == "zh"
    _switch(page, "en")
    page.wait_for_url("**/en/lessons/05-long-context/")
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == "en"  # a full load: the page's own language
    _switch(page, "zh")
    page.wait_for_url(f"{site_url}/lessons/05-long-context/")
    assert page.evaluate("document.documentElement.lang") == "zh"
    sp.assert_clean()


def test_an_english_page_searches_the_english_index(browser, site_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        asked = []
        page.on("request", lambda r: asked.append(urlsplit(r.url).path) if r.url.endswith("search_index.json") else None)
        page.goto(f"{site_url}/en/", wait_until="load")
        box = page.locator("input.md-search__input")
        box.click()
        box.press_sequentially("intervals")
        # the worker first builds its index; a stemmed match carries no ?h= highlight to wait on, so wait for a result
        page.wait_for_function("() => document.querySelector('.md-search-result__list > li a') !== null", timeout=60_000)
        href = page.locator(".md-search-result__list > li a").first.get_attribute("href")
        assert urlsplit(urljoin(page.url, href)).path.endswith("/en/lessons/results/")
        assert asked and all(p.endswith("/en/search/search_index.json") for p in asked), asked
    finally:
        context.close()


SIMPLIFIED_CHINESE_FONTS = {"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC"}


def _drawn_with(page, selector: str) -> set[str]:
    """The system fonts Chromium drew the text of ``selector``'s first match with (DevTools' platform fonts)."""
    # laid out: DevTools reports no fonts for text under content-visibility: auto (the references' lists)
    page.evaluate("() => document.querySelectorAll('.pe-sources').forEach(list => { list.style.contentVisibility = 'visible'; })")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"nothing matches {selector}"
    return {font["familyName"] for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}


@pytest.mark.parametrize("path, selector", [("lessons/01-order-blind/", "article p"),
                                            ("en/references/", 'article dd span[lang="zh"]')])
def test_chinese_is_drawn_in_a_simplified_chinese_font(visit, path, selector):
    """docs/stylesheets/extra.css names the Chinese fonts: a Chinese page's text, and the Chinese words an English page
    marks lang="zh", are drawn in a Simplified Chinese font whatever the browser's own CJK setting (the headless shell
    these tests drive has none, and took a Japanese font for them: other forms of some characters, other widths)."""
    sp = visit(path)
    fonts = _drawn_with(sp.page, selector)
    assert fonts & SIMPLIFIED_CHINESE_FONTS, f"{path} {selector}: drawn with {fonts}"
    assert not [f for f in fonts if re.search(r"\b(JP|KR|TC|HK)\b", f)], f"{path} {selector}: drawn with {fonts}"
    sp.assert_clean()
