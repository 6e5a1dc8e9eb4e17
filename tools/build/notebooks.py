"""The lessons' notebooks: docs/notebooks/lessonN.py (jupytext percent format) is the source,
docs/notebooks/lessonN.ipynb is what MkDocs renders (mkdocs-jupyter executes it at build time).

Edit the .py file (any editor, linter or `duplicates` can read it), then write the .ipynb:

    python -m tools.build.notebooks            # (re)write every .ipynb from its .py
    python -m tools.build.notebooks --check    # exit 1 naming each .ipynb that differs from its .py

The .ipynb is normalised so the same source always gives the same bytes: no outputs,
cell ids "<name>-<index>" ("lesson3-07"), fixed metadata (kernelspec, language, the
jupytext pairing), keys sorted. Opening the .ipynb in Jupyter with jupytext installed
edits both files together; run the command above afterwards to normalise.

Sharing code: a code cell whose whole source is

    # posenc: include lesson3_table.py

becomes the source of docs/snippets/lesson3_table.py, so a computation a lesson shows as a
snippet and the notebook runs is written once. ``# posenc: include _setup.py`` takes
docs/notebooks/_setup.py, the setup cell every notebook starts with (it finds the
repository and puts posenc and docs/snippets/ on the path, so an included snippet's own
imports work). Its cell is tagged remove-input: the notebook page shows what it printed, not
its code, which a reader of the page does not run.

A notebook opened outside the repository (downloaded from the site, or in Colab) fetches the
course at the commit the site was built from (_setup.py; tools/build/notebook_download.py writes the
commit into the downloaded copy) and installs what it lacks from docs/notebooks/requirements.txt:
the entries of requirements.lock, with their hashes, for what the notebooks import and what that
needs (NOTEBOOK_PACKAGES). This command writes that file too; --check compares it.

Every heading needs an ASCII part of its own (the lesson number, or the posenc function the
section uses): mkdocs-jupyter's anchors keep only ASCII (see heading_anchors).

Two languages, one source. A notebook's Markdown is written in Chinese; its English is a Markdown cell
marked ``lang="en"`` right after each Chinese one::

    # %% [markdown]
    # ## 1. 一句话，一个注意力头：attend

    # %% [markdown] lang="en"
    # ## 1. One sentence, one attention head: attend

    # %%
    from posenc import attention as at        (code cells: one copy, in both notebooks; their comments and
                                              strings in English from docs/notebooks/strings/en.yaml,
                                              tools/build/code_i18n.py)

``python -m tools.build.notebooks`` then writes lessonN.ipynb (the Chinese cells and the code) and
lessonN.en.ipynb (the English cells and the same code), which the English site renders under
/en/notebooks/. A source with no English cell has no English notebook yet (the English site shows the
Chinese one); once it has one, every Chinese Markdown cell needs its English cell, with the same
headings (one for one, the same levels), or the command fails naming the cell.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import jupytext
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from posenc.formatting import LANGUAGES  # the default first

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "docs" / "notebooks"
SNIPPETS = ROOT / "docs" / "snippets"

METADATA = {
    "jupytext": {"formats": "ipynb,py:percent"},
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}
REQUIREMENTS = NOTEBOOKS / "requirements.txt"
LOCK = ROOT / "requirements.lock"
# What the notebooks import (numpy, PyYAML for posenc's data, torch for the torch snippets) and every
# package those need; tests/test_notebook_download.py checks the list against the installed packages.
NOTEBOOK_PACKAGES = ("filelock", "fsspec", "jinja2", "markupsafe", "mpmath", "networkx", "numpy", "pyyaml",
                     "setuptools", "sympy", "torch", "typing-extensions")
SETUP_INCLUDE = "# posenc: include _setup.py"
INCLUDE = re.compile(r"\A# posenc: include (?P<file>[\w.-]+\.py)\s*\Z")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def sources() -> list[Path]:
    return sorted(NOTEBOOKS.glob("lesson*.py"))


def heading_anchors(markdown: str) -> list[str]:
    """The ids mkdocs-jupyter gives the headings of a Markdown cell.

    It keeps only ASCII word characters (mkdocs_jupyter.utils.slugify), so a heading written only
    in Chinese gets an empty id, and two headings that differ only in Chinese get the same one;
    the page's table of contents then links to anchors that do not exist. Inline `code` in a
    heading is dropped from the table of contents' anchor but kept in the heading's own id.
    """
    from mkdocs_jupyter.utils import slugify

    return [slugify(re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))) for m in HEADING.finditer(markdown)]


def check_headings(name: str, cells: list[tuple[str, str]]) -> None:
    coded = [m.group(2) for kind, src in cells if kind == "markdown" for m in HEADING.finditer(src) if "`" in m.group(2)]
    if coded:
        raise ValueError(f"{name}: no `code` in headings {coded}: the page's table of contents drops it from the anchor, "
                         f"the heading's own id keeps it, and the two no longer match")
    anchors = [a for kind, src in cells if kind == "markdown" for a in heading_anchors(src)]
    dup = sorted({a for a in anchors if anchors.count(a) > 1})
    if "" in anchors or dup:
        raise ValueError(f"{name}: every heading needs a unique ASCII part for its anchor (empty: {'' in anchors}, "
                         f"repeated: {dup}); add the posenc function the section uses, e.g. '## 2. 交换两个字：swap'")


def _included(name: str, source: str, lang: str = "zh") -> str:
    """A code cell's source in ``lang``: an included file's, or the cell's own, with the words of that
    language (tools/build/code_i18n.py: the Chinese source's comments and strings from the language's table)."""
    from tools.build import code_i18n

    m = INCLUDE.match(source.strip())
    if not m:
        return code_i18n.localise(source, "notebooks", f"{name}.py", lang)
    file = m.group("file")
    path = (NOTEBOOKS if file.startswith("_") else SNIPPETS) / file
    if not path.is_file():
        raise ValueError(f"{name}: '# posenc: include {file}' names no file {_rel(path)}")
    kind = "notebooks" if file.startswith("_") else "snippets"
    return code_i18n.localise(path.read_text(encoding="utf-8"), kind, file, lang).rstrip("\n")


def build(name: str, cells: list[tuple[str, str]], lang: str = "zh") -> nbformat.NotebookNode:
    """A normalised notebook from (kind, source) cells: no outputs, ids "<name>-<index>", fixed metadata;
    its code's comments and strings in ``lang``."""
    check_headings(name, cells)
    nb = new_notebook(metadata=METADATA)
    for index, (kind, source) in enumerate(cells):
        cell_id = f"{name}-{index:02d}"
        if kind == "markdown":
            nb.cells.append(new_markdown_cell(source, id=cell_id))
        elif kind == "code":
            cell = new_code_cell(_included(name, source, lang), id=cell_id)
            if source.strip() == SETUP_INCLUDE:  # the page shows what it printed, not its code (mkdocs.yml remove_tag_config)
                cell.metadata["tags"] = ["remove-input"]
            nb.cells.append(cell)
        else:
            raise ValueError(f"{name} cell {index}: a cell is markdown or code, got {kind!r}")
    nbformat.validate(nb)
    return nb


def _language_cells(path: Path) -> list[tuple[str, str, str]]:
    """(kind, source, lang) of every cell: a Markdown cell marked lang="en" is English, the others Chinese;
    a code cell belongs to every language."""
    nb = jupytext.read(path, fmt="py:percent")
    out = []
    for index, c in enumerate(nb.cells):
        if c.cell_type not in ("markdown", "code"):
            continue
        lang = c.metadata.get("lang", LANGUAGES[0])
        if lang not in LANGUAGES or (c.cell_type == "code" and "lang" in c.metadata):
            raise ValueError(f"{_rel(path)} cell {index}: lang={lang!r} on a {c.cell_type} cell; only a Markdown cell "
                             f"takes a language, one of {', '.join(LANGUAGES[1:])} (code is shared)")
        out.append((c.cell_type, c.source, lang))
    return out


def languages_of(path: Path) -> list[str]:
    """The languages ``path`` has a notebook in: Chinese, and those it has Markdown cells for."""
    found = {lang for kind, _, lang in _language_cells(path) if kind == "markdown"}
    return [lang for lang in LANGUAGES if lang == LANGUAGES[0] or lang in found]


def _check_pairs(path: Path, cells: list[tuple[str, str, str]], lang: str) -> None:
    """Each Chinese Markdown cell is followed by its ``lang`` cell, with its headings one for one."""
    for index, (kind, source, cell_lang) in enumerate(cells):
        if kind != "markdown" or cell_lang != LANGUAGES[0]:
            continue
        nxt = cells[index + 1] if index + 1 < len(cells) else None
        if nxt is None or nxt[0] != "markdown" or nxt[2] != lang:
            raise ValueError(f"{_rel(path)}: the Markdown cell starting {source[:40]!r} has no {lang} cell after it "
                             f"(# %% [markdown] lang=\"{lang}\"); a translated notebook translates every Markdown cell")
        levels = lambda text: [len(m.group(1)) for m in HEADING.finditer(text)]  # noqa: E731
        if levels(source) != levels(nxt[1]):
            raise ValueError(f"{_rel(path)}: the {lang} cell after {source[:40]!r} has headings of levels {levels(nxt[1])}, "
                             f"the Chinese {levels(source)}: translate the cell's headings one for one")
    orphans = [src[:40] for i, (kind, src, cell_lang) in enumerate(cells)
               if cell_lang == lang and not (i and cells[i - 1][0] == "markdown" and cells[i - 1][2] == LANGUAGES[0])]
    if orphans:
        raise ValueError(f"{_rel(path)}: {lang} cells with no Chinese cell just before them: {orphans}")


def cells_of(path: Path, lang: str = "zh") -> list[tuple[str, str]]:
    """(kind, source) of every cell of ``path``'s notebook in ``lang``: its Markdown in that language, and the code."""
    cells = _language_cells(path)
    if lang != LANGUAGES[0]:
        _check_pairs(path, cells, lang)
    return [(kind, source) for kind, source, cell_lang in cells if kind == "code" or cell_lang == lang]


def notebook_path(path: Path, lang: str) -> Path:
    """lessonN.ipynb, or lessonN.<lang>.ipynb (what mkdocs-static-i18n builds into /<lang>/)."""
    return path.with_suffix(".ipynb" if lang == LANGUAGES[0] else f".{lang}.ipynb")


def render(path: Path, lang: str = "zh") -> str:
    """The .ipynb text for the source ``path`` in ``lang`` (the same bytes on every run)."""
    return nbformat.writes(build(path.stem, cells_of(path, lang), lang), version=4) + "\n"


def requirements() -> str:
    """docs/notebooks/requirements.txt: requirements.lock's entries (pin and hashes) for NOTEBOOK_PACKAGES."""
    entries, name = {}, None
    for line in LOCK.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("#"):
            continue
        if not line[:1].isspace():
            name = re.split(r"[=<>!~;\s]", line, maxsplit=1)[0].lower().replace("_", "-")
        entries[name] = entries.get(name, "") + line
    missing = [n for n in NOTEBOOK_PACKAGES if n not in entries]
    if missing:
        raise ValueError(f"requirements.lock lacks {missing}, which the notebooks need (tools/build/notebooks.py NOTEBOOK_PACKAGES)")
    head = ("# What a notebook opened outside the repository installs when it lacks numpy, PyYAML or torch\n"
            "# (_setup.py): requirements.lock's entries for them and what they need. Written by python -m tools.build.notebooks.\n")
    return head + "".join(entries[n] for n in NOTEBOOK_PACKAGES)


def expected() -> dict[Path, str]:
    return {notebook_path(path, lang): render(path, lang) for path in sources() for lang in languages_of(path)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when an .ipynb differs from its .py")
    args = parser.parse_args(argv)
    stale = []
    for path, text in {**expected(), REQUIREMENTS: requirements()}.items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(_rel(path))
        if not args.check:
            path.write_text(text, encoding="utf-8")
    written = set(expected())
    orphans = [_rel(p) for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p not in written]
    if orphans:
        print("notebooks without a source (docs/notebooks/<name>.py, with lang=\"en\" cells for an English one):", *orphans, sep="\n  ")
        return 1
    if args.check:
        if stale:
            print("notebooks that differ from their .py (run python -m tools.build.notebooks):", *stale, sep="\n  ")
            return 1
        print("notebooks up to date")
        return 0
    print(f"wrote {len(stale)} notebook(s)", *stale, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
