"""How sure a sentence about the experiment is: a mean over seeds with its 95% interval, and the margins words mean.

Every method trained from the same seed starts from the same initial weights where
shapes agree and sees the same batches in the same order (data.batch_starts), so
two methods are compared seed by seed: d_s = A_s − B_s. What is shared by a seed
(a lucky initialisation, an easy batch order) cancels in d_s, which is why paired
differences scatter far less than the losses themselves.

The interval is Student's t interval for the mean of the n per-seed values,

    mean ± t(0.975, n − 1) · sd / √n        (sd with n − 1 in the denominator),

a 95% confidence interval: over repeated sets of n seeds, intervals made this way
contain the true mean difference 95% of the time. t rather than the normal 1.96
because the spread is itself estimated from few seeds (t = 2.36 for 8 seeds, 2.13
for 16); not a bootstrap, whose percentile interval is too narrow at n = 8 (it can
only resample the seeds it has). The t interval assumes the mean is roughly normal
over sets of seeds. That fails for the one method whose seeds split into two
groups (unscaled sinusoidal: most stall at the character-frequency level, a few
escape it), where a mean and its interval describe neither group. For it the course
counts seeds, and a comparison with it is judged seed by seed: every seed's
difference must clear the word's margin (SeedRange), and the pages quote the
smallest and largest per-seed value instead of a mean.

Two questions, two kinds of words. A sentence about a difference A − B answers both:

(a) Does the data resolve the sign? Yes when the 95% interval excludes 0: then A is
    higher (or lower), whatever the size, and no sentence may call it luck,
    "分不出" or "cannot tell". Only an interval that contains 0 leaves the sign open.
(b) How large is it? Against a scale from this experiment's own effects: the whole
    gain from any position signal (NoPE − RoPE within the training length) is about
    0.25 nats, and a difference of x nats is a perplexity e^x − 1 higher.

Margins, in nats (e^0.1 − 1 ≈ 10.5% perplexity, e^0.05 − 1 ≈ 5%, e^0.02 − 1 ≈ 2%):

    CLEARLY   = 0.1    about 40% of the whole position-signal gain
    SAME      = 0.05   about 20% of it: the band of "barely changes"
    DIFFERENT = 0.02   about 8% of it: the least a plain comparison claims

These margins were set when the 16-seed results were already committed (not before,
as the pages once said) and checked on each half of the seeds; from the pre-registration
(preregistration/) on, the claims and their margins are frozen before new seeds are run.

The words (WORDS), each a condition on the interval [low, high] of A − B, oriented so
that the sentence's direction is positive:

    clearly      low > CLEARLY                       "明显" / "clearly": resolved and large
    more         low > DIFFERENT                     a plain "lower", "better", "rises": resolved, at least ~2%
    a_little     0 < low and high < CLEARLY          "一点" / "a little": resolved, but under the clearly margin
    slightly     0 < low and high < SAME             "略" / "slightly": resolved, and it barely changes anything
    within       −SAME < low and high < SAME          "几乎不变" / "barely changing": a size only (no sign claimed)
    cannot_tell  low ≤ 0 ≤ high, inside ±SAME        "分不出" / "cannot tell": the only word for an open sign
    later        low > 0 (steps of continued training)
    most_seeds   a per-seed indicator above 0 on more than half of the seeds (a count, "多数")

A claim whose method's seeds split into two groups is judged with a SeedRange (every
seed, not an interval), and so is a claim that says "every seed".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CLEARLY = 0.1
DIFFERENT = 0.02
SAME = 0.05
LEVEL = 0.95
QUANTILE = 0.5 + LEVEL / 2  # the two-sided interval uses the t quantile at 97.5%


class TooFewSeeds(ValueError):
    """A statement over seeds needs at least two seeds (the quick preset has one)."""


@dataclass(frozen=True)
class _OverSeeds:
    """A per-seed quantity (at least two seeds, every value finite) and the span [low, high] a statement reads:
    the span lies above a margin, below it, or inside ±margin."""

    values: tuple[float, ...]

    @classmethod
    def of(cls, per_seed):
        values = np.asarray(per_seed, dtype=np.float64).ravel()
        if values.size < 2:  # one seed says nothing about how the seeds spread
            raise TooFewSeeds(f"a statement over seeds needs at least 2 seeds, got {values.size}; "
                              "run `python -m posenc.experiment run --preset full --seeds 8` (or more)")
        if not np.all(np.isfinite(values)):
            raise ValueError(f"per-seed values must be finite, got {values.tolist()}")
        return cls(tuple(float(v) for v in values))

    @property
    def n(self) -> int:
        return len(self.values)

    # Each subclass says what the span is: properties ``low`` and ``high``.

    def above(self, margin: float) -> bool:
        """The whole span lies above ``margin``."""
        return self.low > margin

    def below(self, margin: float) -> bool:
        """The whole span lies below ``margin``."""
        return self.high < margin

    def inside(self, margin: float) -> bool:
        """The whole span lies inside (−margin, +margin)."""
        return -margin < self.low and self.high < margin

    def contains_zero(self) -> bool:
        """The sign is left open: the span reaches 0 or crosses it."""
        return self.low <= 0.0 <= self.high

    def positive_count(self) -> int:
        """On how many seeds the value is above 0 (the sentence's direction holds)."""
        return sum(1 for v in self.values if v > 0)


@dataclass(frozen=True)
class SeedRange(_OverSeeds):
    """The smallest and largest per-seed value, for a method whose seeds split into two groups (see above)."""

    @property
    def smallest(self) -> float:
        return min(self.values)

    @property
    def largest(self) -> float:
        return max(self.values)

    low, high = smallest, largest

    @classmethod
    def counted(cls, per_seed):
        """A statement about every seed is a count, which one seed can already make (no spread needed)."""
        values = np.asarray(per_seed, dtype=np.float64).ravel()
        if values.size < 1 or not np.all(np.isfinite(values)):
            raise ValueError(f"per-seed values must be finite and at least one, got {values.tolist()}")
        return cls(tuple(float(v) for v in values))

    def __str__(self) -> str:
        return f"every seed in [{self.smallest:+.3f}, {self.largest:+.3f}] (n={self.n})"


@dataclass(frozen=True)
class Estimate(_OverSeeds):
    """The mean over seeds of a per-seed quantity, with its 95% Student-t interval."""

    @property
    def mean(self) -> float:
        return float(np.mean(self.values))

    @property
    def half_width(self) -> float:
        from scipy import stats  # imported here: the site reads numbers without paying for scipy at import

        sd = float(np.std(self.values, ddof=1))
        return float(stats.t.ppf(QUANTILE, self.n - 1)) * sd / math.sqrt(self.n)

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}] over {self.n} seeds"


# The words a sentence about a difference may use, each a condition on the span of A − B (oriented so
# that the sentence's direction is positive); see the module docstring for what each means on a page.
WORDS = {
    "clearly": lambda e: e.above(CLEARLY),
    "more": lambda e: e.above(DIFFERENT),
    "a_little": lambda e: e.above(0.0) and e.below(CLEARLY),
    "slightly": lambda e: e.above(0.0) and e.below(SAME),
    "within": lambda e: e.inside(SAME),
    "cannot_tell": lambda e: e.contains_zero() and e.inside(SAME),
    # counts, not nats: a difference in recovery steps, and a per-seed indicator (> 0 where a seed does it)
    "later": lambda e: e.above(0.0),
    "most_seeds": lambda e: 2 * e.positive_count() > e.n,
}
RULES = {
    "clearly": f"> {CLEARLY}",
    "more": f"> {DIFFERENT}",
    "a_little": f"in (0, {CLEARLY})",
    "slightly": f"in (0, {SAME})",
    "within": f"inside ±{SAME}",
    "cannot_tell": f"contains 0, inside ±{SAME}",
    "later": "> 0 steps",
    "most_seeds": "> 0 on more than half of the seeds",
}
# Words whose sentence leaves the sign open; every other word says the data resolves it.
SIGN_OPEN = ("cannot_tell",)
SIZE_ONLY = ("within",)


def satisfies(word: str, span: _OverSeeds) -> bool:
    """Does ``span`` (an Estimate or a SeedRange of A − B) satisfy ``word``?"""
    if word not in WORDS:
        raise ValueError(f"unknown word {word!r}; choose from {', '.join(WORDS)} (posenc/experiment/stats.py)")
    return bool(WORDS[word](span))
