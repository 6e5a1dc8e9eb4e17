"""Wide tables as stacked cards on a phone: a MkDocs hook, after tools/build/katex_render.py.

A Markdown table of CARD_COLUMNS columns or more does not fit a 390 px phone (every lesson table of
five or more columns needed 100–480 px more). This hook marks such a table (data-pe-cards), unless it
has more than CARD_MAX_ROWS rows (a grid to read down its columns, which scrolls), and writes
each cell's column header, as plain text, into the cell (data-label). On a phone extra.css shows the
table as one card per row, each value under its header's name; wider, nothing changes. The table
stays a table for screen readers (its rows, headers and cells keep their roles), and the label is
shown with empty alternative text, so it is not read twice.

A header holding a formula is set by KaTeX by then (on_post_page runs after tools/build/katex_render.py):
its label is the MathML's text (λi for λ_i), not the TeX.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

CARD_COLUMNS = 5
CARD_MAX_ROWS = 20  # a longer table is a grid read down its columns (lesson 5's 64 frequency pairs): it scrolls

# A table written in Markdown has no attributes; nbconvert's and the widgets' tables have a class.
_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_HEAD = re.compile(r"<thead>(.*?)</thead>", re.S)
_CELL = re.compile(r"<(t[hd])((?:\s[^>]*)?)>(.*?)</\1>", re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)


class _Text(HTMLParser):
    """The text a reader sees in a header: KaTeX's hidden MathML without its TeX annotation, not its HTML copy."""

    SKIP_CLASSES = {"katex-html"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0  # depth inside a skipped element
        self.stack: list[bool] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "wbr", "hr", "input"):
            return
        skip = self.skipping > 0 or tag == "annotation" or bool(self.SKIP_CLASSES & set((dict(attrs).get("class") or "").split()))
        self.stack.append(skip)
        self.skipping += skip

    def handle_endtag(self, tag):
        if tag in ("br", "img", "wbr", "hr", "input") or not self.stack:
            return
        self.skipping -= self.stack.pop()

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def header_text(cell_html: str) -> str:
    parser = _Text()
    parser.feed(cell_html)
    return re.sub(r"\s+", " ", "".join(parser.parts).replace("\u200b", "")).strip()


def _cards(match: re.Match) -> str:
    inner = match.group(1)
    head = _HEAD.search(inner)
    if head is None:
        return match.group(0)
    labels = [header_text(cell) for _, _, cell in _CELL.findall(head.group(1))]
    if len(labels) < CARD_COLUMNS or len(_ROW.findall(inner[head.end():])) > CARD_MAX_ROWS:
        return match.group(0)

    def row(rm: re.Match) -> str:
        cells = iter(labels)

        def cell(cm: re.Match) -> str:
            tag, attrs, content = cm.groups()
            label = next(cells, "")
            return f'<{tag}{attrs} data-label="{html.escape(label, quote=True)}">{content}</{tag}>' if tag == "td" else cm.group(0)

        return f"<tr>{_CELL.sub(cell, rm.group(1))}</tr>"

    body = inner[head.end():]
    return f"<table data-pe-cards>{inner[:head.end()]}{_ROW.sub(row, body)}</table>"


def mark_wide_tables(page_html: str) -> str:
    return _TABLE.sub(_cards, page_html)


def on_post_page(output, page, config):
    return mark_wide_tables(output)
