"""Links the page template (overrides/) adds to the built site: each notebook page offers its .ipynb
(download, open in Colab), each page a 报告错误 link that opens a GitHub issue naming the page."""

import html
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from site_support import ROOT

pytestmark = pytest.mark.build

NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))
A_TAG = re.compile(r"<a\b[^>]*>", re.S)


def setting(name: str) -> str:
    return re.search(rf"^{name}:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1)


def attrs(tag: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'(\w[\w-]*)="([^"]*)"', tag)}


def links(page: Path) -> list[dict[str, str]]:
    return [attrs(t) for t in A_TAG.findall(page.read_text(encoding="utf-8"))]


def content_pages(site_dir: Path) -> list[Path]:
    """Every page built from a file in docs/ (Material's 404 page is not one)."""
    return [p for p in sorted(site_dir.rglob("index.html")) if 'class="md-content__inner' in p.read_text(encoding="utf-8")]


def page_for(source: str, lang: str = "zh") -> str:
    """Where MkDocs (use_directory_urls) writes the page for docs/<source> in the ``lang`` edition (the English
    one under en/, from docs/<page>.en.md or, until that exists, from the Chinese source; tools/build/i18n.py)."""
    stem = source.removeprefix("docs/").rsplit(".", 1)[0].removesuffix(".en")
    page = "index.html" if stem == "index" else f"{stem.removesuffix('/index')}/index.html"
    return page if lang == "zh" else f"{lang}/{page}"


# The report link's words in each edition (tools/build/i18n.py UI: report_title, report_body).
REPORT = {"zh": ("报告错误", "报告错误：", "源文件："), "en": ("Report an error", "Report an error: ", "Source file: ")}


def test_every_notebook_page_offers_its_ipynb(site_dir):
    owner_repo = setting("repo_url").removeprefix("https://github.com/").rstrip("/")
    assert NOTEBOOKS
    for nb in NOTEBOOKS:
        # lessonN.ipynb on notebooks/lessonN/; lessonN.en.ipynb on en/notebooks/lessonN/, downloaded as lessonN.ipynb
        stem, _, lang = nb.stem.partition(".")
        page = site_dir / page_for(f"docs/notebooks/{stem}.ipynb", lang or "zh")
        found = links(page)
        (download,) = [a for a in found if a.get("download") is not None]
        assert download["href"] == f"{stem}.ipynb" and download["download"] == f"{stem}.ipynb"
        # the file the link points to is the notebook as the build ran it, pinned to the build's commit
        # (tools/build/notebook_download.py): the same cells, every code cell with its outputs
        commit = json.loads((site_dir / "notebooks" / "build.json").read_text(encoding="utf-8"))["commit"]
        assert re.fullmatch(r"[0-9a-f]{40}", commit or ""), "the test build knows its commit (git rev-parse HEAD)"
        got, source = (json.loads(p.read_text(encoding="utf-8"))["cells"] for p in (page.parent / download["href"], nb))
        assert ["".join(c["source"]) for c in got] == [
            "".join(c["source"]).replace("COMMIT = None", f'COMMIT = "{commit}"', 1 if i == 1 else 0) for i, c in enumerate(source)]
        assert all(c["outputs"] for c in got if c["cell_type"] == "code"), f"{nb.name}: a code cell without outputs"
        colab = f"https://colab.research.google.com/github/{owner_repo}/blob/{commit}/docs/notebooks/{nb.name}"
        assert [a for a in found if a.get("href") == colab], f"{page}: no Colab link {colab}"


def test_only_notebook_pages_have_notebook_links(site_dir):
    for page in content_pages(site_dir):
        has = any("colab.research.google.com" in a.get("href", "") for a in links(page))
        assert has == (page.parent.parent.name == "notebooks"), page


def test_every_page_has_a_report_link_naming_its_source(site_dir):
    repo = setting("repo_url").rstrip("/")
    site = setting("site_url")
    pages = content_pages(site_dir)
    assert len(pages) >= len(NOTEBOOKS) + len(list((ROOT / "docs" / "lessons").glob("*.md")))
    for page in pages:
        rel = page.relative_to(site_dir).as_posix()
        lang = "en" if rel.startswith("en/") else "zh"
        label, title_head, body_head = REPORT[lang]
        (report,) = [a for a in links(page) if a.get("href", "").startswith(repo + "/issues/new?")]
        assert report["aria-label"] == label
        query = parse_qs(urlsplit(report["href"]).query)
        (title,), (body,) = query["title"], query["body"]
        source = title.removeprefix(title_head)
        assert source != title and (ROOT / source).is_file(), (rel, title)
        assert page_for(source, lang) == rel, (rel, source)
        assert f"{body_head}{source}" in body and site + rel.removesuffix("index.html") in body, (rel, body)
