"""The English edition's machinery (tools/build/i18n.py): numbers, claims, figure labels, widget words,
notebooks and the language selector, each in both languages. Cheap: no site build, two figures drawn.

What is still to translate is listed by tests/test_i18n_parity.py, which fails until the English edition
is complete; everything here holds now.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import string
import subprocess
import sys

import pytest

from site_support import ROOT

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
WIDGET_STRINGS = ROOT / "docs" / "javascripts" / "widgets" / "strings"

# Figure modules drawn in both languages. Add a module here when its section is in both label tables:
# its English figures, alt texts and captions are then held to "no CJK character" below.
CONVERTED_FIGURE_MODULES = ("dataflow", "experiment", "lesson1", "lesson2", "lesson3", "lesson3b", "lesson4", "lesson5", "lesson6", "lesson6b")
# Widgets whose every word comes from strings/<lang>.js (the others still hold Chinese; test_i18n_parity lists them).
CONVERTED_WIDGETS = ("alibi-bias", "content-position", "dataflow", "rope-pair", "scaling-explorer", "sin-clock", "sin-dot", "sin-heatmap", "swap-attention", "t5-buckets")


# --- numbers ------------------------------------------------------------------------------------------------


def test_numbers_print_the_same_digits_in_both_languages():
    from posenc.formatting import format_value

    for value, fmt, text in [(19869.18, ",.0f", "19,869"), (0.028284, ".1%", "2.8%"), (-0.5, ".1f", "−0.5"), (-0.0004, ".2f", "0.00")]:
        assert format_value(value, fmt, "zh") == format_value(value, fmt, "en") == text


def test_a_list_is_joined_as_each_language_joins_one():
    from posenc.formatting import format_value

    assert format_value((6, 12, -3), "d", "zh") == "6、12、−3"
    assert format_value((6, 12, -3), "d", "en") == "6, 12, −3"


def test_an_estimate_over_seeds_reads_the_same_in_both():
    from posenc.experiment.stats import Estimate
    from posenc.formatting import format_value

    est = Estimate.of([4.84, 4.85, 4.86, 4.85])
    assert format_value(est, ".2f", "en") == format_value(est, ".2f", "zh")
    assert re.fullmatch(r"4\.85 ± 0\.0\d+", format_value(est, ".2f", "en"))


def test_words_need_every_language_and_an_unknown_language_is_an_error():
    from posenc.formatting import PerLanguage, format_value

    words = PerLanguage(zh="✗ 查无此行", en="✗ no such row")
    assert format_value(words, "", "en") == "✗ no such row"
    with pytest.raises(ValueError, match="missing en"):
        PerLanguage(zh="只有中文")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        format_value(1.5, ".1f", "fr")


def test_a_declaration_missing_a_language_or_a_key_is_refused_naming_the_table_and_what_is_missing():
    from posenc.formatting import check_declared

    check_declared("where.py T", {"zh": {"a": 1}, "en": {"a": 2}}, same_keys=True)  # complete: no error
    with pytest.raises(ValueError, match=r"^where\.py T has no entry for en: declare it for each"):
        check_declared("where.py T", {"zh": "、"})
    with pytest.raises(ValueError, match=r"^where\.py T\['en'\] has other keys than where\.py T\['zh'\]: \['b'\]"):
        check_declared("where.py T", {"zh": {"a": 1, "b": 2}, "en": {"a": 1}}, same_keys=True)
    check_declared("where.py T", {"zh": {"a": 1, "b": 2}, "en": {"a": 1}})  # keys are compared only when asked


def test_a_language_added_to_the_course_fails_the_import_of_a_table_that_lacks_it():
    """The words the build writes (tools/build/i18n.py UI) are checked when the module is imported: a new language
    in LANGUAGES without its words stops the build at once, naming the table (not a KeyError on some page)."""
    code = "import posenc.formatting as f; f.LANGUAGES = f.LANGUAGES + ('xx',); import tools.build.i18n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "ValueError: tools/build/i18n.py UI has no entry for xx: declare it" in done.stderr, done.stderr[-2000:]


# --- claims -------------------------------------------------------------------------------------------------


def test_every_claim_has_an_english_sentence_and_prints_it_on_english_pages():
    from posenc.experiment import claims

    for name, claim in claims.CLAIMS.items():
        for en in (claim.text["en"], claims.template(name, "en")):  # as frozen, and as the pages print it (an amendment)
            assert en and not CJK.search(en), f"claim {name!r}: English sentence {en!r}"
            assert not en.endswith((".", ";")), f"claim {name!r}: no final punctuation (it sits inside a paragraph)"
    n = len(claims.seeds())
    assert claims.check("rope_rises", lang="en") == claims.template("rope_rises", "en").format(seeds=f"all {n} seeds")
    assert claims.check("nope_beats_rope_beyond", lang="en") == claims.CLAIMS["nope_beats_rope_beyond"].text["en"].format(
        seeds=f"all {n} seeds").replace("RoPE used as it is", "unscaled RoPE").replace("no position encoding", "no positional encoding")
    assert claims.check("rope_rises") == claims.CLAIMS["rope_rises"].text["zh"].format(seeds=f"全部 {n} 个种子")


# --- figures ------------------------------------------------------------------------------------------------


def test_the_converted_figure_modules_are_the_ones_both_tables_hold():
    from figures_src import _labels

    assert tuple(_labels.converted_modules()) == CONVERTED_FIGURE_MODULES


@pytest.mark.parametrize("module", CONVERTED_FIGURE_MODULES)
def test_label_tables_agree_and_english_has_no_chinese(module):
    from figures_src import _labels

    assert _labels.check(module) == []


@pytest.mark.parametrize("module", CONVERTED_FIGURE_MODULES)
def test_english_alt_texts_and_captions_have_no_chinese(module):
    from figures_src import build

    specs = [s for s in build.load_all().values() if s.module.rpartition(".")[2] == module]
    assert specs
    for spec in specs:
        for text in (spec.alt_text("en"), spec.caption_text("en")):
            assert not CJK.search(text), f"{spec.name}: {CJK.findall(text)[:5]} in {text[:120]!r}"
        assert len(spec.alt_text("en")) >= 40, f"{spec.name}: the English alt text should say what the figure shows"


def test_a_figure_drawn_in_english_with_chinese_text_fails(tmp_path):
    from figures_src import FigureSpec, _style

    def draw(fig, theme):
        fig.add_subplot().set_title("位置")

    spec = FigureSpec("fake", draw, "alt", "", (2, 2), "figures_src.experiment")
    assert _style.render_svg(spec, _style.THEMES["light"], "zh")  # Chinese is fine in a Chinese figure
    with pytest.raises(_style.ChineseInEnglishFigure, match="位置"):
        _style.render_svg(spec, _style.THEMES["light"], "en")


def test_a_converted_figure_draws_its_english_words(tmp_path):
    """The drawing follows the language: the English texts from en.yaml, none of the Chinese ones."""
    import matplotlib.pyplot as plt

    from figures_src import _labels, _style, build

    spec = build.load_all()["dataflow_lesson3"]
    texts = {}
    for lang in ("zh", "en"):
        with _labels.in_language(lang), plt.rc_context(_style.rc_params(_style.THEMES["light"])):
            fig = plt.figure(figsize=spec.size)
            spec.draw(fig, _style.THEMES["light"])
            texts[lang] = _style.drawn_texts(fig)
            plt.close(fig)
    assert any(CJK.search(t) for t in texts["zh"])
    assert not any(CJK.search(t) for t in texts["en"]), [t for t in texts["en"] if CJK.search(t)]
    assert "causal mask" in texts["en"] and "因果掩码" in texts["zh"]


def test_each_language_has_its_own_cached_drawing_of_a_converted_figure(tmp_path, monkeypatch):
    from figures_src import _labels, build

    spec = build.load_all()["dataflow_home"]
    assert build.drawn_in(spec, "en") == "en"
    assert build.cache_key(spec, "light", "en") != build.cache_key(spec, "light", "zh")
    # a module with no English section yet (every module has one today) is drawn once, in Chinese
    english = {m: words for m, words in _labels.table("en").items() if m != "dataflow"}
    monkeypatch.setattr(_labels, "table", lambda lang, real=_labels.table: english if lang == "en" else real(lang))
    assert build.drawn_in(spec, "en") == "zh"


# --- widgets ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def widget_strings() -> dict[str, dict[str, str]]:
    node = shutil.which("node")
    assert node, "node is a setup requirement (the lock's Node, linked into .venv/bin by tools/scripts/install_venv.sh; make puts it on PATH)"
    # each language's whole table: the shared words (strings/<lang>.js) and every widget's (strings/<lang>/<widget>.js)
    files = {lang: [f"./docs/javascripts/widgets/strings/{lang}.js"]
             + [f"./docs/javascripts/widgets/strings/{lang}/{p.name}" for p in sorted((WIDGET_STRINGS / lang).glob("*.js"))]
             for lang in ("zh", "en")}
    script = (f"const files = {json.dumps(files)};"
              "Promise.all(Object.entries(files).map(([l, fs]) => Promise.all(fs.map(f => import(f)))"
              ".then(ms => [l, Object.assign({}, ...ms.map(m => m.default))])))"
              ".then(e => console.log(JSON.stringify(Object.fromEntries(e))))")
    proc = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_widget_string_tables_have_the_same_keys_and_english_no_chinese(widget_strings):
    zh, en = widget_strings["zh"], widget_strings["en"]
    assert set(zh) == set(en), f"only zh: {sorted(set(zh) - set(en))}; only en: {sorted(set(en) - set(zh))}"
    for key in zh:
        assert not CJK.search(en[key]), f"strings/en.js {key}: {en[key]!r}"
        # English may leave out the Chinese typography fields ({lead}, the label's trailing space) and
        # capitalise the label ({Label}); it fills nothing the code does not give the Chinese text
        assert _fields(en[key]) - {"Label", "label_bare"} <= _fields(zh[key]) | {"label"}, key


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_page_loads_only_the_words_it_shows(lang):
    """The shared table (strings/<lang>.js) holds only words with no widget prefix; each widget's words
    ("<widget>.<key>") are in strings/<lang>/<widget>.js, which widgets/index.js loads with that widget."""
    shared = (WIDGET_STRINGS / f"{lang}.js").read_text(encoding="utf-8")
    assert not re.findall(r'^\s*"[\w-]+\.[\w.-]+"\s*:', shared, re.M), "a widget's key in the shared table"
    for path in sorted((WIDGET_STRINGS / lang).glob("*.js")):
        assert (ROOT / "docs" / "javascripts" / "widgets" / path.name).is_file(), f"strings/{lang}/{path.name}: no such widget"
        keys = re.findall(r'^\s*"([^"]+)"\s*:', path.read_text(encoding="utf-8"), re.M)
        assert keys and all(k.startswith(path.stem + ".") for k in keys), f"strings/{lang}/{path.name}: {keys[:5]}"


@pytest.mark.parametrize("widget", CONVERTED_WIDGETS)
def test_a_converted_widget_holds_no_chinese_and_each_key_exists(widget, widget_strings):
    source = (ROOT / "docs" / "javascripts" / "widgets" / f"{widget}.js").read_text(encoding="utf-8")
    assert not CJK.search(source), CJK.findall(source)[:10]
    keys = set(re.findall(r"""\bt\(\s*["'`]([\w.-]+)["'`]""", source))
    assert keys and keys <= set(widget_strings["zh"]), sorted(keys - set(widget_strings["zh"]))


def test_input_messages_in_each_language(widget_strings):
    """posenc-math's parseInput words its messages from the table it is given, and refuses to guess one."""
    script = ("import { parseInput } from './docs/javascripts/posenc-math/format.js';"
              "import en from './docs/javascripts/widgets/strings/en.js';"
              "import zh from './docs/javascripts/widgets/strings/zh.js';"
              "let none = ''; try { parseInput('15', {kind: 'dim'}); } catch (e) { none = e.message; }"
              "console.log(JSON.stringify([parseInput('15', {label: 'dimension d', kind: 'dim'}, en).message,"
              " parseInput('15', {label: '维度 d', kind: 'dim'}, zh).message, parseInput('', {label: 'base'}, zh).message, none]));")
    proc = subprocess.run([shutil.which("node"), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    en, zh, empty, none = json.loads(proc.stdout)
    assert "needs a string table" in none
    assert en == "Dimension d must be a positive even number (sin and cos come in pairs); got 15. Try 16."
    assert zh == "维度 d 要是正偶数（sin、cos 成对出现），收到 15；试试 16。"
    assert empty == "请填写 base。"


def _fill(calls: list) -> list:
    """posenc-math's fillText on each [template, values, lang] (an error's message where it throws)."""
    script = ("import { fillText } from './docs/javascripts/posenc-math/format.js';"
              f"const calls = {json.dumps(calls)};"
              "console.log(JSON.stringify(calls.map(([t, v, l]) => { try { return fillText(t, v, l); }"
              " catch (e) { return 'error: ' + e.message; } })));")
    proc = subprocess.run([shutil.which("node"), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_count_agrees_with_its_noun(widget_strings):
    """A widget text that counts something says "1 token" and "10 tokens" (the English review read the
    sin-clock's speed menu "1 tokens a second"); the Chinese text has one form for every number."""
    en, zh = widget_strings["en"], widget_strings["zh"]
    rate, faces, pairs = en["sin-clock.rate"], en["sin-clock.faces"], en["rope-pair.bad_pair"]
    out = _fill([[rate, {"n": "1"}, "en"], [rate, {"n": "10"}, "en"], [rate, {"n": "1,000"}, "en"],
                 [zh["sin-clock.rate"], {"n": "1"}, "zh"],
                 [faces, {"n": 1, "shortest": "6.28", "longest": "6"}, "en"],
                 [pairs, {"d": 2, "pairs": 1, "last": 0, "pair": 3}, "en"],
                 [rate, {"n": "1"}, None], ["{k:a|b}", {}, "en"]])
    assert out[:4] == ["1 token a second", "10 tokens a second", "1,000 tokens a second", "每秒 1 个 token"]
    assert out[4].startswith("1 clock face; ") and "d_rot = 2 has only 1 pair (" in out[5]
    assert "pass fillText its language" in out[6] and "{k}" in out[7]  # no language or no number: an error, not a guess
    # the English texts in which a count field is followed by its noun's plural alone: each count can be 1
    # only where the code says so; these are the ones that can, and each now chooses its word
    for key in ("sin-clock.rate", "sin-clock.faces", "rope-pair.bad_pair", "scaling-explorer.summary_dims"):
        assert re.search(r"\{(\w+)\} \{\1:\w[\w ]*\|\w[\w ]*\}", en[key]), key


# --- notebooks ----------------------------------------------------------------------------------------------

BILINGUAL = '''# %% [markdown]
# # 第 9 课 动手：示例 demo

# %% [markdown] lang="en"
# # Lesson 9, hands on: an example demo

# %%
print(1 + 1)

# %% [markdown]
# ## 1. 加法：add

# %% [markdown] lang="en"
# ## 1. Addition: add
'''


def test_a_notebook_source_makes_one_notebook_per_language_with_the_same_code(tmp_path):
    from tools.build import notebooks

    src = tmp_path / "lesson9.py"
    src.write_text(BILINGUAL, encoding="utf-8")
    assert notebooks.languages_of(src) == ["zh", "en"]
    zh, en = notebooks.cells_of(src, "zh"), notebooks.cells_of(src, "en")
    assert [c for c in zh if c[0] == "code"] == [c for c in en if c[0] == "code"] == [("code", "print(1 + 1)")]
    assert [s for k, s in zh if k == "markdown"] == ["# 第 9 课 动手：示例 demo", "## 1. 加法：add"]
    assert [s for k, s in en if k == "markdown"] == ["# Lesson 9, hands on: an example demo", "## 1. Addition: add"]
    assert notebooks.notebook_path(src, "en").name == "lesson9.en.ipynb"
    assert '"lesson9-01"' in notebooks.render(src, "en")  # the same cell ids in both: code cell 1 is lesson9-01


def test_a_half_translated_notebook_is_an_error_naming_the_cell(tmp_path):
    from tools.build import notebooks

    src = tmp_path / "lesson9.py"
    src.write_text(BILINGUAL.rsplit('# %% [markdown] lang="en"', 1)[0], encoding="utf-8")
    with pytest.raises(ValueError, match="'## 1. 加法：add' has no en cell"):
        notebooks.cells_of(src, "en")
    src.write_text(BILINGUAL.replace("## 1. Addition: add", "### 1. Addition: add"), encoding="utf-8")
    with pytest.raises(ValueError, match="levels"):
        notebooks.cells_of(src, "en")


def test_an_untranslated_notebook_has_only_its_chinese_notebook():
    from tools.build import notebooks

    expected = notebooks.expected()
    for src in notebooks.sources():
        assert (notebooks.notebook_path(src, "en") in expected) == ("en" in notebooks.languages_of(src))


# --- pages and the language selector ------------------------------------------------------------------------


def test_a_page_language_and_its_counterpart():
    from tools.build import i18n

    assert i18n.source_language("lessons/04-rope.en.md") == "en"
    assert i18n.source_language("lessons/04-rope.md") == "zh"
    assert i18n.source_language("notebooks/lesson3b.en.ipynb") == "en"
    assert i18n.source_for("index.md", "en") == "index.en.md"
    assert i18n.source_for("notebooks/lesson1.en.ipynb", "zh") == "notebooks/lesson1.ipynb"
    assert i18n.counterpart("lessons/04-rope/", "en") == "en/lessons/04-rope/"
    assert i18n.counterpart("en/lessons/04-rope/", "zh") == "lessons/04-rope/"
    assert i18n.counterpart("", "en") == "en/" and i18n.counterpart("en/", "zh") == ""


def test_the_selector_points_at_the_same_page_and_the_head_loses_its_alternates():
    from tools.build import i18n

    page = ('<link rel="alternate" href="/posenc/" hreflang="zh"><link rel="alternate" href="/posenc/en/" hreflang="en">'
            '<a href="/posenc/" hreflang="zh" class="md-select__link">中文</a>'
            '<a href="/posenc/en/" hreflang="en" class="md-select__link">English</a>')
    out = i18n.alternate_links(page, "en/lessons/04-rope/", "x")
    assert 'href="../../../lessons/04-rope/" hreflang="zh"' in out
    assert 'href="../../../en/lessons/04-rope/" hreflang="en"' in out
    assert 'rel="alternate"' not in out
    with pytest.raises(SystemExit, match="language selector"):
        i18n.alternate_links("<html></html>", "", "x")


def test_mkdocs_yml_declares_the_course_languages_in_order_and_a_mismatch_stops_the_build():
    # The languages are declared once (posenc/formatting.py); mkdocs.yml must name the same, in the same order,
    # in the i18n plugin and in the selector (which the browser scripts read their language list from).
    from types import SimpleNamespace

    from posenc.formatting import LANGUAGES
    from tools.build import i18n
    from tools.build.lesson_pages import read_mkdocs_yml

    declared = read_mkdocs_yml()
    plugin_conf = next(p["i18n"] for p in declared["plugins"] if isinstance(p, dict) and "i18n" in p)

    def config(alternate, locales):
        plugin = SimpleNamespace(config=SimpleNamespace(languages=[SimpleNamespace(locale=lang) for lang in locales]))
        return SimpleNamespace(extra={"alternate": [{"lang": lang} for lang in alternate]}, plugins={"i18n": plugin})

    alternate = [a["lang"] for a in declared["extra"]["alternate"]]
    locales = [lang["locale"] for lang in plugin_conf["languages"]]
    assert tuple(alternate) == tuple(locales) == LANGUAGES
    i18n.check_declared_languages(config(alternate, locales))
    with pytest.raises(SystemExit, match=r"extra.alternate.*posenc/formatting.py"):
        i18n.check_declared_languages(config(alternate[::-1], locales))
    with pytest.raises(SystemExit, match=r"plugins.i18n.languages.*posenc/formatting.py"):
        i18n.check_declared_languages(config(alternate, locales + ["fr"]))


def test_ui_words_exist_in_every_language_and_only_chinese_has_chinese():
    from posenc.formatting import LANGUAGES
    from tools.build import i18n

    for lang in LANGUAGES[1:]:
        assert set(i18n.UI[lang]) == set(i18n.UI["zh"]), lang
        for key, text in i18n.UI[lang].items():
            assert not CJK.search(text), (lang, key)
            assert _fields(text) == _fields(i18n.UI["zh"][key]), (lang, key)


# --- the glossary and the timeline in English -----------------------------------------------------------------

MACRO_CALL = re.compile(r"\{\{-?\s*(\w+)\(([^)]*)\)")


def _calls(text: str) -> list[str]:
    return sorted(f"{name}({args})" for name, args in MACRO_CALL.findall(text or ""))


def test_english_glossary_and_timeline_cover_every_entry_with_the_same_numbers():
    """Every term and stage has its English words, quoting the same numbers (the same macro calls) as the Chinese."""
    from posenc import _yaml
    from tools.build import course_macros as cm

    glossary = cm.english_texts(cm.GLOSSARY_EN)
    assert [t.id for t in cm.load_glossary()] == list(glossary), "glossary.en.yaml: the same ids, in the same order"
    for t in cm.load_glossary():
        assert _calls(glossary[t.id]) == _calls(t.define), t.id
    timeline = cm.english_texts(cm.TIMELINE_EN)
    assert [s.key for s in cm.load_timeline()] == list(timeline), "timeline.en.yaml: the same keys, in the same order"
    raw = {s["key"]: s for s in _yaml.load(cm.TIMELINE.read_text(encoding="utf-8"))["stages"]}
    for key, en in timeline.items():
        for field in cm.TIMELINE_TEXT:
            zh_text = " ".join(raw[key].get(field) or []) if field == "models" else raw[key].get(field)
            en_text = " ".join(en.get(field) or []) if field == "models" else en.get(field)
            assert _calls(en_text) == _calls(zh_text), f"timeline.en.yaml {key}.{field}"


def test_english_glossary_and_timeline_are_english_prose_the_lint_passes():
    from tools.build import course_macros as cm
    from tools.guards import prose_lint

    for path, fields in ((cm.GLOSSARY_EN, None), (cm.TIMELINE_EN, cm.TIMELINE_TEXT)):
        source = path.read_text(encoding="utf-8")
        prose = prose_lint.prose(cm.yaml_prose(source, fields) if fields else source)
        assert not CJK.search(prose), f"{path.name}: {CJK.findall(prose)[:5]}"
        assert prose_lint.find_literals(prose, path) == [], path.name


# --- the built site -----------------------------------------------------------------------------------------


@pytest.mark.build
def test_both_editions_are_built_with_their_language_and_selector(site_dir):
    """Every page of the Chinese site has its English page under en/ (translated, or the Chinese as it is until
    then), each with <html lang> of its build and a selector pointing at the same page in the other language."""
    pages = sorted(p.relative_to(site_dir) for p in site_dir.rglob("index.html") if p.parts[len(site_dir.parts)] != "en")
    assert len(pages) > 15
    for rel in pages:
        zh, en = site_dir / rel, site_dir / "en" / rel
        assert en.is_file(), f"no English page for {rel}"
        for path, lang in ((zh, "zh"), (en, "en")):
            text = path.read_text(encoding="utf-8")
            assert text.lstrip().startswith("<!doctype html>") and f'<html lang="{lang}"' in text, f"{path.relative_to(site_dir)}"
            links = dict((l, h) for h, l in re.findall(r'<a href="([^"]*)" hreflang="(\w+)" class="md-select__link">', text))
            here = rel.parent.as_posix()
            here = "" if here == "." else here + "/"
            assert links["en"].endswith(f"en/{here}") and not links["zh"].endswith(f"en/{here}") and links["zh"].endswith(here), (path, links)


@pytest.mark.build
def test_notebook_pages_are_pages_in_both_languages_with_their_download(site_dir):
    for folder in ("notebooks", "en/notebooks"):
        for page in sorted((site_dir / folder).glob("lesson*/index.html")):
            assert page.read_text(encoding="utf-8").lstrip().startswith("<!doctype html>"), f"{page.relative_to(site_dir)} is not a page"
            assert (page.parent / f"{page.parent.name}.ipynb").is_file(), f"{page.relative_to(site_dir)}: no download"
    # a lesson's notebook box downloads the notebook of the lesson's language (lesson 5 has both)
    for folder, want in (("lessons/05-long-context", "notebooks/lesson5/lesson5.ipynb"),
                         ("en/lessons/05-long-context", "en/notebooks/lesson5/lesson5.ipynb")):
        page = site_dir / folder / "index.html"
        links = {posixpath.normpath(posixpath.join(folder, href)) for href in
                 re.findall(r'<a href="([^"]+\.ipynb)" download', page.read_text(encoding="utf-8"))}
        assert links == {want}, (folder, links)
