"""Site wiring that needs no build: the notebooks' setup cell in Colab, the BibTeX macro, the
verification tags' tooltips, the phone constants' arithmetic."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import types

import pytest
import yaml

from macro_env import MacroEnv
from site_support import ROOT

SETUP = ROOT / "docs" / "notebooks" / "_setup.py"


def _mkdocs_config() -> dict:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # !ENV and the like
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def _run_setup(monkeypatch, tmp_path, colab: bool, importable: bool):
    """Run the setup cell in an empty folder, with a stand-in for git; return the commands it ran."""
    clone_to = tmp_path / "content" / "posenc"
    source = SETUP.read_text(encoding="utf-8").replace('"/content/posenc"', repr(str(clone_to)))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(sys, "path", list(sys.path))
    if colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: (real_find_spec(name, *a) if importable else None) if name == "posenc" else real_find_spec(name, *a))
    ran = []

    def fake_run(args, check=False, **kwargs):  # what `git clone` leaves behind
        ran.append(list(args))
        (clone_to / "posenc").mkdir(parents=True)
        (clone_to / "posenc" / "__init__.py").write_text("")
        return subprocess.CompletedProcess(args, 0)

    monkeypatch.setattr(subprocess, "run", fake_run)
    namespace = {"__name__": "__setup__"}
    exec(compile(source, str(SETUP), "exec"), namespace)
    return ran, namespace, clone_to


def test_in_colab_the_setup_cell_clones_the_repository(monkeypatch, tmp_path):
    ran, namespace, clone_to = _run_setup(monkeypatch, tmp_path, colab=True, importable=False)
    repo_url = _mkdocs_config()["repo_url"]
    assert ran == [["git", "clone", "--depth", "1", repo_url, str(clone_to)]]
    assert namespace["root"] == clone_to
    assert str(clone_to) in sys.path and str(clone_to / "docs" / "snippets") in sys.path


def test_the_setup_cell_names_mkdocs_repo_url():
    assert re.search(r'^REPO_URL = "([^"]+)"', SETUP.read_text(encoding="utf-8"), re.M).group(1) == _mkdocs_config()["repo_url"]


def test_outside_colab_the_setup_cell_clones_nothing(monkeypatch, tmp_path):
    with pytest.raises(ModuleNotFoundError, match="找不到 posenc"):
        _run_setup(monkeypatch, tmp_path, colab=False, importable=False)


def test_every_notebook_starts_with_the_setup_cell():
    import json

    setup = SETUP.read_text(encoding="utf-8").rstrip("\n")
    for nb in sorted((ROOT / "docs" / "notebooks").glob("*.ipynb")):
        cells = [c for c in json.loads(nb.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        assert "".join(cells[0]["source"]).rstrip("\n") == setup, f"{nb.name}: run python -m tools.notebooks"


def test_citation_bibtex_macro_is_a_bibtex_block_from_citation_cff():
    from tools.citation import bibtex_entry

    block = MacroEnv().macros["citation_bibtex"]()
    assert block.startswith("```bibtex\n@software{") and block.endswith("\n```")
    assert block == f"```bibtex\n{bibtex_entry().rstrip()}\n```"


def test_verification_tags_read_distinctly():
    from posenc.facts import TAGS
    from tools.macros import tag_badge

    titles = {tag: re.search(r'title="([^"]*)"', tag_badge(tag, "某来源")).group(1) for tag in TAGS}
    openings = {tag: title.split("：")[0] for tag, title in titles.items()}
    assert len(set(openings.values())) == len(TAGS), openings
    assert not titles["V3"].startswith("已核实") and not titles["U"].startswith("已核实"), titles
    assert all(title.endswith("来源：某来源") for title in titles.values())
    assert all('data-search-exclude="tag"' in tag_badge(tag, "x") for tag in TAGS)


def test_phone_constants_fit_the_measured_column():
    """figures_src/_style.py's limit against Material's column at 390 px (measured in Chromium: the
    article is 390 − 2 × 16 = 358 px wide; extra.css lets a figure span all 390 px on a phone)."""
    from figures_src import _style

    natural_px = _style.PHONE_MAX_WIDTH_IN * 96
    assert 358 / natural_px >= 0.75  # even in the plain column
    assert _style.MIN_TEXT_PT * 96 / 72 * (358 / natural_px) >= 9  # 9 pt text stays ≥ 9 CSS px
