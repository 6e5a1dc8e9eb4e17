"""posenc.relative.added_parameters: what each position scheme adds, checked against transformers' modules."""

from __future__ import annotations

import pytest

from posenc import configs, relative

import torch  # a hard dependency: a missing torch fails, never skips
from transformers import BloomConfig, GPT2Config, T5Config  # noqa: E402
from transformers.models.bloom.modeling_bloom import BloomModel  # noqa: E402
from transformers.models.gpt2.modeling_gpt2 import GPT2Model  # noqa: E402
from transformers.models.t5.modeling_t5 import T5Model  # noqa: E402


def params_named(model, word: str) -> int:
    return sum(p.numel() for name, p in model.named_parameters() if word in name)


def test_gpt2_table_matches_transformers_wpe():
    cfg = configs.load("gpt2")
    with torch.device("meta"):
        model = GPT2Model(GPT2Config(n_positions=cfg["context"], n_embd=cfg["hidden"], n_layer=1, n_head=cfg["heads"]))
    assert relative.model_position_parameters(cfg) == model.wpe.weight.numel() == 786_432  # facts.md §2 (d)


def test_t5_tables_match_transformers():
    cfg = configs.load("t5_base")
    ref = T5Config(d_model=cfg["hidden"], d_kv=cfg["head_dim"], d_ff=cfg["intermediate_size"], num_layers=cfg["layers"],
                   num_heads=cfg["heads"], relative_attention_num_buckets=cfg["relative_attention_num_buckets"],
                   relative_attention_max_distance=cfg["relative_attention_max_distance"])
    with torch.device("meta"):
        model = T5Model(ref)
    # one table in layer 0 of the encoder and one in layer 0 of the decoder (cross-attention has none)
    assert relative.model_position_parameters(cfg) == params_named(model, "relative_attention_bias") == 32 * 12 * 2
    assert relative.added_parameters("t5", cfg, stacks=1) == 32 * 12


def test_alibi_adds_nothing_in_transformers_either():
    cfg = configs.load("bloom_176b")
    with torch.device("meta"):
        model = BloomModel(BloomConfig(hidden_size=64, n_head=cfg["heads"] // 14, n_layer=1))
    assert params_named(model, "position") == params_named(model, "alibi") == 0  # ALiBi is a buffer-free bias
    assert relative.model_position_parameters(cfg) == 0


@pytest.mark.parametrize("key", ["qwen3_8b", "llama4_scout", "mpt_7b", "baichuan_13b", "qwen25_vl_7b"])
def test_fixed_schemes_add_nothing(key):
    assert relative.model_position_parameters(configs.load(key)) == 0


def test_each_scheme_on_one_model():
    gpt2 = configs.load("gpt2")  # context 1024, hidden 768, 12 layers of 12 heads of 64 dims
    assert relative.added_parameters("learned", gpt2) == 1024 * 768
    for scheme in ("sinusoidal", "rope", "alibi", "nope"):
        assert relative.added_parameters(scheme, gpt2) == 0
    assert relative.added_parameters("t5", gpt2) == 32 * 12
    assert relative.added_parameters("shaw", gpt2, max_relative_position=16) == (2 * 16 + 1) * 64 * 2 * 12


@pytest.mark.parametrize("call, match", [
    (lambda: relative.added_parameters("xpos", configs.load("gpt2")), "scheme"),
    (lambda: relative.added_parameters("shaw", configs.load("gpt2")), "max_relative_position"),
    (lambda: relative.added_parameters("learned", configs.load("t5_base")), "context"),
    (lambda: relative.added_parameters("t5", configs.load("qwen3_next_80b_a3b"), num_buckets=1), "num_buckets"),
    (lambda: relative.added_parameters("shaw", configs.load("llama2_7b"), max_relative_position=8), "layers"),
    (lambda: relative.model_position_parameters("gpt2"), "posenc.configs"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
