"""A small, seeded single-head self-attention, and what it does with word order (lesson 1 uses it).

Scaled dot-product attention (Vaswani et al. 2017, §3.2.1, Eq. 1), rows = tokens:

    Q = X W_q,  K = X W_k,  V = X W_v          X: (n, d), one row per token
    S = Q Kᵀ / √d                               (n, n) scores
    S[i, j] = −∞ where the mask forbids i → j   (causal: j > i is forbidden)
    A = softmax(S) row by row                   (n, n) weights, each row sums to 1
    Out = A V                                   (n, d)

Everything random is drawn with numpy's ``default_rng`` (PCG64), so the page's
numbers are the same on every build:

* weights: ``rng = default_rng(seed)``, then W_q, W_k, W_v in that order, each
  d × d with entries N(0, 1/d);
* token vectors: the vector of token ID t is ``default_rng([seed, t]).standard_normal(d)``,
  entries N(0, 1), so a character has the same vector in every sentence and
  two equal characters get equal vectors.

Without position information nothing in these formulas knows where a row sits:
permuting the rows of X (X → P X) permutes the outputs the same way
(Out → P Out) and the weights as A → P A Pᵀ. That is permutation equivariance.
"""

from __future__ import annotations

import numbers as _numbers
from dataclasses import dataclass

import numpy as np

from . import _check, sinusoidal, tokenize

@dataclass(frozen=True)
class Head:
    """One attention head's projection matrices (each d × d) and the seed they came from."""

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    seed: int

    @property
    def d(self) -> int:
        """The width of the input rows (d_model)."""
        return self.w_q.shape[0]


@dataclass(frozen=True)
class Result:
    """Every intermediate of one attention pass, for figures and tests."""

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray  # after scaling and masking (−∞ where forbidden)
    weights: np.ndarray
    out: np.ndarray


def make_head(d: int, seed: int) -> Head:
    """W_q, W_k, W_v drawn from ``default_rng(seed)`` in that order, entries N(0, 1/d)."""
    d, seed = _check.dims("d", d, 8), _check.integer("seed", seed, 0, "a non-negative integer seed", 7)
    rng = np.random.default_rng(seed)
    std = 1.0 / np.sqrt(d)
    w_q, w_k, w_v = (rng.normal(0.0, std, size=(d, d)) for _ in range(3))
    return Head(w_q, w_k, w_v, seed)


def token_vectors(ids, d: int, seed: int) -> np.ndarray:
    """One N(0, 1) vector per token ID, drawn from ``default_rng([seed, id])``; shape (n, d).

    This is a lookup table in all but storage: the same ID always gives the same row.
    """
    d, seed = _check.dims("d", d, 8), _check.integer("seed", seed, 0, "a non-negative integer seed", 7)
    arr = np.asarray(ids)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"ids must be a non-empty 1-D sequence of token IDs, got shape {arr.shape}")
    if arr.dtype.kind not in "iu" or np.any(arr < 0):
        raise ValueError(f"ids must be non-negative integers, got {arr[:4]!r} (dtype {arr.dtype}); use tokenize.token_ids(text)")
    return np.stack([np.random.default_rng([seed, int(t)]).standard_normal(d) for t in arr])


def sentence_input(text: str, d: int, seed: int, positions: bool = False) -> np.ndarray:
    """The attention input X for ``text``: token vectors, plus a position vector per row if ``positions``.

    The position vectors are the sinusoidal table of lesson 3 (row p for position p);
    lesson 1 only needs them to differ from position to position.
    """
    x = token_vectors(tokenize.token_ids(text), d, seed)
    if not isinstance(positions, bool):
        raise ValueError(f"positions must be True or False, got {positions!r}")
    if positions:
        if d % 2:
            raise ValueError(f"d must be even when positions=True (the position vectors come in sin/cos pairs), got {d}")
        x = x + sinusoidal.table(len(x), d)
    return x


def causal_mask(n: int) -> np.ndarray:
    """(n, n) booleans, True where query i may see key j, i.e. j ≤ i."""
    if isinstance(n, bool) or not isinstance(n, (_numbers.Integral, np.integer)) or n <= 0:
        raise ValueError(f"n must be a positive sequence length, got {n!r}")
    return np.tril(np.ones((int(n), int(n)), dtype=bool))


def _as_input(x) -> np.ndarray:
    arr = np.asarray(x)  # its own dtype first: converting to float would parse strings and choke on complex numbers
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError(f"x must be a 2-D array (tokens × d) with at least one row, got shape {np.shape(x)}")
    if arr.dtype.kind not in "fiu":
        raise ValueError(f"x must hold real numbers, got dtype {arr.dtype}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("x contains NaN or ∞; every input vector must be finite")
    return arr.astype(np.float64)


def _as_mask(mask, n: int) -> np.ndarray:
    m = np.asarray(mask)
    if m.shape != (n, n):
        raise ValueError(f"mask must have shape ({n}, {n}) to match {n} tokens, got {m.shape}")
    if m.dtype != bool:
        if m.dtype.kind not in "iuf" or not np.all((m == 0) | (m == 1)):
            raise ValueError("mask must be boolean or hold only 0 and 1 (1 = may attend); got other values")
        m = m.astype(bool)
    if not np.all(m.any(axis=1)):
        row = int(np.flatnonzero(~m.any(axis=1))[0])
        raise ValueError(f"mask row {row} forbids every key; each query must see at least one token (itself, for a causal mask)")
    return m


def softmax(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax, shifted by each row's maximum for stability; −∞ becomes weight 0."""
    s = np.asarray(scores, dtype=np.float64)
    top = s.max(axis=-1, keepdims=True)
    if not np.all(np.isfinite(top)):
        raise ValueError("softmax needs at least one finite score per row")
    e = np.exp(s - top)
    return e / e.sum(axis=-1, keepdims=True)


def attend(x, head: Head, mask=None) -> Result:
    """One head of scaled dot-product attention over the rows of ``x`` (module docstring)."""
    x = _as_input(x)
    if not isinstance(head, Head):
        raise ValueError(f"head must be a Head from make_head(), got {type(head).__name__}")
    if x.shape[1] != head.d:
        raise ValueError(f"x has {x.shape[1]} columns but the head expects d = {head.d}; build both with the same d")
    q, k, v = x @ head.w_q, x @ head.w_k, x @ head.w_v
    s = q @ k.T / np.sqrt(q.shape[1])  # √d_k: the width of one head's keys (= d for lesson 1's square head)
    if mask is not None:
        s = np.where(_as_mask(mask, len(x)), s, -np.inf)
    w = softmax(s)
    return Result(q, k, v, s, w, w @ v)


def stack(x, heads, mask=None) -> np.ndarray:
    """Several attention layers with residual connections: h ← h + attend(h).out, layer after layer."""
    h = _as_input(x)
    heads = list(heads)
    if not heads:
        raise ValueError("heads is empty; pass at least one Head, e.g. [make_head(8, seed=7), make_head(8, seed=8)]")
    for head in heads:
        h = h + attend(h, head, mask).out
    return h


def check_permutation(perm, n: int | None = None) -> np.ndarray:
    """``perm`` as an int array, checked to be a rearrangement of 0 … n−1."""
    p = np.asarray(perm)
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"perm must be a non-empty 1-D sequence of indices, got shape {p.shape}")
    if p.dtype.kind not in "iu":
        raise ValueError(f"perm must hold integer indices, got dtype {p.dtype}")
    if not np.array_equal(np.sort(p), np.arange(p.size)):
        raise ValueError(f"perm must contain each of 0 … {p.size - 1} exactly once, got {p.tolist()}")
    if n is not None and p.size != n:
        raise ValueError(f"perm has {p.size} entries but the sequence has {n} tokens; they must match")
    return p.astype(np.int64)


def swap(n: int, i: int, j: int) -> np.ndarray:
    """The permutation that exchanges positions i and j of an n-token sequence."""
    if isinstance(n, bool) or not isinstance(n, (_numbers.Integral, np.integer)) or n <= 0:
        raise ValueError(f"n must be a positive sequence length, got {n!r}")
    i, j = _check.position("i", i), _check.position("j", j)
    if i >= n or j >= n:
        raise ValueError(f"i and j must be positions below n = {n}, got i = {i}, j = {j}")
    p = np.arange(n)
    p[[i, j]] = p[[j, i]]
    return p


def permutation_matrix(perm) -> np.ndarray:
    """P with P[i, perm[i]] = 1, so that P @ X == X[perm] (row i of the result is row perm[i] of X)."""
    p = check_permutation(perm)
    m = np.zeros((p.size, p.size))
    m[np.arange(p.size), p] = 1.0
    return m


def permute_text(text, perm):
    """The tokens of ``text`` rearranged by ``perm`` (the same rule as X[perm]): a str of characters, or a
    tuple of words, as ``text`` was."""
    chars = tokenize.tokens(text)
    p = check_permutation(perm, len(chars))
    moved = [chars[i] for i in p]
    return tuple(moved) if isinstance(text, (tuple, list)) else "".join(moved)


def matched_difference(out_a, out_b, perm) -> float:
    """max |out_b − out_a[perm]|: how far each token's output moved when the sentence was permuted.

    Row i of sentence B is the token that sat at row perm[i] of sentence A, so
    this compares every token with itself across the two orders.
    """
    a, b = _as_input(out_a), _as_input(out_b)
    if a.shape != b.shape:
        raise ValueError(f"out_a and out_b must have the same shape, got {a.shape} and {b.shape}")
    p = check_permutation(perm, len(a))
    return float(np.max(np.abs(b - a[p])))


def attend_padded(ids, mask, position_ids, head: Head, seed: int) -> np.ndarray:
    """Attention over one padded row; returns the outputs of its real tokens only.

    Input = token vector + sinusoidal position vector of ``position_ids``; every
    query may see every real token and no padding (key-padding mask). With the
    right position IDs a padded row gives its real tokens the same outputs as
    the unpadded sentence; with wrong ones it does not (lesson 1's padding bug).
    """
    from . import position_ids as pid

    ids = np.asarray(ids)
    m = pid.check_mask(mask)
    pos = np.asarray(position_ids)
    if m.ndim != 1 or ids.shape != m.shape or pos.shape != m.shape:
        raise ValueError(
            f"ids, mask and position_ids must be 1-D with the same length, got {ids.shape}, {m.shape}, {pos.shape}"
        )
    if not m.any():
        raise ValueError("mask has no real token (all zeros); a row must contain at least one token")
    if head.d % 2:
        raise ValueError(f"the head's d must be even for sinusoidal position vectors, got {head.d}")
    x = token_vectors(ids, head.d, seed) + sinusoidal.table(pos, head.d)
    allowed = np.broadcast_to(m.astype(bool), (m.size, m.size))
    return attend(x, head, allowed).out[m == 1]


# --- lesson 1's experiment: the same sentence before and after a swap -----------------------------


@dataclass(frozen=True)
class Swap:
    """A sentence and the same sentence with two tokens exchanged, each run through the same head."""

    text: str
    swapped: str
    perm: np.ndarray  # row r of ``swapped`` is the token at row perm[r] of ``text``
    before: Result
    after: Result

    @property
    def moved(self) -> float:
        """max |Out_after − Out_before[perm]|: how far any token's output moved (0 up to rounding without positions)."""
        return matched_difference(self.before.out, self.after.out, self.perm)

    @property
    def weights_error(self) -> float:
        """max |A(PX) − P A(X) Pᵀ|: how far the weights are from moving with the permutation."""
        p = permutation_matrix(self.perm)
        return float(np.abs(self.after.weights - p @ self.before.weights @ p.T).max())

    @property
    def out_error(self) -> float:
        """max |Out(PX) − P Out(X)|: how far the outputs are from moving with the permutation."""
        return float(np.abs(self.after.out - permutation_matrix(self.perm) @ self.before.out).max())


def swap_experiment(text: str, i: int, j: int, head: Head, seed: int, positions: bool = False,
                    causal: bool = False) -> Swap:
    """Exchange tokens i and j of ``text`` and run both sentences through ``head`` (lesson 1's experiment).

    The token vectors come from ``token_vectors(…, head.d, seed)``; ``positions`` adds the
    sinusoidal position vectors (``sentence_input``), ``causal`` applies ``causal_mask``.
    """
    if not isinstance(head, Head):
        raise ValueError(f"head must be a Head from make_head(), got {type(head).__name__}")
    perm = swap(len(tokenize.tokens(text)), i, j)
    swapped = permute_text(text, perm)
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    mask = causal_mask(len(perm)) if causal else None
    before = attend(sentence_input(text, head.d, seed, positions), head, mask)
    after = attend(sentence_input(swapped, head.d, seed, positions), head, mask)
    return Swap(text, swapped, perm, before, after)


# --- multi-head attention: it mixes tokens, and is still permutation-equivariant ------------------


@dataclass(frozen=True)
class MultiHead:
    """h heads of width d_model / h, each with its own W_q, W_k, W_v (d_model × d_head), and W_o (d_model × d_model)."""

    heads: tuple[Head, ...]
    w_o: np.ndarray
    seed: int

    @property
    def d(self) -> int:
        return self.w_o.shape[0]


def make_multi_head(d: int, n_heads: int, seed: int) -> MultiHead:
    """``n_heads`` heads of width d / n_heads and an output projection, drawn from ``default_rng(seed)``.

    Order of draws: for each head W_q, W_k, W_v, then W_o; entries N(0, 1/d).
    """
    d, seed = _check.dims("d", d, 8), _check.integer("seed", seed, 0, "a non-negative integer seed", 7)
    if isinstance(n_heads, bool) or not isinstance(n_heads, (_numbers.Integral, np.integer)) or n_heads <= 0 or d % n_heads:
        raise ValueError(f"n_heads must be a positive integer that divides d = {d}, got {n_heads!r}; e.g. n_heads=2")
    rng = np.random.default_rng(seed)
    std, width = 1.0 / np.sqrt(d), d // int(n_heads)
    heads = tuple(Head(*(rng.normal(0.0, std, size=(d, width)) for _ in range(3)), seed) for _ in range(int(n_heads)))
    return MultiHead(heads, rng.normal(0.0, std, size=(d, d)), seed)


def multi_head_attend(x, mh: MultiHead, mask=None) -> np.ndarray:
    """Multi-head attention (Vaswani et al. 2017 §3.2.2): Concat(head_1, …, head_h) W_o.

    head_i = softmax(X W_q^i (X W_k^i)ᵀ / √d_head) X W_v^i. Each head mixes the rows of X;
    the concatenation and W_o then act on each row alone. Every head is permutation-
    equivariant, so the whole layer is: MHA(PX) = P · MHA(X).
    """
    if not isinstance(mh, MultiHead):
        raise ValueError(f"mh must be a MultiHead from make_multi_head(), got {type(mh).__name__}")
    return np.concatenate([attend(x, h, mask).out for h in mh.heads], axis=1) @ mh.w_o


def layer_norm(x, eps: float = 1e-5) -> np.ndarray:
    """LayerNorm without its learned scale and shift (Ba et al. 2016): each row minus its mean, over its std.

    It reads only its own row, like a feed-forward layer: the token-wise part of a Transformer block.
    """
    x = _as_input(x)
    eps = _check.positive("eps", eps)
    mu = x.mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + eps)


def row_difference(out, row: int, row_b: int | None = None, other=None) -> float:
    """max |out[row] − out[row_b]| (two tokens of one sentence), or max |out[row] − other[row]| (one row, two runs)."""
    a = _as_input(out)
    if (row_b is None) == (other is None):
        raise ValueError("pass exactly one of row_b (compare two rows of out) or other (compare out with other at the same row)")
    b = a[row_b] if other is None else _as_input(other)[row]
    return float(np.abs(a[row] - b).max())


def others_moved(layer, x, row: int, change) -> float:
    """max |layer(X')[r] − layer(X)[r]| over the rows r ≠ ``row``, where X' is X with ``change`` added to that row.

    0 for a layer that acts on each token alone (a feed-forward layer, LayerNorm); not 0 for
    attention, whose every output row is a weighted sum over all rows.
    """
    x = _as_input(x)
    row = _check.position("row", row)
    if row >= len(x):
        raise ValueError(f"row must be below the {len(x)} rows of x, got {row}")
    delta = np.asarray(change, dtype=np.float64)
    if delta.shape != (x.shape[1],):
        raise ValueError(f"change must be one row of width {x.shape[1]}, got shape {delta.shape}")
    x2 = x.copy()
    x2[row] += delta
    others = np.arange(len(x)) != row
    return float(np.abs(layer(x2)[others] - layer(x)[others]).max()) if others.any() else 0.0
