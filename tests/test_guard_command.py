"""The prose guards' shared command line (tools/build/lesson_pages.command): findings printed, counted, exit 1."""

from __future__ import annotations

import pytest

from tools.build import lesson_pages
from tools.guards import concept_order, notation, prose_lint, universal_claims


def test_findings_are_printed_and_counted_and_fail(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("x", encoding="utf-8")
    main = lesson_pages.command("demo", lambda paths: [f"{paths[0].name}:1: one", f"{paths[0].name}:2: two"],
                                lambda: [], "{n} thing(s) wrong; fix them")
    assert main([str(page)]) == 1
    assert capsys.readouterr().out.splitlines() == ["page.md:1: one", "page.md:2: two", "", "2 thing(s) wrong; fix them"]


def test_a_clean_run_says_how_many_pages_it_read(capsys):
    main = lesson_pages.command("demo", lambda paths: [], lambda: ["a.md", "b.md", "c.md"], "{n} wrong")
    assert main([]) == 0
    assert capsys.readouterr().out.strip() == "demo: 3 page(s) clean"


@pytest.mark.parametrize("guard", [prose_lint, concept_order, notation, universal_claims])
def test_each_guard_runs_on_a_named_clean_page(guard, capsys):
    assert guard.main([str(lesson_pages.DOCS / "index.md")]) == 0
    assert capsys.readouterr().out.strip().endswith(": 1 page(s) clean")
