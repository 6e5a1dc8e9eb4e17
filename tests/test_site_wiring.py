"""Site wiring that needs no build: the BibTeX macro, the verification tags' links to their sources, the phone
constants' arithmetic (the notebooks' setup cell: tests/test_notebook_download.py)."""

from __future__ import annotations

import re

import pytest

from macro_env import MacroEnv


def test_citation_bibtex_macro_is_a_bibtex_block_from_citation_cff():
    from tools.build.citation import bibtex_entry

    for page, lang in (("index.md", "zh"), ("index.en.md", "en")):
        block = MacroEnv(page).macros["citation_bibtex"]()
        assert block.startswith("```bibtex\n@software{") and block.endswith("\n```")
        assert block == f"```bibtex\n{bibtex_entry(lang=lang).rstrip()}\n```"
    assert "origtitle" in MacroEnv("index.en.md").macros["citation_bibtex"]()


def test_verification_tags_read_distinctly_and_link_to_their_source():
    from posenc.facts import TAGS
    from tools.build import sources

    links = {tag: sources.badge(tag, "zh", "../../references/#fact-x") for tag in TAGS}
    labels = {tag: re.search(r">([^<]*)</a>$", link).group(1) for tag, link in links.items()}
    assert len(set(labels.values())) == len(TAGS), labels
    assert not labels["V3"].startswith(labels["V"]) and not labels["U"].startswith(labels["V"]), labels
    for tag, link in links.items():
        assert 'href="../../references/#fact-x"' in link
        # a link's spoken name says where it goes and holds the words it shows (WCAG 2.5.3)
        assert re.search(r'aria-label="([^"]*)"', link).group(1) == f"{labels[tag]}：查看出处"
        assert 'data-search-exclude="tag"' in link and 'data-search-exclude="tag"' in sources.badge(tag, "zh")
        assert "<a " not in sources.badge(tag, "zh")  # without a target: the legend's and the source list's own tags


def test_phone_constants_fit_the_measured_column():
    """figures_src/_style.py's limit against Material's column at 390 px (measured in Chromium: the
    article is 390 − 2 × 16 = 358 px wide; extra.css lets a figure span all 390 px on a phone)."""
    from figures_src import _style

    natural_px = _style.PHONE_MAX_WIDTH_IN * 96
    assert 358 / natural_px >= 0.75  # even in the plain column
    assert _style.MIN_TEXT_PT * 96 / 72 * (358 / natural_px) >= 9  # 9 pt text stays ≥ 9 CSS px


def test_a_value_tag_links_to_the_entry_of_that_fact_or_model_field():
    """fact() and cfg() link their tag to the value's own entry on the references page (tools/build/sources.py), from
    a lesson two folders down; a field read by key (``scaling.factor``) links to the entry of its field."""
    from macro_env import MacroEnv

    env = MacroEnv("lessons/05-long-context.md")
    assert 'href="../../references/#fact-pi_context"' in env.render('{{ fact("pi_context") }}')
    assert 'href="../../references/#model-qwen3_8b-context"' in env.render('{{ cfg("qwen3_8b", "context") }}')
    assert 'href="../../references/#model-qwen3_8b-rope_theta"' in env.render('{{ cfg("qwen3_8b", "rope_theta") }}')
    from posenc import configs

    model, field, key = next((m, f, next(iter(v.value))) for m in configs.keys() for f, v in configs.load(m).fields.items()
                             if isinstance(v.value, dict) and v.value)
    assert f'href="../../references/#model-{model}-{field}"' in env.render(f'{{{{ cfg("{model}", "{field}.{key}") }}}}')
    assert "<a " not in env.render('{{ fact("pi_context", badge=False) }}')


def test_no_group_of_the_source_list_opens_with_a_source_that_points_back():
    """The references page lists each lesson's facts, then each model's fields, in data-file order
    (tools/build/sources.py), and many sources say "same table" of the entry above: the first entry of a group has
    none above it to point back to."""
    from posenc import configs, facts

    firsts = {path.name: facts.get(next(iter(facts.load_entries(path)))).source for path in sorted(facts.DATA.glob("facts_lesson*.yaml"))}
    firsts |= {key: next(iter(configs.load(key).fields.values())).source for key in configs.keys()}
    pointing_back = {group: source for group, source in firsts.items() if re.match(r"(the )?same\b", source, re.I)}
    assert not pointing_back, pointing_back


def test_a_facts_file_of_no_lesson_fails_the_source_list_naming_it(tmp_path, monkeypatch):
    from posenc import facts
    from tools.build import sources

    for path in facts.DATA.glob("facts_*.yaml"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "facts_lesson9.yaml").write_text("", encoding="utf-8")
    monkeypatch.setattr(facts, "DATA", tmp_path)
    with pytest.raises(ValueError, match=r"facts_lesson9\.yaml: no lesson .*\(facts_lesson1\.yaml"):
        sources.sources_html("zh")
