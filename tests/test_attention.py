"""Lesson 1's seeded self-attention: checked against loops, torch, and the permutation identities."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import attention as at
from posenc import examples as ex


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
    torch = pytest.importorskip("torch")
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
    big = at.make_head(256, 0)
    for w in (big.w_q, big.w_k, big.w_v):
        assert abs(w.std() * math.sqrt(256) - 1) < 0.05  # entries N(0, 1/d)
    assert not np.allclose(big.w_q, big.w_k)


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
