"""`make serve`: an edited lesson shown in about a second, its guards run, instead of a whole-site rebuild.

`mkdocs serve` (ProperDocs) rebuilds the whole site, both languages, after any saved file: every page's
macros, guards, Markdown and KaTeX, the figures' cache keys, the stale-notebook check, the search
indexes, the font subsets, the page policy over every page (about 11 s on two cores). An author who
edits one lesson's prose needs one page again. So while serving, the build keeps what a full build made
of each language (its files, navigation and template environment: ``remember``), and a change that
touches only existing Markdown pages in docs/ rebuilds only those pages, in their own language, plus the
English page that falls back to a Chinese source not translated yet (``pages_to_rebuild``). Each runs the
same events a full build runs for a page: the page's macros, every guard of the Markdown stage (the
prose lint, the learner's order, the notation, the sourced claims, a failed macro), Markdown,
the theme template, and every HTML step (KaTeX, table cards, the language selector, the page policy).
As in a strict build, an error fails the rebuild, and the server keeps the last good pages.

A change to figure code only (figures_src/: a figure module or a label table) draws the figures whose
cache key changed, both languages at once, in a warm process per language that imports the edited code
again first (tools/build/figure_workers.py: not a fresh process per save, which starts from nothing), copies
them into the served site, and builds again the pages that show a figure whose alt text or caption
changed (``redraw_figures``: a page shows nothing else of a figure's code; its SVG is linked by a name
that does not change), as the full build would have drawn and written them.

What a page-only rebuild leaves as the last full build made it, until the next one: the other pages
(a changed page title shows in their navigation later), the search index, the KaTeX font subsets (a
formula character new to the site draws in a fallback font) and the site-wide checks that are not
about a page (stale notebooks, widget defaults). Any other change (posenc/, tools/, snippets,
notebooks, the config, a new or removed page, a new figure) is a full rebuild, as before. `mkdocs build` never
takes this path.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.serve")


@dataclass
class Built:
    """What a full build made of one language, to build one of its pages again."""

    files: object  # properdocs Files, after every on_files hook
    nav: object  # Navigation, after every on_nav hook
    env: object  # the theme's Jinja environment, after every on_env hook


# language → Built, from the latest full build; the config object both languages' builds share
BUILT: dict[str, Built] = {}
CONFIG: list = []
_NAV: dict[str, object] = {}
# set while a page-only rebuild runs: the hooks skip their site-wide work (tools/build/mkdocs_hooks.py)
PAGE_ONLY = threading.Event()


def _current():
    """This module as the process has it now: tools/build/freshness.py may have imported it again since the
    server started (after an edit under tools/), and the hooks remember into the module they import."""
    return importlib.import_module(__name__)


def remember_nav(lang: str, nav) -> None:
    """Called by the hooks' on_nav during a serve build (last, after the translation of the navigation)."""
    _NAV[lang] = nav


def remember(lang: str, config, files, env) -> None:
    """Called by the hooks' on_env during a serve build (last): the language's parts are complete."""
    BUILT[lang] = Built(files, _NAV.pop(lang), env)
    CONFIG[:] = [config]


def forget() -> None:
    BUILT.clear()
    _NAV.clear()
    CONFIG.clear()


def pages_to_rebuild(changed: set[Path], docs_dir: Path, built: dict[str, Built]) -> list[tuple[str, str]] | None:
    """[(language, src_uri)] to build again after ``changed``, or None when only a full build will do.

    Only existing Markdown pages under docs/ (not its snippets), each known to the last full build. A
    Chinese page is built again in the English site too when it has no English file yet (the fallback).
    """
    from tools.build import i18n

    if not changed or not built:
        return None
    out: list[tuple[str, str]] = []
    for path in sorted(changed):
        path = Path(os.path.abspath(path))
        inside = path.is_relative_to(docs_dir)
        src_uri = path.relative_to(docs_dir).as_posix() if inside else ""
        if not path.exists():
            # an editor's temporary file, gone again; a page that is gone needs a full build
            if inside and any(b.files.get_file_from_path(src_uri) is not None for b in built.values()):
                return None
            continue
        if path.suffix != ".md" or not inside or src_uri.startswith("snippets/"):
            return None
        lang = i18n.source_language(src_uri)
        targets = [lang]
        if lang == i18n.DEFAULT:
            targets += [other for other in i18n.OTHERS
                        if other in built and not (docs_dir / i18n.source_for(src_uri, other)).is_file()]
        for target in targets:
            if target not in built or built[target].files.get_file_from_path(src_uri) is None:
                return None  # a new page, or a language the last build did not write
            out.append((target, src_uri))
    if not out:
        return None
    order = list(built)
    return sorted(set(out), key=lambda item: (order.index(item[0]), item[1]))


def figure_change(changed: set[Path], figures_dir: Path) -> bool:
    """Every changed file is a figure module or a label table under figures_src/ (not its build script):
    a figure redraw, and the pages that show the redrawn figures again (their alt text is in the figure code)."""
    live = False
    for path in changed:
        path = Path(os.path.abspath(path))
        if not path.is_relative_to(figures_dir) or path.name == "build.py":
            return False
        if not path.exists():
            if path.suffix == ".py":
                return False  # a figure module gone: its pages need a full build
            continue  # an editor's temporary file
        if path.suffix not in (".py", ".yaml"):
            return False
        live = True
    return live


def adopt(old) -> None:
    """Take over what ``old`` (this module before tools/build/freshness.py imported it again) remembered."""
    if old.BUILT is not BUILT:
        BUILT.update(old.BUILT)
        CONFIG[:] = old.CONFIG


def figure_texts(registry, langs) -> dict[tuple[str, str], tuple]:
    """{(language, figure): what a page shows of the figure besides its SVG}: the alt text and the caption
    (tools/build/macros.py's figure()), or the error that stands in for them (results pending, or a mistake)."""
    out = {}
    for lang in langs:
        for name, spec in registry.items():
            try:
                out[lang, name] = (spec.alt_text(lang), spec.caption_text(lang))
            except Exception as err:  # the page shows the pending note, or its build fails: built again if it changed
                out[lang, name] = ("raised", type(err).__name__, str(err))
    return out


def served_figure_texts() -> dict[tuple[str, str], tuple] | None:
    """figure_texts of the figure code the served pages were built with, still imported (called before
    tools/build/freshness.py forgets it); None when that code is not imported."""
    import sys

    registry = getattr(sys.modules.get("figures_src"), "REGISTRY", None)
    return figure_texts(registry, BUILT) if registry else None


def redraw_figures(config, workers, served) -> list[tuple[str, str]] | None:
    """Collect the figures the warm workers (tools/build/figure_workers.py, asked by the caller) drew for every
    language, copy them into the served site, and return the pages that show a figure whose alt text or
    caption changed (``served``: before the edit; None: every page showing a redrawn figure), to build
    again; None when a figure is new or gone (the pages that name it need a full build)."""
    from figures_src.build import load_all
    from tools.build import pre_build

    registry = load_all()  # the figure code as it is now
    now = figure_texts(registry, BUILT)
    done = workers.reports()
    site = Path(config.site_dir)
    plan = []
    if served is not None and {name for _, name in served} != set(registry):
        return None
    for lang in BUILT:
        report = done[lang]
        files = pre_build.figure_files(report, lang)
        log.info(f"figures ({lang}): {len(report.drawn)} drawn, {len(report.cached)} cached ({report.seconds:.1f} s)")
        drawn = {label.rsplit(".", 1)[0] for label in report.drawn}
        changed = drawn if served is None else {name for name in registry if served[lang, name] != now[lang, name]}
        for f in files:
            dest = site / f.dest
            if not dest.is_file():
                return None
            data = f.path.read_bytes()
            if dest.read_bytes() != data:
                dest.write_bytes(data)
        for file in BUILT[lang].files.documentation_pages():
            if file.src_uri.endswith(".md") and file.page is not None and Path(file.abs_dest_path).is_file():
                text = Path(file.abs_dest_path).read_text(encoding="utf-8")
                if any(f"figures/{name}." in text for name in changed):
                    plan.append((lang, file.src_uri))
    return plan


class _NoSearchEntries:
    """Material's search index while pages are built again alone: the index is written by full builds only,
    so the page's entry (its text cut by jieba, the slowest part of building a Chinese page) is not made."""

    def add_entry_from_context(self, page) -> None:
        pass


def _skip_search_entries(config) -> None:
    # on_config gave the plugin a new index; its on_page_context still strips the page's data-search attributes
    for name in ("search", "material/search"):
        plugin = config.plugins.get(name)
        if plugin is not None and hasattr(plugin, "search_index"):
            plugin.search_index = _NoSearchEntries()


def rebuild_pages(plan: list[tuple[str, str]], config) -> None:
    """Build the planned pages again, each with its language's last full build (see the module docstring)."""
    from properdocs import utils
    from properdocs.commands.build import _build_page, _populate_page
    from properdocs.exceptions import Abort
    from properdocs.structure.files import InclusionLevel

    from tools.build import csp

    counter = utils.CountHandler()
    counter.setLevel(logging.WARNING)
    logger = logging.getLogger("properdocs")
    if config.strict:
        logger.addHandler(counter)
    start = time.monotonic()
    PAGE_ONLY.set()
    try:
        i18n_plugin = config.plugins.get("i18n")
        for lang in dict.fromkeys(lang for lang, _ in plan):
            built = BUILT[lang]
            if i18n_plugin is not None:
                i18n_plugin.current_language = lang
            # the language's config, as its build sets it (the theme's words, search language, macros)
            config = config.plugins.on_config(config)
            config.plugins.on_pre_build(config=config)
            macros = config.plugins.get("macros")
            if macros is not None:  # its on_config forgot the navigation it exposes to pages
                macros.on_nav(built.nav, config=config, files=built.files)
            doc_files = built.files.documentation_pages(inclusion=InclusionLevel.is_in_serve)
            _skip_search_entries(config)
            for _, src_uri in (item for item in plan if item[0] == lang):
                page = built.files.get_file_from_path(src_uri).page
                _populate_page(page, config, built.files)
                _build_page(page, config, doc_files, built.nav, built.env)
                page.validate_anchor_links(files=built.files, log_level=config.validation.links.anchors)
                csp.finish_page(Path(page.file.abs_dest_path), csp.SERVE_SCRIPTS)
            for plugin in config.plugins.values():  # a hook that keeps per-build state closes it (tools/build/katex_render.py)
                finish = getattr(plugin, "finish_page_only", None)
                if finish is not None:
                    finish()
        if counts := counter.get_counts():
            msg = ", ".join(f"{v} {k.lower()}s" for k, v in counts)
            raise Abort(f"Aborted with {msg} in strict mode!")
        pages = ", ".join(f"{src} ({lang})" for lang, src in plan)
        log.info(f"page-only rebuild of {pages} in {time.monotonic() - start:.2f} seconds")
    finally:
        PAGE_ONLY.clear()
        logger.removeHandler(counter)


class PageBuilder:
    """The serve loop's builder: a page-only rebuild when it will do, else ProperDocs' own full build."""

    def __init__(self, server, full_builder, config):
        import watchdog.events

        self.full_builder = full_builder
        self.docs_dir = Path(config.docs_dir).resolve()
        self.figures_dir = Path(config.config_file_path).resolve().parent / "figures_src"
        self._changed: set[Path] = set()
        self._lock = threading.Lock()
        self._full_failed = False
        handler = watchdog.events.FileSystemEventHandler()
        handler.on_any_event = self._record  # type: ignore[method-assign]
        watched = [config.docs_dir, *(config.watch or [])]
        if config.config_file_path:
            watched.append(config.config_file_path)
        for path in dict.fromkeys(os.path.abspath(p) for p in watched):
            server.observer.schedule(handler, path, recursive=os.path.isdir(path))
        self.workers = None
        self._start_workers(_current())  # now, so that they are warm by the first edit

    def _start_workers(self, current):
        """Figure code edited is drawn by a warm process per language the last full build wrote
        (tools/build/figure_workers.py); none before a full build has succeeded, or with figures switched off."""
        if self.workers is None and current.BUILT and os.environ.get("POSENC_SKIP_FIGURES") != "1":
            import atexit

            from tools.build import figure_workers

            self.workers = figure_workers.Workers(list(current.BUILT))
            atexit.register(self.workers.stop)
        return self.workers

    def _record(self, event) -> None:
        if event.is_directory:
            return
        with self._lock:
            for p in (event.src_path, getattr(event, "dest_path", "") or ""):
                if p:
                    self._changed.add(Path(os.fsdecode(p)))

    def _take(self) -> set[Path]:
        with self._lock:
            changed, self._changed = self._changed, set()
        return changed

    def __call__(self, config=None):
        changed = self._take()
        current = _current()
        if config is None and not self._full_failed and current.CONFIG:
            plan = pages_to_rebuild(changed, self.docs_dir, current.BUILT)
            if plan is not None:
                # a failed page (a guard's error) keeps the last full build: the fix is a page-only rebuild too
                current.rebuild_pages(plan, current.CONFIG[0])
                return
            if figure_change(changed, self.figures_dir) and self._start_workers(current) is not None:
                from tools.build import freshness

                start = time.monotonic()
                # until it succeeds: a failed redraw may have copied figures without building their pages, and
                # the figure code then imported is not what the served pages show; the next change builds all
                self._full_failed = True
                self.workers.start()  # they draw while this process imports the figure code again
                served = current.served_figure_texts()
                freshness.forget_changed_code()  # the figure code as it is now; this module is imported again too
                fresh = _current()
                fresh.adopt(current)
                plan = fresh.redraw_figures(fresh.CONFIG[0], self.workers, served)
                if plan is not None:
                    if plan:
                        fresh.rebuild_pages(plan, fresh.CONFIG[0])
                    log.info(f"figures redrawn in {time.monotonic() - start:.2f} seconds")
                    self._full_failed = False
                    return
                current = fresh
        current.forget()
        self._full_failed = True  # until it succeeds: what a failed build remembered is partial
        self.full_builder(config)
        self._full_failed = False
