"""The reference lists (docs/references.md, docs/references.en.md): one format for every paper entry, whose
title ends in exactly one end mark (a title that ends in ? or ! takes no full stop after it), and the papers
the lessons compute against are listed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "docs" / "references.md", ROOT / "docs" / "references.en.md"]
TITLE = re.compile(r"\*(?P<title>[^*\n]+)\*(?P<after>[.。]?)")
ARXIV_ENTRY = re.compile(r"^- .*?\d{4}\. \*[^*\n]+\*\.? \[arXiv:\d{4}\.\d{4,5}\]", re.M)


def _entries(page: Path) -> list[str]:
    return [line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("- ") and "[arXiv:" in line]


def _end_marks(text: str) -> list[str]:
    """Titles followed by a second end mark: '*Is it?*.' reads 'Is it?.'."""
    return [m.group(0) for m in TITLE.finditer(text) if m.group("title")[-1] in "?!？！" and m.group("after")[:1] in (".", "。")]


def test_a_title_ending_in_a_question_or_exclamation_mark_takes_no_full_stop():
    assert _end_marks("- A 2024. *Is it?*. [arXiv:1.2]\n- B 2024. *Go!*。x") == ["*Is it?*.", "*Go!*。"]
    assert _end_marks("- A 2024. *Is it?* [arXiv:1.2]\n- B 2024. *Plain*. [arXiv:1.2]") == []
    for page in [*PAGES, *sorted((ROOT / "docs" / "lessons").glob("*.md"))]:
        assert not _end_marks(page.read_text(encoding="utf-8")), page.name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_paper_entry_is_author_year_title_arxiv(page):
    entries = _entries(page)
    assert len(entries) > 50
    odd = [e for e in entries if not ARXIV_ENTRY.match(e)]
    assert not odd, "\n".join(odd)
    for entry in entries:
        title = TITLE.search(entry)
        ends_itself = title.group("title")[-1] in "?!"
        assert title.group("after") == ("" if ends_itself else "."), entry


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_both_languages_list_the_same_papers(page):
    ids = [re.search(r"arXiv:(\d{4}\.\d{4,5})", e).group(1) for e in _entries(page)]
    other = PAGES[1] if page == PAGES[0] else PAGES[0]
    assert ids == [re.search(r"arXiv:(\d{4}\.\d{4,5})", e).group(1) for e in _entries(other)]
    assert len(ids) == len(set(ids)), "a paper is listed twice"


def test_gqa_is_listed_and_cited_where_lesson_6_compares_with_it():
    for page in PAGES:
        (entry,) = [e for e in _entries(page) if "arXiv:2305.13245" in e]
        assert "Ainslie" in entry and "*GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints*." in entry
    for name in ("06-partial-nope.md", "06-partial-nope.en.md"):
        text = (ROOT / "docs" / "lessons" / name).read_text(encoding="utf-8")
        gqa = next(line for line in text.splitlines() if "GQA" in line)
        assert "Ainslie et al. 2023" in gqa and "arXiv:2305.13245" in gqa, name
