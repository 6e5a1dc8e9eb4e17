"""Browser fixtures: the built site served on 127.0.0.1 and Debian's Chromium driven by Playwright.

Shared by every browser test (widgets, accessibility, links). Fixtures:

    site_dir     (tests/conftest.py) the strict build, once per session; POSENC_SITE_DIR reuses one
    site_url     "http://127.0.0.1:<free port>" serving site_dir (threaded http.server), session scope
    playwright   Playwright's sync API, session scope
    browser      Chromium's headless shell (Debian's chromium-headless-shell, or $POSENC_HEADLESS_SHELL), session
                 scope; no download
    visit        function scope: visit("lessons/03-sinusoidal/", **context_options) -> SitePage

A SitePage opens the path in a new page (options viewport, reduced_motion and
media are set on the page; any other Browser.new_context option, such as
color_scheme="dark" or java_script_enabled=False, gets a context of its own) and
records, from the first request on:

    .console_errors      console messages of type "error" and uncaught page errors
    .external_requests   every request to a host other than the test server (Chromium resolves no
                         other host, so each fails at once and a test never waits on the network)
    .assert_clean()      fails with both lists when either is non-empty

Material's instant navigation only intercepts links listed in sitemap.xml,
whose URLs carry mkdocs.yml's site_url (https://posenc.github.io/posenc/...);
Material swaps in the page's protocol and hostname but keeps that path and
port, so on a test server nothing would match and every click would reload.
The test server therefore serves sitemap.xml with site_url replaced by its own
address, which makes navigation behave as on the published site.

Every page carries the site's page policy (tools/build/csp.py), which forbids eval: give
``wait_for_function`` a function (``"() => …"``), since Playwright evaluates an expression string
with eval each time it polls, and the policy then blocks it.

Every page opened by ``visit`` is closed at the end of the test. Mark browser
tests with ``pytest.mark.browser`` (they need the built site: also ``build``).
"""

from __future__ import annotations

import functools
import http.server
import io
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tools.scripts.local_http import QuietHandler, is_external

# The tests drive Chromium's headless shell, the browser Playwright itself launches for headless runs: Chromium's
# Blink and V8 without the full browser around them. Measured here on the same built site, the same tests took about
# a third less CPU than in full Chromium (the even browser gates 152 -> 107 s, the other browser tests but the phone
# loads 437 -> 264 s). The shell has no per-language font settings, so the site's stylesheet names the Chinese fonts
# (docs/stylesheets/extra.css), and it hints glyph outlines unless told not to (below), which widens KaTeX's formulas:
# with both, a page sets its text in the same fonts and widths as in Chromium. The slow-phone loads run in full
# Chromium (tests/browser/test_phone_load.py), as tools/scripts/phone_load.py does: the budget was set there.
HEADLESS_SHELL = os.environ.get("POSENC_HEADLESS_SHELL", "/usr/lib/chromium/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--font-render-hinting=none",  # full Chromium's default; the shell would hint glyphs (a formula 354 -> 362 px)
    # No host but the test server's resolves: a request that leaves the site fails at once, offline, and the pages'
    # request events record it (SitePage.external_requests). Not Playwright's routing, which would do the same
    # but turn off the browser's cache for the whole context and pass every request through Python: measured
    # here, loading four lessons three times cost about 10 % more CPU with it.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


class _QuietHandler(QuietHandler, http.server.SimpleHTTPRequestHandler):
    def send_head(self):
        """sitemap.xml with the published site's address replaced by this server's (the module docstring says why)."""
        sitemap = Path(self.translate_path("/sitemap.xml"))
        if urlsplit(self.path).path != "/sitemap.xml" or not sitemap.is_file():
            return super().send_head()
        body = sitemap.read_text(encoding="utf-8")
        locs = re.findall(r"<loc>(.*?)</loc>", body)
        if locs:  # the shortest is the site's root URL, i.e. site_url
            body = body.replace(min(locs, key=len), f"http://127.0.0.1:{self.server.server_port}/")
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


@pytest.fixture(scope="session")
def site_url(site_dir: Path):
    """The built site over HTTP on 127.0.0.1 and a free port, for the whole session."""
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def full_chromium(playwright):
    """Full Chromium (tools/scripts/phone_load.py's CHROMIUM), with the tests' flags: for the slow-phone loads, whose
    budget was set on it (tests/browser/test_phone_load.py); no background networking or component updates beside a
    measurement."""
    from tools.scripts import phone_load

    if not Path(phone_load.CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {phone_load.CHROMIUM}: run `make setup` (it installs Debian's chromium) or set POSENC_CHROMIUM")
    b = phone_load.launch(playwright, CHROMIUM_ARGS)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="session")
def browser(playwright):
    """Chromium's headless shell from the system (tools/scripts/setup_system.sh installs it)."""
    if not Path(HEADLESS_SHELL).exists():
        pytest.fail(f"Chromium's headless shell not found at {HEADLESS_SHELL}: run `make setup` (it installs Debian's "
                    f"chromium-headless-shell) or set POSENC_HEADLESS_SHELL")
    b = playwright.chromium.launch(executable_path=HEADLESS_SHELL, args=CHROMIUM_ARGS)
    try:
        yield b
    finally:
        b.close()


@dataclass
class SitePage:
    """One page of the site in its own browser context, with what it logged and requested."""

    page: object
    base_url: str
    console_errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)

    def goto(self, path: str, wait: str = "load"):
        self.page.goto(f"{self.base_url}/{path.lstrip('/')}", wait_until=wait)
        return self.page

    def mounted(self, selector: str, timeout: float = 10_000):
        """The first widget matching ``selector`` once it has mounted. A widget that failed to mount is marked
        ``pe-widget--failed`` (docs/javascripts/widgets/index.js): that fails at once, with the console's errors,
        instead of waiting out the timeout."""
        from playwright.sync_api import expect

        el = self.page.locator(selector).first
        expect(el).to_have_class(re.compile(r"\bpe-widget--(live|failed)\b"), timeout=timeout)
        assert "pe-widget--live" in el.get_attribute("class"), (
            f"{selector} failed to mount:\n  " + "\n  ".join(self.console_errors or ["(nothing in the console)"]))
        return el

    def assert_clean(self):
        problems = []
        if self.console_errors:
            problems.append("console errors:\n  " + "\n  ".join(self.console_errors))
        if self.external_requests:
            problems.append("requests that leave the site:\n  " + "\n  ".join(self.external_requests))
        assert not problems, "\n".join(problems)


# Set per page; anything else needs a context of its own. color_scheme is not among them:
# Material remembers the palette it chose in the context's localStorage.
PAGE_OPTIONS = {"viewport", "reduced_motion", "media"}


@pytest.fixture(scope="session")
def _shared_context(browser):
    """One browser context for the pages that need no context-wide option (creating one costs ~1 s)."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def visit(browser, site_url, _shared_context):
    """visit(path, wait="load", **options) -> SitePage, opened and recording; closed after the test.

    viewport, reduced_motion and media are applied to a new page of a shared
    context; other options (color_scheme="dark", java_script_enabled=False, ...)
    get a context of their own, shared by the test's pages with the same options
    (see Playwright's Browser.new_context).
    """
    pages, contexts = [], {}

    def open_page(path: str, wait: str = "load", **options) -> SitePage:
        page_opts = {k: v for k, v in options.items() if k in PAGE_OPTIONS}
        context_opts = {k: v for k, v in options.items() if k not in PAGE_OPTIONS}
        if context_opts:
            key = repr(sorted(context_opts.items()))
            if key not in contexts:  # one context per set of options within a test
                contexts[key] = browser.new_context(**context_opts)
            context = contexts[key]
        else:
            context = _shared_context
        page = context.new_page()
        pages.append(page)
        if "viewport" in page_opts:
            page.set_viewport_size(page_opts.pop("viewport"))
        if page_opts:
            page.emulate_media(**page_opts)
        sp = SitePage(page, site_url)
        origin = urlsplit(site_url).netloc
        page.on("request", lambda req: sp.external_requests.append(req.url) if is_external(req.url, origin) else None)
        page.on("console", lambda msg: sp.console_errors.append(f"{msg.text} ({msg.location.get('url', '')})") if msg.type == "error" else None)
        page.on("pageerror", lambda err: sp.console_errors.append(f"uncaught: {err}"))
        sp.goto(path, wait)
        return sp

    yield open_page
    for page in pages:
        page.close()
    for context in contexts.values():
        context.close()
