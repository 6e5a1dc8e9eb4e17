"""MkDocs hooks: fresh code for every build, built figures and vendored front-end files in the site.

Before each build, code that changed since the last build is imported again
(tools/freshness.py), so `mkdocs serve` shows an edit to posenc/, figures_src/ or
tools/ with the same bytes a clean build would. Figures are rendered (or taken from
the cache) by figures_src.build, in a fresh process when any must be drawn, and served
as /figures/<name>.<light|dark>.svg. KaTeX's stylesheet comes from node_modules (installed by
`make setup` from package-lock.json), so math renders with no network; its fonts, cut to the
characters the formulas use, are written by tools/katex_fonts.py. The
in-page experiments read the real model configs from /assets/models.json,
written here from posenc.configs.

Guards report errors, never warnings: `mkdocs build -q` drops warnings before --strict counts
them, so a guard that warned would pass a quiet build. A notebook whose .ipynb no longer matches
its .py source, a widget whose defaults disagree with posenc/examples.py, and a macro that fails
(an unknown number, fact, figure or claim, a contradicted claim, a Jinja error) are each an error
naming the file; mkdocs.yml is strict, so the build fails at any verbosity, and `mkdocs serve` prints
them and keeps serving the last good build. (mkdocs-macros' own on_error_fail would stop `mkdocs serve`
altogether, by exit(), and print its message only as a warning, so mkdocs.yml turns it off and
``on_page_markdown`` below reports the failure instead.)
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

log = logging.getLogger("mkdocs.hooks.posenc")

KATEX = ROOT / "node_modules" / "katex" / "dist"
# The build sets every formula (tools/katex_render.py): a page needs KaTeX's stylesheet, not its script
# or auto-render; the fonts the stylesheet names are written, subset, by tools/katex_fonts.py.
KATEX_FILES = ["katex.min.css"]


def _vendor_files(config) -> list[File]:
    if not KATEX.is_dir():
        raise SystemExit(f"KaTeX not found at {KATEX}: run `make setup` (it runs `npm ci`) to install the site's front-end files")
    return [File.generated(config, f"vendor/katex/{p}", abs_src_path=str(KATEX / p)) for p in KATEX_FILES]


_serving = False


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"
    if command == "serve":
        # posenc/ and figures_src/ are watched: bytecode written into their __pycache__ (by this
        # process, the snippets, the figure process or a notebook kernel) would start another rebuild
        sys.dont_write_bytecode = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"


@event_priority(-200)  # after mkdocs-static-i18n has sorted the pages by language (tools/i18n.py)
def on_files(files, config):
    # Figure generation can be switched off to time a plain MkDocs build (tools/bench_build.py).
    if os.environ.get("POSENC_SKIP_FIGURES") != "1":
        for f in _figure_files(config):
            files.append(f)
    for f in _vendor_files(config):
        files.append(f)
    files.append(_models_json(config))
    for f in _dataflow_json(config):
        files.append(f)
    _patch_search_worker(files, config)
    return files


def _figure_files(config) -> list[File]:
    """The figures as this build's language shows them: figures/<name>.<theme>.svg, under en/ for English
    (figures_src/build.py draws a converted module's figures per language; tools/i18n.py)."""
    from figures_src.build import render_all
    from tools import i18n

    lang = i18n.build_language(config)
    report = render_all(fresh_process=True, lang=lang)
    log.info(f"figures ({lang}): {len(report.drawn)} drawn, {len(report.cached)} cached ({report.seconds:.1f} s)")
    prefix = "" if lang == i18n.DEFAULT else f"{lang}/"
    out = []
    for name, themes in report.paths.items():
        for theme, path in themes.items():
            f = File.generated(config, f"figures/{name}.{theme}.svg", abs_src_path=str(path))
            if prefix:  # the English pages link figures/… like the Chinese ones; it is served under en/
                f.dest_uri = prefix + f.dest_uri
            out.append(f)
    return out


def _patch_search_worker(files, config) -> None:
    """Serve Material's search worker with its query cutter fixed (tools/search.py patch_worker)."""
    from tools import search

    workers = [f for f in files if search.WORKER.match(f.src_uri)]
    if len(workers) != 1:
        raise SystemExit(f"expected one Material search worker among the theme's files, found {[f.src_uri for f in workers]}; "
                         "update tools/search.py WORKER")
    worker = workers[0]
    source = Path(worker.abs_src_path).read_text(encoding="utf-8")
    files.remove(worker)
    files.append(File.generated(config, worker.src_uri, content=search.patch_worker(source, worker.src_uri)))


def _models_json(config) -> File:
    """assets/models.json: the real model configs the scaling explorer offers, from posenc.configs."""
    import json

    from posenc.configs import browser_export

    # compact: every page with the panel fetches it
    content = json.dumps(browser_export(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return File.generated(config, "assets/models.json", content=content)


def _dataflow_json(config) -> list[File]:
    """assets/dataflow.json: the data-flow panel's stages, shapes and parameter counts, from posenc.dataflow,
    in Chinese; the English build adds en/assets/dataflow.json, the same numbers in English words, which
    the panel fetches on an English page (docs/javascripts/widgets/dataflow.js)."""
    import json

    from posenc.dataflow import browser_export
    from tools import i18n

    def export(lang: str, path: str) -> File:
        # compact: every page with the panel fetches it
        content = json.dumps(browser_export(lang), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return File.generated(config, path, content=content)

    lang = i18n.build_language(config)
    out = [export(i18n.DEFAULT, "assets/dataflow.json")]
    if lang != i18n.DEFAULT:  # written beside the English pages, as their figures are (_figure_files)
        out.append(export(lang, f"{lang}/assets/dataflow.json"))
    return out


# mkdocs-jupyter (nbconvert's lab template) writes into every notebook page a MathJax loader
# (src="" here, cdnjs by default), its config, and a module script that imports mermaid from
# cdnjs. The site renders math with its own KaTeX and has no mermaid output: drop the block.
_NOTEBOOK_CDN = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mermaid configuration -->", re.S)

# Material markup that fails axe-core or calls another host, and its fix (in the build's language,
# tools/i18n.py UI). Each must match: a theme upgrade that changes the markup fails the build instead
# of silently losing the fix.
def _theme_fix_list(lang: str) -> list[tuple[str, str]]:
    from tools import i18n

    return [
        # the search overlay is role="dialog" with no name (axe aria-dialog-name, serious)
        ('<div class="md-search" data-md-component="search" role="dialog">',
         f'<div class="md-search" data-md-component="search" role="dialog" aria-label="{i18n.text(lang, "search_dialog")}">'),
        # navigation.instant.progress: a progressbar with no name (axe aria-progressbar-name, serious)
        ('data-md-component="progress" role="progressbar">',
         f'data-md-component="progress" role="progressbar" aria-label="{i18n.text(lang, "progress")}">'),
    ]



@event_priority(100)  # before mkdocs-macros imports posenc for this build
def on_config(config):
    from tools import freshness

    changed = freshness.forget_changed_code()
    if changed:
        log.info(f"code changed ({len(changed)} file(s), e.g. {changed[0].relative_to(ROOT)}): importing it again")
    # mkdocs-jupyter keys its cache of executed notebooks on the notebook file alone, so a change
    # in posenc (or in a snippet a notebook imports) would keep serving old outputs (and never fail
    # on a broken notebook): key it on those as well, as the figure cache is.
    nb = config.plugins.get("mkdocs-jupyter")
    if nb is not None:
        from figures_src.build import tree_digest

        key = tree_digest(ROOT / "posenc", exclude=("__pycache__", "experiment"))[:16]
        key += tree_digest(ROOT / "docs" / "snippets", patterns=("*.py",))[:8]
        key += hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]  # how this hook makes notebooks execute
        # one folder per language: mkdocs-jupyter evicts, after each build, the cached notebooks that build did
        # not use, and the Chinese and the English passes use different notebooks (lessonN.en.ipynb)
        from tools.i18n import build_language

        nb.config["cache_dir"] = str(ROOT / ".cache" / "mkdocs-jupyter" / key / build_language(config))
    _coalesce_notebook_streams()
    return config


def _coalesce_notebook_streams() -> None:
    """Merge a cell's printed output into one block, whatever the timing.

    The kernel's prints reach nbclient in one or several stream messages depending on timing, so
    one cell's output became one block in one build and two in the next (two builds were not
    byte-identical). nbclient's coalesce_streams is not a config option, and changing the trait's
    default has no effect once nbconvert's ExecutePreprocessor class exists (mkdocs-jupyter imports
    it before any hook runs), so each preprocessor turns it on when it starts a notebook.
    """
    from nbconvert.preprocessors import ExecutePreprocessor

    original = ExecutePreprocessor.preprocess
    if getattr(original, "coalesces_streams", False):
        return  # mkdocs serve loads this hook again for every rebuild

    def preprocess(self, nb, resources=None, km=None):
        self.coalesce_streams = True
        return original(self, nb, resources, km)

    preprocess.coalesces_streams = True
    ExecutePreprocessor.preprocess = preprocess


def on_pre_build(config):
    from tools import macros, notebooks, serve_pages

    if serve_pages.PAGE_ONLY.is_set():
        return  # site-wide checks, not about the page being built again (tools/serve_pages.py)
    _notebook_css.clear()

    for problem in macros.widget_default_mismatches():
        log.error(f"{problem}: the widgets start from posenc/examples.py WIDGET_DEFAULTS")

    for path, text in notebooks.expected().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            rel = path.relative_to(ROOT).as_posix()
            log.error(f"{rel} differs from its source {rel.split('.')[0]}.py: run python -m tools.notebooks")


@event_priority(-200)  # the navigation as the pages show it, after mkdocs-static-i18n has translated it
def on_nav(nav, config, files):
    if _serving:
        from tools import i18n, serve_pages

        serve_pages.remember_nav(i18n.build_language(config), nav)
    return nav


@event_priority(-200)  # the template environment as every other plugin has left it
def on_env(env, config, files):
    if _serving:  # what `mkdocs serve` needs to build one page again (tools/serve_pages.py)
        from tools import i18n, serve_pages

        serve_pages.remember(i18n.build_language(config), config, files, env)
    return env


def on_serve(server, config, builder):
    """An edit to a page's Markdown builds that page again, not the site (tools/serve_pages.py)."""
    from tools import serve_pages

    server.builder = serve_pages.PageBuilder(server, builder, config)
    return server


# What mkdocs-macros (on_error_fail: false) puts in place of a page whose macros failed: a heading,
# the file, the error, and a fenced traceback (mkdocs_macros/errors.py format_error).
_MACRO_ERROR = re.compile(r"\A# _Macro (?:Rendering|Syntax) Error_\n")
_TRACEBACK = re.compile(r"^```\n(?:Traceback|  File ).*?^```$", re.S | re.M)


@event_priority(-100)  # after mkdocs-macros has rendered the page
def on_page_markdown(markdown, page, config, files):
    """A page whose macros failed is a build error with the page and the error (see the module docstring)."""
    if _MACRO_ERROR.match(markdown):
        lines = _TRACEBACK.sub("", markdown[markdown.index("\n"):]).splitlines()
        what = " ".join(re.sub(r"^_([^_]+)_", r"\1", line.strip()) for line in lines
                        if line.strip() and not line.startswith(("_File_", "```")))
        log.error(f"docs/{page.file.src_uri}: a macro failed: {what}")
    return markdown


def on_page_content(html, page, config, files):
    from tools import search

    boost = search.search_boost(page.file.src_uri)
    if boost is not None:  # read by Material's search plugin in on_page_context, after this event
        page.meta["search"] = {"boost": boost, **(page.meta.get("search") or {})}
    if page.file.src_uri.endswith(".ipynb"):
        html, n = _NOTEBOOK_CDN.subn("", html)
        if n != 1:
            raise SystemExit(f"{page.file.src_uri}: mkdocs-jupyter's MathJax/mermaid block not found; update _NOTEBOOK_CDN")
        # a wide code cell scrolls: let keyboard users reach it (axe scrollable-region-focusable)
        html = _NOTEBOOK_CODE.sub(r'\1 tabindex="0">', html)
        html = _notebook_styles_to_file(html, page)
    return html


_NOTEBOOK_CODE = re.compile(r'(<div class="highlight-ipynb[^"]*">\s*<pre)>')

# mkdocs-jupyter inlines nbconvert's JupyterLab CSS (~580 KB) and the Pygments CSS into every notebook
# page as <style> blocks, and then appends the Pygments CSS once more as the repr of a Python list
# (nbconvert2.py: f"<style>{resources['inlining']['css']}</style>"), which is not CSS at all.
# The hook moves the real blocks into one stylesheet, named by its content's hash (a browser caches it
# once for every notebook page), and drops the broken one.
_NOTEBOOK_STYLE = re.compile(r'<style type="text/css">(.*?)</style>\s*', re.S)
_NOTEBOOK_STYLE_REPR = re.compile(r"<style>\s*\['.*?'\]\s*</style>\s*", re.S)
_notebook_css: dict[str, str] = {}  # site path → CSS, written in on_post_build


def _notebook_styles_to_file(html: str, page) -> str:
    import posixpath

    where = page.file.src_uri
    blocks = _NOTEBOOK_STYLE.findall(html)
    if not blocks:
        raise SystemExit(f"{where}: no <style> block from mkdocs-jupyter; update _NOTEBOOK_STYLE in tools/mkdocs_hooks.py")
    css = "\n".join(block.strip() for block in blocks) + "\n"
    name = f"stylesheets/notebook.{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    _notebook_css[name] = css
    first = _NOTEBOOK_STYLE.search(html).start()
    link = f'<link rel="stylesheet" href="{posixpath.relpath(name, page.url or ".")}">\n'
    html = html[:first] + link + _NOTEBOOK_STYLE.sub("", html[first:])
    html, n = _NOTEBOOK_STYLE_REPR.subn("", html)
    if n > 1:
        raise SystemExit(f"{where}: {n} list-shaped <style> blocks; expected mkdocs-jupyter's one")
    return html


def _theme_fixes(output: str, where: str, lang: str = "zh") -> str:
    for old, new in _theme_fix_list(lang):
        if old not in output:
            raise SystemExit(f"{where}: theme markup {old!r} not found; update _theme_fix_list in tools/mkdocs_hooks.py")
        output = output.replace(old, new)
    return output


def on_post_page(output, page, config):
    from tools import i18n

    return _theme_fixes(output, page.file.src_uri, i18n.build_language(config))


def on_post_template(output_content, template_name, config):
    from tools import i18n

    # 404.html is a theme template, not a page: on_post_page never sees it
    return _theme_fixes(output_content, template_name, i18n.build_language(config)) if template_name == "404.html" else output_content


@event_priority(-100)  # after Material's search plugin has written search/search_index.json
def on_post_build(config):
    from tools import search

    site = Path(config.site_dir)
    for name, css in _notebook_css.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(css, encoding="utf-8")
    index = site / "search" / "search_index.json"
    if index.is_file():
        search.clean_index(index)
