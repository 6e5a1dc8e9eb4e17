"""posenc.rope against RoFormer's definition, transformers' code and hand counts; its arguments and torch inputs.

What the tests compare against, part by part:

- posenc.rope against RoFormer's definition, transformers' code and the counts in facts.md §2. References are built
  here independently: the block-diagonal R^d_{Θ,m} from plain loops, the counts from a loop over pairs, and
  transformers' own rotate_half / apply_rotary_pos_emb functions.
- rope honours its arguments: pair indices that index, integer vectors read as numbers, the edges of each count
  check, and errors that name the argument the caller wrote.
- rope.apply_rotary_torch with the inputs real code passes: float64 or numpy frequencies, another device, one pair.
  The reference for the angles is transformers' LlamaRotaryEmbedding, which forms position·ω in float32
  (``inv_freq.float()``, ``position_ids.float()``) whatever dtype the frequencies were built in; its
  apply_rotary_pos_emb is run from the installed source (test_rope's loader).
"""

from __future__ import annotations

import ast
from functools import lru_cache
import importlib.util
import math
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import torch
import torch  # a hard dependency: a missing torch fails, never skips

from expect import raises_exactly
from posenc import configs, hybrid, mla, rope, sinusoidal
from posenc import configs, hybrid, rope
from posenc import configs, rope
from posenc import configs, rope, shift, sinusoidal
from posenc import examples as ex
from posenc import quantities as numbers
from posenc import quantities as q
from posenc import rope
from posenc import rope  # noqa: E402


FAST = settings(max_examples=40, deadline=None)


def roformer_theta(d: int, base: float) -> list[float]:
    """RoFormer §3: Θ = {θ_i = base^(−2(i−1)/d), i = 1 … d/2}, written as in the paper."""
    return [base ** (-2 * (i - 1) / d) for i in range(1, d // 2 + 1)]


def roformer_matrix(d_rot: int, D: int, m: int, thetas) -> np.ndarray:
    """R^d_{Θ,m} for the interleaved layout, padded with identity for pass-through dims."""
    R = np.eye(D)
    for i in range(d_rot // 2):
        a = m * thetas[i]
        R[2 * i, 2 * i], R[2 * i, 2 * i + 1] = math.cos(a), -math.sin(a)
        R[2 * i + 1, 2 * i], R[2 * i + 1, 2 * i + 1] = math.sin(a), math.cos(a)
    return R


def count_not_turning(head_dim: int, theta: float, L: int, fraction: float = 1.0) -> int:
    """Loop over pairs: pair i's period is 2π·θ^(2i/d); count those longer than L."""
    d = int(head_dim * fraction)
    return sum(1 for i in range(d // 2) if 2 * math.pi * theta ** (2 * i / d) > L)


rotary_dims = st.integers(1, 16).map(lambda n: 2 * n)


bases = st.floats(2.0, 1e7)


@st.composite
def rotation_case(draw, max_extra=6):
    d_rot = draw(rotary_dims)
    extra = draw(st.integers(0, max_extra)) // 2 * 2  # pass-through dims
    T = draw(st.integers(1, 5))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    positions = rng.integers(0, 5000, size=T)
    x = rng.standard_normal((2, T, d_rot + extra))
    inv = rope.inverse_frequencies(d_rot, draw(bases))
    return x, positions, inv, d_rot


@given(d=rotary_dims, base=bases)
@FAST
def test_inverse_frequencies_are_roformer_theta(d, base):
    np.testing.assert_allclose(rope.inverse_frequencies(d, base), roformer_theta(d, base), rtol=1e-12)


def test_partial_rotary_uses_the_rotary_dim_in_the_exponent():
    # facts §2(c): head 256 × 0.25 → 64 rotary dims, and the exponent divides by 64 (not 256).
    assert rope.rotary_dim(256, 0.25) == 64
    np.testing.assert_allclose(rope.inverse_frequencies(256, 1e7, 0.25), roformer_theta(64, 1e7), rtol=1e-12)
    assert rope.rotary_dim(128, 0.5) == 64


def test_wavelengths_of_the_lesson3_example():
    # facts §2(a): d=16, base 10000, slowest pair's period ≈ 19,869.18; fastest 2π.
    lam = rope.wavelengths(rope.inverse_frequencies(16, 10_000))
    assert lam[-1] == pytest.approx(19_869.18, abs=0.01)
    assert lam[0] == pytest.approx(2 * math.pi)


@given(rotation_case())
@FAST
def test_interleaved_rotation_is_roformer_block_matrix(case):
    x, positions, inv, d_rot = case
    out = rope.rotate(x, positions, inv, "interleaved")
    for t, m in enumerate(positions):
        R = roformer_matrix(d_rot, x.shape[-1], int(m), inv)
        np.testing.assert_allclose(out[:, t], x[:, t] @ R.T, atol=1e-9)


def test_convention_permutation_small_case():
    # interleaved pairs (0,1),(2,3),(4,5),(6,7) move to half-layout pairs (0,4),(1,5),(2,6),(3,7)
    assert rope.convention_permutation(8).tolist() == [0, 2, 4, 6, 1, 3, 5, 7]


@given(rotation_case())
@FAST
def test_half_and_interleaved_are_the_same_map_up_to_the_permutation(case):
    x, positions, inv, d_rot = case
    perm = np.concatenate([rope.convention_permutation(d_rot), np.arange(d_rot, x.shape[-1])])
    lhs = rope.rotate(x[..., perm], positions, inv, "half")
    rhs = rope.rotate(x, positions, inv, "interleaved")[..., perm]
    np.testing.assert_allclose(lhs, rhs, atol=1e-12)


@given(rotation_case(), st.sampled_from(rope.CONVENTIONS))
@FAST
def test_rotation_preserves_norms_and_pass_through_dims(case, convention):
    x, positions, inv, d_rot = case
    out = rope.rotate(x, positions, inv, convention)
    np.testing.assert_allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12)
    np.testing.assert_array_equal(out[..., d_rot:], x[..., d_rot:])


@given(
    d=rotary_dims,
    base=bases,
    m=st.integers(0, 3000),
    n=st.integers(0, 3000),
    shift=st.integers(0, 3000),
    seed=st.integers(0, 2**31 - 1),
    convention=st.sampled_from(rope.CONVENTIONS),
)
@FAST
def test_score_depends_only_on_offset(d, base, m, n, shift, seed, convention):
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1, d))
    inv = rope.inverse_frequencies(d, base)

    def score(pq, pk):
        return float(rope.rotate(q, [pq], inv, convention)[0] @ rope.rotate(k, [pk], inv, convention)[0])

    assert score(m + shift, n + shift) == pytest.approx(score(m, n), abs=1e-8)
    if convention == "interleaved":  # RoFormer §3: q_mᵀ k_n = qᵀ R_{Θ,n−m} k
        if n >= m:
            expected = q[0] @ roformer_matrix(d, d, n - m, inv) @ k[0]
        else:
            expected = (roformer_matrix(d, d, m - n, inv) @ q[0]) @ k[0]
        assert score(m, n) == pytest.approx(float(expected), abs=1e-8)


@lru_cache(maxsize=None)
def transformers_functions(relpath: str, *names: str):
    """The named top-level functions of an installed transformers source file, exec'd from its text.

    Importing transformers.models.*.modeling_* pulls in torch._dynamo and torch.distributed
    (over 20 s here), so the tests run the functions' exact source text instead; decorators
    (a kernel-hub hook) are dropped, the bodies are transformers' own.
    """
    root = Path(importlib.util.find_spec("transformers").submodule_search_locations[0])
    path = root / relpath
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    assert sorted(d.name for d in defs) == sorted(names), f"{relpath} no longer defines {names}"
    for d in defs:
        d.decorator_list = []
    namespace = {"torch": torch}
    exec(compile(ast.Module(body=defs, type_ignores=[]), str(path), "exec"), namespace)
    return tuple(namespace[n] for n in names)


def assert_close(actual: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> None:
    # numpy's check: torch.testing.assert_close's first call imports torch._dynamo (~10 s)
    np.testing.assert_allclose(actual.detach().double().numpy(), expected.detach().double().numpy(), atol=atol, rtol=rtol)


def llama_functions():
    return transformers_functions("models/llama/modeling_llama.py", "rotate_half", "apply_rotary_pos_emb")


def hf_cos_sin(positions: torch.Tensor, inv_freq: torch.Tensor):
    """cos/sin exactly as LlamaRotaryEmbedding.forward builds them (attention_scaling 1)."""
    freqs = positions[None, :, None].float() * inv_freq.float()
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


@given(d=rotary_dims, base=bases, seed=st.integers(0, 2**31 - 1))
@settings(max_examples=15, deadline=None)
def test_half_convention_matches_transformers_apply_rotary_pos_emb(d, base, seed):
    _, apply_rotary_pos_emb = llama_functions()
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(2, 3, 7, d, generator=g)  # (batch, heads, T, D)
    k = torch.randn(2, 3, 7, d, generator=g)
    pos = torch.randint(0, 4096, (7,), generator=g)
    inv = torch.tensor(rope.inverse_frequencies(d, base), dtype=torch.float32)
    cos, sin = hf_cos_sin(pos, inv)
    q_hf, k_hf = apply_rotary_pos_emb(q, k, cos, sin)
    assert_close(rope.apply_rotary_torch(q, pos, inv), q_hf, atol=1e-5, rtol=1e-5)
    assert_close(rope.apply_rotary_torch(k, pos, inv), k_hf, atol=1e-5, rtol=1e-5)
    # numpy in float64 agrees to float32 accuracy (angles up to 4096 rad lose ~1e-4 in float32)
    np.testing.assert_allclose(rope.rotate(q.double().numpy(), pos.numpy(), inv.double().numpy(), "half"), q_hf.numpy(), atol=1e-3)


def test_rotate_half_is_a_quarter_turn_of_every_pair():
    rotate_half, _ = llama_functions()
    # With ω = π/2 per position and position 1, each half-layout pair turns by 90°: exactly rotate_half.
    x = torch.randn(4, 1, 10, dtype=torch.float64)
    out = rope.apply_rotary_torch(x, torch.tensor([1]), torch.full((5,), math.pi / 2, dtype=torch.float64))
    assert_close(out, rotate_half(x).to(out.dtype), atol=1e-6, rtol=0)


def test_partial_rotary_matches_transformers_qwen3_next():
    _, apply_rotary_pos_emb = transformers_functions(
        "models/qwen3_next/modeling_qwen3_next.py", "rotate_half", "apply_rotary_pos_emb"
    )
    g = torch.Generator().manual_seed(0)
    q = torch.randn(1, 2, 5, 256, generator=g)
    k = torch.randn(1, 2, 5, 256, generator=g)
    pos = torch.tensor([0, 1, 7, 300, 262_143])
    inv = torch.tensor(rope.inverse_frequencies(256, 1e7, 0.25), dtype=torch.float32)  # 32 pairs on 64 dims
    cos, sin = hf_cos_sin(pos, inv)
    q_hf, k_hf = apply_rotary_pos_emb(q, k, cos, sin)
    assert_close(rope.apply_rotary_torch(q, pos, inv), q_hf, atol=1e-5, rtol=1e-5)
    assert_close(rope.apply_rotary_torch(k, pos, inv), k_hf, atol=1e-5, rtol=1e-5)
    assert torch.equal(rope.apply_rotary_torch(q, pos, inv)[..., 64:], q[..., 64:])


def test_interleaved_matches_transformers_deepseek_up_to_the_permutation():
    (interleave,) = transformers_functions("models/deepseek_v3/modeling_deepseek_v3.py", "apply_rotary_pos_emb_interleave")
    # DeepSeek reads interleaved pairs and writes the half layout: out = P · rotate_interleaved(x).
    g = torch.Generator().manual_seed(1)
    q = torch.randn(1, 2, 6, 64, generator=g)
    pos = torch.arange(6) * 500
    inv = torch.tensor(rope.inverse_frequencies(64, 10_000), dtype=torch.float32)
    cos, sin = hf_cos_sin(pos, inv)
    q_ds, _ = interleave(q, q, cos, sin)
    perm = torch.from_numpy(rope.convention_permutation(64))
    assert_close(rope.apply_rotary_torch(q, pos, inv, "interleaved")[..., perm], q_ds, atol=1e-5, rtol=1e-5)


def test_torch_rotation_keeps_gradients_and_dtype():
    x = torch.randn(2, 4, 8, dtype=torch.bfloat16, requires_grad=True)
    out = rope.apply_rotary_torch(x, torch.arange(4), rope.inverse_frequencies(8, 10_000))
    assert out.dtype == torch.bfloat16 and out.shape == x.shape
    out.float().pow(2).sum().backward()
    assert x.grad is not None and torch.isfinite(x.grad.float()).all()
    # A rotation keeps lengths, so ‖R x‖² = ‖x‖² and its gradient is exactly 2x (through R's transpose);
    # and the gradient of a linear loss w·(R x) is Rᵀ w, the rotation backwards.
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 5, 10, dtype=torch.float64, generator=g).requires_grad_()
    inv = rope.inverse_frequencies(6, 10_000)  # partial: 6 of 10 dims turn
    pos = torch.tensor([0, 3, 7, 12, 20])
    rope.apply_rotary_torch(x, pos, inv).pow(2).sum().backward()
    # any angle gives a rotation; cos and sin are rounded to float32, so cos² + sin² = 1 within 4·2⁻²⁴
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy(), rtol=4 * 2.0**-24, atol=0)
    w = torch.randn(2, 5, 10, dtype=torch.float64, generator=g)
    x.grad = None
    (rope.apply_rotary_torch(x, pos, inv, "interleaved") * w).sum().backward()
    back = np.zeros_like(w.numpy())
    for t, m in enumerate(pos.tolist()):
        back[:, t] = w.numpy()[:, t] @ roformer_matrix(6, 10, m, inv)  # (Rᵀ w)ᵀ = wᵀ R
    # the torch code forms angles m·ω in float32: off by ≤ 2·2⁻²⁴·m ≤ 2.4e-6 rad for m ≤ 20, times |w| < 5
    np.testing.assert_allclose(x.grad.numpy(), back, atol=5 * 2.4e-6)


@pytest.mark.parametrize(
    "head_dim, theta, L, fraction, facts_count",
    [
        (128, 1e6, 32_768, 1.0, 24),  # (b) Qwen3
        (128, 1e6, 40_960, 1.0, 23),  # (b) with config max_pos
        (128, 1e6, 131_072, 1.0, 17),  # (b) at the YaRN length
        (256, 1e7, 262_144, 0.25, 10),  # (c) Qwen3-Next
        (256, 5e6, 262_144, 0.25, 9),  # (c) if θ were 5e6
        (128, 1e4, 4096, 1.0, 18),  # Llama 2
        (128, 5e5, 8192, 1.0, 29),  # Llama 3
        (128, 5e5, 131_072, 1.0, 15),  # Llama 3.1 at 128K
        (128, 1e4, 32_768, 1.0, 4),  # Mistral v0.1
        (64, 1e4, 4096, 1.0, 9),  # DeepSeek-V3 rope part
        (64, 1.5e5, 4096, 1.0, 14),  # gpt-oss
    ],
)
def test_pairs_not_completing_turn(head_dim, theta, L, fraction, facts_count):
    got = rope.pairs_not_completing_turn(rope.inverse_frequencies(head_dim, theta, fraction), L)
    assert got == count_not_turning(head_dim, theta, L, fraction) == facts_count
    # facts §2: "L or L−1 gives the same counts here"
    assert rope.pairs_not_completing_turn(rope.inverse_frequencies(head_dim, theta, fraction), L - 1) == facts_count


def test_counts_for_every_rope_model_match_a_loop():
    for key in configs.keys():
        cfg = configs.load(key)
        if cfg.position != "rope":
            continue
        frac = cfg.get("rotary_fraction", 1.0)
        inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], frac)
        assert rope.pairs_not_completing_turn(inv, cfg["context"]) == count_not_turning(
            cfg["head_dim"], cfg["rope_theta"], cfg["context"], frac
        ), key


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: rope.inverse_frequencies(100, 1e4, 0.25), "rotary_fraction"),  # 25 rotary dims: odd
        (lambda: rope.inverse_frequencies(7, 1e4), "even"),
        (lambda: rope.inverse_frequencies(128, 1.0), "base"),
        (lambda: rope.inverse_frequencies(128, 0.5), "base"),
        (lambda: rope.inverse_frequencies(128, 1e4, 0.0), "rotary_fraction"),
        (lambda: rope.inverse_frequencies(128, 1e4, 1.5), "rotary_fraction"),
        (lambda: rope.inverse_frequencies(128.0, 1e4), "head_dim"),
        (lambda: rope.rotate(np.zeros((3, 8)), [0, -1, 2], rope.inverse_frequencies(8, 1e4)), "non-negative"),
        (lambda: rope.rotate(np.zeros((3, 8)), [0, 1], rope.inverse_frequencies(8, 1e4)), "one position per token"),
        (lambda: rope.rotate(np.zeros((3, 8)), [0, 1, 2], rope.inverse_frequencies(16, 1e4)), "head_dim"),
        (lambda: rope.rotate(np.zeros(8), [0], rope.inverse_frequencies(8, 1e4)), r"\(\.\.\., T, D\)"),
        (lambda: rope.rotate(np.zeros((1, 8)), [0.5], rope.inverse_frequencies(8, 1e4)), "integer"),
        (lambda: rope.rotate(np.zeros((1, 8)), [0], rope.inverse_frequencies(8, 1e4), "sideways"), "convention"),
        (lambda: rope.rotate(np.zeros((1, 8)), [0], [1.0, -0.5]), "positive"),
        (lambda: rope.pairs_not_completing_turn([1.0], 0), "context"),
        (lambda: rope.convention_permutation(5), "even"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: (torch.zeros(3, 8), torch.tensor([0, -1, 2])), "non-negative"),
        (lambda: (torch.zeros(3, 8), torch.tensor([0.0, 1.0, 2.0])), "integer"),
        (lambda: (torch.zeros(3, 8), torch.tensor([0, 1])), "one position per token"),
        (lambda: (np.zeros((3, 8)), torch.arange(3)), "torch.Tensor"),
    ],
)
def test_torch_bad_input(make, match):
    x, pos = make()
    with pytest.raises(ValueError, match=match):
        rope.apply_rotary_torch(x, pos, rope.inverse_frequencies(8, 1e4))
    with pytest.raises(ValueError, match="inv_freq"):
        rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(3), torch.tensor([1.0, 0.0]))


@pytest.mark.parametrize(
    "name, text",
    [
        ("rope_pairs_not_turning_qwen3_8b", "24"),  # facts §2(b)
        ("rope_pairs_total_qwen3_8b", "64"),
        ("rope_pairs_not_turning_qwen3_next_80b_a3b", "10"),  # facts §2(c)
        ("rope_pairs_total_qwen3_next_80b_a3b", "32"),
        ("qwen3_first_not_turning_pair", "40"),  # "i = 40..63"
        ("qwen3_wavelength_last_turning", "28,473"),  # λ_39
        ("qwen3_wavelength_first_not_turning", "35,333"),  # λ_40
        ("qwen3_pairs_not_turning_at_config_max", "23"),
        ("qwen3_pairs_not_turning_at_yarn_context", "17"),
        ("qwen3next_pairs_not_turning_theta5e6", "9"),
        ("rope_pairs_not_turning_llama2_7b", "18"),
        ("rope_pairs_not_turning_llama3_8b", "29"),
        ("l4_mistral_window_pairs_not_turning", "18"),  # within its 4,096-token window: Llama 2 7B's count
        ("rope_pairs_not_turning_deepseek_v3", "9"),
        ("rope_pairs_not_turning_gpt_oss", "14"),
        ("sin_slowest_period", "19,869"),  # facts §2(a)
    ],
)
def test_lesson_numbers_match_facts(name, text):
    from posenc import quantities as numbers

    assert numbers.text(name) == text


def test_gemma3_local_window_count_matches_a_loop():
    from posenc import quantities as numbers

    assert numbers.value("gemma3_local_pairs_not_turning_in_window") == count_not_turning(128, 10_000, 1024)


INV8 = rope.inverse_frequencies(8, 1e4)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rope.rotary_dim(100, 0.25),
         "head_dim=100 × rotary_fraction=0.25 gives 25 rotary dims; RoPE needs a positive even number (dims turn in pairs): "
         "change rotary_fraction or head_dim so int(head_dim·rotary_fraction) is even"),
        (lambda: rope.rotary_dim(4, 0.25),
         "head_dim=4 × rotary_fraction=0.25 gives 1 rotary dims; RoPE needs a positive even number (dims turn in pairs): "
         "change rotary_fraction or head_dim so int(head_dim·rotary_fraction) is even"),
        (lambda: rope.rotary_dim(7), "head_dim=7 × rotary_fraction=1.0 gives 7 rotary dims; RoPE needs a positive even number (dims turn in pairs): "
                                     "change rotary_fraction or head_dim so int(head_dim·rotary_fraction) is even"),
        (lambda: rope.rotary_dim(0), "head_dim must be a positive integer number of dimensions, got 0; pass e.g. head_dim=128"),
        (lambda: rope.rotary_dim(128.0), "head_dim must be a positive integer number of dimensions, got 128.0; pass e.g. head_dim=128"),
        (lambda: rope.rotary_dim(True), "head_dim must be a positive integer number of dimensions, got True; pass e.g. head_dim=128"),
        (lambda: rope.rotary_dim(128, 0.0),
         "rotary_fraction must be a number in (0, 1] (the share of head dims RoPE turns), got 0.0; pass 1.0 for a full rotary head"),
        (lambda: rope.rotary_dim(128, 1.5),
         "rotary_fraction must be a number in (0, 1] (the share of head dims RoPE turns), got 1.5; pass 1.0 for a full rotary head"),
        (lambda: rope.rotary_dim(128, True),
         "rotary_fraction must be a number in (0, 1] (the share of head dims RoPE turns), got True; pass 1.0 for a full rotary head"),
        (lambda: rope.rotary_dim(128, float("nan")),
         "rotary_fraction must be a number in (0, 1] (the share of head dims RoPE turns), got nan; pass 1.0 for a full rotary head"),
        (lambda: rope.inverse_frequencies(128, 1.0),
         "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1.0; the paper uses base=10000"),
        (lambda: rope.wavelengths("abc"), "inv_freq must be a 1-D array of numbers, got 'abc'; build it with inverse_frequencies()"),
        (lambda: rope.wavelengths([[1.0]]),
         "inv_freq must be a non-empty 1-D array of angular frequencies (one per pair), got shape (1, 1); build it with inverse_frequencies()"),
        (lambda: rope.wavelengths([]),
         "inv_freq must be a non-empty 1-D array of angular frequencies (one per pair), got shape (0,); build it with inverse_frequencies()"),
        (lambda: rope.wavelengths([1.0, 0.0, -1.0, -2.0, np.nan]),
         "inv_freq must hold positive finite frequencies, got values such as [ 0. -1. -2.]; build it with inverse_frequencies()"),
        (lambda: rope.wavelengths([np.inf]),
         "inv_freq must hold positive finite frequencies, got values such as [inf]; build it with inverse_frequencies()"),
        (lambda: rope.pairs_not_completing_turn([1.0], 0), "context must be a positive integer number of tokens, got 0; pass e.g. context=32768"),
        (lambda: rope.pairs_not_completing_turn([1.0], 4096.0),
         "context must be a positive integer number of tokens, got 4096.0; pass e.g. context=32768"),
        (lambda: rope.pairs_not_completing_turn([1.0], True), "context must be a positive integer number of tokens, got True; pass e.g. context=32768"),
        (lambda: rope.convention_permutation(5),
         "dim must be a positive even integer (dimensions come in sin/cos pairs), got 5; use 6 or another even number"),
        (lambda: rope.rotate(np.zeros(8), [0], INV8),
         "x must have shape (..., T, D) with T positions and D dims, got shape (8,); add a length-1 axis for a single token"),
        (lambda: rope.rotate(np.zeros((3, 8)), [0, 1], INV8),
         "positions has 2 entries but x has T=3 tokens on axis −2; pass one position per token"),
        (lambda: rope.rotate(np.zeros((3, 6)), [0, 1, 2], INV8),
         "inv_freq has 4 pairs = 8 rotary dims but x has only D=6 dims; build inv_freq for head_dim=6"),
        (lambda: rope.rotate(np.zeros((1, 8)), [0], INV8, "sideways"),
         "convention must be one of ('interleaved', 'half'), got 'sideways'; 'half' is transformers' rotate_half layout, 'interleaved' RoFormer's"),
        (lambda: rope.rotate(np.zeros((1, 8)), [-1], INV8), "positions must be non-negative (positions count from 0), got -1"),
        (lambda: rope.apply_rotary_torch(np.zeros((3, 8)), torch.arange(3), INV8),
         "x must be a torch.Tensor of shape (..., T, D), got ndarray; use rotate() for numpy arrays"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), [0, 1, 2], INV8),
         "positions must be a torch integer tensor (T,), got list; pass torch.arange(T)"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.tensor([0.0, 1.0, 2.0]), INV8),
         "positions must be a 1-D integer tensor, got dtype torch.float32 and shape (3,); pass torch.arange(T)"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.tensor([True, False, True]), INV8),
         "positions must be a 1-D integer tensor, got dtype torch.bool and shape (3,); pass torch.arange(T)"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.zeros(1, 3, dtype=torch.long), INV8),
         "positions must be a 1-D integer tensor, got dtype torch.int64 and shape (1, 3); pass torch.arange(T)"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.tensor([0, -4, -2]), INV8),
         "positions must be non-negative (positions count from 0), got -4"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(3), torch.ones(2, 2)),
         "inv_freq must be a non-empty 1-D tensor of angular frequencies (one per pair), got shape (2, 2); build it with inverse_frequencies()"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(3), torch.ones(0)),
         "inv_freq must be a non-empty 1-D tensor of angular frequencies (one per pair), got shape (0,); build it with inverse_frequencies()"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(3), torch.tensor([1.0, float("inf")])),
         "inv_freq must hold positive finite frequencies; build it with inverse_frequencies()"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(3), [1.0, -1.0]),
         "inv_freq must hold positive finite frequencies, got values such as [-1.]; build it with inverse_frequencies()"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(3), INV8, "sideways"),
         "convention must be one of ('interleaved', 'half'), got 'sideways'; 'half' is transformers' rotate_half layout, 'interleaved' RoFormer's"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 6), torch.arange(3), INV8),
         "inv_freq has 4 pairs = 8 rotary dims but x has only D=6 dims; build inv_freq for head_dim=6"),
        (lambda: rope.apply_rotary_torch(torch.zeros(3, 8), torch.arange(2), INV8),
         "positions has 2 entries but x has T=3 tokens on axis −2; pass one position per token"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_rotary_dims_at_their_edges():
    assert rope.rotary_dim(8, 0.25) == 2 and rope.rotary_dim(2) == 2 and type(rope.rotary_dim(np.int64(4))) is int
    assert rope.rotary_dim(128, 0.5 + 1e-12) == 64  # truncation, as transformers' int()
    with pytest.raises(ValueError, match="gives 63 rotary dims"):
        rope.rotary_dim(128, 0.5 - 1e-12)
    np.testing.assert_allclose(rope.inverse_frequencies(8, 16.0, 0.5), [1.0, 0.25], rtol=1e-15)


def test_pairs_not_completing_turn_counts_strictly_longer_wavelengths():
    # a pair whose wavelength is exactly L does complete a turn within L tokens
    lam = np.array([10.0, 64.0, 128.0, 256.0])
    inv = 2 * np.pi / lam
    assert np.array_equal(2 * np.pi / inv, lam)  # these wavelengths survive the round trip exactly
    assert rope.pairs_not_completing_turn(inv, 64) == 2
    assert rope.pairs_not_completing_turn(inv, 63) == 3
    assert rope.pairs_not_completing_turn(inv, np.int64(256)) == 0
    np.testing.assert_array_equal(rope.wavelengths(torch.tensor(inv)), lam)  # a torch tensor is accepted


def test_rotate_by_hand_for_both_layouts():
    x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]])  # 2 pairs turn, the 5th dim passes through
    inv = np.array([math.pi / 2, math.pi])
    # interleaved: pairs (0,1) and (2,3); at position 1: (1,2) turns 90° → (−2, 1); (3,4) turns 180° → (−3, −4)
    np.testing.assert_allclose(rope.rotate(x, [1], inv), [[-2.0, 1.0, -3.0, -4.0, 5.0]], atol=1e-15)
    # half: pairs (0,2) and (1,3): (1,3) → (−3, 1); (2,4) → (−2, −4)
    np.testing.assert_allclose(rope.rotate(x, [1], inv, "half"), [[-3.0, -2.0, 1.0, -4.0, 5.0]], atol=1e-15)
    xt = torch.tensor(x)
    np.testing.assert_allclose(rope.apply_rotary_torch(xt, torch.tensor([1]), inv, "interleaved").numpy(), [[-2.0, 1.0, -3.0, -4.0, 5.0]], atol=1e-6)
    np.testing.assert_allclose(rope.apply_rotary_torch(xt, torch.tensor([1]), inv).numpy(), [[-3.0, -2.0, 1.0, -4.0, 5.0]], atol=1e-6)
    assert rope.rotate(x.astype(np.float32), [0], inv).dtype == np.float64
    assert rope.rotate(x, np.array([0], dtype=np.uint8), inv).tolist() == x.tolist()


def test_torch_rotation_keeps_dtype_and_device_of_x():
    x = torch.randn(1, 3, 8, generator=torch.Generator().manual_seed(2)).to(torch.bfloat16)
    inv_t = torch.tensor(INV8, dtype=torch.float64)  # any float dtype: angles are formed in float32
    out = rope.apply_rotary_torch(x, torch.arange(3), inv_t)
    assert out.dtype == torch.bfloat16 and out.shape == x.shape
    want = rope.rotate(x.double().numpy(), np.arange(3), INV8, "half")
    np.testing.assert_allclose(out.double().numpy(), want, atol=0.05)  # bfloat16 keeps 8 bits
    np.testing.assert_array_equal(rope.apply_rotary_torch(x, torch.arange(3), inv_t, "interleaved").double().numpy(),
                                  rope.apply_rotary_torch(x, torch.arange(3), INV8, "interleaved").double().numpy())
    empty = rope.apply_rotary_torch(torch.zeros(0, 8), torch.zeros(0, dtype=torch.long), INV8)
    assert empty.shape == (0, 8)


def test_torch_path_forms_angles_in_float32_whatever_inv_freqs_dtype():
    # transformers forms position·ω in float32; so does apply_rotary_torch, for a float64 tensor, a numpy array or a list
    x = torch.randn(1, 4, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(5))
    pos = torch.tensor([0, 1, 999, 4095])
    inv32 = torch.tensor(INV8, dtype=torch.float32)
    angles = pos.float()[:, None] * inv32[None, :]  # float32, as transformers' LlamaRotaryEmbedding
    cos, sin = angles.cos().double(), angles.sin().double()
    a, b = x[..., 0::2], x[..., 1::2]
    want = torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)
    for inv in (torch.tensor(INV8, dtype=torch.float64), INV8, list(INV8), inv32):
        np.testing.assert_array_equal(rope.apply_rotary_torch(x, pos, inv, "interleaved").numpy(), want.numpy())


def test_torch_inputs_are_accepted_where_numpy_is_expected():
    inv = torch.tensor(INV8, requires_grad=True)  # e.g. a module's buffer or parameter
    np.testing.assert_array_equal(rope.wavelengths(inv), 2 * np.pi / INV8)
    assert rope.pairs_not_completing_turn(inv, 100) == int(np.sum(2 * np.pi / INV8 > 100))
    np.testing.assert_array_equal(rope.rotate(np.eye(8), np.arange(8), inv), rope.rotate(np.eye(8), np.arange(8), INV8))


# --- arguments -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 8, 64])
def test_pair_of_dim_indexes_each_dims_frequency(d):
    # each dim turns at its pair's frequency: transformers' rotate_half layout repeats the frequencies as two
    # halves (emb = torch.cat((freqs, freqs), dim=-1)); RoFormer's interleaved layout repeats each one twice
    inv = rope.inverse_frequencies(d, 10_000.0)
    np.testing.assert_array_equal(inv[rope.pair_of_dim(d, "half")], np.concatenate([inv, inv]))
    np.testing.assert_array_equal(inv[rope.pair_of_dim(d, "interleaved")], np.repeat(inv, 2))


def test_pair_energies_of_an_integer_vector_do_not_wrap_around():
    # |q_i|² = (2³²)² = 2⁶⁴ is exact in float64 but wraps to 0 in int64: integer input is read as numbers
    assert rope.pair_energies(np.array([2**32, 0, 3, 4]), 2).tolist() == [2.0**64, 25.0]
    # the pass-through dims (partial RoPE) add their |q_pass|² at every distance, also without wrapping
    got = rope.self_scores_closed_form(np.array([0, 0, 2**32]), [0, 5], [1.0])
    np.testing.assert_array_equal(got, [2.0**64, 2.0**64])


def test_rotate_turns_an_integer_vector_as_numbers():
    # (1, 0) turned by m·ω = m radians is (cos m, sin m); an integer input must not truncate the result to integers
    out = rope.rotate(np.array([[1, 0], [1, 0], [0, 2]]), [0, 1, 2], [1.0])
    np.testing.assert_allclose(out, [[1.0, 0.0], [np.cos(1.0), np.sin(1.0)], [-2 * np.sin(2.0), 2 * np.cos(2.0)]], atol=1e-15)


def test_edges_of_the_count_checks():
    # a context of one token is a context: pair 0 (λ = 2π) does not finish a turn within it
    assert rope.pairs_not_completing_turn([1.0], 1) == 1
    # head_dim = 1 is a positive integer; what is wrong is the odd number of rotary dims it gives
    with pytest.raises(ValueError, match=r"^head_dim=1 × rotary_fraction=1.0 gives 1 rotary dims"):
        rope.rotary_dim(1)


INV4 = rope.inverse_frequencies(4, 10_000.0)


BAD = [
    (lambda: rope.pair_of_dim(7, "half"), "dim"),
    (lambda: rope.pair_of_dim(0, "interleaved"), "dim"),
    (lambda: rope.spectrum(INV4, 0), "context"),
    (lambda: rope.rotary_dim(128, "half"), "rotary_fraction"),
    (lambda: rope.wavelengths([1.0, 0.0]), "inv_freq"),  # a pair that never turns has no wavelength
    (lambda: rope.rotate(np.zeros((1, 4)), [0], [1.0, -0.5]), "inv_freq"),
    (lambda: rope.pair_energies(np.ones((2, 4)), 1), "q"),
    (lambda: rope.pair_energies(np.ones(4), True), "n_pairs"),  # a bool is not a count of pairs
    (lambda: rope.pair_energies(np.ones(4), 1.0), "n_pairs"),
    (lambda: rope.pair_energies(np.ones(4), 0), "n_pairs"),  # zero pairs: nothing to measure
    (lambda: rope.pair_energies(np.ones(1), 1), "n_pairs"),  # a one-dim q is a vector; it is too short for a pair
    (lambda: rope.self_scores([1.0, np.nan, 0.0, 0.0], [1], INV4), "q"),
    (lambda: rope.self_scores(np.ones(4), [-1], INV4), "distances"),
    (lambda: rope.self_scores_closed_form(np.ones((2, 4)), [1], INV4), "q"),
    (lambda: rope.self_scores_closed_form(np.ones(4), [-1], INV4), "distances"),
    (lambda: rope.self_scores_closed_form(np.ones(4), [1], [1.0, -1.0]), "inv_freq"),
]


@pytest.mark.parametrize("call, name", BAD, ids=[f"{i}-{name}" for i, (_, name) in enumerate(BAD)])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()


# --- apply_rotary_torch's inputs -----------------------------------------------------------------------------------


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


# --- spectra and conventions ---------------------------------------------------------------------------------------


def wavelengths_loop(d: int, base: float) -> list[float]:
    return [2 * math.pi * base ** (2 * i / d) for i in range(d // 2)]


def test_qwen3_spectrum_matches_facts_section_2():
    """facts.md §2(b): 24 of 64 pairs; λ_39 = 28,473 < 32,768 < λ_40 = 35,333."""
    sp = rope.model_spectrum(configs.load("qwen3_8b"))
    lam = wavelengths_loop(128, 1e6)
    assert (sp.pairs, sp.count_not_turning, sp.first_not_turning) == (64, 24, 40)
    assert sp.last_turning_wavelength == pytest.approx(lam[39]) and round(lam[39]) == 28_473
    assert sp.first_not_turning_wavelength == pytest.approx(lam[40]) and round(lam[40]) == 35_333
    assert sp.slowest_turns == pytest.approx(32_768 / lam[-1])
    np.testing.assert_array_equal(sp.not_turning, np.array(lam) > 32_768)


def test_model_spectrum_overrides_and_partial_rope():
    """facts.md §2(c): Qwen3-Next rotates 64 of 256 dims; 10 of 32 pairs (i = 22 … 31), 9 if θ were 5,000,000."""
    cfg = configs.load("qwen3_next_80b_a3b")
    sp = rope.model_spectrum(cfg)
    assert (sp.pairs, sp.count_not_turning, sp.first_not_turning) == (32, 10, 22)
    assert rope.model_spectrum(cfg, base=5_000_000).count_not_turning == 9
    assert rope.model_spectrum(configs.load("qwen3_8b"), context=131_072).count_not_turning == 17


@pytest.mark.parametrize("key", ["llama2_7b", "llama3_8b", "qwen3_8b", "deepseek_v3", "gpt_oss", "qwen3_next_80b_a3b", "glm45"])
def test_spectrum_count_is_pairs_not_completing_turn(key):
    cfg = configs.load(key)
    inv = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    assert rope.model_spectrum(cfg).count_not_turning == rope.pairs_not_completing_turn(inv, cfg["context"])


def test_spectrum_without_a_turning_or_not_turning_pair_says_so():
    with pytest.raises(ValueError, match="every pair completes"):
        rope.spectrum([1.0, 0.5], 1000).first_not_turning
    with pytest.raises(ValueError, match="no pair completes"):
        rope.spectrum([1e-6], 1000).last_turning_wavelength


@pytest.mark.parametrize("convention", rope.CONVENTIONS)
@pytest.mark.parametrize("d", [2, 8, 16])
def test_convention_pairs_are_the_dims_the_rotation_mixes(convention, d):
    """Rotate each unit vector e_j: the dims that come out non-zero are j and its partner."""
    inv = rope.inverse_frequencies(d, 10_000.0)
    mixed = []
    for j in range(d):
        x = np.zeros((1, d))
        x[0, j] = 1.0
        out = rope.rotate(x, [1], inv, convention)[0]
        mixed.append(tuple(int(i) for i in np.nonzero(np.abs(out) > 1e-12)[0]))
    pairs = rope.convention_pairs(d, convention)
    assert sorted(set(mixed)) == sorted(pairs)
    assert pairs == sorted(pairs), "pair 0 first"
    owner = rope.pair_of_dim(d, convention)
    for i, (a, b) in enumerate(pairs):
        assert owner[a] == owner[b] == i


# --- pass-through dims ---------------------------------------------------------------------------------------------


@given(shift=st.integers(0, 100_000), seed=st.integers(0, 2**16))
@FAST
def test_pass_through_dims_add_a_position_free_term(shift, seed):
    """Partial RoPE: score = rotated part (depends on n − m) + pass-through part (no position at all)."""
    head, frac = 16, 0.25
    mask = hybrid.rotary_mask(head, frac)
    inv = rope.inverse_frequencies(head, 10_000, frac)
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 5, head))
    pos = np.arange(5) + shift
    qr, kr = rope.rotate(q, pos, inv, "half"), rope.rotate(k, pos, inv, "half")
    pass_part = q[:, ~mask] @ k[:, ~mask].T
    np.testing.assert_array_equal(qr[:, ~mask], q[:, ~mask])
    np.testing.assert_allclose(qr @ kr.T - qr[:, mask] @ kr[:, mask].T, pass_part, atol=1e-12)
    q0, k0 = rope.rotate(q, np.arange(5), inv, "half"), rope.rotate(k, np.arange(5), inv, "half")
    np.testing.assert_allclose(qr @ kr.T, q0 @ k0.T, atol=1e-9)


# --- a query scored against itself ---------------------------------------------------------------------------------


def _blocks(angles: np.ndarray, dim: int, convention: str) -> np.ndarray:
    """The full rotation matrix, built pair by pair from 2×2 blocks (independent of posenc.rope.rotate)."""
    r = np.eye(dim)
    half = len(angles)
    for i, a in enumerate(angles):
        x, y = (2 * i, 2 * i + 1) if convention == "interleaved" else (i, i + half)
        r[[x, x, y, y], [x, y, x, y]] = [math.cos(a), -math.sin(a), math.sin(a), math.cos(a)]
    return r


@FAST
@given(pairs=st.integers(1, 8), extra=st.integers(0, 3), seed=st.integers(0, 2**16),
       convention=st.sampled_from(["interleaved", "half"]), k=st.integers(0, 5000))
@example(pairs=4, extra=0, seed=0, convention="half", k=0)
def test_self_scores_equal_rotation_matrices_and_the_closed_form(pairs, extra, seed, convention, k):
    dim = 2 * pairs + 2 * extra  # extra dims: partial RoPE's pass-through part
    qv = np.random.default_rng(seed).standard_normal(dim)
    inv = rope.inverse_frequencies(2 * pairs, 10_000)
    m = 7
    ref = (_blocks(m * inv, dim, convention) @ qv) @ (_blocks((m + k) * inv, dim, convention) @ qv)
    got = rope.self_scores(qv, [k], inv, convention)[0]
    closed = rope.self_scores_closed_form(qv, [k], inv, convention)[0]
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-9)
    assert closed == pytest.approx(ref, rel=1e-9, abs=1e-9)


def test_unit_pairs_give_lesson_threes_curve():
    d, ks = ex.SIN_DIM, np.arange(ex.MAX_DISTANCE + 1)
    unit = np.zeros(d)
    unit[1::2] = 1.0  # every pair (0, 1): length 1, not (1, 0), and the curve is the same
    curve = rope.self_scores(unit, ks, rope.inverse_frequencies(d, ex.DEFAULT_BASE))
    np.testing.assert_allclose(curve, [sinusoidal.dot_closed_form(int(k), d) for k in ks], atol=1e-9)


def test_pair_energies_follow_the_layout():
    v = np.arange(1.0, 9.0)  # 1 … 8
    np.testing.assert_array_equal(rope.pair_energies(v, 4, "interleaved"), [1 + 4, 9 + 16, 25 + 36, 49 + 64])
    np.testing.assert_array_equal(rope.pair_energies(v, 4, "half"), [1 + 25, 4 + 36, 9 + 49, 16 + 64])
    np.testing.assert_array_equal(rope.pair_energies(v, 2, "half"), [1 + 9, 4 + 16])  # partial: rotary dims only


@pytest.mark.parametrize("call, match", [
    (lambda: rope.pair_energies(np.ones(4), 3), "n_pairs"),
    (lambda: rope.pair_energies(np.ones(4), 1, "sideways"), "convention"),
    (lambda: rope.self_scores(np.ones((2, 4)), [0], rope.inverse_frequencies(4, 10_000)), "q must be one"),
    (lambda: rope.self_scores(np.ones(4), [-1], rope.inverse_frequencies(4, 10_000)), "distances"),
    (lambda: rope.self_scores_closed_form(np.ones(2), [1], rope.inverse_frequencies(4, 10_000)), "inv_freq"),
    (lambda: hybrid.pattern_period(configs.load("gpt2")), "RoPE or NoPE model"),
    (lambda: hybrid.head_dims(configs.load("gpt2")), "RoPE model"),
    (lambda: mla.absorption_demo(8, 6, 5, 7, 3, 10_000, 0), "rope_head_dim"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
