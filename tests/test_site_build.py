"""The built site: strict build, computed numbers in the HTML, nothing loaded from the network."""

import html as html_lib
import json
import math
import re
from pathlib import Path

import pytest

from macro_env import MacroEnv
from site_support import ROOT

pytestmark = pytest.mark.build

LESSON3_MD = ROOT / "docs" / "lessons" / "03-sinusoidal.md"


def html(site_dir: Path, page: str) -> str:
    return (site_dir / page / "index.html").read_text(encoding="utf-8")


def test_lesson3_shows_computed_numbers_that_its_markdown_does_not_type(site_dir):
    page = html(site_dir, "lessons/03-sinusoidal")
    md = LESSON3_MD.read_text(encoding="utf-8")
    slowest = f"{2 * math.pi * 10_000 ** (14 / 16):,.0f}"  # §3.5 at d = 16, base 10,000
    ratio = f"{0.02 / (1 / math.sqrt(2)):.1%}"  # std 0.02 against RMS 1/√2
    assert slowest == "19,869" and ratio == "2.8%"
    for value in (slowest, ratio):
        assert value in page, f"{value} missing from the built lesson 3"
        assert value not in md, f"{value} is typed in the Markdown; it must come from a macro"


def chinese_lessons() -> list[Path]:
    """docs/lessons/*.md without the English pages beside them (*.en.md, built under en/)."""
    return sorted(md for md in (ROOT / "docs" / "lessons").glob("*.md") if not md.name.endswith(".en.md"))


def test_every_lesson_page_is_built(site_dir):
    for md in chinese_lessons():
        assert (site_dir / "lessons" / md.stem / "index.html").is_file(), md.name
        assert (site_dir / "en" / "lessons" / md.stem / "index.html").is_file(), f"en: {md.name}"


ASSET = re.compile(r"""<(?:script|img|link|source|iframe)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.I)


def test_no_page_loads_anything_from_another_host(site_dir):
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for url in ASSET.findall(text):
            if url.startswith(("http://", "https://", "//")):
                # <link rel="canonical"> and the repo link are navigation, not loads
                tag = re.search(rf"<[^>]*{re.escape(url)}[^>]*>", text).group(0)
                assert re.search(r'rel="(canonical|alternate)"', tag), f"{page.relative_to(site_dir)} loads {url}"
        assert "fonts.googleapis" not in text and "cdn.jsdelivr" not in text and "unpkg.com" not in text


def test_math_is_set_at_build_time_by_the_sites_own_katex(site_dir):
    """Every formula arrives rendered (KaTeX's HTML for the eye, MathML for screen readers); pages load
    KaTeX's stylesheet and fonts from the site, and no KaTeX script (tools/build/katex_render.py)."""
    page = html(site_dir, "lessons/03-sinusoidal")
    formulas = re.findall(r'<(span|div) class="arithmatex">(.*?)</\1>', page, re.S)
    assert len(formulas) > 100
    for _, inner in formulas:
        assert re.match(r'(<span class="katex-display">)?<span class="katex"><span class="katex-mathml"><math', inner), inner[:80]
    assert page.count('<span class="katex-html" aria-hidden="true">') == page.count('<span class="katex-mathml">') >= len(formulas)
    css = (site_dir / "vendor/katex/katex.min.css").read_text()
    for font in set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css)):
        assert (site_dir / "vendor/katex" / font).is_file(), font
    for path in site_dir.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "katex.min.js" not in text and "auto-render" not in text, f"{path.relative_to(site_dir)} loads KaTeX's script"


def test_figures_are_served_in_both_schemes_with_alt_text(site_dir):
    page = html(site_dir, "lessons/03-sinusoidal")
    imgs = re.findall(r"<img [^>]*>", page)
    figs = [i for i in imgs if "/figures/" in i]
    assert figs, "lesson 3 shows no built figure"
    for tag in figs:
        alt = re.search(r'alt="([^"]*)"', tag).group(1)
        assert re.search(r"[\u4e00-\u9fff]", alt), tag
        src = re.search(r'src="([^"#]+)', tag).group(1)
        assert (site_dir / "lessons/03-sinusoidal" / src).resolve().is_file(), src
    assert any("#only-light" in t for t in figs) and any("#only-dark" in t for t in figs)


def test_search_is_chinese(site_dir):
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert "zh" in index["config"]["lang"]


def test_every_widget_on_the_site_starts_from_the_examples(site_dir):
    """The widget() macro writes posenc.examples.WIDGET_DEFAULTS into the page: every key, as data-*."""
    from posenc.examples import WIDGET_DEFAULTS

    seen = set()
    for page in site_dir.rglob("*.html"):
        for tag in re.findall(r'<div class="pe-widget"[^>]*>', page.read_text(encoding="utf-8")):
            name = re.search(r'data-pe-widget="([^"]+)"', tag).group(1)
            attrs = set(re.findall(r" data-([a-z-]+)=", tag)) - {"pe-widget"}
            assert attrs == {k.replace("_", "-") for k in WIDGET_DEFAULTS[name]}, (page.name, name)
            seen.add(name)
    assert seen == set(WIDGET_DEFAULTS), f"widgets never placed: {set(WIDGET_DEFAULTS) - seen}"


def test_experiment_sections_show_results_figures_and_checked_sentences(site_dir):
    from posenc import quantities
    from posenc.experiment import claims

    sections = {
        "lessons/03-sinusoidal": ("exp_training_curves", "exp_position_loss"),
        "lessons/05-long-context": ("exp_rope_scaling",),
        "lessons/06-partial-nope": ("exp_nope_vs_rope",),
    }
    for page, figs in sections.items():
        text = html(site_dir, page)
        section = text[text.index('id="experiment"'):]
        assert "实验结果由训练实验填入" not in text, f"{page} still shows the placeholder"
        for fig in figs:
            assert f"figures/{fig}.light.svg" in section and f"figures/{fig}.dark.svg" in section, (page, fig)
        stated = re.findall(r'<span class="pe-claim" data-claim="([a-z0-9_]+)"[^>]*>([^<]+)</span>', section)
        assert stated, f"{page}: no checked sentence in the experiment section"
        for name, sentence in stated:
            assert html_lib.unescape(sentence) == claims.check(name), name
    # a number from the results file reaches the page
    assert quantities.text("exp_in_dist_learned") in html(site_dir, "lessons/03-sinusoidal")


def test_claim_macro_refuses_an_unknown_or_contradicted_sentence(monkeypatch):
    macros = MacroEnv().macros
    with pytest.raises(ValueError, match="unknown claim 'nope_is_best'.*posenc/experiment/claims.py"):
        macros["claim"]("nope_is_best")
    from posenc.experiment import claims

    name = "nope_rises_slightly_past_train_len"
    real = claims.CLAIMS[name]
    # the same sentence backed by a check the results contradict: NoPE's rise is far below "clearly"
    monkeypatch.setitem(claims.CLAIMS, name, claims.Claim(real.text, (claims.Check("clearly", ("rise", "nope")),)))
    with pytest.raises(claims.ClaimFailed, match="越过训练长度之后 loss 几乎不变"):
        macros["claim"](name)


def test_no_experiment_placeholder_in_a_normal_build(site_dir):
    """POSENC_EXPERIMENT_PENDING=1 is only for drafting while results are re-computed: the real build has no placeholder."""
    from tools.build.macros import PENDING_MARK

    hits = [p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*.html") if "pe-pending" in p.read_text(encoding="utf-8")]
    assert "pe-pending" in PENDING_MARK
    assert not hits, f"pages with experiment placeholders (was POSENC_EXPERIMENT_PENDING set?): {hits}"


def test_each_figure_links_its_svg_for_a_full_size_view(site_dir):
    """Tapping a figure opens its SVG (tools/build/macros.py figure(); docs/javascripts/figures.js shows it in a dialog)."""
    page = html(site_dir, "lessons/03-sinusoidal")
    for theme in ("light", "dark"):
        links = re.findall(rf'<a class="pe-zoom pe-zoom--{theme}" href="([^"]+)"[^>]*>\s*<img [^>]*src="([^"]+)"', page)
        assert links, f"lesson 3 has no {theme} figure link"
        for href, src in links:
            assert src == f"{href}#only-{theme}", (href, src)
            assert (site_dir / "lessons/03-sinusoidal" / href).resolve().is_file(), href


def test_pages_have_the_edit_and_the_report_buttons(site_dir):
    page = html(site_dir, "lessons/03-sinusoidal")
    assert re.search(r'<a href="https://github\.com/[^"]+/edit/main/docs/lessons/03-sinusoidal\.md"[^>]*rel="edit"', page)
    assert 'aria-label="报告错误"' in page


def _footer_next(site_dir: Path, page: str) -> str | None:
    text = (site_dir / page / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<a href="([^"]+)" class="md-footer__link md-footer__link--next"', text)
    if not m:
        return None
    import posixpath

    return posixpath.normpath(posixpath.join(page, m.group(1))).strip("/")


def test_a_lessons_next_page_is_the_next_lesson(site_dir):
    """The footer's 下一页 walks the lessons in order; the notebooks form their own sequence after them."""
    lessons = [f"lessons/{md.stem}" for md in chinese_lessons()]
    for here, there in zip(lessons, lessons[1:]):
        assert _footer_next(site_dir, here) == there, f"{here}: next is {_footer_next(site_dir, here)}, want {there}"
    assert not (_footer_next(site_dir, lessons[-1]) or "").startswith("notebooks/")
    notebooks = sorted(p.parent.relative_to(site_dir).as_posix() for p in (site_dir / "notebooks").glob("*/index.html"))
    for here, there in zip(notebooks, notebooks[1:]):
        assert _footer_next(site_dir, here) == there


def test_no_list_item_is_left_as_text(site_dir):
    """A list item written straight under a paragraph's last line, with no blank line, is that paragraph's text in
    Python-Markdown: the results page's "- **Beyond the training length.**" bullet printed as a literal "- " and joined
    the paragraph before it. In the rendered text a marker can only stand at a line's start where that happened."""
    from bs4 import BeautifulSoup

    marker = re.compile(r"\n[ \t]*([-*+]|\d+[.)])[ \t]")
    left = []
    for page in sorted(site_dir.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if not marker.search(html):  # most pages: nothing to look at more closely (parsing them all takes seconds)
            continue
        article = BeautifulSoup(html, "html.parser").find("article")
        for text in article.find_all(string=marker) if article else []:
            if not text.find_parent(["code", "pre", "script", "style", "math", "svg"]):
                left.append(f"{page.relative_to(site_dir)}: {text.strip()[:60]!r} in <{text.parent.name}>")
    assert not left, "a list marker printed as text (put a blank line before the item):\n" + "\n".join(left)


TAG_LINK = re.compile(r'<a class="pe-tag pe-tag--(\w+)" href="([^"#]*)#([^"]+)" aria-label="[^"]*">')


def _references_entries(site_dir: Path, page: str) -> dict[str, tuple[str, str]]:
    """The references page's source list: anchor → (the entry's tag class, its source line as HTML, without the link)."""
    text = html(site_dir, page)
    # an English page marks a source's Chinese words as Chinese (<span lang="zh">): the source's text is the rest
    return {a: (tag, re.sub(r'</?span[^>]*>', "", re.sub(r" · <a [^>]*>[^<]*</a>$", "", dd))) for a, tag, dd in
            re.findall(r'<dt id="([^"]+)">.*?<span class="pe-tag pe-tag--(\w+)"[^>]*>[^<]*</span></dt>\s*<dd>(.*?)</dd>', text, re.S)}


def test_each_value_tag_links_to_its_own_source_on_the_references_page(site_dir):
    """A reported value's tag (tools/build/sources.py) is a link to the references page of the page's language, to the
    entry of that fact or model field: its tag and its source as posenc/data writes them. A page carries no source
    text of its own (no tooltip): lesson 5 quotes the most values."""
    from posenc import configs, facts

    def source(anchor: str, lang: str) -> str:
        kind, _, name = anchor.partition("-")
        if kind == "fact":
            return facts.get(name).source_in(lang)
        model = next(k for k in configs.keys() if name.startswith(k + "-") and name[len(k) + 1:] in configs.load(k).fields)
        return configs.load(model).field(name[len(model) + 1:]).source_in(lang)

    seen = 0
    for lang, prefix in (("zh", ""), ("en", "en/")):
        entries = _references_entries(site_dir, prefix + "references")
        for page in sorted((site_dir / prefix / "lessons").glob("*/index.html")):
            text = page.read_text(encoding="utf-8")
            links = TAG_LINK.findall(text)
            assert text.count('class="pe-tag') == len(links), f"{page}: a value's tag that is not a link to its source"
            for tag, href, anchor in links:
                seen += 1
                target = (page.parent / href).resolve()
                assert target == (site_dir / prefix / "references").resolve(), f"{page}: a tag links to {href}, not {prefix}references/"
                assert anchor in entries, f"{page}: #{anchor} is not an entry of {prefix}references/"
                assert entries[anchor] == (tag, html_lib.escape(source(anchor, lang))), f"{page}: #{anchor}"
    assert seen > 100


def test_the_data_flow_panels_tags_link_to_their_fields_entries(site_dir):
    """The data-flow panel's data (assets/dataflow.json, and the English beside the English pages) gives each config
    field of a real model the link its tag becomes (docs/javascripts/widgets/dataflow.js resolves it against the data's
    own URL): to the entry of that model's field on the references page of the same language, with the field's tag."""
    from posenc import configs

    seen = 0
    for prefix in ("", "en/"):
        data_file = site_dir / prefix / "assets" / "dataflow.json"
        entries = _references_entries(site_dir, prefix + "references")
        for m in json.loads(data_file.read_text(encoding="utf-8"))["models"]:
            for label, _value, tag, link in m["fields"]:
                if link is None:
                    assert m["key"] not in configs.keys(), f"{data_file}: {m['key']} {label} has no link to its source"
                    continue
                seen += 1
                path, _, anchor = link.partition("#")
                assert (data_file.parent / path).resolve() == (site_dir / prefix / "references").resolve(), f"{data_file}: {link}"
                assert anchor.startswith(f"model-{m['key']}-") and entries[anchor][0] == tag.lower(), f"{data_file}: {link}"
    assert seen > 20
