"""posenc.mla's contract for bad input (a ValueError that names the argument as the caller wrote it, and
the fix), its boundaries (an empty cache is 0 bytes) and its documented defaults (bf16, the small head)."""

from __future__ import annotations

import numpy as np
import pytest

from posenc import configs, mla, rope

INST = mla.random_instance(head_dim=4, q_rank=3, kv_rank=2, length=3, seed=1)
INV4 = rope.inverse_frequencies(4, 10_000)
NOT_AN_INSTANCE = r"^inst must be a posenc\.mla\.Instance \(build one with random_instance\(\)\), got str$"


@pytest.mark.parametrize("call, match", [
    # cache sizes: each count is named as the signature spells it
    (lambda: mla.mha_cache_elements(0, 128, 61), r"^heads must be a positive integer, got 0$"),
    (lambda: mla.mha_cache_elements(128, 0, 61), r"^head_dim must be"),
    (lambda: mla.mha_cache_elements(128, 128, 0), r"^layers must be"),
    (lambda: mla.mha_cache_elements(128, 128, 61, value_head_dim=0), r"^value_head_dim must be"),
    (lambda: mla.mla_cache_elements(0, 64, 61), r"^kv_lora_rank must be"),
    (lambda: mla.mla_cache_elements(512, 0, 61), r"^rope_head_dim must be"),
    (lambda: mla.mla_cache_elements(512, 64, 0), r"^layers must be"),
    (lambda: mla.equivalent_gqa_groups(0, 64, 128), r"^kv_lora_rank must be"),
    (lambda: mla.equivalent_gqa_groups(512, 0, 128), r"^rope_head_dim must be"),
    (lambda: mla.equivalent_gqa_groups(512, 64, 0), r"^head_dim must be"),
    # bytes: the storage types are listed for the fix; counts must be whole and non-negative
    (lambda: mla.cache_bytes(10, "int4"), r"^dtype must be one of fp32, bf16, fp16, fp8, got 'int4'$"),
    (lambda: mla.cache_bytes(-1), r"^elements must be a non-negative integer count, got -1$"),
    (lambda: mla.cache_bytes(2.5), r"^elements must be .* got 2\.5$"),
    (lambda: mla.cache_bytes(True), r"^elements must be .* got True$"),
    # for_model: what it got, and which MLA fields a model lacks
    (lambda: mla.for_model("deepseek_v3"), r"got str; e\.g\. configs\.load\('deepseek_v3'\)$"),
    (lambda: mla.for_model(configs.load("qwen3_8b")),
     r"^model 'qwen3_8b' lacks kv_lora_rank, nope_head_dim, v_head_dim for an MLA cache"),
    # the small random head
    (lambda: mla.random_instance(head_dim=7), r"^head_dim must be a positive even integer"),
    (lambda: mla.random_instance(q_rank=0), r"^q_rank must be"),
    (lambda: mla.random_instance(kv_rank=0), r"^kv_rank must be"),
    (lambda: mla.random_instance(length=0), r"^length must be"),
    (lambda: mla.scores_explicit("x"), NOT_AN_INSTANCE),
    (lambda: mla.absorbed_matrix("x"), NOT_AN_INSTANCE),
    (lambda: mla.absorbed_matrix_with_rope("x", 0, 1, INV4), NOT_AN_INSTANCE),
    (lambda: mla.decoupled_scores("x", np.zeros((3, 2)), np.zeros((3, 2)), [1.0], True), NOT_AN_INSTANCE),
    (lambda: mla.absorbed_matrix_with_rope(INST, -1, 0, INV4), r"^m must be a non-negative integer position"),
    (lambda: mla.absorbed_matrix_with_rope(INST, 0, -1, INV4), r"^n must be a non-negative integer position"),
    # decoupled q_R, k_R: one row per token each, the same width, two-dimensional
    (lambda: mla.decoupled_scores(INST, np.zeros((3, 2)), np.zeros((2, 2)), [1.0], True),
     r"^q_rope and k_rope must be \(T, d_R\) with one row per token, got \(3, 2\) and \(2, 2\) for T = 3$"),
    (lambda: mla.decoupled_scores(INST, np.zeros((3, 4)), np.zeros((3, 2)), [1.0], True), r"^q_rope and k_rope must be"),
    (lambda: mla.decoupled_scores(INST, np.zeros(3), np.zeros(3), [1.0], True), r"^q_rope and k_rope must be"),
    (lambda: mla.absorption_demo(8, 6, 5, 7, 3, 10_000.0, 0), r"^rope_head_dim must be a positive even integer"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_an_empty_cache_takes_no_bytes():
    assert mla.cache_bytes(0) == 0
    assert mla.cache_bytes(np.int64(3), "fp32") == 12


def test_bytes_default_to_bf16_two_bytes_each():
    # bfloat16 is a 16-bit format: 2 bytes per cached number
    cmp = mla.CacheComparison(mla=3, mha=5, mha_full_keys=7)
    assert cmp.bytes() == {"mla": 6, "mha": 10, "mha_full_keys": 14}
    assert mla.cache_bytes(3) == 6
    assert cmp.bytes("fp32") == {"mla": 12, "mha": 20, "mha_full_keys": 28}


def test_random_instance_defaults_are_the_documented_small_head():
    inst = mla.random_instance()
    assert (inst.w_uq.shape, inst.w_uk.shape, inst.c_q.shape, inst.c_kv.shape) == ((8, 6), (8, 5), (7, 6), (7, 5))
    same = mla.random_instance(8, 6, 5, 7, seed=0)
    for a, b in zip((inst.w_uq, inst.w_uk, inst.c_q, inst.c_kv), (same.w_uq, same.w_uk, same.c_q, same.c_kv)):
        np.testing.assert_array_equal(a, b)


def test_the_smallest_counts_are_allowed():
    # one of everything: (1 + 1) · 1 elements for MLA, 2 · 1 · 1 · 1 for MHA, (1 + 1) / (2 · 1) groups
    assert mla.mla_cache_elements(1, 1, 1) == 2
    assert mla.mha_cache_elements(1, 1, 1) == 2
    assert mla.equivalent_gqa_groups(1, 1, 1) == 1.0


def test_absorption_demo_follows_its_documented_recipe():
    # The docstring's recipe, rebuilt: the head from random_instance(…, seed); the decoupled q_R then k_R,
    # Gaussian (length × rope_head_dim) from seed + 1; content RoPE over head_dim, decoupled over d_R.
    d, rq, rk, t, d_r, base, seed = 8, 6, 5, 7, 4, 10_000.0, 0
    demo = mla.absorption_demo(d, rq, rk, t, d_r, base, seed)
    inst = mla.random_instance(d, rq, rk, t, seed)
    rng = np.random.default_rng(seed + 1)
    q_r, k_r = rng.standard_normal((t, d_r)), rng.standard_normal((t, d_r))
    inv_r, inv_c = rope.inverse_frequencies(d_r, base), rope.inverse_frequencies(d, base)
    gap = mla.decoupled_scores(inst, q_r, k_r, inv_r, True) - mla.decoupled_scores(inst, q_r, k_r, inv_r, False)
    # the decoupled gap is rounding error: compare it exactly, as the recipe fixes every operation. (It is
    # mostly the content part's rounding, so other Gaussians often give the same maximum; at seed 0 the
    # ones from seed + 2 do not, and seed − 1 is not a seed at all.)
    assert demo.decoupled == float(np.max(np.abs(gap)))
    assert demo.decoupled > 0  # nonzero, so a recipe that compares a score with itself shows
    assert demo.plain == mla.absorption_gap(inst)
    assert demo.rope_on_keys == mla.absorption_gap(inst, inv_c)
    assert demo.max_score == float(np.max(np.abs(mla.scores_explicit(inst, inv_c))))
