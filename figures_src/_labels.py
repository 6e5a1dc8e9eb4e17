"""The words figures draw, one table per language: figures_src/labels/<lang>.yaml.

Each table maps a figure module's name (``experiment``, ``lesson3`` …) to that module's texts, key →
text; a text may have ``{name}`` fields that the figure fills in (``T("train_length", n=128)``). Keys
may be grouped (``method: {nope: …}`` is ``T("method.nope")``). A module is *converted* when
the English table has its section: then both tables must have the same keys with the same fields
(``check``, run by tests/test_figures_i18n.py and before a figure is drawn), and its figures are drawn
in each language. An English figure containing a CJK character fails the build (figures_src/_style.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from posenc import _yaml
from posenc.formatting import LANGUAGES

TABLES = Path(__file__).resolve().parent / "labels"
CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


class MissingText(KeyError):
    pass


_LANGUAGE = [LANGUAGES[0]]  # the language being drawn or described (a stack: in_language nests)


def language() -> str:
    """The language the figure being drawn (or its alt text) is in."""
    return _LANGUAGE[-1]


@contextmanager
def in_language(lang: str):
    from posenc.formatting import check_language

    _LANGUAGE.append(check_language(lang))
    try:
        yield
    finally:
        _LANGUAGE.pop()


@lru_cache(maxsize=None)
def table(lang: str) -> dict[str, dict[str, str]]:
    """The label table of ``lang``, flattened: module → {"key" or "group.key": text}."""
    path = TABLES / f"{lang}.yaml"
    data = _yaml.load_file(path) if path.is_file() else None
    def flatten(mapping: dict, prefix: str = "") -> dict[str, str]:
        flat = {}
        for key, value in (mapping or {}).items():
            if isinstance(value, dict):
                flat.update(flatten(value, f"{prefix}{key}."))
            else:
                flat[f"{prefix}{key}"] = str(value)
        return flat

    return {module: flatten(section) for module, section in (data or {}).items()}


def converted(module: str) -> bool:
    """Whether ``module`` is drawn in every language (every table has its section)."""
    return all(module in table(lang) for lang in LANGUAGES)


def converted_modules() -> list[str]:
    return sorted(m for m in table(LANGUAGES[0]) if converted(m))


def section_digest(module: str, lang: str) -> str:
    """What a drawing of ``module`` in ``lang`` depends on in the tables (for the figure cache key)."""
    section = table(lang).get(module, {})
    return hashlib.sha256(json.dumps(section, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def check(module: str) -> list[str]:
    """Where the tables disagree on ``module``: a key in one language only, or a key whose fields differ
    (unless the module lists it in FIELDS_MAY_DIFFER, saying why)."""
    import importlib

    differ = set(getattr(importlib.import_module(f"figures_src.{module}"), "FIELDS_MAY_DIFFER", ()))
    out = []
    sections = {lang: table(lang).get(module) for lang in LANGUAGES}
    present = [lang for lang, s in sections.items() if s is not None]
    if not present:
        return [f"figures_src/labels/*.yaml: no section {module!r}"]
    base_lang = present[0]
    for lang in present[1:]:
        a, b = sections[base_lang], sections[lang]
        for key in sorted(set(a) - set(b)):
            out.append(f"figures_src/labels/{lang}.yaml: {module}.{key} is missing ({base_lang} has it)")
        for key in sorted(set(b) - set(a)):
            out.append(f"figures_src/labels/{lang}.yaml: {module}.{key} is not in {base_lang}.yaml")
        for key in sorted(set(a) & set(b)):
            if _fields(a[key]) != _fields(b[key]) and key not in differ:
                out.append(f"figures_src/labels/{lang}.yaml: {module}.{key} fills {sorted(_fields(b[key]))}, "
                           f"{base_lang}.yaml fills {sorted(_fields(a[key]))}")
    if "en" in sections and sections["en"] is not None:
        for key, text in sections["en"].items():
            if CJK.search(text):
                out.append(f"figures_src/labels/en.yaml: {module}.{key} has a CJK character: {text!r}")
    return out


class Texts:
    """``T(key, **values)`` for one module (see figures_src.texts)."""

    def __init__(self, module: str):
        self.module = module

    def __call__(self, key: str, **values) -> str:
        lang = language()
        section = table(lang).get(self.module)
        if section is None:
            if lang != LANGUAGES[0]:  # a module not converted yet is drawn (and described) in Chinese
                section = table(LANGUAGES[0]).get(self.module)
            if section is None:
                raise MissingText(f"figures_src/labels/{lang}.yaml has no section {self.module!r}")
        if key not in section:
            raise MissingText(f"figures_src/labels/{lang}.yaml: {self.module}.{key} is missing")
        return section[key].format(**values)
