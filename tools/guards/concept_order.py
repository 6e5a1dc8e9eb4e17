"""The concept-order check: a lesson names a glossary term only in or after the lesson that teaches it, and its
main path stands alone, without its folds.

A learner reads the course in order (mkdocs.yml's nav: lessons 1, 2, 3, 3b, 4, 5, 6, 6b, then the results
page, the glossary, the references). Each glossary entry (posenc/data/glossary.yaml) says in ``first``
which lesson teaches it. On a page that comes before that lesson, the term may appear only inside a
marked preview; anywhere else it is an error with the page's file and line:

    docs/lessons/03-sinusoidal.md:123: 'ALiBi' is taught in lessons/03b-relative-bias.md#alibi; say it in
    plain words, move it into a marked preview, or teach it here

It runs inside every build (a hook in mkdocs.yml: an error, so `mkdocs build --strict` fails with or without
-q) and on its own: ``python -m tools.guards.concept_order [FILES…]`` (default: every lesson page).

What is read. The page's prose as the numbers lint reads it (tools/guards/prose_lint.py ``prose``): outside fenced
and inline code, math, macro calls and link targets. Headings, tables, link text, folded blocks (the FAQ,
``??? note "选读：…"`` deep dives, exercise answers) and the sources section are prose: a folded block is
still read in order, by whoever unfolds it.

Marked previews, where a later term may appear (docs/../phaseB conventions; the marker is the exact title or
anchor):
  - the admonition titled 这一课先不碰 (``!!! abstract "这一课先不碰"``);
  - any admonition whose title starts with 预告 (``!!! tip "预告：…"``);
  - the section whose heading carries ``{ #next }`` (``## 下一个缺口 { #next }``), up to the next heading
    of its level;
  - the timeline and the data-flow panel: they are macro calls (``{{ timeline("lesson3") }}``,
    ``{{ widget("dataflow", …) }}``), and macro calls are not the page's prose.

Pages. A page's place is its place in the nav. The home page (index.md) is exempt: it is the map of the
whole course. The results page, the glossary and the references come after lesson 6b in the nav, so every
term is taught by then and they pass by their place. Only Markdown pages are read (a notebook's Markdown
cells are not: the notebooks are exercises done after their lesson).

The main path stands alone (on every numbered lesson, both languages). The main path is the page without its
folded blocks (``??? …``) and its sources section. Three findings, each with the page's file and line:
  - a fold of no kind. Every fold is one of FOLD_KINDS, told by its title's first word (选读：…, 答案, 数字从哪来,
    误解一：…, 记号对照：…, 预告：…; English: Optional:, Answer, Where the numbers come from, Misconception one:,
    Notation mapping:, Preview:) or, for a reader's question, by its type (``??? question``). The home page's 怎么读
    explains each kind and that each is safe to skip. A fold in the sources section is not on the path and needs no
    kind;
  - a link from the main path into a fold: to an anchor written inside a fold, or a ``<span id>`` standing just
    before one, on this page or another lesson. The main path says what it needs; where it points at optional
    depth, it names the 选读 in words ("推导和例子在选读里"), which a reader knows to skip;
  - a heading with only folds under it (its own lines, before any subheading, are all folds): the main path says
    what the section holds.
What the main path needs (a fact an exercise or a 学完 checklist relies on) cannot be found by a pattern; these
findings keep the shape honest, and the lessons' authors keep the facts on the path.

Which words are a term. For each entry:
  - its ``term``, and each part of a term written with a gloss in full-width brackets: "RoPE（旋转位置编码）"
    gives "RoPE" and "旋转位置编码", "位置插值（PI）" gives "位置插值" and "PI";
  - its ``english`` name without bracketed asides, up to the first comma ("native (pre-training) context
    length" gives "native context length"), when it is distinctive: two or more words ("causal mask",
    "self-attention") or a capital after the first letter ("YaRN"). A single common word ("hand", "period",
    "base", "extrapolation") is not matched; the Chinese term is.
How they match:
  - Latin letters at word boundaries: "RoPE" is not found in "RoPEs" or "XRoPE"; a term's own letters keep
    their case ("PI" is not "pi"), an English name matches in any case; a space or hyphen between two Latin
    words matches either ("sliding window attention"), a space next to a Chinese character may be absent
    ("部分RoPE").
  - The longest name wins at each place, and a place is counted once: "正弦位置编码" is one term, not also
    a "位置编码" inside it; "相对位置偏置" (lesson 3b) is that term, not "相对位置" (lesson 3) with 偏置
    after it; "M-RoPE" is not "RoPE". So a CJK term never matches inside a longer glossary term.
  - One finding per term per line.
"""

from __future__ import annotations

import posixpath
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:  # loaded as a hook file: tools must be importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.build import lesson_pages as lp  # noqa: E402
from tools.build.i18n import DEFAULT, source_for, source_language  # noqa: E402

ROOT = lp.ROOT

EXEMPT_PAGES = ("index.md",)  # the map of the whole course
PREVIEW_TITLE = ("这一课先不碰", "Not in this lesson")  # the box's title, Chinese and on English pages
PREVIEW_PREFIX = ("预告", "Preview")
PREVIEW_ANCHOR = "next"

FIX = ("say it in plain words, move it into a marked preview (an admonition titled 这一课先不碰 / \"Not in this lesson\", "
       "or one whose title starts with 预告 / \"Preview\"), or teach it here")

_LATIN = re.compile(r"[A-Za-z]")
_BRACKETED = re.compile(r"\s*[（(][^）)]*[）)]")


@dataclass(frozen=True)
class Name:
    text: str  # the words matched
    term: str  # the glossary entry's term
    first: str  # where it is taught ('lessons/03b-relative-bias.md#alibi')
    any_case: bool


def _english_name(english: str) -> str | None:
    main = _BRACKETED.sub("", english).split(",")[0].strip()
    words = re.split(r"[\s-]+", main)
    if len(words) >= 2 or re.search(r"^.+[A-Z]", main):
        return main
    return None


def term_names(entry) -> list[Name]:
    """The words that name a glossary entry in prose (module docstring: which words are a term)."""
    parts = [p.strip() for p in re.split(r"[（）()]", entry.term) if p.strip()]
    names = [Name(p, entry.term, entry.first, any_case=False) for p in parts]
    english = _english_name(entry.english)
    if english and all(english.lower() != n.text.lower() for n in names if _LATIN.search(n.text)):
        names.append(Name(english, entry.term, entry.first, any_case=True))
    elif english:  # the same letters as the term ("KV cache"): let the term itself match in any case
        names = [Name(n.text, n.term, n.first, n.any_case or n.text.lower() == english.lower()) for n in names]
    return names


def name_pattern(name: Name) -> str:
    """A regex for one name (module docstring: how they match)."""
    out = []
    text = name.text
    for i, ch in enumerate(text):
        if ch.isspace() or (ch == "-" and _LATIN.match(text[i - 1: i] or " ") and _LATIN.match(text[i + 1: i + 2] or " ")):
            if out and out[-1] in (r"[\s-]+", r"\s*"):
                continue
            before, after = text[i - 1: i], text[i + 1: i + 2]
            out.append(r"[\s-]+" if _LATIN.match(before or " ") and _LATIN.match(after or " ") else r"\s*")
        else:
            out.append(re.escape(ch))
    body = "".join(out)
    if name.any_case:
        body = f"(?i:{body})"
    if _LATIN.match(text[0]):
        body = r"(?<![A-Za-z0-9_])" + body
    if _LATIN.match(text[-1]):
        body += r"(?![A-Za-z0-9_])"
    return body


@lru_cache(maxsize=None)
def _matcher(glossary: Path) -> tuple[re.Pattern, tuple[Name, ...]]:
    from tools.build import course_macros as cm

    names = [n for entry in cm.load_glossary(glossary) for n in term_names(entry)]
    names.sort(key=lambda n: len(n.text), reverse=True)  # the longest name wins at a place
    pattern = re.compile("|".join(f"(?P<n{i}>{name_pattern(n)})" for i, n in enumerate(names)))
    return pattern, tuple(names)


def find_terms(text: str, glossary: Path | None = None) -> list[tuple[int, str, Name]]:
    """(line, the words as written, the name) for every glossary name in ``text``, left to right."""
    from tools.build import course_macros as cm

    pattern, names = _matcher(glossary or cm.GLOSSARY)
    out = []
    for m in pattern.finditer(text):
        name = names[int(m.lastgroup[1:])]
        out.append((text.count("\n", 0, m.start()) + 1, m.group(0), name))
    return out


def preview_lines(markdown: str) -> set[int]:
    """The lines inside marked previews (module docstring)."""
    lines: set[int] = set()
    for block in lp.admonitions(markdown):
        title = block.title.strip()
        if title in PREVIEW_TITLE or title.startswith(PREVIEW_PREFIX):
            lines.update(block.lines())
    for sec in lp.sections(markdown):
        if sec.anchor == PREVIEW_ANCHOR:
            lines.update(sec.lines())
    return lines


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    written: str
    term: str
    first: str

    def __str__(self) -> str:
        rel = self.path.relative_to(ROOT).as_posix() if self.path.is_relative_to(ROOT) else str(self.path)
        return f"{rel}:{self.line}: {self.written!r} is taught in {self.first}; {FIX}"


def page_position(page: str) -> int | None:
    """A page's place in the course (its index in the nav); None for a page the check does not read."""
    order = lp.course_order()
    page = source_for(page, DEFAULT)  # a translation has its Chinese page's place
    if page in EXEMPT_PAGES or page not in order or not page.endswith(".md"):
        return None
    return order.index(page)


def check(markdown: str, page: str, path: Path | None = None, glossary: Path | None = None) -> list:
    """The findings on one page: ``page`` is its path under docs/ ('lessons/03-sinusoidal.md')."""
    from tools.guards import prose_lint

    here = page_position(page)
    if here is None:
        return []
    order = lp.course_order()
    text = lp.blank_lines(prose_lint.prose(markdown), preview_lines(markdown))
    path = path or lp.DOCS / page
    out, seen = [], set()
    for line, written, name in find_terms(text, glossary):
        taught = name.first.partition("#")[0]
        if taught not in order:
            raise ValueError(f"glossary term {name.term!r}: first {name.first!r} is not a page in mkdocs.yml's nav")
        if order.index(taught) <= here or (line, name.term) in seen:
            continue
        seen.add((line, name.term))
        out.append(Finding(path, line, " ".join(written.split()), name.term, name.first))
    if lp.lesson_key(source_for(page, DEFAULT)):
        out += fold_findings(markdown, page, path)
    return out


# --- the main path stands alone: folds are optional depth of a known kind ------------------------------------
#
# A lesson's main path is the page without its folded blocks (``??? …``): what a learner reads straight through.
# Every fold is one of a few kinds the home page explains (docs/index.md, 怎么读), each safe to skip:
FOLD_KINDS = (
    # (kind, how the title starts in Chinese, on English pages); the FAQ is told by its type, ``??? question``
    ("选读", ("选读", "Optional")),  # optional depth: proofs, sources, what real training does
    ("答案", ("答案", "Answer")),  # an exercise's answer; the exercise is on the main path
    ("问答", ()),  # a reader's question (``??? question "…"``), answered
    ("数字从哪来", ("数字从哪来", "Where the numbers come from")),  # the code and sources behind a page's numbers
    ("误解", ("误解", "Misconception")),  # a common misconception (the title) and why it is wrong
    ("记号对照", ("记号对照", "Notation mapping")),  # a paper's or a library's notation mapped to the course's
    ("预告", ("预告", "Preview")),  # a look ahead at a later lesson
)
_LINK_ANCHOR = re.compile(r"\]\((?P<page>[^)#\s]*)#(?P<anchor>[\w-]+)\)")
_SPAN_ID = re.compile(r'^\s*<span id="(?P<id>[\w-]+)"></span>\s*$')
_ATTR_LINE = re.compile(r"^\s*\{[^}]*\}\s*$")


def fold_kind(block: lp.Block) -> str | None:
    """The kind of a folded block (FOLD_KINDS), or None when its title and type name none."""
    if block.type == "question":
        return "问答"
    title = block.title.strip()
    for kind, prefixes in FOLD_KINDS:
        # the prefix alone ("答案"), or with a colon after it or after its number ("误解四：", "Misconception four:")
        if any(title == p or re.match(re.escape(p) + r"[^：:「“\"]{0,12}[：:]", title) for p in prefixes):
            return kind
    return None


def fold_anchors(markdown: str) -> set[str]:
    """The anchors that lead into a fold: those written inside it, and a ``<span id>`` standing just before it."""
    lines = lp.blank_code(markdown).split("\n")
    folds = [b for b in lp.admonitions(markdown) if b.folded]
    inside = {n for b in folds for n in b.lines()}
    out = set()
    for n, line in enumerate(lines, 1):
        if n in inside:
            out.update(m.group(1) for m in re.finditer(r"#([\w-]+)\s*\}|id=\"([\w-]+)\"", line) if m.group(1))
            out.update(m.group(2) for m in re.finditer(r"#([\w-]+)\s*\}|id=\"([\w-]+)\"", line) if m.group(2))
    for b in folds:
        n = b.start - 1
        while n >= 1 and not lines[n - 1].strip():
            n -= 1
        m = _SPAN_ID.match(lines[n - 1]) if n >= 1 else None
        if m:
            out.add(m.group("id"))
    return out


@dataclass(frozen=True)
class FoldFinding:
    path: Path
    line: int
    what: str

    def __str__(self) -> str:
        rel = self.path.relative_to(ROOT).as_posix() if self.path.is_relative_to(ROOT) else str(self.path)
        return f"{rel}:{self.line}: main path: {self.what}"


KIND_FIX = ("start its title with a kind, " + ", ".join(f"{p[0]}…" for _, p in FOLD_KINDS if p)
            + " (English: " + ", ".join(f"{p[1]}…" for _, p in FOLD_KINDS if p) + "), make it a ??? question, "
            "or unfold it: every fold is a kind the home page explains, safe to skip")


def fold_findings(markdown: str, page: str, path: Path, pages: dict[str, str] | None = None) -> list[FoldFinding]:
    """On a lesson page: a fold of no kind; a link from the main path into a fold (of this page or another
    lesson); a heading with only folds under it. ``pages``: other lessons' Markdown by their path under docs/
    (read from docs/ when missing)."""
    out = []
    blocks = lp.admonitions(markdown)
    folds = [b for b in blocks if b.folded]
    sources = lp.section(markdown, "sources")
    for b in folds:
        if sources and b.start in sources.lines():  # the sources section is not the main path's
            continue
        if fold_kind(b) is None:
            out.append(FoldFinding(path, b.start, f"the fold {b.title!r} has no kind: {KIND_FIX}"))
    hidden = {n for b in folds for n in b.lines()}
    if sources:
        hidden.update(sources.lines())
    text = lp.blank_code(markdown)
    here = source_for(page, DEFAULT)
    own = fold_anchors(markdown)
    for n, line in enumerate(text.split("\n"), 1):
        if n in hidden:
            continue
        for m in _LINK_ANCHOR.finditer(line):
            target, anchor = m.group("page"), m.group("anchor")
            if not target:
                inside = anchor in own
            else:
                other = source_for(posixpath.normpath(posixpath.join(posixpath.dirname(here), target)), DEFAULT)
                if not lp.lesson_key(other):
                    continue
                source = (pages or {}).get(other)
                if source is None:
                    other_path = lp.DOCS / source_for(other, source_language(page))
                    source = other_path.read_text(encoding="utf-8") if other_path.exists() else ""
                inside = anchor in fold_anchors(source)
            if inside:
                out.append(FoldFinding(path, n, f"the link to #{anchor} leads into a fold; the main path must not need "
                                                "a fold: say it here, or name the 选读 in words as optional depth"))
    lines = text.split("\n")
    secs = lp.sections(markdown)
    for sec in secs:
        if sec.start in hidden or len(sec.marker) < 2:
            continue
        body_end = next((s.start - 1 for s in secs if sec.start < s.start <= sec.end), sec.end)
        body = [k for k in range(sec.start + 1, body_end + 1)
                if lines[k - 1].strip() and not _ATTR_LINE.match(lines[k - 1]) and not _SPAN_ID.match(lines[k - 1])]
        if body and all(k in hidden for k in body):
            out.append(FoldFinding(path, sec.start, f"the heading {sec.title!r} has only folds under it: say on the "
                                                    "main path what the section holds, or unfold what it needs"))
    return out


def check_files(paths) -> list:
    return lp.check_files(paths, check)


# As a MkDocs hook (mkdocs.yml: hooks): each finding is an error, so it fails --strict even with -q.
on_page_markdown = lp.markdown_hook("mkdocs.hooks.concept_order", check)


_NOT_PROSE = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)|`[^`\n]+`|\$[^$\n]+\$|<[^>\n]+>")  # links, code, math, tags


def link_glossary_terms(line: str, from_page: str, seen: set[str]) -> str:
    """``line`` with the first use of each glossary term not yet in ``seen`` linked to its glossary entry.

    The home page's timeline recaps the whole course before a newcomer has read a lesson (tools/guards/concept_order.py
    exempts the home page); a link to the term's entry says what it means and where it is taught. A term already
    inside a link, code, math or a tag is left alone."""
    from tools.build import course_macros as cm

    masked = _NOT_PROSE.sub(lambda m: "\0" * len(m.group(0)), line)
    found = []
    for _, written, name in find_terms(masked):
        entry = next(t for t in cm.load_glossary() if t.term == name.term)
        if entry.id in seen:
            continue
        seen.add(entry.id)
        start = masked.index(written, found[-1][1] if found else 0)
        found.append((start, start + len(written), entry.id))
    for start, end, ident in reversed(found):
        line = f"{line[:start]}[{line[start:end]}]({cm.relative_link('glossary.md#' + ident, from_page)}){line[end:]}"
    return line


# --- mkdocs-macros ---------------------------------------------------------------------------------------


main = lp.command("concept order", check_files, lambda: [lp.DOCS / p for p in lp.lesson_pages()],
                  "{n} place(s): a term before the lesson that teaches it, or a main path that leans on a fold "
                  "(tools/guards/concept_order.py says what counts)")

if __name__ == "__main__":
    raise SystemExit(main())
