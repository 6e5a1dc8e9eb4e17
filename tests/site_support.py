"""Helpers shared by tests: the project root and a strict site build.

A plain module, not conftest.py: tests/ and tests/browser/ both have a
conftest, so ``from conftest import`` would be ambiguous.
"""

from __future__ import annotations

import fcntl
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


class Turns:
    """Under xdist, tests run side by side, except that a test marked ``alone`` runs with every other worker paused.

    A measurement of time (tests/browser/test_phone_load.py: a page's first load on an emulated phone) measures the
    other worker's tests too when they run beside it: lesson 5 loaded in 5.7-5.8 s with nothing else running and in
    6.3-7.3 s beside the other worker, here and on CI. So every test holds a shared lock on one file while it runs
    (setup, call and teardown, so a module's fixtures count), and a test marked ``alone`` holds it exclusively: it
    starts once the other workers' running tests end and keeps theirs from starting until it ends. flock takes no
    turns, so a waiting ``alone`` test could be overtaken again and again by the next tests; every test therefore
    passes a turnstile first, which the ``alone`` test holds while it waits.
    """

    def __init__(self, folder: Path):
        self.turnstile, self.room = folder / "turns.turnstile", folder / "turns.room"

    def hold(self, alone: bool):
        turnstile, room = open(self.turnstile, "a"), open(self.room, "a")
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        if not alone:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if alone:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        return room, turnstile  # closing both releases the room
