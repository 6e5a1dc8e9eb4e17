"""posenc.relative at the edges of its input: the error each bad argument gets, the smallest accepted
values, the defaults, and float32 input (computed in float64 like the rest of posenc).

Expected values are derived by hand or from the models' published sizes, not from posenc:
the exact error texts are the module's contract with a course author ("name the argument and the fix").
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from posenc import configs, rope
from posenc import relative as R

INV8 = rope.inverse_frequencies(8, 10_000)
Q8 = np.array([3.0, -1.0, 2.0, 5.0, 1.0, 4.0, -2.0, 7.0])
K8 = np.array([1.0, 2.0, -3.0, 1.0, 6.0, -1.0, 2.0, 3.0])
FIELD_ADVICE = "add it with source and tag to posenc/data/models*.yaml"


def without(key: str, field: str) -> configs.ModelConfig:
    """Model ``key`` with ``field`` removed (a model whose data file lacks it)."""
    cfg = configs.load(key)
    return dataclasses.replace(cfg, fields={n: f for n, f in cfg.fields.items() if n != field})


def with_value(key: str, field: str, value) -> configs.ModelConfig:
    """Model ``key`` with ``field`` set to ``value`` (same source and tag)."""
    cfg = configs.load(key)
    return dataclasses.replace(cfg, fields={**cfg.fields, field: dataclasses.replace(cfg.fields[field], value=value)})


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: R.alibi_extra_heads(0), "n_heads must be an integer ≥ 1, got 0"),
        (lambda: R.causal_bias(0), "length must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_mass_beyond(0.0, 1, 10), "slope must be a positive finite number, got 0.0"),
        (lambda: R.alibi_mass_beyond(0.5, 1, 0), "length must be an integer ≥ 1, got 0"),
        (lambda: R.alibi_mass_beyond(0.5, -1, 10), "distance must be an integer ≥ 0, got -1"),
        # 5 keys are 0 … 4 tokens back
        (lambda: R.alibi_mass_beyond(0.5, 6, 5), "distance=6 lies beyond the 5 keys (distances 0 … 4); pass distance ≤ length"),
        (lambda: R.rope_scores_by_distance(Q8, K8, INV8, -1), "max_distance must be an integer ≥ 0, got -1"),
        (lambda: R.rope_scores_by_distance(Q8, K8, INV8, 3, start=-1),
         "start must be a non-negative integer position, got -1; positions count from 0"),
        (lambda: R.rope_key_preferring(np.ones((2, 8)), 1, INV8), "q must be one query vector (1-D), got shape (2, 8)"),
        (lambda: R.rope_key_preferring(Q8, -2, INV8), "distance must be a non-negative integer position, got -2; positions count from 0"),
        (lambda: R.alibi_scores_by_distance(Q8, K8, 0.25, -1), "max_distance must be an integer ≥ 0, got -1"),
        (lambda: R.score_change([1.0, -np.inf], [1.0, 0.0]),
         "before and after mask different keys (−∞ in different places); compare scores with the same mask"),
        # a NaN (or +∞) on either side is an error, not only when both sides have one
        (lambda: R.score_change([np.nan, 0.0], [1.0, 0.0]), "scores must be finite where unmasked (only −∞ may mark a masked key)"),
        (lambda: R.score_change([1.0, 0.0], [1.0, np.inf]), "scores must be finite where unmasked (only −∞ may mark a masked key)"),
        # a bias of another shape is an error even where numpy would broadcast it
        (lambda: R.biased_weights(np.zeros((3, 3)), np.zeros((1, 3))),
         "bias must have shape (3, 3) or (heads, 3, 3) to match scores, got (1, 3)"),
        (lambda: R.biased_weights(np.full((2, 2), np.inf), np.zeros((2, 2))),
         "scores must be finite; put −∞ for masked keys in the bias, not in the scores"),
        (lambda: R.alibi_score_gap(0.0, 3), "slope must be a positive finite number, got 0.0"),
        (lambda: R.alibi_score_gap(0.5, [1, -2]), "distance must be ≥ 0 (tokens back from the query), got -2.0"),
        (lambda: R.causal_pairs_by_distance(0), "length must be an integer ≥ 1, got 0"),
        (lambda: R.relative_positions_at([0, -1]), "query_positions must be non-negative (positions count from 0), got -1"),
        (lambda: R.relative_positions_at([0, 1], [2, -1]), "key_positions must be non-negative (positions count from 0), got -1"),
        (lambda: R.t5_bias_at(np.zeros(4), [0, 1]), "table must have shape (num_buckets, heads), got (4,)"),
        # which scheme, which model, which field: each error says what to pass or add
        (lambda: R.added_parameters("xpos", configs.load("gpt2")),
         "scheme must be one of learned, sinusoidal, rope, alibi, t5, shaw, nope, got 'xpos'"),
        (lambda: R.added_parameters("shaw", configs.load("gpt2")),
         "shaw needs max_relative_position (the clipping distance k); pass e.g. max_relative_position=16"),
        (lambda: R.added_parameters("rope", "gpt2"),
         "cfg must be a model from posenc.configs.load(), got str; e.g. configs.load('gpt2')"),
        (lambda: R.model_position_parameters(None),
         "cfg must be a model from posenc.configs.load(), got NoneType; e.g. configs.load('gpt2')"),
        (lambda: R.added_parameters("learned", configs.load("t5_base")),
         f"model 't5_base' has no 'context' field (the table has one row per position); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("learned", configs.load("llama2_7b")),
         f"model 'llama2_7b' has no 'hidden' field (each row is hidden wide); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("t5", configs.load("llama2_7b")),
         f"model 'llama2_7b' has no 'heads' field (T5 learns one scalar per bucket and head); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", configs.load("llama2_7b"), max_relative_position=8),
         f"model 'llama2_7b' has no 'layers' field (Shaw's vectors are per layer); {FIELD_ADVICE}"),
        # Shaw's head width for a model with no head_dim field: hidden ÷ heads, and each must be there
        (lambda: R.added_parameters("shaw", configs.load("bert_base"), max_relative_position=4),
         f"model 'bert_base' has no 'heads' field (head width = hidden ÷ heads); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", without("mpt_7b", "hidden"), max_relative_position=4),
         f"model 'mpt_7b' has no 'hidden' field (head width = hidden ÷ heads); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", without("mpt_7b", "heads"), max_relative_position=4),
         f"model 'mpt_7b' has no 'heads' field (head width = hidden ÷ heads); {FIELD_ADVICE}"),
        (lambda: R.added_parameters("shaw", with_value("mpt_7b", "hidden", 4100), max_relative_position=4),
         "model 'mpt_7b': hidden 4100 is not a multiple of heads 32; add head_dim"),
    ],
)
def test_bad_input_gets_an_error_naming_the_argument_and_the_fix(call, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


# --- accepted edges and defaults ----------------------------------------------------------------------


def test_max_distance_zero_is_the_key_at_the_query():
    # r = 0 only: the key at the query's own position, nothing turned relative to it, no bias
    np.testing.assert_allclose(R.rope_scores_by_distance(Q8, K8, INV8, 0), [Q8 @ K8], rtol=1e-15)
    assert R.alibi_scores_by_distance(Q8, K8, 0.25, 0).tolist() == [Q8 @ K8]


def test_rope_scores_default_to_the_key_at_position_zero():
    # The scores do not depend on start except in the last bits; the default is start = 0 (the docstring's).
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    assert np.array_equal(R.rope_scores_by_distance(q, k, INV8, 5), R.rope_scores_by_distance(q, k, INV8, 5, start=0))


def test_alibi_scores_of_float32_content_are_computed_in_float64():
    # (1 + 2⁻¹²)² = 1 + 2⁻¹¹ + 2⁻²⁴: float64 keeps the last term, a float32 product would round it away
    q = np.array([1 + 2.0**-12], dtype=np.float32)
    assert R.alibi_scores_by_distance(q, q, 0.5, 2).tolist() == [1 + 2.0**-11 + 2.0**-24, 0.5 + 2.0**-11 + 2.0**-24,
                                                                 2.0**-11 + 2.0**-24]


def test_score_change_of_float32_scores_is_computed_in_float64():
    # 1 − (−2⁻³⁰) = 1 + 2⁻³⁰, which float32 rounds to 1
    before, after = np.float32([1.0, -np.inf]), np.float32([-(2.0**-30), -np.inf])
    assert R.score_change(before, after) == 1 + 2.0**-30


def test_score_change_with_every_key_masked_is_zero():
    # nothing both sides can see moved: no change, not an error
    assert R.score_change([-np.inf, -np.inf], [-np.inf, -np.inf]) == 0.0


def test_t5_bucket_edges_default_to_32_buckets_when_causal():
    # Causal T5 with 32 buckets (Raffel et al. §2.1; transformers' default): 16 exact buckets for distances
    # 0 … 15, then 16 logarithmic buckets up to max_distance 128: bucket b ≥ 16 starts at the smallest r with
    # ⌊ln(r/16)/ln(128/16) · 16⌋ = b − 16, i.e. r ≥ 16 · 8^((b−16)/16). The edges follow from that closed form.
    edges = R.t5_bucket_edges(bidirectional=False)
    assert edges[:16] == [(b, b, b) for b in range(16)]
    starts = [next(r for r in range(16, 129) if 16 + int(np.log(r / 16) / np.log(8) * 16) >= b) for b in range(16, 32)]
    assert [first for _, first, _ in edges[16:]] == starts
    assert edges[-1] == (31, starts[-1], 128) and len(edges) == 32


# --- Shaw's head width, for models without a head_dim field -------------------------------------------


@pytest.mark.parametrize("key, width", [("mpt_7b", 4096 // 32), ("bloom_176b", 14336 // 112), ("baichuan_13b", 5120 // 40)])
def test_shaw_head_width_is_hidden_over_heads_without_head_dim(key, width):
    # MPT-7B d_model 4096 / 32 heads, BLOOM 14336 / 112, Baichuan-13B 5120 / 40: 128-wide heads
    cfg = configs.load(key)
    k = 16
    assert R.added_parameters("shaw", cfg, max_relative_position=k) == (2 * k + 1) * width * 2 * cfg["layers"]


def test_shaw_head_width_of_an_mla_model_is_not_its_rotary_part():
    # DeepSeek-V3's head_dim field is qk_rope_head_dim (64), only the rotary slice of each 192-wide key head
    # (128 unrotated + 64 rotated; models.yaml): Shaw's per-head vectors cannot be that narrow.
    cfg = configs.load("deepseek_v3")
    assert cfg["head_dim"] == 64 and cfg["nope_head_dim"] == 128
    assert R.added_parameters("shaw", cfg, max_relative_position=16) != (2 * 16 + 1) * 64 * 2 * cfg["layers"]


# --- T5 tables: the model's own sizes unless the caller gives others ------------------------------------


def test_t5_parameters_read_the_models_bucket_count_and_tables():
    # T5-Base: 32 buckets × 12 heads, one table in the encoder and one in the decoder (bias_tables 2)
    t5 = configs.load("t5_base")
    assert R.added_parameters("t5", t5) == 32 * 12 * 2
    assert R.added_parameters("t5", with_value("t5_base", "relative_attention_num_buckets", 64)) == 64 * 12 * 2
    assert R.added_parameters("t5", with_value("t5_base", "bias_tables", 1)) == 32 * 12 * 1
    # explicit arguments win over the model's fields
    assert R.added_parameters("t5", t5, num_buckets=8, stacks=3) == 8 * 12 * 3
    # a model with neither field: T5's 32 buckets, one table
    assert R.added_parameters("t5", configs.load("llama3_8b")) == 32 * 32 * 1


def test_t5_bias_at_defaults_to_t5s_bidirectional_buckets_up_to_128():
    # Keys 91 tokens before and after the query. T5 (32 buckets, bidirectional, max_distance 128): 16 buckets per
    # direction, 8 exact; r = 91 lands in 8 + ⌊ln(91/8) / ln(128/8) · 8⌋ = 8 + ⌊7.02⌋ = 15 (with max_distance 129:
    # ⌊6.996⌋ = 6, bucket 14), and keys after the query take the upper 16 buckets: 16 + 15 = 31.
    table = np.arange(32)[:, None] * np.array([[1, 10]])  # integer table: bucket b, head h → b·(1, 10)
    bias = R.t5_bias_at(table, [0, 91])
    assert bias.dtype == np.float64
    np.testing.assert_array_equal(bias[0], [[0.0, 31.0], [15.0, 0.0]])
    np.testing.assert_array_equal(bias[1], [[0.0, 310.0], [150.0, 0.0]])
