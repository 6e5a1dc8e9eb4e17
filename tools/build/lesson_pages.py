"""A lesson page's shape: where it sits in the course, and the blocks and sections its rules name.

The course order is mkdocs.yml's nav (the footer's 上一页/下一页 follows it): home, lessons 1, 2, 3, 3b, 4, 5,
6, 6b, the results page, the glossary, the references, then the notebooks. ``course_order()`` reads it.

A page's blocks, found on its Markdown with fenced code blanked (a ``!!!`` inside code is not a block):

- an admonition or a collapsible block: ``!!! type "title"``, ``??? type "title"`` (folded) or ``???+``
  (open), and every following line that is blank or indented deeper than the marker;
- a section: a heading and every line up to the next heading of the same or a higher level; its anchor is
  the ``{ #id }`` written after the heading.

The rules that read these (tools/guards/concept_order.py, tools/build/reading_time.py, tests/test_lesson_structure.py)
name the blocks they mean by title or anchor: the 这一课先不碰 box, the ``{ #next }`` section, the
``{ #sources }`` section, a folded ``???`` block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
MKDOCS_YML = ROOT / "mkdocs.yml"

_BLANK = re.compile(r"[^\n]")
FENCE = re.compile(r"^(?P<f>```+|~~~+).*?^(?P=f)[ \t]*$", re.M | re.S)


def blank_code(markdown: str) -> str:
    """The page with its fenced code replaced by spaces, lines kept (so line numbers stay right)."""
    return FENCE.sub(lambda m: _BLANK.sub(" ", m.group(0)), markdown)


# --- the course order ------------------------------------------------------------------------------------


def _nav_paths(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [p for item in node for p in _nav_paths(item)]
    if isinstance(node, dict):
        return [p for value in node.values() for p in _nav_paths(value)]
    return []


def read_mkdocs_yml(mkdocs_yml: Path = MKDOCS_YML) -> dict:
    """mkdocs.yml as plain data, without MkDocs: its !ENV and Python tags read as None (nav, plugins, watch and
    extra need none of them)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load(mkdocs_yml.read_text(encoding="utf-8"), Loader=Loader)


@lru_cache(maxsize=None)
def course_order(mkdocs_yml: Path = MKDOCS_YML) -> tuple[str, ...]:
    """Every page of mkdocs.yml's nav, as its path under docs/ ('lessons/04-rope.md'), in nav order."""
    paths = _nav_paths(read_mkdocs_yml(mkdocs_yml).get("nav"))
    if not paths:
        raise ValueError(f"{mkdocs_yml.name}: no nav; the course order is the nav's order")
    return tuple(paths)


LESSON_PAGE = re.compile(r"^lessons/0*(\d+)(b?)-[^/]+\.md$")


def lesson_key(page: str) -> str | None:
    """'lessons/03b-relative-bias.md' → 'lesson3b'; None for a page that is not a numbered lesson."""
    m = LESSON_PAGE.match(page)
    return f"lesson{m.group(1)}{m.group(2)}" if m else None


def lesson_pages() -> list[str]:
    """The numbered lessons (docs/lessons/NN-name.md), in course order."""
    return [p for p in course_order() if lesson_key(p)]


def docs_page(path: Path) -> str:
    """A file's path under docs/ ('lessons/04-rope.md'), or its name if it lies elsewhere."""
    path = Path(path).resolve()
    return path.relative_to(DOCS).as_posix() if path.is_relative_to(DOCS) else path.name


# --- blocks and sections ---------------------------------------------------------------------------------

ADMONITION = re.compile(r'^(?P<indent>[ \t]*)(?P<marker>!!!|\?\?\?\+?)[ \t]+(?P<type>[\w-]+(?:[ \t]+[\w-]+)*)'
                        r'(?:[ \t]+"(?P<title>.*)")?[ \t]*$')
HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
ATTR_ID = re.compile(r"\{[^}]*#(?P<id>[\w-]+)[^}]*\}[ \t]*$")


@dataclass(frozen=True)
class Block:
    """An admonition (``!!!``), a folded (``???``) or open (``???+``) block, or a section (``##``)."""

    marker: str  # '!!!', '???', '???+', or the heading's hashes
    type: str  # the admonition's type ('note', 'abstract'), or 'section'
    title: str  # the admonition's title, or the heading's text without its { #id }
    anchor: str  # the heading's { #id } ('' if none; always '' for an admonition)
    start: int  # first line (the marker or heading), 1-based
    end: int  # last line that belongs to it, inclusive
    indent: int  # the marker's indentation in columns (0 for a section)

    @property
    def folded(self) -> bool:
        return self.marker == "???"

    @property
    def is_section(self) -> bool:
        return self.type == "section"

    def lines(self) -> range:
        return range(self.start, self.end + 1)


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def admonitions(markdown: str) -> list[Block]:
    """Every admonition and collapsible block of a page, nested ones included, in page order."""
    lines = blank_code(markdown).split("\n")
    out = []
    for i, line in enumerate(lines):
        m = ADMONITION.match(line)
        if not m:
            continue
        indent, end = _indent(line), i
        for j in range(i + 1, len(lines)):
            if not lines[j].strip():
                continue
            if _indent(lines[j]) <= indent:
                break
            end = j
        out.append(Block(m.group("marker"), m.group("type").split()[0], m.group("title") or "", "", i + 1, end + 1, indent))
    return out


def sections(markdown: str) -> list[Block]:
    """Every heading of a page with the lines up to the next heading of the same or a higher level."""
    lines = blank_code(markdown).split("\n")
    heads = []
    for i, line in enumerate(lines):
        m = HEADING.match(line)
        if m:
            text = m.group("text")
            anchor = ATTR_ID.search(text)
            title = text[: anchor.start()].rstrip() if anchor else text
            heads.append((i + 1, len(m.group("hashes")), title, anchor.group("id") if anchor else ""))
    last = len(lines)
    while last > 1 and not lines[last - 1].strip():
        last -= 1
    out = []
    for k, (start, level, title, anchor) in enumerate(heads):
        end = next((s - 1 for s, lv, _, _ in heads[k + 1:] if lv <= level), last)
        out.append(Block("#" * level, "section", title, anchor, start, max(start, end), 0))
    return out


def section(markdown: str, anchor: str) -> Block | None:
    """The section whose heading carries ``{ #anchor }``, or None."""
    return next((s for s in sections(markdown) if s.anchor == anchor), None)


def blank_lines(text: str, lines) -> str:
    """``text`` with the given 1-based lines replaced by spaces (line numbers kept)."""
    wanted = set(lines)
    if not wanted:
        return text
    rows = text.split("\n")
    for n in wanted:
        if 1 <= n <= len(rows):
            rows[n - 1] = " " * len(rows[n - 1])
    return "\n".join(rows)


# --- a check of a page's own Markdown, as a command and as a MkDocs hook -----------------------------------
# tools/guards/concept_order.py, tools/guards/notation.py and tools/guards/universal_claims.py each define
# ``check(markdown, page, path) -> findings`` and get their file walk and their hook from here;
# they and tools/guards/prose_lint.py get their command line (``main``) from ``command``.


def check_files(paths, check) -> list:
    """Every finding of ``check(markdown, page, path)`` on the files at ``paths`` (page: the path under docs/)."""
    out = []
    for path in paths:
        path = Path(path).resolve()
        out.extend(check(path.read_text(encoding="utf-8"), docs_page(path), path))
    return out


def markdown_hook(logger: str, check, applies=lambda src_uri: True):
    """An ``on_page_markdown`` hook that logs each finding of ``check`` on a page as an error.

    An error, not a warning: ``mkdocs build -q`` drops warnings before ``--strict`` counts them. Priority 100: the
    check reads the page's own Markdown, before mkdocs-macros replaces the macro calls (a preview or a fact()
    the check looks for would be gone)."""
    import logging
    import sys

    log = logging.getLogger(logger)

    def on_page_markdown(markdown, page, config, files):
        if str(ROOT) not in sys.path:  # MkDocs restores sys.path after loading a hook file; checks import lazily
            sys.path.insert(0, str(ROOT))
        if applies(page.file.src_uri):
            path = Path(page.file.abs_src_path) if page.file.abs_src_path else DOCS / page.file.src_uri
            for finding in check(markdown, page.file.src_uri, path):
                log.error(str(finding))
        return markdown

    try:
        from mkdocs.plugins import event_priority
    except ImportError:  # the checks also run without MkDocs (python -m tools.<check>)
        return on_page_markdown
    return event_priority(100)(on_page_markdown)


def command(name: str, find, default_paths, failed: str):
    """The ``main(argv=None) -> int`` of a guard run as ``python -m tools.<guard> [page.md …]``.

    ``find(paths)`` gives the findings on those files (all of ``default_paths()`` when none is named); each is
    printed, then ``failed`` with ``{n}`` replaced by their count, and the exit status is 1. Clean: one line, 0.
    """

    def main(argv=None) -> int:
        import sys

        argv = sys.argv[1:] if argv is None else argv
        paths = [Path(a) for a in argv] or list(default_paths())
        findings = find(paths)
        for f in findings:
            print(f)
        if findings:
            print("\n" + failed.replace("{n}", str(len(findings))))
            return 1
        print(f"{name}: {len(paths)} page(s) clean")
        return 0

    return main
