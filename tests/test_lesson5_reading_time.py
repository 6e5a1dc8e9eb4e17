"""Lesson 5 states its reading time honestly (issue 13): the length it claims is the length it has.

The page's header says how many characters its main path has (everything not folded:
prose, tables, captions, admonitions; not code, formulas, verification badges or the folded 「再深一层」,
FAQ and answer blocks) and how many minutes that takes at 300–500 characters a minute.
This test counts the built page the same way: one CJK character, or one run of Latin
letters/digits (a word, a number), is one character. When the page grows or shrinks,
the test names the numbers the header should say.
"""

from __future__ import annotations

import math
import re

import pytest

CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,'’\-_]*")
DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
UNITS = {"十": 10, "百": 100, "千": 1000}


def chinese_number(text: str) -> int:
    """七千六百 → 7600, 二十六 → 26, 十六 → 16 (numbers below ten thousand)."""
    total, digit = 0, None
    for ch in text:
        if ch in DIGITS:
            digit = DIGITS[ch]
        elif ch in UNITS:
            total += (1 if digit is None else digit) * UNITS[ch]
            digit = None
        else:
            raise ValueError(f"not a Chinese number: {text!r}")
    return total + (digit or 0)


def main_path_characters(html: str) -> int:
    from bs4 import BeautifulSoup

    article = BeautifulSoup(html, "html.parser").select_one("article.md-content__inner")
    for node in article.select("details, pre, code, .highlight, .arithmatex, .pe-tag, script, style, .headerlink"):
        node.decompose()
    text = article.get_text(" ")
    return len(CJK.findall(text)) + len(LATIN.findall(text))


@pytest.mark.parametrize("text, number", [("七千六百", 7600), ("二十六", 26), ("十六", 16), ("八千", 8000), ("九", 9)])
def test_chinese_number(text, number):
    assert chinese_number(text) == number


@pytest.mark.build
def test_lesson5_states_its_main_path_length_and_reading_time(site_dir):
    html = (site_dir / "lessons" / "05-long-context" / "index.html").read_text(encoding="utf-8")
    count = main_path_characters(html)
    head = re.search(r"正文约([一二三四五六七八九十百千]+)字.*?每分钟三百到五百字.*?约([一二三四五六七八九十]+)到([一二三四五六七八九十]+)分钟", html)
    assert head, "lesson 5's header must say 正文约…字 … 每分钟三百到五百字 … 约…到…分钟"
    stated, low, high = (chinese_number(g) for g in head.groups())
    expected = (round(count, -2), math.floor(count / 500), math.ceil(count / 300))
    assert abs(stated - count) <= 0.05 * count and abs(low - count / 500) <= 1 and abs(high - count / 300) <= 1, (
        f"the main path has {count} characters; the header should say about {expected[0]} 字, "
        f"{expected[1]}到{expected[2]}分钟 (it says {stated} 字, {low}到{high}分钟)")
