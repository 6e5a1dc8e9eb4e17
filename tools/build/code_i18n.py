"""Code in the reader's language: one source per snippet and notebook, its words from per-language tables.

A snippet (docs/snippets/*.py) and a notebook's code cells (docs/notebooks/*.py) are written once, in
Chinese, the course's first language. Their words are the comments, the docstrings and the printed
labels: every comment or string literal token that holds a CJK character. The English edition takes
them from a table, as gettext does: the Chinese token, exactly as written, is the key; the value is the
English token that replaces it::

    docs/snippets/strings/en.yaml     snippet file name → {Chinese token: English token}
    docs/notebooks/strings/en.yaml    notebook source (lesson1.py, _setup.py) → {Chinese token: English token}

The value replaces the whole token. The code around the words is the same in both languages, with one
exception: the string literal "zh" becomes "en", so code that takes an edition's text examples
(``examples.texts("zh")``) runs, on the English page, on the English sentences its prose quotes.

A token the table lacks (a comment edited in Chinese, say), an entry no token uses any more, or an English
value that still holds CJK is an error naming the file and the token: the build fails until the table
follows the code.

    python -m tools.build.code_i18n            # list what the English tables lack or no longer use (exit 1 if any)
    python -m tools.build.code_i18n --stub     # the missing entries as YAML to paste into the table and translate
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from functools import lru_cache
from pathlib import Path

from posenc import _yaml

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = ROOT / "docs" / "snippets"
NOTEBOOKS = ROOT / "docs" / "notebooks"
TABLES = {"snippets": SNIPPETS / "strings", "notebooks": NOTEBOOKS / "strings"}
SOURCE_LANGUAGE = "zh"
CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


class MissingWords(ValueError):
    """A source's Chinese tokens that the language's table does not translate."""


def words(source: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of every comment and string literal token of ``source`` that holds a CJK character,
    as offsets into ``source``."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING) and CJK.search(tok.string):
            (r0, c0), (r1, c1) = tok.start, tok.end
            out.append((starts[r0 - 1] + c0, starts[r1 - 1] + c1, tok.string))
    return out


def translate(source: str, table: dict[str, str], where: str) -> str:
    """``source`` with each of its Chinese tokens replaced by ``table``'s value for it."""
    found = words(source)
    missing = [text for _, _, text in found if text not in table]
    if missing:
        raise MissingWords(f"{where}: no English for {len(missing)} comment(s) or string(s) of the code "
                           f"(add them to {where_table(where)}; python -m tools.build.code_i18n --stub writes them):\n  "
                           + "\n  ".join(missing))
    out, end = [], 0
    for start, stop, text in found:
        out += [source[end:start], table[text]]
        end = stop
    return "".join(out) + source[end:]


def where_table(where: str) -> str:
    kind = "snippets" if "snippets" in where else "notebooks"
    return (TABLES[kind] / "en.yaml").relative_to(ROOT).as_posix()


@lru_cache(maxsize=None)
def _load(kind: str, lang: str, stamp: float) -> dict[str, dict[str, str]]:
    path = TABLES[kind] / f"{lang}.yaml"
    data = _yaml.load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ValueError(f"{path.relative_to(ROOT)}: expected source file name → {{Chinese token: {lang} token}}")
    for name, entries in data.items():
        chinese = [k for k, v in entries.items() if not isinstance(v, str) or CJK.search(v)]
        if chinese:
            raise ValueError(f"{path.relative_to(ROOT)} {name}: the {lang} value of {chinese[:3]} is not {lang} text")
    return data


def table(kind: str, name: str, lang: str) -> dict[str, str]:
    """The ``lang`` table of the source ``name`` (a snippet's or a notebook source's file name)."""
    path = TABLES[kind] / f"{lang}.yaml"
    if not path.is_file():
        raise ValueError(f"no table {path.relative_to(ROOT)} for the code's words in {lang!r}")
    return _load(kind, lang, path.stat().st_mtime).get(name, {})


def localise(source: str, kind: str, name: str, lang: str) -> str:
    """``source`` (of the snippet or notebook source ``name``) in ``lang``; Chinese is the source itself.

    Besides the words, the string literal "zh" becomes "{lang}": code that takes the edition's examples
    (``examples.texts("zh")``) computes, on the English page, from the English edition's own sentences."""
    if lang == SOURCE_LANGUAGE:
        return source
    return _edition(translate(source, table(kind, name, lang), f"docs/{kind}/{name}"), lang)


def _edition(source: str, lang: str) -> str:
    """``source`` with every string literal token "zh" (the source language's code) written as ``lang``'s."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out, end = [], 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING and tok.string in (f'"{SOURCE_LANGUAGE}"', f"'{SOURCE_LANGUAGE}'"):
            (r0, c0), (r1, c1) = tok.start, tok.end
            start, stop = starts[r0 - 1] + c0, starts[r1 - 1] + c1
            out += [source[end:start], f'"{lang}"']
            end = stop
    return "".join(out) + source[end:]


def snippet(path: Path, lang: str) -> str:
    """A snippet's source as the ``lang`` edition shows and runs it."""
    return localise(path.read_text(encoding="utf-8"), "snippets", path.name, lang)


def notebook_sources() -> dict[str, list[str]]:
    """Each notebook source's name → the sources of its own code cells (a cell "# posenc: include FILE" is
    FILE's, which has its own entry: tools/build/notebooks.py)."""
    import jupytext

    out = {"_setup.py": [(NOTEBOOKS / "_setup.py").read_text(encoding="utf-8")]}
    for path in sorted(NOTEBOOKS.glob("lesson*.py")):
        nb = jupytext.read(path, fmt="py:percent")
        out[path.name] = [c.source for c in nb.cells
                          if c.cell_type == "code" and not c.source.strip().startswith("# posenc: include ")]
    return out


def problems(lang: str = "en") -> tuple[dict[str, dict[str, list[str]]], list[str]]:
    """(kind → source → Chinese tokens the table lacks, the table entries no source uses)."""
    sources = {"snippets": {p.name: [p.read_text(encoding="utf-8")] for p in sorted(SNIPPETS.glob("*.py"))},
               "notebooks": notebook_sources()}
    missing: dict[str, dict[str, list[str]]] = {}
    unused = []
    for kind, files in sources.items():
        path = TABLES[kind] / f"{lang}.yaml"
        data = _load(kind, lang, path.stat().st_mtime) if path.is_file() else {}
        for name, texts in files.items():
            used = [w for text in texts for _, _, w in words(text)]
            lack = [w for w in dict.fromkeys(used) if w not in data.get(name, {})]
            if lack:
                missing.setdefault(kind, {})[name] = lack
            unused += [f"{path.relative_to(ROOT)} {name}: {k!r}" for k in data.get(name, {}) if k not in used]
        unused += [f"{path.relative_to(ROOT)}: {name} is no source" for name in data if name not in files]
    return missing, unused


def main(argv: list[str]) -> int:
    missing, unused = problems("en")
    if "--stub" in argv:
        import yaml

        for kind, files in missing.items():
            print(f"# {TABLES[kind].relative_to(ROOT)}/en.yaml")
            print(yaml.safe_dump({name: {w: w for w in ws} for name, ws in files.items()}, allow_unicode=True,
                                 sort_keys=False, width=10_000))
        return 0
    for kind, files in missing.items():
        for name, ws in files.items():
            print(f"docs/{kind}/{name}: {len(ws)} token(s) with no English", *ws, sep="\n  ")
    if unused:
        print("entries no code uses any more (remove them):", *unused, sep="\n  ")
    return 1 if missing or unused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
