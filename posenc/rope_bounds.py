"""How long a context a RoPE base can serve: Liu et al. 2023's critical dimension, Men et al. 2024's lower bound.

Two earlier papers count what lesson 4 and 5 count, each with its own quantity:

- **Critical dimension** (Liu et al. 2023, *Scaling Laws of RoPE-based Extrapolation*, arXiv:2310.05209;
  the authors' README, OpenLMLab/scaling-rope, eq. 12–13): for a training length T the first d_extra
  dims see a full period of their pair, the rest only part of one,

      d_extra = 2·⌈(d/2)·log_θ(T/2π)⌉.

  d_extra/2 is the number of pairs with λ_i ≤ T, so d/2 − d_extra/2 is the course's count of pairs that
  do not complete a turn within the training length (``rope.pairs_not_completing_turn``). Llama 2
  (d 128, θ 10⁴, T 4,096): 92, as the README says.
- **Lower bound on the base** (Men et al. 2024, *Base of RoPE Bounds Context Length*, arXiv:2405.14591):
  with q and k* = q + ε a "similar" key, the expected advantage of attending to it over a random key is
  proportional to B_{m,θ} = Σ_{i=0}^{d/2−1} cos(m·θ_i) (Theorem 1, Eq. 9); a base serves length L when
  B_{m,θ} ≥ 0 for every m in 0 … L (Eq. 10), and base_L is the smallest base that does (Eq. 11), found
  numerically. The set of bases that pass is not an interval (B dips below zero again above the first
  passing base), so ``passes`` is asked base by base; the paper's Table 2 lists one value per length.
  The authors call the bound "not very strict" (stacked layers reach further than one layer).

Partial RoPE: both quantities are defined over the rotary pairs; dims that do not rotate add the
constant cos 0 = 1 to B and are left out here, as the papers define B on rotated pairs only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _check
from .rope import inverse_frequencies, rotary_dim

_CHUNK = 16_384  # distances per block when summing B over a long range (keeps memory near 8 MB at 64 pairs)


def critical_dimension(head_dim: int, base: float, length: int, rotary_fraction: float = 1.0) -> int:
    """Liu et al. 2023's d_extra = 2⌈(d/2)·log_θ(T/2π)⌉ (README eq. 13), kept within 0 … d.

    The dims 0 … d_extra − 1 belong to pairs whose period 2π·θ^(2i/d) is at most T (eq. 12): they saw
    every angle in training. Below T = 2π no pair does (0); past the slowest period every pair does (d).
    """
    d = rotary_dim(head_dim, rotary_fraction)
    base = _check.base("base", base)
    T = _check.tokens("length", length)
    x = (d / 2) * math.log(T / (2 * math.pi)) / math.log(base)
    return int(min(max(2 * math.ceil(x), 0), d))


def similarity_sum(distances, head_dim: int, base: float, rotary_fraction: float = 1.0) -> np.ndarray:
    """Men et al. 2024's B_{m,θ} = Σ_i cos(m·θ_i) at each distance m (Theorem 1, Eq. 9), over the rotary pairs.

    B is (1/2σ²) times how much more q scores a similar key than a random one at distance m, for q, k
    with i.i.d. components of standard deviation σ. B = d/2 at m = 0.
    """
    m = _check.positions("distances", distances).astype(np.float64)
    omega = inverse_frequencies(head_dim, base, rotary_fraction)
    return np.cos(np.outer(m, omega)).sum(axis=1)


@dataclass(frozen=True)
class BaseCheck:
    """Men et al.'s test of one base at one length: is B_{m,θ} ≥ 0 for every distance 0 … length?"""

    head_dim: int
    base: float
    length: int
    first_negative: int | None  # the first distance m with B < 0, None if there is none up to length
    minimum: float  # min over m = 0 … length of B_{m,θ}
    at: int  # the distance where that minimum falls

    @property
    def passes(self) -> bool:
        return self.first_negative is None

    @property
    def supported_length(self) -> int:
        """Eq. 10's L_θ, as far as this check looked: the last m before B first turns negative (length if never)."""
        return self.length if self.first_negative is None else self.first_negative - 1


def check_base(head_dim: int, base: float, length: int, rotary_fraction: float = 1.0) -> BaseCheck:
    """B_{m,θ} for every distance m = 0 … length (Men et al. Eq. 10's condition), with where it first turns negative."""
    L = _check.tokens("length", length)
    base = _check.base("base", base)
    first, minimum, at = None, math.inf, 0
    for start in range(0, L + 1, _CHUNK):
        m = np.arange(start, min(start + _CHUNK, L + 1))
        b = similarity_sum(m, head_dim, base, rotary_fraction)
        j = int(np.argmin(b))
        if b[j] < minimum:
            minimum, at = float(b[j]), int(m[j])
        if first is None:
            neg = np.flatnonzero(b < 0)
            if neg.size:
                first = int(m[neg[0]])
    return BaseCheck(head_dim=head_dim, base=base, length=L, first_negative=first, minimum=minimum, at=at)


def lowest_passing_base(head_dim: int, length: int, bases, rotary_fraction: float = 1.0) -> float | None:
    """The first base of an ascending grid that passes ``check_base`` at ``length`` (Eq. 11 on that grid), or None.

    A grid only: the passing bases do not form an interval, so no bisection is exact, and a base above
    the one returned may still fail (Men et al.'s Table 2 value for 32K, 6.4e5, does; 6.3e5 passes).
    """
    grid = np.asarray(bases, dtype=np.float64)
    if grid.ndim != 1 or grid.size == 0 or np.any(np.diff(grid) <= 0):
        raise ValueError(f"bases must be a non-empty ascending 1-D grid of bases, got {bases!r}; e.g. np.geomspace(1e4, 1e7, 61)")
    for b in grid:
        if check_base(head_dim, float(b), length, rotary_fraction).passes:
            return float(b)
    return None
