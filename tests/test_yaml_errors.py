"""A malformed data file fails with one line naming the file, the line and the column, never
PyYAML's ``in "<unicode string>"``; and a model's error names the models file it is in."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from posenc import _yaml, configs, facts
from site_support import ROOT

# Line 3 indents a key under a scalar: "mapping values are not allowed here" at line 3, column 8.
BROKEN = "first:\n  value: 1\n  fmt: [unclosed\nsecond: 2\n"


@pytest.fixture
def broken(tmp_path) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    return path


def _message(call) -> str:
    with pytest.raises(ValueError) as err:
        call()
    return str(err.value)


def test_load_file_names_the_file_line_and_column(broken):
    message = _message(lambda: _yaml.load_file(broken))
    assert message.startswith(f"{broken.as_posix()}:4:")  # the unclosed "[" is noticed at the next key
    assert "<unicode string>" not in message
    assert "not valid YAML" in message and "\n" not in message, message


def test_load_file_with_nodes_names_the_file(broken):
    assert _message(lambda: _yaml.load_file_with_nodes(broken)).startswith(f"{broken.as_posix()}:")


def test_a_file_inside_the_project_is_named_from_the_project_root():
    err = _yaml._parse_error(ROOT / "posenc" / "data" / "facts_lesson3.yaml", _scanner_error())
    assert str(err).startswith("posenc/data/facts_lesson3.yaml:")


def _scanner_error():
    import yaml

    try:
        yaml.safe_load(BROKEN)
    except yaml.YAMLError as err:
        return err
    raise AssertionError("BROKEN parsed")


def test_a_broken_facts_file_is_named(broken):
    assert _message(lambda: facts._read(broken)).startswith(f"{broken.as_posix()}:")


@pytest.mark.parametrize("loader", ["citation", "glossary", "timeline", "notation", "english_texts"])
def test_every_data_loader_names_a_broken_file(loader, broken):
    from tools.build import citation, course_macros
    from tools.guards import notation

    call = {
        "citation": lambda: citation.load(broken),
        "glossary": lambda: course_macros.load_glossary(broken),
        "timeline": lambda: course_macros.load_timeline(broken),
        "notation": lambda: notation.load(broken),
        "english_texts": lambda: course_macros.english_texts(broken),
    }[loader]
    assert _message(call).startswith(f"{broken.as_posix()}:")


def test_a_broken_facts_file_fails_every_import_the_same_way_not_as_a_duplicate_name(tmp_path):
    """A quantities module that fails part way must not leave its names registered: the next
    attempt reported them as 'registered twice' at the same line, hiding the broken file."""
    for path in sorted(facts.DATA.glob("facts_*.yaml")):
        text = path.read_text(encoding="utf-8")
        if path.name == "facts_lesson3b.yaml":
            text = "broken: [unclosed\n" + text
        (tmp_path / path.name).write_text(text, encoding="utf-8")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from posenc import facts, quantities
        facts.DATA = Path({str(tmp_path)!r})
        for _ in range(2):
            try:
                quantities.get("l3b_pairs_total")
            except Exception as err:
                print(type(err).__name__, err)
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    lines = out.stdout.splitlines()
    assert len(lines) == 2, out.stdout + out.stderr
    for line in lines:
        assert line.startswith(f"YAMLFileError {(tmp_path / 'facts_lesson3b.yaml').as_posix()}:"), line
        assert "registered twice" not in line


def test_a_model_error_names_the_file_the_model_is_in():
    raw = _yaml.load_file(configs.MODELS_FILE.parent / "models_vl.yaml")
    key = next(iter(raw))
    entry = raw[key]
    entry["fields"]["mrope_section"]["value"] = [16, 24, 25]
    message = _message(lambda: configs._parse(key, entry, "models_vl.yaml"))
    assert message.startswith(f"models_vl.yaml: {key}"), message


def test_a_loaded_model_remembers_its_file():
    files = {configs.load(key).file for key in configs._all()}
    assert files == set(configs.MODEL_FILES)
    missing = "no_such_field"
    vl = next(k for k, c in configs._all().items() if c.file == "models_vl.yaml")
    assert "models_vl.yaml" in _message(lambda: configs.load(vl).field(missing))
