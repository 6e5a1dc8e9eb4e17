"""posenc.scaling's bad-input contract, argument by argument: each message starts with the argument's name.

The project's standard: bad input gets a ValueError that names the argument as the caller
wrote it (and the fix). ``pytest.raises(match="base")`` alone also passes when the message
says "new_base" or "XXbaseXX", so every row here anchors the name at the start of the
message. The rows cover the checks test_scaling.py's exact-message table does not
(base_change, ntk_factor_for_base, yarn_paper_ramp, llama3_bands, angle_overshoot, the
model helpers); messages that name a model are compared whole.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from posenc import configs, rope, scaling
from expect import raises_exactly

OMEGA = rope.inverse_frequencies(16, 10_000.0)


@pytest.mark.parametrize(
    "call, name",
    [
        # NTK-aware base and its inverse
        (lambda: scaling.ntk_aware_base(1.0, 4, 128), "base"),
        (lambda: scaling.ntk_factor_for_base(1.0, 1e6, 128), "base"),
        (lambda: scaling.ntk_factor_for_base(1e4, 1.0, 128), "new_base"),
        (lambda: scaling.ntk_factor_for_base(1e4, 1e6, 5), "dim"),
        (lambda: scaling.ntk_factor_for_base(1e4, 1e6, 2), "dim must be at least 4"),
        (lambda: scaling.ntk_factor_for_base(1e6, 1e4, 128), "new_base must be at least base"),
        # ABF pair by pair
        (lambda: scaling.base_change(64, 1.0, 1e6, 4096), "base"),
        (lambda: scaling.base_change(64, 1e4, 1.0, 4096), "new_base"),
        (lambda: scaling.base_change(64, 1e4, 1e6, 0), "length"),
        (lambda: scaling.base_change(64, 1e4, 1e6, 4096.0), "length"),
        (lambda: scaling.base_change(64, 1e4, 1e6, 4096, 0), "new_length"),
        (lambda: scaling.turn_fraction(OMEGA, -1), "position"),
        # dynamic NTK's lengths
        (lambda: scaling.dynamic_ntk(64, 1e4, 2.0, 4096.0), "max_position_embeddings"),
        (lambda: scaling.dynamic_ntk(64, 1e4, 2.0, 4096, 8192.0), "seq_len"),
        # YaRN
        (lambda: scaling.yarn_paper_ramp([0.0]), "rotations"),
        (lambda: scaling.yarn_paper_ramp([1.0], alpha=0.0), "alpha"),
        (lambda: scaling.yarn_paper_ramp([1.0], beta=0.0), "beta"),
        (lambda: scaling.yarn_paper_ramp([1.0], alpha=2.0, beta=2.0), "beta must exceed alpha"),
        (lambda: scaling.yarn_pairs(64, 1e4, 0.5, 4096), "factor"),
        (lambda: scaling.yarn_pairs(64, 1e4, 4.0, 0), "original_context"),
        (lambda: scaling.yarn_pairs(64, 1e4, 4.0, 4096, beta_slow=0), "beta_slow"),
        # Llama 3's bands (the factor is not needed, every other argument is checked)
        (lambda: scaling.llama3_bands(128, 5e5, 0, 4, 8192), "low_freq_factor"),
        (lambda: scaling.llama3_bands(128, 5e5, 1, 0, 8192), "high_freq_factor"),
        (lambda: scaling.llama3_bands(128, 5e5, 1, 1, 8192), "high_freq_factor must exceed low_freq_factor"),
        (lambda: scaling.llama3_bands(128, 5e5, 1, 4, 8192.0), "original_context"),
        (lambda: scaling.llama3_split(128, 5e5, 4, 1, 8192), "high_freq_factor must exceed low_freq_factor"),
        # comparing methods
        (lambda: scaling.angle_overshoot(OMEGA, OMEGA[:-1], 4096, 4.0), "omega and scaled"),
        (lambda: scaling.angle_overshoot(OMEGA, OMEGA, 0, 4.0), "original_context"),
        (lambda: scaling.angle_overshoot(OMEGA, OMEGA, 4096, 0.5), "factor"),
        (lambda: scaling.pairs_beyond_trained_angles(OMEGA, OMEGA, 4096, 0.5), "factor"),
    ],
)
def test_message_starts_with_the_argument_name(call, name):
    with pytest.raises(ValueError, match=rf"^{re.escape(name)}\b"):
        call()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: scaling.scaling_arguments(configs.load("gpt2")),
         "expected a RoPE model from models.yaml, got 'gpt2'; e.g. configs.load('qwen3_8b')"),
        (lambda: scaling.methods_for("qwen3_8b"),  # a key instead of the loaded config: named as given
         "expected a RoPE model from models.yaml, got 'qwen3_8b'; e.g. configs.load('qwen3_8b')"),
        (lambda: scaling.scaling_arguments(configs.load("llama2_7b")),
         "model 'llama2_7b' has no scaling in models.yaml; pick one that does, e.g. 'qwen3_8b' or 'llama31_8b'"),
        (lambda: scaling.methods_for(configs.load("llama2_7b")),
         "model 'llama2_7b' has no scaling factor in models.yaml; pass factor=, e.g. factor=4.0"),
        (lambda: scaling.yarn_pairs_for_model(configs.load("llama31_8b")),
         "model 'llama31_8b' scales with 'llama3', not 'yarn'; pick a model whose scaling is 'yarn'"),
        (lambda: scaling.llama3_bands_for_model(configs.load("qwen3_8b")),
         "model 'qwen3_8b' scales with 'yarn', not 'llama3'; pick a model whose scaling is 'llama3'"),
    ],
)
def test_model_helpers_name_the_model_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_methods_for_an_unscaled_model_works_once_given_a_factor():
    # the message above says "pass factor=": doing so must work (PI at s = 2 halves every frequency)
    m = scaling.methods_for(configs.load("llama2_7b"), factor=2.0)
    np.testing.assert_allclose(m["linear"], m["none"] / 2, rtol=1e-15)
