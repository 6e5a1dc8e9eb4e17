"""Relative position as a term in the attention score: Shaw et al., T5's buckets, ALiBi.

All three leave the token embeddings alone and change only the score of query
position i for key position j, through the distance j − i:

    Shaw et al. 2018   e_ij = x_i W^Q (x_j W^K + a^K_ij)ᵀ / √d_z,  a^K_ij = w^K_clip(j−i, k)
                       (arXiv:1803.02155, §3.2 Eq. 4 and §3.3 Eq. 5–6): one learned vector per
                       clipped distance −k … k, shared by the heads of a layer.
    T5 (Raffel 2020)   score_ij + b_h[bucket(j − i)]: one learned scalar per (bucket, head),
                       buckets exact for short distances and logarithmic up to max_distance
                       (arXiv:1910.10683 §2.1; Mesh TensorFlow's ``_relative_position_bucket``).
    ALiBi (Press 2022) score_ij − m_h · (i − j) for j ≤ i: a fixed slope per head, nothing learned
                       (arXiv:2108.12409 §3, "Train Short, Test Long").

Shapes follow the attention matrix: rows are query positions i, columns key positions j.
Pure numpy; the training experiment turns ``alibi_causal_bias`` into a torch buffer.
"""

from __future__ import annotations

import math

import numpy as np

from . import _check


def relative_positions(query_len: int, key_len: int | None = None) -> np.ndarray:
    """The matrix of j − i (key position minus query position), shape (query_len, key_len).

    Negative entries are keys before the query; a causal model only uses j − i ≤ 0.
    This is transformers' ``memory_position − context_position`` in T5's ``compute_bias``.
    """
    q = _check.integer("query_len", query_len)
    k = q if key_len is None else _check.integer("key_len", key_len)
    return np.arange(k, dtype=np.int64)[None, :] - np.arange(q, dtype=np.int64)[:, None]


# --- Shaw et al. 2018 ------------------------------------------------------------------------------


def shaw_clipped(relative, max_relative_position: int) -> np.ndarray:
    """clip(j − i, k) = max(−k, min(k, j − i)) (Shaw et al. 2018, §3.3 Eq. 6).

    Distances beyond k share the embedding of ±k: Shaw et al. argue that exact
    distances matter little past a few tokens, and clipping lets the model run
    on sequences longer than any seen in training. The returned values index the
    2k + 1 learned vectors after adding k.
    """
    k = _check.integer("max_relative_position", max_relative_position)
    rel = np.asarray(relative)
    if rel.dtype.kind not in "iu":
        raise ValueError(f"relative positions must be integers (j − i), got dtype {rel.dtype}; build them with relative_positions()")
    return np.clip(rel, -k, k).astype(np.int64)


def shaw_parameters(max_relative_position: int, head_dim: int, n_layers: int, values: bool = True) -> int:
    """Learned numbers Shaw et al.'s relative representations add to a model.

    Each layer has 2k + 1 vectors of width d_z for keys (w^K) and, with ``values``,
    as many for values (w^V), shared across that layer's heads (§3.3: "sharing them
    across attention heads"); d_z is the head width.
    """
    k = _check.integer("max_relative_position", max_relative_position)
    d = _check.integer("head_dim", head_dim)
    layers = _check.integer("n_layers", n_layers)
    return (2 * k + 1) * d * (2 if values else 1) * layers


# --- T5's relative position buckets ----------------------------------------------------------------


def _t5_args(num_buckets, max_distance, bidirectional):
    nb = _check.integer("num_buckets", num_buckets, minimum=2)
    if not isinstance(bidirectional, (bool, np.bool_)):
        raise ValueError(f"bidirectional must be True (encoder) or False (decoder), got {bidirectional!r}")
    one_side = nb // 2 if bidirectional else nb
    max_exact = one_side // 2
    if max_exact < 1:
        raise ValueError(f"num_buckets={nb} leaves no exact bucket{' per direction' if bidirectional else ''}; T5 uses 32")
    md = _check.integer("max_distance", max_distance)
    if md <= max_exact:
        raise ValueError(
            f"max_distance={md} must exceed the exact range max_exact={max_exact} (half of the "
            f"{'per-direction ' if bidirectional else ''}buckets), or the logarithmic buckets have no room; T5 uses 128"
        )
    return nb, md, one_side, max_exact


def t5_bucket(relative, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> np.ndarray:
    """T5's bucket for each relative position j − i (Raffel et al. 2020 §2.1; transformers ``_relative_position_bucket``).

    With n buckets per direction (half of num_buckets when bidirectional, the other
    half for keys after the query) and max_exact = n/2:

        distance r < max_exact           bucket r                     (one bucket per distance)
        max_exact ≤ r                    max_exact + ⌊ln(r/max_exact) / ln(max_distance/max_exact) · (n − max_exact)⌋
                                         capped at n − 1               (logarithmic, then one bucket for all r ≥ max_distance)

    Causal (``bidirectional=False``): keys after the query (j > i) all map to bucket 0,
    the same as distance 0. The logarithm is computed in float32 as in the
    reference, so the bucket edges agree with T5 bit for bit.
    """
    nb, md, one_side, max_exact = _t5_args(num_buckets, max_distance, bidirectional)
    rel = np.asarray(relative)
    if rel.dtype.kind not in "iu":
        raise ValueError(f"relative positions must be integers (j − i), got dtype {rel.dtype}; build them with relative_positions()")
    rel = rel.astype(np.int64)
    bucket = np.zeros(rel.shape, dtype=np.int64)
    if bidirectional:
        bucket += (rel > 0).astype(np.int64) * one_side
        r = np.abs(rel)
    else:
        r = -np.minimum(rel, 0)
    # Distances below max_exact take the exact branch; give them r = max_exact here so no log(0) is taken.
    r_large = np.maximum(r, max_exact).astype(np.float32)
    scaled = np.log(r_large / np.float32(max_exact)) / np.float32(math.log(md / max_exact))
    large = max_exact + (scaled * np.float32(one_side - max_exact)).astype(np.int64)
    large = np.minimum(large, one_side - 1)
    return bucket + np.where(r < max_exact, r, large)


def t5_bucket_edges(bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> list[tuple[int, int, int]]:
    """(bucket, first distance, last distance) for each bucket of one direction (keys before the query).

    The last bucket's range is open-ended; it is reported up to max_distance, the
    first distance that certainly lands in it. Computed from ``t5_bucket`` itself.
    """
    nb, md, one_side, max_exact = _t5_args(num_buckets, max_distance, bidirectional)
    r = np.arange(md + 1)
    b = t5_bucket(-r, bidirectional, nb, md)
    edges = []
    for k in np.unique(b):
        hits = r[b == k]
        edges.append((int(k), int(hits.min()), int(hits.max())))
    return edges


def t5_parameters(num_buckets: int, n_heads: int, stacks: int = 1) -> int:
    """One learned scalar per (bucket, head), in one table per stack that has relative attention.

    T5 shares the table across the layers of a stack ("we share the position
    embedding parameters across all layers", §2.1): in transformers only layer 0
    has ``relative_attention_bias`` and the other layers reuse its output. The
    encoder and the decoder's self-attention each have a table (stacks=2); the
    decoder's cross-attention has none.
    """
    return _check.integer("num_buckets", num_buckets, 2) * _check.integer("n_heads", n_heads) * _check.integer("stacks", stacks)


def t5_bias(table, query_len: int, key_len: int | None = None, bidirectional: bool = True, max_distance: int = 128) -> np.ndarray:
    """The bias added to every score: table[bucket(j − i), h], shape (heads, query_len, key_len).

    ``table`` has shape (num_buckets, heads) like transformers' ``relative_attention_bias.weight``.
    """
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2:
        raise ValueError(f"table must have shape (num_buckets, heads), got {t.shape}")
    buckets = t5_bucket(relative_positions(query_len, key_len), bidirectional, t.shape[0], max_distance)
    return np.moveaxis(t[buckets], -1, 0)


# --- ALiBi -----------------------------------------------------------------------------------------


def alibi_slopes(n_heads: int) -> np.ndarray:
    """One slope m_h per head (Press, Smith, Lewis 2022, §3).

    For n heads, n a power of two: the geometric sequence that starts at 2^(−8/n)
    with ratio 2^(−8/n), i.e. m_h = 2^(−8h/n) for h = 1 … n (8 heads: 1/2, 1/4, …, 1/256).
    Otherwise (the authors' code, used by BLOOM's 112 heads): the n' = 2^⌊log₂ n⌋
    slopes of the nearest lower power of two, followed by the odd-numbered slopes
    of 2n' heads, 2^(−4h/n') for h = 1, 3, 5, …, taking the first n − n'.
    """
    n = _check.integer("n_heads", n_heads)
    closest = 2 ** int(math.floor(math.log2(n)))
    slopes = _geometric_slopes(closest)
    if closest != n:
        slopes += _geometric_slopes(2 * closest)[0::2][: n - closest]
    return np.array(slopes, dtype=np.float64)


def _geometric_slopes(n: int) -> list[float]:
    # start · ratio^h with start = ratio = 2^(−8/n), evaluated as the authors' get_slopes
    # does (Python floats), so the slopes agree with their reference to the last bit.
    start = 2.0 ** (-(2.0 ** -(math.log2(n) - 3)))
    return [start * start**h for h in range(n)]


def alibi_bias(n_heads: int, query_len: int, key_len: int | None = None) -> np.ndarray:
    """−m_h · |i − j| for every head, query i and key j: shape (heads, query_len, key_len).

    Press et al. add −m·(i − j) to the causal scores (keys j ≤ i); this is that
    term. For a causal model the entries j > i are masked anyway
    (``alibi_causal_bias``); the symmetric |i − j| is how bidirectional ALiBi
    variants extend it.
    """
    m = alibi_slopes(n_heads)
    distance = np.abs(relative_positions(query_len, key_len)).astype(np.float64)
    return 0.0 - m[:, None, None] * distance[None, :, :]  # 0.0 − … so distance 0 gives +0.0, not −0.0


def alibi_causal_bias(n_heads: int, length: int) -> np.ndarray:
    """ALiBi with the causal mask folded in: −m_h·(i − j) for j ≤ i, −∞ for j > i. Shape (heads, T, T).

    Added to q·kᵀ/√d before the softmax, this is the whole of ALiBi: no position
    embedding, nothing learned (Press et al. 2022, §3 and Figure 3).
    """
    bias = alibi_bias(n_heads, length)
    future = relative_positions(length) > 0
    bias[:, future] = -np.inf
    return bias


def alibi_weight_ratio(slope: float, distance) -> np.ndarray:
    """exp(−m·r): the factor by which the bias alone scales a key's softmax weight at distance r,
    relative to an equally scored key at distance 0."""
    m = _check.positive("slope", slope)
    r = np.asarray(distance, dtype=np.float64)
    if np.any(r < 0):
        raise ValueError(f"distance must be ≥ 0 (tokens back from the query), got {r.min()}")
    return np.exp(-m * r)


def alibi_reach(slope: float, factor: float) -> float:
    """The distance r at which the bias alone cuts a key's weight by ``factor``: r = ln(factor) / m.

    E.g. factor 10: beyond this distance a key needs a score ln 10 ≈ 2.3 higher than
    a key at distance 0 to get the same weight. Small slopes reach far.
    """
    m = _check.positive("slope", slope)
    f = _check.positive("factor", factor)
    if f <= 1:
        raise ValueError(f"factor must be greater than 1 (how many times smaller the weight becomes), got {f}")
    return math.log(f) / m


# --- parameters each position scheme adds to a model --------------------------------------------

SCHEMES = ("learned", "sinusoidal", "rope", "alibi", "t5", "shaw", "nope")

# The scheme each position kind of posenc.configs uses (M-RoPE is RoPE with its pairs split by axis).
_KIND_SCHEME = {"learned": "learned", "rope": "rope", "mrope": "rope", "alibi": "alibi", "t5": "t5"}


def added_parameters(scheme: str, cfg, *, max_relative_position: int | None = None,
                     num_buckets: int | None = None, stacks: int | None = None) -> int:
    """Learned numbers a position scheme would add to the model ``cfg`` (a ``posenc.configs`` model).

    Only the position scheme is counted, for the model's own sizes:

        learned      a table of context × hidden (GPT-2's wpe; Vaswani et al. 2017 §3.5 "learned")
        sinusoidal   0: sin/cos of fixed frequencies (Vaswani et al. 2017 §3.5)
        rope         0: fixed rotations of q and k (Su et al. 2021 §3)
        alibi        0: fixed slopes 2^(−8h/n) (Press et al. 2022 §3)
        nope         0: nothing at all (Kazemnejad et al. 2023)
        t5           num_buckets × heads per table (``t5_parameters``), one table per stack
                     with relative attention (Raffel et al. 2020 §2.1)
        shaw         (2k + 1) × head_dim × 2 per layer (``shaw_parameters``; Shaw et al. 2018 §3.3)

    T5's ``num_buckets`` and ``stacks`` default to the model's own fields
    (relative_attention_num_buckets, bias_tables), else 32 and 1. Shaw's clipping
    distance ``max_relative_position`` has no default: the paper compares several
    values of k, so the caller states the one it means.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
    _model(cfg)
    if scheme in ("sinusoidal", "rope", "alibi", "nope"):
        return 0
    if scheme == "learned":
        return _field(cfg, "context", "the table has one row per position") * _field(cfg, "hidden", "each row is hidden wide")
    if scheme == "t5":
        nb = num_buckets if num_buckets is not None else cfg.get("relative_attention_num_buckets", 32)
        st = stacks if stacks is not None else cfg.get("bias_tables", 1)
        return t5_parameters(nb, _field(cfg, "heads", "T5 learns one scalar per bucket and head"), st)
    if max_relative_position is None:
        raise ValueError("shaw needs max_relative_position (the clipping distance k); pass e.g. max_relative_position=16")
    return shaw_parameters(max_relative_position, _head_dim(cfg), _field(cfg, "layers", "Shaw's vectors are per layer"))


def model_position_parameters(cfg) -> int:
    """``added_parameters`` for the scheme the model itself uses (e.g. GPT-2: its wpe table; BLOOM: 0)."""
    _model(cfg)
    return added_parameters(_KIND_SCHEME[cfg.position], cfg)


def _model(cfg) -> None:
    from .configs import ModelConfig

    if not isinstance(cfg, ModelConfig):
        raise ValueError(f"cfg must be a model from posenc.configs.load(), got {type(cfg).__name__}; e.g. configs.load('gpt2')")


def _field(cfg, name: str, why: str) -> int:
    if name not in cfg.fields:
        raise ValueError(f"model {cfg.key!r} has no {name!r} field ({why}); add it with source and tag to posenc/data/models*.yaml")
    return cfg[name]


def _head_dim(cfg) -> int:
    if "head_dim" in cfg.fields and "nope_head_dim" not in cfg.fields:
        return cfg["head_dim"]
    hidden, heads = _field(cfg, "hidden", "head width = hidden ÷ heads"), _field(cfg, "heads", "head width = hidden ÷ heads")
    if hidden % heads:
        raise ValueError(f"model {cfg.key!r}: hidden {hidden} is not a multiple of heads {heads}; add head_dim")
    return hidden // heads


# --- lesson 3b: the same biases from absolute positions, and what they do to attention ---------
#
# The functions above build the bias from j − i directly. The lesson proves that a whole
# sentence can move along the positions without changing any score; to show that by
# computation rather than by construction, these take the tokens' absolute position ids.


def relative_positions_at(query_positions, key_positions=None) -> np.ndarray:
    """p_key − p_query for every pair of absolute positions, shape (queries, keys).

    With ``query_positions = start + arange(n)`` this is ``relative_positions(n)`` for
    every start: the subtraction removes the start, which is the whole argument of
    relative position (Shaw et al. 2018 §3.2: edges depend on j − i only).
    """
    q = _check.positions("query_positions", query_positions)
    k = q if key_positions is None else _check.positions("key_positions", key_positions)
    return k[None, :] - q[:, None]


def alibi_causal_bias_at(n_heads: int, positions) -> np.ndarray:
    """``alibi_causal_bias`` for tokens at absolute ``positions``: −m_h·(p_i − p_j) for p_j ≤ p_i, −∞ after.

    Shape (heads, n, n). For positions 0 … n−1 it equals ``alibi_causal_bias(n_heads, n)``
    bit for bit (Press et al. 2022 §3: the bias is m·[−(i−1), …, −1, 0] for query i).
    """
    m = alibi_slopes(n_heads)
    rel = relative_positions_at(positions)
    bias = 0.0 - m[:, None, None] * np.abs(rel).astype(np.float64)[None, :, :]
    bias[:, rel > 0] = -np.inf
    return bias


def t5_bias_at(table, positions, bidirectional: bool = True, max_distance: int = 128) -> np.ndarray:
    """``t5_bias`` for tokens at absolute ``positions``: table[bucket(p_j − p_i), h], shape (heads, n, n)."""
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2:
        raise ValueError(f"table must have shape (num_buckets, heads), got {t.shape}")
    buckets = t5_bucket(relative_positions_at(positions), bidirectional, t.shape[0], max_distance)
    return np.moveaxis(t[buckets], -1, 0)


def biased_weights(scores, bias) -> np.ndarray:
    """softmax(scores + bias) over the keys (last axis): the attention weights once the bias is added.

    ``scores`` is the content part q·k/√d, shape (n, n); ``bias`` is (n, n) or (heads, n, n),
    with −∞ where a key is masked. Press et al. add the bias after the 1/√d scaling, unscaled
    (§3, footnote 10); T5 and Shaw et al. add theirs to the same logits.
    """
    s = np.asarray(scores, dtype=np.float64)
    b = np.asarray(bias, dtype=np.float64)
    if s.ndim != 2 or s.shape[0] != s.shape[1]:
        raise ValueError(f"scores must be a square (queries, keys) matrix, got shape {s.shape}")
    if b.shape[-2:] != s.shape or b.ndim not in (2, 3):
        raise ValueError(f"bias must have shape {s.shape} or (heads, {s.shape[0]}, {s.shape[1]}) to match scores, got {b.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite; put −∞ for masked keys in the bias, not in the scores")
    from .attention import softmax

    return softmax(s + b)


def causal_pairs_by_distance(length: int) -> np.ndarray:
    """How many (query, key) pairs of one causal sequence of ``length`` tokens are r apart, r = 0 … length−1.

    Query i sees keys 0 … i, so distance r occurs for i = r … length−1: length − r times.
    A table with one learned number per distance gets that many gradient contributions per
    sequence, so the far entries learn from the fewest pairs.
    """
    n = _check.integer("length", length)
    return n - np.arange(n, dtype=np.int64)


def alibi_extra_heads(n_heads: int) -> np.ndarray:
    """True for the heads whose slope comes from the non-power-of-two rule (see ``alibi_slopes``).

    The first 2^⌊log₂ n⌋ heads take the power-of-two sequence; the rest take every other
    slope of the sequence for twice as many heads. All False when n is a power of two.
    """
    n = _check.integer("n_heads", n_heads)
    closest = 2 ** int(math.floor(math.log2(n)))
    return np.arange(n) >= closest


def alibi_reaches(n_heads: int, factor: float) -> np.ndarray:
    """``alibi_reach`` of every head, in head order: ln(factor) / m_h."""
    return np.array([alibi_reach(m, factor) for m in alibi_slopes(n_heads)])


def alibi_score_gap(slope: float, distance) -> np.ndarray:
    """m·r: how much higher a key's content score q·k/√d must be, r tokens back, to get the
    same softmax weight as an equally matching key at distance 0 (exp(−gap) = ``alibi_weight_ratio``)."""
    m = _check.positive("slope", slope)
    r = np.asarray(distance, dtype=np.float64)
    if np.any(r < 0):
        raise ValueError(f"distance must be ≥ 0 (tokens back from the query), got {r.min()}")
    return m * r


def alibi_mass_beyond(slope: float, distance: int, length: int) -> float:
    """The share of one query's attention on keys ≥ ``distance`` back, when all ``length`` keys
    (distances 0 … length−1) match equally well and only the ALiBi bias tells them apart.

    The weights are exp(−m·r) / Σ exp(−m·r'), a geometric series, so the share is
    (e^{−mR} − e^{−mL}) / (1 − e^{−mL}); with L → ∞ it is e^{−mR}, ``alibi_weight_ratio(m, R)``.
    """
    m = _check.positive("slope", slope)
    L = _check.integer("length", length)
    R = _check.integer("distance", distance, minimum=0)
    if R > L:
        raise ValueError(f"distance={R} lies beyond the {L} keys (distances 0 … {L - 1}); pass distance ≤ length")
    # expm1 keeps the small-slope case exact: 1 − e^{−x} = −expm1(−x)
    return float((math.exp(-m * R) - math.exp(-m * L)) / -math.expm1(-m * L))


def rope_scores_by_distance(q, k, inv_freq, max_distance: int, start: int = 0) -> np.ndarray:
    """RoPE's score of query content q against key content k, the key r tokens back, r = 0 … max_distance.

    The key sits at position ``start``, the query at start + r; both are rotated
    (``posenc.rope.rotate``, RoFormer §3) and dotted: (R_{start+r} q)·(R_{start} k) = qᵀ R_{−r} k.
    Unlike a bias added to the score, the distance acts through the content: two queries
    against the same key can prefer different distances. The result does not depend on ``start``.
    """
    from . import rope

    qv = np.asarray(q, dtype=np.float64)
    kv = np.asarray(k, dtype=np.float64)
    if qv.ndim != 1 or qv.shape != kv.shape:
        raise ValueError(f"q and k must be 1-D vectors of the same width, got shapes {qv.shape} and {kv.shape}")
    n = _check.integer("max_distance", max_distance, minimum=0)
    s = _check.position("start", start)
    r = np.arange(n + 1, dtype=np.int64)
    qs = rope.rotate(np.broadcast_to(qv, (n + 1, qv.size)), s + r, inv_freq)
    ks = rope.rotate(kv[None, :], [s], inv_freq)
    return qs @ ks[0]


def rope_key_preferring(q, distance: int, inv_freq) -> np.ndarray:
    """A key content whose RoPE score with query content q is highest exactly ``distance`` tokens back.

    k = R_δ q (``posenc.rope.rotate`` by δ): then qᵀ R_{−r} k = Σ_i |q_i|² cos((δ − r)·ω_i), which
    reaches its maximum Σ|q_i|² only at r = δ (pair 0 turns by ω_0 = 1 radian per token, and no
    non-zero integer is a multiple of 2π). What a head "looks for" at a distance is carried by content.
    """
    from . import rope

    qv = np.asarray(q, dtype=np.float64)
    if qv.ndim != 1:
        raise ValueError(f"q must be one query vector (1-D), got shape {qv.shape}")
    return rope.rotate(qv[None, :], [_check.position("distance", distance)], inv_freq)[0]


def alibi_scores_by_distance(q, k, slope: float, max_distance: int) -> np.ndarray:
    """ALiBi's score of query content q against key content k, the key r tokens back: q·k − m·r, r = 0 … max_distance.

    The content part q·k is the same at every distance; the bias only tilts it down.
    Every pair of contents gets the same tilt, so the nearest key always scores highest.
    """
    qv = np.asarray(q, dtype=np.float64)
    kv = np.asarray(k, dtype=np.float64)
    if qv.ndim != 1 or qv.shape != kv.shape:
        raise ValueError(f"q and k must be 1-D vectors of the same width, got shapes {qv.shape} and {kv.shape}")
    n = _check.integer("max_distance", max_distance, minimum=0)
    return float(qv @ kv) - alibi_score_gap(slope, np.arange(n + 1))


def score_change(before, after) -> float:
    """max |after − before| over the scores both leave unmasked: how much a change (a shift of the
    whole sentence) moved any score. The masks (−∞ entries) must agree; a moved mask is an error."""
    a = np.asarray(before, dtype=np.float64)
    b = np.asarray(after, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"before and after must have the same shape, got {a.shape} and {b.shape}")
    masked_a, masked_b = np.isneginf(a), np.isneginf(b)
    if not np.array_equal(masked_a, masked_b):
        raise ValueError("before and after mask different keys (−∞ in different places); compare scores with the same mask")
    keep = ~masked_a
    if not np.all(np.isfinite(a[keep])) or not np.all(np.isfinite(b[keep])):
        raise ValueError("scores must be finite where unmasked (only −∞ may mark a masked key)")
    return float(np.abs(a[keep] - b[keep]).max()) if keep.any() else 0.0


def causal_bias(length: int) -> np.ndarray:
    """The causal mask as an additive bias: 0 where query i may see key j (j ≤ i), −∞ after. Shape (T, T).

    ``biased_weights(scores, causal_bias(T))`` is attention with no position signal at all
    (lesson 1's causal head); adding an ALiBi or T5 bias on top is the only difference.
    """
    n = _check.integer("length", length)
    return np.where(relative_positions(n) <= 0, 0.0, -np.inf)


def content_scores(text: str, d: int, seed: int) -> np.ndarray:
    """q·k/√d of lesson 1's seeded head over the tokens of ``text``, with no position information:
    the part of the score a relative bias is added to (``posenc.attention``: make_head, token vectors)."""
    from . import attention

    x = attention.sentence_input(text, d, seed)
    return attention.attend(x, attention.make_head(d, seed)).scores
