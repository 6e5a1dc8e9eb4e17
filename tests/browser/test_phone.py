"""On a phone: tapping a figure opens it full size, in either scheme; a wide table is cards, and the
search box's reset leaves no tooltip behind after a tap.

Every page's phone reading checks (figures legible at 390 px, wide formulas scroll with a cue and from
the keyboard) and the desktop formula-width check run in the browser gates, on the same page load as
axe-core (tests/browser/test_browser_gates.py, tests/browser/page_checks.py).
"""

from __future__ import annotations

import pytest

from page_checks import OPEN_ALL, PHONE, wait_for_formula_widths
from test_browser_gates import _settle

pytestmark = [pytest.mark.browser, pytest.mark.build]


def _open(browser, site_url, path, viewport, scheme="light"):
    context = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    page.evaluate(OPEN_ALL)
    unsettled = _settle(page)
    wait_for_formula_widths(page)
    return context, page, unsettled


def test_tapping_a_figure_opens_it_full_size_in_either_scheme(browser, site_url):
    """The figure link opens a dialog with the current scheme's SVG at its natural size; Esc closes it
    and gives focus back to the figure."""
    path = "lessons/03-sinusoidal/"
    for scheme in ("light", "dark"):
        context, page, _ = _open(browser, site_url, path, PHONE, scheme)
        try:
            link = page.locator(f"a.pe-zoom--{scheme}:visible").first  # a widget's fallback figure is hidden
            assert link.count() == 1, f"{scheme}: no visible {scheme} figure link"
            assert page.locator(f"a.pe-zoom--{'dark' if scheme == 'light' else 'light'}:visible").count() == 0
            href = link.get_attribute("href")
            link.focus()
            page.keyboard.press("Enter")
            dialog = page.locator("dialog.pe-lightbox[open]")
            dialog.wait_for(timeout=5000)
            img = dialog.locator("img")
            page.wait_for_function("() => document.querySelector('dialog.pe-lightbox img').complete")
            assert img.get_attribute("src").endswith(href.split("/")[-1])
            natural, rendered = img.evaluate("i => [i.naturalWidth, i.getBoundingClientRect().width]")
            assert natural > 0 and abs(rendered - natural) < 1, (natural, rendered)
            bg = dialog.evaluate("d => getComputedStyle(d).backgroundColor")
            page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert bg == page_bg, f"{scheme}: dialog background {bg} differs from the page's {page_bg}"
            page.keyboard.press("Escape")
            page.locator("dialog.pe-lightbox[open]").wait_for(state="detached", timeout=5000)
            assert page.evaluate("document.activeElement.classList.contains('pe-zoom')"), "focus did not return to the figure"
        finally:
            context.close()


def _touch_page(browser, site_url, path, viewport=PHONE):
    context = browser.new_context(viewport=viewport, has_touch=True, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    return context, page


CARD = """t => {
  const rows = [...t.tBodies[0].rows];
  return {display: getComputedStyle(rows[0]).display,
          heads: [...t.tHead.rows[0].cells].map(c => c.textContent.trim()),
          labels: [...rows[0].cells].map(c => getComputedStyle(c, '::before').content)};
}"""


def test_a_wide_table_is_cards_on_a_phone_and_still_a_table_for_screen_readers(browser, site_url):
    """Lesson 2's position table (seven columns): on a phone each row is a card that names every value's column; its
    cells keep the table's roles, and a cell's name is its value alone; on a desktop it is a table."""
    path = "lessons/02-learned-table/"
    context, page = _touch_page(browser, site_url, path)
    try:
        table = page.locator("article table[data-pe-cards]").first
        table.scroll_into_view_if_needed()
        got = table.evaluate(CARD)
        assert got["display"] == "block", got
        assert got["labels"][0] == "none"  # the first cell is the card's title
        # each label is its column's name, with empty alternative text ("0" / "") so it is not read twice
        assert got["labels"][1:] == [f'"{head}" / ""' for head in got["heads"][1:]], got
        assert table.evaluate("t => t.closest('.md-typeset__scrollwrap').scrollWidth <= t.closest('.md-typeset__scrollwrap').clientWidth + 1")
        cdp = context.new_cdp_session(page)
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "article table[data-pe-cards]"})["nodeId"]
        cells = cdp.send("Accessibility.queryAXTree", {"nodeId": node, "role": "cell"})["nodes"]
        headers = cdp.send("Accessibility.queryAXTree", {"nodeId": node, "role": "columnheader"})["nodes"]
        assert len(headers) == len(got["heads"]) and len(cells) >= len(got["heads"])
        names = [(c.get("name") or {}).get("value", "").strip() for c in cells[: len(got["heads"])]]
        values = table.evaluate("t => [...t.tBodies[0].rows[0].cells].map(c => c.textContent.trim())")
        assert names[1:] == values[1:], (names, values)  # a labelled cell's name is its value: the label is not read
    finally:
        context.close()
    context, page = _touch_page(browser, site_url, path, viewport={"width": 1280, "height": 900})
    try:
        assert page.locator("article table[data-pe-cards]").first.evaluate(CARD)["display"] == "table-row"
    finally:
        context.close()


def test_the_search_reset_leaves_no_tooltip_after_a_tap(browser, site_url):
    """On a touch screen Material's 清空当前内容 tooltip stayed on screen after the reset was tapped."""
    context, page = _touch_page(browser, site_url, "lessons/03-sinusoidal/")
    try:
        page.locator("label[for='__search']").first.tap()
        box = page.locator("input.md-search__input")
        box.fill("RoPE")
        box.press("End")
        page.locator(".md-search__options button[type=reset]").tap()
        page.wait_for_timeout(300)  # Material's tooltip shows after a short delay
        assert box.input_value() == ""
        shown = page.evaluate("""[...document.querySelectorAll('.md-tooltip, .md-tooltip2')]
          .filter(t => t.getClientRects().length && getComputedStyle(t).visibility !== 'hidden' && getComputedStyle(t).opacity !== '0')
          .map(t => t.textContent.trim())""")
        assert "清空当前内容" not in shown, shown
    finally:
        context.close()
