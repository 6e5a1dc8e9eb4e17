"""Attention at its edges: the smallest valid head, sentence and multi-head layer; softmax on rows of very
different scale, on a batch and on float32 scores; and the errors that name the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest

from posenc import attention as at
from expect import raises_exactly


def test_the_smallest_inputs_are_valid():
    # d = 1, one token with ID 0, a one-token causal mask: each is allowed, none is an edge case to refuse.
    head = at.make_head(1, 0)
    assert head.d == 1 and head.w_q.shape == (1, 1)
    x = at.token_vectors([0], 1, 0)
    np.testing.assert_array_equal(x, [np.random.default_rng([0, 0]).standard_normal(1)])
    out = at.attend(x, head, at.causal_mask(1)).out
    np.testing.assert_allclose(out, x @ head.w_v, rtol=1e-15)  # one key: weight 1 on itself
    assert at.check_permutation([0]).tolist() == [0] and at.permutation_matrix([0]).tolist() == [[1.0]]


def test_the_causal_mask_is_booleans():
    # "True where query i may see key j": a boolean array, usable as ~mask and in np.where as it is.
    m = at.causal_mask(3)
    assert m.dtype == np.bool_
    np.testing.assert_array_equal(~m, [[False, True, True], [False, False, True], [False, False, False]])


def test_a_single_head_layer_is_attention_then_w_o():
    mh = at.make_multi_head(4, 1, 3)
    assert len(mh.heads) == 1 and mh.heads[0].w_q.shape == (4, 4)
    x = np.random.default_rng(1).normal(size=(3, 4))
    np.testing.assert_allclose(at.multi_head_attend(x, mh), at.attend(x, mh.heads[0]).out @ mh.w_o, rtol=1e-13)


def test_every_head_remembers_the_seed_it_came_from():
    mh = at.make_multi_head(8, 2, 11)
    assert mh.seed == 11 and [h.seed for h in mh.heads] == [11, 11]
    assert at.make_head(4, 9).seed == 9


def test_softmax_shifts_each_row_by_its_own_maximum():
    # Row 2's scores are 1000 above row 1's: subtracting one maximum for the whole array would underflow
    # row 1 to 0/0. Each row is softmax of (0, 1): (1, e)/(1 + e).
    p = 1 / (1 + math.e)
    np.testing.assert_allclose(at.softmax(np.array([[0.0, 1.0], [1000.0, 1001.0]])), [[p, 1 - p], [p, 1 - p]], rtol=1e-15)


def test_softmax_works_on_a_batch_of_score_matrices():
    # (heads, queries, keys): the last axis is normalised, each (head, query) row on its own.
    s = np.random.default_rng(2).normal(size=(2, 3, 4)) * 5
    got = at.softmax(s)
    for h in range(2):
        for q in range(3):
            e = np.exp(s[h, q] - s[h, q].max())
            np.testing.assert_allclose(got[h, q], e / e.sum(), rtol=1e-14)


def test_softmax_of_float32_scores_is_computed_in_float64():
    # Scores 1e-4 apart: float32 rounds exp(−1e-4) to 7 digits; the float64 result is needed at 1e-12.
    s = np.array([[0.0, 1e-4, 2e-4]], dtype=np.float32)
    ref = np.exp(s.astype(np.float64))
    got = at.softmax(s)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ref / ref.sum(), rtol=1e-14)


def test_attention_accepts_a_nested_list():
    head = at.make_head(2, 0)
    np.testing.assert_array_equal(at.attend([[1, 0], [0, 2]], head).out, at.attend(np.array([[1.0, 0.0], [0.0, 2.0]]), head).out)


def test_the_swap_experiment_treats_both_orders_alike():
    # With positions and a causal mask, the sentence before and after the swap each go through the same
    # input rule (tokens + §3.5 vectors) and the same mask: each side equals attention run on it directly.
    text, head = "猫吃鱼了", at.make_head(6, 2)
    sw = at.swap_experiment(text, 0, 2, head, 2, positions=True, causal=True)
    assert sw.swapped == "鱼吃猫了"
    mask = at.causal_mask(4)
    for side, sentence in ((sw.before, text), (sw.after, sw.swapped)):
        direct = at.attend(at.sentence_input(sentence, 6, 2, positions=True), head, mask)
        np.testing.assert_array_equal(side.out, direct.out)
        assert np.all(np.triu(side.weights, 1) == 0)  # no query sees a later key


def test_a_left_padded_row_with_mask_positions_matches_the_unpadded_sentence():
    # Lesson 1's padding rule for a 4-wide head: two pads, then 猫吃鱼 at positions 0, 1, 2 (cumsum(mask) − 1).
    from posenc import tokenize

    head, ids = at.make_head(4, 5), tokenize.token_ids("猫吃鱼")
    padded = at.attend_padded(np.r_[[0, 0], ids], [0, 0, 1, 1, 1], [1, 1, 0, 1, 2], head, 5)
    np.testing.assert_allclose(padded, at.attend(at.sentence_input("猫吃鱼", 4, 5, positions=True), head).out, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("call, message", [
    (lambda: at.make_multi_head(8, 2, -1), "seed must be a non-negative integer seed, got -1; pass e.g. seed=7"),
    (lambda: at.make_multi_head(8, 3, 0), "n_heads must be a positive integer that divides d = 8, got 3; e.g. n_heads=2"),
    (lambda: at.make_multi_head(0, 1, 0), "d must be a positive integer number of dimensions, got 0; pass e.g. d=8"),
    (lambda: at.token_vectors([1, 2], 4, -3), "seed must be a non-negative integer seed, got -3; pass e.g. seed=7"),
    (lambda: at.token_vectors([1, 2], 4, 2.0), "seed must be a non-negative integer seed, got 2.0; pass e.g. seed=7"),
    (lambda: at.attend(np.zeros((2, 0)), at.make_head(6, 0)), "x has 0 columns but the head expects d = 6; build both with the same d"),
    (lambda: at.attend_padded([[1, 2]], [[1, 1]], [[0, 1]], at.make_head(6, 0), 0),
     "ids, mask and position_ids must be 1-D with the same length, got (1, 2), (1, 2), (1, 2)"),
    (lambda: at.multi_head_attend(np.ones((2, 8)), "mh"), "mh must be a MultiHead from make_multi_head(), got str"),
])
def test_bad_input_messages_name_the_argument(call, message):
    with raises_exactly(message):
        call()
