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
