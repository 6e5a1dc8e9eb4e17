"""The glossary (posenc/data/glossary.yaml → docs/glossary.md): one term per concept, where it is first
taught, and no rejected synonym anywhere in the course's prose (pages, notebooks, data texts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from macro_env import MacroEnv
from tools.guards import concept_order
from tools.build import course_macros as cm
from tools.guards import prose_lint

ROOT = Path(__file__).resolve().parent.parent


SOURCES = cm.prose_sources()


@pytest.mark.parametrize("path, text", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p, _ in SOURCES])
def test_no_rejected_synonym_in_the_course_prose(path, text):
    findings = cm.synonym_findings([(path, text)])
    assert not findings, "rejected synonyms in prose (posenc/data/glossary.yaml says what to write instead):\n  " + "\n  ".join(findings)


def test_the_finder_reports_file_and_line_and_reads_prose_only(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("第一行\n\n```python\n# 因果 mask in code is fine\n```\n这里写了因果Mask。\n公式 `因果 mask` 与 {{ num(\"训练窗口\") }} 不算。\n"
                    "$\\text{训练窗口}$ 也不算。\n这一行的训练窗口要报。\n", encoding="utf-8")
    text = prose_lint.prose(page.read_text(encoding="utf-8"))
    found = cm.synonym_findings([(page, text)], {"因果 mask": "因果掩码", "训练窗口": "训练长度"})
    assert [f.split(": ", 1)[0].rsplit(":", 1)[1] for f in found] == ["6", "9"]
    assert "「因果Mask」" in found[0] and "write 因果掩码" in found[0]


def test_notebook_markdown_cells_are_prose_and_code_cells_are_not():
    source = "# %%\nx = 1  # 置换等变\n\n# %% [markdown]\n# 这叫置换等变。\n\n# %%\nprint('ok')\n"
    text = cm.notebook_prose(source)
    assert text.splitlines()[4] == "这叫置换等变。" and "x = 1" not in text and text.count("\n") == source.count("\n") - 1


def test_every_page_notebook_and_data_text_is_scanned():
    scanned = {p.relative_to(ROOT).as_posix() for p, _ in cm.prose_sources()}
    for must in ("docs/index.md", "docs/lessons/01-order-blind.md", "docs/lessons/06-partial-nope.md",
                 "docs/notebooks/lesson1.py", "posenc/data/timeline.yaml", "posenc/data/glossary.yaml"):
        assert must in scanned, must


def test_the_documented_rejected_list_equals_the_entries():
    header = cm.GLOSSARY.read_text(encoding="utf-8").split("\nterms:")[0]
    documented = {m.group(1).strip(): m.group(2).strip()
                  for m in re.finditer(r"^#\s{3}(\S(?:.*?\S)?)\s+→\s+(\S(?:.*?\S)?)(?:\s+\(.*)?$", header, re.M)}
    assert documented == cm.rejected()


def test_entries_are_complete_unique_and_point_at_real_places():
    terms = cm.load_glossary()
    assert len(terms) >= 30
    chosen = [t.term for t in terms]
    assert len(set(chosen)) == len(chosen) and len({t.id for t in terms}) == len(terms)
    for t in terms:
        page, anchor = cm.split_target(t.first)
        assert cm.anchor_exists(page, anchor), t.first
        for word in t.reject:
            assert not any(cm.synonym_pattern(word).search(c) for c in chosen), f"{word!r} would match a chosen term"
    # the decisions of the course (PHASE2 glossary table)
    decided = {"频率对": {"箭头", "维度组"}, "注意力系数": {"温度系数", "缩放温度"}, "因果掩码": {"因果 mask"},
               "正弦位置编码": {"正弦编码", "三角位置编码"}, "训练长度": {"训练窗口"}}
    by_term = {t.term: set(t.reject) for t in terms}
    for term, rejects in decided.items():
        assert rejects <= by_term[term], term
    for concept in ("外推", "位置插值（PI）", "相对位置偏置", "NoPE", "部分 RoPE", "M-RoPE", "MLA", "ALiBi", "YaRN",
                    "NTK-aware", "ABF（调大底数）", "排列等变", "位置编号", "绝对位置", "相对位置", "周期", "层间交错"):
        assert concept in by_term, concept


def test_glossary_data_text_lints_clean():
    text = cm.yaml_prose(cm.GLOSSARY.read_text(encoding="utf-8"), cm.GLOSSARY_TEXT)
    assert not prose_lint.check(text, cm.GLOSSARY), "\n".join(map(str, prose_lint.check(text, cm.GLOSSARY)))


def test_a_bad_entry_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "glossary.yaml"
    bad.write_text("terms:\n  - id: a\n    term: 甲\n    english: a\n    first: lessons/01-order-blind.md#no-such-anchor\n    define: 甲。\n",
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"glossary.yaml:2: first .*no-such-anchor"):
        cm.load_glossary.__wrapped__(bad)
    bad.write_text("terms:\n  - id: a\n    term: 甲\n    english: a\n    first: lessons/01-order-blind.md\n    define: 甲。\n"
                   "  - id: b\n    term: 甲\n    english: b\n    first: lessons/01-order-blind.md\n    define: 乙。\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"glossary.yaml:7: term '甲' is already used at line 2"):
        cm.load_glossary.__wrapped__(bad)


def test_the_glossary_page_renders_every_term_with_a_working_link():
    env = MacroEnv("glossary.md")
    md = env.render((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8"))
    for t in cm.load_glossary():
        assert f"**{t.term}** · {t.english} {{ #{t.id} }}" in md
        page, anchor = cm.split_target(t.first)
        assert f"]({page}" + (f"#{anchor}" if anchor else "") + ")" in md  # glossary.md sits at docs/
        for word in t.reject:
            assert f"「{word}」" in md
    assert "{{" not in md and "首次讲解：[第 3 课·续](lessons/03b-relative-bias.md" in md


# --- the home page: how to read it comes before the timeline, whose terms link to the glossary -------------------


@pytest.mark.parametrize("page, howto, timeline", [("index.md", "## 怎么读", "{ #timeline }"),
                                                   ("index.en.md", "## How to read it", "{ #timeline }")])
def test_the_home_page_says_how_to_read_before_the_map_and_the_timeline(page, howto, timeline):
    headings = re.findall(r"^## .*$", (ROOT / "docs" / page).read_text(encoding="utf-8"), re.M)
    assert re.sub(r"\s*\{[^}]*\}$", "", headings[0]) == howto and any(timeline in h for h in headings[2:])  # then the course map, then the timeline


def test_a_glossary_term_links_once_where_the_timeline_first_uses_it():
    seen: set[str] = set()
    first = concept_order.link_glossary_terms("    - 卡在：它排列等变，[排列等变](x.md) 不动，`排列等变` 也不动。", "index.md", seen)
    assert first == "    - 卡在：它[排列等变](glossary.md#permutation-equivariance)，[排列等变](x.md) 不动，`排列等变` 也不动。"
    assert concept_order.link_glossary_terms("    - 又是排列等变和 ALiBi。", "index.md", seen) == "    - 又是排列等变和 [ALiBi](glossary.md#alibi)。"
    assert seen == {"permutation-equivariance", "alibi"}


def test_the_home_timeline_links_each_glossary_term_it_uses_once():
    md = MacroEnv("index.md").render("{{ timeline() }}")
    links = re.findall(r"\]\(glossary\.md#([a-z0-9-]+)\)", md)
    assert len(links) == len(set(links)) and {"permutation-equivariance", "yarn", "mla", "recency-bias"} <= set(links)
    assert all(f"{n}. **{s.label}：{s.title}**" in md for n, s in enumerate(cm.load_timeline(), 1))
