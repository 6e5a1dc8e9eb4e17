"""Code in the reader's language (tools/build/code_i18n.py): the snippets and the notebooks' code are written once, in
Chinese, and the English edition shows and runs them with English comments, docstrings and printed labels.

No CJK character reaches the English edition's code or what it prints, except the example sentences' own
characters where a printed label says they are Chinese ("sentence (Chinese characters): …").
"""

from __future__ import annotations

import ast
import json
import re

import pytest

from site_support import ROOT
from tools.build import code_i18n

CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
SNIPPETS = sorted((ROOT / "docs" / "snippets").glob("*.py"))
EN_NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.en.ipynb"))


def example_characters() -> set[str]:
    """The characters of posenc.examples' text examples: the Chinese an English page may show, saying so."""
    from posenc import examples

    return {ch for v in vars(examples).values() if isinstance(v, str) for ch in v} | {
        ch for v in vars(examples).values() if isinstance(v, tuple) for s in v if isinstance(s, str) for ch in s}


def test_translate_replaces_each_chinese_comment_and_string_and_nothing_else():
    source = 'x = "ok"  # 说明\nprint("长度:", len(x), f"{x}！")\n'
    table = {"# 说明": "# a note", '"长度:"': '"length:"', 'f"{x}！"': 'f"{x}!"'}
    assert code_i18n.translate(source, table, "docs/snippets/t.py") == (
        'x = "ok"  # a note\nprint("length:", len(x), f"{x}!")\n')


def test_a_docstring_over_several_lines_is_one_entry():
    source = 'def f():\n    """第一行\n    第二行"""\n    return 1\n'
    out = code_i18n.translate(source, {'"""第一行\n    第二行"""': '"""Line one.\n    Line two."""'}, "t.py")
    assert out == 'def f():\n    """Line one.\n    Line two."""\n    return 1\n'


def test_a_token_with_no_entry_is_an_error_naming_the_file_the_token_and_the_table():
    with pytest.raises(code_i18n.MissingWords, match=r"(?s)docs/snippets/t\.py: no English for 1 .*snippets/strings/en\.yaml.*# 新注释"):
        code_i18n.translate("x = 1  # 新注释\n", {}, "docs/snippets/t.py")


def test_chinese_source_is_the_source_itself():
    path = SNIPPETS[0]
    assert code_i18n.snippet(path, "zh") == path.read_text(encoding="utf-8")


def test_the_english_tables_cover_every_snippet_and_notebook_and_hold_nothing_stale():
    missing, unused = code_i18n.problems("en")
    assert not missing, f"Chinese comments or strings with no English (python -m tools.build.code_i18n --stub): {missing}"
    assert not unused, f"table entries no code uses any more: {unused}"


def test_a_stale_entry_is_reported(tmp_path, monkeypatch):
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "a.py").write_text("x = 1  # 注释\n", encoding="utf-8")
    (tmp_path / "strings").mkdir()
    (tmp_path / "strings" / "en.yaml").write_text("a.py:\n  '# 注释': '# note'\n  '# 旧的': '# old'\nb.py: {}\n", encoding="utf-8")
    monkeypatch.setattr(code_i18n, "SNIPPETS", tmp_path / "snippets")
    monkeypatch.setattr(code_i18n, "ROOT", tmp_path)
    monkeypatch.setattr(code_i18n, "TABLES", {"snippets": tmp_path / "strings", "notebooks": tmp_path / "nb"})
    monkeypatch.setattr(code_i18n, "notebook_sources", lambda: {})
    missing, unused = code_i18n.problems("en")
    assert missing == {}
    assert unused == ["strings/en.yaml a.py: '# 旧的'", "strings/en.yaml: b.py is no source"]


def test_an_english_value_that_is_still_chinese_is_refused(tmp_path, monkeypatch):
    (tmp_path / "strings").mkdir()
    (tmp_path / "strings" / "en.yaml").write_text("a.py:\n  '# 注释': '# 注释 note'\n", encoding="utf-8")
    monkeypatch.setattr(code_i18n, "ROOT", tmp_path)
    monkeypatch.setattr(code_i18n, "TABLES", {"snippets": tmp_path / "strings", "notebooks": tmp_path / "nb"})
    with pytest.raises(ValueError, match="not en text"):
        code_i18n.table("snippets", "a.py", "en")


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: p.name)
def test_each_english_snippet_is_python_with_no_cjk(path):
    english = code_i18n.snippet(path, "en")
    ast.parse(english)
    assert not CJK.search(english), CJK.findall(english)[:10]
    assert english != path.read_text(encoding="utf-8") or not CJK.search(path.read_text(encoding="utf-8"))


def test_the_source_language_code_becomes_the_editions():
    """examples.texts("zh") in the Chinese code reads texts("en") in the English code; nothing else named zh changes."""
    source = 'a = ex.texts("zh")  # "zh"\nb = "zh-cn"\n'
    assert code_i18n.localise(source, "snippets", "none.py", "en") == 'a = ex.texts("en")  # "zh"\nb = "zh-cn"\n'
    assert code_i18n.localise(source, "snippets", "none.py", "zh") == source


def test_english_snippets_print_no_cjk_and_the_same_numbers(tmp_path):
    """Run both editions of every snippet: the English prints no Chinese, and the numbers the Chinese code prints when
    it runs on the English edition's examples (texts("en")): only the words differ. A snippet that takes no
    edition's examples prints the same numbers in both."""
    import os
    import subprocess
    import sys

    from tools.build import macros

    numbers = re.compile(r"\d+(?:[.,]\d+)*(?:e[-+]?\d+)?")
    code = tmp_path / "code"
    code.mkdir()
    for path in SNIPPETS:  # the Chinese code, its examples the English edition's
        (code / path.name).write_text(code_i18n._edition(path.read_text(encoding="utf-8"), "en"), encoding="utf-8")
    takes_examples = {p for p in SNIPPETS if 'texts("zh")' in p.read_text(encoding="utf-8")}
    rerun = [p for p in SNIPPETS if takes_examples & {p, *macros.snippet_imports(p)}]
    # as `python snippet.py` in that folder would, with one import of torch for all of them (the build's runner)
    out = tmp_path / "out"
    out.mkdir()
    run = subprocess.run([sys.executable, "-m", "tools.build.snippet_runner", str(out), *(str(code / p.name) for p in rerun)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0"))
    assert run.returncode == 0, run.stderr
    for path in SNIPPETS:
        zh, en = macros.run_snippet(path, "zh"), macros.run_snippet(path, "en")
        assert not CJK.search(en), f"{path.name} prints Chinese in English: {[l for l in en.splitlines() if CJK.search(l)][:3]}"
        if path in rerun:
            assert (out / f"{path.stem}.exit").read_text() == "0", (out / f"{path.stem}.err").read_text()
            zh = (out / f"{path.stem}.out").read_text(encoding="utf-8")
        assert numbers.findall(CJK.sub(" ", zh)) == numbers.findall(en), path.name


@pytest.mark.parametrize("notebook", EN_NOTEBOOKS, ids=lambda p: p.name)
def test_english_notebook_code_has_no_cjk_outside_the_labelled_examples(notebook):
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    chinese = [line for cell in code for line in cell.splitlines() if CJK.search(line)]
    assert not chinese, f"{notebook.name}: {chinese[:5]}"
    assert code, notebook.name


def test_the_examples_may_appear_only_as_examples():
    # the allowance below is the example sentences' characters, not Chinese in general
    allowed = example_characters()
    assert allowed and "的" not in allowed and "位" not in allowed


@pytest.mark.build
def test_english_pages_show_no_cjk_outside_the_deliberate_places(site_dir):
    """The rendered English site: no CJK in any English page's article, code blocks and their printed output
    included, except the glossary's Chinese column, the citation's original title, and the example sentences'
    characters (which the pages show only as labelled Chinese)."""
    from html.parser import HTMLParser

    allowed = example_characters()

    class Text(HTMLParser):
        SKIP = {"script", "style", "svg"}

        def __init__(self):
            super().__init__()
            self.depth, self.article, self.lang_zh, self.out = 0, 0, 0, []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "article" or self.article:
                self.article += 1
            if self.article and (tag in self.SKIP or a.get("lang", "").startswith("zh") or self.lang_zh):
                self.lang_zh += 1

        def handle_endtag(self, tag):
            if self.article:
                self.article -= 1
            if self.lang_zh:
                self.lang_zh -= 1

        def handle_data(self, data):
            if self.article and not self.lang_zh:
                self.out.append(data)

    found = {}
    for page in sorted((site_dir / "en").rglob("index.html")):
        rel = page.relative_to(site_dir).as_posix()
        if rel.startswith("en/glossary/"):
            continue  # the bilingual glossary: its Chinese column is the point
        parser = Text()
        parser.feed(page.read_text(encoding="utf-8"))
        text = "\n".join(parser.out)
        text = re.sub(r"origtitle\s*=\s*\{\{[^}]*\}\}", "", text)  # the citation's original (Chinese) title, said so on the page
        bad = sorted({ch for ch in CJK.findall(text) if ch not in allowed})
        if bad:
            lines = [line.strip()[:100] for line in text.splitlines() if any(ch in line for ch in bad)]
            found[rel] = lines[:4]
    assert not found, f"Chinese on English pages: {found}"
