"""The project's layers, enforced on the imports each file makes (read with ast, nothing is imported):

    posenc core      everything in posenc/ except the registry (posenc/quantities/) and the experiment's
                     page-side readers (posenc/experiment/claims.py, figures.py): pure math and data;
                     imports none of the registry, MkDocs, matplotlib, figures_src or tools
    figure modules   figures_src/lesson*.py, experiment.py: draw what posenc computes; import posenc,
                     numpy (arrays to hand to matplotlib), matplotlib and figures_src, nothing else
    tools/           glue between MkDocs and posenc: no math library of its own (numpy, torch, math, …);
                     tools/build/snippet_runner.py imports numpy and torch only to load them once for the
                     snippets it forks, and calls nothing in them

and, over every module of posenc/, figures_src/ and tools/ (imports inside functions included), the layers
in one order, each importing only its own layer and those below it, with no import loop:

    0 posenc core       (the math, the data readers, posenc/examples.py)
    1 posenc.experiment (the training experiment: built on the core; the core, examples included, never imports it)
    2 posenc.quantities (the registry: the core's numbers and the experiment's results, named for the prose)
    3 figures_src       (figure code and its build)
    4 tools             (MkDocs hooks and macros, the lint, the scripts)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CORE = sorted(p for p in (ROOT / "posenc").rglob("*.py")
              if "quantities" not in p.relative_to(ROOT / "posenc").parts
              and p.relative_to(ROOT).as_posix() not in ("posenc/experiment/claims.py", "posenc/experiment/figures.py"))
FIGURE_MODULES = sorted(p for p in (ROOT / "figures_src").glob("*.py") if not p.name.startswith("_") and p.name != "build.py")
TOOLS = sorted((ROOT / "tools").rglob("*.py"))

CORE_FORBIDDEN = ("posenc.quantities", "mkdocs", "mkdocs_macros", "mkdocs_jupyter", "matplotlib", "figures_src", "tools")
FIGURE_ALLOWED = ("__future__", "numpy", "matplotlib", "figures_src", "posenc")
TOOLS_FORBIDDEN = ("numpy", "torch", "scipy", "math", "cmath", "statistics", "sympy")
TOOLS_PRELOADED = {"tools/build/snippet_runner.py": {"numpy", "torch"}}  # imported, never called (module docstring)


def imports(path: Path, package: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``, relative imports resolved."""
    if package is None:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.append((node.lineno, mod))
            out += [(node.lineno, f"{mod}.{a.name}") for a in node.names]  # "from posenc import quantities"
    return out


def _is(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _violations(paths, bad) -> list[str]:
    return [f"{p.relative_to(ROOT)}:{line}: imports {mod}" for p in paths for line, mod in imports(p) if bad(mod)]


def test_posenc_core_imports_no_registry_mkdocs_or_matplotlib():
    assert len(CORE) > 10
    found = _violations(CORE, lambda m: any(_is(m, f) for f in CORE_FORBIDDEN))
    assert not found, "posenc core must stay pure math and data:\n  " + "\n  ".join(found)


def test_figure_modules_import_only_posenc_numpy_and_matplotlib():
    assert len(FIGURE_MODULES) >= 6
    found = _violations(FIGURE_MODULES, lambda m: not any(_is(m, a) for a in FIGURE_ALLOWED))
    assert not found, "figure modules draw what posenc computes; compute in posenc instead:\n  " + "\n  ".join(found)


def test_tools_hold_glue_not_math():
    found = [f"{p.relative_to(ROOT)}:{line}: imports {mod}" for p in TOOLS for line, mod in imports(p)
             if any(_is(mod, f) for f in TOOLS_FORBIDDEN) and mod not in TOOLS_PRELOADED.get(p.relative_to(ROOT).as_posix(), ())]
    assert not found, "tools/ is glue between MkDocs and posenc; put the math in posenc:\n  " + "\n  ".join(found)


def test_the_preloading_runner_calls_nothing_in_what_it_preloads():
    """The exception above covers an import only: any use of numpy or torch in the runner is math in tools/."""
    for rel, names in TOOLS_PRELOADED.items():
        tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names})
        assert not used, f"{rel} uses {used}: it may only import them, for the forks to share"


@pytest.mark.parametrize("source, bad", [
    ("from posenc.quantities import number\n", "posenc.quantities"),
    ("from . import quantities\n", "posenc.quantities"),
    ("import matplotlib.pyplot as plt\n", "matplotlib"),
])
def test_the_check_sees_each_kind_of_import(tmp_path, source, bad):
    fake = tmp_path / "probe.py"
    fake.write_text(source, encoding="utf-8")
    assert any(_is(m, bad) for _, m in imports(fake, package="posenc"))


def test_tests_import_their_dependencies_instead_of_skipping_without_them():
    """`make test` installs every pinned package: a test that skips when one is missing hides a broken setup."""
    skipping = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "importorskip":
                skipping.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not skipping, "import the package instead (requirements.lock pins it): " + ", ".join(skipping)


# --- layers and loops over the whole project ---------------------------------------------------------------

PACKAGES = ("posenc", "figures_src", "tools")
LAYERS = (("tools", 4), ("figures_src", 3), ("posenc.quantities", 2), ("posenc.experiment", 1), ("posenc", 0))


def project_modules() -> dict[str, Path]:
    """Dotted name → file of every module in posenc/, figures_src/ and tools/ (a package under its own name)."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def import_graph() -> dict[str, dict[str, int]]:
    """module → {project module it imports: the line of the first such import}."""
    modules = project_modules()

    def resolve(name: str) -> str | None:  # "posenc.rope.spectrum" → "posenc.rope"
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for line, mod in imports(path, package):
            target = resolve(mod or "")
            if target and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


def layer(module: str) -> int:
    return next(level for prefix, level in LAYERS if _is(module, prefix))


def import_loops(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                loops.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return loops


def test_no_import_loop_in_posenc_figures_src_or_tools():
    graph = import_graph()
    assert any(m.startswith("tools.") for m in graph) and any(m.startswith("figures_src.") for m in graph)
    loops = import_loops(graph)
    described = ["  " + " ↔ ".join(f"{m} ({project_modules()[m].relative_to(ROOT)})" for m in loop) for loop in loops]
    assert not loops, "modules that import each other (move what both need into one of them):\n" + "\n".join(described)


def test_each_layer_imports_only_its_own_and_lower_layers():
    graph = import_graph()
    modules = project_modules()
    found = [f"{modules[src].relative_to(ROOT)}:{line}: imports {dst} (layer {layer(dst)}) from layer {layer(src)}"
             for src, edges in sorted(graph.items()) for dst, line in sorted(edges.items()) if layer(dst) > layer(src)]
    assert not found, "an import against the layers in this file's docstring:\n  " + "\n  ".join(found)


def test_the_loop_and_layer_checks_see_a_loop_and_an_upward_import():
    graph = {"tools.a": {"tools.b": 1}, "tools.b": {"tools.a": 3}, "posenc.examples": {"posenc.experiment.config": 5}}
    assert import_loops(graph) == [["tools.a", "tools.b"]]
    assert layer("posenc.examples") < layer("posenc.experiment.config") < layer("posenc.quantities.lesson1")
    assert layer("posenc.quantities") < layer("figures_src.build") < layer("tools.build.macros")
