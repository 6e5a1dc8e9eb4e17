"""Every page read on a phone (issue 18): at 390 × 844 CSS px in Chromium, with every folded
block opened, each figure renders at no less than 0.75 of its natural width (so its ≥ 9 pt text
stays ≥ 9 CSS px without zooming), and a display formula that has to scroll shows a visible
cue and can be scrolled from the keyboard. At 1280 px no display formula is wider than its column.

The natural width of a figure is its SVG's intrinsic width in CSS px (the browser's naturalWidth:
matplotlib writes pt, 1 pt = 4/3 px). tests/test_figure_phone.py checks the SVGs without a browser.
"""

from __future__ import annotations

import pytest

from test_browser_gates import _settle
from test_gates import doc_pages

pytestmark = [pytest.mark.browser, pytest.mark.build]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MIN_RATIO = 0.75
PAGES = [p for p in doc_pages() if p != "404.html"]

OPEN_ALL = "document.querySelectorAll('details').forEach(d => { d.open = true; })"

FIGURES = """() => [...document.querySelectorAll('.pe-figure img')]
  .filter(img => img.getClientRects().length > 0)
  .map(img => ({
    figure: img.closest('.pe-figure').id.replace(/^fig-/, ''),
    src: img.getAttribute('src'),
    natural: img.naturalWidth,
    rendered: img.getBoundingClientRect().width,
    column: img.closest('.pe-figure').parentElement.getBoundingClientRect().width,
  }))"""

FORMULAS = """() => [...document.querySelectorAll('div.arithmatex')]
  .filter(el => el.getClientRects().length > 0)
  .map((el, i) => {
    const hint = el.nextElementSibling;
    return {
      i, tex: el.textContent.trim().slice(0, 60),
      overflow: el.scrollWidth - el.clientWidth,
      width: el.clientWidth, content: el.scrollWidth,
      tabindex: el.getAttribute('tabindex'), role: el.getAttribute('role'), label: el.getAttribute('aria-label'),
      shadow: getComputedStyle(el).backgroundImage.includes('gradient'),
      hint: !!hint && hint.classList.contains('pe-scroll-hint') && !hint.hidden && hint.getClientRects().length > 0,
    };
  })"""


def _open(browser, site_url, path, viewport, scheme="light"):
    context = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{site_url}/{path}", wait_until="load")
    page.evaluate(OPEN_ALL)
    unsettled = _settle(page)
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(300)  # katex-init.js marks wide formulas once the fonts are in
    return context, page, unsettled


@pytest.mark.parametrize("path", PAGES)
def test_page_reads_on_a_phone(browser, site_url, path):
    context, page, unsettled = _open(browser, site_url, path, PHONE)
    try:
        problems = list(unsettled)
        for f in page.evaluate(FIGURES):
            if not f["natural"]:
                problems.append(f"figure {f['figure']}: did not load ({f['src']})")
                continue
            ratio = f["rendered"] / f["natural"]
            if ratio < MIN_RATIO:
                problems.append(
                    f"figure {f['figure']}: rendered {f['rendered']:.0f} px of its natural {f['natural']} px = {ratio:.2f} "
                    f"< {MIN_RATIO} (natural {f['natural'] * 0.75 / 72:.2f} in; the phone limit is figures_src/_style.py "
                    f"PHONE_MAX_WIDTH_IN)")
        scrolled = False
        for m in page.evaluate(FORMULAS):
            if m["overflow"] <= 1:
                continue
            missing = [what for what, ok in (("tabindex=0", m["tabindex"] == "0"), ("role and aria-label", m["role"] and m["label"]),
                                              ("edge shadow", m["shadow"]), ("visible hint", m["hint"])) if not ok]
            if missing:
                problems.append(f"formula {m['tex']!r} scrolls ({m['content']} px in {m['width']} px) without {', '.join(missing)}")
            elif not scrolled:  # one per page: the keyboard scrolls it
                el = page.locator("div.arithmatex").nth(m["i"])
                el.focus()
                page.keyboard.press("ArrowRight")
                page.wait_for_timeout(200)
                if el.evaluate("e => e.scrollLeft") <= 0:
                    problems.append(f"formula {m['tex']!r}: ArrowRight on the focused formula did not scroll it")
                scrolled = True
        assert not problems, f"{path} at {PHONE['width']} px:\n  " + "\n  ".join(problems)
    finally:
        context.close()


@pytest.mark.parametrize("path", [p for p in PAGES if p.startswith("lessons/") or p == ""])
def test_no_display_formula_wider_than_the_column_on_a_desktop(browser, site_url, path):
    context, page, _ = _open(browser, site_url, path, DESKTOP)
    try:
        wide = [f"{m['tex']!r}: {m['content']} px in a {m['width']} px column"
                for m in page.evaluate(FORMULAS) if m["overflow"] > 1]
        assert not wide, (f"{path} at {DESKTOP['width']} px: display formulas wider than the column "
                          "(break them with aligned / multline / gathered):\n  " + "\n  ".join(wide))
    finally:
        context.close()


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
