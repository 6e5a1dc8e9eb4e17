"""The course in two languages: where a page's language comes from, and the words the build adds.

The site is built by mkdocs-static-i18n (mkdocs.yml, plugin ``i18n``, suffix structure): Chinese is the
default, at the site root, from ``docs/<page>.md``; English is built after it, under ``/en/``, from
``docs/<page>.en.md`` beside it. Both builds run every hook and macro; each build's language is
``build_language(config)`` (the plugin sets ``theme.language`` for it), each page's language is that
of its source file, ``source_language(src_uri)`` (a Chinese page without its English file yet is built
into the English site as it is, in Chinese: the plugin's fallback, until it is translated).

One registry, two languages: a page quotes the same ``num``/``fact``/``cfg``/``claim``/``figure``/
``widget`` calls in either language and the macros print them in the page's language
(posenc/formatting.py for numbers, posenc/experiment/claims.py for the experiment's sentences,
figures_src/labels/<lang>.yaml for figures, docs/javascripts/widgets/strings/<lang>.js for widgets).
``UI`` holds the few words the hooks, macros and templates write themselves.

The language selector (Material's ``extra.alternate``, mkdocs.yml) lands on the same page in the other
language: ``counterpart`` maps a page's URL to the other language's (the same path, with or without
``en/``), written into the selector of every page at build time (``alternate_links``), and again in the
browser after an instant navigation (docs/javascripts/alternate.js), which also makes a link into the
other language a full page load, so ``<html lang>`` (read by the widgets, the search and screen readers)
is always the page's own.
"""

from __future__ import annotations

import posixpath
import re

from posenc.formatting import LANGUAGES, check_declared, check_language

DEFAULT = LANGUAGES[0]  # zh, at the site root
OTHERS = LANGUAGES[1:]  # each under /<lang>/

# What the hooks, macros and templates write in a page (the page's own prose comes from its file).
UI = {
    "zh": {
        "search_dialog": "搜索",
        "progress": "页面加载进度",
        "zoom": "点按查看大图",
        "figure_pending": "图 {name}：{mark}",
        "figure_skipped": "图：{alt}",
        "pending": "〔实验结果待定〕",
        "claim_title": "这句话每次构建都会用实验结果重新核对，结果不再支持时构建失败（posenc/experiment/claims.py）",
        "snippet_output": "运行输出（构建时实际运行得到）",
        "notebook_title": "动手笔记本",
        "notebook_text": "这一课的关键计算，用 `posenc` 一步一步写在笔记本里，末尾附本课练习：",
        "notebook_read": "在网页上阅读",
        "notebook_download": "下载 lesson{n}.ipynb",
        "notebook_run": "（在装好本项目的环境里运行）。",
        "tag_V": "已核实", "tag_V3": "副本核实", "tag_U": "未核实",
        "tag_link": "{label}：查看出处",
        "source_value": "{what}：<strong>{value}</strong>",
        "source_field": "{model} 的 {field}：<strong>{value}</strong>",
        "sources_lesson": "{lesson}首次引用的值",
        "sources_models": "模型配置",
        "tag_legend_line": "- {badge}：{meaning}（数据文件里记作 {tag}）。",
        "report_error": "报告错误",
        "report_title": "报告错误：{source}",
        "report_body": "页面：{page}\n源文件：{source}\n\n哪里有错？正确的说法是什么，出处在哪里？\n",
        "download_ipynb": "下载 .ipynb",
        "open_colab": "在 Colab 中打开",
        "dark_mode": "切换到深色模式",
        "light_mode": "切换到浅色模式",
        "reading_time": "阅读加动手约 {main} 分钟",
        "reading_time_folded": "，折叠的选读另约 {folded} 分钟",
        "course_reading_time": "所有课的主线加起来，阅读加动手约 {minutes} 分钟（约 {hours} 小时；不含实验全貌页）",
    },
    "en": {
        "search_dialog": "Search",
        "progress": "Page loading progress",
        "zoom": "Click or tap to enlarge",
        "figure_pending": "figure {name}: {mark}",
        "figure_skipped": "figure: {alt}",
        "pending": "[experiment results pending]",
        "claim_title": "This sentence is checked against the experiment's results at every build; the build fails when the results no longer support it (posenc/experiment/claims.py)",
        "snippet_output": "Output (from running it at build time)",
        "notebook_title": "Hands-on notebook",
        "notebook_text": "This lesson's key computations, step by step with `posenc`, with the lesson's exercises at the end: ",
        "notebook_read": "read it on the site",
        "notebook_download": "download lesson{n}.ipynb",
        "notebook_run": " (run it where this project is installed).",
        "tag_V": "verified", "tag_V3": "verified copy", "tag_U": "unverified",
        "tag_link": "{label}: see its source",
        "source_value": "{what}: <strong>{value}</strong>",
        "source_field": "{model}, {field}: <strong>{value}</strong>",
        "sources_lesson": "Values first quoted in {lesson}",
        "sources_models": "Model configurations",
        "tag_legend_line": "- {badge}: {meaning} (written {tag} in the data files).",
        "report_error": "Report an error",
        "report_title": "Report an error: {source}",
        "report_body": "Page: {page}\nSource file: {source}\n\nWhat is wrong? What is right, and where does it say so?\n",
        "download_ipynb": "Download .ipynb",
        "open_colab": "Open in Colab",
        "dark_mode": "Switch to dark mode",
        "light_mode": "Switch to light mode",
        "reading_time": "About {main} min to read and try",
        "reading_time_folded": " (+{folded} min folded)",
        "course_reading_time": "All the lessons' main paths together take about {minutes} min to read and try (about {hours} hours; the experiment page not counted)",
    },
}
# Every language writes every word the build writes, with the same {fields} as the default language's.
check_declared("tools/build/i18n.py UI", UI, same_keys=True)

_SUFFIX = re.compile(r"\.(" + "|".join(OTHERS) + r")(\.\w+)$")


def source_language(src_uri: str) -> str:
    """The language a source file is written in: 'lessons/04-rope.en.md' → 'en', 'lessons/04-rope.md' → 'zh'."""
    m = _SUFFIX.search(src_uri)
    return m.group(1) if m else DEFAULT


def source_for(src_uri: str, lang: str) -> str:
    """The source file of ``src_uri``'s page in ``lang``: ('index.md', 'en') → 'index.en.md', and back."""
    check_language(lang)
    base = _SUFFIX.sub(r"\2", src_uri)
    if lang == DEFAULT:
        return base
    stem, ext = posixpath.splitext(base)
    return f"{stem}.{lang}{ext}"


def build_language(config) -> str:
    """The language the current build writes: the i18n plugin's current language (set before each build
    starts; it sets theme.language for it only in its own on_config, late), else the theme's."""
    plugin = config.plugins.get("i18n") if hasattr(config, "plugins") else None
    lang = getattr(plugin, "current_language", None) or config.theme.get("language") or DEFAULT
    return check_language(lang)


def text(lang: str, key: str, **values) -> str:
    """One of the UI words in ``lang``, with ``values`` filled in."""
    return UI[check_language(lang)][key].format(**values)


def counterpart(url: str, lang: str) -> str:
    """A page's site URL (no leading slash, as MkDocs writes page.url) in language ``lang``.

    'lessons/04-rope/' → 'en/lessons/04-rope/' for en; 'en/lessons/04-rope/' → 'lessons/04-rope/' for zh.
    """
    check_language(lang)
    path = url
    for other in OTHERS:
        if path == other + "/" or path.startswith(other + "/"):
            path = path[len(other) + 1:]
            break
    return path if lang == DEFAULT else f"{lang}/{path}"


_SELECT_LINK = re.compile(r'(<a href=")[^"]*(" hreflang="(\w+)" class="md-select__link">)')
_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="\w+">')


def alternate_links(output: str, page_url: str, where: str) -> str:
    """A page's language selector pointing at the same page in each language, and no alternate
    links in its head.

    Material writes mkdocs.yml's extra.alternate (each language's home) into the selector and as
    <link rel="alternate"> into the head; its script then fetches a sitemap for every such link on
    every page load. The selector's links become this page's counterparts (relative, as MkDocs
    writes links), and the head links go: the selector is what a reader uses.
    """
    depth = page_url.count("/")
    up = "../" * depth or "./"

    def link(m: re.Match) -> str:
        return f"{m.group(1)}{up}{counterpart(page_url, m.group(3))}{m.group(2)}"

    output, n = _SELECT_LINK.subn(link, output)
    if n != len(LANGUAGES):
        raise SystemExit(f"{where}: expected Material's language selector with {len(LANGUAGES)} links, found {n}; "
                         "check extra.alternate in mkdocs.yml and _SELECT_LINK in tools/build/i18n.py")
    return _HEAD_ALTERNATE.sub("", output)


# --- as a MkDocs hook (mkdocs.yml: hooks) -----------------------------------------------------------------
#
# Both languages' builds run in one `mkdocs build`: the Chinese first, then, from the plugin's
# on_post_build, the English one into the same site folder, with the same config and plugin objects.
# What each writes at the site root that belongs to one language is kept apart here:
# - search: each language gets its own index, Chinese pages segmented with jieba (search/), English
#   pages with lunr's English stemmer (en/search/); docs/javascripts/lazy-search.js asks an English
#   page's search for en/search/search_index.json, so a search lists its own language's pages only.
#   mkdocs-static-i18n would merge every language into the root index afterwards: that step is off.
# - 404.html: Material writes it at the root in every build; the root keeps the Chinese one and the
#   English one goes to en/404.html.
# Both are done after each language's build by ``separate_language``, a piece of the site-level post-build
# step (tools/build/post_build.py finish_site, called by tools/build/mkdocs_hooks.py).


try:
    from mkdocs.plugins import event_priority
except ImportError:  # imported without MkDocs
    def event_priority(_):
        return lambda f: f


def kept_files(config) -> dict:
    """What the default language's build wrote at the root (``separate_language``), kept on the i18n plugin,
    which both languages' builds share."""
    plugin = config.plugins["i18n"]
    if not hasattr(plugin, "posenc_kept"):
        plugin.posenc_kept = {}
    return plugin.posenc_kept


def _search_plugin(config):
    return next((p for name, p in config.plugins.items() if name in ("search", "material/search")), None)


def check_declared_languages(config) -> None:
    """mkdocs.yml names the languages twice (the i18n plugin's ``languages`` and ``extra.alternate``, the
    selector that the widgets and docs/javascripts/alternate.js read in the browser); both must be the
    course's LANGUAGES (posenc/formatting.py), in that order, the default first."""
    plugin = config.plugins.get("i18n")
    places = {"extra.alternate": [a.get("lang") for a in config.extra.get("alternate", [])]}
    if plugin is not None:
        places["plugins.i18n.languages"] = [lang.locale for lang in plugin.config.languages]
    for where, langs in places.items():
        if tuple(langs) != LANGUAGES:
            raise SystemExit(f"mkdocs.yml {where} lists the languages {langs}; the course's languages are "
                             f"{list(LANGUAGES)} (posenc/formatting.py LANGUAGES, the default first): make them the same")


@event_priority(100)  # before Material's search plugin reads its language
def on_config(config):
    check_declared_languages(config)
    lang = build_language(config)
    search = _search_plugin(config)
    if search is not None:
        search.config.lang = [lang]  # lunr's pipeline for the language: zh (with jieba at build) or en (stemming)
    plugin = config.plugins.get("i18n")
    if plugin is not None:
        if not hasattr(plugin, "reconfigure_search_index"):
            raise SystemExit("mkdocs-static-i18n no longer has reconfigure_search_index: check how it merges the "
                             "languages' search indexes and update tools/build/i18n.py")
        plugin.reconfigure_search_index = lambda config: None  # one index per language (see above)
    config.extra["ui"] = UI[lang]  # the templates' words (overrides/partials)
    _keep_notebook_pages()
    return config


def _keep_notebook_pages() -> None:
    """Keep mkdocs-jupyter's notebooks pages when mkdocs-static-i18n sorts the files by language.

    mkdocs-jupyter makes each .ipynb a page by wrapping its File (NotebookFile, whose
    is_documentation_page() is True); mkdocs-static-i18n then makes a new plain File of every file, and a
    plain .ipynb File is no page: the notebooks were copied to notebooks/lessonN/index.html as raw JSON.
    The plugin's file maker is wrapped so that a file that was a page stays one.
    """
    from mkdocs_static_i18n import suffix

    original = suffix.create_i18n_file
    if getattr(original, "keeps_notebook_pages", False):
        return

    def create_i18n_file(file, *args, **kwargs):
        made = original(file, *args, **kwargs)
        if file.is_documentation_page() and not made.is_documentation_page():
            made.is_documentation_page = lambda: True
        return made

    create_i18n_file.keeps_notebook_pages = True
    suffix.create_i18n_file = create_i18n_file


def on_post_page(output, page, config):
    return alternate_links(output, page.url, page.file.src_uri)


def separate_language(site, lang: str, kept: dict[str, bytes]) -> None:
    """After ``lang``'s pass has written the site folder ``site``: its search index and 404 page in its own
    folder, the root keeping the default language's (see above).

    ``kept`` is carried from one language's pass to the next by the caller: the default language's pass puts
    the root's search index and 404 page into it (``{"search": bytes, "404": bytes}``), and a later language's
    pass, once it has moved its own into ``<lang>/``, writes them back at the root.
    """
    from pathlib import Path

    check_language(lang)
    site = Path(site)
    for name, path in (("search", site / "search" / "search_index.json"), ("404", site / "404.html")):
        if not path.is_file():
            continue
        if lang == DEFAULT:
            kept[name] = path.read_bytes()
            continue
        target = site / lang / path.relative_to(site)
        target.parent.mkdir(parents=True, exist_ok=True)
        path.replace(target)
        if name in kept:
            path.write_bytes(kept[name])
    if lang != DEFAULT:
        # the English 404 page's links are absolute under /en/, so Material's instant navigation asks for
        # /en/sitemap.xml: the site's sitemap (both languages, mkdocs-static-i18n's template) is served there too
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            if (site / name).is_file():
                (site / lang / name).write_bytes((site / name).read_bytes())
