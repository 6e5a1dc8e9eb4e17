"""The two editions cannot drift apart: every page in both languages, the same sections and
the same macro calls in each lesson, and nothing Chinese left in what the English edition draws.

Each test lists what a change left undone (a page, a notebook, a figure module or a widget with no English,
a quantity or a fact whose English text is Chinese, sections or macro calls that differ between the
editions). They are cheap (source files only, no build). CONTRIBUTING.md's "How to change a lesson in both
languages" says how to clear each line.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from site_support import ROOT

DOCS = ROOT / "docs"
NOTEBOOKS = DOCS / "notebooks"
WIDGETS = DOCS / "javascripts" / "widgets"
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")

ANCHOR = re.compile(r"\{\s*#([\w-]+)[\s}]")
# a macro call and its first argument: {{ num("x") }}, {{ cfg("qwen3_8b", "rope_theta") }}, {{ widget("sin-clock", …) }}
MACRO = re.compile(r"\{\{-?\s*(\w+)\(\s*(\"[^\"]*\"|'[^']*'|[^,)\s]*)")


def chinese_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md"))


def english_of(page: Path) -> Path:
    return page.with_name(page.name[: -len(".md")] + ".en.md")


def anchors(text: str) -> list[str]:
    return ANCHOR.findall(text)


def macro_calls(text: str) -> Counter:
    return Counter((name, arg.strip("\"'")) for name, arg in MACRO.findall(text))


def test_every_page_is_in_both_languages():
    missing = [english_of(p).relative_to(ROOT).as_posix() for p in chinese_pages() if not english_of(p).is_file()]
    orphans = [p.relative_to(ROOT).as_posix() for p in sorted(DOCS.rglob("*.en.md"))
               if not p.with_name(p.name.replace(".en.md", ".md")).is_file()]
    assert not orphans, f"English pages with no Chinese page: {orphans}"
    assert not missing, f"{len(missing)} page(s) still to translate (write each from its Chinese page):\n  " + "\n  ".join(missing)


def test_every_notebook_is_in_both_languages():
    from tools.build import notebooks

    missing = [p.relative_to(ROOT).as_posix() for p in notebooks.sources() if "en" not in notebooks.languages_of(p)]
    assert not missing, (f"{len(missing)} notebook source(s) with no English Markdown cells yet "
                         "(a cell marked lang=\"en\" after each Chinese one; tools/build/notebooks.py):\n  " + "\n  ".join(missing))


@pytest.mark.parametrize("page", [p.relative_to(DOCS).as_posix() for p in chinese_pages()])
def test_both_editions_have_the_same_sections_and_macro_calls(page):
    zh = DOCS / page
    en = english_of(zh)
    if not en.is_file():
        pytest.fail(f"docs/{page}: no English page {en.relative_to(ROOT).as_posix()} yet")
    zh_text, en_text = zh.read_text(encoding="utf-8"), en.read_text(encoding="utf-8")
    assert anchors(en_text) == anchors(zh_text), (
        f"docs/{page}: the editions' section anchors differ (same {{ #id }}, same order):\n"
        f"  only Chinese: {[a for a in anchors(zh_text) if a not in anchors(en_text)]}\n"
        f"  only English: {[a for a in anchors(en_text) if a not in anchors(zh_text)]}")
    a, b = macro_calls(zh_text), macro_calls(en_text)
    assert a == b, (f"docs/{page}: the editions call different macros (name, first argument):\n"
                    f"  only Chinese: {sorted((a - b).elements())}\n  only English: {sorted((b - a).elements())}")


@pytest.mark.parametrize("page", [p.relative_to(DOCS).as_posix() for p in chinese_pages()])
def test_every_section_heading_has_an_explicit_anchor(page):
    # without { #id } a heading's anchor comes from its words, so the two editions' anchors differ (Chinese
    # "## 怎么读" becomes #_3) and the language switch lands at the top of the page instead of the section
    bare = []
    for path in (DOCS / page, english_of(DOCS / page)):
        fenced = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            elif not fenced and re.match(r"#{2,6} ", line) and not ANCHOR.search(line):
                bare.append(f"{path.relative_to(ROOT).as_posix()}:{number}: {line}")
    assert not bare, "section headings with no { #id } (give each the same id in both editions):\n  " + "\n  ".join(bare)


def test_every_figure_module_is_drawn_in_english():
    from figures_src import _labels, build

    modules = sorted({spec.module.rpartition(".")[2] for spec in build.load_all().values()})
    missing = [m for m in modules if not _labels.converted(m)]
    assert not missing, (f"{len(missing)} figure module(s) still drawn in Chinese on the English site (give each a section "
                         "in figures_src/labels/zh.yaml and en.yaml, CONTRIBUTING.md):\n  " + "\n  ".join(f"figures_src/{m}.py" for m in missing))


def test_every_widget_speaks_the_page_language():
    chinese = [f"docs/javascripts/widgets/{p.name}" for p in sorted(WIDGETS.glob("*.js")) if CJK.search(p.read_text(encoding="utf-8"))]
    assert not chinese, (f"{len(chinese)} widget file(s) still hold Chinese text (take it from strings/<lang>.js with t(), "
                         "as sin-clock.js does):\n  " + "\n  ".join(chinese))


def test_every_quantity_reads_in_english():
    from posenc import quantities

    chinese = [f"{n} = {quantities.text(n, 'en')[:40]!r} ({quantities.where(n)})" for n in quantities.names()
               if CJK.search(quantities.text(n, "en"))]
    assert not chinese, (f"{len(chinese)} quantity(ies) whose English text is Chinese (return a tuple for a list, "
                         "PerLanguage(zh=…, en=…) for words; posenc/formatting.py):\n  " + "\n  ".join(chinese))


@pytest.mark.parametrize("data_file", sorted(p.name for p in (ROOT / "posenc" / "data").glob("facts_*.yaml")))
def test_every_fact_reads_in_english(data_file):
    from posenc import facts

    chinese = [f"{name}: value {entry['value']!r}" for name, entry in facts.load_entries(ROOT / "posenc" / "data" / data_file).items()
               if CJK.search(facts.get(name).text_in("en"))]
    assert not chinese, (f"posenc/data/{data_file}: {len(chinese)} fact(s) whose value is Chinese words with no English: "
                         "give each a `value_en:` line (the same fact in English words, the same numbers) below its "
                         "`value:`; the English pages print it (posenc/facts.py):\n  " + "\n  ".join(chinese))


# A Chinese original quoted in an English source, followed by its English gloss: "原文": ‘the gloss’
_GLOSSED_ORIGINAL = re.compile(r'"[^"]*":\s*‘[^’]+’')


def test_every_source_tooltip_reads_in_english():
    # The English pages' tag tooltips show a fact's or a model field's source_in("en"): English words, where a
    # Chinese original is quoted as the source, kept with an English gloss after it.
    from posenc import configs, facts

    sources = [(f"fact {n}", facts.get(n).source_in("en")) for n in facts.names()]
    sources += [(f"model {k}.{f}", fld.source_in("en")) for k in configs.keys() for f, fld in configs.load(k).fields.items()]
    chinese = [f"{where}: {text[:80]!r}" for where, text in sources if CJK.search(_GLOSSED_ORIGINAL.sub("", text))]
    assert not chinese, ("source(s) with Chinese words the English tooltip would show: give each a `source_en:` in "
                         "English (a quoted Chinese original keeps its words, glossed: \"原文\": ‘gloss’):\n  " + "\n  ".join(chinese))
    assert _GLOSSED_ORIGINAL.sub("", '"注意力头数 40": ‘number of attention heads: 40’') == ""
    assert CJK.search(_GLOSSED_ORIGINAL.sub("", '"注意力头数 40"'))  # a Chinese quotation without its gloss stays a finding
