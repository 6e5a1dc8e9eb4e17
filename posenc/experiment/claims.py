"""What lessons may say about the experiment, read from the committed results.

Two kinds of access:

- numbers for prose: ``in_distribution("rope")``, ``beyond("learned")``,
  ``sqrt_d_gap()`` … (means over seeds; ``per_seed=True`` gives each seed, from
  which posenc/quantities/experiment.py prints a mean with its ± over seeds);
- qualitative sentences: ``check("sin_worse_in_distribution")`` evaluates one
  statement against the results and raises ``ClaimFailed`` quoting the
  sentence when the numbers no longer support it, so a re-run that changes the
  story breaks the build instead of leaving a false sentence on a page. Pages
  print a sentence with ``{{ claim("name") }}`` (tools/build/macros.py), never by
  retyping it; tests check that every claim a page uses holds and that every
  registered claim is used.

How sure a sentence is (stats.py): methods trained from the same seed share their
initialisation and their batches, so a comparison is made per seed. A sentence answers
two questions about the per-seed difference: does the 95% t interval of its mean exclude
0 (the sign is resolved: no "分不出", no "luck"), and how large is it (the margins, against
the gain from any position signal, NoPE − RoPE ≈ 0.25 nats). Each claim is a list of
Checks, each one word of stats.WORDS; the sentence says on how many seeds it goes its way.
A claim therefore needs at least two seeds; the quick preset (one seed) can judge only the
counts, and `summary` says so. Whether unscaled sinusoidal gets stuck at the
character-frequency level is counted per seed instead ("on most seeds"), because its
seeds split into two groups rather than scatter around a mean.

The claim set is frozen in preregistration/ before new seeds are run (frozen.py); a
claim is reworded only after it failed there. Its English sentence, a translation of the
frozen Chinese, may be re-worded without changing its meaning: amendments.py records each such
wording beside the frozen one, and the English pages print it.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

import numpy as np

from .config import EXTENSIONS, METHODS, ROPE_SCALINGS as SCALINGS
from .provenance import seal
from . import stats
from ..formatting import LANGUAGES
from .stats import Estimate, SeedRange, TooFewSeeds

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
# (tools/build/macros.py). Never set in CI; a test checks that a normal build has no placeholder.
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
    # The site's results hold every method and extension the pages name. Another file (the replication, a quick run)
    # is judged on what its claims read: a method added after it was run is not in it, and _units says so if asked.
    missing = [m for m in METHODS if m not in results.get("runs", {})] + [v for v in EXTENSIONS if v not in results.get("extension", {})]
    if missing and p.resolve() == RESULTS_FILE.resolve():
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


def _units(group: str, key: str, path=None) -> list[dict]:
    """The units of method (group "runs") or extension variant (group "extension") ``key`` in results file ``path``."""
    units = results(path).get(group, {}).get(key)
    if units is None:
        p = RESULTS_FILE if path is None else Path(path)
        raise ClaimFailed(f"{p} has no {key!r}: it was run without it; run `python -m posenc.experiment run` with the "
                          f"same preset and seeds to add its units, or judge only the claims that do not read it")
    return units


# --- arrays --------------------------------------------------------------------------------------


def position_losses(method: str, path=None) -> np.ndarray:
    """Loss at each position 0–511, one row per seed: shape (seeds, 512)."""
    return np.array([u["position_loss"] for u in _units("runs", _check_method(method), path)])


def scaling_position_losses(name: str, path=None) -> np.ndarray:
    """The trained RoPE model at evaluation time with ``name`` ∈ {rope, pi, ntk, yarn}: (seeds, 512)."""
    if name == "rope":
        return position_losses("rope", path)
    if name not in SCALINGS:
        raise ValueError(f"unknown RoPE scaling {name!r}; choose from rope, {', '.join(SCALINGS)}")
    return np.array([u["rope_scaling"][name] for u in _units("runs", "rope", path)])


def train_losses(method: str, path=None) -> np.ndarray:
    """Training loss per step, one row per seed: shape (seeds, steps)."""
    return np.array([u["train_loss"] for u in _units("runs", _check_method(method), path)])


def val_curves(method: str, path=None) -> np.ndarray:
    """Validation loss at positions 0–127 after each of ``curve_steps()``, one row per seed."""
    return np.array([u["val_curve"] for u in _units("runs", _check_method(method), path)])


def curve_steps(path=None) -> np.ndarray:
    """The training steps at which the learning curves were measured."""
    cfg = config(path)
    return np.arange(cfg["curve_every"], cfg["steps"] + 1, cfg["curve_every"])


def _check_variant(variant: str) -> str:
    if variant not in EXTENSIONS:
        raise ValueError(f"unknown extension variant {variant!r}; choose from {', '.join(EXTENSIONS)}")
    return variant


def extension_units(variant: str, path=None) -> list[dict]:
    return _units("extension", _check_variant(variant), path)


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


def unigram_loss(path=None) -> float:
    """Validation loss of predicting by character frequency alone (no context)."""
    return float(results(path)["data"]["unigram_loss"])


def stalled_seeds(method: str, path=None) -> list[int]:
    """Seeds whose loss inside the training length stayed within STALL of the unigram baseline."""
    s = in_distribution(method, True, path)
    return [seed for seed, v in zip(seeds(path), s) if abs(v - unigram_loss(path)) < STALL]


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
# words on the page and the test that backs them are one entry here. A sentence carries no typed
# numbers and no final punctuation, so it sits inside a paragraph; where it says on how many seeds
# a comparison goes its way, it writes {seeds} ({seeds1}, {seeds2} … for its first, second …
# comparison), which check() fills from the results: "全部 16 个种子" / "16 个种子里的 15 个".
#
# A claim is a list of Checks, each a word of stats.WORDS applied to the per-seed difference a − b
# (oriented so that the sentence's direction is positive). The list is data, not code, so the whole
# claim set can be frozen in a file before new seeds are run (preregistration/, frozen.py).

ZERO = ("zero",)  # the constant 0: ("rise", m) − ZERO is the rise itself
UNIGRAM = ("unigram",)  # the character-frequency baseline, the same on every seed


@dataclass(frozen=True)
class Measure:
    """One measure a check can compare (a side is (source, key)): how to read it per seed, what its key names
    ("method": config.METHODS, "extension": EXTENSIONS, "scaling": ROPE_SCALINGS) and its unit."""
    per_seed: Callable  # (key, per_seed=True, path) -> one value per seed
    keyed_by: str
    unit: str = "nats"


MEASURES = MappingProxyType({
    "in": Measure(in_distribution, "method"),
    "beyond": Measure(beyond, "method"),
    "rise": Measure(rise, "method"),
    "early": Measure(early_excess, "method"),
    "half_way": Measure(lambda m, _, p: curve_at(m, half_way(p), True, p), "method"),
    # STALL − |loss − unigram|: above 0 on a seed that stayed at the character-frequency level
    "stalled": Measure(lambda m, _, p: STALL - np.abs(in_distribution(m, True, p) - unigram_loss(p)), "method"),
    "scaled_in": Measure(scaling_in_distribution, "scaling"),
    "scaled_beyond": Measure(scaling_beyond, "scaling"),
    "scaled_rise": Measure(scaling_rise, "scaling"),
    "ext_new": Measure(lambda v, _, p: extension_new_range(v, "after", True, p), "extension"),
    "ext_in_before": Measure(lambda v, _, p: extension_span(v, "before", 0, TRAIN_LEN, True, p), "extension"),
    "ext_rise": Measure(extension_rise, "extension"),
    "ext_gap": Measure(extension_gap, "extension"),
    # steps of continued training until the in-distribution loss is back (recovery_steps)
    "recovery": Measure(lambda v, _, p: np.asarray(recovery_steps(v, p), dtype=np.float64), "extension", "steps"),
})


def _value(side: tuple, path) -> np.ndarray | float:
    """One side of a comparison, per seed: ("in", "rope") → in_distribution("rope", per_seed=True) …"""
    if side == ZERO:
        return 0.0
    if side == UNIGRAM:
        return unigram_loss(path)
    source, key = side
    return np.asarray(MEASURES[source].per_seed(key, True, path), dtype=np.float64)


def _label(side: tuple) -> str:
    return side[0] if len(side) == 1 else f"{side[0]}({side[1]})"


# Methods whose seeds split into two groups (most stall at the character-frequency level): a mean and its
# interval describe neither group, so a comparison with one is judged seed by seed (stats.SeedRange).
# Set after the 16 seeds had shown the split (the record on the results page says so).
TWO_GROUPS = ("sinusoidal",)


@dataclass(frozen=True)
class Check:
    """``word`` (stats.WORDS) holds for the per-seed a − b; with ``every_seed`` (or a TWO_GROUPS method on
    either side) every seed's difference must satisfy it, otherwise the 95% interval of their mean."""

    word: str
    a: tuple
    b: tuple = ZERO
    every_seed: bool = False

    def __post_init__(self):
        if self.word not in stats.WORDS:
            raise ValueError(f"unknown word {self.word!r}; choose from {', '.join(stats.WORDS)}")
        if self.a == self.b:
            raise ValueError(f"a check compares {self.a} with itself")

    def seed_by_seed(self) -> bool:
        return self.every_seed or self.word == "most_seeds" or any(side[-1] in TWO_GROUPS for side in (self.a, self.b))

    def as_dict(self) -> dict:
        return {"word": self.word, "a": list(self.a), "b": list(self.b), "every_seed": self.every_seed}

    @classmethod
    def from_dict(cls, d: dict) -> "Check":
        return cls(d["word"], tuple(d["a"]), tuple(d["b"]), bool(d["every_seed"]))

    def __str__(self) -> str:
        b = "" if self.b == ZERO else f" − {_label(self.b)}"
        return f"{self.word}: {_label(self.a)}{b}{' (every seed)' if self.every_seed else ''}"


@dataclass(frozen=True)
class Outcome:
    """What one Check found: whether it holds, the span it read and on how many seeds a − b > 0."""

    check: Check
    ok: bool
    span: stats._OverSeeds
    positive: int

    @property
    def n(self) -> int:
        return self.span.n

    def __str__(self) -> str:
        b = "" if self.check.b == ZERO else f" − {_label(self.check.b)}"
        return (f"{_label(self.check.a)}{b} = {self.span}, > 0 on {self.positive} of {self.n}; "
                f"{self.check.word} needs {stats.RULES[self.check.word]}")


def judge(check: Check, path=None) -> Outcome:
    d = np.broadcast_to(_value(check.a, path) - _value(check.b, path), (len(seeds(path)),))
    if check.every_seed:
        span = SeedRange.counted(d)  # a count of seeds: one seed can be judged too
    else:
        span = SeedRange.of(d) if check.seed_by_seed() else Estimate.of(d)
    return Outcome(check, stats.satisfies(check.word, span), span, span.positive_count())


def seeds_phrase(positive: int, n: int, lang: str, several: bool = False) -> str:
    """"全部 16 个种子" / "16 个种子里的 15 个" (zh); "all 16 seeds" / "15 of 16 seeds" (en); with
    ``several`` comparisons and not all seeds: "at least 15 of 16 seeds" (the smallest count)."""
    if lang == "zh":
        if positive == n:
            return f"全部 {n} 个种子"
        return f"{n} 个种子里至少 {positive} 个" if several else f"{n} 个种子里的 {positive} 个"
    if positive == n:
        return f"all {n} seeds"
    return f"at least {positive} of {n} seeds" if several else f"{positive} of {n} seeds"


def _c(word, a, b=ZERO, every_seed=False) -> Check:
    return Check(word, a, b, every_seed)


def _in(m):
    return ("in", m)


def _beyond(m):
    return ("beyond", m)


def _rise(m):
    return ("rise", m)


LESSON3_METHODS = ("learned", "sinusoidal_scaled", "nope")  # what lesson 3 compares with unscaled sinusoidal


@dataclass(frozen=True)
class Claim:
    # The sentence in each of the course's languages (formatting.LANGUAGES), as frozen; {seeds}, {seeds1} … are
    # filled by check(). Chinese is the original; every other language says what the Chinese says and no more,
    # with the same words (stats.WORDS). The English starts with a capital when the Chinese starts a sentence, in
    # lower case when it continues one; where amendments.ENGLISH re-words it, the English pages print that.
    text: Mapping[str, str]
    checks: tuple[Check, ...]

    def __post_init__(self):  # a frozen claim's words cannot be edited in place either
        object.__setattr__(self, "text", MappingProxyType(dict(self.text)))

    def template(self, lang: str) -> str:
        """The frozen sentence in ``lang`` (the pages print english_template for English)."""
        from ..formatting import check_language

        return self.text[check_language(lang)]

    def outcomes(self, path=None) -> list[Outcome]:
        return [judge(c, path) for c in self.checks]

    def render(self, lang: str, outcomes: list[Outcome], template: str | None = None) -> str:
        """``template`` (default the frozen sentence in ``lang``) with its seed counts and margins filled in."""
        return (self.template(lang) if template is None else template).format(**fields(outcomes, lang))

    def test(self, path=None) -> tuple[bool, str]:
        outcomes = self.outcomes(path)
        return all(o.ok for o in outcomes), "; ".join(str(o) for o in outcomes)

    def as_dict(self) -> dict:
        return {**{lang: self.text[lang] for lang in LANGUAGES}, "checks": [c.as_dict() for c in self.checks]}


def fields(outcomes: list[Outcome], lang: str) -> dict[str, str]:
    """What a sentence's {fields} read: {seeds} (the smallest count), {seeds1} … (each comparison's count), and
    the margins an amended English sentence names, {clearly} and {same} (amendments.MARGIN_FIELDS)."""
    several = len(outcomes) > 1
    smallest = min(outcomes, key=lambda o: o.positive)
    out = {"seeds": seeds_phrase(smallest.positive, smallest.n, lang, several),
           "clearly": f"{stats.CLEARLY:g}", "same": f"{stats.SAME:g}"}
    out.update({f"seeds{i}": seeds_phrase(o.positive, o.n, lang) for i, o in enumerate(outcomes, 1)})
    return out


def english_template(name: str) -> str:
    """The English sentence the pages print for claim ``name``: the frozen one, or its amended wording."""
    from .amendments import ENGLISH

    if name not in CLAIMS:
        raise KeyError(f"unknown claim {name!r}; known: {', '.join(CLAIMS)}")
    return ENGLISH[name].en if name in ENGLISH else CLAIMS[name].text["en"]


def template(name: str, lang: str) -> str:
    """The sentence the pages print for claim ``name`` in ``lang`` (Chinese as frozen; English as amended)."""
    from ..formatting import check_language

    return english_template(name) if check_language(lang) == "en" else CLAIMS[name].text[lang]


def _every(word, pairs, every_seed=False):
    return tuple(_c(word, a, b, every_seed) for a, b in pairs)


CLAIMS: dict[str, Claim] = {
    # lesson 1
    "nope_beats_unigram": Claim(
        {"zh": "不加任何位置编码的因果小模型，loss 也明显低于只按字频猜的基线（{seeds}如此）：它确实用上了前文",
         "en": "Even with no position encoding at all, the small causal model's loss is clearly below the baseline that guesses from character frequencies alone (on {seeds}): it does use the preceding text"},
        (_c("clearly", UNIGRAM, _in("nope")),),
    ),
    # lesson 3: learned table, sinusoidal with and without √d_model, and no position encoding at all
    "sin_worse_in_distribution": Claim(
        {"zh": "不乘 √d_model 的 sinusoidal 在训练长度之内明显比可学习位置表差，甚至明显不如不加任何位置编码的模型（{seeds}如此）",
         "en": "Sinusoidal encoding without the √d_model factor is clearly worse than the learned position table within the training length, and clearly worse even than the model with no position encoding at all (on {seeds})"},
        _every("clearly", [(_in("sinusoidal"), _in(m)) for m in ("learned", "nope")]),
    ),
    "sin_stalls_on_most_seeds": Claim(
        {"zh": "不乘 √d_model 时，多数种子（{seeds}）训练结束时仍停在只按字频猜的水平，等于没学会用上下文",
         "en": "Without the √d_model factor, most seeds ({seeds}) end training still at the level of guessing from character frequencies: they never learned to use the context"},
        (_c("most_seeds", ("stalled", "sinusoidal")),),
    ),
    "sqrt_d_learns_every_seed": Claim(
        {"zh": "乘上 √d_model 之后，{seeds}都明显低于字频基线",
         "en": "With √d_model, {seeds} end clearly below the character-frequency baseline"},
        (_c("clearly", UNIGRAM, _in("sinusoidal_scaled"), every_seed=True),),
    ),
    "sqrt_d_gap_is_clear": Claim(
        {"zh": "只改这一处，训练长度之内的 loss 就明显降了下来（{seeds}如此）",
         "en": "Changing only this one thing clearly lowers the loss within the training length (on {seeds})"},
        (_c("clearly", _in("sinusoidal"), _in("sinusoidal_scaled")),),
    ),
    "sin_scaled_ahead_of_learned_and_nope": Claim(
        {"zh": "而且好于可学习位置表和不加任何位置编码的模型（{seeds}如此）",
         "en": "and it also beats the learned position table and the model with no position encoding (on {seeds})"},
        _every("more", [(_in(m), _in("sinusoidal_scaled")) for m in ("learned", "nope")]),
    ),
    "learned_a_little_worse_than_nope": Claim(
        {"zh": "可学习位置表在训练长度之内反而比不加任何位置编码的模型差一点：差别不到「明显」的门槛，但方向是确定的，{seeds}都是它的 loss 更高",
         "en": "Within the training length, the learned position table is a little worse than the model with no position encoding: the difference is short of the clearly margin, but its sign is resolved, with the higher loss on {seeds}"},
        (_c("a_little", _in("learned"), _in("nope")),),
    ),
    "sin_scaled_rises": Claim(
        {"zh": "越过训练长度，乘了 √d_model 的 sinusoidal 的 loss 明显抬高（{seeds}如此）",
         "en": "Past the training length, the loss of sinusoidal encoding with √d_model rises clearly (on {seeds})"},
        (_c("clearly", _rise("sinusoidal_scaled")),),
    ),
    "learned_rises_less": Claim(
        {"zh": "可学习位置表也抬高，但明显不如它抬得多（{seeds}如此）",
         "en": "the learned position table's loss rises too, but clearly less (on {seeds})"},
        (_c("more", _rise("learned")), _c("clearly", _rise("sinusoidal_scaled"), _rise("learned"))),
    ),
    "nope_rises_slightly_past_train_len": Claim(
        {"zh": "不加任何位置编码的模型，越过训练长度之后 loss 几乎不变，只略高一点（{seeds}如此）",
         "en": "The model with no position encoding keeps almost the same loss past the training length, only slightly higher (on {seeds})"},
        (_c("slightly", _rise("nope")),),
    ),
    "early_positions_higher": Claim(
        {"zh": "最开头几个位置几乎没有上下文，乘了 √d_model 的 sinusoidal 和不加位置编码的模型在那里的 loss 都高于训练长度的后半段（{seeds}如此）",
         "en": "The first few positions have almost no context, and there both sinusoidal encoding with √d_model and the model with no position encoding have a higher loss than in the second half of the training length (on {seeds})"},
        _every("more", [(("early", m), ZERO) for m in ("sinusoidal_scaled", "nope")]),
    ),
    "lesson3_methods_beat_unigram": Claim(
        {"zh": "可学习位置表、乘了 √d_model 的 sinusoidal 和不加位置编码的模型，{seeds}在训练长度之内都明显好于只按字频猜的基线",
         "en": "The learned position table, sinusoidal encoding with √d_model and the model with no position encoding are each, on {seeds}, clearly better than the character-frequency baseline within the training length"},
        _every("clearly", [(UNIGRAM, _in(m)) for m in LESSON3_METHODS], every_seed=True),
    ),
    "sin_slightly_above_unigram_half_way": Claim(
        {"zh": "不乘 √d_model 的 sinusoidal 训练到一半时，还停在字频基线附近，甚至略高于它（{seeds}如此）",
         "en": "Half-way through training, sinusoidal encoding without √d_model is still at the character-frequency baseline, even slightly above it (on {seeds})"},
        (_c("slightly", ("half_way", "sinusoidal"), UNIGRAM),),
    ),
    "others_below_unigram_half_way": Claim(
        {"zh": "另外三组这时都已经明显低于基线（{seeds}如此）",
         "en": "the other three are by then all clearly below it (on {seeds})"},
        _every("clearly", [(UNIGRAM, ("half_way", m)) for m in LESSON3_METHODS]),
    ),
    # lesson 3b: ALiBi
    "alibi_falls_slightly_past_train_len": Claim(
        {"zh": "ALiBi 越过训练长度之后 loss 几乎不变，还略低一点（{seeds}如此）",
         "en": "ALiBi keeps almost the same loss past the training length, even slightly lower (on {seeds})"},
        (_c("slightly", ZERO, _rise("alibi")),),
    ),
    "alibi_beats_additive_beyond": Claim(
        {"zh": "训练长度之外，ALiBi 的 loss 明显低于前面几种把位置加在输入上的做法，也明显低于不加位置编码的模型（{seeds}如此）",
         "en": "Beyond the training length, ALiBi's loss is clearly lower than that of the earlier methods that add the position to the input, and clearly lower than that of the model with no position encoding (on {seeds})"},
        _every("clearly", [(_beyond(m), _beyond("alibi")) for m in ("learned", "sinusoidal", "sinusoidal_scaled", "nope")]),
    ),
    "alibi_beats_nope_in_distribution": Claim(
        {"zh": "训练长度之内，ALiBi 明显好于不加任何位置编码的模型（{seeds}如此）",
         "en": "Within the training length, ALiBi is clearly better than the model with no position encoding (on {seeds})"},
        (_c("clearly", _in("nope"), _in("alibi")),),
    ),
    "alibi_ahead_of_sin_scaled_in_distribution": Claim(
        {"zh": "也好于乘了 √d_model 的 sinusoidal（{seeds}如此）",
         "en": "and better than sinusoidal encoding with √d_model as well (on {seeds})"},
        (_c("more", _in("sinusoidal_scaled"), _in("alibi")),),
    ),
    # lesson 4: RoPE
    "rope_a_little_below_alibi": Claim(
        {"zh": "训练长度之内，RoPE 比 ALiBi 低一点：差别不到「明显」的门槛，但方向是确定的，{seeds}都是 RoPE 更低",
         "en": "Within the training length, RoPE is a little lower than ALiBi: the difference is short of the clearly margin, but its sign is resolved, with RoPE lower on {seeds}"},
        (_c("a_little", _in("alibi"), _in("rope")),),
    ),
    "rope_and_alibi_beat_additive_in_distribution": Claim(
        {"zh": "两者都明显好于可学习位置表和不加位置编码的模型，也好于乘了 √d_model 的 sinusoidal（每一项都在{seeds}上如此）",
         "en": "both are clearly better than the learned position table and the model with no position encoding, and better than sinusoidal encoding with √d_model (each on {seeds})"},
        tuple(_c(word, _in(m), _in(best)) for best in ("rope", "alibi")
              for m, word in (("learned", "clearly"), ("nope", "clearly"), ("sinusoidal_scaled", "more"))),
    ),
    "rope_rises": Claim(
        {"zh": "越过训练长度，直接外推的 RoPE 的 loss 明显抬高（{seeds}如此）",
         "en": "Past the training length, the loss of RoPE used as it is rises clearly (on {seeds})"},
        (_c("clearly", _rise("rope")),),
    ),
    "nope_beats_rope_beyond": Claim(
        {"zh": "直接外推的 RoPE 在训练长度之外反而不如不加任何位置编码的模型（{seeds}如此）",
         "en": "Beyond the training length, RoPE used as it is does worse than the model with no position encoding at all (on {seeds})"},
        (_c("more", _beyond("rope"), _beyond("nope")),),
    ),
    "alibi_beats_rope_beyond": Claim(
        {"zh": "训练长度之外，ALiBi 的 loss 明显低于直接外推的 RoPE（{seeds}如此）",
         "en": "Beyond the training length, ALiBi's loss is clearly lower than that of RoPE used as it is (on {seeds})"},
        (_c("clearly", _beyond("rope"), _beyond("alibi")),),
    ),
    # lesson 5: RoPE scaled at evaluation time, no training
    "ntk_yarn_help_rope_beyond": Claim(
        {"zh": "不做任何微调，推理时用上 NTK-aware 或 YaRN 的缩放，RoPE 在训练长度之外的 loss 就比直接外推低（{seeds}如此）",
         "en": "With no fine-tuning at all, scaling RoPE with NTK-aware or YaRN at inference time gives a lower loss beyond the training length than using it as it is (on {seeds})"},
        _every("more", [(_beyond("rope"), ("scaled_beyond", n)) for n in ("ntk", "yarn")]),
    ),
    "pi_needs_finetuning": Claim(
        {"zh": "不微调就直接用 PI，连训练长度之内的 loss 都明显变差（{seeds}如此）",
         "en": "Applied without fine-tuning, PI clearly worsens the loss even within the training length (on {seeds})"},
        (_c("clearly", ("scaled_in", "pi"), _in("rope")),),
    ),
    "pi_worse_beyond_too": Claim(
        {"zh": "在训练长度之外，PI 也比什么都不做的直接外推更差（{seeds}如此）",
         "en": "Beyond the training length, PI is also worse than leaving RoPE as it is (on {seeds})"},
        (_c("more", ("scaled_beyond", "pi"), _beyond("rope")),),
    ),
    "ntk_costs_a_little_in_distribution": Claim(
        {"zh": "NTK-aware 在训练长度之内只比不缩放高一点（{seeds}如此）",
         "en": "Within the training length, NTK-aware is only a little worse than no scaling (on {seeds})"},
        (_c("a_little", ("scaled_in", "ntk"), _in("rope")),),
    ),
    "yarn_rise_within_same_band": Claim(
        {"zh": "用 YaRN 缩放后，越过训练长度 loss 几乎不变：变化落在「几乎不变」的范围里（{seeds}是升的）",
         "en": "Scaled with YaRN, the loss stays almost the same past the training length: the change is inside the band of barely changing (up on {seeds})"},
        (_c("within", ("scaled_rise", "yarn")),),
    ),
    "yarn_costs_in_distribution": Claim(
        {"zh": "代价是训练长度之内明显比不缩放高（{seeds}如此）",
         "en": "the price is a clearly higher loss than no scaling within the training length (on {seeds})"},
        (_c("clearly", ("scaled_in", "yarn"), _in("rope")),),
    ),
    "yarn_rope_beats_nope_beyond": Claim(
        {"zh": "推理时给 RoPE 用上 YaRN 的缩放，它在训练长度之外的 loss 又低于不加任何位置编码的模型（{seeds}如此）",
         "en": "With YaRN scaling at inference time, RoPE's loss beyond the training length is again lower than that of the model with no position encoding (on {seeds})"},
        (_c("more", _beyond("nope"), ("scaled_beyond", "yarn")),),
    ),
    # lesson 5: extending the context by continued training
    "ext_big_base_change_hurts_first": Claim(
        {"zh": "继续训练之前，换了频率的模型在训练长度之内已经变差：改动最轻的 NTK-aware 伤得最少，ABF 更重，连最快的频率对也一起放慢的位置插值又明显重于 ABF（每一项都在{seeds}上如此）",
         "en": "Before any continued training, each model with changed frequencies is already worse within the training length: NTK-aware, the lightest change, suffers least, ABF more, and Position Interpolation, which also slows the fastest pair, clearly more than ABF (each on {seeds})"},
        _every("more", [(("ext_in_before", v), ("ext_in_before", "ntk")) for v in ("yarn", "abf", "pi")])
        + (_c("clearly", ("ext_in_before", "pi"), ("ext_in_before", "abf")),),
    ),
    "ext_ntk_slightly_below_yarn_within_pretraining": Claim(
        {"zh": "NTK-aware 和 YaRN 在这点步数之内都回到了预训练的水平：NTK-aware 甚至略低于它（{seeds1}如此），YaRN 与它的差距落在「几乎不变」的范围里（{seeds2}高于它）",
         "en": "NTK-aware and YaRN both return to the pre-training level within these few steps: NTK-aware even slightly below it (on {seeds1}), YaRN inside the band of barely changing around it (above it on {seeds2})"},
        (_c("slightly", ZERO, ("ext_gap", "ntk")), _c("within", ("ext_gap", "yarn"))),
    ),
    "ext_abf_later_than_ntk_and_yarn": Claim(
        {"zh": "ABF 回得比这两种慢（{seeds}如此）",
         "en": "ABF gets back more slowly than either (on {seeds})"},
        _every("later", [(("recovery", "abf"), ("recovery", v)) for v in ("ntk", "yarn")]),
    ),
    "ext_pi_not_recovered": Claim(
        {"zh": "位置插值到最后也没回到预训练的水平（{seeds}如此）",
         "en": "Position Interpolation does not get back to the pre-training level by the end (on {seeds})"},
        (_c("more", ("ext_gap", "pi")),),
    ),
    "ext_pi_worst_in_new_range": Claim(
        {"zh": "继续训练之后，在新长度之内位置插值仍是五种里最差的（每一项比较都在{seeds}上如此）",
         "en": "After continued training, Position Interpolation is still the worst of the five within the new length (each comparison on {seeds})"},
        _every("more", [(("ext_new", "pi"), ("ext_new", v)) for v in EXTENSIONS if v != "pi"]),
    ),
    "ext_control_ties_ntk_slightly_beats_yarn": Claim(
        {"zh": "而频率一点不改、直接在长序列上接着训练的对照组，和 NTK-aware 分不出高低（{seeds1}是对照组更高），比 YaRN 还略好一点（{seeds2}如此）",
         "en": "while the control, which keeps its frequencies and simply goes on training on long sequences, cannot be told apart from NTK-aware (the control is higher on {seeds1}) and is slightly better than YaRN (on {seeds2})"},
        (_c("cannot_tell", ("ext_new", "rope"), ("ext_new", "ntk")), _c("slightly", ("ext_new", "yarn"), ("ext_new", "rope"))),
    ),
    "ext_yarn_pi_rise_past_new_length": Claim(
        {"zh": "越过新的长度，YaRN 和位置插值的 loss 又抬高了（{seeds}如此）",
         "en": "Past the new length, the loss of YaRN and Position Interpolation rises again (on {seeds})"},
        _every("more", [(("ext_rise", v), ZERO) for v in ("yarn", "pi")]),
    ),
    "ext_others_rise_less_than_yarn": Claim(
        {"zh": "对照组、NTK-aware 和 ABF 抬得明显比 YaRN 少（{seeds}如此）",
         "en": "the control, NTK-aware and ABF rise clearly less than YaRN (on {seeds})"},
        _every("clearly", [(("ext_rise", "yarn"), ("ext_rise", v)) for v in ("rope", "ntk", "abf")]),
    ),
    # lesson 6: NoPE and partial RoPE
    "rope_beats_nope_in_distribution": Claim(
        {"zh": "训练长度之内，RoPE 明显比 NoPE 好（{seeds}如此）",
         "en": "Within the training length, RoPE is clearly better than NoPE (on {seeds})"},
        (_c("clearly", _in("nope"), _in("rope")),),
    ),
    "partial_within_same_band_of_rope": Claim(
        {"zh": "只转每个头四分之一维度的部分 RoPE，训练长度之内和全转的 RoPE 相差很小：差距落在「几乎不变」的范围里（{seeds}是部分 RoPE 更高）",
         "en": "Partial RoPE, which rotates only a quarter of each head's dimensions, comes very close to full RoPE within the training length: the difference is inside the band of barely changing (partial RoPE is higher on {seeds})"},
        (_c("within", _in("rope_partial"), _in("rope")),),
    ),
    "partial_beats_nope": Claim(
        {"zh": "却明显好于完全不加位置编码的 NoPE（{seeds}如此）",
         "en": "yet it is clearly better than NoPE, with no position encoding at all (on {seeds})"},
        (_c("clearly", _in("nope"), _in("rope_partial")),),
    ),
    "partial_rises_beyond": Claim(
        {"zh": "越过训练长度，部分 RoPE 的 loss 同样明显抬高，明显不如 NoPE（{seeds}如此）：外推并没有因为少转了维度而变好",
         "en": "Past the training length, partial RoPE's loss also rises clearly, and it is clearly worse than NoPE (on {seeds}): rotating fewer dimensions did not make it extrapolate better"},
        (_c("clearly", _rise("rope_partial")), _c("clearly", _beyond("rope_partial"), _beyond("nope"))),
    ),
    # the results page: all seven methods side by side
    "top_three_close_rope_a_little_lowest": Claim(
        {"zh": "训练长度之内，这三种挨得很近：RoPE 比 ALiBi 低一点，方向是确定的（{seeds1}如此）；部分 RoPE 与 RoPE 的差距落在「几乎不变」的范围里（{seeds2}是部分 RoPE 更高）；部分 RoPE 和 ALiBi 分不出高低（{seeds3}是部分 RoPE 更低）",
         "en": "Within the training length, the three are close: RoPE is a little lower than ALiBi, and the sign is resolved (on {seeds1}); partial RoPE is inside the band of barely changing around RoPE (higher on {seeds2}); partial RoPE and ALiBi cannot be told apart (partial RoPE lower on {seeds3})"},
        (_c("a_little", _in("alibi"), _in("rope")), _c("within", _in("rope_partial"), _in("rope")),
         _c("cannot_tell", _in("alibi"), _in("rope_partial"))),
    ),
    "top_three_beat_the_rest": Claim(
        {"zh": "它们都明显好于 NoPE 和可学习位置表，也好于乘了 √d_model 的 sinusoidal（每一项都在{seeds}上如此）",
         "en": "all three are clearly better than NoPE and the learned position table, and better than sinusoidal encoding with √d_model (each on {seeds})"},
        tuple(_c(word, _in(m), _in(best)) for best in ("rope", "alibi", "rope_partial")
              for m, word in (("learned", "clearly"), ("nope", "clearly"), ("sinusoidal_scaled", "more"))),
    ),
    "all_but_sin_beat_unigram": Claim(
        {"zh": "除了不乘 √d_model 的 sinusoidal，其余六组模型在训练长度之内都明显好于只按字频猜的基线，{seeds}如此",
         "en": "Except sinusoidal encoding without √d_model, the other six models are clearly better than the character-frequency baseline within the training length, on {seeds}"},
        _every("clearly", [(UNIGRAM, _in(m)) for m in METHODS if m != "sinusoidal"], every_seed=True),
    ),
    # Reworded after the replication, under new names (frozen.REWORDED): the frozen sentences said RoPE's lower loss
    # than ALiBi's was a resolved sign; on the replication seeds its interval contains 0. What holds on both the
    # seeds the claims were written from and the replication is the size: every pair inside the ±SAME band.
    "rope_alibi_close_in_distribution": Claim(
        {"zh": "训练长度之内，RoPE 和 ALiBi 的差距落在「几乎不变」的范围里（正负 {same} 之内；{seeds}是 RoPE 更低）",
         "en": "Within the training length, RoPE and ALiBi lie within the ‘barely changing’ band of ±{same} nats of each other (RoPE lower on {seeds})"},
        (_c("within", _in("alibi"), _in("rope")),),
    ),
    "top_three_close_in_distribution": Claim(
        {"zh": "训练长度之内，这三种挨得很近：两两之间的差距都落在「几乎不变」的范围里（正负 {same} 之内；{seeds1}是 RoPE 比 ALiBi 低，{seeds2}是部分 RoPE 比 RoPE 高，{seeds3}是部分 RoPE 比 ALiBi 低）",
         "en": "Within the training length, the three are close: each pair lies within the ‘barely changing’ band of ±{same} nats (RoPE below ALiBi on {seeds1}, partial RoPE above RoPE on {seeds2}, partial RoPE below ALiBi on {seeds3})"},
        (_c("within", _in("alibi"), _in("rope")), _c("within", _in("rope_partial"), _in("rope")),
         _c("within", _in("alibi"), _in("rope_partial"))),
    ),
}


def check_languages(claims: dict[str, Claim]) -> None:
    """Every claim has its sentence in each of the course's languages, and in no other."""
    for name, claim in claims.items():
        missing = [lang for lang in LANGUAGES if lang not in claim.text]
        unknown = [lang for lang in claim.text if lang not in LANGUAGES]
        problems = []
        if missing:
            problems.append(f"no sentence in {', '.join(missing)}: add it to its text")
        if unknown:
            problems.append(f"a sentence in {', '.join(unknown)}, which is not a course language ({', '.join(LANGUAGES)})")
        if problems:
            raise ValueError(f"claim {name!r} (posenc/experiment/claims.py): {'; '.join(problems)}")


check_languages(CLAIMS)


def evaluate(name: str, path=None) -> tuple[bool, str]:
    """(holds, detail) for claim ``name``, without raising ClaimFailed; TooFewSeeds if the file has one seed."""
    if name not in CLAIMS:
        raise KeyError(f"unknown claim {name!r}; known: {', '.join(CLAIMS)}")
    ok, detail = CLAIMS[name].test(path)
    return bool(ok), detail


def check(name: str, path=None, lang: str = "zh") -> str:
    """Return the claim's sentence in ``lang`` if the results support it; raise ClaimFailed quoting it otherwise."""
    if name not in CLAIMS:
        raise KeyError(f"unknown claim {name!r}; known: {', '.join(CLAIMS)}")
    claim = CLAIMS[name]
    try:
        outcomes = claim.outcomes(path)
    except TooFewSeeds as err:
        raise ClaimFailed(f"claim {name!r} 「{claim.text['zh']}」 cannot be judged from {path or RESULTS_FILE}: {err}") from err
    if not all(o.ok for o in outcomes):
        detail = "; ".join(str(o) for o in outcomes)
        raise ClaimFailed(f"claim {name!r} 「{claim.text['zh']}」 is contradicted by {path or RESULTS_FILE}: {detail}")
    return claim.render(lang, outcomes, template(name, lang))


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
