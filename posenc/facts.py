"""Facts reported by others (a paper's BLEU, an official config's field), read from data files.

posenc computes what it can; what it cannot (a published result) lives in
``posenc/data/facts_<lesson>.yaml`` with its source and verification tag, so the site
can cite it and label unverified values.

Which file: one per lesson (``facts_lesson3b.yaml`` …, the lesson keys of the notebooks), and a
fact lives in the file of the first lesson, in course order, that quotes it, on its page or
through its numbers and figures (``posenc/quantities/<lesson>.py``, ``figures_src/<lesson>.py``);
a fact that only a posenc module reads (``posenc/long_context.py`` reads the RULER rows) lives
with the lesson that teaches the module. tests/test_facts.py checks the rule. A name is defined
once across all the files (a second definition is an error naming both places).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from . import _check, _yaml
from .formatting import LANGUAGES, QUOTES, check_language, format_value

DATA = Path(__file__).parent / "data"
TAGS = {
    "V": "已核实：一手来源（论文原文或官方仓库）",
    "V3": "副本核实：与官方文件逐字相同的第三方副本，官方原件本身没有打开",
    "U": "未核实：推断或二手来源，仅供参考",
}
# The same three tags for English pages (tools/build/sources.py badge and the legend), in the same order.
TAGS_EN = {
    "V": "Verified: checked against the primary source (the paper or the official repository)",
    "V3": "Verified copy: a third-party copy identical to the official file; the original itself was not opened",
    "U": "Unverified: inferred or second-hand, for orientation only",
}


class UnknownFact(Exception):
    """Raised for a fact name not in the data file (not a KeyError: Jinja would swallow it)."""


@dataclass(frozen=True)
class Fact:
    name: str
    value: Any
    fmt: str
    what: str
    source: str
    url: str
    tag: str
    # The value in another language's words (``value_en:`` …, one per language after the first, in the data file),
    # for a fact whose value is Chinese words; empty for a number or a value that reads the same in every language.
    translated: dict = field(default_factory=dict)
    # ``quote: true`` in the data file: the value is the source's own words, verbatim, so a page shows it as a
    # quotation (QUOTES), its grammar visibly the source's; ``quote: code``: verbatim code, shown as code.
    quote: bool | str = False
    # The source in another language's words (``source_en:`` …), for a source written partly in Chinese: that
    # language's entry on the references page shows it; a quotation of a Chinese original keeps the original, with a gloss after it.
    source_translated: dict = field(default_factory=dict)

    @property
    def value_en(self) -> str | None:
        return self.translated.get("en")

    def source_in(self, lang: str) -> str:
        return self.source_translated.get(check_language(lang), self.source)

    @property
    def text(self) -> str:
        return format_value(self.value, self.fmt)

    def text_in(self, lang: str) -> str:
        if check_language(lang) in self.translated:
            return format_value(self.translated[lang], self.fmt, lang)
        return format_value(self.value, self.fmt, lang)

    def shown_in(self, lang: str) -> str:
        """The value as a page shows it: a verbatim quotation inside the language's quotation marks (a quotation
        inside it takes the inner marks), verbatim code as code, any other value as text_in gives it."""
        text = self.text_in(lang)
        if self.quote == "code":
            return f"<code>{html.escape(text)}</code>"
        if not self.quote:
            return text
        outer_open, outer_close, inner_open, inner_close = QUOTES[lang]
        inner = re.sub(r'"([^"]*)"|“([^”]*)”|「([^」]*)」', lambda m: inner_open + next(g for g in m.groups() if g is not None) + inner_close, text)
        return f"{outer_open}{inner}{outer_close}"


_REQUIRED = ("value", "fmt", "what", "source", "tag")
_CHINESE = re.compile(r"[\u3400-\u9fff]")


def translations(entry: dict, key: str) -> dict:
    """``key_<lang>`` fields of a data entry, by language (value_en → {"en": …})."""
    return {lang: entry[f"{key}_{lang}"] for lang in LANGUAGES[1:] if f"{key}_{lang}" in entry}


def key_lines(path: Path) -> dict[str, int]:
    """Line of each top-level key of a YAML mapping file; a key repeated at any depth is an error.

    ``yaml.safe_load`` keeps the last of two equal keys without a word, so a second
    definition would silently replace the first.
    """
    return _read(path)[1]


def _read(path: Path) -> tuple[dict, dict[str, int]]:
    """The file's mapping and the line of each top-level key, from one parse; a key written twice is an error."""
    value, root = _yaml.load_file_with_nodes(path)
    if root is None:
        return {}, {}
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.MappingNode):
            seen: dict = {}
            for key, child in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        raise ValueError(
                            f"{_where(path, seen[key.value])} and {_where(path, key.start_mark.line + 1)}: "
                            f"key {key.value!r} is defined twice; keep one"
                        )
                    seen[key.value] = key.start_mark.line + 1
                todo.append(child)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
    if not isinstance(root, yaml.MappingNode):
        raise ValueError(f"{path.name}: expected a mapping of name → entry at the top level")
    return value, {key.value: key.start_mark.line + 1 for key, _ in root.value}


def _where(path: Path, line: int) -> str:
    try:
        rel = path.resolve().relative_to(DATA.parent.parent)
    except ValueError:
        rel = path
    return f"{rel.as_posix()}:{line}"


def load_entries(path: Path) -> dict[str, dict]:
    """Read a YAML mapping of name → entry, checking each entry has a source and a valid tag."""
    return _checked_entries(path)[0]


def _checked_entries(path: Path) -> tuple[dict[str, dict], dict[str, int]]:
    """The file's entries, checked (no key twice, every required field, a valid tag), and each one's line."""
    entries, lines = _read(path)
    for name, entry in entries.items():
        missing = [k for k in _REQUIRED if k not in entry]
        if missing:
            raise ValueError(f"{path.name}: fact {name!r} lacks {', '.join(missing)}; every fact needs {', '.join(_REQUIRED)}")
        if entry["tag"] not in TAGS:
            raise ValueError(f"{path.name}: fact {name!r} has tag {entry['tag']!r}; use one of {', '.join(TAGS)}")
        if entry.get("quote", False) not in (True, False, "code"):
            raise ValueError(f"{path.name}: fact {name!r} has quote {entry['quote']!r}; write quote: true (the source's own "
                             f"words) or quote: code (verbatim code), or leave it out")
        for lang in LANGUAGES[1:]:
            if entry.get("quote") and f"value_{lang}" in entry:
                raise ValueError(f"{path.name}: fact {name!r} is a verbatim quotation and has a value_{lang}: a quotation keeps "
                                 f"its source's words on every page; drop value_{lang}, or drop quote and paraphrase")
        check_translated(entry, ("source",) if entry.get("quote") else ("value", "source"), f"{_where(path, lines[name])}: fact {name!r}")
    return entries, lines


def check_translated(entry: dict, keys: tuple[str, ...], what: str) -> None:
    """A data entry's ``keys`` written in Chinese words need their words for every other language (``value_en`` …):
    without them those pages would show Chinese."""
    for lang in LANGUAGES[1:]:
        for key in keys:
            if _CHINESE.search(str(entry[key])) and f"{key}_{lang}" not in entry:
                raise ValueError(f"{what} has a {key} in Chinese words and no {key}_{lang}: add it, the {key} in the words "
                                 f"of the {lang} pages")


@lru_cache(maxsize=None)
def _all() -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    defined_at: dict[str, str] = {}
    for path in sorted(DATA.glob("facts_*.yaml")):
        entries, lines = _checked_entries(path)
        for name, e in entries.items():
            here = _where(path, lines[name])
            if name in facts:
                raise ValueError(f"fact {name!r} is defined twice: at {defined_at[name]} and at {here}; rename or remove one")
            facts[name] = Fact(name, e["value"], e["fmt"], e["what"], e["source"], e.get("url", ""), e["tag"],
                               translations(e, "value"), e.get("quote", False), translations(e, "source"))
            defined_at[name] = here
    return facts


def get(name: str) -> Fact:
    facts = _all()
    if name not in facts:
        hint = _check.did_you_mean(name, facts)
        raise UnknownFact(f"unknown fact {name!r}.{hint} Add it with its source and tag to posenc/data/facts_<lesson>.yaml "
                          f"of the first lesson that quotes it.")
    return facts[name]


def names() -> list[str]:
    return sorted(_all())
