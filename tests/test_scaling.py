"""posenc.scaling against transformers' ROPE_INIT_FUNCTIONS and the derived values in facts.md §3.

transformers v5 reads everything from ``config.rope_parameters``; the configs
here are plain ``PreTrainedConfig`` objects built from models.yaml
(``configs.transformers_kwargs``) or from hypothesis-drawn parameters.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from posenc import configs, rope, scaling

SOME = settings(max_examples=30, deadline=None)


@pytest.fixture(scope="module")
def hf():
    """transformers' modeling_rope_utils and a config class (imported once: it costs seconds)."""
    from transformers import modeling_rope_utils
    from transformers.configuration_utils import PreTrainedConfig

    class HF:
        init = modeling_rope_utils.ROPE_INIT_FUNCTIONS

        @staticmethod
        def config(**kwargs):
            return PreTrainedConfig(**kwargs)

        @classmethod
        def run(cls, rope_type, seq_len=None, **kwargs):
            inv, att = cls.init[rope_type](cls.config(**kwargs), seq_len=seq_len)
            return inv.double().numpy(), float(att)

    return HF


def hf_kwargs(head_dim, max_pos, **rope_parameters):
    return {"head_dim": head_dim, "hidden_size": head_dim, "num_attention_heads": 1,
            "max_position_embeddings": max_pos, "rope_parameters": rope_parameters}


RTOL = 2e-6  # transformers computes in float32, posenc in float64
EPS32 = float(np.finfo(np.float32).eps)


def assert_blend_close(ours, theirs, omega, slope: float = 1.0):
    """For methods that blend ω and ω/s with a weight w computed in float32 (YaRN's ramp, Llama 3's smooth).

    The result is ω·(w + (1 − w)/s), so an error δw moves it by up to δw·ω, however small the
    result itself (ω/s for s = 64). δw is a few float32 ulps times the slope of w in its float32
    input: 1 for YaRN's ramp over pair indices, (high/low frequency gap)⁻¹·L/λ for Llama 3.
    Anything wrong in the formula moves the result by O(ω), orders of magnitude above this bound.
    """
    ours, theirs, omega = (np.asarray(a, dtype=np.float64) for a in (ours, theirs, omega))
    bound = RTOL * np.abs(theirs) + 8 * EPS32 * slope * omega
    worst = np.max(np.abs(ours - theirs) - bound)
    assert worst <= 0, f"differs beyond float32 blending error: ours {ours}, transformers {theirs}"


# --- real models -------------------------------------------------------------------------------------

ROPE_MODELS = [k for k in configs.keys() if configs.load(k).position == "rope"]
SCALED_MODELS = [k for k in ROPE_MODELS if configs.load(k).get("scaling") is not None]


def test_scaled_models_cover_every_method_in_models_yaml():
    kinds = {configs.load(k)["scaling"]["rope_type"] for k in SCALED_MODELS}
    assert kinds == {"yarn", "llama3", "linear"}
    assert len(SCALED_MODELS) >= 7


@pytest.mark.parametrize("key", SCALED_MODELS)
def test_real_model_scaling_matches_transformers(hf, key):
    cfg = configs.load(key)
    kind = cfg["scaling"]["rope_type"]
    theirs, their_att = hf.run(kind, **configs.transformers_kwargs(cfg))
    ours, our_att = scaling.for_model(cfg)
    np.testing.assert_allclose(ours, theirs, rtol=RTOL)
    assert our_att == pytest.approx(their_att, rel=1e-12)


@pytest.mark.parametrize("key", ROPE_MODELS)
def test_real_model_unscaled_frequencies_match_transformers(hf, key):
    # transformers v5 keeps "default" on each model class; its "linear" type computes exactly that
    # default (honouring partial_rotary_factor) and divides by the factor, so factor 1 is the default.
    cfg = configs.load(key)
    params = {**configs.rope_parameters(cfg), "rope_type": "linear", "factor": 1.0}
    for drop in ("original_max_position_embeddings", "low_freq_factor", "high_freq_factor", "beta_fast",
                 "beta_slow", "mscale", "mscale_all_dim", "truncate"):
        params.pop(drop, None)
    theirs, _ = hf.run("linear", **{**configs.transformers_kwargs(cfg), "rope_parameters": params})
    ours = rope.inverse_frequencies(cfg["head_dim"], cfg["rope_theta"], cfg.get("rotary_fraction", 1.0))
    np.testing.assert_allclose(ours, theirs, rtol=RTOL)


def test_gemma3_local_layers_use_the_local_base_unscaled():
    cfg = configs.load("gemma3_27b")
    local, att = scaling.for_model(cfg, layer="local")
    np.testing.assert_allclose(local, [10_000 ** (-2 * i / 128) for i in range(64)], rtol=1e-12)
    glob, _ = scaling.for_model(cfg)
    np.testing.assert_allclose(glob, [1e6 ** (-2 * i / 128) / 8 for i in range(64)], rtol=1e-12)
    assert att == 1.0


# --- random configs ------------------------------------------------------------------------------------

head_dims = st.integers(2, 128).map(lambda n: 2 * n)
fractions = st.sampled_from([1.0, 0.5, 0.25])
thetas = st.floats(100.0, 1e7)
factors = st.floats(1.0, 64.0)
contexts = st.integers(256, 65_536)


def valid_dim(head_dim, fraction):
    d = int(head_dim * fraction)
    return d >= 4 and d % 2 == 0


@given(head_dim=head_dims, fraction=fractions, theta=thetas, factor=factors)
@SOME
def test_linear_matches_transformers(hf, head_dim, fraction, theta, factor):
    assume(valid_dim(head_dim, fraction))
    theirs, att = hf.run("linear", **hf_kwargs(head_dim, 4096, rope_type="linear", rope_theta=theta, factor=factor,
                                               partial_rotary_factor=fraction))
    ours, our_att = scaling.linear(head_dim, theta, factor, fraction)
    np.testing.assert_allclose(ours, theirs, rtol=RTOL)
    assert our_att == att == 1.0


@given(head_dim=head_dims, fraction=fractions, theta=thetas, factor=factors, L=contexts,
       extra=st.floats(0.0, 40.0))
@SOME
def test_dynamic_ntk_matches_transformers(hf, head_dim, fraction, theta, factor, L, extra):
    assume(valid_dim(head_dim, fraction))
    seq_len = int(L * (1 + extra)) if extra > 0.5 else int(L * extra) + 1  # also below L: no change
    theirs, _ = hf.run("dynamic", seq_len=seq_len, **hf_kwargs(head_dim, L, rope_type="dynamic", rope_theta=theta,
                                                                 factor=factor, partial_rotary_factor=fraction))
    ours, att = scaling.dynamic_ntk(head_dim, theta, factor, L, seq_len, fraction)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)  # float32 powers of a grown base
    assert att == 1.0


@st.composite
def yarn_params(draw):
    head_dim = draw(head_dims)
    fraction = draw(fractions)
    assume(valid_dim(head_dim, fraction))
    beta_fast = draw(st.floats(1.0, 64.0))
    p = {
        "head_dim": head_dim,
        "rotary_fraction": fraction,
        "base": draw(thetas),
        "factor": draw(factors),
        "original_context": draw(contexts),
        "beta_fast": beta_fast,
        "beta_slow": draw(st.floats(0.25, beta_fast)),
        "truncate": draw(st.booleans()),
    }
    mode = draw(st.sampled_from(["plain", "mscale", "given"]))
    if mode == "mscale":
        p["mscale"] = draw(st.floats(0.1, 2.0))
        p["mscale_all_dim"] = draw(st.floats(0.1, 2.0))
    elif mode == "given":
        p["attention_factor"] = draw(st.floats(0.5, 2.0))
    return p


@given(yarn_params())
@settings(max_examples=60, deadline=None)
def test_yarn_matches_transformers(hf, p):
    rp = {"rope_type": "yarn", "rope_theta": p["base"], "factor": p["factor"],
          "original_max_position_embeddings": p["original_context"], "beta_fast": p["beta_fast"],
          "beta_slow": p["beta_slow"], "truncate": p["truncate"], "partial_rotary_factor": p["rotary_fraction"]}
    for k in ("mscale", "mscale_all_dim", "attention_factor"):
        if k in p:
            rp[k] = p[k]
    theirs, their_att = hf.run("yarn", **hf_kwargs(p["head_dim"], int(p["factor"] * p["original_context"]), **rp))
    ours, our_att = scaling.yarn(**p)
    # transformers computes the ramp in float32
    assert_blend_close(ours, theirs, rope.inverse_frequencies(p["head_dim"], p["base"], p["rotary_fraction"]))
    assert our_att == pytest.approx(their_att, rel=1e-12)


@given(head_dim=head_dims, fraction=fractions, theta=thetas, factor=factors, L=contexts,
       lf=st.floats(0.25, 4.0), gap=st.floats(0.1, 8.0))
@example(head_dim=18, fraction=1.0, theta=100.0, factor=26.0, L=256, lf=1.890625, gap=0.5)  # float32 smooth: 1.02e-5 relative
@SOME
def test_llama3_matches_transformers(hf, head_dim, fraction, theta, factor, L, lf, gap):
    assume(valid_dim(head_dim, fraction))
    hf_ = lf + gap
    theirs, att = hf.run("llama3", **hf_kwargs(head_dim, L, rope_type="llama3", rope_theta=theta, factor=factor,
                                               low_freq_factor=lf, high_freq_factor=hf_,
                                               original_max_position_embeddings=L, partial_rotary_factor=fraction))
    ours, our_att = scaling.llama3(head_dim, theta, factor, lf, hf_, L, fraction)
    # transformers computes smooth = (L/λ − lf)/(hf − lf) in float32; inside the band L/λ ≤ hf
    assert_blend_close(ours, theirs, rope.inverse_frequencies(head_dim, theta, fraction), slope=hf_ / gap)
    assert our_att == att == 1.0


# --- properties that hold by construction of each method --------------------------------------------


@given(head_dim=head_dims, theta=thetas, factor=factors)
@SOME
def test_ntk_aware_slows_the_slowest_pair_by_s_and_keeps_the_fastest(head_dim, theta, factor):
    # YaRN App. A.1: b'^((d−2)/d) = s · b^((d−2)/d), i.e. the last pair's ω is divided by exactly s.
    assume(head_dim >= 4)
    ntk, _ = scaling.ntk_aware(head_dim, theta, factor)
    omega = rope.inverse_frequencies(head_dim, theta)
    assert ntk[0] == 1.0
    assert ntk[-1] == pytest.approx(omega[-1] / factor, rel=1e-9)


@given(head_dim=head_dims, theta=thetas, factor=st.integers(1, 64), L=contexts)
@SOME
def test_dynamic_ntk_is_static_ntk_with_a_growing_factor_and_unchanged_up_to_L(head_dim, theta, factor, L):
    assume(head_dim >= 4)
    ell = 3 * L
    at_ell, _ = scaling.dynamic_ntk(head_dim, theta, factor, L, ell)
    np.testing.assert_allclose(at_ell, scaling.ntk_aware(head_dim, theta, factor * ell / L - (factor - 1))[0], rtol=1e-9)
    np.testing.assert_allclose(scaling.dynamic_ntk(head_dim, theta, factor, L, L // 2)[0],
                               rope.inverse_frequencies(head_dim, theta), rtol=1e-12)


@given(head_dim=head_dims, theta=thetas, factor=st.integers(1, 16), m=st.integers(0, 5000))
@SOME
def test_linear_scaling_is_position_interpolation(head_dim, theta, factor, m):
    # PI feeds position m·s as m: the scaled angles at s·m equal the original angles at m.
    omega = rope.inverse_frequencies(head_dim, theta)
    pi, _ = scaling.linear(head_dim, theta, factor)
    np.testing.assert_allclose(pi * (factor * m), omega * m, rtol=1e-12)


def test_ntk_aware_example_from_facts():
    # facts §3: θ=1e4, s=4, d=128 → 40,890
    assert round(scaling.ntk_aware_base(10_000, 4, 128)) == 40_890


# --- derived values in facts.md §3 -----------------------------------------------------------------


def correction_dim_by_hand(r, d, theta, L):
    """Pair index j with L / (2π θ^(2j/d)) = r, solved for j."""
    return d * math.log(L / (2 * math.pi * r)) / (2 * math.log(theta))


def test_qwen3_yarn_numbers():
    cfg = configs.load("qwen3_8b")
    sc = cfg["scaling"]
    low, high = scaling.yarn_correction_range(cfg["head_dim"], cfg["rope_theta"], sc["original_max_position_embeddings"])
    assert (low, high) == (23, 40)
    assert (low, high) == (math.floor(correction_dim_by_hand(32, 128, 1e6, 32_768)),
                           math.ceil(correction_dim_by_hand(1, 128, 1e6, 32_768)))
    _, att = scaling.for_model(cfg)
    assert att == pytest.approx(1.1386, abs=5e-5)
    assert att == pytest.approx(0.1 * math.log(4) + 1, rel=1e-12)


def test_deepseek_v3_yarn_numbers():
    cfg = configs.load("deepseek_v3")
    low, high = scaling.yarn_correction_range(64, 10_000, 4096, 32, 1)
    assert (low, high) == (10, 23)
    _, att = scaling.for_model(cfg)
    assert att == 1.0  # mscale / mscale_all_dim = 1 / 1
    assert scaling.yarn_mscale(40, cfg["scaling"]["mscale_all_dim"]) ** 2 == pytest.approx(1.874, abs=5e-4)


def test_gpt_oss_yarn_numbers():
    cfg = configs.load("gpt_oss")
    low, high = scaling.yarn_correction_range(64, 150_000, 4096, 32, 1, truncate=False)
    assert low == pytest.approx(8.09, abs=0.005) and high == pytest.approx(17.40, abs=0.005)
    assert low == pytest.approx(correction_dim_by_hand(32, 64, 150_000, 4096), rel=1e-12)
    _, att = scaling.for_model(cfg)
    assert att == pytest.approx(1.3466, abs=5e-5)


def test_yarn_paper_temperature_example():
    # YaRN Eq. 22: √(1/t) = 0.1 ln s + 1; s = 8 → 1.208
    assert scaling.yarn_attention_factor(8) == pytest.approx(1.208, abs=5e-4)
    assert scaling.yarn_attention_factor(1) == 1.0


def test_llama31_split():
    cfg = configs.load("llama31_8b")
    sc = cfg["scaling"]
    split = scaling.llama3_split(128, cfg["rope_theta"], sc["low_freq_factor"], sc["high_freq_factor"],
                                 sc["original_max_position_embeddings"])
    assert split == {"unchanged": 29, "scaled": 29, "smoothed": 6}
    inv, _ = scaling.for_model(cfg)
    omega = rope.inverse_frequencies(128, 500_000)
    assert np.sum(inv == omega) == 29 and np.sum(np.isclose(inv, omega / 8, rtol=1e-15)) == 29


def test_yarn_pairs_table_for_qwen3():
    t = scaling.yarn_pairs(128, 1e6, 4.0, 32_768)
    inv, att = scaling.yarn(128, 1e6, 4.0, 32_768)
    np.testing.assert_array_equal(t.inv_freq, inv)
    assert t.attention_factor == att and (t.low, t.high) == (23, 40)
    for j in range(64):  # each row, recomputed by hand
        lam = 2 * math.pi * 1e6 ** (2 * j / 128)
        assert t.wavelength[j] == pytest.approx(lam, rel=1e-12)
        assert t.rotations[j] == pytest.approx(32_768 / lam, rel=1e-12)
        ramp = min(max((j - 23) / (40 - 23), 0.0), 1.0)
        assert t.ramp[j] == pytest.approx(ramp, abs=1e-15)
        omega = 1e6 ** (-2 * j / 128)
        assert t.inv_freq[j] == pytest.approx((1 - ramp) * omega + ramp * omega / 4, rel=1e-12)
    # pairs 0–23 kept, 40–63 fully interpolated: the 24 pairs that never turn within 32,768 tokens
    assert (t.kept, t.blended, t.interpolated) == (24, 16, 24)


# --- bad input -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: scaling.linear(128, 1e4, 0.5), "factor"),
        (lambda: scaling.ntk_aware_base(1e4, 4, 2), "dim"),
        (lambda: scaling.ntk_aware_base(1.0, 4, 128), "base"),
        (lambda: scaling.dynamic_ntk(128, 1e4, 4, 0), "max_position_embeddings"),
        (lambda: scaling.yarn(128, 1e4, 4, 4096, beta_fast=1, beta_slow=32), "beta_fast"),
        (lambda: scaling.yarn(128, 1e4, 4, 4096, truncate="yes"), "truncate"),
        (lambda: scaling.yarn(128, 1e4, 4, 4096.0), "original_context"),
        (lambda: scaling.yarn(128, 1e4, 4, 4096, mscale=0, mscale_all_dim=1), "mscale"),
        (lambda: scaling.yarn(100, 1e4, 4, 4096, rotary_fraction=0.25), "rotary_fraction"),
        (lambda: scaling.llama3(128, 5e5, 8, 4, 1, 8192), "high_freq_factor"),
        (lambda: scaling.for_model(configs.load("gpt2")), "RoPE"),
        (lambda: scaling.for_model(configs.load("qwen3_8b"), layer="local"), "local_rope_theta"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- numbers lesson 5 quotes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, text",
    [
        ("qwen3_yarn_context", "131,072"),
        ("qwen3_yarn_low", "23"),
        ("qwen3_yarn_high", "40"),
        ("qwen3_yarn_attention_factor", "1.1386"),
        ("deepseek_yarn_low", "10"),
        ("deepseek_yarn_high", "23"),
        ("deepseek_yarn_context", "163,840"),
        ("deepseek_softmax_scale_multiplier", "1.874"),
        ("gptoss_yarn_low", "8.09"),
        ("gptoss_yarn_high", "17.40"),
        ("gptoss_yarn_attention_factor", "1.3466"),
        ("llama31_unchanged", "29"),
        ("llama31_scaled", "29"),
        ("llama31_smoothed", "6"),
        ("ntk_example_base", "40,890"),
        ("yarn_temperature_s8", "1.208"),
    ],
)
def test_lesson5_numbers_match_facts(name, text):
    from posenc import quantities as numbers

    assert numbers.text(name) == text
