"""Sinusoidal position encoding (Vaswani et al. 2017, "Attention Is All You Need", §3.5).

    PE(p, 2i)   = sin(p · ω_i)
    PE(p, 2i+1) = cos(p · ω_i),        ω_i = base^(-2i/d),  i = 0 … d/2 − 1

Pair i is one "clock hand" turning at ω_i radians per token. The base defaults
to the paper's 10,000; the dimension is always an explicit argument (the lessons'
example dimensions live in ``posenc.examples``).
"""

from __future__ import annotations

import numpy as np

from . import _check

DEFAULT_BASE = 10_000.0  # §3.5: "10000^(2i/d_model)"
PAPER_DIM = 512  # d_model of the paper's base Transformer (Table 3)


def angular_frequencies(d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """ω_i = base^(-2i/d) for i = 0 … d/2 − 1 (§3.5), in radians per token.

    Pair 0 turns fastest (ω_0 = 1); the last pair turns slowest.
    """
    d = _check.even_dim("d", d)
    base = _check.base("base", base)
    i = np.arange(d // 2, dtype=np.float64)
    return base ** (-2.0 * i / d)


def periods(d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Wavelength of each pair in tokens, λ_i = 2π / ω_i = 2π · base^(2i/d).

    §3.5 says the wavelengths run "from 2π to 10000·2π"; that upper end is a
    limit: the slowest pair actually has 2π · base^((d−2)/d).
    """
    return 2.0 * np.pi / angular_frequencies(d, base)


def period_ratio(d: int, base: float = DEFAULT_BASE) -> float:
    """λ_(i+1) / λ_i = base^(2/d): each pair's period is the previous one's times this (a geometric series)."""
    d = _check.even_dim("d", d)
    return float(_check.base("base", base) ** (2.0 / d))


def period_limit(base: float = DEFAULT_BASE) -> float:
    """2π · base: the upper end of §3.5's "geometric progression from 2π to 10000·2π".

    It is the period pair i = d/2 would have; the slowest real pair, i = d/2 − 1, stays
    below it by the factor base^(−2/d) (``periods(d, base)[-1]``).
    """
    return 2.0 * np.pi * _check.base("base", base)


def encode(p: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """PE(p): the d numbers of position p, sin on even and cos on odd dimensions (§3.5)."""
    p = _check.position("p", p)
    return table(np.array([p]), d, base)[0]


def table(positions, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The rows PE(p) for each p in ``positions``; shape (len(positions), d) (§3.5).

    ``positions`` may be an int n (meaning 0 … n−1) or a 1-D sequence of positions.
    """
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        if positions <= 0:
            raise ValueError(f"positions must be a positive length or a list of positions, got {positions}; pass e.g. 8")
        positions = np.arange(positions)
    pos = _check.positions("positions", positions).astype(np.float64)
    angles = np.outer(pos, angular_frequencies(d, base))  # (n, d/2): p · ω_i
    pe = np.empty((pos.size, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def hand_angles(p: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Angle of each clock hand at position p, p·ω_i reduced to [0, 2π)."""
    p = _check.position("p", p)
    return np.mod(p * angular_frequencies(d, base), 2.0 * np.pi)


def dot(a: int, b: int, d: int, base: float = DEFAULT_BASE) -> float:
    """PE(a) · PE(b), computed from the two encodings."""
    return float(encode(a, d, base) @ encode(b, d, base))


def dot_closed_form(k: int, d: int, base: float = DEFAULT_BASE) -> float:
    """Σ_i cos(k·ω_i): what PE(p)·PE(p+k) equals for every p.

    From sin x sin y + cos x cos y = cos(x − y) applied to each pair; p cancels.
    """
    k = _check.offset("k", k)
    return float(np.sum(np.cos(k * angular_frequencies(d, base))))


def dot_matrix(positions, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """All pairwise dot products PE(a)·PE(b) for a sentence's positions."""
    pe = table(positions, d, base)
    return pe @ pe.T


def shift_rotation(k: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The d×d matrix M_k with PE(p + k) = M_k · PE(p) for every p (§3.5's "linear function").

    Block-diagonal: for pair i, (sin, cos) turns by the fixed angle k·ω_i,
        [sin(x+θ)]   [ cos θ   sin θ] [sin x]
        [cos(x+θ)] = [−sin θ   cos θ] [cos x],   θ = k·ω_i.
    M_k depends on k only, never on p.
    """
    k = _check.offset("k", k)
    theta = k * angular_frequencies(d, base)
    c, s = np.cos(theta), np.sin(theta)
    m = np.zeros((d, d), dtype=np.float64)
    idx = np.arange(0, d, 2)
    m[idx, idx] = c
    m[idx, idx + 1] = s
    m[idx + 1, idx] = -s
    m[idx + 1, idx + 1] = c
    return m


SINUSOID_RMS = 1.0 / np.sqrt(2.0)  # RMS of sin or cos over a full turn


def content_to_position_ratio(embed_std: float, position_rms: float = SINUSOID_RMS) -> float:
    """How large token content is next to the position signal it is added to: std / RMS.

    A token embedding initialised with N(0, embed_std²) has RMS embed_std; each
    sinusoidal component has RMS 1/√2. Their ratio is the share of content in
    the sum at initialisation (the 2.8% of lesson 3 for std 0.02).
    """
    return _check.positive("embed_std", embed_std) / _check.positive("position_rms", position_rms)


def embedding_scale(d_model: int) -> float:
    """√d_model: the factor §3.4 multiplies the embedding weights by before adding PE."""
    return float(np.sqrt(_check.even_dim("d_model", d_model)))


def distinct_positions(n: int, d: int, base: float = DEFAULT_BASE, atol: float = 1e-9) -> bool:
    """True when PE(0) … PE(n−1) are pairwise distinct (no two rows within atol)."""
    pe = table(n, d, base)
    sq = np.sum(pe**2, axis=1)
    dist2 = sq[:, None] + sq[None, :] - 2 * pe @ pe.T
    np.fill_diagonal(dist2, np.inf)
    return bool(np.min(dist2) > atol**2)


def table_torch(max_len: int, d: int, base: float = DEFAULT_BASE):
    """The same table in torch, written the way lesson 3's walk-through builds it.

    Uses exp(−ln(base)·2i/d) for ω_i, the common implementation trick; equal to
    angular_frequencies() up to float32 rounding.
    """
    import torch

    d = _check.even_dim("d", d)
    base = _check.base("base", base)
    if isinstance(max_len, bool) or not isinstance(max_len, int) or max_len <= 0:
        raise ValueError(f"max_len must be a positive integer, got {max_len!r}")
    position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)  # (max_len, 1)
    omega = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-np.log(base) / d))  # (d/2,)
    pe = torch.zeros(max_len, d)
    pe[:, 0::2] = torch.sin(position * omega)
    pe[:, 1::2] = torch.cos(position * omega)
    return pe
