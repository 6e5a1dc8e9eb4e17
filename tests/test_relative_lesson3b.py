"""posenc.relative's lesson-3b additions, each against an independent reference:
transformers' BLOOM ALiBi tensor and T5 compute_bias, brute-force loops, closed forms."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import T5Config
from transformers.models.bloom.modeling_bloom import build_alibi_tensor
from transformers.models.t5.modeling_t5 import T5Attention

from posenc import attention, relative, rope

SETTINGS = settings(max_examples=60, deadline=None, derandomize=os.environ.get("CI") == "true")


def loop_relative(qpos, kpos):
    return np.array([[kj - qi for kj in kpos] for qi in qpos])


@SETTINGS
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=12), st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
def test_relative_positions_at_is_key_minus_query(qpos, kpos):
    np.testing.assert_array_equal(relative.relative_positions_at(qpos, kpos), loop_relative(qpos, kpos))
    np.testing.assert_array_equal(relative.relative_positions_at(qpos), loop_relative(qpos, qpos))


@pytest.mark.parametrize("n", [1, 5, 16])
@pytest.mark.parametrize("start", [0, 3, 100_000])
def test_a_shifted_sentence_has_the_same_relative_positions(n, start):
    np.testing.assert_array_equal(relative.relative_positions_at(start + np.arange(n)), relative.relative_positions(n))


@pytest.mark.parametrize("bad, match", [([[0, 1]], "1-D"), ([-1, 0], "non-negative"), ([0.0, 1.0], "integer"), ([], "empty")])
def test_relative_positions_at_rejects_bad_positions(bad, match):
    with pytest.raises(ValueError, match=match):
        relative.relative_positions_at(bad)


@pytest.mark.parametrize("heads", [1, 8, 12, 112])
def test_alibi_bias_at_positions_zero_on_is_the_plain_causal_bias(heads):
    at = relative.alibi_causal_bias_at(heads, np.arange(9))
    plain = relative.alibi_causal_bias(heads, 9)
    np.testing.assert_array_equal(at, plain)
    assert not np.any(np.signbit(at) & (at == 0))  # +0.0 on the diagonal, as alibi_causal_bias


@pytest.mark.parametrize("heads", [8, 12, 112])
@pytest.mark.parametrize("start", [1, 10, 65_536])
def test_alibi_bias_does_not_move_with_the_sentence(heads, start):
    n = 7
    np.testing.assert_array_equal(relative.alibi_causal_bias_at(heads, np.arange(n) + start), relative.alibi_causal_bias_at(heads, np.arange(n)))


@pytest.mark.parametrize("heads", [8, 12, 40, 112])
def test_alibi_weights_equal_bloom_reference(heads):
    """BLOOM adds m_h·j to every query's row (softmax is shift-invariant within a row); with the causal
    mask that gives the same weights as Press et al.'s −m_h·(i − j)."""
    n = 11
    rng = np.random.default_rng(heads)
    scores = rng.standard_normal((n, n))
    ours = relative.biased_weights(scores, relative.alibi_causal_bias_at(heads, np.arange(n)))
    bloom = build_alibi_tensor(torch.ones(1, n), heads, torch.float64)[:, 0, :].numpy()  # (heads, keys): m_h·j
    causal = np.tril(np.ones((n, n), dtype=bool))
    logits = torch.tensor(np.where(causal, scores[None] + bloom[:, None, :], -np.inf))
    # BLOOM computes its slopes in float32 (_get_alibi_slopes), so the weights agree to float32 precision
    np.testing.assert_allclose(ours, torch.softmax(logits, dim=-1).numpy(), rtol=0, atol=1e-6)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize("n, buckets, max_distance", [(40, 32, 128), (300, 32, 128), (50, 8, 20)])
def test_t5_bias_at_matches_transformers_compute_bias(bidirectional, n, buckets, max_distance):
    heads = 3
    cfg = T5Config(d_model=16, d_kv=4, num_heads=heads, relative_attention_num_buckets=buckets,
                   relative_attention_max_distance=max_distance, is_decoder=not bidirectional)
    layer = T5Attention(cfg, has_relative_attention_bias=True)
    table = np.random.default_rng(n).standard_normal((buckets, heads)).astype(np.float32).astype(np.float64)  # the layer stores float32
    with torch.no_grad():
        layer.relative_attention_bias.weight.copy_(torch.tensor(table))
        ref = layer.compute_bias(n, n, device="cpu")[0].double().numpy()
    for start in (0, 17):
        got = relative.t5_bias_at(table, np.arange(n) + start, bidirectional, max_distance)
        np.testing.assert_array_equal(got, ref)


def test_biased_weights_is_softmax_of_the_sum():
    rng = np.random.default_rng(0)
    s = rng.standard_normal((5, 5))
    b = relative.alibi_causal_bias(4, 5)
    w = relative.biased_weights(s, b)
    ref = torch.softmax(torch.tensor(s[None] + b), dim=-1).numpy()
    np.testing.assert_allclose(w, ref, rtol=0, atol=1e-15)
    np.testing.assert_allclose(w.sum(-1), 1.0)
    assert np.all(w[:, np.triu_indices(5, 1)[0], np.triu_indices(5, 1)[1]] == 0)  # masked keys get no weight


@pytest.mark.parametrize("scores, bias, match", [
    (np.zeros((3, 4)), np.zeros((3, 4)), "square"),
    (np.zeros((3, 3)), np.zeros((2, 3, 4)), "shape"),
    (np.full((2, 2), np.inf), np.zeros((2, 2)), "finite"),
])
def test_biased_weights_rejects_mismatched_input(scores, bias, match):
    with pytest.raises(ValueError, match=match):
        relative.biased_weights(scores, bias)


@SETTINGS
@given(st.integers(1, 60))
def test_causal_pairs_by_distance_counts_every_pair(length):
    rel = relative.relative_positions(length)
    counts = [int(np.sum(rel == -r)) for r in range(length)]  # key r tokens before the query
    np.testing.assert_array_equal(relative.causal_pairs_by_distance(length), counts)
    assert relative.causal_pairs_by_distance(length).sum() == length * (length + 1) // 2


def test_extra_heads_are_the_ones_the_non_power_of_two_rule_adds():
    for n in (1, 2, 8, 32, 64):
        assert not relative.alibi_extra_heads(n).any()
    for n in (12, 40, 112):
        extra = relative.alibi_extra_heads(n)
        p = 2 ** int(math.log2(n))
        assert extra.sum() == n - p and not extra[:p].any()
        slopes = relative.alibi_slopes(n)
        np.testing.assert_array_equal(slopes[~extra], relative.alibi_slopes(p))
        np.testing.assert_array_equal(slopes[extra], relative.alibi_slopes(2 * p)[0::2][: n - p])


@pytest.mark.parametrize("heads", [8, 32, 112])
def test_reaches_cut_each_heads_weight_by_the_factor(heads):
    reach = relative.alibi_reaches(heads, 10)
    slopes = relative.alibi_slopes(heads)
    assert reach.shape == (heads,)
    np.testing.assert_allclose(np.exp(-slopes * reach), 0.1, rtol=1e-12)


@SETTINGS
@given(st.floats(1e-4, 2.0), st.integers(0, 5000))
def test_score_gap_undoes_the_weight_ratio(slope, r):
    np.testing.assert_allclose(np.exp(-relative.alibi_score_gap(slope, r)), relative.alibi_weight_ratio(slope, r), rtol=1e-12)


@pytest.mark.parametrize("slope, distance, length", [(0.5, 3, 10), (2 ** -8, 100, 2048), (2 ** -8, 2048, 2048), (1.0, 0, 7)])
def test_mass_beyond_is_the_softmax_of_the_bias_alone(slope, distance, length):
    r = np.arange(length)
    w = attention.softmax(-slope * r)  # one query, equal content scores: only the bias differs
    assert relative.alibi_mass_beyond(slope, distance, length) == pytest.approx(w[r >= distance].sum(), rel=1e-12, abs=1e-300)


def test_mass_beyond_tends_to_the_weight_ratio_for_a_long_context():
    assert relative.alibi_mass_beyond(2 ** -8, 2048, 10 ** 9) == pytest.approx(math.exp(-8), rel=1e-12)


def test_mass_beyond_rejects_a_distance_past_the_keys():
    with pytest.raises(ValueError, match="distance"):
        relative.alibi_mass_beyond(0.5, 11, 10)
    with pytest.raises(ValueError, match="slope"):
        relative.alibi_mass_beyond(0.0, 1, 10)


def test_rope_scores_by_distance_closed_form_and_start():
    d, delta = 16, 6
    inv = rope.inverse_frequencies(d, 10_000)
    q = np.random.default_rng(3).standard_normal(d)
    k = rope.rotate(q[None], [delta], inv)[0]  # the key content is the query turned by delta
    got = relative.rope_scores_by_distance(q, k, inv, 200)
    pair_norm2 = q[0::2] ** 2 + q[1::2] ** 2
    r = np.arange(201)
    closed = (pair_norm2[None, :] * np.cos((delta - r)[:, None] * inv[None, :])).sum(1)  # Σ|q_i|² cos((δ − r)ω_i)
    np.testing.assert_allclose(got, closed, atol=1e-12)
    assert int(np.argmax(got)) == delta
    np.testing.assert_allclose(relative.rope_scores_by_distance(q, k, inv, 200, start=5000), got, atol=1e-9)


def test_rope_scores_by_distance_rejects_mismatched_vectors():
    inv = rope.inverse_frequencies(8, 10_000)
    with pytest.raises(ValueError, match="same width"):
        relative.rope_scores_by_distance(np.ones(8), np.ones(6), inv, 5)


@pytest.mark.parametrize("delta", [0, 3, 12, 150])
def test_the_preferring_key_peaks_at_its_distance(delta):
    inv = rope.inverse_frequencies(16, 10_000)
    q = np.random.default_rng(delta).standard_normal(16)
    k = relative.rope_key_preferring(q, delta, inv)
    scores = relative.rope_scores_by_distance(q, k, inv, 300)
    assert int(np.argmax(scores)) == delta
    assert scores[delta] == pytest.approx(q @ q, rel=1e-12)  # every pair lined up: Σ|q_i|²


def test_alibi_scores_by_distance_are_content_minus_a_line():
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    s = relative.alibi_scores_by_distance(q, k, 0.25, 40)
    np.testing.assert_allclose(s, q @ k - 0.25 * np.arange(41), rtol=0, atol=1e-12)
    assert int(np.argmax(s)) == 0
    with pytest.raises(ValueError, match="same width"):
        relative.alibi_scores_by_distance(q, k[:4], 0.25, 4)


def test_score_change_ignores_masked_keys_and_rejects_a_moved_mask():
    a = np.array([[1.0, -np.inf], [0.5, 2.0]])
    b = np.array([[1.25, -np.inf], [0.5, 1.0]])
    assert relative.score_change(a, b) == 1.0
    with pytest.raises(ValueError, match="mask different keys"):
        relative.score_change(a, np.array([[1.0, 0.0], [0.5, 2.0]]))
    with pytest.raises(ValueError, match="same shape"):
        relative.score_change(a, a[:1])


def test_causal_bias_is_the_causal_mask():
    np.testing.assert_array_equal(np.isfinite(relative.causal_bias(6)), attention.causal_mask(6))
    assert np.all(relative.causal_bias(6)[attention.causal_mask(6)] == 0)


def test_content_scores_are_lesson_one_heads_unmasked_scores():
    text, d, seed = "小明打了小王", 8, 7
    x = attention.sentence_input(text, d, seed)
    head = attention.make_head(d, seed)
    q, k = x @ head.w_q, x @ head.w_k
    np.testing.assert_allclose(relative.content_scores(text, d, seed), q @ k.T / np.sqrt(d), rtol=0, atol=1e-12)
    # causal attention with the zero bias is lesson 1's masked attention
    np.testing.assert_allclose(relative.biased_weights(relative.content_scores(text, d, seed), relative.causal_bias(6)),
                               attention.attend(x, head, attention.causal_mask(6)).weights, rtol=0, atol=1e-15)
