"""Check that a committed results file is what the current code, config and corpus produce.

Four checks, cheapest first; the first failure raises ``StaleResults`` naming
the command that fixes it:

1. the seal: the numbers are the ones the run wrote (no hand edits);
2. the file is complete: every method, seed, step and position, all finite;
3. provenance: config = the preset in config.py, corpus sha256 = CORPUS_SHA256,
   code hash = the current experiment source and posenc encodings;
4. a re-run: the first ``RERUN_STEPS`` (2) training steps of every method (first
   seed) are trained again here and must reproduce the recorded losses within
   ``RERUN_TOLERANCE``.

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
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from . import corpus, provenance
from . import data as data_mod
from .config import METHODS, ROPE_SCALINGS, PRESETS
from .run import SCHEMA, results_path
from .runtime import setup
from .train import train

RERUN_STEPS = 2  # already separates every pair of methods (see above); each extra step costs five more training steps
RERUN_TOLERANCE = 1e-4  # nats; see the module docstring


class StaleResults(Exception):
    """The results file does not match the current code, config or corpus, or was edited."""


def _fix(preset: str, seeds: int) -> str:
    return f"re-run `python -m posenc.experiment run --preset {preset} --seeds {seeds}`"


def load(path: Path | None = None) -> dict:
    path = results_path("full") if path is None else Path(path)
    if not path.is_file():
        raise StaleResults(f"{path} does not exist; {_fix('full', 3)}")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise StaleResults(f"{path} is not valid JSON ({err}); {_fix('full', 3)}") from None


def check_seal(results: dict, path) -> None:
    if results.get("seal_sha256") != provenance.seal(results):
        raise StaleResults(
            f"{path}: the numbers do not match the file's seal_sha256, so the file was changed after the run "
            f"wrote it; {_fix(results.get('preset', 'full'), len(results.get('seeds', [0, 1, 2])))}"
        )


def check_complete(results: dict, path) -> None:
    fix = _fix(results["preset"], len(results["seeds"]))
    if results.get("schema") != SCHEMA:
        raise StaleResults(f"{path}: schema {results.get('schema')!r}, this code writes {SCHEMA}; {fix}")
    cfg = results["config"]
    if list(results["methods"]) != list(METHODS):
        raise StaleResults(f"{path}: methods {results['methods']} but lessons need all of {list(METHODS)}; {fix}")
    for method in METHODS:
        runs = results["runs"][method]
        if [u["seed"] for u in runs] != list(results["seeds"]):
            raise StaleResults(f"{path}: {method} has seeds {[u['seed'] for u in runs]}, expected {results['seeds']}; {fix}")
        for u in runs:
            curves = {"train_loss": (u["train_loss"], cfg["steps"]), "position_loss": (u["position_loss"], cfg["eval_len"])}
            if method == "rope":
                for name in ROPE_SCALINGS:
                    curves[f"rope_scaling.{name}"] = (u["rope_scaling"][name], cfg["eval_len"])
            for name, (values, n) in curves.items():
                if len(values) != n or not all(math.isfinite(v) for v in values):
                    raise StaleResults(f"{path}: {method} seed {u['seed']} {name} has {len(values)} values (want {n}, all finite); {fix}")


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
    if results["code"]["source_sha256"] != current["source_sha256"]:
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


def verify(path: Path | None = None, threads: int = 2, rerun: bool = True, steps: int | None = None) -> str:
    """Run all checks on ``path`` (default results/full.json); return a short report or raise StaleResults."""
    t0 = time.perf_counter()
    path = results_path("full") if path is None else Path(path)
    results = load(path)
    check_seal(results, path)
    check_complete(results, path)
    check_provenance(results, path)
    lines = [f"{path}: seal, completeness, config, corpus and code hashes OK"]
    if rerun:
        lines += check_rerun(results, path, threads, steps=RERUN_STEPS if steps is None else steps)
    lines.append(f"verified in {time.perf_counter() - t0:.0f}s")
    return "\n".join(lines)
