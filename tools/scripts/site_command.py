"""The command line that builds or serves the site, for the scripts and tests that run it.

The generator is ProperDocs, the maintained fork of MkDocs 1.x, reading mkdocs.yml (MAINTAINING.md, "Maintenance").
It runs as a module, `python -m properdocs`: that puts the working folder on the import path, and the hooks
import posenc; its console script does not. `-f mkdocs.yml` names the config, so ProperDocs does not suggest
renaming it. The Makefile spells the same command out.
"""

from __future__ import annotations

import sys

GENERATOR = "properdocs"
CONFIG = "mkdocs.yml"


def site_command(action: str, *args: str, python: str = sys.executable) -> list[str]:
    """`python -m properdocs ACTION -f mkdocs.yml ARGS…`, run from the project's root (or a copy of it)."""
    if action not in ("build", "serve"):
        raise ValueError(f"site_command: {action!r} is not a site command; use 'build' or 'serve'")
    return [python, "-m", GENERATOR, action, "-f", CONFIG, *args]
