"""posenc.mla: cache sizes against DeepSeek-V2's Table 1 formulas, the absorption identity (§2.1.2–2.1.3); bad input,
boundaries and defaults.

What the tests compare against, part by part:

- posenc.mla: cache sizes against DeepSeek-V2's Table 1 formulas, and the absorption identity (§2.1.2–2.1.3).
- posenc.mla's contract for bad input (a ValueError that names the argument as the caller wrote it, and the fix),
  its boundaries (an empty cache is 0 bytes) and its documented defaults (bf16, the small head).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
import numpy as np
import pytest

from expect import raises_exactly
from posenc import configs, mla, rope
from posenc import mla


FAST = settings(max_examples=40, deadline=None)


def test_deepseek_v3_cache_per_token():
    # config_671B.json: kv_lora_rank 512, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128,
    # n_heads 128, n_layers 61 — typed here from the file, not read back from posenc.
    cmp = mla.for_model(configs.load("deepseek_v3"))
    assert cmp.mla == (512 + 64) * 61 == 35_136
    assert cmp.mha == 2 * 128 * 128 * 61
    assert cmp.mha_full_keys == 128 * (128 + 64 + 128) * 61
    assert cmp.ratio == pytest.approx(2 * 128 * 128 / (512 + 64))
    assert cmp.bytes("bf16") == {"mla": 2 * 35_136, "mha": 2 * 2 * 128 * 128 * 61, "mha_full_keys": 2 * 128 * 320 * 61}
    assert cmp.bytes("fp8")["mla"] == 35_136


@FAST
@given(st.integers(1, 64).map(lambda k: 2 * k), st.integers(1, 100))
def test_table1_mla_equals_gqa_with_2_25_groups(head_dim, layers):
    # DeepSeek-V2 Table 1 note: d_c = 4 d_h and d_R = d_h / 2 give the cache of GQA with 2.25 groups.
    d_c, d_r = 4 * head_dim, head_dim // 2
    assert mla.equivalent_gqa_groups(d_c, d_r, head_dim) == 2.25
    assert mla.mla_cache_elements(d_c, d_r, layers) == 2 * 2.25 * head_dim * layers


@FAST
@given(st.integers(1, 32), st.integers(1, 256), st.integers(1, 80))
def test_mha_and_gqa_follow_table1(heads, head_dim, layers):
    assert mla.mha_cache_elements(heads, head_dim, layers) == 2 * heads * head_dim * layers
    assert mla.gqa_cache_elements(heads, head_dim, layers) == mla.mha_cache_elements(heads, head_dim, layers)
    assert mla.mha_cache_elements(heads, head_dim, layers, value_head_dim=1) == heads * (head_dim + 1) * layers


shapes = st.tuples(st.integers(1, 6).map(lambda k: 2 * k), st.integers(1, 6), st.integers(1, 6), st.integers(2, 9),
                   st.integers(0, 10_000))


@FAST
@given(shapes)
def test_absorption_holds_without_rope(shape):
    d, rq, rk, t, seed = shape
    inst = mla.random_instance(d, rq, rk, t, seed)
    scale = np.abs(mla.scores_explicit(inst)).max() + 1.0
    assert mla.absorption_gap(inst) <= 1e-12 * scale * d * max(rq, rk)


@FAST
@given(shapes)
def test_rope_between_the_matrices_breaks_absorption(shape):
    d, rq, rk, t, seed = shape
    inst = mla.random_instance(d, rq, rk, t, seed)
    inv = rope.inverse_frequencies(d, 10_000)
    explicit = mla.scores_explicit(inst, inv)
    # the failure is exactly the rotation: W_UQᵀ R_mᵀ R_n W_UK reproduces every score ...
    for m in range(t):
        for n in range(t):
            got = inst.c_q[m] @ mla.absorbed_matrix_with_rope(inst, m, n, inv) @ inst.c_kv[n]
            assert got == pytest.approx(explicit[m, n], rel=1e-9, abs=1e-9)
    # ... and that matrix is not the fixed W_UQᵀ W_UK once the query and key positions differ
    scale = np.abs(explicit).max()
    assert mla.absorption_gap(inst, inv) > 1e-6 * scale


def test_absorbed_matrix_depends_only_on_the_offset():
    inst = mla.random_instance(8, 6, 5, 7, seed=3)
    inv = rope.inverse_frequencies(8, 10_000)
    a = mla.absorbed_matrix_with_rope(inst, 2, 5, inv)
    np.testing.assert_allclose(a, mla.absorbed_matrix_with_rope(inst, 0, 3, inv), atol=1e-12)  # same offset 3
    assert np.abs(a - mla.absorbed_matrix_with_rope(inst, 0, 4, inv)).max() > 1e-3  # offset 4 differs
    np.testing.assert_allclose(mla.absorbed_matrix_with_rope(inst, 4, 4, inv), mla.absorbed_matrix(inst), atol=1e-12)


@FAST
@given(shapes, st.integers(1, 4).map(lambda k: 2 * k))
def test_decoupled_rope_keeps_absorption(shape, d_rope):
    d, rq, rk, t, seed = shape
    inst = mla.random_instance(d, rq, rk, t, seed)
    rng = np.random.default_rng(seed + 1)
    q_r, k_r = rng.standard_normal((t, d_rope)), rng.standard_normal((t, d_rope))
    inv = rope.inverse_frequencies(d_rope, 10_000)
    explicit = mla.decoupled_scores(inst, q_r, k_r, inv, absorbed=False)
    absorbed = mla.decoupled_scores(inst, q_r, k_r, inv, absorbed=True)
    np.testing.assert_allclose(absorbed, explicit, rtol=1e-10, atol=1e-10)
    # and the RoPE part depends on position only through n − m
    rot = explicit - mla.scores_explicit(inst)
    rq_, rk_ = rope.rotate(q_r, np.arange(t), inv), rope.rotate(k_r, np.arange(t), inv)
    np.testing.assert_allclose(rot, rq_ @ rk_.T, atol=1e-10)


@pytest.mark.parametrize("call, match", [
    (lambda: mla.mla_cache_elements(0, 64, 61), "kv_lora_rank"),
    (lambda: mla.mha_cache_elements(128, 128, 61.0), "layers"),
    (lambda: mla.mha_cache_elements(True, 128, 61), "heads"),
    (lambda: mla.cache_bytes(10, "int4"), "dtype"),
    (lambda: mla.cache_bytes(-1), "elements"),
    (lambda: mla.for_model(configs.load("qwen3_8b")), "kv_lora_rank"),
    (lambda: mla.for_model("deepseek_v3"), "posenc.configs"),
    (lambda: mla.random_instance(head_dim=7), "head_dim"),
    (lambda: mla.scores_absorbed("not an instance"), "Instance"),
    (lambda: mla.decoupled_scores(mla.random_instance(length=3), np.zeros((2, 4)), np.zeros((3, 4)),
                                  rope.inverse_frequencies(4, 10_000), True), "q_rope"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- bad input, boundaries, defaults -------------------------------------------------------------------------------


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


# --- the absorption demo -------------------------------------------------------------------------------------------


@FAST
@given(seed=st.integers(0, 10_000), rope_dim=st.sampled_from([2, 4, 8]))
def test_absorption_demo_holds_fails_holds(seed, rope_dim):
    demo = mla.absorption_demo(8, 6, 5, 7, rope_dim, 10_000, seed)
    assert demo.plain <= 1e-12 * demo.max_score
    assert demo.decoupled <= 1e-12 * max(demo.max_score, 1.0) * 10
    assert demo.rope_on_keys > 1e-3 * demo.max_score


# --- input dtypes --------------------------------------------------------------------------------------------------


def test_gqa_cache_blames_kv_heads():
    with raises_exactly("kv_heads must be a positive integer, got 0"):
        mla.gqa_cache_elements(0, 128, 4)
    assert mla.gqa_cache_elements(8, 128, 4) == 2 * 8 * 128 * 4  # 2·n_g·d_h·l, DeepSeek-V2 Table 1
