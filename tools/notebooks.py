"""The lessons' notebooks: docs/notebooks/lessonN.py (jupytext percent format) is the source,
docs/notebooks/lessonN.ipynb is what MkDocs renders (mkdocs-jupyter executes it at build time).

Edit the .py file (any editor, linter or `duplicates` can read it), then write the .ipynb:

    python -m tools.notebooks            # (re)write every .ipynb from its .py
    python -m tools.notebooks --check    # exit 1 naming each .ipynb that differs from its .py

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
course at the commit the site was built from (_setup.py; tools/notebook_download.py writes the
commit into the downloaded copy) and installs what it lacks from docs/notebooks/requirements.txt:
the entries of requirements.lock, with their hashes, for what the notebooks import and what that
needs (NOTEBOOK_PACKAGES). This command writes that file too; --check compares it.

Every heading needs an ASCII part of its own (the lesson number, or the posenc function the
section uses): mkdocs-jupyter's anchors keep only ASCII (see heading_anchors).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import jupytext
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
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


def _included(name: str, source: str) -> str:
    m = INCLUDE.match(source.strip())
    if not m:
        return source
    file = m.group("file")
    path = (NOTEBOOKS if file.startswith("_") else SNIPPETS) / file
    if not path.is_file():
        raise ValueError(f"{name}: '# posenc: include {file}' names no file {_rel(path)}")
    return path.read_text(encoding="utf-8").rstrip("\n")


def build(name: str, cells: list[tuple[str, str]]) -> nbformat.NotebookNode:
    """A normalised notebook from (kind, source) cells: no outputs, ids "<name>-<index>", fixed metadata."""
    check_headings(name, cells)
    nb = new_notebook(metadata=METADATA)
    for index, (kind, source) in enumerate(cells):
        cell_id = f"{name}-{index:02d}"
        if kind == "markdown":
            nb.cells.append(new_markdown_cell(source, id=cell_id))
        elif kind == "code":
            cell = new_code_cell(_included(name, source), id=cell_id)
            if source.strip() == SETUP_INCLUDE:  # the page shows what it printed, not its code (mkdocs.yml remove_tag_config)
                cell.metadata["tags"] = ["remove-input"]
            nb.cells.append(cell)
        else:
            raise ValueError(f"{name} cell {index}: a cell is markdown or code, got {kind!r}")
    nbformat.validate(nb)
    return nb


def cells_of(path: Path) -> list[tuple[str, str]]:
    """(kind, source) of every cell of a percent-format source file, as jupytext reads it."""
    nb = jupytext.read(path, fmt="py:percent")
    return [(c.cell_type, c.source) for c in nb.cells if c.cell_type in ("markdown", "code")]


def render(path: Path) -> str:
    """The .ipynb text for the source ``path`` (the same bytes on every run)."""
    return nbformat.writes(build(path.stem, cells_of(path)), version=4) + "\n"


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
        raise ValueError(f"requirements.lock lacks {missing}, which the notebooks need (tools/notebooks.py NOTEBOOK_PACKAGES)")
    head = ("# What a notebook opened outside the repository installs when it lacks numpy, PyYAML or torch\n"
            "# (_setup.py): requirements.lock's entries for them and what they need. Written by python -m tools.notebooks.\n")
    return head + "".join(entries[n] for n in NOTEBOOK_PACKAGES)


def expected() -> dict[Path, str]:
    return {path.with_suffix(".ipynb"): render(path) for path in sources()}


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
    orphans = [_rel(p) for p in sorted(NOTEBOOKS.glob("*.ipynb")) if not p.with_suffix(".py").exists()]
    if orphans:
        print("notebooks without a source .py (write docs/notebooks/<name>.py):", *orphans, sep="\n  ")
        return 1
    if args.check:
        if stale:
            print("notebooks that differ from their .py (run python -m tools.notebooks):", *stale, sep="\n  ")
            return 1
        print("notebooks up to date")
        return 0
    print(f"wrote {len(stale)} notebook(s)", *stale, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
