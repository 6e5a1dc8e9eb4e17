"""The universal-claims guard (tools/guards/universal_claims.py): a sentence that claims a first, an
only, a none or an all cites a fact in the same sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.build import lesson_pages as lp
from tools.guards import universal_claims as uc


def claims(text: str) -> list[str]:
    return [f.word for f in uc.check(f"# 课\n\n{text}\n", Path("page.md"))]


@pytest.mark.parametrize("sentence, word", [
    ("GPT-NeoX 是第一个用 RoPE 的大模型。", "第一个"),
    ("RoPE 最早出现在苏剑林的博客里。", "最早"),
    ("这是唯一的办法。", "唯一"),
    ("本课程收录的模型里，还没有一个让全部注意力层都不加位置编码。", "还没有"),
    ("所有主流模型都用 RoPE。", "所有主流模型"),
    ("全部注意力层都不加位置编码的模型很少。", "全部"),
    ("这些论文都没有测过外推。", "都没有"),
    ("Shaw 等人首个提出相对位置。", "首个"),
])
def test_a_first_an_only_a_none_or_an_all_is_a_claim(sentence, word):
    assert claims(sentence) == [word]


def test_a_fact_in_the_same_sentence_is_its_source():
    assert claims('GPT-J 是最早的部分旋转模型之一：{{ fact("gptj_rotary_dim") }}。') == []
    # the fact must be in that sentence, not the next
    assert claims('GPT-J 是最早的部分旋转模型之一。{{ fact("gptj_rotary_dim") }}。') == ["最早"]


@pytest.mark.parametrize("sentence", [
    "第一个 token 的分数最高，模型会记住它。",  # an ordinal in the page's own example
    "GPT-2 表里第一个查不到的位置。",  # 第一个 with no word about the field
    "第一个对数桶管到这里。",
    "有了这两个坐标，这一对转到的角度才唯一确定。",  # uniqueness in mathematics
    "本实验还没有测层间交错。",  # the course's own work
    "本页都没有算时间对齐。",
    "九个频率对全部越界。",  # the page's own example
    "没有一个固定的系数能同时照顾短句和长文。",  # the page's own argument
    "和句子、和顺序都没有关系。",
    "`唯一` 在代码里，$\\text{全部模型}$ 在公式里。",
])
def test_what_is_not_a_claim(sentence):
    assert claims(sentence) == []


def test_a_finding_names_file_line_the_word_and_the_fix():
    [f] = uc.check("# 课\n\n第一段。\n\n| 模型 | 说明 |\n|---|---|\n| A | 唯一的做法 |\n", lp.DOCS / "lessons" / "06-partial-nope.md")
    assert str(f) == ("docs/lessons/06-partial-nope.md:7: '唯一' claims an only: cite it with {{ fact(\"…\") }} in the same "
                      "sentence, or rewrite it — …唯一的做法…")


def test_every_page_under_lessons_is_read_and_no_other():
    assert uc.applies_to("lessons/06-partial-nope.md") and uc.applies_to("lessons/results.md")
    assert not uc.applies_to("index.md") and not uc.applies_to("glossary.md")


@pytest.mark.parametrize("page", [p for p in lp.course_order() if uc.applies_to(p)])
def test_each_lesson_cites_its_universal_claims(page):
    findings = uc.check((lp.DOCS / page).read_text(encoding="utf-8"), lp.DOCS / page)
    assert not findings, "universal claims without a source:\n  " + "\n  ".join(map(str, findings))
