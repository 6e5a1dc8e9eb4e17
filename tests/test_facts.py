"""posenc.facts: reported values read from posenc/data/facts*.yaml, checked against the raw files.

The expectations come from reading the YAML files directly (not through posenc.facts)
and from the messages the module promises a course author.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from posenc import facts

DATA = Path(__file__).resolve().parent.parent / "posenc" / "data"


def raw_facts() -> dict:
    out = {}
    for path in sorted(DATA.glob("facts*.yaml")):
        out.update(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
    return out


def test_every_fact_in_the_files_is_loaded_with_all_its_fields():
    raw = raw_facts()
    assert facts.names() == sorted(raw)
    for name, entry in raw.items():
        f = facts.get(name)
        assert (f.name, f.value, f.fmt, f.what, f.source, f.tag) == (
            name, entry["value"], entry["fmt"], entry["what"], entry["source"], entry["tag"])
        assert f.url == entry.get("url", "")


def test_fact_text_is_the_value_in_its_format():
    f = facts.Fact("x", 25.8, ".1f", "w", "s", "", "V")
    assert f.text == "25.8"
    assert facts.Fact("x", 1234567, ",", "w", "s", "", "V").text == "1,234,567"
    assert facts.Fact("x", -0.5, ".2f", "w", "s", "", "V").text == "−0.50"
    assert facts.get("vaswani_base_dev_bleu").text == "25.8"  # Vaswani et al. 2017, Table 3, base


def test_tags_are_the_three_verification_levels():
    assert list(facts.TAGS) == ["V", "V3", "U"]
    assert all(isinstance(label, str) and label for label in facts.TAGS.values())
    assert {facts.get(n).tag for n in facts.names()} <= set(facts.TAGS)


def test_unknown_fact_suggests_the_closest_name():
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("vaswani_base_dev_blue")
    assert str(err.value).startswith("unknown fact 'vaswani_base_dev_blue'. Did you mean 'vaswani_base_dev_bleu'")
    assert str(err.value).endswith("? Add it with its source and tag to posenc/data/facts_<lesson>.yaml of the first "
                                   "lesson that quotes it.")
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("zzzzzzzz")
    assert str(err.value) == ("unknown fact 'zzzzzzzz'. Add it with its source and tag to posenc/data/facts_<lesson>.yaml "
                              "of the first lesson that quotes it.")
    assert not issubclass(facts.UnknownFact, KeyError)  # Jinja would swallow a KeyError


@pytest.mark.parametrize(
    "text, message",
    [
        ("a:\n  value: 1\n  fmt: d\n  what: w\n  source: s\n", "f.yaml: fact 'a' lacks tag; every fact needs value, fmt, what, source, tag"),
        ("a:\n  fmt: d\n  what: w\n  tag: V\n", "f.yaml: fact 'a' lacks value, source; every fact needs value, fmt, what, source, tag"),
        ("a:\n  value: 1\n  fmt: d\n  what: w\n  source: s\n  tag: W\n", "f.yaml: fact 'a' has tag 'W'; use one of V, V3, U"),
    ],
)
def test_load_entries_rejects_incomplete_facts(tmp_path, text, message):
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        facts.load_entries(path)


def test_load_entries_reads_a_complete_file_and_an_empty_one(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("a:\n  value: 2.5\n  fmt: .1f\n  what: w\n  source: s\n  tag: U\n", encoding="utf-8")
    assert facts.load_entries(path) == {"a": {"value": 2.5, "fmt": ".1f", "what": "w", "source": "s", "tag": "U"}}
    empty = tmp_path / "e.yaml"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    assert facts.load_entries(empty) == {}


def test_unknown_fact_suggests_at_most_three_names():
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("yarn_t2_7b_ppl")  # close to five facts
    suggested = str(err.value).split("Did you mean ")[1].split("?")[0].split(", ")
    assert len(suggested) == 3 and all(s.startswith("'yarn_t2_7b_ppl_") for s in suggested)


# --- which file: the first lesson that quotes a fact --------------------------------------------------------------

ROOT = DATA.parent.parent
LESSONS = [p.stem for p in sorted((ROOT / "docs" / "notebooks").glob("lesson*.py"), key=lambda p: (len(p.stem), p.stem))]


def _course_order(keys: list[str]) -> list[str]:
    """lesson1 … lesson3, lesson3b, lesson4 …: a lesson's 'b' page comes right after it."""
    return sorted(keys, key=lambda k: (int(k[len("lesson"):].rstrip("b")), k.endswith("b")))


def _first_lesson_quoting(name: str) -> str | None:
    """The first lesson whose page, numbers (posenc/quantities/<lesson>.py) or figures (figures_src/<lesson>.py) name the fact."""
    import re

    pages = {p.name.split("-")[0].lstrip("0"): p for p in (ROOT / "docs" / "lessons").glob("*.md")}
    for key in _course_order(LESSONS):
        texts = [pages[key[len("lesson"):]].read_text(encoding="utf-8")]
        texts += [p.read_text(encoding="utf-8") for p in (ROOT / "posenc" / "quantities" / f"{key}.py", ROOT / "figures_src" / f"{key}.py")
                  if p.is_file()]
        if any(re.search(rf"""["']{re.escape(name)}["']""", t) for t in texts):
            return key
    return None


def test_each_fact_lives_in_the_file_of_the_first_lesson_that_quotes_it():
    assert _course_order(["lesson6b", "lesson3b", "lesson4", "lesson1", "lesson3"]) == ["lesson1", "lesson3", "lesson3b", "lesson4", "lesson6b"]
    files = sorted(DATA.glob("facts*.yaml"))
    assert files and all(p.stem[len("facts_"):] in LESSONS for p in files), [p.name for p in files]
    misplaced = []
    for path in files:
        for name in yaml.safe_load(path.read_text(encoding="utf-8")):
            first = _first_lesson_quoting(name)
            if first is not None and path.name != f"facts_{first}.yaml":
                misplaced.append(f"{path.name}: {name} is first quoted by {first}; move it to facts_{first}.yaml")
    assert not misplaced, "\n".join(misplaced)


def test_no_source_points_outside_the_repository():
    """A source names a paper, a repository @commit and file, or a page: never a file of ours outside this repository."""
    outside = []
    for path in sorted(DATA.glob("*.yaml")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "../" in line or "facts.md" in line:
                outside.append(f"{path.name}:{number}: {line.strip()[:100]}")
    assert not outside, "\n".join(outside)
