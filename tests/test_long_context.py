"""posenc.long_context: the real base changes (ABF) and RULER's window vs effective length.

What the tests compare against, part by part:

- posenc.long_context: the real base changes (ABF) and RULER's window vs effective length. Every expected value is
  read from the raw YAML files here, or written out as a closed form (λ_i = 2π·θ^(2i/d); #{i : λ_i ≤ L}), never
  taken from the module under test.
- posenc.long_context: each RULER row names its model, and an unknown base-raise case lists the known ones.
"""

from __future__ import annotations

import math
from pathlib import Path
import re

import numpy as np
import pytest
import yaml

from posenc import long_context
from posenc import long_context, scaling


ROOT = Path(__file__).resolve().parent.parent


DATA = ROOT / "posenc" / "data"


FACTS = yaml.safe_load((DATA / "facts_lesson5.yaml").read_text(encoding="utf-8"))


MODELS = {}


for _p in sorted(DATA.glob("models*.yaml")):
    for _k, _e in (yaml.safe_load(_p.read_text(encoding="utf-8")) or {}).items():
        MODELS.setdefault(_k, {}).update({f: v["value"] for f, v in _e.get("fields", {}).items()})


def fact(name):
    return FACTS[name]["value"]


def field(model, name):
    return MODELS[model][name]


@pytest.mark.parametrize("label, tokens", [("4K", 4096), ("32K", 32_768), ("128K", 131_072), ("200K", 204_800),
                                           ("1M", 1_048_576)])
def test_window_tokens(label, tokens):
    assert long_context.window_tokens(label) == tokens


@pytest.mark.parametrize("bad", ["128k", "128", "1.5M", "", None, 128, "K"])
def test_window_tokens_refuses_what_the_table_does_not_print(bad):
    with pytest.raises(ValueError, match="label"):
        long_context.window_tokens(bad)


def test_ruler_rows_are_the_facts_in_order_with_their_shares():
    rows = long_context.ruler_rows()
    keys = [r.key for r in rows]
    assert keys == ["llama31_8b", "llama31_70b", "gpt4", "mistral7b", "yi34b", "gradient_llama3_8b", "qwen3_8b"]
    for r in rows:
        claimed, effective = fact(f"ruler_{r.key}_claimed"), fact(f"ruler_{r.key}_effective")
        assert (r.claimed, r.effective) == (claimed, effective)
        unit = {"K": 1, "M": 1024}
        expected = int(effective[:-1]) * unit[effective[-1]] / (int(claimed[:-1]) * unit[claimed[-1]])
        assert r.share == pytest.approx(expected, rel=1e-15)
        assert r.share < 1  # no listed model holds up to its whole window
    shares = {r.key: r.share for r in rows}
    assert shares["llama31_8b"] == 0.25 and shares["gradient_llama3_8b"] == 16 / 1024


def test_base_raises_are_read_from_the_sources():
    by_key = {c.key: c for c in long_context.base_raises()}
    # Llama 3 was pre-trained with θ = 500,000 from the start (Table 3), not a base change in a recipe
    assert list(by_key) == ["codellama", "qwen3", "smollm3_32k", "smollm3_64k"]
    cl = by_key["codellama"]
    assert (cl.head_dim, cl.base, cl.length, cl.new_base, cl.new_length, cl.far) == (
        field("llama2_7b", "head_dim"), fact("codellama_base_before"), field("llama2_7b", "context"),
        fact("codellama_base_after"), fact("codellama_lcft_length"), fact("codellama_extrapolation_length"))
    q = by_key["qwen3"]
    assert (q.base, q.new_base, q.length, q.new_length, q.far) == (
        fact("qwen3_abf_base_before"), fact("qwen3_abf_base_after"), fact("qwen3_general_stage_length"),
        fact("qwen3_long_stage_length"), field("qwen3_8b", "scaled_context"))
    s1, s2 = by_key["smollm3_32k"], by_key["smollm3_64k"]
    assert (s1.base, s1.length, s1.new_base, s1.new_length) == (
        fact("smollm3_stage1_theta"), fact("smollm3_stage1_length"), fact("smollm3_32k_theta"), fact("smollm3_32k_length"))
    assert (s2.base, s2.length, s2.new_base, s2.new_length) == (
        fact("smollm3_32k_theta"), fact("smollm3_32k_length"), fact("smollm3_64k_theta"), fact("smollm3_64k_length"))
    with pytest.raises(ValueError, match="codellama"):
        long_context.base_raise("code_llama")


def turned_by_hand(d, theta, L):
    return sum(2 * math.pi * theta ** (2 * i / d) <= L for i in range(d // 2))


@pytest.mark.parametrize("case", long_context.base_raises(), ids=lambda c: c.key)
def test_each_case_against_closed_forms(case):
    d = case.head_dim
    ch = case.change()
    assert ch.turned_before == turned_by_hand(d, case.base, case.length)
    assert ch.turned_after == turned_by_hand(d, case.new_base, case.new_length)
    assert ch.slowest_fraction_after == pytest.approx(case.new_length / (2 * math.pi * case.new_base ** ((d - 2) / d)), rel=1e-12)
    # the equivalent NTK-aware s stretches the slowest wavelength exactly as the base change does
    stretch = (case.new_base / case.base) ** ((d - 2) / d)
    assert case.ntk_factor() == pytest.approx(stretch, rel=1e-12)
    assert scaling.ntk_aware_base(case.base, case.ntk_factor(), d) == pytest.approx(case.new_base, rel=1e-12)


def test_code_llama_turns_fewer_pairs_at_four_times_the_length():
    ch = long_context.base_raise("codellama").change()
    assert (ch.turned_before, ch.turned_after) == (46, 37)  # facts.md §2: Llama 2 leaves 18 of 64 unturned at 4,096
    far = np.array([100_000 / (2 * math.pi * 1e6 ** (2 * i / 128)) for i in range(64)])
    assert int(np.sum(far >= 1)) == 45 and far[-1] == pytest.approx(0.01975, abs=5e-5)


# --- RULER rows ----------------------------------------------------------------------------------------------------


# NVIDIA/RULER @c3f5e3b README.md main table, one row per model (facts_long_context.yaml cites each row);
# the page names them by their released checkpoints.
RULER_NAMES = {
    "llama31_8b": "Llama 3.1 8B",
    "llama31_70b": "Llama 3.1 70B",
    "gpt4": "GPT-4-1106-preview",
    "mistral7b": "Mistral-7B-Instruct-v0.2",
    "yi34b": "Yi-34B-200K",
    "gradient_llama3_8b": "Llama-3-8B-Gradient-1048k",
    "qwen3_8b": "Qwen3-8B",
}


def test_each_ruler_row_names_its_model():
    rows = long_context.ruler_rows()
    assert {r.key: r.model for r in rows} == RULER_NAMES


def test_unknown_base_raise_lists_the_cases():
    with pytest.raises(ValueError, match=re.escape(
            "unknown base-raise case 'code_llama'; choose from codellama, qwen3, smollm3_32k, smollm3_64k")):
        long_context.base_raise("code_llama")


def test_base_raise_labels_are_the_pages():
    # lesson 5's ABF table (quantity abf_cases_table) prints these labels in its first column
    labels = {c.key: c.label for c in long_context.base_raises()}
    assert labels == {"codellama": "Code Llama", "qwen3": "Qwen3 长上下文阶段", "smollm3_32k": "SmolLM3 第一段",
                      "smollm3_64k": "SmolLM3 第二段"}


def test_only_the_cases_with_a_reported_longer_reach_have_one():
    # Code Llama reports stable behaviour beyond its training length, Qwen3 a YaRN reach; the SmolLM3 stages
    # report none
    far = {c.key: c.far for c in long_context.base_raises()}
    assert far["smollm3_32k"] is None and far["smollm3_64k"] is None
    assert far["codellama"] > long_context.base_raise("codellama").new_length
    assert far["qwen3"] > long_context.base_raise("qwen3").new_length


def test_smollm3_blog_variant_changes_only_the_new_base():
    # the config (2,000,000, what the run used) and the release blog (1.5M) disagree; the variant row is the
    # config's row with the blog's base, and its numbers follow the closed forms
    cfg, blog = long_context.base_raise("smollm3_32k"), long_context.smollm3_blog_variant()
    assert (blog.head_dim, blog.base, blog.length, blog.new_length) == (cfg.head_dim, cfg.base, cfg.length, cfg.new_length)
    assert (cfg.new_base, blog.new_base) == (fact("smollm3_32k_theta"), fact("smollm3_blog_32k_theta")) == (2_000_000, 1_500_000)
    d = blog.head_dim
    assert blog.change().turned_after == turned_by_hand(d, 1_500_000, 32_768)
    assert blog.ntk_factor() == pytest.approx((1_500_000 / 50_000) ** ((d - 2) / d), rel=1e-12)
