"""Lesson 1's seeded self-attention: checked against loops, torch, and the permutation identities."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import attention as at
from posenc import examples as ex
from posenc import sinusoidal as S
from expect import raises_exactly


def loop_attention(x, wq, wk, wv, mask=None):
    """Scaled dot-product attention written as plain Python loops (the reference)."""
    n, d = len(x), len(wq)
    q = [[sum(x[i][a] * wq[a][b] for a in range(d)) for b in range(d)] for i in range(n)]
    k = [[sum(x[i][a] * wk[a][b] for a in range(d)) for b in range(d)] for i in range(n)]
    v = [[sum(x[i][a] * wv[a][b] for a in range(d)) for b in range(d)] for i in range(n)]
    out = []
    for i in range(n):
        seen = [j for j in range(n) if mask is None or mask[i][j]]
        s = {j: sum(q[i][b] * k[j][b] for b in range(d)) / math.sqrt(d) for j in seen}
        top = max(s.values())
        e = {j: math.exp(s[j] - top) for j in seen}
        z = sum(e.values())
        out.append([sum(e[j] / z * v[j][b] for j in seen) for b in range(d)])
    return np.array(out)


@pytest.fixture(scope="module")
def head():
    return at.make_head(6, seed=3)


def test_attend_matches_loops(head):
    x = np.random.default_rng(1).normal(size=(5, 6))
    for mask in (None, at.causal_mask(5)):
        ref = loop_attention(x.tolist(), head.w_q.tolist(), head.w_k.tolist(), head.w_v.tolist(), None if mask is None else mask.tolist())
        np.testing.assert_allclose(at.attend(x, head, mask).out, ref, rtol=1e-12, atol=1e-12)


def test_attend_matches_torch_sdpa(head):
    x = np.random.default_rng(2).normal(size=(7, 6))
    r = at.attend(x, head, at.causal_mask(7))
    q, k, v = (torch.tensor(m) for m in (r.q, r.k, r.v))
    ref = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)[0]
    np.testing.assert_allclose(r.out, ref.numpy(), rtol=1e-10, atol=1e-12)


def test_weights_are_distributions_and_causal_hides_the_future(head):
    x = np.random.default_rng(3).normal(size=(6, 6))
    w = at.attend(x, head, at.causal_mask(6)).weights
    np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert np.all(np.triu(w, k=1) == 0)
    assert w[0, 0] == 1.0  # the first token can only see itself


def test_head_is_seeded_with_the_documented_scale():
    a, b, c = at.make_head(8, 7), at.make_head(8, 7), at.make_head(8, 8)
    np.testing.assert_array_equal(a.w_q, b.w_q)
    assert not np.allclose(a.w_q, c.w_q)
    # entries N(0, 1/d): with n = d² = 65,536 draws the sample mean has standard error σ/√n and the
    # sample std σ/√(2n); six standard errors (a false alarm once in 10⁸ seeds) separate 1/√d from
    # any other plausible scale (1/d, 1, √(2/d) are off by factors, not by 2 %)
    d = 256
    big = at.make_head(d, 0)
    n, sigma = d * d, 1 / math.sqrt(d)
    for w in (big.w_q, big.w_k, big.w_v):
        assert abs(w.mean()) < 6 * sigma / math.sqrt(n)
        assert abs(w.std() - sigma) < 6 * sigma / math.sqrt(2 * n)
    # three independent draws, not one matrix reused
    for a, b in ((big.w_q, big.w_k), (big.w_k, big.w_v), (big.w_q, big.w_v)):
        assert abs(np.corrcoef(a.ravel(), b.ravel())[0, 1]) < 6 / math.sqrt(n)


def test_token_vectors_are_a_lookup_table():
    v = at.token_vectors(np.array([5, 9, 5]), d=4, seed=1)
    np.testing.assert_array_equal(v[0], v[2])
    assert not np.allclose(v[0], v[1])
    np.testing.assert_array_equal(at.token_vectors(np.array([9]), d=4, seed=1)[0], v[1])  # independent of the sentence


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 9), seed=st.integers(0, 2**31), data=st.data())
def test_permutation_equivariance_without_positions(n, seed, data):
    perm = np.array(data.draw(st.permutations(range(n))))
    x = np.random.default_rng(seed).normal(size=(n, 6))
    h = at.make_head(6, seed % 1000)
    a, b = at.attend(x, h), at.attend(x[perm], h)
    p = at.permutation_matrix(perm)
    np.testing.assert_allclose(b.out, a.out[perm], rtol=0, atol=1e-12)
    np.testing.assert_allclose(b.out, p @ a.out, rtol=0, atol=1e-12)
    np.testing.assert_allclose(b.weights, p @ a.weights @ p.T, rtol=0, atol=1e-12)
    # stacking layers keeps it: a composition of equivariant maps is equivariant
    heads = [h, at.make_head(6, seed % 1000 + 1)]
    np.testing.assert_allclose(at.stack(x[perm], heads), at.stack(x, heads)[perm], rtol=0, atol=1e-11)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 8), seed=st.integers(0, 2**31), data=st.data())
def test_causal_last_token_ignores_the_order_of_what_it_sees(n, seed, data):
    prefix = data.draw(st.permutations(range(n - 1)))
    perm = np.array(list(prefix) + [n - 1])  # rearrange everything before the last token
    x = np.random.default_rng(seed).normal(size=(n, 6))
    h = at.make_head(6, seed % 1000)
    m = at.causal_mask(n)
    np.testing.assert_allclose(at.attend(x[perm], h, m).out[-1], at.attend(x, h, m).out[-1], rtol=0, atol=1e-12)


def test_lesson_sentences_swap():
    for text, i, j in (ex.SWAP_MAIN, ex.SWAP_SHORT):
        perm = at.swap(len(text), i, j)
        swapped = at.permute_text(text, perm)
        assert swapped[i] == text[j] and swapped[j] == text[i] and sorted(swapped) == sorted(text)
        h = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
        diffs = {}
        for pos in (False, True):
            a = at.attend(at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED, positions=pos), h).out
            b = at.attend(at.sentence_input(swapped, ex.ATTN_D, ex.ATTN_SEED, positions=pos), h).out
            diffs[pos] = at.matched_difference(a, b, perm)
        assert diffs[False] <= 4 * np.finfo(float).eps
        assert diffs[True] > 0.05


def test_causal_example_one_layer_blind_two_layers_not():
    text, i, j = ex.CAUSAL
    perm = at.swap(len(text), i, j)
    m = at.causal_mask(len(text))
    one = [at.make_head(ex.ATTN_D, seed=ex.ATTN_SEED)]
    two = one + [at.make_head(ex.ATTN_D, seed=ex.SECOND_LAYER_SEED)]
    xa, xb = at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED), at.sentence_input(at.permute_text(text, perm), ex.ATTN_D, ex.ATTN_SEED)
    assert np.abs(at.stack(xa, one, m)[-1] - at.stack(xb, one, m)[-1]).max() <= 4 * np.finfo(float).eps
    assert np.abs(at.stack(xa, one, m)[i] - at.stack(xb, one, m)[j]).max() > 0.05  # the moved token sees a different prefix
    assert np.abs(at.stack(xa, two, m)[-1] - at.stack(xb, two, m)[-1]).max() > 0.05


def test_permutation_helpers():
    x = np.arange(12.0).reshape(4, 3)
    perm = np.array([2, 0, 3, 1])
    p = at.permutation_matrix(perm)
    np.testing.assert_array_equal(p @ x, x[perm])
    np.testing.assert_array_equal(p @ p.T, np.eye(4))
    np.testing.assert_array_equal(at.swap(5, 1, 3), [0, 3, 2, 1, 4])
    assert at.swap(1, 0, 0).tolist() == [0] and at.swap(np.int64(2), 1, 1).tolist() == [0, 1]
    assert at.permute_text("猫吃鱼", at.swap(3, 0, 2)) == "鱼吃猫"


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda h: at.attend(np.zeros((3, 5)), h), "columns"),
        (lambda h: at.attend(np.zeros((3, 6)), h, np.ones((2, 2))), "shape"),
        (lambda h: at.attend(np.zeros((3, 6)), h, np.full((3, 3), 2)), "0 and 1"),
        (lambda h: at.attend(np.zeros((2, 6)), h, np.array([[1, 0], [0, 0]])), "row 1"),
        (lambda h: at.attend(np.full((2, 6), np.nan), h), "NaN"),
        (lambda h: at.attend(np.zeros(6), h), "2-D"),
        (lambda h: at.attend(np.zeros((2, 6)), "head"), "make_head"),
        (lambda h: at.stack(np.zeros((2, 6)), []), "heads is empty"),
        (lambda h: at.make_head(0, 7), "positive integer"),
        (lambda h: at.make_head(4, seed=-1), "seed"),
        (lambda h: at.make_head(4, seed=1.5), "seed"),
        (lambda h: at.permutation_matrix([0, 0, 1]), "exactly once"),
        (lambda h: at.permutation_matrix([0.0, 1.0]), "integer"),
        (lambda h: at.matched_difference(np.zeros((3, 2)), np.zeros((3, 2)), [0, 1]), "must match"),
        (lambda h: at.matched_difference(np.zeros((3, 2)), np.zeros((2, 2)), [0, 1]), "same shape"),
        (lambda h: at.swap(3, 0, 3), "below n"),
        (lambda h: at.sentence_input("猫吃鱼", d=5, seed=7, positions=True), "even"),
        (lambda h: at.sentence_input("猫吃鱼", 8, 7, positions="yes"), "True or False"),
        (lambda h: at.sentence_input("", 8, 7), "empty"),
        (lambda h: at.token_vectors(np.array([-1, 2]), 8, 7), "non-negative"),
        (lambda h: at.causal_mask(0), "positive"),
    ],
)
def test_bad_input_raises_clear_errors(head, call, match):
    with pytest.raises(ValueError, match=match):
        call(head)


def test_tiny_values_are_printed_as_powers_of_ten():
    from posenc.quantities.lesson1 import tiny

    assert tiny(0.0) == "0"
    assert tiny(2.220446049250313e-16) == "2.2×10⁻¹⁶"
    assert tiny(1.5e3) == "1.5×10³"
    with pytest.raises(ValueError, match="not finite"):
        tiny(float("nan"))


# --- exact messages and edges ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda h: at.make_head(0, 7), "d must be a positive integer number of dimensions, got 0; pass e.g. d=8"),
        (lambda h: at.make_head(4.0, 7), "d must be a positive integer number of dimensions, got 4.0; pass e.g. d=8"),
        (lambda h: at.make_head(True, 7), "d must be a positive integer number of dimensions, got True; pass e.g. d=8"),
        (lambda h: at.make_head(4, seed=-1), "seed must be a non-negative integer seed, got -1; pass e.g. seed=7"),
        (lambda h: at.make_head(4, seed=True), "seed must be a non-negative integer seed, got True; pass e.g. seed=7"),
        (lambda h: at.token_vectors(np.array([[1]]), 8, 7), "ids must be a non-empty 1-D sequence of token IDs, got shape (1, 1)"),
        (lambda h: at.token_vectors(np.array([], dtype=int), 8, 7), "ids must be a non-empty 1-D sequence of token IDs, got shape (0,)"),
        (lambda h: at.token_vectors(np.array([1.0]), 8, 7),
         "ids must be non-negative integers, got array([1.]) (dtype float64); use tokenize.token_ids(text)"),
        (lambda h: at.token_vectors(np.array([3, -1, 2, 5, 6]), 8, 7),
         "ids must be non-negative integers, got array([ 3, -1,  2,  5]) (dtype int64); use tokenize.token_ids(text)"),
        (lambda h: at.sentence_input("猫吃鱼", d=5, seed=7, positions=True),
         "d must be even when positions=True (the position vectors come in sin/cos pairs), got 5"),
        (lambda h: at.sentence_input("猫吃鱼", 8, 7, positions=1), "positions must be True or False, got 1"),
        (lambda h: at.causal_mask(0), "n must be a positive sequence length, got 0"),
        (lambda h: at.causal_mask(2.0), "n must be a positive sequence length, got 2.0"),
        (lambda h: at.attend(np.zeros(6), h), "x must be a 2-D array (tokens × d) with at least one row, got shape (6,)"),
        (lambda h: at.attend(np.zeros((0, 6)), h), "x must be a 2-D array (tokens × d) with at least one row, got shape (0, 6)"),
        (lambda h: at.attend(np.array([["a"] * 6]), h), "x must hold real numbers, got dtype <U1"),
        (lambda h: at.attend(np.full((2, 6), np.inf), h), "x contains NaN or ∞; every input vector must be finite"),
        (lambda h: at.attend(np.zeros((3, 5)), h), "x has 5 columns but the head expects d = 6; build both with the same d"),
        (lambda h: at.attend(np.zeros((2, 6)), "head"), "head must be a Head from make_head(), got str"),
        (lambda h: at.attend(np.zeros((3, 6)), h, np.ones((2, 2))), "mask must have shape (3, 3) to match 3 tokens, got (2, 2)"),
        (lambda h: at.attend(np.zeros((2, 6)), h, np.full((2, 2), 2)),
         "mask must be boolean or hold only 0 and 1 (1 = may attend); got other values"),
        (lambda h: at.attend(np.zeros((2, 6)), h, np.full((2, 2), "1")),
         "mask must be boolean or hold only 0 and 1 (1 = may attend); got other values"),
        (lambda h: at.attend(np.zeros((3, 6)), h, np.array([[1, 0, 0], [1, 1, 0], [0, 0, 0]])),
         "mask row 2 forbids every key; each query must see at least one token (itself, for a causal mask)"),
        (lambda h: at.softmax(np.array([[0.0, 1.0], [-np.inf, -np.inf]])), "softmax needs at least one finite score per row"),
        (lambda h: at.stack(np.zeros((2, 6)), []), "heads is empty; pass at least one Head, e.g. [make_head(8, seed=7), make_head(8, seed=8)]"),
        (lambda h: at.check_permutation([[0]]), "perm must be a non-empty 1-D sequence of indices, got shape (1, 1)"),
        (lambda h: at.check_permutation([]), "perm must be a non-empty 1-D sequence of indices, got shape (0,)"),
        (lambda h: at.check_permutation([0.0, 1.0]), "perm must hold integer indices, got dtype float64"),
        (lambda h: at.check_permutation([0, 0, 1]), "perm must contain each of 0 … 2 exactly once, got [0, 0, 1]"),
        (lambda h: at.check_permutation([1, 2]), "perm must contain each of 0 … 1 exactly once, got [1, 2]"),
        (lambda h: at.check_permutation([0, 1], 3), "perm has 2 entries but the sequence has 3 tokens; they must match"),
        (lambda h: at.swap(0, 0, 0), "n must be a positive sequence length, got 0"),
        (lambda h: at.swap(2.0, 0, 1), "n must be a positive sequence length, got 2.0"),
        (lambda h: at.swap(True, 0, 0), "n must be a positive sequence length, got True"),
        (lambda h: at.swap(3, 0, 3), "i and j must be positions below n = 3, got i = 0, j = 3"),
        (lambda h: at.swap(3, 3, 0), "i and j must be positions below n = 3, got i = 3, j = 0"),
        (lambda h: at.swap(3, -1, 0), "i must be a non-negative integer position, got -1; positions count from 0"),
        (lambda h: at.swap(3, 0, -1), "j must be a non-negative integer position, got -1; positions count from 0"),
        (lambda h: at.permute_text("猫吃鱼", [0, 1]), "perm has 2 entries but the sequence has 3 tokens; they must match"),
        (lambda h: at.matched_difference(np.zeros((3, 2)), np.zeros((2, 2)), [0, 1]),
         "out_a and out_b must have the same shape, got (3, 2) and (2, 2)"),
        (lambda h: at.attend_padded([1, 2], [1, 1, 1], [0, 1], at.make_head(6, 7), 7),
         "ids, mask and position_ids must be 1-D with the same length, got (2,), (3,), (2,)"),
        (lambda h: at.attend_padded([1, 2], [1, 1], [0, 1, 2], at.make_head(6, 7), 7),
         "ids, mask and position_ids must be 1-D with the same length, got (2,), (2,), (3,)"),
        (lambda h: at.attend_padded([1, 2], [0, 0], [1, 1], at.make_head(6, 7), 7),
         "mask has no real token (all zeros); a row must contain at least one token"),
        (lambda h: at.attend_padded([1, 2], [1, 1], [0, 1], at.make_head(5, 7), 7), "the head's d must be even for sinusoidal position vectors, got 5"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(head, call, message):
    with raises_exactly(message):
        call(head)


def test_head_and_token_draws_are_the_documented_ones():
    # no hidden defaults: every caller names the width and the seed
    import inspect

    for f in (at.make_head, at.token_vectors, at.sentence_input, at.attend_padded):
        params = inspect.signature(f).parameters
        for name in ("d", "seed"):
            if name in params:
                assert params[name].default is inspect.Parameter.empty, (f.__name__, name)
    h = at.make_head(8, 7)
    assert h.d == 8 and h.seed == 7 and h.w_q.shape == (8, 8)
    # W_q, W_k, W_v are the first three draws of default_rng(seed), in that order, scaled by 1/√d
    rng = np.random.default_rng(7)
    for w in (h.w_q, h.w_k, h.w_v):
        np.testing.assert_allclose(w, rng.standard_normal((8, 8)) / math.sqrt(8), rtol=1e-15, atol=0)
    # a token's vector is default_rng([seed, id]).standard_normal(d)
    np.testing.assert_array_equal(at.token_vectors(np.array([0x732B]), 4, 3)[0], np.random.default_rng([3, 0x732B]).standard_normal(4))


def test_sentence_input_adds_the_sinusoidal_table_only_when_asked():
    from posenc import tokenize

    plain = at.sentence_input("猫吃鱼", d=4, seed=1)
    np.testing.assert_array_equal(plain, at.token_vectors(tokenize.token_ids("猫吃鱼"), 4, 1))
    with_pos = at.sentence_input("猫吃鱼", d=4, seed=1, positions=True)
    # the §3.5 vectors: position 0 adds (0, 1, 0, 1), position 1 adds (sin 1, cos 1, sin 0.01, cos 0.01)
    np.testing.assert_allclose(with_pos[0] - plain[0], [0, 1, 0, 1], atol=0)
    np.testing.assert_allclose(with_pos[1] - plain[1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)], rtol=1e-12)


def test_masks_and_softmax_at_their_edges():
    assert at.causal_mask(1).tolist() == [[True]]
    assert at.causal_mask(np.int64(3)).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    h = at.make_head(6, 3)
    x = np.random.default_rng(0).normal(size=(3, 6))
    # a 0/1 mask means the same as the boolean one
    np.testing.assert_array_equal(at.attend(x, h, at.causal_mask(3).astype(int)).out, at.attend(x, h, at.causal_mask(3)).out)
    r = at.attend(x, h, at.causal_mask(3))
    assert np.isneginf(r.scores[0, 1]) and r.weights[0, 1] == 0
    np.testing.assert_allclose(r.scores[2], r.q[2] @ r.k.T / math.sqrt(6), rtol=1e-12)
    # softmax: shifted by the row maximum, so huge scores do not overflow; −∞ gets weight 0
    w = at.softmax(np.array([[1000.0, 1000.0, -np.inf], [0.0, math.log(3), -np.inf]]))
    np.testing.assert_allclose(w, [[0.5, 0.5, 0], [0.25, 0.75, 0]], rtol=1e-12)
    # integer input is accepted and treated as float
    np.testing.assert_allclose(at.attend(np.ones((2, 6), dtype=int), h).out, at.attend(np.ones((2, 6)), h).out)
    np.testing.assert_allclose(at.attend([[1.0] * 6], h).out, at.attend(np.ones((1, 6)), h).out)


def test_stack_adds_each_layer_to_the_residual():
    x = np.random.default_rng(1).normal(size=(4, 6))
    a, b = at.make_head(6, 1), at.make_head(6, 2)
    h1 = x + at.attend(x, a).out
    np.testing.assert_allclose(at.stack(x, [a, b]), h1 + at.attend(h1, b).out, rtol=1e-12)
    np.testing.assert_allclose(at.stack(x, iter([a])), h1, rtol=1e-12)  # any iterable of heads


def test_matched_difference_compares_each_token_with_itself():
    a = np.arange(6.0).reshape(3, 2)
    perm = np.array([2, 0, 1])
    assert at.matched_difference(a, a[perm], perm) == 0.0
    b = a[perm].copy()
    b[1, 0] += 0.25
    assert at.matched_difference(a, b, perm) == 0.25
    assert at.check_permutation(np.array([1, 0], dtype=np.uint8)).dtype == np.int64


def test_attend_padded_sees_only_real_tokens():
    h = at.make_head(6, 2)
    ids, mask = np.array([0, 0x732B, 0x5403]), np.array([0, 1, 1])
    got = at.attend_padded(ids, mask, np.array([1, 0, 1]), h, seed=7)
    alone = at.attend(at.token_vectors(ids[1:], 6, 7) + S.table(2, 6), h).out
    np.testing.assert_allclose(got, alone, rtol=1e-12)
    seeded = at.attend_padded(ids, mask, np.array([1, 0, 1]), h, seed=3)
    assert not np.allclose(seeded, got)
