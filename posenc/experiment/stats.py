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

Words and their margins, in nats (fixed by what the word means, never fitted to
the results; e^0.1 ≈ 1.105, so 0.1 nats is about a 10% higher perplexity):

    CLEARLY   = 0.1    "明显" (clearly better/worse, clearly rises): the whole interval beyond 0.1
    DIFFERENT = 0.02   a plain comparison ("better", "worse", "lower", "rises"): the whole interval beyond 0.02
    NO_CLEAR  = 0.1    "分不出明显高下" (no clear difference): the whole interval inside ±0.1
    SAME      = 0.05   "差不多", "基本不变" (about the same, flat): the whole interval inside ±0.05
    "a little" (略, 一点): beyond DIFFERENT, and the whole interval below CLEARLY

Statements about how many steps of continued training a variant needs count steps,
not nats: plain "later" (慢) needs the interval of the per-seed difference above
0 steps, "clearly later" (明显慢) above one measurement interval of the curve
(ext_curve_every steps), the most a single seed's reading can be off by.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CLEARLY = 0.1
DIFFERENT = 0.02
NO_CLEAR = 0.1
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
