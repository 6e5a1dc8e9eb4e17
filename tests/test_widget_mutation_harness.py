"""The widget mutation harness (tests/js/mutation/widget_server.py) reuses an earlier run's verdicts only where they
still hold: a wrong reuse would count a mutant as killed that today's tests let through."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("widget_server", ROOT / "tests" / "js" / "mutation" / "widget_server.py")
widget_server = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(widget_server)

INPUTS = {"source": "S", "tests": "T"}
VERDICTS = [
    {"mutant": "", "killed_by": None, "why": "", "seconds": 20.0},  # Stryker's first run, with no mutant
    {"mutant": "0", "killed_by": "tests/browser/a.py::test_kept", "why": "AssertionError", "seconds": 1.2},
    {"mutant": "1", "killed_by": None, "why": "", "seconds": 21.0},
    {"mutant": "2", "killed_by": "tests/browser/a.py::test_renamed", "why": "AssertionError", "seconds": 1.1},
]


def _log(tmp_path: Path, header: dict) -> Path:
    path = tmp_path / "widget.log"
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *VERDICTS]), encoding="utf-8")
    return path


def test_a_run_with_the_same_sources_and_tests_reuses_every_verdict(tmp_path):
    reused = widget_server.reusable_verdicts(_log(tmp_path, INPUTS), INPUTS, {"tests/browser/a.py::test_kept"})
    assert sorted(reused) == ["0", "1", "2"]
    assert reused["1"]["killed_by"] is None


def test_changed_tests_keep_only_the_kills_whose_test_still_runs(tmp_path):
    reused = widget_server.reusable_verdicts(_log(tmp_path, INPUTS), {"source": "S", "tests": "T2"},
                                             {"tests/browser/a.py::test_kept"})
    assert sorted(reused) == ["0"]  # the survivor runs again, and so does the mutant whose killer is gone


def test_changed_sources_or_no_log_reuse_nothing(tmp_path):
    assert widget_server.reusable_verdicts(_log(tmp_path, INPUTS), {"source": "S2", "tests": "T"}, {"tests/browser/a.py::test_kept"}) == {}
    assert widget_server.reusable_verdicts(tmp_path / "absent.log", INPUTS, set()) == {}


def test_the_inputs_hash_changes_with_a_source_file(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("one", encoding="utf-8")
    monkeypatch.setattr(widget_server, "ROOT", tmp_path)
    before = widget_server.inputs_hash("sin-dot", ["docs"])
    assert widget_server.inputs_hash("sin-dot", ["docs"]) == before
    assert widget_server.inputs_hash("sin-clock", ["docs"]) != before
    (tmp_path / "docs" / "page.md").write_text("two", encoding="utf-8")
    assert widget_server.inputs_hash("sin-dot", ["docs"]) != before


def test_every_every_widget_test_is_run_for_each_widget_or_left_out_by_name():
    """A new every-widget test (one that checks all the widgets at once) is not named after any widget, so the harness
    runs it for a widget's mutants only if SHARED names it: one left out by oversight let its mutants survive (the
    control rows' test of 2026-12-07). Each is either shared or left out by name, with its reason in widget_server.py."""
    names = {name for path in widget_server.TEST_FILES
             for name in re.findall(r"^def test_(\w*every_widget\w*)\(", (ROOT / path).read_text(encoding="utf-8"), re.M)}
    assert names, "no every-widget test found: the pattern is stale"
    shared = {n for n in names if any(n.startswith(s) for s in widget_server.SHARED_TESTS)}
    left_out = names & set(widget_server.LEFT_OUT_TESTS)
    assert names == shared | left_out, f"every-widget tests neither in SHARED_TESTS nor LEFT_OUT_TESTS: {sorted(names - shared - left_out)}"
    assert not shared & left_out
    # pytest's -k matches a name by substring: each shared entry selects its test
    assert all(any(n.startswith(s) for n in names) for s in widget_server.SHARED_TESTS), "a SHARED_TESTS entry selects no test"

