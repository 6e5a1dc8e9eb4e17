"""What lessons may say about the experiment, read from the committed results.

Two kinds of access:

- numbers for prose: ``in_distribution("rope")``, ``beyond("learned")``,
  ``sqrt_d_gap()`` … (means over seeds; ``per_seed=True`` gives each seed);
- qualitative sentences: ``check("sin_worse_in_distribution")`` evaluates one
  statement against the results and raises ``ClaimFailed`` quoting the
  sentence when the numbers no longer support it, so a re-run that changes the
  story breaks the build instead of leaving a false sentence on a page. Pages
  print a sentence with ``{{ claim("name") }}`` (tools/macros.py), never by
  retyping it; tests check that every claim a page uses holds and that every
  registered claim is used.

Thresholds are fixed by what a word means, not fitted to the results: "clearly"
is CLEARLY nats apart with every seed on the right side, "rises" is RISE nats,
"stalled" is within STALL of the character-frequency (unigram) baseline.

Positions: *in distribution* is positions 0–127 of the length-512 validation
windows, *beyond* is 128–511 of the same windows. Position 0 has no context and
early positions little, so "the loss rises past 128" compares 128–511 with the
late in-distribution stretch 64–127, not with the whole 0–127 mean.

Importing this module does not import torch (the site build reads numbers
through it); it checks the file's seal and completeness, not that it is current
(``python -m posenc.experiment verify`` does that, in the test suite).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

from .config import EXTENSIONS, METHODS, ROPE_SCALINGS as SCALINGS
from .provenance import seal

RESULTS_FILE = Path(__file__).parent / "results" / "full.json"
TRAIN_LEN = 128  # = config's train_len; checked against the file on load
LATE_IN_DISTRIBUTION = (64, 128)  # reference stretch for "rises past the training length"
EARLY = 8  # "the first few positions", which have almost no context

# Margins, in nats, chosen by what a sentence means rather than fitted to the results.
# A gap of 0.1 nats is a 10% higher perplexity (e^0.1 ≈ 1.105): worth saying "clearly".
# With several seeds a comparison also needs every seed of one side beyond every seed
# of the other, so seed noise cannot carry a sentence.
CLEARLY = 0.1  # "clearly worse"
RISE = 0.1  # "the loss rises past the training length"
UNIGRAM_MARGIN = CLEARLY  # "learned more than character frequencies": clearly below the unigram model
STALL = 0.05  # "stayed at the character-frequency level": within 5% perplexity of the unigram model
RECOVERED = 0.02  # "back to what pre-training reached": within 2% perplexity of it


class ClaimFailed(AssertionError):
    """A sentence a lesson states is not supported by the results."""


class ResultsMissing(FileNotFoundError):
    pass


# After a change to the experiment's code the committed results are stale until a re-run of
# hours finishes. Meanwhile an author can still build the other pages: with this set to 1 every
# number, sentence and figure that needs the results prints a visible placeholder instead
# (tools/macros.py). Never set in CI; a test checks that a normal build has no placeholder.
PENDING_ENV = "POSENC_EXPERIMENT_PENDING"


class ResultsPending(Exception):
    """POSENC_EXPERIMENT_PENDING=1: the results are being re-computed; pages show placeholders.

    Not a KeyError/AttributeError, which Jinja would swallow.
    """


def pending() -> bool:
    return os.environ.get(PENDING_ENV) == "1"


def _load(path: str) -> dict:
    if pending():
        raise ResultsPending(f"{PENDING_ENV}=1: experiment results are pending")
    return _load_file(path)


@lru_cache(maxsize=4)
def _load_file(path: str) -> dict:
    p = Path(path)
    if not p.is_file():
        raise ResultsMissing(f"{p} does not exist; run `python -m posenc.experiment run --preset full --seeds 3` (see posenc/experiment/__init__.py)")
    results = json.loads(p.read_text())
    if results.get("seal_sha256") != seal(results):
        raise ClaimFailed(f"{p} was edited after the run wrote it (seal mismatch); re-run `python -m posenc.experiment run --preset full`")
    missing = [m for m in METHODS if m not in results.get("runs", {})] + [v for v in EXTENSIONS if v not in results.get("extension", {})]
    if missing:
        raise ClaimFailed(f"{p} lacks {missing}; re-run `python -m posenc.experiment run --preset full --seeds 3` with all methods and extensions")
    if results["config"]["train_len"] != TRAIN_LEN:
        raise ClaimFailed(f"{p} was trained at length {results['config']['train_len']}, claims.py assumes {TRAIN_LEN}; update TRAIN_LEN")
    return results


def results(path: Path | str | None = None) -> dict:
    """The results dict (cached per path)."""
    return _load(str(RESULTS_FILE if path is None else Path(path)))


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    return method


# --- arrays --------------------------------------------------------------------------------------


def position_losses(method: str, path=None) -> np.ndarray:
    """Loss at each position 0–511, one row per seed: shape (seeds, 512)."""
    return np.array([u["position_loss"] for u in results(path)["runs"][_check_method(method)]])


def scaling_position_losses(name: str, path=None) -> np.ndarray:
    """The trained RoPE model at evaluation time with ``name`` ∈ {rope, pi, ntk, yarn}: (seeds, 512)."""
    if name == "rope":
        return position_losses("rope", path)
    if name not in SCALINGS:
        raise ValueError(f"unknown RoPE scaling {name!r}; choose from rope, {', '.join(SCALINGS)}")
    return np.array([u["rope_scaling"][name] for u in results(path)["runs"]["rope"]])


def train_losses(method: str, path=None) -> np.ndarray:
    """Training loss per step, one row per seed: shape (seeds, steps)."""
    return np.array([u["train_loss"] for u in results(path)["runs"][_check_method(method)]])


def val_curves(method: str, path=None) -> np.ndarray:
    """Validation loss at positions 0–127 after each of ``curve_steps()``, one row per seed."""
    return np.array([u["val_curve"] for u in results(path)["runs"][_check_method(method)]])


def curve_steps(path=None) -> np.ndarray:
    """The training steps at which the learning curves were measured."""
    cfg = config(path)
    return np.arange(cfg["curve_every"], cfg["steps"] + 1, cfg["curve_every"])


def _check_variant(variant: str) -> str:
    if variant not in EXTENSIONS:
        raise ValueError(f"unknown extension variant {variant!r}; choose from {', '.join(EXTENSIONS)}")
    return variant


def extension_units(variant: str, path=None) -> list[dict]:
    return results(path)["extension"][_check_variant(variant)]


def extension_position_losses(variant: str, when: str, path=None) -> np.ndarray:
    """Loss at positions 0 … ext_eval_len−1 of the RoPE model with ``variant``'s frequencies,
    ``when`` = "before" (zero-shot) or "after" the continued training: (seeds, ext_eval_len)."""
    if when not in ("before", "after"):
        raise ValueError(f"when must be 'before' or 'after', got {when!r}")
    return np.array([u[f"position_loss_{when}"] for u in extension_units(variant, path)])


def extension_curves(variant: str, path=None) -> np.ndarray:
    """In-distribution loss (positions 0–127) during the continued training, at ``extension_steps()``: (seeds, points)."""
    return np.array([u["in_distribution_curve"] for u in extension_units(variant, path)])


def extension_steps(path=None) -> np.ndarray:
    cfg = config(path)
    return np.arange(0, cfg["ext_steps"] + 1, cfg["ext_curve_every"])


def extension_span(variant: str, when: str, lo: int, hi: int | None, per_seed: bool = False, path=None):
    """Mean loss over positions lo … hi−1 of ``extension_position_losses``."""
    return _span(extension_position_losses(variant, when, path), lo, hi, per_seed)


def pretrained_in_distribution(per_seed: bool = False, path=None):
    """What pre-training reached at positions 0–127 (the RoPE model before any change): the target to recover."""
    out = val_curves("rope", path)[:, -1]
    return out if per_seed else float(out.mean())


def steps_to_recover(variant: str, tolerance: float = None, path=None) -> list[int | None]:
    """Per seed: the first measured extension step from which the in-distribution loss stays within
    ``tolerance`` (default RECOVERED) of what pre-training reached, to the end; None if the last point
    is still above it. "Stays" because the first steps can jump (Adam's moments restart from zero)."""
    tol = RECOVERED if tolerance is None else tolerance
    steps, curves, target = extension_steps(path), extension_curves(variant, path), pretrained_in_distribution(True, path)
    out = []
    for row, t in zip(curves, target):
        above = np.flatnonzero(row > t + tol)
        if above.size and above[-1] == len(row) - 1:
            out.append(None)
        else:
            out.append(int(steps[above[-1] + 1]) if above.size else int(steps[0]))
    return out


def extension_new_range(variant: str, when: str, per_seed: bool = False, path=None):
    """Mean loss over positions train_len … ext_len−1: beyond pre-training, inside the new length."""
    return extension_span(variant, when, TRAIN_LEN, int(config(path)["ext_len"]), per_seed, path)


def extension_rise(variant: str, per_seed: bool = False, path=None):
    """After the extension: loss past the new length (ext_len … ext_eval_len−1) minus its late half
    (ext_len/2 … ext_len−1), the same comparison ``rise`` makes at the pre-training length."""
    n = int(config(path)["ext_len"])
    out = extension_span(variant, "after", n, None, True, path) - extension_span(variant, "after", n // 2, n, True, path)
    return out if per_seed else float(out.mean())


def curve_at(method: str, step: int, per_seed: bool = False, path=None):
    """Validation loss (positions 0–127) after training step ``step`` (one of ``curve_steps()``)."""
    steps = curve_steps(path)
    if step not in steps:
        raise ValueError(f"no learning-curve point at step {step}; measured at {steps[0]}, {steps[1]}, … {steps[-1]}")
    out = val_curves(method, path)[:, int(np.flatnonzero(steps == step)[0])]
    return out if per_seed else float(out.mean())


def half_way(path=None) -> int:
    """The learning-curve step half-way through training."""
    return int(config(path)["steps"]) // 2


def _span(curves: np.ndarray, lo: int, hi: int, per_seed: bool):
    per = curves[:, lo:hi].mean(axis=1)
    return per if per_seed else float(per.mean())


# --- numbers for prose ---------------------------------------------------------------------------


def in_distribution(method: str, per_seed: bool = False, path=None):
    """Mean loss over positions 0–127 (the training length) of the length-512 windows."""
    return _span(position_losses(method, path), 0, TRAIN_LEN, per_seed)


def beyond(method: str, per_seed: bool = False, path=None):
    """Mean loss over positions 128–511: positions no training sequence reached."""
    return _span(position_losses(method, path), TRAIN_LEN, None, per_seed)


def late_in_distribution(method: str, per_seed: bool = False, path=None):
    lo, hi = LATE_IN_DISTRIBUTION
    return _span(position_losses(method, path), lo, hi, per_seed)


def rise(method: str, per_seed: bool = False, path=None):
    """beyond − late in-distribution (64–127): how much worse the unseen positions are."""
    out = beyond(method, True, path) - late_in_distribution(method, True, path)
    return out if per_seed else float(out.mean())


def scaling_beyond(name: str, per_seed: bool = False, path=None):
    """Mean loss over 128–511 of the RoPE model under evaluation-time scaling ``name``."""
    return _span(scaling_position_losses(name, path), TRAIN_LEN, None, per_seed)


def scaling_in_distribution(name: str, per_seed: bool = False, path=None):
    """Mean loss over 0–127 under scaling ``name`` (PI changes even the trained positions' angles)."""
    return _span(scaling_position_losses(name, path), 0, TRAIN_LEN, per_seed)


def scaling_rise(name: str, per_seed: bool = False, path=None):
    """beyond − late in-distribution for the RoPE model under scaling ``name``."""
    curves = scaling_position_losses(name, path)
    lo, hi = LATE_IN_DISTRIBUTION
    out = curves[:, TRAIN_LEN:].mean(1) - curves[:, lo:hi].mean(1)
    return out if per_seed else float(out.mean())


def sqrt_d_gap(per_seed: bool = False, path=None):
    """In-distribution loss of plain sinusoidal minus the √d_model-scaled one: what §3.4's factor buys."""
    out = in_distribution("sinusoidal", True, path) - in_distribution("sinusoidal_scaled", True, path)
    return out if per_seed else float(out.mean())


def sqrt_d_share(path=None) -> float:
    """Share of sinusoidal's in-distribution gap to the better of learned/RoPE that √d_model closes."""
    best = min(in_distribution("learned", path=path), in_distribution("rope", path=path))
    total = in_distribution("sinusoidal", path=path) - best
    return sqrt_d_gap(path=path) / total


def unigram_loss(path=None) -> float:
    """Validation loss of predicting by character frequency alone (no context)."""
    return float(results(path)["data"]["unigram_loss"])


def final_train_loss(method: str, last: int = 20, path=None) -> float:
    """Mean training loss over the last ``last`` steps, averaged over seeds."""
    return float(train_losses(method, path)[:, -last:].mean())


def parameters(method: str = "rope", path=None) -> int:
    """Trainable parameters (learned adds its 512-row table; the others are equal)."""
    return int(results(path)["parameters"][_check_method(method)])


def config(path=None) -> dict:
    return dict(results(path)["config"])


def seeds(path=None) -> list[int]:
    return list(results(path)["seeds"])


def wall_minutes(path=None) -> float:
    return results(path)["wall_seconds"] / 60.0


# --- qualitative claims --------------------------------------------------------------------------
#
# Each sentence below is what a page says; the page prints it with {{ claim("name") }}, so
# the words on the page and the test that backs them are one entry here. Sentences carry
# no numbers (the prose around them quotes numbers with {{ num(...) }}) and no final
# punctuation, so they sit inside a paragraph.


def _separated(a, b, margin: float, where: str, path, label_a: str | None = None, label_b: str | None = None):
    """a above b: every seed of a above every seed of b, and the means at least ``margin`` apart."""
    span = {"in": in_distribution, "beyond": beyond, "scaling_in": scaling_in_distribution, "scaling_beyond": scaling_beyond}[where]
    sa, sb = span(a, True, path), span(b, True, path)
    ok = sa.min() > sb.max() and sa.mean() - sb.mean() >= margin
    return bool(ok), (f"{label_a or a} {sa.mean():.3f} (seeds {sa.min():.3f}–{sa.max():.3f}) vs "
                      f"{label_b or b} {sb.mean():.3f} ({sb.min():.3f}–{sb.max():.3f}) [{where}]")


def _worse(a: str, b: str, margin: float, path) -> tuple[bool, str]:
    return _separated(a, b, margin, "in", path)


def _all(checks):
    oks, details = zip(*checks)
    return all(oks), "; ".join(details)


def _rise_detail(method: str, r) -> str:
    return f"{method}: 128–511 minus 64–127 = {r.mean():+.3f} (seeds {r.min():+.3f}…{r.max():+.3f})"


def _rises(method: str, path):
    r = rise(method, True, path)
    return bool(r.min() >= RISE), _rise_detail(method, r)


def _flat(method: str, path):
    r = rise(method, True, path)
    return bool(np.all(np.abs(r) < RISE)), _rise_detail(method, r)


def _rises_a_little(method: str, than: str, path):
    """Above zero on every seed, but less than half of ``than``'s mean rise."""
    r, ref = rise(method, True, path), rise(than, path=path)
    return bool(r.min() > 0 and r.mean() < ref / 2), _rise_detail(method, r) + f"; half of {than}'s = {ref / 2:+.3f}"


def _beats_unigram(method: str, path):
    u = unigram_loss(path)
    s = in_distribution(method, True, path)
    return bool(s.max() <= u - UNIGRAM_MARGIN), f"{method} {s.max():.3f} (worst seed) vs unigram {u:.3f}"


def stalled_seeds(method: str, path=None) -> list[int]:
    """Seeds whose loss inside the training length stayed within STALL of the unigram baseline."""
    s = in_distribution(method, True, path)
    return [seed for seed, v in zip(seeds(path), s) if abs(v - unigram_loss(path)) < STALL]


def _stalls_on_some_seed(method: str, path):
    s = in_distribution(method, True, path)
    return bool(stalled_seeds(method, path)), f"{method} per seed {np.round(s, 3).tolist()} vs unigram {unigram_loss(path):.3f} (stalled: within {STALL})"


def _learns_on_some_seed(method: str, path):
    s = in_distribution(method, True, path)
    return bool(s.min() <= unigram_loss(path) - UNIGRAM_MARGIN), f"{method} best seed {s.min():.3f} vs unigram {unigram_loss(path):.3f}"


def _lowest(method: str, where: str, path):
    return _all([_separated(m, method, 0.0, where, path) for m in METHODS if m != method])


def _early_higher(method: str, path):
    curves = position_losses(method, path)
    lo, hi = LATE_IN_DISTRIBUTION
    d = curves[:, :EARLY].mean(1) - curves[:, lo:hi].mean(1)
    return bool(d.min() >= CLEARLY), f"{method}: positions 0–{EARLY - 1} minus 64–127 = {d.mean():+.3f} (seeds {d.min():+.3f}…{d.max():+.3f})"


def _scaling_vs_plain(name: str, where: str, margin: float, path, worse: bool):
    a, b = (name, "rope") if worse else ("rope", name)
    return _separated(a, b, margin, f"scaling_{where}", path,
                      label_a=f"rope+{a}" if a != "rope" else "plain rope", label_b=f"rope+{b}" if b != "rope" else "plain rope")


def _scaling_close(name: str, where: str, path):
    plain = {"in": scaling_in_distribution, "beyond": scaling_beyond}[where]("rope", True, path)
    scaled = {"in": scaling_in_distribution, "beyond": scaling_beyond}[where](name, True, path)
    d = scaled - plain
    return bool(np.all(np.abs(d) < CLEARLY)), f"rope+{name} minus plain rope over {where}: {d.mean():+.3f} (seeds {d.min():+.3f}…{d.max():+.3f})"


def _scaling_flat(name: str, path):
    r = scaling_rise(name, True, path)
    return bool(np.all(np.abs(r) < RISE)), f"rope+{name}: 128–511 minus 64–127 = {r.mean():+.3f} (seeds {r.min():+.3f}…{r.max():+.3f})"


def _scaled_beats(name: str, method: str, path):
    """RoPE with evaluation-time scaling ``name`` below ``method`` over 128–511, every seed."""
    a, b = beyond(method, True, path), scaling_beyond(name, True, path)
    return bool(b.max() < a.min()), f"rope+{name} {b.mean():.3f} (max {b.max():.3f}) vs {method} {a.mean():.3f} (min {a.min():.3f}) over 128–511"


def _paired_slightly_worse(a: str, b: str, path):
    """a above b on every seed (the seeds share initialisation and data order), by less than CLEARLY on average."""
    d = in_distribution(a, True, path) - in_distribution(b, True, path)
    return bool(d.min() > 0 and d.mean() < CLEARLY), f"{a} minus {b} over 0–127: {d.mean():+.3f} (seeds {d.min():+.3f}…{d.max():+.3f})"


def _stalled_half_way(method: str, path):
    v = curve_at(method, half_way(path), True, path)
    u = unigram_loss(path)
    return bool(np.all(np.abs(v - u) < STALL)), f"{method} at step {half_way(path)}: {np.round(v, 3).tolist()} vs unigram {u:.3f}"


def _below_unigram_half_way(methods, path):
    u = unigram_loss(path)
    worst = {m: float(curve_at(m, half_way(path), True, path).max()) for m in methods}
    return all(w <= u - UNIGRAM_MARGIN for w in worst.values()), f"worst seed at step {half_way(path)}: {worst} vs unigram {u:.3f}"


def _recovers(variants, path):
    got = {v: steps_to_recover(v, path=path) for v in variants}
    return all(None not in s for s in got.values()), f"steps to recover within {RECOVERED}: {got}"


def _slower_on_every_seed(variant: str, than, path):
    """``variant`` recovers later than every one of ``than`` on each seed (not recovering counts as latest)."""
    late = lambda steps: [float("inf") if x is None else x for x in steps]  # noqa: E731
    mine = late(steps_to_recover(variant, path=path))
    others = [late(steps_to_recover(v, path=path)) for v in than]
    ok = all(m > max(o[i] for o in others) for i, m in enumerate(mine))
    return ok, f"steps to recover within {RECOVERED}: {variant} {steps_to_recover(variant, path=path)} vs " + \
        ", ".join(f"{v} {steps_to_recover(v, path=path)}" for v in than)


def _never_recovers(variant: str, path):
    got = steps_to_recover(variant, path=path)
    return all(s is None for s in got), f"{variant}: steps to recover within {RECOVERED}: {got}"


def _ext_separated(a: str, b: str, when: str, margin: float, path, where: str = "new"):
    """Extension variant a above b (every seed, means ≥ margin apart) over 128–511 ("new") or 0–127 ("in")."""
    if where == "new":
        sa, sb = extension_new_range(a, when, True, path), extension_new_range(b, when, True, path)
    else:
        sa, sb = (extension_span(v, when, 0, TRAIN_LEN, True, path) for v in (a, b))
    ok = sa.min() > sb.max() and sa.mean() - sb.mean() >= margin
    return bool(ok), f"{a} {sa.mean():.3f} ({sa.min():.3f}–{sa.max():.3f}) vs {b} {sb.mean():.3f} ({sb.min():.3f}–{sb.max():.3f}) [{where}, {when}]"


def _ext_close(a: str, b: str, path):
    d = extension_new_range(a, "after", True, path) - extension_new_range(b, "after", True, path)
    return bool(np.all(np.abs(d) < CLEARLY)), f"{a} minus {b} over 128–511 after: {d.mean():+.3f} (seeds {d.min():+.3f}…{d.max():+.3f})"


def _ext_rises(variant: str, path):
    r = extension_rise(variant, True, path)
    return bool(r.min() >= RISE), f"{variant} after: past the new length minus its late half = {r.mean():+.3f} (seeds {r.min():+.3f}…{r.max():+.3f})"


def _ext_flat(variant: str, path):
    r = extension_rise(variant, True, path)
    return bool(np.all(np.abs(r) < RISE)), f"{variant} after: past the new length minus its late half = {r.mean():+.3f} (seeds {r.min():+.3f}…{r.max():+.3f})"


@dataclass(frozen=True)
class Claim:
    sentence: str
    test: Callable[[object], tuple[bool, str]]


CLAIMS: dict[str, Claim] = {
    # lesson 3
    "sin_worse_in_distribution": Claim(
        "不乘 √d_model 的 sinusoidal 在训练长度之内就明显比可学习位置表和 RoPE 差",
        lambda p: _all([_worse("sinusoidal", "learned", CLEARLY, p), _worse("sinusoidal", "rope", CLEARLY, p)]),
    ),
    "sin_stalls_on_some_seed": Claim(
        "不乘 √d_model 时，结果要看种子：有的种子训练结束时仍停在只按字频猜的水平，等于没学会用上下文",
        lambda p: _stalls_on_some_seed("sinusoidal", p),
    ),
    "sin_learns_on_some_seed": Claim(
        "也有种子学到了字频之外的东西",
        lambda p: _learns_on_some_seed("sinusoidal", p),
    ),
    "sqrt_d_learns_every_seed": Claim(
        "乘上 √d_model 之后，每个种子都明显低于字频基线",
        lambda p: _beats_unigram("sinusoidal_scaled", p),
    ),
    "sqrt_d_closes_most_of_gap": Claim(
        "只改这一处，差距的大头就消失了",
        lambda p: (sqrt_d_share(p) > 0.5 and bool(np.all(sqrt_d_gap(True, p) > 0)),
                   f"√d closes {sqrt_d_share(p):.0%} of the gap (gap {sqrt_d_gap(path=p):.3f})"),
    ),
    "sin_scaled_behind_rope": Claim(
        "补上 √d_model 之后，sinusoidal 在训练长度之内仍然不如 RoPE",
        lambda p: _worse("sinusoidal_scaled", "rope", 0.0, p),
    ),
    "sin_scaled_ahead_of_nope_and_learned": Claim(
        "但好于 NoPE 和可学习位置表",
        lambda p: _all([_worse(m, "sinusoidal_scaled", 0.0, p) for m in ("nope", "learned")]),
    ),
    "rope_best_in_distribution": Claim(
        "训练长度之内，RoPE 的 loss 在七组位置方案里最低",
        lambda p: _lowest("rope", "in", p),
    ),
    "rope_and_sin_scaled_rise": Claim(
        "越过训练长度，RoPE 和乘了 √d_model 的 sinusoidal 的 loss 都明显抬高",
        lambda p: _all([_rises(m, p) for m in ("rope", "sinusoidal_scaled")]),
    ),
    "learned_rises_a_little": Claim(
        "可学习位置表也抬高，但幅度不到 RoPE 的一半",
        lambda p: _rises_a_little("learned", "rope", p),
    ),
    "nope_flat_past_train_len": Claim(
        "不加任何位置编码的 NoPE，越过训练长度之后 loss 基本不变",
        lambda p: _flat("nope", p),
    ),
    "early_positions_higher": Claim(
        "RoPE 和乘了 √d_model 的 sinusoidal 在最开头几个位置的 loss 明显高于训练长度的后半段",
        lambda p: _all([_early_higher(m, p) for m in ("rope", "sinusoidal_scaled")]),
    ),
    "all_but_sin_beat_unigram": Claim(
        "除了不乘 √d_model 的 sinusoidal，其余六组模型的每个种子在训练长度之内都明显好于只按字频猜的基线",
        lambda p: _all([_beats_unigram(m, p) for m in METHODS if m != "sinusoidal"]),
    ),
    # lessons 1 and 6
    "nope_beats_unigram": Claim(
        "不加任何位置编码的因果小模型，loss 也明显低于只按字频猜的基线：它确实用上了前文",
        lambda p: _beats_unigram("nope", p),
    ),
    "rope_beats_nope_in_distribution": Claim(
        "训练长度之内，RoPE 明显比 NoPE 好",
        lambda p: _worse("nope", "rope", CLEARLY, p),
    ),
    "nope_beats_rope_beyond": Claim(
        "直接外推的 RoPE 在训练长度之外反而不如 NoPE",
        lambda p: _separated("rope", "nope", 0.0, "beyond", p),
    ),
    "yarn_rope_beats_nope_beyond": Claim(
        "推理时给 RoPE 用上 YaRN 的缩放，它在训练长度之外的 loss 又低于 NoPE",
        lambda p: _scaled_beats("yarn", "nope", p),
    ),
    # lesson 5
    "ntk_yarn_help_rope_beyond": Claim(
        "不做任何微调，推理时用上 NTK-aware 或 YaRN 的缩放，RoPE 在训练长度之外的 loss 就比直接外推低",
        lambda p: _all([_scaling_vs_plain(n, "beyond", 0.0, p, worse=False) for n in ("ntk", "yarn")]),
    ),
    "pi_needs_finetuning": Claim(
        "不微调就直接用 PI，连训练长度之内的 loss 都明显变差",
        lambda p: _scaling_vs_plain("pi", "in", CLEARLY, p, worse=True),
    ),
    "pi_worse_beyond_too": Claim(
        "在训练长度之外，PI 也比什么都不做的直接外推更差",
        lambda p: _scaling_vs_plain("pi", "beyond", 0.0, p, worse=True),
    ),
    "ntk_keeps_in_distribution": Claim(
        "NTK-aware 在训练长度之内和不缩放几乎一样",
        lambda p: _scaling_close("ntk", "in", p),
    ),
    "yarn_flat_past_train_len": Claim(
        "用 YaRN 缩放后，越过训练长度 loss 基本不再上升",
        lambda p: _scaling_flat("yarn", p),
    ),
    "yarn_costs_in_distribution": Claim(
        "代价是训练长度之内明显比不缩放高",
        lambda p: _scaling_vs_plain("yarn", "in", CLEARLY, p, worse=True),
    ),
    # lesson 3: learning curves
    "sin_flat_half_way": Claim(
        "不乘 √d_model 的 sinusoidal 训练到一半时，每个种子都还停在字频基线附近",
        lambda p: _stalled_half_way("sinusoidal", p),
    ),
    "others_below_unigram_half_way": Claim(
        "其余六组这时都已经明显低于基线",
        lambda p: _below_unigram_half_way([m for m in METHODS if m != "sinusoidal"], p),
    ),
    # lesson 3b: ALiBi
    "alibi_flat_past_train_len": Claim(
        "ALiBi 越过训练长度之后 loss 基本不变",
        lambda p: _flat("alibi", p),
    ),
    "alibi_beats_rope_beyond": Claim(
        "训练长度之外，ALiBi 的 loss 明显低于直接外推的 RoPE",
        lambda p: _separated("rope", "alibi", CLEARLY, "beyond", p),
    ),
    "alibi_beats_nope_in_distribution": Claim(
        "训练长度之内，ALiBi 明显好于什么位置信息都不加的 NoPE",
        lambda p: _worse("nope", "alibi", CLEARLY, p),
    ),
    "rope_edges_alibi_in_distribution": Claim(
        "不过在训练长度之内，每个种子上 RoPE 都比 ALiBi 略好一点",
        lambda p: _paired_slightly_worse("alibi", "rope", p),
    ),
    # lesson 6: partial RoPE
    "partial_slightly_behind_rope": Claim(
        "只转每个头四分之一维度的部分 RoPE，训练长度之内每个种子都只比全转的 RoPE 差一点",
        lambda p: _paired_slightly_worse("rope_partial", "rope", p),
    ),
    "partial_beats_nope": Claim(
        "却明显好于完全不加位置编码的 NoPE",
        lambda p: _worse("nope", "rope_partial", CLEARLY, p),
    ),
    "partial_rises_beyond": Claim(
        "越过训练长度，部分 RoPE 的 loss 同样明显抬高，外推并没有因为少转了维度而变好",
        lambda p: _all([_rises("rope_partial", p), _separated("rope_partial", "nope", 0.0, "beyond", p)]),
    ),
    # lesson 5: extending the context by continued training
    "ext_big_base_change_hurts_first": Claim(
        "继续训练之前，换了频率的模型在训练长度之内已经变差：改动最轻的 NTK-aware 伤得最少，ABF 明显更重，连最快的频率对也一起放慢的位置插值又明显重于 ABF",
        lambda p: _all([_ext_separated("abf", "ntk", "before", CLEARLY, p, "in"), _ext_separated("pi", "abf", "before", CLEARLY, p, "in")]),
    ),
    "ext_ntk_yarn_recover": Claim(
        "NTK-aware 和 YaRN 在这点步数之内都回到了预训练的水平，并且一直保持住",
        lambda p: _recovers(("ntk", "yarn"), p),
    ),
    "ext_abf_slowest": Claim(
        "ABF 在每个种子上都回得比这两种慢",
        lambda p: _slower_on_every_seed("abf", ("ntk", "yarn"), p),
    ),
    "ext_pi_not_recovered": Claim(
        "位置插值到最后也没回到预训练的水平",
        lambda p: _never_recovers("pi", p),
    ),
    "ext_pi_worst_in_new_range": Claim(
        "继续训练之后，在新长度之内位置插值仍是五种里最差的",
        lambda p: _all([_ext_separated("pi", v, "after", 0.0, p) for v in EXTENSIONS if v != "pi"]),
    ),
    "ext_control_as_good": Claim(
        "而频率一点不改、直接在长序列上接着训练的对照组，和 NTK-aware、YaRN 一样好",
        lambda p: _all([_ext_close("rope", v, p) for v in ("ntk", "yarn")]),
    ),
    "ext_yarn_pi_rise_past_new_length": Claim(
        "越过新的长度，YaRN 和位置插值的 loss 又明显抬高",
        lambda p: _all([_ext_rises(v, p) for v in ("yarn", "pi")]),
    ),
    "ext_rope_ntk_abf_flat_past_new_length": Claim(
        "对照组、NTK-aware 和 ABF 却基本不变",
        lambda p: _all([_ext_flat(v, p) for v in ("rope", "ntk", "abf")]),
    ),
}


def evaluate(name: str, path=None) -> tuple[bool, str]:
    """(holds, detail) for claim ``name``, without raising."""
    if name not in CLAIMS:
        raise KeyError(f"unknown claim {name!r}; known: {', '.join(CLAIMS)}")
    ok, detail = CLAIMS[name].test(path)
    return bool(ok), detail


def check(name: str, path=None) -> str:
    """Return the claim's sentence if the results support it; raise ClaimFailed quoting it otherwise."""
    ok, detail = evaluate(name, path)
    if not ok:
        raise ClaimFailed(f"claim {name!r} 「{CLAIMS[name].sentence}」 is contradicted by {path or RESULTS_FILE}: {detail}")
    return CLAIMS[name].sentence


def check_all(names=None, path=None) -> dict[str, str]:
    """Check several claims (default all); returns {name: sentence}. Raises on the first failure."""
    return {n: check(n, path) for n in (CLAIMS if names is None else names)}


def summary(path=None) -> str:
    """A plain-text table of the per-method numbers and the claims, for reports and the CLI."""
    r = results(path)
    lines = [f"preset {r['preset']}, seeds {r['seeds']}, {r['config']['steps']} steps × batch {r['config']['batch_size']}, "
             f"unigram baseline {unigram_loss(path):.3f}",
             f"{'method':<18} {'0–127':>7} {'64–127':>7} {'128–511':>8} {'rise':>7}"]
    for m in METHODS:
        lines.append(f"{m:<18} {in_distribution(m, path=path):7.3f} {late_in_distribution(m, path=path):7.3f} "
                     f"{beyond(m, path=path):8.3f} {rise(m, path=path):+7.3f}")
    for n in SCALINGS:
        lo, hi = LATE_IN_DISTRIBUTION
        late = float(scaling_position_losses(n, path)[:, lo:hi].mean())
        lines.append(f"{'rope + ' + n:<18} {scaling_in_distribution(n, path=path):7.3f} {late:7.3f} "
                     f"{scaling_beyond(n, path=path):8.3f} {scaling_rise(n, path=path):+7.3f}")
    for name in CLAIMS:
        ok, detail = evaluate(name, path)
        lines.append(f"[{'holds' if ok else 'FAILS'}] {name}: {detail}")
    return "\n".join(lines)
