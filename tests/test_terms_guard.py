"""The terms guard (tools/guards/terms_guard.py): a synonym the glossary rejects fails the build in the prose of its
language; the English list is glossary.en.yaml's ``reject``, as glossary.yaml's reject fields are the Chinese."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace

import pytest

from site_support import ROOT
from tools.guards import prose_lint
from tools.guards import terms_guard as guard

SOURCES = guard.english_prose_sources()


@pytest.mark.parametrize("where, text", SOURCES, ids=[w for w, _ in SOURCES])
def test_no_rejected_english_synonym_in_the_english_prose(where, text):
    found = guard.findings(text, where, "en")
    assert not found, "rejected synonyms in English prose (posenc/data/glossary.en.yaml says what to write):\n  " + "\n  ".join(found)


def test_every_english_text_a_reader_reads_is_scanned():
    scanned = {w.split(" ")[0] for w, _ in SOURCES}
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.en.md")}
    assert pages <= scanned and "docs/lessons/01-order-blind.en.md" in scanned
    assert {"docs/notebooks/lesson1.py", "posenc/data/glossary.en.yaml", "posenc/data/timeline.en.yaml"} <= scanned


def test_the_english_list_names_the_fields_terms():
    words = guard.rejected("en")
    assert words["position encoding"] == "positional encoding"
    assert words["learned position table"] == "learned position embedding"
    assert words["learned table"] == "learned position embedding"  # the English review R3 still met it (S-N9)
    from tools.build import course_macros as cm

    english_names = {t.english for t in cm.load_glossary()}
    assert "learned position embedding" in english_names  # what to write is the glossary's own headword


def test_the_finder_reports_each_form_with_its_line_and_reads_prose_only():
    page = ("# Title\n\nA position encoding here.\n\nPosition\nencodings too, and `position encoding` in code,\n"
            "{{ num(\"position encoding\") }} in a macro, [a link](position-encoding.md), positional encoding, "
            "and *Contextual Position Encoding* (a cited title).\nThe learned position tables.\n")
    found = guard.findings(prose_lint.prose(page), "page.en.md", "en")
    assert [int(f.split(":")[1]) for f in found] == [3, 5, 8]
    assert "'Position encoding' is a rejected synonym; write positional encoding" in found[1]  # across the line break
    assert "write learned position embedding (posenc/data/glossary.en.yaml)" in found[2]


def test_the_experiments_words_quoted_straight_are_found_and_the_curly_form_is_not():
    # the English review R4 met "clearly" and ‘clearly’ side by side on the results page
    page = 'The words ‘clearly’ and ‘barely changing’ are fine.\nBut "clearly" takes, and\n"Barely  changing" is the word.\n'
    found = guard.findings(prose_lint.prose(page), "results.en.md", "en")
    assert [int(f.split(":")[1]) for f in found] == [2, 3]
    assert "'\"clearly\"' is a rejected synonym; write ‘clearly’" in found[0]
    assert "'\"Barely changing\"' is a rejected synonym; write ‘barely changing’" in found[1]


def test_the_chinese_list_is_the_glossarys_reject_fields():
    from tools.build import course_macros as cm

    assert guard.rejected("zh") == cm.rejected()
    assert guard.findings("这里写了因果Mask。", "p.md", "zh")[0].startswith("p.md:1: '因果Mask'")
    with pytest.raises(ValueError, match=r"unknown language 'fr'; the course's languages are zh, en \(posenc/formatting.py\)"):
        guard.rejected("fr")
    assert guard.glossary_file("en").name == "glossary.en.yaml" and guard.glossary_file("zh").name == "glossary.yaml"


@pytest.mark.parametrize("src_uri, text, expected", [
    ("lessons/x.en.md", "A learned position table.\n", "docs/lessons/x.en.md:1: 'learned position table'"),
    ("lessons/x.md", "第一行\n这是因果 mask。\n", "docs/lessons/x.md:2: '因果 mask'"),
])
def test_the_build_hook_logs_an_error_in_the_pages_language(caplog, src_uri, text, expected):
    page = SimpleNamespace(file=SimpleNamespace(src_uri=src_uri))
    with caplog.at_level(logging.ERROR, logger="mkdocs.hooks.terms_guard"):
        assert guard.on_page_markdown(text, page, None, None) == text
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]  # an error: --strict fails even with -q
    assert len(errors) == 1 and errors[0].getMessage().startswith(expected)


def test_an_english_page_is_not_held_to_the_chinese_list(caplog):
    page = SimpleNamespace(file=SimpleNamespace(src_uri="lessons/x.en.md"))
    with caplog.at_level(logging.ERROR, logger="mkdocs.hooks.terms_guard"):
        guard.on_page_markdown("The positional encoding.\n", page, None, None)
    assert not caplog.records


def test_the_guard_is_a_hook_of_the_build():
    hooks = re.search(r"^hooks:\n((?:  .*\n)+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1)
    assert "  - tools/guards/terms_guard.py\n" in hooks


def test_the_words_macros_print_from_data_are_scanned_claims_as_the_pages_print_them():
    from posenc.experiment import amendments, claims

    scanned = dict(SOURCES)
    assert {f"posenc/experiment/{'amendments' if n in amendments.ENGLISH else 'claims'}.py {n}" for n in claims.CLAIMS} <= set(scanned)
    assert any(w.startswith("figures_src/labels/en.yaml ") for w in scanned)
    assert any(w.startswith("posenc/data/dataflow.en.yaml ") for w in scanned)
    # what the amendments replaced would fail: the guard reads the printed wording, and the frozen one has the old terms
    frozen_words = [a.frozen for a in amendments.ENGLISH.values()]
    assert all(guard.findings(text, "x", "en") for text in frozen_words)
    assert not any("position encoding" in text for w, text in SOURCES if w.startswith("posenc/experiment/"))
