"""The sweep: which units a run needs, the cache that keeps each finished unit, worker processes, and the results
file assembled from the units.

A *unit* is one (method, seed) trained and measured, or one (extension variant, seed) continued from its seed's RoPE
model (run.py computes both). Each is cached as JSON under ``experiment_runs/<preset>/<key>/`` where ``key`` is
provenance.unit_key: the config, the corpus and the code that unit runs. A method that reuses code already there
(its name added to config.METHODS and, if rotary, model.ROTARY_METHODS) leaves every other unit's key as it was, so a
run computes only its units; a method with code of its own in model.py changes that file, and every key. So a long
run can be resumed, extended to more seeds, or split across processes (``--jobs 2`` runs two 1-thread worker
processes; ``--seed 1`` in one shell and ``--seed 2`` in another works too). ``run`` writes the results file once
every unit it needs exists. A RoPE unit also caches its trained weights, which the extension units of its seed start
from.

This file is not one of provenance.NUMBER_FILES, so changing how units are cached, ordered or reported does not make
any results out of date. Three things here do reach the numbers, and tests hold them rather than the hash
(tests/test_experiment_sweep.py): which weights an extension unit starts from (its seed's RoPE model, re-trained if
missing), the worker processes' threads and determinism (runtime.setup), and the dataset a unit trains on.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from . import corpus, provenance
from . import data as data_mod
from .config import EXTENSIONS, METHODS, Config
from .model import build, parameter_count
from .run import data_summary, extend_unit, run_unit
from .runtime import DEFAULT_THREADS, setup

SCHEMA = 2
RESULTS_DIR = Path(__file__).parent / "results"
CACHE_DIR = Path(__file__).parents[2] / "experiment_runs"  # git-ignored


def results_path(preset: str) -> Path:
    return RESULTS_DIR / f"{preset}.json"


def unit_keys(cfg: Config, methods, variants) -> dict[tuple[str, str], str]:
    """Each (kind, name)'s cache key (provenance.unit_key), RoPE's training units' among them whenever there are extensions
    (their weights are where the extension units start)."""
    names = [("train", m) for m in methods] + [("train", "rope")] * bool(variants) + [("extend", v) for v in variants]
    encodings = provenance.encodings_sha256(cfg)
    return {(kind, name): provenance.unit_key(cfg, kind, name, encodings) for kind, name in dict.fromkeys(names)}


def unit_path(cache_dir: Path, cfg: Config, key: str, kind: str, name: str, seed: int) -> Path:
    """``kind`` is "train" (a position method) or "extend" (an extension variant); ``key`` is the unit's (unit_keys)."""
    prefix = "" if kind == "train" else "extend-"
    return Path(cache_dir) / cfg.preset / key / f"{prefix}{name}-seed{seed}.json"


def weights_path(cache_dir: Path, cfg: Config, key: str, seed: int) -> Path:
    """A seed's trained RoPE model, beside its unit (``key``: the RoPE training unit's)."""
    return Path(cache_dir) / cfg.preset / key / f"rope-seed{seed}.pt"


# --- one unit, in this process or a worker ---------------------------------------------------------

_DATASETS: dict = {}


def _dataset(cfg: Config) -> data_mod.Dataset:
    if cfg not in _DATASETS:
        _DATASETS[cfg] = data_mod.load(cfg)
    return _DATASETS[cfg]


def compute_unit(cfg: Config, kind: str, name: str, seed: int, cache_dir: Path, keys: dict, device, on_step=None) -> str:
    """Compute one unit and write it (and a RoPE model's weights) to the cache under its key in ``keys`` (unit_keys);
    return a log line."""
    import torch

    ds = _dataset(cfg)
    started, cpu0 = time.time(), time.process_time()
    if kind == "train":
        unit, state = run_unit(cfg, ds, name, seed, device, on_step)
        if name == "rope":
            _write_atomically(weights_path(cache_dir, cfg, keys["train", "rope"], seed), lambda f: torch.save(state, f))
        msg = f"{name} seed {seed}: val loss (0–127) {unit['val_loss_128']:.3f}, train {unit['train_seconds']:.0f}s + eval {unit['eval_seconds']:.0f}s"
    else:
        wpath = weights_path(cache_dir, cfg, keys["train", "rope"], seed)
        if wpath.exists():
            state = torch.load(wpath, map_location="cpu", weights_only=True)
        else:  # the weights are deterministic: re-train them rather than fail
            _, state = run_unit(cfg, ds, "rope", seed, device)
            _write_atomically(wpath, lambda f: torch.save(state, f))
        unit = extend_unit(cfg, ds, state, name, seed, device, on_step)
        msg = f"extend {name} seed {seed}: in-distribution {unit['in_distribution_curve'][0]:.3f} → {unit['in_distribution_curve'][-1]:.3f}, {unit['seconds']:.0f}s"
    # Wall-clock start and end, and this process's CPU time: on a busy machine the
    # unit's seconds grow, its CPU time does not (each worker runs one thread).
    unit["started"], unit["finished"] = round(started, 1), round(time.time(), 1)
    unit["cpu_seconds"] = round(time.process_time() - cpu0, 1)
    _write_atomically(unit_path(cache_dir, cfg, keys[kind, name], kind, name, seed), lambda f: f.write(json.dumps(unit).encode()))
    return msg


def _write_atomically(path: Path, write) -> None:
    """Write through a temporary file and rename it into place: a unit stopped mid-write leaves no half file in the cache.
    The folder is made as needed (each unit key has its own)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        write(f)
    os.replace(tmp, path)


_STEPS = None  # a worker's end of the progress queue, handed over at process start


def _exit_with_parent(parent: int):
    """End this worker when the sweep's process is gone (killed), instead of training on as an orphan."""
    while True:
        time.sleep(2.0)
        if os.getppid() != parent:
            os._exit(1)


def _worker_init(threads: int, device: str, steps, parent: int):
    global _STEPS
    _STEPS = steps
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    setup(threads, device)


def _worker(cfg, kind, name, seed, cache_dir, keys, device):
    def on_step(step, loss):
        _STEPS.put((1, loss))

    return compute_unit(cfg, kind, name, seed, cache_dir, keys, device, on_step)


# --- the sweep -------------------------------------------------------------------------------------


def units(methods, variants, seeds) -> list[tuple[str, str, int]]:
    # RoPE first within each seed: the extension units of that seed start from its weights.
    order = sorted(methods, key=lambda m: m != "rope")
    return [("train", m, s) for s in seeds for m in order] + [("extend", v, s) for s in seeds for v in variants]


def run(
    cfg: Config,
    seeds=(0,),
    methods=METHODS,
    variants=EXTENSIONS,
    device: str = "cpu",
    threads: int = DEFAULT_THREADS,
    jobs: int = 1,
    out: Path | None = None,
    cache_dir: Path = CACHE_DIR,
    compute_seeds=None,
    progress: bool = True,
    log=print,
) -> dict | None:
    """Compute the missing units, then write and return the results dict.

    ``jobs`` > 1 computes units in that many worker processes of ``threads``
    threads each. With ``compute_seeds`` only those seeds' units are computed
    and nothing is written (for splitting a run across shells); run again
    without it to assemble the results file from the cache.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}; use --jobs 2 on two cores")
    dev = setup(threads, device)
    seeds, methods, variants = [int(s) for s in seeds], list(methods), list(variants)
    if variants and "rope" not in methods:
        raise ValueError("the extension stage continues the RoPE model: include 'rope' in --methods, or pass --extensions ''")
    compute_only = compute_seeds is not None
    compute_seeds = seeds if compute_seeds is None else [int(s) for s in compute_seeds]
    ds = _dataset(cfg)
    code = provenance.code_hash(cfg)
    keys = unit_keys(cfg, methods, variants)
    cached = lambda kind, name, seed: unit_path(cache_dir, cfg, keys[kind, name], kind, name, seed).exists()  # noqa: E731
    todo = [u for u in units(methods, variants, compute_seeds) if not cached(*u)]
    log(f"preset {cfg.preset}: {len(methods)} methods + {len(variants)} extensions × seeds {seeds}; "
        f"{len(todo)} unit(s) to compute with {jobs} process(es) × {threads} thread(s), cache {Path(cache_dir) / cfg.preset}")

    total_steps = sum(cfg.steps if kind == "train" else cfg.ext_steps for kind, _, _ in todo)
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=total_steps, unit="step", dynamic_ncols=True, mininterval=2.0)
    say = bar.write if bar is not None else log
    sweep_start = time.time()
    if jobs == 1:
        for kind, name, seed in todo:
            if bar is not None:
                bar.set_description(f"{'' if kind == 'train' else 'extend '}{name} seed {seed}")

            def on_step(step, loss, bar=bar):
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(loss=f"{loss:.3f}", refresh=False)

            say(compute_unit(cfg, kind, name, seed, cache_dir, keys, dev, on_step))
    elif todo:
        _run_parallel(cfg, todo, jobs, threads, str(dev), cache_dir, keys, bar, say)
    if bar is not None:
        bar.close()
    if todo:
        log(f"computed {len(todo)} unit(s) in {time.time() - sweep_start:.0f}s wall")

    if compute_only:
        log(f"computed seeds {compute_seeds}; run without --seed to write the results file")
        return None
    needed = units(methods, variants, seeds)
    missing = [u for u in needed if not cached(*u)]
    if missing:
        log(f"not writing results: {len(missing)} unit(s) still missing, e.g. {missing[:3]}")
        return None
    load = lambda kind, name, s: json.loads(unit_path(cache_dir, cfg, keys[kind, name], kind, name, s).read_text())  # noqa: E731
    runs = {m: [load("train", m, s) for s in seeds] for m in methods}
    extensions = {v: [load("extend", v, s) for s in seeds] for v in variants}
    every = [u for us in (*runs.values(), *extensions.values()) for u in us]
    results = {
        "schema": SCHEMA,
        "preset": cfg.preset,
        "config": cfg.to_dict(),
        "methods": methods,
        "extensions": variants,
        "seeds": seeds,
        "code": code,
        "corpus_sha256": corpus.CORPUS_SHA256,
        "environment": provenance.environment(str(dev), threads, jobs),
        "command": provenance.command_line(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        **times(every),
        "data": data_summary(cfg, ds),
        "parameters": {m: parameter_count(build(cfg, m, 0)) for m in methods},
        "runs": runs,
        "extension": extensions,
    }
    results["seal_sha256"] = provenance.seal(results)
    out = results_path(cfg.preset) if out is None else Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n")
    log(f"wrote {out}")
    return results


def times(units: list[dict]) -> dict[str, float]:
    """A results file's times, to a tenth of a second: the compute time of all units (training, evaluation and
    extension seconds), however many processes ran them; their CPU time; and the wall time from the first unit's start
    to the last one's end (if one sweep made them all)."""
    return {
        "compute_seconds": round(sum(u.get("train_seconds", 0) + u.get("eval_seconds", 0) + u.get("seconds", 0) for u in units), 1),
        "cpu_seconds": round(sum(u["cpu_seconds"] for u in units), 1),
        "wall_seconds": round(max(u["finished"] for u in units) - min(u["started"] for u in units), 1),
    }


def _run_parallel(cfg, todo, jobs, threads, device, cache_dir, keys, bar, say):
    """Units in ``jobs`` spawned worker processes; their steps feed the one progress bar here.

    Stopping the sweep (Ctrl-C, SIGTERM) ends the workers too: their finished units stay
    cached, the units in progress are dropped, and the next run resumes from the cache.
    A worker whose sweep was killed outright (SIGKILL) notices and exits (_exit_with_parent).
    """
    import multiprocessing as mp
    import queue as queue_mod

    ctx = mp.get_context("spawn")
    steps = ctx.Queue()
    # SIGTERM becomes KeyboardInterrupt so the workers are ended below (signals are the main thread's only).
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if in_main else None
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_init, initargs=(threads, device, steps, os.getpid()))
    try:
        pending = {pool.submit(_worker, cfg, kind, name, seed, cache_dir, keys, device) for kind, name, seed in todo}
        while pending:
            done, pending = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
            while True:
                try:
                    n, loss = steps.get_nowait()
                except queue_mod.Empty:
                    break
                if bar is not None:
                    bar.update(n)
                    bar.set_postfix(loss=f"{loss:.3f}", refresh=False)
            for f in done:
                say(f.result())  # re-raises a worker's error here
    except BaseException:
        # The executor has no public way to stop running work before Python 3.14
        # (terminate_workers); without this its shutdown would wait for every unit in flight.
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"stopped by signal {signum}; finished units stay cached, run again to resume")
