"""The experiment's methods and RoPE variants are declared once (posenc/experiment/course.py), and the pages,
figures and counts follow the records: a record missing a field fails naming the record and the field, every
method's lesson is a real section of the course, and no page types the number of methods."""

from __future__ import annotations

import copy
import re

import pytest

from figures_src import experiment as expfig
from posenc import quantities as q
from posenc.experiment import config, course
from posenc.formatting import LANGUAGES, count_words
from site_support import ROOT

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
def test_each_methods_lesson_is_a_real_section_and_the_results_table_links_it(m):
    page, _, anchor = m.lesson.partition("#")
    for lang_suffix in ("", ".en"):
        text = (LESSONS / page.replace(".md", f"{lang_suffix}.md")).read_text(encoding="utf-8")
        if anchor:
            assert re.search(rf"\{{\s*#{re.escape(anchor)}\b", text), f"{page}{lang_suffix}: no section #{anchor}"
        results = (LESSONS / f"results{lang_suffix}.md").read_text(encoding="utf-8")
        rows = [line for line in results.splitlines() if f'num("exp_in_dist_{m.key}")' in line]
        assert rows, (f"results{lang_suffix}.md has no row for {m.key}: the table is typed; add its row, quoting "
                      f"exp_in_dist_{m.key}, exp_beyond_{m.key} and exp_rise_{m.key} (posenc/quantities/experiment.py)")
        row = rows[0]
        assert f"]({m.lesson})" in row, f"results{lang_suffix}.md: the {m.key} row does not link {m.lesson}"


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


def test_the_navigation_title_states_the_computed_count():
    """mkdocs.yml is not rendered by the macros, so its titles are held to the count here."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    zh, en = q.text("exp_method_count", "zh"), q.text("exp_method_count", "en")
    titles = re.findall(r"实验全貌（选读）(\S+?)种位置方案放在一起", text)
    assert titles and set(titles) == {zh}, titles
    english = re.findall(r"The whole experiment \(optional\): (\w+) position methods", text)
    assert english and set(english) == {en}, english
