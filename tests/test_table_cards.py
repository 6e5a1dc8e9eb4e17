"""Wide tables as cards on a phone (tools/build/table_cards.py): which tables, and what each cell learns."""

from __future__ import annotations

from tools.build import table_cards as tc

KATEX_LAMBDA = ('<span class="arithmatex"><span class="katex"><span class="katex-mathml"><math><semantics><mrow><msub><mi>λ</mi>'
                '<mi>i</mi></msub></mrow><annotation encoding="application/x-tex">\\lambda_i</annotation></semantics></math></span>'
                '<span class="katex-html" aria-hidden="true"><span class="mord">λ</span><span class="msupsub">i\u200b</span></span></span></span>')


def table(columns: list[str], rows: int, attrs: str = "") -> str:
    head = "".join(f"<th>{c}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f'<td style="text-align: right;">{r}.{k}</td>' for k in range(len(columns))) + "</tr>\n"
                   for r in range(rows))
    return f"<table{attrs}>\n<thead>\n<tr>{head}</tr>\n</thead>\n<tbody>\n{body}</tbody>\n</table>"


def test_a_header_label_is_the_text_a_reader_sees():
    assert tc.header_text(f"周期 {KATEX_LAMBDA}（token）") == "周期 λi（token）"
    assert tc.header_text('a <code>&lt;b&gt;</code> &amp; <strong>c</strong>') == "a <b> & c"


def test_five_columns_become_cards_each_cell_named_by_its_column():
    cols = ["模型", "头数", f"周期 {KATEX_LAMBDA}", "A & B", "最小"]
    out = tc.mark_wide_tables(table(cols, 3))
    assert out.startswith("<table data-pe-cards>")
    assert out.count('data-label="') == 15  # every body cell, no header cell
    assert '<td style="text-align: right;" data-label="周期 λi">1.2</td>' in out
    assert 'data-label="A &amp; B"' in out
    assert "<th>模型</th>" in out  # the header row is left as it was


def test_narrow_long_and_classed_tables_are_left_alone():
    for html in (table(["a", "b", "c", "d"], 3),                                   # fits a phone once its cells are tighter
                 table(list("abcdefgh"), tc.CARD_MAX_ROWS + 1),                    # a grid read down its columns: it scrolls
                 table(list("abcde"), 3, ' class="dataframe"'),                    # not a Markdown table
                 "<table>\n<tbody>\n<tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td></tr>\n</tbody>\n</table>"):  # no header
        assert tc.mark_wide_tables(html) == html
    assert tc.mark_wide_tables(table(list("abcde"), tc.CARD_MAX_ROWS)).startswith("<table data-pe-cards>")
