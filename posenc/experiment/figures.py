"""The arrays lesson figures plot, from the committed results (no plotting here).

Each function returns plain numpy arrays and labels; figures_src/ draws them.
With several seeds a curve comes as mean, min and max over seeds (the band);
with one seed the three coincide.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import claims, stats
from .course import EXTENSION_LABELS, METHOD_LABELS, ROPE_SCALING_LABELS


@dataclass(frozen=True)
class Curve:
    key: str  # method or scaling name
    label: str  # display name (Chinese)
    x: np.ndarray  # step or position
    mean: np.ndarray
    low: np.ndarray  # min over seeds
    high: np.ndarray  # max over seeds
    seeds: int
    breaks: tuple[int, ...] = ()  # indices where the smoothing starts afresh (the training length)


def _curve(key: str, label: str, rows: np.ndarray, smooth: int, split_at: int | None = None) -> Curve:
    if smooth > 1:
        rows = np.stack([_smooth(r, smooth, split_at) for r in rows])
    breaks = (split_at,) if smooth > 1 and split_at is not None else ()
    return Curve(key, label, np.arange(rows.shape[1]), rows.mean(0), rows.min(0), rows.max(0), rows.shape[0], breaks)


def band_points(curve: Curve, most: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, low, high) of ``curve``'s seed band at no more than about ``most`` points, for a figure's resolution.

    A position curve has 512–1,024 points across a figure ~300 pt wide; its band, a filled
    polygon, is not thinned by the SVG writer as lines are. Kept: every k-th point
    (k = ⌈len / most⌉), the last point, and both sides of each break, so the band's step at
    the training length stays where the curve's is.
    """
    if int(most) != most or most < 2:
        raise ValueError(f"most must be an integer ≥ 2 (points to keep), got {most!r}")
    n = len(curve.x)
    step = -(-n // int(most))
    keep = set(range(0, n, step)) | {n - 1} | {i for b in curve.breaks for i in (b - 1, b) if 0 <= i < n}
    idx = np.array(sorted(keep))
    return curve.x[idx], curve.low[idx], curve.high[idx]


def _smooth(values: np.ndarray, window: int, split_at: int | None) -> np.ndarray:
    if split_at is None:
        return moving_average(values, window)
    return np.concatenate([moving_average(values[:split_at], window), moving_average(values[split_at:], window)])


def moving_average(values: np.ndarray, window: int) -> np.ndarray:
    """Centered moving average with the window shrunk at the ends (same length as the input).

    Per-position losses are means over ≈170 windows, so neighbouring positions
    jitter by ≈0.1. Position curves are smoothed on each side of the training
    length separately (``split_at``), so no unseen position's loss leaks into
    the in-distribution stretch and the step at the training length stays sharp.
    """
    if window < 1 or int(window) != window:
        raise ValueError(f"window must be a positive integer, got {window!r}")
    values = np.asarray(values, dtype=np.float64)
    c = np.concatenate([[0.0], np.cumsum(values)])
    n = len(values)
    lo = np.clip(np.arange(n) - window // 2, 0, n)
    hi = np.clip(np.arange(n) + (window - window // 2), 0, n)
    return (c[hi] - c[lo]) / (hi - lo)


def training_curves(methods=claims.METHODS, smooth: int = 1, path=None) -> list[Curve]:
    """Training loss per step for each method (x = step 0 … steps−1)."""
    return [_curve(m, METHOD_LABELS[m], claims.train_losses(m, path), smooth) for m in methods]


def final_validation(methods=claims.METHODS, path=None) -> list[Curve]:
    """Validation loss at the end of training (positions 0–127 of the length-512 windows), one point per method.

    x holds the last training step, so a figure can mark it at the right end of the training curves.
    """
    last = int(claims.config(path)["steps"]) - 1
    out = []
    for m in methods:
        v = claims.in_distribution(m, per_seed=True, path=path)
        out.append(Curve(m, METHOD_LABELS[m], np.array([last]), np.array([v.mean()]), np.array([v.min()]), np.array([v.max()]), len(v)))
    return out


def position_curves(methods=claims.METHODS, smooth: int = 1, path=None) -> list[Curve]:
    """Validation loss at each position 0–511 for each method (trained at length 128)."""
    split = train_length(path)
    return [_curve(m, METHOD_LABELS[m], claims.position_losses(m, path), smooth, split) for m in methods]


def scaling_curves(names=("rope", *claims.SCALINGS), smooth: int = 1, path=None) -> list[Curve]:
    """The trained RoPE model at positions 0–511: as trained, and with PI / NTK-aware / YaRN at evaluation."""
    split = train_length(path)
    return [_curve(n, ROPE_SCALING_LABELS[n], claims.scaling_position_losses(n, path), smooth, split) for n in names]


def learning_curves(methods=claims.METHODS, path=None) -> list[Curve]:
    """Validation loss (positions 0–127) during training, x = the steps it was measured after."""
    steps = claims.curve_steps(path)
    out = []
    for m in methods:
        rows = claims.val_curves(m, path)
        out.append(Curve(m, METHOD_LABELS[m], steps, rows.mean(0), rows.min(0), rows.max(0), rows.shape[0]))
    return out


def extension_recovery(variants=claims.EXTENSIONS, path=None) -> list[Curve]:
    """In-distribution loss (positions 0–127) during the continued training at the new length, x = extension step."""
    steps = claims.extension_steps(path)
    out = []
    for v in variants:
        rows = claims.extension_curves(v, path)
        out.append(Curve(v, EXTENSION_LABELS[v], steps, rows.mean(0), rows.min(0), rows.max(0), rows.shape[0]))
    return out


def extension_positions(when: str, variants=claims.EXTENSIONS, smooth: int = 1, path=None) -> list[Curve]:
    """Loss at each position 0 … ext_eval_len−1, before (zero-shot) or after the continued training."""
    split = int(claims.config(path)["ext_len"])
    return [_curve(v, EXTENSION_LABELS[v], claims.extension_position_losses(v, when, path), smooth, split) for v in variants]


def extension_length(path=None) -> int:
    """Where to draw the vertical "new training length" line."""
    return int(claims.config(path)["ext_len"])


def train_length(path=None) -> int:
    """Where to draw the vertical "training length" line."""
    return int(claims.config(path)["train_len"])


def unigram_baseline(path=None) -> float:
    """Where to draw the horizontal "character frequency only" line."""
    return claims.unigram_loss(path)


def recovered_band(path=None) -> tuple[float, float, float]:
    """(level − RECOVERED, level, level + RECOVERED) around what pre-training reached at positions 0–127
    (mean over seeds): the horizontal band behind the extension's recovery curves.

    ``claims.steps_to_recover`` compares each seed with its own pre-trained level; the band shows their mean.
    """
    level = claims.pretrained_in_distribution(path=path)
    return level - claims.RECOVERED, level, level + claims.RECOVERED


@dataclass(frozen=True)
class Paired:
    """One comparison for a figure: method − reference on every seed, and the 95% interval of their mean."""

    key: str  # the method compared with the reference
    label: str
    values: np.ndarray  # per seed, in nats
    estimate: stats.Estimate


SPANS = {"in": claims.in_distribution, "beyond": claims.beyond}


def paired_differences(reference: str, methods, span: str, path=None) -> list[Paired]:
    """Per-seed loss of each of ``methods`` minus ``reference`` over ``span`` ("in": positions 0–127,
    "beyond": 128–511), each with its interval: what the claims judge, drawn seed by seed."""
    if span not in SPANS:
        raise ValueError(f"span must be one of {sorted(SPANS)}, got {span!r}")
    ref = SPANS[span](reference, True, path)
    out = []
    for m in methods:
        d = SPANS[span](m, True, path) - ref
        out.append(Paired(m, METHOD_LABELS[m], d, stats.Estimate.of(d)))
    return out


def margins() -> dict[str, float]:
    """The margins a sentence's words mean (stats.py), for the reference lines of a figure."""
    return {"clearly": stats.CLEARLY, "same": stats.SAME, "different": stats.DIFFERENT}
