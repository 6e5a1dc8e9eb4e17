"""Train one (method, seed) pair, or continue training a model; return the per-step losses.

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


def extension_learning_rate(cfg: Config, step: int) -> float:
    """Linear warm-up to ext_lr (where pre-training's schedule ended), then constant."""
    return cfg.ext_lr * min(1.0, (step + 1) / cfg.ext_warmup_steps)


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


def fit(
    model: PositionModel,
    cfg: Config,
    tokens: torch.Tensor,
    *,
    length: int,
    batch_size: int,
    steps: int,
    lr_at: Callable[[int], float],
    seed: int,
    on_step: Callable[[int, float], None] | None = None,
    every: int | None = None,
    on_checkpoint: Callable[[int, PositionModel], None] | None = None,
) -> list[float]:
    """``steps`` AdamW steps on random windows of ``length`` tokens; return the loss of each step's batch.

    ``losses[i]`` is step i's loss before its update. After every ``every``-th step
    (k = every, 2·every, …) ``on_checkpoint(k, model)`` is called, e.g. to measure
    a learning curve; it must not change the model.
    """
    device = next(model.parameters()).device
    opt = optimizer(model, cfg)
    batches = torch.Generator().manual_seed(seed)  # data order: independent of init and of method
    tokens = tokens.to(device)
    losses: list[float] = []
    model.train()
    for step in range(steps):
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        starts = data_mod.batch_starts(len(tokens), length, batch_size, batches).to(device)
        x, y = data_mod.windows(tokens, starts, length)
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
        if on_checkpoint is not None and every and (step + 1) % every == 0:
            model.eval()
            on_checkpoint(step + 1, model)
            model.train()
    model.eval()
    return losses


def train(
    cfg: Config,
    method: str,
    seed: int,
    train_tokens: torch.Tensor,
    device: torch.device | str = "cpu",
    steps: int | None = None,
    on_step: Callable[[int, float], None] | None = None,
    on_checkpoint: Callable[[int, PositionModel], None] | None = None,
) -> tuple[PositionModel, list[float]]:
    """Train ``method`` from ``seed`` for ``steps`` (default cfg.steps); return (model, losses).

    ``on_checkpoint(k, model)`` runs after every cfg.curve_every steps (the learning curve).
    """
    model = build(cfg, method, seed).to(torch.device(device))
    losses = fit(
        model, cfg, train_tokens,
        length=cfg.train_len, batch_size=cfg.batch_size, steps=cfg.steps if steps is None else steps,
        lr_at=lambda step: learning_rate(cfg, step), seed=seed, on_step=on_step,
        every=cfg.curve_every, on_checkpoint=on_checkpoint,
    )
    return model, losses
