"""posenc/experiment/scalings.py: which stretch each stage uses, and the table's entries against their formulas."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from experiment_tiny import TINY

from posenc.experiment import scalings

CFG = dataclasses.replace(TINY, d_model=32, n_heads=2, ext_len=32, ext_eval_len=32)  # head_dim 16; s = 2 at evaluation, 4 in the extension
I = np.arange(8)
PLAIN = CFG.rope_base ** (-2 * I / 16)


def test_evaluation_stretches_to_eval_len_and_the_extension_to_ext_len():
    np.testing.assert_allclose(scalings.evaluation_time(CFG, "pi")[0], PLAIN / 2, rtol=1e-12)
    np.testing.assert_allclose(scalings.extension(CFG, "pi")[0], PLAIN / 4, rtol=1e-12)
    assert scalings.evaluation_time(CFG, "yarn")[1] == pytest.approx(0.1 * math.log(2) + 1)
    assert scalings.extension(CFG, "yarn")[1] == pytest.approx(0.1 * math.log(4) + 1)


def test_each_variant_is_its_formula():
    inv, f = scalings.frequencies(CFG, "rope", 4.0)
    np.testing.assert_allclose(inv, PLAIN, rtol=1e-12)
    inv, f2 = scalings.frequencies(CFG, "ntk", 4.0)
    np.testing.assert_allclose(inv, (CFG.rope_base * 4.0 ** (16 / 14)) ** (-2 * I / 16), rtol=1e-12)  # YaRN Eq. 16
    inv, f3 = scalings.frequencies(CFG, "abf", 4.0)
    np.testing.assert_allclose(inv, CFG.abf_base ** (-2 * I / 16), rtol=1e-12)
    assert f == f2 == f3 == 1.0
    assert np.array_equal(scalings.frequencies(CFG, "abf", 2.0)[0], scalings.frequencies(CFG, "abf", 8.0)[0])


def test_yarn_keeps_fast_pairs_and_divides_slow_ones_relative_to_the_training_length():
    # NTK-by-parts (YaRN §3.2): a pair that turns 32 times or more within the original context keeps ω, one
    # that turns once or less is divided by s. The original context is the training length.
    long = dataclasses.replace(CFG, train_len=1024, eval_len=4096, ext_len=4096, ext_eval_len=4096)
    inv, _ = scalings.frequencies(long, "yarn", 4.0)
    ratio, turns = PLAIN / inv, 1024 * PLAIN / (2 * np.pi)
    assert np.allclose(ratio[turns >= 32], 1.0) and np.allclose(ratio[turns <= 1], 4.0)
    assert (turns >= 32).sum() == 2 and (turns <= 1).sum() == 3
    short, _ = scalings.frequencies(CFG, "yarn", 4.0)  # at 8 tokens even pair 1 turns less than once
    assert PLAIN[1] / short[1] == pytest.approx(4.0) and ratio[1] == pytest.approx(1.0)


def test_unknown_variant_names_the_choices():
    with pytest.raises(ValueError, match="unknown RoPE variant 'longrope'; choose from rope, pi, ntk, yarn, abf"):
        scalings.frequencies(CFG, "longrope", 4.0)
