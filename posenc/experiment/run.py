"""One unit of the experiment: train a position method from one seed, or extend a trained RoPE model with one
variant, and measure what the results file records of it. The numbers of the results come from here and the modules
it calls; which units to compute, where they are cached and how the results file is assembled is sweep.py's job.

This file is one of provenance.NUMBER_FILES: its code is hashed into every results file and every unit's cache key.
"""

from __future__ import annotations

import time

import numpy as np

from . import corpus
from . import data as data_mod
from .config import ROPE_SCALINGS, Config
from .evaluate import in_distribution_loss, position_losses, rope_scaling
from .extend import extend
from .train import train

DECIMALS = 6  # losses are stored to 1e-6 nats, 100× finer than verify's tolerance


def _r(values) -> list[float]:
    return [round(float(v), DECIMALS) for v in np.asarray(values, dtype=np.float64).ravel()]


def run_unit(cfg: Config, ds: data_mod.Dataset, method: str, seed: int, device, on_step=None) -> tuple[dict, dict]:
    """Train one method from one seed, measure its learning curve and its loss at every position.

    Returns (unit, state_dict).
    """
    t0 = time.perf_counter()
    curve = []
    model, losses = train(cfg, method, seed, ds.train, device=device, on_step=on_step,
                          on_checkpoint=lambda k, m: curve.append(in_distribution_loss(m, ds.val, cfg, device)))
    t1 = time.perf_counter()
    pos = position_losses(model, ds.val, cfg, device)
    unit = {
        "method": method,
        "seed": seed,
        "train_loss": _r(losses),
        "val_curve": _r(curve),  # positions 0–127 after cfg.curve_steps()
        "position_loss": _r(pos),
        "val_loss_128": round(float(pos[: cfg.train_len].mean()), DECIMALS),
    }
    if method == "rope":
        # Stretch the trained RoPE model to eval_len at evaluation time, no fine-tuning.
        unit["rope_scaling"] = {
            name: _r(position_losses(model, ds.val, cfg, device, rotary=rope_scaling(cfg, name))) for name in ROPE_SCALINGS
        }
    unit["train_seconds"] = round(t1 - t0, 2)
    unit["eval_seconds"] = round(time.perf_counter() - t1, 2)
    return unit, model.state_dict()


def extend_unit(cfg: Config, ds: data_mod.Dataset, state: dict, variant: str, seed: int, device, on_step=None) -> dict:
    out = extend(cfg, state, variant, seed, ds.train, ds.val, device, on_step)
    return {
        "variant": variant,
        "seed": seed,
        "train_loss": _r(out["train_loss"]),
        "in_distribution_curve": _r(out["in_distribution_curve"]),  # after cfg.ext_curve_steps()
        "position_loss_before": _r(out["position_loss_before"]),
        "position_loss_after": _r(out["position_loss_after"]),
        "seconds": round(out["seconds"], 2),
    }


def data_summary(cfg: Config, ds: data_mod.Dataset) -> dict:
    return {
        "records": len(corpus.records(corpus.load())),
        "train_tokens": len(ds.train),
        "val_tokens": len(ds.val),
        "vocab_size": ds.vocab_size,
        "val_unk_rate": round(data_mod.unk_rate(ds.val), DECIMALS),
        "eval_windows": len(data_mod.eval_starts(len(ds.val), cfg.eval_len, cfg.eval_stride)),
        "ext_eval_windows": len(data_mod.eval_starts(len(ds.val), cfg.ext_eval_len, cfg.eval_stride)),
        "unigram_loss": round(data_mod.unigram_loss(ds), DECIMALS),
        "uniform_loss": round(data_mod.uniform_loss(ds.vocab_size), DECIMALS),
    }
