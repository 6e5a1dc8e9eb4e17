"""YAML for posenc's data files, safe loading only, parsed by libyaml where PyYAML was built with it.

Every site build, figure process, snippet run and test worker reads the facts and model files; the
C parser reads them about ten times faster than PyYAML's pure-Python one, into the same values and
the same nodes (with their line numbers, which the duplicate-key checks report).
"""

from __future__ import annotations

from pathlib import Path

import yaml

_ROOT = Path(__file__).resolve().parents[1]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str):
    """The document's value, as ``yaml.safe_load`` gives it."""
    return yaml.load(text, Loader=_LOADER)


def load_with_nodes(text: str) -> tuple[object, yaml.Node | None]:
    """The document's value and its node tree (for line numbers) from one parse, as ``yaml.safe_load`` and
    ``yaml.compose`` would give them from two (PyYAML's ``get_single_data`` is these two steps)."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        return (None if node is None else loader.construct_document(node)), node
    finally:
        loader.dispose()


class YAMLFileError(ValueError):
    """A data file that is not valid YAML; the message names the file, the line and the column."""


def _parse_error(path, err: yaml.YAMLError) -> YAMLFileError:
    # The parser sees a string, so its own message says "<unicode string>": name the file instead.
    path = Path(path)
    try:
        path = path.resolve().relative_to(_ROOT)
    except ValueError:
        pass
    mark, context = getattr(err, "problem_mark", None), getattr(err, "context", None)
    context_mark = getattr(err, "context_mark", None)
    at = f"{path.as_posix()}:{mark.line + 1}:{mark.column + 1}" if mark is not None else path.as_posix()
    problem = getattr(err, "problem", None) or str(err).replace("\n", " ")
    if context:
        problem += f" ({context}{f' started at line {context_mark.line + 1}' if context_mark is not None else ''})"
    return YAMLFileError(f"{at}: not valid YAML: {problem}; fix the indentation or quoting there")


def load_file(path):
    """``load`` of the file at ``path``; a syntax error names the file and line (YAMLFileError)."""
    try:
        return load(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise _parse_error(path, err) from None


def load_file_with_nodes(path) -> tuple[object, yaml.Node | None]:
    """``load_with_nodes`` of the file at ``path``; a syntax error names the file and line (YAMLFileError)."""
    try:
        return load_with_nodes(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        raise _parse_error(path, err) from None
