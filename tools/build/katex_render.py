"""Math rendered at build time: every page arrives with its formulas already set by KaTeX.

A MkDocs hook (mkdocs.yml `hooks:`). Each built page's body is scanned as KaTeX's auto-render scans
it in the browser (the same delimiters, $$…$$, $…$, \\(…\\), \\[…\\], and the same tags skipped:
script, style, pre, code …), and each formula is replaced by KaTeX's HTML and MathML, rendered by
the KaTeX that package-lock.json pins (tools/build/katex_render.mjs, one Node process per build). A
reader's browser then needs KaTeX's stylesheet and fonts only, not its 267 KB script: on a slow
phone the formulas appear with the text instead of seconds after it.

Rendered formulas are cached by content in .cache/katex/ (keyed on KaTeX's version and the
renderer's options), so a rebuild starts Node only for a formula it has not seen. A formula KaTeX
cannot parse fails the build, naming the page and the formula; in the browser it used to show as
red text.

The search index is built from each page's Markdown output before this hook runs (on_post_page), so
it holds the TeX source of each formula, not KaTeX's markup.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import re
import shutil
import subprocess
from pathlib import Path

try:
    from mkdocs.exceptions import PluginError
except ImportError:  # used without MkDocs: the post-build step needs no generator (tools/build/post_build.py)
    class PluginError(Exception):
        """A formula or the renderer failed."""

ROOT = Path(__file__).resolve().parents[2]
RENDERER = Path(__file__).with_suffix(".mjs")
KATEX_PACKAGE = ROOT / "node_modules" / "katex" / "package.json"
CACHE_DIR = ROOT / ".cache" / "katex"

log = logging.getLogger("mkdocs.hooks.katex")

# auto-render's defaults, in its order: the first left delimiter found wins, $$ before $.
DELIMITERS = (("$$", "$$", True), ("$", "$", False), ("\\(", "\\)", False), ("\\[", "\\]", True))
SKIPPED_TAGS = {"script", "noscript", "style", "textarea", "pre", "code", "option"}
_LEFT = re.compile("|".join(re.escape(left) for left, _, _ in DELIMITERS))
# a comment, or a tag whose quoted attribute values may hold ">"
_TAG = re.compile(r"""<!--.*?-->|<(/?)([A-Za-z][\w:-]*)(?:[^"'>]|"[^"]*"|'[^']*')*>""", re.S)
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def split_math(text: str) -> list[tuple[str, str, bool]]:
    """``text`` (a text node, entities decoded) as pieces ("text", s, False) and ("math", tex, display).

    KaTeX's auto-render splitAtDelimiters: the leftmost left delimiter, then its right delimiter at
    brace level zero, skipping backslash escapes. A left delimiter with no right one ends the search:
    the rest stays text.
    """
    pieces = []
    while True:
        found = _LEFT.search(text)
        if not found:
            break
        if found.start():
            pieces.append(("text", text[:found.start()], False))
            text = text[found.start():]
        left, right, display = next(d for d in DELIMITERS if text.startswith(d[0]))
        end = _end_of_math(right, text, len(left))
        if end == -1:
            break
        pieces.append(("math", text[len(left):end], display))
        text = text[end + len(right):]
    if text:
        pieces.append(("text", text, False))
    return pieces


def _end_of_math(delimiter: str, text: str, start: int) -> int:
    level, i = 0, start
    while i < len(text):
        if level <= 0 and text.startswith(delimiter, i):
            return i
        if text[i] == "\\":
            i += 1
        elif text[i] == "{":
            level += 1
        elif text[i] == "}":
            level -= 1
        i += 1
    return -1


class Renderer:
    """KaTeX in one Node process, started on the first formula that is not cached."""

    def __init__(self, cache_dir: Path = CACHE_DIR):
        if not KATEX_PACKAGE.is_file():
            raise PluginError(f"KaTeX not found at {KATEX_PACKAGE.parent}: run `make setup` (it runs `npm ci`)")
        version = json.loads(KATEX_PACKAGE.read_text(encoding="utf-8"))["version"]
        key = hashlib.sha256(version.encode() + b"\0" + RENDERER.read_bytes()).hexdigest()[:16]
        self.cache_file = cache_dir / f"{key}.json"
        try:
            self.cache: dict[str, str] = json.loads(self.cache_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.cache = {}
        self.used: set[str] = set()
        self.rendered = 0
        self._node: subprocess.Popen | None = None

    def render(self, tex: str, display: bool) -> str:
        key = f"{'D' if display else 'I'}{tex}"
        self.used.add(key)
        if key not in self.cache:
            answer = self._ask(tex, display)
            if "error" in answer:
                raise ValueError(answer["error"])
            self.cache[key] = answer["html"]
            self.rendered += 1
        return self.cache[key]

    def _ask(self, tex: str, display: bool) -> dict:
        if self._node is None:
            node = shutil.which("node")
            if node is None:
                raise PluginError("node not found: the build renders math with KaTeX under Node.js (make setup installs nodejs)")
            self._node = subprocess.Popen([node, str(RENDERER)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True, encoding="utf-8", bufsize=1)
            self._node.stdout.readline()  # {"version": …}
        self._node.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
        self._node.stdin.flush()
        line = self._node.stdout.readline()
        if not line:
            raise PluginError(f"the KaTeX renderer ({RENDERER.relative_to(ROOT)}) stopped (exit status {self._node.poll()})")
        return json.loads(line)

    def close(self, save: bool, prune: bool = True) -> None:
        if self._node is not None:
            self._node.stdin.close()
            self._node.wait(timeout=30)
            self._node.stdout.close()
            self._node = None
        if save and (self.rendered or (prune and set(self.cache) != self.used)):
            # only what this build used (a whole site's build): the cache stays the size of the site's math
            kept = {k: self.cache[k] for k in sorted(self.used if prune else self.cache)}
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_file.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.cache_file)


def render_page(page_html: str, render, where: str) -> tuple[str, int]:
    """``page_html`` with every formula in its body rendered by ``render(tex, display)``; and the count."""
    start = page_html.find("<body")
    if start == -1:
        return page_html, 0
    out, pos, skipped, count = [page_html[:start]], start, [], 0
    for tag in _TAG.finditer(page_html, start):
        if tag.start() > pos:
            text = page_html[pos:tag.start()]
            if skipped or not any(left in text for left, _, _ in DELIMITERS):
                out.append(text)
            else:
                rendered, n = _render_text(text, render, where)
                out.append(rendered)
                count += n
        out.append(tag.group(0))
        pos = tag.end()
        closing, name = tag.group(1), (tag.group(2) or "").lower()
        if name in SKIPPED_TAGS:
            if closing:
                if name in skipped:
                    del skipped[len(skipped) - 1 - skipped[::-1].index(name):]
            elif not tag.group(0).endswith("/>") and name not in _VOID:
                skipped.append(name)
    out.append(page_html[pos:])
    return "".join(out), count


def _render_text(text: str, render, where: str) -> tuple[str, int]:
    pieces = split_math(html.unescape(text))
    if not any(kind == "math" for kind, _, _ in pieces):
        return text, 0
    out = []
    for kind, value, display in pieces:
        if kind == "text":
            out.append(html.escape(value, quote=False))
            continue
        try:
            out.append(render(value, display))
        except ValueError as err:
            raise PluginError(f"{where}: KaTeX cannot render the formula {value!r}: {err}") from None
    return "".join(out), sum(kind == "math" for kind, _, _ in pieces)


_renderer: Renderer | None = None
_formulas = 0


def on_pre_build(config):
    global _renderer, _formulas
    _renderer, _formulas = Renderer(), 0


def on_post_page(output, page, config):
    global _formulas
    output, n = render_page(output, _renderer.render, page.file.src_uri)
    _formulas += n
    return output


def on_post_build(config):
    log.info(f"math: {_formulas} formulas set at build time ({_renderer.rendered} rendered by KaTeX, the rest from {CACHE_DIR.relative_to(ROOT)})")
    _renderer.close(save=True)


def finish_page_only() -> None:
    """After `mkdocs serve` built some pages again (tools/build/serve_pages.py): keep what KaTeX rendered for them,
    forgetting nothing the other pages use."""
    _renderer.close(save=True, prune=False)


def on_build_error(error):
    if _renderer is not None:
        _renderer.close(save=False)
