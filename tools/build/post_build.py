"""The post-build step: each page's HTML, as the generator and its theme wrote it, made the site's; then the site.

Nothing here knows the site generator: HTML in, HTML out (plus the files a step writes beside the pages).
The MkDocs hooks call these for every page, in the order mkdocs.yml's ``hooks:`` runs them (the one list of the
build's steps):

- ``theme_fixes``: Material's markup that fails axe-core gets its missing names, in the page's language
  (tools/build/mkdocs_hooks.py; the 404 page too);
- the language selector pointing at the same page in the other language (tools/build/i18n.py ``alternate_links``);
- every formula set by KaTeX (tools/build/katex_render.py ``render_page``);
- wide tables as cards on a phone (tools/build/table_cards.py ``mark_wide_tables``);
- the page policy (tools/build/csp.py ``with_policy``), last, its script hashes still a placeholder.

A notebook page (nbconvert's HTML inside the page) is cleaned before the theme wraps it: ``notebook_page``.

Once a language's pages are all written, ``finish_site`` does what needs the whole site folder, in this order:
KaTeX's fonts cut to the characters every page's formulas draw (tools/build/katex_fonts.py), the search index
cleaned (tools/build/search.py ``clean_index``), the language's search index and 404 page moved into its folder
(tools/build/i18n.py ``separate_language``), the notebooks' stylesheets written, and, after the last language,
every page's policy given the script hashes of every page (tools/build/csp.py). It takes plain paths and values:
what the per-page steps gathered (the notebooks' stylesheets, the script hashes, the default language's root
files) is passed in. tools/build/mkdocs_hooks.py calls it after each language's build; another generator can run
it on the folder it wrote:

    python -m tools.build.post_build PAGE.html [--lang en]     # the theme fixes of one written page, to stdout
    python -m tools.build.post_build --site DIR [--lang en]    # finish_site on a written site, hashes read from its pages
"""

from __future__ import annotations

import argparse
import hashlib
import posixpath
import re
import sys
from pathlib import Path


# Material markup that fails axe-core or calls another host, and its fix (in the build's language,
# tools/build/i18n.py UI). Each must match: a theme upgrade that changes the markup fails the build instead
# of silently losing the fix.
def theme_fix_list(lang: str) -> list[tuple[str, str]]:
    from tools.build import i18n

    return [
        # the search overlay is role="dialog" with no name (axe aria-dialog-name, serious)
        ('<div class="md-search" data-md-component="search" role="dialog">',
         f'<div class="md-search" data-md-component="search" role="dialog" aria-label="{i18n.text(lang, "search_dialog")}">'),
        # navigation.instant.progress: a progressbar with no name (axe aria-progressbar-name, serious)
        ('data-md-component="progress" role="progressbar">',
         f'data-md-component="progress" role="progressbar" aria-label="{i18n.text(lang, "progress")}">'),
    ]


def theme_fixes(html: str, where: str, lang: str = "zh") -> str:
    """``html`` (a whole page the theme wrote) with every fix of ``theme_fix_list`` applied."""
    for old, new in theme_fix_list(lang):
        if old not in html:
            raise SystemExit(f"{where}: theme markup {old!r} not found; update theme_fix_list in tools/build/post_build.py")
        html = html.replace(old, new)
    return html


# mkdocs-jupyter (nbconvert's lab template) writes into every notebook page a MathJax loader
# (src="" here, cdnjs by default), its config, and a module script that imports mermaid from
# cdnjs. The site renders math with its own KaTeX and has no mermaid output: drop the block.
_NOTEBOOK_CDN = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mermaid configuration -->", re.S)
_NOTEBOOK_CODE = re.compile(r'(<div class="highlight-ipynb[^"]*">\s*<pre)>')

# mkdocs-jupyter inlines nbconvert's JupyterLab CSS (~580 KB) and the Pygments CSS into every notebook
# page as <style> blocks, and then appends the Pygments CSS once more as the repr of a Python list
# (nbconvert2.py: f"<style>{resources['inlining']['css']}</style>"), which is not CSS at all.
# The real blocks move into one stylesheet, named by its content's hash (a browser caches it once for
# every notebook page), and the broken one goes.
_NOTEBOOK_STYLE = re.compile(r'<style type="text/css">(.*?)</style>\s*', re.S)
_NOTEBOOK_STYLE_REPR = re.compile(r"<style>\s*\['.*?'\]\s*</style>\s*", re.S)


def notebook_page(html: str, where: str, url: str) -> tuple[str, dict[str, str]]:
    """A notebook page's content (nbconvert's HTML) without its CDN block, its code reachable by keyboard,
    and its styles in a stylesheet: (the content, {site path of the stylesheet: its CSS}). ``url`` is the
    page's site URL (no leading slash), to link the stylesheet relative to it."""
    html, n = _NOTEBOOK_CDN.subn("", html)
    if n != 1:
        raise SystemExit(f"{where}: mkdocs-jupyter's MathJax/mermaid block not found; update _NOTEBOOK_CDN in tools/build/post_build.py")
    # a wide code cell scrolls: let keyboard users reach it (axe scrollable-region-focusable)
    html = _NOTEBOOK_CODE.sub(r'\1 tabindex="0">', html)
    blocks = _NOTEBOOK_STYLE.findall(html)
    if not blocks:
        raise SystemExit(f"{where}: no <style> block from mkdocs-jupyter; update _NOTEBOOK_STYLE in tools/build/post_build.py")
    css = "\n".join(block.strip() for block in blocks) + "\n"
    name = f"stylesheets/notebook.{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    first = _NOTEBOOK_STYLE.search(html).start()
    link = f'<link rel="stylesheet" href="{posixpath.relpath(name, url or ".")}">\n'
    html = html[:first] + link + _NOTEBOOK_STYLE.sub("", html[first:])
    html, n = _NOTEBOOK_STYLE_REPR.subn("", html)
    if n > 1:
        raise SystemExit(f"{where}: {n} list-shaped <style> blocks; expected mkdocs-jupyter's one")
    return html, {name: css}


def write_files(site_dir: Path, files: dict[str, str]) -> None:
    """Write ``files`` ({site path: text}) into the built site."""
    for name, text in files.items():
        (site_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (site_dir / name).write_text(text, encoding="utf-8")


def finish_site(site: Path, lang: str, *, script_sources: str | None, notebook_css: dict[str, str] | None = None,
                kept: dict[str, bytes] | None = None, font_cache: Path | None = None) -> list[str]:
    """The site-level post-build step on the site folder ``site``, once ``lang``'s pages are written there.

    In order: KaTeX's fonts cut to the characters the formulas of every page under ``site`` draw; the search
    index (search/search_index.json, if the generator wrote one) cleaned; ``lang``'s search index and 404 page
    moved into ``<lang>/``, the root keeping the default language's (``kept``: carried by the caller from the
    default language's call to a later one's, see tools/build/i18n.py ``separate_language``); ``notebook_css``
    ({site path: CSS}, from ``notebook_page``) written; and every page's policy placeholder replaced by
    ``script_sources`` (tools/build/csp.py), or left for a later language's call when it is None (the policy
    lists every page's scripts, so it is written once every language's pages are). ``font_cache``: where the
    font subsets are cached (tools/build/katex_fonts.py CACHE_DIR unless given). Returns the lines to log.
    """
    from tools.build import csp, i18n, katex_fonts, search

    i18n.check_language(lang)
    site = Path(site)
    if not site.is_dir():
        raise SystemExit(f"{site}: no site folder to finish; build the site first")
    done = []
    chars, before, after = katex_fonts.write_subsets(site, cache_dir=font_cache or katex_fonts.CACHE_DIR)
    done.append(f"KaTeX fonts: cut to the {chars} characters the formulas draw, {before / 1000:.0f} KB → {after / 1000:.0f} KB")
    index = site / "search" / "search_index.json"
    if index.is_file():
        search.clean_index(index)
    i18n.separate_language(site, lang, {} if kept is None else kept)
    write_files(site, notebook_css or {})
    if script_sources is not None:
        csp.finish_site(site, script_sources)
    return done


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("page", type=Path, nargs="?", help="a page as the theme wrote it")
    parser.add_argument("--site", type=Path, help="a written site folder: run finish_site on it instead")
    parser.add_argument("--lang", default="zh", help="the page's or the site's language (default: %(default)s); a site "
                        "in another language has its search index and 404 page moved into <lang>/")
    args = parser.parse_args(argv)
    if (args.page is None) == (args.site is None):
        parser.error("give a PAGE or --site DIR (one of them)")
    if args.site is not None:
        from tools.build import csp

        if not args.site.is_dir():
            parser.error(f"--site {args.site}: no such folder; build the site first")
        # no hook collected the pages' scripts: the same hashes, read from the written pages
        for line in finish_site(args.site, args.lang, script_sources=csp.sources(csp.site_script_hashes(args.site))):
            print(line)
        return 0
    sys.stdout.write(theme_fixes(args.page.read_text(encoding="utf-8"), str(args.page), args.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
