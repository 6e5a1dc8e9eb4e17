"""Where each reported value comes from: the references page lists every fact and every model field with its source,
each under an anchor, and the tag after a value on a page (已核实 …) is a link to that entry.

A link, not a tooltip: a tooltip shows on hover only, so a reader on a phone or at the keyboard never saw a source,
and a page carried the text of every source it quotes (lesson 5: 112 sources, an eighth of its compressed HTML, on
every first load).
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from urllib.parse import urlsplit

from posenc import configs, facts
from posenc.formatting import format_value
from tools.build import i18n, lesson_pages
from tools.build.course_macros import page_label

PAGE = "references/"  # the page that lists the sources (docs/references.md calls sources_html)


def fact_anchor(name: str) -> str:
    return f"fact-{name}"


def field_anchor(model: str, field: str) -> str:
    return f"model-{model}-{field}"


def badge(tag: str, lang: str, href: str | None = None) -> str:
    """A value's verification tag; with ``href``, a link to its source's entry (see the module docstring)."""
    label = i18n.text(lang, f"tag_{tag}")
    # data-search-exclude: the label is not indexed (teasers read "PPL 4.92", not "4.92已核实");
    # Material's search plugin removes the attribute from the page once it has indexed it.
    attrs = f'class="pe-tag pe-tag--{tag.lower()}" data-search-exclude="tag"'
    if href is None:
        return f"<span {attrs}>{label}</span>"
    name = html.escape(i18n.text(lang, "tag_link", label=label), quote=True)
    return f'<a {attrs} href="{href}" aria-label="{name}">{label}</a>'


def href(anchor: str, page_url: str, lang: str) -> str:
    """The link from the page at ``page_url`` (MkDocs' page.url) to ``anchor`` on the references page in ``lang``."""
    target = i18n.counterpart(PAGE, lang)
    return posixpath.relpath(target, page_url or ".") + "/#" + anchor


def field_href(model: str, field: str, page_url: str, lang: str) -> str | None:
    """The link from ``page_url`` to the entry of ``model``'s ``field``, or None where the references page lists none
    (sources_html lists every field of every model of posenc.configs; the data-flow panel's project models are not)."""
    if model not in configs.keys() or field not in configs.load(model).fields:
        return None
    return href(field_anchor(model, field), page_url, lang)


def _entry(anchor: str, title: str, tag: str, source: str, url: str, lang: str) -> str:
    link = ""
    if url:
        host = urlsplit(url).netloc or url
        link = f' · <a href="{html.escape(url, quote=True)}">{html.escape(host)}</a>'
    return (f'<dt id="{anchor}">{title}{badge(tag, lang)}</dt>\n'
            f"<dd>{_marked(html.escape(source), lang)}{link}</dd>")


# A run of Chinese (Han, CJK punctuation, full-width forms), with the digits and Latin words inside it
HAN_RUN = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]+"
                     r"(?:[\w.,%+-]*[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]+)*")


def _marked(text: str, lang: str) -> str:
    """On a page in another language, a source's Chinese words (a quotation of a Chinese README) marked as Chinese, so
    that a screen reader reads them as Chinese."""
    if lang == i18n.DEFAULT:
        return text
    return HAN_RUN.sub(lambda m: f'<span lang="zh">{m.group(0)}</span>', text)


def _fact_title(f: facts.Fact, lang: str) -> str:
    # the description is written in Chinese only: an English page names the fact as the data file does
    what = html.escape(f.what) if lang == i18n.DEFAULT else f"<code>{f.name}</code>"
    return i18n.text(lang, "source_value", what=what, value=f.shown_in(lang))


def _field_title(model: configs.ModelConfig, field: str, lang: str) -> str:
    value = model.fields[field].value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        shown = format_value(value, ",", lang)  # as cfg() shows it on a page
    else:
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return i18n.text(lang, "source_field", model=html.escape(model.name), field=f"<code>{field}</code>",
                     value=html.escape(shown))


def sources_html(lang: str) -> str:
    """Every fact, under the lesson whose data file holds it (the first that quotes it), in course order; then every
    model's fields: one entry each."""
    parts = []
    listed = {f"facts_{lesson_pages.lesson_key(page)}.yaml": page for page in lesson_pages.lesson_pages()}
    unlisted = sorted(p.name for p in facts.DATA.glob("facts_*.yaml") if p.name not in listed)
    if unlisted:  # its facts would have no entry, and their tags' links no target
        raise ValueError(f"posenc/data/{', '.join(unlisted)}: no lesson of mkdocs.yml's nav has that key; name the file "
                         f"after the lesson that first quotes its facts ({', '.join(listed)})")
    for name, page in listed.items():
        path = facts.DATA / name
        if not path.is_file():
            continue
        anchor = f"values-{lesson_pages.lesson_key(page)}"
        parts.append(f"### {i18n.text(lang, 'sources_lesson', lesson=page_label(page, lang))} {{ #{anchor} }}\n")
        parts.append(_list(_entry(fact_anchor(f.name), _fact_title(f, lang), f.tag, f.source_in(lang), f.url, lang)
                           for f in map(facts.get, facts.load_entries(path))))
    parts.append(f"### {i18n.text(lang, 'sources_models')} {{ #values-models }}\n")
    parts.append(_list(_entry(field_anchor(key, field), _field_title(m, field, lang), fld.tag, fld.source_in(lang), "", lang)
                       for key in configs.keys() for m in [configs.load(key)] for field, fld in m.fields.items()))
    return "\n".join(parts)


def _list(entries) -> str:
    # data-search-exclude: a search for "YaRN" should find the lessons, not a hundred source lines
    return '<dl class="pe-sources" data-search-exclude="sources">\n' + "\n".join(entries) + "\n</dl>\n"

