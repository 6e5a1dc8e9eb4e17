"""The page policy: a Content-Security-Policy on every page the build writes (a MkDocs hook, listed
last in mkdocs.yml so that it sees each page's final HTML).

GitHub Pages sends no headers of our choosing, so the policy is a <meta http-equiv> element, placed
right after <meta charset> and before any script. What a page may do:

    default-src 'self'            everything from the site itself: no CDN, no other host
    script-src  'self' 'sha256-…' script files from the site, and inline scripts only if their text
                                  hashes to one the build listed (Material's few, by page depth;
                                  mkdocs-jupyter's copy button on notebook pages)
    style-src   'self' 'unsafe-inline'   KaTeX sets inline styles on the formulas it renders (in the
                                  browser or at build time), and Material on its components
    img-src     'self' data:      figures, and the data: icons Material's CSS draws
    object-src 'none'; base-uri 'self'; form-action 'none'

The hashes listed are those of every inline script of every page, the same list on every page:
Material's instant navigation adds the next page's <meta> elements to the head it keeps, and a
browser enforces every policy it has been given, so each page's policy must already admit the
scripts of any page a reader moves to (their __md_scope line differs with the page's depth).
on_post_page writes a placeholder and collects the page's inline scripts (``collected_sources``); the
site-level post-build step (tools/build/post_build.py ``finish_site``, which tools/build/mkdocs_hooks.py calls
once every language's pages are written) puts the list into every page (``finish_site`` here). A page without
<meta charset> to anchor the policy fails the build.

`mkdocs serve` injects a live-reload script whose text changes with every request, so there the
policy admits inline scripts instead of listing hashes ('unsafe-inline'); everything else is the
same. tests/browser/test_browser_gates.py fails on any policy violation a page reports.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

try:
    from mkdocs.plugins import event_priority
except ImportError:  # used without MkDocs: the post-build step needs no generator (tools/build/post_build.py)
    def event_priority(_):
        return lambda f: f

PLACEHOLDER = "posenc-csp-script-hashes"
POLICY = {
    "default-src": "'self'",
    "script-src": f"'self' {PLACEHOLDER}",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'none'",
}
CHARSET = re.compile(r'<meta charset="utf-8">', re.I)
# A script element the browser runs: no src, and no type or a JavaScript one (not application/json).
SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<text>.*?)</script>", re.S | re.I)
TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]*)""", re.I)
JS_TYPES = {"", "text/javascript", "application/javascript", "module"}

SERVE_SCRIPTS = "'unsafe-inline'"  # under `mkdocs serve` (see the module docstring)

_hashes: set[str] = set()
_serving = False


def policy(script_sources: str) -> str:
    return "; ".join(f"{k} {v}" for k, v in POLICY.items()).replace(PLACEHOLDER, script_sources)


def inline_script_hashes(html: str) -> set[str]:
    """CSP source expressions ('sha256-…') for the inline scripts of ``html`` that a browser would run."""
    out = set()
    for m in SCRIPT.finditer(html):
        attrs = m.group("attrs")
        kind = TYPE.search(attrs)
        if re.search(r"\ssrc\s*=", attrs, re.I) or (kind and kind.group(1).lower() not in JS_TYPES):
            continue
        digest = base64.b64encode(hashlib.sha256(m.group("text").encode("utf-8")).digest()).decode()
        out.add(f"'sha256-{digest}'")
    return out


def with_policy(html: str, where: str) -> str:
    """``html`` with the policy's <meta> (the hash list still a placeholder) after its <meta charset>."""
    m = CHARSET.search(html)
    first_script = html.find("<script")
    if m is None or -1 < first_script < m.end():
        raise SystemExit(f"{where}: no <meta charset=\"utf-8\"> before the first script to place the page policy after "
                         "(tools/build/csp.py)")
    _hashes.update(inline_script_hashes(html))
    meta = f'\n      <meta http-equiv="Content-Security-Policy" content="{policy(PLACEHOLDER)}">'
    return html[:m.end()] + meta + html[m.end():]


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"


def on_pre_build(config):
    # One `mkdocs build` makes both languages (tools/build/i18n.py): the English build runs inside the Chinese
    # one's on_post_build, and its post-build step (the last language's) fills every page's placeholder, the
    # Chinese pages' too, so it keeps their hashes.
    from tools.build.i18n import DEFAULT, build_language

    if build_language(config) == DEFAULT:
        _hashes.clear()


@event_priority(-100)  # after every other hook and plugin has changed the page
def on_post_page(output, page, config):
    return with_policy(output, page.file.src_uri)


@event_priority(-100)
def on_post_template(output_content, template_name, config):
    # 404.html is a theme template, not a page: on_post_page never sees it
    return with_policy(output_content, template_name) if template_name == "404.html" else output_content


def finish_page(path: Path, scripts: str) -> None:
    """The page at ``path`` with its policy's placeholder replaced by ``scripts`` (if it has one)."""
    text = path.read_text(encoding="utf-8")
    if PLACEHOLDER in text:
        text = text.replace(policy(PLACEHOLDER), policy(scripts))
        if PLACEHOLDER in text:
            raise SystemExit(f"{path}: the page policy's placeholder {PLACEHOLDER!r} is left in the page (tools/build/csp.py)")
        path.write_text(text, encoding="utf-8")


def collected_sources() -> str:
    """The policy's script sources for this build: the hashes on_post_page collected, sorted (under `mkdocs serve`,
    'unsafe-inline', see the module docstring)."""
    return SERVE_SCRIPTS if _serving else sources(_hashes)


def sources(hashes) -> str:
    return " ".join(sorted(hashes))


def site_script_hashes(site_dir: Path) -> set[str]:
    """The hashes of every inline script a browser would run in the pages under ``site_dir``: what on_post_page
    collects, read back from the written pages (for a generator that runs no hook)."""
    out: set[str] = set()
    for path in Path(site_dir).rglob("*.html"):
        out |= inline_script_hashes(path.read_text(encoding="utf-8"))
    return out


def finish_site(site_dir: Path, scripts: str) -> None:
    """Every page under ``site_dir`` with its policy's placeholder replaced by ``scripts`` (``finish_page``)."""
    for path in Path(site_dir).rglob("*.html"):
        finish_page(path, scripts)
