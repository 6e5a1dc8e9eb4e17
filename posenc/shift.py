"""Shifting a whole sentence: which attention scores move, for each way of giving a head positions.

Lessons 3 and 4 quote these experiments; the functions are named for what they compute.

One attention head, three ways of giving it positions, all with the same seeded
token vectors e_t and projections W_q, W_k (``posenc.attention``: rows are tokens,
q = x W_q, entries of W ~ N(0, 1/d), token vectors ~ N(0, 1)):

    "input"   x_t = e_t + PE(p_t);  q = x W_q,  k = x W_k
              sinusoidal positions added to the input (Vaswani et al. 2017, §3.5), lesson 3's way
    "qk"      q = e_t W_q + PE(p_t),  k = e_t W_k + PE(p_t)
              the naive fix: add the same vectors after the projection instead
    "rope"    q = R_{p_t}(e_t W_q),  k = R_{p_t}(e_t W_k)
              RoFormer §3 (Su et al. 2021, arXiv:2104.09864): f_{q,k}(x_m, m) = R^d_{Θ,m} W_{q,k} x_m

and the score S[a, b] = q_a · k_b / √d (Vaswani et al. 2017, §3.2.1, Eq. 1 before the softmax).
RoFormer §3 shows q_mᵀ k_n = (W_q x_m)ᵀ R^d_{Θ,n−m} (W_k x_n) for "rope": moving every
position by the same s leaves S unchanged. For "input" and "qk" the cross terms
e·PE contain absolute positions, so S changes.

Lesson 3 looks at one term of "input" alone, the position part
(``position_part_scores``): S_pos[a, b] = (PE(p_a) W_q)·(PE(p_b) W_k)/√d, the score two
tokens would get from their positions only. It is not shift-invariant either, because
W_q and W_k do not commute with the rotation that a shift applies to PE (lesson 3, §3.5).

The single-pair functions (``pair_scores``) are the 2-D case RoFormer starts from,
f(x, m) = (W x)·e^{imθ}, and match the lesson 4 widget (docs/javascripts/widgets/rope-pair.js).
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _check, attention, rope, sinusoidal, tokenize
from .sinusoidal import DEFAULT_BASE

METHODS = ("input", "qk", "rope")


def _method(method) -> str:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}; 'input' adds sinusoids to the input, 'qk' adds them after the projection, 'rope' rotates q and k")
    return method


def _text(text) -> str:
    if not isinstance(text, (str, tuple)) or len(tokenize.tokens(text)) < 2:
        raise ValueError(f"text must be a string of at least two tokens, got {text!r}; pass e.g. text='小明打了小王'")
    return text


def head_and_tokens(text: str, d: int, seed: int) -> tuple[attention.Head, np.ndarray]:
    """The seeded head (W_q, W_k, W_v) and the token vectors of ``text`` (one row per token)."""
    text = _text(text)
    return attention.make_head(d, seed), attention.token_vectors(tokenize.token_ids(text), d, seed)


def scores(text: str, start: int, method: str, d: int, seed: int, base: float = DEFAULT_BASE,
           convention: str = "interleaved") -> np.ndarray:
    """S[a, b] = q_a·k_b/√d for ``text`` placed at positions start, start+1, … (module docstring).

    ``convention`` picks RoPE's pair layout for method "rope" (``posenc.rope``); the
    sinusoidal vectors of "input" and "qk" use lesson 3's layout (sin at 2i, cos at 2i+1).
    """
    method = _method(method)
    start = _check.integer("start", start, 0, "a non-negative integer position", 10)
    head, e = head_and_tokens(text, d, seed)
    pos = start + np.arange(len(e))
    if method == "input":
        x = e + sinusoidal.table(pos, d, base)
        q, k = x @ head.w_q, x @ head.w_k
    elif method == "qk":
        pe = sinusoidal.table(pos, d, base)
        q, k = e @ head.w_q + pe, e @ head.w_k + pe
    else:
        inv = rope.inverse_frequencies(d, base)
        q = rope.rotate(e @ head.w_q, pos, inv, convention)
        k = rope.rotate(e @ head.w_k, pos, inv, convention)
    return q @ k.T / np.sqrt(d)


def score_changes(text: str, shift: int, method: str, d: int, seed: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """|S(start = shift) − S(start = 0)| for every pair of tokens: what moving the whole sentence does to each score."""
    shift = _check.integer("shift", shift, 0, "a non-negative integer position", 10)
    return np.abs(scores(text, shift, method, d, seed, base) - scores(text, 0, method, d, seed, base))


def shift_change(text: str, shift: int, method: str, d: int, seed: int, base: float = DEFAULT_BASE) -> float:
    """max |S(start = shift) − S(start = 0)|: how much moving the whole sentence by ``shift`` moves any score."""
    return float(score_changes(text, shift, method, d, seed, base).max())


def position_part_scores(text: str, start: int, d: int, seed: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """S_pos[a, b] = (PE(p_a) W_q)·(PE(p_b) W_k)/√d: the position-only term of the "input" score.

    The head is ``head_and_tokens``' (the same W_q, W_k as ``scores``); the token vectors
    do not enter, only how many tokens ``text`` has. Expanding the "input" score
    (e + PE) W_q ((e + PE) W_k)ᵀ/√d gives content·content + two cross terms + this term.
    With W_q = W_k = I it would be lesson 3's dot-product matrix over √d, which depends on
    b − a only; a shift turns PE(p) into M_s PE(p) (§3.5), and W_q W_kᵀ need not commute with M_s.
    """
    start = _check.integer("start", start, 0, "a non-negative integer position", 10)
    head, e = head_and_tokens(text, d, seed)
    pe = sinusoidal.table(start + np.arange(len(e)), d, base)
    return (pe @ head.w_q) @ (pe @ head.w_k).T / np.sqrt(d)


def position_part_shift_change(text: str, shift: int, d: int, seed: int, base: float = DEFAULT_BASE) -> float:
    """max |S_pos(start = shift) − S_pos(start = 0)|: what a shift does to the position part alone."""
    shift = _check.integer("shift", shift, 0, "a non-negative integer position", 10)
    return float(np.abs(position_part_scores(text, shift, d, seed, base) - position_part_scores(text, 0, d, seed, base)).max())


# --- one pair, by hand ------------------------------------------------------------------------------------


def _vec2(name: str, v) -> np.ndarray:
    arr = np.asarray(v)  # its own dtype first: converting to float would parse strings such as "1.0"
    if arr.shape != (2,) or arr.dtype.kind not in "fiu" or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be two finite numbers (one pair of dims), got {v!r}; pass e.g. {name}=(1.0, 0.4)")
    return arr.astype(np.float64)


def rotate_pair(v, angle: float) -> np.ndarray:
    """R(angle) v with R = [[cos, −sin], [sin, cos]]: RoFormer's 2×2 block."""
    v = _vec2("v", v)
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def _omega(omega) -> float:
    if isinstance(omega, bool) or not isinstance(omega, numbers.Real) or not np.isfinite(omega) or omega <= 0:
        raise ValueError(f"omega must be a positive angular frequency (radians per token), got {omega!r}; take one from rope.inverse_frequencies()")
    return float(omega)


def add_pair(v, m: int, omega: float) -> np.ndarray:
    """v + (sin mω, cos mω): lesson 3's pair of position m added to one pair of q or k (the naive design)."""
    v = _vec2("v", v)
    m, omega = _check.integer("m", m, 0, "a non-negative integer position", 10), _omega(omega)
    return v + np.array([np.sin(m * omega), np.cos(m * omega)])


def pair_scores(q, k, m: int, n: int, omega: float) -> tuple[float, float]:
    """(RoPE score, added score) of one pair with angular frequency ω, q at position m and k at n.

    RoPE: R(mω) q · R(nω) k = |q||k| cos(φ_k − φ_q + (n − m)ω), a function of n − m.
    Added: (q + (sin mω, cos mω)) · (k + (sin nω, cos nω)), lesson 3's pair added to q and k.
    """
    q, k = _vec2("q", q), _vec2("k", k)
    m, n = _check.integer("m", m, 0, "a non-negative integer position", 10), _check.integer("n", n, 0, "a non-negative integer position", 10)
    omega = _omega(omega)
    rope_score = float(rotate_pair(q, m * omega) @ rotate_pair(k, n * omega))
    added = float(add_pair(q, m, omega) @ add_pair(k, n, omega))
    return rope_score, added


def pair_score_polar(q, k, m: int, n: int, omega: float) -> float:
    """|q||k| cos(φ_k − φ_q + (n − m)ω): RoPE's score of one pair from lengths and angles, no rotation done.

    φ_q, φ_k are the angles of q and k before rotation; only n − m enters (RoFormer §3, 2-D case).
    """
    q, k = _vec2("q", q), _vec2("k", k)
    m, n = _check.integer("m", m, 0, "a non-negative integer position", 10), _check.integer("n", n, 0, "a non-negative integer position", 10)
    omega = _omega(omega)
    phi_q, phi_k = np.arctan2(q[1], q[0]), np.arctan2(k[1], k[0])
    return float(np.linalg.norm(q) * np.linalg.norm(k) * np.cos(phi_k - phi_q + (n - m) * omega))


def pair_omega(index: int, d: int, base: float = DEFAULT_BASE) -> float:
    """ω of pair ``index`` in a d-dim head."""
    inv = rope.inverse_frequencies(d, base)
    if isinstance(index, bool) or not isinstance(index, (numbers.Integral, np.integer)) or not 0 <= index < len(inv):
        raise ValueError(f"index must be a pair index from 0 to {len(inv) - 1}, got {index!r}")
    return float(inv[index])


# --- the two code layouts ----------------------------------------------------------------------------------


def convention_scores(text: str, start: int = 0, *, d: int, seed: int, base: float = DEFAULT_BASE,
                      permute_weights: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(scores with interleaved RoPE, scores with rotate_half RoPE) for the same checkpoint.

    The rotate_half code is given the projections with their output dims reordered by
    ``rope.convention_permutation`` (W[:, perm]: the same reordering of q/k dims that
    weight converters apply to the rows of PyTorch's (out, in) weight) when
    ``permute_weights``; without it, it is given the weights as they are, the bug of loading
    one layout's weights into the other layout's code.
    """
    if not isinstance(permute_weights, bool):
        raise ValueError(f"permute_weights must be True or False, got {permute_weights!r}")
    start = _check.integer("start", start, 0, "a non-negative integer position", 10)
    head, e = head_and_tokens(text, d, seed)
    pos = start + np.arange(len(e))
    inv = rope.inverse_frequencies(d, base)
    q_i, k_i = (rope.rotate(e @ w, pos, inv, "interleaved") for w in (head.w_q, head.w_k))
    perm = rope.convention_permutation(d) if permute_weights else np.arange(d)
    q_h, k_h = (rope.rotate(e @ w[:, perm], pos, inv, "half") for w in (head.w_q, head.w_k))
    return q_i @ k_i.T / np.sqrt(d), q_h @ k_h.T / np.sqrt(d)


# --- the same vector at every position: lesson 3's curve, now inside attention ----------------------------


def same_vector_scores(max_distance: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Scores q_0·k_k, k = 0 … max_distance, when q = k = (1, 0, 1, 0, …) before rotation.

    Each pair then contributes cos(k·ω_i), so the curve is Σ_i cos(k·ω_i), lesson 3's
    PE(p)·PE(p+k): RoPE's score of two equal vectors need not fall with distance.
    """
    if isinstance(max_distance, bool) or not isinstance(max_distance, (numbers.Integral, np.integer)) or max_distance < 1:
        raise ValueError(f"max_distance must be a positive integer, got {max_distance!r}; pass e.g. max_distance=200")
    inv = rope.inverse_frequencies(d, base)
    unit = np.zeros((1, d))
    unit[0, 0::2] = 1.0
    q = rope.rotate(unit, [0], inv)[0]
    ks = np.arange(int(max_distance) + 1)
    k = rope.rotate(np.repeat(unit, len(ks), axis=0), ks, inv)
    return k @ q
