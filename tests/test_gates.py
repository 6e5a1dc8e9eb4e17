"""Site gates that need no browser: links and anchors, the site under a sub-path, alt text,
page weight and notebook pages without CDN scripts (byte-identical clean builds: tests/test_clean_build.py).

Shared helpers (the sub-path server, the page list) are imported by
tests/browser/test_browser_gates.py.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import posixpath
import re
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tools.scripts.local_http import QuietHandler

pytestmark = pytest.mark.build


def _tests_conftest():
    """tests/conftest.py, loaded by path: under pytest's default import mode a plain
    ``from conftest import ...`` finds tests/browser/conftest.py when the browser gates import
    this module."""
    import importlib.util

    path = Path(__file__).resolve().parent / "conftest.py"
    spec = importlib.util.spec_from_file_location("posenc_tests_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_conftest = _tests_conftest()
ROOT, build_site = _conftest.ROOT, _conftest.build_site

# --- the site's address -------------------------------------------------------------------------------


def _site_url() -> str:
    m = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert m, "mkdocs.yml has no site_url; the sub-path gates need it"
    return m.group(1).rstrip("/") + "/"


SITE_URL = _site_url()  # https://posenc.github.io/posenc/
PREFIX = urlsplit(SITE_URL).path  # /posenc/: GitHub Pages serves a project site under /<repo>/


def doc_pages(every_english_page: bool = False) -> list[str]:
    """Every page the build should make, as site paths ("", "lessons/03-sinusoidal/", "404.html", "en/…").

    Taken from docs/ (Markdown pages and notebooks), so browser tests can be parametrised
    before the site is built; test_every_page_is_known checks it against the built site. The English
    edition (tools/build/i18n.py) has a page under en/ for every Chinese page; those written in English
    (docs/….en.md, notebooks/….en.ipynb) are listed, the others, the Chinese page built into the English
    site until it is translated, only with ``every_english_page``.
    """
    docs = ROOT / "docs"
    pages, english = [], []
    for src in sorted(docs.rglob("*.md")) + sorted((docs / "notebooks").glob("*.ipynb")):
        if src.suffixes[-2:-1] == [".en"]:
            continue
        rel = src.relative_to(docs).with_suffix("").as_posix()
        page = rel[: -len("index")] if rel == "index" or rel.endswith("/index") else rel + "/"
        pages.append(page)
        if every_english_page or src.with_name(f"{src.stem}.en{src.suffix}").is_file():
            english.append(f"en/{page}")
    return pages + ["404.html"] + english + ["en/404.html"]


def page_file(site_dir: Path, page: str) -> Path:
    return site_dir / (page + "index.html" if page == "" or page.endswith("/") else page)


# --- parsing built HTML -----------------------------------------------------------------------------


@dataclass
class Parsed:
    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (tag, attribute, url)
    imgs: list[dict] = field(default_factory=list)
    widgets: list[str] = field(default_factory=list)


class _Collector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = Parsed()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if a.get(key):
                self.out.ids.add(a[key])
        for attr in ("href", "src", "xlink:href"):
            if a.get(attr) is not None:
                self.out.links.append((tag, attr, a[attr]))
        if tag == "img":
            self.out.imgs.append(a)
        if a.get("data-pe-widget"):
            self.out.widgets.append(a["data-pe-widget"])

    handle_startendtag = handle_starttag


@functools.lru_cache(maxsize=None)
def parse(path: Path) -> Parsed:
    c = _Collector()
    c.feed(path.read_text(encoding="utf-8"))
    c.close()
    return c.out


def html_pages(site_dir: Path) -> list[Path]:
    return sorted(site_dir.rglob("*.html"))


BROKEN = "broken"


def resolve(site_dir: Path, base: str, url: str):
    """Where ``url``, found in site file ``base`` (a path relative to the site), points.

    Returns None for links that leave the site (other hosts, mailto:, data:), else
    (site-relative file path, fragment), or (BROKEN, reason).
    """
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme in ("mailto", "tel", "javascript", "data", "blob"):
        return None
    if parts.scheme in ("http", "https") or url.startswith("//"):
        if not url.startswith(SITE_URL) and url.rstrip("/") + "/" != SITE_URL:
            return None  # another host: navigation, checked (not loaded) by the browser gates
        path = parts.path[len(PREFIX):] if parts.path.startswith(PREFIX) else ""
    elif url.startswith("/"):
        if not (parts.path + "/").startswith(PREFIX):
            return BROKEN, f"root-relative URL outside {PREFIX}: 404 when GitHub Pages serves the site under {PREFIX}"
        path = parts.path[len(PREFIX):]
    elif not parts.path:
        return base, unquote(parts.fragment)  # "#anchor" or "?query" on the same page
    else:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(base), parts.path))
        if path == ".":
            path = ""
        elif path.startswith(".."):
            return BROKEN, "climbs above the site root"
        if parts.path.endswith("/") and path:
            path += "/"
    path = unquote(path)
    target = site_dir / path
    if path == "" or path.endswith("/") or target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return BROKEN, f"no file {target.relative_to(site_dir).as_posix()}"
    return target.relative_to(site_dir).as_posix(), unquote(parts.fragment)


# --- a static server for the site mounted under the sub-path ------------------------------------------


class SubpathServer:
    """Serves ``site_dir`` at http://127.0.0.1:<port>/posenc/ like GitHub Pages serves a project site.

    Paths outside the prefix are 404; a missing file gets 404.html with status 404 (as Pages does).
    Use as a context manager; ``.url`` ends with the prefix.
    """

    def __init__(self, site_dir: Path, prefix: str = PREFIX):
        self.site_dir, self.prefix = site_dir, prefix
        outer = self

        class Handler(QuietHandler, http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(outer.site_dir), **kwargs)

            def send_head(self):
                path = urlsplit(self.path).path
                if path + "/" == outer.prefix:
                    self.send_response(301)
                    self.send_header("Location", outer.prefix)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return None
                if not path.startswith(outer.prefix):
                    return self._not_found()
                self.path = "/" + self.path[len(outer.prefix):]
                local = Path(self.translate_path(self.path))
                if not (local.is_file() or (local.is_dir() and (local / "index.html").is_file())):
                    return self._not_found()
                return super().send_head()

            def _not_found(self):
                body = (outer.site_dir / "404.html").read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return None

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.url = self.origin + prefix

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, name="subpath-server", daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


# --- resources a page loads (for the crawl and the page weight) -----------------------------------------

JS_IMPORT = re.compile(r"""(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bimport\s*\(\s*|new\s+URL\(\s*)["']([^"'`$]+)["']""")
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")
FONT_SRC = re.compile(r"\bsrc\s*:([^;}]*)")


def css_urls(text: str) -> list[str]:
    """Local url(...)s a browser loads from a stylesheet.

    In an @font-face ``src:`` list a browser takes the first format it supports and never
    fetches the fallbacks (KaTeX lists woff2, woff, ttf; the site ships woff2 only), so only
    the first URL of each ``src:`` counts.
    """
    fallbacks = {u for m in FONT_SRC.finditer(text) for u in CSS_URL.findall(m.group(1))[1:]}
    return [u.split("?")[0].split("#")[0] for u in CSS_URL.findall(text)
            if u not in fallbacks and not u.startswith(("data:", "#", "http:", "https:", "//"))]


def js_references(site_dir: Path, script: str) -> set[str]:
    """Site-relative paths that ``script`` imports or fetches with a literal relative URL."""
    text = (site_dir / script).read_text(encoding="utf-8", errors="replace")
    return {posixpath.normpath(posixpath.join(posixpath.dirname(script), spec)) for spec in JS_IMPORT.findall(text) if spec.startswith(".")}


def js_dependencies(site_dir: Path, script: str) -> set[str]:
    """``script`` and every module it imports with a literal path, transitively (site-relative)."""
    seen, todo = set(), [script]
    while todo:
        rel = todo.pop()
        if rel in seen or not rel.endswith((".js", ".mjs")) or not (site_dir / rel).is_file():
            continue
        seen.add(rel)
        todo.extend(js_references(site_dir, rel))
    return seen


def page_resources(site_dir: Path, page_rel: str) -> dict[str, str]:
    """What a page loads, by site-relative path → kind (figure, image, script, stylesheet, data)."""
    p = parse(site_dir / page_rel)
    out: dict[str, str] = {}
    for tag, attr, url in p.links:
        if tag == "a" or (tag == "link" and not url.endswith((".css", ".js", ".json", ".svg", ".png", ".ico"))):
            continue
        r = resolve(site_dir, page_rel, url)
        if r is None or r[0] == BROKEN:
            continue
        rel = r[0]
        if tag == "img":
            out[rel] = "figure" if rel.startswith("figures/") else "image"
        elif tag == "script":
            for dep in js_dependencies(site_dir, rel):
                out[dep] = "script"
        else:
            out[rel] = "stylesheet" if rel.endswith(".css") else "data"
    for name in p.widgets:  # widgets/index.js imports each page's widgets by name at run time
        for dep in js_dependencies(site_dir, f"javascripts/widgets/{name}.js"):
            out[dep] = "script"
    return out


# =====================================================================================================
# Gate: internal links and anchors
# =====================================================================================================


def test_every_page_is_known(site_dir):
    """doc_pages() (which parametrises the browser gates) lists exactly the built pages."""
    built = {p.relative_to(site_dir).as_posix() for p in html_pages(site_dir)}
    expected = {page_file(site_dir, p).relative_to(site_dir).as_posix() for p in doc_pages(every_english_page=True)}
    assert built == expected, f"built but not listed: {sorted(built - expected)}; listed but not built: {sorted(expected - built)}"


def test_internal_links_and_anchors_resolve(site_dir):
    broken = []
    for page in html_pages(site_dir):
        rel = page.relative_to(site_dir).as_posix()
        for tag, attr, url in parse(page).links:
            r = resolve(site_dir, rel, url)
            if r is None:
                continue
            target, detail = r
            if target == BROKEN:
                broken.append(f"{rel}: <{tag} {attr}={url!r}>: {detail}")
            elif detail and target.endswith(".html") and detail not in parse(site_dir / target).ids:
                broken.append(f"{rel}: <{tag} {attr}={url!r}>: no id {detail!r} in {target}")
    assert not broken, f"{len(broken)} broken internal link(s):\n  " + "\n  ".join(broken[:60])


def test_sitemap_lists_only_existing_pages(site_dir):
    locs = re.findall(r"<loc>([^<]+)</loc>", (site_dir / "sitemap.xml").read_text(encoding="utf-8"))
    assert locs
    bad = [loc for loc in locs if (r := resolve(site_dir, "index.html", loc)) is None or r[0] == BROKEN]
    assert not bad, f"sitemap.xml lists pages that do not exist under {SITE_URL}: {bad}"


def test_stylesheet_and_module_references_resolve(site_dir):
    """url(...) in the site's CSS and literal imports in its JS point to files that exist."""
    broken = []
    for css in sorted(site_dir.rglob("*.css")):
        rel = css.relative_to(site_dir).as_posix()
        for url in css_urls(css.read_text(encoding="utf-8", errors="replace")):
            r = resolve(site_dir, rel, url)
            if r is None or r[0] == BROKEN:
                broken.append(f"{rel}: url({url})")
    for js in sorted(p for p in site_dir.rglob("*.js") if not p.relative_to(site_dir).as_posix().startswith("assets/")):
        rel = js.relative_to(site_dir).as_posix()
        for ref in sorted(js_references(site_dir, rel)):
            if not (site_dir / ref).is_file():
                broken.append(f"{rel}: imports or fetches {ref}, which is not in the site")
    assert not broken, "\n  ".join(["missing files:"] + broken)


def test_link_checker_catches_a_broken_anchor_and_a_root_path(tmp_path):
    """The checker itself: a missing file, a missing #id and a root path outside the sub-path are caught."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="x">x</h2>', encoding="utf-8")
    assert resolve(tmp_path, "index.html", "a/#x") == ("a/index.html", "x")
    assert resolve(tmp_path, "index.html", "b/")[0] == BROKEN
    assert resolve(tmp_path, "index.html", "/a/")[0] == BROKEN
    assert resolve(tmp_path, "index.html", PREFIX + "a/") == ("a/index.html", "")
    assert resolve(tmp_path, "index.html", "https://example.org/") is None
    assert "y" not in parse(tmp_path / "a" / "index.html").ids


def test_the_subpath_server_lets_a_browser_drop_a_connection_quietly(tmp_path, capfd):
    """A browser that closes a page mid-file resets its connection; the server neither prints a traceback into the
    test log (the browser tests' output showed BrokenPipeError tracebacks from passing runs) nor stops serving."""
    import socket
    import struct

    (tmp_path / "404.html").write_text("missing", encoding="utf-8")
    (tmp_path / "big.bin").write_bytes(b"x" * 32_000_000)  # far more than the sockets buffer: the write meets the reset
    with SubpathServer(tmp_path) as srv:
        for _ in range(3):
            conn = socket.create_connection(("127.0.0.1", srv.server.server_port))
            conn.sendall(f"GET {PREFIX}big.bin HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            conn.recv(1024)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
            conn.close()
        deadline = time.monotonic() + 10
        while any(t.name.startswith("Thread-") and t.is_alive() for t in threading.enumerate()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert urllib.request.urlopen(srv.origin + PREFIX + "404.html", timeout=30).status == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err[-2000:]


# =====================================================================================================
# Gate: the site under a sub-path, every URL fetched over HTTP
# =====================================================================================================


def test_every_url_loads_under_the_subpath(site_dir):
    """Crawl from /posenc/ over HTTP: every page, asset, figure, notebook and widget module answers 200."""
    failures, seen = [], set()
    with SubpathServer(site_dir) as srv:
        # Start from the home page, and from every page and notebook file too: a page missing from
        # the nav must load as well (test_every_lesson_links_its_notebook checks the links).
        todo = [(p, "(every page)") for p in doc_pages()] + [("", "(start)")]
        # lessonN.ipynb is served at notebooks/lessonN/, its English twin lessonN.en.ipynb at en/notebooks/lessonN/lessonN.ipynb
        todo += [(f"{'en/' if nb.stem.endswith('.en') else ''}notebooks/{nb.stem.removesuffix('.en')}/{nb.stem.removesuffix('.en')}.ipynb",
                  "(every notebook)") for nb in sorted((ROOT / "docs/notebooks").glob("*.ipynb"))]
        while todo:
            rel, source = todo.pop()
            if rel in seen:
                continue
            seen.add(rel)
            try:
                with urllib.request.urlopen(srv.url + rel, timeout=30) as resp:
                    body = resp.read()
            except urllib.error.HTTPError as err:
                failures.append(f"{err.code} {PREFIX}{rel} (linked from {source})")
                continue
            target = rel + "index.html" if rel == "" or rel.endswith("/") else rel
            if target.endswith(".html"):
                for tag, attr, url in parse(site_dir / target).links:
                    r = resolve(site_dir, target, url)
                    if r is not None and r[0] != BROKEN:
                        todo.append((r[0].removesuffix("index.html"), target))
                for name in parse(site_dir / target).widgets:
                    todo.append((f"javascripts/widgets/{name}.js", target))
            elif target.endswith((".js", ".mjs")) and not target.startswith("assets/"):
                # The theme's bundle (assets/) names optional files (versions.json for mike) that it
                # only fetches when configured; the browser gate records what it really requests.
                for ref in js_references(site_dir, target):
                    todo.append((ref, target))
            elif target.endswith(".css"):
                for url in css_urls(body.decode("utf-8", "replace")):
                    r = resolve(site_dir, target, url)
                    if r is not None and r[0] != BROKEN:
                        todo.append((r[0], target))
        # Outside the prefix nothing is served, so a root-relative URL would have failed above.
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(srv.origin + "/index.html", timeout=30)
    kinds = defaultdict(int)
    for rel in seen:
        kinds[rel.rsplit(".", 1)[-1] if "." in rel.rsplit("/", 1)[-1] else "page"] += 1
    print(f"\nsub-path crawl under {PREFIX}: {len(seen)} URLs ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
    assert not failures, "URLs that fail under the sub-path:\n  " + "\n  ".join(failures)


def test_every_lesson_links_its_notebook(site_dir):
    """Every lesson page NN[x]-name.md has a notebook lessonN[x] and links its download; the link resolves.
    An English page NN[x]-name.en.md, built at en/lessons/NN[x]-name/, links the English download under en/notebooks/."""
    missing = []
    for md in sorted((ROOT / "docs/lessons").glob("[0-9]*.md")):  # the numbered lessons; results.md has no notebook
        n = re.match(r"0*(\d+[a-z]?)-", md.name).group(1)  # 03b-relative-bias.md → 3b
        english = md.name.endswith(".en.md")
        nb = f"{'en/' if english else ''}notebooks/lesson{n}/lesson{n}.ipynb"  # an English page links the English download
        if not (ROOT / f"docs/notebooks/lesson{n}.ipynb").exists():
            missing.append(f"{md.name} has no notebook docs/notebooks/lesson{n}.py/.ipynb")
            continue
        page = f"en/lessons/{md.name[:-len('.en.md')]}/index.html" if english else f"lessons/{md.stem}/index.html"
        targets = {r[0] for _t, _a, url in parse(site_dir / page).links if (r := resolve(site_dir, page, url)) and r[0] != BROKEN}
        if nb not in targets:
            missing.append(f"{page} has no download link to {nb}")
    assert not missing, "\n  ".join(missing)


# =====================================================================================================
# Gate: alt text
# =====================================================================================================


def test_every_image_has_alt_text(site_dir):
    missing = []
    for page in html_pages(site_dir):
        rel = page.relative_to(site_dir).as_posix()
        for img in parse(page).imgs:
            alt = img.get("alt")
            src = img.get("src", "")
            if alt is None:
                missing.append(f"{rel}: <img src={src!r}> has no alt attribute")
            elif "figures/" in src and rel.startswith("en/"):
                # English pages (tools/build/i18n.py): a converted figure's alt text is English, checked at the
                # source by tests/test_i18n.py; an untranslated one is still the Chinese
                if len(alt) < 20:
                    missing.append(f"{rel}: figure {src!r} has no descriptive alt text (alt={alt!r})")
            elif "figures/" in src and not re.search(r"[\u4e00-\u9fff]", alt):
                missing.append(f"{rel}: figure {src!r} has no Chinese alt text (alt={alt!r})")
    assert not missing, "\n  ".join(["images without alt text:"] + missing)


def test_every_figure_keeps_its_place_before_it_loads(site_dir):
    """Each figure image carries its drawing's size, so text below it does not jump when it arrives on a
    slow network (and a tap aimed below it lands where it was aimed). The size is read here from the SVG
    the page links, with the standard XML parser: width/height in points, 1 pt = 4/3 CSS px."""
    import xml.etree.ElementTree as ET

    wrong = []
    for page in html_pages(site_dir):
        rel = page.relative_to(site_dir).as_posix()
        for img in parse(page).imgs:
            src = img.get("src", "")
            if "figures/" not in src or not src.split("#")[0].endswith(".svg"):
                continue
            target = resolve(site_dir, rel, src)
            root = ET.parse(site_dir / target[0]).getroot()
            want = tuple(str(round(float(root.get(k).removesuffix("pt")) * 4 / 3)) for k in ("width", "height"))
            got = (img.get("width"), img.get("height"))
            if got != want:
                wrong.append(f"{rel}: {src} has width/height {got}, its drawing is {want}")
    assert not wrong, "\n  ".join(["figure images without their drawing's size:"] + wrong)


# =====================================================================================================
# Gate: notebook pages load nothing from a CDN
# =====================================================================================================

# mkdocs-jupyter's template (nbconvert's lab template) always emits a MathJax <script src=...>
# (custom_mathjax_url "" makes it src="", which fetches nothing) with its x-mathjax-config, and a
# module script that imports mermaid from cdnjs when a page has a mermaid output. No config turns
# them off; tools/build/mkdocs_hooks.py strips them. The site renders math with its own KaTeX.
CDN_MARKERS = ("cdnjs.cloudflare.com", "cdn.jsdelivr", "unpkg.com", "require.js", "x-mathjax-config", "mathjax.hub")


def test_notebook_pages_reference_no_cdn(site_dir):
    bad = []
    for page in sorted((site_dir / "notebooks").glob("*/index.html")):
        text = page.read_text(encoding="utf-8").lower()
        found = [m for m in CDN_MARKERS if m.lower() in text]
        if found:
            bad.append(f"{page.relative_to(site_dir).as_posix()}: {', '.join(found)}")
    assert not bad, (
        "notebook pages carry CDN/MathJax scripts injected by mkdocs-jupyter (strip them in "
        "tools/build/mkdocs_hooks.py on_page_content; a check of every page):\n  " + "\n  ".join(bad)
    )


# =====================================================================================================
# Gate: page weight
# =====================================================================================================

# Budgets in bytes, uncompressed. A page's own weight is what a reader's browser fetches for that page
# and no other: its HTML, its figures, its widget scripts (with the modules they import). Not counted:
# what every page loads and the browser caches once: the theme's bundle (assets/), KaTeX (vendor/),
# the search index, and the site-wide stylesheets and scripts every page links (found as the files
# that every page references). A figure counts once, in the larger of its two schemes: the browser
# never loads the hidden scheme's image (lazy and display: none).
# A page's HTML carries its formulas already set by KaTeX (tools/build/katex_render.py), in
# place of the 267 KB KaTeX script every page ran: about 200 KB more uncompressed HTML for lessons 3
# and 5 (≈13 KB gzipped, as GitHub Pages serves it), hence 950 KB instead of 700 KB and 165 KB instead
# of 150 KB. What a phone transfers on a first load is held to its own budget over the wire
# (tools/scripts/phone_load.py, tests/browser/test_phone_load.py). Four folded deep dives were added to lesson 5
# (LongRoPE, the critical dimension and base bound, bf16 numerics, the effective-length map): ≈30 KB more
# HTML, folded so the main path does not grow; hence 1,000 KB.
# 1,000,000 until 5 December 2026; raised by 5 % when the fixes two rounds of newcomer reads and an expert check asked
# for (main-path facts and folds with their formulas) took lesson 5 to 1,015,409 B, of which 285 KB of HTML is its
# folded depth. A decision, not a fix: the way back under 1,000,000 is to move lesson 5's reference material (the
# full per-pair table, the paper-vs-code γ(r) notes) to a reference page, or to count only what a reader's browser
# fetches on load (figures in closed folds are not rendered).
# 1,050,000 until 6 December 2026; raised to 1,075,000 when the course stopped writing a bare d (d_model, d_head,
# d_rot: one meaning per symbol, which every newcomer read asked for): lesson 5's 45 subscripted widths took its HTML
# from 519,473 to 551,593 B, about 1.1 KB more gzipped (74,988 → 76,071 B); a KaTeX subscript is ~760 B of HTML
# and MathML. What a phone transfers stays held by tests/browser/test_phone_load.py.
PAGE_BUDGET = 1_075_000
FIGURE_BUDGET = 120_000  # one SVG file, either scheme
NOTEBOOK_HTML_BUDGET = 165_000  # a notebook page's HTML; its shared stylesheet is cached once


def _site_wide(site_dir: Path, pages: list[str]) -> set[str]:
    """Files every page references (theme, KaTeX, extra_css/extra_javascript): cached once for the site."""
    common = None
    for page in pages:
        res = set(page_resources(site_dir, page_file(site_dir, page).relative_to(site_dir).as_posix()))
        common = res if common is None else common & res
    return common or set()


# a figure in either scheme, the Chinese site's (figures/) or the English site's (en/figures/)
FIGURE_FILE = re.compile(r"((?:en/)?figures/.+)\.(?:light|dark)\.svg")
SITE_PARTS = ("assets/", "vendor/", "search/")  # cached for the whole site, in each language (en/…)


def _split_figures(resources: set[str]) -> tuple[set[str], set[str]]:
    """(the resources that are not figures, each figure's path without its scheme and extension)."""
    names = {m.group(1) for r in resources if (m := FIGURE_FILE.fullmatch(r))}
    return {r for r in resources if not FIGURE_FILE.fullmatch(r)}, names


def page_weights(site_dir: Path) -> list[dict]:
    """For every page but the notebooks and 404: its own weight, split into HTML, figures and scripts."""
    pages = [p for p in doc_pages() if p not in ("404.html", "en/404.html") and not p.startswith(("notebooks/", "en/notebooks/"))]
    shared = _site_wide(site_dir, pages)
    rows = []
    for page in pages:
        rel = page_file(site_dir, page).relative_to(site_dir).as_posix()
        own = {r for r in page_resources(site_dir, rel)
               if r not in shared and not r.startswith(SITE_PARTS + tuple(f"en/{part}" for part in SITE_PARTS))}
        rest, figures = _split_figures(own)
        sizes = {rel: (site_dir / rel).stat().st_size}
        for name in figures:
            variants = [f"{name}.{t}.svg" for t in ("light", "dark") if (site_dir / f"{name}.{t}.svg").is_file()]
            big = max(variants, key=lambda v: (site_dir / v).stat().st_size)
            sizes[big] = (site_dir / big).stat().st_size
        for r in rest:
            sizes[r] = (site_dir / r).stat().st_size
        kinds = defaultdict(int)
        for r, size in sizes.items():
            kinds["html" if r == rel else "figures" if FIGURE_FILE.fullmatch(r) else "scripts" if r.endswith((".js", ".mjs")) else "other"] += size
        rows.append({"page": page or "(home)", "total": sum(sizes.values()), "kinds": dict(kinds),
                     "largest": sorted(sizes.items(), key=lambda kv: -kv[1])[:3]})
    return rows


def test_page_weight_within_budget(site_dir):
    rows = page_weights(site_dir)
    print(f"\npage weight: HTML + figures (one scheme) + widget scripts, uncompressed; budget {PAGE_BUDGET:,} B")
    for r in sorted(rows, key=lambda r: -r["total"]):
        k = r["kinds"]
        print(f"  {'OVER' if r['total'] > PAGE_BUDGET else 'ok  '} {r['page']:<28} {r['total']:>9,} B  (html {k.get('html', 0):,}, "
              f"figures {k.get('figures', 0):,}, scripts {k.get('scripts', 0):,})  largest: "
              + ", ".join(f"{n.rsplit('/', 1)[-1]} {s:,}" for n, s in r["largest"]))
    over = [f"{r['page']}: {r['total']:,} B" for r in rows if r["total"] > PAGE_BUDGET]
    assert not over, f"pages over {PAGE_BUDGET:,} B of their own weight (shrink their largest figures):\n  " + "\n  ".join(over)


def test_no_figure_over_budget(site_dir):
    svgs = sorted(((p.stat().st_size, p.name) for p in (site_dir / "figures").glob("*.svg")), reverse=True)
    assert svgs, "no figures in the site (was it built with POSENC_SKIP_FIGURES=1?)"
    over = [f"{name} {size:,} B" for size, name in svgs if size > FIGURE_BUDGET]
    print(f"\nlargest figures (budget {FIGURE_BUDGET:,} B each): " + ", ".join(f"{n} {s:,}" for s, n in svgs[:8]))
    assert not over, (f"{len(over)} figure SVG(s) over {FIGURE_BUDGET:,} B (simplify paths, fewer points, rasterise a dense "
                      f"band; keep text as it is):\n  " + "\n  ".join(over))


def test_notebook_pages_html_within_budget(site_dir):
    rows = sorted((page_file(site_dir, p).stat().st_size, p) for p in doc_pages() if p.startswith("notebooks/"))
    assert rows, "no notebook pages"
    print(f"\nnotebook pages, HTML (budget {NOTEBOOK_HTML_BUDGET:,} B): " + ", ".join(f"{p} {s:,}" for s, p in rows))
    over = [f"{p}: {s:,} B" for s, p in rows if s > NOTEBOOK_HTML_BUDGET]
    assert not over, "notebook pages over budget:\n  " + "\n  ".join(over)


def test_notebook_pages_share_one_stylesheet(site_dir):
    """nbconvert's CSS is one cached file linked by every notebook page, not ~580 KB inlined in each."""
    links, inline = set(), []
    for page in (p for p in doc_pages() if p.startswith("notebooks/")):
        text = page_file(site_dir, page).read_text(encoding="utf-8")
        found = re.findall(r'<link rel="stylesheet" href="([^"]*stylesheets/notebook\.[0-9a-f]+\.css)">', text)
        assert len(found) == 1, f"{page}: expected one link to the shared notebook stylesheet, found {found}"
        links.add(posixpath.normpath(posixpath.join(page, found[0])))
        inline += [f"{page}: <style> of {len(m):,} B" for m in re.findall(r"<style[^>]*>(.*?)</style>", text, re.S) if len(m) > 2000]
    assert len(links) == 1, f"notebook pages link different stylesheets: {sorted(links)}"
    assert (site_dir / links.pop()).is_file()
    assert not inline, "\n".join(inline)


# --- what the English pages share with the Chinese ones --------------------------------------------------------

# Where KaTeX sets a formula it writes each box's geometry inline, and the English formulas' boxes differ in size:
# these properties place a box and give it no colour or text size.
GEOMETRY = {"height", "top", "bottom", "left", "right", "vertical-align", "width", "min-width", "margin-left",
            "margin-right", "margin-top", "margin-bottom", "padding-left", "padding-right", "border-bottom-width",
            "border-top-width", "border-right-width"}
PAINT = ("fill", "stroke", "color", "font-size", "font-weight")  # SVG presentation attributes that colour or size
UNSTYLED = {"br", "wbr"}  # elements that show no text of their own


class _Markup(html.parser.HTMLParser):
    """What a page's markup can colour or size with: its elements, classes, stylesheets, inline styles, SVG paint
    attributes and <style> blocks (attributes in any order, either quote)."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.tags, self.classes, self.sheets, self.styles, self.paint, self.blocks = set(), set(), set(), set(), set(), set()
        self._in_style = False
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        self.classes.update((a.get("class") or "").split())
        if tag == "link" and a.get("rel") == "stylesheet":
            self.sheets.add(re.sub(r"^(?:\.\./)+", "", a.get("href") or ""))
        if a.get("style"):
            self.styles.add(a["style"])
        self.paint.update(f"{k}={a[k]}" for k in PAINT if a.get(k))
        self._in_style = tag == "style"

    def handle_data(self, data):
        if self._in_style and data.strip():
            self.blocks.add(data.strip()[:80])
        self._in_style = False


def own_colours(english: str, chinese: str) -> list[str]:
    """What an English page's markup may colour or size on its own: an element, a class, a stylesheet, an SVG paint
    attribute, a <style> block, or an inline style that sets anything but geometry, found in the English page and
    not in the Chinese one."""
    en, zh = _Markup(english), _Markup(chinese)
    out = [f"element <{t}>" for t in sorted(en.tags - zh.tags - UNSTYLED)]
    out += [f"class {c!r}" for c in sorted(en.classes - zh.classes)]
    out += [f"stylesheet {s!r}" for s in sorted(en.sheets - zh.sheets)]
    out += [f"attribute {a!r}" for a in sorted(en.paint - zh.paint)]
    out += [f"<style> {b!r}" for b in sorted(en.blocks - zh.blocks)]
    for style in sorted(en.styles - zh.styles):
        props = {d.split(":", 1)[0].strip() for d in style.split(";") if ":" in d}
        if props - GEOMETRY:
            out.append(f"style {style!r}")
    return out


def test_english_pages_add_no_class_or_colour_of_their_own(site_dir):
    """The browser gates check colour contrast on the Chinese pages only (test_browser_gates.AXE_SAME_COLOURS):
    sound while an English page's colours and text sizes are all its Chinese page's."""
    problems = []
    for page in (p for p in doc_pages() if p.startswith("en/")):
        english = page_file(site_dir, page).read_text(encoding="utf-8")
        chinese = page_file(site_dir, page[len("en/"):]).read_text(encoding="utf-8")
        seen = _Markup(chinese)
        assert seen.sheets and seen.classes, f"{page}: the check found no stylesheet or class on the Chinese page"
        problems += [f"{page}: {x}" for x in own_colours(english, chinese)]
    assert not problems, ("English pages with colours or sizes their Chinese page lacks (give the Chinese page the same "
                          "markup, or check colour contrast on the English page in tests/browser/test_browser_gates.py):\n  "
                          + "\n  ".join(problems[:20]))


def test_own_colours_finds_a_class_a_colour_and_a_stylesheet():
    zh = '<link rel="stylesheet" href="../assets/a.css"><p class="x">甲</p><span style="height:1em;">'
    assert own_colours('<link rel="stylesheet" href="../../assets/a.css"><p class="x">A</p><span style="height:2em;top:-1em;">', zh) == []
    assert own_colours('<p class="x y">A</p>', zh) == ["class 'y'"]
    assert own_colours('<span style="height:2em;color:red;">', zh) == ["style 'height:2em;color:red;'"]
    assert own_colours('<link rel="stylesheet" href="../../assets/b.css">', zh) == ["stylesheet 'assets/b.css'"]
    assert own_colours("<link href='../../assets/b.css' rel='stylesheet'>", zh) == ["stylesheet 'assets/b.css'"]
    assert own_colours('<p class="x">A <small>b</small></p>', zh) == ["element <small>"]
    assert own_colours('<svg><text fill="#f00">A</text></svg>', zh) == ["element <svg>", "element <text>", "attribute 'fill=#f00'"]
    assert own_colours('<style>p { color: red }</style>', zh) == ["element <style>", "<style> 'p { color: red }'"]
