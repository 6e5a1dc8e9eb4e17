"""YAML for posenc's data files, safe loading only, parsed by libyaml where PyYAML was built with it.

Every site build, figure process, snippet run and test worker reads the facts and model files; the
C parser reads them about ten times faster than PyYAML's pure-Python one, into the same values and
the same nodes (with their line numbers, which the duplicate-key checks report).
"""

from __future__ import annotations

import yaml

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
