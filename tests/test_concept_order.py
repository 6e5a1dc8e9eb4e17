"""The concept-order check (tools/guards/concept_order.py): a glossary term only in or after the lesson that teaches
it, except in marked previews. The finder on small pages, then every lesson of the course."""

from __future__ import annotations

import pytest

from tools.guards import concept_order as co
from tools.build import course_macros as cm
from tools.build import lesson_pages as lp

L2, L3, L5 = "lessons/02-learned-table.md", "lessons/03-sinusoidal.md", "lessons/05-long-context.md"


def found(markdown: str, page: str = L3) -> list[tuple[int, str, str]]:
    return [(f.line, f.written, f.term) for f in co.check(markdown, page)]


def test_a_later_term_is_named_with_file_line_and_the_lesson_that_teaches_it():
    page = "# 第 3 课\n\n正文。\n\n这里提前说了 ALiBi 的斜率。\n"
    [f] = co.check(page, L3)
    assert str(f) == ("docs/lessons/03-sinusoidal.md:5: 'ALiBi' is taught in lessons/03b-relative-bias.md#alibi; "
                      "say it in plain words, move it into a marked preview (an admonition titled 这一课先不碰 / "
                      "\"Not in this lesson\", or one whose title starts with 预告 / \"Preview\"), or teach it here")


def test_an_english_page_is_read_at_its_chinese_page_place_with_english_previews():
    early = "# Lesson 3\n\nHere the slope of ALiBi comes too early.\n"
    assert [f.term for f in co.check(early, "lessons/03-sinusoidal.en.md")] == ["ALiBi"]
    assert co.check(early, "lessons/04-rope.en.md") == []
    boxed = '# Lesson 3\n\n!!! abstract "Not in this lesson"\n    ALiBi comes in lesson 3b.\n\n!!! tip "Preview: slopes"\n    ALiBi again.\n'
    assert co.check(boxed, "lessons/03-sinusoidal.en.md") == []


def test_a_term_in_or_after_its_lesson_passes():
    assert found("ALiBi 给每个头一个斜率。\n", "lessons/03b-relative-bias.md") == []
    assert found("ALiBi 和 RoPE 的对比。\n", "lessons/04-rope.md") == []
    assert found("正弦位置编码。\n", L3) == []


def test_marked_previews_may_name_later_terms_and_nothing_else_may():
    page = "\n".join([
        "# 课",  # 1
        '!!! abstract "这一课先不碰"',
        "    - **RoPE**：留到第 4 课。",  # 3: preview
        "",
        '!!! tip "预告：下一课的 ALiBi"',  # 5: preview title
        "    ALiBi 把偏置写死。",  # 6: preview
        "",
        '??? note "选读：YaRN 怎么做"',  # 8: a folded deep dive is not a preview
        "    YaRN 分三段。",  # 9
        "",
        "## 下一个缺口 { #next }",  # 11
        "",
        "→ 第 4 课：RoPE 到底旋转了什么。",  # 13: preview
        "",
        "### 线索 { #clue }",
        "",
        "NoPE 也在这一节里。",  # 17: still inside #next (a lower heading)
        "",
        "## 练习 { #exercises }",  # 19
        "",
        "RoPE 的练习。",  # 21: after #next
        '!!! note "先停在这里"',
        "    NoPE 不算预告。",  # 23
    ])
    assert [(line, term) for line, _, term in found(page)] == [
        (8, "YaRN"), (9, "YaRN"), (21, "RoPE（旋转位置编码）"), (23, "NoPE")]


def test_code_math_macros_and_link_targets_are_not_prose():
    page = ("```python\nrope = 'RoPE'\n```\n行内 `YaRN` 不算，$\\text{ALiBi}$ 不算，{{ timeline(\"lesson3\") }} 和\n"
            "{{ widget(\"dataflow\", lesson=\"3\") }} 不算，[第 4 课](04-rope.md#RoPE) 的链接目标不算。\n")
    assert found(page) == []


def test_the_longest_name_wins_and_a_term_is_not_found_inside_a_longer_one():
    # 正弦位置编码 (lesson 3) in lesson 2: one finding, that term
    assert [t for _, _, t in found("它和正弦位置编码一样好。\n", L2)] == ["正弦位置编码"]
    # 相对位置偏置 (3b) contains 相对位置 (3): in lesson 3 it is the 3b term, once
    assert [(w, t) for _, w, t in found("改成相对位置偏置。\n", L3)] == [("相对位置偏置", "相对位置偏置")]
    assert found("只关心相对位置。\n", L3) == []  # taught here
    # M-RoPE (6b) is not RoPE (4); in lesson 5 only M-RoPE is early
    assert [t for _, _, t in found("M-RoPE 给图片三个编号。\n", L5)] == ["M-RoPE"]
    # 调大底数 is ABF (5); 底数 inside it (3) is not found separately in lesson 4
    assert [t for _, _, t in found("后来调大底数。\n", "lessons/04-rope.md")] == ["ABF（调大底数）"]


def test_latin_names_match_whole_words_and_keep_their_case():
    assert found("XRoPE 和 RoPEs 和 ropeway 都不是。\n") == []
    assert found("pi 是圆周率，API 和 PIE 也不是。\n", "lessons/04-rope.md") == []
    assert [t for _, _, t in found("只用 PI 就够。\n", "lessons/04-rope.md")] == ["位置插值（PI）"]
    assert [t for _, _, t in found("部分RoPE 和 部分 RoPE。\n", L5)] == ["部分 RoPE"]


def test_english_names_match_in_any_case_and_with_a_space_or_a_hyphen():
    assert [t for _, _, t in found("Rotary Position Embedding 是它的英文名。\n")] == ["RoPE（旋转位置编码）"]
    assert [t for _, _, t in found("也叫 sliding window attention。\n", L5)] == ["滑动窗口注意力"]
    assert [t for _, _, t in found("Attention with Linear Biases\n")] == ["ALiBi"]


def test_one_finding_per_term_per_line():
    assert len(found("RoPE 和 RoPE，还有 rotary position embedding。\n")) == 1


def test_names_of_an_entry():
    terms = {t.term: t for t in cm.load_glossary()}
    assert [n.text for n in co.term_names(terms["RoPE（旋转位置编码）"])] == ["RoPE", "旋转位置编码", "rotary position embedding"]
    assert [n.text for n in co.term_names(terms["位置插值（PI）"])] == ["位置插值", "PI", "position interpolation"]
    assert [n.text for n in co.term_names(terms["原生上下文长度"])] == ["原生上下文长度", "native context length"]
    # a single common English word is not a name (base, period, hand, extrapolation)
    for term in ("底数", "周期", "指针", "外推"):
        assert [n.text for n in co.term_names(terms[term])] == [term]
    # "KV cache" is its own English name: the term matches in any case, once
    [kv] = co.term_names(terms["KV cache"])
    assert kv.any_case


def test_pages_by_their_place_in_the_nav():
    assert co.page_position("index.md") is None  # the map of the course
    assert found("YaRN、NoPE、M-RoPE 都在首页。\n", "index.md") == []
    # the results page, the glossary and the references come after lesson 6b: every term is taught by then
    for page in ("lessons/results.md", "glossary.md", "references.md"):
        assert found("M-RoPE、NoPE、YaRN。\n", page) == []
    order = lp.course_order()
    assert order.index("lessons/03b-relative-bias.md") == order.index(L3) + 1
    assert order.index("lessons/06b-mrope.md") < order.index("lessons/results.md")


def test_every_glossary_term_is_taught_on_a_page_of_the_nav():
    order = lp.course_order()
    for t in cm.load_glossary():
        assert t.first.partition("#")[0] in order, t.first


@pytest.mark.parametrize("page", lp.lesson_pages() + ["lessons/results.md"])
def test_each_lesson_names_only_terms_taught_by_then(page):
    findings = co.check((lp.DOCS / page).read_text(encoding="utf-8"), page)
    assert not findings, f"{len(findings)} term(s) before their lesson (tools/guards/concept_order.py):\n  " + "\n  ".join(map(str, findings))


# --- the main path stands alone (tools/guards/concept_order.py: "The main path stands alone") -------------------------


def main_path(markdown: str, page: str = L3, pages=None) -> list[tuple[int, str]]:
    return [(f.line, f.what.split(":")[0]) for f in co.fold_findings(markdown, page, lp.DOCS / page, pages)]


@pytest.mark.parametrize("marker, title, kind", [
    ("??? note", "选读：推导", "选读"),
    ("??? note", "Optional: the derivation", "选读"),
    ("??? success", "答案", "答案"),
    ("??? success", "Answer", "答案"),
    ("??? failure", "误解四：「RoPE 保证越远越小」", "误解"),
    ("??? failure", 'Misconception four: \\"RoPE guarantees\\"', "误解"),
    ("??? question", "为什么只转 q 和 k？", "问答"),
    ("??? info", "数字从哪来", "数字从哪来"),
    ("??? note", "记号对照：论文的 α", "记号对照"),
    ("??? tip", "预告：第 4 课", "预告"),
    ("??? note", "带虚下划线的句子", None),
    ("??? failure", "「YaRN 不需要微调」", None),
    ("??? note", "选读的故事", None),  # the word must be the title's kind, followed by its colon
])
def test_a_fold_kind_is_told_by_its_title_or_its_type(marker, title, kind):
    [block] = lp.admonitions(f'{marker} "{title}"\n    正文。\n')
    assert co.fold_kind(block) == kind


def test_a_fold_of_no_kind_fails_with_file_and_line_but_not_in_the_sources_section():
    page = "\n".join([
        "# 课", "", "正文。", "",
        '??? note "我们的小模型"', "    一段。", "",
        "## 参考与数字口径 { #sources }", "",
        '??? note "参考文献"', "    一段。",
    ])
    [f] = co.fold_findings(page, L3, lp.DOCS / L3)
    assert str(f).startswith("docs/lessons/03-sinusoidal.md:5: main path: the fold '我们的小模型' has no kind")


def test_a_link_from_the_main_path_into_a_fold_fails_and_words_pass():
    page = "\n".join([
        "# 课", "",
        "见[推导](#derivation)，或[实测](#shift)。推导在选读里。", "",
        '<span id="derivation"></span>', "",
        '??? note "选读：推导"', "    一段，[回到正文](#shift)。", "    { #inner }", "",
        "## 实测 { #shift }", "", "正文。[里面](#inner)", "",
    ])
    assert main_path(page) == [(3, "the link to #derivation leads into a fold; the main path must not need a fold"),
                               (13, "the link to #inner leads into a fold; the main path must not need a fold")]


def test_a_link_into_another_lessons_fold_fails():
    other = '# 第 4 课\n\n<span id="why"></span>\n\n??? note "选读：为什么"\n    一段。\n\n## 正文 { #body }\n\n正文。\n'
    page = "# 课\n\n见[第 4 课的推导](04-rope.md#why)和[正文](04-rope.md#body)。\n"
    assert [line for line, _ in main_path(page, L3, {"lessons/04-rope.md": other})] == [3]


def test_a_heading_with_only_folds_under_it_fails_and_one_line_of_prose_passes():
    only = '# 课\n\n## 常见误解 { #m }\n\n??? failure "误解一：「甲」"\n    不对。\n\n## 下一节\n\n正文。\n'
    assert [line for line, _ in main_path(only)] == [3]
    said = only.replace("{ #m }\n\n", "{ #m }\n\n每一条的标题是一个常见的误解。\n\n")
    assert main_path(said) == []
    parent = "# 课\n\n## 动手\n\n### 第一段\n\n正文。\n"  # a heading whose body is its subsections
    assert main_path(parent) == []


def test_the_home_page_explains_every_fold_kind():
    zh = (lp.DOCS / "index.md").read_text(encoding="utf-8")
    en = (lp.DOCS / "index.en.md").read_text(encoding="utf-8")
    howto_zh = zh[zh.index("## 怎么读"):zh.index("\n## ", zh.index("## 怎么读") + 1)]
    howto_en = en[en.index("## How to read it"):en.index("\n## ", en.index("## How to read it") + 1)]
    for kind, prefixes in co.FOLD_KINDS:
        if prefixes:
            assert f"「{prefixes[0]}」" in howto_zh and f'"{prefixes[1]}"' in howto_en, kind
    assert "问句" in howto_zh and "question" in howto_en


@pytest.mark.parametrize("page", lp.lesson_pages())
def test_each_lessons_main_path_stands_without_its_folds(page):
    for p in (page, page.replace(".md", ".en.md")):
        findings = co.fold_findings((lp.DOCS / p).read_text(encoding="utf-8"), p, lp.DOCS / p)
        assert not findings, "\n".join(map(str, findings))
