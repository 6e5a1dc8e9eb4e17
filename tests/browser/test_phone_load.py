"""A first load on a slow phone stays within its budget (tools/scripts/phone_load.py measures it).

Chromium at 390 × 844, 400 kbit/s down, 400 ms round trip, CPU 4× slower, cache off, the site served
gzip-compressed under /posenc/ as GitHub Pages serves it. Two pages stand for the rest: the home page
and the longest lesson (lesson 5: the most formulas, tables and text). Each is loaded twice (four times where the
faster of two is over on time) and the fastest time of each measure counts: a load on a busy machine (the other test worker, other builds)
only ever comes out slower, never faster. Times may exceed the budget by TIME_MARGIN for that noise;
bytes, which do not depend on the machine, get no margin.

Why 20 %: the load event waits on CPU (Material's bundle runs for about a second on a CPU slowed 4×), and
the formulas on the bytes before them and on the page being parsed, so both move with what else the
machine runs. Measured on the project's two cores (2026-12-04, lesson 5, the faster of two loads): with a
load average of 2.5–3, formulas 2.98–2.99 s and load 4.56–5.05 s; with 5–10 (other builds and test runs),
up to 3.4 s and 6.0 s (1.13× and 1.2× the budget); with 12–15, up to 3.9 s and 6.1 s, where the test
fails, as it did with 25 %. A CI runner (two cores, the other test worker) is nearer the middle case. The
margin was 25 % while the formulas and the load event sat at the budget (3.45 s and 4.86 s).
"""

from __future__ import annotations

import re

import pytest

from tools.scripts import phone_load

pytestmark = [pytest.mark.browser, pytest.mark.build]

PAGES = ["", "lessons/05-long-context/"]
FONT_PRELOAD = re.compile(r'<link rel="preload" href="[^"]*vendor/katex/fonts/KaTeX_([\w-]+)\.woff2"')
RUNS = 2
EXTRA_RUNS = 2  # only where the first two are over on time: see the test
TIME_MARGIN = 1.2


@pytest.fixture(scope="module")
def gzip_site(site_dir):
    with phone_load.GzipSite(site_dir) as site:
        yield site


def _best(page_path: str, loads: list) -> "phone_load.Load":
    return phone_load.Load(
        page=page_path,
        first_text_ms=min(x.first_text_ms for x in loads),
        formulas_ms=None if any(x.formulas_ms is None for x in loads) else min(x.formulas_ms for x in loads),
        load_ms=min(x.load_ms for x in loads),
        bytes_at_load=min(x.bytes_at_load for x in loads),
        bytes_idle=min(x.bytes_idle for x in loads),
        requests_at_load=loads[0].requests_at_load,
    )


@pytest.mark.parametrize("page_path", PAGES)
def test_first_load_on_a_slow_phone_within_budget(browser, gzip_site, page_path):
    times = {k: v for k, v in phone_load.BUDGET.items() if k.endswith("_ms")}
    sizes = {k: v for k, v in phone_load.BUDGET.items() if not k.endswith("_ms")}
    loads = [phone_load.measure(browser, gzip_site.url + page_path, page_path) for _ in range(RUNS)]
    # A busy machine only ever makes a load slower: where the faster of two is over on time alone, two more loads
    # may find the page's own time (measured on 2026-12-06: lesson 5 at 4.99-5.20 s with nothing else running,
    # 6.04 s as the faster of two beside the other test worker). Bytes never get a second chance.
    if _best(page_path, loads).over(times, TIME_MARGIN) and not _best(page_path, loads).over(sizes):
        loads += [phone_load.measure(browser, gzip_site.url + page_path, page_path) for _ in range(EXTRA_RUNS)]
    best = _best(page_path, loads)
    print("\n" + phone_load.report_line(best) + f"   (best of {len(loads)})")
    over = best.over(times, TIME_MARGIN) + best.over(sizes)
    if page_path.startswith("lessons/"):
        assert best.formulas_ms is not None, "the lesson's first screen should show a formula (the paragraph after the data-flow panel)"
    # overrides/main.html asks early for KaTeX's two main fonts where it judges a formula to be on the first screen
    preloads = FONT_PRELOAD.findall((gzip_site.site_dir / page_path / "index.html").read_text(encoding="utf-8"))
    shown = best.formulas_ms is not None
    assert sorted(preloads) == (["Main-Regular", "Math-Italic"] if shown else []), (
        f"/{page_path}: {'a' if shown else 'no'} formula on the first screen, but the page preloads {preloads or 'no font'}: "
        "change the limit on the text before the first formula in overrides/main.html")
    assert not over, (f"/{page_path} on the phone profile: " + "; ".join(over) + "\n  what moved by the load event:\n    "
                      + "\n    ".join(f"{b / 1000:6.1f} KB  {n}" for n, b, _, _ in sorted(loads[0].requests_at_load, key=lambda r: -r[1])))


def test_the_search_index_waits_for_the_search(browser, gzip_site):
    """No search index on a first load (docs/javascripts/lazy-search.js); opening the search fetches it and searches."""
    context = browser.new_context(viewport=phone_load.VIEWPORT)
    try:
        page = context.new_page()
        asked = []
        page.on("request", lambda r: asked.append(r.url) if r.url.endswith("search/search_index.json") else None)
        page.goto(gzip_site.url + "lessons/03-sinusoidal/", wait_until="load")
        page.wait_for_load_state("networkidle")
        assert asked == [], "the search index was fetched before anyone opened the search"
        page.locator("label[for='__search']").first.click()  # the header's search icon on a phone
        box = page.locator("input.md-search__input")
        box.fill("YaRN")
        box.press("End")  # Material searches on keyup
        page.wait_for_function("() => document.querySelectorAll('.md-search-result__list > li').length > 0", timeout=60_000)
        assert len(asked) == 1
    finally:
        context.close()


def test_every_script_waits_until_the_page_is_parsed(site_dir):
    """overrides/main.html defers every script (a module script is deferred anyway): blocking the parser, they
    were fetched one after another on the phone profile, a round trip each, and held the load event back."""
    for path in sorted(site_dir.rglob("*.html")):
        for tag in re.findall(r"<script\b[^>]*\bsrc=[^>]*>", path.read_text(encoding="utf-8")):
            assert re.search(r"\sdefer[\s>]", tag), f"{path.relative_to(site_dir)}: {tag} blocks the parser"
