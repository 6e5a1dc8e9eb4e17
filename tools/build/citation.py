"""The course's citation as a BibTeX entry, generated from CITATION.cff (the one source).

    python -m tools.build.citation [en|zh]    # print the entry of the English (default) or the Chinese page

No CFF converter is installed (cffconvert, pybtex), and the mapping needed here is small: a
@software entry (biblatex; plain BibTeX styles ignore the fields they do not know), as GitHub's
"Cite this repository" also produces. Authors follow BibTeX's name syntax: a person is
"von Last, Jr, First"; an entity (a team, "posenc contributors") is braced so that BibTeX does not
split it into first and last names.

The course was written in Chinese. CITATION.cff's title is the English edition's name; the original Chinese
title is the Chinese site's name (mkdocs.yml site_name). The English page's entry carries it as biblatex's
``origtitle`` (which the standard styles do not print, so pdflatex documents still compile); the Chinese
page's entry has it as the title.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

from posenc import _yaml
from posenc.formatting import LANGUAGES, check_language

ROOT = Path(__file__).resolve().parents[2]
CFF = ROOT / "CITATION.cff"
MKDOCS = ROOT / "mkdocs.yml"

_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def escape(text: str) -> str:
    """Text as BibTeX/LaTeX reads it literally (one pass, so an inserted brace is not escaped again)."""
    return re.sub(r"[\\&%$#_{}~^]", lambda m: _ESCAPES[m.group()], text)


def load(path: Path = CFF) -> dict:
    """CITATION.cff as a dict; a date written without quotes (YAML reads it as a date) is kept as text."""
    data = _yaml.load_file(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a YAML mapping of CFF keys, got {type(data).__name__}")
    return {k: v.isoformat() if isinstance(v, dt.date) else v for k, v in data.items()}


def bibtex_name(person: dict) -> str:
    """One CFF author (person or entity) in BibTeX's name syntax."""
    if "family-names" in person:
        last = " ".join(p for p in (person.get("name-particle"), person["family-names"]) if p)
        given, suffix = person.get("given-names", ""), person.get("name-suffix")
        if suffix:
            return escape(f"{last}, {suffix}, {given}".rstrip())
        return escape(f"{last}, {given}" if given else last)
    name = person.get("name") or person.get("alias")
    if not name:
        raise ValueError(f"CFF author {person!r} has no family-names, name or alias: give it one of them")
    return "{" + escape(name) + "}"


def _release_date(cff: dict) -> dt.date | None:
    value = cff.get("date-released")
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"CFF date-released {value!r} is not a date: write it as YYYY-MM-DD") from None


def site_names(path: Path = MKDOCS) -> dict[str, str]:
    """The site's name in each language: the top-level site_name (Chinese) and the English edition's."""
    # mkdocs.yml holds !ENV tags that a safe YAML loader refuses; the two names are plain lines
    text = Path(path).read_text(encoding="utf-8")
    zh = re.search(r"^site_name:\s*(\S.*)$", text, re.M)
    en = re.search(r"^\s+- locale: en\n(?:\s+(?!- locale).*\n)*?\s+site_name:\s*(\S.*)$", text, re.M)
    if not (zh and en):
        raise ValueError(f"{path}: expected a top-level site_name and one under the i18n plugin's `locale: en`")
    return {"zh": zh.group(1).strip().strip('"'), "en": en.group(1).strip().strip('"')}


def original_title(cff: dict, names: dict[str, str]) -> str:
    """The CFF title with the English site name replaced by the Chinese one: the course's original title."""
    if names["en"] not in cff["title"]:
        raise ValueError(f"CFF title {cff['title']!r} does not contain the English site name {names['en']!r} "
                         "(mkdocs.yml, locale en): keep the two the same")
    return cff["title"].replace(names["en"], names["zh"])


def bibtex(cff: dict, key: str | None = None, original: str | None = None) -> str:
    """A @software BibTeX entry for the work a CFF 1.2.0 mapping describes.

    ``key`` defaults to the repository's name and the release year ("posenc2026"). ``original``, the title in
    the work's original language, becomes biblatex's ``origtitle``.
    """
    if cff.get("cff-version") != "1.2.0":
        raise ValueError(f"cff-version is {cff.get('cff-version')!r}; this converter reads CFF 1.2.0: set cff-version: 1.2.0")
    for field in ("title", "authors"):
        if not cff.get(field):
            raise ValueError(f"CFF is missing {field!r}, which CFF 1.2.0 requires: add it to CITATION.cff")
    date = _release_date(cff)
    repo = cff.get("repository-code")
    url = cff.get("url") or repo
    if key is None:
        stem = (repo or cff["title"]).rstrip("/").rsplit("/", 1)[-1]
        key = re.sub(r"[^A-Za-z0-9_-]", "", stem) + (str(date.year) if date else "")
    fields = [
        ("author", "{" + " and ".join(bibtex_name(a) for a in cff["authors"]) + "}"),
        ("title", "{{" + escape(cff["title"]) + "}}"),  # inner braces keep the title's case
    ]
    if original:
        fields.append(("origtitle", "{{" + escape(original) + "}}"))
    if date:
        fields += [("year", f"{{{date.year}}}"), ("month", _MONTHS[date.month - 1])]
    if cff.get("version"):
        fields.append(("version", "{" + escape(str(cff["version"])) + "}"))
    if cff.get("doi"):
        fields.append(("doi", "{" + cff["doi"] + "}"))
    if url:
        fields.append(("url", "{" + url + "}"))  # URLs are verbatim in BibTeX: no escaping
    if repo and repo != url:
        fields.append(("repository", "{" + repo + "}"))
    if cff.get("license"):
        licence = cff["license"]
        fields.append(("license", "{" + escape(licence if isinstance(licence, str) else " OR ".join(licence)) + "}"))
    body = "".join(f"  {name} = {value},\n" for name, value in fields)
    return f"@software{{{key},\n{body}}}"


def bibtex_entry(path: Path = CFF, lang: str = "en", mkdocs: Path = MKDOCS) -> str:
    """The BibTeX entry for CITATION.cff (for the home page's macro), for a page in ``lang``: the course's own language
    (the first of LANGUAGES) cites its original title; every translation cites CITATION.cff's English title, with the
    original as ``origtitle``."""
    check_language(lang)
    cff = load(path)
    original = original_title(cff, site_names(mkdocs))
    if lang == LANGUAGES[0]:
        return bibtex({**cff, "title": original})
    return bibtex(cff, original=original)


if __name__ == "__main__":
    sys.stdout.write(bibtex_entry(lang=sys.argv[1] if len(sys.argv) > 1 else "en") + "\n")
