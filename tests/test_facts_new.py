"""facts_long_context.yaml and facts_designs.yaml: values and tags as their sources state them, and agreement
with the model data and posenc's computations where the two meet."""

from __future__ import annotations

import pytest

from posenc import configs, facts, mla

# (fact, value, tag), typed from the sources each entry names.
EXPECTED = [
    ("codellama_base_before", 10_000, "V3"), ("codellama_base_after", 1_000_000, "V3"),
    ("codellama_lcft_length", 16_384, "V"), ("codellama_extrapolation_length", 100_000, "V"),
    ("xiong_abf_base", 500_000, "U"), ("xiong_context", 32_768, "V3"),
    ("qwen3_abf_base_before", 10_000, "V"), ("qwen3_abf_base_after", 1_000_000, "V"), ("qwen3_long_stage_length", 32_768, "V"),
    ("smollm3_stage1_theta", 50_000, "V"), ("smollm3_32k_theta", 2_000_000, "V"), ("smollm3_64k_theta", 5_000_000, "V"),
    ("ruler_models", 17, "V"), ("ruler_tasks", 13, "V"), ("ruler_threshold", 85.6, "V"),
    ("ruler_llama31_8b_claimed", "128K", "V"), ("ruler_llama31_8b_effective", "32K", "V"),
    ("ruler_gpt4_effective", "64K", "V"), ("ruler_mistral7b_effective", "16K", "V"),
    ("dsv2_gqa_groups", 2.25, "V"),
    ("barbero_wiki_ppl_prope_075", 4.4414, "U"), ("barbero_wiki_ppl_rope_10k", 4.4627, "U"),
    ("llama4_scout_context_claim", "10M", "V"),
]


@pytest.mark.parametrize("name, value, tag", EXPECTED)
def test_fact_value_and_tag(name, value, tag):
    f = facts.get(name)
    assert f.value == value
    assert f.tag == tag
    assert f.source.strip() and f.what.strip()


def tokens(text: str) -> int:
    """RULER's '32K' / '1M' as a token count (the README's K = 1,024 as in its 4K … 128K columns)."""
    return int(text[:-1]) * {"K": 1024, "M": 1024 * 1024}[text[-1]]


@pytest.mark.parametrize("model", ["llama31_8b", "llama31_70b", "gpt4", "mistral7b", "yi34b", "gradient_llama3_8b", "qwen3_8b"])
def test_ruler_effective_is_below_claimed(model):
    claimed, effective = facts.get(f"ruler_{model}_claimed").value, facts.get(f"ruler_{model}_effective").value
    assert tokens(effective) < tokens(claimed)


def test_mla_formula_gives_the_reported_groups():
    # DeepSeek-V2 Table 1 note: d_c = 4 d_h, d_R = d_h / 2
    d_h = 128
    assert mla.equivalent_gqa_groups(4 * d_h, d_h // 2, d_h) == facts.get("dsv2_gqa_groups").value


def test_smollm3_last_stage_is_the_model_entry():
    cfg = configs.load("smollm3_3b")
    assert cfg["rope_theta"] == facts.get("smollm3_64k_theta").value
    assert cfg["context"] == facts.get("smollm3_64k_length").value


def test_qwen3_long_stage_is_the_model_entry():
    cfg = configs.load("qwen3_8b")
    assert cfg["rope_theta"] == facts.get("qwen3_abf_base_after").value
    assert cfg["context"] == facts.get("qwen3_long_stage_length").value
