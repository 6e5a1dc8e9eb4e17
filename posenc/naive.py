"""The naive design of lesson 2: add the raw position index to the token vector.

If each component of the token vector has RMS ``content_rms`` and position p is
added as the number p, content is content_rms / p of the position signal:
the index grows without bound and drowns the content.
"""

from __future__ import annotations

import numpy as np

from . import _check


def raw_index_content_ratio(p: int, content_rms: float) -> float:
    """Content RMS divided by the added index p (p ≥ 1; at p = 0 nothing is added)."""
    p = _check.position("p", p)
    if p == 0:
        raise ValueError("p must be at least 1: at position 0 the naive design adds nothing, so the ratio is undefined")
    return _check.positive("content_rms", content_rms) / p


def normalised_index(length: int) -> np.ndarray:
    """Positions squeezed into [0, 1] as p / (length − 1): the other naive fix lesson 2 rejects."""
    if isinstance(length, bool) or not isinstance(length, int) or length < 2:
        raise ValueError(f"length must be an integer of at least 2, got {length!r}")
    return np.arange(length) / (length - 1)
