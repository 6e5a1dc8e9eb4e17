"""The number registry and the lint that keeps typed numbers out of lesson prose."""

from pathlib import Path

import pytest

from posenc import facts, numbers
from tools import prose_lint

ROOT = Path(__file__).resolve().parent.parent


def test_every_registered_number_computes_and_formats():
    for name in numbers.names():
        n = numbers.get(name)
        assert n.text, name
        assert "nan" not in n.text.lower() and "inf" not in n.text.lower(), name


def test_formatting_for_chinese_prose():
    assert numbers.format_value(786432, ",") == "786,432"
    assert numbers.format_value(19869.18, ",.0f") == "19,869"
    assert numbers.format_value(0.028284, ".1%") == "2.8%"
    assert numbers.format_value(-0.5, ".1f") == "−0.5"  # a real minus sign in prose
    assert numbers.format_value(-0.001, "+.2f") == "0.00"  # rounds to zero: no sign
    assert numbers.format_value(0.004, "+.2f") == "0.00"
    assert numbers.format_value(0.006, "+.2f") == "+0.01"
    with pytest.raises(ValueError, match="not finite"):
        numbers.format_value(float("nan"), ".2f")


def test_unknown_number_names_the_fix():
    with pytest.raises(numbers.UnknownNumber) as err:
        numbers.get("sin_slowest_perid")
    msg = str(err.value)
    assert "sin_slowest_perid" in msg and "sin_slowest_period" in msg and "posenc/numbers" in msg
    # Jinja would swallow a KeyError/AttributeError and print nothing.
    assert not isinstance(err.value, (KeyError, AttributeError, LookupError))


def test_bad_format_spec_fails_at_registration():
    with pytest.raises(ValueError, match="bad format spec"):
        numbers.number("_test_bad_fmt", ".2q", "bad")(lambda: 1)


def test_facts_carry_source_and_tag():
    for name in facts.names():
        f = facts.get(name)
        assert f.source and f.tag in facts.TAGS, name
    with pytest.raises(facts.UnknownFact, match="facts.yaml"):
        facts.get("vaswani_bleu")


def test_fact_without_source_is_rejected(tmp_path):
    bad = tmp_path / "facts_bad.yaml"
    bad.write_text("x:\n  value: 1\n  fmt: d\n  what: w\n  tag: V\n", encoding="utf-8")
    with pytest.raises(ValueError, match="lacks source"):
        facts.load_entries(bad)
    bad.write_text("x:\n  value: 1\n  fmt: d\n  what: w\n  source: s\n  tag: maybe\n", encoding="utf-8")
    with pytest.raises(ValueError, match="tag 'maybe'"):
        facts.load_entries(bad)


# --- the lint ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prose, literals",
    [
        ("最慢的一根要 19,869 个 token。", ["19,869"]),
        ("内容只剩 2.8%。", ["2.8%"]),
        ("取 d = 16 时", ["16"]),
        ("模型有 3.7M 个参数", ["3.7"]),
        ("1. 第一步\n2. 第二步里有 42 个", ["42"]),
        ("!!! note \"位置 100,000\"\n    正文", ["100,000"]),
        ("<span title=\"x\">BLEU 25.8</span>", ["25.8"]),
    ],
)
def test_lint_catches_typed_numbers(prose, literals):
    assert [f.literal for f in prose_lint.find_literals(prose)] == literals


@pytest.mark.parametrize(
    "prose",
    [
        "Vaswani et al. 2017 §3.5，表 3 第 (E) 行，YaRN 的 Eq. 16。",
        "见第 4 课和第 5 课。",
        "GPT-2、Qwen3-8B、DeepSeek-V3、Llama 3.1 8B、Gemma 3、Kimi K2、fp32、d_model。",
        "公式 $PE(p, 2i) = \\sin(p / 10000^{2i/d})$ 和 $$x_1 + 2$$",
        "代码 `max_len = 5000` 以及 {{ num(\"sin_slowest_period\") }}",
        "```python\nx = 16\n```",
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)",
        "注释标记 (1) 不是数字。",
    ],
)
def test_lint_allows_citations_names_code_math_and_macros(prose):
    assert prose_lint.find_literals(prose) == []


def test_lint_reports_the_right_line():
    [f] = prose_lint.find_literals("第一行\n\n```\n1\n2\n```\n这里有 7 个")
    assert f.line == 7 and f.literal == "7"


def test_lesson_prose_has_no_typed_numbers():
    pages = sorted((ROOT / "docs").rglob("*.md"))
    findings = prose_lint.lint(pages)
    assert not findings, "\n".join(map(str, findings)) + "\n" + prose_lint.FIX
