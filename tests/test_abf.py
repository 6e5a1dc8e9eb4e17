"""posenc.scaling's base-raising (ABF) analysis against closed forms and facts.md §2's counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from posenc import rope, scaling

FAST = settings(max_examples=60, deadline=None)

dims = st.integers(2, 128).map(lambda k: 2 * k)
bases = st.floats(2.0, 1e8, allow_nan=False)
lengths = st.integers(1, 2_000_000)


def closed_form_turned(d: int, base: float, length: int) -> tuple[int, float]:
    """#{i : 2π·θ^(2i/d) ≤ L} = ⌊(d/2)·ln(L/2π)/ln θ⌋ + 1, capped at d/2 (0 when L < 2π); and the exponent."""
    if length < 2 * math.pi:
        return 0, -1.0
    x = (d / 2) * math.log(length / (2 * math.pi)) / math.log(base)
    return min(d // 2, math.floor(x) + 1), x


@FAST
@given(dims, bases, lengths)
def test_pairs_completing_turn_closed_form(d, base, length):
    expected, x = closed_form_turned(d, base, length)
    assume(abs(x - round(x)) > 1e-9)  # a pair exactly on the boundary is decided by rounding, not by the formula
    inv = rope.inverse_frequencies(d, base)
    assert scaling.pairs_completing_turn(inv, length) == expected
    assert scaling.pairs_completing_turn(inv, length) + rope.pairs_not_completing_turn(inv, length) == d // 2


@pytest.mark.parametrize("d, base, length, not_turning", [
    (128, 10_000, 4096, 18),       # Llama 2 (facts.md §2)
    (128, 500_000, 8192, 29),      # Llama 3
    (128, 1_000_000, 32_768, 24),  # Qwen3
    (64, 10_000, 4096, 9),         # DeepSeek-V3's RoPE part
])
def test_counts_match_facts_md(d, base, length, not_turning):
    assert scaling.pairs_completing_turn(rope.inverse_frequencies(d, base), length) == d // 2 - not_turning


@FAST
@given(dims, bases, st.integers(0, 5_000_000))
def test_turn_fraction_closed_form(d, base, position):
    inv = rope.inverse_frequencies(d, base)
    got = scaling.turn_fraction(inv, position)
    i = np.arange(d // 2)
    expected = np.minimum(position / (2 * np.pi * base ** (2 * i / d)), 1.0)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)
    assert got[0] == min(position / (2 * np.pi), 1.0)  # ω_0 = 1 whatever the base


def test_code_llama_base_change():
    # Rozière et al. 2023 §2.4: θ 10,000 at 4,096 → 1,000,000 at 16,384; head_dim 128 (Llama 2)
    ch = scaling.base_change(128, 10_000, 1_000_000, 4096, 16_384)
    assert ch.pairs == 64
    assert ch.turned_before == closed_form_turned(128, 10_000, 4096)[0]
    assert ch.turned_after == closed_form_turned(128, 1_000_000, 16_384)[0]
    assert ch.slowest_fraction_before == pytest.approx(4096 / (2 * math.pi * 10_000 ** (126 / 128)))
    assert ch.slowest_fraction_after == pytest.approx(16_384 / (2 * math.pi * 1_000_000 ** (126 / 128)))
    assert ch.slowest_fraction_after < ch.slowest_fraction_before


@FAST
@given(dims, st.floats(10.0, 1e6), st.floats(1.01, 1000.0), lengths)
def test_raising_the_base_never_adds_turned_pairs(d, base, ratio, length):
    ch = scaling.base_change(d, base, base * ratio, length)
    assert ch.turned_after <= ch.turned_before
    assert ch.mean_fraction_after <= ch.mean_fraction_before + 1e-15


@FAST
@given(st.integers(2, 128).map(lambda k: 2 * k), st.floats(10.0, 1e6), st.floats(1.001, 1000.0))
def test_abf_base_is_ntk_aware_at_the_matching_factor(d, base, factor):
    # NTK-aware θ' = θ·s^(d/(d−2)) (YaRN Eq. 16) and ntk_factor_for_base invert each other ...
    new_base = scaling.ntk_aware_base(base, factor, d)
    assert scaling.ntk_factor_for_base(base, new_base, d) == pytest.approx(factor, rel=1e-9)
    # ... so ABF to that base and NTK-aware with that factor give the same frequencies,
    abf, _ = scaling.abf(d, base, new_base)
    ntk, _ = scaling.ntk_aware(d, base, factor)
    np.testing.assert_allclose(abf, ntk, rtol=1e-9)
    # and the slowest pair is slowed by exactly the factor, as Position Interpolation would slow it.
    assert rope.inverse_frequencies(d, base)[-1] / ntk[-1] == pytest.approx(factor, rel=1e-9)


def test_code_llama_as_ntk_factor():
    s = scaling.ntk_factor_for_base(10_000, 1_000_000, 128)
    assert s == pytest.approx(100 ** (126 / 128))


@pytest.mark.parametrize("call, match", [
    (lambda: scaling.pairs_completing_turn(rope.inverse_frequencies(64, 1e4), 0), "length|context"),
    (lambda: scaling.turn_fraction(rope.inverse_frequencies(64, 1e4), -1), "position"),
    (lambda: scaling.turn_fraction(rope.inverse_frequencies(64, 1e4), 2.5), "position"),
    (lambda: scaling.base_change(64, 1e4, 1.0, 4096), "new_base"),
    (lambda: scaling.base_change(64, 1e4, 1e6, 4096, new_length=0), "new_length"),
    (lambda: scaling.base_change(63, 1e4, 1e6, 4096), "head_dim|rotary"),
    (lambda: scaling.ntk_factor_for_base(1e6, 1e4, 128), "new_base"),
    (lambda: scaling.ntk_factor_for_base(1e4, 1e6, 2), "dim"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
