"""The RoPE frequencies the experiment uses besides the plain ones, from posenc.scaling (no torch).

One table, used at evaluation time (PI, NTK-aware, YaRN on the model trained at
128, no fine-tuning) and by the extension stage (the same three plus ABF,
trained further at ext_len). Pages and numbers read the same table, so the
frequencies a page quotes are the ones the model ran with.
"""

from __future__ import annotations

import numpy as np

from .. import rope, scaling
from .config import Config

# name → (cfg, s) → (inv_freq, attention_factor); s is the stretch, new length ÷ training length.
FREQUENCIES = {
    # The trained model as it is: the control of the extension stage.
    "rope": lambda cfg, s: (rope.inverse_frequencies(cfg.head_dim, cfg.rope_base), 1.0),
    # Position Interpolation: every ω_i / s (Chen et al. 2023).
    "pi": lambda cfg, s: scaling.linear(cfg.head_dim, cfg.rope_base, s),
    # NTK-aware: base θ · s^(d/(d−2)) (bloc97; YaRN paper Eq. 16).
    "ntk": lambda cfg, s: scaling.ntk_aware(cfg.head_dim, cfg.rope_base, s),
    # YaRN: NTK-by-parts + attention factor 0.1·ln s + 1, original context = the training length.
    "yarn": lambda cfg, s: scaling.yarn(cfg.head_dim, cfg.rope_base, s, original_context=cfg.train_len),
    # ABF: the base raised to abf_base (Code Llama's rule, see config.py); s plays no part.
    "abf": lambda cfg, s: scaling.abf(cfg.head_dim, cfg.rope_base, cfg.abf_base),
}


def frequencies(cfg: Config, name: str, factor: float) -> tuple[np.ndarray, float]:
    """(inv_freq, attention_factor) of ``name`` for stretch ``factor``."""
    if name not in FREQUENCIES:
        raise ValueError(f"unknown RoPE variant {name!r}; choose from {', '.join(FREQUENCIES)}")
    return FREQUENCIES[name](cfg, factor)


def evaluation_time(cfg: Config, name: str) -> tuple[np.ndarray, float]:
    """The zero-shot stretch to eval_len (s = eval_len / train_len)."""
    return frequencies(cfg, name, cfg.scaling_factor)


def extension(cfg: Config, name: str) -> tuple[np.ndarray, float]:
    """The frequencies the extension stage trains with (s = ext_len / train_len)."""
    return frequencies(cfg, name, cfg.ext_factor)
