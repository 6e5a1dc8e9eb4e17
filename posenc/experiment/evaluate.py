"""Loss at every position of the validation windows, and the in-distribution loss.

A model trained at length 128 is run on length-512 windows. Causal attention
means position p only sees tokens 0 … p of its window, so positions 0–127 see
exactly what a length-128 window would show them: the in-distribution loss is
the mean over positions 0–127 of the *same* windows whose positions 128–511
give the beyond-length loss. ``in_distribution_loss`` computes that mean
directly on the first 128 tokens of those windows (4× cheaper), which is how
the learning curves are measured.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from . import data as data_mod
from . import scalings
from .config import Config
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
    length: int | None = None,
    window_len: int | None = None,
) -> np.ndarray:
    """Mean next-token cross-entropy (nats) at each position 0 … length−1, shape (length,).

    Windows start every eval_stride tokens while a window of ``window_len``
    (default: ``length``, which defaults to eval_len) fits; ``length`` < window_len
    evaluates only the first ``length`` tokens of those same windows.
    """
    device = torch.device(device)
    length = cfg.eval_len if length is None else length
    starts = data_mod.eval_starts(len(tokens), length if window_len is None else window_len, cfg.eval_stride)
    tokens = tokens.to(device)
    total = torch.zeros(length, dtype=torch.float64, device=device)
    for chunk in starts.split(EVAL_BATCH):
        x, y = data_mod.windows(tokens, chunk.to(device), length)
        with autocast(cfg, device):
            logits = model(x, rotary=rotary)
        loss = F.cross_entropy(logits.float().transpose(1, 2), y, reduction="none")  # (B, T)
        total += loss.double().sum(0)
    return (total / len(starts)).cpu().numpy()


def in_distribution_loss(model: PositionModel, tokens: torch.Tensor, cfg: Config, device="cpu", rotary=None) -> float:
    """Mean loss over positions 0 … train_len−1 of the eval_len validation windows (one learning-curve point)."""
    return float(position_losses(model, tokens, cfg, device, rotary, length=cfg.train_len, window_len=cfg.eval_len).mean())


def rotary(inv_freq_and_factor) -> RotaryScaling:
    inv, factor = inv_freq_and_factor
    return RotaryScaling(inv, factor)


def rope_scaling(cfg: Config, name: str) -> RotaryScaling:
    """RoPE stretched by s = eval_len / train_len at evaluation time (scalings.FREQUENCIES: pi, ntk, yarn)."""
    return rotary(scalings.evaluation_time(cfg, name))
