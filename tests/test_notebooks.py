"""The lessons' hands-on notebooks: docs/notebooks/lessonN.py (jupytext percent format) is the source,
docs/notebooks/lessonN.ipynb (what MkDocs renders) is written from it by tools/build/notebooks.py, committed
without outputs, with stable cell ids and bytes.

Running them is the build's job (mkdocs-jupyter executes every notebook, allow_errors false);
tests/test_gates.py's clean build runs them with an empty cache.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from tools.build import notebooks

ROOT = Path(__file__).resolve().parent.parent
NB_DIR = ROOT / "docs" / "notebooks"
# lesson id from the file name: 03-sinusoidal.md → "3", 03b-relative-bias.md → "3b" (the Chinese pages; the English
# page 03-sinusoidal.en.md has the same URL under en/)
LESSONS = {re.match(r"0*(\d+[a-z]?)-", p.name).group(1): p.stem for p in (ROOT / "docs" / "lessons").glob("[0-9][0-9]*-*.md")
           if not p.name.endswith(".en.md")}
# every notebook in every language: lessonN.ipynb (Chinese) and lessonN.<lang>.ipynb (tools/build/notebooks.py)
NOTEBOOKS = sorted(NB_DIR.glob("*.ipynb"))
# what each language's notebook starts its title with, where it links its lesson, and how its last section starts
TITLE = {"zh": "# 第 {n} 课", "en": "# Lesson {n},"}
LESSON_URL = {"zh": "lessons/{page}/", "en": "en/lessons/{page}/"}
EXERCISES = {"zh": "练习", "en": "Exercises"}


def _stem_and_language(path: Path) -> tuple[str, str]:
    """lesson4.en.ipynb → ("lesson4", "en"); lesson4.ipynb → ("lesson4", "zh")."""
    stem, _, lang = path.stem.partition(".")
    return stem, lang or "zh"


def test_each_lesson_has_exactly_one_notebook_and_one_source():
    assert {p.stem for p in NOTEBOOKS if _stem_and_language(p)[1] == "zh"} == {f"lesson{n}" for n in LESSONS}
    assert {_stem_and_language(p)[0] for p in NOTEBOOKS} <= {f"lesson{n}" for n in LESSONS}
    assert {p.stem for p in notebooks.sources()} == {f"lesson{n}" for n in LESSONS}


def test_committed_notebooks_are_what_their_sources_produce():
    stale = [p.name for p, text in notebooks.expected().items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert not stale, f"{stale} differ from their .py source: edit docs/notebooks/<name>.py, then run python -m tools.build.notebooks"


def test_two_conversions_are_byte_identical():
    first, second = notebooks.expected(), notebooks.expected()
    assert first == second


def test_the_check_names_a_notebook_edited_without_its_source(tmp_path, monkeypatch, capsys):
    for src in notebooks.sources():
        (tmp_path / src.name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "_setup.py").write_text((NB_DIR / "_setup.py").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(notebooks, "NOTEBOOKS", tmp_path)
    assert notebooks.main([]) == 0 and notebooks.main(["--check"]) == 0
    nb = tmp_path / "lesson2.ipynb"
    nb.write_text(nb.read_text(encoding="utf-8").replace("IndexError", "KeyError", 1), encoding="utf-8")
    assert notebooks.main(["--check"]) == 1
    assert "lesson2.ipynb" in capsys.readouterr().out


def test_included_snippets_are_the_snippet_files():
    """A notebook cell '# posenc: include x.py' carries docs/snippets/x.py, so the code is written once."""
    included = 0
    for src in notebooks.sources():
        nb = nbformat.read(src.with_suffix(".ipynb"), as_version=4)
        for (kind, source), cell in zip(notebooks.cells_of(src), nb.cells):
            m = notebooks.INCLUDE.match(source.strip())
            if m and not m.group("file").startswith("_"):
                included += 1
                assert cell.source == (ROOT / "docs" / "snippets" / m.group("file")).read_text(encoding="utf-8").rstrip("\n")
    assert included >= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_outputs_and_stable_cell_ids(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(raw["cells"]):
        assert cell["id"] == f"{_stem_and_language(path)[0]}-{i:02d}", f"cell {i} has id {cell['id']!r}"
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, f"cell {i} carries outputs"
    assert raw["metadata"]["kernelspec"]["name"] == "python3"


def _toc_ids(tokens) -> list[str]:
    return [i for t in tokens for i in [t["id"], *_toc_ids(t["children"])]]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_heading_gets_its_own_anchor(path):
    """The page's table of contents links exactly the ids the headings get.

    mkdocs-jupyter builds the TOC with Python-Markdown and the headings' ids with its own
    ASCII-only slugify; an all-Chinese, repeated or code-bearing heading makes them disagree.
    """
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    nb = nbformat.read(path, as_version=4)
    anchors = [a for c in nb.cells if c.cell_type == "markdown" for a in notebooks.heading_anchors(c.source)]
    assert anchors and "" not in anchors and len(set(anchors)) == len(anchors), anchors
    toc, _title = _get_nb_toc_tokens(str(path), 6)
    assert _toc_ids(toc) == anchors, "the table of contents links ids the headings do not have"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_uses_posenc_links_its_lesson_and_ends_with_exercises(path):
    nb = nbformat.read(path, as_version=4)
    stem, lang = _stem_and_language(path)
    n = stem.removeprefix("lesson")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert re.search(r"^from posenc import", code, re.M), "the notebook must compute with posenc"
    first = nb.cells[0].source
    number = n.rstrip("abcdefghijklmnopqrstuvwxyz") if lang == "zh" else n  # 第 6 课·续 is Lesson 6b
    assert first.startswith(TITLE[lang].format(n=number)), "the first cell is the notebook's title"
    assert LESSON_URL[lang].format(page=LESSONS[n]) in first, "the first cell links back to its lesson"
    headings = [m.group(2) for c in nb.cells if c.cell_type == "markdown" for m in notebooks.HEADING.finditer(c.source)]
    assert headings[-1].startswith(EXERCISES[lang]), f"the last section must be the exercises, got {headings[-1]!r}"
    last_md = max(i for i, c in enumerate(nb.cells) if c.cell_type == "markdown")
    assert all(c.cell_type == "code" for c in nb.cells[last_md + 1:]), "only exercise code cells follow the exercises"


def test_converter_rejects_a_heading_without_an_anchor():
    with pytest.raises(ValueError, match="unique ASCII part"):
        notebooks.build("lessonX", [("markdown", "# 第 9 课 动手"), ("markdown", "## 练习")])
    with pytest.raises(ValueError, match="repeated"):
        notebooks.build("lessonX", [("markdown", "## 1. 甲：f"), ("markdown", "## 1. 乙：f")])
    with pytest.raises(ValueError, match="no `code` in headings"):
        notebooks.build("lessonX", [("markdown", "## 1. 甲：`f`")])
    with pytest.raises(ValueError, match="names no file"):
        notebooks.build("lessonX", [("markdown", "## 1. f"), ("code", "# posenc: include nope.py")])
