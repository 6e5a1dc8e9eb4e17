"""Guardrail: `python -m properdocs serve` (`make serve`) shows an edited figure and an edited posenc module with the bytes a fresh
build draws, and a guard's errors without stopping (README: make serve). On a copy of the project, started from the session build's figure cache
as an author's checkout is; so this file runs after that build (tests/conftest.py), while the guardrails
that need no cache (tests/test_guardrails.py) run beside it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_guardrails import _copy, _edit
from tools.scripts.local_http import fetch, free_port
from tools.scripts.site_command import site_command

pytestmark = [pytest.mark.build, pytest.mark.long]




def _wait(what: str, check, proc, log: Path, timeout: float = 600.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        value = check()
        if value:
            return value
        if proc.poll() is not None:
            raise AssertionError(f"serve exited while waiting for {what}:\n{log.read_text()[-3000:]}")
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}:\n{log.read_text()[-3000:]}")


def _fresh_svgs(copy: Path, out: Path, *figures: str) -> dict[str, bytes]:
    """The figures drawn by one new process from the copy's sources, with an empty cache: what a clean build serves."""
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    only = [arg for figure in figures for arg in ("--only", figure)]
    subprocess.run([sys.executable, "-m", "figures_src.build", "--out", str(out), "--no-cache", *only],
                   cwd=copy, env=env, check=True, capture_output=True, timeout=600)
    return {figure: next(out.glob(f"{figure}.light.*.svg")).read_bytes() for figure in figures}


def _quantity(copy: Path, name: str) -> str:
    code = f"from posenc import quantities; print(quantities.text({name!r}))"
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, check=True, capture_output=True, text=True).stdout.strip()


def test_serve_shows_edited_figure_code_and_posenc_with_the_bytes_of_a_fresh_build(site_dir, tmp_path):
    # site_dir: only so that the session build has filled .cache/figures first (see the module docstring).
    copy = _copy(tmp_path, caches=True)
    port = free_port()
    log = tmp_path / "serve.log"
    # the Chinese site alone: what this checks does not depend on the language, and each rebuild takes half as long
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", POSENC_EXECUTE_NOTEBOOKS="false", POSENC_BUILD_ENGLISH="false")
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(site_command("serve", "-a", f"127.0.0.1:{port}"), cwd=copy, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/posenc/"
    try:
        # 1. edit a figure's code: the served SVG changes to what a fresh process draws
        svg_url = base + "figures/rope_conventions.light.svg"
        before = _wait("the first build", lambda: fetch(svg_url), proc, log)
        assert fetch(base + "lessons/04-rope/") and fetch(base + "en/lessons/04-rope/") is None  # POSENC_BUILD_ENGLISH=false
        _edit(copy / "figures_src" / "lesson4.py", "color=theme.muted, linewidth=0.8)", "color=theme.muted, linewidth=2.4)")
        served = _wait("the edited figure", lambda: (b := fetch(svg_url)) and b != before and b, proc, log)
        assert "figures redrawn in" in log.read_text(encoding="utf-8")  # by the warm figure worker, not a full build
        # (compared with a fresh process's drawing after step 2, which draws both figures at once; nothing between
        # changes this figure's code or data: a caption is the page's, and naive.py only lesson 2's figures use)

        # 1b. edit a figure's caption (its label table): the page that shows it is built again, alone
        _edit(copy / "figures_src" / "labels" / "zh.yaml", "两种代码写法的配对方式", "两种代码写法各自的配对方式")
        _wait("the figure's new caption", lambda: (b := fetch(base + "lessons/04-rope/")) and "两种代码写法各自的配对方式" in b.decode("utf-8"),
              proc, log)
        assert re.search(r"page-only rebuild of .*lessons/04-rope\.md \(zh\)", log.read_text(encoding="utf-8"))

        # 2. edit a posenc module: the page's numbers and the figure drawn from it follow. naive.py, which only
        # lesson 2's figures use, so that the rebuild redraws those and keeps every other figure from the cache.
        from posenc import examples as ex
        from posenc import quantities

        old_text = quantities.text("naive_ratio_unit")  # this process's posenc: the copy's before the edit
        _edit(copy / "posenc" / "naive.py", 'return _check.positive("content_rms", content_rms) / p\n',
              'return _check.positive("content_rms", content_rms) / (2 * p)\n')
        new_text = _quantity(copy, "naive_ratio_unit")
        assert new_text != old_text
        page = base + "lessons/02-learned-table/"
        expected = f"位置 {ex.NAIVE_PROBE_POSITION} 处是 {new_text}"
        _wait("the page's new numbers", lambda: (b := fetch(page)) and expected in b.decode("utf-8"), proc, log)
        fig = fetch(base + "figures/l2_naive_ratio.light.svg")
        fresh = _fresh_svgs(copy, tmp_path / "fresh", "rope_conventions", "l2_naive_ratio")
        assert served == fresh["rope_conventions"] and fig == fresh["l2_naive_ratio"]

        # 3. a typed number and an unknown name: serve prints both with file and line and keeps serving; fixed,
        # the page follows again (mkdocs-macros' on_error_fail would have ended the process: mkdocs.yml turns it off)
        lesson = copy / "docs" / "lessons" / "02-learned-table.md"
        original = lesson.read_text(encoding="utf-8")
        lesson.write_text(original + '\n手打的数字 4096，和 {{ num("sin_slowest_perid") }}。\n', encoding="utf-8")
        line = original.count("\n") + 2
        for message in (f"docs/lessons/02-learned-table.md:{line}: typed number '4096' in prose",
                        "docs/lessons/02-learned-table.md: a macro failed: UnknownNumber: unknown number 'sin_slowest_perid'"):
            _wait(message, lambda: message in log.read_text(encoding="utf-8"), proc, log)
        lesson.write_text(original.replace("## ", "## 改过 ", 1), encoding="utf-8")
        _wait("the page after the fix", lambda: (b := fetch(page)) and "改过 " in b.decode("utf-8"), proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
