"""The numbers lint: lesson prose must not type a number that code should compute.

Prose is what remains of a Markdown page after removing fenced code, inline
code, math ($…$, $$…$$, \\(…\\), \\[…\\]), macro calls ({{ … }}, {% … %}),
HTML tags' attributes, link targets, list markers and annotation markers.
Any digit left there is a literal, unless it matches ALLOWED below.

ALLOWED, and why each is safe:
  years          1990–2029 standing alone: citation years ("Vaswani et al. 2017")
  sections       §3.5, §2.3: section numbers in citations
  references     表 3 / Table 3 / Eq. 16 / 式 (22) / 图 2 / App. A.1 / 附录 A: parts of a cited work
  lessons        第 3 课 / 第 3 节 / 第 3 章: course structure, not measurements
  arXiv ids      arXiv:1706.03762
  identifiers    digits glued to letters: GPT-2, Qwen3-8B, d_model, fp32, h1, 7B in a model name
  model names    a short list of names written with a space: Llama 3.1, Gemma 3, Kimi K2, Mistral 7B

    python -m tools.prose_lint [FILES…]    # default: every page under docs/
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

_BLANK = re.compile(r"[^\n]")


def _blank(m: re.Match) -> str:
    """Replace a match with spaces, keeping its newlines so line numbers stay right."""
    return _BLANK.sub(" ", m.group(0))


# Order matters: code before math (a $ inside code is not math), macros before HTML.
REMOVE = [
    re.compile(r"^(?P<f>```+|~~~+).*?^(?P=f)[ \t]*$", re.M | re.S),  # fenced code
    re.compile(r"\{\{.*?\}\}", re.S),  # macro calls
    re.compile(r"\{%.*?%\}", re.S),
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"`[^`\n]+`"),  # inline code
    re.compile(r"\$\$.*?\$\$", re.S),  # display math
    re.compile(r"\\\[.*?\\\]", re.S),
    re.compile(r"\\\(.*?\\\)", re.S),
    re.compile(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$"),  # inline math
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

ALLOWED = [
    re.compile(r"(?<![\d.,])(?:199\d|20[0-2]\d)(?!\d|[.,]\d|%)"),  # years
    re.compile(r"§\s?\d+(?:\.\d+)*"),  # sections
    re.compile(r"(?:表|Table|Eq\.|式|图|Fig\.|Figure|App\.|附录|Section|Appendix)\s?\(?[A-Z]?\d+(?:\.\d+)*\)?"),
    re.compile(r"第\s?\d+\s?[课节章]"),  # lesson / section numbers
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

    def __str__(self) -> str:
        rel = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{rel}:{self.line}: typed number {self.literal!r} in prose: …{self.context}…"


def prose(markdown: str) -> str:
    for pattern in REMOVE:
        markdown = pattern.sub(_blank, markdown)
    return markdown


def find_literals(markdown: str, path: Path = Path("<string>")) -> list[Finding]:
    text = prose(markdown)
    for pattern in ALLOWED:
        text = pattern.sub(_blank, text)
    findings = []
    for m in NUMBER.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        src_line = markdown.splitlines()[line - 1].strip()
        findings.append(Finding(path, line, m.group(0), src_line[:80]))
    return findings


def lint(paths) -> list[Finding]:
    out = []
    for path in paths:
        out.extend(find_literals(Path(path).read_text(encoding="utf-8"), Path(path)))
    return out


FIX = (
    "Prose must not type derived numbers. Write {{ num(\"name\") }} (register the number in "
    "posenc/quantities/<lesson>.py) or {{ fact(\"name\") }} (posenc/data/facts.yaml); put a formula in $…$. "
    "Allowed literals are listed in tools/prose_lint.py."
)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    paths = [Path(a) for a in argv] or sorted(DOCS.rglob("*.md"))
    findings = lint(paths)
    for f in findings:
        print(f)
    if findings:
        print(f"\n{len(findings)} typed number(s). {FIX}")
        return 1
    print(f"numbers lint: {len(paths)} page(s) clean")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
