"""One notation for the course (issue 32 item 4): the table (posenc/data/notation.yaml) rendered on the
glossary page, and the rules (tools/notation.py) that hold every lesson's math to it."""

from __future__ import annotations

import pytest

from macro_env import MacroEnv
from tools import lesson_pages as lp
from tools import notation, prose_lint

L2, L4, L5 = "lessons/02-learned-table.md", "lessons/04-rope.md", "lessons/05-long-context.md"


def written(markdown: str, page: str = L4) -> list[str]:
    return [f.written for f in notation.check(markdown, page)]


def test_the_table_has_one_meaning_per_symbol_and_the_phase_b_rows():
    symbols, notes, notes_en = notation.load()
    names = [s.symbol for s in symbols]
    assert len(set(names)) == len(names)
    for must in ("p", "m,\\ n", "k", "i", "d", "\\omega_i", "\\theta", "\\varphi", "\\lambda_i", "L,\\ L'", "s", "t",
                 "\\beta_{fast},\\ \\beta_{slow}", "a_h"):
        assert must in names, must
    assert any("列向量" in n for n in notes) and any("每一行是一个 token" in n for n in notes)


def test_every_rule_protects_a_row_of_the_table():
    names = {s.symbol for s in notation.load()[0]}
    for rule in notation.RULES:
        assert rule.symbol in names, rule.why


def test_the_table_text_types_no_number():
    text = "\n".join(s.meaning for s in notation.load()[0]) + "\n" + "\n".join(notation.load()[1])
    assert not prose_lint.check(text), prose_lint.check(text)


def test_the_glossary_page_shows_the_table():
    md = MacroEnv("glossary.md").render((lp.DOCS / "glossary.md").read_text(encoding="utf-8"))
    assert "## 记号 { #notation }" in md
    for s in notation.load()[0]:
        assert f"| ${s.symbol}$ | {s.meaning} |" in md


def test_the_english_table_is_in_english_with_every_row():
    import re

    md = notation.table_markdown(lang="en")
    assert not re.search(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]", md), md
    symbols, notes, notes_en = notation.load()
    assert all(f"| ${s.symbol}$ | {s.meaning_en} |" in md for s in symbols) and all(n in md for n in notes_en)


def test_an_english_page_is_allowed_what_its_chinese_page_is():
    student = "$\\bar d \\pm t_{n-1}\\,s$"
    assert not written(student, "lessons/results.en.md") and not written(student, "lessons/results.md")
    assert written(student, "lessons/04-rope.en.md") == written(student, "lessons/04-rope.md") != []


# (what a page writes, on which page, whether it breaks the course's notation)
CASES = [
    # θ is the base, never an angle and never indexed
    ("$\\omega_i = \\theta^{-2i/d}$", L4, False),
    ("$(\\theta'/\\theta)^{2i/d}$", L5, False),
    ("$\\theta' = \\theta \\cdot s^{d/(d-2)}$", L5, False),
    ("$\\frac{\\ln x}{2\\ln\\theta}$", L5, False),
    ("$\\cos\\theta$", L4, True),
    ("$\\sin(x+\\theta)$", L4, True),
    ("$e^{\\mathrm{i} m\\theta}$", L4, True),
    ("$e^{\\mathrm{i}(m-n)\\theta}$", L4, True),
    ("$R(\\theta)$", L4, True),
    ("$\\theta = k\\,\\omega_i$", L4, True),
    ("$\\theta_i$", L4, True),
    # α, β: no rotation angles; β only as YaRN's β_fast / β_slow
    ("$R(\\alpha)$", L4, True),
    ("$\\beta$", L5, True),
    ("$r < \\alpha$", L5, True),
    ("$\\beta_{fast}$ 和 $\\beta_{\\text{slow}}$", L5, False),
    ("$R(\\varphi)\\,q$", L4, False),
    ("$\\phi$", L4, True),
    # t is YaRN's temperature, in lesson 5 only
    ("$\\sqrt{1/t}$", L5, False),
    ("$h_t = e_t + t\\cdot\\mathbf{1}$", L2, True),
    ("$\\tilde t$", L2, True),
    ("$\\mathrm{softmax}$ 与 $\\text{attention}$", L2, False),
    # positions in attention are m and n, the distance m − n
    ("$m - n$", L4, False),
    ("$(n-m)\\,\\omega$", L4, True),
    ("$j - i$", L4, True),
    ("$j \\le i$", L4, True),
    ("$s_{ij}$", L4, True),
    ("$k_j$", L4, True),
    ("$p_i = s + i$", L4, True),
    ("$\\frac{1}{i+1}$", L4, True),
    ("$\\mathrm{PE}(p, 2i+1)$", L4, False),
    ("$\\lambda_{i+1}/\\lambda_i$", L4, False),
    ("$q_i$ 是第 $i$ 对", L4, False),
    ("第 $t$ 个 token", L4, True),
    ("第 $i$ 个查询", L4, True),
    ("第 $m$ 个 token 的第 $i$ 个频率对，第 $h$ 个头", L4, False),
    # ALiBi's slope is a_h; ω by its pair; L plain
    ("$a_h$", L4, False),
    ("$-m_h\\,d$", L4, True),
    ("$\\omega_j$", L4, True),
    ("$\\omega_{d/2-1}$", L4, False),
    ("$L_{train}$", L4, True),
    ("$L' = sL$", L4, False),
]


@pytest.mark.parametrize("text, page, breaks", CASES, ids=[f"{t}|{p[8:10]}" for t, p, _ in CASES])
def test_each_rule_finds_what_it_names_and_nothing_else(text, page, breaks):
    assert bool(written(f"# 课\n\n正文 {text} 完。\n", page)) == breaks, written(f"# 课\n\n{text}\n", page)


def test_a_finding_names_file_line_what_and_why():
    [f] = notation.check("# 课\n\n一行。\n\n旋转 $R(\\theta)$。\n", L4)
    assert str(f) == ("docs/lessons/04-rope.md:5: notation: 'R(\\\\theta' — θ is the base (rope_theta), never an angle: "
                      "write the angle p\\,\\omega_i (one pair) or \\varphi (posenc/data/notation.yaml)")


def test_code_and_a_mapping_block_may_quote_other_notations():
    page = "\n".join([
        "# 课",
        "```python",
        "theta = 1  # $\\theta_i$ in code",
        "```",
        "行内 `$\\alpha$` 不是公式。",
        '!!! note "记号对照：论文和库怎么写距离"',
        "    | 出处 | 写法 |",
        "    |---|---|",
        "    | ALiBi | $-m\\,(i-j)$ |",
        "    | YaRN | $\\alpha$、$\\beta$ |",
        "",
        "之后 $\\alpha$ 又要报。",
    ])
    assert [f.line for f in notation.check(page, L5)] == [12]


def test_the_results_page_may_use_students_t():
    assert written("$\\bar d \\pm t_{n-1}\\,\\frac{s}{\\sqrt{n}}$", "lessons/results.md") == []


@pytest.mark.parametrize("page", ["index.md"] + lp.lesson_pages() + ["lessons/results.md"])
def test_each_page_writes_the_course_notation(page):
    findings = notation.check((lp.DOCS / page).read_text(encoding="utf-8"), page)
    assert not findings, f"{len(findings)} place(s) off the notation table:\n  " + "\n  ".join(map(str, findings))
