"""posenc.facts: reported values read from posenc/data/facts_<lesson>.yaml, checked against the raw files and their
sources; a key written twice; which file a fact lives in.

What the tests compare against, part by part:

- posenc.facts: reported values read from posenc/data/facts*.yaml, checked against the raw files. The expectations
  come from reading the YAML files directly (not through posenc.facts) and from the messages the module promises a
  course author.
- posenc.facts.key_lines: a key written twice in a data file is an error at any depth, not a silent replacement.
- facts_long_context.yaml and facts_designs.yaml: values and tags as their sources state them, and agreement with
  the model data and posenc's computations where the two meet.
"""

from __future__ import annotations

from pathlib import Path
import re

import pytest
import yaml

from posenc import configs, facts, mla
from posenc import facts


DATA = Path(__file__).resolve().parent.parent / "posenc" / "data"


def raw_facts() -> dict:
    out = {}
    for path in sorted(DATA.glob("facts*.yaml")):
        out.update(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
    return out


def test_every_fact_in_the_files_is_loaded_with_all_its_fields():
    raw = raw_facts()
    assert facts.names() == sorted(raw)
    for name, entry in raw.items():
        f = facts.get(name)
        assert (f.name, f.value, f.fmt, f.what, f.source, f.tag) == (
            name, entry["value"], entry["fmt"], entry["what"], entry["source"], entry["tag"])
        assert f.url == entry.get("url", "")


def test_fact_text_is_the_value_in_its_format():
    f = facts.Fact("x", 25.8, ".1f", "w", "s", "", "V")
    assert f.text == "25.8"
    assert facts.Fact("x", 1234567, ",", "w", "s", "", "V").text == "1,234,567"
    assert facts.Fact("x", -0.5, ".2f", "w", "s", "", "V").text == "−0.50"
    assert facts.get("vaswani_base_dev_bleu").text == "25.8"  # Vaswani et al. 2017, Table 3, base


def test_tags_are_the_three_verification_levels():
    assert list(facts.TAGS) == ["V", "V3", "U"]
    assert all(isinstance(label, str) and label for label in facts.TAGS.values())
    assert {facts.get(n).tag for n in facts.names()} <= set(facts.TAGS)


def test_unknown_fact_suggests_the_closest_name():
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("vaswani_base_dev_blue")
    assert str(err.value).startswith("unknown fact 'vaswani_base_dev_blue'. Did you mean 'vaswani_base_dev_bleu'")
    assert str(err.value).endswith("? Add it with its source and tag to posenc/data/facts_<lesson>.yaml of the first "
                                   "lesson that quotes it.")
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("zzzzzzzz")
    assert str(err.value) == ("unknown fact 'zzzzzzzz'. Add it with its source and tag to posenc/data/facts_<lesson>.yaml "
                              "of the first lesson that quotes it.")
    assert not issubclass(facts.UnknownFact, KeyError)  # Jinja would swallow a KeyError


@pytest.mark.parametrize(
    "text, message",
    [
        ("a:\n  value: 1\n  fmt: d\n  what: w\n  source: s\n", "f.yaml: fact 'a' lacks tag; every fact needs value, fmt, what, source, tag"),
        ("a:\n  fmt: d\n  what: w\n  tag: V\n", "f.yaml: fact 'a' lacks value, source; every fact needs value, fmt, what, source, tag"),
        ("a:\n  value: 1\n  fmt: d\n  what: w\n  source: s\n  tag: W\n", "f.yaml: fact 'a' has tag 'W'; use one of V, V3, U"),
    ],
)
def test_load_entries_rejects_incomplete_facts(tmp_path, text, message):
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        facts.load_entries(path)


def test_load_entries_reads_a_complete_file_and_an_empty_one(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("a:\n  value: 2.5\n  fmt: .1f\n  what: w\n  source: s\n  tag: U\n", encoding="utf-8")
    assert facts.load_entries(path) == {"a": {"value": 2.5, "fmt": ".1f", "what": "w", "source": "s", "tag": "U"}}
    empty = tmp_path / "e.yaml"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    assert facts.load_entries(empty) == {}


def test_unknown_fact_suggests_at_most_three_names():
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("yarn_t2_7b_ppl")  # close to five facts
    suggested = str(err.value).split("Did you mean ")[1].split("?")[0].split(", ")
    assert len(suggested) == 3 and all(s.startswith("'yarn_t2_7b_ppl_") for s in suggested)


ROOT = DATA.parent.parent


LESSONS = [p.stem for p in sorted((ROOT / "docs" / "notebooks").glob("lesson*.py"), key=lambda p: (len(p.stem), p.stem))]


def _course_order(keys: list[str]) -> list[str]:
    """lesson1 … lesson3, lesson3b, lesson4 …: a lesson's 'b' page comes right after it."""
    return sorted(keys, key=lambda k: (int(k[len("lesson"):].rstrip("b")), k.endswith("b")))


def _first_lesson_quoting(name: str) -> str | None:
    """The first lesson whose page, numbers (posenc/quantities/<lesson>.py) or figures (figures_src/<lesson>.py) name the fact."""
    import re

    pages = {p.name.split("-")[0].lstrip("0"): p for p in (ROOT / "docs" / "lessons").glob("*.md")}
    for key in _course_order(LESSONS):
        texts = [pages[key[len("lesson"):]].read_text(encoding="utf-8")]
        texts += [p.read_text(encoding="utf-8") for p in (ROOT / "posenc" / "quantities" / f"{key}.py", ROOT / "figures_src" / f"{key}.py")
                  if p.is_file()]
        if any(re.search(rf"""["']{re.escape(name)}["']""", t) for t in texts):
            return key
    return None


def test_each_fact_lives_in_the_file_of_the_first_lesson_that_quotes_it():
    assert _course_order(["lesson6b", "lesson3b", "lesson4", "lesson1", "lesson3"]) == ["lesson1", "lesson3", "lesson3b", "lesson4", "lesson6b"]
    files = sorted(DATA.glob("facts*.yaml"))
    assert files and all(p.stem[len("facts_"):] in LESSONS for p in files), [p.name for p in files]
    misplaced = []
    for path in files:
        for name in yaml.safe_load(path.read_text(encoding="utf-8")):
            first = _first_lesson_quoting(name)
            if first is not None and path.name != f"facts_{first}.yaml":
                misplaced.append(f"{path.name}: {name} is first quoted by {first}; move it to facts_{first}.yaml")
    assert not misplaced, "\n".join(misplaced)


def test_no_source_points_outside_the_repository():
    """A source names a paper, a repository @commit and file, or a page: never a file of ours outside this repository."""
    outside = []
    for path in sorted(DATA.glob("*.yaml")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "../" in line or "facts.md" in line:
                outside.append(f"{path.name}:{number}: {line.strip()[:100]}")
    assert not outside, "\n".join(outside)


# --- a key written twice -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, key, first, second", [
    ("a:\n  value: 1\nb: 2\na: 3\n", "a", 1, 4),  # top level: yaml.safe_load would keep a = 3
    ("a:\n  value: 1\n  tag: V\n  value: 2\n", "value", 2, 4),  # inside an entry
    ("a:\n  - x: 1\n    x: 2\n", "x", 2, 3),  # inside a list item
])
def test_a_key_written_twice_is_an_error_naming_both_lines(tmp_path, text, key, first, second):
    path = tmp_path / "facts_dup.yaml"
    path.write_text(text, encoding="utf-8")
    message = f"{path.as_posix()}:{first} and {path.as_posix()}:{second}: key {key!r} is defined twice; keep one"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        facts.key_lines(path)


def test_key_lines_are_one_based_lines_of_the_top_level_keys(tmp_path):
    path = tmp_path / "facts_ok.yaml"
    path.write_text("# comment\na:\n  value: 1\nb:\n  value: 1\n", encoding="utf-8")
    assert facts.key_lines(path) == {"a": 2, "b": 4}


# --- values and tags as the sources state them ---------------------------------------------------------------------


# (fact, value, tag), typed from the sources each entry names.
EXPECTED = [
    ("codellama_base_before", 10_000, "V3"), ("codellama_base_after", 1_000_000, "V3"),
    ("codellama_lcft_length", 16_384, "V"), ("codellama_extrapolation_length", 100_000, "V"),
    ("xiong_abf_base", 500_000, "U"), ("xiong_context", 32_768, "V3"),
    ("qwen3_abf_base_before", 10_000, "V"), ("qwen3_abf_base_after", 1_000_000, "V"), ("qwen3_long_stage_length", 32_768, "V"),
    ("smollm3_stage1_theta", 50_000, "V"), ("smollm3_32k_theta", 2_000_000, "V"), ("smollm3_64k_theta", 5_000_000, "V"),
    ("ruler_models", 17, "V"), ("ruler_tasks", 13, "V"), ("ruler_threshold", 85.6, "V"),
    ("ruler_llama31_8b_claimed", "128K", "V"), ("ruler_llama31_8b_effective", "32K", "V"),
    ("ruler_gpt4_effective", "64K", "V"), ("ruler_mistral7b_effective", "16K", "V"),
    ("dsv2_gqa_groups", 2.25, "V"),
    ("barbero_wiki_ppl_prope_075", 4.4414, "U"), ("barbero_wiki_ppl_rope_10k", 4.4627, "U"),
    ("llama4_scout_context_claim", "10M", "V"),
    ("qwen3_max_positions_output_reserve", 32_768, "V"), ("qwen3_max_positions_prompt_reserve", 8_192, "V"),
]


@pytest.mark.parametrize("name, value, tag", EXPECTED)
def test_fact_value_and_tag(name, value, tag):
    f = facts.get(name)
    assert f.value == value
    assert f.tag == tag
    assert f.source.strip() and f.what.strip()


def tokens(text: str) -> int:
    """RULER's '32K' / '1M' as a token count (the README's K = 1,024 as in its 4K … 128K columns)."""
    return int(text[:-1]) * {"K": 1024, "M": 1024 * 1024}[text[-1]]


@pytest.mark.parametrize("model", ["llama31_8b", "llama31_70b", "gpt4", "mistral7b", "yi34b", "gradient_llama3_8b", "qwen3_8b"])
def test_ruler_effective_is_below_claimed(model):
    claimed, effective = facts.get(f"ruler_{model}_claimed").value, facts.get(f"ruler_{model}_effective").value
    assert tokens(effective) < tokens(claimed)


def test_mla_formula_gives_the_reported_groups():
    # DeepSeek-V2 Table 1 note: d_c = 4 d_h, d_R = d_h / 2
    d_h = 128
    assert mla.equivalent_gqa_groups(4 * d_h, d_h // 2, d_h) == facts.get("dsv2_gqa_groups").value


def test_smollm3_last_stage_is_the_model_entry():
    cfg = configs.load("smollm3_3b")
    assert cfg["rope_theta"] == facts.get("smollm3_64k_theta").value
    assert cfg["context"] == facts.get("smollm3_64k_length").value


def test_qwen3_long_stage_is_the_model_entry():
    cfg = configs.load("qwen3_8b")
    assert cfg["rope_theta"] == facts.get("qwen3_abf_base_after").value
    assert cfg["context"] == facts.get("qwen3_long_stage_length").value


def test_qwen3_documented_split_adds_up_to_the_config_max_positions():
    # Qwen's documentation explains the config's max_position_embeddings as output reserve + prompt reserve
    reserve = facts.get("qwen3_max_positions_output_reserve").value + facts.get("qwen3_max_positions_prompt_reserve").value
    assert reserve == configs.load("qwen3_8b")["max_position_embeddings"]


# --- a verbatim quotation reads as one (quote: true) ----------------------------------------------------------


@pytest.mark.parametrize("lang, page, marks", [("en", "lessons/06-partial-nope.en.md", ("“", "”")),
                                               ("zh", "lessons/06-partial-nope.md", ("「", "」"))])
def test_a_quoted_fact_renders_inside_quotation_marks(lang, page, marks):
    from macro_env import MacroEnv

    raw = raw_facts()["gptj_rotary_claim"]
    assert raw["quote"] is True
    shown = MacroEnv(page).render('{{ fact("gptj_rotary_claim") }}')
    assert shown.startswith(marks[0] + raw["value"] + marks[1] + '<a class="pe-tag')
    # a quotation inside the quotation takes the inner marks; an ordinary fact stays bare
    inner = MacroEnv(page).render('{{ fact("barbero_high_frequencies", badge=False) }}')
    assert inner.startswith(marks[0]) and inner.endswith(marks[1]) and '"' not in inner
    assert ("‘positional’" if lang == "en" else "『positional』") in inner
    assert MacroEnv(page).render('{{ fact("vaswani_base_dev_bleu", badge=False) }}')[0].isdigit()


def test_quoted_code_renders_as_code():
    from macro_env import MacroEnv

    assert MacroEnv("lessons/05-long-context.en.md").render('{{ fact("meta_rope_fp32", badge=False) }}') == (
        f"<code>{raw_facts()['meta_rope_fp32']['value']}</code>")


@pytest.mark.parametrize("entry, message", [("  quote: yes please\n", "has quote 'yes please'"),
                                            ("  quote: true\n  value_en: e\n", "is a verbatim quotation and has a value_en")])
def test_a_bad_quote_field_is_an_error(tmp_path, entry, message):
    path = tmp_path / "f.yaml"
    path.write_text("a:\n  value: v\n  fmt: ''\n  what: w\n  source: s\n  tag: U\n" + entry, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        facts.load_entries(path)


@pytest.mark.parametrize("fields, message", [
    ("  value: 中文\n  source: s\n", "fact 'a' has a value in Chinese words and no value_en: add it, the value in the words of the en pages"),
    ("  value: v\n  source: 来源\n", "fact 'a' has a source in Chinese words and no source_en: add it, the source in the words of the en pages"),
])
def test_chinese_words_need_the_other_languages_words(tmp_path, fields, message):
    """A value or source in Chinese words needs its words for every other language (value_en …): without them those
    pages would show Chinese. A quotation keeps its source's words, and a translation is read for its language."""
    path = tmp_path / "f.yaml"
    path.write_text("a:\n  fmt: ''\n  what: w\n  tag: U\n" + fields, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        facts.load_entries(path)
    path.write_text("a:\n  fmt: ''\n  what: w\n  tag: U\n  value: 中文\n  source: s\n  quote: true\n", encoding="utf-8")
    facts.load_entries(path)
    translated = facts.Fact("a", "中文", "", "w", "来源", "", "U", {"en": "Chinese"}, False, {"en": "a source"})
    assert (translated.text_in("en"), translated.text_in("zh")) == ("Chinese", "中文")
    assert (translated.source_in("en"), translated.source_in("zh")) == ("a source", "来源")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        translated.text_in("fr")


PAGES = Path(__file__).resolve().parent.parent / "docs"
OPEN_QUOTES = ('"', "“", "「", "(“", "（「")


def _uses(name: str):
    """(page, the two characters before, the character after) of each {{ fact("name" …) }} in the pages."""
    for page in sorted(PAGES.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r'\{\{\s*fact\("' + name + r'"[^}]*\}\}', text):
            yield page.name, text[max(0, m.start() - 2):m.start()], text[m.end():m.end() + 1]


@pytest.mark.parametrize("name", [n for n in facts.names() if "原文" in facts.get(n).what])
def test_a_verbatim_fact_is_shown_as_a_quotation_once(name):
    # A fact whose `what` says it is the source's own words (原文) is marked quote (the macro adds the marks),
    # or every page that shows it types the marks around it; never both.
    f = facts.get(name)
    for page, before, after in _uses(name):
        typed = before[-1:] in ('"', "“", "「") and after in ('"', "”", "」")
        if f.quote:
            assert not typed, f"{page}: {name} is marked quote; drop the quotation marks typed around it"
        else:
            assert typed, f"{page}: {name} is the source's own words; mark it quote: true in its facts file"
