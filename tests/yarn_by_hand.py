"""YaRN written out by hand, the independent reference that test_scaling.py and test_lesson5.py compare posenc with.

Term by term with ``math``, from the YaRN paper (Peng et al. 2023, arXiv:2309.00071: Eq. 16's NTK-by-parts
γ(r)) and its reference code's correction range; it shares nothing with posenc.scaling. Model constants come
from posenc/data/models.yaml, read directly rather than through posenc.configs.
"""

from __future__ import annotations

import math
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
MODELS = yaml.safe_load((ROOT / "posenc" / "data" / "models.yaml").read_text(encoding="utf-8"))


def field(model, name):
    return MODELS[model]["fields"][name]["value"]


QWEN = {"d": field("qwen3_8b", "head_dim"), "theta": float(field("qwen3_8b", "rope_theta")),
        "s": field("qwen3_8b", "scaling")["factor"], "L": field("qwen3_8b", "scaling")["original_max_position_embeddings"]}


def omega_by_hand(j, d, theta):
    return theta ** (-2 * j / d)


def correction_dim_by_hand(r, d, theta, L):
    """Pair index j whose pair turns r times in L tokens: L / (2π θ^(2j/d)) = r, solved for j."""
    return d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta))


def correction_range_by_hand(beta_fast, beta_slow, d, theta, L, truncate=True):
    """YaRN's (low, high): floor/ceil of the correction dims when truncating, then clamped to [0, d − 1]."""
    low, high = correction_dim_by_hand(beta_fast, d, theta, L), correction_dim_by_hand(beta_slow, d, theta, L)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, d - 1)


def yarn_by_hand(d, theta, s, L, fast=32.0, slow=1.0, truncate=True):
    """(ω', ramp, low, high) pair by pair, from the YaRN reference code's description."""
    low, high = correction_range_by_hand(fast, slow, d, theta, L, truncate)
    if high == low:  # the reference code's guard against a zero-width ramp
        high += 0.001
    out, ramps = [], []
    for j in range(d // 2):
        ramp = min(max((j - low) / (high - low), 0.0), 1.0)
        w = omega_by_hand(j, d, theta)
        out.append((1 - ramp) * w + ramp * w / s)
        ramps.append(ramp)
    return out, ramps, low, high


def gamma_by_hand(r, alpha=1.0, beta=32.0):
    """YaRN's NTK-by-parts γ(r): 0 below α, 1 above β, linear in r between."""
    if r < alpha:
        return 0.0
    if r > beta:
        return 1.0
    return (r - alpha) / (beta - alpha)
