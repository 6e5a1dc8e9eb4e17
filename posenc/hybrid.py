"""Models that use less position: partial RoPE, layers without it, and NoPE (taught in lesson 6).

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
* models without positions (``nope`` in models.yaml): every softmax-attention layer has
  no positional encoding and the layers between are linear attention or Mamba. Kimi
  Linear lists its MLA layers (``full_attn_layers``, 1-based; tech report: "we apply NoPE
  to all full attention (MLA) layers"); Jamba puts one attention layer in every
  ``attn_layer_period`` at ``attn_layer_offset`` (transformers ``configuration_jamba.py``:
  layer i is attention when i % period == offset) and its ``JambaAttention`` applies no
  rotary embedding.
* ``rope_layers`` / ``layer_pattern``: which layers apply RoPE at all. Llama 4 and
  SmolLM3 leave it out of every ``nope_layer_interval``-th layer (llama-models
  ``models/llama4/model.py``: ``is_nope_layer = (layer_id + 1) % nope_layer_interval == 0``;
  transformers ``configuration_smollm3.py``); Llama 4's RoPE layers attend within chunks
  (``attention_chunk_size``). Cohere's Command R7B / A apply RoPE only in their
  sliding-window layers, none in the full-attention ones (transformers
  ``modeling_cohere2.py``). Gated DeltaNet layers (Qwen3-Next) have no RoPE.
* ``p_rope_frequencies``: the other way to leave dims unturned. p-RoPE (Barbero et al. 2024,
  arXiv:2410.06205 §6) keeps the fastest pairs of the whole head's ladder θ^(−2i/d) and drops
  the slowest; transformers' rope_type "proportional" computes it. ``partial_rotary_factor``
  with the default rope_type instead spreads the whole fast-to-slow ladder over fewer dims
  (its exponent divides by the rotary width): the two remove different things.
* ``head_dims``: one head's width, rotary dims and the rotary dims whose pair completes a
  turn within the native context; ``pattern_period``: after how many layers
  ``layer_pattern`` repeats.
* ``rope_dim_shares``: the share of all query and key dimensions, over every layer and
  head, that RoPE turns — versus the simple product "share of layers × share of each head".
* ``llama4_attn_scale``: the query scale Llama 4 applies in its NoPE layers.
* ``causal_counter``: why a decoder with no position encoding (NoPE) can still tell
  positions apart. Haviv et al. 2022 (arXiv:2203.16634) conjecture that causal
  attention lets a token infer how many tokens precede it; with all scores equal,
  token t attends to t + 1 tokens with weight 1/(t + 1) each, so a marker carried by
  the first token comes out as 1/(t + 1) — a function of the position alone.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from dataclasses import dataclass

import numpy as np

from . import _check, attention, rope
from .configs import ModelConfig

# full attention · sliding-window attention · linear attention (Gated DeltaNet, Kimi's KDA: no softmax, no RoPE)
# · chunked attention (Llama 4) · Mamba (a state-space layer, Jamba: no attention, no RoPE)
KINDS = ("global", "local", "linear", "chunked", "mamba")

# layer_pattern's labels: attention span and whether RoPE is applied, together.
PATTERN_KINDS = ("rope_global", "rope_local", "rope_chunked", "nope_global", "linear", "mamba")


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


def p_rope_frequencies(head_dim: int, base: float, p: float) -> np.ndarray:
    """p-RoPE's frequencies for one head: ω_i = θ^(−2i/d) for the fastest int(p·d/2) pairs, 0 for the rest.

    Barbero et al. 2024 (arXiv:2410.06205) §6.1 truncate the lowest frequencies of RoPE and keep a
    fraction p; transformers' ``_compute_proportional_rope_parameters`` (rope_type "proportional")
    computes rope_angles = int(p · head_dim // 2) and 1 / base^(2i / head_dim), padded with zeros.
    The exponent divides by the head's width d, so the kept pairs are the fastest pairs of the full
    ladder and the slowest kept one is still fast; compare ``rope.inverse_frequencies(head_dim, base, p)``
    (partial_rotary_factor with the default rope_type), whose exponent divides by the rotary width, so
    its slowest pair is nearly 1/θ, as slow as the whole head's. A pair with ω = 0 never turns.
    """
    d = _check.even_dim("head_dim", head_dim)
    theta = _check.base("base", base)
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not np.isfinite(p) or not 0 < p <= 1:
        raise ValueError(f"p must be a number in (0, 1] (the share of the head's pairs p-RoPE keeps), got {p!r}; "
                         f"p = 0.75 drops the slowest quarter")
    kept = int(p * d // 2)
    if kept < 1:
        raise ValueError(f"p = {p} keeps int(p · {d} // 2) = 0 of the {d // 2} pairs; raise p or head_dim")
    inv = np.zeros(d // 2)
    inv[:kept] = theta ** (-2.0 * np.arange(kept) / d)
    return inv


@dataclass(frozen=True)
class HeadDims:
    """One attention head's q/k dims, counted from a model config (``head_dims``).

    ``width``: all dims of the head's q (and k); ``rotary``: the dims RoPE turns (the first
    ones, ``model_rotary_mask``); ``turning``: the rotary dims whose pair completes at
    least one turn within the config's native ``context`` (λ_i ≤ context).
    """

    width: int
    rotary: int
    turning: int

    @property
    def plain(self) -> int:
        """Dims that RoPE never turns: they carry no position at all."""
        return self.width - self.rotary

    @property
    def not_turning(self) -> int:
        """Rotary dims whose pair turns less than once within the context."""
        return self.rotary - self.turning


def head_dims(cfg: ModelConfig) -> HeadDims:
    """``HeadDims`` for a RoPE model: rotary dims from ``model_rotary_mask``, turning ones from its
    frequencies ω_i = θ^(−2i/d_rot) and ``context`` (``rope.pairs_not_completing_turn``)."""
    mask = model_rotary_mask(cfg)
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    if 2 * len(inv) != int(mask.sum()):  # guards the two readings of the config against drifting apart
        raise ValueError(f"model {cfg.key!r}: {2 * len(inv)} rotary dims from its frequencies but {int(mask.sum())} in its mask")
    turning = 2 * (len(inv) - rope.pairs_not_completing_turn(inv, cfg["context"]))
    return HeadDims(width=int(mask.size), rotary=int(mask.sum()), turning=int(turning))


def _rope_model(cfg) -> None:
    if not isinstance(cfg, ModelConfig) or cfg.position != "rope":
        got = cfg.key if isinstance(cfg, ModelConfig) else type(cfg).__name__
        raise ValueError(f"cfg must be a RoPE model from posenc.configs.load(), got {got!r}; e.g. configs.load('qwen3_next_80b_a3b')")


def _layered_model(cfg) -> None:
    """Layer patterns are read from RoPE models and from models without positions (``nope``)."""
    if not isinstance(cfg, ModelConfig) or cfg.position not in ("rope", "nope"):
        got = cfg.key if isinstance(cfg, ModelConfig) else type(cfg).__name__
        raise ValueError(f"cfg must be a RoPE or NoPE model from posenc.configs.load(), got {got!r}; "
                         f"e.g. configs.load('qwen3_next_80b_a3b') or configs.load('kimi_linear_48b')")


def _nope_attention(cfg: ModelConfig, n: int) -> list[bool]:
    """For a ``nope`` model, whether each of its first n layers is softmax attention (module docstring)."""
    listed = cfg.get("full_attention_layers")
    if listed is not None:
        return [i + 1 in listed for i in range(n)]
    period, offset = cfg["attention_layer_period"], cfg["attention_layer_offset"]
    return [i % period == offset for i in range(n)]


def layer_kinds(cfg: ModelConfig, n_layers: int | None = None) -> list[str]:
    """The kind of each layer, from the config's layer pattern (module docstring).

    ``n_layers`` defaults to the config's ``layers``; configs without that field need it
    (only the pattern, not the depth, is recorded for Gemma 3 and gpt-oss).
    """
    _layered_model(cfg)
    if n_layers is None:
        if "layers" not in cfg.fields:
            raise ValueError(f"model {cfg.key!r} has no 'layers' field; pass n_layers to draw its pattern over that many layers")
        n_layers = cfg["layers"]
    n = _check.integer("n_layers", n_layers, 1, "a positive integer", 12)
    if cfg.position == "nope":
        return ["global" if attn else cfg["other_layers"] for attn in _nope_attention(cfg, n)]
    if "full_attention_interval" in cfg.fields:
        every, other = cfg["full_attention_interval"], "linear"
    elif "local_layers_per_global" in cfg.fields:
        every, other = cfg["local_layers_per_global"] + 1, "local"
    elif "attention_chunk_size" in cfg.fields:
        # Llama 4: NoPE layers attend globally, the RoPE layers between them within chunks.
        every, other = cfg["nope_layer_interval"], "chunked"
    else:
        every, other = 1, "global"  # every layer is the same full-attention layer
    return ["global" if (i + 1) % every == 0 else other for i in range(n)]


def rope_layers(cfg: ModelConfig, n_layers: int | None = None) -> list[bool]:
    """For each layer, whether it turns q and k with RoPE (module docstring).

    False for Gated DeltaNet layers (no attention, no RoPE), for every
    ``nope_layer_interval``-th layer (Llama 4, SmolLM3), for the full-attention
    layers of models with ``nope_on_full_attention`` (Command R7B / A) and for every
    layer of a model without positions (Kimi Linear, Jamba).
    """
    kinds = layer_kinds(cfg, n_layers)
    if cfg.position == "nope":
        return [False] * len(kinds)
    interval = cfg.get("nope_layer_interval")
    nope_on_full = cfg.get("nope_on_full_attention", False)
    out = []
    for i, kind in enumerate(kinds):
        if kind in ("linear", "mamba"):
            out.append(False)
        elif interval is not None and (i + 1) % interval == 0:
            out.append(False)
        elif nope_on_full and kind == "global":
            out.append(False)
        else:
            out.append(True)
    return out


def layer_pattern(cfg: ModelConfig, n_layers: int | None = None) -> list[str]:
    """Each layer's kind from ``PATTERN_KINDS``: "rope_global", "rope_local" (sliding window),
    "rope_chunked" (Llama 4), "nope_global" (full attention without RoPE), "linear" (linear attention:
    Gated DeltaNet, KDA) or "mamba"."""
    out = []
    for kind, has_rope in zip(layer_kinds(cfg, n_layers), rope_layers(cfg, n_layers)):
        if kind in ("linear", "mamba"):
            out.append(kind)
        else:
            out.append(f"{'rope' if has_rope else 'nope'}_{kind}")
    if any(label not in PATTERN_KINDS for label in out):  # e.g. a sliding-window layer without RoPE
        raise ValueError(f"model {cfg.key!r} gives layer kinds {sorted(set(out) - set(PATTERN_KINDS))} that posenc "
                         f"does not describe; extend PATTERN_KINDS with a source for them")
    return out


def pattern_counts(cfg: ModelConfig, n_layers: int | None = None) -> dict[str, int]:
    """How many layers of each ``PATTERN_KINDS`` label the model has (zeros included)."""
    counts = Counter(layer_pattern(cfg, n_layers))
    return {k: counts.get(k, 0) for k in PATTERN_KINDS}


def pattern_period(cfg: ModelConfig) -> int:
    """How many layers the model's ``layer_pattern`` takes to repeat (1 when every layer is alike).

    The least common multiple of the attention-kind period (``full_attention_interval``,
    ``local_layers_per_global`` + 1, Llama 4's chunked layers) and ``nope_layer_interval``:
    SmolLM3's layers are all full attention, but RoPE leaves every 4th, so its period is 4.
    A model without positions repeats after ``attention_layer_period`` (Jamba); one that lists its
    attention layers (Kimi Linear) after the smallest p with layer i like layer i mod p for every layer.
    """
    _layered_model(cfg)
    if cfg.position == "nope":
        if "attention_layer_period" in cfg.fields:
            return int(cfg["attention_layer_period"])
        pattern = layer_kinds(cfg)
        return next(p for p in range(1, len(pattern) + 1) if all(k == pattern[i % p] for i, k in enumerate(pattern)))
    if "full_attention_interval" in cfg.fields:
        kind_period = cfg["full_attention_interval"]
    elif "local_layers_per_global" in cfg.fields:
        kind_period = cfg["local_layers_per_global"] + 1
    else:
        kind_period = 1
    return math.lcm(int(kind_period), int(cfg.get("nope_layer_interval", 1)))


@dataclass(frozen=True)
class RopeShares:
    """How much of a model's query/key width RoPE turns, counted over every layer and head.

    ``query_dims`` / ``key_dims``: the widths of q and k summed over layers (per token);
    ``*_rope``: the part RoPE turns. ``layer_share`` × ``head_share`` is the simple
    estimate "share of layers with RoPE × share of each RoPE head's dims", which equals
    the real shares only when every layer has the same q/k width.
    """

    query_dims: int
    query_rope: int
    key_dims: int
    key_rope: int
    layers: int
    rope_layers: int
    head_dim: int
    rotary_dim: int

    @property
    def query_share(self) -> float:
        return self.query_rope / self.query_dims

    @property
    def key_share(self) -> float:
        return self.key_rope / self.key_dims

    @property
    def layer_share(self) -> float:
        return self.rope_layers / self.layers

    @property
    def head_share(self) -> float:
        return self.rotary_dim / self.head_dim

    @property
    def simple_product(self) -> float:
        return self.layer_share * self.head_share


def _need(cfg: ModelConfig, name: str, why: str):
    if name not in cfg.fields:
        raise ValueError(f"model {cfg.key!r} has no {name!r} field, which rope_dim_shares needs ({why}); "
                         f"add it with source and tag to posenc/data/models*.yaml")
    return cfg[name]


def rope_dim_shares(cfg: ModelConfig) -> RopeShares:
    """The real shares of query and key dimensions that RoPE turns, over all layers and heads.

    Per token and per layer:

        attention layer    q: heads × w,  k: kv_heads × w   (w = head_dim, + nope_head_dim for MLA)
                           RoPE turns rotary_dim of every head's w (0 in a NoPE layer)
        Gated DeltaNet     q and k: linear_num_key_heads × linear_key_head_dim, no RoPE
                           (transformers modeling_qwen3_next.py: in_proj_qkvz makes q, k of
                           num_k_heads × head_k_dim each)

    Qwen3-Next's q_proj also emits an output gate of the same width as q; the gate is not
    compared with keys, so it is not a query dimension here. For MLA (DeepSeek-V3) every
    head's query and key are [nope part; RoPE part] (DeepSeek-V2 §2.1.3 Eq. 16–17), the key's
    RoPE part shared by all heads but counted per head as each head's score uses it.
    """
    _rope_model(cfg)
    heads = _need(cfg, "heads", "query heads per attention layer")
    kv_heads = cfg.get("kv_heads", heads)
    layers = _need(cfg, "layers", "the sum runs over layers")
    rdim = rope.rotary_dim(cfg["head_dim"], cfg.get("rotary_fraction", 1.0))
    width = cfg["head_dim"] + cfg.get("nope_head_dim", 0)
    has_rope = rope_layers(cfg, layers)
    kinds = layer_kinds(cfg, layers)
    q = qr = k = kr = 0
    for kind, turned in zip(kinds, has_rope):
        if kind == "linear":
            lin = _need(cfg, "linear_num_key_heads", "Gated DeltaNet q/k heads") * _need(
                cfg, "linear_key_head_dim", "Gated DeltaNet q/k head width")
            q, k = q + lin, k + lin
            continue
        q, k = q + heads * width, k + kv_heads * width
        if turned:
            qr, kr = qr + heads * rdim, kr + kv_heads * rdim
    return RopeShares(query_dims=q, query_rope=qr, key_dims=k, key_rope=kr, layers=layers,
                      rope_layers=sum(has_rope), head_dim=width, rotary_dim=rdim)


def llama4_attn_scale(positions, floor_scale: float = 8192, attn_scale: float = 0.1) -> np.ndarray:
    """The factor Llama 4 multiplies each query by in its NoPE layers: 1 + attn_scale · ln(⌊(p + 1)/floor_scale⌋ + 1).

    meta-llama/llama-models ``models/llama4/model.py`` (Attention.forward, applied only when
    ``attn_temperature_tuning`` and not ``use_rope``; the comment cites arXiv:2501.19399):
    the scale is exactly 1 for the first floor_scale − 1 positions, so short inputs are
    untouched, then grows by attn_scale · ln 2 at p = floor_scale − 1 and logarithmically
    after. A larger q sharpens the softmax, countering the flattening of attention over
    ever more keys at long positions.
    """
    p = _check.positions("positions", positions)
    fs = _check.positive("floor_scale", floor_scale)
    a = _check.positive("attn_scale", attn_scale)
    return np.log(np.floor((p + 1.0) / fs) + 1.0) * a + 1.0


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
