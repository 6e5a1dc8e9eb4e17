"""One notation for the course: the table (posenc/data/notation.yaml) rendered on the
glossary page, and the rules (tools/guards/notation.py) that hold every lesson's math to it."""

from __future__ import annotations

import pytest

from macro_env import MacroEnv
from tools.build import lesson_pages as lp
from tools.guards import notation, prose_lint

L2, L4, L5 = "lessons/02-learned-table.md", "lessons/04-rope.md", "lessons/05-long-context.md"
L6 = "lessons/06-partial-nope.md"


def written(markdown: str, page: str = L4) -> list[str]:
    return [f.written for f in notation.check(markdown, page)]


def test_the_table_has_one_meaning_per_symbol_and_the_phase_b_rows():
    symbols, notes, notes_en = notation.load()
    names = [s.symbol for s in symbols]
    assert len(set(names)) == len(names)
    for must in ("p", "m,\\ n", "q,\\ k,\\ v", "\\tau", "i", "d_{model},\\ d_{head},\\ d_{rot}", "\\omega_i", "\\theta", "\\varphi", "\\lambda_i", "L,\\ L'", "s", "t",
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
    temperature = "$\\sqrt{1/t}$"
    assert not written(temperature, "lessons/05-long-context.en.md") and not written(temperature, L5)
    assert written(temperature, "lessons/04-rope.en.md") == written(temperature, "lessons/04-rope.md") != []


# (what a page writes, on which page, whether it breaks the course's notation)
CASES = [
    # θ is the base, never an angle and never indexed
    ("$\\omega_i = \\theta^{-2i/d}$", L4, True),  # a bare d: which width?
    ("$\\omega_i = \\theta^{-2i/d_{rot}}$", L4, False),
    ("$(\\theta'/\\theta)^{2i/d_{rot}}$", L5, False),
    ("$\\theta' = \\theta \\cdot s^{d_{rot}/(d_{rot}-2)}$", L5, False),
    ("$\\theta' = \\theta \\cdot s^{d/(d-2)}$", L5, True),
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
    ("$(i-i_{fast})/(i_{slow}-i_{fast})$", L5, False),
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
    ("$\\omega_{d/2-1}$", L4, True),
    ("$\\omega_{d_{rot}/2-1}$", L4, False),
    ("$L_{train}$", L4, True),
    ("$L' = sL$", L5, False),
    # the second meanings letters once had (the newcomer's review): a shift is τ, not k
    ("$\\mathrm{PE}(p+k)$", L4, True),
    ("$\\mathrm{PE}(p+\\tau) = M_\\tau\\,\\mathrm{PE}(p)$", L4, False),
    ("$M_k$", L4, True),
    ("$\\sum_i \\cos(k\\,\\omega_i)$", L4, True),
    ("$k\\,\\omega_i$", L4, True),
    ("$q_m^\\top k_n$ 与 $\\varphi_q - \\varphi_k$", L4, False),
    ("平移 $k$ 个位置", L4, True),
    ("Shift the sentence by $k$ positions", "lessons/04-rope.en.md", True),
    ("旋转 $q$、$k$", L4, False),
    # h is a head, σ lesson 2's scale, Π a permutation, E the word vectors, x the input vector
    ("$\\lambda < L/h$", L5, True),
    ("$\\lambda < L/\\text{high\\_freq\\_factor}$", L5, False),
    ("$\\sigma_i$", L5, True),
    ("$P[p]$", L2, True),
    ("$\\mathrm{PE}[p]$", L2, True),
    ("$\\mathrm{PE}(p)$", L2, False),
    ("$X' = PE + U$", "lessons/01-order-blind.md", True),
    ("$X' = \\Pi\\,E + U$", "lessons/01-order-blind.md", False),
    ("$X' = P\\,E + U$", "lessons/01-order-blind.md", True),
    ("$E = B/2$", "lessons/03b-relative-bias.md", True),
    ("$\\mathrm{TokenEmbedding}(x_p)$", L2, True),
    ("$x = m - n \\ge 0$", "lessons/03b-relative-bias.en.md", True),
    ("$\\delta = m - n \\ge 0$", "lessons/03b-relative-bias.en.md", False),
    # w is Shaw's distance vector, its superscript in words: K is the key matrix, T5's table is in words
    ("$q_m \\cdot w^K_{\\mathrm{clip}(m-n,\\,C)}$", "lessons/03b-relative-bias.md", True),
    ("$w_h[\\mathrm{bucket}(m-n)]$", "lessons/03b-relative-bias.md", True),
    ("$q_m \\cdot w^{\\text{key}}_{\\mathrm{clip}(m-n,\\,C)}$ 与 $w^{\\text{value}}$", "lessons/03b-relative-bias.md", False),
    # d: in lesson 3 it is d_model, so the attention score's scale says it is a head's width
    ("$\\mathrm{PE}(m)^\\top W_q W_k^\\top \\mathrm{PE}(n)/\\sqrt{d}$", "lessons/03-sinusoidal.md", True),
    ("$q\\cdot k/\\sqrt d$", "lessons/03-sinusoidal.en.md", True),
    ("$\\mathrm{PE}(m)^\\top W_q W_k^\\top \\mathrm{PE}(n)/\\sqrt{d_{head}}$", "lessons/03-sinusoidal.md", False),
    ("长度恒为 $\\sqrt{d/2}$", "lessons/03-sinusoidal.md", True),
    ("长度恒为 $\\sqrt{d_{model}/2}$，乘 $\\sqrt{d_{model}}$", "lessons/03-sinusoidal.md", False),
    ("取 d = 16 时", "lessons/03-sinusoidal.md", True),
    ("I'd say the $d_{head}$-wide head", "lessons/04-rope.en.md", False),
    ("$q_m \\cdot k_n/\\sqrt{d}$", L4, True),
    ("$q_m \\cdot k_n/\\sqrt{d_{head}}$", L4, False),
    ("sinusoidal × √d 一行", L4, True),
    ("sinusoidal × √d_model 一行", L4, False),
    # lesson 6's MLA: a vector's part is named in words, not by a capital superscript another row owns
    ("$(R_m\\, q^R_m)^\\top (R_n\\, k^R_n)$", L6, True),
    ("$(q^C_m)^\\top k^{C}_n$", L6, True),
    ("$W^{UK} c^{KV}$", L6, True),
    ("$(R_m\\, q^{\\text{rope}}_m)^\\top k^{\\text{nope}}_n$ 与 $W^{\\text{up}}_k c^{KV}$", L6, False),
    # a subscript on q is a position (q_m): pair i of q is q^{(i)}
    ("$\\sum_i |q_i|^2 \\cos(\\delta\\,\\omega_i)$", L6, True),
    ("$\\sum_i |q^{(i)}|^2 \\cos(\\delta\\,\\omega_i)$", L6, False),
    # τ shifts a whole sentence; the distance between two positions is δ
    ("相隔 $\\tau$ 的两个位置", L6, True),
    ("two positions $\\tau$ apart", L6, True),
    ("相隔 $\\delta$ 的两个位置，整句平移 $\\tau$ 个位置", L6, False),
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


def test_the_results_page_writes_its_statistics_in_letters_of_its_own():
    # d̄ ± t_{n-1} s/√n: d is a width, t YaRN's temperature, s the extension factor, n the key's position
    for textbook in ("$\\bar d$", "$d_1, \\dots$", "$t_{n-1}$", "$\\frac{s}{\\sqrt{n}}$"):
        assert written(textbook, "lessons/results.md") != [], textbook
        assert written(textbook, "lessons/results.en.md") != [], textbook
    assert written("$\\bar\\Delta \\pm \\kappa_{S-1}\\,\\frac{\\mathrm{sd}}{\\sqrt{S}}$", "lessons/results.md") == []
    assert written("$\\kappa_{S-1}$", "lessons/06-partial-nope.md") != []  # S and κ belong to the results page


@pytest.mark.parametrize("page", ["index.md"] + lp.lesson_pages() + ["lessons/results.md"])
def test_each_page_writes_the_course_notation(page):
    findings = notation.check((lp.DOCS / page).read_text(encoding="utf-8"), page)
    assert not findings, f"{len(findings)} place(s) off the notation table:\n  " + "\n  ".join(map(str, findings))


# --- every symbol has a row (tools/guards/notation.py: "Every symbol has a row") ---------------------------------------

L1, L3, L3B = "lessons/01-order-blind.md", "lessons/03-sinusoidal.md", "lessons/03b-relative-bias.md"


@pytest.mark.parametrize("tex, letters", [
    ("q_m^\\top k_n / \\sqrt{d}", ["q", "k", "d"]),
    ("\\mathrm{PE}(p,\\,2i) = \\sin(p\\,\\omega_i)", ["p", "i", "p", "\\omega"]),
    ("e^{\\mathrm{i} m\\omega} z_q", ["z"]),  # Euler's e and the exponent are not symbols; z is
    ("\\begin{aligned} &Q = XW_q \\\\[4pt] \\end{aligned}", ["Q", "X", "W"]),
    ("2\\pi / \\omega_i", ["\\omega"]),
    ("\\text{smooth}_i = \\mathit{pos} + {{ num(\"x\") }}", []),
    ("d_{\\text{rot}} = \\mathrm{int}(d \\times \\rho)", ["d", "d", "\\rho"]),
])
def test_the_letters_a_formula_writes(tex, letters):
    assert notation.letters_of(tex) == letters


def letters_found(markdown: str, page: str = L4) -> list[str]:
    return [f.written for f in notation.check(markdown, page)]


def test_a_letter_with_no_row_fails_with_file_and_line():
    [f] = notation.check("# 课\n\n一行。\n\n设 $u$ 是一个数。\n", L4)
    assert f.line == 5 and f.written == "u" and "no row in the notation table" in str(f)
    assert str(f).startswith("docs/lessons/04-rope.md:5: notation: 'u'")


def test_a_letter_before_its_first_lesson_fails_and_after_it_passes():
    page = "# 课\n\n扩展倍数 $s$。\n"
    assert letters_found(page, L3B) == ["s"] and letters_found(page, L5) == []
    [f] = notation.check(page, L3B)
    assert "lessons/05-long-context.md on" in str(f)


def test_a_letter_outside_its_pages_fails():
    # t is YaRN's temperature, lesson 5 only: lesson 6 comes later but may not write it
    assert letters_found("# 课\n\n温度 $t$。\n", "lessons/06-partial-nope.md") == ["t"]
    assert letters_found("# 课\n\n温度 $t$。\n", L5) == []


def test_the_home_page_may_write_any_row_but_no_unknown_letter():
    assert letters_found("# 课\n\n扩展倍数 $s$，输出 $Y$。\n", "index.md") == []  # Y: lesson 1 only
    assert letters_found("# 课\n\n一个 $u$。\n", "index.md") == ["u"]


def test_an_english_page_is_held_to_the_same_rows_and_keeps_its_one_letter_words():
    page = "# Lesson\n\nA head is a map, and I say $s$ is the factor; rotate q and k.\n"
    assert letters_found(page, "lessons/03b-relative-bias.en.md") == ["s"]


def test_prose_letters_count_but_not_inside_names_numbers_or_labels():
    page = "# 课\n\n点「旋转 q、k」。p-RoPE 在 7M 参数、GPT-2 和表 3 的 (E) 行里都不算；单独的 u 算。\n"
    assert letters_found(page, L4) == ["u"]
    assert letters_found("# 课\n\n一共 {{ num(\"exp_params_m\") }}M 参数。\n", L4) == []


def test_a_fold_and_a_mapping_block_are_not_the_main_text_but_a_preview_may_look_ahead():
    page = "\n".join([
        "# 课",
        '??? note "选读：更深一层"',
        "    设 $u$ 是一个数。",
        "",
        '!!! note "记号对照：论文怎么写"',
        "    论文写 $u$。",
        "",
        '!!! tip "预告：第 5 课"',
        "    扩展倍数 $s$。",
        "",
        "正文的 $s$。",
    ])
    assert [(f.line, f.written) for f in notation.check(page, L3B)] == [(11, "s")]


def test_a_rule_and_the_letters_report_one_place_once():
    assert letters_found("# 课\n\n角 $\\alpha$。\n", L4) == ["\\alpha"]


def _table(tmp_path, rows: str):
    path = tmp_path / "notation.yaml"
    path.write_text("symbols:\n" + rows, encoding="utf-8")
    return path


def test_the_table_refuses_a_letter_in_two_rows_and_a_row_without_its_lesson(tmp_path):
    two = _table(tmp_path, "  - {symbol: 'k', first: lesson1, meaning: 键, meaning_en: key}\n"
                           "  - {symbol: 'k_n', first: lesson3, meaning: 平移, meaning_en: shift}\n")
    with pytest.raises(ValueError, match="'k' belongs to rows 'k' and 'k_n'"):
        notation.load(two)
    bare = _table(tmp_path, "  - {symbol: 'k', meaning: 键, meaning_en: key}\n")
    with pytest.raises(ValueError, match="needs 'first'"):
        notation.load(bare)
    wrong = _table(tmp_path, "  - {symbol: 'k', first: lesson9, meaning: 键, meaning_en: key}\n")
    with pytest.raises(ValueError, match="'lesson9' is not a lesson key"):
        notation.load(wrong)


def test_each_row_is_written_and_no_row_comes_later_than_its_first_use():
    """The table describes the course as it is: a row's ``first`` lesson is no later than the first lesson whose
    main text writes the letter in a formula (outside previews), and every row is written somewhere; ρ is
    written by a fact (lesson 6's paraphrase of p-RoPE), not by the lesson's own Markdown."""
    from tools.guards import concept_order

    symbols = notation.load()[0]
    owner = {letter: row for row in symbols for letter in row.letters}
    order = lp.course_order()
    first_use: dict[str, str] = {}
    for page in [*lp.lesson_pages(), "lessons/results.md"]:
        md = (lp.DOCS / page).read_text(encoding="utf-8")
        hidden = [n for b in lp.admonitions(md) if b.folded for n in b.lines()] + sorted(concept_order.preview_lines(md))
        text = lp.blank_lines(notation._readable(md), hidden)
        for m in notation.MATH.finditer(text):
            for letter in notation.letters_of(m.group(0)):
                first_use.setdefault(owner[letter].symbol, page)
    facts = (lp.ROOT / "posenc" / "data" / "facts_lesson6.yaml").read_text(encoding="utf-8")
    assert "ρ" in facts
    late = [f"{row.symbol}: first {row.first}, but written in {first_use[row.symbol]}" for row in symbols
            if row.symbol in first_use and order.index(first_use[row.symbol]) < order.index(row.first)]
    unused = [row.symbol for row in symbols if row.symbol not in first_use and row.symbol != "\\rho"]
    assert not late and not unused, (late, unused)
