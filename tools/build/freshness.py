"""A long-running MkDocs process (`mkdocs serve`) must not build with code it imported before an edit.

Python imports a module once per process. `mkdocs serve` rebuilds in the same process, so
after an edit to posenc/ or figures_src/ it would otherwise keep computing numbers, alt text
and cache keys with the old code. Before every build the hooks call ``forget_changed_code()``:
if any source under posenc/, figures_src/ or tools/ changed since the last build, every module
imported from the changed folder and from the folders that import it is dropped from ``sys.modules``
(with the bytecode cached for the changed files), so this build imports them again from disk. The
folders import in one direction only (``FOLDERS``: figure code imports posenc, never tools; posenc
imports neither): an edit to figure code keeps posenc and the quantities it has computed. A build
with no change imports nothing again.

This module keeps the snapshot between builds, so it is never dropped itself.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# each folder's modules import from the folders before it only (tests/test_layering.py checks)
FOLDERS = ("posenc", "figures_src", "tools")
PATTERNS = ("*.py", "*.yaml", "*.json")

_snapshot: dict[Path, str] | None = None


def snapshot() -> dict[Path, str]:
    """sha256 of every source and data file under FOLDERS."""
    out = {}
    for folder in FOLDERS:
        for pattern in PATTERNS:
            for path in (ROOT / folder).rglob(pattern):
                if "__pycache__" not in path.parts:
                    out[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _project_module(module, folders=FOLDERS) -> bool:
    file = getattr(module, "__file__", None)
    if not file or module.__name__ in (__name__, "tools"):
        return False
    path = Path(file).resolve()
    return any(path.is_relative_to(ROOT / folder) for folder in folders)


def _stale_folders(changed: list[Path]) -> tuple[str, ...]:
    """The folders whose modules may hold old code after ``changed``: the first changed one and all after it."""
    first = min(next(i for i, folder in enumerate(FOLDERS) if path.is_relative_to(ROOT / folder)) for path in changed)
    return FOLDERS[first:]


def forget_changed_code() -> list[Path]:
    """Drop the project's imported modules if any of its files changed since the last call; return the changed files."""
    global _snapshot
    now = snapshot()
    if _snapshot is None:
        _snapshot = now
        return []
    changed = sorted(p for p in now.keys() | _snapshot.keys() if now.get(p) != _snapshot.get(p))
    if changed:
        stale = _stale_folders(changed)
        for name in [n for n, m in list(sys.modules.items()) if _project_module(m, stale)]:
            del sys.modules[name]
        for path in changed:
            if path.suffix == ".py":
                # Python trusts a .pyc whose recorded mtime (whole seconds) and size match: an edit of the
                # same length within the same second would otherwise import the old bytecode
                Path(importlib.util.cache_from_source(str(path))).unlink(missing_ok=True)
        importlib.invalidate_caches()
    _snapshot = now
    return changed
