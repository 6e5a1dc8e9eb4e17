"""Shared fixtures. The site is built once per test session (strict mode) and
shared by every test that reads HTML; set POSENC_SITE_DIR to reuse a build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from site_support import ROOT, build_site  # noqa: F401  (re-exported for older imports)


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
