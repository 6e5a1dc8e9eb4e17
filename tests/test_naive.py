"""posenc.naive: the raw index added to the token vector and the [0, 1] scale, against closed forms; arguments, edges
and messages.
"""

from __future__ import annotations

from itertools import count

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest

from posenc import configs, learned, naive


def test_raw_index_ratio_at_the_lesson_probe():
    # content RMS over the added index p: at p = 37, 1/37 and 0.02/37
    assert naive.raw_index_content_ratio(37, 1.0) == pytest.approx(1 / 37, rel=1e-15)
    assert naive.raw_index_content_ratio(37, 0.02) == pytest.approx(0.02 / 37, rel=1e-15)
    assert naive.raw_index_content_ratio(1, 0.5) == 0.5  # at p = 1 the index is as large as one unit of content


@settings(max_examples=50, deadline=None)
@given(ps=st.lists(st.integers(1, 10**6), min_size=1, max_size=20), rms=st.floats(1e-4, 10))
def test_vectorised_ratio_matches_the_scalar_one(ps, rms):
    got = naive.raw_index_content_ratios(np.array(ps), rms)
    np.testing.assert_allclose(got, [naive.raw_index_content_ratio(p, rms) for p in ps], rtol=1e-15)
    assert np.all(np.diff(got[np.argsort(ps)]) <= 0)  # never recovers as p grows


@settings(max_examples=50, deadline=None)
@given(length=st.integers(2, 5000))
def test_normalised_index_closed_forms(length):
    v = naive.normalised_index(length)
    assert v[0] == 0 and v[-1] == pytest.approx(1) and v.size == length
    assert naive.normalised_step(length) == pytest.approx(1 / (length - 1))
    assert naive.normalised_gap_in_tokens(naive.normalised_step(length), length) == pytest.approx(1)


def test_same_step_means_different_distances():
    assert naive.normalised_step(6) == pytest.approx(0.2)
    assert naive.normalised_gap_in_tokens(0.2, 101) == pytest.approx(20)
    # generating one more token moves every earlier token: 3/5 → 3/6
    assert naive.normalised_value(3, 6) == pytest.approx(0.6)
    assert naive.normalised_value(3, 7) == pytest.approx(0.5)


def test_naive_edges():
    assert naive.raw_index_content_ratio(1, 2.0) == 2.0
    assert naive.raw_index_content_ratios([1, 4], 2.0).tolist() == [2.0, 0.5]
    assert naive.raw_index_content_ratios(np.array([3], dtype=np.int32), 1.5).dtype == np.float64
    assert naive.normalised_index(2).tolist() == [0.0, 1.0]
    assert naive.normalised_value(0, 2) == 0.0 and naive.normalised_value(1, 2) == 1.0
    assert naive.normalised_step(11) == pytest.approx(0.1, rel=1e-15)
    assert naive.normalised_gap_in_tokens(0, 11) == 0.0 and naive.normalised_gap_in_tokens(1, 11) == pytest.approx(10, rel=1e-15)
    assert naive.normalised_gap_in_tokens(np.float64(0.5), 11) == pytest.approx(5, rel=1e-15)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(share=st.floats(1e-4, 1.0), rms=st.floats(1e-3, 10.0))
def test_position_where_share_falls_to_is_the_first_such_position(share, rms):
    p = naive.position_where_share_falls_to(share, rms)
    assert naive.raw_index_content_ratio(p, rms) <= share
    assert p == 1 or naive.raw_index_content_ratio(p - 1, rms) > share


# --- arguments (naive and learned) ---------------------------------------------------------------------------------


@pytest.mark.parametrize("share, content_rms", [(0.01, 0.07), (0.3, 2.1), (0.02, 0.14), (0.3, 4.2)])
def test_share_threshold_where_the_quotient_rounds_up(share, content_rms):
    # content_rms / share computes to a hair above a whole number (0.07 / 0.01 = 7.000000000000001), so the
    # ceiling overshoots by one; the answer is still the first p with content_rms / p ≤ share, found by counting
    assert content_rms / share > round(content_rms / share)
    first = next(p for p in count(1) if content_rms / p <= share)
    assert naive.position_where_share_falls_to(share, content_rms) == first


BAD = [
    (lambda: naive.normalised_position(True, 6), "value"),  # a bool is not a point on the scale, though 0 ≤ True ≤ 1
    (lambda: naive.normalised_position(False, 6), "value"),
    (lambda: naive.normalised_position("0.5", 6), "value"),
    (lambda: naive.position_where_share_falls_to(True, 1.0), "share"),
    (lambda: naive.position_where_share_falls_to(0.01, 0.0), "content_rms"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), -1), "p"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), 1.0), "p"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
