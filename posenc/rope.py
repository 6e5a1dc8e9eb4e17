"""Rotary position embedding, RoPE (Su et al. 2021, RoFormer, arXiv:2104.09864).

RoFormer's §3 ("Rotary Position Embedding") turns each pair of query/key
dimensions by an angle proportional to the token's position:

    f_{q,k}(x_m, m) = R^d_{Θ,m} W_{q,k} x_m,
    Θ = {θ_i = 10000^(−2(i−1)/d), i = 1 … d/2},

where R^d_{Θ,m} is block-diagonal with one 2×2 rotation by m·θ_i per pair.
Because rotations compose, q_mᵀ k_n = x_mᵀ W_q R^d_{Θ,n−m} W_k x_n: the score
sees only the offset n − m (RoFormer §3's 2-D case f(x, m) = (W x)·e^{imθ},
then the general form). Equation numbers in RoFormer are not checked, so the
docstrings cite the description instead.

Here pair i counts from 0, so ω_i = base^(−2i/d) for i = 0 … d/2 − 1 (the
same numbers as RoFormer's θ_{i+1}). Two memory layouts of "a pair" exist:

    interleaved  pair i = dims (2i, 2i+1)       RoFormer, Meta's Llama code, DeepSeek
    half         pair i = dims (i, i + d/2)     transformers' rotate_half (Llama, Qwen, ...)

They are the same map up to a fixed permutation of dimensions
(``convention_permutation``). Partial RoPE (transformers' partial_rotary_factor)
turns only the first int(head_dim · fraction) dims and passes the rest through.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from . import _check

CONVENTIONS = ("interleaved", "half")


# --- argument checks specific to RoPE (candidates for posenc/_check.py) -------------------------


def _fraction(name: str, f) -> float:
    if isinstance(f, bool) or not isinstance(f, numbers.Real) or not np.isfinite(f) or not 0 < f <= 1:
        raise ValueError(f"{name} must be a number in (0, 1] (the share of head dims RoPE turns), got {f!r}; pass 1.0 for a full rotary head")
    return float(f)


def _inv_freq(name: str, inv_freq) -> np.ndarray:
    if _is_torch(inv_freq):
        inv_freq = inv_freq.detach().cpu().double().numpy()
    try:
        arr = np.asarray(inv_freq, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 1-D array of numbers, got {inv_freq!r}; build it with inverse_frequencies()") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of angular frequencies (one per pair), got shape {arr.shape}; build it with inverse_frequencies()")
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must hold positive finite frequencies, got values such as {arr[~(np.isfinite(arr) & (arr > 0))][:3]}; build it with inverse_frequencies()")
    return arr


def _convention(convention) -> str:
    if convention not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}; 'half' is transformers' rotate_half layout, 'interleaved' RoFormer's")
    return convention


def _is_torch(x) -> bool:
    return type(x).__module__.startswith("torch")


# --- frequencies -------------------------------------------------------------------------------


def rotary_dim(head_dim: int, rotary_fraction: float = 1.0) -> int:
    """How many dims of a head RoPE turns: int(head_dim · rotary_fraction), as transformers computes it.

    Partial RoPE (transformers' ``partial_rotary_factor``; GLM-4.5 0.5, Qwen3-Next
    0.25) leaves the remaining dims without any position signal. The result must
    be even because dims are turned in pairs.
    """
    head_dim = _check.dims("head_dim", head_dim, 128)
    rotary_fraction = _fraction("rotary_fraction", rotary_fraction)
    dim = int(head_dim * rotary_fraction)  # truncation, exactly like modeling_rope_utils
    if dim < 2 or dim % 2:
        raise ValueError(
            f"head_dim={head_dim} × rotary_fraction={rotary_fraction} gives {dim} rotary dims; RoPE needs a positive even "
            f"number (dims turn in pairs): change rotary_fraction or head_dim so int(head_dim·rotary_fraction) is even"
        )
    return dim


def inverse_frequencies(head_dim: int, base: float, rotary_fraction: float = 1.0) -> np.ndarray:
    """ω_i = base^(−2i/d), i = 0 … d/2 − 1, with d = rotary_dim(head_dim, rotary_fraction).

    RoFormer §3: Θ = {θ_i = 10000^(−2(i−1)/d)} with the base generalised (Llama 3
    uses 500,000, Qwen3 1,000,000). For partial RoPE the exponent divides by the
    rotary dim d, not by head_dim, as transformers' ``dim = int(head_dim *
    partial_rotary_factor)`` does. Radians per token, float64; pair 0 turns fastest.
    """
    dim = rotary_dim(head_dim, rotary_fraction)
    base = _check.base("base", base)
    i = np.arange(dim // 2, dtype=np.float64)
    return base ** (-2.0 * i / dim)


def wavelengths(inv_freq) -> np.ndarray:
    """λ_i = 2π / ω_i: how many tokens pair i needs for one full turn."""
    return 2.0 * np.pi / _inv_freq("inv_freq", inv_freq)


def pairs_not_completing_turn(inv_freq, context: int) -> int:
    """How many pairs do not finish one full turn within ``context`` tokens: #{i : λ_i > L}.

    Such a pair never revisits an angle inside the context, so its angle acts as
    a coarse absolute position; these are the pairs long-context scaling methods
    (PI, YaRN, Llama 3) treat differently.
    """
    L = _check.tokens("context", context)
    return int(np.sum(wavelengths(inv_freq) > L))


@dataclass(frozen=True)
class Spectrum:
    """Pair by pair, how RoPE's frequencies sit against a context of L tokens (lesson 4's spectrum).

    ``wavelengths`` are λ_i = 2π/ω_i, fastest pair first; a pair with λ_i > L does not
    complete a turn within the context (``pairs_not_completing_turn``).
    """

    wavelengths: np.ndarray
    context: int

    @property
    def pairs(self) -> int:
        return len(self.wavelengths)

    @property
    def not_turning(self) -> np.ndarray:
        """One bool per pair: True where λ_i > L."""
        return self.wavelengths > self.context

    @property
    def count_not_turning(self) -> int:
        return int(np.sum(self.not_turning))

    @property
    def first_not_turning(self) -> int:
        """Index of the fastest pair that does not complete a turn (pairs count from 0)."""
        if not self.count_not_turning:
            raise ValueError(f"every pair completes a turn within {self.context} tokens; there is no first pair that does not")
        return int(np.argmax(self.not_turning))

    @property
    def last_turning_wavelength(self) -> float:
        """λ of the slowest pair that still completes a turn within L."""
        turning = self.wavelengths[~self.not_turning]
        if not turning.size:
            raise ValueError(f"no pair completes a turn within {self.context} tokens")
        return float(turning.max())

    @property
    def first_not_turning_wavelength(self) -> float:
        return float(self.wavelengths[self.first_not_turning])

    @property
    def slowest_turns(self) -> float:
        """L / λ of the slowest pair: the share of one turn it makes within the context."""
        return self.context / float(self.wavelengths[-1])


def spectrum(inv_freq, context: int) -> Spectrum:
    """The ``Spectrum`` of frequencies ``inv_freq`` against a context of ``context`` tokens."""
    return Spectrum(wavelengths(inv_freq), _check.tokens("context", context))


def model_spectrum(cfg, context: int | None = None, base: float | None = None) -> Spectrum:
    """The ``Spectrum`` of a model config (``posenc.configs.load(key)``): its unscaled RoPE frequencies.

    Reads ``head_dim``, ``rope_theta``, ``rotary_fraction`` (default 1) and ``context`` (the
    native context); ``context`` and ``base`` override the config's, to ask "what if".
    Scalings such as YaRN are not applied: this is the model as pre-trained.
    """
    head_dim = cfg["head_dim"]
    theta = cfg["rope_theta"] if base is None else base
    inv = inverse_frequencies(head_dim, theta, cfg.get("rotary_fraction", 1.0))
    return spectrum(inv, cfg["context"] if context is None else context)


# --- the rotation itself ---------------------------------------------------------------------


def convention_permutation(dim: int) -> np.ndarray:
    """The index array perm with  rotate_half(x[..., perm]) == rotate_interleaved(x)[..., perm].

    P x = x[..., perm] moves the interleaved pair (2i, 2i+1) to the half layout's
    (i, i + d/2): perm = [0, 2, 4, …, d−2, 1, 3, …, d−1]. Loading weights written
    for one layout into code for the other needs exactly this reordering of the
    rows of W_q and W_k; scores are unchanged because P is orthogonal.
    """
    dim = _check.even_dim("dim", dim)
    return np.concatenate([np.arange(0, dim, 2), np.arange(1, dim, 2)])


def pair_of_dim(dim: int, convention: str) -> np.ndarray:
    """For each of the ``dim`` dims, the pair it belongs to: j // 2 for interleaved, j mod d/2 for half."""
    dim = _check.even_dim("dim", dim)
    j = np.arange(dim)
    return j // 2 if _convention(convention) == "interleaved" else j % (dim // 2)


def convention_pairs(dim: int, convention: str) -> list[tuple[int, int]]:
    """The dims turned together, pair 0 first: [(0, 1), (2, 3), …] or [(0, d/2), (1, d/2+1), …]."""
    owner = pair_of_dim(dim, convention)
    return [tuple(int(j) for j in np.nonzero(owner == i)[0]) for i in range(dim // 2)]


def _check_rotate_args(x_shape, positions, inv_freq):
    if len(x_shape) < 2:
        raise ValueError(f"x must have shape (..., T, D) with T positions and D dims, got shape {tuple(x_shape)}; add a length-1 axis for a single token")
    T, D = x_shape[-2], x_shape[-1]
    if len(positions) != T:
        raise ValueError(f"positions has {len(positions)} entries but x has T={T} tokens on axis −2; pass one position per token")
    rdim = 2 * len(inv_freq)
    if rdim > D:
        raise ValueError(f"inv_freq has {len(inv_freq)} pairs = {rdim} rotary dims but x has only D={D} dims; build inv_freq for head_dim={D}")
    return rdim


def rotate(x, positions, inv_freq, convention: str = "interleaved") -> np.ndarray:
    """R_{Θ,m} x for each token: turn pair i of the token at position m by m·ω_i (RoFormer §3).

    x has shape (..., T, D); ``positions`` holds the T token positions. Only the
    first 2·len(inv_freq) dims are turned (partial RoPE); the rest pass through
    unchanged. Pair i is dims (2i, 2i+1) for ``convention="interleaved"`` and
    (i, i + d/2) within the rotary dims for ``"half"``; each pair (a, b) becomes
    (a cos − b sin, a sin + b cos), RoFormer's 2×2 block [[cos, −sin], [sin, cos]].
    """
    convention = _convention(convention)
    x = np.asarray(x, dtype=np.float64)
    pos = _check.positions("positions", positions)
    inv = _inv_freq("inv_freq", inv_freq)
    rdim = _check_rotate_args(x.shape, pos, inv)
    angles = pos.astype(np.float64)[:, None] * inv[None, :]  # (T, d/2): m·ω_i
    cos, sin = np.cos(angles), np.sin(angles)
    out = x.copy()
    if convention == "interleaved":
        a, b = x[..., 0:rdim:2], x[..., 1:rdim:2]
        out[..., 0:rdim:2] = a * cos - b * sin
        out[..., 1:rdim:2] = a * sin + b * cos
    else:
        h = rdim // 2
        a, b = x[..., :h], x[..., h:rdim]
        out[..., :h] = a * cos - b * sin
        out[..., h:rdim] = a * sin + b * cos
    return out


def apply_rotary_torch(x, positions, inv_freq, convention: str = "half"):
    """The same rotation as ``rotate`` in torch, differentiable in x (RoFormer §3).

    x: tensor (..., T, D); positions: integer tensor (T,) of non-negative positions;
    inv_freq: float tensor or array (d/2,), e.g. ``torch.tensor(inverse_frequencies(...))``.
    Angles are formed in float32 as transformers does (position · ω), then cos/sin
    are cast to x's dtype; only the first d = 2·len(inv_freq) dims are turned.
    The default ``"half"`` layout matches transformers' rotate_half/apply_rotary_pos_emb.
    """
    import torch

    convention = _convention(convention)
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"x must be a torch.Tensor of shape (..., T, D), got {type(x).__name__}; use rotate() for numpy arrays")
    if not isinstance(positions, torch.Tensor):
        raise ValueError(f"positions must be a torch integer tensor (T,), got {type(positions).__name__}; pass torch.arange(T)")
    if positions.ndim != 1 or positions.dtype.is_floating_point or positions.dtype == torch.bool or positions.dtype.is_complex:
        raise ValueError(f"positions must be a 1-D integer tensor, got dtype {positions.dtype} and shape {tuple(positions.shape)}; pass torch.arange(T)")
    # A meta tensor (shape and device, no values) has nothing to check: the experiment's tests run the
    # model on the meta device to show that every tensor follows its inputs' device.
    has_values = positions.device.type != "meta"
    if has_values and positions.numel() and bool((positions < 0).any()):
        raise ValueError(f"positions must be non-negative (positions count from 0), got {int(positions.min())}")
    if isinstance(inv_freq, torch.Tensor):
        # Checked on the tensor itself, so a GPU-resident inv_freq is not copied to the host each call.
        if inv_freq.ndim != 1 or inv_freq.numel() == 0:
            raise ValueError(f"inv_freq must be a non-empty 1-D tensor of angular frequencies (one per pair), got shape {tuple(inv_freq.shape)}; build it with inverse_frequencies()")
        if inv_freq.device.type != "meta" and not bool((torch.isfinite(inv_freq) & (inv_freq > 0)).all()):
            raise ValueError("inv_freq must hold positive finite frequencies; build it with inverse_frequencies()")
        inv_t = inv_freq.detach().to(device=x.device, dtype=torch.float32)
    else:
        inv_t = torch.as_tensor(_inv_freq("inv_freq", inv_freq), dtype=torch.float32, device=x.device)
    rdim = _check_rotate_args(tuple(x.shape), positions, inv_t)
    angles = positions.to(device=x.device, dtype=torch.float32)[:, None] * inv_t[None, :]  # (T, d/2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    rot, rest = x[..., :rdim], x[..., rdim:]
    if convention == "interleaved":
        a, b = rot[..., 0::2], rot[..., 1::2]
        turned = torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)
    else:
        h = rdim // 2
        a, b = rot[..., :h], rot[..., h:]
        turned = torch.cat((a * cos - b * sin, a * sin + b * cos), dim=-1)
    return torch.cat((turned, rest), dim=-1)


# --- a vector scored against itself k positions later (lessons 4 and 6) ------------------------------


def _vector(name: str, q) -> np.ndarray:
    arr = np.asarray(q, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be one finite vector of shape (D,), got shape {arr.shape}; pass e.g. {name}=np.ones(16)")
    return arr


def pair_energies(q, n_pairs: int, convention: str = "interleaved") -> np.ndarray:
    """|q_i|² for pairs i = 0 … n_pairs − 1 of the vector q, a pair laid out as in ``rotate``."""
    arr = _vector("q", q)
    convention = _convention(convention)
    if isinstance(n_pairs, bool) or not isinstance(n_pairs, (numbers.Integral, np.integer)) or not 0 < 2 * n_pairs <= arr.size:
        raise ValueError(f"n_pairs must be a positive integer with 2·n_pairs ≤ {arr.size} (the length of q), got {n_pairs!r}")
    rdim = 2 * int(n_pairs)
    if convention == "interleaved":
        a, b = arr[0:rdim:2], arr[1:rdim:2]
    else:
        a, b = arr[: rdim // 2], arr[rdim // 2 : rdim]
    return a * a + b * b


def self_scores(q, distances, inv_freq, convention: str = "interleaved") -> np.ndarray:
    """(R_m q)ᵀ (R_{m+k} q) for each k in ``distances``: q scored against itself k positions later.

    Computed by turning q with ``rotate`` (m = 0; every m gives the same, since
    R_mᵀ R_{m+k} = R_k, RoFormer §3). ``self_scores_closed_form`` is the same number
    written out pair by pair.
    """
    arr = _vector("q", q)
    ks = _check.positions("distances", distances)
    q0 = rotate(arr[None, :], [0], inv_freq, convention)[0]
    qk = rotate(np.repeat(arr[None, :], len(ks), axis=0), ks, inv_freq, convention)
    return qk @ q0


def self_scores_closed_form(q, distances, inv_freq, convention: str = "interleaved") -> np.ndarray:
    """Σ_i |q_i|² cos(k ω_i) + |q_pass|² for each k: ``self_scores`` pair by pair.

    One pair x = (a, b) turned by φ is (a cos φ − b sin φ, a sin φ + b cos φ), so
    xᵀ R(φ) x = a² cos φ − ab sin φ + ab sin φ + b² cos φ = |x|² cos φ: the sines cancel
    and only the pair's length survives. Summed over pairs, each weighted by its own
    |q_i|²; dims past the rotary ones (partial RoPE) are not turned and add |q_pass|² at
    every distance. With |q_i| = 1 for every pair and no pass-through dims this is lesson 3's
    Σ_i cos(k ω_i); for any other q it is a different curve.
    """
    arr = _vector("q", q)
    ks = _check.positions("distances", distances).astype(np.float64)
    inv = _inv_freq("inv_freq", inv_freq)
    _check_rotate_args((1, arr.size), [0], inv)
    energy = pair_energies(arr, len(inv), convention)
    passed = float(np.sum(arr[2 * len(inv):] ** 2))
    return np.cos(ks[:, None] * inv[None, :]) @ energy + passed
