"""models*.yaml checks at their boundaries: the smallest valid value of each checked field is accepted and the
first invalid one is refused with the exact message (model, field, what it got, the fix). Entries are parsed
directly (``configs._parse``), as a new model in the data file would be."""

from __future__ import annotations

import copy

import pytest

from posenc import configs
from expect import raises_exactly

W = "models.yaml: toy"
YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 4096}
ROPE = {"context": 4096, "head_dim": 128, "rope_theta": 10_000}
T5 = {"heads": 12, "layers": 12, "relative_attention_num_buckets": 32, "relative_attention_max_distance": 128}
MROPE = {"context": 32_768, "head_dim": 128, "rope_theta": 1_000_000, "mrope_section": [16, 24, 24], "spatial_merge_size": 2}


def entry(position: str, **fields):
    return {"name": "Toy", "position": position,
            "fields": {k: {"value": copy.deepcopy(v), "source": "test", "tag": "U"} for k, v in fields.items()}}


def parse(position: str, **fields) -> configs.ModelConfig:
    return configs._parse("toy", entry(position, **fields))


@pytest.mark.parametrize("position, fields", [
    # a count of 1 is a positive integer: one head, one KV head (multi-query attention), every layer full attention
    ("rope", {**ROPE, "heads": 1, "kv_heads": 1}),
    ("rope", {**ROPE, "layers": 36, "full_attention_interval": 1}),
    ("rope", {**ROPE, "layers": 48, "full_attention_interval": 4}),
    # grouped-query attention: 32 query heads share 8 KV heads; Gated DeltaNet: 16 key heads, 32 value heads
    ("rope", {**ROPE, "heads": 32, "kv_heads": 8, "linear_num_key_heads": 16, "linear_num_value_heads": 32}),
    # a one-token native context scaled by YaRN: the original length 1 is valid
    ("rope", {**ROPE, "context": 1, "scaling": {**YARN, "original_max_position_embeddings": 1}, "scaled_context": 4}),
    # YaRN without scaled_context, with DeepSeek-V3's mscale 1 and the paper's beta_slow 1
    ("rope", {**ROPE, "scaling": {**YARN, "mscale": 1.0, "mscale_all_dim": 1.0, "beta_slow": 1}}),
    # beta_fast equal to beta_slow (the default 32), and a beta_fast of 1.5 above the default beta_slow 1
    ("rope", {**ROPE, "scaling": {**YARN, "beta_slow": 32}}),
    ("rope", {**ROPE, "scaling": {**YARN, "beta_fast": 1.5}}),
    # T5: 4 buckets leave 1 exact bucket per direction, so a max distance of 2 is valid; one bias table
    ("t5", {**T5, "relative_attention_num_buckets": 4, "relative_attention_max_distance": 2, "bias_tables": 1}),
    # M-RoPE: a base just above 1, a section of one pair, interleaved sections (Qwen3-VL)
    ("mrope", {**MROPE, "rope_theta": 2}),
    ("mrope", {**MROPE, "mrope_section": [1, 31, 32], "mrope_interleaved": True}),
])
def test_smallest_valid_values_are_accepted(position, fields):
    cfg = parse(position, **fields)
    assert {name: cfg[name] for name in fields} == fields


@pytest.mark.parametrize("position, fields, message", [
    ("rope", {**ROPE, "heads": 0}, f"{W}.heads must be a positive integer, got 0; write it without a decimal point"),
    ("rope", {**ROPE, "sliding_window": 0}, f"{W}.sliding_window must be a positive integer, got 0; write it without a decimal point"),
    ("rope", {**ROPE, "scaling": {**YARN, "beta_slow": 0}}, f"{W}.scaling.beta_slow must be a positive number, got 0"),
    ("rope", {**ROPE, "scaling": {**YARN, "mscale_all_dim": 0}}, f"{W}.scaling.mscale_all_dim must be a positive number, got 0"),
    ("rope", {**ROPE, "scaling": {**LLAMA3, "low_freq_factor": 0}}, f"{W}.scaling.low_freq_factor must be a positive number, got 0"),
    ("rope", {**ROPE, "scaling": {**LLAMA3, "high_freq_factor": -1}}, f"{W}.scaling.high_freq_factor must be a positive number, got -1"),
    # beta_fast defaults to 32 (YaRN), so a beta_slow of 33 alone is already too large
    ("rope", {**ROPE, "scaling": {**YARN, "beta_slow": 33}},
     f"{W}.scaling: beta_fast 32 < beta_slow 33; beta_fast counts the rotations of the fast pairs and must be the larger (YaRN: 32 and 1)"),
    # 6 buckets: 3 per direction, 1 of them exact (6 // 2 // 2)
    ("t5", {**T5, "relative_attention_num_buckets": 6, "relative_attention_max_distance": 1},
     f"{W}: relative_attention_max_distance 1 must exceed the exact range 1 of 6 buckets (T5: 32 buckets, 128)"),
    ("mrope", {**MROPE, "head_dim": 127}, f"{W}.head_dim must be a positive even integer, got 127"),
    ("mrope", {**MROPE, "mrope_section": [0, 32, 32]},
     f"{W}.mrope_section must be three positive integers (temporal, height, width pairs), got [0, 32, 32]; Qwen2-VL uses [16, 24, 24]"),
    ("mrope", {**MROPE, "mrope_section": [16, 24, 16]},
     f"{W}: mrope_section [16, 24, 16] sums to 56 pairs but head_dim 128 has 64; every rotary pair belongs to one section"),
])
def test_first_invalid_values_are_refused_by_exact_message(position, fields, message):
    with raises_exactly(message):
        parse(position, **fields)


def test_fields_that_are_not_a_mapping_are_refused():
    with raises_exactly("models.yaml: model 'toy' has fields that are not a mapping of name → {value, source, tag}"):
        configs._parse("toy", {"name": "Toy", "position": "learned", "fields": [1024, 768]})
