"""rope.apply_rotary_torch with the inputs real code passes: float64 or numpy frequencies, another device, one pair.

The reference for the angles is transformers' LlamaRotaryEmbedding, which forms position·ω in float32
(``inv_freq.float()``, ``position_ids.float()``) whatever dtype the frequencies were built in; its
apply_rotary_pos_emb is run from the installed source (test_rope's loader).
"""

from __future__ import annotations

import numpy as np
import pytest

import torch  # a hard dependency: a missing torch fails, never skips

from posenc import rope  # noqa: E402
from test_rope import hf_cos_sin, llama_functions  # noqa: E402

# torch loads its meta-device kernels (some 800 modules, ~3 s) at the first meta op. Doing it at import means a
# run that collects once and forks per test (make mutation's forkserver) pays it once, not in every fork.
torch.empty(1, device="meta").cos()

POS = torch.tensor([0, 1, 4095, 70_000, 262_143])  # far positions: float32 and float64 angles part by ~1e-2 rad


@pytest.mark.parametrize("make", [
    lambda inv: inv,  # the numpy float64 array inverse_frequencies returns
    lambda inv: torch.tensor(inv, dtype=torch.float64),
    lambda inv: list(inv),
], ids=["numpy", "torch-float64", "list"])
def test_angles_are_formed_in_float32_like_transformers(make):
    _, apply_rotary_pos_emb = llama_functions()
    inv = rope.inverse_frequencies(64, 1e6)
    q = torch.randn(1, 2, len(POS), 64, generator=torch.Generator().manual_seed(0))
    cos, sin = hf_cos_sin(POS, torch.tensor(inv, dtype=torch.float32))
    q_hf, _ = apply_rotary_pos_emb(q, q, cos, sin)
    got = rope.apply_rotary_torch(q, POS, make(inv))
    np.testing.assert_allclose(got.numpy(), q_hf.numpy(), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("convention", rope.CONVENTIONS)
@pytest.mark.parametrize("inv", [
    rope.inverse_frequencies(8, 1e4),
    torch.tensor(rope.inverse_frequencies(8, 1e4), dtype=torch.float32),
], ids=["numpy", "cpu-tensor"])
def test_frequencies_and_positions_follow_x_to_its_device(inv, convention):
    # the meta device stands for an accelerator: x lives there, positions and ω come from the host
    x = torch.empty(2, 3, 8, device="meta")
    out = rope.apply_rotary_torch(x, torch.arange(3), inv, convention)
    assert (out.device.type, tuple(out.shape), out.dtype) == ("meta", (2, 3, 8), torch.float32)


def test_a_single_pair_tensor_turns_like_the_2x2_block():
    x = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)
    out = rope.apply_rotary_torch(x, torch.tensor([0, 1, 2]), torch.tensor([1.0]))
    # (1, 0) turned by m radians is (cos m, sin m); (0, 2) is (−2 sin m, 2 cos m); cos/sin come from float32 angles
    expected = [[1.0, 0.0], [np.cos(1.0), np.sin(1.0)], [-2 * np.sin(2.0), 2 * np.cos(2.0)]]
    np.testing.assert_allclose(out.numpy(), expected, atol=2e-7)


def test_wavelengths_of_a_trainable_frequency_tensor():
    inv = torch.nn.Parameter(torch.tensor([1.0, 0.25], dtype=torch.float64))  # requires grad, like a learnt ω
    np.testing.assert_allclose(rope.wavelengths(inv), [2 * np.pi, 8 * np.pi], rtol=1e-15)
