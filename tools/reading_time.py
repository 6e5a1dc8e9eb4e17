"""How long a page takes to read, computed from its Markdown: ``{{ reading_time() }}`` in a lesson's header.

The main path is what a learner reads straight through: the page without its folded blocks (``??? …``: the
deep dives, the FAQ, the exercises' answers), without the notes of an annotated list (Material's annotations:
the ordered list after a ``<div class="annotate" markdown>`` block, each note shown only when its ⊕ is clicked)
and without its sources section (``{ #sources }``). The folded depth is the folded blocks and the annotations'
notes outside the sources section. ``python -m tools.reading_time`` prints both for every
lesson; the macro prints the main path, and the folded depth after it.

The rule (seconds are summed, then rounded to whole minutes, at least 1):

  Chinese characters   CJK_PER_MIN = 300 a minute. Punctuation is not counted.
  Latin words, numbers LATIN_WORDS_PER_MIN = 200 a minute (a word is a run of letters and digits; a number
                       quoted by a macro is one word).
  inline formula       INLINE_FORMULA_S = 2 s each ($p\\,\\omega_i$).
  display formula      DISPLAY_ROW_S = 10 s for each row ($$…$$ with rows split by \\\\).
  table row            TABLE_ROW_S = 4 s for each row (the header row too, not the |---| line), on top of
                       the words in its cells: reading across columns is slower than prose.
  figure               FIGURE_S = 15 s ({{ figure(…) }}, ![…](…)).
  in-page experiment   WIDGET_S = 90 s ({{ widget(…) }}: trying it, the 试三件事 box being read as prose);
                       the data-flow panel, DATAFLOW_S = 10 s (a glance at where the lesson is).
  code                 CODE_LINE_S = 3 s for each non-blank line (20 lines a minute), fenced or shown with
                       {{ show_code(…) }}, whose printed output adds SNIPPET_OUTPUT_S = 10 s.
  macro text           a claim, a fact, an example and the timeline are read as the text they print (the
                       claim's sentence, the fact's value, the timeline's lines for this lesson); a number
                       (num, cfg) is one word; a notebook link NOTEBOOK_S = 3 s. A macro this table does not
                       know is an error naming it (add its cost here), never a silent zero.
  not read             HTML comments, the front matter, abbreviation definitions (*[PPL]: … shows as a
                       tooltip), link targets, attribute lists.

Why these numbers. They are the course's choice, informed by a measurement: adult silent reading of English
non-fiction averages 238 words a minute, most adults between 175 and 300 (Brysbaert 2019, *How many words do we
read per minute? A review and meta-analysis of reading rate*, Journal of Memory and Language 109, 104047); it
reports no rate for Chinese characters we could use, and the one Chinese figure we found (259.5 ± 38.2
characters a minute, the maximum speed of college students under rapid serial presentation, in *Visual
requirement for Chinese reading with normal vision*) measures a different task. A learner reads this course
as technical non-fiction in a second language for its English words, so the words sit at the low end (200)
and the characters a little above that single measurement (300, the low end of the 300–500 lesson 5's header
once assumed); formulas, tables, figures, widgets and code, which prose rates do not cover, get fixed costs.
Checked against issue 32's timings of a learner reading each page in order with everything unfolded (lessons
1, 2, 3, 3b, 4, 5: 33, 24, 55, 50, 45, 60–65 minutes), the rule gives main path + folded depth of 30, 21, 49,
47, 40, 51 minutes for the pages as they were when this module was written: about a tenth less, the pauses
to think. Change a constant here and every page's header follows. The course's budget is a main path of about 30
minutes a lesson in either language; tests/test_reading_time.py fails a page above 32.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tools import lesson_pages as lp

ROOT = lp.ROOT

CJK_PER_MIN = 300
LATIN_WORDS_PER_MIN = 200
INLINE_FORMULA_S = 2
DISPLAY_ROW_S = 10
TABLE_ROW_S = 4
FIGURE_S = 15
WIDGET_S = 90
DATAFLOW_S = 10
CODE_LINE_S = 3
SNIPPET_OUTPUT_S = 10
NOTEBOOK_S = 3

SOURCES_ANCHOR = "sources"

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_WORD = re.compile(r"[A-Za-z0-9]+(?:[.'’_-][A-Za-z0-9]+)*")
MACRO = re.compile(r"\{\{-?\s*(?P<name>\w+)\s*\((?P<args>.*?)\)\s*-?\}\}", re.S)
STATEMENT = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.S)
FIRST_ARG = re.compile(r"""^\s*(?:"(?P<d>[^"]*)"|'(?P<s>[^']*)')""")
DISPLAY = re.compile(r"\$\$.*?\$\$|\\\[.*?\\\]", re.S)
INLINE = re.compile(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$|\\\(.*?\\\)")
TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$", re.M)
TABLE_RULE = re.compile(r"^[ \t]*\|(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*$")
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
NOT_READ = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"^\*\[[^\]]+\]:.*$", re.M),  # abbreviation definitions
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"<[a-zA-Z/][^>]*>"),  # tags and their attributes
    re.compile(r"\{[:#.][^}]*\}"),  # attribute lists
]


@dataclass
class Cost:
    """Seconds by what they are spent on, so a report can say where a page's time goes."""

    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, what: str, s: float) -> None:
        self.seconds[what] = self.seconds.get(what, 0.0) + s

    def total(self) -> float:
        return sum(self.seconds.values())

    def minutes(self) -> int:
        return max(1, round(self.total() / 60)) if self.total() else 0


def _first_arg(args: str) -> str:
    m = FIRST_ARG.match(args)
    return (m.group("d") if m.group("d") is not None else m.group("s")) if m else ""


def _text_seconds(text: str) -> tuple[float, float]:
    """(seconds for its Chinese characters, seconds for its Latin words)."""
    return len(CJK.findall(text)) * 60 / CJK_PER_MIN, len(LATIN_WORD.findall(text)) * 60 / LATIN_WORDS_PER_MIN


def _code_seconds(source: str) -> float:
    return sum(1 for line in source.splitlines() if line.strip()) * CODE_LINE_S


def _macro_text(name: str, args: str, page: str) -> str | None:
    """The text a macro prints that a reader reads as prose (None: the macro has a fixed cost instead)."""
    arg = _first_arg(args)
    if name == "claim":
        from posenc.experiment.claims import CLAIMS

        return CLAIMS[arg].sentence if arg in CLAIMS else arg
    if name == "fact":
        from posenc import facts

        return facts.get(arg).text
    if name == "example":  # posenc.examples' text constant (the macro itself checks the name)
        from posenc import examples

        value = getattr(examples, arg, "")
        return value if isinstance(value, str) else ""
    if name == "timeline":
        from tools import course_macros as cm

        return cm.timeline_markdown(arg or None, page, lambda t: t)
    if name == "glossary":
        from tools import course_macros as cm

        return cm.glossary_markdown(page, lambda t: t)
    if name == "replication":  # the replication's verdicts, claim by claim (or the note that it is pending)
        from posenc.experiment import frozen

        return frozen.page_section("en" if page.endswith(".en.md") else "zh")
    return None


def _macro_seconds(name: str, args: str, page: str, cost: Cost) -> None:
    if name in ("num", "cfg"):
        cost.add("numbers", 60 / LATIN_WORDS_PER_MIN)
    elif name == "figure":
        cost.add("figures", FIGURE_S)
    elif name == "widget":
        cost.add("widgets", DATAFLOW_S if _first_arg(args) == "dataflow" else WIDGET_S)
    elif name == "show_code":
        path = lp.DOCS / "snippets" / _first_arg(args)
        if not path.is_file():
            raise ValueError(f"reading_time: show_code({_first_arg(args)!r}) names no file in docs/snippets/")
        cost.add("code", _code_seconds(path.read_text(encoding="utf-8")) + SNIPPET_OUTPUT_S)
    elif name == "notebook":
        cost.add("links", NOTEBOOK_S)
    elif name in ("reading_time", "attention_head_json", "citation_bibtex", "tag_legend", "notation"):
        cost.add("reference", 0)  # not on a lesson's path: a header, a widget's argument, the home and glossary pages' tables
    else:
        text = _macro_text(name, args, page)
        if text is None:
            raise ValueError(f"reading_time: no reading cost for the macro {name}(); add one in tools/reading_time.py")
        sub = markdown_cost(text, page)
        for what, s in sub.seconds.items():
            cost.add(what, s)


def markdown_cost(markdown: str, page: str = "lessons/page.md") -> Cost:
    """The reading cost of a piece of Markdown, all of it (the module docstring's rule)."""
    cost = Cost()
    text = FRONT_MATTER.sub("", markdown)

    def code(m: re.Match) -> str:
        body = m.group(0).split("\n")[1:-1]
        cost.add("code", _code_seconds("\n".join(body)))
        return ""

    text = lp.FENCE.sub(code, text)

    def macro(m: re.Match) -> str:
        _macro_seconds(m.group("name"), m.group("args"), page, cost)
        return " "

    text = MACRO.sub(macro, text)
    text = STATEMENT.sub(" ", text)
    for pattern in NOT_READ:
        text = pattern.sub(" ", text)

    def display(m: re.Match) -> str:
        rows = m.group(0).count("\\\\") + 1
        cost.add("formulas", rows * DISPLAY_ROW_S)
        return " "

    text = DISPLAY.sub(display, text)
    n_inline = len(INLINE.findall(text))
    cost.add("formulas", n_inline * INLINE_FORMULA_S)
    text = INLINE.sub(" ", text)
    rows = [r for r in TABLE_ROW.findall(text) if not TABLE_RULE.match(r)]
    cost.add("tables", len(rows) * TABLE_ROW_S)
    n_images = len(IMAGE.findall(text))
    cost.add("figures", n_images * FIGURE_S)
    text = IMAGE.sub(" ", text)
    cjk, latin = _text_seconds(text)
    cost.add("Chinese text", cjk)
    cost.add("Latin words", latin)
    return cost


@dataclass
class PageTime:
    page: str
    main: Cost
    folded: Cost


def split(markdown: str) -> tuple[str, str]:
    """(the main path, the folded depth) of a page, each as Markdown (module docstring)."""
    lines = markdown.split("\n")
    sources = lp.section(markdown, SOURCES_ANCHOR)
    out_of_path = set(sources.lines()) if sources else set()
    folded = set(annotation_notes(lines)) - out_of_path
    for block in lp.admonitions(markdown):
        if block.folded:
            folded.update(n for n in block.lines() if n not in out_of_path)
    main = [line for n, line in enumerate(lines, 1) if n not in folded and n not in out_of_path]
    depth = [lines[n - 1] for n in sorted(folded)]
    return "\n".join(main), "\n".join(_dedent_block(depth))


ANNOTATE_OPEN = re.compile(r'^<div class="annotate" markdown>\s*$')
NOTE_ITEM = re.compile(r"^\d+\.\s")


def annotation_notes(lines: list[str]) -> list[int]:
    """The line numbers (from 1) of the notes of each annotated list: the ordered list that follows the ``</div>``
    closing a ``<div class="annotate" markdown>`` block (Material shows a note only when its marker is clicked)."""
    out: list[int] = []
    n, inside = 0, False
    while n < len(lines):
        line = lines[n]
        if ANNOTATE_OPEN.match(line):
            inside = True
        elif inside and line.strip() == "</div>":
            inside = False
            k = n + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            end = k
            while end < len(lines) and (NOTE_ITEM.match(lines[end]) or lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            if k < len(lines) and NOTE_ITEM.match(lines[k]):
                out.extend(range(k + 1, end + 1))
                n = end
                continue
        n += 1
    return out


def _dedent_block(lines: list[str]) -> list[str]:
    """A folded block's lines as Markdown of their own (its body is indented under the marker)."""
    out = []
    for line in lines:
        stripped = line.lstrip()
        out.append("" if lp.ADMONITION.match(line) else stripped if stripped.startswith(("|", "$$", "```", "~~~")) else line)
    return out


def page_time(markdown: str, page: str) -> PageTime:
    main, folded = split(markdown)
    return PageTime(page, markdown_cost(main, page), markdown_cost(folded, page))


def header_text(t: PageTime, lang: str = "zh") -> str:
    """What {{ reading_time() }} prints, in the page's language."""
    if lang == "en":
        out = f"About {t.main.minutes()} min to read and try"
        if t.folded.minutes():
            out += f" (+{t.folded.minutes()} min folded)"
        return out
    out = f"阅读加动手约 {t.main.minutes()} 分钟"
    if t.folded.minutes():
        out += f"，折叠的选读另约 {t.folded.minutes()} 分钟"
    return out


def register(env) -> None:
    """Add {{ reading_time() }} to the macros (tools/macros.py define_env calls this)."""

    @env.macro
    def reading_time() -> str:
        """The page's main-path reading time (and its folded depth), computed from its own Markdown."""
        page = env.page.file.src_uri
        markdown = getattr(env, "markdown", None)
        if not isinstance(markdown, str) or "reading_time" not in markdown:
            markdown = (lp.DOCS / page).read_text(encoding="utf-8")
        from tools.i18n import source_language

        return header_text(page_time(markdown, page), source_language(page))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    verbose = "-v" in argv
    pages = [a for a in argv if a != "-v"] or lp.lesson_pages() + ["lessons/results.md"]
    print(f"{'page':34} {'main path':>9} {'folded':>7}   (minutes; -v: where the main path's time goes)")
    for page in pages:
        page = lp.docs_page(Path(page)) if Path(page).exists() else page
        t = page_time((lp.DOCS / page).read_text(encoding="utf-8"), page)
        print(f"{page:34} {t.main.minutes():>9} {t.folded.minutes():>7}")
        if verbose:
            parts = sorted(t.main.seconds.items(), key=lambda kv: -kv[1])
            print("    " + ", ".join(f"{what} {s / 60:.1f}" for what, s in parts if s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
