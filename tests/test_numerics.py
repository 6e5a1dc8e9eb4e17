"""posenc.numerics: bf16 rounding against torch's own cast, and the angle errors against float64 and torch.

References: torch's float32 → bfloat16 cast and bf16 multiply (an implementation independent of the bit trick
here), the definition of the bf16 grid (8 significant bits), and float64 products.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch

from expect import raises_exactly
from posenc import numerics as nu, rope


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=1, max_size=50))
@settings(max_examples=100, deadline=None)
def test_to_bfloat16_is_torchs_cast(values):
    want = torch.tensor(values, dtype=torch.float32).to(torch.bfloat16).float().numpy()
    np.testing.assert_array_equal(nu.to_bfloat16(values), want)


def test_ties_go_to_even():
    # 257 lies halfway between bf16's 256 and 258: the even mantissa (256) wins; 259 → 260
    np.testing.assert_array_equal(nu.to_bfloat16([257.0, 259.0, 255.0]), [256.0, 260.0, 255.0])


@pytest.mark.parametrize("p", [1, 255, 256, 257, 4095, 32_767, 32_768, 131_071])
def test_spacing_is_the_gap_between_neighbouring_bf16_values(p):
    # in the binade [2^k, 2^(k+1)) holding p, the gap is next-after(2^k) − 2^k on torch's bf16 grid; an integer
    # grid point is never closer than 1
    x = torch.tensor(2.0 ** math.floor(math.log2(p))).to(torch.bfloat16)
    gap = float(torch.nextafter(x, torch.tensor(math.inf, dtype=torch.bfloat16)).float() - x.float())
    assert nu.bf16_spacing(p) == max(1, int(gap))


def test_spacing_values_quoted_by_lesson5():
    assert (nu.bf16_spacing(32_767), nu.bf16_spacing(131_071)) == (128, 512)


@pytest.mark.parametrize("p, base", [(4095, 1e4), (32_767, 1e6), (131_071, 1e6)])
def test_angles_match_torch_in_each_precision(p, base):
    omega = torch.tensor(rope.inverse_frequencies(128, base))
    bf = (torch.tensor(float(p)).to(torch.bfloat16) * omega.to(torch.bfloat16)).double().numpy()
    np.testing.assert_array_equal(nu.angles(p, 128, base, "bfloat16"), bf)
    f32 = (torch.tensor(float(p)) * omega.float()).double().numpy()
    np.testing.assert_array_equal(nu.angles(p, 128, base, "float32"), f32)


def test_errors_against_float64_and_their_size():
    exact = 32_767 * rope.inverse_frequencies(128, 1e6)
    err = nu.angle_errors(32_767, 128, 1e6, "bfloat16")
    np.testing.assert_allclose(err, np.abs(nu.angles(32_767, 128, 1e6, "bfloat16") - exact), rtol=0, atol=0)
    assert err.max() > math.pi  # some pair points anywhere
    f32 = nu.angle_errors(32_767, 128, 1e6, "float32")
    assert f32.max() < 1e-2 and f32.max() <= 32_767 * 2 ** -23  # ≈ |angle| × float32's relative precision
    assert nu.angle_errors(200, 128, 1e6, "float32").max() < 1e-4


@pytest.mark.parametrize("head_dim, base, p", [(128, 1e6, 131_071), (128, 1e4, 4095), (64, 1.5e5, 32_767)])
def test_transformers_inv_freq_and_its_angles_are_the_llama_rotary_embeddings(head_dim, base, p):
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    cfg = LlamaConfig(hidden_size=head_dim * 2, num_attention_heads=2, head_dim=head_dim,
                      rope_parameters={"rope_type": "default", "rope_theta": base})
    emb = LlamaRotaryEmbedding(cfg)
    np.testing.assert_array_equal(nu.transformers_inverse_frequencies(head_dim, base), emb.inv_freq.numpy())
    # the angles its forward forms: position_ids.float() * inv_freq, in float32
    phi = (torch.tensor([float(p)])[:, None] * emb.inv_freq.float()[None, :]).double().numpy()[0]
    exact = p * rope.inverse_frequencies(head_dim, base)
    np.testing.assert_array_equal(nu.transformers_float32_angle_errors(p, head_dim, base), np.abs(phi - exact))


def test_transformers_float32_power_moves_the_angle_by_more_than_the_multiply_alone():
    # lesson 5's point: at p = 131,071 its own inv_freq gives a larger worst error than a correctly rounded ω_i,
    # still far below bf16's
    hf = nu.transformers_float32_angle_errors(131_071, 128, 1e6).max()
    assert hf > nu.angle_errors(131_071, 128, 1e6, "float32").max()
    assert hf < 1e-2 < math.pi < nu.angle_errors(131_071, 128, 1e6, "bfloat16").max()


def test_cos_sin_cast_moves_each_entry_by_at_most_half_a_bf16_ulp():
    e = nu.cos_sin_cast_error(131_071, 128, 1e6)
    assert 0 < e <= 2 ** -9


@pytest.mark.parametrize("call, message", [
    (lambda: nu.angles(10, 128, 1e6, "float16"), "precision must be one of bfloat16, float32, got 'float16'"),
    (lambda: nu.bf16_spacing(0), "position must be a positive position, got 0; pass e.g. position=32767"),
    (lambda: nu.to_bfloat16([1.0, float("nan")]), "x must be finite numbers, got [nan]"),
])
def test_bad_input_message(call, message):
    with raises_exactly(message):
        call()


def test_largest_exact_integer_is_where_bf16_starts_skipping():
    ints = torch.arange(0, 300, dtype=torch.float32)
    exact = ints.to(torch.bfloat16).float() == ints
    n = nu.largest_exact_integer()
    assert bool(exact[: n + 1].all()) and not bool(exact[n + 1])
