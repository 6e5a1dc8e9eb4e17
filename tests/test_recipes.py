"""CONTRIBUTING.md's recipes "Add a model" and "Add a position method to the training experiment", each performed
on a copy of the project exactly as it is written.

Add a model: a stub RoPE model with partial rotary and a YaRN factor goes into posenc/data/models.yaml, one quantity
computed from it into posenc/quantities/lesson5.py, and its macro call into lesson 5 in both languages. Then:
the change touches at most three files outside tests/ and posenc/data/ (so no hidden list elsewhere must
follow), the registry computes the number, lesson 5 renders in both languages through the build's own macros
and passes the build's page guards, and tests/test_configs.py passes on the copy (it types no set of models).
Everything runs in the copy's own Python processes, so the copy's posenc is the one imported. Rendering lesson 5 imports
torch and the experiment's claims (about 15 CPU-seconds); the full strict build of the copy would take minutes.

Add a position method: a stub, rope_copy, that runs exactly RoPE's attention (see the section below). It changes three
files outside tests/ and the data; tests/test_experiment_records.py passes on the copy; the counts the prose states, the
lessons' method lists, the results figure's lines and the results table's rows follow; its forward pass on the tiny
model equals RoPE's; its record lacking any field fails at import with one line naming the record and the field. Two
processes in the copy check all of it (about 8 CPU-seconds).
"""

from __future__ import annotations

import filecmp
import json
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


def _changed_outside_tests_and_data(copy: Path, skip: tuple[str, ...] = ()) -> list[str]:
    """Files added, removed or changed in the copy, compared with this checkout, outside tests/ and posenc/data/
    (what copy_project leaves out, caches and build outputs, is skipped at every level, as the copy skipped it),
    and other than the paths ``skip``."""
    changed = []

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        if rel in ("tests", "posenc/data"):
            return
        names = cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files + list(cmp.subdirs)
        ignored = COPY_IGNORE(cmp.left, names) | {"node_modules"}
        for name in cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files:
            path = f"{rel}/{name}".lstrip("/")
            if name not in ignored and path not in skip:
                changed.append(path)
        for name, sub in cmp.subdirs.items():
            if name not in ignored:
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


# --- "Add a position method to the training experiment" ---------------------------------------------------------------
#
# A stub method, rope_copy, that runs exactly RoPE's attention: its key in config.METHODS (step 1), a rotary method in
# model.py (step 2) and its record in course.py (step 3). The results table's row and the names of its three numbers
# follow the record (tools/build/course_macros.py's method_rows, posenc/quantities/experiment.py's
# METHOD_LOSS_NAMES), and the results page's title in the navigation states no count. Nothing is trained: the copy's results file gets what training the stub would write, RoPE's units under the stub's key (same
# seeds, same weights, same batches, the same attention), sealed again. That file is the run's output, not an edit.

STUB_METHOD = "rope_copy"
# the record's fields as course.py's records write them, in the order of course.Method
STUB_FIELDS = {
    "key": f'"{STUB_METHOD}"',
    "name": 'dict(zh="RoPE 副本", en="RoPE copy")',
    "table_name": "None",
    "colour": "0",
    "dashed": "True",
    "family": '"attention"',
    "lesson": '"04-rope.md"',
    "extension": "False",
}
RESULTS_FILE = "posenc/experiment/results/full.json"
# the row's first two cells as the results table shows them: the record's name, its lesson's link
STUB_ROWS = {
    "lessons/results.md": "| RoPE 副本 | [第 4 课](04-rope.md) |",
    "lessons/results.en.md": "| RoPE copy | [lesson 4](04-rope.md) |",
}


def _record(fields: dict) -> str:
    return "    dict(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + "),\n"


def _replace_once(path: Path, old: str, new: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{path}: the recipe's anchor {old!r} is not there exactly once"
    path.write_text(source.replace(old, new), encoding="utf-8")


def _stand_in_results(copy: Path) -> None:
    """What training the stub would add to the results file: RoPE's units under the stub's key, sealed again."""
    from posenc.experiment.provenance import seal

    path = copy / RESULTS_FILE
    results = json.loads(path.read_text(encoding="utf-8"))
    results["runs"][STUB_METHOD] = [dict(unit, method=STUB_METHOD) for unit in results["runs"]["rope"]]
    results["methods"] = [*results["methods"], STUB_METHOD]
    results["seal_sha256"] = seal(results)
    path.write_text(json.dumps(results), encoding="utf-8")


@pytest.fixture(scope="module")
def copy_with_a_new_method(tmp_path_factory) -> Path:
    copy = copy_project(tmp_path_factory.mktemp("recipe_method") / "project")
    exp = copy / "posenc/experiment"
    # step 1: the key, in the order pages list the methods
    _replace_once(exp / "config.py", '"rope", "rope_partial")', f'"rope", "rope_partial", "{STUB_METHOD}")')
    # step 2: the method's code; RoPE's attention is already there, the stub only joins the rotary methods
    _replace_once(exp / "model.py", 'ROTARY_METHODS = ("rope", "rope_partial")',
                  f'ROTARY_METHODS = ("rope", "rope_partial", "{STUB_METHOD}")')
    # step 3: its record, after rope_partial's
    anchor = 'lesson="06-partial-nope.md#partial", extension=False),\n'
    _replace_once(exp / "course.py", anchor, anchor + _record(STUB_FIELDS))
    _stand_in_results(copy)
    # the stub's record without each of its fields, as course.py would read (outside the copy: not part of the recipe)
    broken = copy.parent / "broken"
    broken.mkdir()
    course = (exp / "course.py").read_text(encoding="utf-8")
    for field in STUB_FIELDS:
        without = {k: v for k, v in STUB_FIELDS.items() if k != field}
        (broken / f"{field}.py").write_text(course.replace(_record(STUB_FIELDS), _record(without)), encoding="utf-8")
    return copy


# In the copy's Python: what follows the records (counts, lists, figure lines), the results table as the build renders
# it, the stub's forward pass on the tiny model, and course.py read with the stub's record lacking each field.
METHOD_CHECKS = """
import json, sys, types
from pathlib import Path
sys.path[:0] = [".", "tests"]
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch
from experiment_tiny import TINY
from figures_src import REGISTRY, _labels, _style
from figures_src import experiment as expfig
from macro_env import MacroEnv
from posenc import quantities as q
from posenc.experiment import config, course, model

STUB, LANGS = sys.argv[1], ("zh", "en")
out = {"methods": list(config.METHODS), "records": [m.key for m in course.METHOD_RECORDS],
       "count": {l: q.text("exp_method_count", l) for l in LANGS},
       "attention_count": {l: q.text("exp_attention_method_count", l) for l in LANGS},
       "taught_by_rope": list(course.taught_by("04-rope.md")), "panels": dict(expfig.POSITION_PANELS)}

# the results page's figure as the build draws it: each panel's lines (label, colour, dashes)
spec, theme, out["figure"] = REGISTRY["exp_all_position_loss"], _style.THEMES["light"], {}
for lang in LANGS:
    with matplotlib.rc_context(_style.rc_params(theme)), _labels.in_language(lang):
        fig = plt.figure(figsize=spec.size)
        spec.draw(fig, theme)
        out["figure"][lang] = [[[l.get_label(), matplotlib.colors.to_hex(l.get_color()), l.get_linestyle()]
                                for l in ax.get_lines() if not l.get_label().startswith("_")] for ax in fig.axes]
        plt.close(fig)

# the results page through the build's macros: its title and its table's rows
out["results"] = {}
for page in ("lessons/results.md", "lessons/results.en.md"):
    lines = MacroEnv(page).render((Path("docs") / page).read_text(encoding="utf-8")).splitlines()
    start = lines.index("|---|---|---|---|---|") + 1
    end = lines.index("", start)
    out["results"][page] = {"title": lines[0], "rows": lines[start:end], "text": "\\n".join(lines)}

# the stub's forward pass equals RoPE's on a few tokens of the tiny model (same seed, same weights)
idx = torch.randint(0, TINY.vocab_size, (1, 12), generator=torch.Generator().manual_seed(0))
logits = {m: model.build(TINY, m, 3)(idx) for m in (STUB, "rope", "rope_partial")}
out["forward_equals_rope"] = torch.equal(logits[STUB], logits["rope"])
out["forward_equals_partial"] = torch.equal(logits[STUB], logits["rope_partial"])

# course.py with the stub's record lacking a field, read as the package reads it
out["broken"] = {}
for path in sorted(Path(sys.argv[2]).glob("*.py")):
    module = types.ModuleType("posenc.experiment.course")
    module.__package__, module.__file__ = "posenc.experiment", "posenc/experiment/course.py"
    try:
        exec(compile(path.read_text(encoding="utf-8"), module.__file__, "exec"), module.__dict__)
        out["broken"][path.stem] = None
    except Exception as err:
        out["broken"][path.stem] = f"{type(err).__name__}: {err}"
print(json.dumps(out, ensure_ascii=False))
"""


@pytest.fixture(scope="module")
def method_checks(copy_with_a_new_method) -> dict:
    done = _python(copy_with_a_new_method, "-c", METHOD_CHECKS, STUB_METHOD, str(copy_with_a_new_method.parent / "broken"))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_adding_a_method_changes_three_files_outside_tests_and_data(copy_with_a_new_method):
    # the key, the code and the record (steps 1-3): the results table's row, its numbers and the pages' counts follow
    assert _changed_outside_tests_and_data(copy_with_a_new_method, skip=(RESULTS_FILE,)) == [
        "posenc/experiment/config.py", "posenc/experiment/course.py", "posenc/experiment/model.py"]


def test_test_experiment_records_passes_on_the_method_copy(copy_with_a_new_method):
    # the records' own checks: every method's lesson and results row, the counts, the navigation's title
    done = _python(copy_with_a_new_method, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
                   "tests/test_experiment_records.py")
    assert done.returncode == 0, done.stdout[-3000:]


def test_the_counts_and_lists_include_the_new_method(method_checks):
    assert method_checks["methods"] == method_checks["records"] == [
        "nope", "learned", "sinusoidal", "sinusoidal_scaled", "alibi", "rope", "rope_partial", STUB_METHOD]
    # seven methods before, eight now; three put the position in attention, four now
    assert method_checks["count"] == {"zh": "八", "en": "eight"}
    assert method_checks["attention_count"] == {"zh": "四", "en": "four"}
    assert STUB_METHOD in method_checks["taught_by_rope"]
    assert STUB_METHOD in method_checks["panels"]["panel_attention"]
    assert STUB_METHOD not in method_checks["panels"]["panel_added"]


def test_the_results_figure_draws_the_new_method_with_its_records_name_colour_and_dashes(method_checks):
    for lang, name in (("zh", "RoPE 副本"), ("en", "RoPE copy")):
        added, attention = method_checks["figure"][lang]
        assert name not in [label for label, _, _ in added], lang
        lines = {label: (colour, style) for label, colour, style in attention}
        assert name in lines, (lang, list(lines))
        # colour 0, dashed: RoPE's colour, drawn dashed like the other control that shares a colour
        rope_colour, rope_style = lines["RoPE"]
        assert lines[name] == (rope_colour, "--") and rope_style == "-", lines


def test_the_results_table_shows_the_new_method_with_ropes_numbers(method_checks):
    for page, title_word in (("lessons/results.md", "八"), ("lessons/results.en.md", " eight ")):
        shown = method_checks["results"][page]
        assert title_word in shown["title"], shown["title"]
        rows = shown["rows"]
        assert len(rows) == 8 and "{{" not in "".join(rows), rows
        assert rows[-1].startswith(STUB_ROWS[page] + " "), rows[-1]
        stub, rope = rows[-1].split(" | "), next(r for r in rows if r.startswith("| RoPE |")).split(" | ")
        assert "(04-rope.md)" in stub[1] and stub[2:] == rope[2:], (stub, rope)
        # the stand-in results hold RoPE's losses under the stub's key: a table that printed nothing would match too
        assert all("±" in cell for cell in stub[2:4]), stub


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="claims.py's all_but_sin_beat_unigram counts the others in its own words "
                   "('其余六组', 'the other six'), frozen in preregistration/2026-12-05.json, while its check takes "
                   "every method of config.METHODS; adding a method means rewording it")
def test_the_claim_counting_the_other_methods_counts_the_new_one(method_checks):
    for page, others in (("lessons/results.md", "其余七组"), ("lessons/results.en.md", "the other seven")):
        assert others in method_checks["results"][page]["text"], page


def test_the_new_method_runs_ropes_attention(method_checks):
    assert method_checks["forward_equals_rope"] and not method_checks["forward_equals_partial"]


@pytest.mark.parametrize("field", list(STUB_FIELDS))
def test_the_new_record_lacking_a_field_fails_at_import_naming_the_record_and_the_field(method_checks, field):
    message = method_checks["broken"][field]
    assert message is not None and "\n" not in message, message
    # a record without its key is named by its place, the eighth
    record = "'#8'" if field == "key" else f"'{STUB_METHOD}'"
    assert message.startswith("ValueError: course.py: method record " + record), message
    assert f"lacks the field '{field}'" in message, message


# --- the new method re-trains only its own units -------------------------------------------------------------------------
#
# The tiny experiment (tests/experiment_tiny.py) swept with this checkout's code for NoPE and RoPE, two seeds, and RoPE's
# extension with PI; then the copy with the stub swept into the same cache with the stub added. Each unit is keyed by
# what it runs (posenc/experiment/provenance.py unit_key), so the copy finds every earlier unit and computes the stub's.

SWEEP_IN_COPY = """
import json, sys
sys.path[:0] = [".", "tests"]
import torch
from experiment_tiny import TINY, dataset
from posenc.experiment import sweep

DS, computed = dataset(), []
sweep._dataset = lambda cfg: DS
real = sweep.compute_unit
sweep.compute_unit = lambda cfg, kind, name, seed, *a, **kw: computed.append([kind, name, seed]) or real(cfg, kind, name, seed, *a, **kw)
results = sweep.run(TINY, seeds=(0, 1), methods=json.loads(sys.argv[2]), variants=("pi",), threads=1, cache_dir=sys.argv[1],
                    out=sys.argv[1] + "/results.json", progress=False, log=lambda *a: None)
print(json.dumps({"computed": computed, "rope": results["runs"]["rope"], "stub": results["runs"].get("rope_copy")}))
"""


def _sweep(project: Path, cache: Path, methods: list[str]) -> dict:
    done = _python(project, "-c", SWEEP_IN_COPY, str(cache), json.dumps(methods))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_the_new_method_trains_only_its_own_units(copy_with_a_new_method, tmp_path):
    first = _sweep(ROOT, tmp_path, ["nope", "rope"])
    assert len(first["computed"]) == 6  # two methods and one extension, two seeds each
    after = _sweep(copy_with_a_new_method, tmp_path, ["nope", "rope", STUB_METHOD])
    assert after["computed"] == [["train", STUB_METHOD, 0], ["train", STUB_METHOD, 1]]
    # and what it trained is RoPE's run again: the same attention, seed and batches
    for rope, stub in zip(after["rope"], after["stub"]):
        assert stub["method"] == STUB_METHOD and stub["train_loss"] == rope["train_loss"] and stub["position_loss"] == rope["position_loss"]
