"""One notation for the course: the table (posenc/data/notation.yaml) and the checks that hold the lessons to it.

    {{ notation() }}    the table: each symbol, its one meaning, the lesson that introduces it, the other ways it
                        is written; the conventions under it (the glossary page, docs/glossary.md)

The check runs inside every build (a hook in mkdocs.yml: an error, so `mkdocs build --strict` fails with or
without -q) and on its own: ``python -m tools.guards.notation [FILES…]`` (default: the lesson pages, the results page
and the home page). Each finding names the page, the line, what was written and why it is not the course's
notation:

    docs/lessons/04-rope.md:104: notation: 'm \\theta' — θ is the base (rope_theta), never an angle: write the
    angle p\\,\\omega_i (one pair) or \\varphi (posenc/data/notation.yaml)
    docs/lessons/03b-relative-bias.md:59: notation: 's' — s is s (The extension factor …), written only in
    lessons/05-long-context.md on: another meaning needs another symbol (posenc/data/notation.yaml)

Every symbol has a row. A meaning cannot be read off a formula, so the rule that holds "one symbol, one meaning"
is about letters and places:
  - a symbol is a letter: each Latin letter and each Greek letter (\\omega) a formula writes outside its sub- and
    superscripts, its words (\\text{…}, \\mathrm{…}, \\mathit{…}, \\operatorname{…}), environment names and macro
    calls; Euler's e (before ^) and π are numbers. The subscript says which one (q_m, W_q, d_{model}, k^R) and
    belongs to the letter's row. In prose, a Latin letter standing alone is a symbol too ("旋转 q、k"), but
    not one inside a word or a name (p-RoPE, 7M, GPT-2), not a label in brackets (a paper's table row "(E)"),
    and on an English page not the words a, A and I;
  - each row of the table owns its letters (no letter in two rows), says its one meaning, the lesson whose main
    text introduces it (``first``), and optionally the only lessons that may write it (``pages``, for a symbol
    of one lesson: t is YaRN's temperature in lesson 5 only);
  - on the home page and in the main text of every lesson (both languages), a letter with no row fails; so does a
    letter written before its ``first`` lesson (outside a marked preview, the ones tools/guards/concept_order.py names)
    or outside its ``pages``. The home page, the map of the course, may write any row's letter. The main text is
    the page without its folded (``???``) blocks: a fold is optional depth, read by whoever unfolds it, and the
    pattern rules below still read it;
  - a letter that once had a second meaning in a lesson where its row allows it (k the key and k the shift, in
    lesson 3b's same sentence) is caught by a pattern rule: RULES below, each with the row it protects and the
    reason. They find the notations the course used before it had one, not every possible misuse.

What is read by the pattern rules: the page's math ($…$, $$…$$, \\(…\\), \\[…\\]) outside code, folds included;
a rule marked prose reads the prose around the math. Inside an admonition whose title starts with 记号对照 every
check is off: that is where a paper's or a library's own notation is quoted and mapped to the course's (lesson
3b's table of distance conventions and ALiBi's m, lesson 5's YaRN α and β).
"""

from __future__ import annotations

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


_D_ROW = "d_{model},\\ d_{head},\\ d_{rot}"
_D_WHY = ("the letter d is never written alone: say which width, d_{model} (a token's vector in the model), d_{head} "
          "(one head's q, k, v; the score is divided by \\sqrt{d_{head}}) or d_{rot} (the dimensions RoPE turns)")

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
         "t is YaRN's temperature only (lesson 5): a position is p, or m and n in attention; the results page's "
         "t-quantile is \\kappa_{S-1}",
         allowed=("lessons/05-long-context.md",)),
    Rule("m,\\ n", re.compile(
        _B + r"(?<!_\{)[ij]'?\s*(?:[-<>+]|\\le(?:q)?|\\ge(?:q)?)\s*[ij]" + _E + r"(?!\s*_)"  # i - i_{fast} subtracts pair indices
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
    Rule("\\omega_i", re.compile(r"\\omega\s*_\s*\{?\s*(?!d_)[a-hj-z](?![A-Za-z/])"),  # \omega_{d_{rot}/2-1}: the last pair
         "a frequency is indexed by its pair, \\omega_i"),
    Rule("L,\\ L'", re.compile(r"L\s*_\s*\{?\s*(?:\\(?:text|mathrm)\s*\{\s*)?(?:train|test|max|ctx|target)"),
         "the training length is L, the target length L'"),
    Rule("p", re.compile(r"第\s*\$(?![pmn]\$)([a-z])\$\s*个\s*(?:token|字|词|查询|键|位置)"),
         "a token's position is p (m and n for a query and a key)", prose=True),
    # the second meanings a letter with a row once had (the newcomer's review): the rows allow the letter, these
    # patterns catch the old meaning
    Rule("\\tau", re.compile(
        r"(?:" + _B + r"[pmn]\s*\+\s*|(?:M|R)\s*_\s*\{?\s*|\\cos\s*\(?\s*)k" + _E
        + r"|" + _B + r"k\s*(?:\\,)?\s*\\omega"),
         "k is the key vector; a shift is \\tau (p+\\tau, M_\\tau, \\cos(\\tau\\,\\omega_i))"),
    Rule("\\tau", re.compile(r"(?:平移|相隔|挪)\s*\$k\$|\$k\$\s*个位置|(?:shift(?:ed)? by|apart by|moves?) \$k\$"
                              r"|\$k\$ (?:positions|places|tokens)"),
         "k is the key vector; a shift is \\tau", prose=True),
    Rule("\\delta", re.compile(r"(?:距离|相隔)\s*\$\\tau\$|distance \$\\tau\$|\$\\tau\$ (?:positions |tokens )?apart"),
         "τ shifts a whole sentence; a distance between two positions is \\delta", prose=True),
    Rule("q,\\ k,\\ v", re.compile(r"\|\s*[qk]_\{?\s*i" + _E),
         "a subscript on q or k is a position (q_m); pair i of q is q^{(i)}"),
    Rule("h", re.compile(r"L\s*/\s*[hl]" + _E),
         "h is a head; Llama 3's factors are written out: L/\\text{high\\_freq\\_factor}, L/\\text{low\\_freq\\_factor}"),
    Rule("\\sigma", re.compile(r"\\sigma\s*_"),
         "σ is the word vectors' scale (lesson 2), never indexed: Llama 3's smoothing is \\text{smooth}_i"),
    Rule("\\Pi", re.compile(r"\\mathrm\s*\{\s*PE\s*\}\s*\[|" + _B + r"P\s*\[|" + _B + r"(?<!\{)PE" + _E),
         "a position's vector is \\mathrm{PE}(p), a learned table's row too; the permutation matrix is \\Pi "
         "(\\Pi\\,E, not PE)"),
    Rule("D_{\\text{max}}", re.compile(_B + r"E\s*=\s*[BD]"),
         "E is the word-vector matrix; T5's exact buckets are D_{\\text{exact}} (max_exact)"),
    Rule("q,\\ k,\\ v", re.compile(
        _B + r"[qk]\s*(?:_\s*(?:\{[^{}]*\}|[A-Za-z0-9])\s*)?\^\s*\{?\s*[RC](?![A-Za-z])"
        + r"|" + _B + r"W\s*\^\s*\{?\s*U[KQV]"),
         "a superscript on q, k or W says in words which part it is (q^{\\text{rope}}, k^{\\text{nope}}, "
         "W^{\\text{up}}_k): R is a rotation, C Shaw's clipping distance, U the position vectors; the DeepSeek "
         "report's q^R, k^C, W^{UK} are mapped once, in lesson 6's 记号对照 block"),
    Rule("w", re.compile(_B + r"w\s*(?:\^\s*\{?\s*[KV](?![A-Za-z])|_\s*\{?\s*h" + _E + ")"),
         "w is Shaw's distance vector only, its superscript in words (w^{\\text{key}}, w^{\\text{value}}): K is the "
         "key matrix; T5's per-head table is written out in words"),
    # d is never written alone: the letter once meant the model's width in lessons 1-3, a head's width in lesson 4 and
    # the rotated width in lessons 5-6 (every newcomer who read the course stopped on it). Its subscript says which.
    Rule(_D_ROW, re.compile(_B + r"d(?![A-Za-z_])"), _D_WHY),
    Rule(_D_ROW, re.compile(r"(?<![A-Za-z0-9_.\-'’/\\(（{#])d(?![A-Za-z0-9_\-'’(/)）])|√\s*d(?![_A-Za-z])"), _D_WHY, prose=True),
    # the results page once wrote its interval in a statistics textbook's letters (d̄ ± t_{n-1} s/√n): each of
    # them is a symbol of a lesson there
    Rule(_D_ROW, re.compile(r"\\bar\s*\{?\s*d" + _E + r"|" + _B + r"d_\{?\s*1" + _E),
         "d is a width; the loss difference on a seed is \\Delta_1, …, \\Delta_S, their mean \\bar\\Delta"),
    Rule("S", re.compile(r"\\frac\s*\{\s*s\s*\}|\\sqrt\s*\{\s*n\s*\}"),
         "s is the extension factor and n the key's position; the number of seeds is S, a sample's standard "
         "deviation \\mathrm{sd}"),
    Rule("x", re.compile(_B + r"x\s*=\s*m\s*-\s*n" + _E),
         "x_p is the vector entering attention; a distance as a function's argument is \\delta = m - n"),
    Rule("x", re.compile(r"\\mathrm\{TokenEmbedding\}\s*\(\s*x"),
         "x_p is the vector entering attention; a token's ID is \\mathrm{id}_p"),
)

_NO_PATTERN = re.compile(r"(?!)")  # a finding of the table's letters, not of a pattern rule
LETTERS_EXEMPT_ORDER = ("index.md",)  # the map of the whole course may write any row's symbol

MATH = re.compile(r"\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)|(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$", re.S)
_BLANK = re.compile(r"[^\n]")


# --- the table -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Symbol:
    symbol: str
    meaning: str
    meaning_en: str  # the same meaning, for the English glossary
    first: str = ""  # the page (under docs/) whose main text introduces it: 'lessons/03-sinusoidal.md'
    pages: tuple[str, ...] = ()  # the only pages that may write it; () = every page from ``first`` on
    variants: str = ""  # the other ways it is written (q_m, W_q^\top), shown in the table
    variants_en: str = ""

    @property
    def letters(self) -> tuple[str, ...]:
        """The letters the row owns: '\\omega_i' → \\omega; 'm,\\ n' → m, n; 'a_h' → a."""
        return tuple(dict.fromkeys(letters_of(self.symbol)))


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
        pages = tuple(_page(p, path) for p in raw.get("pages") or ())
        first = _page(raw.get("first") or "", path) if raw.get("first") else ""
        if not first:
            raise ValueError(f"{path.name}: symbol {raw['symbol']!r} needs 'first', the lesson that introduces it")
        out.append(Symbol(str(raw["symbol"]), str(raw["meaning"]).strip(), str(raw["meaning_en"]).strip(),
                          first, pages, str(raw.get("variants") or "").strip(),
                          str(raw.get("variants_en") or "").strip()))
    owner: dict[str, str] = {}
    for sym in out:
        for letter in sym.letters:
            if letter in owner:
                raise ValueError(f"{path.name}: {letter!r} belongs to rows {owner[letter]!r} and {sym.symbol!r}; "
                                 "one letter, one meaning")
            owner[letter] = sym.symbol
    notes, notes_en = (tuple(str(n).strip() for n in data.get(k) or ()) for k in ("notes", "notes_en"))
    if len(notes) != len(notes_en):
        raise ValueError(f"{path.name}: {len(notes)} notes but {len(notes_en)} notes_en; write each note in both languages")
    return tuple(out), notes, notes_en


def _page(name: str, path: Path) -> str:
    """'lesson3b' → 'lessons/03b-relative-bias.md'; a page under docs/ stays as it is; anything else is an error."""
    name = str(name)
    for page in lp.course_order():
        if name in (page, lp.lesson_key(page)):
            return page
    raise ValueError(f"{path.name}: {name!r} is not a lesson key (lesson3b) or a page of mkdocs.yml's nav")


def table_markdown(path: Path = NOTATION, lang: str = "zh") -> str:
    """The table as Markdown: each symbol, its one meaning, the lesson that introduces it (a link) and the other
    ways it is written; the conventions under it."""
    from tools.build.course_macros import page_label, relative_link

    symbols, notes, notes_en = load(path)
    zh = lang == "zh"
    if not zh:
        notes = notes_en
    head = ("| 记号 | 在这门课里只表示 | 从哪一课起 | 也写作 |" if zh
            else "| Symbol | In this course it means only | Introduced in | Also written |")
    out = [head, "|---|---|---|---|"]
    for s in symbols:
        where = "、".join if zh else ", ".join
        pages = s.pages or (s.first,)
        place = where(f"[{page_label(p, lang)}]({relative_link(p, 'glossary.md')})" for p in pages)
        if not s.pages and zh:
            place += " 起"
        elif not s.pages:
            place += " on"
        elif zh:
            place = "只在" + place
        else:
            place = "only " + place
        variants = (s.variants if zh else s.variants_en) or ""
        out.append(f"| ${s.symbol}$ | {s.meaning if zh else s.meaning_en} | {place} | {variants} |")
    if notes:
        out += [""] + [f"- {n}" for n in notes]
    return "\n".join(out)


def register(env) -> None:
    """Add {{ notation() }} to the macros (tools/build/macros.py define_env calls this)."""

    @env.macro
    def notation() -> str:
        """The course's notation table (posenc/data/notation.yaml), in the page's language."""
        from tools.build.i18n import source_language

        return table_markdown(lang=source_language(env.page.file.src_uri))


# --- the letters: every symbol of a lesson's main text is a row of the table ---------------------------------
# (module docstring: "Every symbol has a row")

_WORD_COMMANDS = re.compile(  # a command whose braced argument is a word or a label, not symbols
    r"\\(?:text\w*|mathrm|mathit|operatorname\*?|mathcal|mathbb|begin|end|hspace|vspace|color|label|tag)\s*"
    r"(?:\{[^{}]*\}|[A-Za-z])")
_MACRO_CALL = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_ROW_SPACING = re.compile(r"\\\\\s*\[[^\]]*\]")  # \\[4pt]
_EXP = re.compile(r"(?<![A-Za-z\\])e(?=\s*\^)")  # e^{…}: Euler's number, not a vector
GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi rho varrho sigma "
    "tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split())
CONSTANTS = frozenset({"\\pi"})  # a number, not a symbol with a meaning
_TOKEN = re.compile(r"\\([A-Za-z]+)|([A-Za-z])")


def _drop_scripts(tex: str) -> str:
    """``tex`` without its subscripts and superscripts (nested braces included): q_m → q, d_{model} → d."""
    out, i = [], 0
    while i < len(tex):
        ch = tex[i]
        if ch not in "_^":
            out.append(ch)
            i += 1
            continue
        i += 1
        while i < len(tex) and tex[i] in " \t\n":
            i += 1
        if i < len(tex) and tex[i] == "{":
            depth = 0
            while i < len(tex):
                depth += {"{": 1, "}": -1}.get(tex[i], 0)
                i += 1
                if depth == 0:
                    break
        elif i < len(tex) and tex[i] == "\\":
            m = re.match(r"\\(?:[A-Za-z]+|.)", tex[i:])
            i += len(m.group(0)) if m else 1
        else:
            i += 1
        out.append(" ")
    return "".join(out)


def letters_of(tex: str) -> list[str]:
    """The symbols a formula writes, in order: each Latin letter and each Greek letter (as ``\\omega``) outside
    sub- and superscripts, words (\\text{…}, \\mathrm{…}, \\operatorname{…}), environments and macro calls;
    Euler's e (before ^) and π are numbers, not symbols."""
    tex = _MACRO_CALL.sub(" ", tex)
    tex = _ROW_SPACING.sub(" ", tex)
    for _ in range(3):  # \text{\mathrm{…}} and the like
        tex = _WORD_COMMANDS.sub(" ", tex)
    tex = _drop_scripts(_EXP.sub(" ", tex))
    out = []
    for m in _TOKEN.finditer(tex):
        if m.group(1) is None:
            out.append(m.group(2))
        elif m.group(1) in GREEK and "\\" + m.group(1) not in CONSTANTS:
            out.append("\\" + m.group(1))
    return out


# a symbol in prose: one Latin letter standing alone (not part of a word, a name like p-RoPE, a number with its
# unit like 7M, or a label in brackets like a paper's table row "(E)")
PROSE_LETTER = re.compile(r"(?<![A-Za-z0-9_.\-'’/\\(（])[A-Za-z](?![A-Za-z0-9_\-'’(/)）])")
ENGLISH_WORDS = frozenset("aAI")  # one-letter English words, not symbols, on an English page


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


def _may_write(row: Symbol, page: str) -> bool:
    """Whether ``page`` (under docs/; a translation counts as its Chinese page) may write ``row``'s symbol."""
    page = source_for(page, DEFAULT)
    if page in LETTERS_EXEMPT_ORDER:
        return True
    if row.pages:
        return page in row.pages
    order = lp.course_order()
    if page not in order:
        return True
    return order.index(page) >= order.index(row.first)


def _place(row: Symbol) -> str:
    return ", ".join(row.pages) if row.pages else f"{row.first} on"


def letter_findings(markdown: str, page: str, path: Path, table: Path = NOTATION) -> list[Finding]:
    """Every symbol of the page's main text that has no row in the table, or that its row does not allow here
    (module docstring: "Every symbol has a row")."""
    from tools.guards import concept_order, prose_lint

    symbols = load(table)[0]
    owner = {letter: row for row in symbols for letter in row.letters}
    folded = [n for b in lp.admonitions(markdown) if b.folded for n in b.lines()]
    text = lp.blank_lines(_readable(markdown), folded)
    previews = concept_order.preview_lines(markdown)
    english = source_language(page) != DEFAULT  # a translation's words such as "a" and "I" are not symbols
    found: list[tuple[int, str]] = []
    for m in MATH.finditer(text):
        line0 = text.count("\n", 0, m.start()) + 1
        for letter in letters_of(m.group(0)):
            found.append((line0, letter))
    prose = prose_lint.prose(_MACRO_CALL.sub(lambda m: _BLANK.sub("0", m.group(0)), text))  # {{ num(…) }}M: a unit
    for m in PROSE_LETTER.finditer(prose):
        if not (english and m.group(0) in ENGLISH_WORDS):
            found.append((prose.count("\n", 0, m.start()) + 1, m.group(0)))
    out = []
    for line, letter in found:
        row = owner.get(letter)
        if row is None:
            why = (f"{letter} has no row in the notation table: add one (its one meaning, the lesson that introduces "
                   "it), or write what it is in words")
        elif line not in previews and not _may_write(row, page):
            why = (f"{letter} is {row.symbol!s} ({row.meaning_en.rstrip('.')}), written only in {_place(row)}: "
                   "another meaning needs another symbol")
        else:
            continue
        out.append(Finding(path, line, letter, Rule(row.symbol if row else letter, _NO_PATTERN, why)))
    return out


def check(markdown: str, page: str, path: Path | None = None) -> list[Finding]:
    """The findings on one page; ``page`` is its path under docs/."""
    path = path or lp.DOCS / page
    text = _readable(markdown)
    spans = [(m.start(), m.group(0)) for m in MATH.finditer(text)]
    out = []
    for rule in RULES:
        if source_for(page, DEFAULT) in rule.allowed:  # a translation is allowed what its Chinese page is
            continue
        for start, body in [(0, text)] if rule.prose else spans:
            for m in rule.pattern.finditer(body):
                line = text.count("\n", 0, start + m.start()) + 1
                out.append(Finding(path, line, " ".join(m.group(0).split()), rule))
    if letters_apply(page):
        said = [(f.line, f.written) for f in out]  # a rule's finding already names the letter: one report
        out += [f for f in letter_findings(markdown, page, path)
                if not any(line == f.line and f.written in written for line, written in said)]
    seen, unique = set(), []
    for f in sorted(out, key=lambda f: f.line):
        if (f.line, f.rule.why) not in seen:  # one finding per rule per line
            seen.add((f.line, f.rule.why))
            unique.append(f)
    return unique


def letters_apply(page: str) -> bool:
    """The pages whose main text holds every symbol to a row: the lessons, the results page and the home page."""
    return source_for(page, DEFAULT) in ("index.md", *lp.lesson_pages(), "lessons/results.md")


def applies_to(page: str) -> bool:
    """The lessons, the results page and the home page: every page whose math teaches."""
    return (page.startswith("lessons/") or page == "index.md") and page.endswith(".md")


def check_files(paths) -> list[Finding]:
    return lp.check_files(paths, check)


# As a MkDocs hook (mkdocs.yml: hooks): each finding is an error, so it fails --strict even with -q.
on_page_markdown = lp.markdown_hook("mkdocs.hooks.notation", check, applies_to)


main = lp.command("notation", check_files, lambda: [lp.DOCS / "index.md"] + sorted((lp.DOCS / "lessons").glob("*.md")),
                  "{n} place(s) off the course's notation (tools/guards/notation.py RULES, posenc/data/notation.yaml)")

if __name__ == "__main__":
    raise SystemExit(main())
