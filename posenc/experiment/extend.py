"""Stage two: extend the trained RoPE model's context by continued training.

Practitioners do not stretch RoPE only at inference: they pre-train short,
change the frequencies and train a little more on long text (PI: Chen et al.
2023 §3, 1,000 steps; YaRN: Peng et al. 2023 §4, 400 steps; Code Llama's ABF:
Rozière et al. 2023 §2.4). Here each seed's RoPE model, trained at length 128,
continues at ext_len = 512 for ext_steps steps with one of the variants of
``scalings.FREQUENCIES`` — plain RoPE (the control), PI, NTK-aware and YaRN
with s = 4, or ABF's raised base — and is evaluated per position to
ext_eval_len = 1,024 before and after. Its in-distribution loss (positions
0–127) is measured every ext_curve_every steps, to see how many steps each
variant needs to recover what pre-training reached.
"""

from __future__ import annotations

import time

import torch

from . import scalings
from .config import Config
from .evaluate import in_distribution_loss, position_losses, rotary
from .model import build
from .train import extension_learning_rate, fit

# The extension draws its batches from seed + this offset, so its first windows do
# not retrace pre-training's (both generators would otherwise start alike).
DATA_SEED_OFFSET = 10_000


def extend(cfg: Config, state: dict, variant: str, seed: int, train_tokens, val_tokens, device="cpu", on_step=None) -> dict:
    """Continue training the RoPE model ``state`` (seed ``seed``) with ``variant``'s frequencies; return the measurements."""
    device = torch.device(device)
    model = build(cfg, "rope", seed)
    model.load_state_dict(state)
    model.to(device).eval()
    model.rotary = rotary(scalings.extension(cfg, variant))  # the frequencies it trains and is evaluated with

    t0 = time.perf_counter()
    before = position_losses(model, val_tokens, cfg, device, length=cfg.ext_eval_len)
    curve = [in_distribution_loss(model, val_tokens, cfg, device)]
    losses = fit(
        model, cfg, train_tokens,
        length=cfg.ext_len, batch_size=cfg.ext_batch_size, steps=cfg.ext_steps,
        lr_at=lambda step: extension_learning_rate(cfg, step), seed=seed + DATA_SEED_OFFSET, on_step=on_step,
        every=cfg.ext_curve_every, on_checkpoint=lambda k, m: curve.append(in_distribution_loss(m, val_tokens, cfg, device)),
    )
    after = position_losses(model, val_tokens, cfg, device, length=cfg.ext_eval_len)
    return {"train_loss": losses, "in_distribution_curve": curve, "position_loss_before": before, "position_loss_after": after,
            "seconds": time.perf_counter() - t0}
