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


def compose(text: str) -> yaml.Node | None:
    """The document's node tree, as ``yaml.compose`` gives it with the safe loader."""
    return yaml.compose(text, Loader=_LOADER)
