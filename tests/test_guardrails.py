"""Author guardrails, each shown failing the way CONTRIBUTING.md describes, on copies of the project (slow: builds).

- the guards run inside `mkdocs build --strict` and fail it with or without -q, naming the place: a typed
  number (the prose lint, with the page's file and line), an unknown name in a macro, a stale notebook, a
  glyph the figures' font lacks, a term before the lesson that teaches it, a universal claim without a fact,
  a symbol off the notation table;
- changing an example parameter updates every page and widget, or fails the build naming each place
  that cannot follow (a typed copy in prose, a JavaScript copy of a widget default);
- `mkdocs serve` shows an edited figure and an edited posenc module with the bytes a fresh build draws
  (tests/test_serve.py: it starts from the session build's figure cache, so it runs after that build).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_support import build_site, copy_project

pytestmark = [pytest.mark.build, pytest.mark.long]

PROSE_ONLY = {"POSENC_SKIP_FIGURES": "1", "POSENC_EXECUTE_NOTEBOOKS": "false"}
# The faulty copies' faults are all in Chinese sources, and what these tests read is the Chinese pages and the
# errors they name: their builds make the Chinese site alone, in half the time (the session's strict build runs
# every guard on the English pages).
CHINESE_ONLY = {"POSENC_BUILD_ENGLISH": "false"}


def _copy(tmp_path: Path, caches: bool = False) -> Path:
    return copy_project(tmp_path / "project", caches=("figures", "snippets") if caches else ())


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer contains {old!r}: update this test"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


GLYPH_PROBE = """from figures_src import figure


@figure("glyph_probe", alt="一张标题里有字体缺的字的图")
def glyph_probe(fig, theme):
    fig.add_subplot().set_title("位置 \\U0001fab8")  # a glyph no CJK font carries
"""


@pytest.fixture(scope="module")
def faulty_copy(tmp_path_factory) -> dict:
    """A copy of the project with one fault of each kind a guard reports, and where each must be named."""
    copy = _copy(tmp_path_factory.mktemp("faulty"), caches=True)
    lesson = copy / "docs" / "lessons" / "04-rope.md"
    typed_line = lesson.read_text(encoding="utf-8").count("\n") + 2
    with open(lesson, "a", encoding="utf-8") as f:
        f.write("\n这一段里有一个手打的数字 4096。\n")
    lesson2 = copy / "docs" / "lessons" / "02-learned-table.md"
    early_line = lesson2.read_text(encoding="utf-8").count("\n") + 4
    with open(lesson2, "a", encoding="utf-8") as f:
        f.write('\n最慢的一根指针要 {{ num("sin_slowest_perid") }} 个 token。\n')
        # lines early_line …: a term of lesson 5, a universal claim without a source, θ as an angle
        f.write("\n这里提前用了 YaRN。\n\n这是唯一的办法。\n\n转过的角度是 $\\cos\\theta$。\n")
    with open(copy / "docs" / "notebooks" / "lesson1.py", "a", encoding="utf-8") as f:
        f.write("\n# %%\nprint(1)\n")
    (copy / "figures_src" / "glyph_probe.py").write_text(GLYPH_PROBE, encoding="utf-8")
    return {
        "copy": copy,
        "pages": [f"docs/lessons/04-rope.md:{typed_line}: typed number '4096' in prose",
                  "docs/lessons/02-learned-table.md: a macro failed: UnknownNumber: unknown number 'sin_slowest_perid'. "
                  "Did you mean 'sin_slowest_period'",
                  "docs/notebooks/lesson1.ipynb differs from its source docs/notebooks/lesson1.py",
                  f"docs/lessons/02-learned-table.md:{early_line}: 'YaRN' is taught in lessons/05-long-context.md#yarn",
                  f"docs/lessons/02-learned-table.md:{early_line + 2}: '唯一' claims an only",
                  f"docs/lessons/02-learned-table.md:{early_line + 4}: notation: '\\\\cos\\\\theta' — θ is the base"],
        "figures": ["MissingGlyph: figure 'glyph_probe' (light)"],
    }


# The quietest build stands for every verbosity. `-q` shows and counts only errors (a warning never reaches
# --strict's count: the pitfall these guards avoid); a louder build shows and counts a superset of what `-q`
# does, so a fault that fails a `-q` build with its message fails any build with it. (Both verbosities were built
# here until 2026-12-05: 30 s of `make test` for a case the quiet one implies.)
QUIETEST = ("-q",)


def test_guards_fail_a_strict_build_at_any_verbosity_and_name_the_place(faulty_copy, tmp_path):
    """A typed number, an unknown name in a macro, a stale notebook, a term before its lesson, a universal claim
    without a source and θ as an angle each fail the build, named, even with -q (which drops warnings before
    --strict counts them: the guards report errors)."""
    proc = build_site(tmp_path / "site", env_extra=PROSE_ONLY | CHINESE_ONLY, cwd=faulty_copy["copy"], flags=QUIETEST)
    assert proc.returncode != 0, "the faults must fail mkdocs build --strict " + " ".join(QUIETEST)
    for message in faulty_copy["pages"]:
        assert message in proc.stderr, (message, proc.stderr[-4000:])


def test_a_missing_glyph_fails_a_strict_build_at_any_verbosity(faulty_copy, tmp_path):
    proc = build_site(tmp_path / "site", env_extra={"POSENC_EXECUTE_NOTEBOOKS": "false"} | CHINESE_ONLY, cwd=faulty_copy["copy"],
                      flags=QUIETEST)
    assert proc.returncode != 0
    for message in faulty_copy["figures"]:
        assert message in proc.stderr, (message, proc.stderr[-4000:])


def test_changing_an_example_updates_every_page_or_fails_naming_each_place(tmp_path):
    from posenc import examples as ex

    copy = _copy(tmp_path)
    new_dim = ex.SIN_DIM - 4
    _edit(copy / "posenc" / "examples.py", f"SIN_DIM = {ex.SIN_DIM}", f"SIN_DIM = {new_dim}")
    lesson = copy / "docs" / "lessons" / "03-sinusoidal.md"
    original = lesson.read_text(encoding="utf-8")
    n = original.count("\n")
    lesson.write_text(original + f"\n取 d = {ex.SIN_DIM} 时。\n\n拿「{ex.SENTENCE}」来说。\n", encoding="utf-8")

    proc = build_site(tmp_path / "site", env_extra=PROSE_ONLY | CHINESE_ONLY, cwd=copy)
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
    proc = build_site(tmp_path / "site", env_extra=PROSE_ONLY | CHINESE_ONLY, cwd=copy)
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
