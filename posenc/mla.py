"""Multi-head latent attention (MLA) and why its RoPE is decoupled (DeepSeek-V2, arXiv:2405.04434, §2.1).

Section numbers and equations below are DeepSeek-V2's (checked in the report PDF of
deepseek-ai/DeepSeek-V2 @ec98ee3); DeepSeek-V3 uses the same attention.

* §2.1.2, Eq. 9–11: keys and values come from one cached latent per token,
  c_KV = W_DKV h (width d_c = kv_lora_rank), k_C = W_UK c_KV, v_C = W_UV c_KV.
  "During inference, since W_UK can be absorbed into W_Q ... we even do not need to
  compute keys and values out": qᵀk = (W_UQ c_Q)ᵀ(W_UK c_KV) = c_Qᵀ (W_UQᵀ W_UK) c_KV,
  so the product W_UQᵀ W_UK is formed once and keys are never rebuilt from the cache.
* §2.1.3 "Decoupled Rotary Position Embedding": with RoPE on k_C, "a RoPE matrix related
  to the currently generating token will lie between W_Q and W_UK and matrix
  multiplication does not obey a commutative law", so the absorption fails and every
  prefix key would have to be recomputed. The fix (Eq. 14–17): extra per-head RoPE
  queries q_R and one RoPE key k_R = RoPE(W_KR h) of width d_R (qk_rope_head_dim) shared
  by all heads; q = [q_C; q_R], k = [k_C; k_R]. The cache holds c_KV and k_R:
  (d_c + d_R)·l elements per token.
* §2.1.4, Table 1: per token, MHA caches 2·n_h·d_h·l elements, GQA 2·n_g·d_h·l, MLA
  (d_c + d_R)·l; with d_c = 4d_h and d_R = d_h/2 (DeepSeek-V2) MLA equals GQA with 2.25 groups.

Cache sizes are counted per token in elements, and in bytes for a storage type.
``absorption_*`` build the identity and its failure on a small random instance.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from . import _check, rope
from .configs import ModelConfig

BYTES_PER_ELEMENT = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1}


# --- KV-cache sizes (DeepSeek-V2 §2.1.4, Table 1) ------------------------------------------------


def mha_cache_elements(heads: int, head_dim: int, layers: int, value_head_dim: int | None = None) -> int:
    """Per-token cache of multi-head attention: a key and a value per head and layer, 2·n_h·d_h·l.

    ``value_head_dim`` allows values narrower than keys (DeepSeek-V3's own heads: keys
    128 + 64, values 128): then n_h·(d_k + d_v)·l.
    """
    h, dk, n = _check.count("heads", heads), _check.count("head_dim", head_dim), _check.count("layers", layers)
    dv = dk if value_head_dim is None else _check.count("value_head_dim", value_head_dim)
    return h * (dk + dv) * n


def gqa_cache_elements(kv_heads: int, head_dim: int, layers: int) -> int:
    """Per-token cache of grouped-query attention with n_g key/value heads: 2·n_g·d_h·l (Table 1)."""
    return mha_cache_elements(_check.count("kv_heads", kv_heads), head_dim, layers)  # a bad count is blamed on kv_heads


def mla_cache_elements(kv_lora_rank: int, rope_head_dim: int, layers: int) -> int:
    """Per-token cache of MLA: the latent c_KV and the shared RoPE key k_R per layer, (d_c + d_R)·l (§2.1.3)."""
    return (_check.count("kv_lora_rank", kv_lora_rank) + _check.count("rope_head_dim", rope_head_dim)) * _check.count("layers", layers)


def cache_bytes(elements: int, dtype: str = "bf16") -> int:
    """Bytes for ``elements`` cached numbers stored as ``dtype`` (one of ``BYTES_PER_ELEMENT``)."""
    if dtype not in BYTES_PER_ELEMENT:
        raise ValueError(f"dtype must be one of {', '.join(BYTES_PER_ELEMENT)}, got {dtype!r}")
    if isinstance(elements, bool) or not isinstance(elements, (numbers.Integral, np.integer)) or elements < 0:
        raise ValueError(f"elements must be a non-negative integer count, got {elements!r}")
    return int(elements) * BYTES_PER_ELEMENT[dtype]


def equivalent_gqa_groups(kv_lora_rank: int, rope_head_dim: int, head_dim: int) -> float:
    """The GQA group count with the same cache as MLA: (d_c + d_R) / (2·d_h) (Table 1: 2.25 for d_c = 4d_h, d_R = d_h/2)."""
    return (_check.count("kv_lora_rank", kv_lora_rank) + _check.count("rope_head_dim", rope_head_dim)) / (2 * _check.count("head_dim", head_dim))


@dataclass(frozen=True)
class CacheComparison:
    """Per-token KV cache of an MLA model against multi-head attention with the same heads."""

    mla: int  # (d_c + d_R)·l
    mha: int  # 2·n_h·d_h·l with d_h the value/nope head width (DeepSeek-V2's d_h)
    mha_full_keys: int  # n_h·(d_nope + d_R + d_v)·l: caching MLA's own decompressed keys and values

    @property
    def ratio(self) -> float:
        """How many times smaller the MLA cache is than ``mha``."""
        return self.mha / self.mla

    def bytes(self, dtype: str = "bf16") -> dict[str, int]:
        return {name: cache_bytes(getattr(self, name), dtype) for name in ("mla", "mha", "mha_full_keys")}


def for_model(cfg: ModelConfig) -> CacheComparison:
    """``CacheComparison`` for an MLA model from posenc.configs (fields kv_lora_rank, head_dim = d_R,
    nope_head_dim, v_head_dim, heads, layers; DeepSeek-V3: 512, 64, 128, 128, 128, 61)."""
    if not isinstance(cfg, ModelConfig):
        raise ValueError(f"cfg must be a model from posenc.configs.load(), got {type(cfg).__name__}; e.g. configs.load('deepseek_v3')")
    missing = [f for f in ("kv_lora_rank", "head_dim", "nope_head_dim", "v_head_dim", "heads", "layers") if f not in cfg.fields]
    if missing:
        raise ValueError(f"model {cfg.key!r} lacks {', '.join(missing)} for an MLA cache; it is not an MLA model "
                         f"or needs those fields (see deepseek_v3)")
    d_c, d_r, d_nope, d_v = cfg["kv_lora_rank"], cfg["head_dim"], cfg["nope_head_dim"], cfg["v_head_dim"]
    heads, layers = cfg["heads"], cfg["layers"]
    return CacheComparison(
        mla=mla_cache_elements(d_c, d_r, layers),
        mha=mha_cache_elements(heads, d_v, layers),
        mha_full_keys=mha_cache_elements(heads, d_nope + d_r, layers, value_head_dim=d_v),
    )


# --- the absorption identity and why RoPE breaks it (§2.1.2–2.1.3) --------------------------------


@dataclass(frozen=True)
class Instance:
    """A small random MLA head: W_UQ (d_h × d_q'), W_UK (d_h × d_c), latents c_Q (T × d_q'), c_KV (T × d_c)."""

    w_uq: np.ndarray
    w_uk: np.ndarray
    c_q: np.ndarray
    c_kv: np.ndarray


def random_instance(head_dim: int = 8, q_rank: int = 6, kv_rank: int = 5, length: int = 7, seed: int = 0) -> Instance:
    """Gaussian matrices of the shapes in Eq. 10 and 13 for one head (seeded, so the numbers are reproducible)."""
    d = _check.even_dim("head_dim", head_dim)
    rq, rk, t = _check.count("q_rank", q_rank), _check.count("kv_rank", kv_rank), _check.count("length", length)
    rng = np.random.default_rng(seed)
    return Instance(rng.standard_normal((d, rq)), rng.standard_normal((d, rk)),
                    rng.standard_normal((t, rq)), rng.standard_normal((t, rk)))


def _instance(inst) -> Instance:
    if not isinstance(inst, Instance):
        raise ValueError(f"inst must be a posenc.mla.Instance (build one with random_instance()), got {type(inst).__name__}")
    return inst


def scores_explicit(inst: Instance, inv_freq=None) -> np.ndarray:
    """Scores q_mᵀ k_n with queries and keys built explicitly: q = W_UQ c_Q, k = W_UK c_KV (T × T).

    With ``inv_freq`` both are turned by RoPE at their positions first (positions 0 … T−1,
    ``rope.rotate``): this is "RoPE applied to k_C", the design §2.1.3 rejects.
    """
    inst = _instance(inst)
    q = inst.c_q @ inst.w_uq.T
    k = inst.c_kv @ inst.w_uk.T
    if inv_freq is not None:
        pos = np.arange(len(q))
        q, k = rope.rotate(q, pos, inv_freq), rope.rotate(k, pos, inv_freq)
    return q @ k.T


def absorbed_matrix(inst: Instance) -> np.ndarray:
    """W_UQᵀ W_UK (d_q' × d_c): formed once, so a score needs only the latents c_Q and c_KV."""
    inst = _instance(inst)
    return inst.w_uq.T @ inst.w_uk


def scores_absorbed(inst: Instance) -> np.ndarray:
    """c_Q (W_UQᵀ W_UK) c_KVᵀ: the scores from the cached latents alone (§2.1.2)."""
    inst = _instance(inst)
    return inst.c_q @ absorbed_matrix(inst) @ inst.c_kv.T


def absorbed_matrix_with_rope(inst: Instance, m: int, n: int, inv_freq) -> np.ndarray:
    """W_UQᵀ R_mᵀ R_n W_UK: the matrix that would have to sit between c_Q at m and c_KV at n once RoPE is on k_C.

    It depends on the offset n − m (R_mᵀ R_n = R_{n−m}, RoFormer §3), so no single matrix
    serves every query–key pair: the "RoPE matrix ... between W_Q and W_UK" of §2.1.3.
    """
    inst = _instance(inst)
    d = inst.w_uq.shape[0]
    eye = np.eye(d)
    # rotate() turns row vectors: the d rows of the identity, all at position m, come back as
    # rows (R_m e_j)ᵀ, i.e. the matrix R_mᵀ.
    r_m = rope.rotate(eye, [_check.position("m", m)] * d, inv_freq)
    r_n = rope.rotate(eye, [_check.position("n", n)] * d, inv_freq)
    return inst.w_uq.T @ (r_m @ r_n.T) @ inst.w_uk


def absorption_gap(inst: Instance, inv_freq=None) -> float:
    """max |explicit score − absorbed score| over all query–key pairs.

    Without RoPE it is rounding error (the identity holds); with RoPE on the keys it is as
    large as the scores themselves (the identity fails).
    """
    return float(np.max(np.abs(scores_explicit(inst, inv_freq) - scores_absorbed(inst))))


def decoupled_scores(inst: Instance, q_rope: np.ndarray, k_rope: np.ndarray, inv_freq, absorbed: bool) -> np.ndarray:
    """Eq. 16–18's score without the 1/√ scale: q_Cᵀk_C + RoPE(q_R)ᵀ RoPE(k_R), for T × T query–key pairs.

    ``q_rope`` (T × d_R) is this head's decoupled query, ``k_rope`` (T × d_R) the key shared by
    all heads. The content part is computed explicitly (``absorbed=False``) or from the
    latents with W_UQᵀW_UK (``absorbed=True``); the two agree because RoPE touches only the
    separate q_R, k_R part.
    """
    inst = _instance(inst)
    qr, kr = np.asarray(q_rope, dtype=np.float64), np.asarray(k_rope, dtype=np.float64)
    t = inst.c_q.shape[0]
    if qr.shape[0] != t or kr.shape[0] != inst.c_kv.shape[0] or qr.shape[1:] != kr.shape[1:] or qr.ndim != 2:
        raise ValueError(f"q_rope and k_rope must be (T, d_R) with one row per token, got {qr.shape} and {kr.shape} "
                         f"for T = {t}")
    content = scores_absorbed(inst) if absorbed else scores_explicit(inst)
    pos_q, pos_k = np.arange(qr.shape[0]), np.arange(kr.shape[0])
    return content + rope.rotate(qr, pos_q, inv_freq) @ rope.rotate(kr, pos_k, inv_freq).T


@dataclass(frozen=True)
class AbsorptionDemo:
    """§2.1.2–2.1.3 on one small random head: how far the absorbed scores are from the explicit ones.

    ``plain``: no RoPE, W_UQᵀW_UK absorbed (rounding error only). ``rope_on_keys``: RoPE on
    q and on k_C = W_UK c_KV, still scored with the fixed W_UQᵀW_UK (the identity fails).
    ``decoupled``: RoPE only on the separate q_R, k_R, content part absorbed (rounding
    error again). ``max_score``: the largest |score| with RoPE on the keys, for scale.
    """

    plain: float
    rope_on_keys: float
    decoupled: float
    max_score: float


def absorption_demo(head_dim: int, q_rank: int, kv_rank: int, length: int, rope_head_dim: int, base: float,
                    seed: int) -> AbsorptionDemo:
    """Build ``random_instance(head_dim, q_rank, kv_rank, length, seed)`` and measure the three gaps.

    The decoupled query and key (``length`` × ``rope_head_dim``, Gaussian, seed + 1) are
    turned with base ``base``; RoPE on the content key uses the same base over head_dim.
    """
    inst = random_instance(head_dim, q_rank, kv_rank, length, seed)
    d_r = _check.even_dim("rope_head_dim", rope_head_dim)
    inv_content = rope.inverse_frequencies(head_dim, base)
    inv_rope = rope.inverse_frequencies(d_r, base)
    rng = np.random.default_rng(seed + 1)
    q_r, k_r = rng.standard_normal((length, d_r)), rng.standard_normal((length, d_r))
    decoupled = decoupled_scores(inst, q_r, k_r, inv_rope, absorbed=True) - decoupled_scores(inst, q_r, k_r, inv_rope, absorbed=False)
    return AbsorptionDemo(
        plain=absorption_gap(inst),
        rope_on_keys=absorption_gap(inst, inv_content),
        decoupled=float(np.max(np.abs(decoupled))),
        max_score=float(np.max(np.abs(scores_explicit(inst, inv_content)))),
    )
