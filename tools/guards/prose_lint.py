"""The numbers lint: lesson prose must not type a number, or an example, that code should compute.

It runs inside every build (it is one of mkdocs.yml's hooks): each finding is a MkDocs error
with the page's file and line, so `mkdocs build --strict` fails on it, with or without -q, and
`mkdocs serve` prints it (an error, not a warning: -q drops warnings before --strict counts them).
It also runs on its own: `python -m tools.guards.prose_lint [FILES…]` (default: every page under docs/).

Prose is what remains of a Markdown page after removing fenced code, inline code, macro calls
({{ … }}, {% … %}), HTML tags' attributes, link targets, list markers and annotation markers.
Any digit left there is a literal, unless it matches ALLOWED below.

Math ($…$, $$…$$, \\(…\\), \\[…\\]) is prose for numbers of two or more significant digits: in
$19{,}869$ the number 19,869 is a literal like any other (a derived number typed as math is still
typed), and so are $10$, $2.8$ and $0.054$. Numbers with one significant digit stay allowed in math,
because formulas need their constants ($2i$, $\\frac{1}{t+1}$, $d/2$, $0.1\\ln s + 1$). The one
multi-digit exception is the base of §3.5's formula quoted as printed, 10000^{…}.

ALLOWED, and why each is safe:
  years          1990–2029 standing alone: citation years ("Vaswani et al. 2017")
  sections       §3.5, §2.3: section numbers in citations
  references     表 3 / Table 3 / Eq. 16 / 式 (22) / 图 2 / App. A.1 / 附录 A: parts of a cited work
  lessons        第 3 课 / 第 3 节 / 第 3 章, and in English lesson 3, Lesson 3b, lessons 3 to 6: course
                 structure, not measurements
  labels         in English, a lesson's numbered parts with one digit: Exercise 2, misconception 6,
                 Failure 1, Method 3, Property 2, Step 1, Pitfall 2, Evidence 3, design 1 (the Chinese pages write
                 练习一, 误区一; English courses number these, as D2L does)
  arXiv ids      arXiv:1706.03762
  paper titles   an italic title right before its arXiv id, as printed: "*LongRoPE: Extending LLM Context
                 Window Beyond 2 Million Tokens*. [arXiv:2402.13753]" (a cited title, not a measurement)
  identifiers    digits glued to letters: GPT-2, Qwen3-8B, d_model, fp32, h1, 7B in a model name
  model names    a short list of names written with a space: Llama 3.1, Gemma 3, Kimi K2, Mistral 7B
  math           one significant digit inside math ($2$, $0.1$); the paper's "10000^{…}" (see above)

Example text: the example sentences and the names in them (the str constants of posenc/examples.py,
and the sentences their swaps produce) must not be typed in prose either; write
{{ example("SENTENCE") }} or the registered text quantity ({{ num("l1_main_b") }}), so changing an
example changes every page.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:  # loaded as a hook file: tools must be importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.build import lesson_pages as lp  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

_BLANK = re.compile(r"[^\n]")


def _blank(m: re.Match) -> str:
    """Replace a match with spaces, keeping its newlines so line numbers stay right."""
    return _BLANK.sub(" ", m.group(0))


# Order matters: code before math (a $ inside code is not math), macros before HTML.
CODE_AND_MACROS = [
    re.compile(r"^(?P<f>```+|~~~+).*?^(?P=f)[ \t]*$", re.M | re.S),  # fenced code
    re.compile(r"\{\{.*?\}\}", re.S),  # macro calls
    re.compile(r"\{%.*?%\}", re.S),
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"`[^`\n]+`"),  # inline code
]
MATH = [
    re.compile(r"\$\$.*?\$\$", re.S),  # display math
    re.compile(r"\\\[.*?\\\]", re.S),
    re.compile(r"\\\(.*?\\\)", re.S),
    re.compile(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$"),  # inline math
]
REMOVE = [
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<[a-zA-Z/][^>]*>"),  # tags with their attributes (text between tags stays)
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.M),  # reference-style link definitions
    re.compile(r"\{[:#.][^}]*\}"),  # attr lists { #id .class }
    re.compile(r"\{\s*[a-z-]+=[^}]*\}"),
    re.compile(r"\[\^[^\]]+\]"),  # footnote markers
    re.compile(r"\(\d+\)!?"),  # Material annotation markers (1)
    re.compile(r"^\s*\d+\.\s", re.M),  # ordered list markers
    re.compile(r":[a-z0-9-]+:"),  # icon shortcodes
]

# The paper's base inside its formula as printed (§3.5): "pos / 10000^{2i/d_model}".
PAPER_BASE = re.compile(r"10000\s*\^")


def _math_as_prose(m: re.Match) -> str:
    """A math span blanked except its multi-digit numbers, which stay at their place ({,} written as ,)."""
    span = m.group(0)
    out = list(_BLANK.sub(" ", span))
    for num in re.finditer(r"(?<![A-Za-z_\\\d])\d+(?:(?:\{,\}|[.,])\d+)*", span):
        text = num.group(0).replace("{,}", ",")
        if len(text.replace(",", "").replace(".", "").lstrip("0")) < 2 or PAPER_BASE.match(span, num.start()):
            continue
        out[num.start():num.end()] = list(text.ljust(num.end() - num.start()))
    return "".join(out)


ALLOWED = [
    re.compile(r"(?<![\d.,])(?:199\d|20[0-2]\d)(?!\d|[.,]\d|%)"),  # years
    re.compile(r"§\s?\d+(?:\.\d+)*"),  # sections
    re.compile(r"(?:表|Table|Eq\.|式|图|Fig\.|Figure|App\.|附录|Section|Appendix)\s?\(?[A-Z]?\d+(?:\.\d+)*\)?"),
    re.compile(r"第\s?\d+\s?[课节章]"),  # lesson / section numbers
    re.compile(r"\b[Ll]essons?\s\d+b?(?:(?:,\s*|\s(?:to|and|or)\s)\d+b?)*\b"),  # the same in English
    re.compile(r"\b(?:[Ee]xercise|[Mm]isconception|[Ff]ailure|[Mm]ethod|[Pp]roperty|[Ss]tep|[Pp]itfall|[Ee]vidence|[Dd]esign)\s\d(?!\d|[.,]\d)"),  # labels
    re.compile(r"\*[^*\n]+\*(?=\.\s\[arXiv:\d{4}\.\d{4,5})"),  # a paper's title right before its arXiv id (before the arXiv rule blanks the id)
    re.compile(r"arXiv:\d{4}\.\d{4,5}(?:v\d+)?"),
    re.compile(r"(?:Llama|Gemma|Kimi|Mistral|Phi|GPT)\s[A-Z]?\d+(?:\.\d+)?[A-Za-z]*(?:\s\d+B)?"),  # names with a space
    re.compile(r"[A-Za-z_][A-Za-z_]*[-_.]?\d[\w.-]*"),  # identifiers: GPT-2, Qwen3-8B, fp32, d_model2
]

NUMBER = re.compile(r"\d+(?:[.,]\d+)*%?")


@dataclass
class Finding:
    path: Path
    line: int
    literal: str
    context: str
    kind: str = "number"  # "number" or "example"

    def __str__(self) -> str:
        rel = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        what = "typed number" if self.kind == "number" else "typed example text"
        return f"{rel}:{self.line}: {what} {self.literal!r} in prose: …{self.context}…"


def prose(markdown: str) -> str:
    """What the lint reads: the page without code, macros, markup, and math except its multi-digit numbers."""
    for pattern in CODE_AND_MACROS:
        markdown = pattern.sub(_blank, markdown)
    for pattern in MATH:
        markdown = pattern.sub(_math_as_prose, markdown)
    for pattern in REMOVE:
        markdown = pattern.sub(_blank, markdown)
    return markdown


def _finding(markdown: str, text: str, start: int, literal: str, path: Path, kind: str) -> Finding:
    line = text.count("\n", 0, start) + 1
    return Finding(path, line, literal, markdown.splitlines()[line - 1].strip()[:80], kind)


def find_literals(markdown: str, path: Path = Path("<string>")) -> list[Finding]:
    """Typed numbers: digits left in the prose that no ALLOWED pattern explains."""
    text = prose(markdown)
    for pattern in ALLOWED:
        text = pattern.sub(_blank, text)
    return [_finding(markdown, text, m.start(), m.group(0), path, "number") for m in NUMBER.finditer(text)]


def example_texts() -> dict[str, str]:
    """Example text that prose must quote through a macro, and the macro to use: posenc.examples' text
    constants of two or more characters, and the sentences lesson 1's swaps make of them."""
    from posenc import attention
    from posenc import examples as ex
    from posenc.tokenize import join

    out: dict[str, str] = {}
    for name, value in vars(ex).items():
        if name.isupper() and isinstance(value, str) and len(value) >= 2 and not value.isascii():
            out.setdefault(value, f'{{{{ example("{name}") }}}}')
    for t in (ex.texts("zh"), ex.texts("en")):  # each edition's sentences, an English one's words joined by spaces
        for which, (text, i, j) in (("main", t.swap_main), ("short", t.swap_short), ("causal", t.causal)):
            out.setdefault(join(text), f'{{{{ num("l1_{which}_a") }}}}')
            out[join(attention.permute_text(text, attention.swap(len(text), i, j)))] = f'{{{{ num("l1_{which}_b") }}}}'
    return out


def find_examples(markdown: str, path: Path = Path("<string>"), texts: dict[str, str] | None = None) -> list[Finding]:
    """Example text typed in prose (longest first, so a sentence is reported once, not also its names)."""
    text = prose(markdown)
    findings = []
    for example in sorted(texts if texts is not None else example_texts(), key=len, reverse=True):
        for m in re.finditer(re.escape(example), text):
            findings.append(_finding(markdown, text, m.start(), example, path, "example"))
        text = text.replace(example, " " * len(example))
    return sorted(findings, key=lambda f: f.line)


def check(markdown: str, path: Path = Path("<string>"), texts: dict[str, str] | None = None) -> list[Finding]:
    """Every finding of one page: typed numbers and typed example text, by line."""
    return sorted(find_literals(markdown, path) + find_examples(markdown, path, texts), key=lambda f: f.line)


def lint(paths) -> list[Finding]:
    texts = example_texts()
    out = []
    for path in paths:
        out.extend(check(Path(path).read_text(encoding="utf-8"), Path(path), texts))
    return out


FIX = (
    "Prose must not type derived numbers or example text. Write {{ num(\"name\") }} (register the number in "
    "posenc/quantities/<lesson>.py), {{ fact(\"name\") }} (posenc/data/facts_<lesson>.yaml) or {{ example(\"NAME\") }} "
    "(posenc/examples.py); put a formula in $…$. Allowed literals are listed in tools/guards/prose_lint.py."
)


# --- as a MkDocs hook (mkdocs.yml: hooks) ------------------------------------------------------------------


def on_page_markdown(markdown, page, config, files):
    """Lint the page's own Markdown (before macros run) and log an error per finding, with file and line.

    An error fails `mkdocs build --strict` (mkdocs.yml sets strict: true) at any verbosity and shows in
    `mkdocs serve`; a warning would not: `-q` drops warnings before --strict counts them.
    """
    import logging

    if str(ROOT) not in sys.path:  # MkDocs restores sys.path after loading a hook file: posenc must be importable
        sys.path.insert(0, str(ROOT))
    log = logging.getLogger("mkdocs.hooks.prose_lint")
    path = Path(page.file.abs_src_path) if page.file.abs_src_path else Path(page.file.src_uri)
    if path.suffix != ".md":
        return markdown
    for finding in check(markdown, path):
        hint = example_texts().get(finding.literal) if finding.kind == "example" else None
        log.error(f"{finding}" + (f" — write {hint}" if hint else " — see tools/guards/prose_lint.py"))
    return markdown


try:  # run before mkdocs-macros, which replaces the {{ … }} calls this lint relies on seeing
    from mkdocs.plugins import event_priority

    on_page_markdown = event_priority(100)(on_page_markdown)
except ImportError:  # the lint also runs without MkDocs (python -m tools.guards.prose_lint)
    pass


main = lp.command("prose lint", lint, lambda: sorted(DOCS.rglob("*.md")), "{n} finding(s). " + FIX)

if __name__ == "__main__":
    raise SystemExit(main())
