"""Gate: two builds of the same sources, one that draws and runs everything and one that takes it all from the
caches, are byte-identical; and MkDocs 1.6.1 writes what ProperDocs writes.

The session build runs the project's generator, ProperDocs (tools/scripts/site_command.py); a copy of the project
is built with MkDocs 1.6.1, which stays installed because Material and the plugins declare it (``python -m mkdocs``
runs it, ``python -m properdocs`` redirects every ``mkdocs.*`` import to ProperDocs). One comparison then shows both
that a cache hit gives the same bytes as a redraw and that the move to ProperDocs changed nothing but the
generator's name in each page's ``<meta name="generator">``; a failure names the files, and the generator tags say
which build wrote which. When the project stops installing mkdocs, build the copy with ProperDocs instead, on purpose.

Which of the two builds draws from scratch depends on the checkout (tests/conftest.py records it before the session
build starts):
- the session build started from empty caches (a fresh clone, as in CI): it drew every figure, ran every notebook and
  rendered every formula itself, so the copy starts from the caches that build filled, and takes everything from
  them. It waits for the session build, and costs a tenth of a cold build;
- the session build started from an author's warm caches: it took what it could from them, so the copy starts from
  empty caches and draws and runs everything. It needs nothing from the session build, so it asks for ``site_dir``
  only once its own build is done (``request.getfixturevalue``): the two builds run at the same time, one on each
  core (tests/conftest.py runs files that ask for ``site_dir`` up front after the others, and starts the session
  build in the background).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from site_support import CACHES, copy_project

pytestmark = [pytest.mark.build, pytest.mark.long]


def _normalise_sitemap(data: bytes) -> bytes:
    return re.sub(rb"<lastmod>[^<]*</lastmod>", b"<lastmod/>", data)


# Files that carry the build time, and how they are compared instead of byte for byte.
# Both take their time from SOURCE_DATE_EPOCH when it is set (mkdocs.utils.get_build_datetime);
# set it (e.g. to the last commit's time) to make these byte-identical as well.
TIME_STAMPED = {
    "sitemap.xml": _normalise_sitemap,  # <lastmod> is the build date
    "sitemap.xml.gz": lambda b: _normalise_sitemap(gzip.decompress(b)),  # + the gzip header's mtime
}


GENERATOR_META = re.compile(rb'<meta name="generator" content="([^"]*)"\s*/?>')


def _without_generator(data: bytes) -> bytes:
    return GENERATOR_META.sub(b'<meta name="generator">', data)


def _generators(files: dict[str, bytes]) -> set[str]:
    return {m.decode().split(",")[0] for name, data in files.items() if name.endswith(".html")
            for m in GENERATOR_META.findall(data)}


def _digests(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_clean_build_is_byte_identical(request, tmp_path, site_built_from_empty_caches):
    """Build a copy of the project and compare: one of the two builds drew, ran and rendered everything, the
    other took everything from the caches (the module docstring says which is which)."""
    if site_built_from_empty_caches:
        request.getfixturevalue("site_dir")  # its build has now filled the caches: the copy takes them all
    copy = copy_project(tmp_path / "project", caches=CACHES if site_built_from_empty_caches else ())
    # the copy has no .git: it names the commit the session's build found (its notebooks and Colab links carry it)
    from tools.build.notebook_download import build_commit

    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", POSENC_BUILD_COMMIT=build_commit() or "")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=copy, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"MkDocs 1.6.1 no longer builds a clean copy of the site:\n{proc.stderr[-4000:]}"
    site_dir = request.getfixturevalue("site_dir")  # only now: see the module docstring
    a, b = _digests(site_dir), _digests(tmp_path / "site")
    # each build is the generator it claims to be: otherwise this would compare one generator with itself
    assert _generators(a) == {"mkdocs-ProperDocs 1.6.7"}, _generators(a)
    assert _generators(b) == {"mkdocs-1.6.1"}, _generators(b)
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    assert not only_a and not only_b, f"files only in the session build: {only_a}; only in the clean build: {only_b}"
    differ, normalised = [], []
    for name in sorted(a):
        if a[name] == b[name]:
            continue
        if name.endswith(".html") and _without_generator(a[name]) == _without_generator(b[name]):
            continue
        norm = TIME_STAMPED.get(name)
        if norm and norm(a[name]) == norm(b[name]):
            normalised.append(name)
            continue
        differ.append(f"{name} ({hashlib.sha256(a[name]).hexdigest()[:10]} vs {hashlib.sha256(b[name]).hexdigest()[:10]})")
    print(f"\nclean build vs session build: {len(a)} files, {len(a) - len(differ) - len(normalised)} byte-identical"
          + (f"; equal after removing build timestamps: {', '.join(normalised)}" if normalised else ""))
    assert not differ, (
        f"{len(differ)} file(s) differ between two builds of the same tree. Either MkDocs and ProperDocs write "
        f"different bytes, or the output depends on "
        f"something besides the source (time, randomness, paths), or the session build used a stale cache entry "
        f"(.cache/figures, .cache/snippets, .cache/mkdocs-jupyter), or files were edited during the run:\n  "
        + "\n  ".join(differ[:40])
    )
