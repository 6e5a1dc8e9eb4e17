"""Two parts every lesson has (tools/guards/lesson_structure.py): a 「试三件事」 box after each in-page
experiment, and a closing 「学完这一课，你应该能」 list whose bullets link the exercises that check them."""

from __future__ import annotations

import pytest

from tools.build import lesson_pages as lp
from tools.guards import lesson_structure as ls

BOX = '!!! example "试三件事"\n    1. 一。\n    2. 二。\n    3. 三。\n'


def widgets(markdown: str) -> list[str]:
    return ls.widget_findings(markdown, "lessons/99-test.md")


def test_a_widget_needs_its_box_before_the_next_heading_or_widget():
    assert widgets(f'# 课\n\n{{{{ widget("sin-clock") }}}}\n\n{BOX}\n## 下一节\n') == []
    assert widgets('# 课\n\n{{ widget("sin-clock") }}\n\n正文。\n') == [
        'docs/lessons/99-test.md:3: widget \'sin-clock\' has no !!! example "试三件事" box after it (before the next heading '
        "or widget): three things to try, with what to expect"]
    # the box after the next heading belongs to that section
    assert len(widgets(f'# 课\n\n{{{{ widget("sin-clock") }}}}\n\n## 下一节\n\n{BOX}')) == 1
    # two widgets, one box: the first has none
    found = widgets(f'# 课\n\n{{{{ widget("sin-heatmap") }}}}\n\n{{{{ widget("sin-dot") }}}}\n\n{BOX}')
    assert [f.split(":")[1] for f in found] == ["3"]


def test_the_data_flow_panel_needs_no_box_and_code_is_not_a_widget():
    assert widgets('# 课\n\n{{ widget("dataflow", fallback="dataflow_lesson3", lesson="3") }}\n\n正文。\n') == []
    assert widgets('# 课\n\n```\n{{ widget("sin-clock") }}\n```\n') == []


def can_do(section: str, exercises: str) -> list[str]:
    return ls.can_do_findings(f"# 课\n\n正文。\n\n{section}\n## 练习 {{ #exercises }}\n\n{exercises}", "lessons/99-test.md")


EXERCISES = "**练习一：** 算一算。\n{ #exercise-1 }\n\n**练习二：** 再算。\n{ #exercise-2 }\n"
GOOD = ("## 学完这一课，你应该能 { #can-do }\n\n"
        "- 说出甲（[练习 1](#exercise-1)）\n- 算出乙（[练习 2](#exercise-2)）\n- 解释丙（[练习 1](#exercise-1)）\n")


def test_a_complete_can_do_section_passes():
    assert can_do(GOOD, EXERCISES) == []


def test_the_can_do_section_must_exist_with_its_heading():
    assert can_do("", EXERCISES) == [
        "docs/lessons/99-test.md: no '## 学完这一课，你应该能 { #can-do }' section: 3 to 5 bullets, each linking the "
        "exercise that checks it, (#exercise-N)"]
    assert "write '## 学完这一课，你应该能'" in can_do(GOOD.replace("## 学完这一课，你应该能", "### 你学会了"), EXERCISES)[0]


def test_three_to_five_bullets_each_linking_an_exercise_that_exists():
    two = GOOD.rsplit("- 解释丙", 1)[0]
    assert can_do(two, EXERCISES) == ["docs/lessons/99-test.md:5: the can-do section has 2 bullet(s); write 3 to 5"]
    unlinked = GOOD.replace("（[练习 2](#exercise-2)）", "")
    assert can_do(unlinked, EXERCISES) == [
        "docs/lessons/99-test.md:8: a can-do bullet links no exercise: end it with （[练习 N](#exercise-N)）"]
    assert can_do(GOOD, EXERCISES.replace("{ #exercise-2 }", "")) == [
        "docs/lessons/99-test.md:8: the can-do bullet links #exercise-2, which the page does not have: put "
        "{ #exercise-2 } on its own line after that exercise's paragraph"]


def test_an_anchor_must_render_an_id_not_only_be_typed():
    # an attribute list at the end of the paragraph's own line is printed as text, not made an id
    assert "exercise-1" not in ls.rendered_ids("**练习一：** 算一算。 { #exercise-1 }\n")
    assert "exercise-1" in ls.rendered_ids("**练习一：** 算一算。\n{ #exercise-1 }\n")
    assert "exercise-1" in ls.rendered_ids("### 练习一 { #exercise-1 }\n")


@pytest.mark.parametrize("page", lp.lesson_pages())
def test_each_lesson_has_its_boxes_and_its_can_do_list(page):
    found = ls.findings(page)
    assert not found, "\n  ".join(["lesson structure (tools/guards/lesson_structure.py):"] + found)
