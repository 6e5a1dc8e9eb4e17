"""Browser gates: every page of the site served under the GitHub Pages sub-path (/posenc/), loaded
once in Chromium and checked in the light scheme on a phone (390 px), then (a Chinese page) switched to the dark
scheme with the header's toggle and widened to a desktop (1280 px). Half the pages are checked here, the other
half (the odd-numbered ones) in test_browser_gates_odd_pages.py.

For each page, with every folded block opened: the network goes idle and every in-page experiment
mounts, no response of the site fails (status ≥ 400 or a failed request), no console error or
uncaught exception, no request to any other host, no page policy (CSP) violation, every image decodes, and axe-core (offline, from
axe-playwright-python) finds no serious or critical violation with the widgets live. An English page, whose markup
and colours are its Chinese page's, gets the phone pass only (AXE_SAME_COLOURS). On the phone,
figures stay legible and wide formulas scroll with a cue and from the keyboard; on the desktop no
display formula is wider than its column (tests/browser/page_checks.py).

(The module is not called test_gates.py: tests/test_gates.py exists, and pytest's default import
mode refuses two test modules with the same basename when their folders have no __init__.py.)
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from page_checks import DESKTOP, OPEN_ALL, PHONE, RENDER_ALL, desktop_formula_problems, phone_problems, wait_for_formula_widths
from test_gates import PREFIX, SubpathServer, doc_pages
from tools.scripts.local_http import is_external

pytestmark = [pytest.mark.browser, pytest.mark.build, pytest.mark.long]

SCHEMES = {"light": "default", "dark": "slate"}  # → Material's data-md-color-scheme
BLOCKING = ("serious", "critical")

# Each scheme is checked at one width, so every page gets all of axe-core's rules twice: in the light
# scheme on a phone, on the whole DOM; then in the dark scheme on a desktop, on the page without KaTeX's
# HTML rendering of formulas. That part is aria-hidden (screen readers get KaTeX's MathML), takes its
# colour from the text around it, and is most of a lesson's DOM (axe's run time grows with the DOM);
# the phone run checks it, rules such as aria-hidden-focus included. What stays of a display formula is
# KaTeX's visually hidden MathML, a 1 px box that sticks out of the formula's own scroll box by a pixel:
# the formula's overflow is made visible with it, or axe would count an empty box as a scroll region
# (the phone run checks the real ones).
VIEWPORT = {"light": PHONE, "dark": DESKTOP}
AXE_ALL = {"resultTypes": ["violations"]}
# An English page's static markup is its Chinese page's with other words: the same templates and stylesheets, and no
# element, class or colour of its own (tests/test_gates.py::test_english_pages_add_no_class_or_colour_of_their_own
# keeps it so). So an English page is checked once, on the phone in the light scheme (every check of that pass; axe
# with every rule that its own words can break, names, labels, language, but colour contrast, a property of the
# shared colours and sizes; and colour contrast on the widgets alone, whose English text is built in the browser and
# may wrap onto another background: AXE_WIDGET_COLOURS). The dark scheme at 1280 px, its colours and the desktop
# layout, are the Chinese page's, which gets both passes. This keeps the browser gates near 250 s of `make test`.
AXE_SAME_COLOURS = {"resultTypes": ["violations"], "rules": {"color-contrast": {"enabled": False}}}
AXE_WIDGET_COLOURS = {"resultTypes": ["violations"], "runOnly": ["color-contrast"]}
STRIP_KATEX_HTML = """() => { document.querySelectorAll('.katex-html').forEach(e => e.remove());
  document.querySelectorAll('div.arithmatex').forEach(e => { e.style.overflow = 'visible'; }); }"""


@pytest.fixture(scope="module")
def subpath_site(site_dir):
    with SubpathServer(site_dir) as srv:
        yield srv


@pytest.fixture(scope="module")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


class Recorder:
    """What one page did while it loaded: failed responses, console errors, other hosts."""

    def __init__(self, page, origin: str, ignore_status_of: str | None = None):
        self.failed: list[str] = []
        self.console: list[str] = []
        self.external: list[str] = []
        self.origin = origin

        def on_response(resp):
            if resp.status >= 400 and resp.url.startswith(origin) and resp.url != ignore_status_of:
                self.failed.append(f"{resp.status} {resp.url[len(origin):]}")

        def on_failed(req):
            if req.url.startswith(origin):
                self.failed.append(f"{req.failure} {req.url[len(origin):]}")

        # Chromium resolves no other host (conftest.CHROMIUM_ARGS): such a request fails at once; it is recorded here
        host = urlsplit(origin).netloc
        page.on("request", lambda req: self.external.append(req.url) if is_external(req.url, host) else None)
        page.on("response", on_response)
        page.on("requestfailed", on_failed)
        def on_console(m):
            where = m.location.get("url", "")
            # the browser logs the expected 404 of a deliberately missing page as an error too
            if m.type == "error" and not (ignore_status_of and where == ignore_status_of):
                self.console.append(f"{m.text} ({where})")

        page.on("console", on_console)
        page.on("pageerror", lambda err: self.console.append(f"uncaught: {err}"))

    def problems(self) -> list[str]:
        out = []
        if self.failed:
            out.append("failed requests:\n    " + "\n    ".join(self.failed))
        if self.console:
            out.append("console errors:\n    " + "\n    ".join(self.console))
        if self.external:
            out.append("requests to other hosts:\n    " + "\n    ".join(self.external))
        return out


# The images a reader can see: not display:none (the other scheme's variant of a figure) and not inside [hidden].
SHOWN_IMAGES = "[...document.images].filter(i => getComputedStyle(i).display !== 'none' && i.closest('[hidden]') === null)"


def _load_lazy_images(page) -> None:
    """Lazy images below the fold would never load in a test that does not scroll: load them all now."""
    page.evaluate("document.querySelectorAll('img[loading=lazy]').forEach(i => { i.loading = 'eager'; })")


def _settle(page, timeout_ms: int = 10_000) -> list[str]:
    """Wait until the page and its widgets are done; return what never finished.

    Lazy images are forced to load, then the network must go idle and every in-page experiment must
    have mounted (axe then checks the live widgets, not the static figures they replace). A page
    that keeps polling, or a widget that never mounts, is a problem to report, not to wait out.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    problems = []
    _load_lazy_images(page)
    try:
        page.wait_for_load_state("networkidle", timeout=timeout_ms)
    except PlaywrightTimeout:
        problems.append(f"the network never went idle within {timeout_ms / 1000:g} s (a request that polls or hangs)")
    try:
        page.wait_for_function("() => [...document.querySelectorAll('.pe-widget')].every(w => w.classList.contains('pe-widget--live'))", timeout=timeout_ms)
    except PlaywrightTimeout:
        dead = page.evaluate("[...document.querySelectorAll('.pe-widget:not(.pe-widget--live)')].map(w => w.dataset.peWidget)")
        problems.append(f"widgets that did not mount within {timeout_ms / 1000:g} s: {dead}")
    return problems


def _images_loaded(page, timeout_ms: int = 10_000) -> list[str]:
    """Wait until every image the page shows has finished loading (or failed); return what never finished.

    After the scheme switch the other variant of each figure starts loading. The page reached "networkidle"
    once already, and Playwright does not wait for that state a second time, so this waits on the images.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    _load_lazy_images(page)
    try:
        page.wait_for_function(f"() => {SHOWN_IMAGES}.every(i => i.complete)", timeout=timeout_ms)
    except PlaywrightTimeout:
        return [f"images still loading after {timeout_ms / 1000:g} s"]
    return []


BROKEN_IMAGES = f"""() => {SHOWN_IMAGES}
  .filter(i => !i.complete || i.naturalWidth === 0)
  .map(i => i.getAttribute('src'))"""


def _axe_report(results) -> list[str]:
    out = []
    for v in results.response.get("violations", []):
        if v.get("impact") in BLOCKING:
            nodes = v.get("nodes", [])
            where = "; ".join(" ".join(map(str, n.get("target", []))) for n in nodes[:3])
            out.append(f"{v['impact']} {v['id']}: {v['help']} ({len(nodes)} node(s), e.g. {where}) {v.get('helpUrl', '')}")
    return out


def _has_lesson_formulas(page_path: str) -> bool:
    return page_path.startswith("lessons/") or page_path == ""


# The page policy (tools/build/csp.py): every violation the browser reports, recorded from before the page's first script.
CSP_RECORDER = """window.__peCspViolations = [];
document.addEventListener('securitypolicyviolation', e => window.__peCspViolations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile || document.URL}:${e.lineNumber}) ${(e.sample || '').slice(0, 60)}`));"""


def csp_violations(page) -> list[str]:
    return page.evaluate("window.__peCspViolations || ['the policy recorder did not run']")


PALETTE_TOGGLE = "form[data-md-component=palette] label:not([hidden])"  # the header's light/dark switch
SCHEME = "document.body.getAttribute('data-md-color-scheme')"


def check_page(browser, subpath_site, axe, page_path: str) -> None:
    """One page, loaded once and checked twice: in the light scheme on a phone, then switched to the dark
    scheme with the header's toggle (as a reader does) and widened to a desktop (a Chinese page; an English
    one, whose markup and colours are its Chinese page's, the first time only). Each time it settles,
    nothing fails or leaves the site, images decode, that width's reading checks pass and axe is clean."""
    # a touch screen, as a phone has: no hover (Material makes a wide code block focusable only where there is)
    context = browser.new_context(color_scheme="light", reduced_motion="reduce", viewport=VIEWPORT["light"], has_touch=True)
    context.add_init_script(CSP_RECORDER)
    try:
        page = context.new_page()
        rec = Recorder(page, subpath_site.origin)
        page.goto(subpath_site.url + page_path, wait_until="load")
        page.evaluate(OPEN_ALL)  # folded blocks too: their figures, formulas and widgets
        # An English page's markup, stylesheets and desktop layout are its Chinese page's (AXE_SAME_COLOURS): its own
        # words are checked on the phone; the dark scheme at 1280 px, the same for both, on the Chinese page.
        for scheme in ("light",) if page_path.startswith("en/") else ("light", "dark"):
            if scheme == "light":
                unsettled = _settle(page)
            else:
                page.locator(PALETTE_TOGGLE).click()
                page.set_viewport_size(VIEWPORT["dark"])
                unsettled = _images_loaded(page)  # the dark variants of the figures load now
            wait_for_formula_widths(page)
            got = page.evaluate(SCHEME)
            assert got == SCHEMES[scheme], f"{page_path}: Material shows scheme {got!r}, expected {SCHEMES[scheme]!r} ({scheme})"
            problems = unsettled + rec.problems()
            if csp_violations(page):
                problems.append("page policy (Content-Security-Policy) violations:\n    " + "\n    ".join(csp_violations(page)))
            broken = page.evaluate(BROKEN_IMAGES)
            if broken:
                problems.append("images that did not load or decode:\n    " + "\n    ".join(broken))
            if scheme == "light":
                problems += phone_problems(page)
            else:
                if _has_lesson_formulas(page_path):
                    problems += desktop_formula_problems(page)
                page.evaluate(STRIP_KATEX_HTML)  # the last check of this page: see AXE_ALL
            page.evaluate(RENDER_ALL)
            english = page_path.startswith("en/")
            if not english:
                violations = _axe_report(axe.run(page, options=AXE_ALL))
            else:  # see AXE_SAME_COLOURS
                violations = _axe_report(axe.run(page, options=AXE_SAME_COLOURS))
                if page.locator(".pe-live").count():
                    violations += _axe_report(axe.run(page, context={"include": [[".pe-live"]]}, options=AXE_WIDGET_COLOURS))
            if violations:
                problems.append(f"axe-core, {scheme} scheme, {VIEWPORT[scheme]['width']} px:\n    " + "\n    ".join(violations))
            width = VIEWPORT[scheme]["width"]
            assert not problems, f"{PREFIX}{page_path} ({scheme}, {width} px):\n  " + "\n  ".join(problems)
    finally:
        context.close()


# `make test` sends each file whole to one of its two workers (--dist loadfile), and the gates are the longest
# part of the suite: so every other page is checked here, the odd-numbered rest in tests/browser/test_browser_gates_odd_pages.py.
@pytest.mark.parametrize("page_path", doc_pages()[0::2])
def test_page_loads_clean_and_accessible(browser, subpath_site, axe, page_path):
    check_page(browser, subpath_site, axe, page_path)


def test_404_page_works_at_any_depth(browser, subpath_site):
    """GitHub Pages answers a missing URL with 404.html; its assets must load from any depth."""
    context = browser.new_context()
    try:
        page = context.new_page()
        missing = subpath_site.url + "no/such/page/"
        rec = Recorder(page, subpath_site.origin, ignore_status_of=missing)
        page.goto(missing, wait_until="load")
        problems = _settle(page)
        assert page.locator(".md-header").count() == 1, "the 404 page lost its theme"
        problems += rec.problems()
        assert not problems, "\n".join(problems)
    finally:
        context.close()


def test_gate_catches_a_missing_file_and_another_host(browser, subpath_site, tmp_path):
    """The recorder itself: a 404 under the prefix and a request to another host are both reported."""
    context = browser.new_context(bypass_csp=True)  # the page policy would stop the request before the recorder sees it
    try:
        page = context.new_page()
        rec = Recorder(page, subpath_site.origin)
        page.goto(subpath_site.url, wait_until="load")
        page.evaluate(f"""async () => {{
            await fetch('{PREFIX}no-such-file.js').catch(() => null);
            await fetch('https://example.invalid/x.js').catch(() => null);
        }}""")
        assert any("no-such-file.js" in f for f in rec.failed), rec.failed
        assert any("example.invalid" in u for u in rec.external), rec.external
    finally:
        context.close()


def test_visit_records_a_request_to_another_host_which_fails_at_once_and_rebases_the_sitemap(visit, site_url):
    """tests/browser/conftest.py: a page opened by ``visit`` records a request that leaves the site, and that request
    fails without waiting on the network (Chromium resolves no other host); its sitemap.xml names the test server,
    so that Material's instant navigation follows the site's links."""
    sp = visit("", bypass_csp=True)  # the page policy would stop the request before it is sent
    took_ms = sp.page.evaluate("""async () => {
        const start = performance.now();
        const outcome = await fetch('https://example.com/x.js').then(() => 'answered', () => 'failed');
        return outcome === 'failed' ? performance.now() - start : -1;
    }""")
    assert 0 <= took_ms < 2000, f"a request to another host should fail at once, offline ({took_ms:.0f} ms; -1: it was answered)"
    assert sp.external_requests == ["https://example.com/x.js"]
    sitemap = sp.page.evaluate("() => fetch('sitemap.xml').then(r => r.text())")
    locs = re.findall(r"<loc>(.*?)</loc>", sitemap)
    assert locs and all(loc.startswith(site_url + "/") for loc in locs), locs[:3]


def test_gate_catches_a_page_policy_violation(browser, subpath_site):
    """The policy recorder itself: a script the policy does not list is blocked and reported."""
    context = browser.new_context()
    context.add_init_script(CSP_RECORDER)
    try:
        page = context.new_page()
        page.goto(subpath_site.url, wait_until="load")
        assert csp_violations(page) == []
        page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__pePlanted = 1'; document.body.append(s); }")
        page.wait_for_function("() => window.__peCspViolations.length > 0", timeout=5_000)
        assert page.evaluate("window.__pePlanted") is None, "the policy let an unlisted inline script run"
        assert any("script-src" in v for v in csp_violations(page)), csp_violations(page)
    finally:
        context.close()


def test_the_image_checks_see_the_images_a_reader_sees(browser, subpath_site):
    """BROKEN_IMAGES reports a shown image that fails, not one inside [hidden] or display:none (the other
    scheme's figure); _images_loaded waits for a lazy image below the fold instead of passing it unloaded."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(subpath_site.url, wait_until="load")
        page.evaluate(f"""() => {{
            const add = (src, attrs) => {{ const i = Object.assign(document.createElement('img'), {{src, ...attrs}}); document.body.append(i); return i; }};
            add('{PREFIX}shown-missing.svg', {{}});
            add('{PREFIX}hidden-missing.svg', {{}}).style.display = 'none';
            const box = document.createElement('div'); box.hidden = true; document.body.append(box);
            box.append(Object.assign(document.createElement('img'), {{src: '{PREFIX}folded-missing.svg'}}));
            const far = document.createElement('div'); far.style.height = '5000px'; document.body.append(far);
            add('{PREFIX}assets/images/favicon.png', {{loading: 'lazy', id: 'lazy'}});
        }}""")
        assert _images_loaded(page) == []
        assert page.evaluate("document.getElementById('lazy').naturalWidth") > 0
        assert page.evaluate(BROKEN_IMAGES) == [f"{PREFIX}shown-missing.svg"]
    finally:
        context.close()


def test_settle_reports_a_page_that_polls_and_a_widget_that_never_mounts(browser, subpath_site):
    """_settle itself: neither a request loop nor a dead widget is waited out in silence."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(subpath_site.url, wait_until="load")
        page.evaluate(f"""() => {{
            setInterval(() => fetch('{PREFIX}sitemap.xml?poll=' + Date.now()), 250);
            const w = document.createElement('div');
            w.className = 'pe-widget';
            w.dataset.peWidget = 'never-mounts';
            document.body.append(w);
        }}""")
        problems = _settle(page, timeout_ms=2_000)  # what it reports does not depend on how long it waits
        assert any("never went idle" in p for p in problems), problems
        assert any("never-mounts" in p for p in problems), problems
    finally:
        context.close()


def test_notebook_download_link_downloads_under_the_subpath(browser, subpath_site):
    """Lesson 1's download link saves lesson1.ipynb (Material's instant navigation must not swallow it)."""
    context = browser.new_context(accept_downloads=True)
    try:
        page = context.new_page()
        rec = Recorder(page, subpath_site.origin)
        page.goto(subpath_site.url + "lessons/01-order-blind/", wait_until="load")
        with page.expect_download(timeout=15_000) as info:
            page.click('a[download][href$="lesson1.ipynb"]')
        download = info.value
        assert download.suggested_filename == "lesson1.ipynb"
        assert urlsplit(download.url).path == f"{PREFIX}notebooks/lesson1/lesson1.ipynb"
        nb = json.loads(Path(download.path()).read_text(encoding="utf-8"))
        assert nb["cells"][0]["id"] == "lesson1-00"
        assert not rec.problems(), "\n".join(rec.problems())
    finally:
        context.close()
