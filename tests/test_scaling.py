"""posenc.scaling against transformers' ROPE_INIT_FUNCTIONS, the papers' formulas by hand, and its registry; base
raising (ABF); messages.

What the tests compare against, part by part:

- posenc.scaling against transformers' ROPE_INIT_FUNCTIONS and the derived values in facts.md §3. transformers v5
  reads everything from ``config.rope_parameters``; the configs here are plain ``PreTrainedConfig`` objects built
  from models.yaml (``configs.transformers_kwargs``) or from hypothesis-drawn parameters.
- posenc.scaling on small cases worked out by hand: every field, default and edge a caller relies on. Each expected
  value is written from the formula (ω_i = θ^(−2i/d), λ_i = 2π/ω_i, the papers' equations) with ``math``, never from
  posenc itself. Cases are chosen so that a swapped, dropped or defaulted argument changes the answer: three or more
  pairs (first, last and second-to-last differ), a rotary fraction below 1, lengths that differ before and after.
- posenc.scaling's bad-input contract, argument by argument: each message starts with the argument's name. The
  project's standard: bad input gets a ValueError that names the argument as the caller wrote it (and the fix).
  ``pytest.raises(match="base")`` alone also passes when the message says "new_base" or "XXbaseXX", so every row
  here anchors the name at the start of the message. The rows cover the checks test_scaling.py's exact-message table
  does not (base_change, ntk_factor_for_base, yarn_paper_ramp, llama3_bands, angle_overshoot, the model helpers);
  messages that name a model are compared whole.
- posenc.scaling's base-raising (ABF) analysis against closed forms and facts.md §2's counts.
- posenc.scaling's registry and the lesson-5 helpers that moved into it. One registry (``SCALINGS``) and
  one reader of a model's ``scaling`` dict (``scaling_arguments``) feed ``for_model``, ``yarn_pairs_for_model`` and
  ``llama3_bands_for_model``. References are independent of the code under test: the raw YAML files, transformers'
  ``ROPE_INIT_FUNCTIONS``, and the formulas written out term by term (YaRN paper γ(r), llama-models
  ``apply_scaling``).
"""

from __future__ import annotations

import inspect
import math
from pathlib import Path
import re

from hypothesis import assume, example, given, settings
from hypothesis import assume, given, settings
from hypothesis import strategies as st
import numpy as np
import pytest
import yaml

from expect import raises_exactly
from yarn_by_hand import QWEN, correction_dim_by_hand, correction_range_by_hand, gamma_by_hand, omega_by_hand, yarn_by_hand
from posenc import configs, rope, scaling
from posenc import configs, scaling
from posenc import quantities as numbers
from posenc import rope, scaling
from posenc import scaling


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


def assert_blend_close(ours, theirs, omega, slope=1.0):
    """For methods that blend ω and ω/s with a weight w computed in float32 (YaRN's ramp, Llama 3's smooth).

    The result is ω·(w + (1 − w)/s), so an error δw moves it by up to δw·ω, however small the
    result itself (ω/s for s = 64). δw is a few float32 ulps times the slope of w in its float32
    input: ``yarn_ramp_slope`` for YaRN's ramp over pair indices, (high/low frequency gap)⁻¹·L/λ
    for Llama 3. Anything wrong in the formula moves the result by O(ω), far above this bound.
    """
    ours, theirs, omega = (np.asarray(a, dtype=np.float64) for a in (ours, theirs, omega))
    bound = RTOL * np.abs(theirs) + 8 * EPS32 * np.asarray(slope) * omega
    worst = np.max(np.abs(ours - theirs) - bound)
    assert worst <= 0, f"differs beyond float32 blending error: ours {ours}, transformers {theirs}"


def yarn_ramp_slope(low: float, high: float, n_pairs: int) -> np.ndarray:
    """How many float32 ulps of error transformers' ramp weight can carry, pair by pair (for ``assert_blend_close``).

    transformers computes w_j = (j − low)/(high − low) on a float32 arange: low is rounded to float32
    (error ≤ u·|low|, u = 2⁻²⁴), the difference is rounded (≤ u·|j − low|), and the divisor and the
    division add a relative u each (2u·|w_j|). So |δw_j| ≤ u·(|low| + |j − low|)/(high − low) + 2u·|w_j|,
    i.e. (|low| + |j − low|)/(2·(high − low)) + |w_j| ulps of EPS32 = 2u. This is 1 or 2 ulps for a
    ramp many pairs wide and grows when beta_fast and beta_slow nearly meet (a steep ramp).
    The clamp to [0, 1] can only shrink the error.
    """
    width = high - low if high != low else 0.001  # transformers widens an empty ramp the same way
    j = np.arange(n_pairs, dtype=np.float64)
    w = (j - low) / width
    return np.maximum(1.0, (abs(low) + np.abs(j - low)) / (2 * abs(width)) + np.abs(w))


ROPE_MODELS = [k for k in configs.keys() if configs.load(k).position == "rope"]


SCALED_MODELS = [k for k in ROPE_MODELS if configs.load(k).get("scaling") is not None]


def test_scaled_models_cover_every_method_in_models_yaml():
    kinds = {configs.load(k)["scaling"]["rope_type"] for k in SCALED_MODELS}
    assert kinds == {"yarn", "llama3", "linear", "longrope"}
    assert len(SCALED_MODELS) >= 8


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
@example({"head_dim": 200, "rotary_fraction": 0.25, "base": 3679798.0, "factor": 2.0, "original_context": 27771,
          "beta_fast": 35.21875, "beta_slow": 35.0, "truncate": False})  # a ramp 0.01 pairs wide: float32 w off by 1e-5
@example({"head_dim": 210, "rotary_fraction": 1.0, "base": 8873906.0, "factor": 40.0, "original_context": 22730,
          "beta_fast": 17.5, "beta_slow": 17.0, "truncate": False})  # found locally before the slope bound: narrow ramp again
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
    # transformers computes the ramp in float32; its width comes from the correction dims (by hand, below)
    d = int(p["head_dim"] * p["rotary_fraction"])
    low, high = correction_range_by_hand(p["beta_fast"], p["beta_slow"], d, p["base"], p["original_context"], p["truncate"])
    assert_blend_close(ours, theirs, rope.inverse_frequencies(p["head_dim"], p["base"], p["rotary_fraction"]),
                       slope=yarn_ramp_slope(low, high, d // 2))
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


@given(head_dim=head_dims, fraction=fractions, theta=thetas, L=contexts, stretch=st.floats(1.0, 64.0),
       seq=st.sampled_from([None, "at", "past"]), explicit=st.booleans(), data=st.data())
@SOME
def test_longrope_matches_transformers(hf, head_dim, fraction, theta, L, stretch, seq, explicit, data):
    # transformers' _compute_longrope_parameters: the long list only when seq_len > original; s from factor,
    # else max_position_embeddings / original; attention factor √(1 + ln s / ln L) whatever seq_len is.
    assume(valid_dim(head_dim, fraction))
    n = int(head_dim * fraction) // 2
    lists = st.lists(st.floats(0.5, 80.0), min_size=n, max_size=n)
    short, long_ = data.draw(lists), data.draw(lists)
    max_pos = max(L, int(L * stretch))
    seq_len = {None: None, "at": L, "past": L + 1}[seq]
    rp = dict(rope_type="longrope", rope_theta=theta, short_factor=short, long_factor=long_,
              original_max_position_embeddings=L, partial_rotary_factor=fraction)
    if explicit:
        rp["factor"] = stretch
    theirs, their_att = hf.run("longrope", seq_len=seq_len, **hf_kwargs(head_dim, max_pos, **rp))
    ours, our_att = scaling.longrope(head_dim, theta, short, long_, L, max_pos, stretch if explicit else None,
                                     seq_len, rotary_fraction=fraction)
    np.testing.assert_allclose(ours, theirs, rtol=RTOL)
    assert our_att == pytest.approx(their_att, rel=1e-12)


def test_longrope_by_hand_on_a_three_pair_head():
    # d = 6, θ = 100: ω = 1, 100^(−1/3), 100^(−2/3); each divided by its own factor; s = 16 / 4 = 4.
    short, long_ = [1.0, 2.0, 3.0], [1.5, 8.0, 40.0]
    omega = [1.0, 100 ** (-1 / 3), 100 ** (-2 / 3)]
    att = math.sqrt(1 + math.log(4) / math.log(4))  # √2
    for seq_len, factors in ((None, short), (4, short), (5, long_)):
        inv, a = scaling.longrope(6, 100.0, short, long_, 4, 16, seq_len=seq_len)
        np.testing.assert_allclose(inv, [w / f for w, f in zip(omega, factors)], rtol=1e-15)
        assert a == pytest.approx(att, rel=1e-15)
    assert scaling.longrope(6, 100.0, short, long_, 4, 16, attention_factor=0.9)[1] == 0.9
    assert scaling.longrope(6, 100.0, short, long_, 4, 16, factor=1.0)[1] == 1.0  # s ≤ 1: no factor
    assert scaling.longrope_attention_factor(32, 4096) == pytest.approx(math.sqrt(1 + 5 / 12), rel=1e-15)


@pytest.mark.parametrize("call, message", [
    (lambda: scaling.longrope(6, 100.0, [1.0, 2.0], [1.0, 2.0, 3.0], 4, 16),
     "short_factor must hold one factor per rotary pair (3), got shape (2,); Phi-3.5-mini's lists have 48 entries for its 96 rotary dims"),
    (lambda: scaling.longrope(6, 100.0, [1.0, 2.0, 3.0], [1.0, 0.0, 3.0], 4, 16),
     "long_factor must hold positive finite factors, got [0.]"),
    (lambda: scaling.longrope(6, 100.0, [1.0] * 3, [1.0] * 3, 4),
     "factor or max_position_embeddings must be given (LongRoPE's s = max_position_embeddings ÷ original_context when "
     "the config has no factor); Phi-3.5-mini: max_position_embeddings=131072"),
    (lambda: scaling.longrope_attention_factor(32, 1), "original_context must be at least 2 (its logarithm divides), got 1"),
])
def test_longrope_bad_input_message(call, message):
    with raises_exactly(message):
        call()


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
    assert t.attention_factor == pytest.approx(0.1 * math.log(4) + 1, rel=1e-15) and (t.low, t.high) == (23, 40)
    np.testing.assert_array_equal(t.pair, np.arange(64))
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


def llama3_by_reference(freqs, factor, low_freq_factor, high_freq_factor, old_context_len):
    """Llama 3.1's rescaling as meta-llama/llama-models writes it (``apply_scaling``), in Python floats.

    The reference keeps a pair when wavelen < L/high_freq_factor, divides it when
    wavelen > L/low_freq_factor, and smooths it otherwise: both edges belong to the smoothing
    band (its torch.where form says ``wavelen >= high_freq_wavelen) & (wavelen <= low_freq_wavelen``;
    transformers' ``~(wavelen < high) * ~(wavelen > low)``). Returns (new freqs, band of each pair).
    """
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    new_freqs, bands = [], []
    for freq in freqs:
        wavelen = 2 * math.pi / freq
        if wavelen < high_freq_wavelen:
            new_freqs.append(freq)
            bands.append("unchanged")
        elif wavelen > low_freq_wavelen:
            new_freqs.append(freq / factor)
            bands.append("scaled")
        else:
            smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new_freqs.append((1 - smooth) * freq / factor + smooth * freq)
            bands.append("smoothed")
    return np.array(new_freqs), bands


def float_steps(x: float, n: int) -> float:
    """x moved by n representable float64 steps (up for n > 0)."""
    for _ in range(abs(n)):
        x = float(np.nextafter(x, math.inf if n > 0 else -math.inf))
    return x


def freq_factor_on_pair0(first_context: int = 2048) -> tuple[int, float]:
    """(L, f) with L/f == 2π exactly in float64 (pair 0's wavelength, ω_0 = 1), but f ≠ L/2π.

    Pair 0 then sits exactly on the edge L/f, and the smoothing weight computed at the edge,
    (L/λ − …)/(…), is one float step off its ideal 1 (or 0): the smoothed value differs from the
    kept (or scaled) one in the last bit, so which side of the edge a pair lands on is visible.
    """
    two_pi = 2 * math.pi
    for L in range(first_context, 10 * first_context):
        for step in (1, -1):
            f = float_steps(L / two_pi, step)
            if L / f == two_pi:
                return L, f
    raise AssertionError("no context with an exact edge found")


def test_llama3_upper_edge_is_smoothed_as_in_the_reference(hf):
    # pair 0's wavelength exactly L/high_freq_factor: smoothed, not kept (llama-models, transformers)
    L, high = freq_factor_on_pair0()
    low, s, head_dim, base = 1.0, 8.0, 8, 10_000.0
    omega = rope.inverse_frequencies(head_dim, base)
    assert 2 * math.pi / omega[0] == L / high  # exactly on the edge
    want, bands = llama3_by_reference(omega, s, low, high, L)
    assert bands[0] == "smoothed" and want[0] != omega[0]  # one float step below ω_0: the smoothing weight is 1 − 2⁻⁵³
    ours, _ = scaling.llama3(head_dim, base, s, low, high, L)
    np.testing.assert_array_equal(ours, want)
    split = scaling.llama3_split(head_dim, base, low, high, L)
    assert split == {b: bands.count(b) for b in ("unchanged", "scaled", "smoothed")}
    assert split["unchanged"] == 0
    theirs, _ = hf.run("llama3", **hf_kwargs(head_dim, L, rope_type="llama3", rope_theta=base, factor=s,
                                               low_freq_factor=low, high_freq_factor=high,
                                               original_max_position_embeddings=L))
    assert_blend_close(ours, theirs, omega, slope=high / (high - low))


def test_llama3_lower_edge_is_smoothed_as_in_the_reference(hf):
    # pair 0's wavelength exactly L/low_freq_factor: smoothed (weight ≈ 0, so ≈ ω/s), not divided by s
    L, low = freq_factor_on_pair0()
    high, s, head_dim, base = 2 * low, 8.0, 8, 10_000.0
    omega = rope.inverse_frequencies(head_dim, base)
    assert 2 * math.pi / omega[0] == L / low
    want, bands = llama3_by_reference(omega, s, low, high, L)
    assert bands == ["smoothed", "scaled", "scaled", "scaled"] and want[0] != omega[0] / s
    ours, _ = scaling.llama3(head_dim, base, s, low, high, L)
    np.testing.assert_array_equal(ours, want)
    assert scaling.llama3_split(head_dim, base, low, high, L) == {"unchanged": 0, "scaled": 3, "smoothed": 1}
    theirs, _ = hf.run("llama3", **hf_kwargs(head_dim, L, rope_type="llama3", rope_theta=base, factor=s,
                                               low_freq_factor=low, high_freq_factor=high,
                                               original_max_position_embeddings=L))
    assert_blend_close(ours, theirs, omega, slope=high / (high - low))


def test_llama31_edges_with_wavelengths_placed_on_them(monkeypatch):
    # Llama 3.1's own factors (8, 1, 4, 8,192): pairs with wavelengths 2,048 and 8,192 exactly (2π·2⁻¹¹ and
    # 2π·2⁻¹³ are exact), one float step either side of each, and one pair inside each band.
    sc = configs.load("llama31_8b")["scaling"]
    s, lf, hf_, L = sc["factor"], sc["low_freq_factor"], sc["high_freq_factor"], sc["original_max_position_embeddings"]
    lams = [100.0, float_steps(2048.0, -1), 2048.0, float_steps(2048.0, 1), 4096.0,
            float_steps(8192.0, -1), 8192.0, float_steps(8192.0, 1), 50_000.0]
    omega = np.array([2 * math.pi / lam for lam in lams])
    assert [2 * math.pi / w for w in omega][2::4] == [2048.0, 8192.0]
    monkeypatch.setattr(scaling, "inverse_frequencies", lambda *args: omega.copy())
    want, bands = llama3_by_reference(omega, s, lf, hf_, L)
    assert bands == ["unchanged", "unchanged"] + ["smoothed"] * 5 + ["scaled", "scaled"]
    ours, att = scaling.llama3(18, 500_000.0, s, lf, hf_, L)
    np.testing.assert_array_equal(ours, want)
    assert att == 1.0
    assert scaling.llama3_split(18, 500_000.0, lf, hf_, L) == {"unchanged": 2, "scaled": 2, "smoothed": 5}
    # at the edges the blend is continuous: ω itself at 2,048 (weight exactly 1), ω/s at 8,192 (weight 0)
    assert ours[2] == omega[2] and ours[6] == omega[6] / s


def correction_dim_as_transformers(num_rotations, dim, base, max_position_embeddings):
    """transformers' ``find_correction_dim``, operation for operation (so float64 edges land identically)."""
    return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))


def base_with_integral_correction_dim(k: int, rotations: float, dim: int, L: int) -> float:
    """A base θ for which the pair turning ``rotations`` times in L tokens is exactly pair k (in float64)."""
    guess = math.exp(dim * math.log(L / (rotations * 2 * math.pi)) / (2 * k))
    for n in range(400):
        for step in (n, -n):
            theta = float_steps(guess, step)
            if correction_dim_as_transformers(rotations, dim, theta, L) == k:
                return theta
    raise AssertionError("no base found")


def beta_with_integral_correction_dim(k: int, dim: int, base: float, L: int) -> float:
    """A rotation count β for which correction_dim(β) is exactly k (in float64)."""
    guess = L / (2 * math.pi * base ** (2 * k / dim))
    for n in range(400):
        for step in (n, -n):
            beta = float_steps(guess, step)
            if correction_dim_as_transformers(beta, dim, base, L) == k:
                return beta
    raise AssertionError("no beta found")


YARN_EDGE = {"dim": 64, "L": 4096, "low": 10, "high": 23, "factor": 16.0}


@pytest.fixture(scope="module")
def yarn_edge():
    """(base, beta_slow) putting YaRN's low correction dim exactly on pair 10 and the high one on pair 23."""
    e = YARN_EDGE
    base = base_with_integral_correction_dim(e["low"], scaling.YARN_BETA_FAST, e["dim"], e["L"])
    beta_slow = beta_with_integral_correction_dim(e["high"], e["dim"], base, e["L"])
    return base, beta_slow


@pytest.mark.parametrize("truncate", [True, False])
@pytest.mark.parametrize("base_step", [0, -60, 60])
def test_yarn_ramp_ends_on_and_beside_integral_correction_dims(hf, yarn_edge, truncate, base_step):
    e = YARN_EDGE
    base = float_steps(yarn_edge[0], base_step)  # a larger base moves both correction dims down a little
    beta_slow = yarn_edge[1]
    low_exact = correction_dim_as_transformers(scaling.YARN_BETA_FAST, e["dim"], base, e["L"])
    high_exact = correction_dim_as_transformers(beta_slow, e["dim"], base, e["L"])
    assert scaling.yarn_correction_dim(scaling.YARN_BETA_FAST, e["dim"], base, e["L"]) == low_exact
    assert scaling.yarn_correction_dim(beta_slow, e["dim"], base, e["L"]) == high_exact
    if base_step == 0:
        assert (low_exact, high_exact) == (e["low"], e["high"])
    else:  # one float step off the integers, on the side the base moved them
        assert (low_exact < e["low"]) == (high_exact < e["high"]) == (base_step > 0)
        assert abs(low_exact - e["low"]) < 1e-13 and abs(high_exact - e["high"]) < 1e-13
    want = (math.floor(low_exact), math.ceil(high_exact)) if truncate else (low_exact, high_exact)
    got = scaling.yarn_correction_range(e["dim"], base, e["L"], scaling.YARN_BETA_FAST, beta_slow, truncate)
    assert got == want
    if truncate and base_step > 0:
        assert got == (e["low"] - 1, e["high"])  # floor drops just below 10; ceil keeps 23
    if truncate and base_step < 0:
        assert got == (e["low"], e["high"] + 1)
    # the ramp is 0 up to low and 1 from high on, linear between
    ramp = scaling.yarn_ramp(got[0], got[1], e["dim"] // 2)
    j = np.arange(e["dim"] // 2)
    np.testing.assert_allclose(ramp, np.clip((j - got[0]) / (got[1] - got[0]), 0, 1), rtol=1e-15, atol=0)
    assert ramp[j <= got[0]].max() == 0 and ramp[j >= got[1]].min() == 1
    theirs, _ = hf.run("yarn", **hf_kwargs(e["dim"], int(e["factor"] * e["L"]), rope_type="yarn", rope_theta=base,
                                            factor=e["factor"], original_max_position_embeddings=e["L"],
                                            beta_fast=scaling.YARN_BETA_FAST, beta_slow=beta_slow, truncate=truncate))
    ours, _ = scaling.yarn(e["dim"], base, e["factor"], e["L"], beta_slow=beta_slow, truncate=truncate)
    assert_blend_close(ours, theirs, rope.inverse_frequencies(e["dim"], base), slope=yarn_ramp_slope(*got, e["dim"] // 2))


@pytest.mark.parametrize(
    "dim, base, L, beta_fast, beta_slow, want",
    [
        (64, 10_000.0, 256, 64.0, 1.0, (0, None)),  # L/(2π·64) < 1: the low correction dim is negative, raised to 0
        (64, 2.0, 4096, 32.0, 0.25, (None, 63)),  # a tiny base: the high one passes dim − 1 and is lowered to it
        (16, 10_000.0, 4096, 2.0, 2.0, (None, None)),  # beta_fast = beta_slow: an empty ramp, widened by 0.001
    ],
)
def test_yarn_correction_range_clamps_like_transformers(hf, dim, base, L, beta_fast, beta_slow, want):
    low_exact = correction_dim_as_transformers(beta_fast, dim, base, L)
    high_exact = correction_dim_as_transformers(beta_slow, dim, base, L)
    got = scaling.yarn_correction_range(dim, base, L, beta_fast, beta_slow)
    assert got == (max(math.floor(low_exact), 0), min(math.ceil(high_exact), dim - 1))
    if want[0] is not None:
        assert low_exact < 0 and got[0] == want[0]
    if want[1] is not None:
        assert high_exact > dim - 1 and got[1] == want[1]
    for truncate in (True, False):
        theirs, _ = hf.run("yarn", **hf_kwargs(dim, 4 * L, rope_type="yarn", rope_theta=base, factor=4.0,
                                                original_max_position_embeddings=L, beta_fast=beta_fast,
                                                beta_slow=beta_slow, truncate=truncate))
        ours, _ = scaling.yarn(dim, base, 4.0, L, beta_fast, beta_slow, truncate)
        low, high = scaling.yarn_correction_range(dim, base, L, beta_fast, beta_slow, truncate)
        assert_blend_close(ours, theirs, rope.inverse_frequencies(dim, base), slope=yarn_ramp_slope(low, high, dim // 2))


def test_yarn_empty_ramp_is_a_step_at_the_correction_dim():
    # low == high: transformers widens the ramp to 0.001 pairs, so pairs ≤ low keep ω and pairs > low get ω/s
    ramp = scaling.yarn_ramp(5, 5, 10)
    assert ramp.tolist() == [0.0] * 6 + [1.0] * 4
    ramp = scaling.yarn_ramp(4.9995, 4.9995, 10)  # widened to (4.9995, 5.0005): pair 5 sits mid-ramp
    assert ramp[5] == pytest.approx(0.5, abs=1e-9) and ramp[4] == 0 and ramp[6] == 1


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
        (lambda: scaling.llama3(128, 5e5, 8, 2, 2, 8192), "high_freq_factor must exceed low_freq_factor"),
        (lambda: scaling.llama3_split(128, 5e5, 2, 2, 8192), "high_freq_factor must exceed low_freq_factor"),
        (lambda: scaling.for_model(configs.load("gpt2")), "RoPE"),
        (lambda: scaling.for_model(configs.load("qwen3_8b"), layer="local"), "local_rope_theta"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


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


def toy_model(scaling_dict, **fields):
    """A RoPE ModelConfig through configs' own parser (head 8, θ 100, native context 64)."""
    base = {"context": 64, "head_dim": 8, "rope_theta": 100.0, "scaling": scaling_dict, **fields}
    return configs._parse("toy", {"name": "Toy", "position": "rope",
                                  "fields": {k: {"value": v, "source": "test", "tag": "U"} for k, v in base.items() if v is not None}})


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: scaling.linear(128, 1e4, 0.5),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got 0.5; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.linear(128, 1e4, True),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got True; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.linear(128, 1e4, float("inf")),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got inf; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.linear(128, 1e4, "4"),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got '4'; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.abf(128, 1e4, 1e4), "new_base must be larger than base (ABF raises the base), got new_base=10000.0, base=10000.0"),
        (lambda: scaling.abf(128, 1e6, 1e4), "new_base must be larger than base (ABF raises the base), got new_base=10000.0, base=1000000.0"),
        (lambda: scaling.abf(128, 1e4, 1),
         "new_base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1; the paper uses new_base=10000"),
        (lambda: scaling.abf(128, 0.5, 1e6),
         "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 0.5; the paper uses base=10000"),
        (lambda: scaling.ntk_aware_base(1e4, 4, 2), "dim must be at least 4 for NTK-aware scaling (the exponent d/(d−2) is undefined at d=2), got 2"),
        (lambda: scaling.ntk_aware_base(1e4, 4, 5),
         "dim must be a positive even integer (dimensions come in sin/cos pairs), got 5; use 6 or another even number"),
        (lambda: scaling.ntk_aware_base(1e4, 0.9, 128),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got 0.9; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.ntk_aware(128, 1e4, 4, rotary_fraction=2 / 128),
         "dim must be at least 4 for NTK-aware scaling (the exponent d/(d−2) is undefined at d=2), got 2"),
        (lambda: scaling.dynamic_ntk(128, 1e4, 4, 0),
         "max_position_embeddings must be a positive integer number of tokens, got 0; pass e.g. max_position_embeddings=32768"),
        (lambda: scaling.dynamic_ntk(128, 1e4, 4, 4096, 0), "seq_len must be a positive integer number of tokens, got 0; pass e.g. seq_len=32768"),
        (lambda: scaling.dynamic_ntk(128, 1e4, 0.5, 4096),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got 0.5; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.dynamic_ntk(128, 1.0, 2, 4096),
         "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1.0; the paper uses base=10000"),
        (lambda: scaling.yarn_mscale(4, 0), "mscale must be a positive finite number, got 0"),
        (lambda: scaling.yarn_mscale(0.5),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got 0.5; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.yarn_attention_factor(4, mscale=-1.0), "mscale must be a positive finite number, got -1.0"),
        (lambda: scaling.yarn_attention_factor(4, mscale_all_dim=0.0), "mscale_all_dim must be a positive finite number, got 0.0"),
        (lambda: scaling.yarn_correction_dim(0, 64, 1e4, 4096), "rotations must be a positive finite number, got 0"),
        (lambda: scaling.yarn_correction_dim(32, 63, 1e4, 4096),
         "dim must be a positive even integer (dimensions come in sin/cos pairs), got 63; use 64 or another even number"),
        (lambda: scaling.yarn_correction_dim(32, 64, 1.0, 4096),
         "base must be greater than 1 (otherwise frequencies do not decrease across pairs), got 1.0; the paper uses base=10000"),
        (lambda: scaling.yarn_correction_dim(32, 64, 1e4, 4096.0),
         "original_context must be a positive integer number of tokens, got 4096.0; pass e.g. original_context=32768"),
        (lambda: scaling.yarn_correction_range(64, 1e4, 4096, 1, 32),
         "beta_fast must be ≥ beta_slow (fast pairs turn more often), got beta_fast=1.0, beta_slow=32.0; the paper uses 32 and 1"),
        (lambda: scaling.yarn_correction_range(64, 1e4, 4096, 0, 1), "beta_fast must be a positive finite number, got 0"),
        (lambda: scaling.yarn_correction_range(64, 1e4, 4096, 32, 0), "beta_slow must be a positive finite number, got 0"),
        (lambda: scaling.yarn_correction_range(64, 1e4, 4096, truncate="yes"), "truncate must be True or False, got 'yes'"),
        (lambda: scaling.yarn_correction_range(64, 1e4, 4096, truncate=1), "truncate must be True or False, got 1"),
        (lambda: scaling.yarn_ramp(1, 3, 0), "n_pairs must be a positive integer, got 0"),
        (lambda: scaling.yarn_ramp(1, 3, 4.0), "n_pairs must be a positive integer, got 4.0"),
        (lambda: scaling.yarn_ramp(1, 3, True), "n_pairs must be a positive integer, got True"),
        (lambda: scaling.yarn(128, 1e4, 4, 4096, attention_factor=0), "attention_factor must be a positive finite number, got 0"),
        (lambda: scaling.yarn(128, 1e4, 0.5, 4096),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got 0.5; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.llama3(128, 5e5, 8, 4, 1, 8192),
         "high_freq_factor must exceed low_freq_factor, got high_freq_factor=1.0, low_freq_factor=4.0; Llama 3.1 uses 4 and 1"),
        (lambda: scaling.llama3(128, 5e5, 8, 0, 4, 8192), "low_freq_factor must be a positive finite number, got 0"),
        (lambda: scaling.llama3(128, 5e5, 8, 1, 0, 8192), "high_freq_factor must be a positive finite number, got 0"),
        (lambda: scaling.llama3(128, 5e5, 0.5, 1, 4, 8192),
         "factor must be a finite number ≥ 1 (new context ÷ original context), got 0.5; e.g. factor=4.0 stretches 32,768 to 131,072"),
        (lambda: scaling.llama3(128, 5e5, 8, 1, 4, 0),
         "original_context must be a positive integer number of tokens, got 0; pass e.g. original_context=32768"),
        (lambda: scaling.llama3_split(128, 5e5, 1, 4, 0),
         "original_context must be a positive integer number of tokens, got 0; pass e.g. original_context=32768"),
        (lambda: scaling.for_model(configs.load("gpt2")), "for_model needs a RoPE model from models.yaml, got 'gpt2'; e.g. configs.load('qwen3_8b')"),
        (lambda: scaling.for_model("qwen3_8b"), "for_model needs a RoPE model from models.yaml, got 'qwen3_8b'; e.g. configs.load('qwen3_8b')"),
        (lambda: scaling.for_model(configs.load("qwen3_8b"), layer="middle"), "layer must be 'global' or 'local', got 'middle'"),
        (lambda: scaling.for_model(configs.load("qwen3_8b"), layer="local"),
         "model 'qwen3_8b' has no local_rope_theta; layer='local' is for models like gemma3_27b"),
    ],
)
def test_bad_input_messages_name_the_argument_and_the_fix(call, message):
    with raises_exactly(message):
        call()


def test_for_model_rejects_a_scaling_it_does_not_implement():
    cfg = configs.ModelConfig("toy", "Toy", "rope", {
        "head_dim": configs.Field(8, "test", "U"), "rope_theta": configs.Field(100.0, "test", "U"),
        "context": configs.Field(64, "test", "U"), "scaling": configs.Field({"rope_type": "ntk", "factor": 2.0}, "test", "U")})
    with raises_exactly("model 'toy': scaling rope_type 'ntk' is not implemented; use one of linear, dynamic, yarn, llama3, longrope"):
        scaling.for_model(cfg)


def test_abf_is_a_new_base_and_nothing_else():
    inv, att = scaling.abf(8, 100.0, 400.0, rotary_fraction=0.5)  # 4 rotary dims: ω = (1, 400^(−1/2))
    np.testing.assert_allclose(inv, [1.0, 0.05], rtol=1e-15)
    assert att == 1.0
    np.testing.assert_array_equal(scaling.abf(64, 1e4, 1e6)[0], rope.inverse_frequencies(64, 1e6))


def test_ntk_and_dynamic_ntk_by_hand_with_a_partial_head():
    # 4 of 8 dims rotary, θ = 100, s = 4: θ' = 100·4^(4/2) = 1,600, ω = (1, 1600^(−1/2) = 0.025)
    assert scaling.ntk_aware_base(100.0, 4.0, 4) == pytest.approx(1600.0, rel=1e-15)
    inv, att = scaling.ntk_aware(8, 100.0, 4.0, rotary_fraction=0.5)
    np.testing.assert_allclose(inv, [1.0, 0.025], rtol=1e-14)
    assert att == 1.0
    # dynamic: s = 2, L = 10, ℓ = 30 → s·ℓ/L − (s − 1) = 5 → θ' = 100·5² = 2,500, ω_1 = 0.02
    inv, att = scaling.dynamic_ntk(8, 100.0, 2.0, 10, 30, rotary_fraction=0.5)
    np.testing.assert_allclose(inv, [1.0, 0.02], rtol=1e-14)
    assert att == 1.0
    for seq_len in (None, 1, 10):  # up to L (and by default) nothing changes
        np.testing.assert_array_equal(scaling.dynamic_ntk(8, 100.0, 2.0, 10, seq_len)[0], rope.inverse_frequencies(8, 100.0))
    np.testing.assert_allclose(scaling.dynamic_ntk(8, 100.0, 1.0, 10, 20)[0], scaling.ntk_aware(8, 100.0, 2.0)[0], rtol=1e-14)


def test_yarn_attention_factors_by_hand():
    assert scaling.yarn_mscale(1.0) == 1.0 and scaling.yarn_mscale(math.e, 2.0) == pytest.approx(1.2, rel=1e-15)
    assert scaling.yarn_mscale(math.e) == pytest.approx(1.1, rel=1e-15)  # mscale defaults to 1
    # both multipliers (DeepSeek's config): the ratio; one alone is ignored, as in transformers
    assert scaling.yarn_attention_factor(math.e, 2.0, 0.5) == pytest.approx(1.2 / 1.05, rel=1e-15)
    assert scaling.yarn_attention_factor(math.e, mscale=2.0) == pytest.approx(1.1, rel=1e-15)
    assert scaling.yarn_attention_factor(math.e, mscale_all_dim=2.0) == pytest.approx(1.1, rel=1e-15)
    _, att = scaling.yarn(64, 1e4, 4, 4096, attention_factor=2)
    assert att == 2.0 and type(att) is float
    _, att = scaling.yarn(64, 1e4, math.e, 4096, mscale=2.0, mscale_all_dim=0.5)
    assert att == pytest.approx(1.2 / 1.05, rel=1e-15)


def test_yarn_correction_dim_by_hand():
    # 628 tokens, 1 turn: L/(2π) ≈ 99.949; with d = 4, θ = 100: j = 4·ln(99.949)/(2·ln 100)
    assert scaling.yarn_correction_dim(1, 4, 100.0, 628) == pytest.approx(2 * math.log(628 / (2 * math.pi)) / math.log(100), rel=1e-15)
    assert scaling.yarn_correction_dim(2.5, 64, 1e4, 4096) == pytest.approx(correction_dim_by_hand(2.5, 64, 1e4, 4096), rel=1e-15)


def test_yarn_pairs_pass_every_setting_through():
    p = {"head_dim": 16, "base": 500.0, "factor": 3.0, "original_context": 300, "beta_fast": 8.0, "beta_slow": 0.5,
         "truncate": False, "mscale": 2.0, "mscale_all_dim": 0.5, "rotary_fraction": 0.5}
    t = scaling.yarn_pairs(**p)
    d = 8
    low, high = correction_range_by_hand(8.0, 0.5, d, 500.0, 300, truncate=False)
    assert (t.low, t.high) == pytest.approx((low, high), rel=1e-15)
    assert t.pair.tolist() == [0, 1, 2, 3]
    omega = [500.0 ** (-2 * j / d) for j in range(4)]
    np.testing.assert_allclose(t.wavelength, [2 * math.pi / w for w in omega], rtol=1e-14)
    np.testing.assert_allclose(t.rotations, [300 * w / (2 * math.pi) for w in omega], rtol=1e-14)
    ramp = [min(max((j - low) / (high - low), 0.0), 1.0) for j in range(4)]
    np.testing.assert_allclose(t.ramp, ramp, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(t.inv_freq, [(1 - r) * w + r * w / 3 for r, w in zip(ramp, omega)], rtol=1e-14)
    assert t.attention_factor == pytest.approx((0.1 * 2 * math.log(3) + 1) / (0.1 * 0.5 * math.log(3) + 1), rel=1e-15)
    assert t.kept + t.blended + t.interpolated == 4 and t.kept == sum(r == 0 for r in ramp)
    assert scaling.yarn_pairs(16, 500.0, 3.0, 300, attention_factor=0.5).attention_factor == 0.5


def test_llama3_with_a_partial_head_by_hand():
    # 4 of 8 dims rotary, θ = 100: λ = (2π, 20π); L = 40, lf 1, hf 4: 2π < 10 kept, 20π > 40 divided by s
    inv, att = scaling.llama3(8, 100.0, 2.0, 1.0, 4.0, 40, rotary_fraction=0.5)
    np.testing.assert_allclose(inv, [1.0, 0.05], rtol=1e-15)
    assert att == 1.0
    # L = 100: 20π ≈ 62.8 lies between 25 and 100, smoothed with γ = (100/20π − 1)/3
    g = (100 / (20 * math.pi) - 1) / 3
    np.testing.assert_allclose(scaling.llama3(8, 100.0, 2.0, 1.0, 4.0, 100, rotary_fraction=0.5)[0], [1.0, (1 - g) * 0.05 + g * 0.1], rtol=1e-14)
    assert scaling.llama3_split(8, 100.0, 1.0, 4.0, 100, rotary_fraction=0.5) == {"unchanged": 1, "scaled": 0, "smoothed": 1}


def test_for_model_covers_each_scaling_branch():
    dynamic = toy_model({"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=32)
    inv, att = scaling.for_model(dynamic)
    np.testing.assert_array_equal(inv, scaling.dynamic_ntk(8, 100.0, 2.0, 32)[0])  # at its own length: unchanged
    assert att == 1.0
    plain = toy_model(None)
    np.testing.assert_array_equal(scaling.for_model(plain)[0], rope.inverse_frequencies(8, 100.0))
    given = toy_model({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "attention_factor": 1.5,
                       "beta_fast": 4.0, "beta_slow": 0.5, "truncate": False})
    inv, att = scaling.for_model(given)
    np.testing.assert_array_equal(inv, scaling.yarn(8, 100.0, 2.0, 64, 4.0, 0.5, False)[0])
    assert att == 1.5
    kimi = configs.load("kimi_k2")  # beta_fast = beta_slow = 1: not the defaults
    sc = kimi["scaling"]
    np.testing.assert_array_equal(scaling.for_model(kimi)[0],
                                  scaling.yarn(kimi["head_dim"], kimi["rope_theta"], sc["factor"], sc["original_max_position_embeddings"], 1.0, 1.0)[0])
    partial = toy_model({"rope_type": "linear", "factor": 4.0}, head_dim=16, rotary_fraction=0.5)
    np.testing.assert_allclose(scaling.for_model(partial)[0], rope.inverse_frequencies(16, 100.0, 0.5) / 4, rtol=1e-15)


# --- by hand -------------------------------------------------------------------------------------------------------


def omega(i: int, d: int, theta: float) -> float:
    return theta ** (-2 * i / d)


def fraction(p: int, i: int, d: int, theta: float) -> float:
    """Share of a full turn pair i sweeps by position p: min(p·ω_i / 2π, 1)."""
    return min(p * omega(i, d, theta) / (2 * math.pi), 1.0)


def test_base_change_every_field_with_a_partial_head_and_a_longer_window():
    # head 12, rotary fraction 0.5 → d = 6, three pairs; θ 100 at L = 40 → θ' 10,000 at L' = 900.
    # λ before: 2π, 2π·100^(1/3) ≈ 29.2, 2π·100^(2/3) ≈ 135.4 → two pairs turn within 40;
    # λ after: 2π, 2π·10⁴^(1/3) ≈ 135.4, 2π·10⁴^(2/3) ≈ 2,916 → two pairs turn within 900.
    ch = scaling.base_change(12, 100.0, 10_000.0, 40, 900, rotary_fraction=0.5)
    d = 6
    before = [fraction(40, i, d, 100.0) for i in range(3)]
    after = [fraction(900, i, d, 10_000.0) for i in range(3)]
    assert (ch.rotary_dim, ch.pairs) == (6, 3)
    assert (ch.base, ch.new_base, ch.length, ch.new_length) == (100.0, 10_000.0, 40, 900)
    assert (ch.turned_before, ch.turned_after) == (2, 2)
    assert ch.slowest_fraction_before == pytest.approx(before[2], rel=1e-14)
    assert ch.slowest_fraction_after == pytest.approx(after[2], rel=1e-14)
    assert 0 < before[2] < 1 and 0 < after[2] < 1 and before[1] == 1.0  # the last pair is not the middle one
    assert ch.mean_fraction_before == pytest.approx(sum(before) / 3, rel=1e-14)
    assert ch.mean_fraction_after == pytest.approx(sum(after) / 3, rel=1e-14)


def test_base_change_keeps_the_window_by_default_and_uses_the_whole_head():
    # head 6 (fraction 1 by default), θ 100 → 10,000, L = L' = 40: only pair 0 (λ = 2π) turns afterwards.
    ch = scaling.base_change(6, 100.0, 10_000.0, 40)
    assert (ch.rotary_dim, ch.length, ch.new_length) == (6, 40, 40)
    assert (ch.turned_before, ch.turned_after) == (2, 1)
    after = [fraction(40, i, 6, 10_000.0) for i in range(3)]
    assert ch.slowest_fraction_after == pytest.approx(after[2], rel=1e-14)
    assert ch.mean_fraction_after == pytest.approx(sum(after) / 3, rel=1e-14)


def test_ntk_factor_for_an_unchanged_base_is_one():
    # new_base may equal base ("at least base"): θ' = θ·s^(d/(d−2)) = θ means s = 1
    assert scaling.ntk_factor_for_base(10_000.0, 10_000.0, 128) == 1.0


def methods_by_hand(d: int, theta: float, s: float, L: int, **betas) -> dict[str, list[float]]:
    ntk_theta = theta * s ** (d / (d - 2))  # YaRN Eq. 16
    return {
        "none": [omega(i, d, theta) for i in range(d // 2)],
        "linear": [omega(i, d, theta) / s for i in range(d // 2)],
        "ntk": [omega(i, d, ntk_theta) for i in range(d // 2)],
        "yarn": yarn_by_hand(d, theta, s, L, **betas)[0],
    }


def assert_methods(got: dict, want: dict):
    assert tuple(got) == scaling.COMPARED_METHODS
    for name in scaling.COMPARED_METHODS:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-12, err_msg=name)


def test_methods_for_an_unscaled_partial_rotary_model_use_its_context_and_rotary_dims():
    # Qwen3-Next: head 256, a quarter rotary (d = 64), θ 10⁷, no scaling in models.yaml, context 262,144:
    # with factor=2 every method runs on the 64 rotary dims, and YaRN takes L = the context.
    cfg = configs.load("qwen3_next_80b_a3b")
    assert cfg.get("scaling") is None and cfg["rotary_fraction"] == 0.25 and cfg["context"] == 262_144
    assert_methods(scaling.methods_for(cfg, factor=2.0), methods_by_hand(64, 1e7, 2.0, 262_144))


def test_methods_for_use_a_yarn_models_own_betas_only_at_its_own_factor():
    # Kimi K2 scales with YaRN, β_fast = β_slow = 1 (not the paper's 32 and 1), s 32, L 4,096, d 64, θ 50,000.
    cfg = configs.load("kimi_k2")
    own = methods_by_hand(64, 50_000.0, 32.0, 4096, fast=1.0, slow=1.0)
    assert_methods(scaling.methods_for(cfg), own)
    assert_methods(scaling.methods_for(cfg, factor=32.0), own)
    assert_methods(scaling.methods_for(cfg, factor=16.0), methods_by_hand(64, 50_000.0, 16.0, 4096))
    assert not np.allclose(own["yarn"], methods_by_hand(64, 50_000.0, 32.0, 4096)["yarn"])  # the betas matter


def test_methods_for_a_llama3_model_compare_yarn_at_its_original_context():
    # Llama 3.1 8B scales with llama3 (s 8, L 8,192): methods_for shows paper-default YaRN at L = 8,192.
    assert_methods(scaling.methods_for(configs.load("llama31_8b")), methods_by_hand(128, 500_000.0, 8.0, 8192))


def test_angle_overshoot_of_float32_frequencies_is_computed_in_float64():
    # transformers hands out float32 inv_freq; the ratio s·ω'/ω must be the quotient of those float32
    # values taken in float64, not a float32 product rounded on the way (off by ~1e-8).
    omega = np.array([1.0, 1e-3, 1e-5, 3e-7], dtype=np.float32)  # λ ≈ 6.3, 6,283, 628,319, 2.1e7 tokens
    scaled = (omega / np.float32(3.0)).astype(np.float32)
    s = 1.1
    got = scaling.angle_overshoot(omega, scaled, 4096, s)
    assert math.isnan(got[0])  # λ = 2π ≤ 4,096: pair 0 turns within L
    want = [s * float(scaled[j]) / float(omega[j]) for j in (1, 2, 3)]
    np.testing.assert_allclose(got[1:], want, rtol=1e-15, atol=0)


def test_angle_overshoot_a_pair_turning_exactly_once_within_L_has_seen_every_angle():
    # ω_1 = 2π/4,096: λ_1 = 4,096 = L exactly (in float64 too), so the pair completes its turn: NaN.
    omega = np.array([1.0, 2 * math.pi / 4096, 2 * math.pi / 4097])
    assert 2 * math.pi / omega[1] == 4096.0
    got = scaling.angle_overshoot(omega, omega / 2, 4096, 4.0)
    assert math.isnan(got[0]) and math.isnan(got[1])
    assert got[2] == pytest.approx(2.0, rel=1e-15)  # λ = 4,097 > L: s·(ω/2)/ω = 2


def test_position_interpolation_never_overshoots_and_ntk_aware_overshoots_all_but_the_last_pair():
    # Llama 2 (d 128, θ 10,000, L 4,096), s = 4. PI: s·(ω/s)/ω = 1 for every pair, up to rounding, which the
    # 1e-9 slack absorbs: none overshoots. NTK-aware: s·(θ/θ')^(2j/d) = s^(1 − 2j/(d−2)) > 1 for every
    # never-turning pair except the last (j = d/2 − 1, exactly 1): 18 never turn within 4,096 (facts.md §2).
    d, theta, L, s = 128, 10_000.0, 4096, 4.0
    omega = np.array([theta ** (-2 * j / d) for j in range(d // 2)])
    never = [j for j in range(d // 2) if 2 * math.pi / omega[j] > L]
    assert len(never) == 18
    assert scaling.pairs_beyond_trained_angles(omega, omega / s, L, s) == 0
    ntk = np.array([(theta * s ** (d / (d - 2))) ** (-2 * j / d) for j in range(d // 2)])
    over = [s ** (1 - 2 * j / (d - 2)) for j in never]
    assert sum(o > 1 + 1e-9 for o in over) == 17 and min(over[:-1]) < 2  # some overshoot by less than 2×
    assert scaling.pairs_beyond_trained_angles(omega, ntk, L, s) == 17


def test_overshoot_exactly_at_the_slack_is_not_counted():
    # A never-turning pair (ω = 2⁻²⁰, λ ≈ 6.6M) whose ratio is exactly 1 + 1e-9 sits on the float slack: not counted.
    omega = np.array([2.0 ** -20])
    scaled = omega * (1.0 + 1e-9)  # a power of two times (1 + 1e-9): exact
    assert 1.0 * scaled[0] / omega[0] == 1.0 + 1e-9
    assert scaling.pairs_beyond_trained_angles(omega, scaled, 4096, 1.0) == 0
    assert scaling.pairs_beyond_trained_angles(omega, omega * (1.0 + 4e-9), 4096, 1.0) == 1


def test_yarn_paper_ramp_refuses_empty_or_missing_turn_counts_with_a_value_error():
    for bad in ([], [1.0, None]):
        with pytest.raises(ValueError, match=r"^rotations\b"):
            scaling.yarn_paper_ramp(bad)


def test_yarn_ramp_of_a_single_pair():
    # a 2-dim rotary part has one pair; the ramp still starts at pair 0 (ramp 0 at j = low = 0)
    assert scaling.yarn_ramp(0, 1, 1).tolist() == [0.0]
    assert scaling.yarn_ramp(-1, 1, 1).tolist() == [0.5]


def test_dynamic_ntk_reads_max_position_embeddings_else_the_context():
    # L = max_position_embeddings when the model gives one (32), else its context (64); at ℓ = 128 the base
    # grows to θ·(s·ℓ/L − (s − 1))^(d/(d−2)) with d = 8: s = 2 → factor 7 at L = 32, 3 at L = 64.
    for fields, L in (({"max_position_embeddings": 32}, 32), ({}, 64)):
        kind, kwargs = scaling.scaling_arguments(toy_model({"rope_type": "dynamic", "factor": 2.0}, **fields))
        assert kind == "dynamic" and kwargs["max_position_embeddings"] == L
        grown = 100.0 * (2.0 * 128 / L - 1.0) ** (8 / 6)
        inv, _ = scaling.SCALINGS[kind](**kwargs, seq_len=128)
        np.testing.assert_allclose(inv, [omega(i, 8, grown) for i in range(4)], rtol=1e-13)


def test_for_model_of_an_unscaled_partial_rotary_model():
    # GLM-4.5: head 128, half rotary (d = 64), θ 10⁶, no scaling: plain ω over 32 pairs, attention factor 1.
    cfg = configs.load("glm45")
    assert cfg.get("scaling") is None and cfg["rotary_fraction"] == 0.5
    inv, att = scaling.for_model(cfg)
    np.testing.assert_allclose(inv, [omega(i, 64, 1e6) for i in range(32)], rtol=1e-13)
    assert att == 1.0 and type(att) is float


def test_for_model_local_layers_of_a_partial_rotary_model():
    # a toy with a local base (θ_local 10) and a half-rotary head of 16: 4 pairs at θ_local, factor 1.
    cfg = toy_model(None, head_dim=16, rotary_fraction=0.5, local_rope_theta=10.0)
    inv, att = scaling.for_model(cfg, layer="local")
    np.testing.assert_allclose(inv, [omega(i, 8, 10.0) for i in range(4)], rtol=1e-13)
    assert att == 1.0


def test_yarn_pairs_number_the_pairs_with_integers():
    # the pair column indexes the other columns (a figure picks rows with it): integers 0 … d/2 − 1
    t = scaling.yarn_pairs(16, 500.0, 3.0, 300)
    assert t.pair.dtype.kind == "i" and t.pair.tolist() == list(range(8))
    np.testing.assert_array_equal(t.wavelength[t.pair[::-1]], t.wavelength[::-1])


# --- messages ------------------------------------------------------------------------------------------------------


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


# --- base raising (ABF) --------------------------------------------------------------------------------------------


FAST = settings(max_examples=60, deadline=None)


dims = st.integers(2, 128).map(lambda k: 2 * k)


bases = st.floats(2.0, 1e8, allow_nan=False)


lengths = st.integers(1, 2_000_000)


def closed_form_turned(d: int, base: float, length: int) -> tuple[int, float]:
    """#{i : 2π·θ^(2i/d) ≤ L} = ⌊(d/2)·ln(L/2π)/ln θ⌋ + 1, capped at d/2 (0 when L < 2π); and the exponent."""
    if length < 2 * math.pi:
        return 0, -1.0
    x = (d / 2) * math.log(length / (2 * math.pi)) / math.log(base)
    return min(d // 2, math.floor(x) + 1), x


@FAST
@given(dims, bases, lengths)
def test_pairs_completing_turn_closed_form(d, base, length):
    expected, x = closed_form_turned(d, base, length)
    assume(abs(x - round(x)) > 1e-9)  # a pair exactly on the boundary is decided by rounding, not by the formula
    inv = rope.inverse_frequencies(d, base)
    assert scaling.pairs_completing_turn(inv, length) == expected
    assert scaling.pairs_completing_turn(inv, length) + rope.pairs_not_completing_turn(inv, length) == d // 2


@pytest.mark.parametrize("d, base, length, not_turning", [
    (128, 10_000, 4096, 18),       # Llama 2 (facts.md §2)
    (128, 500_000, 8192, 29),      # Llama 3
    (128, 1_000_000, 32_768, 24),  # Qwen3
    (64, 10_000, 4096, 9),         # DeepSeek-V3's RoPE part
])
def test_counts_match_facts_md(d, base, length, not_turning):
    assert scaling.pairs_completing_turn(rope.inverse_frequencies(d, base), length) == d // 2 - not_turning


@FAST
@given(dims, bases, st.integers(0, 5_000_000))
def test_turn_fraction_closed_form(d, base, position):
    inv = rope.inverse_frequencies(d, base)
    got = scaling.turn_fraction(inv, position)
    i = np.arange(d // 2)
    expected = np.minimum(position / (2 * np.pi * base ** (2 * i / d)), 1.0)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)
    assert got[0] == min(position / (2 * np.pi), 1.0)  # ω_0 = 1 whatever the base


def test_code_llama_base_change():
    # Rozière et al. 2023 §2.4: θ 10,000 at 4,096 → 1,000,000 at 16,384; head_dim 128 (Llama 2)
    ch = scaling.base_change(128, 10_000, 1_000_000, 4096, 16_384)
    assert ch.pairs == 64
    assert ch.turned_before == closed_form_turned(128, 10_000, 4096)[0]
    assert ch.turned_after == closed_form_turned(128, 1_000_000, 16_384)[0]
    assert ch.slowest_fraction_before == pytest.approx(4096 / (2 * math.pi * 10_000 ** (126 / 128)))
    assert ch.slowest_fraction_after == pytest.approx(16_384 / (2 * math.pi * 1_000_000 ** (126 / 128)))
    assert ch.slowest_fraction_after < ch.slowest_fraction_before


@FAST
@given(dims, st.floats(10.0, 1e6), st.floats(1.01, 1000.0), lengths)
def test_raising_the_base_never_adds_turned_pairs(d, base, ratio, length):
    ch = scaling.base_change(d, base, base * ratio, length)
    assert ch.turned_after <= ch.turned_before
    assert ch.mean_fraction_after <= ch.mean_fraction_before + 1e-15


@FAST
@given(st.integers(2, 128).map(lambda k: 2 * k), st.floats(10.0, 1e6), st.floats(1.001, 1000.0))
def test_abf_base_is_ntk_aware_at_the_matching_factor(d, base, factor):
    # NTK-aware θ' = θ·s^(d/(d−2)) (YaRN Eq. 16) and ntk_factor_for_base invert each other ...
    new_base = scaling.ntk_aware_base(base, factor, d)
    assert scaling.ntk_factor_for_base(base, new_base, d) == pytest.approx(factor, rel=1e-9)
    # ... so ABF to that base and NTK-aware with that factor give the same frequencies,
    abf, _ = scaling.abf(d, base, new_base)
    ntk, _ = scaling.ntk_aware(d, base, factor)
    np.testing.assert_allclose(abf, ntk, rtol=1e-9)
    # and the slowest pair is slowed by exactly the factor, as Position Interpolation would slow it.
    assert rope.inverse_frequencies(d, base)[-1] / ntk[-1] == pytest.approx(factor, rel=1e-9)


def test_code_llama_as_ntk_factor():
    s = scaling.ntk_factor_for_base(10_000, 1_000_000, 128)
    assert s == pytest.approx(100 ** (126 / 128))


@pytest.mark.parametrize("call, match", [
    (lambda: scaling.pairs_completing_turn(rope.inverse_frequencies(64, 1e4), 0), "length|context"),
    (lambda: scaling.turn_fraction(rope.inverse_frequencies(64, 1e4), -1), "position"),
    (lambda: scaling.turn_fraction(rope.inverse_frequencies(64, 1e4), 2.5), "position"),
    (lambda: scaling.base_change(64, 1e4, 1.0, 4096), "new_base"),
    (lambda: scaling.base_change(64, 1e4, 1e6, 4096, new_length=0), "new_length"),
    (lambda: scaling.base_change(63, 1e4, 1e6, 4096), "head_dim|rotary"),
    (lambda: scaling.ntk_factor_for_base(1e6, 1e4, 128), "new_base"),
    (lambda: scaling.ntk_factor_for_base(1e4, 1e6, 2), "dim"),
])
def test_bad_input_raises_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- the registry and the model readers ----------------------------------------------------------------------------


ROOT = Path(__file__).resolve().parent.parent


def raw_fields(key: str) -> dict:
    """A model's fields straight from the YAML files (models.yaml and the files that add fields)."""
    out = {}
    for path in sorted((ROOT / "posenc" / "data").glob("models*.yaml")):
        entry = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(key)
        if entry:
            out.update({k: v["value"] for k, v in entry["fields"].items()})
    return out


SCALED = [k for k in ROPE_MODELS if configs.load(k).get("scaling") is not None]


@pytest.fixture(scope="module")
def hf_init():
    from transformers import modeling_rope_utils

    return modeling_rope_utils.ROPE_INIT_FUNCTIONS


def test_registry_covers_every_rope_type_models_yaml_accepts(hf_init):
    assert set(scaling.SCALINGS) == set(configs.SCALING_KEYS)
    assert set(scaling.SCALINGS) <= set(hf_init)  # the same names transformers dispatches on


@pytest.mark.parametrize("key", SCALED)
def test_scaling_arguments_read_the_yaml_values_and_fit_the_function(key):
    kind, kwargs = scaling.scaling_arguments(configs.load(key))
    raw = raw_fields(key)
    sc = raw["scaling"]
    assert kind == sc["rope_type"]
    inspect.signature(scaling.SCALINGS[kind]).bind(**kwargs)  # every argument is one the function takes
    assert kwargs["head_dim"] == raw["head_dim"] and kwargs["base"] == raw["rope_theta"]
    assert kwargs["rotary_fraction"] == raw.get("rotary_fraction", 1.0)
    assert kwargs["factor"] == sc.get("factor")  # a longrope dict may leave it out (Phi-3.5-mini)
    if kind == "longrope":
        assert kwargs["max_position_embeddings"] == raw["max_position_embeddings"]
        assert (kwargs["short_factor"], kwargs["long_factor"]) == (sc["short_factor"], sc["long_factor"])
    if kind in ("yarn", "llama3", "longrope"):
        assert kwargs["original_context"] == sc["original_max_position_embeddings"]
    if kind == "yarn":
        assert kwargs["beta_fast"] == sc.get("beta_fast", 32) and kwargs["beta_slow"] == sc.get("beta_slow", 1)
        assert kwargs["truncate"] == sc.get("truncate", True)
        for k in ("mscale", "mscale_all_dim", "attention_factor"):
            assert kwargs[k] == sc.get(k)
    if kind == "llama3":
        assert (kwargs["low_freq_factor"], kwargs["high_freq_factor"]) == (sc["low_freq_factor"], sc["high_freq_factor"])


@pytest.mark.parametrize("key", SCALED)
def test_for_model_dispatches_to_the_registered_function(key, hf_init):
    cfg = configs.load(key)
    kind = cfg["scaling"]["rope_type"]
    theirs, att = hf_init[kind](__import__("transformers").configuration_utils.PreTrainedConfig(
        **configs.transformers_kwargs(cfg)), seq_len=None)
    ours, our_att = scaling.for_model(cfg)
    np.testing.assert_allclose(ours, theirs.double().numpy(), rtol=2e-6)
    assert our_att == pytest.approx(float(att), rel=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: scaling.scaling_arguments(configs.load("llama2_7b")), "no scaling"),
    (lambda: scaling.scaling_arguments(configs.load("gpt2")), "RoPE"),
    (lambda: scaling.yarn_pairs_for_model(configs.load("llama31_8b")), "llama3"),
    (lambda: scaling.llama3_bands_for_model(configs.load("qwen3_8b")), "yarn"),
    (lambda: scaling.methods_for(configs.load("gpt2")), "RoPE"),
    (lambda: scaling.yarn_paper_ramp([[1.0, 2.0]]), "rotations"),
    (lambda: scaling.angle_overshoot([1.0, -0.1], [1.0, 0.1], 4096, 4), "inv_freq"),
])
def test_bad_input_raises_value_error_naming_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("key", [k for k in SCALED if configs.load(k)["scaling"]["rope_type"] == "yarn"])
def test_yarn_pairs_for_model_is_what_for_model_computes(key):
    cfg = configs.load(key)
    t = scaling.yarn_pairs_for_model(cfg)
    inv, att = scaling.for_model(cfg)
    np.testing.assert_array_equal(t.inv_freq, inv)
    assert t.attention_factor == att
    sc, raw = raw_fields(key)["scaling"], raw_fields(key)
    d = int(raw["head_dim"] * raw.get("rotary_fraction", 1.0))
    lo = correction_dim_by_hand(sc.get("beta_fast", 32), d, raw["rope_theta"], sc["original_max_position_embeddings"])
    hi = correction_dim_by_hand(sc.get("beta_slow", 1), d, raw["rope_theta"], sc["original_max_position_embeddings"])
    assert t.low_exact == pytest.approx(lo, rel=1e-12) and t.high_exact == pytest.approx(hi, rel=1e-12)
    if sc.get("truncate", True):
        assert (t.low, t.high) == (max(math.floor(lo), 0), min(math.ceil(hi), d - 1))
    else:  # gpt-oss: the reference code does not round (the old figure code did)
        assert (t.low, t.high) == pytest.approx((lo, hi), rel=1e-12)
    assert t.factor == sc["factor"]


def test_yarn_pairs_keep_their_own_betas_for_the_paper_ramp():
    t = scaling.yarn_pairs(64, 10_000, 4, 4096, beta_fast=16, beta_slow=2)
    assert (t.beta_fast, t.beta_slow) == (16, 2)
    expected = [1 - gamma_by_hand(4096 / (2 * math.pi * 10_000 ** (2 * j / 64)), 2, 16) for j in range(32)]
    np.testing.assert_allclose(t.paper_ramp, expected, atol=1e-15)
    gaps = np.abs(np.array(expected) - t.ramp)
    assert t.largest_ramp_gap() == int(np.argmax(gaps))


@pytest.mark.parametrize("r", [0.3, 1.0, 1.5, 16.0, 31.9, 32.0, 33.0])
def test_yarn_paper_ramp_is_one_minus_gamma(r):
    assert scaling.yarn_paper_ramp([r])[0] == pytest.approx(1 - gamma_by_hand(r, 1, 32), abs=1e-15)


def bands_by_hand(d, theta, lf, hf, L):
    """llama-models apply_scaling: wavelen < L/hf keep; wavelen > L/lf divide; else smooth."""
    out = []
    for j in range(d // 2):
        lam = 2 * math.pi / theta ** (-2 * j / d)
        out.append("kept" if lam < L / hf else "scaled" if lam > L / lf else "smoothed")
    return out


def test_llama31_bands_match_apply_scaling():
    bands = scaling.llama3_bands_for_model(configs.load("llama31_8b"))
    assert list(bands) == bands_by_hand(128, 500_000, 1, 4, 8192)
    assert scaling.llama3_split(128, 500_000, 1, 4, 8192) == {
        "unchanged": list(bands).count("kept"), "scaled": list(bands).count("scaled"), "smoothed": list(bands).count("smoothed")}


def test_a_wavelength_exactly_at_either_edge_is_smoothed():
    # Pick high_freq_factor / low_freq_factor so that L/hf and L/lf hit two wavelengths exactly (in floats).
    d, theta, L = 16, 10_000.0, 8192
    lam = rope.wavelengths(rope.inverse_frequencies(d, theta))
    edges = [j for j in range(d // 2) if L / (L / lam[j]) == lam[j]]
    assert len(edges) >= 2
    j_hi, j_lo = edges[0], edges[-1]
    hf, lf = L / lam[j_hi], L / lam[j_lo]
    bands = scaling.llama3_bands(d, theta, lf, hf, L)
    assert bands[j_hi] == "smoothed" and bands[j_lo] == "smoothed"
    assert list(bands) == bands_by_hand(d, theta, lf, hf, L)
    split = scaling.llama3_split(d, theta, lf, hf, L)
    assert split["unchanged"] == j_hi and split["scaled"] == d // 2 - 1 - j_lo
    # at the edges the smooth weight is 1 (keep ω) and 0 (ω/s), so the frequencies do not jump
    inv, _ = scaling.llama3(d, theta, 8.0, lf, hf, L)
    omega = rope.inverse_frequencies(d, theta)
    assert inv[j_hi] == pytest.approx(omega[j_hi], rel=1e-12)
    assert inv[j_lo] == pytest.approx(omega[j_lo] / 8, rel=1e-12)


def test_methods_for_follows_the_compared_methods_and_each_formula():
    m = scaling.methods_for(configs.load("qwen3_8b"))
    assert tuple(m) == scaling.COMPARED_METHODS
    d, theta, s = 128, 1e6, 4.0
    j = np.arange(d // 2)
    omega = theta ** (-2 * j / d)
    np.testing.assert_allclose(m["none"], omega, rtol=1e-12)
    np.testing.assert_allclose(m["linear"], omega / s, rtol=1e-12)
    np.testing.assert_allclose(m["ntk"], (theta * s ** (d / (d - 2))) ** (-2 * j / d), rtol=1e-12)


def test_methods_for_another_factor_uses_the_paper_defaults(hf_init):
    from transformers.configuration_utils import PreTrainedConfig

    m = scaling.methods_for(configs.load("qwen3_8b"), factor=8.0)
    kw = {"head_dim": 128, "hidden_size": 128, "num_attention_heads": 1, "max_position_embeddings": 8 * 32_768,
          "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 8.0,
                              "original_max_position_embeddings": 32_768}}
    theirs, _ = hf_init["yarn"](PreTrainedConfig(**kw), seq_len=None)
    np.testing.assert_allclose(m["yarn"], theirs.double().numpy(), rtol=2e-6)
    np.testing.assert_allclose(m["linear"], m["none"] / 8, rtol=1e-12)


def test_angle_overshoot_is_nan_for_pairs_that_turn_and_s_times_the_ratio_otherwise():
    omega = rope.inverse_frequencies(16, 10_000)
    scaled = omega / np.linspace(1, 3, 8)
    over = scaling.angle_overshoot(omega, scaled, 1000, 4)
    for j in range(8):
        lam = 2 * math.pi / omega[j]
        if lam <= 1000:
            assert math.isnan(over[j])
        else:
            assert over[j] == pytest.approx(4 * scaled[j] / omega[j], rel=1e-12)
    assert scaling.pairs_beyond_trained_angles(omega, scaled, 1000, 4) == int(np.sum(np.nan_to_num(over) > 1 + 1e-9))


# --- the paper's ramp and the compared methods ---------------------------------------------------------------------


@pytest.mark.parametrize("r", [0.01, 0.5, 1.0, 1.5, 8.03, 16.5, 31.9, 32.0, 40.0, 5215.0])
def test_paper_weight_is_one_minus_gamma(r):
    assert scaling.yarn_paper_ramp([r])[0] == pytest.approx(1 - gamma_by_hand(r), abs=1e-15)


def test_paper_weight_is_linear_in_r_and_the_code_ramp_linear_in_j():
    tbl = scaling.yarn_pairs(QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"])
    w = scaling.yarn_paper_ramp(tbl.rotations)
    inside = (tbl.rotations > 1) & (tbl.rotations < 32)
    r = tbl.rotations[inside]
    # equal steps in r give equal steps in the paper's weight …
    np.testing.assert_allclose(np.diff(w[inside]) / np.diff(r), -1 / 31, rtol=1e-9)
    # … while the code's ramp takes equal steps per pair index, and r shrinks geometrically per pair
    ramp = tbl.ramp[(tbl.ramp > 0) & (tbl.ramp < 1)]
    np.testing.assert_allclose(np.diff(ramp), 1 / (tbl.high - tbl.low), rtol=1e-9)
    np.testing.assert_allclose(r[1:] / r[:-1], QWEN["theta"] ** (-2 / QWEN["d"]), rtol=1e-9)


def test_paper_and_code_agree_on_which_pairs_are_kept_and_which_interpolated():
    tbl = scaling.yarn_pairs(QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"])
    w = scaling.yarn_paper_ramp(tbl.rotations)
    assert np.array_equal(w == 0, tbl.ramp == 0) and np.array_equal(w == 1, tbl.ramp == 1)


def test_methods_for_qwen3_follow_each_formula():
    d, theta, s, L = QWEN["d"], QWEN["theta"], QWEN["s"], QWEN["L"]
    m = scaling.methods_for(configs.load("qwen3_8b"))
    new_base = theta * s ** (d / (d - 2))
    yarn, _, _, _ = yarn_by_hand(d, theta, s, L)
    for j in range(d // 2):
        w = omega_by_hand(j, d, theta)
        assert m["none"][j] == pytest.approx(w, rel=1e-12)
        assert m["linear"][j] == pytest.approx(w / s, rel=1e-12)
        assert m["ntk"][j] == pytest.approx(new_base ** (-2 * j / d), rel=1e-12)
        assert m["yarn"][j] == pytest.approx(yarn[j], rel=1e-12)


# --- input dtypes --------------------------------------------------------------------------------------------------


def test_yarn_paper_ramp_names_rotations_for_a_string():
    with raises_exactly("rotations must be a non-empty 1-D array of positive finite turn counts r = L/λ, got ['two']; "
                        "e.g. scaling.yarn_pairs(...).rotations"):
        scaling.yarn_paper_ramp(["two"])
    # integer turn counts give the float answer: γ(r) = (r − 1)/31 between α = 1 and β = 32, so 1 − γ(2) = 30/31
    np.testing.assert_allclose(scaling.yarn_paper_ramp([1, 2, 32]), [1.0, 30 / 31, 0.0], rtol=0, atol=1e-15)
