"""The posenc functions lessons 3 and 4 draw and quote, against references written here from the papers.

References: Vaswani et al. 2017 §3.5 written out term by term (pos / base^(2i/d)), dot products and
distances by brute force over explicit vectors, RoFormer §3's 2×2 block applied by hand, the
"input" attention score of §3.2.1 expanded into its four terms, and facts.md §2's wavelength
counts (checked there with plain Python). Nothing here calls the function under test to make its
own expected value.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import attention, clock, configs, rope, shift, sinusoidal, tokenize
from posenc import examples as ex

FAST = settings(max_examples=30, deadline=None)


def pe(pos: int, d: int, base: float = 10_000.0) -> np.ndarray:
    """§3.5: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d))."""
    out = np.zeros(d)
    for i in range(d // 2):
        out[2 * i] = math.sin(pos / base ** (2 * i / d))
        out[2 * i + 1] = math.cos(pos / base ** (2 * i / d))
    return out


def wavelengths_loop(d: int, base: float) -> list[float]:
    return [2 * math.pi * base ** (2 * i / d) for i in range(d // 2)]


# --- sinusoidal: the period series ----------------------------------------------------------------------------


@FAST
@given(d=st.integers(2, 64).map(lambda n: 2 * n), base=st.floats(2.0, 1e6))
def test_period_ratio_is_the_step_between_neighbouring_periods(d, base):
    lam = wavelengths_loop(d, base)
    assert sinusoidal.period_ratio(d, base) == pytest.approx(lam[1] / lam[0], rel=1e-12)
    assert sinusoidal.period_ratio(d, base) == pytest.approx(lam[-1] / lam[-2], rel=1e-9)


def test_the_paper_limit_is_one_step_beyond_the_slowest_pair():
    """§3.5's 10000·2π is the period of pair d/2, which does not exist: one ratio above the last real pair."""
    assert sinusoidal.period_limit(10_000.0) == pytest.approx(2 * math.pi * 10_000)
    lam = wavelengths_loop(512, 10_000.0)
    assert lam[-1] < sinusoidal.period_limit(10_000.0)
    assert lam[-1] * sinusoidal.period_ratio(512, 10_000.0) == pytest.approx(sinusoidal.period_limit(10_000.0))


# --- clock: turns within a length ------------------------------------------------------------------------------


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


# --- clock: the dot-product curve --------------------------------------------------------------------------------


def curve_loop(max_k: int, d: int, p: int = 0) -> np.ndarray:
    a = pe(p, d)
    return np.array([a @ pe(p + k, d) for k in range(max_k + 1)])


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
    assert pe(0, ex.SIN_DIM) @ pe(k, ex.SIN_DIM) == pytest.approx(low, abs=1e-9)
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


# --- clock: a shift is a rotation --------------------------------------------------------------------------------


@pytest.mark.parametrize("p, k", [(3, 10), (1024, 10), (100_000, 7), (50, -20)])
def test_turn_angles_are_what_every_pair_turns_between_p_and_p_plus_k(p, k):
    a, b = pe(p, 16), pe(p + k, 16)
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


# --- shift: the position part of the score ----------------------------------------------------------------------


def head_and_tokens(text: str, d: int, seed: int):
    return attention.make_head(d, seed), attention.token_vectors(tokenize.token_ids(text), d, seed)


def position_part_loop(text: str, start: int, d: int, seed: int) -> np.ndarray:
    head, e = head_and_tokens(text, d, seed)
    rows = [pe(start + t, d) for t in range(len(e))]
    return np.array([[(a @ head.w_q) @ (b @ head.w_k) for b in rows] for a in rows]) / math.sqrt(d)


@pytest.mark.parametrize("start", [0, 10, 5000])
def test_position_part_scores_match_the_definition(start):
    np.testing.assert_allclose(shift.position_part_scores(ex.SENTENCE, start, 16, 0), position_part_loop(ex.SENTENCE, start, 16, 0), atol=1e-12)


def test_position_part_is_the_position_term_of_the_input_score():
    """(e + PE) W_q ((e + PE) W_k)ᵀ/√d = content + content×position + position×content + position part."""
    d, seed = 16, 0
    head, e = head_and_tokens(ex.SENTENCE, d, seed)
    P = np.array([pe(10 + t, d) for t in range(len(e))])
    terms = [(a @ head.w_q) @ (b @ head.w_k).T / math.sqrt(d) for a, b in ((e, e), (e, P), (P, e))]
    np.testing.assert_allclose(shift.scores(ex.SENTENCE, 10, "input", d, seed) - sum(terms),
                               shift.position_part_scores(ex.SENTENCE, 10, d, seed), atol=1e-12)


def test_position_part_shift_change_is_the_largest_moved_entry():
    before, after = position_part_loop(ex.SENTENCE, 0, 16, 0), position_part_loop(ex.SENTENCE, 10, 16, 0)
    assert shift.position_part_shift_change(ex.SENTENCE, 10, 16, 0) == pytest.approx(np.abs(after - before).max(), abs=1e-12)
    assert shift.position_part_shift_change(ex.SENTENCE, 10, 16, 0) > 0.1  # the projection breaks the identity


@pytest.mark.parametrize("method", shift.METHODS)
def test_score_changes_are_entrywise_and_shift_change_is_their_maximum(method):
    m = shift.score_changes(ex.SENTENCE, 10, method, 16, 0)
    ref = np.abs(shift.scores(ex.SENTENCE, 10, method, 16, 0) - shift.scores(ex.SENTENCE, 0, method, 16, 0))
    np.testing.assert_array_equal(m, ref)
    assert shift.shift_change(ex.SENTENCE, 10, method, 16, 0) == m.max()


# --- shift: one pair by hand --------------------------------------------------------------------------------------


def test_add_pair_adds_lesson_threes_pair():
    v = shift.add_pair((1.0, 0.4), 3, 1.0)
    np.testing.assert_allclose(v, [1.0 + math.sin(3), 0.4 + math.cos(3)], atol=1e-15)


vec = st.tuples(st.floats(-3, 3), st.floats(-3, 3)).filter(lambda v: math.hypot(*v) > 1e-3)


@FAST
@given(q=vec, k=vec, m=st.integers(0, 10_000), n=st.integers(0, 10_000), omega=st.floats(1e-4, 1.0))
def test_polar_score_equals_rotating_both_vectors_by_hand(q, k, m, n, omega):
    def turn(v, a):
        return np.array([math.cos(a) * v[0] - math.sin(a) * v[1], math.sin(a) * v[0] + math.cos(a) * v[1]])

    by_hand = float(turn(q, m * omega) @ turn(k, n * omega))
    assert shift.pair_score_polar(q, k, m, n, omega) == pytest.approx(by_hand, abs=1e-9)


def test_pair_helpers_name_bad_arguments():
    with pytest.raises(ValueError, match="omega"):
        shift.pair_score_polar((1, 0), (1, 0), 0, 1, 0.0)
    with pytest.raises(ValueError, match="v"):
        shift.add_pair((1, 2, 3), 0, 1.0)


# --- rope: the spectrum of a model ----------------------------------------------------------------------------------


def test_qwen3_spectrum_matches_facts_section_2():
    """facts.md §2(b): 24 of 64 pairs; λ_39 = 28,473 < 32,768 < λ_40 = 35,333."""
    sp = rope.model_spectrum(configs.load("qwen3_8b"))
    lam = wavelengths_loop(128, 1e6)
    assert (sp.pairs, sp.count_not_turning, sp.first_not_turning) == (64, 24, 40)
    assert sp.last_turning_wavelength == pytest.approx(lam[39]) and round(lam[39]) == 28_473
    assert sp.first_not_turning_wavelength == pytest.approx(lam[40]) and round(lam[40]) == 35_333
    assert sp.slowest_turns == pytest.approx(32_768 / lam[-1])
    np.testing.assert_array_equal(sp.not_turning, np.array(lam) > 32_768)


def test_model_spectrum_overrides_and_partial_rope():
    """facts.md §2(c): Qwen3-Next rotates 64 of 256 dims; 10 of 32 pairs (i = 22 … 31), 9 if θ were 5,000,000."""
    cfg = configs.load("qwen3_next_80b_a3b")
    sp = rope.model_spectrum(cfg)
    assert (sp.pairs, sp.count_not_turning, sp.first_not_turning) == (32, 10, 22)
    assert rope.model_spectrum(cfg, base=5_000_000).count_not_turning == 9
    assert rope.model_spectrum(configs.load("qwen3_8b"), context=131_072).count_not_turning == 17


@pytest.mark.parametrize("key", ex.ROPE_TABLE_MODELS)
def test_spectrum_count_is_pairs_not_completing_turn(key):
    cfg = configs.load(key)
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    assert rope.model_spectrum(cfg).count_not_turning == rope.pairs_not_completing_turn(inv, cfg["context"])


def test_spectrum_without_a_turning_or_not_turning_pair_says_so():
    with pytest.raises(ValueError, match="every pair completes"):
        rope.spectrum([1.0, 0.5], 1000).first_not_turning
    with pytest.raises(ValueError, match="no pair completes"):
        rope.spectrum([1e-6], 1000).last_turning_wavelength


# --- rope: which dims form a pair --------------------------------------------------------------------------------


@pytest.mark.parametrize("convention", rope.CONVENTIONS)
@pytest.mark.parametrize("d", [2, 8, 16])
def test_convention_pairs_are_the_dims_the_rotation_mixes(convention, d):
    """Rotate each unit vector e_j: the dims that come out non-zero are j and its partner."""
    inv = rope.inverse_frequencies(d, 10_000.0)
    mixed = []
    for j in range(d):
        x = np.zeros((1, d))
        x[0, j] = 1.0
        out = rope.rotate(x, [1], inv, convention)[0]
        mixed.append(tuple(int(i) for i in np.nonzero(np.abs(out) > 1e-12)[0]))
    pairs = rope.convention_pairs(d, convention)
    assert sorted(set(mixed)) == sorted(pairs)
    assert pairs == sorted(pairs), "pair 0 first"
    owner = rope.pair_of_dim(d, convention)
    for i, (a, b) in enumerate(pairs):
        assert owner[a] == owner[b] == i
