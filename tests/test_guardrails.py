"""Author guardrails, each shown failing the way README describes, on copies of the project (slow: builds).

- the prose lint runs inside `mkdocs build --strict`: a typed number or example sentence fails the build
  with the page's file and line;
- changing an example parameter updates every page and widget, or fails the build naming each place
  that cannot follow (a typed copy in prose, a JavaScript copy of a widget default);
- `mkdocs serve` shows an edited figure and an edited posenc module with the bytes a fresh build draws.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from site_support import ROOT, build_site, copy_project

pytestmark = pytest.mark.build

PROSE_ONLY = {"POSENC_SKIP_FIGURES": "1", "POSENC_EXECUTE_NOTEBOOKS": "false"}


def _copy(tmp_path: Path, caches: bool = False) -> Path:
    copy = copy_project(tmp_path / "project")
    if caches:  # a warm start; entries are keyed on their inputs, so a copy of the same sources reuses them
        for name in ("figures", "snippets"):
            if (ROOT / ".cache" / name).is_dir():
                shutil.copytree(ROOT / ".cache" / name, copy / ".cache" / name)
    return copy


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer contains {old!r}: update this test"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_lint_runs_inside_a_strict_build_and_names_file_and_line(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# 标题\n\n最慢的一根要 19,869 个 token。\n\n公式 $2i/d$ 没问题。\n",
                                                 encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: lint\nhooks:\n  - {ROOT / 'tools' / 'prose_lint.py'}\n", encoding="utf-8")
    proc = build_site(tmp_path / "site", cwd=tmp_path)
    assert proc.returncode != 0, "a typed number must fail mkdocs build --strict"
    assert "docs/index.md:3: typed number '19,869' in prose" in proc.stderr
    (tmp_path / "docs" / "index.md").write_text("# 标题\n\n公式 $2i/d$ 没问题。\n", encoding="utf-8")
    assert build_site(tmp_path / "site", cwd=tmp_path).returncode == 0


def test_changing_an_example_updates_every_page_or_fails_naming_each_place(tmp_path):
    from posenc import examples as ex

    copy = _copy(tmp_path)
    new_dim = ex.SIN_DIM - 4
    _edit(copy / "posenc" / "examples.py", f"SIN_DIM = {ex.SIN_DIM}", f"SIN_DIM = {new_dim}")
    lesson = copy / "docs" / "lessons" / "03-sinusoidal.md"
    original = lesson.read_text(encoding="utf-8")
    n = original.count("\n")
    lesson.write_text(original + f"\n取 d = {ex.SIN_DIM} 时。\n\n拿「{ex.SENTENCE}」来说。\n", encoding="utf-8")

    proc = build_site(tmp_path / "site", env_extra=PROSE_ONLY, cwd=copy)
    assert proc.returncode != 0
    err = proc.stderr
    assert f"docs/lessons/03-sinusoidal.md:{n + 2}: typed number '{ex.SIN_DIM}' in prose" in err, err[-3000:]
    assert f"docs/lessons/03-sinusoidal.md:{n + 4}: typed example text '{ex.SENTENCE}' in prose" in err
    assert 'write {{ example("SENTENCE") }}' in err
    stale_js = []
    for js in sorted((copy / "docs" / "javascripts" / "widgets").glob("*.js")):
        if re.search(rf"^const DEFAULTS = \{{.*\bd: {ex.SIN_DIM}\b", js.read_text(encoding="utf-8"), re.M):
            stale_js.append(js.name)
            assert re.search(rf"widgets/{re.escape(js.name)}:\d+: d is {ex.SIN_DIM} in the JS copy but {new_dim}", err), js.name
    print(f"\nnamed: the two typed copies in lesson 3 and the stale JS defaults of {stale_js or 'no widget'}")

    # Update what cannot follow by itself (the prose, the JS copies): the build passes and shows the new example.
    lesson.write_text(original, encoding="utf-8")
    for name in stale_js:
        js = copy / "docs" / "javascripts" / "widgets" / name
        js.write_text(re.sub(rf"(^const DEFAULTS = \{{.*\bd: ){ex.SIN_DIM}\b", rf"\g<1>{new_dim}", js.read_text(encoding="utf-8"), flags=re.M),
                      encoding="utf-8")
    proc = build_site(tmp_path / "site", env_extra=PROSE_ONLY, cwd=copy)
    assert proc.returncode == 0, proc.stderr[-4000:]
    import math

    page3 = (tmp_path / "site" / "lessons" / "03-sinusoidal" / "index.html").read_text(encoding="utf-8")
    page4 = (tmp_path / "site" / "lessons" / "04-rope" / "index.html").read_text(encoding="utf-8")
    slowest = f"{2 * math.pi * 10_000 ** ((new_dim - 2) / new_dim):,.0f}"  # §3.5's last wavelength at the new d
    assert slowest in page3 and f"{2 * math.pi * 10_000 ** ((ex.SIN_DIM - 2) / ex.SIN_DIM):,.0f}" not in page3
    for page, widget in ((page3, "sin-clock"), (page3, "sin-heatmap"), (page3, "sin-dot"), (page4, "rope-pair")):
        tag = re.search(rf'<div class="pe-widget"[^>]*data-pe-widget="{widget}"[^>]*>', page).group(0)
        assert f'data-d="{new_dim}"' in tag, (widget, tag)
    nb = (copy / "docs" / "notebooks" / "lesson3.py").read_text(encoding="utf-8")
    assert "ex.SIN_DIM" in nb and f"= {ex.SIN_DIM}" not in nb  # the notebook reads the example when it runs


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.read()
    except (urllib.error.URLError, OSError):
        return None


def _wait(what: str, check, proc, log: Path, timeout: float = 600.0):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        value = check()
        if value:
            return value
        if proc.poll() is not None:
            raise AssertionError(f"mkdocs serve exited while waiting for {what}:\n{log.read_text()[-3000:]}")
        time.sleep(1.0)
    raise AssertionError(f"timed out waiting for {what}:\n{log.read_text()[-3000:]}")


def _fresh_svg(copy: Path, out: Path, figure: str) -> bytes:
    """The figure drawn by a new process from the copy's sources, with an empty cache: what a clean build serves."""
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    subprocess.run([sys.executable, "-m", "figures_src.build", "--out", str(out), "--no-cache", "--only", figure],
                   cwd=copy, env=env, check=True, capture_output=True, timeout=600)
    [svg] = out.glob(f"{figure}.light.*.svg")
    return svg.read_bytes()


def _quantity(copy: Path, name: str) -> str:
    code = f"from posenc import quantities; print(quantities.text({name!r}))"
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, check=True, capture_output=True, text=True).stdout.strip()


def test_serve_shows_edited_figure_code_and_posenc_with_the_bytes_of_a_fresh_build(site_dir, tmp_path):
    # site_dir: only so that the session build has filled .cache/figures first. The copy then starts warm,
    # as an author's checkout does, instead of drawing every figure once more before the edits.
    copy = _copy(tmp_path, caches=True)
    port = _free_port()
    log = tmp_path / "serve.log"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", POSENC_EXECUTE_NOTEBOOKS="false")
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=copy, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/posenc/"
    try:
        # 1. edit a figure's code: the served SVG changes to what a fresh process draws
        svg_url = base + "figures/rope_conventions.light.svg"
        before = _wait("the first build", lambda: _get(svg_url), proc, log)
        _edit(copy / "figures_src" / "lesson4.py", "color=theme.muted, linewidth=0.8)", "color=theme.muted, linewidth=2.4)")
        served = _wait("the edited figure", lambda: (b := _get(svg_url)) and b != before and b, proc, log)
        assert served == _fresh_svg(copy, tmp_path / "fresh1", "rope_conventions")

        # 2. edit a posenc module: the page's numbers and the figure drawn from it follow
        from posenc import examples as ex

        old_alt = _quantity(copy, "naive_ratio_unit")
        _edit(copy / "posenc" / "examples.py", f"NAIVE_PROBE_POSITION = {ex.NAIVE_PROBE_POSITION}",
              f"NAIVE_PROBE_POSITION = {ex.NAIVE_PROBE_POSITION + 1}")
        new_text = _quantity(copy, "naive_ratio_unit")
        assert new_text != old_alt
        page = base + "lessons/02-learned-table/"
        expected = f"位置 {ex.NAIVE_PROBE_POSITION + 1} 处是 {new_text}"
        _wait("the page's new numbers", lambda: (b := _get(page)) and expected in b.decode("utf-8"), proc, log)
        fig = _get(base + "figures/l2_naive_ratio.light.svg")
        assert fig == _fresh_svg(copy, tmp_path / "fresh2", "l2_naive_ratio")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
