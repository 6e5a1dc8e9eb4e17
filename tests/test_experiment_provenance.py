"""posenc/experiment/provenance.py: each unit's cache key, and results made before sweep.py left run.py.

A unit's key sees the lists that name which methods and variants exist (MEMBERSHIP_LISTS) cut down to its own names.
That is sound only while the number files use those lists for nothing but "is this name in it?" (and an error's
message), which the first test checks on every use. Then: adding a method the way CONTRIBUTING.md's recipe does keeps
every other unit's key and gives the new one its own; changing code that every unit runs changes every key.

The committed results record the source hash of the number files as they were when run.py also held the sweep.
provenance.SUPERSEDED maps that hash to today's; the last test derives both from that commit's files and checks that
every statement that computes a number is the same today (it needs the repository's history: without it, it skips).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess

import pytest
from experiment_tiny import TINY

from posenc.experiment import config, provenance, sweep
from posenc.experiment.config import PRESETS

FULL = PRESETS["full"]


def _sources() -> dict[str, str]:
    return {name: (provenance.PACKAGE_DIR / name).read_text(encoding="utf-8") for name in provenance.NUMBER_FILES}


def _uses(tree: ast.Module, name: str) -> list[tuple[ast.AST, list[ast.AST]]]:
    """Every load of ``name`` with the chain of nodes above it."""
    found = []

    def walk(node, above):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            found.append((node, above))
        for child in ast.iter_child_nodes(node):
            walk(child, [*above, node])

    walk(tree, [])
    return found


@pytest.mark.parametrize("file, name", [(f, n) for f, names in provenance.MEMBERSHIP_LISTS.items() for n in names])
def test_a_membership_list_is_only_asked_whether_a_name_is_in_it(file, name):
    """Every use of a cut-down list in the number files: the right side of `in` / `not in` whose left side is not a
    constant (a constant asks about another unit's name), or inside a raise. It is reached by its own name only: not as
    a module's attribute, not imported under another name or with *, not by a string (getattr, globals())."""
    defined = False
    for other, source in _sources().items():
        tree = ast.parse(source)
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.Attribute) and node.attr == name), f"{other}:{node.lineno} reads {name} as an attribute"
            if isinstance(node, ast.ImportFrom):
                assert all(a.name != "*" and (a.name != name or a.asname is None) for a in node.names), \
                    f"{other}:{node.lineno} imports {name} under another name, or with *"
            assert not (isinstance(node, ast.Constant) and node.value == name), f"{other}:{node.lineno} names {name} in a string"
        if other == file:
            assigned = [n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == name]
            assert len(assigned) == 1 and isinstance(assigned[0].value, ast.Tuple), f"{file}: {name} is not one module-level tuple"
            assert all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in assigned[0].value.elts)
            defined = True
        for node, above in _uses(tree, name):
            parent = above[-1]
            membership = (isinstance(parent, ast.Compare) and len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.In, ast.NotIn))
                          and parent.comparators[0] is node and not isinstance(parent.left, ast.Constant))
            in_raise = any(isinstance(a, ast.Raise) for a in above)
            assert membership or in_raise, f"{other}:{node.lineno} uses {name} other than as `x in {name}`"
    assert defined


def test_a_unit_sees_the_lists_cut_down_to_its_own_names():
    text = provenance.only_names('A = 1\nMETHODS = ("nope", "rope",\n  "alibi")  # kept\nB = ("x",)\n', ("METHODS",), {"alibi", "x"})
    assert text == 'A = 1\nMETHODS = (\'alibi\',)\nB = ("x",)\n'
    assert "METHODS = ()" in provenance.only_names('METHODS = ("nope",)\n', ("METHODS",), {"rope"})
    with pytest.raises(ValueError, match=r"no module-level tuple \['ROTARY'\] to cut down; update provenance.MEMBERSHIP_LISTS"):
        provenance.only_names('METHODS = ("nope",)\n', ("METHODS", "ROTARY"), {"nope"})
    # a list sharing a line with other code would take that code out of the hash
    with pytest.raises(ValueError, match="METHODS shares a line with other code; give it lines of its own"):
        provenance.only_names('METHODS = ("nope",); LR = 2.0\n', ("METHODS",), {"nope"})
    with pytest.raises(ValueError, match="METHODS shares a line with other code"):
        provenance.only_names('METHODS = ("nope",\n  "rope"); LR = 2.0\n', ("METHODS",), {"nope"})
    assert provenance.unit_names("train", "alibi") == {"alibi"}
    assert provenance.unit_names("extend", "pi") == {"rope", "pi"}  # it continues the seed's RoPE model


def _keys(files: dict[str, str], cfg=FULL) -> dict[tuple[str, str], str]:
    units = [("train", m) for m in config.METHODS] + [("extend", v) for v in config.EXTENSIONS] + [("train", "rope_copy")]
    encodings = provenance.encodings_sha256(cfg)
    return {(kind, name): provenance.unit_key(cfg, kind, name, encodings, files) for kind, name in units}


def test_adding_a_method_as_the_recipe_does_keeps_every_other_units_key():
    files = _sources()
    added = dict(files)
    # CONTRIBUTING.md's recipe, as tests/test_recipes.py performs it: the key in config.METHODS, a rotary method in model.py
    added["config.py"] = files["config.py"].replace('"rope", "rope_partial")', '"rope", "rope_partial", "rope_copy")', 1)
    added["model.py"] = files["model.py"].replace('ROTARY_METHODS = ("rope", "rope_partial")',
                                                  'ROTARY_METHODS = ("rope", "rope_partial", "rope_copy")', 1)
    assert added["config.py"] != files["config.py"] and added["model.py"] != files["model.py"]
    before, after = _keys(files), _keys(added)
    assert {u for u in before if before[u] != after[u]} == {("train", "rope_copy")}
    assert provenance.source_sha256(added) != provenance.source_sha256(files)  # the results file is the run's anew


def test_code_every_unit_runs_changes_every_key_and_a_config_field_too():
    files = _sources()
    changed = {**files, "train.py": files["train.py"] + "\nEXTRA = 1\n"}
    before, after = _keys(files), _keys(changed)
    assert all(before[u] != after[u] for u in before)
    other = _keys(files, cfg=config.Config(**{**FULL.to_dict(), "lr": 1e-3}))
    assert all(before[u] != other[u] for u in before)


def test_unit_key_is_the_cut_down_source_with_the_config_corpus_and_encodings(monkeypatch):
    from posenc.experiment import corpus

    key = provenance.unit_key(TINY, "extend", "yarn")
    assert re.fullmatch("[0-9a-f]{16}", key) and key == provenance.unit_key(TINY, "extend", "yarn")
    assert provenance.unit_key(TINY, "extend", "yarn", encodings=provenance.encodings_sha256(TINY)) == key
    assert provenance.unit_key(TINY, "extend", "yarn", encodings="0" * 64) != key  # posenc's encodings are in it
    assert provenance.unit_key(TINY, "extend", "pi") != key and provenance.unit_key(TINY, "train", "rope") != key
    assert provenance.unit_key(FULL, "extend", "yarn") != key  # and the config
    monkeypatch.setattr(corpus, "CORPUS_SHA256", "0" * 64)
    assert provenance.unit_key(TINY, "extend", "yarn") != key  # and the corpus
    keys = sweep.unit_keys(TINY, ("nope",), ("pi",))
    assert set(keys) == {("train", "nope"), ("train", "rope"), ("extend", "pi")}  # RoPE's: where extension units start
    assert keys["train", "rope"] == provenance.unit_key(TINY, "train", "rope")


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(provenance.PACKAGE_DIR), *args], capture_output=True, text=True)


# run.py's top-level names at SWEEP_MOVED_AT that went to sweep.py (the sweep: units, cache, workers, the results file)
MOVED = {"SCHEMA", "RESULTS_DIR", "CACHE_DIR", "results_path", "run_key", "unit_path", "weights_path", "_DATASETS",
         "_dataset", "compute_unit", "_write_atomically", "_STEPS", "_exit_with_parent", "_worker_init", "_worker",
         "_units", "run", "_run_parallel", "_interrupt"}


def _statements(source: str, drop: set[str] = frozenset()) -> list[str]:
    """A module's top-level statements other than imports, docstrings and the named definitions, as ast dumps."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            continue
        names = {t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)} | {getattr(node, "name", None)}
        target = getattr(node, "target", None)
        if isinstance(target, ast.Name):
            names.add(target.id)
        if names & drop:
            continue
        out.append(ast.dump(node))
    return out


def test_results_made_before_the_sweep_left_run_py_are_this_codes():
    commit = provenance.SWEEP_MOVED_AT
    if _git("cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        pytest.skip(f"commit {commit[:12]} is not in this clone's history (a shallow clone): nothing to derive from")
    old = {name: _git("show", f"{commit}:posenc/experiment/{name}").stdout for name in provenance.NUMBER_FILES}
    (before, now), = provenance.SUPERSEDED.items()
    assert provenance.source_sha256(old) == before, "SUPERSEDED's key is not the source hash of SWEEP_MOVED_AT's files"
    assert now == provenance.source_sha256(), "SUPERSEDED's value is not today's source hash: the results are out of date"
    current = _sources()
    for name in provenance.NUMBER_FILES:
        if name != "run.py":
            assert provenance.code_text(old[name]) == provenance.code_text(current[name]), name
    # run.py: the same statements once the sweep's are taken out, and each name it imports bound as it was then
    assert _statements(old["run.py"], MOVED) == _statements(current["run.py"]), "run.py: a statement that computes a number changed"
    assert _imports(current["run.py"]) <= _imports(old["run.py"])


def _imports(source: str) -> set[tuple]:
    return {(getattr(node, "module", None), getattr(node, "level", 0), alias.name, alias.asname)
            for node in ast.parse(source).body if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}


def test_verify_takes_a_superseded_source_hash_only_while_it_maps_to_todays(monkeypatch):
    from posenc.experiment import verify

    path = sweep.results_path("full")
    results = json.loads(path.read_text(encoding="utf-8"))
    recorded = results["code"]["source_sha256"]
    assert recorded in provenance.SUPERSEDED  # the committed results predate the move
    verify.check_provenance(results, path)
    monkeypatch.setattr(provenance, "SUPERSEDED", {recorded: "0" * 64})
    with pytest.raises(verify.StaleResults, match="produced by other experiment code"):
        verify.check_provenance(results, path)
    monkeypatch.setattr(provenance, "SUPERSEDED", {})
    with pytest.raises(verify.StaleResults, match="produced by other experiment code"):
        verify.check_provenance(results, path)
