"""Properties of the sinusoidal "clock": dot products, distances, turns (Vaswani et al. 2017, §3.5).

Everything here follows from PE(p, 2i) = sin(p·ω_i), PE(p, 2i+1) = cos(p·ω_i)
and the identity sin a·sin b + cos a·cos b = cos(a − b):

    PE(p)·PE(p+k)      = Σ_i cos(k·ω_i)                    (depends on k only)
    ‖PE(p+k) − PE(p)‖² = 2·(d/2 − Σ_i cos(k·ω_i))          (so does the distance)

``nearest_neighbour`` uses the second line to find the closest two encodings
among n positions in O(n·d) instead of comparing all n² pairs. ``dot_curve`` is
the first line as a function of k, the curve lesson 3 draws (and lesson 4 meets
again as RoPE's score of two equal vectors); ``first_rise``, ``lowest_dot`` and
``first_dot_below`` read off the points the lessons quote.
``position_scores`` shows what the identity does *not* give: once the encodings
pass through a query/key projection, as attention does, the score of two
positions generally depends on where they are, not only on how far apart.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _check
from .sinusoidal import DEFAULT_BASE, angular_frequencies, dot_matrix, encode, periods, shift_rotation, table


def shift_distance(k: int, d: int, base: float = DEFAULT_BASE) -> float:
    """‖PE(p+k) − PE(p)‖ for any p: √(d − 2·Σ_i cos(k·ω_i)).

    Expanding the square gives ‖PE(p+k)‖² + ‖PE(p)‖² − 2·PE(p)·PE(p+k); each
    encoding has squared norm d/2 (sin² + cos² = 1 per pair) and the dot product
    is Σ cos(k·ω_i) (§3.5 formula + the cosine difference identity).
    """
    k = _check.offset("k", k)
    w = angular_frequencies(d, base)
    return float(np.sqrt(max(d - 2.0 * np.sum(np.cos(k * w)), 0.0)))


def nearest_neighbour(n: int, d: int, base: float = DEFAULT_BASE) -> tuple[int, float]:
    """The two closest encodings among positions 0 … n−1: (their distance k, their Euclidean distance).

    Because the distance depends on k only, the minimum over all pairs is the
    minimum over k = 1 … n−1. A positive result means every position in the range
    has its own vector.
    """
    n = _check.integer("n", n, 2, "an integer of at least 2 (a nearest pair needs two positions)", 1024)
    w = angular_frequencies(d, base)
    ks = np.arange(1, n, dtype=np.float64)
    sq = d - 2.0 * np.cos(np.outer(ks, w)).sum(axis=1)
    j = int(np.argmin(sq))
    return j + 1, float(np.sqrt(max(sq[j], 0.0)))


def turns_within(length: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """How many full turns each hand makes while the position runs over ``length`` tokens: length / λ_i.

    A value below 1 means that pair never comes back to an angle inside the
    window: its angles beyond the window are ones the model never saw there.
    """
    return _check.tokens("length", length, 128) / periods(d, base)


def pairs_not_turning(length: int, d: int, base: float = DEFAULT_BASE) -> int:
    """How many pairs do not finish one full turn within ``length`` tokens: #{i : λ_i > length}.

    The same rule as ``rope.pairs_not_completing_turn`` (facts.md §2), for the sinusoid's
    pairs: ``turns_within`` below 1.
    """
    return int(np.sum(turns_within(length, d, base) < 1.0))


# --- the dot product as a function of distance -----------------------------------------------------------------


def dot_curve(max_distance: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Σ_i cos(k·ω_i) for k = 0 … max_distance: PE(p)·PE(p+k) for every p, from the closed form."""
    n = _check.integer("max_distance", max_distance, 1, "a positive integer distance in tokens", 200)
    return np.cos(np.outer(np.arange(n + 1, dtype=np.float64), angular_frequencies(d, base))).sum(axis=1)


def dots_from(p: int, max_distance: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """PE(p)·PE(p+k) for k = 0 … max_distance, computed from the encodings themselves (no identity used).

    Lesson 3 draws it for several starts p on top of ``dot_curve``: the curves coincide.
    """
    n = _check.integer("max_distance", max_distance, 1, "a positive integer distance in tokens", 200)
    rows = table(np.arange(n + 1) + _check.position("p", p), d, base)
    return rows @ encode(p, d, base)


def first_rise(max_distance: int, d: int, base: float = DEFAULT_BASE) -> int:
    """The first distance k after which the dot-product curve goes up: curve[k+1] > curve[k].

    Raises when the curve only falls within ``max_distance`` (raise the distance drawn).
    """
    rises = np.nonzero(np.diff(dot_curve(max_distance, d, base)) > 0)[0]
    if rises.size == 0:
        raise ValueError(f"the dot-product curve never rises within max_distance={max_distance}; pass a larger max_distance")
    return int(rises[0])


def lowest_dot(max_distance: int, d: int, base: float = DEFAULT_BASE) -> tuple[int, float]:
    """(k, Σ_i cos(k·ω_i)) at the lowest point of the curve for k = 0 … max_distance (the first, if tied).

    Only a statement about that range: the pairs' angles never line up exactly again, so
    farther out the curve keeps finding lower values, down towards −d/2 (``first_dot_below``).
    """
    curve = dot_curve(max_distance, d, base)
    k = int(np.argmin(curve))
    return k, float(curve[k])


def first_dot_below(value: float, d: int, base: float = DEFAULT_BASE, *, limit: int) -> int:
    """The smallest distance k ≤ limit with Σ_i cos(k·ω_i) < value; raises when there is none."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"value must be a finite number, got {value!r}")
    below = np.nonzero(dot_curve(limit, d, base) < value)[0]
    if below.size == 0:
        raise ValueError(f"the dot-product curve stays at or above {value} for k ≤ limit={limit}; pass a larger limit")
    return int(below[0])


def dot_matrix_shift_change(n: int, shift: int, d: int, base: float = DEFAULT_BASE) -> float:
    """max |PE(a+s)·PE(b+s) − PE(a)·PE(b)| over the positions a, b = 0 … n−1: rounding only, by the identity."""
    n = _check.integer("n", n, 2, "an integer of at least 2 (a nearest pair needs two positions)", 1024)
    s = _check.position("shift", shift)
    before = dot_matrix(np.arange(n), d, base)
    return float(np.abs(dot_matrix(np.arange(n) + s, d, base) - before).max())


# --- a shift is a rotation ---------------------------------------------------------------------------------


def turn_angles(k: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The angle each pair turns when the position moves on by k tokens: k·ω_i reduced to [0, 2π).

    The same for every start position: the rotation block of ``shift_rotation(k)``.
    """
    k = _check.offset("k", k)
    return np.mod(k * angular_frequencies(d, base), 2.0 * np.pi)


def rotation_error(p: int, k: int, d: int, base: float = DEFAULT_BASE) -> float:
    """max |M_k·PE(p) − PE(p+k)|: how far the rotation matrix of §3.5's "linear function" is from the formula."""
    p = _check.position("p", p)
    k = _check.offset("k", k)
    if p + k < 0:
        raise ValueError(f"p + k must be a position (≥ 0), got p={p}, k={k}")
    return float(np.abs(shift_rotation(k, d, base) @ encode(p, d, base) - encode(p + k, d, base)).max())


def random_projections(d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two d×d matrices W_q, W_k with entries N(0, 1/d): a freshly initialised attention head's projections."""
    d = _check.even_dim("d", d)
    if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}; pass e.g. seed=0")
    rng = np.random.default_rng(int(seed))
    scale = 1.0 / np.sqrt(d)
    return rng.normal(0.0, scale, (d, d)), rng.normal(0.0, scale, (d, d))


def position_scores(positions, w_q: np.ndarray, w_k: np.ndarray, base: float = DEFAULT_BASE) -> np.ndarray:
    """Attention logits of the position part alone: S[a, b] = (W_q·PE(a))·(W_k·PE(b)).

    With W_q = W_k = I this is the dot-product matrix, which depends on b − a only.
    For general projections, shifting every position by s turns it into
    PE(a)ᵀ M_sᵀ W_qᵀ W_k M_s PE(b) (M_s the rotation of §3.5), equal to the
    unshifted score only when W_qᵀ W_k commutes with every M_s.
    """
    w_q, w_k = np.asarray(w_q, dtype=np.float64), np.asarray(w_k, dtype=np.float64)
    if w_q.ndim != 2 or w_q.shape != w_k.shape or w_q.shape[0] != w_q.shape[1]:
        raise ValueError(f"w_q and w_k must be square matrices of the same shape, got {w_q.shape} and {w_k.shape}; build them with random_projections(d)")
    pe = table(positions, w_q.shape[1], base)
    return (pe @ w_q.T) @ (pe @ w_k.T).T
