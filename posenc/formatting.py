"""How a value is printed in the course's prose, in either language: one function, shared by computed
numbers, reported facts and model fields.

    format_value(19869.18, ",.0f") → "19,869"      format_value(0.028284, ".1%") → "2.8%"
    format_value(-0.5, ".1f")      → "−0.5"        (a real minus sign, U+2212)
    format_value((6, 12), "d")     → "6、12" (zh) · "6, 12" (en)
    format_value(PerLanguage(zh="✓ 有", en="✓ yes"), "", "en") → "✓ yes"

The format is a Python format spec. A value that rounds to zero prints without a sign
("+0.00" would read as a real sign), and a value that is not finite is an error, never
"nan" on a page.

The two languages print numbers the same way (LANGUAGES): digits grouped by thousands with a comma
("19,869"), a full stop for the decimals, "%" glued to the number, the minus sign U+2212 ("−0.5",
as in the figures, whose axes use it too, and as English typesetting writes a negative number;
a hyphen is a dash, not a minus), and an estimate over seeds as "4.85 ± 0.02". What differs is the
words: a list of values is joined with "、" in Chinese and ", " in English, and a text value written
in words is given in both languages (``PerLanguage``).
"""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

LANGUAGES = ("zh", "en")  # the course's languages; zh is the default, at the site root
LIST_SEPARATOR = {"zh": "、", "en": ", "}
# Between the two ends of a range that has a negative end, where a dash would read as a minus ("−0.004–0.312").
RANGE_WORD = {"zh": " 至 ", "en": " to "}
# Quotation marks (outer open, outer close, inner open, inner close), for a verbatim quotation (posenc/facts.py).
QUOTES = {"zh": ("「", "」", "『", "』"), "en": ("“", "”", "‘", "’")}
# A count with its noun, in agreement (with_noun), for a language whose nouns agree with a count. Chinese is not here:
# its prose writes the measure word, and a Chinese page asking for a noun is an error.
NOUN_FORMS = {"en": {"zero": "no {noun}s", "one": "{text} {noun}", "many": "{text} {noun}s"}}


class PerLanguage(dict):
    """A text value written in each language: ``PerLanguage(zh="✗ 查无此行", en="✗ no such row")``.

    A quantity whose value is words returns one of these, so both editions quote the same name.
    Every language of LANGUAGES is required.
    """

    def __init__(self, **texts: str):
        missing = [lang for lang in LANGUAGES if lang not in texts]
        unknown = [lang for lang in texts if lang not in LANGUAGES]
        if missing or unknown:
            raise ValueError(f"PerLanguage needs exactly the languages {', '.join(LANGUAGES)}"
                             + (f"; missing {', '.join(missing)}" if missing else "")
                             + (f"; unknown {', '.join(unknown)}" if unknown else ""))
        super().__init__(texts)


# A small count as prose writes it before a noun or a measure word: 两种 (not 二种), seven methods.
_COUNT_WORDS = {
    "zh": ("一", "两", "三", "四", "五", "六", "七", "八", "九", "十"),
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
}


def check_declared(where: str, table: dict, same_keys: bool = False) -> None:
    """Refuse a per-language declaration (``where`` names it: file and name) that lacks a course language, or, with
    ``same_keys``, whose languages do not all give the default language's keys. Run at import by each module that
    declares words per language, so that a language added to LANGUAGES fails at once, naming every table it needs,
    rather than with a KeyError on the first page that asks."""
    missing = [lang for lang in LANGUAGES if lang not in table]
    if missing:
        raise ValueError(f"{where} has no entry for {', '.join(missing)}: declare it for each of the course's languages "
                         f"({', '.join(LANGUAGES)}, posenc/formatting.py LANGUAGES)")
    if same_keys:
        for lang, entry in table.items():
            odd = sorted(set(entry) ^ set(table[LANGUAGES[0]]))
            if odd:
                raise ValueError(f"{where}[{lang!r}] has other keys than {where}[{LANGUAGES[0]!r}]: {odd}; "
                                 "give each language every key")


# Each declaration above covers every course language (NOUN_FORMS only those whose nouns agree with a count).
check_declared("posenc/formatting.py LIST_SEPARATOR", LIST_SEPARATOR)
check_declared("posenc/formatting.py RANGE_WORD", RANGE_WORD)
check_declared("posenc/formatting.py QUOTES", QUOTES)
check_declared("posenc/formatting.py _COUNT_WORDS", _COUNT_WORDS)


def count_words(n: int) -> PerLanguage:
    """``n`` (1–10) as a word in each language, for a count the prose states ("七种", "seven methods")."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 10:
        raise ValueError(f"count_words writes counts 1 to 10 as words, got {n!r}; quote a larger count as digits")
    return PerLanguage(**{lang: words[n - 1] for lang, words in _COUNT_WORDS.items()})


def with_noun(text: str, value: Any, noun: str, lang: str) -> str:
    """A formatted count followed by its noun, in agreement, as NOUN_FORMS writes it in ``lang``: "1 token", "5 tokens",
    "1,024 tokens", "no tokens".

    ``noun`` is the singular. A language without noun forms (Chinese: the measure word is in the prose) asking for a
    noun is an error rather than a silent mix of languages.
    """
    check_language(lang)
    if lang not in NOUN_FORMS:
        raise ValueError(f"noun={noun!r} is for pages whose nouns agree with a count ({', '.join(NOUN_FORMS)}: "
                         f"posenc/formatting.py NOUN_FORMS); on a {lang} page write the word in the prose")
    whole = isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer()
    if not whole:
        raise ValueError(f"noun={noun!r} needs a whole-number count, got {value!r}")
    # zero: "no pairs overshoot", not "0 pairs overshoot", which reads as machine output
    form = NOUN_FORMS[lang]["zero" if value == 0 else "one" if value == 1 else "many"]
    return form.format(text=text, noun=noun)


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; the course's languages are {', '.join(LANGUAGES)} (posenc/formatting.py)")
    return lang


def format_value(value: Any, fmt: str, lang: str = "zh") -> str:
    """Format ``value`` with the spec ``fmt`` for prose in ``lang`` (thousands separators, U+2212 minus).

    A value with a ``mean`` and a ``half_width`` (an estimate over seeds, posenc.experiment.stats)
    prints as "4.85 ± 0.02": the mean, then the half-width unsigned, both with ``fmt``'s decimals or
    more, as many as the half-width needs to show one significant digit ("5.911 ± 0.002", never
    "5.91 ± 0.00", which would claim no spread at all). A tuple or list prints each item with ``fmt``,
    joined as ``lang`` joins a list; a ``PerLanguage`` prints its ``lang`` text. A value with a
    ``smallest`` and a ``largest`` (the per-seed range of a method whose seeds split into two groups,
    stats.SeedRange) prints as "0.54–0.79": no plus sign, so the dash cannot read as a minus; where an end is
    negative the two are joined by a word (RANGE_WORD: "−0.004 至 0.312", "−0.004 to 0.312"), and an end that is not
    zero but would round to it gets the decimals it needs (not "0.00–0.31", which hides the seeds that went the
    other way).
    """
    check_language(lang)
    if isinstance(value, PerLanguage):
        return format_value(value[lang], fmt, lang)
    if isinstance(value, (tuple, list)):
        return LIST_SEPARATOR[lang].join(format_value(v, fmt, lang) for v in value)
    if hasattr(value, "smallest") and hasattr(value, "largest"):
        fmt = fmt.replace("+", "")
        for end in (value.smallest, value.largest):
            fmt = _decimals_to_show(fmt, end)
        ends = [format_value(end, fmt, lang) for end in (value.smallest, value.largest)]
        return (RANGE_WORD[lang] if any(e.startswith("−") for e in ends) else "–").join(ends)
    if hasattr(value, "mean") and hasattr(value, "half_width"):
        fmt = _decimals_for(fmt, value.half_width)
        return f"{format_value(value.mean, fmt, lang)} ± {format_value(value.half_width, fmt.replace('+', ''), lang)}"
    text = format(value, fmt)
    if text in ("nan", "inf", "-inf"):
        raise ValueError(f"refusing to print {text}: the number is not finite (format {fmt!r})")
    if text.lstrip("+-").strip("0.,%") == "" and text[:1] in "+-":
        # a value that rounds to zero prints as zero: "−0.00" would read as a real sign
        text = text[1:]
    return text.replace("-", "−") if isinstance(value, (int, float)) or hasattr(value, "dtype") else text


def _decimals_to_show(fmt: str, x: float) -> str:
    """``fmt`` (".2f") with enough decimals that ``x``, if not zero, does not print as zero."""
    match = re.fullmatch(r"([+]?)\.(\d+)f", fmt)
    if match is None or x == 0 or abs(x) >= 0.5 * 10 ** -int(match.group(2)):
        return fmt
    return _decimals_for(fmt, abs(x))


def _decimals_for(fmt: str, half_width: float) -> str:
    """``fmt`` ("+.2f") with enough decimals that ``half_width`` keeps one significant digit."""
    match = re.fullmatch(r"([+]?)\.(\d+)f", fmt)
    if match is None:
        raise ValueError(f"an estimate over seeds needs a fixed-point format such as '.2f', got {fmt!r}")
    sign, decimals = match.group(1), int(match.group(2))
    if half_width > 0:
        decimals = max(decimals, -math.floor(math.log10(half_width)))
    return f"{sign}.{decimals}f"
