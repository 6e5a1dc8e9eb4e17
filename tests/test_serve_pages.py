"""`make serve` builds an edited page alone (tools/serve_pages.py): which changes take that path, and which
need the whole site. The path itself runs under `properdocs serve` in tests/test_serve.py (a typed number
in an edited lesson is an error with file and line; the fix shows) and in `make bench` (its time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import serve_pages as sp


class FakeFiles:
    def __init__(self, *src_uris):
        self.src_uris = set(src_uris)

    def get_file_from_path(self, src_uri):
        return object() if src_uri in self.src_uris else None


@pytest.fixture
def docs(tmp_path):
    docs = tmp_path / "docs"
    for name in ("lessons/03-sinusoidal.md", "lessons/03-sinusoidal.en.md", "lessons/04-rope.md", "index.md",
                 "snippets/lesson3_probe.md", "notebooks/lesson3.py"):
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text("text\n", encoding="utf-8")
    return docs


@pytest.fixture
def built():
    pages = ("lessons/03-sinusoidal.md", "lessons/04-rope.md", "index.md")
    return {"zh": sp.Built(FakeFiles(*pages), nav="nav", env="env"),
            "en": sp.Built(FakeFiles(*pages, "lessons/03-sinusoidal.en.md"), nav="nav", env="env")}


def test_an_edited_page_is_built_again_in_its_own_language(docs, built):
    assert sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.md"}, docs, built) == [("zh", "lessons/03-sinusoidal.md")]
    assert sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.en.md"}, docs, built) == [("en", "lessons/03-sinusoidal.en.md")]


def test_a_chinese_page_not_translated_yet_is_built_again_in_the_english_site_too(docs, built):
    assert sp.pages_to_rebuild({docs / "lessons/04-rope.md"}, docs, built) == [("zh", "lessons/04-rope.md"),
                                                                                ("en", "lessons/04-rope.md")]


def test_several_pages_zh_first(docs, built):
    plan = sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.en.md", docs / "index.md"}, docs, built)
    assert plan == [("zh", "index.md"), ("en", "index.md"), ("en", "lessons/03-sinusoidal.en.md")]


def test_an_editors_temporary_file_that_is_gone_again_is_ignored(docs, built):
    changed = {docs / "lessons/.03-sinusoidal.md.swx", docs / "lessons/03-sinusoidal.md"}
    assert sp.pages_to_rebuild(changed, docs, built) == [("zh", "lessons/03-sinusoidal.md")]


@pytest.mark.parametrize("changed", [
    "posenc/rope.py",  # code: numbers and figures may change on every page
    "figures_src/lesson3.py",
    "mkdocs.yml",
    "docs/snippets/lesson3_probe.md",  # inlined into other pages
    "docs/notebooks/lesson3.py",  # not a Markdown page
    "docs/lessons/07-new.md",  # a new page: the navigation changes
])
def test_any_other_change_is_a_full_build(docs, built, changed):
    path = docs.parent / changed
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x\n", encoding="utf-8")
    assert sp.pages_to_rebuild({path, docs / "lessons/03-sinusoidal.md"}, docs, built) is None


def test_a_removed_page_is_a_full_build(docs, built):
    (docs / "lessons/04-rope.md").unlink()
    assert sp.pages_to_rebuild({docs / "lessons/04-rope.md"}, docs, built) is None


def test_no_full_build_yet_or_a_language_it_did_not_write_is_a_full_build(docs, built):
    page = {docs / "lessons/03-sinusoidal.md"}
    assert sp.pages_to_rebuild(page, docs, {}) is None
    assert sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.en.md"}, docs, {"zh": built["zh"]}) is None
    assert sp.pages_to_rebuild(set(), docs, built) is None


@pytest.fixture
def figures_dir(tmp_path):
    figures = tmp_path / "figures_src"
    for name in ("lesson3.py", "build.py", "_style.py", "labels/en.yaml"):
        (figures / name).parent.mkdir(parents=True, exist_ok=True)
        (figures / name).write_text("x\n", encoding="utf-8")
    return figures


def test_figure_code_and_label_tables_are_a_figure_redraw(figures_dir):
    assert sp.figure_change({figures_dir / "lesson3.py"}, figures_dir)
    assert sp.figure_change({figures_dir / "labels/en.yaml", figures_dir / "_style.py"}, figures_dir)
    assert sp.figure_change({figures_dir / "lesson3.py", figures_dir / ".lesson3.py.swp"}, figures_dir)  # gone again


@pytest.mark.parametrize("changed", ["figures_src/build.py", "posenc/rope.py", "docs/lessons/03-sinusoidal.md",
                                     "figures_src/lesson9.py"])  # the last: a figure module that is gone
def test_anything_else_beside_figure_code_is_not(figures_dir, changed):
    path = figures_dir.parent / changed
    assert not sp.figure_change({figures_dir / "lesson3.py", path}, figures_dir)
    assert not sp.figure_change(set(), figures_dir)
