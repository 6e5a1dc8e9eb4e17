"""The parameters of lessons 1 and 2's examples, in one place.

Numbers, figures and snippets of those lessons read these; change one here and
every page that shows it changes on the next build. Shared parameters (the
example sentence, the init scale, the naive probe position, the far position)
stay in ``posenc/demo.py``; model facts come from ``posenc/data/models.yaml``.
"""

from __future__ import annotations

from .attention import DEFAULT_D as ATTN_D, DEFAULT_SEED as ATTN_SEED  # noqa: F401  (re-exported)
from .demo import FAR_POSITION, SENTENCE

# Lesson 1: the sentences whose tokens are swapped, and which two positions are exchanged.
SWAP_MAIN = (SENTENCE, 1, 5)  # 小明打了小王 → 小王打了小明
SWAP_SHORT = ("猫吃鱼", 0, 2)  # 猫吃鱼 → 鱼吃猫
# Lesson 1: the causal-mask example; its last token sees the same set of tokens in both orders.
CAUSAL = ("猫吃鱼了", 0, 2)  # 猫吃鱼了 → 鱼吃猫了
# Lesson 1: the second layer's seed in the two-layer causal example (the first uses ATTN_SEED).
SECOND_LAYER_SEED = ATTN_SEED + 1
# Lesson 1: the padded batch (short first, so it is the one that gets padding).
BATCH = ("猫吃鱼", SENTENCE)
PAD_MARK = "·"

# Lesson 2: the "squeeze positions into [0, 1]" design at a short and a long length.
NORMALISED_SHORT = len(SENTENCE)
NORMALISED_LONG = 101
# Lesson 2: the position whose normalised value is followed while generation grows the text by one token.
NORMALISED_PROBE = 3
# Lesson 2: how far the ratio curve of the naive design runs.
RATIO_MAX_POSITION = 1024
# Lesson 2: positions probed against GPT-2's table; GPT-2's last row and first missing row come from its config.
LOOKUP_FAR = FAR_POSITION
