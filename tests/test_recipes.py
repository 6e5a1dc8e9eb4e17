"""CONTRIBUTING.md's recipe "Add a model", performed on a copy of the project exactly as it is written.

A stub RoPE model with partial rotary and a YaRN factor goes into posenc/data/models.yaml, one quantity
computed from it into posenc/quantities/lesson5.py, and its macro call into lesson 5 in both languages. Then:
the change touches at most three files outside tests/ and posenc/data/ (so no hidden list elsewhere must
follow), the registry computes the number, lesson 5 renders in both languages through the build's own macros
and passes the build's page guards, and tests/test_configs.py passes on the copy (it types no set of models).
Everything runs in the copy's own Python processes, so the copy's posenc is the one imported. Rendering lesson 5 imports
torch and the experiment's claims (about 15 CPU-seconds); the full strict build of the copy would take minutes.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

from site_support import COPY_IGNORE, ROOT, copy_project

# the recipe's step 1: an entry with a source and a tag for every field (U: a made-up model, unverified)
STUB_MODEL = """
stub_2026:
  name: Stub-2026 (hypothetical)
  position: rope
  fields:
    context:
      value: 65536
      source: a stub for tests/test_recipes.py, not a real model
      tag: U
    head_dim:
      value: 128
      source: a stub for tests/test_recipes.py, not a real model
      tag: U
    rope_theta:
      value: 5000000
      source: a stub for tests/test_recipes.py, not a real model
      tag: U
    rotary_fraction:
      value: 0.5
      source: a stub for tests/test_recipes.py, not a real model
      tag: U
    scaling:
      value: {rope_type: yarn, factor: 4.0, original_max_position_embeddings: 65536}
      source: a stub for tests/test_recipes.py, not a real model
      tag: U
    scaled_context:
      value: 262144
      source: a stub for tests/test_recipes.py, not a real model
      tag: U
"""

# step 2: one quantity, named by the scheme (a per-model count ends in the model's key)
STUB_QUANTITY = '''

@number("yarn_interpolated_stub_2026", ",", "假想模型 Stub-2026 的 YaRN 中频率整体除以缩放倍数的频率对数")
def _():
    return _yarn("stub_2026").interpolated
'''

# step 3: the macro call in the lesson, in both languages, after the paragraph on Qwen3-8B's split
LESSON = "docs/lessons/05-long-context"
ANCHOR = '{{ num("qwen3_yarn_interpolated") }}'
STUB_PROSE = {
    "zh": '\n一个假想模型 {{ cfg("stub_2026", "rope_theta") }} 也用 YaRN：它整体除以缩放倍数的频率对有 '
          '{{ num("yarn_interpolated_stub_2026") }} 对。\n',
    "en": '\nA hypothetical model {{ cfg("stub_2026", "rope_theta") }} also uses YaRN: '
          '{{ num("yarn_interpolated_stub_2026") }} of its pairs are divided by the factor as a whole.\n',
}

# lesson 5 through tools/build/macros.py (tests/macro_env.py) and the build's page guards, in the copy's Python
RENDER_AND_GUARD = """
import sys
from pathlib import Path
sys.path[:0] = [".", "tests"]
from macro_env import MacroEnv
from tools.guards import concept_order, notation, prose_lint, universal_claims

pages = ["lessons/05-long-context.md", "lessons/05-long-context.en.md"]
for page in pages:
    html = MacroEnv(page).render((Path("docs") / page).read_text(encoding="utf-8"))
    line = next(l for l in html.splitlines() if "假想模型" in l or "hypothetical model" in l)
    print(page, "::", line)
from posenc.quantities import text
print("value ::", text("yarn_interpolated_stub_2026"))
paths = [Path("docs") / page for page in pages]
findings = [*prose_lint.lint(paths), *concept_order.check_files(paths), *notation.check_files(paths),
            *universal_claims.check_files(paths)]
for finding in findings:
    print("FINDING", finding)
sys.exit(1 if findings else 0)
"""


def _python(copy: Path, *args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    env = dict(os.environ, POSENC_SKIP_FIGURES="1", POSENC_EXECUTE_NOTEBOOKS="false", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


def _add_after(path: Path, anchor: str, text: str) -> None:
    source = path.read_text(encoding="utf-8")
    at = source.index(anchor)
    end = source.index("\n", at)
    path.write_text(source[:end + 1] + text + source[end + 1:], encoding="utf-8")


def _changed_outside_tests_and_data(copy: Path) -> list[str]:
    """Files added, removed or changed in the copy, compared with this checkout, outside tests/ and posenc/data/
    (what copy_project leaves out, caches and build outputs, is skipped at every level, as the copy skipped it)."""
    changed = []

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        if rel in ("tests", "posenc/data"):
            return
        names = cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files + list(cmp.subdirs)
        skip = COPY_IGNORE(cmp.left, names) | {"node_modules"}
        for name in cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files:
            if name not in skip:
                changed.append(f"{rel}/{name}".lstrip("/"))
        for name, sub in cmp.subdirs.items():
            if name not in skip:
                walk(sub, f"{rel}/{name}".lstrip("/"))

    walk(filecmp.dircmp(ROOT, copy, ignore=[]), "")
    return sorted(changed)


@pytest.fixture(scope="module")
def copy_with_a_new_model(tmp_path_factory) -> Path:
    copy = copy_project(tmp_path_factory.mktemp("recipe") / "project")
    with open(copy / "posenc/data/models.yaml", "a", encoding="utf-8") as f:
        f.write(STUB_MODEL)
    with open(copy / "posenc/quantities/lesson5.py", "a", encoding="utf-8") as f:
        f.write(STUB_QUANTITY)
    for lang, suffix in (("zh", ".md"), ("en", ".en.md")):
        _add_after(copy / (LESSON + suffix), ANCHOR, STUB_PROSE[lang])
    return copy


def test_adding_a_model_changes_at_most_three_files_outside_tests_and_data(copy_with_a_new_model):
    changed = _changed_outside_tests_and_data(copy_with_a_new_model)
    assert changed == ["docs/lessons/05-long-context.en.md", "docs/lessons/05-long-context.md",
                       "posenc/quantities/lesson5.py"]


def test_the_registry_computes_the_new_models_quantity(copy_with_a_new_model):
    # the stub's settings typed again here: half of its 128 dimensions rotate, so YaRN splits 32 pairs
    script = ("from posenc import scaling; from posenc.quantities import value\n"
              "p = scaling.yarn_pairs(head_dim=128, base=5_000_000, factor=4.0, original_context=65536, rotary_fraction=0.5)\n"
              "print(value('yarn_interpolated_stub_2026'), p.interpolated, p.kept + p.blended + p.interpolated)")
    done = _python(copy_with_a_new_model, "-c", script)
    assert done.returncode == 0, done.stderr[-3000:]
    got, expected, pairs = map(int, done.stdout.split())
    assert got == expected and pairs == 32 and 0 < got < pairs


def test_lesson5_renders_the_new_number_and_passes_the_page_guards(copy_with_a_new_model):
    done = _python(copy_with_a_new_model, "-c", RENDER_AND_GUARD)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    shown = dict(line.split(" :: ", 1) for line in done.stdout.splitlines() if " :: " in line)
    number = shown.pop("value")
    assert len(shown) == 2
    for page, line in shown.items():
        assert "{{" not in line and "5,000,000" in line and f" {number} " in line, (page, line)


def test_test_configs_passes_on_the_copy(copy_with_a_new_model):
    done = _python(copy_with_a_new_model, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                   "tests/test_configs.py")
    assert done.returncode == 0, done.stdout[-3000:]
