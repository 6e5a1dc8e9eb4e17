"""posenc.clock: dot products, distances, turns and projections of the sinusoidal clock, against Vaswani et al. 2017
§3.5 written out with math and brute force; arguments, edges and messages.

What the tests compare against, part by part:

- posenc.clock honours every argument it is given: a non-default base, exact boundaries, named errors. The
  references are the paper's formula written out here with ``math`` (§3.5: PE(p, 2i) = sin(p·ω_i), PE(p, 2i+1) =
  cos(p·ω_i), ω_i = base^(−2i/d)) and small cases derived by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from expect import raises_exactly
from posenc import clock
from posenc import clock, rope, shift, sinusoidal
from posenc import clock, sinusoidal
from posenc import examples as ex


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


# --- the dot-product curve, turns and rotations --------------------------------------------------------------------


def pe_array(pos: int, d: int, base: float = 10_000.0) -> np.ndarray:
    """§3.5: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d))."""
    out = np.zeros(d)
    for i in range(d // 2):
        out[2 * i] = math.sin(pos / base ** (2 * i / d))
        out[2 * i + 1] = math.cos(pos / base ** (2 * i / d))
    return out


def wavelengths_loop(d: int, base: float) -> list[float]:
    return [2 * math.pi * base ** (2 * i / d) for i in range(d // 2)]


@pytest.mark.parametrize("d, length", [(16, 128), (256, 128), (16, 20), (64, 5000)])
def test_pairs_not_turning_counts_periods_longer_than_the_length(d, length):
    expected = sum(1 for lam in wavelengths_loop(d, 10_000.0) if lam > length)
    assert clock.pairs_not_turning(length, d) == expected
    # the rule RoPE's count uses, on the same frequencies
    assert clock.pairs_not_turning(length, d) == rope.pairs_not_completing_turn(sinusoidal.angular_frequencies(d), length)


def test_project_model_counts_come_from_the_experiment_preset():
    """Lesson 3 quotes the model the experiment trains: d_model 256 → 128 pairs; 86 never turn within 128 tokens."""
    full = ex.PROJECT
    lam = wavelengths_loop(full.d_model, full.sin_base)
    assert (len(lam), sum(x > full.train_len for x in lam)) == (full.d_model // 2, clock.pairs_not_turning(full.train_len, full.d_model))
    # its RoPE head: head_dim 64 → 32 pairs
    rope_lam = wavelengths_loop(full.head_dim, full.rope_base)
    sp = rope.spectrum(rope.inverse_frequencies(full.head_dim, full.rope_base), full.train_len)
    assert (sp.pairs, sp.count_not_turning) == (len(rope_lam), sum(x > full.train_len for x in rope_lam))


def curve_loop(max_k: int, d: int, p: int = 0) -> np.ndarray:
    a = pe_array(p, d)
    return np.array([a @ pe_array(p + k, d) for k in range(max_k + 1)])


def test_dot_curve_is_the_dot_product_of_two_encodings_at_every_distance():
    ref = curve_loop(60, 16, p=0)
    np.testing.assert_allclose(clock.dot_curve(60, 16), ref, atol=1e-12)
    np.testing.assert_allclose(clock.dot_curve(60, 16), curve_loop(60, 16, p=777), atol=1e-9)


@pytest.mark.parametrize("p", [0, 300, 100_000])
def test_dots_from_computes_the_dot_products_from_the_vectors(p):
    np.testing.assert_allclose(clock.dots_from(p, 40, 16), curve_loop(40, 16, p=p), atol=1e-9)


def test_first_rise_lowest_and_first_below_match_a_brute_force_scan():
    ref = curve_loop(200, 16)
    rise = next(k for k in range(200) if ref[k + 1] > ref[k])
    assert clock.first_rise(200, 16) == rise
    k_min = int(np.argmin(ref))
    assert clock.lowest_dot(200, 16) == (k_min, pytest.approx(ref[k_min], abs=1e-12))
    far = curve_loop(400, 16)
    below = next(k for k in range(401) if far[k] < ref[k_min])
    assert below > 200, "the lowest value inside the drawn range is undercut only beyond it"
    assert clock.first_dot_below(ref[k_min], 16, limit=400) == below


def test_far_out_the_curve_goes_far_below_the_drawn_minimum():
    """Lesson 4's misconception 4: a minimum inside the drawn range is no bound; the infimum is −d/2."""
    k, low = clock.lowest_dot(ex.FAR_POSITION, ex.SIN_DIM)
    assert pe_array(0, ex.SIN_DIM) @ pe_array(k, ex.SIN_DIM) == pytest.approx(low, abs=1e-9)
    assert low < clock.lowest_dot(ex.MAX_DISTANCE, ex.SIN_DIM)[1]
    assert -ex.SIN_DIM / 2 <= low


def test_curve_helpers_refuse_what_they_cannot_answer():
    with pytest.raises(ValueError, match="never rises"):
        clock.first_rise(1, 16)
    with pytest.raises(ValueError, match="limit"):
        clock.first_dot_below(-100.0, 16, limit=50)
    with pytest.raises(ValueError, match="max_distance"):
        clock.dot_curve(0, 16)
    with pytest.raises(ValueError, match="value"):
        clock.first_dot_below(float("nan"), 16, limit=50)


@pytest.mark.parametrize("p, k", [(3, 10), (1024, 10), (100_000, 7), (50, -20)])
def test_turn_angles_are_what_every_pair_turns_between_p_and_p_plus_k(p, k):
    a, b = pe_array(p, 16), pe_array(p + k, 16)
    before = np.arctan2(a[0::2], a[1::2])  # the angle whose (sin, cos) is the pair
    after = np.arctan2(b[0::2], b[1::2])
    np.testing.assert_allclose(np.mod(after - before, 2 * np.pi), clock.turn_angles(k, 16), atol=1e-6)


def test_rotation_error_is_rounding_and_catches_a_wrong_rotation():
    assert clock.rotation_error(100_000, 10, 16) < 1e-9
    assert clock.rotation_error(3, -3, 16) < 1e-12
    with pytest.raises(ValueError, match="p \\+ k"):
        clock.rotation_error(3, -4, 16)


def test_dot_matrix_shift_change_is_rounding():
    assert clock.dot_matrix_shift_change(6, 10, 16) < 1e-12
    assert clock.dot_matrix_shift_change(6, 100_000, 16) < 1e-9


# --- nearest neighbours, turns, projections ------------------------------------------------------------------------


def pe_loop(p, d, base=10_000.0):
    """PE(p) written out from §3.5: sin on even dims, cos on odd dims, ω_i = base^(−2i/d)."""
    return np.array([(math.sin if j % 2 == 0 else math.cos)(p / base ** (2 * (j // 2) / d)) for j in range(d)])


@pytest.mark.parametrize("d, base", [(8, 10_000.0), (16, 10_000.0), (4, 7.0)])
def test_nearest_neighbour_matches_brute_force_over_all_pairs(d, base):
    n = 400
    pe = np.array([pe_loop(p, d, base) for p in range(n)])
    best = (None, math.inf)
    for a in range(n):
        dist = np.sqrt(((pe[a + 1 :] - pe[a]) ** 2).sum(axis=1))
        if dist.size and dist.min() < best[1]:
            best = (int(np.argmin(dist)) + 1, float(dist.min()))
    k, dist = clock.nearest_neighbour(n, d, base)
    assert dist == pytest.approx(best[1], abs=1e-9)
    # the same distance may occur at several k only by coincidence; check the reported k attains it
    assert np.linalg.norm(pe_loop(k, d, base) - pe_loop(0, d, base)) == pytest.approx(best[1], abs=1e-9)


@pytest.mark.parametrize("p, k", [(0, 1), (3, 1021), (100_000, 10), (77, 0), (500, -37), (37, -37)])
def test_shift_distance_is_the_distance_of_the_two_encodings(p, k):
    q = p + k
    assert q >= 0  # every case is a pair of real positions
    direct = np.linalg.norm(pe_loop(q, 16) - pe_loop(p, 16))
    assert clock.shift_distance(k, 16) == pytest.approx(direct, abs=1e-9)


def test_turns_within_counts_turns_hand_by_hand():
    length, d = 128, 16
    expected = [length * (10_000.0 ** (-2 * i / d)) / (2 * math.pi) for i in range(d // 2)]
    np.testing.assert_allclose(clock.turns_within(length, d), expected, rtol=1e-12)
    # after exactly one period of pair i, that pair's (sin, cos) is back where it started
    lam = 2 * math.pi * 10_000.0 ** (2 * 1 / d)
    assert clock.turns_within(int(round(lam)), d)[1] == pytest.approx(round(lam) / lam)


def test_position_scores_with_identity_are_the_dot_products_and_shift_invariant():
    d, n = 16, 6
    eye = np.eye(d)
    scores = clock.position_scores(np.arange(n), eye, eye)
    loop = np.array([[pe_loop(a, d) @ pe_loop(b, d) for b in range(n)] for a in range(n)])
    np.testing.assert_allclose(scores, loop, atol=1e-12)
    np.testing.assert_allclose(clock.position_scores(np.arange(n) + 1000, eye, eye), loop, atol=1e-9)


def test_projection_that_commutes_with_the_rotation_keeps_shift_invariance():
    # W_qᵀ W_k made of 2×2 blocks [[a, b], [−b, a]] commutes with every M_s (a scaled rotation per pair)
    d, n = 8, 5
    rng = np.random.default_rng(1)
    blocks = np.zeros((d, d))
    for i in range(0, d, 2):
        a, b = rng.normal(size=2)
        blocks[i : i + 2, i : i + 2] = [[a, b], [-b, a]]
    w_q, w_k = np.eye(d), blocks
    before = clock.position_scores(np.arange(n), w_q, w_k)
    after = clock.position_scores(np.arange(n) + 321, w_q, w_k)
    np.testing.assert_allclose(before, after, atol=1e-9)


def test_random_projections_are_independent_n_0_1_over_d():
    # entries N(0, 1/d): with n = d² draws per matrix the sample mean has standard error σ/√n and the
    # sample std σ/√(2n); allow six standard errors (a false alarm once in 10⁸ seeds). d = 256 makes
    # that 2 % of σ, so a wrong scale (1/d, 1, √(2/d)) or a shared matrix fails.
    d = 256
    sigma, n = 1 / math.sqrt(d), d * d
    for seed in (0, 3):
        w_q, w_k = clock.random_projections(d, seed=seed)
        assert w_q.shape == w_k.shape == (d, d)
        for w in (w_q, w_k):
            assert abs(w.mean()) < 6 * sigma / math.sqrt(n)
            assert abs(w.std() - sigma) < 6 * sigma / math.sqrt(2 * n)
        assert abs(np.corrcoef(w_q.ravel(), w_k.ravel())[0, 1]) < 6 / math.sqrt(n)
    a, b = clock.random_projections(8, seed=5), clock.random_projections(8, seed=5)
    assert np.array_equal(a[0], b[0]) and not np.array_equal(a[0], clock.random_projections(8, seed=6)[0])


def test_random_projections_break_shift_invariance():
    d, n = 16, 6
    w_q, w_k = clock.random_projections(d, seed=3)
    before = clock.position_scores(np.arange(n), w_q, w_k)
    after = clock.position_scores(np.arange(n) + 10, w_q, w_k)
    loop = np.array([[(w_q @ pe_loop(a, d)) @ (w_k @ pe_loop(b, d)) for b in range(n)] for a in range(n)])
    np.testing.assert_allclose(before, loop, atol=1e-12)
    assert np.abs(before - after).max() > 0.1


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: clock.nearest_neighbour(1, 16), ["n", "at least 2"]),
        (lambda: clock.nearest_neighbour(10.0, 16), ["n", "integer"]),
        (lambda: clock.nearest_neighbour(10, 15), ["d", "even"]),
        (lambda: clock.turns_within(0, 16), ["length", "positive"]),
        (lambda: clock.shift_distance(0.5, 16), ["k", "integer"]),
        (lambda: clock.random_projections(16, seed=1.5), ["seed", "integer"]),
        (lambda: clock.position_scores(range(3), np.eye(4), np.eye(6)), ["w_q", "w_k", "same shape"]),
    ],
)
def test_bad_input_raises_a_message_naming_the_argument(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for w in words:
        assert w in str(err.value)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: clock.nearest_neighbour(1, 16), "n must be an integer of at least 2 (a nearest pair needs two positions), got 1; pass e.g. n=1024"),
        (lambda: clock.nearest_neighbour(10.0, 16), "n must be an integer of at least 2 (a nearest pair needs two positions), got 10.0; pass e.g. n=1024"),
        (lambda: clock.nearest_neighbour(True, 16), "n must be an integer of at least 2 (a nearest pair needs two positions), got True; pass e.g. n=1024"),
        (lambda: clock.turns_within(0, 16), "length must be a positive integer number of tokens, got 0; pass e.g. length=128"),
        (lambda: clock.turns_within(128.0, 16), "length must be a positive integer number of tokens, got 128.0; pass e.g. length=128"),
        (lambda: clock.turns_within(True, 16), "length must be a positive integer number of tokens, got True; pass e.g. length=128"),
        (lambda: clock.shift_distance(0.5, 16), "k must be an integer distance between positions, got 0.5"),
        (lambda: clock.random_projections(16, seed=1.5), "seed must be an integer, got 1.5; pass e.g. seed=0"),
        (lambda: clock.random_projections(16, seed=True), "seed must be an integer, got True; pass e.g. seed=0"),
        (lambda: clock.random_projections(15, 0), "d must be a positive even integer (dimensions come in sin/cos pairs), got 15; use 16 or another even number"),
        (lambda: clock.position_scores(range(3), np.eye(4), np.eye(6)),
         "w_q and w_k must be square matrices of the same shape, got (4, 4) and (6, 6); build them with random_projections(d)"),
        (lambda: clock.position_scores(range(3), np.ones((4, 2)), np.ones((4, 2))),
         "w_q and w_k must be square matrices of the same shape, got (4, 2) and (4, 2); build them with random_projections(d)"),
        (lambda: clock.position_scores(range(3), np.ones(4), np.ones(4)),
         "w_q and w_k must be square matrices of the same shape, got (4,) and (4,); build them with random_projections(d)"),
    ],
)
def test_clock_bad_input_messages(call, message):
    with raises_exactly(message):
        call()


def test_clock_edges():
    assert clock.shift_distance(0, 16) == 0.0  # rounding below zero is clamped, not a NaN
    assert clock.shift_distance(5, 4, base=3.0) == pytest.approx(np.linalg.norm(pe_loop(5, 4, 3.0) - pe_loop(0, 4, 3.0)), abs=1e-12)
    k, dist = clock.nearest_neighbour(2, 16)
    assert (k, type(k)) == (1, int) and dist == pytest.approx(np.linalg.norm(pe_loop(1, 16) - pe_loop(0, 16)), abs=1e-12)
    # d = 2: a single pair at ω = 1, so the closest positions are 44 apart (44 − 7·2π ≈ 0.018 rad)
    k, dist = clock.nearest_neighbour(50, 2)
    assert k == 44 and dist == pytest.approx(2 * abs(math.sin(44 / 2)), abs=1e-12)
    assert clock.turns_within(np.int64(2), 2).tolist() == pytest.approx([2 / (2 * math.pi)], rel=1e-15)
    assert clock.turns_within(1, 2).tolist() == pytest.approx([1 / (2 * math.pi)], rel=1e-15)  # one token is a window
    np.testing.assert_allclose(clock.turns_within(100, 4, base=4.0), [100 / (2 * math.pi), 100 / (4 * math.pi)], rtol=1e-15)
    np.testing.assert_array_equal(clock.random_projections(4, np.int64(2))[1], clock.random_projections(4, 2)[1])
    s = clock.position_scores([0, 3], np.eye(4), np.eye(4), base=9.0)
    assert s[0, 1] == pytest.approx(pe_loop(0, 4, 9.0) @ pe_loop(3, 4, 9.0), abs=1e-12)
