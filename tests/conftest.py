"""Shared fixtures. The site is built once per test session (strict mode) and
shared by every test that reads HTML; set POSENC_SITE_DIR to reuse a build.

Hypothesis: under ``CI=true`` (GitHub Actions sets it; ``make mutation`` does too) the
"ci" profile derandomizes every property test, so a run is reproducible and never
fails on an example no one has seen; an example a local (random) run finds is pinned
in the test with ``@example``. Settings a test gives itself (max_examples, deadline)
still apply.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from hypothesis import settings

from site_support import ROOT, build_site  # noqa: F401  (re-exported for older imports)

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory, worker_id) -> Path:
    """The built site. A strict build that fails fails every test that needs it, with MkDocs' output.

    Under pytest-xdist (``make test`` runs two workers) each worker is a session of its own: the
    first to need the site builds it into the directory the workers share, under a lock, and the
    others wait for it and read the same files (or the same failure).
    """
    reuse = os.environ.get("POSENC_SITE_DIR")
    if reuse:
        return Path(reuse)
    shared = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    dest, done, failed = shared / "site", shared / "site.done", shared / "site.failed"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists() and not failed.exists():
            proc = build_site(dest)
            if proc.returncode != 0:
                failed.write_text(f"mkdocs build --strict failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}", encoding="utf-8")
            else:
                done.touch()
    if failed.exists():
        pytest.fail(failed.read_text(encoding="utf-8"))
    return dest
