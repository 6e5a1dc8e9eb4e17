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
    assert str(err.value).endswith("? Add it with its source and tag to posenc/data/facts.yaml.")
    with pytest.raises(facts.UnknownFact) as err:
        facts.get("zzzzzzzz")
    assert str(err.value) == "unknown fact 'zzzzzzzz'. Add it with its source and tag to posenc/data/facts.yaml."
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
