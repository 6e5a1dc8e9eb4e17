"""Assertions shared by the test files (a plain module, imported as ``from expect import ...``)."""

from __future__ import annotations

import re

import pytest


def raises_exactly(message: str):
    """pytest.raises(ValueError) whose message must be exactly ``message``.

    ``match`` alone is a search: ``match="base"`` also passes for "new_base must be ...", so an error
    that blames the wrong argument would go unnoticed.
    """
    return pytest.raises(ValueError, match=f"^{re.escape(message)}$")
