"""Run the experiment: train every (method, seed), evaluate per position, write a results file.

Each (method, seed) is a *unit*, cached as JSON under ``experiment_runs/`` keyed
by config, code and corpus hashes, so a long run can be resumed, extended to
more seeds, or split across processes (``--seed 1`` in one shell, ``--seed 2``
in another); ``run`` writes the results file once every unit it needs exists.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import time
from pathlib import Path

import numpy as np

from . import corpus, provenance
from . import data as data_mod
from .config import METHODS, ROPE_SCALINGS, Config
from .evaluate import position_losses, rope_scaling
from .model import build, parameter_count
from .runtime import DEFAULT_THREADS, setup
from .train import train

SCHEMA = 1
RESULTS_DIR = Path(__file__).parent / "results"
CACHE_DIR = Path(__file__).parents[2] / "experiment_runs"  # git-ignored
DECIMALS = 6  # losses are stored to 1e-6 nats, 100× finer than verify's tolerance


def results_path(preset: str) -> Path:
    return RESULTS_DIR / f"{preset}.json"


def _r(values) -> list[float]:
    return [round(float(v), DECIMALS) for v in np.asarray(values, dtype=np.float64).ravel()]


def run_key(cfg: Config, code: dict) -> str:
    """Units computed under a different config, code or corpus never mix with these."""
    blob = provenance.canonical({"config": cfg.to_dict(), "code": code, "corpus": corpus.CORPUS_SHA256})
    return hashlib.sha256(blob).hexdigest()[:16]


def unit_path(cache_dir: Path, cfg: Config, key: str, method: str, seed: int) -> Path:
    return Path(cache_dir) / cfg.preset / key / f"{method}-seed{seed}.json"


def run_unit(cfg: Config, ds: data_mod.Dataset, method: str, seed: int, device, on_step=None) -> dict:
    """Train one method from one seed and measure its loss at every position."""
    t0 = time.perf_counter()
    model, losses = train(cfg, method, seed, ds.train, device=device, on_step=on_step)
    t1 = time.perf_counter()
    pos = position_losses(model, ds.val, cfg, device)
    unit = {
        "method": method,
        "seed": seed,
        "train_loss": _r(losses),
        "position_loss": _r(pos),
        "val_loss_128": round(float(pos[: cfg.train_len].mean()), DECIMALS),
    }
    if method == "rope":
        # Beyond the seed: stretch the trained RoPE model to 512 at evaluation time, no fine-tuning.
        unit["rope_scaling"] = {
            name: _r(position_losses(model, ds.val, cfg, device, rotary=rope_scaling(cfg, name))) for name in ROPE_SCALINGS
        }
    unit["train_seconds"] = round(t1 - t0, 2)
    unit["eval_seconds"] = round(time.perf_counter() - t1, 2)
    return unit


def data_summary(cfg: Config, ds: data_mod.Dataset) -> dict:
    return {
        "records": len(corpus.records(corpus.load())),
        "train_tokens": len(ds.train),
        "val_tokens": len(ds.val),
        "vocab_size": ds.vocab_size,
        "val_unk_rate": round(data_mod.unk_rate(ds.val), DECIMALS),
        "eval_windows": len(data_mod.eval_starts(len(ds.val), cfg.eval_len, cfg.eval_stride)),
        "unigram_loss": round(data_mod.unigram_loss(ds), DECIMALS),
        "uniform_loss": round(data_mod.uniform_loss(ds.vocab_size), DECIMALS),
    }


def run(
    cfg: Config,
    seeds=(0,),
    methods=METHODS,
    device: str = "cpu",
    threads: int = DEFAULT_THREADS,
    out: Path | None = None,
    cache_dir: Path = CACHE_DIR,
    compute_seeds=None,
    progress: bool = True,
    log=print,
) -> dict | None:
    """Compute the missing (method, seed) units, then write and return the results dict.

    With ``compute_seeds`` only those seeds' units are computed and nothing is
    written (for splitting a run across processes); run again without it to
    assemble the results file from the cache.
    """
    dev = setup(threads, device)
    seeds, methods = [int(s) for s in seeds], list(methods)
    compute_only = compute_seeds is not None
    compute_seeds = seeds if compute_seeds is None else [int(s) for s in compute_seeds]
    ds = data_mod.load(cfg)
    code = provenance.code_hash(cfg)
    key = run_key(cfg, code)
    todo = [(m, s) for s in compute_seeds for m in methods if not unit_path(cache_dir, cfg, key, m, s).exists()]
    log(f"preset {cfg.preset}: {len(methods)} methods × seeds {seeds}; {len(todo)} unit(s) to train, cache {Path(cache_dir) / cfg.preset / key}")

    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo) * cfg.steps, unit="step", dynamic_ncols=True, mininterval=2.0)
    for method, seed in todo:
        if bar is not None:
            bar.set_description(f"{method} seed {seed}")

            def on_step(step, loss, bar=bar):
                bar.update(1)
                bar.set_postfix(loss=f"{loss:.3f}", refresh=False)

        else:
            on_step = None
        unit = run_unit(cfg, ds, method, seed, dev, on_step)
        path = unit_path(cache_dir, cfg, key, method, seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(unit))
        msg = f"{method} seed {seed}: val loss (0–127) {unit['val_loss_128']:.3f}, train {unit['train_seconds']:.0f}s + eval {unit['eval_seconds']:.0f}s"
        (bar.write if bar is not None else log)(msg)
    if bar is not None:
        bar.close()

    if compute_only:
        log(f"computed seeds {compute_seeds}; run without --seed to write the results file")
        return None
    missing = [(m, s) for s in seeds for m in methods if not unit_path(cache_dir, cfg, key, m, s).exists()]
    if missing:
        log(f"not writing results: {len(missing)} unit(s) still missing, e.g. {missing[:3]}")
        return None
    units = {m: [json.loads(unit_path(cache_dir, cfg, key, m, s).read_text()) for s in seeds] for m in methods}
    results = {
        "schema": SCHEMA,
        "preset": cfg.preset,
        "config": cfg.to_dict(),
        "methods": methods,
        "seeds": seeds,
        "code": code,
        "corpus_sha256": corpus.CORPUS_SHA256,
        "environment": provenance.environment(str(dev), threads),
        "command": provenance.command_line(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        # Compute time of all units (training + evaluation), however many processes ran them.
        "wall_seconds": round(sum(u["train_seconds"] + u["eval_seconds"] for us in units.values() for u in us), 1),
        "data": data_summary(cfg, ds),
        "parameters": {m: parameter_count(build(cfg, m, 0)) for m in methods},
        "runs": units,
    }
    results["seal_sha256"] = provenance.seal(results)
    out = results_path(cfg.preset) if out is None else Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n")
    log(f"wrote {out}")
    return results
