"""Math set at build time (tools/build/katex_render.py): what counts as a formula, what is left alone, the cache,
and a formula KaTeX cannot parse failing the build with its page and its TeX."""

from __future__ import annotations

import json

import pytest
from mkdocs.exceptions import PluginError

from tools.build import katex_render as kr


def fake(tex: str, display: bool) -> str:
    return f"[{'D' if display else 'I'}:{tex}]"


@pytest.mark.parametrize("text, pieces", [
    ("no math here", [("text", "no math here", False)]),
    ("a $x$ b", [("text", "a ", False), ("math", "x", False), ("text", " b", False)]),
    ("$$x^2$$", [("math", "x^2", True)]),
    (r"\(a\) and \[b\]", [("math", "a", False), ("text", " and ", False), ("math", "b", True)]),
    # a brace group may hold the right delimiter; a backslash escapes the next character
    (r"$\text{$}$ $a\$b$", [("math", r"\text{$}", False), ("text", " ", False), ("math", r"a\$b", False)]),
    (r"\[\begin{aligned}a&=b\end{aligned}\]", [("math", r"\begin{aligned}a&=b\end{aligned}", True)]),
    # a left delimiter with no right one: the rest is text
    ("costs $5 each", [("text", "costs ", False), ("text", "$5 each", False)]),
])
def test_split_math_follows_katex_auto_render(text, pieces):
    assert kr.split_math(text) == pieces


def test_render_page_sets_the_body_and_leaves_code_scripts_attributes_and_head_alone():
    page = ("<html><head><title>$t$</title></head><body>"
            '<p title="$a$">x &lt; \\(y &amp; z\\) &para;</p>'
            "<pre><code>echo $HOME $PATH</code></pre><script>let a = '$b$';</script>"
            "<div class=\"arithmatex\">\\[\nq\n\\]</div><img alt=\"$c$\"/><p>$d$</p></body></html>")
    out, count = kr.render_page(page, fake, "x.md")
    assert count == 3
    assert "<title>$t$</title>" in out and 'title="$a$"' in out and 'alt="$c$"' in out
    assert "<pre><code>echo $HOME $PATH</code></pre>" in out and "let a = '$b$';" in out
    assert "<p title=\"$a$\">x &lt; [I:y & z] ¶</p>" in out  # the text around a formula is escaped again
    assert '<div class="arithmatex">[D:\nq\n]</div>' in out and "<p>[I:d]</p>" in out


def test_a_formula_katex_cannot_parse_fails_the_build_naming_page_and_formula(tmp_path):
    renderer = kr.Renderer(cache_dir=tmp_path)
    try:
        with pytest.raises(PluginError, match=r"lessons/x\.md: KaTeX cannot render the formula '\\\\fracc\{a\}'.*Undefined control sequence"):
            kr.render_page(r"<body><p>\(\fracc{a}\)</p></body>", renderer.render, "lessons/x.md")
    finally:
        renderer.close(save=False)


def test_rendered_formulas_are_cached_by_content(tmp_path, monkeypatch):
    renderer = kr.Renderer(cache_dir=tmp_path)
    html = renderer.render(r"\omega_i", False)
    assert html.startswith('<span class="katex"><span class="katex-mathml"><math') and "<mi>ω</mi>" in html
    assert "application/x-tex" not in html  # the TeX source is not shipped inside the MathML (katex_render.mjs)
    display = renderer.render(r"\omega_i", True)
    assert display.startswith('<span class="katex-display">')
    renderer.close(save=True)
    saved = json.loads(renderer.cache_file.read_text(encoding="utf-8"))
    assert set(saved) == {"I\\omega_i", "D\\omega_i"}

    again = kr.Renderer(cache_dir=tmp_path)
    monkeypatch.setattr(again, "_ask", lambda *a: pytest.fail("a cached formula started KaTeX"))
    assert again.render(r"\omega_i", False) == html
    again.close(save=True)
    assert again.rendered == 0


def test_a_page_only_rebuild_keeps_the_formulas_of_the_other_pages(tmp_path, monkeypatch):
    first = kr.Renderer(cache_dir=tmp_path)
    first.render(r"\omega_i", False)
    first.render(r"\theta", False)
    first.close(save=True)

    # `mkdocs serve` builds one page again (tools/build/serve_pages.py): it uses one cached formula and draws a new one
    page_only = kr.Renderer(cache_dir=tmp_path)
    monkeypatch.setattr(page_only, "_ask", lambda tex, display: {"html": f"<b>{tex}</b>"})
    page_only.render(r"\omega_i", False)
    page_only.render(r"\phi", False)
    page_only.close(save=True, prune=False)
    assert set(json.loads(page_only.cache_file.read_text(encoding="utf-8"))) == {"I\\omega_i", "I\\theta", "I\\phi"}

    # a whole site's build keeps only what it used
    site = kr.Renderer(cache_dir=tmp_path)
    site.render(r"\phi", False)
    site.close(save=True)
    assert set(json.loads(site.cache_file.read_text(encoding="utf-8"))) == {"I\\phi"}
