"""The quantity registry (posenc.quantities), the facts, and the lint that keeps typed numbers out of prose."""

import importlib.util
import re
from pathlib import Path

import pytest

from posenc import facts, quantities
from posenc.formatting import format_value
from tools.guards import prose_lint

ROOT = Path(__file__).resolve().parent.parent


def test_every_registered_number_computes_and_formats():
    for name in quantities.names():
        n = quantities.get(name)
        assert n.text, name
        assert "nan" not in n.text.lower() and "inf" not in n.text.lower(), name


def test_formatting_for_chinese_prose():
    assert format_value(786432, ",") == "786,432"
    assert format_value(19869.18, ",.0f") == "19,869"
    assert format_value(0.028284, ".1%") == "2.8%"
    assert format_value(-0.5, ".1f") == "−0.5"  # a real minus sign in prose
    assert format_value(-0.001, "+.2f") == "0.00"  # rounds to zero: no sign
    assert format_value(0.004, "+.2f") == "0.00"
    assert format_value(0.006, "+.2f") == "+0.01"
    with pytest.raises(ValueError, match="not finite"):
        format_value(float("nan"), ".2f")


def test_unknown_number_names_the_fix():
    with pytest.raises(quantities.UnknownNumber) as err:
        quantities.get("sin_slowest_perid")
    msg = str(err.value)
    assert "sin_slowest_perid" in msg and "sin_slowest_period" in msg and "posenc/quantities" in msg
    # Jinja would swallow a KeyError/AttributeError and print nothing.
    assert not isinstance(err.value, (KeyError, AttributeError, LookupError))


def test_bad_format_spec_fails_at_registration():
    with pytest.raises(ValueError, match="bad format spec"):
        quantities.number("_test_bad_fmt", ".2q", "bad")(lambda: 1)


def _import_file(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DOCUMENTED_PATTERN = """from posenc.quantities import number


@number("_test_twice", "d", "a quantity registered twice")
def _():
    return 1
"""


def test_a_second_registration_names_both_places(tmp_path):
    """CONTRIBUTING.md's pattern names every function ``_``: the check must not compare function names."""
    first, second = tmp_path / "lesson_a.py", tmp_path / "lesson_b.py"
    first.write_text(DOCUMENTED_PATTERN, encoding="utf-8")
    second.write_text("# another lesson\n\n" + DOCUMENTED_PATTERN, encoding="utf-8")
    try:
        _import_file(first, "_test_lesson_a")
        with pytest.raises(quantities.DuplicateName) as err:
            _import_file(second, "_test_lesson_b")
        line_a = DOCUMENTED_PATTERN.splitlines().index('@number("_test_twice", "d", "a quantity registered twice")') + 1
        assert f"{first}:{line_a}" in str(err.value) and f"{second}:{line_a + 2}" in str(err.value)
        assert quantities.value("_test_twice") == 1  # the first registration stands
    finally:
        quantities._FUNCTIONS.pop("_test_twice", None)
        quantities._CACHE.pop("_test_twice", None)


def test_every_registered_quantity_knows_where_it_was_registered():
    for name in quantities.names():
        path, _, line = quantities.where(name).rpartition(":")
        assert (ROOT / path).is_file() and line.isdigit(), (name, quantities.where(name))


def _string_literals(path: Path) -> set[str]:
    import ast

    return {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_every_name_is_written_out_where_it_is_registered():
    """A search for a name a page quotes finds its definition: a family is a literal table, not an f-string in a loop.
    A family derived from records declared elsewhere (quantities.family without rows) is found by its pattern."""
    literals: dict[str, set[str]] = {}
    hidden = []
    for name in quantities.names():
        path = quantities.where(name).rpartition(":")[0]
        if path not in literals:
            literals[path] = _string_literals(ROOT / path)
        if name not in literals[path] and quantities.pattern(name) not in literals[path]:
            hidden.append(f"{quantities.where(name)}: {name}")
    assert not hidden, (f"{len(hidden)} name(s) built at run time, not written anywhere in the file that registers them; "
                        "write each family as a literal table (posenc.quantities.family):\n  " + "\n  ".join(hidden))


def test_every_name_has_a_documented_scope_and_every_scope_is_used():
    names = quantities.names()
    outside = [f"{quantities.where(n)}: {n}" for n in names if not any(n.startswith(f"{scope}_") for scope in quantities.SCOPES)]
    assert not outside, "names whose scope is not in posenc/quantities/__init__.py SCOPES:\n  " + "\n  ".join(outside)
    unused = [scope for scope in quantities.SCOPES if not any(n.startswith(f"{scope}_") for n in names)]
    assert not unused, f"SCOPES lists scopes no name uses: {unused}"
    doc = quantities.__doc__
    for scope in ("l1", "sin", "exp", "ex", "project", "rope", "gpt2"):  # the docstring's examples are real scopes
        assert f"``{scope}_``" in doc and scope in quantities.SCOPES, scope


def test_a_family_row_must_follow_its_pattern_and_cover_its_members():
    rows = {"a": ("t_x_a", "t_y_a"), "b": ("t_x_b", "t_y_b")}
    assert quantities.family(("t_x_{}", "t_y_{}"), rows, members=("a", "b")) == rows
    assert quantities.family(("t_{}_{}",), {("x", 1): "t_x_1"}) == {("x", 1): ("t_x_1",)}
    with pytest.raises(ValueError, match=r"row for 'b' names t_x_b, t_y_c; by the patterns t_x_\{\}, t_y_\{\} it must name t_x_b, t_y_b"):
        quantities.family(("t_x_{}", "t_y_{}"), {"a": ("t_x_a", "t_y_a"), "b": ("t_x_b", "t_y_c")})
    with pytest.raises(ValueError, match=r"add rows for \['c'\]"):
        quantities.family(("t_x_{}", "t_y_{}"), rows, members=("a", "b", "c"))
    with pytest.raises(ValueError, match=r"remove the rows for \['b'\]"):
        quantities.family(("t_x_{}", "t_y_{}"), rows, members=("a",))
    with pytest.raises(ValueError, match="members' order"):
        quantities.family(("t_x_{}", "t_y_{}"), rows, members=("b", "a"))


def test_a_family_without_rows_derives_them_from_its_members_and_records_the_pattern():
    rows = quantities.family(("t_derived_x_{}", "t_derived_y_{}"), None, members=("a", "b"))
    assert rows == {"a": ("t_derived_x_a", "t_derived_y_a"), "b": ("t_derived_x_b", "t_derived_y_b")}
    assert quantities.pattern("t_derived_y_b") == "t_derived_y_{}" and quantities.pattern("l1_written_out") is None
    with pytest.raises(ValueError, match="no rows and no members"):
        quantities.family(("t_derived_z_{}",), None)


def _quoted_names() -> set[str]:
    """Names a page quotes: {{ num("…") }} in any Markdown page or in a data file whose texts pages render
    (posenc/data/timeline.yaml through {{ timeline() }}), in the results table's rows a page prints with
    {{ method_rows() }}, and names the figure modules quote (alt text, captions and labels of figures the pages
    place)."""
    from tools.build import course_macros

    names = set(quantities.names())
    quoted = set()
    for page in sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "posenc" / "data").glob("*.yaml")):
        text = page.read_text(encoding="utf-8")
        if "{{ method_rows() }}" in text:
            text += course_macros.method_rows_markdown(page.relative_to(ROOT / "docs").as_posix())
        quoted |= set(re.findall(r"""num\(\s*["']([A-Za-z0-9_]+)["']""", text))
    for module in sorted((ROOT / "figures_src").glob("*.py")):
        quoted |= {s for s in re.findall(r"""["']([a-z0-9_]+)["']""", module.read_text(encoding="utf-8")) if s in names}
    return quoted


def test_every_registered_quantity_is_quoted_by_a_page():
    unused = sorted(set(quantities.names()) - _quoted_names())
    assert not unused, (
        "registered quantities that no page quotes (delete them, or quote them; a test of the math calls posenc "
        "directly):\n  " + "\n  ".join(f"{n}  ({quantities.where(n)})" for n in unused)
    )


def test_the_unquoted_check_sees_a_new_unused_quantity():
    quantities.number("_test_nobody_quotes_me", "d", "unused")(lambda: 1)
    try:
        assert "_test_nobody_quotes_me" not in _quoted_names()
    finally:
        quantities._FUNCTIONS.pop("_test_nobody_quotes_me", None)


def test_every_quoted_name_is_registered():
    pages = sorted((ROOT / "docs").rglob("*.md"))
    quoted = {n for p in pages for n in re.findall(r"""num\(\s*["']([A-Za-z0-9_]+)["']""", p.read_text(encoding="utf-8"))}
    assert not quoted - set(quantities.names()), sorted(quoted - set(quantities.names()))


def test_a_fact_defined_twice_names_both_places(tmp_path, monkeypatch):
    entry = "  value: 1\n  fmt: d\n  what: w\n  source: s\n  tag: V\n"
    (tmp_path / "facts_a.yaml").write_text("one:\n" + entry + "twice:\n" + entry, encoding="utf-8")
    (tmp_path / "facts_b.yaml").write_text("# b\ntwice:\n" + entry, encoding="utf-8")
    monkeypatch.setattr(facts, "DATA", tmp_path)
    facts._all.cache_clear()
    try:
        with pytest.raises(ValueError) as err:
            facts.names()
        assert "'twice'" in str(err.value) and "facts_a.yaml:7" in str(err.value) and "facts_b.yaml:2" in str(err.value)
    finally:
        facts._all.cache_clear()


def test_a_key_written_twice_in_one_data_file_is_an_error(tmp_path):
    entry = "  value: 1\n  fmt: d\n  what: w\n  source: s\n  tag: V\n"
    path = tmp_path / "facts_x.yaml"
    path.write_text("twice:\n" + entry + "twice:\n" + entry, encoding="utf-8")  # yaml.safe_load keeps the last silently
    with pytest.raises(ValueError, match=r"facts_x.yaml:1 and .*facts_x.yaml:7: key 'twice' is defined twice"):
        facts.load_entries(path)


def test_a_figure_defined_twice_names_both_places(tmp_path):
    from figures_src import REGISTRY

    source = 'from figures_src import figure\n\n\n@figure("_test_fig_twice", alt="测试用的图，定义了两次")\ndef _(fig, theme):\n    pass\n'
    first, second = tmp_path / "fig_a.py", tmp_path / "fig_b.py"
    first.write_text(source, encoding="utf-8")
    second.write_text("\n" + source, encoding="utf-8")
    try:
        _import_file(first, "_test_fig_a")
        with pytest.raises(ValueError) as err:
            _import_file(second, "_test_fig_b")
        assert f"{first}:4" in str(err.value) and f"{second}:5" in str(err.value)
    finally:
        REGISTRY.pop("_test_fig_twice", None)


def test_facts_carry_source_and_tag():
    for name in facts.names():
        f = facts.get(name)
        assert f.source and f.tag in facts.TAGS, name
    with pytest.raises(facts.UnknownFact, match="facts_<lesson>.yaml"):
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
        ("*Beyond 2 Million Tokens*，后面没有 arXiv 号", ["2"]),  # italics alone are not a cited title
        ("<span title=\"x\">BLEU 25.8</span>", ["25.8"]),
        # math is prose for numbers of two or more significant digits
        ("最慢的一根要 $19{,}869$ 个 token。", ["19,869"]),
        ("取 $d = 16$ 时", ["16"]),
        ("$$\\text{比例} = 2.8\\%$$", ["2.8"]),
        ("误差 $10^{-16}$", ["10", "16"]),
        ("只剩 $0.054\\%$", ["0.054"]),
        ("Exercise 12 takes Step 2.5 and method 30", ["12", "2.5", "30"]),
    ],
)
def test_lint_catches_typed_numbers(prose, literals):
    assert [f.literal for f in prose_lint.find_literals(prose)] == literals


@pytest.mark.parametrize(
    "prose",
    [
        "Vaswani et al. 2017 §3.5，表 3 第 (E) 行，YaRN 的 Eq. 16。",
        "见第 4 课和第 5 课。",
        "**Exercise 2** and [misconception 6](#misconceptions); Failure 1, Method 3, Property 2, Step 1, Pitfall 2, Evidence 3, naive design 1.",
        "GPT-2、Qwen3-8B、DeepSeek-V3、Llama 3.1 8B、Gemma 3、Kimi K2、fp32、d_model。",
        "公式 $PE(p, 2i) = \\sin(p / 10000^{2i/d})$ 和 $$x_1 + 2$$",
        "代码 `max_len = 5000` 以及 {{ num(\"sin_slowest_period\") }}",
        "```python\nx = 16\n```",
        "[arXiv:1706.03762](https://arxiv.org/abs/1706.03762)",
        "- Ding et al. 2024. *LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens*. [arXiv:2402.13753](https://arxiv.org/abs/2402.13753)",
        "注释标记 (1) 不是数字。",
        # single-digit formula constants, and §3.5's formula as printed
        "$\\omega_i = \\text{base}^{-2i/d}$，$\\frac{1}{t+1}$，$0.1\\ln s + 1$，$d/2$",
        "原文：$\\sin(pos / 10000^{2i/d_{model}})$",
    ],
)
def test_lint_allows_citations_names_code_math_and_macros(prose):
    assert prose_lint.find_literals(prose) == []


def test_lint_reports_the_right_line():
    [f] = prose_lint.find_literals("第一行\n\n```\n1\n2\n```\n这里有 7 个")
    assert f.line == 7 and f.literal == "7"


def test_lint_reports_the_line_of_a_number_typed_as_math():
    [f] = prose_lint.find_literals("第一行\n\n$$\nx = 1\n$$\n最慢要 $19{,}869$ 个")
    assert (f.line, f.literal) == (6, "19,869")


def test_lint_catches_typed_example_text_and_names_the_macro():
    from posenc import examples as ex

    page = f"第一行\n拿例句「{ex.SENTENCE}」验证，「{ex.REL_A}」在前。\n代码 `{ex.SENTENCE}` 和 {{{{ example(\"SENTENCE\") }}}} 都可以。"
    findings = prose_lint.find_examples(page)
    assert [(f.line, f.literal) for f in findings] == [(2, ex.SENTENCE), (2, ex.REL_A)]
    texts = prose_lint.example_texts()
    assert texts[ex.SENTENCE] == '{{ example("SENTENCE") }}' and texts[ex.REL_A] == '{{ example("REL_A") }}'
    swapped = quantities.text("l1_main_b")
    assert texts[swapped] == '{{ num("l1_main_b") }}'  # the swapped sentence is derived: a quantity
    assert "typed example text" in str(findings[0])
    # the English edition's sentences too, as an English page writes them
    en = " ".join(ex.texts("en").swap_main[0])
    assert [f.literal for f in prose_lint.find_examples(f"Take “{en}” again.")] == [en]
    assert texts[en] == '{{ num("l1_main_a") }}' and texts[quantities.text("l1_main_b", "en")] == '{{ num("l1_main_b") }}'


def test_lesson_prose_has_no_typed_numbers():
    pages = sorted((ROOT / "docs").rglob("*.md"))
    findings = prose_lint.lint(pages)
    assert not findings, "\n".join(map(str, findings)) + "\n" + prose_lint.FIX
