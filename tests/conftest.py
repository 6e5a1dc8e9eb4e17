"""Shared fixtures. The site is built once per test session (strict mode) and
shared by every test that reads HTML; set POSENC_SITE_DIR to reuse a build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build_site(dest: Path, env_extra: dict | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", **(env_extra or {}))
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    """The built site. A strict build that fails fails every test that needs it, with MkDocs' output."""
    reuse = os.environ.get("POSENC_SITE_DIR")
    if reuse:
        return Path(reuse)
    dest = tmp_path_factory.mktemp("site")
    proc = build_site(dest)
    if proc.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}")
    return dest
