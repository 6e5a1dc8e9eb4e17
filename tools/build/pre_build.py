"""The pre-build step: what the site needs besides its Markdown, made from the sources, before any page.

Nothing here knows the site generator: each function takes a language or nothing and returns contents,
paths or problems; tools/build/mkdocs_hooks.py turns them into the generator's files and errors (and another
generator's adapter could do the same).

- ``figures(lang)``: every registered figure, drawn or taken from the cache (figures_src/build.py),
  as (the path pages link, the path it is served at, the SVG file);
- ``vendor_files()``: KaTeX's stylesheet from node_modules (its fonts, subset, come after the pages: the
  site-level post-build step, tools/build/post_build.py ``finish_site``, with tools/build/katex_fonts.py);
- ``assets(lang)``: the JSON the in-page widgets fetch (assets/models.json from posenc.configs,
  assets/dataflow.json from posenc.dataflow, and the English copy beside the English pages);
- ``guard_problems()``: the site-wide guards that need no page: widget defaults that disagree with
  posenc/examples.py, and a notebook (.ipynb) that no longer matches its .py source.

    python -m tools.build.pre_build [--lang en]   # the guards' problems, and what would be added (exit 1 on a problem)
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KATEX = ROOT / "node_modules" / "katex" / "dist"
# The build sets every formula (tools/build/katex_render.py): a page needs KaTeX's stylesheet, not its script
# or auto-render; the fonts the stylesheet names are written, subset, by tools/build/katex_fonts.py (post_build.finish_site).
KATEX_FILES = ["katex.min.css"]


@dataclass(frozen=True)
class SiteFile:
    """A file the pre-build step adds to the site: the path pages link (``src``), the path it is written to
    (``dest``: an English figure is linked as figures/… from an English page, so it lives under en/), and
    either a file to copy (``path``) or its text (``content``)."""

    src: str
    dest: str
    path: Path | None = None
    content: str | None = None


def figures(lang: str):
    """(the render report, [SiteFile]) for every figure as ``lang``'s pages show it: figures/<name>.<theme>.svg,
    under <lang>/ for a language other than the default (figures_src/build.py draws per language)."""
    from figures_src.build import render_all

    report = render_all(fresh_process=True, lang=lang)
    return report, figure_files(report, lang)


def figure_files(report, lang: str) -> list[SiteFile]:
    """The SiteFiles of a render report's figures, as ``lang``'s pages link them (see ``figures``)."""
    from tools.build import i18n

    prefix = "" if lang == i18n.DEFAULT else f"{lang}/"
    out = []
    for name, themes in report.paths.items():
        for theme, path in themes.items():
            src = f"figures/{name}.{theme}.svg"
            out.append(SiteFile(src, prefix + src, path=Path(path)))
    return out


def vendor_files() -> list[SiteFile]:
    if not KATEX.is_dir():
        raise SystemExit(f"KaTeX not found at {KATEX}: run `make setup` (it runs `npm ci`) to install the site's front-end files")
    return [SiteFile(f"vendor/katex/{p}", f"vendor/katex/{p}", path=KATEX / p) for p in KATEX_FILES]


def _compact(data) -> str:
    # compact: every page with the panel fetches it
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def models_json() -> str:
    """assets/models.json: the real model configs the scaling explorer offers, from posenc.configs."""
    from posenc.configs import browser_export
    from posenc.examples import SCALING_EXPLORER_MODELS

    return _compact(browser_export(SCALING_EXPLORER_MODELS))


def dataflow_json(lang: str) -> str:
    """assets/dataflow.json: the data-flow panel's stages, shapes and parameter counts, from posenc.dataflow,
    in ``lang``'s words (docs/javascripts/widgets/dataflow.js fetches the one beside its page), each config field
    with the link to its source on the references page, relative to the file (the widget resolves it there)."""
    from posenc.dataflow import browser_export
    from tools.build import i18n, sources

    here = i18n.counterpart("assets/", lang)
    return _compact(browser_export(lang, lambda model, field: sources.field_href(model, field, here, lang)))


def assets(lang: str) -> list[SiteFile]:
    """The widgets' JSON for ``lang``'s build: models.json and the Chinese dataflow.json at the root, and for
    another language its dataflow.json under <lang>/, written beside its pages as its figures are."""
    from tools.build import i18n

    out = [SiteFile("assets/models.json", "assets/models.json", content=models_json()),
           SiteFile("assets/dataflow.json", "assets/dataflow.json", content=dataflow_json(i18n.DEFAULT))]
    if lang != i18n.DEFAULT:
        path = f"{lang}/assets/dataflow.json"
        out.append(SiteFile(path, path, content=dataflow_json(lang)))
    return out


def guard_problems() -> list[str]:
    """The site-wide guards' findings, each a sentence naming the file and the fix (the build fails on any)."""
    from tools.build import macros, notebooks

    problems = [f"{problem}: the widgets start from posenc/examples.py WIDGET_DEFAULTS"
                for problem in macros.widget_default_mismatches()]
    for path, text in notebooks.expected().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            rel = path.relative_to(ROOT).as_posix()
            problems.append(f"{rel} differs from its source {rel.split('.')[0]}.py: run python -m tools.build.notebooks")
    return problems


def main(argv=None) -> int:
    from tools.build import i18n

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", default=i18n.DEFAULT, help="the build's language (default: %(default)s)")
    args = parser.parse_args(argv)
    i18n.check_language(args.lang)
    problems = guard_problems()
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    for f in vendor_files() + assets(args.lang):
        print(f.dest)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
