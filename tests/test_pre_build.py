"""The pre-build step (tools/build/pre_build.py): the site's files besides its pages, and the site-wide guards,
made from the sources without MkDocs."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from posenc.examples import SCALING_EXPLORER_MODELS
from tools.build import pre_build as pre


def test_the_widgets_json_is_the_registry_compact_and_the_english_build_adds_its_own_dataflow():
    from posenc import configs, dataflow

    zh = {f.dest: f for f in pre.assets("zh")}
    assert set(zh) == {"assets/models.json", "assets/dataflow.json"}
    assert json.loads(zh["assets/models.json"].content) == configs.browser_export(SCALING_EXPLORER_MODELS)
    assert ": " not in zh["assets/models.json"].content[:200] and ", " not in zh["assets/models.json"].content[:200]
    en = {f.dest: f for f in pre.assets("en")}
    assert set(en) == set(zh) | {"en/assets/dataflow.json"}
    shipped = json.loads(en["en/assets/dataflow.json"].content)
    links = {(m["key"], row[0]): row.pop() for m in shipped["models"] for row in m["fields"]}
    assert shipped == {**dataflow.browser_export("en"), "models": [
        {**m, "fields": [row[:3] for row in m["fields"]]} for m in dataflow.browser_export("en")["models"]]}
    assert en["en/assets/dataflow.json"].content != en["assets/dataflow.json"].content  # English words
    # each field of a model of posenc.configs links to its entry on the references page beside the file; the panel's
    # project models (the course's own small model) have no entry, so no link
    assert links[("gpt2", "context length")] == "../references/#model-gpt2-context"
    assert links[("qwen3_8b", "RoPE θ")] == "../references/#model-qwen3_8b-rope_theta"
    assert {key for (key, _), link in links.items() if link is None} == {m for m, _ in links if m.startswith("project_")}
    assert {key for (key, _), link in links.items() if link} == set(configs.keys()) & {m for m, _ in links}


def test_katex_stylesheet_comes_from_node_modules():
    [css] = pre.vendor_files()
    assert css.dest == "vendor/katex/katex.min.css" and css.path.is_file()


def test_english_figures_are_linked_like_the_chinese_ones_and_served_under_en(monkeypatch, tmp_path):
    import figures_src.build

    svg = tmp_path / "x.svg"
    report = SimpleNamespace(paths={"l3_wave": {"light": svg, "dark": svg}}, drawn=[], cached=["l3_wave"], seconds=0.0)
    monkeypatch.setattr(figures_src.build, "render_all", lambda **kw: report)
    _, zh = pre.figures("zh")
    _, en = pre.figures("en")
    assert sorted((f.src, f.dest) for f in zh) == [("figures/l3_wave.dark.svg", "figures/l3_wave.dark.svg"),
                                                  ("figures/l3_wave.light.svg", "figures/l3_wave.light.svg")]
    assert sorted((f.src, f.dest) for f in en) == [("figures/l3_wave.dark.svg", "en/figures/l3_wave.dark.svg"),
                                                  ("figures/l3_wave.light.svg", "en/figures/l3_wave.light.svg")]


def test_a_stale_notebook_and_a_widget_default_are_problems_naming_the_file_and_the_fix(monkeypatch, tmp_path):
    from tools.build import macros, notebooks

    stale = pre.ROOT / "docs" / "notebooks" / "lesson9.ipynb"  # never written: the test only names it
    monkeypatch.setattr(notebooks, "expected", lambda: {stale: "{}"})
    monkeypatch.setattr(macros, "widget_default_mismatches", lambda: ["rope.js base 10000 ≠ 500000"])
    assert pre.guard_problems() == [
        "rope.js base 10000 ≠ 500000: the widgets start from posenc/examples.py WIDGET_DEFAULTS",
        "docs/notebooks/lesson9.ipynb differs from its source docs/notebooks/lesson9.py: run python -m tools.build.notebooks",
    ]


def test_the_checked_in_sources_have_no_site_wide_problem():
    assert pre.guard_problems() == []


def test_the_command_line_fails_on_a_problem(monkeypatch, capsys):
    monkeypatch.setattr(pre, "guard_problems", lambda: ["docs/notebooks/lesson9.ipynb differs"])
    assert pre.main([]) == 1
    assert "error: docs/notebooks/lesson9.ipynb differs" in capsys.readouterr().err
