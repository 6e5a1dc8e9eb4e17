"""Shared fixtures. The site is built once per test session (strict mode) and
shared by every test that reads HTML; set POSENC_SITE_DIR to reuse a build.

The build starts in the background as soon as the tests are collected, and the test files
that need it run after those that do not, so the other tests run while it builds instead of
waiting for it (``make test``: two xdist workers, one build).

Hypothesis: under ``CI=true`` (GitHub Actions sets it; ``make mutation`` does too) the
"ci" profile derandomizes every property test, so a run is reproducible and never
fails on an example no one has seen; an example a local (random) run finds is pinned
in the test with ``@example``. Settings a test gives itself (max_examples, deadline)
still apply.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

import pytest
from hypothesis import settings

from site_support import CACHES, ROOT, Turns, build_site  # noqa: F401  (build_site re-exported for older imports)

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")


def _share_the_cores() -> None:
    """Under xdist, give each worker its share of the cores for torch's threads, in this process and in the
    processes it starts (site builds, notebook kernels, snippets: OMP_NUM_THREADS).

    By default each worker's torch uses every core; with two workers on two cores each then waits on
    threads the other worker's work has preempted (a training test took 43 s instead of 16 s)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        import torch

        threads = max(1, (os.cpu_count() or 1) // workers)
        os.environ["OMP_NUM_THREADS"] = str(threads)
        torch.set_num_threads(threads)


_share_the_cores()


class SharedSite:
    """One strict build of the site in a folder every xdist worker of this run can see.

    Each worker is a pytest session of its own. Whoever first takes the lock builds; everyone
    else waits on the lock and then reads the same files (or the same failure).
    """

    def __init__(self, folder: Path):
        self.dest, self.done, self.failed = folder / "site", folder / "site.done", folder / "site.failed"
        self.lock = folder / "site.lock"
        self.start, self.start_lock = folder / "site.start", folder / "site.start.lock"

    def note_start(self) -> None:
        """Record, before any build of this run starts, whether the build will start from empty caches.

        Every worker calls this before it starts its build thread, so whichever is first writes the record
        while the project's caches are still as the run found them."""
        with open(self.start_lock, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not self.start.exists():
                cold = not any(p.is_file() for name in CACHES for p in (ROOT / ".cache" / name).rglob("*"))
                self.start.write_text("empty caches" if cold else "warm caches", encoding="utf-8")

    def started_cold(self) -> bool:
        return self.start.exists() and self.start.read_text(encoding="utf-8") == "empty caches"

    def build_once(self) -> None:
        with open(self.lock, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if self.done.exists() or self.failed.exists():
                return
            proc = build_site(self.dest)
            if proc.returncode != 0:
                self.failed.write_text(f"the strict site build (python -m properdocs) failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}",
                                       encoding="utf-8")
            else:
                self.done.touch()

    def path(self) -> Path:
        """The built site; fails the calling test with MkDocs' output if the build failed."""
        self.build_once()
        if self.failed.exists():
            pytest.fail(self.failed.read_text(encoding="utf-8"))
        return self.dest


def _run_folder(config: pytest.Config) -> Path:
    """A folder every xdist worker of this run sees: under xdist each worker's base temp is a subfolder of the
    controller's (the session's tmp_path_factory, pytest's tmpdir plugin)."""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


def _shared_site(config: pytest.Config) -> SharedSite:
    return SharedSite(_run_folder(config))  # built there, once for all workers


def _needs_site(item: pytest.Item) -> bool:
    return "site_dir" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config, items):
    """Order the files for ``make test``'s two workers: those that do not read the built site first (they
    run while it builds), then those that do; within each group the files marked ``long`` first, so that
    no long file is left to run alone at the end; otherwise in collection order.

    pytest-xdist keeps this order only with --no-loadscope-reorder (pyproject's addopts): by default
    --dist loadfile sends the files with the most tests first, whatever their cost.
    """
    site_files = {item.path for item in items if _needs_site(item)}
    long_files = {item.path for item in items if item.get_closest_marker("long")}
    items.sort(key=lambda item: (item.path in site_files, item.path not in long_files))


def pytest_collection_finish(session):
    """Start the shared build now, in the background, if any selected test will read it."""
    if os.environ.get("POSENC_SITE_DIR") or session.config.option.collectonly:
        return
    if any(_needs_site(item) for item in session.items):
        _shared_site(session.config).note_start()
        threading.Thread(target=_shared_site(session.config).build_once, name="site-build", daemon=True).start()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not hasattr(item.config, "workerinput"):  # one process: nothing else runs beside a test
        return (yield)
    alone = item.get_closest_marker("alone") is not None
    if alone and _needs_site(item) and not os.environ.get("POSENC_SITE_DIR"):
        _shared_site(item.config).build_once()  # not while holding the others back (a failed build fails in the fixture)
    held = Turns(_run_folder(item.config)).hold(alone)
    try:
        return (yield)
    finally:
        for f in held:
            f.close()


@pytest.fixture(scope="session")
def site_built_from_empty_caches(pytestconfig) -> bool:
    """Whether this run's shared build started with empty figure, snippet, notebook and KaTeX caches (a fresh clone,
    as in CI): it then drew, ran and rendered everything itself. False for a reused build (POSENC_SITE_DIR)."""
    if os.environ.get("POSENC_SITE_DIR"):
        return False
    return _shared_site(pytestconfig).started_cold()


@pytest.fixture(scope="session")
def site_dir(pytestconfig) -> Path:
    """The built site. A strict build that fails fails every test that needs it, with MkDocs' output."""
    reuse = os.environ.get("POSENC_SITE_DIR")
    if reuse:
        return Path(reuse)
    return _shared_site(pytestconfig).path()
