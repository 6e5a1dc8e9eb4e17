"""Loss at every position 0 … eval_len−1 of the validation windows.

A model trained at length 128 is run on length-512 windows. Causal attention
means position p only sees tokens 0 … p of its window, so positions 0–127 see
exactly what a length-128 window would show them: the in-distribution loss is
the mean over positions 0–127 of the *same* windows whose positions 128–511
give the beyond-length loss.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from .. import scaling
from . import data as data_mod
from .config import ROPE_SCALINGS, Config
from .model import PositionModel, RotaryScaling
from .train import autocast

EVAL_BATCH = 8  # windows per forward pass; memory only, the result does not depend on it


@torch.inference_mode()
def position_losses(
    model: PositionModel,
    tokens: torch.Tensor,
    cfg: Config,
    device: torch.device | str = "cpu",
    rotary: RotaryScaling | None = None,
) -> np.ndarray:
    """Mean next-token cross-entropy (nats) at each position, shape (eval_len,)."""
    device = torch.device(device)
    starts = data_mod.eval_starts(len(tokens), cfg.eval_len, cfg.eval_stride)
    tokens = tokens.to(device)
    total = torch.zeros(cfg.eval_len, dtype=torch.float64, device=device)
    for chunk in starts.split(EVAL_BATCH):
        x, y = data_mod.windows(tokens, chunk.to(device), cfg.eval_len)
        with autocast(cfg, device):
            logits = model(x, rotary=rotary)
        loss = F.cross_entropy(logits.float().transpose(1, 2), y, reduction="none")  # (B, T)
        total += loss.double().sum(0)
    return (total / len(starts)).cpu().numpy()


def rope_scaling(cfg: Config, name: str) -> RotaryScaling:
    """RoPE frequencies stretched by s = eval_len / train_len, from posenc.scaling.

    pi:   Position Interpolation, ω_i / s (Chen et al. 2023)
    ntk:  NTK-aware base θ·s^(d/(d−2)) (bloc97; YaRN paper Eq. 16)
    yarn: NTK-by-parts + attention temperature 0.1·ln s + 1 (Peng et al. 2023),
          original context = the training length 128
    """
    s = cfg.scaling_factor
    if name == "pi":
        inv, factor = scaling.linear(cfg.head_dim, cfg.rope_base, s)
    elif name == "ntk":
        inv, factor = scaling.ntk_aware(cfg.head_dim, cfg.rope_base, s)
    elif name == "yarn":
        inv, factor = scaling.yarn(cfg.head_dim, cfg.rope_base, s, original_context=cfg.train_len)
    else:
        raise ValueError(f"unknown RoPE scaling {name!r}; choose from {', '.join(ROPE_SCALINGS)}")
    return RotaryScaling(inv, factor)
