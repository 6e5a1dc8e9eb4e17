"""The post-build step (tools/build/post_build.py): a page's HTML in, the site's HTML out, without MkDocs."""

from __future__ import annotations

import re

import pytest

from tools.build import post_build as pb

THEME_PAGE = ('<html><body><div data-md-component="progress" role="progressbar"></div>'
              '<div class="md-search" data-md-component="search" role="dialog"></div></body></html>')


@pytest.mark.parametrize("lang, dialog, progress", [("zh", "搜索", "页面加载进度"), ("en", "Search", "Page loading progress")])
def test_theme_fixes_name_the_search_dialog_and_the_progress_bar_in_the_pages_language(lang, dialog, progress):
    out = pb.theme_fixes(THEME_PAGE, "index.md", lang)
    assert f'role="dialog" aria-label="{dialog}"' in out
    assert f'role="progressbar" aria-label="{progress}"' in out


def test_a_theme_upgrade_that_changes_the_markup_fails_naming_the_page():
    with pytest.raises(SystemExit, match=r"lessons/04-rope.md: theme markup .*role=\\?\"dialog\\?\".* not found"):
        pb.theme_fixes(THEME_PAGE.replace('role="dialog"', 'role="search"'), "lessons/04-rope.md")


NOTEBOOK = """<div class="jp-Notebook">
<!-- Load mathjax -->
<script src=""></script><script type="text/x-mathjax-config">MathJax.Hub.Config({})</script>
<script type="module">import mermaid from "https://cdnjs.example/mermaid.esm.min.mjs";</script>
<!-- End of mermaid configuration -->
<style type="text/css">
.jp-Cell { margin: 0 }
</style>
<div class="highlight-ipynb hl-python"><pre><span>x = 1</span></pre></div>
<style type="text/css">.hll { color: red }</style>
<style>['.hll { color: red }']</style>
</div>"""


def test_a_notebook_page_loses_its_cdn_block_and_moves_its_styles_into_one_stylesheet():
    html, files = pb.notebook_page(NOTEBOOK, "notebooks/lesson3.ipynb", "notebooks/lesson3/")
    assert "cdnjs" not in html and "mathjax" not in html.lower() and "<style" not in html
    [(name, css)] = files.items()
    assert re.fullmatch(r"stylesheets/notebook\.[0-9a-f]{10}\.css", name)
    assert css == ".jp-Cell { margin: 0 }\n.hll { color: red }\n"
    assert f'<link rel="stylesheet" href="../../{name}">' in html  # relative to the page's folder
    assert '<div class="highlight-ipynb hl-python"><pre tabindex="0">' in html  # a wide cell scrolls by keyboard


def test_two_notebooks_with_the_same_styles_share_one_stylesheet():
    _, first = pb.notebook_page(NOTEBOOK, "notebooks/lesson3.ipynb", "notebooks/lesson3/")
    _, second = pb.notebook_page(NOTEBOOK.replace("x = 1", "y = 2"), "notebooks/lesson4.ipynb", "en/notebooks/lesson4/")
    assert first == second


def test_a_notebook_page_without_the_cdn_block_fails_naming_the_page():
    with pytest.raises(SystemExit, match="notebooks/lesson3.ipynb: mkdocs-jupyter's MathJax/mermaid block not found"):
        pb.notebook_page(NOTEBOOK.replace("<!-- Load mathjax -->", ""), "notebooks/lesson3.ipynb", "notebooks/lesson3/")


def test_write_files_writes_into_the_site(tmp_path):
    pb.write_files(tmp_path, {"stylesheets/notebook.0123456789.css": "a{}\n"})
    assert (tmp_path / "stylesheets" / "notebook.0123456789.css").read_text(encoding="utf-8") == "a{}\n"


def test_the_command_line_prints_a_pages_fixes(tmp_path, capsys):
    page = tmp_path / "index.html"
    page.write_text(THEME_PAGE, encoding="utf-8")
    assert pb.main([str(page), "--lang", "en"]) == 0
    assert 'aria-label="Search"' in capsys.readouterr().out
