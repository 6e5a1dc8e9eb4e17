"""The universal-claims guard: a sentence that claims a first, an only, a none or an all cites its source.

"第一个用 RoPE 的模型", "唯一的办法", "还没有一个模型……", "所有模型都……": such a sentence is true only
as far as someone looked, so it states its source with a fact entry, ``{{ fact("…") }}`` in the same sentence
(posenc/data/facts_<lesson>.yaml: source, url, verification tag), or is rewritten . Otherwise it
is an error with the page's file and line:

    docs/lessons/06-partial-nope.md:250: '还没有' claims a none: cite it with {{ fact("…") }} in the same
    sentence, or rewrite it — …本课程收录的模型里，还没有一个让全部注意力层都不加位置编码…

It runs inside every build (a hook in mkdocs.yml: an error, so `mkdocs build --strict` fails with or without
-q) and on its own: ``python -m tools.guards.universal_claims [FILES…]`` (default: every lesson page and the results page).

What is read: every page under docs/lessons/, outside fenced and inline code, math and link targets; folded
blocks, tables, headings and admonition titles too (a claim is a claim wherever it is). A sentence ends at
。！？；!? or at the end of a line (the lessons write one paragraph, list item or table row per line); a
table row is split at its cells.

The words. STRONG: the word alone makes the sentence a claim.
  最早 首次                                      a first
  唯一                                           an only
  还没有 尚未 从未 无一                          a none
  所有模型, 全部模型 (up to four characters between: 所有主流模型)   an all
WEAK: a claim only in a sentence that speaks of the field: one of WORLD (模型 论文 文献 框架 厂商 业界 作者
团队 等人 et al), as in "第一个用 RoPE 的模型", "全部注意力层都不加位置编码的模型".
  第一个 首个                                    a first
  全部 都没有 没有一个                           an all, a none
So "全部越界", "没有一个固定的 c 能同时照顾短句和长文" or "和顺序都没有关系" (the page's own example or
argument) are not claims.

Not a claim (documented exceptions):
  - an ordinal in the page's own example: 第一个 / 首个 followed by one of ORDINAL_NOUNS (第一个 token,
    第一个字, 第一个对数桶, 第一个方法 of this lesson's list);
  - uniqueness in mathematics: 唯一确定, 唯一地, 唯一解;
  - a none about the course's own work: the word right after 本实验, 本课程, 本页, 本课 or 我们 (at most
    three characters between: "本实验还没有测", "本页都没有算"); "本课程收录的模型里，还没有一个……" is a
    claim about the models (the words between are more than three).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:  # loaded as a hook file: tools must be importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.build import lesson_pages as lp  # noqa: E402

ROOT = lp.ROOT

STRONG = {
    r"最早": "a first", r"首次": "a first",
    r"唯一": "an only",
    r"还没有": "a none", r"尚未": "a none", r"从未": "a none", r"无一": "a none",
    r"所有[^，。；、\s]{0,4}?模型": "an all", r"全部[^，。；、\s]{0,4}?模型": "an all",
}
WEAK = {r"第一个": "a first", r"首个": "a first", r"全部": "an all", r"都没有": "a none", r"没有一个": "a none"}
WORLD = ("模型", "论文", "文献", "框架", "厂商", "业界", "作者", "团队", "等人", "et al")
ORDINAL_NOUNS = ("token", "字", "词", "位置", "对数桶", "桶", "频率对", "对", "查询", "键", "斜率", "维度", "头", "方法",
                 "元素", "分量", "行", "列", "例子", "可见")
MATH_UNIQUE = ("唯一确定", "唯一地", "唯一解")
OWN_WORK = re.compile(r"(?:本实验|本课程|本页|本课|我们)\S{0,3}$")

FIX = 'cite it with {{ fact("…") }} in the same sentence, or rewrite it'

_BLANK = re.compile(r"[^\n]")
FACT = re.compile(r"\{\{-?\s*fact\s*\(")
_SKIP = [
    re.compile(r"`[^`\n]+`"),  # inline code
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"\$\$.*?\$\$", re.S),
    re.compile(r"\\\[.*?\\\]", re.S),
    re.compile(r"\\\(.*?\\\)", re.S),
    re.compile(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$"),
    re.compile(r"\]\([^)]*\)"),  # link targets
]
MACRO = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
SENTENCE_END = re.compile(r"[。！？；!?|\n]")
PATTERNS = {**STRONG, **WEAK}
WORD = re.compile("|".join(f"(?P<w{i}>{p})" for i, p in enumerate(PATTERNS)))


def _blank(m: re.Match) -> str:
    return _BLANK.sub(" ", m.group(0))


def readable(markdown: str) -> str:
    """The page with code, math and link targets blanked and every macro call but fact() blanked: a sentence's
    words and its fact() calls stay where they were (line numbers kept)."""
    text = lp.blank_code(markdown)
    for pattern in _SKIP:
        text = pattern.sub(_blank, text)
    return MACRO.sub(lambda m: m.group(0) if FACT.match(m.group(0)) else _blank(m), text)


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    word: str
    kind: str
    sentence: str

    def __str__(self) -> str:
        rel = self.path.relative_to(ROOT).as_posix() if self.path.is_relative_to(ROOT) else str(self.path)
        return f"{rel}:{self.line}: {self.word!r} claims {self.kind}: {FIX} — …{self.sentence}…"


def _sentences(text: str):
    """(start offset, sentence) for each sentence; a fact() call is never split (its text holds no end mark)."""
    start = 0
    for m in SENTENCE_END.finditer(text):
        inside_macro = text.rfind("{{", start, m.start()) > text.rfind("}}", start, m.start())
        if inside_macro:
            continue
        yield start, text[start:m.start()]
        start = m.end()
    yield start, text[start:]


def _is_claim(pattern: str, word: str, sentence: str, before: str, after: str) -> bool:
    if pattern in ("第一个", "首个") and after.lstrip().startswith(ORDINAL_NOUNS):
        return False
    if word == "唯一" and any((word + after).startswith(u) for u in MATH_UNIQUE):
        return False
    if PATTERNS[pattern] == "a none" and OWN_WORK.search(before):
        return False
    if pattern in WEAK:
        return any(w in sentence for w in WORLD)
    return True


def check(markdown: str, path: Path) -> list[Finding]:
    text = readable(markdown)
    out = []
    for start, sentence in _sentences(text):
        if FACT.search(sentence):
            continue
        for m in WORD.finditer(sentence):
            word, pattern = m.group(0), list(PATTERNS)[int(m.lastgroup[1:])]
            if _is_claim(pattern, word, sentence, sentence[:m.start()], sentence[m.end():]):
                line = text.count("\n", 0, start + m.start()) + 1
                shown = " ".join(MACRO.sub("…", sentence).split())
                out.append(Finding(path, line, word, PATTERNS[pattern], shown[:90]))
                break  # one finding per sentence
    return out


def applies_to(page: str) -> bool:
    """Every page under docs/lessons/ (the lessons and the results page)."""
    return page.startswith("lessons/") and page.endswith(".md")


def check_files(paths) -> list[Finding]:
    return lp.check_files(paths, lambda markdown, page, path: check(markdown, path))


# As a MkDocs hook (mkdocs.yml: hooks): each finding is an error, so it fails --strict even with -q.
on_page_markdown = lp.markdown_hook("mkdocs.hooks.universal_claims", lambda markdown, page, path: check(markdown, path), applies_to)


main = lp.command("universal claims", check_files, lambda: sorted((lp.DOCS / "lessons").glob("*.md")),
                  "{n} universal claim(s) without a source (tools/guards/universal_claims.py says what counts)")

if __name__ == "__main__":
    raise SystemExit(main())
