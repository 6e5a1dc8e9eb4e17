"""Reading time (tools/build/reading_time.py): computed from a page's Markdown by the documented rule, calibrated on
the newcomer reads of tests/data/newcomer_reads.yaml, printed by {{ reading_time() }} in every lesson's header,
and each lesson's main path held under a stated budget so that its growth stays visible."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from macro_env import MacroEnv
from tools.build import lesson_pages as lp
from tools.build import reading_time as rt
from tools.build.i18n import source_for

CJK = "模型知道词的先后顺序"  # ten Chinese characters


def seconds(markdown: str) -> float:
    return rt.markdown_cost(markdown, "lessons/99-test.md").total()


def test_prose_is_read_at_the_documented_rates():
    assert seconds(CJK * 30) == pytest.approx(300 * 60 / rt.CJK_PER_MIN)
    assert seconds("word " * 200) == pytest.approx(200 * 60 / rt.LATIN_WORDS_PER_MIN)
    assert seconds("，。！？「」（）——") == 0  # punctuation is not read
    assert (rt.CJK_PER_MIN, rt.LATIN_WORDS_PER_MIN) == (300, 200)  # CONTRIBUTING.md states these


def test_formulas_tables_figures_widgets_and_code_have_fixed_costs():
    assert seconds("$$\na = b \\\\\nc = d\n$$\n") == rt.DISPLAY_S + 2 * rt.DISPLAY_ROW_S
    assert seconds("前后 $x$ 与 $y$。") == pytest.approx(2 * rt.INLINE_SHORT_S + 3 * 60 / rt.CJK_PER_MIN)
    assert seconds("| a | b |\n|---|---|\n| c | d |\n| e | f |\n") == pytest.approx(3 * rt.TABLE_ROW_S + 6 * 60 / rt.LATIN_WORDS_PER_MIN)
    assert seconds('{{ figure("sin_clock") }}') == rt.FIGURE_S
    assert seconds('{{ widget("sin-clock", fallback="sin_clock") }}') == rt.WIDGET_S
    assert seconds('{{ widget("dataflow", fallback="dataflow_lesson3", lesson="3") }}') == rt.DATAFLOW_S
    assert seconds("```python\nx = 1\n\ny = 2\nprint(x)\n```\n") == 3 * rt.CODE_LINE_S
    assert seconds('{{ num("sin_base") }} {{ cfg("qwen3_8b", "rope_theta") }}') == pytest.approx(2 * 60 / rt.LATIN_WORDS_PER_MIN)


def test_a_fold_a_macro_prints_is_read_as_a_fold():
    """The English results page's amended wordings are an optional fold printed by a macro (english_amendments): its
    words count as folded depth, not as the page's main path; the Chinese page prints a one-line note there instead."""
    from posenc.experiment import frozen

    assert frozen.amendments_section("en").startswith("??? ")
    page = "# T\n\nA line.\n\n{{ english_amendments() }}\n"
    en = rt.page_time(page, "lessons/results.en.md")
    words = len(frozen.amendments_section("en").split())
    assert en.main.total() < 60 < words * 60 / rt.LATIN_WORDS_PER_MIN / 2 < en.folded.total()
    zh = rt.page_time(page, "lessons/results.md")
    assert zh.folded.total() == 0 and zh.main.total() > 0


def test_a_word_in_a_script_is_one_character_of_a_name():
    """d_{model}, d_{\\text{rot}} and k^{rope} are names a reader takes in at once: graded like $d$, not by their letters."""
    assert rt._inline_seconds("$d_{model}$") == rt._inline_seconds("$d_{\\text{rot}}$") == rt._inline_seconds("$d$")
    assert rt._inline_seconds("$q^{rope}_m$") == rt._inline_seconds("$q^x_m$")
    assert rt._inline_seconds("$\\sqrt{d_{head}}$") == rt._inline_seconds("$\\sqrt{d_x}$") > rt._inline_seconds("$d$")
    assert rt._inline_seconds("$x_{ij}$") == rt._inline_seconds("$x_x$")  # two letters: a word for the grading too


def test_an_inline_formula_costs_more_the_longer_its_tex():
    assert seconds("$q$") == rt.INLINE_SHORT_S
    assert seconds("$q_mk$") == seconds("$q_m k$") == rt.INLINE_SHORT_S  # four characters; spaces do not count
    assert seconds("$q_m^k$") == rt.INLINE_MEDIUM_S
    assert seconds("$p\\,\\omega_i$") == rt.INLINE_MEDIUM_S
    assert seconds("$" + "x" * rt.INLINE_MEDIUM_MAX + "$") == rt.INLINE_MEDIUM_S
    assert seconds("$" + "x" * (rt.INLINE_MEDIUM_MAX + 1) + "$") == rt.INLINE_LONG_S
    assert seconds("\\(" + "x" * (rt.INLINE_MEDIUM_MAX + 1) + "\\)") == rt.INLINE_LONG_S
    assert rt.INLINE_SHORT_S < rt.INLINE_MEDIUM_S < rt.INLINE_LONG_S


TRY = '!!! example "试三件事"\n    1. 点「旋转 q、k」。\n    2. 拖到 5。\n\n    3. 换一个模型。\n'
PANEL = '{{ widget("dataflow", fallback="dataflow_lesson6", lesson="6") }}\n\n'
CLOCK = '{{ widget("sin-clock", fallback="sin_clock") }}\n\n'


def test_the_data_flow_panel_is_a_glance_unless_a_try_box_sends_the_reader_to_it():
    box = seconds(TRY)
    assert seconds(PANEL) == rt.DATAFLOW_S
    assert seconds(PANEL + TRY) == pytest.approx(3 * rt.TRY_TASK_S + box)
    assert seconds(PANEL + "前后\n\n" + TRY) == pytest.approx(3 * rt.TRY_TASK_S + box + 2 * 60 / rt.CJK_PER_MIN)
    # the box after the next widget is that widget's: the panel stays a glance
    assert seconds(PANEL + CLOCK + TRY) == pytest.approx(rt.DATAFLOW_S + 3 * rt.TRY_TASK_S + box)
    # a folded box is not on the path, so it sends nobody anywhere
    assert seconds(PANEL + TRY.replace("!!!", "???")) == pytest.approx(rt.DATAFLOW_S + box)
    assert seconds(CLOCK) == rt.WIDGET_S
    assert seconds(CLOCK + TRY) - box == pytest.approx(3 * rt.TRY_TASK_S)


def test_a_widget_with_a_try_box_costs_the_boxs_tasks():
    two = '!!! example "试两件事"\n    1. 点「旋转 q、k」。\n    2. 拖到 5。\n\n后面的正文\n\n1. 不是任务\n'
    assert seconds(CLOCK + two) - seconds(two) == pytest.approx(2 * rt.TRY_TASK_S)
    assert seconds(PANEL + two) - seconds(two) == pytest.approx(2 * rt.TRY_TASK_S)
    # every try box in the course asks three things: a widget with its box costs what WIDGET_S charges without one
    assert 3 * rt.TRY_TASK_S == rt.WIDGET_S


SKIP = "\n".join([
    "# 首页",
    "",
    CJK * 30,  # 300 characters: 1 minute
    "",
    "## 时间线 { #timeline }",
    "",
    "它是整门课的回顾：第一次读可以先跳过，学完再回来看。",
    "",
    CJK * 60,  # 600 characters the first read skims
    "",
    "### 一站",
    "",
    CJK * 30,  # a subsection is part of the section
    "",
    "## 引用 { #cite }",
    "",
    CJK * 30,  # the next section is read again
])


def test_a_section_the_page_says_to_skip_on_a_first_read_is_skimmed_and_folded():
    t = rt.page_time(SKIP, "index.md")
    skipped = seconds(CJK * 60 + "\n\n### 一站\n\n" + CJK * 30)
    read = seconds(SKIP) - skipped
    assert t.main.seconds["skimmed"] == pytest.approx(rt.SKIM_SHARE * skipped)
    assert t.main.total() == pytest.approx((read + rt.SKIM_SHARE * skipped) * (1 + rt.REREAD_SHARE))
    assert t.folded.total() == pytest.approx(skipped * (1 + rt.REREAD_SHARE))
    english = SKIP.replace("它是整门课的回顾：第一次读可以先跳过，学完再回来看。", "On a first visit you can skip it and come back.")
    assert rt.page_time(english, "index.en.md").main.seconds["skimmed"] == pytest.approx(rt.SKIM_SHARE * skipped)
    # a fold inside the section is not skimmed either: it stays folded depth only
    folded = SKIP.replace("### 一站", '??? note "选读：细节"\n    ' + CJK * 30 + "\n\n### 一站")
    assert rt.page_time(folded, "index.md").main.total() == pytest.approx(t.main.total())
    # a paragraph that mentions skipping something else (a fold) leaves its section on the path
    other = SKIP.replace("第一次读可以先跳过，学完再回来看", "下面的代码都在选读里，可以先跳过")
    assert "skimmed" not in rt.page_time(other, "index.md").main.seconds
    assert rt.page_time(other, "index.md").folded.total() == 0


def test_a_claim_and_a_fact_are_read_as_the_text_they_print():
    from posenc import facts
    from posenc.experiment.claims import CLAIMS, template

    name, claim = next(iter(CLAIMS.items()))
    assert rt.markdown_cost(f'{{{{ claim("{name}") }}}}').total() == pytest.approx(seconds(claim.text["zh"]))
    fact = facts.names()[0]
    assert rt.markdown_cost(f'{{{{ fact("{fact}") }}}}').total() == pytest.approx(seconds(facts.get(fact).text))
    # an English page reads the English it prints
    english = next(f for f in facts.names() if facts.get(f).value_en is not None)
    for macro, en, zh in ((f'claim("{name}")', template(name, "en"), claim.text["zh"]),  # the English as printed (amended)
                          (f'fact("{english}")', facts.get(english).text_in("en"), facts.get(english).text)):
        cost = rt.markdown_cost(f"{{{{ {macro} }}}}", page="lessons/page.en.md").total()
        assert cost == pytest.approx(seconds(en)) and cost != pytest.approx(seconds(zh))


def test_an_unknown_macro_is_an_error_not_a_free_pass():
    with pytest.raises(ValueError, match=r"no reading cost for the macro mystery\(\); add one in tools/build/reading_time.py"):
        seconds('{{ mystery("x") }}')


def test_comments_abbreviations_and_link_targets_are_not_read():
    assert seconds("<!-- 很长的注释 -->\n*[PPL]: 困惑度\n[链](https://example.com/some/long/path)") == pytest.approx(60 / rt.CJK_PER_MIN)


PAGE = "\n".join([
    "# 标题",
    "",
    CJK * 150,  # 1500 characters: 5 minutes on the main path
    "",
    '??? note "选读：更深一层"',
    "    " + CJK * 60,  # 600 characters folded: 2 minutes
    "",
    '???+ note "展开的块"',
    "    " + CJK * 30,  # open: main path, 1 minute
    "",
    "## 练习 { #exercises }",
    "",
    '??? success "答案"',
    "    " + CJK * 30,  # a folded answer: folded depth, 1 minute
    "",
    "## 参考与数字口径 { #sources }",
    "",
    "- " + CJK * 300,  # the sources section: neither
    '??? info "数字从哪来"',
    "    " + CJK * 300,
])


def test_main_path_and_folded_depth_split_by_the_rule():
    t = rt.page_time(PAGE, "lessons/99-test.md")
    # 1500 + 300 characters, 5 + 1 minutes, and a share more for re-reading (the titles' few characters round away)
    read = t.main.total() - t.main.seconds["re-reading"]
    assert read == pytest.approx(6 * 60, abs=3)
    assert t.main.seconds["re-reading"] == pytest.approx(rt.REREAD_SHARE * read)
    assert t.main.minutes() == 6
    assert t.folded.minutes() == 3  # the deep dive and the answer, 2 + 1 minutes and their re-reading
    assert rt.header_text(t) == "阅读加动手约 6 分钟，折叠的选读另约 3 分钟"


def test_the_macro_prints_the_pages_own_time():
    env = MacroEnv("lessons/03-sinusoidal.md")
    env.markdown = PAGE + "\n{{ reading_time() }}\n"
    assert env.render("{{ reading_time() }}") == "阅读加动手约 6 分钟，折叠的选读另约 3 分钟"


def test_the_cli_prints_every_lesson(capsys):
    assert rt.main([]) == 0
    out = capsys.readouterr().out
    for page in lp.lesson_pages():
        assert re.search(rf"^{re.escape(page)}\s+\d+\s+\d+$", out, re.M), page
    assert re.search(rf"^the lessons together\s+{rt.course_minutes('zh')}\s+\(English edition: {rt.course_minutes('en')}\)$", out, re.M)


# The header is the line after the title: "*阅读加动手约半小时 · 先读过…*". A typed duration is any number of
# minutes or hours written there (约半小时, 四十分钟, 5 分钟, 二十到三十分钟).
TYPED_DURATION = re.compile(r"[半一二三四五六七八九十百\d]+\s*(?:个)?(?:分钟|小时)|半小时")


def header_problem(markdown: str) -> str | None:
    """Why a page's header does not compute its reading time, or None."""
    header = next(line for line in markdown.split("\n")[1:] if line.strip())
    if "{{ reading_time() }}" not in header:
        return f"the header {header[:80]!r} must call {{{{ reading_time() }}}}"
    typed = TYPED_DURATION.search(header.replace("{{ reading_time() }}", ""))
    return f"the header also types a duration, {typed.group(0)!r}" if typed else None


def test_the_header_check_tells_a_computed_time_from_a_typed_one():
    assert header_problem("# 第 3 课\n\n*{{ reading_time() }} · 先读过[第 1 课](01-order-blind.md)*\n") is None
    for typed in ("*阅读加动手约半小时 · 先读过…*", "*阅读约四十分钟*", "*{{ reading_time() }}，另需 15 分钟*", "*选读，约十五分钟*"):
        assert header_problem(f"# 课\n\n{typed}\n"), typed


@pytest.mark.parametrize("page", lp.lesson_pages() + ["lessons/results.md"])
def test_every_lesson_header_uses_the_macro(page):
    problem = header_problem((lp.DOCS / page).read_text(encoding="utf-8"))
    assert problem is None, f"docs/{page}: {problem}"



def test_an_annotated_lists_notes_are_folded_depth_and_its_items_are_main_path():
    note = CJK * 6  # twelve seconds
    page = ("# 课\n\n" + CJK + '\n\n<div class="annotate" markdown>\n\n- ' + CJK + " (1)\n- " + CJK + " (2)\n\n</div>\n\n"
            f"1.  {note}\n2.  {note}\n    {note}\n\n{CJK}\n")
    t = rt.page_time(page, "lessons/99-test.md")
    reread = 1 + rt.REREAD_SHARE
    # main path: the title, the prose line, the two items with their markers, the line after
    assert t.main.total() == pytest.approx(seconds(f"# 课\n\n{CJK}\n\n- {CJK} (1)\n- {CJK} (2)\n\n{CJK}\n") * reread)
    assert t.folded.total() == pytest.approx(seconds(f"1.  {note}\n2.  {note}\n    {note}\n") * reread)
    # an ordered list that follows some other block is prose
    plain = rt.page_time(f"# 课\n\n<div markdown>\n\n{CJK}\n\n</div>\n\n1.  {note}\n", "lessons/99-test.md")
    assert plain.folded.total() == 0


@pytest.mark.parametrize("ask", ["逐项点开右边的 ⊕ 看每一项的用意：", "Open the ⊕ beside each term to see what it is for:"])
def test_notes_the_text_tells_the_reader_to_open_are_main_path(ask):
    note = CJK * 6
    listing = '<div class="annotate" markdown>\n\n- $p$ (1)\n\n</div>\n\n1.  ' + note + "\n"
    asked = rt.page_time(f"# 课\n\n{ask}\n\n{listing}", "lessons/99-test.md")
    assert asked.folded.total() == 0
    assert asked.main.total() == pytest.approx(seconds(f"# 课\n\n{ask}\n\n- $p$ (1)\n\n1.  {note}\n") * (1 + rt.REREAD_SHARE))
    # the same list after a paragraph that does not ask: its notes are folded depth
    unasked = rt.page_time(f"# 课\n\n{CJK}\n\n{listing}", "lessons/99-test.md")
    assert unasked.folded.total() == pytest.approx(seconds(f"1.  {note}\n") * (1 + rt.REREAD_SHARE))
    # an ask two paragraphs up is about something else
    far = rt.page_time(f"# 课\n\n{ask}\n\n{CJK}\n\n{listing}", "lessons/99-test.md")
    assert far.folded.total() > 0

# --- calibration: the rule against the newcomer reads ------------------------------------------------------

READS = Path(__file__).parent / "data" / "newcomer_reads.yaml"
READ_PAGES = Path(__file__).parent / "data" / "newcomer_reads"
# The tolerance: the rule's minutes within ±15 % of each read's central minutes.
TOLERANCE = 0.15


def read_rows() -> list[tuple[dict, dict]]:
    return [(read, page) for read in yaml.safe_load(READS.read_text(encoding="utf-8"))["reads"] for page in read["pages"]]


def read_copy(read: dict, page: dict) -> Path:
    return READ_PAGES / read["commit"][:7] / page["page"]


def git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


ROWS = read_rows()
ROW_IDS = [f"{read['commit'][:7]}-{read['language']}-{page['page']}" for read, page in ROWS]


def test_every_read_names_its_source_and_every_lesson_it_read():
    for read in yaml.safe_load(READS.read_text(encoding="utf-8"))["reads"]:
        assert {"reader", "source", "date", "commit", "language", "pages"} <= set(read), read.get("source")
        assert re.fullmatch(r"[0-9a-f]{40}", read["commit"]), read["commit"]
        pages = [p["page"] for p in read["pages"]]
        assert [p for p in lp.lesson_pages() if p in pages] == [p for p in pages if lp.lesson_key(p)], "lessons in course order"
        for page in read["pages"]:
            low, high = page["range"]
            assert low <= page["minutes"] <= high, page["page"]


@pytest.mark.parametrize(("read", "page"), ROWS, ids=ROW_IDS)
def test_the_kept_page_is_the_page_the_reader_read(read, page):
    """The copy under tests/data/newcomer_reads/ is byte for byte the page at the read's commit: its git blob id
    is the one recorded (checked without the history), and, where the history is here, the commit's own."""
    data = read_copy(read, page).read_bytes()
    assert git_blob_id(data) == page["blob"], f"{read_copy(read, page)} is not the page at {read['commit'][:7]}"
    src = page["page"] if read["language"] == "zh" else source_for(page["page"], read["language"])
    got = subprocess.run(["git", "rev-parse", "--verify", "-q", f"{read['commit']}:docs/{src}"], cwd=lp.ROOT,
                         capture_output=True, text=True)
    if got.returncode == 0:  # a shallow checkout (CI) lacks the commit; the recorded blob id stands for it
        assert got.stdout.strip() == page["blob"]


# Pages the rule cannot hold within ±15 % of every read without fitting it to the page. Each names every read's
# minutes (checked against the YAML), and the largest deviation accepted, so that the page stays tested: the
# test below fails if the rule drifts further from the reads, and fails if the exception is no longer needed.
EXCEPTIONS = {
    # Reader H (the whole course at one pace, at ca3b4e0) is within 10 % of the rule on every lesson (−10 % to +6 %) and
    # 25 % over it on the home page; every exception below names that read too, none needed a wider acceptance for it.
    # Reader I (the same kind of read, at 40a5020): −4 % to +16 % on the lessons (lesson 2 +16 %, as readers A and F found),
    # −20 % on the home page; no acceptance widened.
    # Reader J (the same kind of read, at b142595): −5 % to +27 % (lessons 1-3 15-27 % under the rule, as reader F
    # found; lessons 3b-6b within 14 %); no acceptance widened.
    # Reader K (the same kind of read, at 9116f9a, the slowest rates of the whole-course readers: 9 s an inline
    # formula where the others charged 3-6 s, a minute a figure, 2 minutes a widget, 10 % re-reading on top) is over the
    # rule on every page: lessons 11-30 % (4: 78 minutes, the rule 54.5), the results page 1 %, the home page 41 % (19
    # minutes with the timeline the page says to skip; 9 without it). It widened the accepted deviation of the home
    # page (0.31 -> 0.41), lessons 1 (0.18 -> 0.28), 4 (0.20 -> 0.31) and 5 (0.17 -> 0.24), and gave lesson 3b its
    # exception (K 65 minutes, the rule 49.1); the course's claim, the middle read of each page
    # (test_each_promised_time_is_within_tolerance_of_its_middle_read), still holds with K counted.
    # Reader L (the same kind of read, at 1dbbfe3): within 11.3 % of the rule on every lesson (−11.3 % to +3.3 %), the
    # results page −1 %, the home page −28.5 % (16 minutes; the page's rule skims the timeline); no acceptance widened.
    # Reader M (the same kind of read, at 040af2d): 1-17 % over the rule on every lesson (3b −16.6 %, 5 −15.3 %), the
    # results page −6.5 %, the home page −18 %; no acceptance widened.
    # Reader N (the same kind of read, at 6d27b51): −7 % to +16 % on the lessons (lesson 2 +15.8 %, as readers A, F and J
    # found), the results page +6 %, the home page −18 %; no acceptance widened.
    # Reader O (the same kind of read, at cf95457): −12 % to −1 % on the lessons, the results page +13.5 %, the home page
    # −28 %; no acceptance widened.
    # Two reads of nearly the same page disagree: the first read took 41 minutes at 7ba12eb, reader C 56 at
    # 3eb99e3, where the rule's minutes differ by 2 % between the two commits. No rule meets both (41 × 1.15 =
    # 47.2 < 56 × 0.85 = 47.6). Reader C re-read 8 minutes (MLA, the layer catalogue, the experiment paragraph)
    # and charged a minute a display row, a minute a table, a minute a figure; the first reader's model and
    # readers A and B, on the other lessons, are met with the cheaper costs.
    # The third read, at 7dd9201 (52 minutes, rule 48), sits between them.
    # The fourth, at c67514f: 62 minutes, the rule 47.8 (−23 %), most of it on the MLA section.
    # The fifth, at d111ff1: 54 minutes, the rule 49.0 (−9 %). The sixth, at c1cecd6: 51 minutes, the rule 50.3 (−1 %).
    # The seventh, at 9b95ba2: 55 minutes, the rule 49.5 (−10 %). At 472236d, reader C 51 and reader D (who read the
    # whole course at one pace) 52, the rule 48.4 (−5 %, −7 %). Reader F (one pace) at 3a5090e: 43, the rule 49.8
    # (+16 %). Since a word in a script counts as one character (k^{rope}, d_{rot}: 3a5090e) the rule gives every
    # version of the page a little less, and the read at c67514f sits at −25.7 %, hence 0.26.
    "lessons/06-partial-nope.md": ({"7ba12eb": 41, "3eb99e3": 56, "7dd9201": 52, "c67514f": 62, "d111ff1": 54, "c1cecd6": 51, "9b95ba2": 55, "472236d/C": 51, "472236d/D": 52, "1113639": 51, "3a5090e": 43, "ca3b4e0": 52, "40a5020": 48, "b142595": 48, "9116f9a": 62, "1dbbfe3": 54, "040af2d": 56, "6d27b51": 49, "cf95457": 52}, 0.26),
    # The same two readers disagree again: 12 minutes at 7ba12eb, 17 at 3eb99e3 (12 × 1.15 = 13.8 < 17 × 0.85 =
    # 14.5); reader C charged 2.5 minutes re-reading the rope_deltas and ID paragraphs and 2.5 for two figures.
    # The third read, at 7dd9201: 16 minutes, the rule 13.4 (−16 %).
    # The fourth, at c67514f: 18 minutes, the rule 14.0 (−22 %).
    # The fifth, at d111ff1: 17 minutes, the rule 14.1 (−17 %). The sixth, at c1cecd6: 16 minutes, the rule 14.2 (−11 %).
    # The seventh, at 9b95ba2: 16 minutes, the rule 14.2 (−11 %). At 472236d, readers C and D 15, the rule 14.3 (−5 %).
    "lessons/06b-mrope.md": ({"7ba12eb": 12, "3eb99e3": 17, "7dd9201": 16, "c67514f": 18, "d111ff1": 17, "c1cecd6": 16, "9b95ba2": 16, "472236d/C": 15, "472236d/D": 15, "1113639": 15, "3a5090e": 12, "ca3b4e0": 15, "40a5020": 14, "b142595": 15, "9116f9a": 16, "1dbbfe3": 16, "040af2d": 15, "6d27b51": 15, "cf95457": 15}, 0.25),
    # One read, reader C: 21 minutes, of which 3 for two tables (a minute a table), 4 for two busy figures and 4
    # re-reading. The rule gives about 13.5. Charging tables and figures at reader C's rates would fit this page
    # only: 30 s a table puts lesson 2 23 % over its first read (45 s, lesson 1 too), 60 s a figure 17 % over
    # it; the other readers' totals are met without them.
    # The second read, at 7dd9201: 18 minutes, the rule 15.9 (−12 %, within the tolerance).
    # The third, at c67514f: 19 minutes, the rule 16.1 (−15 %).
    # The fourth, at d111ff1: 18 minutes (−5 %); the fifth, at c1cecd6: 18 minutes, the rule 17.2 (−4 %).
    # The sixth, at 9b95ba2: 19 minutes, the rule 17.3 (−9 %). At 472236d, reader C 17 and reader D 16, the rule 15.7.
    # Each read's copy of the page is read with today's macros, and {{ replication() }} prints today's list into all of
    # them: when the sentences that failed the replication came to be printed as frozen, with the replication's counts
    # beside their numbers (2026-12-07), the fastest read, 13 minutes at 3a5090e, went from +39 % to +41 % of the rule on a
    # page that read never saw; hence 0.45, not 0.40.
    "lessons/results.md": ({"3eb99e3": 21, "7dd9201": 18, "c67514f": 19, "d111ff1": 18, "c1cecd6": 18, "9b95ba2": 19, "472236d/C": 17, "472236d/D": 16, "1113639": 16, "3a5090e": 13, "ca3b4e0": 15, "40a5020": 14, "b142595": 15, "9116f9a": 16, "1dbbfe3": 16, "040af2d": 17, "6d27b51": 15, "cf95457": 14}, 0.45),
    # Five reads of lesson 4: 48, 55, 55, 52 and, at d111ff1, 47 minutes, where the rule gives 54.1: 15.1 % over the
    # last read and within 8 % of the other four. The last reader charged 2 s an inline formula (its 176 formulas
    # cost the others 4-5 s each) and read the page in 47 minutes though it had grown. The rule is 0.05 minutes over
    # that read's tolerance (47 × 1.15 = 54.05): moving every page's constants for it would fit one reader's rates.
    # The sixth, at c1cecd6: 51 minutes, the rule 54.2 (+6 %). The seventh, at 9b95ba2: 56 minutes, the rule 54.7 (−2 %).
    # At 472236d, reader B 58 and reader D 59, the rule 53.4 (−8 %, −9 %).
    "lessons/04-rope.md": ({"7ba12eb": 48, "3eb99e3": 55, "7dd9201": 55, "c67514f": 52, "d111ff1": 47, "c1cecd6": 51, "9b95ba2": 56, "472236d/B": 58, "472236d/D": 59, "1113639": 63, "3a5090e": 46, "ca3b4e0": 60, "40a5020": 50, "b142595": 48, "9116f9a": 78, "1dbbfe3": 59, "040af2d": 63, "6d27b51": 54, "cf95457": 61}, 0.31),
    # The home page promises no time of its own. Its readers disagree on the timeline, which the page says to skip
    # on a first read: 10 minutes at 3eb99e3 and 14 at 7dd9201 (reader A read the 1,837-character timeline in full,
    # and estimated 8-9 minutes without it), on pages the rule gives the same 10.8 (the rule skims the timeline).
    # No rule meets both (10 × 1.15 = 11.5 < 14 × 0.85 = 11.9). The re-read at c67514f read the timeline in full
    # too (15 minutes; 1,846 of the page's 3,448 characters): two of the last three readers did not skip it, so the
    # accepted deviation is wider than for a lesson (the page promises no time; the course total leaves it out).
    # The read at c1cecd6 skipped it as told: 11 minutes, the rule 10.9 (−1 %); the one at 9b95ba2 too, but charged
    # 14 minutes (range 7-19) for the rest, the rule 11.0 (−21 %). Reader E, who read the whole course at one pace
    # at 1113639: 16 minutes, the rule 11.1 (−30.5 %); the accepted deviation 0.30 -> 0.31 for it.
    "index.md": ({"7ba12eb": 13, "3eb99e3": 10, "7dd9201": 14, "c67514f": 15, "d111ff1": 15, "c1cecd6": 11, "9b95ba2": 14, "472236d/A": 14, "472236d/D": 15, "1113639": 16, "3a5090e": 14, "ca3b4e0": 15, "40a5020": 14, "b142595": 14, "9116f9a": 19, "1dbbfe3": 16, "040af2d": 14, "6d27b51": 14, "cf95457": 16}, 0.41),
    # Six reads of lesson 2 took 23-26 minutes; the rule, 26.2 at the first and 27.5 since the fixes of d111ff1, is over
    # every one of them (+2 % to +14 %), and 20 % over the sixth (reader A at c1cecd6, 23 minutes, who also read lesson 1
    # 12 % under the rule and lesson 3 8 % under it: a fast reader at 4 s an inline formula). Lowering the rule for
    # every page would take lesson 6 and 6b further from their reads; the page promises the rule's time, a little long.
    # The seventh, at 9b95ba2 (reader A again, 3 s an inline formula and 20 s a display row): 22 minutes, the rule
    # 27.6 (+25.5 %); the same read has lessons 1 and 3 13-17 % under the rule, and readers B and C, on lessons
    # 3b-6b, 2-11 % over it: the readers' own rates differ by more than the tolerance.
    # Reader F, who read the whole course at one pace at 3a5090e: 22 minutes, the rule 28.0 (+27 %), hence 0.28; the same
    # reader read every lesson 14-19 % under the rule, reader E (the same kind of read) several 9-17 % over it.
    # Lesson 1, the same reader: 36 minutes at c1cecd6 (rule 41.0, +14 %) and at 9b95ba2 (rule 42.2, +17 %); at 472236d
    # reader A 41 and reader D 43, the rule 43.0 (+5 %, 0 %); at 1113639 reader E (one pace for the whole course) 52,
    # the rule 43.1 (−17 %): the two whole-course readers D and E bracket it.
    "lessons/01-order-blind.md": ({"7ba12eb": 37, "3eb99e3": 40, "7dd9201": 40, "c67514f": 38, "d111ff1": 40, "c1cecd6": 36, "9b95ba2": 36, "472236d/A": 41, "472236d/D": 43, "1113639": 52, "3a5090e": 38, "ca3b4e0": 48, "40a5020": 39, "b142595": 37, "9116f9a": 60, "1dbbfe3": 45, "040af2d": 46, "6d27b51": 40, "cf95457": 46}, 0.28),
    "lessons/02-learned-table.md": ({"7ba12eb": 23, "3eb99e3": 26, "7dd9201": 24, "c67514f": 24, "d111ff1": 25, "c1cecd6": 23, "9b95ba2": 22, "472236d/A": 24, "472236d/D": 25, "1113639": 30, "3a5090e": 22, "ca3b4e0": 27, "40a5020": 24, "b142595": 22, "9116f9a": 33, "1dbbfe3": 27, "040af2d": 27, "6d27b51": 23, "cf95457": 27}, 0.28),
    # Lesson 3: within 15 % of nine reads (−14 % to +13 %) until reader F, the third who read the whole course at one
    # pace, at 3a5090e: 47 minutes, the rule 55.7 (+18.5 %). F read every lesson 14-19 % under the rule (results +22 %);
    # reader E, the same kind of read at 1113639, read lessons 3-5 9-14 % over it. Two single-pace readers 25-30 %
    # apart on the same pages: a constant that meets F misses E, and the rule stays between them.
    "lessons/03-sinusoidal.md": ({"7ba12eb": 45, "3eb99e3": 57, "7dd9201": 56, "c67514f": 53, "d111ff1": 55, "c1cecd6": 50, "9b95ba2": 49, "472236d/A": 53, "472236d/D": 60, "1113639": 61, "3a5090e": 47, "ca3b4e0": 59, "40a5020": 52, "b142595": 49, "9116f9a": 69, "1dbbfe3": 60, "040af2d": 63, "6d27b51": 53, "cf95457": 59}, 0.19),
    # Lesson 5, the densest page: within 8 % of every read until reader D, who read the whole course at one pace,
    # took 56 minutes at 472236d, where the rule gives 47.4 (−15.4 %), nearly all of it re-reading (D: "the extra
    # time was nearly all re-reading, not prose"); reader B took 51 at the same commit (−7 %). Raising the
    # re-reading share for every page would move lessons 1 and 2 further over their reads. Reader F (one pace, the whole
    # course) at 3a5090e: 41 minutes, the rule 47.0 (+14.6 %); with a word in a script graded as one character (from
    # 3a5090e), reader D's read sits at −16.4 %, hence 0.17.
    # Lesson 3b: within 15 % of its first fourteen reads (−14.5 % to +14 %); reader K (above, the slowest rates) at
    # 9116f9a: 65 minutes, the rule 49.1 (−24.5 %).
    "lessons/03b-relative-bias.md": ({"7ba12eb": 45, "3eb99e3": 48, "7dd9201": 49, "c67514f": 48, "d111ff1": 45, "c1cecd6": 47, "9b95ba2": 53, "472236d/B": 54, "472236d/D": 53, "1113639": 56, "3a5090e": 42, "ca3b4e0": 53, "40a5020": 48, "b142595": 47, "9116f9a": 65, "1dbbfe3": 55, "040af2d": 58, "6d27b51": 48, "cf95457": 55}, 0.25),
    "lessons/05-long-context.md": ({"7ba12eb": 44, "3eb99e3": 45, "7dd9201": 48, "c67514f": 49, "d111ff1": 45, "c1cecd6": 47, "9b95ba2": 51, "472236d/B": 51, "472236d/D": 56, "1113639": 55, "3a5090e": 41, "ca3b4e0": 50, "40a5020": 49, "b142595": 48, "9116f9a": 62, "1dbbfe3": 54, "040af2d": 56, "6d27b51": 48, "cf95457": 52}, 0.24),
}


def page_minutes(read: dict, page: dict) -> float:
    src = page["page"] if read["language"] == "zh" else source_for(page["page"], read["language"])
    return rt.page_time(read_copy(read, page).read_text(encoding="utf-8"), src).main.total() / 60


@pytest.mark.parametrize(("read", "page"), [(r, p) for r, p in ROWS if p["page"] not in EXCEPTIONS],
                         ids=[i for i, (_, p) in zip(ROW_IDS, ROWS) if p["page"] not in EXCEPTIONS])
def test_the_rule_is_within_tolerance_of_each_newcomer_read(read, page):
    minutes = page_minutes(read, page)
    assert abs(minutes - page["minutes"]) <= TOLERANCE * page["minutes"], (
        f"{page['page']} at {read['commit'][:7]}: the rule gives {minutes:.1f} minutes, the newcomer read "
        f"{page['minutes']} (±{TOLERANCE:.0%}); change the rule's constants in tools/build/reading_time.py for every "
        "page, not one lesson"
    )


def read_keys(rows: list) -> list[str]:
    """Each read of one page named by its commit; where two readers read the page at the same commit, by the
    commit and the reader's letter (read-A.md: "472236d/A")."""
    commits = [r["commit"][:7] for r, _ in rows]
    return [c if commits.count(c) == 1 else f"{c}/{re.search(r'read-([A-Z])[.]md', r['source']).group(1)}"
            for c, (r, _) in zip(commits, rows)]


@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_an_exception_names_its_reads_stays_near_them_and_is_still_needed(name):
    reads, accepted = EXCEPTIONS[name]
    rows = [(r, p) for r, p in ROWS if p["page"] == name]
    keys = read_keys(rows)
    assert {k: p["minutes"] for k, (_, p) in zip(keys, rows)} == reads, "the exception names every read of the page"
    deviations = {k: page_minutes(r, p) / p["minutes"] - 1 for k, (r, p) in zip(keys, rows)}
    assert all(abs(d) <= accepted for d in deviations.values()), (
        f"{name}: the rule moved further from its reads ({deviations}) than the exception accepts (±{accepted:.0%})")
    assert any(abs(d) > TOLERANCE for d in deviations.values()), (
        f"{name}: the rule is now within ±{TOLERANCE:.0%} of every read ({deviations}); remove its exception")


@pytest.mark.parametrize("page", lp.lesson_pages() + ["lessons/results.md"])
def test_each_promised_time_is_within_tolerance_of_its_middle_read(page):
    """The course's claim about its times: each page that promises one (a lesson, the results page) is within ±15 % of
    a newcomer's read. One reader's rates can differ from another's by more than that (EXCEPTIONS, where reader E
    is over and reader F under the rule on the same pages), so the read that stands for a newcomer is the middle one:
    the median, over the page's reads, of the rule's minutes at the read's commit against the read's minutes."""
    import statistics

    rows = [(r, p) for r, p in ROWS if p["page"] == page]
    assert len(rows) >= 3, f"{page}: {len(rows)} reads; a middle read needs at least three"
    middle = statistics.median(page_minutes(r, p) / p["minutes"] - 1 for r, p in rows)
    assert abs(middle) <= TOLERANCE, (
        f"{page}: the rule is {middle:+.0%} from its middle read (±{TOLERANCE:.0%}); change the rule's constants in "
        "tools/build/reading_time.py for every page, or the page")


def test_every_exception_is_a_page_that_was_read():
    assert set(EXCEPTIONS) <= {p["page"] for _, p in ROWS}


def test_the_old_rule_was_outside_the_tolerance():
    """The calibration can fail: with the old constants (2 s an inline formula, 10 s a display row and no more,
    15 s a figure, 90 s a widget, 10 s the panel, no re-reading) lesson 3's page at 7ba12eb is below the read."""
    read, page = next((r, p) for r, p in ROWS if p["page"] == "lessons/03-sinusoidal.md")
    old = dict(INLINE_SHORT_S=2, INLINE_MEDIUM_S=2, INLINE_LONG_S=2, DISPLAY_S=0, DISPLAY_ROW_S=10, FIGURE_S=15,
               WIDGET_S=90, TRY_TASK_S=30, DATAFLOW_S=10, REREAD_SHARE=0)
    with pytest.MonkeyPatch.context() as mp:
        for name, value in old.items():
            mp.setattr(rt, name, value)
        minutes = rt.page_time(read_copy(read, page).read_text(encoding="utf-8"), page["page"]).main.total() / 60
    assert minutes < (1 - TOLERANCE) * page["minutes"]


# --- the budget ----------------------------------------------------------------------------------------------

# Each lesson's main path by the calibrated rule, in minutes, when the rule was calibrated (the larger of its
# two editions), plus a tenth, rounded up: a lesson may grow a little, and a section added to the main path
# fails here, so growth is a decision. The course's aim is about 30 minutes a lesson; the lessons above it are
# the next content work (tools/build/reading_time.py's docstring): when a lesson moves reference material off its
# main path, lower its budget here to its new time plus a tenth.
# Recalibrated on the reads at 3eb99e3: a budget is lowered to the lesson's time plus a tenth where that is
# less (lesson 1: 39 minutes, 43), never raised to take in content added since (lessons 3, 3b, 4 and 5 keep
# theirs), and raised only where the rule change itself added time: lessons 6 and 6b's data-flow panel box
# now costs a minute a task, 3 minutes instead of 2 (lesson 6: 44 minutes, 48 -> 49; lesson 6b: 14, 14 -> 16).
MAIN_PATH_BUDGET = {
    # 43 -> 44 after the read of 9b95ba2 (reader A, 36 minutes): what it met unexplained is now said where it is used
    # (cumsum, arange and masked_fill_, decoder-only and bidirectional encoder, X' as the swapped sentence's input);
    # the English edition reads 44 by the rule, the Chinese 43. 44 -> 45 when every width took its subscript (one
    # meaning for d): $d$ became $d_{model}$ and $\sqrt d$ became $\sqrt{d_{head}}$, longer TeX the rule charges more
    # for (plus five words saying what d_head is); the English edition, which had 2 s to spare, reads 45, the Chinese 44.
    # Since a word in a script is graded as one character the English reads 44.7 (45), the Chinese 43.4.
    "lessons/01-order-blind.md": 45,
    "lessons/02-learned-table.md": 31,
    # 55 -> 56 after two rounds of newcomer reads (7dd9201, c67514f): what they asked for is now on the main path (the
    # distinctness argument, how Press et al. measured, the demo width, the row/column convention); the English
    # edition reads 56 by the rule, the Chinese 54, and both Chinese reads took 53-56 minutes. 56 -> 57 after the
    # fourth read (c1cecd6: 50 minutes): how the seeds' interval is computed came out of its fold onto the main path,
    # where every underlined sentence relies on it; the English edition reads 57, the Chinese 56. 57 -> 58 after the
    # read of 9b95ba2 (49 minutes) and an expert check: the ± paragraph says what it is computed from (a method's own
    # losses or the per-seed differences), the brackets what they count, and CC100+RoBERTa is glossed.
    "lessons/03-sinusoidal.md": 58,
    # 49 -> 50 after the whole-course read H (ca3b4e0): the last bucket's first distance (91 for T5-Base's encoder) and
    # BLOOM's a_h·n, which the main path and the checklist used from folds, are now said on the main path; the English
    # edition reads 50 by the rule, the Chinese 49.
    "lessons/03b-relative-bias.md": 50,
    "lessons/04-rope.md": 57,
    # 48 -> 49 after two rounds of newcomer reads and an expert check (7dd9201, c67514f): the facts the main path used
    # from folds (DeepSeek-V3 s and mscale, Llama 3.1 factor, max_position_embeddings, RULER, LongRoPE, the ABF
    # puzzle) are now on it; the English edition reads 49 by the rule, the Chinese 47; the two Chinese reads took 48-49.
    "lessons/05-long-context.md": 49,
    # 50 -> 51 after the newcomer read of d111ff1 (reader C, 54 minutes): the θ and training lengths the partial-RoPE
    # table's last column is computed from came out of their fold onto the main path (the A3B aside went into one);
    # the English edition reads 51 by the rule, the Chinese 50.
    # 51 -> 53 after the read of 1113639 (reader E): its 证据三问 table was the only one in the course inside a fold;
    # on the main path, as in every other lesson, the English edition reads 53 by the rule, the Chinese 51; the
    # last four reads took 51-55 minutes.
    "lessons/06-partial-nope.md": 53,
    "lessons/06b-mrope.md": 16,
}


def test_every_lesson_has_a_budget():
    assert sorted(MAIN_PATH_BUDGET) == sorted(lp.lesson_pages())


def test_the_budget_check_counts_folded_depth_out_of_the_main_path():
    """A page over its budget comes under it once its depth is folded (so the test below can fail and can pass)."""
    prose = CJK * 60  # two minutes, and its re-reading
    budget = MAIN_PATH_BUDGET["lessons/02-learned-table.md"]
    page = "# 课\n\n" + "\n\n".join([prose] * 16)
    assert rt.page_time(page, "lessons/99-test.md").main.minutes() > budget
    folded = "# 课\n\n" + "\n\n".join([prose] * 12) + '\n\n??? note "选读：细节"\n' + "\n\n".join(["    " + prose] * 4)
    t = rt.page_time(folded, "lessons/99-test.md")
    assert t.main.minutes() <= budget
    assert (t.main.minutes(), t.folded.minutes()) == (25, 8)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page", lp.lesson_pages())
def test_every_lesson_main_path_stays_within_its_budget(page, lang):
    source = source_for(page, lang)
    t = rt.page_time((lp.DOCS / source).read_text(encoding="utf-8"), source)
    assert t.main.minutes() <= MAIN_PATH_BUDGET[page], (
        f"docs/{source}: its main path reads in {t.main.minutes()} minutes by tools/build/reading_time.py's rule, over "
        f"its budget of {MAIN_PATH_BUDGET[page]}; move optional depth (proof details, full tables, sourcing, "
        f'model-by-model configurations) into `??? note "选读：…"` / `??? note "Optional: …"` blocks or a '
        "reference page, or, if the lesson truly needs the time, raise its budget in tests/test_reading_time.py "
        "and say why in the commit"
    )


# --- the course total --------------------------------------------------------------------------------------


def test_the_course_total_adds_up_the_lessons_main_paths():
    """The total is the sum of what the lessons' headers print, so that the headers add up to it."""
    for lang in ("zh", "en"):
        headers = [int(re.search(r"\d+", MacroEnv(source_for(p, lang)).render("{{ reading_time() }}")).group(0))
                   for p in lp.lesson_pages()]  # the header's first number is the main path's minutes
        assert rt.course_minutes(lang) == sum(headers)
    # the results page is not a lesson: the total says so (a reader added its header to the lessons' and found more)
    assert rt.course_text(302) == "所有课的主线加起来，阅读加动手约 302 分钟（约 5 小时；不含实验全貌页）"
    assert rt.course_text(330, "en") == ("All the lessons' main paths together take about 330 min to read and try (about 5.5 hours; "
                                         "the experiment page not counted)")


def test_the_course_macro_prints_the_total_in_the_pages_language():
    for page, lang in (("index.md", "zh"), ("index.en.md", "en")):
        env = MacroEnv(page)
        assert env.render("{{ course_reading_time() }}") == rt.course_text(rt.course_minutes(lang), lang)
