"""The models added in models_*.yaml and posenc.configs' new checks (position kinds, added fields).

Expected (value, tag) pairs are typed from the sources named in the data files (the
official repository or file each cites), not read back from the YAML, so a mistyped
value or an over-claimed tag fails here.
"""

from __future__ import annotations

import copy

import pytest
import yaml

from posenc import configs

FACTS = [
    # relative family
    ("t5_base", "heads", 12, "V"), ("t5_base", "layers", 12, "V"), ("t5_base", "hidden", 768, "V"),
    ("t5_base", "relative_attention_num_buckets", 32, "V"), ("t5_base", "relative_attention_max_distance", 128, "V"),
    ("t5_base", "bias_tables", 2, "V"), ("t5_base", "bias_layer_index", 0, "V"),
    ("mpt_7b", "heads", 32, "V"), ("mpt_7b", "layers", 32, "V"), ("mpt_7b", "context", 2048, "V"),
    ("mpt_7b", "alibi_bias_max", 8, "U"),
    ("bloom_176b", "heads", 112, "V"), ("bloom_176b", "layers", 70, "V"), ("bloom_176b", "hidden", 14336, "V"),
    ("bloom_176b", "context", 2048, "V"),
    ("baichuan_13b", "heads", 40, "V"), ("baichuan_13b", "layers", 40, "V"), ("baichuan_13b", "context", 4096, "V"),
    # NoPE layers in production
    ("llama4_scout", "nope_layer_interval", 4, "V3"), ("llama4_scout", "attention_chunk_size", 8192, "V3"),
    ("llama4_scout", "floor_scale", 8192, "V3"), ("llama4_scout", "attn_scale", 0.1, "V3"),
    ("llama4_scout", "layers", 48, "V3"), ("llama4_scout", "heads", 40, "V3"), ("llama4_scout", "rope_theta", 500_000, "V3"),
    ("smollm3_3b", "nope_layer_interval", 4, "V"), ("smollm3_3b", "layers", 36, "V"), ("smollm3_3b", "context", 65_536, "V"),
    ("smollm3_3b", "rope_theta", 5_000_000, "V"), ("smollm3_3b", "kv_heads", 4, "V"),
    ("command_r7b", "local_layers_per_global", 3, "V"), ("command_r7b", "nope_on_full_attention", True, "V"),
    ("command_r7b", "sliding_window", 4096, "V"), ("command_r7b", "layers", 32, "U"),
    ("command_a", "layers", 64, "U"), ("command_a", "local_layers_per_global", 3, "U"),
    # added fields
    ("qwen3_next_80b_a3b", "linear_num_key_heads", 16, "V3"), ("qwen3_next_80b_a3b", "linear_num_value_heads", 32, "V3"),
    ("qwen3_next_80b_a3b", "linear_key_head_dim", 128, "V3"), ("qwen3_next_80b_a3b", "linear_value_head_dim", 128, "V3"),
    ("qwen3_next_80b_a3b", "heads", 16, "V"), ("qwen3_next_80b_a3b", "kv_heads", 2, "V"),
    ("deepseek_v3", "kv_lora_rank", 512, "V"), ("deepseek_v3", "q_lora_rank", 1536, "V"), ("deepseek_v3", "v_head_dim", 128, "V"),
    ("deepseek_v3", "heads", 128, "V"), ("deepseek_v3", "layers", 61, "V"),
    ("gpt2", "vocab_size", 50257, "V"), ("gpt2", "layers", 12, "V"), ("gpt2", "heads", 12, "V"), ("gpt2", "intermediate_size", 3072, "V"),
    ("llama3_8b", "vocab_size", 128256, "V"), ("llama3_8b", "kv_heads", 8, "V"), ("llama3_8b", "intermediate_size", 14336, "V"),
    ("qwen3_8b", "vocab_size", 151936, "V3"), ("qwen3_8b", "layers", 36, "V"), ("qwen3_8b", "intermediate_size", 12288, "V3"),
    # M-RoPE
    ("qwen25_vl_7b", "mrope_section", [16, 24, 24], "V"), ("qwen25_vl_7b", "context", 32_768, "V"),
    ("qwen2_vl_7b", "spatial_merge_size", 2, "V"), ("qwen2_vl_7b", "image_token_id", 151655, "V"),
    ("qwen2_vl_7b", "vision_start_token_id", 151652, "V"), ("qwen2_vl_7b", "mrope_section", [16, 24, 24], "U"),
    ("qwen3_vl_235b_a22b", "mrope_section", [24, 20, 20], "V"), ("qwen3_vl_235b_a22b", "mrope_interleaved", True, "V"),
]


@pytest.mark.parametrize("key, field, value, tag", FACTS)
def test_new_field_value_and_tag(key, field, value, tag):
    f = configs.load(key).field(field)
    assert f.value == value
    assert f.tag == tag
    assert f.source.strip()


def test_llama3_intermediate_size_follows_the_official_rule():
    # llama-models FeedForward: hidden = int(2 · 4·dim / 3), × ffn_dim_multiplier, rounded up to multiple_of
    dim, mult, multiple_of = 4096, 1.3, 1024
    hidden = int(mult * int(2 * 4 * dim / 3))
    assert configs.load("llama3_8b")["intermediate_size"] == multiple_of * ((hidden + multiple_of - 1) // multiple_of)


def test_every_data_flow_model_has_the_panel_fields():
    for key in ("gpt2", "llama3_8b", "qwen3_8b"):
        cfg = configs.load(key)
        for name in ("vocab_size", "hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate_size", "context"):
            assert name in cfg.fields, (key, name)
        assert cfg["heads"] * cfg["head_dim"] == cfg["hidden"]


def test_position_kinds_of_the_new_models():
    kinds = {k: configs.load(k).position for k in configs.keys()}
    assert {k for k, v in kinds.items() if v == "alibi"} == {"mpt_7b", "bloom_176b", "baichuan_13b"}
    assert {k for k, v in kinds.items() if v == "t5"} == {"t5_base"}
    assert {k for k, v in kinds.items() if v == "mrope"} == {"qwen2_vl_7b", "qwen25_vl_7b", "qwen3_vl_235b_a22b"}


# --- checks on bad entries ---------------------------------------------------------------------------


def entry(position, **fields):
    return {"name": "Test", "position": position,
            "fields": {k: {"value": copy.deepcopy(v), "source": "test", "tag": "U"} for k, v in fields.items()}}


ALIBI = dict(context=2048, heads=32, layers=32)
T5 = dict(heads=12, layers=12, relative_attention_num_buckets=32, relative_attention_max_distance=128)
MROPE = dict(context=32768, head_dim=128, rope_theta=1_000_000, mrope_section=[16, 24, 24], spatial_merge_size=2)
ROPE = dict(context=4096, head_dim=128, rope_theta=10_000)


def test_valid_new_kinds_parse():
    assert configs._parse("toy", entry("alibi", **ALIBI))["heads"] == 32
    assert configs._parse("toy", entry("t5", **T5))["relative_attention_num_buckets"] == 32
    assert configs._parse("toy", entry("mrope", **MROPE))["mrope_section"] == [16, 24, 24]
    assert configs._parse("toy", entry("rope", **ROPE, layers=36, nope_layer_interval=4))["nope_layer_interval"] == 4


@pytest.mark.parametrize("position, fields, names", [
    ("alibi", {**ALIBI, "heads": None}, ["toy", "heads"]),
    ("alibi", {**ALIBI, "heads": 32.0}, ["toy", "heads", "integer"]),
    ("t5", {**T5, "relative_attention_max_distance": 8}, ["toy", "relative_attention_max_distance"]),
    ("t5", {**T5, "relative_attention_num_buckets": 2}, ["toy", "relative_attention_max_distance"]),
    ("t5", {**T5, "bias_tables": 0}, ["toy", "bias_tables"]),
    ("mrope", {**MROPE, "mrope_section": [16, 24, 16]}, ["toy", "mrope_section", "sums"]),
    ("mrope", {**MROPE, "mrope_section": [16, 48]}, ["toy", "mrope_section"]),
    ("mrope", {**MROPE, "head_dim": 127}, ["toy", "head_dim"]),
    ("mrope", {**MROPE, "mrope_interleaved": "yes"}, ["toy", "mrope_interleaved"]),
    ("mrope", {**MROPE, "rope_theta": 1}, ["toy", "rope_theta"]),
    ("rope", {**ROPE, "heads": 32, "kv_heads": 5}, ["toy", "kv_heads"]),
    ("rope", {**ROPE, "linear_num_key_heads": 16, "linear_num_value_heads": 24}, ["toy", "linear_num_value_heads"]),
    ("rope", {**ROPE, "nope_on_full_attention": True}, ["toy", "local_layers_per_global"]),
    ("rope", {**ROPE, "nope_on_full_attention": "yes", "local_layers_per_global": 3}, ["toy", "nope_on_full_attention"]),
    ("rope", {**ROPE, "attention_chunk_size": 8192}, ["toy", "nope_layer_interval"]),
    ("rope", {**ROPE, "nope_layer_interval": 4, "full_attention_interval": 4}, ["toy", "nope_layer_interval"]),
    ("rope", {**ROPE, "kv_lora_rank": -512}, ["toy", "kv_lora_rank"]),
])
def test_bad_entries_fail_naming_model_and_field(position, fields, names):
    fields = {k: v for k, v in fields.items() if v is not None}
    with pytest.raises(ValueError) as err:
        configs._parse("toy", entry(position, **fields))
    for name in names:
        assert name in str(err.value)


# --- one entry per model, in the file of its position kind ---------------------------------------------------------


def write(tmp_path, name, data):
    (tmp_path / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """Point posenc.configs at a scratch data folder: one RoPE model in models.yaml, the other files empty."""
    write(tmp_path, "models.yaml", {"toy": entry("rope", **ROPE)})
    for name in configs.MODEL_FILES:
        if name != "models.yaml":
            write(tmp_path, name, {})
    monkeypatch.setattr(configs, "MODELS_FILE", tmp_path / "models.yaml")
    configs._all.cache_clear()
    yield tmp_path
    configs._all.cache_clear()


def test_the_files_hold_one_kind_of_position_signal_each():
    assert configs.MODEL_FILES == {"models.yaml": ("learned", "rope"), "models_relative.yaml": ("alibi", "t5"),
                                   "models_vl.yaml": ("mrope",)}
    data = configs.MODELS_FILE.parent
    for name, kinds in configs.MODEL_FILES.items():
        raw = yaml.safe_load((data / name).read_text(encoding="utf-8"))
        assert raw and {e["position"] for e in raw.values()} <= set(kinds), name
    assert sorted(p.name for p in data.glob("models*.yaml")) == sorted(configs.MODEL_FILES)


@pytest.mark.parametrize("files, message", [
    ({"models_vl.yaml": {"toy": entry("rope", **ROPE)}},
     "model 'toy' is defined twice, in models.yaml and models_vl.yaml; keep one entry with all its fields"),
    ({"models_vl.yaml": {"other": entry("rope", **ROPE)}},
     "models_vl.yaml: model 'other' (rope) belongs in models.yaml, the file of rope models"),
    ({"models_more.yaml": {"other": entry("rope", **ROPE)}},
     "models_more.yaml: not a models file posenc reads; put each model in the file of its position kind "
     "(models.yaml: learned/rope, models_relative.yaml: alibi/t5, models_vl.yaml: mrope), or add the file to "
     "posenc.configs.MODEL_FILES"),
])
def test_a_model_outside_its_file_or_defined_twice_fails_naming_the_files(data_dir, files, message):
    for name, data in files.items():
        write(data_dir, name, data)
    with pytest.raises(ValueError) as err:
        configs.keys()
    assert str(err.value) == message


def test_the_scratch_folder_loads_its_one_model(data_dir):
    cfg = configs.load("toy")
    assert configs.keys() == ["toy"] and cfg["head_dim"] == 128
