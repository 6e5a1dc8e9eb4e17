"""What lessons may say about the experiment, read from the committed results.

Two kinds of access:

- numbers for prose: ``in_distribution("rope")``, ``beyond("learned")``,
  ``sqrt_d_gap()`` … (means over seeds; ``per_seed=True`` gives each seed, from
  which posenc/quantities/experiment.py prints a mean with its ± over seeds);
- qualitative sentences: ``check("sin_worse_in_distribution")`` evaluates one
  statement against the results and raises ``ClaimFailed`` quoting the
  sentence when the numbers no longer support it, so a re-run that changes the
  story breaks the build instead of leaving a false sentence on a page. Pages
  print a sentence with ``{{ claim("name") }}`` (tools/macros.py), never by
  retyping it; tests check that every claim a page uses holds and that every
  registered claim is used.

How sure a sentence is (stats.py): methods trained from the same seed share their
initialisation and their batches, so a comparison is made per seed, and the
sentence holds only when the 95% t interval of the mean per-seed difference clears
the margin its words mean: "明显" (clearly) 0.1 nats, a plain "better"/"lower"/
"rises" 0.02 nats, "差不多"/"基本不变" (about the same, flat) inside ±0.05,
"分不出明显高下" (no clear difference) inside ±0.1. A claim therefore needs at
least two seeds; the quick preset (one seed) can judge none of them, and `summary`
says so. Whether unscaled sinusoidal gets stuck at the character-frequency level
is counted per seed instead ("on most seeds"), because its seeds split into two
groups rather than scatter around a mean.

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
from .stats import CLEARLY, DIFFERENT, NO_CLEAR, SAME, Estimate, SeedRange, TooFewSeeds

RESULTS_FILE = Path(__file__).parent / "results" / "full.json"
TRAIN_LEN = 128  # = config's train_len; checked against the file on load
LATE_IN_DISTRIBUTION = (64, 128)  # reference stretch for "rises past the training length"
EARLY = 8  # "the first few positions", which have almost no context

STALL = 0.05  # "stayed at the character-frequency level": within 5% perplexity of the unigram model (per seed)
RECOVERED = 0.02  # "back to what pre-training reached", for counting steps: within 2% perplexity of it


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
        raise ResultsMissing(f"{p} does not exist; run `python -m posenc.experiment run --preset full --seeds 16` (see posenc/experiment/__init__.py)")
    results = json.loads(p.read_text())
    if results.get("seal_sha256") != seal(results):
        raise ClaimFailed(f"{p} was edited after the run wrote it (seal mismatch); re-run `python -m posenc.experiment run --preset full`")
    missing = [m for m in METHODS if m not in results.get("runs", {})] + [v for v in EXTENSIONS if v not in results.get("extension", {})]
    if missing:
        raise ClaimFailed(f"{p} lacks {missing}; re-run `python -m posenc.experiment run --preset full --seeds 16` with all methods and extensions")
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


def recovery_steps(variant: str, path=None) -> list[int]:
    """``steps_to_recover`` with a seed that never recovered counted one measurement interval past
    the last step (ext_steps + ext_curve_every): the earliest it could have, so a comparison that
    says "recovers later" is never helped by a seed that did not recover."""
    cfg = config(path)
    never = int(cfg["ext_steps"]) + int(cfg["ext_curve_every"])
    return [never if s is None else s for s in steps_to_recover(variant, path=path)]


def extension_gap(variant: str, per_seed: bool = False, path=None):
    """In-distribution loss (positions 0–127) at the end of the continued training minus what
    pre-training reached, per seed: how far from recovered a variant ends."""
    out = extension_curves(variant, path)[:, -1] - pretrained_in_distribution(True, path)
    return out if per_seed else float(out.mean())


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


def early_excess(method: str, per_seed: bool = False, path=None):
    """Mean loss over the first EARLY positions minus the late in-distribution stretch (64–127):
    how much worse the positions with almost no context are."""
    curves = position_losses(method, path)
    lo, hi = LATE_IN_DISTRIBUTION
    out = curves[:, :EARLY].mean(1) - curves[:, lo:hi].mean(1)
    return out if per_seed else float(out.mean())


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


def stalled_seeds(method: str, path=None) -> list[int]:
    """Seeds whose loss inside the training length stayed within STALL of the unigram baseline."""
    s = in_distribution(method, True, path)
    return [seed for seed, v in zip(seeds(path), s) if abs(v - unigram_loss(path)) < STALL]


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


# --- qualitative claims --------------------------------------------------------------------------
#
# Each sentence below is what a page says; the page prints it with {{ claim("name") }}, so the
# words on the page and the test that backs them are one entry here. A sentence carries no
# numbers (the prose around it quotes them with {{ num(...) }}, each with its ± over seeds) and
# no final punctuation, so it sits inside a paragraph. Its test compares the methods per seed
# and asks the interval of the mean difference to clear the margin its words mean (stats.py).


def _per_seed(source: str, key: str, path) -> np.ndarray:
    """One per-seed array by name: ("in", "rope") → in_distribution("rope", per_seed=True) …"""
    fn = {
        "in": in_distribution, "beyond": beyond, "rise": rise,
        "scaled_in": scaling_in_distribution, "scaled_beyond": scaling_beyond, "scaled_rise": scaling_rise,
        "ext_new": lambda v, _, p: extension_new_range(v, "after", True, p),
        "ext_in_before": lambda v, _, p: extension_span(v, "before", 0, TRAIN_LEN, True, p),
        "ext_rise": extension_rise,
        "ext_gap": extension_gap,
        "early": early_excess,
        "half_way": lambda m, _, p: curve_at(m, half_way(p), True, p),
    }[source]
    return np.asarray(fn(key, True, path), dtype=np.float64)


def _label(source: str, key: str) -> str:
    return f"{source}({key})"


def _diff(a: tuple[str, str], b: tuple[str, str] | None, path) -> tuple[str, np.ndarray]:
    """Per-seed a − b (b None: a alone; b ("unigram",): the baseline minus a, so lower loss is positive)."""
    if b is None:
        return _label(*a), _per_seed(*a, path)
    if b == ("unigram",):
        return f"unigram − {_label(*a)}", unigram_loss(path) - _per_seed(*a, path)
    return f"{_label(*a)} − {_label(*b)}", _per_seed(*a, path) - _per_seed(*b, path)


# Methods whose seeds split into two groups (most stall at the character-frequency level): a mean and its
# interval describe neither group, so a comparison with one is judged seed by seed (stats.SeedRange).
TWO_GROUPS = ("sinusoidal",)


def _judge(word: str, a, b=None, path=None) -> tuple[bool, str]:
    """Does the interval of the per-seed a − b satisfy ``word`` (see stats.py for the margins)? With a
    method of TWO_GROUPS on either side, every seed's difference must satisfy it instead."""
    label, d = _diff(a, b, path)
    two_groups = any(side is not None and side[-1] in TWO_GROUPS for side in (a, b))
    est = SeedRange.of(d) if two_groups else Estimate.of(d)
    ok, rule = {
        "clearly": (est.above(CLEARLY), f"> {CLEARLY}"),
        "more": (est.above(DIFFERENT), f"> {DIFFERENT}"),
        "a_little": (est.above(DIFFERENT) and est.below(CLEARLY), f"in ({DIFFERENT}, {CLEARLY})"),
        "no_clear": (est.inside(NO_CLEAR), f"inside ±{NO_CLEAR}"),
        "same": (est.inside(SAME), f"inside ±{SAME}"),
    }[word]
    return bool(ok), f"{label} = {est}, needs {rule}"


def _every_seed_clearly_below_unigram(method: str, path) -> tuple[bool, str]:
    """Each seed (a count, n of n) at least CLEARLY below the character-frequency baseline."""
    gap = unigram_loss(path) - in_distribution(method, True, path)
    return bool(np.all(gap > CLEARLY)), f"unigram − in({method}) per seed, smallest {gap.min():+.3f}, needs > {CLEARLY} on all {gap.size} seeds"


def _stalls_on_most_seeds(method: str, path) -> tuple[bool, str]:
    stalled, n = len(stalled_seeds(method, path)), len(seeds(path))
    return stalled > n / 2, f"{method} stalled (within {STALL} of unigram) on {stalled} of {n} seeds, needs more than half"


def _recovers_later(variant: str, than: str, path) -> tuple[bool, str]:
    """``variant`` reaches pre-training's level later than ``than`` (plain "later": the interval of the
    per-seed difference in steps above 0; see stats.py)."""
    est = Estimate.of(np.array(recovery_steps(variant, path)) - np.array(recovery_steps(than, path)))
    return est.above(0.0), f"recovery steps {variant} − {than} = {est}, needs > 0"


def _all(checks) -> tuple[bool, str]:
    oks, details = zip(*checks)
    return all(oks), "; ".join(details)


def _in(m):
    return ("in", m)


def _beyond(m):
    return ("beyond", m)


def _rise(m):
    return ("rise", m)


_UNIGRAM = ("unigram",)
LESSON3_METHODS = ("learned", "sinusoidal_scaled", "nope")  # what lesson 3 compares with unscaled sinusoidal


@dataclass(frozen=True)
class Claim:
    sentence: str  # Chinese, as the Chinese pages print it
    # The same sentence in English (the English pages): what the Chinese says and no more, with the same
    # margin words (clearly / plain "better", "lower", "rises" / about the same / no clear difference).
    # It starts with a capital when the Chinese starts a sentence, in lower case when it continues one.
    en: str
    test: Callable[[object], tuple[bool, str]]

    def text(self, lang: str) -> str:
        from ..formatting import check_language

        return self.sentence if check_language(lang) == "zh" else self.en


CLAIMS: dict[str, Claim] = {
    # lesson 1
    "nope_beats_unigram": Claim(
        "不加任何位置编码的因果小模型，loss 也明显低于只按字频猜的基线：它确实用上了前文",
        "Even with no position encoding at all, the small causal model's loss is clearly below the baseline that guesses from character frequencies alone: it does use the preceding text",
        lambda p: _judge("clearly", _in("nope"), _UNIGRAM, p),
    ),
    # lesson 3: learned table, sinusoidal with and without √d_model, and no position encoding at all
    "sin_worse_in_distribution": Claim(
        "不乘 √d_model 的 sinusoidal 在训练长度之内明显比可学习位置表差，甚至明显不如不加任何位置编码的模型",
        "Sinusoidal encoding without the √d_model factor is clearly worse than the learned position table within the training length, and clearly worse even than the model with no position encoding at all",
        lambda p: _all([_judge("clearly", _in("sinusoidal"), _in(m), p) for m in ("learned", "nope")]),
    ),
    "sin_stalls_on_most_seeds": Claim(
        "不乘 √d_model 时，多数种子训练结束时仍停在只按字频猜的水平，等于没学会用上下文",
        "Without the √d_model factor, most seeds end training still at the level of guessing from character frequencies: they never learned to use the context",
        lambda p: _stalls_on_most_seeds("sinusoidal", p),
    ),
    "sqrt_d_learns_every_seed": Claim(
        "乘上 √d_model 之后，每个种子都明显低于字频基线",
        "With √d_model, every seed ends clearly below the character-frequency baseline",
        lambda p: _every_seed_clearly_below_unigram("sinusoidal_scaled", p),
    ),
    "sqrt_d_gap_is_clear": Claim(
        "只改这一处，训练长度之内的 loss 就明显降了下来",
        "Changing only this one thing clearly lowers the loss within the training length",
        lambda p: _judge("clearly", _in("sinusoidal"), _in("sinusoidal_scaled"), p),
    ),
    "sin_scaled_ahead_of_learned_and_nope": Claim(
        "而且好于可学习位置表和不加任何位置编码的模型",
        "and it also beats the learned position table and the model with no position encoding",
        lambda p: _all([_judge("more", _in(m), _in("sinusoidal_scaled"), p) for m in ("learned", "nope")]),
    ),
    "learned_no_clear_gain_over_nope": Claim(
        "可学习位置表在训练长度之内和不加任何位置编码的模型分不出明显高下",
        "Within the training length, the learned position table shows no clear difference from the model with no position encoding",
        lambda p: _judge("no_clear", _in("learned"), _in("nope"), p),
    ),
    "sin_scaled_rises": Claim(
        "越过训练长度，乘了 √d_model 的 sinusoidal 的 loss 明显抬高",
        "Past the training length, the loss of sinusoidal encoding with √d_model rises clearly",
        lambda p: _judge("clearly", _rise("sinusoidal_scaled"), None, p),
    ),
    "learned_rises_less": Claim(
        "可学习位置表也抬高，但明显不如它抬得多",
        "the learned position table's loss rises too, but clearly less",
        lambda p: _all([_judge("more", _rise("learned"), None, p), _judge("clearly", _rise("sinusoidal_scaled"), _rise("learned"), p)]),
    ),
    "nope_flat_past_train_len": Claim(
        "不加任何位置编码的模型，越过训练长度之后 loss 基本不变",
        "The model with no position encoding keeps about the same loss past the training length",
        lambda p: _judge("same", _rise("nope"), None, p),
    ),
    "early_positions_higher": Claim(
        "最开头几个位置几乎没有上下文，乘了 √d_model 的 sinusoidal 和不加位置编码的模型在那里的 loss 都高于训练长度的后半段",
        "The first few positions have almost no context, and there both sinusoidal encoding with √d_model and the model with no position encoding have a higher loss than in the second half of the training length",
        lambda p: _all([_judge("more", ("early", m), None, p) for m in ("sinusoidal_scaled", "nope")]),
    ),
    "lesson3_methods_beat_unigram": Claim(
        "可学习位置表、乘了 √d_model 的 sinusoidal 和不加位置编码的模型，每个种子在训练长度之内都明显好于只按字频猜的基线",
        "The learned position table, sinusoidal encoding with √d_model and the model with no position encoding are each, on every seed, clearly better than the character-frequency baseline within the training length",
        lambda p: _all([_every_seed_clearly_below_unigram(m, p) for m in LESSON3_METHODS]),
    ),
    "sin_flat_half_way": Claim(
        "不乘 √d_model 的 sinusoidal 训练到一半时，还停在字频基线附近",
        "Half-way through training, sinusoidal encoding without √d_model is still at about the character-frequency baseline",
        lambda p: _judge("same", ("half_way", "sinusoidal"), _UNIGRAM, p),
    ),
    "others_below_unigram_half_way": Claim(
        "另外三组这时都已经明显低于基线",
        "the other three are by then all clearly below it",
        lambda p: _all([_judge("clearly", ("half_way", m), _UNIGRAM, p) for m in LESSON3_METHODS]),
    ),
    # lesson 3b: ALiBi
    "alibi_flat_past_train_len": Claim(
        "ALiBi 越过训练长度之后 loss 基本不变",
        "ALiBi keeps about the same loss past the training length",
        lambda p: _judge("same", _rise("alibi"), None, p),
    ),
    "alibi_beats_additive_beyond": Claim(
        "训练长度之外，ALiBi 的 loss 明显低于前面几种把位置加在输入上的做法，也明显低于不加位置编码的模型",
        "Beyond the training length, ALiBi's loss is clearly lower than that of the earlier methods that add the position to the input, and clearly lower than that of the model with no position encoding",
        lambda p: _all([_judge("clearly", _beyond(m), _beyond("alibi"), p) for m in ("learned", "sinusoidal", "sinusoidal_scaled", "nope")]),
    ),
    "alibi_beats_nope_in_distribution": Claim(
        "训练长度之内，ALiBi 明显好于不加任何位置编码的模型",
        "Within the training length, ALiBi is clearly better than the model with no position encoding",
        lambda p: _judge("clearly", _in("nope"), _in("alibi"), p),
    ),
    "alibi_ahead_of_sin_scaled_in_distribution": Claim(
        "也好于乘了 √d_model 的 sinusoidal",
        "and better than sinusoidal encoding with √d_model as well",
        lambda p: _judge("more", _in("sinusoidal_scaled"), _in("alibi"), p),
    ),
    # lesson 4: RoPE
    "rope_and_alibi_no_clear_difference": Claim(
        "训练长度之内，RoPE 和 ALiBi 分不出明显高下",
        "Within the training length, RoPE and ALiBi show no clear difference",
        lambda p: _judge("no_clear", _in("alibi"), _in("rope"), p),
    ),
    "rope_and_alibi_beat_additive_in_distribution": Claim(
        "两者都明显好于可学习位置表和不加位置编码的模型，也好于乘了 √d_model 的 sinusoidal",
        "both are clearly better than the learned position table and the model with no position encoding, and better than sinusoidal encoding with √d_model",
        lambda p: _all([_judge(word, _in(m), _in(best), p) for best in ("rope", "alibi")
                        for m, word in (("learned", "clearly"), ("nope", "clearly"), ("sinusoidal_scaled", "more"))]),
    ),
    "rope_rises": Claim(
        "越过训练长度，直接外推的 RoPE 的 loss 明显抬高",
        "Past the training length, the loss of RoPE used as it is rises clearly",
        lambda p: _judge("clearly", _rise("rope"), None, p),
    ),
    "nope_beats_rope_beyond": Claim(
        "直接外推的 RoPE 在训练长度之外反而不如不加任何位置编码的模型",
        "Beyond the training length, RoPE used as it is does worse than the model with no position encoding at all",
        lambda p: _judge("more", _beyond("rope"), _beyond("nope"), p),
    ),
    "alibi_beats_rope_beyond": Claim(
        "训练长度之外，ALiBi 的 loss 明显低于直接外推的 RoPE",
        "Beyond the training length, ALiBi's loss is clearly lower than that of RoPE used as it is",
        lambda p: _judge("clearly", _beyond("rope"), _beyond("alibi"), p),
    ),
    # lesson 5: RoPE scaled at evaluation time, no training
    "ntk_yarn_help_rope_beyond": Claim(
        "不做任何微调，推理时用上 NTK-aware 或 YaRN 的缩放，RoPE 在训练长度之外的 loss 就比直接外推低",
        "With no fine-tuning at all, scaling RoPE with NTK-aware or YaRN at inference time gives a lower loss beyond the training length than using it as it is",
        lambda p: _all([_judge("more", _beyond("rope"), ("scaled_beyond", n), p) for n in ("ntk", "yarn")]),
    ),
    "pi_needs_finetuning": Claim(
        "不微调就直接用 PI，连训练长度之内的 loss 都明显变差",
        "Applied without fine-tuning, PI clearly worsens the loss even within the training length",
        lambda p: _judge("clearly", ("scaled_in", "pi"), _in("rope"), p),
    ),
    "pi_worse_beyond_too": Claim(
        "在训练长度之外，PI 也比什么都不做的直接外推更差",
        "Beyond the training length, PI is also worse than leaving RoPE as it is",
        lambda p: _judge("more", ("scaled_beyond", "pi"), _beyond("rope"), p),
    ),
    "ntk_costs_a_little_in_distribution": Claim(
        "NTK-aware 在训练长度之内只比不缩放高一点",
        "Within the training length, NTK-aware is only a little worse than no scaling",
        lambda p: _judge("a_little", ("scaled_in", "ntk"), _in("rope"), p),
    ),
    "yarn_flat_past_train_len": Claim(
        "用 YaRN 缩放后，越过训练长度 loss 基本不再上升",
        "Scaled with YaRN, the loss stays about the same past the training length",
        lambda p: _judge("same", ("scaled_rise", "yarn"), None, p),
    ),
    "yarn_costs_in_distribution": Claim(
        "代价是训练长度之内明显比不缩放高",
        "the price is a clearly higher loss than no scaling within the training length",
        lambda p: _judge("clearly", ("scaled_in", "yarn"), _in("rope"), p),
    ),
    "yarn_rope_beats_nope_beyond": Claim(
        "推理时给 RoPE 用上 YaRN 的缩放，它在训练长度之外的 loss 又低于不加任何位置编码的模型",
        "With YaRN scaling at inference time, RoPE's loss beyond the training length is again lower than that of the model with no position encoding",
        lambda p: _judge("more", _beyond("nope"), ("scaled_beyond", "yarn"), p),
    ),
    # lesson 5: extending the context by continued training
    "ext_big_base_change_hurts_first": Claim(
        "继续训练之前，换了频率的模型在训练长度之内已经变差：改动最轻的 NTK-aware 伤得最少，ABF 更重，连最快的频率对也一起放慢的位置插值又明显重于 ABF",
        "Before any continued training, each model with changed frequencies is already worse within the training length: NTK-aware, the lightest change, suffers least, ABF more, and Position Interpolation, which also slows the fastest pair, clearly more than ABF",
        lambda p: _all([_judge("more", ("ext_in_before", v), ("ext_in_before", "ntk"), p) for v in ("yarn", "abf", "pi")]
                       + [_judge("clearly", ("ext_in_before", "pi"), ("ext_in_before", "abf"), p)]),
    ),
    "ext_ntk_yarn_recover": Claim(
        "NTK-aware 和 YaRN 在这点步数之内都回到了预训练的水平",
        "NTK-aware and YaRN both return to the pre-training level within these few steps",
        lambda p: _all([_judge("same", ("ext_gap", v), None, p) for v in ("ntk", "yarn")]),
    ),
    "ext_abf_slowest": Claim(
        "ABF 回得比这两种慢",
        "ABF gets back more slowly than either",
        lambda p: _all([_recovers_later("abf", v, p) for v in ("ntk", "yarn")]),
    ),
    "ext_pi_not_recovered": Claim(
        "位置插值到最后也没回到预训练的水平",
        "Position Interpolation does not get back to the pre-training level by the end",
        lambda p: _judge("more", ("ext_gap", "pi"), None, p),
    ),
    "ext_pi_worst_in_new_range": Claim(
        "继续训练之后，在新长度之内位置插值仍是五种里最差的",
        "After continued training, Position Interpolation is still the worst of the five within the new length",
        lambda p: _all([_judge("more", ("ext_new", "pi"), ("ext_new", v), p) for v in EXTENSIONS if v != "pi"]),
    ),
    "ext_control_as_good": Claim(
        "而频率一点不改、直接在长序列上接着训练的对照组，和 NTK-aware、YaRN 差不多",
        "while the control, which keeps its frequencies and simply goes on training on long sequences, does about as well as NTK-aware and YaRN",
        lambda p: _all([_judge("same", ("ext_new", "rope"), ("ext_new", v), p) for v in ("ntk", "yarn")]),
    ),
    "ext_yarn_pi_rise_past_new_length": Claim(
        "越过新的长度，YaRN 和位置插值的 loss 又抬高了",
        "Past the new length, the loss of YaRN and Position Interpolation rises again",
        lambda p: _all([_judge("more", ("ext_rise", v), None, p) for v in ("yarn", "pi")]),
    ),
    "ext_others_rise_less_than_yarn": Claim(
        "对照组、NTK-aware 和 ABF 抬得明显比 YaRN 少",
        "the control, NTK-aware and ABF rise clearly less than YaRN",
        lambda p: _all([_judge("clearly", ("ext_rise", "yarn"), ("ext_rise", v), p) for v in ("rope", "ntk", "abf")]),
    ),
    # lesson 6: NoPE and partial RoPE
    "rope_beats_nope_in_distribution": Claim(
        "训练长度之内，RoPE 明显比 NoPE 好",
        "Within the training length, RoPE is clearly better than NoPE",
        lambda p: _judge("clearly", _in("nope"), _in("rope"), p),
    ),
    "partial_no_clear_difference_from_rope": Claim(
        "只转每个头四分之一维度的部分 RoPE，训练长度之内和全转的 RoPE 分不出明显高下",
        "Partial RoPE, which rotates only a quarter of each head's dimensions, shows no clear difference from full RoPE within the training length",
        lambda p: _judge("no_clear", _in("rope_partial"), _in("rope"), p),
    ),
    "partial_beats_nope": Claim(
        "却明显好于完全不加位置编码的 NoPE",
        "yet it is clearly better than NoPE, with no position encoding at all",
        lambda p: _judge("clearly", _in("nope"), _in("rope_partial"), p),
    ),
    "partial_rises_beyond": Claim(
        "越过训练长度，部分 RoPE 的 loss 同样明显抬高，明显不如 NoPE：外推并没有因为少转了维度而变好",
        "Past the training length, partial RoPE's loss also rises clearly, and it is clearly worse than NoPE: rotating fewer dimensions did not make it extrapolate better",
        lambda p: _all([_judge("clearly", _rise("rope_partial"), None, p), _judge("clearly", _beyond("rope_partial"), _beyond("nope"), p)]),
    ),
    # the results page: all seven methods side by side
    "top_three_no_clear_difference": Claim(
        "训练长度之内，RoPE、ALiBi 和部分 RoPE 三者之间分不出明显高下",
        "Within the training length, RoPE, ALiBi and partial RoPE show no clear difference from one another",
        lambda p: _all([_judge("no_clear", _in(a), _in(b), p) for a, b in (("alibi", "rope"), ("rope_partial", "rope"), ("rope_partial", "alibi"))]),
    ),
    "top_three_beat_the_rest": Claim(
        "它们都明显好于 NoPE 和可学习位置表，也好于乘了 √d_model 的 sinusoidal",
        "all three are clearly better than NoPE and the learned position table, and better than sinusoidal encoding with √d_model",
        lambda p: _all([_judge(word, _in(m), _in(best), p) for best in ("rope", "alibi", "rope_partial")
                        for m, word in (("learned", "clearly"), ("nope", "clearly"), ("sinusoidal_scaled", "more"))]),
    ),
    "all_but_sin_beat_unigram": Claim(
        "除了不乘 √d_model 的 sinusoidal，其余六组模型的每个种子在训练长度之内都明显好于只按字频猜的基线",
        "Except sinusoidal encoding without √d_model, every seed of the other six models is clearly better than the character-frequency baseline within the training length",
        lambda p: _all([_every_seed_clearly_below_unigram(m, p) for m in METHODS if m != "sinusoidal"]),
    ),
}


def evaluate(name: str, path=None) -> tuple[bool, str]:
    """(holds, detail) for claim ``name``, without raising ClaimFailed; TooFewSeeds if the file has one seed."""
    if name not in CLAIMS:
        raise KeyError(f"unknown claim {name!r}; known: {', '.join(CLAIMS)}")
    ok, detail = CLAIMS[name].test(path)
    return bool(ok), detail


def check(name: str, path=None, lang: str = "zh") -> str:
    """Return the claim's sentence in ``lang`` if the results support it; raise ClaimFailed quoting it otherwise."""
    try:
        ok, detail = evaluate(name, path)
    except TooFewSeeds as err:
        raise ClaimFailed(f"claim {name!r} 「{CLAIMS[name].sentence}」 cannot be judged from {path or RESULTS_FILE}: {err}") from err
    if not ok:
        raise ClaimFailed(f"claim {name!r} 「{CLAIMS[name].sentence}」 is contradicted by {path or RESULTS_FILE}: {detail}")
    return CLAIMS[name].text(lang)


def check_all(names=None, path=None) -> dict[str, str]:
    """Check several claims (default all); returns {name: sentence}. Raises on the first failure."""
    return {n: check(n, path) for n in (CLAIMS if names is None else names)}


def verdicts(path=None) -> dict[str, tuple[str, str]]:
    """{name: (verdict, detail)} for every claim; verdict is "holds", "FAILS" or "cannot judge" (one seed)."""
    out = {}
    for name in CLAIMS:
        try:
            ok, detail = evaluate(name, path)
            out[name] = ("holds" if ok else "FAILS", detail)
        except TooFewSeeds as err:
            out[name] = ("cannot judge", str(err).split(";")[0])
    return out


def summary(path=None) -> str:
    """A plain-text table of the per-method numbers (mean ± 95% interval over seeds) and the claims."""
    r = results(path)
    n = len(r["seeds"])
    spread = "mean ± half-width of the 95% t interval over seeds" if n > 1 else "one seed: no interval"
    lines = [f"preset {r['preset']}, seeds {r['seeds']}, {r['config']['steps']} steps × batch {r['config']['batch_size']}, "
             f"unigram baseline {unigram_loss(path):.3f}; {spread}",
             f"{'method':<18} {'0–127':>15} {'128–511':>15} {'rise':>15}"]

    def cell(per_seed) -> str:
        values = np.asarray(per_seed)
        return f"{values.mean():.3f} ± {Estimate.of(values).half_width:.3f}" if n > 1 else f"{values.mean():.3f}"

    for m in METHODS:
        lines.append(f"{m:<18} {cell(in_distribution(m, True, path)):>15} {cell(beyond(m, True, path)):>15} {cell(rise(m, True, path)):>15}")
    for s in SCALINGS:
        lines.append(f"{'rope + ' + s:<18} {cell(scaling_in_distribution(s, True, path)):>15} "
                     f"{cell(scaling_beyond(s, True, path)):>15} {cell(scaling_rise(s, True, path)):>15}")
    judged = verdicts(path)
    for name, (verdict, detail) in judged.items():
        lines.append(f"[{verdict}] {name}: {detail}")
    counts = {v: sum(1 for verdict, _ in judged.values() if verdict == v) for v in ("holds", "FAILS", "cannot judge")}
    lines.append(f"{counts['holds']} of {len(judged)} claims hold, {counts['FAILS']} fail, {counts['cannot judge']} cannot be judged from {n} seed(s)")
    return "\n".join(lines)
