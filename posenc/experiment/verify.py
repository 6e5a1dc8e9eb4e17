"""Check that a committed results file is what the current code, config and corpus produce.

Five checks, cheapest first; the first failure raises ``StaleResults`` naming
the command that fixes it:

1. the seal: an unkeyed sha256 over the file, so an accidental edit (a hand
   fix, a bad merge, a truncated copy) is caught; it is not a signature, and
   someone who edits the numbers on purpose can recompute it;
2. the file is complete: every method, extension variant and seed (distinct
   integers), and exactly one number per step, curve point and position, all
   finite numbers;
3. the file agrees with itself: each learning curve ends at the in-distribution
   loss measured on the length-512 windows, and each extension starts from its
   seed's trained RoPE model (its first curve point is that model's last one);
4. provenance: config = the preset in config.py, corpus sha256 = CORPUS_SHA256,
   code hash = the current experiment source and posenc encodings;
5. a re-run: the first ``RERUN_STEPS`` (2) training steps of every method (first
   seed) are trained again here and must reproduce the recorded losses within
   ``RERUN_TOLERANCE``. The extension units start from a model trained for
   400 steps (minutes), so the default re-run covers them through checks 3–4;
   ``verify --deep`` re-trains the first seed's RoPE model and re-runs the
   first extension steps of every variant too.

Why the tolerance is 1e-4 nats. The re-run may happen on another CPU, whose
BLAS and libm kernels round differently; that moves fp32 results by rounding
only. How far rounding can move the first losses was measured by training
the same steps with the model in float64 (same initialisation and batches):
for NoPE, learned, sinusoidal and RoPE the losses agreed with the fp32 run
within 4.8e-7 nats, one float32 ulp at a loss of 7. Re-running with 2 threads
what was trained with 1 reproduced the stored losses within 1.2e-6 (they are
stored to 6 decimals). 1e-4 leaves a factor of ≈100 for other kernels. Real
changes are far above it: a different seed (other initialisation and batch
order) moves step 0 by 3e-2, a learning rate 10% higher moves step 1 by
2e-2, learned vs NoPE differ by 1e-2 at step 0. The closest pair is NoPE vs
RoPE: with near-uniform attention at initialisation positions barely matter
yet, and their first two losses differ by 2.9e-4 and 2.0e-4, still above the
tolerance. (Guarding the code is the hash's job; the re-run checks that the
recorded numbers are what this code computes on this machine.)

A GPU-made file verifies on a CPU. The committed results were trained on an
NVIDIA H200 (torch 2.11, CUDA 13); re-run on the project's CPU (torch 2.13),
the first two losses of every method agree with them within 7e-7 nats, the
same size as CPU-to-CPU rounding, so the tolerance above covers both. Over 400
steps such last-bit differences grow (training is chaotic): re-trained on a CPU,
seed 0's RoPE model drifted from the GPU's losses by up to 0.053 nats at one step
and ended 0.014 nats apart in distribution, less than the seed-to-seed spread.
So ``--deep`` holds a whole re-training to RERUN_TOLERANCE only on the device the
file was made on; on another device it asks the same as a claim of "about the
same" (stats.SAME): the re-trained model's final in-distribution loss, and the
first extension steps from it, within 0.05 nats of the file.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from . import corpus, provenance
from . import data as data_mod
from .config import EXTENSIONS, METHODS, PRESETS, ROPE_SCALINGS
from .course import PAGE_SEEDS
from .runtime import setup
from .sweep import SCHEMA, results_path
from .train import train

# Two measurements of one quantity on the same model: positions 0–127 evaluated in
# length-128 windows (the curve) or as the first 128 positions of length-512 windows
# (val_loss_128). Causal attention makes them equal up to float32 summation order,
# ≈1e-6 here; both are stored to 1e-6. 1e-4 flags a different model or windows.
CONSISTENCY_TOLERANCE = 1e-4

RERUN_STEPS = 2  # already separates every pair of methods (see above); each extra step costs five more training steps
RERUN_TOLERANCE = 1e-4  # nats; see the module docstring


class StaleResults(Exception):
    """The results file does not match the current code, config or corpus, or was edited."""


def _fix(preset: str, seeds: int) -> str:
    return f"re-run `python -m posenc.experiment run --preset {preset} --seeds {seeds}`"


def load(path: Path | None = None) -> dict:
    path = results_path("full") if path is None else Path(path)
    if not path.is_file():
        raise StaleResults(f"{path} does not exist; {_fix('full', PAGE_SEEDS)}")
    try:
        results = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise StaleResults(f"{path} is not valid JSON ({err}); {_fix('full', PAGE_SEEDS)}") from None
    if not isinstance(results, dict):
        raise StaleResults(f"{path} holds a JSON {type(results).__name__}, not a results object; {_fix('full', PAGE_SEEDS)}")
    return results


def check_seal(results: dict, path) -> None:
    if results.get("seal_sha256") != provenance.seal(results):
        raise StaleResults(
            f"{path}: the numbers do not match the file's seal_sha256, so the file was changed after the run "
            f"wrote it; {_fix(results.get('preset', 'full'), len(results.get('seeds') or range(PAGE_SEEDS)))}"
        )


def _finite_number(value) -> bool:
    """A JSON number (not a boolean, not a string) that is finite."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_units(path, fix, kind: str, units: dict, names, seeds, arrays, scalars=()) -> None:
    """Every name has one unit per seed; each unit's arrays have exactly the right length and its
    scalars are there, all finite numbers."""
    if list(units) != list(names):
        raise StaleResults(f"{path}: {kind} {list(units)} but lessons need all of {list(names)}; {fix}")
    for name in names:
        runs = units[name]
        if [u["seed"] for u in runs] != list(seeds):
            raise StaleResults(f"{path}: {kind} {name} has seeds {[u['seed'] for u in runs]}, expected {list(seeds)}; {fix}")
        for u in runs:
            for field, n in arrays(name).items():
                values = u
                for part in field.split("."):
                    values = values.get(part) if isinstance(values, dict) else None
                if not isinstance(values, list) or len(values) != n or not all(_finite_number(v) for v in values):
                    got = "none" if values is None else len(values) if isinstance(values, list) else f"a {type(values).__name__}, not a list of"
                    raise StaleResults(f"{path}: {kind} {name} seed {u['seed']} {field} has {got} values (want {n}, all finite); {fix}")
            for field in scalars:
                if not _finite_number(u.get(field)):
                    raise StaleResults(f"{path}: {kind} {name} seed {u['seed']} {field} is {u.get(field)!r}, not a finite number; {fix}")


def check_complete(results: dict, path) -> None:
    fix = _fix(results["preset"], len(results["seeds"]))
    if results.get("schema") != SCHEMA:
        raise StaleResults(f"{path}: schema {results.get('schema')!r}, this code writes {SCHEMA}; {fix}")
    cfg = PRESETS[results["preset"]] if results.get("preset") in PRESETS else None
    if cfg is None:
        raise StaleResults(f"{path}: preset {results.get('preset')!r} is not one of {sorted(PRESETS)}")
    if list(results["methods"]) != list(METHODS) or list(results.get("extensions", [])) != list(EXTENSIONS):
        raise StaleResults(f"{path}: methods {results['methods']} and extensions {results.get('extensions')}, "
                           f"but lessons need {list(METHODS)} and {list(EXTENSIONS)}; {fix}")
    seeds = results["seeds"]
    if not seeds or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds) or len(set(seeds)) != len(seeds):
        raise StaleResults(f"{path}: seeds {seeds!r}, but a run needs one or more distinct integer seeds; {fix}")

    _check_units(path, fix, "methods", results["runs"], METHODS, results["seeds"], lambda m: unit_lengths(cfg, "train", m),
                 scalars=("val_loss_128",))
    _check_units(path, fix, "extensions", results.get("extension", {}), EXTENSIONS, results["seeds"],
                 lambda v: unit_lengths(cfg, "extend", v))


def unit_lengths(cfg, kind: str, name: str) -> dict[str, int]:
    """How many numbers each array of a unit holds under ``cfg``: a training unit ("train") of method ``name``,
    or an extension unit ("extend"); a dotted field is nested (rope_scaling.pi)."""
    if kind == "train":
        out = {"train_loss": cfg.steps, "val_curve": len(cfg.curve_steps()), "position_loss": cfg.eval_len}
        if name == "rope":
            out.update({f"rope_scaling.{n}": cfg.eval_len for n in ROPE_SCALINGS})
        return out
    return {"train_loss": cfg.ext_steps, "in_distribution_curve": len(cfg.ext_curve_steps()),
            "position_loss_before": cfg.ext_eval_len, "position_loss_after": cfg.ext_eval_len}


def check_consistent(results: dict, path, tolerance: float = CONSISTENCY_TOLERANCE) -> None:
    """The learning curves end where the per-position evaluation says, and extensions start from their base model."""
    fix = _fix(results["preset"], len(results["seeds"]))
    for method, runs in results["runs"].items():
        for u in runs:
            gap = abs(u["val_curve"][-1] - u["val_loss_128"])
            if not gap <= tolerance:  # not `gap > tolerance`: a NaN compares false both ways
                raise StaleResults(f"{path}: {method} seed {u['seed']}: learning curve ends at {u['val_curve'][-1]:.6f} but the "
                                   f"in-distribution loss is {u['val_loss_128']:.6f} (differ by {gap:.1e}); {fix}")
    base = {u["seed"]: u["val_curve"][-1] for u in results["runs"]["rope"]}
    for u in results["extension"]["rope"]:
        gap = abs(u["in_distribution_curve"][0] - base[u["seed"]])
        if not gap <= tolerance:
            raise StaleResults(f"{path}: the extension of seed {u['seed']} does not start from that seed's RoPE model "
                               f"(in-distribution {u['in_distribution_curve'][0]:.6f} vs {base[u['seed']]:.6f}); {fix}")


def check_provenance(results: dict, path) -> None:
    preset = results["preset"]
    fix = _fix(preset, len(results["seeds"]))
    if preset not in PRESETS:
        raise StaleResults(f"{path}: preset {preset!r} is not one of {sorted(PRESETS)}")
    cfg = PRESETS[preset]
    if results["config"] != cfg.to_dict():
        changed = sorted(k for k in cfg.to_dict() if results["config"].get(k) != cfg.to_dict()[k])
        raise StaleResults(f"{path}: config differs from preset {preset!r} in {changed}; {fix}")
    if results["corpus_sha256"] != corpus.CORPUS_SHA256:
        raise StaleResults(f"{path}: trained on corpus {results['corpus_sha256'][:12]}…, corpus.py now records {corpus.CORPUS_SHA256[:12]}…; {fix}")
    current = provenance.code_hash(cfg)
    recorded = results["code"]["source_sha256"]
    if current["source_sha256"] not in (recorded, provenance.SUPERSEDED.get(recorded)):
        raise StaleResults(
            f"{path}: produced by other experiment code (source_sha256 {results['code']['source_sha256'][:12]}…, "
            f"now {current['source_sha256'][:12]}…; files {', '.join(provenance.NUMBER_FILES)}); {fix}"
        )
    if results["code"]["encodings_sha256"] != current["encodings_sha256"]:
        raise StaleResults(
            f"{path}: posenc's encodings now compute different numbers (sinusoidal table, RoPE or scaling "
            f"frequencies; encodings_sha256 {results['code']['encodings_sha256'][:12]}… → {current['encodings_sha256'][:12]}…); {fix}"
        )


def check_rerun(results: dict, path, threads: int, steps: int = RERUN_STEPS, tolerance: float = RERUN_TOLERANCE) -> list[str]:
    """Train the first ``steps`` steps of each method again and compare with the recorded losses."""
    cfg = PRESETS[results["preset"]]
    if not 1 <= steps <= cfg.steps:
        raise ValueError(f"steps must be between 1 and {cfg.steps}, got {steps}")
    setup(threads, "cpu")
    ds = data_mod.load(cfg)
    seed = results["seeds"][0]
    lines = []
    for method in METHODS:
        recorded = results["runs"][method][0]["train_loss"][:steps]
        _, fresh = train(cfg, method, seed, ds.train, steps=steps)
        worst = max(abs(a - b) for a, b in zip(fresh, recorded))
        if worst > tolerance:
            raise StaleResults(
                f"{path}: re-running {method} (seed {seed}) gives losses {[round(v, 4) for v in fresh]} for the first "
                f"{steps} steps, the file has {[round(v, 4) for v in recorded]} (differ by {worst:.2e} > {tolerance:g}); "
                f"{_fix(results['preset'], len(results['seeds']))}"
            )
        lines.append(f"  {method:<18} first {steps} losses reproduced within {worst:.1e} (tolerance {tolerance:g})")
    return lines


def check_rerun_extension(results: dict, path, threads: int, steps: int = RERUN_STEPS, tolerance: float = RERUN_TOLERANCE) -> list[str]:
    """Re-train the first seed's RoPE model, then the first ``steps`` extension steps of every variant (minutes)."""
    from .extend import DATA_SEED_OFFSET
    from .evaluate import rotary
    from .model import build
    from .scalings import extension
    from .train import extension_learning_rate, fit

    cfg = PRESETS[results["preset"]]
    # A whole pre-training run amplifies float summation order: re-train with the thread count the
    # results were computed with (threads change the order of CPU reductions), or the weights drift.
    recorded_threads = int(results.get("environment", {}).get("threads", threads))
    setup(recorded_threads, "cpu")
    ds = data_mod.load(cfg)
    seed = results["seeds"][0]
    base, losses = train(cfg, "rope", seed, ds.train)
    made_on = results.get("environment", {}).get("device", "cpu")
    if made_on == "cpu":
        recorded = results["runs"]["rope"][0]["train_loss"]
        worst = max(abs(a - b) for a, b in zip(losses, recorded))
        what = f"losses over {len(losses)} steps"
    else:  # another device's rounding grows over a whole training run: hold the outcome to "about the same"
        from .evaluate import in_distribution_loss
        from .stats import SAME

        tolerance = SAME
        worst = abs(in_distribution_loss(base, ds.val, cfg) - results["runs"]["rope"][0]["val_curve"][-1])
        what = f"final in-distribution loss (the file was made on {made_on}, this run on cpu)"
    if worst > tolerance:
        raise StaleResults(f"{path}: re-training rope (seed {seed}, {recorded_threads} thread(s)) drifts from the recorded "
                           f"{what} by {worst:.2e} > {tolerance:g}; {_fix(results['preset'], len(results['seeds']))}")
    state = base.state_dict()
    lines = [f"  rope re-trained ({len(losses)} steps, {recorded_threads} thread(s)): {what} within {worst:.1e} (tolerance {tolerance:g})"]
    for variant in EXTENSIONS:
        recorded = results["extension"][variant][0]["train_loss"][:steps]
        model = build(cfg, "rope", seed)
        model.load_state_dict(state)
        model.rotary = rotary(extension(cfg, variant))
        fresh = fit(model, cfg, ds.train, length=cfg.ext_len, batch_size=cfg.ext_batch_size, steps=steps,
                    lr_at=lambda step: extension_learning_rate(cfg, step), seed=seed + DATA_SEED_OFFSET)
        worst = max(abs(a - b) for a, b in zip(fresh, recorded))
        if worst > tolerance:
            raise StaleResults(f"{path}: re-running the {variant} extension (seed {seed}) gives {[round(v, 4) for v in fresh]}, "
                               f"the file has {[round(v, 4) for v in recorded]} (differ by {worst:.2e}); "
                               f"{_fix(results['preset'], len(results['seeds']))}")
        lines.append(f"  extend {variant:<11} first {steps} losses reproduced within {worst:.1e} (tolerance {tolerance:g})")
    return lines


def verify(path: Path | None = None, threads: int = 2, rerun: bool = True, steps: int | None = None, deep: bool = False) -> str:
    """Run all checks on ``path`` (default results/full.json); return a short report or raise StaleResults."""
    t0 = time.perf_counter()
    path = results_path("full") if path is None else Path(path)
    results = load(path)
    check_seal(results, path)
    check_complete(results, path)
    check_consistent(results, path)
    check_provenance(results, path)
    lines = [f"{path}: seal, completeness, self-consistency, config, corpus and code hashes OK"]
    if results["code"]["source_sha256"] in provenance.SUPERSEDED:
        lines.append(f"  its source hash {results['code']['source_sha256'][:12]}… is that of the code before sweep.py left run.py, "
                     "which computes the same numbers (provenance.SUPERSEDED)")
    if rerun:
        lines += check_rerun(results, path, threads, steps=RERUN_STEPS if steps is None else steps)
    if deep:
        lines += check_rerun_extension(results, path, threads, steps=RERUN_STEPS if steps is None else steps)
    lines.append(f"verified in {time.perf_counter() - t0:.0f}s")
    return "\n".join(lines)
