"""Shared fixtures. The site is built once per test session (strict mode) and
shared by every test that reads HTML; set POSENC_SITE_DIR to reuse a build.

Hypothesis: under ``CI=true`` (GitHub Actions sets it; ``make mutation`` does too) the
"ci" profile derandomizes every property test, so a run is reproducible and never
fails on an example no one has seen; an example a local (random) run finds is pinned
in the test with ``@example``. Settings a test gives itself (max_examples, deadline)
still apply.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from site_support import ROOT, build_site  # noqa: F401  (re-exported for older imports)

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")


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
