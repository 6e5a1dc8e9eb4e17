"""The Zensical canary (tools/scripts/zensical_canary.py) reports what it saw: whether Zensical installed (and why not),
whether it built, the pages it built and missed, and the text differences on three lessons; it succeeds only
when nothing is missing or different. The index and the installer are replaced here by a stand-in Zensical (a
console script that writes given pages where mkdocs.yml's site_dir points), so no test needs the network."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tools.scripts import zensical_canary as canary


def page(*paragraphs: str, script: str = "") -> str:
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    return (f'<html><head><meta name="generator" content="x"><script>{script}</script></head><body><nav>菜单</nav>'
            f'<article class="md-content__inner">\n<h1>标题</h1>\n{body}</article><footer>页脚</footer></body></html>')


def site(folder: Path, pages: dict[str, str]) -> Path:
    for name, html in pages.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(html, encoding="utf-8")
    return folder


REFERENCE = {
    "index.html": page("首页"),
    "references/index.html": page("参考"),
    **{lesson: page("第一句。", "第二句。", "第三句。") for lesson in canary.THREE_LESSONS},
}


def stand_in(target: Path, pages: dict[str, str]) -> None:
    """A package with a `zensical` console script that, run as `zensical build -f mkdocs.yml`, imports posenc (as
    the macros would) and writes ``pages`` into the site_dir the canary appended to the copy's mkdocs.yml."""
    package = target / "standin_zensical"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(f"""
        import json, re, sys
        from pathlib import Path

        def main():
            assert sys.argv[1:] == ["build", "-f", "mkdocs.yml"], sys.argv
            import posenc  # the project's copy is on the path
            config = Path("mkdocs.yml").read_text(encoding="utf-8")
            site = Path(json.loads(re.findall(r"^site_dir: (.+)$", config, re.M)[-1]))
            for name, html in json.loads({json.dumps(json.dumps(pages))}).items():
                (site / name).parent.mkdir(parents=True, exist_ok=True)
                (site / name).write_text(html, encoding="utf-8")
            print("stand-in: built", len(json.loads({json.dumps(json.dumps(pages))})), "pages")
            return 0
        """), encoding="utf-8")
    dist = target / "standin_zensical-0.1.9.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text("[console_scripts]\nzensical = standin_zensical:main\n", encoding="utf-8")


def run(tmp_path, monkeypatch, built_pages: dict[str, str] | None) -> tuple[int, str, dict]:
    """main() with the index offering 0.2.0 and 0.1.9, of which only 0.1.9 (the stand-in) installs, or none."""
    monkeypatch.setattr(canary, "index_versions", lambda package=canary.PACKAGE: ["0.2.0", "0.1.9"])

    def install(target: Path, versions: list[str], tries: int) -> list[canary.Attempt]:
        assert versions == ["0.2.0", "0.1.9"] and tries == 3
        failed = canary.Attempt("0.2.0", False, "No matching distribution found for zensical-ui==0.0.50")
        if built_pages is None:
            return [failed, canary.Attempt("0.1.9", False, "No matching distribution found for zensical-ui==0.0.49")]
        stand_in(target, built_pages)
        return [failed, canary.Attempt("0.1.9", True)]

    monkeypatch.setattr(canary, "install", install)
    reference = site(tmp_path / "reference", REFERENCE)
    out = tmp_path / "report"
    code = canary.main(["--reference", str(reference), "--out", str(out)])
    return code, (out / "report.md").read_text(encoding="utf-8"), json.loads((out / "report.json").read_text(encoding="utf-8"))


def test_a_release_that_builds_every_page_with_the_same_text_is_ready(tmp_path, monkeypatch):
    built = {name: html.replace('content="x"', 'content="zensical"') for name, html in REFERENCE.items()}
    code, report, data = run(tmp_path, monkeypatch, built)
    assert code == 0, report
    assert "- zensical 0.2.0: does not install: No matching distribution found for zensical-ui==0.0.50" in report
    assert "- installs: yes, 0.1.9" in report and "- build: done" in report
    assert f"- pages built: {len(REFERENCE)} of the reference's {len(REFERENCE)}" in report and "- pages missing: 0" in report
    assert "Ready by these measures: yes." in report
    assert data["ready"] is True and data["installed"] == "0.1.9" and data["newest"] == "0.2.0"
    assert "- generator-neutral steps: post-build (tools/build/post_build.py --site)" in report


def test_the_post_build_step_runs_on_zensicals_site_and_its_failure_is_a_failed_build(tmp_path, monkeypatch):
    built = {name: html.replace("</body>", '<span class="katex-html" aria-hidden="true">θ</span></body>')
             for name, html in REFERENCE.items()}
    seen = {}
    original = canary.compare

    def compare(report, reference, site):  # the site is a temporary folder: look at it before it goes
        seen["fonts"] = sorted(p.name for p in (site / "vendor" / "katex" / "fonts").glob("*.woff2"))
        original(report, reference, site)

    monkeypatch.setattr(canary, "compare", compare)
    code, report, _ = run(tmp_path, monkeypatch, built)
    assert code == 0, report
    assert "KaTeX_Math-Italic.woff2" in seen["fonts"]  # the post-build step cut KaTeX's fonts in Zensical's site
    # a search index that is not Material's shape: the step fails, and the report says so with its output
    built["search/search_index.json"] = "{}"
    code, report, data = run(tmp_path / "again", monkeypatch, built)
    assert code == 1 and data["built"] is False and "- build: failed" in report
    assert "post-build (tools/build/post_build.py --site) failed (exit status 1):" in report and "KeyError" in report


def test_missing_pages_and_changed_sentences_are_named(tmp_path, monkeypatch):
    built = {name: html for name, html in REFERENCE.items() if name != "references/index.html"}
    built[canary.THREE_LESSONS[1]] = page("第一句。", "第二句有变。", "第三句。")
    built["extra/index.html"] = page("多出来的")
    code, report, data = run(tmp_path, monkeypatch, built)
    assert code == 1
    assert f"- pages built: {len(REFERENCE) - 1} of the reference's {len(REFERENCE)}" in report
    assert "- pages missing: 1 (references/index.html)" in report
    assert "- pages only Zensical wrote: 1 (extra/index.html)" in report
    assert f"- text of {canary.THREE_LESSONS[0]}: 0 differing lines" in report
    assert f"- text of {canary.THREE_LESSONS[1]}: 2 differing lines" in report
    assert "- only in ProperDocs': 第二句。" in report and "+ only in Zensical's: 第二句有变。" in report
    assert data["ready"] is False


def test_when_nothing_installs_the_report_says_why_and_measures_nothing(tmp_path, monkeypatch):
    code, report, data = run(tmp_path, monkeypatch, None)
    assert code == 1
    assert "- zensical 0.1.9: does not install: No matching distribution found for zensical-ui==0.0.49" in report
    assert "- installs: no" in report and "- build: not run (nothing installed)" in report
    assert "not measured (no Zensical build)" in report and "Ready by these measures: no." in report
    assert data["installed"] is None and data["built"] is None and data["ready"] is False


def test_article_text_is_what_a_reader_sees_in_the_article():
    html = page("位置 <b>编码</b>", "a&lt;b", script="var x = 1;")
    html = html.replace("</article>", "<math><annotation>x^2</annotation></math><ul><li>一</li><li>二</li></ul></article>")
    assert canary.article_text(html) == ["标题", "位置 编码", "a<b", "一", "二"]


def test_why_not_names_pips_reason():
    log = ("Collecting zensical==0.1.4\nERROR: Could not find a version that satisfies the requirement zensical-ui==0.0.44 "
           "(from zensical) (from versions: none)\nERROR: No matching distribution found for zensical-ui==0.0.44\n")
    assert canary.why_not(log) == ("Could not find a version that satisfies the requirement zensical-ui==0.0.44 "
                                   "(from zensical) (from versions: none)")
    assert canary.why_not("") == "pip failed without a message"


def test_a_reference_that_is_not_a_built_site_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        canary.main(["--reference", str(tmp_path), "--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert "no built site there; run `make build` first" in capsys.readouterr().err
