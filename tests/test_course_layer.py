"""The course layer around posenc: the widget contract, the macros' example text,
snippet caching, fresh code under `mkdocs serve`. Fast: no site build (tests/test_guardrails.py builds)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from posenc import examples as ex
from tools.build import freshness, macros

ROOT = Path(__file__).resolve().parent.parent
WIDGETS = ROOT / "docs" / "javascripts" / "widgets"


# --- the widget contract: WIDGET_DEFAULTS → data-* attributes ----------------------------------------------


def _attrs(html: str) -> dict[str, str]:
    return dict(re.findall(r' data-([a-z-]+)="([^"]*)"', html))


def test_every_widget_has_defaults_and_every_default_has_a_widget():
    files = {p.stem for p in WIDGETS.glob("*.js") if not p.stem.startswith("_") and p.stem != "index"}
    assert set(ex.WIDGET_DEFAULTS) == files
    assert macros.widget_default_mismatches() == []


def test_the_widget_macro_writes_every_default_as_a_data_attribute():
    for name, defaults in ex.WIDGET_DEFAULTS.items():
        attrs = _attrs(macros.widget_attributes(name, {}))
        assert set(attrs) == {k.replace("_", "-") for k in defaults}, name
    clock = _attrs(macros.widget_attributes("sin-clock", {}))
    gpt2 = ex.encoding_positions()[1]
    assert clock == {"d": str(ex.SIN_DIM), "base": "10000", "position": str(ex.NEAR_POSITION),
                     "presets": f"{ex.NEAR_POSITION},{gpt2},{ex.FAR_POSITION}"}  # plain decimals, no 10,000
    pair = _attrs(macros.widget_attributes("rope-pair", {}))
    assert pair["q"] == ",".join(f"{v:g}" for v in ex.PAIR_Q) and pair["k"] == ",".join(f"{v:g}" for v in ex.PAIR_K)
    swap = _attrs(macros.widget_attributes("swap-attention", {}))
    assert swap["swap-i"] == str(ex.SWAP_MAIN[1]) and swap["sentence"] == ex.SENTENCE  # swap_i → data-swap-i
    assert swap["presets"] == f"{ex.SWAP_MAIN[0]}:{ex.SWAP_MAIN[1]}:{ex.SWAP_MAIN[2]},{ex.SWAP_SHORT[0]}:{ex.SWAP_SHORT[1]}:{ex.SWAP_SHORT[2]}"
    # an English page's widgets start from the English edition's own sentences, words joined by spaces
    en = ex.texts("en")
    swap_en = _attrs(macros.widget_attributes("swap-attention", {}, "en"))
    assert (swap_en["sentence"], swap_en["swap-i"], swap_en["swap-j"]) == (" ".join(en.swap_main[0]), str(en.swap_main[1]), str(en.swap_main[2]))
    assert swap_en["presets"] == ",".join(f"{' '.join(t)}:{i}:{j}" for t, i, j in (en.swap_main, en.swap_short))
    assert _attrs(macros.widget_attributes("sin-heatmap", {}, "en"))["sentence"] == " ".join(en.sentence)


def test_values_parse_as_the_widgets_read_them():
    """docs/javascripts/widgets/_ui.js pageOptions(): Number(raw) for numbers, raw.split(",") for lists."""
    for name, defaults in ex.WIDGET_DEFAULTS.items():
        attrs = _attrs(macros.widget_attributes(name, {}))
        for key, value in defaults.items():
            raw = attrs[key.replace("_", "-")]
            if isinstance(value, (int, float)):
                assert float(raw) == value, (name, key)
            elif isinstance(value, list):
                assert [float(x) for x in raw.split(",")] == [float(v) for v in value], (name, key)
            else:
                assert raw == (str(value["zh"]) if isinstance(value, dict) else value), (name, key)


def test_page_options_override_defaults_and_unknown_options_fail():
    attrs = _attrs(macros.widget_attributes("swap-attention", {"head": '{"w_q": [[1]]}', "seed": 3}))
    assert attrs["seed"] == "3" and attrs["head"] == "{&quot;w_q&quot;: [[1]]}" and attrs["d"] == str(ex.ATTN_D)
    with pytest.raises(ValueError, match="no option 'sentense'.*WIDGET_DEFAULTS"):
        macros.widget_attributes("sin-heatmap", {"sentense": "x"})
    with pytest.raises(ValueError, match="add WIDGET_DEFAULTS"):
        macros.widget_attributes("no-such-widget", {})


def test_attribute_text_is_plain():
    assert macros.attribute_text(100_000) == "100000"
    assert macros.attribute_text(10_000.0) == "10000"
    assert macros.attribute_text(0.4) == "0.4"
    assert macros.attribute_text(1e-5) == "0.00001"  # never 1e-05
    assert macros.attribute_text([1.0, 0.4]) == "1,0.4"
    assert macros.attribute_text("小明打了小王:1:5") == "小明打了小王:1:5"
    with pytest.raises(ValueError):
        macros.attribute_text(True)


def test_a_widget_reads_exactly_the_keys_the_macro_writes(tmp_path, monkeypatch):
    """A JS copy of the defaults, an option the page never gets and a default the widget ignores are each named."""
    js = tmp_path / "sin-clock.js"
    js.write_text('import { pageOptionsOrFail } from "./_ui.js";\nconst DEFAULTS = { d: 16 };\n'
                  'export function mount(el) {\n  const opt = pageOptionsOrFail(el, { d: "int", base: "number", position: "int", speed: "int" });\n}\n',
                  encoding="utf-8")
    monkeypatch.setattr(macros, "WIDGETS", tmp_path)
    monkeypatch.setattr(ex, "WIDGET_DEFAULTS", {"sin-clock": ex.WIDGET_DEFAULTS["sin-clock"]})
    assert macros.widget_default_mismatches() == [
        "docs/javascripts/widgets/sin-clock.js:2: a JavaScript copy of the defaults; read them from the page with pageOptions "
        "(posenc/examples.py WIDGET_DEFAULTS['sin-clock'])",
        "docs/javascripts/widgets/sin-clock.js:4: reads data-speed, which posenc/examples.py WIDGET_DEFAULTS['sin-clock'] does not give",
        "docs/javascripts/widgets/sin-clock.js:4: posenc/examples.py WIDGET_DEFAULTS['sin-clock']['presets'] is written into the page "
        "but the widget does not read it",
    ]
    js.write_text("export function mount(el) {}\n", encoding="utf-8")
    assert macros.widget_default_mismatches() == [
        "docs/javascripts/widgets/sin-clock.js: does not read its options with pageOptions(el, {…}) from docs/javascripts/widgets/_ui.js"]


def test_every_widget_reads_its_options_from_the_page_and_keeps_no_copy():
    """The real widgets: no DEFAULTS object, no fallback reader; every option comes through pageOptions."""
    for path in sorted(WIDGETS.glob("*.js")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^const DEFAULTS\b", source, re.M), path.name
        assert "options(el," not in source.replace("pageOptions(el,", "").replace("pageOptionsOrFail(el,", ""), path.name
        if not path.stem.startswith("_") and path.stem != "index":
            assert re.search(r"pageOptions(OrFail)?\(\s*el,", source), path.name


# --- example text through a macro -------------------------------------------------------------------------------


def test_example_macro_prints_text_and_refuses_numbers():
    assert macros.example_text("SENTENCE") == ex.SENTENCE
    # an English page quotes the English edition's own sentence, its words joined by spaces
    assert macros.example_text("SENTENCE", "en") == " ".join(ex.texts("en").sentence) != ex.SENTENCE
    assert macros.example_text("REL_A", "en") == "dog" and macros.example_text("REL_A", "zh") == ex.REL_A
    with pytest.raises(ValueError, match="is a number.*num"):
        macros.example_text("SHIFT")
    with pytest.raises(ValueError, match="Did you mean 'SENTENCE'"):
        macros.example_text("SENTENCES")


# --- snippets: the cache follows the snippets a snippet imports --------------------------------------------------


def test_snippet_imports_are_followed():
    snippets = ROOT / "docs" / "snippets"
    assert [p.name for p in macros.snippet_imports(snippets / "lesson3_cat_fish.py")] == ["lesson3_table.py"]
    assert [p.name for p in macros.snippet_imports(snippets / "lesson3_bounded.py")] == ["lesson3_table.py"]


def test_editing_a_module_a_snippet_imports_changes_its_output(tmp_path, monkeypatch):
    monkeypatch.setattr(macros, "SNIPPETS", tmp_path / "snippets")
    monkeypatch.setattr(macros, "SNIPPET_CACHE", tmp_path / "cache")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "table.py").write_text("VALUE = 1\n", encoding="utf-8")
    user = tmp_path / "snippets" / "user.py"
    user.write_text("from table import VALUE\nprint('value', VALUE)\n", encoding="utf-8")
    assert macros.run_snippet(user).strip() == "value 1"
    assert macros.run_snippet(user).strip() == "value 1"  # cached
    (tmp_path / "snippets" / "table.py").write_text("VALUE = 2\n", encoding="utf-8")
    assert macros.run_snippet(user).strip() == "value 2", "the cached output of the old imported module was served"


def test_the_snippet_runner_prints_what_python_snippet_py_prints(tmp_path, monkeypatch):
    """The build runs snippets in forks of one process that imported torch (tools/build/snippet_runner.py); a reader runs
    `python lesson3_cat_fish.py`. Both must print the same bytes: a torch snippet that imports another snippet."""
    import os
    import subprocess

    monkeypatch.setattr(macros, "SNIPPET_CACHE", tmp_path / "cache")
    snippet = ROOT / "docs" / "snippets" / "lesson3_cat_fish.py"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    reader = subprocess.run([sys.executable, str(snippet)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert reader.returncode == 0, reader.stderr
    assert macros._execute_snippets([snippet]) == {snippet: reader.stdout}


def test_a_failing_snippet_fails_the_build_naming_it_with_its_traceback(tmp_path, monkeypatch):
    monkeypatch.setattr(macros, "SNIPPETS", tmp_path / "snippets")
    monkeypatch.setattr(macros, "SNIPPET_CACHE", tmp_path / "cache")
    (tmp_path / "snippets").mkdir()
    good = tmp_path / "snippets" / "good.py"
    good.write_text("print('fine')\n", encoding="utf-8")
    bad = tmp_path / "snippets" / "broken.py"
    bad.write_text("print('before')\nraise ValueError('the table has the wrong shape')\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"(?s)snippet broken\.py failed \(exit 1\).*ValueError: the table has the wrong shape"):
        macros.run_snippet(bad)
    assert macros.run_snippet(good).strip() == "fine"  # one broken snippet leaves the others' outputs alone


# --- mkdocs serve: code edited between two builds is imported again ----------------------------------------------


def test_freshness_drops_the_project_modules_after_an_edit(tmp_path, monkeypatch):
    pkg = tmp_path / "posenc"
    pkg.mkdir()
    (pkg / "fake_fresh_mod.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.setattr(freshness, "ROOT", tmp_path)
    monkeypatch.setattr(freshness, "FOLDERS", ("posenc",))
    monkeypatch.setattr(freshness, "_snapshot", None)
    monkeypatch.syspath_prepend(str(pkg))
    import importlib

    mod = importlib.import_module("fake_fresh_mod")
    try:
        assert mod.VALUE == 1 and freshness.forget_changed_code() == []  # first build: nothing to forget
        assert freshness.forget_changed_code() == [] and "fake_fresh_mod" in sys.modules  # no change: keep
        (pkg / "fake_fresh_mod.py").write_text("VALUE = 2\n", encoding="utf-8")  # same length, same second
        assert freshness.forget_changed_code() == [pkg / "fake_fresh_mod.py"]
        assert "fake_fresh_mod" not in sys.modules
        assert importlib.import_module("fake_fresh_mod").VALUE == 2
    finally:
        sys.modules.pop("fake_fresh_mod", None)


def test_mkdocs_serve_watches_every_input():
    from tools.build.lesson_pages import read_mkdocs_yml

    config = read_mkdocs_yml()
    watched = set(config["watch"])
    assert {"posenc", "figures_src", "tools", "docs/snippets"} <= watched
    # data files and the experiment's results live under posenc/
    for path in ("posenc/data/models.yaml", "posenc/experiment/results/full.json"):
        assert any(Path(path).is_relative_to(w) for w in watched), path


def test_a_cells_printed_output_is_one_block_whatever_the_timing():
    """Two builds must render a notebook byte for byte: prints that reach the client in several messages
    (a slow machine) are merged, as the build's hook arranges for mkdocs-jupyter's ExecutePreprocessor."""
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    from tools.build import mkdocs_hooks

    mkdocs_hooks._coalesce_notebook_streams()
    mkdocs_hooks._coalesce_notebook_streams()  # mkdocs serve loads the hook again on every rebuild
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("import time\nprint('a', flush=True)\ntime.sleep(0.5)\nprint('b', flush=True)"))
    ExecutePreprocessor(kernel_name="python3", timeout=120).preprocess(nb, {"metadata": {"path": str(ROOT)}})
    assert [o["text"] for o in nb.cells[0].outputs] == ["a\nb\n"]


# --- the repository paths a page names exist ----------------------------------------------------------------------


# our top folders; under docs/ only the folders this repository has (a page also cites other repositories' docs/)
REPO_PATH = re.compile(r"`((?:posenc|tests|figures_src|tools|docs/(?:lessons|snippets|notebooks|javascripts|stylesheets))/[\w./*\-]+)`")


def test_every_repository_path_a_page_or_notebook_names_exists():
    """A lesson's closing note says where its numbers, figures and tests live: a renamed file must be renamed there too."""
    sources = sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "docs" / "notebooks").glob("lesson*.py"))
    named, missing = 0, []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in REPO_PATH.findall(line):
                named += 1
                if not any(ROOT.glob(target.rstrip("/"))):
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {target}")
    assert named > 50
    assert not missing, "paths that do not exist in the repository:\n  " + "\n  ".join(missing)


# --- make bench measures edits the build accepts ----------------------------------------------------------------


def test_the_benchmarks_edits_pass_the_prose_lint():
    """A typed number would make the strict serve rebuild refuse the edit, and the bench would time its own mistake."""
    from tools.guards import prose_lint
    from tools.scripts import bench_build

    markers = {bench_build.edit_marker() for _ in range(3)}
    for marker in markers:
        assert prose_lint.check(f"# 标题\n\n{marker}\n") == [], marker
        assert not any(c.isdigit() for c in marker)
    source = (ROOT / "tools" / "scripts" / "bench_build.py").read_text(encoding="utf-8")
    for sentence in re.findall(r'"\\n\\n([^"\\{]+)\\n"', source):  # the prose edit the bench appends
        assert prose_lint.check(f"# 标题\n\n{sentence}\n") == [], sentence
    assert bench_build.lesson_key("03b-relative-bias") == "lesson3b" and bench_build.lesson_key("06-partial-nope") == "lesson6"


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="the CPU seconds come from /proc (Linux)")
def test_the_benchmark_counts_the_cpu_time_of_a_process_and_of_its_children_still_running():
    """make serve's figure workers run beside the server: their drawing is part of what an edit costs."""
    import subprocess
    import sys
    import time

    from tools.scripts import bench_build

    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               "subprocess.Popen([sys.executable, '-c', 'import time\\nt = time.process_time()\\n"
                               "while time.process_time() - t < 0.6: pass\\ntime.sleep(60)'])\ntime.sleep(60)"])
    try:
        before = bench_build.cpu_seconds(parent.pid)
        deadline = time.monotonic() + 60
        while (spent := bench_build.cpu_seconds(parent.pid) - before) < 0.5 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert spent >= 0.5  # the grandchild's busy loop, while it still runs
    finally:
        for line in subprocess.run(["ps", "-o", "pid=", "--ppid", str(parent.pid)], capture_output=True, text=True).stdout.split():
            subprocess.run(["kill", line])
        parent.kill()
        parent.wait()
    assert bench_build.cpu_seconds(2**22 + 1) is None  # no such process


def test_the_notebook_cache_has_one_folder_per_language_and_build_mode():
    """mkdocs-jupyter evicts, after each build, every cached page that build did not use. The pages a full build
    executed and those a prose-only build (`make test-fast`) renders without running live in sibling folders, so the
    prose-only build does not send the next full build through every notebook again (16 notebooks, about 35 s of a core)."""
    from tools.build.mkdocs_hooks import notebook_cache_dir

    executed, prose_only = notebook_cache_dir("zh", True), notebook_cache_dir("zh", False)
    assert executed.parent == prose_only.parent and executed != prose_only
    assert notebook_cache_dir("en", True) not in (executed, prose_only)  # each language's pass evicts only its own


def test_the_home_pages_lesson_count_is_the_navs_main_lessons(monkeypatch):
    # "这一章用六课" / "six lessons" on the home page: the main lessons of mkdocs.yml's nav (3b and 6b come on top), as
    # a word; a lesson added to the nav changes it.
    from macro_env import MacroEnv
    from tools.build import lesson_pages

    from posenc.formatting import count_words

    # counted from the lesson files (01-…, 02-…; not 03b-…), not from the nav the macro reads
    n = len([p for p in (ROOT / "docs" / "lessons").glob("[0-9][0-9]-*.md") if not p.name.endswith(".en.md")])
    assert [MacroEnv(page).render("{{ main_lesson_count() }}") for page in ("index.md", "index.en.md")] == [
        count_words(n)["zh"], count_words(n)["en"]]
    added = lesson_pages.lesson_pages() + ["lessons/99-next.md", "lessons/99b-next-more.md"]
    monkeypatch.setattr(lesson_pages, "lesson_pages", lambda: added)
    assert MacroEnv("index.en.md").render("{{ main_lesson_count() }}") == count_words(n + 1)["en"]
    for page in ("index.md", "index.en.md"):
        assert "main_lesson_count()" in (ROOT / "docs" / page).read_text(encoding="utf-8"), page
