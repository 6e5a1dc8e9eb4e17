"""The terms guard: a word the glossary rejects fails the build wherever a page's prose uses it.

Each language has its list. Chinese: the ``reject`` field of each entry of posenc/data/glossary.yaml (因果 mask
→ 因果掩码). English: the ``reject`` mapping at the end of posenc/data/glossary.en.yaml, each word with what to
write instead (position encoding → positional encoding). A page is checked against its own language's list.

It runs inside every build (a hook in mkdocs.yml): each finding is a MkDocs error with the page's file and
line, so `mkdocs build --strict` fails with or without -q. tests/test_glossary.py (Chinese) and
tests/test_terms_guard.py (English) check the same lists in the texts a build does not read as pages: the
notebooks' Markdown cells, the glossary's definitions and the timeline.

Prose is read as the numbers lint reads it (tools/guards/prose_lint.py ``prose``): code, math, macro calls and link
targets are not prose, so `position_encoding` in code or a URL is not a finding.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:  # loaded as a hook file: posenc must be importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from posenc.formatting import LANGUAGES, check_language  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def glossary_file(lang: str) -> Path:
    """The glossary whose ``reject`` table a page in ``lang`` follows: glossary.yaml for Chinese, glossary.<lang>.yaml
    for each translation."""
    return ROOT / "posenc" / "data" / ("glossary.yaml" if check_language(lang) == LANGUAGES[0] else f"glossary.{lang}.yaml")


def rejected(lang: str) -> dict[str, str]:
    """The words ``lang``'s prose does not use → what to write instead."""
    from tools.build import course_macros

    if check_language(lang) == LANGUAGES[0]:
        return course_macros.rejected()
    from posenc import _yaml

    path = glossary_file(lang)
    words = (_yaml.load(path.read_text(encoding="utf-8")) or {}).get("reject") or {}
    if not isinstance(words, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in words.items()):
        raise ValueError(f"{path.relative_to(ROOT)}: reject must map each rejected word to what to write instead")
    return words


def pattern(word: str, lang: str) -> re.Pattern:
    """How a rejected word is found: in Chinese with any spacing (tools/build/course_macros.py synonym_pattern); in
    English from a word's start, any case, any spacing or line break between its words, any ending (but a match
    in Title Case, every word capitalised, is a name or a cited title and is left alone: ``findings``). A rejected
    form that starts with a quotation mark ('"clearly"', the word quoted as a word in straight quotes) is found from
    that mark."""
    if lang == LANGUAGES[0]:
        from tools.build import course_macros

        return course_macros.synonym_pattern(word)
    start = r"\b" if word[:1].isalnum() else ""  # no word boundary before a quotation mark that follows a space
    return re.compile(start + r"\s+".join(re.escape(w) for w in word.split()), re.IGNORECASE)


def findings(text: str, where: str, lang: str, words: dict[str, str] | None = None) -> list[str]:
    """'where:line: "position encoding" is a rejected synonym; write positional encoding' for each rejected
    word in ``text`` (prose, line numbers kept)."""
    words = rejected(lang) if words is None else words
    table = glossary_file(lang).relative_to(ROOT).as_posix()
    out = []
    for word, use in words.items():
        for m in pattern(word, lang).finditer(text):
            if lang != LANGUAGES[0] and len(m.group(0).split()) > 1 and all(w[:1].isupper() for w in m.group(0).split()):
                continue  # Title Case is a name or a cited title ("Contextual Position Encoding", CoPE), not our word
            line = text.count("\n", 0, m.start()) + 1
            out.append((line, f"{where}:{line}: {' '.join(m.group(0).split())!r} is a rejected synonym; write {use} ({table})"))
    return [msg for _, msg in sorted(out)]


def english_prose_sources() -> list[tuple[str, str]]:
    """(where, prose) of every English text a reader reads: the English pages, the notebooks' Markdown cells,
    the English glossary's definitions and the English timeline's texts."""
    from posenc import _yaml
    from tools.build import course_macros as cm
    from tools.guards import prose_lint

    rel = lambda p: p.relative_to(ROOT).as_posix()  # noqa: E731
    out = [(rel(p), prose_lint.prose(p.read_text(encoding="utf-8"))) for p in sorted(cm.DOCS.rglob("*.en.md"))]
    out += [(rel(p), prose_lint.prose(cm.notebook_prose(p.read_text(encoding="utf-8"))))
            for p in sorted((cm.DOCS / "notebooks").glob("lesson*.py"))]
    terms = _yaml.load(cm.GLOSSARY_EN.read_text(encoding="utf-8"))["terms"]
    out += [(f"{rel(cm.GLOSSARY_EN)} terms.{key}", prose_lint.prose(text)) for key, text in terms.items()]
    out.append((rel(cm.TIMELINE_EN), prose_lint.prose(cm.yaml_prose(cm.TIMELINE_EN.read_text(encoding="utf-8"), cm.TIMELINE_TEXT))))
    return out + english_data_sources()


def english_data_sources() -> list[tuple[str, str]]:
    """(where, text) of the English words the macros print from data rather than from a page: the experiment's
    claims as the English pages print them (an amended wording, not the frozen one it replaces), the method names
    of its figures and legends and of the results table, the figures' English labels, the data-flow panel's words, and the English values of
    reported facts (not a verbatim quotation, which keeps its source's words)."""
    from posenc import _yaml, facts
    from posenc.experiment import amendments, claims, course

    out = [(f"posenc/experiment/{'amendments' if name in amendments.ENGLISH else 'claims'}.py {name}",
            claims.template(name, "en")) for name in claims.CLAIMS]
    out += [(f"posenc/experiment/course.py {r.key}", r.label("en")) for r in course.METHOD_RECORDS]
    out += [(f"posenc/experiment/course.py {r.key} table_name", r.table_label("en")) for r in course.METHOD_RECORDS
            if r.table_name is not None]
    for path in (ROOT / "figures_src" / "labels" / "en.yaml", ROOT / "posenc" / "data" / "dataflow.en.yaml"):
        out += [(f"{path.relative_to(ROOT).as_posix()} {key}", text)
                for key, text in _strings(_yaml.load(path.read_text(encoding="utf-8")))]
    out += [(f"posenc/data/facts_*.yaml {f.name}", f.value_en) for f in map(facts.get, facts.names())
            if f.value_en is not None and not f.quote]
    return out


def _strings(value, key: str = "") -> list[tuple[str, str]]:
    """Every string in a YAML value, with its dotted key."""
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, f"{key}.{k}" if key else str(k))]
    if isinstance(value, list):
        return [s for i, v in enumerate(value) for s in _strings(v, f"{key}[{i}]")]
    return []


# --- as a MkDocs hook (mkdocs.yml: hooks) ------------------------------------------------------------------


def on_page_markdown(markdown, page, config, files):
    """Log an error for each rejected word in the page's prose, in the page's language (before macros run)."""
    import logging

    if str(ROOT) not in sys.path:  # MkDocs restores sys.path after loading a hook file: posenc must be importable
        sys.path.insert(0, str(ROOT))
    from tools.build import i18n
    from tools.guards import prose_lint

    if not page.file.src_uri.endswith(".md"):
        return markdown
    log = logging.getLogger("mkdocs.hooks.terms_guard")
    lang = i18n.source_language(page.file.src_uri)
    for finding in findings(prose_lint.prose(markdown), f"docs/{page.file.src_uri}", lang):
        log.error(finding)
    return markdown


try:  # run before mkdocs-macros, which replaces the {{ … }} calls the prose reader leaves out
    from mkdocs.plugins import event_priority

    on_page_markdown = event_priority(100)(on_page_markdown)
except ImportError:  # the guard also runs without MkDocs (tests)
    pass
