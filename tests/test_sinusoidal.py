"""posenc.sinusoidal against Vaswani et al. 2017 §3.5 and its identities; arguments.

What the tests compare against, part by part:

- posenc.sinusoidal against the paper's definition (Vaswani et al. 2017 §3.5) and its identities.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch

from expect import raises_exactly
from posenc import sinusoidal
from posenc import sinusoidal as S


dims = st.integers(1, 64).map(lambda n: 2 * n)


bases = st.floats(1.5, 1e6)


positions = st.integers(0, 10**9)


small_offsets = st.integers(-10_000, 10_000)


def loop_encoding(p, d, base):
    """The §3.5 formula written out term by term, as a reader would from the paper."""
    out = []
    for j in range(d):
        i = j // 2
        angle = p / base ** (2 * i / d)
        out.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(p=positions, d=dims, base=bases)
def test_table_matches_the_papers_formula_term_by_term(p, d, base):
    # Large p magnifies the rounding of p·ω in either form; compare angles' sines to that precision.
    tol = 1e-12 * max(1.0, p)
    np.testing.assert_allclose(S.encode(p, d, base), loop_encoding(p, d, base), atol=max(tol, 1e-12))


def test_position_zero_is_sin_zero_then_cos_zero_in_every_pair():
    # §3.5 at p = 0: sin 0 = 0 on the even dims, cos 0 = 1 on the odd dims, whatever d and base
    for d, base in ((2, 10_000.0), (16, 10_000.0), (512, 10_000.0), (6, 3.0)):
        assert S.encode(0, d, base).tolist() == [0.0, 1.0] * (d // 2)
        assert S.table(3, d, base)[0].tolist() == [0.0, 1.0] * (d // 2)


def test_values_at_position_one_from_tables():
    # d = 4, base 10,000: ω = (1, 10⁻²), so PE(1) = (sin 1, cos 1, sin 0.01, cos 0.01); values from
    # tables of sin and cos (sin 0.01 = 0.01 − 0.01³/6 + …), not from math.sin
    want = [0.8414709848078965, 0.5403023058681398, 0.009999833334166664, 0.9999500004166653]
    np.testing.assert_allclose(S.encode(1, 4), want, rtol=1e-15, atol=0)
    np.testing.assert_allclose(S.table(np.array([1]), 4)[0], want, rtol=1e-15, atol=0)


@settings(max_examples=60, deadline=None)
@given(p=st.integers(0, 10**6), k=st.integers(0, 10_000), d=dims, base=bases)
def test_each_pair_turns_forward_as_sin_then_cos(p, k, d, base):
    # With (sin x, cos x) in that order, moving k positions is the block [[cos θ, sin θ], [−sin θ, cos θ]],
    # θ = k·ω_i (sin(x+θ) = sin x cos θ + cos x sin θ; cos(x+θ) = cos x cos θ − sin x sin θ). With cos
    # first the block would be its transpose, so this fails if the order is swapped.
    a, b = S.encode(p, d, base), S.encode(p + k, d, base)
    for i in range(d // 2):
        theta = k * base ** (-2 * i / d)
        c, s_ = math.cos(theta), math.sin(theta)
        turned = (c * a[2 * i] + s_ * a[2 * i + 1], -s_ * a[2 * i] + c * a[2 * i + 1])
        np.testing.assert_allclose(b[2 * i : 2 * i + 2], turned, atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(p=st.integers(0, 10**6), k=small_offsets, d=dims, base=bases)
def test_dot_product_depends_only_on_distance(p, k, d, base):
    if p + k < 0:
        k = -k
    expected = sum(math.cos(k * base ** (-2 * i / d)) for i in range(d // 2))
    assert S.dot(p, p + k, d, base) == pytest.approx(expected, abs=1e-6 * d)
    assert S.dot_closed_form(k, d, base) == pytest.approx(expected, abs=1e-9 * d)


@settings(max_examples=40, deadline=None)
@given(p=st.integers(0, 10**6), k=small_offsets, d=dims, base=bases)
def test_shift_is_a_rotation_independent_of_p(p, k, d, base):
    if p + k < 0:
        k = -k
    m = S.shift_rotation(k, d, base)
    np.testing.assert_allclose(m @ S.encode(p, d, base), S.encode(p + k, d, base), atol=1e-6)
    np.testing.assert_allclose(m @ m.T, np.eye(d), atol=1e-12)  # a rotation: orthogonal …
    assert np.linalg.det(m) == pytest.approx(1.0)  # … with determinant 1


def test_frequencies_and_periods_follow_the_geometric_progression():
    w = S.angular_frequencies(16, 10_000)
    assert w[0] == 1.0
    np.testing.assert_allclose(w[1:] / w[:-1], 10_000 ** (-2 / 16))
    p = S.periods(16, 10_000)
    assert p[0] == pytest.approx(2 * math.pi)
    assert p[-1] == pytest.approx(2 * math.pi * 10_000 ** (14 / 16))
    assert round(p[-1]) == 19_869  # facts.md (a): 19,869.18


def test_paper_dimension_slowest_period_is_below_the_stated_limit():
    # §3.5's "2π to 10000·2π" is a limit; facts.md: d = 512 gives 60,611.
    assert round(S.periods(512)[-1]) == 60_611
    assert S.periods(512)[-1] < 10_000 * 2 * math.pi


def test_positions_are_distinct_over_a_long_range():
    assert S.distinct_positions(5_000, 16)


def test_dot_matrix_is_unchanged_by_shifting_the_sentence():
    a = S.dot_matrix(np.arange(6), 16)
    b = S.dot_matrix(np.arange(6) + 10, 16)
    np.testing.assert_allclose(a, b, atol=1e-12)
    assert not np.allclose(S.table(np.arange(6), 16), S.table(np.arange(6) + 10, 16))


def test_content_to_position_ratio_at_init():
    assert S.content_to_position_ratio(0.02) == pytest.approx(0.02 * math.sqrt(2))
    assert f"{S.content_to_position_ratio(0.02):.1%}" == "2.8%"
    assert S.embedding_scale(256) == 16.0


def test_sinusoid_rms_is_one_over_root_two():
    x = np.sin(np.linspace(0, 2 * np.pi, 100_001)[:-1])
    assert np.sqrt(np.mean(x**2)) == pytest.approx(S.SINUSOID_RMS, rel=1e-9)


def test_torch_table_matches_numpy_table():
    t = S.table_torch(5_000, 8).double().numpy()
    np.testing.assert_allclose(t, S.table(5_000, 8), atol=5e-3)  # float32 angles at p ≈ 5,000
    np.testing.assert_allclose(t[:100], S.table(100, 8), atol=1e-5)
    assert t[0].tolist() == [0.0, 1.0] * 4
    np.testing.assert_allclose(t[1, :2], [0.8414709848078965, 0.5403023058681398], atol=1e-7)  # sin 1, cos 1
    assert S.table_torch(3, 8).dtype == torch.float32
    assert S.table_torch(1, 4).tolist() == [[0.0, 1.0, 0.0, 1.0]]  # one position is a valid table


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: S.angular_frequencies(15), ["d", "even", "16"]),
        (lambda: S.angular_frequencies(0), ["d", "positive even"]),
        (lambda: S.angular_frequencies(16.0), ["d", "integer"]),
        (lambda: S.angular_frequencies(16, 1.0), ["base", "greater than 1", "10000"]),
        (lambda: S.angular_frequencies(16, -3), ["base", "greater than 1"]),
        (lambda: S.angular_frequencies(16, float("nan")), ["base", "finite"]),
        (lambda: S.encode(-1, 16), ["p", "non-negative", "count from 0"]),
        (lambda: S.encode(2.5, 16), ["p", "integer"]),
        (lambda: S.encode(3.0, 16), ["p", "int(3.0)"]),
        (lambda: S.table([], 16), ["positions", "empty"]),
        (lambda: S.table(0, 16), ["positions", "positive length"]),
        (lambda: S.table(np.array([0.5, 1.0]), 16), ["positions", "integer"]),
        (lambda: S.table(np.array([[1, 2]]), 16), ["positions", "1-D"]),
        (lambda: S.content_to_position_ratio(0), ["embed_std", "positive"]),
        (lambda: S.dot_closed_form(1.5, 16), ["k", "integer"]),
        (lambda: S.table_torch(0, 16), ["max_len", "positive"]),
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
        (lambda: S.table(0, 16), "positions must be a positive length or a list of positions, got 0; pass e.g. 8"),
        (lambda: S.table(np.int64(-2), 16), "positions must be a positive length or a list of positions, got -2; pass e.g. 8"),
        (lambda: S.table(True, 16), "positions must be a 1-D sequence of positions, got an array of shape ()"),
        (lambda: S.encode(-1, 16), "p must be a non-negative integer position, got -1; positions count from 0"),
        (lambda: S.hand_angles(-1, 16), "p must be a non-negative integer position, got -1; positions count from 0"),
        (lambda: S.dot_closed_form(1.5, 16), "k must be an integer distance between positions, got 1.5"),
        (lambda: S.shift_rotation(1.5, 16), "k must be an integer distance between positions, got 1.5"),
        (lambda: S.content_to_position_ratio(0), "embed_std must be a positive finite number, got 0"),
        (lambda: S.content_to_position_ratio(0.02, 0), "position_rms must be a positive finite number, got 0"),
        (lambda: S.embedding_scale(255), "d_model must be a positive even integer (dimensions come in sin/cos pairs), got 255; use 256 or another even number"),
        (lambda: S.table_torch(0, 16), "max_len must be a positive integer, got 0"),
        (lambda: S.table_torch(4.0, 16), "max_len must be a positive integer, got 4.0"),
        (lambda: S.table_torch(True, 16), "max_len must be a positive integer, got True"),
        (lambda: S.table_torch(4, 15), "d must be a positive even integer (dimensions come in sin/cos pairs), got 15; use 16 or another even number"),
        (lambda: S.table_torch(4, 16, 1.0), "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1.0; the paper uses base=10000"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_every_function_uses_the_base_it_is_given():
    base, d = 9.0, 4
    want = [loop_encoding(p, d, base) for p in range(6)]
    np.testing.assert_allclose(S.encode(5, d, base), want[5], rtol=1e-12)
    np.testing.assert_allclose(S.table(6, d, base), want, atol=1e-12)
    np.testing.assert_allclose(S.table(np.int64(6), d, base), want, atol=1e-12)
    np.testing.assert_allclose(S.angular_frequencies(d, base), [1.0, 1 / 3], rtol=1e-15)
    np.testing.assert_allclose(S.periods(d, base), [2 * math.pi, 6 * math.pi], rtol=1e-15)
    assert S.dot(2, 5, d, base) == pytest.approx(want[2] @ want[5], abs=1e-12)
    assert S.dot_closed_form(3, d, base) == pytest.approx(math.cos(3) + math.cos(1), abs=1e-12)
    np.testing.assert_allclose(S.dot_matrix([1, 4], d, base), [[want[1] @ want[1], want[1] @ want[4]], [want[4] @ want[1], want[4] @ want[4]]], atol=1e-12)
    np.testing.assert_allclose(S.shift_rotation(2, d, base) @ want[3], want[5], atol=1e-12)
    np.testing.assert_allclose(S.table_torch(6, d, base).double().numpy(), want, atol=1e-6)
    np.testing.assert_allclose(S.hand_angles(7, d, base), [7 - 2 * math.pi, 7 / 3], rtol=1e-12)


def test_hand_angles_are_reduced_to_one_turn():
    angles = S.hand_angles(100, 16)
    assert np.all((0 <= angles) & (angles < 2 * math.pi))
    assert angles[0] == pytest.approx(100 - 15 * 2 * math.pi, rel=1e-12)  # 100 rad is 15 turns and 5.75 rad
    assert S.hand_angles(0, 4).tolist() == [0.0, 0.0]


def test_shift_rotation_blocks_are_exact():
    m = S.shift_rotation(1, 4, 10_000)
    c0, s0, c1, s1 = math.cos(1), math.sin(1), math.cos(0.01), math.sin(0.01)
    np.testing.assert_allclose(m, [[c0, s0, 0, 0], [-s0, c0, 0, 0], [0, 0, c1, s1], [0, 0, -s1, c1]], rtol=1e-15, atol=0)
    np.testing.assert_array_equal(S.shift_rotation(0, 6), np.eye(6))
    np.testing.assert_allclose(S.shift_rotation(-3, 4) @ S.shift_rotation(3, 4), np.eye(4), atol=1e-15)


def test_distinct_positions_uses_its_tolerance():
    # d = 2: a single pair at ω = 1; the closest of positions 0 … 49 are 44 apart, 2·|sin 22| ≈ 0.0177 apart
    gap = 2 * abs(math.sin(22))
    assert S.distinct_positions(50, 2)
    assert S.distinct_positions(50, 2, atol=gap * 0.99)
    assert not S.distinct_positions(50, 2, atol=gap * 1.01)
    assert S.distinct_positions(44, 2, atol=gap * 1.01)  # position 44 is not in range 0 … 43
    assert S.distinct_positions(2, 4, base=9.0, atol=1.0)


def test_init_scale_helpers():
    assert S.SINUSOID_RMS == pytest.approx(math.sqrt(0.5), rel=1e-15)
    assert S.content_to_position_ratio(0.5, 0.25) == 2.0
    assert S.embedding_scale(4) == 2.0 and type(S.embedding_scale(4)) is float
    assert (S.DEFAULT_BASE, S.PAPER_DIM) == (10_000.0, 512)


# --- arguments -----------------------------------------------------------------------------------------------------


def test_a_table_of_one_position():
    # table(1) is position 0 alone: sin 0 = 0 and cos 0 = 1 in every pair
    np.testing.assert_array_equal(sinusoidal.table(1, 4, 9.0), [[0.0, 1.0, 0.0, 1.0]])


BAD = [
    (lambda: sinusoidal.angular_frequencies(15), "d"),
    (lambda: sinusoidal.angular_frequencies(16, 1.0), "base"),
    (lambda: sinusoidal.period_ratio(7), "d"),  # dimensions come in sin/cos pairs
    (lambda: sinusoidal.period_ratio(16, 1.0), "base"),
    (lambda: sinusoidal.period_limit(1.0), "base"),  # base 1 gives every pair the same frequency
    (lambda: sinusoidal.period_limit(math.inf), "base"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()


# --- periods -------------------------------------------------------------------------------------------------------


FAST = settings(max_examples=30, deadline=None)


def wavelengths_loop(d: int, base: float) -> list[float]:
    return [2 * math.pi * base ** (2 * i / d) for i in range(d // 2)]


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
