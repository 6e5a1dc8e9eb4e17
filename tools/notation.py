"""One notation for the course: the table (posenc/data/notation.yaml) and the rules that hold the lessons to it.

    {{ notation() }}    the table of symbols and their one meaning, with the conventions under it (the
                        glossary page, docs/glossary.md)

The check runs inside every build (a hook in mkdocs.yml: an error, so `mkdocs build --strict` fails with or
without -q) and on its own: ``python -m tools.notation [FILES…]`` (default: the lesson pages, the results page
and the home page). Each finding names the page, the line, what was written and why it is not the course's
notation:

    docs/lessons/04-rope.md:104: notation: 'm \\theta' — θ is the base (rope_theta), never an angle: write the
    angle p\\,\\omega_i (one pair) or \\varphi (posenc/data/notation.yaml)

What is read: the page's math ($…$, $$…$$, \\(…\\), \\[…\\]) outside code; one rule (a position named 第 $t$
个 token) reads the prose around the math. Inside an admonition whose title starts with 记号对照 the rules are
off: that is where a paper's or a library's own notation is quoted and mapped to the course's (lesson 3b's
table of distance conventions and ALiBi's m, lesson 5's YaRN α and β).

The rules are precise patterns, each with the symbol it protects and the reason; they find the notations the
course used before it had one (issue 32), not every possible misuse. RULES below lists them.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

if str(Path(__file__).resolve().parent.parent) not in sys.path:  # loaded as a hook file: tools must be importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import lesson_pages as lp  # noqa: E402

ROOT = lp.ROOT
NOTATION = ROOT / "posenc" / "data" / "notation.yaml"
MAPPING_PREFIX = ("记号对照", "Notation mapping")  # the block title in Chinese and on English pages

# a TeX "word" boundary: not after a letter or a backslash (so \ln, \sin, \text are not n, s, t)
_B = r"(?<![A-Za-z\\])"
_E = r"(?![A-Za-z])"
_SP = r"\s*(?:\\[,;!:]\s*)*"  # spaces and TeX's thin spaces
_NOT_POWER = r"(?!'?\s*\^)"  # θ^{-2i/d}: θ as the base


@dataclass(frozen=True)
class Rule:
    symbol: str  # the row of notation.yaml it protects
    pattern: re.Pattern
    why: str
    allowed: tuple[str, ...] = ()  # pages (under docs/) where the pattern is the course's own meaning
    prose: bool = False  # read the prose around the math instead of the math


RULES = (
    Rule("\\theta", re.compile(r"\\theta\s*_"),
         "θ is one base per model, never indexed: pair i's frequency is \\omega_i"),
    Rule("\\theta", re.compile(
        r"\\(?:cos|sin|tan)" + _E + _SP + r"(?:\\(?:big|Big|left)\s*)?\(?[^$()]{0,12}?\\theta" + _NOT_POWER
        + r"|(?:" + _B + r"[mnpk]|\))" + _SP + r"\\theta" + _NOT_POWER
        + r"|R\s*\(\s*-?\s*\\theta"
        + r"|\\theta\s*=\s*[^$=]{0,16}?\\omega"),
         "θ is the base (rope_theta), never an angle: write the angle p\\,\\omega_i (one pair) or \\varphi"),
    Rule("\\varphi", re.compile(r"\\phi" + _E),
         "an angle is \\varphi (one glyph for one letter)"),
    Rule("\\varphi", re.compile(r"\\alpha" + _E + "|α"),
         "α is not a symbol of the course: an angle is \\varphi; the YaRN paper's α is mapped to \\beta_{slow} once, "
         "in lesson 5's 记号对照 block"),
    Rule("\\beta_{fast},\\ \\beta_{slow}",
         re.compile(r"\\beta" + _E + r"(?!\s*_\s*\{?\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?:fast|slow))|β"),
         "β appears only as \\beta_{fast} / \\beta_{slow} (YaRN's thresholds, transformers' names); the paper's β is "
         "mapped once, in lesson 5's 记号对照 block"),
    Rule("t", re.compile(_B + r"t" + _E),
         "t is YaRN's temperature only (lesson 5): a position is p, or m and n in attention",
         # the results page's intervals use Student's t (t_{n-1}), a distribution, never a position
         allowed=("lessons/05-long-context.md", "lessons/results.md")),
    Rule("m,\\ n", re.compile(
        _B + r"(?<!_\{)[ij]'?\s*(?:[-<>+]|\\le(?:q)?|\\ge(?:q)?)\s*[ij]" + _E
        + r"|_\{?\s*ij"
        + r"|" + _B + r"[pqkvxe]_\{?\s*j" + _E
        + r"|" + _B + r"p_\{?\s*i" + _E
        + r"|" + _B + r"(?<!_\{)(?<!\d)[ij]\s*[+-]\s*1(?!\d)"),
         "positions in attention are m (the query) and n (the key); i is the frequency pair"),
    # The rotation that carries the query's angle to the key's is R_{n-m} = R_m^T R_n (RoFormer §3): written
    # as a rotation's subscript or argument, n − m is that rotation, not a distance, and stays allowed.
    Rule("m,\\ n", re.compile(r"(?<!R_\{)(?<!R_\{\\,)(?<!R_)(?<!\(\()" + _B + r"n\s*-\s*m" + _E),
         "the distance is m − n (the query's position minus the key's, ≥ 0 under a causal mask); n − m only as a "
         "rotation's subscript or argument (R_{n-m})"),
    Rule("a_h", re.compile(_B + r"m_\{?\s*h" + _E),
         "ALiBi's slope is a_h; m is the query's position (the paper's m is mapped once, in lesson 3b's 记号对照 block)"),
    Rule("\\omega_i", re.compile(r"\\omega\s*_\s*\{?\s*[a-hj-z](?![A-Za-z/])"),
         "a frequency is indexed by its pair, \\omega_i"),
    Rule("L,\\ L'", re.compile(r"L\s*_\s*\{?\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?:train|test|max|ctx|target)"),
         "the training length is L, the target length L'"),
    Rule("p", re.compile(r"第\s*\$(?![pmn]\$)([a-z])\$\s*个\s*(?:token|字|词|查询|键|位置)"),
         "a token's position is p (m and n for a query and a key)", prose=True),
)

MATH = re.compile(r"\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)|(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$", re.S)
_BLANK = re.compile(r"[^\n]")


# --- the table -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Symbol:
    symbol: str
    meaning: str
    meaning_en: str  # the same meaning, for the English glossary


@lru_cache(maxsize=None)
def load(path: Path = NOTATION) -> tuple[tuple[Symbol, ...], tuple[str, ...], tuple[str, ...]]:
    """(the symbols in order, the notes, the notes in English), checked: every symbol has a meaning in each
    language and appears once, and the notes are in both languages."""
    from posenc import _yaml

    data = _yaml.load_file(path) or {}
    rows = data.get("symbols")
    if not isinstance(rows, list) or not rows:
        raise ValueError(f"{path.name}: expected a list under 'symbols'")
    out, seen = [], set()
    for n, raw in enumerate(rows, 1):
        if not isinstance(raw, dict) or not raw.get("symbol") or not raw.get("meaning") or not raw.get("meaning_en"):
            raise ValueError(f"{path.name}: symbol {n} needs 'symbol', 'meaning' and 'meaning_en'")
        if raw["symbol"] in seen:
            raise ValueError(f"{path.name}: symbol {raw['symbol']!r} is listed twice; one symbol, one meaning")
        seen.add(raw["symbol"])
        out.append(Symbol(str(raw["symbol"]), str(raw["meaning"]).strip(), str(raw["meaning_en"]).strip()))
    notes, notes_en = (tuple(str(n).strip() for n in data.get(k) or ()) for k in ("notes", "notes_en"))
    if len(notes) != len(notes_en):
        raise ValueError(f"{path.name}: {len(notes)} notes but {len(notes_en)} notes_en; write each note in both languages")
    return tuple(out), notes, notes_en


def table_markdown(path: Path = NOTATION, lang: str = "zh") -> str:
    symbols, notes, notes_en = load(path)
    zh = lang == "zh"
    if not zh:
        notes = notes_en
    out = ["| 记号 | 在这门课里只表示 |" if zh else "| Symbol | In this course it means only |", "|---|---|"]
    out += [f"| ${s.symbol}$ | {s.meaning if zh else s.meaning_en} |" for s in symbols]
    if notes:
        out += [""] + [f"- {n}" for n in notes]
    return "\n".join(out)


def register(env) -> None:
    """Add {{ notation() }} to the macros (tools/macros.py define_env calls this)."""

    @env.macro
    def notation() -> str:
        """The course's notation table (posenc/data/notation.yaml), in the page's language."""
        from tools.i18n import source_language

        return table_markdown(lang=source_language(env.page.file.src_uri))


# --- the check ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    written: str
    rule: Rule

    def __str__(self) -> str:
        rel = self.path.relative_to(ROOT).as_posix() if self.path.is_relative_to(ROOT) else str(self.path)
        return f"{rel}:{self.line}: notation: {self.written!r} — {self.rule.why} (posenc/data/notation.yaml)"


def _readable(markdown: str) -> str:
    """The page with code, inline code and mapping blocks blanked (line numbers and offsets kept)."""
    text = lp.blank_code(markdown)
    text = re.sub(r"`[^`\n]+`", lambda m: _BLANK.sub(" ", m.group(0)), text)
    mapping = [n for b in lp.admonitions(markdown) if b.title.strip().startswith(MAPPING_PREFIX) for n in b.lines()]
    return lp.blank_lines(text, mapping)


def check(markdown: str, page: str, path: Path | None = None) -> list[Finding]:
    """The findings on one page; ``page`` is its path under docs/."""
    path = path or lp.DOCS / page
    text = _readable(markdown)
    spans = [(m.start(), m.group(0)) for m in MATH.finditer(text)]
    out = []
    for rule in RULES:
        if page.replace(".en.md", ".md") in rule.allowed:  # an English page is allowed what its Chinese is
            continue
        for start, body in [(0, text)] if rule.prose else spans:
            for m in rule.pattern.finditer(body):
                line = text.count("\n", 0, start + m.start()) + 1
                out.append(Finding(path, line, " ".join(m.group(0).split()), rule))
    seen, unique = set(), []
    for f in sorted(out, key=lambda f: f.line):
        if (f.line, f.rule.why) not in seen:  # one finding per rule per line
            seen.add((f.line, f.rule.why))
            unique.append(f)
    return unique


def applies_to(page: str) -> bool:
    """The lessons, the results page and the home page: every page whose math teaches."""
    return (page.startswith("lessons/") or page == "index.md") and page.endswith(".md")


def check_files(paths) -> list[Finding]:
    return lp.check_files(paths, check)


# As a MkDocs hook (mkdocs.yml: hooks): each finding is an error, so it fails --strict even with -q.
on_page_markdown = lp.markdown_hook("mkdocs.hooks.notation", check, applies_to)


main = lp.command("notation", check_files, lambda: [lp.DOCS / "index.md"] + sorted((lp.DOCS / "lessons").glob("*.md")),
                  "{n} place(s) off the course's notation (tools/notation.py RULES, posenc/data/notation.yaml)")

if __name__ == "__main__":
    raise SystemExit(main())
