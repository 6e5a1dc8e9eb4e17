"""What a page must do on a phone and on a desktop, read from a loaded page (a plain module, shared by
test_browser_gates.py, which runs these on every page, and test_phone.py).

On a phone (390 × 844 CSS px, a touch screen), with every folded block opened: a lesson's question and the first
paragraph after its data-flow panel are on the first screen; nothing scrolls sideways that could reflow
(formulas break into lines, wide tables become cards, code wraps); every control is at least 24 × 24 px and chart
text at least 11 px; each figure renders at no less than
MIN_RATIO of its natural width (so its ≥ 9 pt text stays ≥ 9 CSS px without zooming), and a display
formula that has to scroll shows a visible cue and can be scrolled from the keyboard. On a desktop
(1280 px) no display formula is wider than its column.

The natural width of a figure is its SVG's intrinsic width in CSS px (the browser's naturalWidth:
matplotlib writes pt, 1 pt = 4/3 px). tests/test_figure_phone.py checks the SVGs without a browser.
"""

from __future__ import annotations

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
MIN_RATIO = 0.75

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


# A lesson on a phone: its question (本课一问) and the first paragraph after the data-flow panel (folded to one
# line until tapped) are on the first screen. In page coordinates, so the scroll position does not matter.
FIRST_SCREEN = """() => {
  const question = document.querySelector('article .admonition.question');
  const panel = document.querySelector('article [data-pe-widget="dataflow"]');
  if (!question || !panel) return null;
  let first = panel.nextElementSibling;
  while (first && first.tagName !== 'P') first = first.nextElementSibling;
  const top = (el) => el.getBoundingClientRect().top + scrollY;
  return {question: top(question) + question.getBoundingClientRect().height, line: top(first) + parseFloat(getComputedStyle(first).lineHeight),
          screen: innerHeight, text: first.textContent.trim().slice(0, 20)};
}"""


# A long page's blocks are rendered only near the screen (extra.css, content-visibility: auto). Checks that read
# sizes and colours (these, axe-core) render every block first, as a reader sees each block when it gets there.
RENDER_ALL = """() => { if (document.getElementById('pe-render-all')) return;
  const style = Object.assign(document.createElement('style'), {id: 'pe-render-all', textContent: '.md-typeset > * { content-visibility: visible !important; }'});
  document.head.append(style); }"""

# Nothing scrolls sideways on a phone but what cannot reflow: a table of more than CARD_MAX_ROWS rows (a grid read
# down its columns, tools/build/table_cards.py) and a widget's named, focusable data table (_ui.js scroller).
SIDEWAYS = """maxRows => {
  const grid = (e) => e.matches('.md-typeset__scrollwrap') && [...e.querySelectorAll('table')].some(t => t.tBodies[0] && t.tBodies[0].rows.length > maxRows);
  return [...document.querySelectorAll('article :is(div, pre, code, table, p, ul, ol, figure)')]
    .filter(e => e.getClientRects().length && /(auto|scroll)/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    .filter(e => !grid(e) && !e.closest('.pe-widget .pe-scroll'))
    .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} (${e.scrollWidth} px in ${e.clientWidth} px): ${e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)}`);
}"""

# WCAG 2.2 target size: every control at least 24 × 24 CSS px (its layout size: a control Material shrinks with a
# transform while it is hidden counts at its shown size). A link in running text is exempt (the rule's inline
# exception); so is what takes no room (a visually hidden input, a closed overlay).
TARGETS = """() => [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, label[for], [tabindex]:not([tabindex="-1"]), [role=button], [role=tab]')]
  .filter(e => e instanceof HTMLElement && e.offsetWidth > 0 && e.offsetHeight > 0 && getComputedStyle(e).visibility !== 'hidden')
  .filter(e => !(e.tagName === 'A' && getComputedStyle(e).display === 'inline'))
  .filter(e => e.offsetWidth < 23.5 || e.offsetHeight < 23.5)
  .map(e => `${e.tagName.toLowerCase()}${e.type ? '[' + e.type + ']' : ''}.${[...e.classList].join('.')} ${e.offsetWidth} × ${e.offsetHeight} px ${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 20)}`)"""

# Chart text in the widgets: at least 11 px as shown (font size × the chart's scale to its column).
CHART_TEXT = """() => [...document.querySelectorAll('.pe-widget svg text')]
  .filter(t => t.getClientRects().length)
  .map(t => ({widget: t.closest('.pe-widget').dataset.peWidget, text: t.textContent.trim().slice(0, 20),
              px: parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a}))
  .filter(t => t.px < 10.95)"""
MIN_CHART_TEXT_PX = 11


def wait_for_formula_widths(page) -> None:
    """scrollers.js marks wide formulas after the load event, once the fonts are in, a few at a time while the
    browser is idle; it says when it has checked them all."""
    page.wait_for_function("document.documentElement.dataset.peScrollers === 'checked'", timeout=15_000)
    # after a change of width (rotating the phone, the desktop pass), its ResizeObserver marks them again
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def phone_problems(page) -> list[str]:
    """On a phone-sized page: the first screen, anything that scrolls sideways and could reflow, targets under
    24 px, chart text under 11 px, figures too small to read, formulas that scroll without a cue or the keyboard."""
    from tools.build.table_cards import CARD_MAX_ROWS

    problems = []
    page.evaluate(RENDER_ALL)
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    if page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth"):
        problems.append("the page itself scrolls sideways")
    problems += [f"scrolls sideways (break a formula into lines, let it wrap or fit): {s}" for s in page.evaluate(SIDEWAYS, CARD_MAX_ROWS)]
    problems += [f"target under 24 × 24 px: {t}" for t in page.evaluate(TARGETS)]
    problems += [f"chart text under {MIN_CHART_TEXT_PX} px in {t['widget']}: {t['text']!r} at {t['px']:.1f} px" for t in page.evaluate(CHART_TEXT)]
    first = page.evaluate(FIRST_SCREEN)
    if first and first["question"] > first["screen"]:
        problems.append(f"the lesson's question ends at {first['question']:.0f} px, below the first screen ({first['screen']} px)")
    if first and first["line"] > first["screen"]:
        problems.append(f"the first paragraph after the data-flow panel ({first['text']}…) starts its first line at "
                        f"{first['line']:.0f} px, below the first screen ({first['screen']} px)")
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
    return problems


def desktop_formula_problems(page) -> list[str]:
    """On a desktop-sized page: display formulas wider than their column (they should break instead)."""
    return [f"display formula {m['tex']!r} is {m['content']} px in a {m['width']} px column (break it with aligned / "
            "multline / gathered)" for m in page.evaluate(FORMULAS) if m["overflow"] > 1]
