"""posenc.shift: shifting a sentence and which attention scores move, against the papers' formulas built here; edges
and messages.

What the tests compare against, part by part:

- Lesson 4's input checks at their edges: the shortest sentence a shift experiment takes, and the one-pair helpers'
  errors, each naming the argument the caller passed (exact messages).
- Lesson 3's position part of the "input" score under a shift, with a non-default base: built here from Vaswani et
  al. 2017 §3.5's sin/cos formula, so the base must reach both sides of the comparison.
"""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch

from expect import raises_exactly
from posenc import attention, rope, shift, tokenize
from posenc import attention, shift, tokenize
from posenc import examples as ex
from posenc import shift
from posenc.sinusoidal import DEFAULT_BASE


# --- the shift experiment ------------------------------------------------------------------------------------------


FAST = settings(max_examples=25, deadline=None)


def vaswani_pe(pos: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """§3.5: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d))."""
    out = np.zeros(d)
    for i in range(d // 2):
        out[2 * i] = math.sin(pos / base ** (2 * i / d))
        out[2 * i + 1] = math.cos(pos / base ** (2 * i / d))
    return out


def roformer_R(m: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """RoFormer §3: block-diagonal R^d_{Θ,m}, θ_i = base^(−2(i−1)/d), i = 1 … d/2, blocks [[cos, −sin], [sin, cos]]."""
    R = np.zeros((d, d))
    for i in range(1, d // 2 + 1):
        a = m * base ** (-2 * (i - 1) / d)
        j = 2 * (i - 1)
        R[j, j], R[j, j + 1], R[j + 1, j], R[j + 1, j + 1] = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
    return R


def reference_scores(text: str, start: int, method: str, d: int = ex.L4_DIM, seed: int = ex.L4_SEED,
                     base: float = DEFAULT_BASE) -> np.ndarray:
    """S[a, b] = q_a·k_b/√d, one token at a time, with the references above (rows = tokens, q = x W_q)."""
    head = attention.make_head(d, seed)
    e = attention.token_vectors(tokenize.token_ids(text), d, seed)
    qs, ks = [], []
    for t, row in enumerate(e):
        p = start + t
        if method == "input":
            x = row + vaswani_pe(p, d, base)
            qs.append(x @ head.w_q)
            ks.append(x @ head.w_k)
        elif method == "qk":
            qs.append(row @ head.w_q + vaswani_pe(p, d, base))
            ks.append(row @ head.w_k + vaswani_pe(p, d, base))
        else:
            qs.append(roformer_R(p, d, base) @ (row @ head.w_q))
            ks.append(roformer_R(p, d, base) @ (row @ head.w_k))
    return np.array([[q @ k / math.sqrt(d) for k in ks] for q in qs])


def hf_llama_permute(w: torch.Tensor, n_heads: int, dim1: int, dim2: int) -> torch.Tensor:
    """transformers' convert_llama_weights_to_hf.py "permute for sliced rotary" (applied to q_proj/k_proj)."""
    return w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


@pytest.mark.parametrize("method", shift.METHODS)
@pytest.mark.parametrize("start", [0, ex.SHIFT, 12_345])
def test_scores_match_the_papers_formulas(method, start):
    np.testing.assert_allclose(shift.scores(ex.SENTENCE, start, method, ex.L4_DIM, ex.L4_SEED), reference_scores(ex.SENTENCE, start, method), atol=1e-10)


@pytest.mark.parametrize("method", shift.METHODS)
def test_scores_use_the_given_width_seed_and_base(method):
    got = shift.scores("猫吃鱼了", 7, method, d=6, seed=3, base=50.0)
    np.testing.assert_allclose(got, reference_scores("猫吃鱼了", 7, method, d=6, seed=3, base=50.0), atol=1e-12)
    change = shift.shift_change("猫吃鱼了", 4, method, d=6, seed=3, base=50.0)
    want = np.abs(reference_scores("猫吃鱼了", 4, method, 6, 3, 50.0) - reference_scores("猫吃鱼了", 0, method, 6, 3, 50.0)).max()
    assert change == pytest.approx(want, abs=1e-12)


def test_shifting_the_sentence_moves_added_scores_but_not_rope_scores():
    # the page's claim, against the references: added positions change the scores, RoPE's do not
    before = {m: reference_scores(ex.SENTENCE, 0, m) for m in shift.METHODS}
    after = {m: reference_scores(ex.SENTENCE, ex.SHIFT, m) for m in shift.METHODS}
    for m in ("input", "qk"):
        change = np.abs(after[m] - before[m]).max()
        assert change > 0.1 * np.abs(before[m]).max(), m
        assert shift.shift_change(ex.SENTENCE, ex.SHIFT, m, ex.L4_DIM, ex.L4_SEED) == pytest.approx(change, abs=1e-10)
    assert np.abs(after["rope"] - before["rope"]).max() < 1e-12
    assert shift.shift_change(ex.SENTENCE, ex.SHIFT, "rope", ex.L4_DIM, ex.L4_SEED) < 1e-12


@given(
    text=st.sampled_from(["小明打了小王", "猫吃鱼", "鱼吃猫了吗"]),
    s=st.integers(0, 50_000),
    seed=st.integers(0, 2**16),
    d=st.sampled_from([2, 8, 16, 32]),
)
@FAST
def test_rope_scores_depend_only_on_the_offset(text, s, seed, d):
    shifted = shift.scores(text, s, "rope", d=d, seed=seed)
    np.testing.assert_allclose(shifted, shift.scores(text, 0, "rope", d=d, seed=seed), atol=1e-9)
    # RoFormer §3: q_mᵀ k_n = aᵀ R_{n−m} b with a, b the projected (unrotated) query and key
    head, e = shift.head_and_tokens(text, d, seed)
    a, b = 0, len(e) - 1
    want = (e[a] @ head.w_q) @ roformer_R(b - a, d) @ (e[b] @ head.w_k) / math.sqrt(d)
    assert shifted[a, b] == pytest.approx(want, abs=1e-9)


@given(m=st.integers(0, 10_000), n=st.integers(0, 10_000), s=st.integers(0, 10_000), pair=st.integers(0, ex.SIN_DIM // 2 - 1))
@FAST
def test_pair_score_is_the_polar_formula(m, n, s, pair):
    q, k = np.array(ex.PAIR_Q), np.array(ex.PAIR_K)
    w = DEFAULT_BASE ** (-2 * pair / ex.SIN_DIM)
    polar = math.hypot(*q) * math.hypot(*k) * math.cos(math.atan2(k[1], k[0]) - math.atan2(q[1], q[0]) + (n - m) * w)
    rope_score, added = shift.pair_scores(q, k, m, n, shift.pair_omega(pair, ex.L4_DIM))
    assert rope_score == pytest.approx(polar, abs=1e-9)
    pe = lambda p: np.array([math.sin(p * w), math.cos(p * w)])  # noqa: E731  (lesson 3's pair i)
    assert added == pytest.approx((q + pe(m)) @ (k + pe(n)), abs=1e-9)
    assert shift.pair_scores(q, k, m + s, n + s, shift.pair_omega(pair, ex.L4_DIM))[0] == pytest.approx(rope_score, abs=1e-8)


def test_convention_scores_agree_only_with_the_permuted_weights():
    a, b = shift.convention_scores(ex.SENTENCE, start=7, d=ex.L4_DIM, seed=ex.L4_SEED)
    np.testing.assert_allclose(a, b, atol=1e-12)
    a, b = shift.convention_scores(ex.SENTENCE, start=7, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights=False)
    assert np.abs(a - b).max() > 0.1


@pytest.mark.parametrize("n_heads, head_dim", [(1, 8), (2, 8), (4, 16)])
def test_transformers_llama_permute_is_the_convention_permutation(n_heads, head_dim):
    dim = n_heads * head_dim
    w = torch.randn(dim, dim, generator=torch.Generator().manual_seed(0), dtype=torch.float64)  # (out, in) as nn.Linear
    converted = hf_llama_permute(w, n_heads, dim, dim).numpy()
    perm = rope.convention_permutation(head_dim)
    want = np.concatenate([w.numpy()[h * head_dim:(h + 1) * head_dim][perm] for h in range(n_heads)])
    np.testing.assert_array_equal(converted, want)
    # and the converted weights in rotate_half code give interleaved code's scores, head by head
    x = np.random.default_rng(1).standard_normal((5, dim))
    pos = np.arange(5) + 100
    inv = rope.inverse_frequencies(head_dim, DEFAULT_BASE)
    for h in range(n_heads):
        rows = slice(h * head_dim, (h + 1) * head_dim)
        q_int = rope.rotate(x @ w.numpy()[rows].T, pos, inv, "interleaved")
        q_half = rope.rotate(x @ converted[rows].T, pos, inv, "half")
        np.testing.assert_allclose(q_half @ q_half.T, q_int @ q_int.T, atol=1e-10)


def test_same_vector_scores_are_the_sum_of_cosines():
    curve = shift.same_vector_scores(ex.MAX_DISTANCE, ex.L4_DIM)
    for k in (0, 1, 3, 4, 91, ex.MAX_DISTANCE):
        want = sum(math.cos(k * DEFAULT_BASE ** (-2 * i / ex.SIN_DIM)) for i in range(ex.SIN_DIM // 2))
        assert curve[k] == pytest.approx(want, abs=1e-12)
    assert np.any(np.diff(curve) > 0), "the curve must rise somewhere (it is not a monotone decay)"


@pytest.mark.parametrize(
    "call, word",
    [
        (lambda: shift.scores(ex.SENTENCE, 0, "sinusoid", ex.L4_DIM, ex.L4_SEED), "method"),
        (lambda: shift.scores(ex.SENTENCE, -1, "rope", ex.L4_DIM, ex.L4_SEED), "start"),
        (lambda: shift.scores("猫", 0, "rope", ex.L4_DIM, ex.L4_SEED), "text"),
        (lambda: shift.shift_change(ex.SENTENCE, 2.5, "rope", ex.L4_DIM, ex.L4_SEED), "shift"),
        (lambda: shift.pair_scores((1, 2, 3), (1, 0), 0, 1, 1.0), "q"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, -1.0), "omega"),
        (lambda: shift.pair_omega(99, ex.L4_DIM), "index"),
        (lambda: shift.convention_scores(ex.SENTENCE, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights="yes"), "permute_weights"),
        (lambda: shift.same_vector_scores(0, ex.L4_DIM), "max_distance"),
    ],
)
def test_bad_input_names_the_argument(call, word):
    with pytest.raises(ValueError, match=word):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: shift.scores(ex.SENTENCE, 0, "sinusoid", ex.L4_DIM, ex.L4_SEED),
         "method must be one of ('input', 'qk', 'rope'), got 'sinusoid'; 'input' adds sinusoids to the input, "
         "'qk' adds them after the projection, 'rope' rotates q and k"),
        (lambda: shift.scores(ex.SENTENCE, -1, "rope", ex.L4_DIM, ex.L4_SEED), "start must be a non-negative integer position, got -1; pass e.g. start=10"),
        (lambda: shift.scores(ex.SENTENCE, 1.0, "rope", ex.L4_DIM, ex.L4_SEED), "start must be a non-negative integer position, got 1.0; pass e.g. start=10"),
        (lambda: shift.scores(ex.SENTENCE, True, "rope", ex.L4_DIM, ex.L4_SEED), "start must be a non-negative integer position, got True; pass e.g. start=10"),
        (lambda: shift.scores("猫", 0, "rope", ex.L4_DIM, ex.L4_SEED), "text must be a string of at least two tokens, got '猫'; pass e.g. text='小明打了小王'"),
        (lambda: shift.scores(["猫", "鱼"], 0, "rope", ex.L4_DIM, ex.L4_SEED),
         "text must be a string of at least two tokens, got ['猫', '鱼']; pass e.g. text='小明打了小王'"),
        (lambda: shift.shift_change(ex.SENTENCE, 2.5, "rope", ex.L4_DIM, ex.L4_SEED), "shift must be a non-negative integer position, got 2.5; pass e.g. shift=10"),
        (lambda: shift.rotate_pair((1, 2, 3), 0.5), "v must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. v=(1.0, 0.4)"),
        (lambda: shift.pair_scores((1, 2, 3), (1, 0), 0, 1, 1.0), "q must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. q=(1.0, 0.4)"),
        (lambda: shift.pair_scores((1, 0), (np.nan, 0), 0, 1, 1.0), "k must be two finite numbers (one pair of dims), got (nan, 0); pass e.g. k=(1.0, 0.4)"),
        (lambda: shift.pair_scores((1, 0), (1, 0), -1, 1, 1.0), "m must be a non-negative integer position, got -1; pass e.g. m=10"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, -1, 1.0), "n must be a non-negative integer position, got -1; pass e.g. n=10"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, -1.0),
         "omega must be a positive angular frequency (radians per token), got -1.0; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, 0.0),
         "omega must be a positive angular frequency (radians per token), got 0.0; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, True),
         "omega must be a positive angular frequency (radians per token), got True; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_scores((1, 0), (1, 0), 0, 1, float("inf")),
         "omega must be a positive angular frequency (radians per token), got inf; take one from rope.inverse_frequencies()"),
        (lambda: shift.pair_omega(8, 16), "index must be a pair index from 0 to 7, got 8"),
        (lambda: shift.pair_omega(-1, 16), "index must be a pair index from 0 to 7, got -1"),
        (lambda: shift.pair_omega(1.0, 16), "index must be a pair index from 0 to 7, got 1.0"),
        (lambda: shift.pair_omega(True, 16), "index must be a pair index from 0 to 7, got True"),
        (lambda: shift.convention_scores(ex.SENTENCE, d=ex.L4_DIM, seed=ex.L4_SEED, permute_weights=1), "permute_weights must be True or False, got 1"),
        (lambda: shift.same_vector_scores(0, 16), "max_distance must be a positive integer, got 0; pass e.g. max_distance=200"),
        (lambda: shift.same_vector_scores(5.0, 16), "max_distance must be a positive integer, got 5.0; pass e.g. max_distance=200"),
        (lambda: shift.same_vector_scores(True, 16), "max_distance must be a positive integer, got True; pass e.g. max_distance=200"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_shift_edges():
    # pair 0 of a 16-dim head turns at ω = 1 (θ_1 = base⁰), pair 7 at base^(−14/16)
    assert shift.pair_omega(0, 16) == 1.0 and shift.pair_omega(7, 16) == pytest.approx(DEFAULT_BASE ** (-14 / 16), rel=1e-15)
    assert shift.pair_omega(1, d=4, base=100.0) == pytest.approx(0.1, rel=1e-15)
    np.testing.assert_allclose(shift.rotate_pair((1.0, 0.0), math.pi / 2), [0.0, 1.0], atol=1e-16)
    np.testing.assert_allclose(shift.rotate_pair([0.6, 0.9], 0.0), [0.6, 0.9], rtol=0)
    rope_score, added = shift.pair_scores((1.0, 0.0), (1.0, 0.0), 0, 0, 0.5)
    assert rope_score == 1.0 and added == pytest.approx(1.0 + 1.0, rel=1e-15)  # (1, 1)·(1, 1) at position 0
    # the head and the token vectors both come from the given width and seed
    head, e = shift.head_and_tokens("猫吃鱼", 6, 3)
    np.testing.assert_array_equal(head.w_q, attention.make_head(6, 3).w_q)
    np.testing.assert_array_equal(e, attention.token_vectors(tokenize.token_ids("猫吃鱼"), 6, 3))
    # start 0 and shift 0 are allowed; a zero shift changes nothing
    assert shift.shift_change("猫吃鱼", 0, "input", ex.L4_DIM, ex.L4_SEED) == 0.0
    np.testing.assert_allclose(shift.scores("猫吃鱼", 0, "rope", d=4, seed=0, base=50.0), reference_scores_base("猫吃鱼", 4, 50.0), atol=1e-12)
    a, b = shift.convention_scores("猫吃鱼", d=4, seed=0, base=50.0)
    np.testing.assert_allclose(a, b, atol=1e-12)
    np.testing.assert_allclose(a, reference_scores_base("猫吃鱼", 4, 50.0), atol=1e-12)
    assert shift.same_vector_scores(1, 16).shape == (2,) and shift.same_vector_scores(1, 16)[0] == pytest.approx(16 / 2, rel=1e-15)
    np.testing.assert_allclose(shift.same_vector_scores(np.int64(3), d=2, base=7.0), [math.cos(k) for k in range(4)], rtol=1e-12)


def reference_scores_base(text, d, base):
    """RoPE scores at start 0 with a given base, from RoFormer's block matrices (seed 0)."""
    head = attention.make_head(d, 0)
    e = attention.token_vectors(tokenize.token_ids(text), d, 0)
    qs = [roformer_R(t, d, base) @ (row @ head.w_q) for t, row in enumerate(e)]
    ks = [roformer_R(t, d, base) @ (row @ head.w_k) for t, row in enumerate(e)]
    return np.array([[q @ k / math.sqrt(d) for k in ks] for q in qs])


def half_layout_R(m: int, d: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """transformers' rotate_half layout: pair i is dims (i, i + d/2), each turned by m·θ_i (RoFormer's block)."""
    R, h = np.zeros((d, d)), d // 2
    for i in range(h):
        a = m * base ** (-2 * i / d)
        R[i, i], R[i, i + h], R[i + h, i], R[i + h, i + h] = math.cos(a), -math.sin(a), math.sin(a), math.cos(a)
    return R


def test_rope_scores_in_the_half_layout():
    head = attention.make_head(ex.L4_DIM, 0)
    e = attention.token_vectors(tokenize.token_ids("猫吃鱼"), ex.L4_DIM, 0)
    qs = [half_layout_R(5 + t, ex.L4_DIM) @ (row @ head.w_q) for t, row in enumerate(e)]
    ks = [half_layout_R(5 + t, ex.L4_DIM) @ (row @ head.w_k) for t, row in enumerate(e)]
    want = np.array([[q @ k / math.sqrt(ex.L4_DIM) for k in ks] for q in qs])
    np.testing.assert_allclose(shift.scores("猫吃鱼", 5, "rope", ex.L4_DIM, 0, convention="half"), want, atol=1e-12)
    assert np.abs(want - shift.scores("猫吃鱼", 5, "rope", ex.L4_DIM, 0)).max() > 0.01  # the layout matters for the same weights


def test_convention_scores_at_a_start_and_with_the_unpermuted_weights():
    # start 0 by default
    np.testing.assert_array_equal(shift.convention_scores("猫吃鱼", d=ex.L4_DIM, seed=0)[0],
                                  shift.convention_scores("猫吃鱼", start=0, d=ex.L4_DIM, seed=0)[0])
    with raises_exactly("start must be a non-negative integer position, got -1; pass e.g. start=10"):
        shift.convention_scores("猫吃鱼", start=-1, d=ex.L4_DIM, seed=0)
    a, b = shift.convention_scores("猫吃鱼", start=3, d=ex.L4_DIM, seed=2)
    np.testing.assert_allclose(a, reference_scores("猫吃鱼", 3, "rope", ex.L4_DIM, seed=2), atol=1e-12)
    np.testing.assert_allclose(b, a, atol=1e-12)
    _, wrong = shift.convention_scores("猫吃鱼", start=3, d=ex.L4_DIM, seed=2, permute_weights=False)
    head = attention.make_head(ex.L4_DIM, 2)
    e = attention.token_vectors(tokenize.token_ids("猫吃鱼"), ex.L4_DIM, 2)
    qs = [half_layout_R(3 + t, ex.L4_DIM) @ (row @ head.w_q) for t, row in enumerate(e)]
    ks = [half_layout_R(3 + t, ex.L4_DIM) @ (row @ head.w_k) for t, row in enumerate(e)]
    np.testing.assert_allclose(wrong, np.array([[q @ k / math.sqrt(ex.L4_DIM) for k in ks] for q in qs]), atol=1e-12)


# --- the position part and the pair helpers ------------------------------------------------------------------------


def pe(pos: int, d: int, base: float = 10_000.0) -> np.ndarray:
    """§3.5: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(pos / base^(2i/d))."""
    out = np.zeros(d)
    for i in range(d // 2):
        out[2 * i] = math.sin(pos / base ** (2 * i / d))
        out[2 * i + 1] = math.cos(pos / base ** (2 * i / d))
    return out


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


# --- the position part at another base -----------------------------------------------------------------------------


def _pe(p: int, d: int, base: float) -> np.ndarray:
    """PE(p)[2i] = sin(p / base^(2i/d)), PE(p)[2i+1] = cos(p / base^(2i/d)) (§3.5, lesson 3's layout)."""
    angles = [p / base ** (2 * i / d) for i in range(d // 2)]
    return np.array([f(a) for a in angles for f in (math.sin, math.cos)])


def _position_part(text: str, start: int, d: int, seed: int, base: float) -> np.ndarray:
    head = attention.make_head(d, seed)
    pe = np.array([_pe(start + t, d, base) for t in range(len(tokenize.tokens(text)))])
    return (pe @ head.w_q) @ (pe @ head.w_k).T / math.sqrt(d)


@pytest.mark.parametrize("base", [20.0, 500.0])
def test_position_part_shift_change_uses_the_given_base_on_both_sides(base):
    text, s, d, seed = "猫吃鱼了吗", 3, 8, 5
    expected = np.abs(_position_part(text, s, d, seed, base) - _position_part(text, 0, d, seed, base)).max()
    got = shift.position_part_shift_change(text, s, d, seed, base=base)
    assert got == pytest.approx(expected, rel=1e-10, abs=1e-12)
    # the base matters: with the paper's 10000 the number is another one
    assert abs(got - shift.position_part_shift_change(text, s, d, seed)) > 1e-3


def test_position_part_shift_change_of_no_shift_is_zero():
    assert shift.position_part_shift_change("猫吃鱼", 0, 8, 5, base=20.0) == 0.0


@pytest.mark.parametrize("call, message", [
    (lambda: shift.position_part_shift_change("猫吃鱼", -1, 8, 5), "shift must be a non-negative integer position, got -1; pass e.g. shift=10"),
    (lambda: shift.position_part_shift_change("猫吃鱼", 2.0, 8, 5), "shift must be a non-negative integer position, got 2.0; pass e.g. shift=10"),
    (lambda: shift.position_part_scores("猫吃鱼", -2, 8, 5), "start must be a non-negative integer position, got -2; pass e.g. start=10"),
])
def test_bad_shift_names_the_argument(call, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


# --- input edges ---------------------------------------------------------------------------------------------------


def test_two_tokens_are_enough_for_a_shift_experiment():
    # The smallest sentence with a pair of distinct positions: RoPE's two-token scores do not move under a shift.
    assert shift.scores("猫鱼", 4, "rope", 4, 0).shape == (2, 2)
    assert shift.shift_change("猫鱼", 4, "rope", 4, 0) < 1e-12
    assert shift.position_part_scores("猫鱼", 0, 4, 0).shape == (2, 2)
    with pytest.raises(ValueError, match="^text must be a string of at least two tokens, got '鱼'"):
        shift.scores("鱼", 0, "rope", 4, 0)


def test_pair_helpers_accept_integer_pairs():
    # Integer q, k (as a reader types them) give the same numbers as the floats, by RoFormer's 2-D formula.
    assert shift.pair_score_polar((1, 0), (0, 2), 1, 3, 0.5) == pytest.approx(2 * math.cos(math.pi / 2 + 1.0), abs=1e-15)
    np.testing.assert_allclose(shift.add_pair((1, 0), 2, 0.25), [1 + math.sin(0.5), math.cos(0.5)], rtol=1e-15)


POLAR_ARGS = {"q": (1.0, 0.0), "k": (0.0, 1.0), "m": 0, "n": 1, "omega": 0.5}


@pytest.mark.parametrize("call, message", [
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "q": (1, 2, 3)}),
     "q must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. q=(1.0, 0.4)"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "k": (np.inf, 0)}),
     "k must be two finite numbers (one pair of dims), got (inf, 0); pass e.g. k=(1.0, 0.4)"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "m": -1}), "m must be a non-negative integer position, got -1; pass e.g. m=10"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "n": 1.5}), "n must be a non-negative integer position, got 1.5; pass e.g. n=10"),
    (lambda: shift.pair_score_polar(**{**POLAR_ARGS, "omega": 0.0}),
     "omega must be a positive angular frequency (radians per token), got 0.0; take one from rope.inverse_frequencies()"),
    (lambda: shift.add_pair((1, 2, 3), 0, 1.0), "v must be two finite numbers (one pair of dims), got (1, 2, 3); pass e.g. v=(1.0, 0.4)"),
    (lambda: shift.add_pair((1, 2), -3, 1.0), "m must be a non-negative integer position, got -3; pass e.g. m=10"),
    (lambda: shift.add_pair((1, 2), 3, -1.0),
     "omega must be a positive angular frequency (radians per token), got -1.0; take one from rope.inverse_frequencies()"),
    (lambda: shift.convention_scores("猫吃鱼", start=-1, d=4, seed=0), "start must be a non-negative integer position, got -1; pass e.g. start=10"),
    (lambda: shift.same_vector_scores(-1, 4), "max_distance must be a positive integer, got -1; pass e.g. max_distance=200"),
])
def test_bad_input_messages_name_the_argument(call, message):
    with raises_exactly(message):
        call()


# --- input dtypes --------------------------------------------------------------------------------------------------


def test_a_pair_given_as_strings_is_refused_not_parsed():
    with raises_exactly("v must be two finite numbers (one pair of dims), got ('1.0', '0.4'); pass e.g. v=(1.0, 0.4)"):
        shift.rotate_pair(("1.0", "0.4"), 0.3)
    # integers are numbers: the same rotation as the floats
    np.testing.assert_array_equal(shift.rotate_pair((1, 0), 0.3), shift.rotate_pair((1.0, 0.0), 0.3))
