"""Stretching RoPE past its training length: PI, NTK-aware, dynamic NTK, YaRN, Llama 3, LongRoPE.

Every method rewrites the inverse frequencies ω_i = θ^(−2i/d) of ``posenc.rope``
and returns ``(inv_freq, attention_factor)`` exactly like the functions in
transformers' ``modeling_rope_utils.ROPE_INIT_FUNCTIONS``: cos and sin are
multiplied by attention_factor, so attention logits grow by its square.
``s`` is the scaling factor (new context / original context) and d the rotary dim.

    linear (PI)   ω_i' = ω_i / s                                   Chen et al. 2023
    NTK-aware     θ' = θ · s^(d/(d−2)),  ω_i' = θ'^(−2i/d)          bloc97; YaRN Eq. 16
    dynamic NTK   the same with s replaced by s·ℓ/L − (s−1)         bloc97 & emozilla
    YaRN          keep fast pairs, divide slow pairs by s, ramp between;
                  attention_factor 0.1·ln s + 1                     Peng et al. 2023
    llama3        keep λ < L/4, divide λ > L by s, blend between    Llama 3.1
    LongRoPE      ω_i' = ω_i / λ_i, searched λ_i (short/long lists);  Ding et al. 2024
                  attention_factor √(1 + ln s / ln L)               (Phi-3/3.5/4-mini)
    ABF           θ' chosen by hand (Code Llama 10⁴ → 10⁶), then     Xiong et al. 2023;
                  continued training at the longer length          Rozière et al. 2023

A models.yaml model's own scaling is dispatched through one registry, ``SCALINGS``
(rope_type → function), as transformers dispatches through ``ROPE_INIT_FUNCTIONS``;
``scaling_arguments`` is the one place a model's ``scaling`` dict is read, so
``for_model``, ``yarn_pairs_for_model`` and ``llama3_bands_for_model`` agree by construction.
Lesson 5 also quotes the per-pair views (``yarn_pairs``, ``llama3_bands``), the methods
side by side (``methods_for``, ``angle_overshoot``) and what a base change does
(``base_change``, ``pairs_completing_turn``, ``turn_fraction``, ``ntk_factor_for_base``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from . import _check
from .rope import inverse_frequencies, pairs_not_completing_turn, rotary_dim, wavelengths

YARN_BETA_FAST = 32.0  # YaRN paper: "α=1, β=32 for Llama" (β_fast in transformers' names)
YARN_BETA_SLOW = 1.0


def _factor(name: str, s) -> float:
    if isinstance(s, bool) or not isinstance(s, numbers.Real) or not np.isfinite(s) or s < 1:
        raise ValueError(f"{name} must be a finite number ≥ 1 (new context ÷ original context), got {s!r}; e.g. {name}=4.0 stretches 32,768 to 131,072")
    return float(s)


def _optional_positive(name: str, x):
    if x is None:
        return None
    return _check.positive(name, x)


# --- Position Interpolation ----------------------------------------------------------------------


def linear(head_dim: int, base: float, factor: float, rotary_fraction: float = 1.0) -> tuple[np.ndarray, float]:
    """Position Interpolation (Chen, Wong, Chen, Tian 2023, arXiv:2306.15595): ω_i' = ω_i / s.

    PI "linearly down-scales the input position indices" (abstract): position m
    is fed as m/s. Since RoPE only uses m·ω_i, dividing every ω_i by s is the
    same thing (transformers' ``_compute_linear_scaling_rope_parameters`` says so in
    a comment). attention_factor is 1.
    """
    s = _factor("factor", factor)
    return inverse_frequencies(head_dim, base, rotary_fraction) / s, 1.0


# --- Adjusted base frequency (ABF) -----------------------------------------------------------------


def abf(head_dim: int, base: float, new_base: float, rotary_fraction: float = 1.0) -> tuple[np.ndarray, float]:
    """Adjusted base frequency: ω_i' = θ'^(−2i/d) with a larger base θ' > θ, attention_factor 1.

    Named by Xiong et al. 2023 ("Effective Long-Context Scaling of Foundation
    Models", arXiv:2309.16039, §4.1: θ 10,000 → 500,000 for Llama 2 Long); Code
    Llama (Rozière et al. 2023, arXiv:2308.12950, §2.4) raised θ from 10,000 to
    1,000,000 to train at 16,384 tokens. Unlike NTK-aware scaling, which derives
    θ' from the factor s and is applied at inference, ABF picks θ' by hand and
    the model is trained further with it. Every pair slows down except pair 0
    (ω_0 = 1 whatever the base).
    """
    base = _check.base("base", base)
    new_base = _check.base("new_base", new_base)
    if new_base <= base:
        raise ValueError(f"new_base must be larger than base (ABF raises the base), got new_base={new_base}, base={base}")
    return inverse_frequencies(head_dim, new_base, rotary_fraction), 1.0


# --- NTK-aware and dynamic NTK -------------------------------------------------------------------


def ntk_aware_base(base: float, factor: float, dim: int) -> float:
    """θ' = θ · s^(d/(d−2)) (YaRN paper Eq. 16, derived in App. A.1 Eq. 23–24; bloc97's "NTK-aware").

    Chosen so the slowest pair is slowed by exactly s, as in PI,
    (θ')^((d−2)/d) = s · θ^((d−2)/d), while pair 0 (ω_0 = 1) is untouched:
    low frequencies interpolate, high frequencies extrapolate.
    Example: θ = 10,000, s = 4, d = 128 → θ' ≈ 40,890.
    """
    base = _check.base("base", base)
    s = _factor("factor", factor)
    dim = _check.even_dim("dim", dim)
    if dim < 4:
        raise ValueError(f"dim must be at least 4 for NTK-aware scaling (the exponent d/(d−2) is undefined at d=2), got {dim}")
    return base * s ** (dim / (dim - 2))


def ntk_aware(head_dim: int, base: float, factor: float, rotary_fraction: float = 1.0) -> tuple[np.ndarray, float]:
    """Static NTK-aware scaling: ω_i' = θ'^(−2i/d) with θ' from ``ntk_aware_base`` (YaRN paper Eq. 16).

    As in jquesnelle/yarn ``LlamaNTKScaledRotaryEmbedding`` (base = base · alpha^(dim/(dim−2))).
    transformers has no static variant; its "dynamic" type (``dynamic_ntk``) gives the same numbers at
    ℓ = L·(2 − 1/s), where its effective factor s·ℓ/L − (s − 1) equals s (at ℓ = s·L it is s² − s + 1).
    """
    dim = rotary_dim(head_dim, rotary_fraction)
    return inverse_frequencies(head_dim, ntk_aware_base(base, factor, dim), rotary_fraction), 1.0


def dynamic_ntk(
    head_dim: int,
    base: float,
    factor: float,
    max_position_embeddings: int,
    seq_len: int | None = None,
    rotary_fraction: float = 1.0,
) -> tuple[np.ndarray, float]:
    """Dynamic NTK (bloc97 and emozilla; "Dynamic NTK" in the YaRN paper; transformers ``_compute_dynamic_ntk_parameters``).

    θ' = θ · (s·ℓ/L − (s − 1))^(d/(d−2)),  ℓ = max(seq_len, L),  L = max_position_embeddings.
    Up to L nothing changes (θ' = θ); past it the base grows with the current
    length: at length ℓ this is static NTK-aware with factor s·ℓ/L − (s − 1)
    (= ℓ/L when s = 1). seq_len=None means L.
    """
    base = _check.base("base", base)
    s = _factor("factor", factor)
    L = _check.tokens("max_position_embeddings", max_position_embeddings)
    ell = L if seq_len is None else max(_check.tokens("seq_len", seq_len), L)
    dim = rotary_dim(head_dim, rotary_fraction)
    new_base = base * (s * ell / L - (s - 1)) ** (dim / (dim - 2))
    return inverse_frequencies(head_dim, new_base, rotary_fraction), 1.0


# --- YaRN ------------------------------------------------------------------------------------------


def yarn_mscale(factor: float, mscale: float = 1.0) -> float:
    """0.1 · mscale · ln s + 1 (1 when s ≤ 1): YaRN Eq. 22's √(1/t) = 0.1 ln s + 1 with DeepSeek's multiplier.

    Multiplying cos and sin by this scales every attention logit by its square,
    i.e. divides by the temperature t (YaRN: s = 8 → 1.208).
    """
    s = _factor("factor", factor)
    m = _check.positive("mscale", mscale)
    return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0


def yarn_attention_factor(factor: float, mscale: float | None = None, mscale_all_dim: float | None = None) -> float:
    """The attention_factor transformers' ``_compute_yarn_parameters`` returns when none is given.

    With both ``mscale`` and ``mscale_all_dim`` (DeepSeek-V3's config):
    yarn_mscale(s, mscale) / yarn_mscale(s, mscale_all_dim), which is 1.0 for
    DeepSeek-V3's 1.0 / 1.0 (its own modelling code instead multiplies the softmax
    scale by yarn_mscale(s, mscale_all_dim)²). Otherwise YaRN Eq. 22: 0.1·ln s + 1.
    """
    mscale = _optional_positive("mscale", mscale)
    mscale_all_dim = _optional_positive("mscale_all_dim", mscale_all_dim)
    if mscale is not None and mscale_all_dim is not None:
        return yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim)
    return yarn_mscale(factor)


def yarn_correction_dim(rotations: float, dim: int, base: float, original_context: int) -> float:
    """The (fractional) pair index whose pair turns ``rotations`` times in the original context.

    Solving L / λ_j = r for j with λ_j = 2π θ^(2j/d):  j = d · ln(L / (2π r)) / (2 ln θ)
    (YaRN's NTK-by-parts boundaries; transformers ``find_correction_dim``).
    """
    r = _check.positive("rotations", rotations)
    dim = _check.even_dim("dim", dim)
    base = _check.base("base", base)
    L = _check.tokens("original_context", original_context)
    return dim * math.log(L / (r * 2 * math.pi)) / (2 * math.log(base))


def yarn_correction_range(
    dim: int,
    base: float,
    original_context: int,
    beta_fast: float = YARN_BETA_FAST,
    beta_slow: float = YARN_BETA_SLOW,
    truncate: bool = True,
) -> tuple[float, float]:
    """(low, high): pairs below ``low`` turn ≥ β_fast times in the original context and keep ω_i;
    pairs above ``high`` turn < β_slow times and get ω_i / s; the ramp runs between.

    low = correction_dim(β_fast), high = correction_dim(β_slow); with ``truncate``
    (transformers' default) low is floored and high ceiled; gpt-oss sets
    truncate=False. Then low is raised to 0 and high lowered to dim − 1, as
    transformers' ``find_correction_range`` does (dim − 1, not d/2 − 1: the
    reference's bound, kept so the numbers match).
    Qwen3-8B (d 128, θ 1e6, L 32,768, s 4): (23, 40).
    """
    fast = _check.positive("beta_fast", beta_fast)
    slow = _check.positive("beta_slow", beta_slow)
    if fast < slow:
        raise ValueError(f"beta_fast must be ≥ beta_slow (fast pairs turn more often), got beta_fast={fast}, beta_slow={slow}; the paper uses 32 and 1")
    if not isinstance(truncate, (bool, np.bool_)):
        raise ValueError(f"truncate must be True or False, got {truncate!r}")
    low = yarn_correction_dim(fast, dim, base, original_context)
    high = yarn_correction_dim(slow, dim, base, original_context)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def yarn_ramp(low: float, high: float, n_pairs: int) -> np.ndarray:
    """Interpolation weight per pair j: clamp((j − low)/(high − low), 0, 1).

    0 keeps ω_j (extrapolate), 1 uses ω_j / s (interpolate). The paper's γ(r) is
    the opposite weight, 1 − ramp, and is written as a function of r = L/λ; the
    reference code ramps linearly over the pair index between the correction
    dims. A zero-width range gets high += 0.001 as in transformers.
    """
    _check.count("n_pairs", n_pairs)
    if high == low:
        high = high + 0.001  # avoid dividing by zero when beta_fast and beta_slow meet
    j = np.arange(n_pairs, dtype=np.float64)
    return np.clip((j - low) / (high - low), 0.0, 1.0)


def yarn_paper_ramp(rotations, alpha: float = YARN_BETA_SLOW, beta: float = YARN_BETA_FAST) -> np.ndarray:
    """The YaRN paper's NTK-by-parts weight on ω/s, written over r = L/λ: 1 − γ(r).

    Peng et al. 2023 (arXiv:2309.00071) §3.2 define γ(r) = 0 for r < α, 1 for r > β,
    (r − α)/(β − α) between, and h(θ_d) = (1 − γ(r))·θ_d/s + γ(r)·θ_d, with α = 1,
    β = 32 for Llama. 1 − γ(r) has the meaning of ``yarn_ramp`` (0 keeps ω, 1 uses ω/s);
    the variable differs: the paper is linear in r, the reference code (jquesnelle/yarn,
    transformers' ``_compute_yarn_parameters``, DeepSeek-V3's ``precompute_freqs_cis``)
    is linear in the pair index between the floored/ceiled correction dims, and the
    index is linear in ln r. Both give 0 for r ≥ β and 1 for r ≤ α.
    """
    r = np.asarray(rotations)  # its own dtype first, so a string is refused with this message, not numpy's
    if r.dtype.kind not in "fiu" or r.ndim > 1 or r.size == 0 or not np.all(np.isfinite(r)) or np.any(r <= 0):
        raise ValueError(f"rotations must be a non-empty 1-D array of positive finite turn counts r = L/λ, got {rotations!r}; "
                         f"e.g. scaling.yarn_pairs(...).rotations")
    a = _check.positive("alpha", alpha)
    b = _check.positive("beta", beta)
    if b <= a:
        raise ValueError(f"beta must exceed alpha (the ramp runs from α to β turns), got alpha={a}, beta={b}; "
                         f"the paper uses alpha=1, beta=32")
    gamma = np.clip((np.atleast_1d(r).astype(np.float64) - a) / (b - a), 0.0, 1.0)
    return 1.0 - gamma


def yarn(
    head_dim: int,
    base: float,
    factor: float,
    original_context: int,
    beta_fast: float = YARN_BETA_FAST,
    beta_slow: float = YARN_BETA_SLOW,
    truncate: bool = True,
    mscale: float | None = None,
    mscale_all_dim: float | None = None,
    attention_factor: float | None = None,
    rotary_fraction: float = 1.0,
) -> tuple[np.ndarray, float]:
    """YaRN (Peng, Quesnelle, Fan, Shippole 2023, arXiv:2309.00071): NTK-by-parts plus attention temperature.

    ω_j' = (1 − ramp_j) · ω_j + ramp_j · ω_j / s with ramp from ``yarn_ramp`` over
    ``yarn_correction_range``: pairs that turn many times in the original context
    keep their frequency, pairs that never complete a turn are interpolated as
    in PI. attention_factor defaults to ``yarn_attention_factor`` (Eq. 22).
    Matches transformers' ``_compute_yarn_parameters``. The pair-by-pair table behind it is ``yarn_pairs``.
    """
    table = yarn_pairs(head_dim, base, factor, original_context, beta_fast, beta_slow, truncate,
                       mscale, mscale_all_dim, attention_factor, rotary_fraction)
    return table.inv_freq, table.attention_factor


@dataclass(frozen=True)
class YarnPairs:
    """YaRN pair by pair, for lesson 5's table and figures (arrays indexed by pair j)."""

    pair: np.ndarray  # j = 0 … d/2 − 1
    wavelength: np.ndarray  # λ_j = 2π/ω_j before scaling, in tokens
    rotations: np.ndarray  # r_j = L/λ_j: turns within the original context
    ramp: np.ndarray  # 0 = ω_j kept, 1 = ω_j/s (the reference code's ramp, over j)
    inv_freq: np.ndarray  # ω_j' after YaRN
    low: float  # the ramp's ends as used (rounded outwards unless truncate=False)
    high: float
    attention_factor: float
    factor: float = 1.0  # s
    beta_fast: float = YARN_BETA_FAST  # the paper's β
    beta_slow: float = YARN_BETA_SLOW  # the paper's α
    low_exact: float = float("nan")  # correction_dim(β_fast) before rounding and clamping
    high_exact: float = float("nan")  # correction_dim(β_slow) before rounding and clamping

    @property
    def kept(self) -> int:
        """Pairs left exactly unchanged (ramp 0)."""
        return int(np.sum(self.ramp == 0))

    @property
    def interpolated(self) -> int:
        """Pairs divided by the full factor (ramp 1)."""
        return int(np.sum(self.ramp == 1))

    @property
    def blended(self) -> int:
        return len(self.pair) - self.kept - self.interpolated

    @property
    def paper_ramp(self) -> np.ndarray:
        """The paper's weight 1 − γ(r_j) with α = beta_slow, β = beta_fast (``yarn_paper_ramp``)."""
        return yarn_paper_ramp(self.rotations, self.beta_slow, self.beta_fast)

    def largest_ramp_gap(self) -> int:
        """The pair where the paper's weight and the code's ramp differ most (the first, on a tie)."""
        return int(np.argmax(np.abs(self.paper_ramp - self.ramp)))


def yarn_pairs(
    head_dim: int,
    base: float,
    factor: float,
    original_context: int,
    beta_fast: float = YARN_BETA_FAST,
    beta_slow: float = YARN_BETA_SLOW,
    truncate: bool = True,
    mscale: float | None = None,
    mscale_all_dim: float | None = None,
    attention_factor: float | None = None,
    rotary_fraction: float = 1.0,
) -> YarnPairs:
    """The per-pair YaRN table: pair, wavelength, r = L/λ, ramp and the final frequency (``yarn`` returns its
    frequencies and attention factor): computed once, here."""
    s = _factor("factor", factor)
    dim = rotary_dim(head_dim, rotary_fraction)
    omega = inverse_frequencies(head_dim, base, rotary_fraction)
    low, high = yarn_correction_range(dim, base, original_context, beta_fast, beta_slow, truncate)
    ramp = yarn_ramp(low, high, dim // 2)
    inv_freq = omega * (1.0 - ramp) + (omega / s) * ramp
    if attention_factor is None:
        attention_factor = yarn_attention_factor(s, mscale, mscale_all_dim)
    else:
        attention_factor = _check.positive("attention_factor", attention_factor)
    lam = wavelengths(omega)
    return YarnPairs(
        pair=np.arange(dim // 2),
        wavelength=lam,
        rotations=original_context / lam,
        ramp=ramp,
        inv_freq=inv_freq,
        low=low,
        high=high,
        attention_factor=float(attention_factor),
        factor=float(factor),
        beta_fast=float(beta_fast),
        beta_slow=float(beta_slow),
        low_exact=yarn_correction_dim(beta_fast, dim, base, original_context),
        high_exact=yarn_correction_dim(beta_slow, dim, base, original_context),
    )


# --- Llama 3 (3.1) -------------------------------------------------------------------------------


def _llama3_args(factor, low_freq_factor, high_freq_factor, original_context):
    s = _factor("factor", factor)
    lf = _check.positive("low_freq_factor", low_freq_factor)
    hf = _check.positive("high_freq_factor", high_freq_factor)
    if hf <= lf:
        raise ValueError(f"high_freq_factor must exceed low_freq_factor, got high_freq_factor={hf}, low_freq_factor={lf}; Llama 3.1 uses 4 and 1")
    L = _check.tokens("original_context", original_context)
    return s, lf, hf, L


def llama3(
    head_dim: int,
    base: float,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_context: int,
    rotary_fraction: float = 1.0,
) -> tuple[np.ndarray, float]:
    """Llama 3.1's frequency rescaling (llama-models ``apply_scaling``; transformers ``_compute_llama3_parameters``).

    With λ_i = 2π/ω_i, λ_hi = L/high_freq_factor, λ_lo = L/low_freq_factor:
    λ_i < λ_hi keeps ω_i; λ_i > λ_lo uses ω_i / s; in between
    smooth = (L/λ_i − lf)/(hf − lf) and ω_i' = (1 − smooth)·ω_i/s + smooth·ω_i.
    Like YaRN by parts, but the band is set by wavelength relative to L.
    attention_factor is 1.
    """
    s, lf, hf, L = _llama3_args(factor, low_freq_factor, high_freq_factor, original_context)
    omega = inverse_frequencies(head_dim, base, rotary_fraction)
    lam = wavelengths(omega)
    smooth = (L / lam - lf) / (hf - lf)
    blended = (1 - smooth) * omega / s + smooth * omega
    out = np.where(lam > L / lf, omega / s, omega)
    medium = ~(lam < L / hf) & ~(lam > L / lf)
    return np.where(medium, blended, out), 1.0


LLAMA3_BANDS = ("kept", "smoothed", "scaled")  # λ < L/hf · between · λ > L/lf


def llama3_bands(
    head_dim: int,
    base: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_context: int,
    rotary_fraction: float = 1.0,
) -> np.ndarray:
    """Which of Llama 3's three bands each pair falls in: "kept" (λ < L/hf), "scaled" (λ > L/lf) or "smoothed".

    The same comparisons as ``llama3`` (and llama-models' ``apply_scaling``): a wavelength
    exactly at L/hf or at L/lf is smoothed, whose weight there is 1 or 0.
    """
    _, lf, hf, L = _llama3_args(1.0, low_freq_factor, high_freq_factor, original_context)
    lam = wavelengths(inverse_frequencies(head_dim, base, rotary_fraction))
    return np.where(lam < L / hf, "kept", np.where(lam > L / lf, "scaled", "smoothed"))


def llama3_split(
    head_dim: int,
    base: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_context: int,
    rotary_fraction: float = 1.0,
) -> dict[str, int]:
    """How many pairs Llama 3 scaling leaves unchanged (λ < L/hf), divides by s (λ > L/lf) or smooths.

    Llama 3.1 8B (d 128, θ 500,000, L 8,192, lf 1, hf 4): 29 / 29 / 6.
    """
    bands = llama3_bands(head_dim, base, low_freq_factor, high_freq_factor, original_context, rotary_fraction)
    return {"unchanged": int(np.sum(bands == "kept")), "scaled": int(np.sum(bands == "scaled")),
            "smoothed": int(np.sum(bands == "smoothed"))}


# --- LongRoPE (Phi-3, Phi-3.5, Phi-4-mini) --------------------------------------------------------


def longrope_attention_factor(factor: float, original_context: int) -> float:
    """√(1 + ln s / ln L) (1 when s ≤ 1): LongRoPE's default factor on cos and sin.

    microsoft/LongRoPE ``rope/longrope.py`` calls it the "su" magnitude-scaling policy
    (``_calc_mscale_su``, with s = max_position_embeddings / original_max_position_embeddings);
    transformers' ``_compute_longrope_parameters`` uses the same formula when the config gives
    no ``attention_factor``. Like YaRN's, it multiplies cos and sin, so logits grow by its square.
    Phi-3.5-mini (s = 131,072 / 4,096 = 32, L = 4,096): √(1 + 5/12) ≈ 1.1902.
    """
    s = _factor("factor", factor)
    L = _check.tokens("original_context", original_context)
    if L < 2:
        raise ValueError(f"original_context must be at least 2 (its logarithm divides), got {L}")
    return 1.0 if s <= 1 else math.sqrt(1 + math.log(s) / math.log(L))


def _rescale_factors(name: str, values, n_pairs: int) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a list of positive numbers, one per rotary pair, got {values!r}") from None
    if arr.ndim != 1 or arr.size != n_pairs:
        raise ValueError(f"{name} must hold one factor per rotary pair ({n_pairs}), got shape {arr.shape}; "
                         f"Phi-3.5-mini's lists have 48 entries for its 96 rotary dims")
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must hold positive finite factors, got {arr[~(np.isfinite(arr) & (arr > 0))][:3]}")
    return arr


def longrope(
    head_dim: int,
    base: float,
    short_factor,
    long_factor,
    original_context: int,
    max_position_embeddings: int | None = None,
    factor: float | None = None,
    seq_len: int | None = None,
    attention_factor: float | None = None,
    rotary_fraction: float = 1.0,
) -> tuple[np.ndarray, float]:
    """LongRoPE (Ding et al. 2024, arXiv:2402.13753): each pair's frequency divided by its own searched factor.

    ω_i' = ω_i / λ_i = 1 / (λ_i · θ^(2i/d)), i = 0 … d/2 − 1: a per-pair Position Interpolation
    whose rescale factors λ_i were found by search (the paper's first "non-uniformity": different
    RoPE dimensions want different factors). Released configs (Phi-3/3.5/4-mini) carry two lists:
    ``long_factor`` is used when the sequence is longer than the original context L
    (``seq_len > original_context``), ``short_factor`` otherwise, including ``seq_len=None``
    (what a model builds at load time), exactly as transformers' ``_compute_longrope_parameters``
    and its ``longrope_frequency_update`` switch. The paper's second non-uniformity (keeping the
    first tokens' positions unscaled, microsoft/LongRoPE's ``start_token_idx``) is not in these configs.

    The attention factor does not depend on seq_len: when not given, it is
    ``longrope_attention_factor(s, L)`` with s = ``factor``, else max_position_embeddings ÷ L
    (Phi-3's configs give no factor; transformers then takes this ratio).
    """
    dim = rotary_dim(head_dim, rotary_fraction)
    L = _check.tokens("original_context", original_context)
    short = _rescale_factors("short_factor", short_factor, dim // 2)
    long_ = _rescale_factors("long_factor", long_factor, dim // 2)
    if factor is None:
        if max_position_embeddings is None:
            raise ValueError("factor or max_position_embeddings must be given (LongRoPE's s = max_position_embeddings ÷ "
                             "original_context when the config has no factor); Phi-3.5-mini: max_position_embeddings=131072")
        factor = _check.tokens("max_position_embeddings", max_position_embeddings) / L
    s = _factor("factor", factor)
    if attention_factor is None:
        attention_factor = longrope_attention_factor(s, L)
    else:
        attention_factor = _check.positive("attention_factor", attention_factor)
    use_long = seq_len is not None and _check.tokens("seq_len", seq_len) > L
    ext = long_ if use_long else short
    return inverse_frequencies(head_dim, base, rotary_fraction) / ext, float(attention_factor)


# --- a model's frequencies: one registry, as transformers' ROPE_INIT_FUNCTIONS ---------------------

# rope_type → the function computing (inv_freq, attention_factor); ``scaling_arguments`` turns a
# models.yaml entry into that function's keyword arguments.
SCALINGS = {
    "linear": linear,
    "dynamic": dynamic_ntk,
    "yarn": yarn,
    "llama3": llama3,
    "longrope": longrope,
}


def _rope_model(cfg):
    if getattr(cfg, "position", None) != "rope":
        raise ValueError(f"expected a RoPE model from models.yaml, got {getattr(cfg, 'key', cfg)!r}; e.g. configs.load('qwen3_8b')")
    return cfg


def scaling_arguments(cfg) -> tuple[str, dict]:
    """(rope_type, keyword arguments for ``SCALINGS[rope_type]``) of a models.yaml RoPE model with scaling.

    The one place a model's ``scaling`` dict is read: missing YaRN betas take the
    paper's 32 and 1 (as transformers does), ``truncate`` defaults to True, dynamic
    NTK's L is ``max_position_embeddings`` (else the context); LongRoPE's s, when the dict has no
    ``factor``, is ``max_position_embeddings`` ÷ original context (Phi-3's configs).
    """
    cfg = _rope_model(cfg)
    sc = cfg.get("scaling")
    if sc is None:
        raise ValueError(f"model {cfg.key!r} has no scaling in models.yaml; pick one that does, e.g. 'qwen3_8b' or 'llama31_8b'")
    kind = sc["rope_type"]
    common = {"head_dim": cfg["head_dim"], "base": cfg["rope_theta"], "rotary_fraction": cfg.get("rotary_fraction", 1.0)}
    if kind == "linear":
        return kind, {**common, "factor": sc["factor"]}
    if kind == "dynamic":
        return kind, {**common, "factor": sc["factor"],
                      "max_position_embeddings": cfg.get("max_position_embeddings", cfg["context"])}
    if kind == "yarn":
        return kind, {**common, "factor": sc["factor"], "original_context": sc["original_max_position_embeddings"],
                      "beta_fast": sc.get("beta_fast") or YARN_BETA_FAST, "beta_slow": sc.get("beta_slow") or YARN_BETA_SLOW,
                      "truncate": sc.get("truncate", True), "mscale": sc.get("mscale"),
                      "mscale_all_dim": sc.get("mscale_all_dim"), "attention_factor": sc.get("attention_factor")}
    if kind == "llama3":
        return kind, {**common, "factor": sc["factor"], "low_freq_factor": sc["low_freq_factor"],
                      "high_freq_factor": sc["high_freq_factor"],
                      "original_context": sc["original_max_position_embeddings"]}
    if kind == "longrope":
        return kind, {**common, "short_factor": sc["short_factor"], "long_factor": sc["long_factor"],
                      "original_context": sc["original_max_position_embeddings"],
                      "max_position_embeddings": cfg.get("max_position_embeddings"), "factor": sc.get("factor"),
                      "attention_factor": sc.get("attention_factor")}
    raise ValueError(f"model {cfg.key!r}: scaling rope_type {kind!r} is not implemented; use one of {', '.join(SCALINGS)}")


def for_model(cfg, layer: str = "global") -> tuple[np.ndarray, float]:
    """(inv_freq, attention_factor) of a models.yaml RoPE model, scaling included when it has one.

    Dispatches through ``SCALINGS`` with ``scaling_arguments``. ``layer="local"`` gives
    the sliding-window layers' unscaled frequencies for models with a separate local
    base (Gemma 3); its scaling is global-only. Opt-in scalings (Qwen's YaRN,
    ``scaling_opt_in``) are applied: this is the long-context setting the model's docs describe.
    """
    if getattr(cfg, "position", None) != "rope":
        raise ValueError(f"for_model needs a RoPE model from models.yaml, got {getattr(cfg, 'key', cfg)!r}; e.g. configs.load('qwen3_8b')")
    if layer not in ("global", "local"):
        raise ValueError(f"layer must be 'global' or 'local', got {layer!r}")
    head_dim, frac = cfg["head_dim"], cfg.get("rotary_fraction", 1.0)
    if layer == "local":
        if cfg.get("local_rope_theta") is None:
            raise ValueError(f"model {cfg.key!r} has no local_rope_theta; layer='local' is for models like gemma3_27b")
        return inverse_frequencies(head_dim, cfg["local_rope_theta"], frac), 1.0
    if cfg.get("scaling") is None:
        return inverse_frequencies(head_dim, cfg["rope_theta"], frac), 1.0
    kind, kwargs = scaling_arguments(cfg)
    return SCALINGS[kind](**kwargs)


def _arguments_of(cfg, kind: str) -> dict:
    got, kwargs = scaling_arguments(cfg)
    if got != kind:
        raise ValueError(f"model {cfg.key!r} scales with {got!r}, not {kind!r}; pick a model whose scaling is {kind!r}")
    return kwargs


def yarn_pairs_for_model(cfg) -> YarnPairs:
    """``yarn_pairs`` with a YaRN model's own settings (betas, truncate, mscale), exactly as ``for_model`` uses them."""
    return yarn_pairs(**_arguments_of(cfg, "yarn"))


def llama3_bands_for_model(cfg) -> np.ndarray:
    """``llama3_bands`` with a Llama-3-scaled model's own settings."""
    kwargs = _arguments_of(cfg, "llama3")
    del kwargs["factor"]  # the bands depend on the wavelengths only
    return llama3_bands(**kwargs)


# --- comparing the inference-time methods on one model ------------------------------------------------

# The methods lesson 5 compares, in teaching order: nothing, PI, NTK-aware, YaRN.
COMPARED_METHODS = ("none", "linear", "ntk", "yarn")


def methods_for(cfg, factor: float | None = None) -> dict[str, np.ndarray]:
    """A RoPE model's per-pair frequencies under each of ``COMPARED_METHODS``, at one stretch s.

    s is the model's own scaling factor unless ``factor`` is given. YaRN uses the model's
    own YaRN settings (``for_model``) when it has them and s is its own factor;
    otherwise the paper's defaults with L = the model's original context.
    """
    cfg = _rope_model(cfg)
    sc = cfg.get("scaling") or {}
    s = factor if factor is not None else sc.get("factor")
    if s is None:
        raise ValueError(f"model {cfg.key!r} has no scaling factor in models.yaml; pass factor=, e.g. factor=4.0")
    d, theta, frac = cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0)
    if sc.get("rope_type") == "yarn" and factor in (None, sc.get("factor")):
        yarn_freq = for_model(cfg)[0]
    else:
        L = sc.get("original_max_position_embeddings", cfg["context"])
        yarn_freq = yarn(d, theta, s, L, rotary_fraction=frac)[0]
    return {
        "none": inverse_frequencies(d, theta, frac),
        "linear": linear(d, theta, s, frac)[0],
        "ntk": ntk_aware(d, theta, s, frac)[0],
        "yarn": yarn_freq,
    }


def angle_overshoot(omega, scaled, original_context: int, factor: float) -> np.ndarray:
    """Per pair: the largest angle reached in s·L tokens after scaling ÷ the largest reached in L tokens before.

    The ratio is s·ω'_j/ω_j (positions run up to s·L and L). It only matters for a pair
    that never completes a turn within L (λ_j > L): such a pair only ever saw angles up
    to L·ω_j in training, so a ratio above 1 means it now points where it never pointed
    (the YaRN paper's "out-of-bound" values of NTK-aware scaling, §3.1). Pairs that do
    complete a turn within L have seen every angle; they get NaN.
    """
    lam, lam_scaled = wavelengths(omega), wavelengths(scaled)  # both validated
    if lam.shape != lam_scaled.shape:
        raise ValueError(f"omega and scaled must have one frequency per pair each, got {lam.shape} and {lam_scaled.shape}; "
                         f"pass the frequencies before and after scaling of the same model")
    L = _check.tokens("original_context", original_context)
    s = _factor("factor", factor)
    ratio = s * np.asarray(scaled, dtype=np.float64) / np.asarray(omega, dtype=np.float64)
    return np.where(lam > L, ratio, np.nan)


def pairs_beyond_trained_angles(omega, scaled, original_context: int, factor: float) -> int:
    """How many never-turning pairs reach angles past what training showed them (overshoot > 1, float slack 1e-9)."""
    over = angle_overshoot(omega, scaled, original_context, factor)
    return int(np.sum(np.nan_to_num(over, nan=0.0) > 1.0 + 1e-9))


# --- what raising the base does (ABF), pair by pair ----------------------------------------------


def pairs_completing_turn(inv_freq, length: int) -> int:
    """How many pairs turn at least once within ``length`` tokens: #{i : λ_i ≤ L}, λ_i = 2π/ω_i.

    The complement of ``rope.pairs_not_completing_turn`` (same definition, facts.md §2):
    a pair with λ_i ≤ L has produced every angle of its circle inside the training
    length, so a farther position gives it no angle it has not seen.
    """
    return len(wavelengths(inv_freq)) - pairs_not_completing_turn(inv_freq, length)


def turn_fraction(inv_freq, position: int) -> np.ndarray:
    """For each pair, the share of one full turn its angle sweeps from position 0 to ``position``.

    f_i(p) = min(p · ω_i / 2π, 1) = min(p / λ_i, 1). Positions 0 … p give pair i the
    angles 0 … p·ω_i; when that reaches 2π the pair has covered its whole circle
    (f = 1). A pair with f_i(L) < 1 at the training length L has only seen the arc
    [0, 2π·f_i(L)); a position p > L gives it angles beyond that arc, never seen in
    training. Raising the base lowers every ω_i (except ω_0 = 1), so each f_i(p) at a
    given p shrinks by the factor (θ/θ')^(2i/d).
    """
    p = _check.position("position", position)
    lam = wavelengths(inv_freq)
    return np.minimum(p / lam, 1.0)


@dataclass(frozen=True)
class BaseChange:
    """One base change (ABF) at a glance: the pairs before (θ at L) and after (θ' at L').

    ``turned_*``: pairs completing a full turn within the length (``pairs_completing_turn``);
    ``slowest_fraction_*``: the share of a turn the slowest pair sweeps by the end of the
    length (``turn_fraction`` of the last pair); ``mean_fraction_*``: the same share
    averaged over all pairs (1 would mean every pair saw its whole circle).
    """

    rotary_dim: int
    base: float
    new_base: float
    length: int
    new_length: int
    turned_before: int
    turned_after: int
    slowest_fraction_before: float
    slowest_fraction_after: float
    mean_fraction_before: float
    mean_fraction_after: float

    @property
    def pairs(self) -> int:
        return self.rotary_dim // 2


def base_change(head_dim: int, base: float, new_base: float, length: int, new_length: int | None = None,
                rotary_fraction: float = 1.0) -> BaseChange:
    """Compare RoPE at (θ, L) with RoPE at (θ', L'), the ABF recipe of Xiong et al. 2023 §4.1.

    Code Llama (Rozière et al. 2023 §2.4): θ 10,000 at 4,096 → θ' 1,000,000 at 16,384.
    Qwen3 (technical report §3.1): θ 10,000 → 1,000,000 for the 32,768-token stage.
    ``new_length`` defaults to ``length`` (same window, only the base changes).
    Unlike ``abf``, θ' may be any base > 1 here, so a lowered base can be compared too.
    """
    base = _check.base("base", base)
    new_base = _check.base("new_base", new_base)
    L = _check.tokens("length", length)
    L2 = L if new_length is None else _check.tokens("new_length", new_length)
    before = inverse_frequencies(head_dim, base, rotary_fraction)
    after = inverse_frequencies(head_dim, new_base, rotary_fraction)
    fb, fa = turn_fraction(before, L), turn_fraction(after, L2)
    return BaseChange(
        rotary_dim=rotary_dim(head_dim, rotary_fraction),
        base=base, new_base=new_base, length=L, new_length=L2,
        turned_before=pairs_completing_turn(before, L), turned_after=pairs_completing_turn(after, L2),
        slowest_fraction_before=float(fb[-1]), slowest_fraction_after=float(fa[-1]),
        mean_fraction_before=float(fb.mean()), mean_fraction_after=float(fa.mean()),
    )


def ntk_factor_for_base(base: float, new_base: float, dim: int) -> float:
    """The NTK-aware factor s whose base θ·s^(d/(d−2)) equals ``new_base``: s = (θ'/θ)^((d−2)/d).

    ABF and NTK-aware scaling both replace θ by a larger θ' and keep ω_i = θ'^(−2i/d).
    NTK-aware (YaRN paper Eq. 16) derives θ' from the context factor s and is applied at
    inference without training; ABF (Xiong et al. 2023 §4.1) picks θ' by hand and trains
    at the longer length with it. This function gives the s at which the two produce the
    same frequencies, e.g. Code Llama's 10,000 → 1,000,000 at d = 128 is NTK-aware with
    s = 100^(126/128) ≈ 93.06. With that s the slowest pair is slowed by exactly s, as PI
    would slow it (``ntk_aware_base``).
    """
    base = _check.base("base", base)
    new_base = _check.base("new_base", new_base)
    d = _check.even_dim("dim", dim)
    if d < 4:
        raise ValueError(f"dim must be at least 4 (NTK-aware's exponent d/(d−2) is undefined at d=2), got {d}")
    if new_base < base:
        raise ValueError(f"new_base must be at least base (an NTK-aware factor s ≥ 1 only raises the base), "
                         f"got new_base={new_base}, base={base}")
    return (new_base / base) ** ((d - 2) / d)
