"""RoPE's angles in low precision: what bfloat16 does to position × frequency at long context.

RoPE turns pair i at position p by the angle p·ω_i. Computed in bfloat16 (8 significant bits), both the
position and the product are rounded: from position 256 on, not every position is representable, and
at 32K neighbouring positions share one bf16 value. Wang et al. 2024 (*When Precision Meets Position:
BFloat16 Breaks Down RoPE in Long-Context Training*, arXiv:2411.13476) show that bf16 breaks RoPE's
relative property at long context (there the rotation itself ran in float32 and the loss came from the
q·k product inside FlashAttention-2 in bf16). This module computes the first, simplest part of that
story on real configs: the error of the angle p·ω_i itself when it is formed in bf16 and in float32.

``to_bfloat16`` rounds like a float32 → bfloat16 cast (round to nearest, ties to even), written out on
the bits so numpy needs no bf16 type; tests compare it with torch's cast.
"""

from __future__ import annotations

import math

import numpy as np

from . import _check
from .rope import inverse_frequencies, rotary_dim

PRECISIONS = ("bfloat16", "float32")
BF16_MANTISSA_BITS = 7  # stored bits after the leading 1 (float32 has 23)


def to_bfloat16(x) -> np.ndarray:
    """Round to the nearest bfloat16 (ties to even), returned as float32 values.

    bfloat16 is float32's top 16 bits: sign, 8 exponent bits, 7 mantissa bits. Rounding adds 0x7FFF plus
    the lowest kept bit to the 32-bit pattern, then drops the low 16 bits (the usual round-to-nearest-even
    on the bit pattern). Inputs are first rounded to float32, as a cast from a float32 tensor would be.
    """
    arr = np.asarray(x, dtype=np.float32)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"x must be finite numbers, got {np.asarray(x)[~np.isfinite(arr)][:3]}")
    bits = np.ascontiguousarray(arr).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32).reshape(arr.shape)


def largest_exact_integer() -> int:
    """2^8 = 256: bf16 has 8 significant bits (7 stored), so 0 … 256 are exact and 257 is not."""
    return 2 ** (BF16_MANTISSA_BITS + 1)


def bf16_spacing(position: int) -> int:
    """The gap between a positive integer position's neighbouring bfloat16 values: 2^(⌊log₂ p⌋ − 7), 1 below 256.

    Every integer up to 256 is exact; in [2^k, 2^(k+1)) only multiples of 2^(k−7) are, so at 32,767 the
    neighbours are 128 apart and at 131,071 512 apart.
    """
    p = _check.integer("position", position, minimum=1, what="a positive position", example=32_767)
    return max(1, 2 ** (math.floor(math.log2(p)) - BF16_MANTISSA_BITS))


def angles(position: int, head_dim: int, base: float, precision: str, rotary_fraction: float = 1.0) -> np.ndarray:
    """p·ω_i for every pair as a model computes it in ``precision`` (returned as float64 for comparison).

    "bfloat16": position and ω_i are cast to bf16 and their product rounded to bf16 (a torch bf16
    multiply). "float32": the same in float32 (transformers' ``position_ids.float() * inv_freq``).
    """
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    p = _check.position("position", position)
    omega = inverse_frequencies(head_dim, base, rotary_fraction)
    if precision == "float32":
        return (np.float32(p) * omega.astype(np.float32)).astype(np.float64)
    product = to_bfloat16(p).astype(np.float32) * to_bfloat16(omega)  # exact in float32: 8 × 8 bits
    return to_bfloat16(product).astype(np.float64)


def transformers_inverse_frequencies(head_dim: int, base: float, rotary_fraction: float = 1.0) -> np.ndarray:
    """ω_i as transformers builds its float32 ``inv_freq``: ``1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float) / d))``
    (``LlamaRotaryEmbedding.compute_default_rope_parameters``), on the CPU.

    The float32 power carries its own rounding error, so these differ from ω_i rounded once to float32 by a
    few float32 steps; at a large position p that shifts the angle p·ω_i by more than the multiply's own rounding.
    """
    import torch

    dim = rotary_dim(head_dim, rotary_fraction)
    base = _check.base("base", base)
    return (1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float) / dim))).numpy()


def transformers_float32_angle_errors(position: int, head_dim: int, base: float, rotary_fraction: float = 1.0) -> np.ndarray:
    """|p·ω_i in float32 with transformers' own ``inv_freq`` − p·ω_i in float64|, per pair, in radians
    (transformers' ``position_ids.float() * inv_freq``)."""
    p = _check.position("position", position)
    phi = np.float32(p) * transformers_inverse_frequencies(head_dim, base, rotary_fraction)
    return np.abs(phi.astype(np.float64) - p * inverse_frequencies(head_dim, base, rotary_fraction))


def angle_errors(position: int, head_dim: int, base: float, precision: str, rotary_fraction: float = 1.0) -> np.ndarray:
    """|angle in ``precision`` − p·ω_i in float64|, per pair, in radians.

    An error near π or above means the pair points anywhere: its angle no longer says where the token is.
    """
    exact = position * inverse_frequencies(head_dim, base, rotary_fraction)
    return np.abs(angles(position, head_dim, base, precision, rotary_fraction) - exact)


def cos_sin_cast_error(position: int, head_dim: int, base: float, rotary_fraction: float = 1.0) -> float:
    """The largest change of cos and sin at position p when the float32 table is cast to bf16 (transformers' path).

    transformers forms the angles and their cos and sin in float32 and casts cos and sin to the model's
    dtype (``cos.to(dtype=x.dtype)``); bf16 keeps 8 significant bits, so each entry moves by at most
    2^−9 (half a unit in the last place for values in [0.5, 1)).
    """
    phi = angles(position, head_dim, base, "float32", rotary_fraction).astype(np.float32)
    table = np.concatenate([np.cos(phi), np.sin(phi)])
    return float(np.max(np.abs(to_bfloat16(table).astype(np.float64) - table.astype(np.float64))))
