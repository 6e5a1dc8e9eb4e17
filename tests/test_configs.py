"""models.yaml against facts.md, and posenc.configs' checks on bad entries.

The expected (value, tag) pairs below are copied from ../shared/facts/facts.md
§1, not from models.yaml, so a mistyped value or an over-claimed tag fails here.
"""

from __future__ import annotations

import copy

import pytest

from posenc import configs

# (model key, field, value, tag) as facts.md §1 states them.
FACTS = [
    ("gpt2", "context", 1024, "V"),
    ("gpt2", "hidden", 768, "V"),
    ("bert_base", "context", 512, "V"),
    ("llama2_7b", "context", 4096, "V"),
    ("llama2_7b", "rope_theta", 10_000, "V"),
    ("llama2_7b", "head_dim", 128, "V"),
    ("llama3_8b", "context", 8192, "V"),
    ("llama3_8b", "rope_theta", 500_000, "V"),
    ("llama31_8b", "max_position_embeddings", 131_072, "V"),
    ("llama31_8b", "rope_theta", 500_000, "V"),
    ("llama31_8b", "scaling", {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 8192}, "V"),
    ("mistral_7b_v01", "context", 32_768, "V3"),
    ("mistral_7b_v01", "rope_theta", 10_000, "V3"),
    ("mistral_7b_v01", "sliding_window", 4096, "V3"),
    ("qwen25_7b", "rope_theta", 1_000_000, "V3"),
    ("qwen25_7b", "context", 32_768, "V"),
    ("qwen25_7b", "scaling", {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768}, "V"),
    ("qwen3_8b", "head_dim", 128, "V3"),
    ("qwen3_8b", "rope_theta", 1_000_000, "V3"),
    ("qwen3_8b", "max_position_embeddings", 40_960, "V3"),
    ("qwen3_8b", "context", 32_768, "V"),
    ("qwen3_8b", "scaled_context", 131_072, "V"),
    ("qwen3_8b", "scaling", {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768}, "V"),
    ("qwen3_next_80b_a3b", "head_dim", 256, "V"),
    ("qwen3_next_80b_a3b", "rotary_fraction", 0.25, "V"),
    ("qwen3_next_80b_a3b", "full_attention_interval", 4, "V"),
    ("qwen3_next_80b_a3b", "layers", 48, "V"),
    ("qwen3_next_80b_a3b", "context", 262_144, "V3"),
    ("qwen3_next_80b_a3b", "rope_theta", 10_000_000, "U"),
    ("deepseek_v3", "head_dim", 64, "V"),
    ("deepseek_v3", "rope_theta", 10_000, "V"),
    ("deepseek_v3", "context", 4096, "V"),
    ("deepseek_v3", "max_position_embeddings", 163_840, "V3"),
    ("gemma3_27b", "head_dim", 128, "V"),
    ("gemma3_27b", "rope_theta", 1_000_000, "V"),
    ("gemma3_27b", "local_rope_theta", 10_000, "V"),
    ("gemma3_27b", "sliding_window", 1024, "V"),
    ("gemma3_27b", "local_layers_per_global", 5, "V"),
    ("gemma3_27b", "scaling", {"rope_type": "linear", "factor": 8.0}, "V"),
    ("gemma3_27b", "context", 131_072, "U"),
    ("glm45", "rotary_fraction", 0.5, "V"),
    ("glm45", "context", 131_072, "V"),
    ("glm45", "rope_theta", 1_000_000, "U"),
    ("glm45", "head_dim", 128, "U"),
    ("gpt_oss", "head_dim", 64, "V"),
    ("gpt_oss", "rope_theta", 150_000, "V"),
    ("gpt_oss", "context", 4096, "V"),
    ("gpt_oss", "sliding_window", 128, "V"),
    ("gpt_oss", "scaling", {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
                            "original_max_position_embeddings": 4096}, "V"),
    ("kimi_k2", "rope_theta", 50_000, "U"),
    ("kimi_k2", "head_dim", 64, "U"),
    ("kimi_k2", "scaling", {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 4096,
                            "beta_fast": 1.0, "beta_slow": 1.0}, "U"),
]


@pytest.mark.parametrize("key, field, value, tag", FACTS)
def test_field_value_and_tag_match_facts(key, field, value, tag):
    f = configs.load(key).field(field)
    assert f.value == value
    assert f.tag == tag
    assert f.source.strip()


def test_deepseek_scaling_matches_the_official_model_args():
    # facts §1: ModelArgs rope_factor=40, original_seq_len=4096, beta_fast=32, beta_slow=1, mscale=1.;
    # HF config adds mscale_all_dim 1.0 ([V3]), so the dict as a whole is tagged V3.
    f = configs.load("deepseek_v3").field("scaling")
    assert f.value == {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": 4096,
                       "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}
    assert f.tag == "V3"


def test_all_twelve_rope_models_load():
    rope_keys = {k for k in configs.keys() if configs.load(k).position == "rope"}
    assert rope_keys == {"llama2_7b", "llama3_8b", "llama31_8b", "mistral_7b_v01", "qwen25_7b", "qwen3_8b",
                         "qwen3_next_80b_a3b", "deepseek_v3", "gemma3_27b", "glm45", "gpt_oss", "kimi_k2"}


def test_scaled_context_is_factor_times_native_where_given():
    for key in configs.keys():
        cfg = configs.load(key)
        if cfg.get("scaled_context") is not None:
            sc = cfg["scaling"]
            assert cfg["scaled_context"] == sc["factor"] * sc["original_max_position_embeddings"] == sc["factor"] * cfg["context"], key


# --- helpers for transformers ------------------------------------------------------------------------


def test_rope_parameters_carry_partial_rotary_and_theta():
    assert configs.rope_parameters(configs.load("qwen3_next_80b_a3b")) == {
        "rope_type": "default", "rope_theta": 10_000_000, "partial_rotary_factor": 0.25}
    assert configs.rope_parameters(configs.load("gemma3_27b"), layer="local") == {
        "rope_type": "default", "rope_theta": 10_000}
    assert configs.rope_parameters(configs.load("gemma3_27b")) == {
        "rope_type": "linear", "factor": 8.0, "rope_theta": 1_000_000}
    kw = configs.transformers_kwargs(configs.load("qwen3_8b"))
    assert kw["max_position_embeddings"] == 131_072 and kw["head_dim"] == 128
    assert kw["rope_parameters"]["original_max_position_embeddings"] == 32_768


def test_rope_parameters_do_not_alias_the_loaded_config():
    cfg = configs.load("qwen3_8b")
    configs.rope_parameters(cfg)["factor"] = 99.0
    assert cfg["scaling"]["factor"] == 4.0


@pytest.mark.parametrize("call, match", [
    (lambda: configs.rope_parameters(configs.load("gpt2")), "not RoPE"),
    (lambda: configs.rope_parameters(configs.load("qwen3_8b"), layer="local"), "local_rope_theta"),
    (lambda: configs.rope_parameters(configs.load("qwen3_8b"), layer="middle"), "layer"),
])
def test_helpers_reject_bad_requests(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- consistency checks on bad entries -------------------------------------------------------------


def entry(**fields):
    """A valid RoPE entry (Qwen3-8B-like), with fields replaced or removed (value None)."""
    base = {
        "context": 32_768,
        "head_dim": 128,
        "rope_theta": 1_000_000,
        "scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768},
        "scaled_context": 131_072,
    }
    for k, v in fields.items():
        if v is None:
            base.pop(k)
        else:
            base[k] = v
    return {"name": "Test", "position": "rope",
            "fields": {k: {"value": copy.deepcopy(v), "source": "test", "tag": "U"} for k, v in base.items()}}


def test_valid_entry_parses():
    cfg = configs._parse("toy", entry())
    assert cfg["scaled_context"] == 131_072


@pytest.mark.parametrize(
    "fields, names",
    [
        ({"rope_theta": None}, ["toy", "rope_theta"]),
        ({"head_dim": 100, "rotary_fraction": 0.25}, ["toy", "rotary_fraction", "even"]),  # 25 dims
        ({"head_dim": 127}, ["toy", "head_dim", "even"]),
        ({"rotary_fraction": 1.5}, ["toy", "rotary_fraction"]),
        ({"rope_theta": 1}, ["toy", "rope_theta", "greater than 1"]),
        ({"rope_theta": "1e6"}, ["toy", "rope_theta"]),
        ({"head_dim": 128.0}, ["toy", "head_dim", "integer"]),
        ({"scaled_context": 100_000}, ["toy", "scaled_context", "factor"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}},
         ["toy", "original_max_position_embeddings", "context"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0}}, ["toy", "scaling", "original_max_position_embeddings"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768, "beta_fats": 32}},
         ["toy", "unknown", "beta_fats"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768,
                      "beta_fast": 1, "beta_slow": 32}}, ["toy", "beta_fast"]),
        ({"scaling": {"rope_type": "yarn", "factor": 0.5, "original_max_position_embeddings": 32_768},
          "scaled_context": None}, ["toy", "factor"]),
        ({"scaling": {"rope_type": "ntk", "factor": 4.0}}, ["toy", "rope_type"]),
        ({"scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
                      "original_max_position_embeddings": 32_768}, "scaled_context": None}, ["toy", "high_freq_factor"]),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768,
                      "truncate": "no"}}, ["toy", "truncate"]),
        ({"scaling": None}, ["toy", "scaled_context", "no scaling"]),
        ({"scaling_opt_in": "yes"}, ["toy", "scaling_opt_in"]),
        ({"layers": 50, "full_attention_interval": 4}, ["toy", "layers", "full_attention_interval"]),
    ],
)
def test_inconsistent_entry_fails_naming_model_and_field(fields, names):
    with pytest.raises(ValueError) as err:
        configs._parse("toy", entry(**fields))
    for name in names:
        assert name in str(err.value)


def test_llama3_factor_is_not_checked_as_a_context_ratio():
    # Llama 3.1: factor 8 over 8,192 serves 131,072 tokens; a llama3 scaled_context is not factor × original.
    cfg = configs._parse("toy", entry(
        context=8192,
        scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                 "original_max_position_embeddings": 8192},
        scaled_context=131_072,
    ))
    assert cfg["scaled_context"] == 131_072
