"""posenc.clock honours every argument it is given: a non-default base, exact boundaries, named errors.

The references are the paper's formula written out here with ``math`` (§3.5: PE(p, 2i) = sin(p·ω_i),
PE(p, 2i+1) = cos(p·ω_i), ω_i = base^(−2i/d)) and small cases derived by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import clock, sinusoidal

BASE = 100.0  # far from the default 10,000, so a base that is dropped on the way shows


def omegas(d: int, base: float) -> list[float]:
    return [base ** (-2.0 * i / d) for i in range(d // 2)]


def pe(p: int, d: int, base: float) -> list[float]:
    """PE(p) from §3.5, one component at a time."""
    out = []
    for w in omegas(d, base):
        out += [math.sin(p * w), math.cos(p * w)]
    return out


def curve(max_distance: int, d: int, base: float) -> list[float]:
    """Σ_i cos(k·ω_i) for k = 0 … max_distance (the dot product at distance k)."""
    return [sum(math.cos(k * w) for w in omegas(d, base)) for k in range(max_distance + 1)]


# --- every argument reaches the formula ------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0, 7, 1000])
def test_dots_from_uses_the_base_it_is_given(p):
    ref = [sum(a * b for a, b in zip(pe(p + k, 16, BASE), pe(p, 16, BASE))) for k in range(31)]
    np.testing.assert_allclose(clock.dots_from(p, 30, 16, BASE), ref, atol=1e-9)
    # and what it computes is the closed form's curve for that base, whatever the start
    np.testing.assert_allclose(clock.dots_from(p, 30, 16, BASE), curve(30, 16, BASE), atol=1e-9)


def test_first_dot_below_uses_the_base_it_is_given():
    ref = curve(300, 16, BASE)
    value = -2.0
    expected = next(k for k, c in enumerate(ref) if c < value)
    assert clock.first_dot_below(value, 16, BASE, limit=300) == expected
    # the default base's curve crosses −2 elsewhere, so the answer really depends on the base
    assert expected != next(k for k, c in enumerate(curve(300, 16, sinusoidal.DEFAULT_BASE)) if c < value)


def test_first_dot_below_is_strictly_below():
    # at k = 0 every cos(0·ω_i) is 1, so the curve starts exactly at d/2; that is not below d/2
    d = 16
    assert clock.dot_curve(1, d)[0] == d / 2
    assert clock.first_dot_below(d / 2, d, limit=10) == 1


@pytest.mark.parametrize("value", [True, False])
def test_first_dot_below_refuses_a_bool_value(value):
    with pytest.raises(ValueError, match=r"^value must be a finite number"):
        clock.first_dot_below(value, 16, limit=50)


def test_lowest_dot_uses_the_base_it_is_given():
    ref = curve(100, 16, BASE)
    k = min(range(101), key=lambda j: (ref[j], j))  # the lowest point, the first if tied
    got = clock.lowest_dot(100, 16, BASE)
    assert got[0] == k and got[1] == pytest.approx(ref[k], abs=1e-12)


def test_the_smallest_ranges_are_answered():
    d = 16
    # two positions make one pair, at distance 1
    a, b = pe(0, d, sinusoidal.DEFAULT_BASE), pe(1, d, sinusoidal.DEFAULT_BASE)
    k, dist = clock.nearest_neighbour(2, d)
    assert k == 1 and dist == pytest.approx(math.dist(a, b), abs=1e-12)
    # the curve up to distance 1 has two points: d/2 at k = 0 and Σ cos ω_i at k = 1
    np.testing.assert_allclose(clock.dot_curve(1, d), curve(1, d, sinusoidal.DEFAULT_BASE), atol=1e-12)


@pytest.mark.parametrize("k", [1, 10, 37, -5])
def test_turn_angles_use_the_base_they_are_given(k):
    # the angle each hand turns from p to p + k, read off the two encodings with atan2
    p, d = 3, 16
    before, after = pe(p, d, BASE), pe(p + k, d, BASE)
    ref = [(math.atan2(after[2 * i], after[2 * i + 1]) - math.atan2(before[2 * i], before[2 * i + 1])) % (2 * math.pi)
           for i in range(d // 2)]
    got = clock.turn_angles(k, d, BASE)
    # compare on the circle: an angle a hair below 2π is the same turn as one a hair above 0
    np.testing.assert_allclose(np.cos(got), np.cos(ref), atol=1e-9)
    np.testing.assert_allclose(np.sin(got), np.sin(ref), atol=1e-9)
    assert np.all((got >= 0) & (got < 2 * np.pi))


@pytest.mark.parametrize("p, k", [(0, 1), (5, 12), (40, -40), (1000, 3)])
def test_rotation_error_is_rounding_for_any_base(p, k):
    # the rotation M_k and both encodings must use the same base; mixing in the default one is off by O(1)
    assert clock.rotation_error(p, k, 16, BASE) < 1e-9


@pytest.mark.parametrize("shift", [1, 10, 1000])
def test_dot_matrix_shift_change_is_rounding_for_any_base(shift):
    assert clock.dot_matrix_shift_change(6, shift, 16, BASE) < 1e-9


# --- first_rise: a flat step is not a rise -----------------------------------------------------------------------

# For d = 4 the curve is cos(k) + cos(k·ω) with ω = base^(−1/2). Solving cos 3 + cos 3ω = cos 4 + cos 4ω for ω
# (ω ≈ 0.3566, base ≈ 7.8657) makes the curve flat from k = 3 to k = 4; this float is a base for which the
# computed values are exactly equal (checked below). The curve falls before k = 3 and rises after k = 4.
FLAT_3_4 = 7.865740126680004


def test_first_rise_is_strictly_up():
    ref = curve(6, 4, FLAT_3_4)
    assert ref[0] > ref[1] > ref[2] > ref[3] and ref[4] < ref[5]
    assert ref[3] == pytest.approx(ref[4], abs=1e-15)
    c = clock.dot_curve(6, 4, FLAT_3_4)
    assert c[3] == c[4]
    assert clock.first_rise(6, 4, FLAT_3_4) == 4


@pytest.mark.parametrize("d", [4, 16, 64])
def test_first_rise_uses_the_base_it_is_given(d):
    ref = curve(200, d, BASE)
    expected = next(k for k in range(200) if ref[k + 1] > ref[k])
    assert clock.first_rise(200, d, BASE) == expected


# --- pairs_not_turning: a period of exactly `length` tokens finishes its turn --------------------------------------

# For d = 4 the slow pair's period is λ_1 = 2π·√base, so base = (10/2π)² makes it 10 tokens; this float is
# the one nearest that value for which the computed period is exactly 10.0 (checked below).
EXACT_TEN = 2.5330295910584444


def test_pairs_not_turning_at_a_period_equal_to_the_length():
    assert sinusoidal.periods(4, EXACT_TEN)[1] == 10.0
    assert 2 * math.pi < 10  # pair 0 (ω = 1) turns within 10 tokens at any base
    assert clock.pairs_not_turning(10, 4, EXACT_TEN) == 0  # pair 1 completes exactly one turn
    assert clock.pairs_not_turning(9, 4, EXACT_TEN) == 1  # one token short: it does not


@pytest.mark.parametrize("length", [7, 60, 500])
def test_pairs_not_turning_uses_the_base_it_is_given(length):
    d = 16
    expected = sum(2 * math.pi / w > length for w in omegas(d, BASE))
    assert clock.pairs_not_turning(length, d, BASE) == expected


# --- bad input names the argument the caller wrote ---------------------------------------------------------------

BAD = [
    (lambda: clock.dot_curve(0, 16), "max_distance"),
    (lambda: clock.dot_curve(True, 16), "max_distance"),  # a bool is not a distance, though True == 1
    (lambda: clock.dot_curve(2.0, 16), "max_distance"),
    (lambda: clock.dots_from(0, 0, 16), "max_distance"),
    (lambda: clock.dots_from(-1, 5, 16), "p"),
    (lambda: clock.dots_from(2.0, 5, 16), "p"),
    (lambda: clock.dot_matrix_shift_change(1, 0, 16), "n"),
    (lambda: clock.dot_matrix_shift_change(4, -1, 16), "shift"),
    (lambda: clock.turn_angles(1.5, 16), "k"),
    (lambda: clock.rotation_error(-1, 0, 16), "p"),
    (lambda: clock.rotation_error(0, 1.5, 16), "k"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
