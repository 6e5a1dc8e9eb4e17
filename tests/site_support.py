"""Helpers shared by tests: the project root and a strict site build.

A plain module, not conftest.py: tests/ and tests/browser/ both have a
conftest, so ``from conftest import`` would be ambiguous.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tools.scripts.site_command import site_command

ROOT = Path(__file__).resolve().parent.parent


def build_site(dest: Path, env_extra: dict | None = None, cwd: Path = ROOT, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """``python -m properdocs build --strict`` into ``dest`` (tools/scripts/site_command.py); ``flags`` adds options
    (``("-q",)`` for a quiet build)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", **(env_extra or {}))
    return subprocess.run(
        site_command("build", "--strict", *flags, "-d", str(dest)),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


# The build's caches under .cache/, each keyed on its inputs (tools/build/ and figures_src/build.py: figures,
# snippets, executed notebooks, KaTeX's formulas and font subsets).
CACHES = ("figures", "snippets", "mkdocs-jupyter", "katex", "katex-fonts")

# What a copy of the project leaves out: build outputs, caches and environments (node_modules is linked instead).
COPY_IGNORE = shutil.ignore_patterns(".venv", "site", "node_modules", ".cache", ".git", "__pycache__", ".hypothesis",
                                     ".pytest_cache", "experiment_runs")


def copy_project(dest: Path, caches: tuple[str, ...] = ()) -> Path:
    """A copy of the project's sources at ``dest``, sharing this checkout's node_modules. Its caches are empty
    but for those named in ``caches`` (of CACHES), copied from this checkout: entries are keyed on their inputs,
    so a copy of the same sources reuses them (a warm start)."""
    shutil.copytree(ROOT, dest, ignore=COPY_IGNORE)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    for name in caches:
        if (ROOT / ".cache" / name).is_dir():
            shutil.copytree(ROOT / ".cache" / name, dest / ".cache" / name)
    return dest
