"""posenc.mla: cache sizes against DeepSeek-V2's Table 1 formulas, and the absorption identity (§2.1.2–2.1.3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import configs, mla, rope

FAST = settings(max_examples=40, deadline=None)


# --- cache sizes -------------------------------------------------------------------------------------


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


# --- absorption ----------------------------------------------------------------------------------------


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


# --- bad input ---------------------------------------------------------------------------------------


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
