"""posenc.long_context: each RULER row names its model, and an unknown base-raise case lists the known ones."""

from __future__ import annotations

import re

import pytest

from posenc import long_context

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
            "unknown base-raise case 'code_llama'; choose from codellama, qwen3, smollm3_32k, smollm3_64k, llama3")):
        long_context.base_raise("code_llama")


def test_base_raise_labels_are_the_pages():
    # lesson 5's ABF table (quantity abf_cases_table) prints these labels in its first column
    labels = {c.key: c.label for c in long_context.base_raises()}
    assert labels == {"codellama": "Code Llama", "qwen3": "Qwen3 长上下文阶段", "smollm3_32k": "SmolLM3 第一段",
                      "smollm3_64k": "SmolLM3 第二段", "llama3": "Llama 2 → Llama 3"}


def test_only_the_cases_with_a_reported_longer_reach_have_one():
    # Code Llama reports stable behaviour beyond its training length, Qwen3 a YaRN reach; the SmolLM3 stages
    # and the Llama 2 → 3 comparison report none
    far = {c.key: c.far for c in long_context.base_raises()}
    assert far["smollm3_32k"] is None and far["smollm3_64k"] is None and far["llama3"] is None
    assert far["codellama"] > long_context.base_raise("codellama").new_length
    assert far["qwen3"] > long_context.base_raise("qwen3").new_length
