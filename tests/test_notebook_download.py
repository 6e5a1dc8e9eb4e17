"""A notebook outside the repository: the setup cell (docs/notebooks/_setup.py) fetches the course at
the commit the site was built from and installs, hash-checked, what it lacks; the build writes that
commit and the executed outputs into the copy a reader downloads (tools/build/notebook_download.py); the
packages the setup cell installs are the lock's (docs/notebooks/requirements.txt)."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import io
import json
import re
import subprocess
import sys
import types
import urllib.request
import zipfile

import pytest
from packaging.requirements import Requirement

from site_support import ROOT
from tools.build import notebook_download, notebooks

SETUP = ROOT / "docs" / "notebooks" / "_setup.py"
SHA = "0123456789abcdef0123456789abcdef01234567"


def _mkdocs_config() -> dict:
    from tools.build.lesson_pages import read_mkdocs_yml

    return read_mkdocs_yml()


def _archive(sha: str) -> bytes:
    """What GitHub serves at <repo>/archive/<sha>.zip, reduced to what the setup cell reads."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"posenc-{sha}/posenc/__init__.py", "")
        z.writestr(f"posenc-{sha}/docs/snippets/lesson3_table.py", "")
        z.writestr(f"posenc-{sha}/docs/notebooks/requirements.txt", "torch==2.13.0+cpu \\\n    --hash=sha256:" + "0" * 64 + "\n")
    return buf.getvalue()


def run_setup(monkeypatch, tmp_path, *, commit=None, colab=False, lacking=(), site_commit=SHA):
    """Run the setup cell in an empty folder with stand-ins for the network and pip; return what it did."""
    source = SETUP.read_text(encoding="utf-8")
    if commit:
        source = notebook_download.COMMIT_LINE.sub(f'COMMIT = "{commit}"', source)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(sys, "path", list(sys.path))
    if colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in lacking else real_find_spec(name, *a))
    did = {"fetched": [], "pip": []}

    def urlopen(url, timeout=None):
        did["fetched"].append(url)
        return io.BytesIO(json.dumps({"commit": site_commit}).encode())

    def urlretrieve(url):
        did["fetched"].append(url)
        path = tmp_path / "archive.zip"
        path.write_bytes(_archive(re.search(r"archive/(\w+)\.zip$", url).group(1)))
        return str(path), None

    def run(args, check=False, **kwargs):
        did["pip"].append(list(args))
        return subprocess.CompletedProcess(args, 0)

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(urllib.request, "urlretrieve", urlretrieve)
    monkeypatch.setattr(subprocess, "run", run)
    namespace = {"__name__": "__setup__"}
    exec(compile(source, str(SETUP), "exec"), namespace)
    return did, namespace, work


def test_a_downloaded_notebook_fetches_the_course_at_its_commit_and_installs_what_it_lacks(monkeypatch, tmp_path):
    did, ns, work = run_setup(monkeypatch, tmp_path, commit=SHA, lacking=("torch",))
    repo = _mkdocs_config()["repo_url"]
    assert did["fetched"] == [f"{repo}/archive/{SHA}.zip"]
    root = work / f"posenc-{SHA}"
    assert ns["root"] == root and (root / "posenc" / "__init__.py").is_file()
    assert str(root) in sys.path and str(root / "docs" / "snippets") in sys.path
    (pip,) = did["pip"]
    assert pip[:4] == [sys.executable, "-m", "pip", "install"] and "--require-hashes" in pip
    assert pip[pip.index("--find-links") + 1] == "https://download.pytorch.org/whl/cpu/torch/"
    requirements = pip[pip.index("-r") + 1]
    assert requirements == str(root / "docs" / "notebooks" / "requirements.txt") or sys.platform == "darwin"


def test_nothing_is_installed_where_the_packages_are_there(monkeypatch, tmp_path):
    did, ns, work = run_setup(monkeypatch, tmp_path, commit=SHA)
    assert did["pip"] == [] and ns["root"] == work / f"posenc-{SHA}"


def test_in_colab_the_setup_cell_asks_the_site_for_its_commit(monkeypatch, tmp_path):
    did, ns, work = run_setup(monkeypatch, tmp_path, colab=True, site_commit=SHA)
    config = _mkdocs_config()
    assert did["fetched"] == [config["site_url"] + "notebooks/build.json", f"{config['repo_url']}/archive/{SHA}.zip"]
    assert ns["root"] == work / f"posenc-{SHA}"


def test_without_a_commit_outside_colab_the_setup_cell_says_what_to_do(monkeypatch, tmp_path):
    with pytest.raises(ModuleNotFoundError, match="找不到 posenc"):
        run_setup(monkeypatch, tmp_path)


def test_inside_the_repository_the_setup_cell_fetches_nothing(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT / "docs" / "notebooks")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(urllib.request, "urlretrieve", lambda *a, **k: pytest.fail("fetched"))
    namespace = {"__name__": "__setup__"}
    exec(compile(SETUP.read_text(encoding="utf-8"), str(SETUP), "exec"), namespace)
    assert namespace["root"] == ROOT


def test_the_setup_cell_names_mkdocs_repo_and_site():
    text = SETUP.read_text(encoding="utf-8")
    config = _mkdocs_config()
    assert re.search(r'^REPO_URL = "([^"]+)"', text, re.M).group(1) == config["repo_url"]
    assert re.search(r'^SITE_URL = "([^"]+)"', text, re.M).group(1) == config["site_url"]
    assert len(notebook_download.COMMIT_LINE.findall(text)) == 1


def test_every_notebook_starts_with_the_setup_cell():
    from tools.build import code_i18n

    for nb in sorted((ROOT / "docs" / "notebooks").glob("*.ipynb")):
        lang = "en" if nb.name.endswith(".en.ipynb") else "zh"  # the English notebook's setup cell has English words
        setup = code_i18n.localise(SETUP.read_text(encoding="utf-8"), "notebooks", "_setup.py", lang).rstrip("\n")
        cells = [c for c in json.loads(nb.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
        assert "".join(cells[0]["source"]).rstrip("\n") == setup, f"{nb.name}: run python -m tools.build.notebooks"


def _closure(names) -> set[str]:
    """The installed distributions ``names`` need (their unconditional requirements, followed)."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        for r in importlib.metadata.distribution(name).requires or []:
            req = Requirement(r)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def test_the_notebooks_requirements_are_the_locks_entries_for_what_they_import():
    assert set(notebooks.NOTEBOOK_PACKAGES) == _closure(["numpy", "pyyaml", "torch"])
    assert notebooks.REQUIREMENTS.read_text(encoding="utf-8") == notebooks.requirements(), "run python -m tools.build.notebooks"
    text = notebooks.REQUIREMENTS.read_text(encoding="utf-8")
    assert re.search(r"^torch==\S+\+cpu \\$", text, re.M)
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    for entry in re.split(r"\n(?=[a-z])", text.split("\n", 2)[2].strip()):
        assert entry in lock, entry.splitlines()[0]


def test_the_download_is_pinned_and_keeps_its_outputs():
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# x"},
        {"cell_type": "code", "id": "b", "execution_count": 1, "outputs": [{"output_type": "stream", "name": "stdout", "text": "ok\n"}],
         "metadata": {"execution": {"iopub.execute_input": "2026-12-04T00:00:00Z"}}, "source": 'REPO = 1\nCOMMIT = None  # x\n'},
    ]}
    out = json.loads(notebook_download.downloadable(nb, SHA))
    setup = out["cells"][1]
    assert f'COMMIT = "{SHA}"  # x' in "".join(setup["source"])
    assert ["".join(o["text"]) for o in setup["outputs"]] == ["ok\n"] and setup["metadata"] == {}
    assert "COMMIT = None" in "".join(json.loads(notebook_download.downloadable(nb, None))["cells"][1]["source"])
    nb["cells"][1]["source"] = "COMMIT = 'x'\n"
    with pytest.raises(SystemExit, match="COMMIT = None"):
        notebook_download.downloadable(nb, SHA)


def _load_hook():
    """tools/build/notebook_download.py loaded afresh, as mkdocs serve loads a hook again for every rebuild."""
    spec = importlib.util.spec_from_file_location("notebook_download_reloaded", ROOT / "tools" / "build" / "notebook_download.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_executed_notebook_is_captured_under_its_source_path_across_reloads(tmp_path):
    import nbformat
    from nbconvert import NotebookExporter

    first, again = _load_hook(), _load_hook()
    assert first._executed() is again._executed()
    source = tmp_path / "tiny.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")]), source)
    NotebookExporter(preprocessors=["nbconvert.preprocessors.ExecutePreprocessor"], config={
        "ExecutePreprocessor": {"enabled": True, "kernel_name": "python3", "timeout": 120}}).from_filename(str(source))
    nb = again._executed().pop(str(source.resolve()))
    assert nb["cells"][0]["outputs"][0]["text"] == "42\n"
