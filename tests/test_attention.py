"""posenc.attention: the seeded head, attention and its layers, against loops, torch and the permutation identities;
arguments, edges and messages.

What the tests compare against, part by part:

- Lesson 1's seeded self-attention: checked against loops, torch, and the permutation identities.
- Attention at its edges: the smallest valid head, sentence and multi-head layer; softmax on rows of very different
  scale, on a batch and on float32 scores; and the errors that name the argument.
- Lesson 2's token-mixing helpers (``others_moved``, ``row_difference``, ``layer_norm``): their definitions checked
  on hand-derived cases and against attention run directly, and their errors, which name the argument.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch

from expect import raises_exactly
from posenc import attention as at
from posenc import configs, learned, naive
from posenc import examples as ex
from posenc import sinusoidal as S
from posenc import tokenize


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


# --- edges and messages --------------------------------------------------------------------------------------------


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


# --- token mixing: others_moved, row_difference, layer_norm --------------------------------------------------------


def _square_of_sum(h: np.ndarray) -> np.ndarray:
    """A layer that mixes every row: each output row is (sum of the input rows)², element by element."""
    return np.repeat((h.sum(axis=0, keepdims=True)) ** 2, len(h), axis=0)


def test_others_moved_adds_the_change_to_the_row():
    # X = three rows of 1: the sum is 3, every output row 9. Adding 2 to row 0 makes the sum 5, every
    # output row 25, so every other row moved by 16 (replacing row 0 by 2 would give 16 − 9 = 7,
    # subtracting it 1 − 9 = −8).
    x = np.ones((3, 1))
    assert at.others_moved(_square_of_sum, x, 0, [2.0]) == 16.0
    assert at.others_moved(_square_of_sum, x, 2, np.array([-4.0])) == 8.0  # sum −1: 1 − 9


def test_others_moved_is_the_largest_change_of_attention_on_the_other_rows():
    # The definition, computed here by running the head on X and on X with the change added to one row.
    rng = np.random.default_rng(11)
    x, change, head = rng.normal(size=(4, 6)), rng.normal(size=6), at.make_head(6, 3)
    row = 1
    x2 = x.copy()
    x2[row] = x[row] + change
    before, after = at.attend(x, head).out, at.attend(x2, head).out
    expected = max(np.abs(after[r] - before[r]).max() for r in (0, 2, 3))
    assert at.others_moved(lambda h: at.attend(h, head).out, x, row, change) == pytest.approx(expected, rel=1e-12)
    assert expected > 0.01  # attention mixes rows, so the check is not 0 against 0


def test_others_moved_of_a_single_row_is_zero():
    # One token: no other row exists, so nothing else can move, whatever the layer does.
    assert at.others_moved(_square_of_sum, np.ones((1, 3)), 0, np.ones(3)) == 0.0


def test_layer_norm_eps_enters_the_denominator():
    # Row (0, 2): mean 1, variance 1, so LayerNorm gives (−1, 1)/√(1 + eps).
    out = at.layer_norm(np.array([[0.0, 2.0]]), eps=3.0)
    np.testing.assert_allclose(out, [[-0.5, 0.5]], rtol=1e-15)


@pytest.mark.parametrize("call, message", [
    (lambda: at.layer_norm(np.ones((2, 4)), eps=0), "eps must be a positive finite number, got 0"),
    (lambda: at.layer_norm(np.ones((2, 4)), eps=-1e-5), "eps must be a positive finite number, got -1e-05"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), -1, np.ones(4)),
     "row must be a non-negative integer position, got -1; positions count from 0"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 1.0, np.ones(4)),
     "row must be an integer position, got the float 1.0; pass int(1.0)"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 2, np.ones(4)), "row must be below the 2 rows of x, got 2"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 0, np.ones(3)), "change must be one row of width 4, got shape (3,)"),
    (lambda: at.row_difference(np.ones((2, 2)), 0),
     "pass exactly one of row_b (compare two rows of out) or other (compare out with other at the same row)"),
    (lambda: at.row_difference(np.ones((2, 2)), 0, 1, other=np.ones((2, 2))),
     "pass exactly one of row_b (compare two rows of out) or other (compare out with other at the same row)"),
])
def test_mixing_helpers_name_the_argument_in_their_messages(call, message):
    with raises_exactly(message):
        call()


# --- multi-head attention, layer norm, the swap experiment ---------------------------------------------------------


def _torch_mha(mh: at.MultiHead, x: np.ndarray, mask=None) -> np.ndarray:
    """The same layer as torch.nn.MultiheadAttention: in-projection = the heads' W stacked by columns."""
    d = mh.d
    layer = torch.nn.MultiheadAttention(d, len(mh.heads), bias=False, batch_first=True, dtype=torch.float64)
    w = {name: np.hstack([getattr(h, name) for h in mh.heads]) for name in ("w_q", "w_k", "w_v")}
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.tensor(np.vstack([w["w_q"].T, w["w_k"].T, w["w_v"].T])))
        layer.out_proj.weight.copy_(torch.tensor(mh.w_o.T))
        t = torch.tensor(x)[None]
        forbid = None if mask is None else torch.tensor(~mask)
        out, _ = layer(t, t, t, attn_mask=forbid, need_weights=False)
    return out[0].numpy()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(n=st.integers(1, 7), heads=st.sampled_from([1, 2, 4]), seed=st.integers(0, 2**31), causal=st.booleans())
def test_multi_head_attention_matches_torch(n, heads, seed, causal):
    mh = at.make_multi_head(8, heads, seed)
    x = np.random.default_rng(seed).normal(size=(n, 8))
    mask = at.causal_mask(n) if causal else None
    np.testing.assert_allclose(at.multi_head_attend(x, mh, mask), _torch_mha(mh, x, mask), rtol=1e-10, atol=1e-12)


def test_multi_head_draws_documented_shapes_and_scale():
    mh = at.make_multi_head(256, 4, 0)
    assert len(mh.heads) == 4 and all(h.w_q.shape == (256, 64) for h in mh.heads) and mh.w_o.shape == (256, 256)
    assert abs(np.concatenate([h.w_k.ravel() for h in mh.heads]).std() * 16 - 1) < 0.05  # N(0, 1/d)
    np.testing.assert_array_equal(at.make_multi_head(8, 2, 7).w_o, at.make_multi_head(8, 2, 7).w_o)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(n=st.integers(2, 8), seed=st.integers(0, 2**31), data=st.data())
def test_multi_head_attention_is_permutation_equivariant(n, seed, data):
    mh = at.make_multi_head(8, 2, seed)
    x = np.random.default_rng(seed + 1).normal(size=(n, 8))
    perm = np.array(data.draw(st.permutations(range(n))))
    p = at.permutation_matrix(perm)
    np.testing.assert_allclose(at.multi_head_attend(p @ x, mh), p @ at.multi_head_attend(x, mh), atol=1e-12)


def test_layer_norm_matches_torch():
    x = np.random.default_rng(0).normal(size=(5, 8)) * 3 + 1
    ref = torch.nn.functional.layer_norm(torch.tensor(x), (8,), eps=1e-5).numpy()
    np.testing.assert_allclose(at.layer_norm(x), ref, rtol=1e-12, atol=1e-12)


def test_swap_experiment_is_the_lessons_computation():
    text, i, j = ex.SWAP_MAIN
    head = at.make_head(ex.ATTN_D, ex.ATTN_SEED)
    sw = at.swap_experiment(text, i, j, head, ex.ATTN_SEED)
    assert sw.swapped == text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:]
    np.testing.assert_array_equal(sw.before.out, at.attend(at.sentence_input(text, ex.ATTN_D, ex.ATTN_SEED), head).out)
    assert sw.moved < 1e-14 and sw.weights_error < 1e-14 and sw.out_error < 1e-14
    with_pos = at.swap_experiment(text, i, j, head, ex.ATTN_SEED, positions=True)
    assert with_pos.moved > 0.1 and with_pos.out_error > 0.1
    causal = at.swap_experiment(*ex.CAUSAL, head, ex.ATTN_SEED, causal=True)
    assert np.all(np.triu(causal.before.weights, 1) == 0)
    assert at.row_difference(causal.before.out, -1, other=causal.after.out) < 1e-14 < causal.moved
    assert at.row_difference(np.array([[1.0, 2.0], [1.5, 2.0]]), 0, 1) == 0.5


@pytest.mark.parametrize("call, match", [
    (lambda: at.make_multi_head(8, 3, 0), "n_heads"),
    (lambda: at.make_multi_head(8, 0, 0), "n_heads"),
    (lambda: at.multi_head_attend(np.ones((2, 8)), at.make_head(8, 0)), "MultiHead"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 2, np.ones(4)), "row"),
    (lambda: at.others_moved(at.layer_norm, np.ones((2, 4)), 0, np.ones(3)), "change"),
    (lambda: at.layer_norm(np.ones((2, 4)), eps=0), "eps"),
    (lambda: at.swap_experiment("猫吃鱼", 0, 2, at.make_head(8, 0), 0, causal="yes"), "causal"),
    (lambda: at.row_difference(np.ones((2, 2)), 0), "exactly one"),
    (lambda: naive.position_where_share_falls_to(0, 1.0), "share"),
    (lambda: naive.normalised_position(1.5, 6), "value"),
    (lambda: learned.rows_to_reach(configs.load("gpt2"), -1), "p"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- input dtypes --------------------------------------------------------------------------------------------------


HEAD = at.make_head(2, seed=0)


def test_attention_refuses_complex_and_string_vectors_by_name():
    with raises_exactly("x must hold real numbers, got dtype complex128"):
        at.attend([[1 + 0j, 0.0], [0.0, 1.0]], HEAD)
    with raises_exactly("x must hold real numbers, got dtype <U3"):
        at.attend([["1.0", "0.0"], ["0.0", "1.0"]], HEAD)


def test_attention_takes_integer_lists_as_the_same_floats():
    ints = at.attend([[1, 0], [0, 1]], HEAD).out
    floats = at.attend(np.array([[1.0, 0.0], [0.0, 1.0]]), HEAD).out
    np.testing.assert_array_equal(ints, floats)
