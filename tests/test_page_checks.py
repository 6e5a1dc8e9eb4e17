"""The three checks of a page's own Markdown run as MkDocs hooks that fail the build (tools/build/lesson_pages.py
markdown_hook): each finding is logged as an error, which `mkdocs build --strict` counts even with -q (a warning
would be dropped there), and the hook runs before mkdocs-macros (priority 100) so it sees the macro calls."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from tools.build import lesson_pages as lp
from tools.guards import concept_order, notation, universal_claims

# One line each check must find: a term taught in lesson 3b (ALiBi) in lesson 1, θ used as an angle, and an
# uncited "all".
BAD = {
    concept_order: ("lessons/01-order-blind.md", "# 第 1 课\n\nALiBi 会在后面讲到。\n"),
    notation: ("lessons/04-rope.md", "# 第 4 课\n\n旋转角度 $m\\theta$ 随位置变大。\n"),
    universal_claims: ("lessons/06-partial-nope.md", "# 第 6 课\n\n所有主流模型都用 RoPE。\n"),
}


def page(src_uri: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri, abs_src_path=str(lp.DOCS / src_uri)))


@pytest.mark.parametrize("module", list(BAD), ids=lambda m: m.__name__)
def test_a_finding_is_an_error_with_the_file_and_line(module, caplog):
    src_uri, markdown = BAD[module]
    with caplog.at_level(logging.DEBUG):
        assert module.on_page_markdown(markdown, page=page(src_uri), config={}, files=None) == markdown
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert errors and all(f"docs/{src_uri}:3" in r.getMessage() for r in errors), caplog.text
    assert all(r.name == f"mkdocs.hooks.{module.__name__.split('.')[-1]}" for r in errors)


@pytest.mark.parametrize("module", list(BAD), ids=lambda m: m.__name__)
def test_a_clean_page_logs_nothing_and_the_hook_runs_before_the_macros(module, caplog):
    src_uri, _ = BAD[module]
    with caplog.at_level(logging.DEBUG):
        module.on_page_markdown("# 课\n\n位置编码告诉模型顺序。\n", page=page(src_uri), config={}, files=None)
    assert not caplog.records
    assert module.on_page_markdown.mkdocs_priority == 100


def test_check_files_reads_each_file_as_its_page_under_docs():
    seen = []
    lp.check_files([lp.DOCS / "lessons/04-rope.md"], lambda md, page, path: seen.append((page, path.name, md[:1])) or [])
    assert seen == [("lessons/04-rope.md", "04-rope.md", "#")]
