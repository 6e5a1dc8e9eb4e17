"""The parameters the lessons' examples use, in one place.

Figures, numbers and widgets all read these, so changing one here changes
every page that shows it. Model facts (GPT-2's 1,024 rows) come from
``posenc/data/models.yaml`` instead.
"""

from __future__ import annotations

from .sinusoidal import DEFAULT_BASE, DEMO_DIM  # noqa: F401  (re-exported for lesson code)

# Lesson 3: positions whose encodings the page prints. The middle one is GPT-2's
# first position without a table row; the last is far beyond any table.
NEAR_POSITION = 3
FAR_POSITION = 100_000
# Lesson 3: the heatmap sentence and how far it is shifted.
SENTENCE = "小明打了小王"
SHIFT = 10
# Lesson 3: how far the PE(p)·PE(p+k) curve runs.
MAX_DISTANCE = 200
# Lesson 3 walk-through (after seed 003): the torch table is checked for boundedness up to here.
WALKTHROUGH_MAX_LEN = 5_000
WALKTHROUGH_DIM = 8

# The project's own small model (the training experiment and the init-scale arguments).
PROJECT_D_MODEL = 256
PROJECT_EMBED_STD = 0.02  # token embedding init std, as in GPT-2/nanoGPT
PROJECT_TRAIN_LEN = 128

# Lesson 2: the naive "add the raw index" design is judged at this position.
NAIVE_PROBE_POSITION = 37


def encoding_positions() -> tuple[int, int, int]:
    """Lesson 3's three example positions: near, GPT-2's first missing row, far."""
    from .configs import load

    return (NEAR_POSITION, load("gpt2")["context"], FAR_POSITION)
