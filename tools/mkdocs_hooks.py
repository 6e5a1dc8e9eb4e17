"""MkDocs hooks: put built figures and vendored front-end files into the site.

Figures are rendered (or taken from the cache) by figures_src.build and served
as /figures/<name>.<light|dark>.svg. KaTeX comes from node_modules (installed by
`make setup` from package-lock.json), so math renders with no network. The
in-page experiments read the real model configs from /assets/models.json,
written here from posenc.configs.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

log = logging.getLogger("mkdocs.hooks.posenc")

KATEX = ROOT / "node_modules" / "katex" / "dist"
KATEX_FILES = ["katex.min.js", "katex.min.css", "contrib/auto-render.min.js"]


def _vendor_files(config) -> list[File]:
    if not KATEX.is_dir():
        raise SystemExit(f"KaTeX not found at {KATEX}: run `make setup` (it runs `npm ci`) to install the site's front-end files")
    rel = [Path(p) for p in KATEX_FILES] + sorted(p.relative_to(KATEX) for p in (KATEX / "fonts").glob("*.woff2"))
    return [File.generated(config, f"vendor/katex/{p.as_posix()}", abs_src_path=str(KATEX / p)) for p in rel]


def on_files(files, config):
    # Figure generation can be switched off to time a plain MkDocs build (tools/bench_build.py).
    if os.environ.get("POSENC_SKIP_FIGURES") != "1":
        from figures_src.build import render_all

        report = render_all()
        log.info(f"figures: {len(report.drawn)} drawn, {len(report.cached)} cached ({report.seconds:.1f} s)")
        for name, themes in report.paths.items():
            for theme, path in themes.items():
                files.append(File.generated(config, f"figures/{name}.{theme}.svg", abs_src_path=str(path)))
    for f in _vendor_files(config):
        files.append(f)
    files.append(_models_json(config))
    return files


def _models_json(config) -> File:
    """assets/models.json: the real model configs the scaling explorer offers, from posenc.configs."""
    import json

    from posenc.configs import browser_export

    content = json.dumps(browser_export(), ensure_ascii=False, sort_keys=True, indent=1)
    return File.generated(config, "assets/models.json", content=content)


# nbconvert's page template carries loaders that would fetch mermaid from a CDN and
# configure a MathJax the site never loads. Our notebooks use neither (math is
# rendered by the site's own KaTeX), so drop them: no page may reference another host.
_NOTEBOOK_CDN_BLOCKS = [
    re.compile(r"<!-- MathJax configuration -->.*?<!-- End of mathjax configuration -->", re.S),
    re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded".*?mermaid.*?</script>', re.S),
]


# The kernel flushes stdout on a timer, so one cell's prints arrive as one or several
# stream outputs depending on machine load. Joining adjacent stdout blocks makes the
# page the same on every build.
_SPLIT_STDOUT = re.compile(
    r"</pre>\s*</div>\s*</div>\s*<div class=\"jp-OutputArea-child\">\s*"
    r"<div class=\"jp-OutputPrompt jp-OutputArea-prompt\">\s*</div>\s*"
    r"<div class=\"jp-RenderedText jp-OutputArea-output\" data-mime-type=\"text/plain\" tabindex=\"0\">\s*<pre>"
)


def on_post_page(output, page, config):
    if page.file.src_uri.endswith(".ipynb"):
        for block in _NOTEBOOK_CDN_BLOCKS:
            output = block.sub("", output)
        output = _SPLIT_STDOUT.sub("", output)
    return output
