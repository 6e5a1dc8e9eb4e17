"""CITATION.cff is valid CFF 1.2.0, agrees with mkdocs.yml and pyproject.toml, and tools/build/citation.py
turns it (and any CFF) into a correct BibTeX entry."""

import datetime as dt
import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

from tools.build import citation

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "tests" / "data" / "cff-1.2.0.schema.json"  # the official schema, see tests/data/NOTICE.md


@pytest.fixture(scope="module")
def cff() -> dict:
    return citation.load(ROOT / "CITATION.cff")


def mkdocs_setting(name: str) -> str:
    # mkdocs.yml holds !ENV tags that safe_load refuses; the top-level scalars are plain lines
    return re.search(rf"^{name}:\s*(\S.*)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1).strip()


def test_citation_cff_is_valid_cff_1_2_0(cff):
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(cff, schema, format_checker=jsonschema.FormatChecker())


def test_the_schema_check_would_catch_an_invalid_file(cff):
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for broken in ({k: v for k, v in cff.items() if k != "authors"}, {**cff, "date-released": "3 Dec 2026"}, {**cff, "licence": "MIT"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema, format_checker=jsonschema.FormatChecker())


def test_citation_cff_agrees_with_the_site_and_the_package(cff):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert cff["repository-code"] == mkdocs_setting("repo_url")
    assert cff["url"] == mkdocs_setting("site_url")
    assert citation.site_names()["en"] in cff["title"]
    assert cff["version"] == project["version"]
    assert cff["license"] == project["license"] == "MIT"
    assert cff["authors"] == [{"name": "posenc contributors"}]
    dt.date.fromisoformat(cff["date-released"])


CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def test_the_cff_title_is_english_and_the_site_names_are_read_from_mkdocs_yml(cff):
    # an English LaTeX document on pdflatex cannot set a Chinese title; GitHub's "Cite this repository" shows this one
    assert not CJK.search(cff["title"]), cff["title"]
    names = citation.site_names()
    assert names == {"zh": mkdocs_setting("site_name"), "en": "Position: how a model knows word order"}
    assert citation.original_title(cff, names) == "posenc · " + mkdocs_setting("site_name")


def test_the_original_title_needs_the_english_name_in_the_cff_title():
    with pytest.raises(ValueError, match="English site name"):
        citation.original_title({"title": "posenc · Something else"}, {"zh": "位置", "en": "Position"})


def test_the_english_entry_is_english_with_the_chinese_title_as_origtitle(cff):
    en = dict(re.findall(r"^  (\w+) = (.*),$", citation.bibtex_entry(lang="en"), re.M))
    zh = dict(re.findall(r"^  (\w+) = (.*),$", citation.bibtex_entry(lang="zh"), re.M))
    assert en["title"] == "{{posenc · Position: how a model knows word order}}"
    assert en["origtitle"] == "{{posenc · " + mkdocs_setting("site_name") + "}}"
    assert [k for k, v in en.items() if CJK.search(v)] == ["origtitle"]
    assert zh["title"] == en["origtitle"] and "origtitle" not in zh
    assert {k: v for k, v in zh.items() if k != "title"} == {k: v for k, v in en.items() if k not in ("title", "origtitle")}
    with pytest.raises(ValueError, match=r"unknown language 'fr'; the course's languages are zh, en \(posenc/formatting.py\)"):
        citation.bibtex_entry(lang="fr")


def test_bibtex_of_citation_cff(cff):
    entry = citation.bibtex_entry()
    year = cff["date-released"][:4]
    assert entry.startswith(f"@software{{posenc{year},\n") and entry.endswith("\n}")
    fields = dict(re.findall(r"^  (\w+) = (.*),$", entry, re.M))
    assert fields == {
        "author": "{{posenc contributors}}",
        "title": "{{" + cff["title"] + "}}",
        "origtitle": "{{posenc · " + mkdocs_setting("site_name") + "}}",
        "year": "{" + year + "}",
        "month": "dec",
        "version": "{" + cff["version"] + "}",
        "url": "{" + mkdocs_setting("site_url") + "}",
        "repository": "{" + mkdocs_setting("repo_url") + "}",
        "license": "{MIT}",
    }


def test_bibtex_names_escaping_and_fields():
    cff = {
        "cff-version": "1.2.0",
        "message": "cite me",
        "title": "Rotary & 50% {faster} ~x^2 #1 a_b \\o",
        "authors": [
            {"family-names": "Su", "given-names": "Jianlin"},
            {"family-names": "Beethoven", "name-particle": "van", "given-names": "Ludwig", "name-suffix": "Jr"},
            {"name": "The_Team"},
            {"alias": "anon"},
        ],
        "date-released": dt.date(2021, 4, 20),
        "version": 1.5,
        "doi": "10.1000/xyz_1",
        "license": ["MIT", "Apache-2.0"],
        "repository-code": "https://github.com/a/b_c",
    }
    assert citation.bibtex(cff) == (
        "@software{b_c2021,\n"
        "  author = {Su, Jianlin and van Beethoven, Jr, Ludwig and {The\\_Team} and {anon}},\n"
        "  title = {{Rotary \\& 50\\% \\{faster\\} \\textasciitilde{}x\\textasciicircum{}2 \\#1 a\\_b \\textbackslash{}o}},\n"
        "  year = {2021},\n"
        "  month = apr,\n"
        "  version = {1.5},\n"
        "  doi = {10.1000/xyz_1},\n"
        "  url = {https://github.com/a/b_c},\n"
        "  license = {MIT OR Apache-2.0},\n"
        "}"
    )
    assert citation.bibtex(cff, key="rope").startswith("@software{rope,\n")


def test_bibtex_load_keeps_an_unquoted_date(tmp_path):
    f = tmp_path / "CITATION.cff"
    f.write_text("cff-version: 1.2.0\nmessage: m\ntitle: T\nauthors:\n  - name: X\ndate-released: 2024-02-29\n")
    assert citation.load(f)["date-released"] == "2024-02-29"
    assert "  month = feb,\n" in citation.bibtex(citation.load(f))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cff-version": "1.1.0"}, "cff-version"),
        ({"title": ""}, "'title'"),
        ({"authors": []}, "'authors'"),
        ({"authors": [{"affiliation": "nowhere"}]}, "family-names, name or alias"),
        ({"date-released": "20 April 2021"}, "YYYY-MM-DD"),
    ],
)
def test_bad_cff_is_a_clear_error(change, message):
    cff = {"cff-version": "1.2.0", "message": "m", "title": "T", "authors": [{"name": "X"}], **change}
    with pytest.raises(ValueError, match=re.escape(message)):
        citation.bibtex(cff)


def test_load_rejects_a_file_that_is_not_a_mapping(tmp_path):
    f = tmp_path / "CITATION.cff"
    f.write_text("- just\n- a list\n")
    with pytest.raises(ValueError, match="mapping"):
        citation.load(f)


def test_the_entry_has_balanced_braces():
    # the home page embeds the entry in a code block: it must be one well-formed BibTeX record
    entry = citation.bibtex_entry()
    depth = 0
    for ch in entry.replace("\\{", "").replace("\\}", ""):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
