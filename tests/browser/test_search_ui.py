"""The search box in Chromium lists first the page that tests/test_search.py's Node harness
(Material's own search worker, tests/material_search.cjs) ranks first: the query table there
measures what a reader sees."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest

from test_search import material_search

pytestmark = [pytest.mark.browser, pytest.mark.build]

QUERIES = ["外推", "YaRN", "正弦位置编码", "因果掩码"]


def test_search_box_matches_the_harness(browser, site_url, site_dir):
    expected = {q: r[0]["page"] for q, r in material_search(site_dir, QUERIES).items() if r}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{site_url}/", wait_until="load")
        shown = {}
        for query in QUERIES:
            box = page.locator("input.md-search__input")
            box.click()
            box.fill("")
            box.press_sequentially(query)
            box.press("End")  # Material searches on keyup; Playwright inserts CJK text without key events
            # the list shows the last answer until the worker answers this query; a result's link
            # carries the query it answers (search.highlight: ?h=<query>)
            page.wait_for_function(
                """q => [...document.querySelectorAll('.md-search-result__list > li:first-child a')]
                          .some(a => new URL(a.href).searchParams.get('h') === q)""",
                arg=query.lower(), timeout=60_000)  # the worker first builds its index
            href = page.locator(".md-search-result__list > li a").first.get_attribute("href")
            shown[query] = urlsplit(urljoin(page.url, href)).path.lstrip("/")
        assert shown == expected, f"search box: {shown}; harness: {expected}"
    finally:
        context.close()
