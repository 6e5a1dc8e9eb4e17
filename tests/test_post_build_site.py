"""The site-level post-build step (tools/build/post_build.py finish_site) on a tiny site folder written here, as a
generator other than MkDocs would leave it: what it writes, in which order, across the two languages' passes, and
that it runs where MkDocs cannot even be imported."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tools.build import csp, i18n, katex_fonts, post_build, search

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "var x = 1;"
PLACEHOLDER_META = f'<meta http-equiv="Content-Security-Policy" content="{csp.policy(csp.PLACEHOLDER)}">'
# what KaTeX's visible markup looks like in a page: θ drawn from KaTeX_Math-Italic
FORMULA = '<span class="katex-html" aria-hidden="true"><span class="mord mathnormal">θ</span></span>'


def page(body: str = "", script: str = SCRIPT) -> str:
    return (f'<html><head><meta charset="utf-8">{PLACEHOLDER_META}<script>{script}</script></head>'
            f"<body>{body}</body></html>")


def sha256_source(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def index(lang: str, docs: list[dict]) -> str:
    return json.dumps({"config": {"lang": [lang], "fields": {"title": {"boost": 1000}, "text": {"boost": 1}}}, "docs": docs})


def write(site: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")


ZH_PASS = {  # what the Chinese build writes: its pages, its search index and its 404 page at the root
    "index.html": page("首页"),
    "lessons/a/index.html": page("第一课", script="var zh = 2;"),
    "404.html": page("找不到"),
    "search/search_index.json": index("zh", [{"location": "lessons/a/", "title": "角频率 \\(\\omega_i\\)¶", "text": ""}]),
    "sitemap.xml": "<urlset/>",
}
EN_PASS = {  # then the English build into the same folder: its pages under en/, its index and 404 page at the root again
    "en/index.html": page("Home"),
    "en/lessons/a/index.html": page(f"Lesson one {FORMULA}", script="var en = 3;"),
    "404.html": page("Not found"),
    "search/search_index.json": index("en", [{"location": "en/lessons/a/", "title": "Frequency \\(\\omega_i\\)", "text": ""}]),
}


@pytest.fixture(scope="module")
def font_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("katex-fonts")  # shared: each set of characters is subset once


@pytest.fixture
def english_glossary(monkeypatch):
    monkeypatch.setattr(search, "glossary_tags", lambda: {})


def test_two_passes_leave_each_language_its_index_and_404_page_and_every_page_the_whole_policy(tmp_path, font_cache,
                                                                                                english_glossary):
    site, kept = tmp_path / "site", {}
    write(site, ZH_PASS)
    post_build.finish_site(site, "zh", script_sources=None, kept=kept, font_cache=font_cache,
                           notebook_css={"stylesheets/notebook.0123456789.css": "a{}\n"})
    # the Chinese pass: the policy waits for the English pages; the root's index (cleaned) and 404 page are kept
    assert csp.PLACEHOLDER in (site / "index.html").read_text(encoding="utf-8")
    assert json.loads(kept["search"])["docs"][0]["title"] == "角频率 ωᵢ"
    assert kept["404"] == ZH_PASS["404.html"].encode()
    assert (site / "stylesheets" / "notebook.0123456789.css").read_text(encoding="utf-8") == "a{}\n"
    write(site, EN_PASS)
    sources = " ".join(sorted(sha256_source(s) for s in (SCRIPT, "var zh = 2;", "var en = 3;")))
    post_build.finish_site(site, "en", script_sources=sources, kept=kept, font_cache=font_cache)
    # each language's index and 404 page in its own folder, the root keeping the Chinese ones
    assert (site / "search" / "search_index.json").read_bytes() == kept["search"]
    english = json.loads((site / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert english["docs"][0]["title"] == "Frequency ωᵢ" and english["config"]["pipeline"] == search.ENGLISH_PIPELINE
    assert "找不到" in (site / "404.html").read_text(encoding="utf-8")
    assert "Not found" in (site / "en" / "404.html").read_text(encoding="utf-8")
    assert (site / "en" / "sitemap.xml").read_text(encoding="utf-8") == "<urlset/>"
    # every page, the Chinese ones and both 404 pages included, lists every page's scripts
    for name in ("index.html", "lessons/a/index.html", "404.html", "en/index.html", "en/lessons/a/index.html", "en/404.html"):
        text = (site / name).read_text(encoding="utf-8")
        assert csp.PLACEHOLDER not in text and f"script-src 'self' {sources};" in text, name
    # the fonts were cut from every page in the folder: θ is drawn only by an English page
    assert "θ" in katex_fonts.cmap((site / katex_fonts.SITE_FONTS / "KaTeX_Math-Italic.woff2").read_bytes())


def test_the_pieces_run_in_the_builds_order(tmp_path, monkeypatch, font_cache):
    """Fonts, then the index cleaned before it moves, then the language's files moved, then the notebooks'
    stylesheets, then the policy (last, so that a 404 page moved into en/ gets it too)."""
    site = tmp_path / "site"
    write(site, ZH_PASS)
    calls = []
    for module, name in ((katex_fonts, "write_subsets"), (search, "clean_index"), (i18n, "separate_language"),
                         (post_build, "write_files"), (csp, "finish_site")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, _n=name, **k: calls.append(_n) or _f(*a, **k))
    post_build.finish_site(site, "zh", script_sources="'sha256-x'", font_cache=font_cache)
    assert calls == ["write_subsets", "clean_index", "separate_language", "write_files", "finish_site"]


def test_the_command_line_finishes_a_site_with_the_hashes_of_its_own_pages(tmp_path, capsys, monkeypatch, font_cache):
    monkeypatch.setattr(katex_fonts, "CACHE_DIR", font_cache)
    site = tmp_path / "site"
    write(site, {"index.html": page("首页"), "lessons/a/index.html": page(script="var zh = 2;"),
                 "data.html": page(script='{"a": 1}').replace("<script>", '<script type="application/json">')})
    assert post_build.main(["--site", str(site)]) == 0
    wanted = " ".join(sorted([sha256_source(SCRIPT), sha256_source("var zh = 2;")]))  # not the JSON: no browser runs it
    for name in ("index.html", "lessons/a/index.html"):
        assert f"script-src 'self' {wanted};" in (site / name).read_text(encoding="utf-8")
    assert "KaTeX fonts: cut to the" in capsys.readouterr().out
    assert (site / katex_fonts.SITE_FONTS / "KaTeX_Main-Regular.woff2").is_file()


def test_it_runs_where_mkdocs_cannot_be_imported(tmp_path, font_cache):
    site = tmp_path / "site"
    write(site, {"index.html": page("首页")})
    code = textwrap.dedent(f"""
        import sys
        sys.modules["mkdocs"] = None  # any `import mkdocs…` fails
        from pathlib import Path
        from tools.build import post_build
        post_build.finish_site(Path({str(site)!r}), "zh", script_sources="'sha256-x'", font_cache=Path({str(font_cache)!r}))
        """)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "script-src 'self' 'sha256-x';" in (site / "index.html").read_text(encoding="utf-8")


def test_no_site_folder_or_an_unknown_language_fails_naming_it(tmp_path):
    with pytest.raises(SystemExit, match=r"no site folder to finish"):
        post_build.finish_site(tmp_path / "missing", "zh", script_sources=None)
    with pytest.raises(ValueError, match="fr"):
        post_build.finish_site(tmp_path, "fr", script_sources=None)
    with pytest.raises(SystemExit):
        post_build.main([str(tmp_path / "index.html"), "--site", str(tmp_path)])  # a page or a site, not both
