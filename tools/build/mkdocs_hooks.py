"""MkDocs hooks: fresh code for every build, and the adapter to the build steps that do not know MkDocs.

Before each build, code that changed since the last build is imported again
(tools/build/freshness.py), so `mkdocs serve` shows an edit to posenc/, figures_src/ or
tools/ with the same bytes a clean build would. What the site needs besides its pages comes from the
pre-build step (tools/build/pre_build.py): the figures, rendered (or taken from the cache) by figures_src.build
in a fresh process when any must be drawn and served as /figures/<name>.<light|dark>.svg; KaTeX's
stylesheet from node_modules (its fonts, cut to the characters the formulas use, are written by
tools/build/katex_fonts.py); the widgets' JSON (/assets/models.json from posenc.configs, the data-flow panel's);
and the site-wide guards. Each page's HTML goes through the post-build step (tools/build/post_build.py), and after
each language's build the site folder does (post_build.finish_site: KaTeX's fonts, the search index, each
language's search index and 404 page in its folder, the notebooks' stylesheets, the page policy's hashes).
Under `mkdocs serve` an edited page is built again alone (tools/build/serve_pages.py).

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

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

log = logging.getLogger("mkdocs.hooks.posenc")


def _site_files(config, site_files) -> list[File]:
    """The pre-build step's files (tools/build/pre_build.py) as MkDocs files."""
    out = []
    for sf in site_files:
        if sf.content is not None:
            f = File.generated(config, sf.src, content=sf.content)
        else:
            f = File.generated(config, sf.src, abs_src_path=str(sf.path))
        if sf.dest != sf.src:  # an English figure: linked figures/… like the Chinese one, served under en/
            f.dest_uri = sf.dest
        out.append(f)
    return out


_serving = False


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"
    if command == "serve":
        # posenc/ and figures_src/ are watched: bytecode written into their __pycache__ (by this
        # process, the snippets, the figure process or a notebook kernel) would start another rebuild
        sys.dont_write_bytecode = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"


@event_priority(-200)  # after mkdocs-static-i18n has sorted the pages by language (tools/build/i18n.py)
def on_files(files, config):
    """The pre-build step's files (tools/build/pre_build.py) added to the site, in this build's language."""
    from tools.build import i18n, pre_build

    lang = i18n.build_language(config)
    # Figure generation can be switched off to time a plain MkDocs build (tools/scripts/bench_build.py).
    if os.environ.get("POSENC_SKIP_FIGURES") != "1":
        report, figures = pre_build.figures(lang)
        log.info(f"figures ({lang}): {len(report.drawn)} drawn, {len(report.cached)} cached ({report.seconds:.1f} s)")
        for f in _site_files(config, figures):
            files.append(f)
    for f in _site_files(config, pre_build.vendor_files() + pre_build.assets(lang)):
        files.append(f)
    _patch_search_worker(files, config)
    return files


def _patch_search_worker(files, config) -> None:
    """Serve Material's search worker with its query cutter fixed (tools/build/search.py patch_worker)."""
    from tools.build import search

    workers = [f for f in files if search.WORKER.match(f.src_uri)]
    if len(workers) != 1:
        raise SystemExit(f"expected one Material search worker among the theme's files, found {[f.src_uri for f in workers]}; "
                         "update tools/build/search.py WORKER")
    worker = workers[0]
    source = Path(worker.abs_src_path).read_text(encoding="utf-8")
    files.remove(worker)
    files.append(File.generated(config, worker.src_uri, content=search.patch_worker(source, worker.src_uri)))


@event_priority(100)  # before mkdocs-macros imports posenc for this build
def on_config(config):
    from tools.build import freshness

    changed = freshness.forget_changed_code()
    if changed:
        log.info(f"code changed ({len(changed)} file(s), e.g. {changed[0].relative_to(ROOT)}): importing it again")
    nb = config.plugins.get("mkdocs-jupyter")
    if nb is not None:
        from tools.build.i18n import build_language

        nb.config["cache_dir"] = str(notebook_cache_dir(build_language(config), nb.config["execute"]))
    _coalesce_notebook_streams()
    return config


def notebook_cache_dir(lang: str, execute: bool) -> Path:
    """Where mkdocs-jupyter keeps the notebook pages of one build.

    mkdocs-jupyter keys its cache on the notebook file alone, so a change in posenc (or in a snippet a notebook
    imports) would keep serving old outputs (and never fail on a broken notebook): the folder is keyed on those as
    well, as the figure cache is. One folder per language and per mode, because mkdocs-jupyter evicts, after each
    build, the cached pages that build did not use: the Chinese and the English passes use different notebooks
    (lessonN.en.ipynb), and a prose-only build (POSENC_EXECUTE_NOTEBOOKS=false, `make test-fast`) would otherwise
    evict the executed pages, so that the next full build ran every notebook again.
    """
    from figures_src.build import tree_digest

    key = tree_digest(ROOT / "posenc", exclude=("__pycache__", "experiment"))[:16]
    key += tree_digest(ROOT / "docs" / "snippets", patterns=("*.py",))[:8]
    key += hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]  # how this hook makes notebooks execute
    return ROOT / ".cache" / "mkdocs-jupyter" / key / lang / ("executed" if execute else "not-executed")


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
    from tools.build import pre_build, serve_pages

    if serve_pages.PAGE_ONLY.is_set():
        return  # site-wide checks, not about the page being built again (tools/build/serve_pages.py)
    _notebook_css.clear()
    for problem in pre_build.guard_problems():
        log.error(problem)


@event_priority(-200)  # the navigation as the pages show it, after mkdocs-static-i18n has translated it
def on_nav(nav, config, files):
    if _serving:
        from tools.build import i18n, serve_pages

        serve_pages.remember_nav(i18n.build_language(config), nav)
    return nav


@event_priority(-200)  # the template environment as every other plugin has left it
def on_env(env, config, files):
    if _serving:  # what `mkdocs serve` needs to build one page again (tools/build/serve_pages.py)
        from tools.build import i18n, serve_pages

        serve_pages.remember(i18n.build_language(config), config, files, env)
    return env


def on_serve(server, config, builder):
    """An edit to a page's Markdown builds that page again, not the site (tools/build/serve_pages.py)."""
    from tools.build import serve_pages

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
    from tools.build import post_build, search

    boost = search.search_boost(page.file.src_uri)
    if boost is not None:  # read by Material's search plugin in on_page_context, after this event
        page.meta["search"] = {"boost": boost, **(page.meta.get("search") or {})}
    if page.file.src_uri.endswith(".ipynb"):
        html, css = post_build.notebook_page(html, page.file.src_uri, page.url)
        _notebook_css.update(css)
    return html


_notebook_css: dict[str, str] = {}  # site path → CSS, written by the site-level post-build step (on_post_build)


def on_post_page(output, page, config):
    from tools.build import i18n, post_build

    return post_build.theme_fixes(output, page.file.src_uri, i18n.build_language(config))


def on_post_template(output_content, template_name, config):
    from tools.build import i18n, post_build

    # 404.html is a theme template, not a page: on_post_page never sees it
    if template_name != "404.html":
        return output_content
    return post_build.theme_fixes(output_content, template_name, i18n.build_language(config))


# After Material's search plugin has written search/search_index.json (priority 0), and before mkdocs-static-i18n
# (-100) builds the next language into the same folder, overwriting the root's search index and 404 page.
@event_priority(-90)
def on_post_build(config):
    """The site-level post-build step (tools/build/post_build.py finish_site) after this language's pages.

    The page policy's script hashes are written after the last language's pages only: the Chinese build's
    on_post_build runs the English build, and every page's policy must list every page's scripts (csp.py)."""
    from tools.build import csp, i18n, post_build

    lang = i18n.build_language(config)
    plugin = config.plugins.get("i18n")
    languages = plugin.build_languages if plugin is not None else [lang]
    last = lang == languages[-1]
    for line in post_build.finish_site(Path(config.site_dir), lang, notebook_css=_notebook_css,
                                       kept=i18n.kept_files(config) if plugin is not None else {},
                                       script_sources=_hook(config, csp).collected_sources() if last else None):
        log.info(line)


def _hook(config, module):
    """The module MkDocs loaded from ``module``'s file as a hook: another module object than ``import`` gives,
    and the one whose events ran, so the one holding what they collected."""
    path = Path(module.__file__).resolve()
    for hook in config["hooks"].values():
        if Path(hook.__file__).resolve() == path:
            return hook
    raise SystemExit(f"{path.relative_to(ROOT)} is not among mkdocs.yml's hooks: the build needs it there")
