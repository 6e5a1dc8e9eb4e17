"""The page policy (tools/build/csp.py): every page of the built site carries one Content-Security-Policy
<meta> before its first script, the same on every page, with the directives listed below, and
listing the hash of every inline script any page runs. The browser gates load every page and fail
on any violation the browser reports (tests/browser/test_browser_gates.py)."""

from __future__ import annotations

import base64
import hashlib
import html.parser
import re
from pathlib import Path

import pytest

from tools.build import csp

REQUIRED = {
    "default-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'none'"},
    "img-src": {"'self'", "data:"},
}
JS_TYPES = {"", "text/javascript", "module", "application/javascript"}


class _Page(html.parser.HTMLParser):
    """The policies and the inline scripts a browser would run, read with Python's HTML parser."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.policies: list[tuple[int, str]] = []  # (position among elements, content)
        self.scripts: list[str] = []
        self.first_script_at: int | None = None
        self._count = 0
        self._in_script: bool | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        self._count += 1
        a = dict(attrs)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.policies.append((self._count, a.get("content") or ""))
        if tag == "script":
            if self.first_script_at is None:
                self.first_script_at = self._count
            self._in_script = "src" not in a and (a.get("type") or "").lower() in JS_TYPES
            self._text = ""

    def handle_data(self, data):
        if self._in_script is not None:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "script":
            if self._in_script:
                self.scripts.append(self._text)
            self._in_script = None


def directives(policy: str) -> dict[str, set[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = set(values)
    return out


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@pytest.mark.build
def test_every_page_carries_one_policy_before_its_scripts(site_dir):
    policies = set()
    for path in pages(site_dir):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        rel = path.relative_to(site_dir)
        assert len(page.policies) == 1, f"{rel}: {len(page.policies)} Content-Security-Policy <meta> elements"
        (at, policy), = page.policies
        assert page.first_script_at is None or at < page.first_script_at, f"{rel}: the policy comes after a script"
        policies.add(policy)
    assert len(pages(site_dir)) > 10
    assert len(policies) == 1, "pages differ in their policy (instant navigation would enforce both)"


@pytest.mark.build
def test_the_policy_admits_exactly_the_sites_inline_scripts(site_dir):
    scripts = set()
    for path in pages(site_dir):
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        scripts.update(page.scripts)
        policy = page.policies[0][1]
    d = directives(policy)
    for name, values in REQUIRED.items():
        assert d.get(name) == values, (name, d.get(name))
    assert "'unsafe-inline'" not in d["script-src"] and "'unsafe-eval'" not in d["script-src"]
    assert not [v for v in d["script-src"] if v.startswith("http") or v in ("*", "data:", "blob:")], d["script-src"]
    listed = {v for v in d["script-src"] if v.startswith("'sha256-")}
    wanted = {f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in scripts}
    assert scripts and listed == wanted, f"unlisted: {wanted - listed}; listed but unused: {listed - wanted}"


def test_the_hook_hashes_only_scripts_a_browser_runs():
    page = ('<meta charset="utf-8"><script>a()</script><script type="module">b()</script>'
            '<script src="x.js"></script><script id="c" type="application/json">{"c": 1}</script>')
    got = csp.inline_script_hashes(page)
    expect = {f"'sha256-{base64.b64encode(hashlib.sha256(t.encode()).digest()).decode()}'" for t in ("a()", "b()")}
    assert got == expect
    out = csp.with_policy(page, "t.html")
    assert re.match(r'<meta charset="utf-8">\s*<meta http-equiv="Content-Security-Policy" content="default-src', out)


def test_a_page_without_a_charset_before_its_scripts_fails_the_build():
    with pytest.raises(SystemExit, match="t.html"):
        csp.with_policy('<script>a()</script><meta charset="utf-8">', "t.html")
    with pytest.raises(SystemExit, match="t.html"):
        csp.with_policy("<p>no head</p>", "t.html")
