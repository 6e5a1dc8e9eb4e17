"""Train one (method, seed) pair and return its per-step training loss.

Deterministic by construction: the model is initialised from ``torch.manual_seed(seed)``,
batches come from a separate generator seeded with the same seed, and the
caller fixes the thread count (``runtime.setup``). Same inputs on the same
machine → the same numbers, bit for bit.
"""

from __future__ import annotations

import contextlib
import math
from typing import Callable

import torch
import torch.nn.functional as F

from . import data as data_mod
from .config import Config
from .model import PositionModel, build


def autocast(cfg: Config, device: torch.device):
    """bf16 autocast when the config asks for it (fast only on hardware with native bf16)."""
    if cfg.precision == "bf16":
        return torch.autocast(device_type=device.type, dtype=torch.bfloat16)
    return contextlib.nullcontext()


def learning_rate(cfg: Config, step: int) -> float:
    """Linear warm-up, then cosine decay to min_lr_ratio · lr (the nanoGPT schedule)."""
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, cfg.steps - cfg.warmup_steps)
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress)))


def optimizer(model: PositionModel, cfg: Config) -> torch.optim.AdamW:
    # Decay only the blocks' weight matrices. Embeddings and LayerNorms are not
    # decayed (as in nanoGPT's minGPT ancestor), which also keeps the learned
    # table's never-trained rows exactly at their initial values.
    decay = [p for n, p in model.named_parameters() if n.startswith("blocks.") and p.dim() == 2]
    no_decay = [p for n, p in model.named_parameters() if not (n.startswith("blocks.") and p.dim() == 2)]
    return torch.optim.AdamW(
        [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
        lr=cfg.lr,
        betas=(0.9, 0.95),
    )


def train(
    cfg: Config,
    method: str,
    seed: int,
    train_tokens: torch.Tensor,
    device: torch.device | str = "cpu",
    steps: int | None = None,
    on_step: Callable[[int, float], None] | None = None,
) -> tuple[PositionModel, list[float]]:
    """Train ``method`` from ``seed`` for ``steps`` (default cfg.steps); return (model, losses).

    ``losses[i]`` is the training loss of step i's batch before that step's update.
    """
    device = torch.device(device)
    steps = cfg.steps if steps is None else steps
    model = build(cfg, method, seed).to(device)
    opt = optimizer(model, cfg)
    batches = torch.Generator().manual_seed(seed)  # data order: independent of init and of method
    tokens = train_tokens.to(device)
    losses: list[float] = []
    model.train()
    for step in range(steps):
        for group in opt.param_groups:
            group["lr"] = learning_rate(cfg, step)
        starts = data_mod.batch_starts(len(train_tokens), cfg.train_len, cfg.batch_size, batches).to(device)
        x, y = data_mod.windows(tokens, starts, cfg.train_len)
        with autocast(cfg, device):
            logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        losses.append(loss.item())
        if on_step is not None:
            on_step(step, losses[-1])
    model.eval()
    return model, losses
