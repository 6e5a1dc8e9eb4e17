"""The experiment's methods and RoPE variants are declared once (posenc/experiment/course.py), and the pages,
figures and counts follow the records: a record missing a field fails naming the record and the field, every
method's lesson is a real section of the course, the results table prints a row per record, and no page or
navigation title types the number of methods."""

from __future__ import annotations

import copy
import re

import pytest

from figures_src import experiment as expfig
from posenc import quantities as q
from posenc.experiment import config, course
from posenc.formatting import LANGUAGES, count_words
from site_support import ROOT
from tools.build import course_macros

LESSONS = ROOT / "docs" / "lessons"
CJK = re.compile(r"[\u3400-\u9fff]")


def _raw_methods() -> list[dict]:
    return copy.deepcopy(list(course._METHOD_RECORDS))


def _message(raw, cls=course.Method, keys=config.METHODS, what="method") -> str:
    with pytest.raises(ValueError) as err:
        course.records(cls, raw, keys, what)
    return str(err.value)


@pytest.mark.parametrize("field", [f for f in course.Method.__dataclass_fields__])
def test_a_method_record_without_a_field_fails_naming_the_record_and_the_field(field):
    raw = _raw_methods()
    victim = raw[3]
    del victim[field]
    message = _message(raw)
    assert f"record {victim.get('key', '#4')!r}" in message and f"lacks the field {field!r}" in message, message


@pytest.mark.parametrize("field", [f for f in course.Variant.__dataclass_fields__])
def test_a_variant_record_without_a_field_fails_naming_it(field):
    raw = copy.deepcopy(list(course._VARIANT_RECORDS))
    del raw[1][field]
    message = _message(raw, course.Variant, config.EXTENSIONS, "variant")
    assert f"lacks the field {field!r}" in message and "variant record" in message, message


@pytest.mark.parametrize("field, value, words", [
    ("colour", 9, ["'alibi'", "colour", "0–6"]),
    ("colour", True, ["'alibi'", "colour"]),
    ("family", "bias", ["'alibi'", "family", "attention"]),
    ("lesson", "07-nowhere.md", ["'alibi'", "lesson", "04-rope.md"]),
    ("name", {"zh": "ALiBi"}, ["'alibi'", "name", "en"]),
    ("dashed", "no", ["'alibi'", "dashed"]),
    ("table_name", {"zh": "ALiBi"}, ["'alibi'", "table_name", "None or a name", "en"]),
])
def test_a_bad_field_value_fails_naming_the_record_field_and_what_it_must_be(field, value, words):
    raw = _raw_methods()
    raw[4][field] = value
    message = _message(raw)
    for word in words:
        assert word in message, message


def test_an_unknown_field_missing_record_or_wrong_order_fails():
    raw = _raw_methods()
    raw[0]["shape"] = "round"
    assert "'nope' has the field 'shape'" in _message(raw)
    assert f"add records for [{config.METHODS[-1]!r}]" in _message(_raw_methods()[:-1])
    assert "put them in config.py's order" in _message(list(reversed(_raw_methods())))
    extra = _raw_methods() + [dict(_raw_methods()[0], key="fire")]
    assert "remove ['fire']" in _message(extra)


def test_the_records_are_the_trained_methods_and_variants_in_order():
    assert [m.key for m in course.METHOD_RECORDS] == list(config.METHODS)
    assert [v.key for v in course.VARIANT_RECORDS] == list(config.EXTENSIONS)
    assert [m.key for m in course.METHOD_RECORDS if m.extension] == ["rope"]


@pytest.mark.parametrize("m", course.METHOD_RECORDS, ids=lambda m: m.key)
def test_each_methods_lesson_is_a_real_section(m):
    page, _, anchor = m.lesson.partition("#")
    for lang_suffix in ("", ".en"):
        text = (LESSONS / page.replace(".md", f"{lang_suffix}.md")).read_text(encoding="utf-8")
        if anchor:
            assert re.search(rf"\{{\s*#{re.escape(anchor)}\b", text), f"{page}{lang_suffix}: no section #{anchor}"


@pytest.mark.parametrize("lang_suffix, lang", [("", "zh"), (".en", "en")])
def test_the_results_table_prints_one_row_per_record_under_its_header(lang_suffix, lang):
    page = f"lessons/results{lang_suffix}.md"
    lines = (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines()
    at = lines.index("{{ method_rows() }}")
    assert lines[at - 1] == "|---|---|---|---|---|" and lines[at + 1] == "", lines[at - 2:at + 2]
    rows = course_macros.method_rows_markdown(page, lang).split("\n")
    assert len(rows) == len(config.METHODS)
    for m, row in zip(course.METHOD_RECORDS, rows):
        cells = [c.strip() for c in row.strip("|").split("|")]
        # five columns: the name, the lesson's link, and the method's three registered losses
        assert cells[0] == m.table_label(lang) and cells[1].endswith(f"]({m.lesson})"), (m.key, row)
        quoted = [re.fullmatch(r'\{\{ num\("(\w+)"\) \}\}', c) for c in cells[2:]]
        assert len(cells) == 5 and all(quoted), (m.key, row)
        names = [n.group(1) for n in quoted]
        assert names == [f"exp_in_dist_{m.key}", f"exp_beyond_{m.key}", f"exp_rise_{m.key}"], names
        assert set(names) <= set(q.names()), names


@pytest.mark.parametrize("m", course.METHOD_RECORDS, ids=lambda m: m.key)
def test_each_method_has_a_name_per_language_and_english_ones_draw_no_cjk(m):
    assert set(m.name) == set(LANGUAGES)
    assert not CJK.search(m.label("en")), m.label("en")


def test_an_english_variant_name_draws_no_cjk():
    for v in course.VARIANT_RECORDS:
        assert not CJK.search(v.label("extension", "en"))
        if v.scaling_name is not None:
            assert not CJK.search(v.label("scaling", "en"))


def test_figure_colours_styles_and_panels_come_from_the_records():
    assert expfig.METHOD_SERIES == {m.key: m.colour for m in course.METHOD_RECORDS}
    assert expfig.VARIANT_SERIES == {v.key: v.colour for v in course.VARIANT_RECORDS}
    assert expfig.VARIANT_STYLES == {v.key: v.style for v in course.VARIANT_RECORDS}
    panels = dict(expfig.POSITION_PANELS)
    assert set(panels["panel_added"]) == {m.key for m in course.METHOD_RECORDS if m.family in ("none", "input")}
    assert set(panels["panel_attention"]) == {m.key for m in course.METHOD_RECORDS if m.family in ("none", "attention")}
    assert [expfig._style(m.key) for m in course.METHOD_RECORDS] == ["--" if m.dashed else "-" for m in course.METHOD_RECORDS]


def test_a_lessons_figures_may_draw_what_it_and_earlier_lessons_teach():
    assert course.taught_by("03-sinusoidal.md") == ("nope", "learned", "sinusoidal", "sinusoidal_scaled")
    assert course.taught_by("03b-relative-bias.md")[-1] == "alibi"
    assert "rope_partial" not in course.taught_by("05-long-context.md")
    assert set(course.taught_by("06-partial-nope.md")) == set(config.METHODS)
    with pytest.raises(ValueError, match="unknown lesson page"):
        course.taught_by("07-x.md")


# --- the counts the prose states ------------------------------------------------------------------------------------


def test_count_words_writes_small_counts_and_refuses_others():
    assert (count_words(2)["zh"], count_words(7)["zh"], count_words(7)["en"], count_words(10)["en"]) == ("两", "七", "seven", "ten")
    for bad in (0, 11, 2.0, True):
        with pytest.raises(ValueError, match="count_words"):
            count_words(bad)


@pytest.mark.parametrize("name, n", [("exp_method_count", len(config.METHODS)), ("exp_extension_count", len(config.EXTENSIONS)),
                                     ("exp_attention_method_count", len(course.in_family("attention"))),
                                     ("exp_scaling_count", 1 + len(config.ROPE_SCALINGS))])
def test_the_counts_are_computed_from_the_records(name, n):
    for lang in LANGUAGES:
        assert q.text(name, lang) == count_words(n)[lang]


def _pages(pattern: str):
    return sorted(ROOT.joinpath("docs").rglob(pattern))


def test_no_page_types_the_number_of_methods():
    zh, en = count_words(len(config.METHODS))["zh"], count_words(len(config.METHODS))["en"]
    typed = []
    for page in _pages("*.md"):
        text = page.read_text(encoding="utf-8")
        if page.name.endswith(".en.md"):
            typed += [f"{page.name}: {m.group()}" for m in re.finditer(rf"\b{en}\b(?= (?:position )?methods| results| side by side)|all {en}\b", text, re.I)]
        else:
            typed += [f"{page.name}: {m.group()}" for m in re.finditer(rf"{zh}[种组](?:位置方案|方案|结果|放在一起|用同一个)", text)]
    assert not typed, "write {{ num(\"exp_method_count\") }} instead: " + ", ".join(typed)


def test_the_navigation_title_of_the_results_page_states_no_count():
    """mkdocs.yml is not rendered by the macros: a count in its titles would be typed, and go stale with a new method."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    titles = re.findall(r"^\s*- (\S+): lessons/results\.md$", text, re.M)
    assert len(titles) == 1, titles
    english = re.findall(rf"^\s*{re.escape(titles[0])}: (.+)$", text, re.M)
    assert len(english) == 1, english
    counts = [count_words(n) for n in range(1, 11)]
    typed = [c["zh"] for c in counts if re.search(f"{c['zh']}[种组个]", titles[0])]
    typed += [c["en"] for c in counts if re.search(rf"\b{c['en']}\b", english[0], re.I)]
    assert not typed, f"the results page's navigation title types the count {typed}: {titles[0]} / {english[0]}"
