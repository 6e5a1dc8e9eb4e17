"""The notebooks a reader takes away (a MkDocs hook): the downloaded .ipynb carries the outputs the
build's run printed, and runs outside the repository at the commit the site was built from.

- The build commit: $POSENC_BUILD_COMMIT if set (a build of a copy of the project names the commit
  it is a copy of), else $GITHUB_SHA in CI, else `git rev-parse HEAD`; None outside a git checkout,
  where the notebooks are still built but cannot fetch the course by themselves. It goes into config.extra.build_commit (the Colab link in
  overrides/partials/notebook-links.html opens the notebook at that commit) and into
  notebooks/build.json, which the setup cell reads in Colab (the file Colab opens from the
  repository cannot hold its own commit).
- The downloaded copy: mkdocs-jupyter copies the source .ipynb next to each notebook page (no
  outputs). This hook writes over it the notebook as the build executed it, with the setup cell's
  `COMMIT = None` set to the build commit (docs/notebooks/_setup.py: outside a clone it downloads
  the course at that commit and installs what it lacks). The executed notebook is taken from
  nbconvert's ExecutePreprocessor while mkdocs-jupyter runs it, and kept beside mkdocs-jupyter's
  cache of the rendered page (same folder, so keyed on the same inputs); when mkdocs-jupyter served
  the page from its cache and this copy is missing, the notebook is executed here once.
  Per-cell timing metadata is dropped, so two builds write the same bytes.
  With POSENC_EXECUTE_NOTEBOOKS=false the copy has no outputs, as the page has none.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import logging
import os
import re
import subprocess
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("mkdocs.hooks.posenc.notebooks")

COMMIT_LINE = re.compile(r"^COMMIT = None(?=\s|$)", re.M)


def build_commit() -> str | None:
    sha = os.environ.get("POSENC_BUILD_COMMIT") or os.environ.get("GITHUB_SHA")
    if not sha:
        try:
            sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None
    return sha if re.fullmatch(r"[0-9a-f]{40}", sha) else None


def _executed() -> dict[str, dict]:
    """Each notebook ExecutePreprocessor ran in this process, under its source path, as it left it.

    The dict hangs on the wrapped method, not on this module: mkdocs serve loads this hook again for
    every rebuild, and the wrapper installed by the first load is the one that keeps capturing.
    """
    from nbconvert.preprocessors import ExecutePreprocessor

    original = ExecutePreprocessor.preprocess
    if not hasattr(original, "executed_notebooks"):
        executed: dict[str, dict] = {}

        @functools.wraps(original)
        def preprocess(self, nb, resources=None, km=None):
            nb, resources = original(self, nb, resources, km)
            meta = (resources or {}).get("metadata") or {}
            if meta.get("path") and meta.get("name"):
                executed[str(Path(meta["path"], meta["name"] + ".ipynb").resolve())] = json.loads(json.dumps(nb))
            return nb, resources

        preprocess.executed_notebooks = executed
        ExecutePreprocessor.preprocess = preprocess
    return ExecutePreprocessor.preprocess.executed_notebooks


def on_config(config):
    config.extra["build_commit"] = build_commit()
    _executed()  # start capturing before mkdocs-jupyter runs a notebook
    return config


@event_priority(-200)  # after mkdocs-static-i18n has sorted the pages by language: it takes no generated file
def on_files(files, config):
    content = json.dumps({"commit": config.extra["build_commit"]})
    files.append(File.generated(config, "notebooks/build.json", content=content))
    return files


def _execute(source: Path) -> dict:
    """Run a notebook as mkdocs-jupyter does (the preprocessor, so the hooks' settings apply)."""
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    nb = nbformat.read(source, as_version=4)
    ExecutePreprocessor(timeout=600, kernel_name="python3").preprocess(nb, {"metadata": {"path": str(source.parent), "name": source.stem}})
    return _executed()[str(source.resolve())]


def downloadable(nb: dict, commit: str | None) -> str:
    """The .ipynb text a reader downloads: ``nb`` without per-cell timings, its setup cell pinned to ``commit``."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        cell.get("metadata", {}).pop("execution", None)
    if commit:
        setup = next(c for c in nb["cells"] if c["cell_type"] == "code")
        text = "".join(setup["source"]) if isinstance(setup["source"], list) else setup["source"]
        pinned, n = COMMIT_LINE.subn(f'COMMIT = "{commit}"', text)
        if n != 1:
            raise SystemExit("the notebook's first code cell has no `COMMIT = None` line to pin (docs/notebooks/_setup.py)")
        setup["source"] = pinned
    import nbformat

    return nbformat.writes(nbformat.from_dict(nb), version=4) + "\n"


@event_priority(-50)  # after mkdocs-jupyter has copied the source notebook next to its page
def on_post_page(output, page, config):
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    source = Path(page.file.abs_src_path)
    plugin = config.plugins.get("mkdocs-jupyter")
    executes = bool(plugin and plugin.config["execute"])
    if executes:
        cached = Path(plugin.config["cache_dir"]) / f"executed-{hashlib.sha256(source.read_bytes()).hexdigest()[:24]}.ipynb"
        executed = _executed()
        if str(source.resolve()) in executed:
            nb = executed.pop(str(source.resolve()))
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(nb), encoding="utf-8")
        elif cached.is_file():
            nb = json.loads(cached.read_text(encoding="utf-8"))
        else:
            log.info(f"{page.file.src_uri}: executing it for the download (its page came from mkdocs-jupyter's cache)")
            nb = _execute(source)
            executed.pop(str(source.resolve()), None)
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(nb), encoding="utf-8")
    else:
        nb = json.loads(source.read_text(encoding="utf-8"))
    # lessonN.ipynb in every language: lessonN.en.ipynb is downloaded as lessonN.ipynb from /en/ (tools/build/notebooks.py)
    target = Path(page.file.abs_dest_path).parent / f"{source.name.split('.')[0]}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(downloadable(nb, config.extra["build_commit"]), encoding="utf-8")
    return output
