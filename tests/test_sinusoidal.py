"""posenc.sinusoidal against the paper's definition (Vaswani et al. 2017 §3.5) and its identities."""

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

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
