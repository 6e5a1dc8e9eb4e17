"""Two parts every lesson has, checked by tests/test_lesson_structure.py.

1. Every in-page experiment has its 「试三件事」 box: each ``{{ widget("name", …) }}`` call is followed, before
   the next heading and before the next widget call, by ``!!! example "试三件事"`` (three things to try, with
   what to expect). The data-flow panel (``widget("dataflow", …)``) is the course's map, not an experiment,
   and needs none.
2. Every lesson ends its main path with ``## 学完这一课，你应该能 { #can-do }``: three to five bullet points,
   each linking to the exercise that checks it on the same page (``（[练习 2](#exercise-2)）``), and that
   anchor exists: the page renders an element with ``id="exercise-2"`` (an attribute list ``{ #exercise-2 }``
   on its own line after the exercise's paragraph, or on a heading).

The lessons are the numbered pages (docs/lessons/NN-name.md, lessons 1 to 6b); the results page is not a
lesson. ``python -m tools.guards.lesson_structure`` prints what is missing on every lesson.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tools.build import lesson_pages as lp

WIDGET = re.compile(r"\{\{-?\s*widget\s*\(\s*[\"'](?P<name>[^\"']+)[\"']")
TRY_BOX = re.compile(r'^[ \t]*!!![ \t]+example[ \t]+"试三件事"[ \t]*$')
NOT_AN_EXPERIMENT = ("dataflow",)

CAN_DO_ANCHOR = "can-do"
CAN_DO_TITLE = "学完这一课，你应该能"
CAN_DO_BULLETS = (3, 5)
BULLET = re.compile(r"^[-*+][ \t]+")
EXERCISE_LINK = re.compile(r"\]\(#(?P<anchor>exercise-\d+)\)")


def widget_findings(markdown: str, page: str) -> list[str]:
    """'page:line: …' for each widget call without its 试三件事 box (module docstring, rule 1)."""
    text = lp.blank_code(markdown)
    lines = text.split("\n")
    heads = {s.start for s in lp.sections(markdown)}
    calls = [(text.count("\n", 0, m.start()) + 1, m.group("name")) for m in WIDGET.finditer(text)]
    out = []
    for k, (line, name) in enumerate(calls):
        if name in NOT_AN_EXPERIMENT:
            continue
        stop = min([h for h in heads if h > line] + [c for c, _ in calls[k + 1:]] + [len(lines) + 1])
        if not any(TRY_BOX.match(lines[n - 1]) for n in range(line + 1, stop)):
            out.append(f"docs/{page}:{line}: widget {name!r} has no !!! example \"试三件事\" box after it "
                       "(before the next heading or widget): three things to try, with what to expect")
    return out


_MACRO = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def rendered_ids(markdown: str) -> set[str]:
    """The element ids a page's Markdown renders (its macro calls replaced by a placeholder), with the
    site's Markdown extensions that make ids: attribute lists, headings, admonitions, tabs."""
    import markdown as md

    html = md.markdown(_MACRO.sub("X", markdown), extensions=[
        "abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "tables", "toc",
        "pymdownx.details", "pymdownx.superfences", "pymdownx.tabbed", "pymdownx.arithmatex"])
    return set(re.findall(r'\sid="([^"]+)"', html))


def can_do_findings(markdown: str, page: str) -> list[str]:
    """'page:line: …' for a missing or incomplete can-do section (module docstring, rule 2)."""
    sec = lp.section(markdown, CAN_DO_ANCHOR)
    if sec is None:
        return [f"docs/{page}: no '## {CAN_DO_TITLE} {{ #{CAN_DO_ANCHOR} }}' section: 3 to 5 bullets, each linking "
                "the exercise that checks it, (#exercise-N)"]
    out = []
    if sec.title != CAN_DO_TITLE or len(sec.marker) != 2:
        out.append(f"docs/{page}:{sec.start}: the can-do heading is '{sec.marker} {sec.title}'; write '## {CAN_DO_TITLE}'")
    lines = markdown.split("\n")
    bullets = [(n, lines[n - 1]) for n in sec.lines() if BULLET.match(lines[n - 1])]
    low, high = CAN_DO_BULLETS
    if not low <= len(bullets) <= high:
        out.append(f"docs/{page}:{sec.start}: the can-do section has {len(bullets)} bullet(s); write {low} to {high}")
    ids = rendered_ids(markdown)
    for n, bullet in bullets:
        links = EXERCISE_LINK.findall(bullet)
        if not links:
            out.append(f"docs/{page}:{n}: a can-do bullet links no exercise: end it with （[练习 N](#exercise-N)）")
        for anchor in links:
            if anchor not in ids:
                out.append(f"docs/{page}:{n}: the can-do bullet links #{anchor}, which the page does not have: "
                           f"put {{ #{anchor} }} on its own line after that exercise's paragraph")
    return out


def findings(page: str) -> list[str]:
    markdown = (lp.DOCS / page).read_text(encoding="utf-8")
    return widget_findings(markdown, page) + can_do_findings(markdown, page)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pages = [lp.docs_page(Path(a)) for a in argv] or lp.lesson_pages()
    found = [f for page in pages for f in findings(page)]
    for f in found:
        print(f)
    print(f"\n{len(found)} finding(s)" if found else f"lesson structure: {len(pages)} lesson(s) complete")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
