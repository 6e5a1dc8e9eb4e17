"""The naive position design: add the raw position index to the token vector (lesson 2 tries it).

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


def raw_index_content_ratios(positions, content_rms: float) -> np.ndarray:
    """``raw_index_content_ratio`` for many positions at once (each ≥ 1): content_rms / p."""
    ps = _check.positions("positions", positions)
    if np.any(ps == 0):
        raise ValueError("positions must all be at least 1: at position 0 the naive design adds nothing, so the ratio is undefined")
    return _check.positive("content_rms", content_rms) / ps.astype(np.float64)


def normalised_value(p: int, length: int) -> float:
    """p / (length − 1): where position p lands on [0, 1] in a sequence of ``length`` tokens."""
    p = _check.position("p", p)
    step = normalised_step(length)
    if p >= length:
        raise ValueError(f"p must be a position inside the sequence (0 … {length - 1}), got {p}")
    return p * step


def normalised_step(length: int) -> float:
    """1 / (length − 1): how far apart two neighbouring tokens are after squeezing into [0, 1]."""
    return float(normalised_index(length)[1])


def normalised_gap_in_tokens(gap: float, length: int) -> float:
    """How many tokens apart two positions are when their normalised values differ by ``gap``: gap · (length − 1)."""
    if isinstance(gap, bool) or not isinstance(gap, (int, float, np.floating)) or not 0 <= gap <= 1:
        raise ValueError(f"gap must be a number in [0, 1] (a distance on the normalised scale), got {gap!r}")
    return float(gap) / normalised_step(length)


def position_where_share_falls_to(share: float, content_rms: float) -> int:
    """The first position p ≥ 1 at which content is at most ``share`` of the added index: content_rms / p ≤ share.

    Closed form p = ⌈content_rms / share⌉, nudged by one where floating point rounds the quotient.
    """
    if isinstance(share, bool) or not isinstance(share, (int, float, np.floating)) or not 0 < share:
        raise ValueError(f"share must be a positive number (e.g. 0.01 for 1%), got {share!r}")
    rms = _check.positive("content_rms", content_rms)
    p = max(1, int(np.ceil(rms / share)))
    while p > 1 and rms / (p - 1) <= share:
        p -= 1
    while rms / p > share:
        p += 1
    return p


def normalised_position(value: float, length: int) -> float:
    """The position p whose normalised value p / (length − 1) is ``value``: value · (length − 1), maybe not a whole token."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not 0 <= value <= 1:
        raise ValueError(f"value must be a number in [0, 1] (a point on the normalised scale), got {value!r}")
    return float(value) / normalised_step(length)
