"""Gate: a clean build of a fresh copy of the project is byte-identical to the session's build.

The copy's build does not need the session build, so this file asks for ``site_dir`` only once its
own build is done (``request.getfixturevalue``): the two builds then run at the same time, one on
each core, instead of one after the other (tests/conftest.py runs files that ask for ``site_dir``
up front after the others, and starts the session build in the background).
"""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

import pytest

from site_support import build_site, copy_project

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


def _digests(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_clean_build_is_byte_identical(request, tmp_path):
    """Build a fresh copy of the project (empty figure, snippet and notebook caches) and compare.

    The session build may reuse cached figures and executed notebooks; the copy draws and runs
    everything from scratch, so this also checks that a cache hit gives the same bytes as a redraw.
    """
    copy = copy_project(tmp_path / "project")
    # the copy has no .git: it names the commit the session's build found (its notebooks and Colab links carry it)
    from tools.notebook_download import build_commit

    proc = build_site(tmp_path / "site", env_extra={"POSENC_BUILD_COMMIT": build_commit() or ""}, cwd=copy)
    assert proc.returncode == 0, proc.stderr[-4000:]
    site_dir = request.getfixturevalue("site_dir")  # only now: see the module docstring
    a, b = _digests(site_dir), _digests(tmp_path / "site")
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    assert not only_a and not only_b, f"files only in the session build: {only_a}; only in the clean build: {only_b}"
    differ, normalised = [], []
    for name in sorted(a):
        if a[name] == b[name]:
            continue
        norm = TIME_STAMPED.get(name)
        if norm and norm(a[name]) == norm(b[name]):
            normalised.append(name)
            continue
        differ.append(f"{name} ({hashlib.sha256(a[name]).hexdigest()[:10]} vs {hashlib.sha256(b[name]).hexdigest()[:10]})")
    print(f"\nclean build vs session build: {len(a)} files, {len(a) - len(differ) - len(normalised)} byte-identical"
          + (f"; equal after removing build timestamps: {', '.join(normalised)}" if normalised else ""))
    assert not differ, (
        f"{len(differ)} file(s) differ between two builds of the same tree. Either the output depends on "
        f"something besides the source (time, randomness, paths), or the session build used a stale cache entry "
        f"(.cache/figures, .cache/snippets, .cache/mkdocs-jupyter), or files were edited during the run:\n  "
        + "\n  ".join(differ[:40])
    )
