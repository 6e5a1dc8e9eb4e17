"""Render every registered figure to SVG, light and dark, skipping unchanged ones.

A figure is redrawn only when its cache key changes. The key hashes what can change
the drawing: the figure's module source, the posenc modules it uses (followed through
their own imports), the texts of the registered quantities its module names (a label
may quote one), posenc's data files, the shared style code, matplotlib's version and the
font file. A figure module that draws other inputs (experiment results) lists them in a
module-level ``INPUTS = [path, ...]`` (relative to the repository root).

Dependencies are found by following module globals, so editing posenc/rope.py
does not redraw lesson 3's figures. posenc.quantities is not followed into the
lesson modules it loads; the quantities a figure module names are keyed by their
printed text instead. Editing lesson prose changes none of these, so a rebuild after
a prose edit redraws nothing.

The cache never holds a drawing made by other code than its key says:

- the build (``render_all(fresh_process=True)``) computes every key and, if any SVG is
  missing, draws the missing ones in a fresh Python process, which imports the figure
  code from disk; a long-running ``mkdocs serve`` never draws with modules it imported
  before an edit;
- that process compares the sources before it imports them and after it has drawn;
  if a file changed in between, it deletes what it drew and fails (the next build,
  which ``mkdocs serve`` starts on the change, draws again);
- under ``make serve`` an edit to figure code alone is drawn by a warm process per
  language (tools/build/figure_workers.py): it forgets every changed module (tools/build/freshness.py),
  so that ``render_all``, drawing in process, imports it again after taking the sources'
  digest, and makes the same check.

Each figure is drawn per theme and per language: a module with a section in figures_src/labels/en.yaml
(figures_src/_labels.py) gets an English drawing too, keyed on its section of that table; a module not
converted yet has one drawing, which the English site shows as well.

    python -m figures_src.build --out /tmp/figs [--no-cache] [--only NAME] [--lang en]   # render, report what was drawn
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
import time
import types
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from posenc.formatting import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
# POSENC_FIGURE_CACHE points a build at another cache (an empty one for a truly clean build).
DEFAULT_CACHE = Path(os.environ.get("POSENC_FIGURE_CACHE") or ROOT / ".cache" / "figures")
STALE_AFTER_S = 3600  # superseded SVGs are removed once this old, never while a parallel build may still copy them


class SourcesChanged(RuntimeError):
    """A source file changed while figures were being drawn; what was drawn is discarded."""


def load_all() -> dict:
    import figures_src

    for mod in pkgutil.iter_modules(figures_src.__path__):
        if not mod.name.startswith("_") and mod.name != "build":
            importlib.import_module(f"figures_src.{mod.name}")
    return figures_src.REGISTRY


def tree_digest(root: Path, patterns=("*.py", "*.yaml", "*.json"), exclude=("__pycache__",)) -> str:
    """Digest of the files under ``root`` matching ``patterns``, names included."""
    h = hashlib.sha256()
    for pattern in patterns:
        for path in sorted(root.rglob(pattern)):
            if any(part in exclude for part in path.relative_to(root).parts):
                continue
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def sources_digest() -> str:
    """Everything a drawing can depend on: posenc (code, data, results) and figures_src."""
    return tree_digest(ROOT / "posenc") + tree_digest(ROOT / "figures_src")


def posenc_dependencies(module: types.ModuleType) -> list[Path]:
    """Source files of the posenc modules ``module`` uses, directly or through other posenc modules."""
    seen: dict[str, types.ModuleType] = {}
    todo = [module]
    while todo:
        mod = todo.pop()
        for value in vars(mod).values():
            if isinstance(value, types.ModuleType):
                dep = value
            else:
                name = getattr(value, "__module__", None)
                dep = sys.modules.get(name) if isinstance(name, str) else None
            if dep is None or not dep.__name__.startswith("posenc") or dep.__name__ in seen:
                continue
            seen[dep.__name__] = dep
            if dep.__name__ != "posenc.quantities":  # see the module docstring
                todo.append(dep)
    return sorted(Path(m.__file__) for m in seen.values() if getattr(m, "__file__", None))


def quoted_quantities(module: types.ModuleType) -> list[str]:
    """Registered quantities whose names appear as string literals in ``module`` (alt text, captions, labels)."""
    return list(_quoted_in(Path(module.__file__).read_text(encoding="utf-8")))


@lru_cache(maxsize=64)
def _quoted_in(source: str) -> tuple[str, ...]:
    """quoted_quantities of a module's source (parsed once per source: every figure of a module, in each
    theme and language, asks)."""
    from posenc import quantities

    names = set(quantities.names())
    return tuple(sorted({n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and n.value in names}))


@lru_cache(maxsize=None)
def _shared_digest() -> str:
    """Digest of everything every figure depends on."""
    import matplotlib

    from figures_src import _style

    h = hashlib.sha256()
    h.update(tree_digest(ROOT / "posenc" / "data", patterns=("*.yaml", "*.json")).encode())
    for name in ("__init__.py", "_style.py", "_labels.py"):
        h.update((ROOT / "figures_src" / name).read_bytes())
    family, path = _style.cjk_font()
    h.update(f"{matplotlib.__version__}|{family}|{path}|{Path(path).stat().st_size}".encode())
    return h.hexdigest()


def drawn_in(spec, lang: str) -> str:
    """The language ``spec`` is drawn in for a page in ``lang``: its own, once its module is converted."""
    from figures_src import _labels

    return lang if _labels.converted(spec.module.rpartition(".")[2]) else "zh"


def cache_key(spec, theme: str, lang: str = "zh") -> str:
    from figures_src import _labels
    from posenc import quantities

    module = sys.modules[spec.module]
    h = hashlib.sha256()
    h.update(_shared_digest().encode())
    h.update(Path(module.__file__).read_bytes())
    for dep in posenc_dependencies(module):
        h.update(dep.relative_to(ROOT).as_posix().encode() if dep.is_relative_to(ROOT) else str(dep).encode())
        h.update(dep.read_bytes())
    if module.__file__ and Path(module.__file__).is_file():
        for name in quoted_quantities(module):
            h.update(f"{name}={quantities.text(name, lang)}".encode())
    h.update(f"{lang}|{_labels.section_digest(spec.module.rpartition('.')[2], lang)}".encode())
    for extra in getattr(module, "INPUTS", ()):
        path = ROOT / extra
        h.update(tree_digest(path).encode() if path.is_dir() else path.read_bytes())
    h.update(f"{spec.name}|{theme}|{spec.size}".encode())
    return h.hexdigest()[:16]


@dataclass
class RenderReport:
    paths: dict[str, dict[str, Path]] = field(default_factory=dict)
    drawn: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> str:
        data = asdict(self)
        data["paths"] = {n: {t: str(p) for t, p in themes.items()} for n, themes in self.paths.items()}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "RenderReport":
        data = json.loads(text)
        data["paths"] = {n: {t: Path(p) for t, p in themes.items()} for n, themes in data["paths"].items()}
        return cls(**data)


def _needs_pending_results(spec) -> bool:
    """A figure drawn from the experiment's results while POSENC_EXPERIMENT_PENDING=1 is not drawn."""
    from posenc.experiment.claims import RESULTS_FILE, pending

    inputs = {(ROOT / p).resolve() for p in getattr(sys.modules[spec.module], "INPUTS", ())}
    return pending() and RESULTS_FILE.resolve() in inputs


def _planned(cache_dir: Path, only: set[str] | None, lang: str = "zh") -> dict[str, dict[str, Path]]:
    from figures_src import _style

    plan = {}
    for name, spec in sorted(load_all().items()):
        if (only is None or name in only) and not _needs_pending_results(spec):
            drawn = drawn_in(spec, lang)
            infix = "" if drawn == "zh" else f"{drawn}."
            plan[name] = {theme: cache_dir / f"{name}.{theme}.{infix}{cache_key(spec, theme, drawn)}.svg" for theme in _style.THEMES}
    return plan


_SVG_SIZE = re.compile(rb'<svg[^>]*?\swidth="([0-9.]+)pt"\s+height="([0-9.]+)pt"')


def drawn_sizes(name: str, lang: str = "zh", cache_dir: Path = DEFAULT_CACHE) -> dict[str, tuple[int, int]]:
    """{theme: (width, height) in CSS pixels} of figure ``name`` as drawn for ``lang``'s pages, for each theme
    already in the cache (1 pt = 4/3 px). A page gives its images this size, so the browser keeps their
    place before they load and nothing below a figure moves when it arrives (a slow network, a tap)."""
    spec = load_all()[name]
    sizes = {}
    for theme, path in _planned(cache_dir, {name}, drawn_in(spec, lang)).get(name, {}).items():
        if path.is_file():
            with path.open("rb") as f:
                found = _SVG_SIZE.search(f.read(1024))
            if not found:
                raise ValueError(f"{path}: no width/height in points on its <svg> element; figures_src/_style.render_svg writes them")
            sizes[theme] = tuple(round(float(v) * 4 / 3) for v in found.groups())
    return sizes


def render_all(cache_dir: Path = DEFAULT_CACHE, use_cache: bool = True, fresh_process: bool = False,
               only: set[str] | None = None, lang: str = "zh") -> RenderReport:
    """Make sure every figure (or those in ``only``) has an up-to-date SVG per theme in ``cache_dir``,
    as pages in ``lang`` show it.

    ``fresh_process``: draw what is missing in a new Python process (the build does this; see
    the module docstring). Otherwise draw here, with the figure modules this process imported.
    """
    start = time.perf_counter()
    cache_dir.mkdir(parents=True, exist_ok=True)
    if fresh_process:
        plan = _planned(cache_dir, only, lang)
        if use_cache and all(p.exists() for themes in plan.values() for p in themes.values()):
            report = RenderReport(paths=plan, cached=[f"{n}.{t}" for n, themes in plan.items() for t in themes])
        else:
            report = _render_in_subprocess(cache_dir, use_cache, only, lang)
    else:
        report = _render_here(cache_dir, use_cache, only, lang)
    _prune(cache_dir, keep={p for themes in report.paths.values() for p in themes.values()}, lang=lang)
    report.seconds = time.perf_counter() - start
    return report


def _render_here(cache_dir: Path, use_cache: bool, only: set[str] | None, lang: str = "zh") -> RenderReport:
    from figures_src import _style

    before = sources_digest()
    report = RenderReport(paths=_planned(cache_dir, only, lang))
    registry = load_all()
    for name, themes in report.paths.items():
        for theme_name, path in themes.items():
            label = f"{name}.{theme_name}"
            if use_cache and path.exists():
                report.cached.append(label)
                continue
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(_style.render_svg(registry[name], _style.THEMES[theme_name], drawn_in(registry[name], lang)))
            tmp.replace(path)  # atomic: an interrupted build never leaves half a figure
            report.drawn.append(label)
    if sources_digest() != before:
        for label in report.drawn:
            name, theme = label.rsplit(".", 1)
            report.paths[name][theme].unlink(missing_ok=True)
        raise SourcesChanged("posenc/ or figures_src/ changed while figures were drawn; discarded them, build again")
    return report


def _render_in_subprocess(cache_dir: Path, use_cache: bool, only: set[str] | None, lang: str = "zh") -> RenderReport:
    args = [sys.executable, "-m", "figures_src.build", "--out", str(cache_dir), "--json", "--lang", lang]
    args += [] if use_cache else ["--no-cache"]
    for name in sorted(only or ()):
        args += ["--only", name]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"drawing the figures failed (python -m figures_src.build, exit {proc.returncode}):\n{proc.stderr[-6000:]}")
    return RenderReport.from_json(proc.stdout.strip().splitlines()[-1])


def _language_of(path: Path) -> str:
    """The language of a cached drawing from its name: name.theme[.lang].key.svg (no lang: Chinese)."""
    parts = path.name.split(".")
    return parts[2] if len(parts) == 5 else "zh"


def _prune(cache_dir: Path, keep: set[Path], lang: str = "zh") -> None:
    """Delete superseded SVGs of ``lang``, but only old ones: another build running now may still be copying
    them (and the other language's build keeps its own)."""
    now = time.time()
    for path in cache_dir.glob("*.svg"):
        if path not in keep and _language_of(path) == lang and now - path.stat().st_mtime > STALE_AFTER_S:
            path.unlink(missing_ok=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_CACHE, help="folder for the SVGs (default: .cache/figures)")
    parser.add_argument("--no-cache", action="store_true", help="redraw every figure")
    parser.add_argument("--only", action="append", metavar="NAME", help="render only this figure (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line (for the build)")
    parser.add_argument("--lang", default="zh", choices=LANGUAGES, help="the language of the pages the figures are for (default zh)")
    args = parser.parse_args(argv)
    report = render_all(args.out, use_cache=not args.no_cache, only=set(args.only) if args.only else None, lang=args.lang)
    if args.json:
        print(report.to_json())
        return 0
    print(f"figures: {len(report.drawn)} drawn, {len(report.cached)} cached, {report.seconds:.1f} s")
    for label in report.drawn:
        print(f"  drew {label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
