"""Figures on a phone (issue 18): tapping one opens it full size, in either scheme.

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
