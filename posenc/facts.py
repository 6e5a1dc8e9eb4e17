"""Facts reported by others (a paper's BLEU, an official config's field), read from data files.

posenc computes what it can; what it cannot (a published result) lives in
``posenc/data/facts.yaml`` with its source and verification tag, so the site
can cite it and label unverified values.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).parent / "data"
TAGS = {
    "V": "已核实：一手来源（论文原文或官方仓库）",
    "V3": "已核实：官方文件的第三方逐字副本",
    "U": "未核实：推断或二手来源，仅供参考",
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

    @property
    def text(self) -> str:
        from .numbers import format_value

        return format_value(self.value, self.fmt)


_REQUIRED = ("value", "fmt", "what", "source", "tag")


def load_entries(path: Path) -> dict[str, dict]:
    """Read a YAML mapping of name → entry, checking each entry has a source and a valid tag."""
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for name, entry in entries.items():
        missing = [k for k in _REQUIRED if k not in entry]
        if missing:
            raise ValueError(f"{path.name}: fact {name!r} lacks {', '.join(missing)}; every fact needs {', '.join(_REQUIRED)}")
        if entry["tag"] not in TAGS:
            raise ValueError(f"{path.name}: fact {name!r} has tag {entry['tag']!r}; use one of {', '.join(TAGS)}")
    return entries


@lru_cache(maxsize=None)
def _all() -> dict[str, Fact]:
    facts = {}
    for path in sorted(DATA.glob("facts*.yaml")):
        for name, e in load_entries(path).items():
            if name in facts:
                raise ValueError(f"fact {name!r} is defined twice; rename one in {path.name}")
            facts[name] = Fact(name, e["value"], e["fmt"], e["what"], e["source"], e.get("url", ""), e["tag"])
    return facts


def get(name: str) -> Fact:
    facts = _all()
    if name not in facts:
        close = difflib.get_close_matches(name, facts, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownFact(f"unknown fact {name!r}.{hint} Add it with its source and tag to posenc/data/facts.yaml.")
    return facts[name]


def names() -> list[str]:
    return sorted(_all())
