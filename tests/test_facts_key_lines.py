"""posenc.facts.key_lines: a key written twice in a data file is an error at any depth, not a silent replacement."""

from __future__ import annotations

import re

import pytest

from posenc import facts


@pytest.mark.parametrize("text, key, first, second", [
    ("a:\n  value: 1\nb: 2\na: 3\n", "a", 1, 4),  # top level: yaml.safe_load would keep a = 3
    ("a:\n  value: 1\n  tag: V\n  value: 2\n", "value", 2, 4),  # inside an entry
    ("a:\n  - x: 1\n    x: 2\n", "x", 2, 3),  # inside a list item
])
def test_a_key_written_twice_is_an_error_naming_both_lines(tmp_path, text, key, first, second):
    path = tmp_path / "facts_dup.yaml"
    path.write_text(text, encoding="utf-8")
    message = f"{path.as_posix()}:{first} and {path.as_posix()}:{second}: key {key!r} is defined twice; keep one"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        facts.key_lines(path)


def test_key_lines_are_one_based_lines_of_the_top_level_keys(tmp_path):
    path = tmp_path / "facts_ok.yaml"
    path.write_text("# comment\na:\n  value: 1\nb:\n  value: 1\n", encoding="utf-8")
    assert facts.key_lines(path) == {"a": 2, "b": 4}
