"""Lesson 6: models that use less position — partial RoPE, layers without it, and NoPE.

Three computations, each from a model's config in ``posenc/data/models.yaml``:

* ``rotary_mask``: which dims of a head RoPE turns. transformers' partial RoPE
  (``partial_rotary_factor``) turns the first int(head_dim · fraction) dims and passes
  the rest through (``modeling_rope_utils``: ``dim = int(head_dim * partial_rotary_factor)``;
  ``apply_rotary_pos_emb`` splits q into q[..., :dim] and q[..., dim:]).
* ``layer_kinds``: which layers are full (global) attention. Gemma 3 repeats
  5 sliding-window layers then 1 global layer (google-deepmind/gemma ``GEMMA3_ATTENTION_PATTERN``);
  gpt-oss alternates sliding-window and full layers; Qwen3-Next makes every
  ``full_attention_interval``-th layer full attention and the others Gated DeltaNet
  (transformers ``configuration_qwen3_next.py``: layer i is full attention when
  (i + 1) % interval == 0).
* ``causal_counter``: why a decoder with no position encoding (NoPE) can still tell
  positions apart. Haviv et al. 2022 (arXiv:2203.16634) conjecture that causal
  attention lets a token infer how many tokens precede it; with all scores equal,
  token t attends to t + 1 tokens with weight 1/(t + 1) each, so a marker carried by
  the first token comes out as 1/(t + 1) — a function of the position alone.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import attention, rope
from .configs import ModelConfig

KINDS = ("global", "local", "linear")  # full attention · sliding-window attention · Gated DeltaNet (no attention)


def rotary_mask(head_dim: int, rotary_fraction: float = 1.0) -> np.ndarray:
    """Booleans over the head's dims: True for the dims RoPE turns (the first int(head_dim·fraction))."""
    dim = rope.rotary_dim(head_dim, rotary_fraction)
    mask = np.zeros(int(head_dim), dtype=bool)
    mask[:dim] = True
    return mask


def model_rotary_mask(cfg: ModelConfig) -> np.ndarray:
    """``rotary_mask`` for a RoPE model; for MLA models (``nope_head_dim``, DeepSeek-V3) the decoupled
    RoPE part comes first and the position-free part after it, as the two are concatenated in q and k."""
    _rope_model(cfg)
    if "nope_head_dim" in cfg.fields:
        return np.concatenate([np.ones(cfg["head_dim"], dtype=bool), np.zeros(cfg["nope_head_dim"], dtype=bool)])
    return rotary_mask(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))


def _rope_model(cfg) -> None:
    if not isinstance(cfg, ModelConfig) or cfg.position != "rope":
        got = cfg.key if isinstance(cfg, ModelConfig) else type(cfg).__name__
        raise ValueError(f"cfg must be a RoPE model from posenc.configs.load(), got {got!r}; e.g. configs.load('qwen3_next_80b_a3b')")


def _layers(n_layers) -> int:
    if isinstance(n_layers, bool) or not isinstance(n_layers, (numbers.Integral, np.integer)) or n_layers <= 0:
        raise ValueError(f"n_layers must be a positive integer, got {n_layers!r}; pass e.g. n_layers=12")
    return int(n_layers)


def layer_kinds(cfg: ModelConfig, n_layers: int | None = None) -> list[str]:
    """The kind of each layer, from the config's layer pattern (module docstring).

    ``n_layers`` defaults to the config's ``layers``; configs without that field need it
    (only the pattern, not the depth, is recorded for Gemma 3 and gpt-oss).
    """
    _rope_model(cfg)
    if n_layers is None:
        if "layers" not in cfg.fields:
            raise ValueError(f"model {cfg.key!r} has no 'layers' field; pass n_layers to draw its pattern over that many layers")
        n_layers = cfg["layers"]
    n = _layers(n_layers)
    if "full_attention_interval" in cfg.fields:
        every, other = cfg["full_attention_interval"], "linear"
    elif "local_layers_per_global" in cfg.fields:
        every, other = cfg["local_layers_per_global"] + 1, "local"
    else:
        every, other = 1, "global"  # every layer is the same full-attention layer
    return ["global" if (i + 1) % every == 0 else other for i in range(n)]


def causal_counter(n: int, causal: bool = True) -> np.ndarray:
    """What one attention head with no position encoding outputs on a "first-token marker".

    Inputs: token 0 is (1, 0), every other token (0, 1) — only the first token differs,
    like a beginning-of-sequence token. W_q = W_k = 0, so every score is equal and the
    softmax spreads weight evenly over the visible tokens; W_v = I. Returns the first
    output coordinate per token: 1/(t + 1) with a causal mask, 1/n for every token without.
    Runs ``posenc.attention.attend``, the same head code as lesson 1.
    """
    if isinstance(n, bool) or not isinstance(n, (numbers.Integral, np.integer)) or n < 2:
        raise ValueError(f"n must be an integer of at least 2 tokens, got {n!r}; pass e.g. n=8")
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    x = np.zeros((int(n), 2))
    x[0, 0] = 1.0
    x[1:, 1] = 1.0
    head = attention.Head(np.zeros((2, 2)), np.zeros((2, 2)), np.eye(2), seed=0)
    mask = attention.causal_mask(int(n)) if causal else None
    return attention.attend(x, head, mask).out[:, 0]


def counter_position(value: float) -> float:
    """Invert the causal counter: the marker 1/(t + 1) gives back t = 1/value − 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value <= 1:
        raise ValueError(f"value must be a marker in (0, 1] (an output of causal_counter), got {value!r}")
    return 1.0 / float(value) - 1.0


def counter_gap(t: int) -> float:
    """How far apart the markers of positions t and t + 1 are: 1/(t + 1) − 1/(t + 2).

    It shrinks like 1/t², so far positions are told apart by ever smaller differences.
    """
    if isinstance(t, bool) or not isinstance(t, (numbers.Integral, np.integer)) or t < 0:
        raise ValueError(f"t must be a non-negative integer position, got {t!r}")
    return 1.0 / (t + 1) - 1.0 / (t + 2)
