"""posenc.scaling on small cases worked out by hand: every field, default and edge a caller relies on.

Each expected value is written from the formula (ω_i = θ^(−2i/d), λ_i = 2π/ω_i, the papers'
equations) with ``math``, never from posenc itself. Cases are chosen so that a swapped,
dropped or defaulted argument changes the answer: three or more pairs (first, last and
second-to-last differ), a rotary fraction below 1, lengths that differ before and after.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import configs, scaling


def omega(i: int, d: int, theta: float) -> float:
    return theta ** (-2 * i / d)


def fraction(p: int, i: int, d: int, theta: float) -> float:
    """Share of a full turn pair i sweeps by position p: min(p·ω_i / 2π, 1)."""
    return min(p * omega(i, d, theta) / (2 * math.pi), 1.0)


# --- ABF: base_change and ntk_factor_for_base ------------------------------------------------------------


def test_base_change_every_field_with_a_partial_head_and_a_longer_window():
    # head 12, rotary fraction 0.5 → d = 6, three pairs; θ 100 at L = 40 → θ' 10,000 at L' = 900.
    # λ before: 2π, 2π·100^(1/3) ≈ 29.2, 2π·100^(2/3) ≈ 135.4 → two pairs turn within 40;
    # λ after: 2π, 2π·10⁴^(1/3) ≈ 135.4, 2π·10⁴^(2/3) ≈ 2,916 → two pairs turn within 900.
    ch = scaling.base_change(12, 100.0, 10_000.0, 40, 900, rotary_fraction=0.5)
    d = 6
    before = [fraction(40, i, d, 100.0) for i in range(3)]
    after = [fraction(900, i, d, 10_000.0) for i in range(3)]
    assert (ch.rotary_dim, ch.pairs) == (6, 3)
    assert (ch.base, ch.new_base, ch.length, ch.new_length) == (100.0, 10_000.0, 40, 900)
    assert (ch.turned_before, ch.turned_after) == (2, 2)
    assert ch.slowest_fraction_before == pytest.approx(before[2], rel=1e-14)
    assert ch.slowest_fraction_after == pytest.approx(after[2], rel=1e-14)
    assert 0 < before[2] < 1 and 0 < after[2] < 1 and before[1] == 1.0  # the last pair is not the middle one
    assert ch.mean_fraction_before == pytest.approx(sum(before) / 3, rel=1e-14)
    assert ch.mean_fraction_after == pytest.approx(sum(after) / 3, rel=1e-14)


def test_base_change_keeps_the_window_by_default_and_uses_the_whole_head():
    # head 6 (fraction 1 by default), θ 100 → 10,000, L = L' = 40: only pair 0 (λ = 2π) turns afterwards.
    ch = scaling.base_change(6, 100.0, 10_000.0, 40)
    assert (ch.rotary_dim, ch.length, ch.new_length) == (6, 40, 40)
    assert (ch.turned_before, ch.turned_after) == (2, 1)
    after = [fraction(40, i, 6, 10_000.0) for i in range(3)]
    assert ch.slowest_fraction_after == pytest.approx(after[2], rel=1e-14)
    assert ch.mean_fraction_after == pytest.approx(sum(after) / 3, rel=1e-14)


def test_ntk_factor_for_an_unchanged_base_is_one():
    # new_base may equal base ("at least base"): θ' = θ·s^(d/(d−2)) = θ means s = 1
    assert scaling.ntk_factor_for_base(10_000.0, 10_000.0, 128) == 1.0


# --- methods side by side ------------------------------------------------------------------------------------


def yarn_by_hand(d: int, theta: float, s: float, L: int, fast: float = 32.0, slow: float = 1.0) -> list[float]:
    """YaRN's ω' pair by pair as the reference code describes it (truncated correction range)."""
    def corr(r):  # pair index turning r times in L tokens: L / (2π θ^(2j/d)) = r
        return d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta))

    low, high = max(math.floor(corr(fast)), 0), min(math.ceil(corr(slow)), d - 1)
    if high == low:
        high += 0.001
    out = []
    for j in range(d // 2):
        ramp = min(max((j - low) / (high - low), 0.0), 1.0)
        out.append((1 - ramp) * omega(j, d, theta) + ramp * omega(j, d, theta) / s)
    return out


def methods_by_hand(d: int, theta: float, s: float, L: int, **betas) -> dict[str, list[float]]:
    ntk_theta = theta * s ** (d / (d - 2))  # YaRN Eq. 16
    return {
        "none": [omega(i, d, theta) for i in range(d // 2)],
        "linear": [omega(i, d, theta) / s for i in range(d // 2)],
        "ntk": [omega(i, d, ntk_theta) for i in range(d // 2)],
        "yarn": yarn_by_hand(d, theta, s, L, **betas),
    }


def assert_methods(got: dict, want: dict):
    assert tuple(got) == scaling.COMPARED_METHODS
    for name in scaling.COMPARED_METHODS:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-12, err_msg=name)


def test_methods_for_an_unscaled_partial_rotary_model_use_its_context_and_rotary_dims():
    # Qwen3-Next: head 256, a quarter rotary (d = 64), θ 10⁷, no scaling in models.yaml, context 262,144:
    # with factor=2 every method runs on the 64 rotary dims, and YaRN takes L = the context.
    cfg = configs.load("qwen3_next_80b_a3b")
    assert cfg.get("scaling") is None and cfg["rotary_fraction"] == 0.25 and cfg["context"] == 262_144
    assert_methods(scaling.methods_for(cfg, factor=2.0), methods_by_hand(64, 1e7, 2.0, 262_144))


def test_methods_for_use_a_yarn_models_own_betas_only_at_its_own_factor():
    # Kimi K2 scales with YaRN, β_fast = β_slow = 1 (not the paper's 32 and 1), s 32, L 4,096, d 64, θ 50,000.
    cfg = configs.load("kimi_k2")
    own = methods_by_hand(64, 50_000.0, 32.0, 4096, fast=1.0, slow=1.0)
    assert_methods(scaling.methods_for(cfg), own)
    assert_methods(scaling.methods_for(cfg, factor=32.0), own)
    assert_methods(scaling.methods_for(cfg, factor=16.0), methods_by_hand(64, 50_000.0, 16.0, 4096))
    assert not np.allclose(own["yarn"], methods_by_hand(64, 50_000.0, 32.0, 4096)["yarn"])  # the betas matter


def test_methods_for_a_llama3_model_compare_yarn_at_its_original_context():
    # Llama 3.1 8B scales with llama3 (s 8, L 8,192): methods_for shows paper-default YaRN at L = 8,192.
    assert_methods(scaling.methods_for(configs.load("llama31_8b")), methods_by_hand(128, 500_000.0, 8.0, 8192))



# --- angle overshoot: which pairs reach angles they were not trained on -----------------------------------


def test_angle_overshoot_of_float32_frequencies_is_computed_in_float64():
    # transformers hands out float32 inv_freq; the ratio s·ω'/ω must be the quotient of those float32
    # values taken in float64, not a float32 product rounded on the way (off by ~1e-8).
    omega = np.array([1.0, 1e-3, 1e-5, 3e-7], dtype=np.float32)  # λ ≈ 6.3, 6,283, 628,319, 2.1e7 tokens
    scaled = (omega / np.float32(3.0)).astype(np.float32)
    s = 1.1
    got = scaling.angle_overshoot(omega, scaled, 4096, s)
    assert math.isnan(got[0])  # λ = 2π ≤ 4,096: pair 0 turns within L
    want = [s * float(scaled[j]) / float(omega[j]) for j in (1, 2, 3)]
    np.testing.assert_allclose(got[1:], want, rtol=1e-15, atol=0)


def test_angle_overshoot_a_pair_turning_exactly_once_within_L_has_seen_every_angle():
    # ω_1 = 2π/4,096: λ_1 = 4,096 = L exactly (in float64 too), so the pair completes its turn: NaN.
    omega = np.array([1.0, 2 * math.pi / 4096, 2 * math.pi / 4097])
    assert 2 * math.pi / omega[1] == 4096.0
    got = scaling.angle_overshoot(omega, omega / 2, 4096, 4.0)
    assert math.isnan(got[0]) and math.isnan(got[1])
    assert got[2] == pytest.approx(2.0, rel=1e-15)  # λ = 4,097 > L: s·(ω/2)/ω = 2


def test_position_interpolation_never_overshoots_and_ntk_aware_overshoots_all_but_the_last_pair():
    # Llama 2 (d 128, θ 10,000, L 4,096), s = 4. PI: s·(ω/s)/ω = 1 for every pair, up to rounding, which the
    # 1e-9 slack absorbs: none overshoots. NTK-aware: s·(θ/θ')^(2j/d) = s^(1 − 2j/(d−2)) > 1 for every
    # never-turning pair except the last (j = d/2 − 1, exactly 1): 18 never turn within 4,096 (facts.md §2).
    d, theta, L, s = 128, 10_000.0, 4096, 4.0
    omega = np.array([theta ** (-2 * j / d) for j in range(d // 2)])
    never = [j for j in range(d // 2) if 2 * math.pi / omega[j] > L]
    assert len(never) == 18
    assert scaling.pairs_beyond_trained_angles(omega, omega / s, L, s) == 0
    ntk = np.array([(theta * s ** (d / (d - 2))) ** (-2 * j / d) for j in range(d // 2)])
    over = [s ** (1 - 2 * j / (d - 2)) for j in never]
    assert sum(o > 1 + 1e-9 for o in over) == 17 and min(over[:-1]) < 2  # some overshoot by less than 2×
    assert scaling.pairs_beyond_trained_angles(omega, ntk, L, s) == 17


def test_overshoot_exactly_at_the_slack_is_not_counted():
    # A never-turning pair (ω = 2⁻²⁰, λ ≈ 6.6M) whose ratio is exactly 1 + 1e-9 sits on the float slack: not counted.
    omega = np.array([2.0 ** -20])
    scaled = omega * (1.0 + 1e-9)  # a power of two times (1 + 1e-9): exact
    assert 1.0 * scaled[0] / omega[0] == 1.0 + 1e-9
    assert scaling.pairs_beyond_trained_angles(omega, scaled, 4096, 1.0) == 0
    assert scaling.pairs_beyond_trained_angles(omega, omega * (1.0 + 4e-9), 4096, 1.0) == 1


# --- YaRN's ramps ---------------------------------------------------------------------------------------------


def test_yarn_paper_ramp_refuses_empty_or_missing_turn_counts_with_a_value_error():
    for bad in ([], [1.0, None]):
        with pytest.raises(ValueError, match=r"^rotations\b"):
            scaling.yarn_paper_ramp(bad)


def test_yarn_ramp_of_a_single_pair():
    # a 2-dim rotary part has one pair; the ramp still starts at pair 0 (ramp 0 at j = low = 0)
    assert scaling.yarn_ramp(0, 1, 1).tolist() == [0.0]
    assert scaling.yarn_ramp(-1, 1, 1).tolist() == [0.5]


# --- a model's own frequencies: scaling_arguments and for_model -----------------------------------------------


def toy_model(scaling_dict, **fields):
    """A RoPE model through configs' own parser (head 8, θ 100, context 64 unless overridden)."""
    values = {"context": 64, "head_dim": 8, "rope_theta": 100.0, "scaling": scaling_dict, **fields}
    return configs._parse("toy", {"name": "Toy", "position": "rope",
                                  "fields": {k: {"value": v, "source": "test", "tag": "U"}
                                             for k, v in values.items() if v is not None}})


def test_dynamic_ntk_reads_max_position_embeddings_else_the_context():
    # L = max_position_embeddings when the model gives one (32), else its context (64); at ℓ = 128 the base
    # grows to θ·(s·ℓ/L − (s − 1))^(d/(d−2)) with d = 8: s = 2 → factor 7 at L = 32, 3 at L = 64.
    for fields, L in (({"max_position_embeddings": 32}, 32), ({}, 64)):
        kind, kwargs = scaling.scaling_arguments(toy_model({"rope_type": "dynamic", "factor": 2.0}, **fields))
        assert kind == "dynamic" and kwargs["max_position_embeddings"] == L
        grown = 100.0 * (2.0 * 128 / L - 1.0) ** (8 / 6)
        inv, _ = scaling.SCALINGS[kind](**kwargs, seq_len=128)
        np.testing.assert_allclose(inv, [omega(i, 8, grown) for i in range(4)], rtol=1e-13)


def test_for_model_of_an_unscaled_partial_rotary_model():
    # GLM-4.5: head 128, half rotary (d = 64), θ 10⁶, no scaling: plain ω over 32 pairs, attention factor 1.
    cfg = configs.load("glm45")
    assert cfg.get("scaling") is None and cfg["rotary_fraction"] == 0.5
    inv, att = scaling.for_model(cfg)
    np.testing.assert_allclose(inv, [omega(i, 64, 1e6) for i in range(32)], rtol=1e-13)
    assert att == 1.0 and type(att) is float


def test_for_model_local_layers_of_a_partial_rotary_model():
    # a toy with a local base (θ_local 10) and a half-rotary head of 16: 4 pairs at θ_local, factor 1.
    cfg = toy_model(None, head_dim=16, rotary_fraction=0.5, local_rope_theta=10.0)
    inv, att = scaling.for_model(cfg, layer="local")
    np.testing.assert_allclose(inv, [omega(i, 8, 10.0) for i in range(4)], rtol=1e-13)
    assert att == 1.0


def test_yarn_pairs_number_the_pairs_with_integers():
    # the pair column indexes the other columns (a figure picks rows with it): integers 0 … d/2 − 1
    t = scaling.yarn_pairs(16, 500.0, 3.0, 300)
    assert t.pair.dtype.kind == "i" and t.pair.tolist() == list(range(8))
    np.testing.assert_array_equal(t.wavelength[t.pair[::-1]], t.wavelength[::-1])
