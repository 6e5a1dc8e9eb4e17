"""The build's steps are listed in one place: mkdocs.yml's ``hooks:``, in the order MkDocs runs them.

A module under tools/ that answers a MkDocs event (a top-level ``on_<event>``, defined or assigned) runs
only if that list names it; one it does not name is a guard or a step that silently never runs. So every
such module is listed, every listed file exists and answers an event, none is listed twice, and each entry
has its one-line comment above it (what the step does, read where the order is).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVENT = re.compile(r"on_[a-z_]+")


def _module_level(body):
    """The statements a module runs on import: its body, and the bodies of its top-level if/try/with blocks."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    yield from _module_level(child.body if isinstance(child, ast.ExceptHandler) else [child])


def events(path: Path) -> set[str]:
    """The MkDocs events a module answers: top-level ``def on_x`` or ``on_x = …``."""
    found = set()
    for node in _module_level(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        else:
            names = []
        found |= {name for name in names if EVENT.fullmatch(name)}
    return found


def hook_entries() -> list[tuple[str, str | None]]:
    """mkdocs.yml's ``hooks:`` list as written: each path and the comment line just above it (None if none)."""
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("hooks:")
    entries, comment = [], None
    for line in lines[start + 1:]:
        if line.startswith("  #"):
            comment = line.strip("# ").strip()
        elif line.startswith("  - "):
            entries.append((line[4:].strip(), comment))
            comment = None
        elif line.strip() and not line.startswith(" "):
            break
    return entries


def test_events_finds_defined_and_assigned_hooks(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def on_config(config):\n    pass\n\n"
                      "if True:\n    on_post_page = print\n\n"
                      "def helper():\n    on_nav = 1\n\n"
                      "on_files: int\nonly_this = 1\n", encoding="utf-8")
    assert events(source) == {"on_config", "on_post_page"}


def test_hook_list_reads_paths_and_their_comments():
    entries = hook_entries()
    assert entries, "mkdocs.yml has no hooks: list"
    assert all(path.startswith("tools/") and path.endswith(".py") for path, _ in entries), entries


def test_every_module_answering_an_event_is_a_listed_hook_and_the_reverse():
    listed = [path for path, _ in hook_entries()]
    assert len(listed) == len(set(listed)), f"a hook listed twice: {listed}"
    answering = {p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "tools").rglob("*.py")) if events(p)}
    assert answering - set(listed) == set(), (
        "these modules answer MkDocs events but mkdocs.yml's hooks: does not list them (they would never run): "
        f"{sorted(answering - set(listed))}")
    assert set(listed) - answering == set(), f"listed in hooks: but missing or answering no event: {sorted(set(listed) - answering)}"


def test_each_hook_entry_says_what_it_does():
    missing = [path for path, comment in hook_entries() if not comment]
    assert not missing, f"mkdocs.yml hooks: entries without their one-line comment above them: {missing}"
