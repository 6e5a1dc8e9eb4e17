"""Render every registered figure to SVG, light and dark, skipping unchanged ones.

A figure is redrawn only when its cache key changes. The key hashes what
can change the drawing: the figure's module source, the posenc modules it
uses (followed through their own imports), posenc's data files, the shared
style code, matplotlib's version and the font file. A figure module that
draws other inputs (experiment results) lists them in a module-level
``INPUTS = [path, ...]`` (relative to the repository root).

Dependencies are found by following module globals, so editing posenc/rope.py
does not redraw lesson 3's figures. posenc.quantities is not followed into the
lesson modules it loads: numbers there only reach alt text and captions,
which live in the HTML, not in the SVG. Editing lesson prose changes none of these, so a
rebuild after a prose edit redraws nothing.

    python -m figures_src.build --out /tmp/figs [--no-cache]   # render all, report what was drawn
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import pkgutil
import sys
import time
import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import matplotlib

import figures_src
from figures_src import REGISTRY, _style

ROOT = Path(__file__).resolve().parent.parent
# POSENC_FIGURE_CACHE points a build at another cache (an empty one for a truly clean build).
DEFAULT_CACHE = Path(os.environ.get("POSENC_FIGURE_CACHE") or ROOT / ".cache" / "figures")
STALE_AFTER_S = 3600  # superseded SVGs are removed once this old, never while a parallel build may still copy them


def load_all() -> dict:
    for mod in pkgutil.iter_modules(figures_src.__path__):
        if not mod.name.startswith("_") and mod.name != "build":
            importlib.import_module(f"figures_src.{mod.name}")
    return REGISTRY


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


@lru_cache(maxsize=None)
def _shared_digest() -> str:
    """Digest of everything every figure depends on."""
    h = hashlib.sha256()
    h.update(tree_digest(ROOT / "posenc" / "data", patterns=("*.yaml", "*.json")).encode())
    for name in ("__init__.py", "_style.py"):
        h.update((ROOT / "figures_src" / name).read_bytes())
    family, path = _style.cjk_font()
    h.update(f"{matplotlib.__version__}|{family}|{path}|{Path(path).stat().st_size}".encode())
    return h.hexdigest()


def cache_key(spec, theme: str) -> str:
    module = sys.modules[spec.module]
    h = hashlib.sha256()
    h.update(_shared_digest().encode())
    h.update(Path(module.__file__).read_bytes())
    for dep in posenc_dependencies(module):
        h.update(dep.relative_to(ROOT).as_posix().encode())
        h.update(dep.read_bytes())
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


def render_all(cache_dir: Path = DEFAULT_CACHE, use_cache: bool = True) -> RenderReport:
    """Make sure every figure has an up-to-date SVG per theme in ``cache_dir``."""
    start = time.perf_counter()
    cache_dir.mkdir(parents=True, exist_ok=True)
    report = RenderReport()
    for name, spec in sorted(load_all().items()):
        report.paths[name] = {}
        for theme_name, theme in _style.THEMES.items():
            key = cache_key(spec, theme_name)
            path = cache_dir / f"{name}.{theme_name}.{key}.svg"
            label = f"{name}.{theme_name}"
            if use_cache and path.exists():
                report.cached.append(label)
            else:
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(_style.render_svg(spec, theme))
                tmp.replace(path)  # atomic: an interrupted build never leaves half a figure
                report.drawn.append(label)
            report.paths[name][theme_name] = path
    _prune(cache_dir, keep={p for themes in report.paths.values() for p in themes.values()})
    report.seconds = time.perf_counter() - start
    return report


def _prune(cache_dir: Path, keep: set[Path]) -> None:
    """Delete superseded SVGs, but only old ones: another build running now may still be copying them."""
    now = time.time()
    for path in cache_dir.glob("*.svg"):
        if path not in keep and now - path.stat().st_mtime > STALE_AFTER_S:
            path.unlink(missing_ok=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_CACHE, help="folder for the SVGs (default: .cache/figures)")
    parser.add_argument("--no-cache", action="store_true", help="redraw every figure")
    args = parser.parse_args(argv)
    report = render_all(args.out, use_cache=not args.no_cache)
    print(f"figures: {len(report.drawn)} drawn, {len(report.cached)} cached, {report.seconds:.1f} s")
    for label in report.drawn:
        print(f"  drew {label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
